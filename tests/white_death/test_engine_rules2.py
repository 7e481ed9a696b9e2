"""More rules, one test each: 8, 11.A, 12.C, 13, 14.C, 15.D, 16, 17, 18, 19, 20, 21.A, victory."""

from __future__ import annotations

from engines.white_death import WhiteDeath
from engines.white_death.artillery import _on_barrage
from engines.white_death.assault import firers, pool, targets
from engines.white_death.base import DieArgs
from engines.white_death.combat import _retreat, defense, fire_value, morale_modifiers, retreat_path
from engines.white_death.reinforcements import _entry_open
from engines.white_death.state import WDState
from engines.white_death.supply import ezoc, traced
from engines.white_death.turns import _finish

from .conftest import (
    declare_assault,
    refused,
    roll,
    settle,
    survive_defensive_fire,
)
from .positions import GERMAN_IMPULSE, position, purkayev_turn_1_german, velikiye_luki_cut_off


def test_8_rail_capacity_is_25_strength_points_a_turn(engine: WhiteDeath) -> None:
    def used(points: int) -> WDState:
        s = position(engine, GERMAN_IMPULSE + f"""
            rail_used = {{german = {points}}}
            [units]
            "I/504" = "0312"
        """)
        s.apply("impulse 5")
        return s
    s = used(22)
    refused(s, "entrain I/504", "Rule 8")  # 4 more would make 26
    s = used(21)
    s.apply("entrain I/504")
    assert s.pos.rail_used["german"] == 25


def test_8_weapons_units_entrain_only_in_towns(engine: WhiteDeath) -> None:
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "Hvy/LIX" = "0313"  # a railroad hex, not a town
    """)
    s.apply("impulse 5")
    refused(s, "entrain Hvy/LIX", "Rule 8")


def test_11_A_soviet_support_only_from_own_division(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "918A/357" = {hex = "1810", deployed = true}
        "788A/257" = {hex = "1809", deployed = true}
        "I/504" = "1510"
    """)
    declare_assault(s, "1510", "1188/357")
    s.apply("end barrage")
    survive_defensive_fire(s)
    assert s.phase == "assault"
    refused(s, "support with 788A/257", "Rule 11.A.1")  # another division
    before = pool(s, "conv")
    s.apply("support with 918A/357")
    # 2 x 5 = 10 at distance 2 of range 6: full value
    assert pool(s, "conv") == (before[0] + 10, 1)


def test_10_afv_defense_is_one_less_in_town(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/34M" = "1810"  # 1810 is a town on the test map
        "tk/18M" = "2010"
    """)
    assert defense(s, "tk/34M", "at") == 1  # T-70: 2, one less in a town (Rule 12.C)
    assert defense(s, "tk/18M", "at") == 4


def test_21_A_close_combat_units_double_in_towns(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "Pi/83" = "1810"
        "I/504" = "1910"
    """)
    assert fire_value(s, "Pi/83", "conv", "1810", False) == (18, 1)  # 3 x 3 x 2 (Rule 21.A)
    assert fire_value(s, "I/504", "conv", "1910", False) == (8, 1)


def test_13_ice_roll_for_afvs_on_lakes(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "0909"
    """)
    s.apply("impulse 5")
    s.apply("move tk/18M 0909 0910")  # a full lake hexside, frozen
    req = s.chance_request()
    assert req.rule == "Rule 13"
    s.apply_outcome((1,))
    assert s.pos.units["tk/18M"].strength == 4


def test_13_B_thaw_closes_full_lake_hexsides_to_afvs(engine: WhiteDeath) -> None:
    s = position(engine, """
        weather = "thaw"
        [units]
        "tk/18M" = "0909"
    """)
    s.apply("impulse 5")
    refused(s, "move tk/18M 0909 0910", "Rule 13.B")  # cites the lake rule, not Rule 7


def test_16_B_thaw_rivers_are_left_on_the_side_entered(engine: WhiteDeath) -> None:
    s = position(engine, """
        weather = "thaw"
        [units]
        "tk/18M" = "1305"
    """)
    s.apply("impulse 10")
    s.apply("move tk/18M 1305 1205")  # into the Lowatj (a river hex, no bridge)
    assert s.pos.units["tk/18M"].via == "1305"
    refused(s, "move tk/18M 1205 1105", "Rule 16.B")  # across: not in thaw


def test_14_morale_modifiers_routs_eliminations_snow(engine: WhiteDeath) -> None:
    counts = 'counts = {"rout:1510" = 1, "elim:1510" = 2}\n'
    units = '[units]\n"I/504" = "1510"\n"I/505" = "1810"\n'
    s = position(engine, counts + units)
    assert morale_modifiers(s, "I/504", 1) == 4  # Rules 14.C.4 and 14.C.7
    s = position(engine, 'weather = "snow"\n' + counts + units)
    assert morale_modifiers(s, "I/504", 1) == 5  # Rule 14.C.5 (not in a town)
    s = position(engine, 'weather = "snow"\n' + units)
    assert morale_modifiers(s, "I/505", 0) == 0  # towns are spared the snow modifier


def test_14_C_1_retreat_through_zoc_costs_one_point(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "I/504" = "1510"
        "1188/357" = "1610"
        "1190/357" = "1609"
        "1192/357" = "1410"
        "948/257" = "1409"
        "943/257" = "1511"
    """)
    strength = s.pos.units["I/504"].strength
    with s.telling() as (events, _):
        _retreat(s, "I/504")
    assert any(e.kind == "retreat" for e in events)
    if s.on_map("I/504"):
        assert s.pos.units["I/504"].strength == strength - 1
        assert s.map.distance("1510", s.pos.units["I/504"].loc) >= 2


def test_15_D_1_air_drops_when_velikiye_luki_is_cut_off(engine: WhiteDeath) -> None:
    s = position(engine, """
        step = "end-impulse"
        mps = {soviet = 0, german = 0}
        supply = {vl = 0}
    """ + velikiye_luki_cut_off(engine))
    assert not any(traced(s, "german", h) for h in s.ter.vl_hexes())
    roll(s, 1)  # weather: clear on turn 6
    purposes = settle(s, 4)  # 4: received in clear weather (Rule 15.D.1)
    due = s.cat.supply["german"][s.pos.turn - 1]
    assert sum("air drop" in p for p in purposes) == due
    assert s.pos.supply["vl"] == due


def test_17_reinforcements_arrive_at_the_second_impulse(engine: WhiteDeath) -> None:
    s = position(engine, 'board = "scenario"')
    # 27E/7E is due on turn 5 at the eastern entry area
    assert s.pos.units["27E/7E"].loc == "pending"
    s.apply("impulse 2")
    s.apply("end movement")
    settle(s)
    if s.phase == "advance":
        s.apply("end advance")
    s.apply("impulse 1")
    s.apply("end movement")
    settle(s)
    assert s.pos.units["27E/7E"].loc == "raster"  # the second Soviet impulse
    s.apply("impulse 2")
    entries = [a for a in s.legal_actions() if a.kind == "enter" and a.text("unit") == "27E/7E"]
    east = s.cat.resolve("soviet-east")
    assert entries and all(a.text("hex") in east for a in entries)
    s.apply(entries[0])
    assert s.pos.units["27E/7E"].loc == entries[0].text("hex")


def test_17_closed_german_entry_zones(engine: WhiteDeath) -> None:
    s = position(engine)
    assert not _entry_open(s, "german-south")  # no German south of the city, east of Lowatj
    assert not _entry_open(s, "german-southwest")
    s = position(engine, '[units]\n"I/504" = "1518"')
    assert _entry_open(s, "german-south") and _entry_open(s, "german-southwest")


def test_18_replacements_and_afv_repair(engine: WhiteDeath) -> None:
    s = position(engine, """
        repl = {soviet = 1}
        [units]
        "1188/357" = {hex = "2010", strength = 3}
        "tk/18M" = {hex = "2110", strength = 2}
    """)
    s.apply("impulse 3")
    s.apply("replace 1188/357")
    assert s.pos.units["1188/357"].strength == 4
    refused(s, "replace 1188/357", "Rule 18")  # no points left
    s.apply("repair tk/18M")  # turn 5: one AFV strength point a turn
    refused(s, "repair tk/18M", "Rule 18")
    refused(s, "replace tk/18M", "Rule 18")  # replacements are for personnel units


def test_19_bunkers_lose_barrage_points_without_the_cap(engine: WhiteDeath) -> None:
    s = position(engine, """
        bunkers = [{hex = "1207", strength = 10}]
        [units]
        "I/277" = "1207"
    """)
    job = DieArgs("x", "Rule 19", uid="bunker:0", col=9, mod=0, hex="1207")
    _on_barrage(s, job, 1)
    assert s.pos.bunkers[0].strength == 6  # 4 lost of 10: no half-strength cap (Rule 11.B.2.B)
    assert defense(s, "I/277", "conv") == 20  # the bunker's defense value


def test_20_bridges_built_and_destroyed(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1/2E" = "1209"  # a Lowatj river hex without a bridge
    """)
    s.apply("impulse 5")
    s.apply("build bridge 1/2E")
    assert "1209" in s.pos.bridges
    refused(s, "build bridge 1/2E", "Rule 20.B")  # one bridge each
    s.apply("demolish bridge 1/2E")
    assert "1209" not in s.pos.bridges


def test_advance_after_clearing_a_hex(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "Sich/Iso" = {hex = "1510", strength = 1}
    """)
    declare_assault(s, "1510", "1188/357")
    survive_defensive_fire(s)
    s.apply("done firing")
    settle(s, 1)  # MC3 on strength 1: eliminated
    assert not s.on_map("Sich/Iso")
    assert s.phase == "advance"
    s.apply("advance 1188/357 1510")
    assert s.pos.units["1188/357"].loc == "1510"


def test_victory_points_at_the_end(engine: WhiteDeath) -> None:
    s = position(engine, f"""
        losses = {{soviet = 9, german = 3}}
        [units]
        "I/277" = "{position(engine).ter.vl_hexes()[0]}"
    """, "final-relief")
    _finish(s)
    r = s.result()
    assert r is not None
    # German: Velikiye Luki (10) + 9 Soviet SP / 3 = 13; Soviet: 3 / 3 = 1
    assert r.winner == "german" and r.level == "1-13"


def test_17_F_flieger_roll_on_turn_12(engine: WhiteDeath) -> None:
    s = position(engine, 'board = "scenario"', "final-relief")
    s.apply("impulse 1")
    s.apply("end movement")
    req = s.chance_request()
    assert req.rule == "Rule 17.F"
    s.apply_outcome((6,))  # the whole division
    assert all(s.pos.units[u].loc == "raster" for u in ("III/1FJ", "I/1FJ", "II/1FJ", "I/2FJ"))
    assert s.pos.flieger == "answer-due"
    s.apply("impulse 1")
    s.apply("end movement")
    settle(s)
    # the Soviet answer at the start of his next impulse: 47th automatically
    assert s.pos.units["1/47"].loc == "raster"


def test_9_fractions_are_exact(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = {hex = "2010", strength = 5}
    """)
    # 1/4 x 5 = 5/4 antitank, halved when isolated: never rounded
    assert fire_value(s, "1188/357", "at", "1910", False) == (5, 4)


def test_22_garrison_artillery_may_deploy_on_turn_one(engine: WhiteDeath) -> None:
    s = purkayev_turn_1_german(engine)
    s.apply("impulse 5")
    art = next(x for x in s.side_units("german") if s.utype(x).artillery)
    s.apply(f"deploy {art}")  # Rule 22 forbids moving, not deploying
    assert s.pos.units[art].deployed


def test_12_B_defensive_fire_down_a_slope_is_doubled(engine: WhiteDeath) -> None:
    # test map: the slope 0504->0604 rises toward 0604
    s = position(engine, """
        [units]
        "I/504" = "0604"
        "1188/357" = "0504"
    """)
    declare_assault(s, "0604", "1188/357")
    s.apply("fire 3 at 1188/357")  # 3 doubled = 6 against 6 in clear: 1:1, not 1:2
    s.apply("done firing")
    assert "1:1" in s.chance_request().purpose


def test_campaign_setup_german_first_then_soviet(engine: WhiteDeath) -> None:
    s = engine.new_state("campaign")
    assert isinstance(s, WDState)
    d = s.decision()
    assert d is not None and d.side == "german" and d.kind == "setup"
    assert "German player must set up" in d.prompt
    first = s.pos.setup_raster[0]
    places = [a for a in s.legal_actions() if a.kind == "place"]
    assert places and all(a.text("unit") == first for a in places)
    vl = set(s.ter.vl_hexes())
    assert all(a.text("hex") in vl for a in places)  # the city garrison sets up in the city
    refused(s, f"place {first} 2010", "Rule 4")
    s.apply(places[0])
    s.apply("auto setup")
    d = s.decision()
    assert d is not None and d.side == "soviet"
    s.apply("auto setup")
    assert s.is_chance() and s.chance_request().rule == "Rule 16"


def test_failed_defensive_fire_check_cancels_the_assault(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "I/504" = "1510"
    """)
    declare_assault(s, "1510", "1188/357")
    s.apply("done firing")
    s.apply_outcome((6,))  # bare MC
    events = s.apply_outcome((5,))  # morale 3: 5 fails (Rule 14.B.2)
    assert any("fail" in e.text for e in events)
    # no assault fire follows: the impulse is over and I/504 untouched
    assert s.phase == "decision" and s.current_player() == "german"
    assert s.pos.units["I/504"].strength == 4


def test_failed_barrage_check_silences_defensive_fire(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "I/504" = {hex = "1510", marks = ["no-df"]}  # failed its barrage check (Rule 14.B.1)
        "I/505" = "1510"
        "1188/357" = "1610"
    """)
    declare_assault(s, "1510", "1188/357")
    assert firers(s, "conv") == ["I/505"]
    assert pool(s, "conv") == (8, 1)


def test_10_afvs_take_only_antitank_fire(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1610"
        "I/504" = "1510"
    """)
    declare_assault(s, "1510", "tk/18M")
    refused(s, "fire 8 at tk/18M", "Rule 9.B")  # AFVs are never fired at conventionally
    assert targets(s, "at") == ["tk/18M"]
    assert pool(s, "at") == (1, 1)  # I/504: 1/4 x 4


def test_18_turn_10_tank_brigade_refit(engine: WhiteDeath) -> None:
    # the Soviet player's last 5 MPs of the turn, the German's spent
    s = position(engine, """
        board = "scenario"
        mps = {soviet = 5, german = 0}
        [units]
        "tk/18M" = {strength = 1}
    """, "second-relief")
    s.apply("impulse 5")
    refused(s, "refit 357", "Rule 18")  # a rifle division is not a tank brigade
    s.apply("refit 18M")
    assert s.pos.units["tk/18M"].loc == "refit" and s.pos.units["mr/18M"].loc == "refit"
    assert s.pos.units["tk/18M"].strength == 5
    refused(s, "refit 34M", "Rule 18")  # one brigade only
    # back at the start of turn 11, at the eastern edge
    s.apply("end movement")
    settle(s)
    assert s.pos.turn == 11
    assert s.pos.units["tk/18M"].loc == "raster" and s.pos.units["tk/18M"].entry == "soviet-east"


def test_4_moving_through_a_full_hex(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "2010"
        "1190/357" = "2110"
    """)
    s.apply("impulse 5")
    # two regiments may not stack (Rule 4.B), but one may pass through the other's hex
    s.apply("move 1188/357 2010 2110")
    assert s.pos.passing == "1188/357"
    refused(s, "end movement", "Rule 4")  # it may not end its move there
    # nor may the prompt offer ending movement as the default (Enter would be refused)
    decision = s.decision()
    assert decision is not None and decision.default is None
    moves = {a.notation() for a in s.legal_actions()}
    assert moves and all(m.startswith("move 1188/357 2110 ") for m in moves)
    s.apply(sorted(moves)[0])
    assert s.pos.passing == ""
    s.apply("end movement")


def test_4_no_passing_into_a_full_hex_in_an_enemy_zoc(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1710"
        "1190/357" = "1610"
        "I/504" = "1510"
    """)
    s.apply("impulse 5")
    refused(s, "move 1188/357 1710 1610", "Rule 4")  # it would have to stop there


def test_an_entrained_artillery_unit_may_not_deploy(engine: WhiteDeath) -> None:
    """Rule 8: an entrained unit's movement is rail movement until it detrains (entraining
    undeploys artillery), so it may not deploy on the train (Rule 6.B.2) and then barrage
    from it; the census found apply accepting the ``deploy`` legal_actions leaves out
    (purkayev seed 4, step 413)."""
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "NW/LIX" = "0312"  # a town on the railroad
    """)
    s.apply("impulse 5")
    s.apply("entrain NW/LIX")
    assert "deploy NW/LIX" not in [a.notation() for a in s.legal_actions()]
    refused(s, "deploy NW/LIX", "Rule 8")
    assert not s.pos.units["NW/LIX"].deployed


def test_18_an_entrained_unit_is_offered_its_replacement(engine: WhiteDeath) -> None:
    """Rule 18: replacement points go to "any non-isolated personnel unit" in the first
    impulse of a turn, one on a train too; apply accepted ``replace`` for an entrained
    unit, legal_actions offered it only rail moves (the census: woehler seed 6, step 57)."""
    s = position(engine, GERMAN_IMPULSE + """
        repl = {german = 1}
        [units]
        "I/504" = {hex = "0312", strength = 2}
    """)
    s.apply("impulse 5")
    s.apply("entrain I/504")
    assert s.pos.impulses["german"] == 1
    assert "replace I/504" in [a.notation() for a in s.legal_actions()]
    s.apply("replace I/504")
    assert s.pos.units["I/504"].strength == 3 and s.pos.units["I/504"].entrained


def test_an_entrained_engineer_may_not_demolish_a_bridge(engine: WhiteDeath) -> None:
    """Rules 8 and 20.A: a bridge is destroyed by an engineer "entering the bridge hex and
    expending one additional MP"; on the train a unit's movement is rail movement until it
    detrains, so it detrains first.  The census found apply accepting the ``demolish``
    legal_actions leaves out (campaign seed 95, step 723: Pi/83 on a train at 2513)."""
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "Pi/83" = "1207"
    """)
    assert "1207" in s.pos.bridges
    s.apply("impulse 5")
    assert "demolish bridge Pi/83" in [a.notation() for a in s.legal_actions()]  # on foot: may
    s.apply("entrain Pi/83")
    assert "demolish bridge Pi/83" not in [a.notation() for a in s.legal_actions()]
    refused(s, "demolish bridge Pi/83", "Rule 8")
    assert "1207" in s.pos.bridges


def test_14_B_retreat_two_hexes_away_from_the_enemy(engine: WhiteDeath) -> None:
    """Rule 14.B: two hexes, ending two hexes from the unit's hex, generally away from
    the enemy; clear of ZOCs, so no strength point is lost (14.C.1)."""
    s = position(engine, """
        [units]
        "I/504" = "1510"
        "1188/357" = "1610"  # east of it
    """)
    path = retreat_path(s, "I/504")
    assert path is not None and len(path) == 2
    assert s.map.distance("1510", path[-1]) == 2
    ring2 = [h for h in s.map.ids if s.map.distance(h, "1510") == 2]
    assert s.map.distance(path[-1], "1610") == max(s.map.distance(h, "1610") for h in ring2)
    assert not any(h in ezoc(s, "german") for h in path)
    strength = s.pos.units["I/504"].strength
    with s.telling():
        _retreat(s, "I/504")
    assert s.pos.units["I/504"].loc == path[-1] and s.pos.units["I/504"].strength == strength


def test_14_C_1_a_retreat_ending_in_a_zoc_goes_on(engine: WhiteDeath) -> None:
    """Rule 14.C.1: every hex two hexes out is in an enemy ZOC (Soviet units on every
    other one), so the retreat goes on until it is out of them, and through ZOCs it loses
    one strength point however many it crosses."""
    ring = position(engine).map.grid.ring("1510", 2)
    soviets = ["1188/357", "1190/357", "1192/357", "918A/357", "948/257", "943/257"]
    s = position(engine, '[units]\n"I/504" = "1510"\n' + "".join(
        f'"{uid}" = "{h}"\n' for uid, h in zip(soviets, ring[::2], strict=True)))
    ez = ezoc(s, "german")
    assert all(h in ez or s.units_at(h, "soviet") for h in ring)
    path = retreat_path(s, "I/504")
    assert path is not None and len(path) > 2
    assert path[-1] not in ez and all(h in ez for h in path[:-1])
    strength = s.pos.units["I/504"].strength
    with s.telling() as (told, _):
        _retreat(s, "I/504")
    assert s.pos.units["I/504"].loc == path[-1] and s.pos.units["I/504"].strength == strength - 1
    # the loss in the ZOC is told before the retreat that cost it (Rule 14.C.1)
    assert [e.kind for e in told] == ["loss", "retreat"]
