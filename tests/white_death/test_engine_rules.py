"""White Death rules as a player meets them: what is allowed, what is refused and why."""

from __future__ import annotations

from engines.white_death import WhiteDeath
from engines.white_death.artillery import sees
from engines.white_death.combat import fire_value, morale_exempt, morale_modifiers
from engines.white_death.movement import move_cost
from engines.white_death.position import MP_TICKS
from engines.white_death.state import WDState
from engines.white_death.supply import ezoc, isolated

from .conftest import (
    declare_assault,
    refused,
    roll,
    settle,
    survive_defensive_fire,
)
from .positions import GERMAN_IMPULSE, position, purkayev_turn_1_german


def test_5_soviet_moves_first_and_decides_mps(engine: WhiteDeath) -> None:
    s = position(engine)
    d = s.decision()
    assert d is not None and d.side == "soviet" and d.kind == "impulse-mps"
    assert [a.notation() for a in s.legal_actions()] == [f"impulse {k}" for k in range(1, 11)]
    refused(s, "impulse 11", "Rule 5")


def test_5_impulses_alternate_until_one_side_is_spent(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "2010"
        "I/504" = "0510"
    """)
    s.apply("impulse 10")
    s.apply("end movement")
    assert s.current_player() == "german" and s.phase == "decision"
    s.apply("impulse 4")
    s.apply("end movement")
    assert s.current_player() == "german"  # the Soviet side is spent: consecutive impulses
    s.apply("impulse 6")
    s.apply("end movement")
    assert s.is_chance()  # next turn: weather
    assert s.pos.turn == 6
    roll(s, 1)
    settle(s)
    assert s.current_player() == "soviet" and s.pos.mps == {"soviet": 10, "german": 10}


def test_3_zoc_stops_movement_and_leaving_costs_one(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1810"
        "I/504" = "1510"
    """)
    s.apply("impulse 5")
    s.apply("move 1188/357 1810 1710")  # 1710 is next to 1510's neighbours? no: 1610 is
    s.apply("move 1188/357 1710 1610")  # 1610 is adjacent to 1510: enemy ZOC
    e = refused(s, "move 1188/357 1610 1710", "Rule 3")
    assert "enemy ZOC" in str(e)
    # next impulse it may leave, paying one extra MP (Rule 3, Rule 6.B.1)
    s.apply("end movement")
    s.apply("impulse 1")
    s.apply("end movement")
    s.apply("impulse 1")
    assert s.pos.units["1188/357"].zoc_start
    assert move_cost(s, "1188/357", "1610", "1710") == 2
    refused(s, "move 1188/357 1610 1710", "Rule 6.A")


def test_enemy_hex_and_prohibited_terrain(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1810"
        "I/504" = "1510"
    """)
    s.apply("impulse 5")
    refused(s, "move tk/18M 1810 1811", "Rule 7")  # forest is P for track units
    refused(s, "move tk/18M 1810 1910", "Rule 6.A") if False else None


def test_3_C_weapons_unit_may_not_enter_zoc_alone(engine: WhiteDeath) -> None:
    alone = """
        [units]
        "at/3S" = "1710"
        "I/504" = "1510"
    """
    s = position(engine, alone)
    s.apply("impulse 5")
    refused(s, "move at/3S 1710 1610", "Rule 3.C")
    s = position(engine, alone + '"1190/357" = "1610"')  # a personnel unit there
    s.apply("impulse 5")
    s.apply("move at/3S 1710 1610")
    assert s.pos.units["at/3S"].loc == "1610"


def test_3_A_afv_transit_draws_antitank_fire(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1709"
        "Pzjg/LIX" = "1509"
        "I/504" = "1509"
    """)
    s.apply("impulse 6")
    s.apply("move tk/18M 1709 1609")  # into the ZOC: AFVs need not stop (Rule 3.A)
    assert not s.pos.units["tk/18M"].stopped and not s.is_chance()
    out = next(n for n in s.map.neighbors("1609") if n not in ezoc(s, "soviet"))
    s.apply(f"move tk/18M 1609 {out}")  # leaving 1609 (in the ZOC) draws antitank fire
    req = s.chance_request()
    assert req.rule == "Rule 3.A" and "tk/18M" in req.purpose
    s.apply_outcome((1,))  # a hit: loss and a morale check
    assert s.pos.units["tk/18M"].strength < 5
    req = s.chance_request()
    assert req.rule == "Rule 14"
    s.apply_outcome((6,))  # fails badly: the move ends (Rule 3.A), rout retreats
    assert s.pos.units["tk/18M"].loc != out


def test_5_soviet_needs_three_mps_to_assault_german_one(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "I/504" = "1510"
    """)
    s.apply("impulse 2")
    refused(s, "assault 1510 with 1188/357", "Rule 5")
    s.apply("end movement")
    s.apply("impulse 1")
    s.apply("assault 1610 with I/504")  # the German assaults with one MP
    assert s.pos.supply["german"] == 4  # Rule 15.A.1: one point for all assaults
    assert s.pos.units["I/504"].spent == MP_TICKS  # Rule 6.B.3: one MP


def test_assault_sequence_and_decision_points(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "1/31R" = "1609"
        "I/504" = "1510"
    """)
    s.apply("impulse 3")
    s.apply("assault 1510 with 1188/357")
    s.apply("assault 1510 with 1/31R")
    assert s.pos.supply["soviet"] == 4
    s.apply("end movement")
    # no deployed artillery: barrage is skipped; the German decides defensive fire
    d = s.decision()
    assert d is not None and d.side == "german" and d.kind == "defensive-fire"
    assert "German player must allocate defensive fire against 1 assault" in d.prompt
    assert d.default is not None and d.default.notation() == "done firing"
    notations = [a.notation() for a in s.legal_actions()]
    assert "fire 8 at 1188/357" in notations  # I/504: 2 x 4 = 8
    s.apply("fire 8 at 1188/357")
    refused(s, "fire 1 at 1188/357", "Rule 9.C.3")  # once per phase
    s.apply("done firing")
    # 8 against personnel in clear (6): 1:1
    req = s.chance_request()
    assert "1:1" in req.purpose and req.rule == "Rule 9"
    s.apply_outcome((6,))  # bare MC
    s.apply_outcome((1,))  # passes
    d = s.decision()
    assert d is not None and d.side == "soviet" and d.kind == "assault-fire"
    s.apply("done firing")  # default allocation of all assault fire
    assert s.is_chance()
    settle(s, 1)
    # 1188/357 (12) + 1/31R (8) = 20 against 6: 3:1; die 1 is MC3 -> the defender
    # loses 2 of 4 and checks morale: I/504 is hit hard
    assert s.pos.units["I/504"].strength <= 2 or not s.on_map("I/504")


def test_9_C_3_weapons_units_fired_at_last_and_no_better(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "I/504" = "1510"
        "Pzjg/LIX" = "1510"
    """)
    declare_assault(s, "1510", "1188/357")
    survive_defensive_fire(s)
    assert s.phase == "assault"
    refused(s, "fire 6 at Pzjg/LIX", "Rule 9.C.3")  # personnel not yet fired at
    s.apply("fire 3 at I/504")  # 3 against 6: 1:2
    refused(s, "fire 4 at Pzjg/LIX", "Rule 9.C.3")  # 4 against 4 is 1:1, better than 1:2
    s.apply("fire 2 at Pzjg/LIX")  # 2 against 4 is 1:2


def test_14_C_2_tank_fright(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1610"
        "mr/18M" = "1610"
        "I/504" = "1510"
    """)
    declare_assault(s, "1510", "tk/18M")
    survive_defensive_fire(s)
    s.apply("done firing")
    # conventional fire first, then a morale check one level worse (Rule 14.C.2)
    purposes = settle(s, 6)
    assert any("morale check for I/504" in p and "+1" in p for p in purposes) or any(
        "tank fright" in p for p in purposes)


def test_22_garrisons(engine: WhiteDeath) -> None:
    s = purkayev_turn_1_german(engine)
    vl_unit = next(x for x in s.side_units("german") if s.pos.units[x].garrison == "vl")
    h = s.pos.units[vl_unit].loc
    s.apply("impulse 5")
    n = s.map.neighbors(h)[0]
    refused(s, f"move {vl_unit} {h} {n}", "Rule 22")  # garrisons may not move on turn 1


def test_intrinsic_garrisons_west_of_the_lowatj(engine: WhiteDeath) -> None:
    s = engine.new_state("purkayev")
    assert isinstance(s, WDState)
    garrisons = sorted(x for x in s.pos.units if x.startswith("garrison/"))
    # test map: towns with a railroad west of the Lowatj (column 12), not Velikiye Luki
    assert garrisons == ["garrison/0312", "garrison/0704"]
    g = s.udef("garrison/0312")
    assert g.type.cf == (4, 1) and g.strength == 1 and g.type.personnel
    # the Soviet player does not see it on the map
    view = s.view("soviet")
    assert not any(p.id.startswith("garrison/") for p in view.pieces)


def test_4_C_limited_intelligence(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "I/504" = "1510"
        "I/505" = "1510"
        "1188/357" = "2010"
    """)
    soviet = s.view("soviet")
    at = [p for p in soviet.pieces if p.location == "1510"]
    assert len([p for p in at if not p.hidden]) == 1  # only the top unit
    assert len([p for p in at if p.hidden]) == 1
    german = s.view("german")
    assert len([p for p in german.pieces if p.location == "1510" and not p.hidden]) == 2


def test_19_bunker_spares_morale_checks(engine: WhiteDeath) -> None:
    for level, exempt in ((10, True), (2, False)):
        s = position(engine, f"""
            bunkers = [{{hex = "1207", strength = {level}}}]
            [units]
            "I/277" = "1207"
        """)
        assert morale_exempt(s, "I/277", "assault") == exempt


def test_8_rail_movement(engine: WhiteDeath) -> None:
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "I/504" = "0312"
    """)
    s.apply("impulse 2")
    s.apply("entrain I/504")
    assert s.pos.rail_used["german"] == 4
    dests = [a.text("hex") for a in s.legal_actions() if a.kind == "rail"]
    assert "0301" in dests and "1207" in dests
    s.apply("rail I/504 0301")
    assert s.pos.units["I/504"].loc == "0301"


def test_notation_round_trip(engine: WhiteDeath) -> None:
    s = position(engine)
    for text in ("impulse 4", "move 1188/357 2405 2404", "assault 1305 with 1188/357",
                 "fire 7/2 at I/277", "fire antitank 3 at tk/18M", "done firing",
                 "end movement", "barrage 1305 with hvy/KF", "advance 1188/357 1305",
                 "support with 918A/357", "hq 357", "spend vl supply", "keep vl supply",
                 "fire barrage rockets at half"):
        assert s.parse_action(text).notation() == text


def test_14_C_2_tank_fright_without_fire_is_an_unmodified_check(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1610"
        "mr/18M" = "1610"
        "I/504" = "1510"
        "I/505" = "1510"
    """)
    declare_assault(s, "1510", "tk/18M", "mr/18M")
    survive_defensive_fire(s)
    s.apply("fire 10 at I/504")  # I/505 is not fired at
    s.apply("done firing")  # the default gives I/505 the rest; then fright checks
    purposes = settle(s, 6)
    assert any("morale check for I/504" in p and "(+" in p for p in purposes)


def test_11_B_barrage_costs_supply_and_rolls_per_unit(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "hvy/KF" = "1810"
        "1188/357" = "1610"  # observes for the non-divisional regiment (Rule 11.B.3.A)
        "I/504" = "1510"
        "Pzjg/LIX" = "1510"
    """)
    s.apply("impulse 3")
    s.apply("deploy hvy/KF")
    s.apply("end movement")
    assert s.phase == "barrage"
    s.apply("barrage 1510 with hvy/KF")
    s.apply("fire barrage")
    assert s.pos.supply["soviet"] == 3  # Rule 15.A.2: two points
    rolls = settle(s, 1)
    assert sum("barrage on" in p for p in rolls) == 2  # one die per unit in the hex
    s.apply("end barrage")  # one check per unit for the whole phase (Rule 11.B.2.B)
    rolls = settle(s, 1)
    assert any(p.startswith("morale check") for p in rolls)  # losses force a check


def test_11_B_3_observation_and_line_of_sight(engine: WhiteDeath) -> None:
    units = """
        [units]
        "1188/357" = "2010"
        "I/504" = "1810"  # 1810 is a town: a unit in it may be seen
    """
    s = position(engine, units)
    assert sees(s, "1188/357", "1810")
    s = position(engine, 'weather = "snow"' + units)  # Rule 11.B.3.E: only adjacent units
    assert not sees(s, "1188/357", "1810")


def test_15_isolation_halves_fire_and_worsens_morale(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "I/504" = "1010"
    """)
    assert not isolated(s, "I/504")
    # ring the unit with Soviet ZOCs: Soviet units on the second ring around it
    uids = ["1188/357", "1190/357", "1192/357", "948/257", "943/257", "953/257", "18G/9G",
            "31G/9G", "40G/9G", "176G/46G", "182G/46G", "184G/46G"]
    ring = s.map.ring("1010", 2)
    s = position(engine, '[units]\n"I/504" = "1010"\n' + "".join(
        f'"{uid}" = "{h}"\n' for uid, h in zip(uids, ring, strict=False)))
    assert isolated(s, "I/504")
    assert fire_value(s, "I/504", "conv", "1110", False) == (4, 1)  # 2 x 4 halved
    assert morale_modifiers(s, "I/504", 0) == 1


def test_21_B_brandenburgers_lead_a_stack_through_zocs(engine: WhiteDeath) -> None:
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "1/Br803" = "1310"
        "I/277" = "1310"
        "1188/357" = "1510"
    """)
    s.apply("impulse 6")
    s.apply("lead 1/Br803 1310 1410")  # 1410 is in the Soviet ZOC
    req = s.chance_request()
    assert req.rule == "Rule 21.B" and "(-1)" in req.purpose
    s.apply_outcome((3,))  # 3 - 1 = 2: not found out
    assert not s.pos.units["I/277"].stopped and s.pos.units["I/277"].loc == "1410"
    nxt = next(n for n in s.map.neighbors("1410")
               if n in ezoc(s, "german") and not s.units_at(n) and n != "1310")
    s.apply(f"lead 1/Br803 1410 {nxt}")
    s.apply_outcome((2,))  # 2 - 1 = 1: found out, the whole stack stops
    assert s.pos.units["I/277"].stopped and s.pos.units["1/Br803"].stopped
    refused(s, f"move I/277 {nxt} {s.map.neighbors(nxt)[0]}", "Rule 3")


def test_15_A_barrage_supply_counts_the_assault_point(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "hvy/KF" = {hex = "1810", deployed = true}
        "1188/357" = "1610"
        "I/504" = "1510"
    """)
    s.apply("impulse 3")
    s.apply("assault 1510 with 1188/357")
    assert s.pos.supply["soviet"] == 4
    s.apply("end movement")
    s.apply("barrage 1510 with hvy/KF")
    s.apply("fire barrage")
    assert s.pos.supply["soviet"] == 3  # Rule 15.A.2: two points in all for both


def test_12_slopes_and_observation(engine: WhiteDeath) -> None:
    # test map: 0604 is high ground; slopes rise from 0504 and 0603 into 0604
    s = position(engine, """
        [units]
        "I/504" = "0604"
        "1188/357" = "0304"
        "I/505" = "0404"
        "1190/357" = "0104"
    """)
    assert s.map.faces_toward("slope", "0504", "0604") == "0604"
    # a unit on high ground observes low hexes three away (Rule 11.B.3.B)
    assert s.map.distance("0604", "0304") == 3
    assert sees(s, "I/504", "0304")
    # from low ground the range is two
    assert s.map.distance("0404", "0104") == 3 and not sees(s, "I/505", "0104")
