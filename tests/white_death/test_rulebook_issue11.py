"""The book's positions for the White Death deviations of issue 11, each against its rule.

Every test sets up the position the rule describes through the setup API (positions.py)
on the test map (or the shipped map where the deviation was in the shipped data), names
the rule, and asserts what the book says.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.white_death import WhiteDeath, rules
from engines.white_death.assault import firers, pool
from engines.white_death.data import UnitDef
from engines.white_death.movement import left, move_cost, rail_destinations
from engines.white_death.position import MP_TICKS
from engines.white_death.reinforcements import entry_hexes
from engines.white_death.state import WDState
from engines.white_death.supply import ezoc, isolated
from engines.white_death.terrain import enter_cost
from pbem.errors import ScenarioError

from .conftest import (
    declare_assault,
    refused,
    roll,
    settle,
)
from .positions import GERMAN_IMPULSE, position, purkayev_turn_1_german, velikiye_luki_cut_off

# ---------------------------------------------------------------- Rule 7: creeks


def test_7_draft_mobile_pays_1_into_a_creek_and_1_along_it(engine: WhiteDeath) -> None:
    """Rule 7: "a draft-mobile unit would pay 1 MP to enter a creek hex and would then pay
    1 MP to move up or down the creek. When it moved out of the creek, however, it would
    pay a penalty of 2 MP plus the cost of the first non-creek hex entered." The test
    map's creek (1604-1608) is drawn on clear ground, as the shipped map's creeks are."""
    s = position(engine, """
        [units]
        "918A/357" = "1504"  # a draft-mobile artillery regiment, on clear ground
    """)
    assert s.utype("918A/357").mob == "d"
    s.apply("impulse 2")
    s.apply("move 918A/357 1504 1604")  # into the creek: 1 MP
    assert left(s, "918A/357") == 1
    s.apply("move 918A/357 1604 1605")  # down the creek: 1 MP
    assert left(s, "918A/357") == 0
    # out of it onto clear ground: the 2 MP penalty plus clear's 2
    assert enter_cost(s, "918A/357", "1605", "1505") == 4


def test_7_shipped_creek_hexes_are_creek_terrain() -> None:
    """Rule 7 on the shipped map: its creek hexes lie on clear ground; they are creek
    hexes (draft-mobile: 1 to enter, 1 along), not clear as well (which cost 2)."""
    s = position(WhiteDeath(), """
        [units]
        "918A/357" = "pending"
    """)
    creek = [h for h in s.map.ids if s.map.has_feature(h, "creek")]
    assert creek
    on_clear = [h for h in creek if s.map.terrain_of(h) == "clear"]
    assert on_clear and all(s.ter.terrain(h) == {"creek"} for h in on_clear)
    a, b = next((a, b) for a in on_clear for b in on_clear
                if s.map.grid.adjacent(a, b) and not s.ter.road(a, b))
    assert enter_cost(s, "918A/357", a, b) == 1


# ---------------------------------------------------------------- Rule 22: garrisons


def _bound_garrison(engine: WhiteDeath, released: bool = False, more: str = "",
                    at: str = "") -> WDState:
    """I/277 of the Velikiye Luki garrison in the city's rail hex (1207), not released
    unless ``released``; ``more`` units (setup TOML lines); ``at``: the moment (setup
    TOML keys), by default the Soviet impulse decision."""
    return position(engine, at + f"""
        vl_released = {str(released).lower()}
        [units]
        "I/277" = {{hex = "1207", garrison = "vl"}}
        {more}
    """)


def test_22_unreleased_city_garrison_may_not_leave_by_rail(engine: WhiteDeath) -> None:
    """Rule 22: "Until released, the Velikiye Luki garrison may not leave the city" -- nor
    by rail: no rail hex of the city but its own is on the line, so it may not entrain."""
    s = _bound_garrison(engine, at=GERMAN_IMPULSE)
    s.apply("impulse 5")
    assert rail_destinations(s, "I/277") == []
    refused(s, "entrain I/277", "Rule 22")
    s = _bound_garrison(engine, released=True, at=GERMAN_IMPULSE)
    s.apply("impulse 5")
    s.apply("entrain I/277")  # released, the railroad out of the city is open to it
    assert any(h not in s.ter.vl_hexes() for h in rail_destinations(s, "I/277"))


def _clear_hex_by_assault(s: WDState, attacker: str, target: str) -> None:
    """The German attacker assaults a 1-point Soviet unit at ``target`` and eliminates it
    (the defender's fire is survived; the assault fire rolls a 1)."""
    declare_assault(s, target, attacker)
    s.apply("done firing")  # the Soviet defensive fire, by default
    while s.is_chance():
        s.apply_outcome((6,) if "fire" in s.chance_request().purpose else (1,))
    s.apply("done firing")  # the German assault fire, by default
    settle(s, 1)


def test_22_unreleased_city_garrison_may_not_advance_out(engine: WhiteDeath) -> None:
    """Rule 22: the garrison that clears a hex outside the city by assault may not advance
    into it (advancing is leaving the city); released, it may (Rule 9.D)."""
    for released in (False, True):
        outside = "1108"  # next to 1207, not a city hex
        s = _bound_garrison(engine, released, f'"1/31R" = {{hex = "{outside}", strength = 1}}',
                            at=GERMAN_IMPULSE)
        assert outside not in s.ter.vl_hexes() and s.map.grid.adjacent("1207", outside)
        _clear_hex_by_assault(s, "I/277", outside)
        assert not s.units_at(outside, "soviet")
        offered = [a.notation() for a in s.legal_actions()]
        assert ("advance I/277 1108" in offered) == released
        if not released:
            assert s.phase != "advance" or "advance I/277 1108" not in offered


def test_22_turn_1_garrisons_may_not_advance(engine: WhiteDeath) -> None:
    """Rule 22: the opening garrisons "may not be moved the first turn": an assault on turn
    1 may clear a hex, but the garrison unit stays where it is."""
    s = purkayev_turn_1_german(engine)
    uid = next(x for x in s.side_units("german") if s.pos.units[x].garrison == "town"
               and s.utype(x).personnel)
    h = s.pos.units[uid].loc
    target = next(n for n in s.ter.nbrs(h) if not s.units_at(n)
                  and enter_cost(s, uid, h, n) is not None)
    s = purkayev_turn_1_german(engine, f'"1/31R" = {{hex = "{target}", strength = 1}}')
    _clear_hex_by_assault(s, uid, target)
    assert not s.units_at(target, "soviet")
    assert f"advance {uid} {target}" not in [a.notation() for a in s.legal_actions()]
    assert s.pos.units[uid].loc == h


# ---------------------------------------------------------------- Rule 11.B.2.B: barrage phase


def test_11_B_2_B_half_strength_cap_and_one_check_per_barrage_phase(
        engine: WhiteDeath) -> None:
    """Rule 11.B.2.B: "If several attacks are run on a unit, only one morale check is made
    with the total loss result serving as the modifier. ... barrage results may not force
    a unit to lose more than half its remaining strength points in the phase". Two
    barrages on a 4-point unit, each a 2-point loss: it loses 2 in all and checks once,
    at +2."""
    s = position(engine, """
        [units]
        "hvy/KF" = "1810"
        "mtr/KF" = "1810"
        "1188/357" = "1610"  # observes for the non-divisional artillery
        "I/504" = "1510"
    """)
    s.apply("impulse 3")
    s.apply("deploy hvy/KF")
    s.apply("deploy mtr/KF")
    s.apply("end movement")
    s.apply("barrage 1510 with hvy/KF")  # 5 x 4 = 20: the 20-29 column
    s.apply("fire barrage")
    first = settle(s, 1)  # a 2-point loss
    assert s.pos.units["I/504"].strength == 2
    s.apply("barrage 1510 with mtr/KF")  # 4 x 4 = 16: the 15-19 column
    s.apply("fire barrage")
    second = settle(s, 1)  # another 2-point result: the phase's cap is already reached
    assert s.pos.units["I/504"].strength == 2
    assert not any(p.startswith("morale check") for p in first + second)
    s.apply("end barrage")
    checks = [p for p in settle(s, 1) if p.startswith("morale check")]
    assert checks == ["morale check for I/504 at 1510 (+2)"]


# ---------------------------------------------------------------- Rule 12.B: slopes


def test_12_B_defensive_fire_down_a_slope_doubles_only_the_units(
        engine: WhiteDeath) -> None:
    """Rule 12.B: "A unit firing down a slope hexside has its conventional combat factor
    ... doubled" -- the units, not the artillery support added to their pool. I/504 (2 x 4
    = 8) defends the high hex 0604 against 1188/357 assaulting up the slope from 0504;
    I/291A supports at high intensity (3 x 3 = 9). 17 points at the attacker are 8
    doubled plus 9: 25 against 6 is 4:1 (doubling all would be 34, 5:1)."""
    s = position(engine, """
        [units]
        "I/504" = "0604"
        "I/291A" = {hex = "0806", deployed = true}
        "1188/357" = "0504"
    """)
    assert s.map.faces_toward("slope", "0604", "0504") == "0604"
    declare_assault(s, "0604", "1188/357")
    s.apply("high intensity")
    s.apply("support with I/291A")
    assert pool(s, "conv") == (17, 1)
    s.apply("fire 17 at 1188/357")
    s.apply("done firing")
    purpose = s.chance_request().purpose
    assert purpose == "conventional fire 4:1 against 1188/357 at 0504"


# ---------------------------------------------------------------- Rule 16.B: thaw rivers


def test_16_B_thaw_river_left_on_the_bank_entered_after_moving_along(
        engine: WhiteDeath) -> None:
    """Rule 16.B: in a thaw a track-mobile unit "must leave the river hex on the same side
    of the river as they entered" -- the same side, however far it moved along the river,
    so it is not stuck; the other bank is refused under Rule 16.B."""
    s = position(engine, """
        weather = "thaw"
        [units]
        "tk/18M" = "1310"  # east of the Lowatj (column 12)
    """)
    s.apply("impulse 10")
    s.apply("move tk/18M 1310 1210")
    s.apply("move tk/18M 1210 1211")
    s.apply("move tk/18M 1211 1212")
    refused(s, "move tk/18M 1212 1112", "Rule 16.B")  # the west bank
    s.apply("move tk/18M 1212 1312")  # the east bank, far from where it came in
    assert s.pos.units["tk/18M"].loc == "1312"


def test_16_B_bank_kept_across_impulses(engine: WhiteDeath) -> None:
    """Rule 16.B: a unit that ends an impulse in the river still leaves it, in the next
    impulse, on the bank it entered from. tk/18M ended the last impulse in the Lowatj
    (1210), having entered it from the east bank (1310)."""
    s = position(engine, """
        weather = "thaw"
        [units]
        "tk/18M" = {hex = "1210", via = "1310"}
    """)
    s.apply("impulse 5")
    refused(s, "move tk/18M 1210 1110", "Rule 16.B")


# ---------------------------------------------------------------- Rule 3: ZOCs


def _weapons_reinforcement(engine: WhiteDeath, more: str = "") -> WDState:
    """Pzjg/LIX (a weapons company) waiting to enter in the western area, 1188/357 at
    0210 putting entry hexes of that area in a Soviet ZOC, at the German impulse
    decision; ``more`` units."""
    return position(engine, GERMAN_IMPULSE + f"""
        [units]
        "Pzjg/LIX" = {{loc = "raster", strength = 2, entry = "german-west"}}
        "1188/357" = "0210"
        {more}
    """)


def _zoc_entry(s: WDState) -> str:
    return next(h for h in s.cat.resolve("german-west") if h in ezoc(s, "german")
                and not s.units_at(h))


def test_3_C_weapons_reinforcement_may_not_enter_a_zoc_alone(engine: WhiteDeath) -> None:
    """Rule 3.C: "Weapons units may never enter an enemy ZOC during the movement phase
    unless a personnel or AFV unit is also present in the hex" -- from off the map too."""
    s = _weapons_reinforcement(engine)
    h = _zoc_entry(s)
    s.apply("impulse 5")
    assert h not in entry_hexes(s, "Pzjg/LIX")
    refused(s, f"enter Pzjg/LIX {h}", "Rule 3.C")
    s = _weapons_reinforcement(engine, f'"I/504" = "{h}"')  # a personnel unit there
    s.apply("impulse 5")  # now it may
    assert h in entry_hexes(s, "Pzjg/LIX")
    s.apply(f"enter Pzjg/LIX {h}")


def test_3_B_ski_unit_pays_for_every_zoc_exit(engine: WhiteDeath) -> None:
    """Rule 3.B: a ski unit pays "one additional movement point for each enemy ZOC exited"
    -- also after leaving the ZOC it started in (Rule 3), not only on its first exit."""
    s = position(engine, """
        [units]
        "ski/31R" = "1610"
        "I/504" = "1510"  # the ski unit starts in its ZOC
        "I/505" = "1810"  # and 1710 is in this one's
    """)
    s.apply("impulse 6")
    assert s.pos.units["ski/31R"].zoc_start
    assert move_cost(s, "ski/31R", "1610", "1710") == enter_cost(s, "ski/31R", "1610", "1710") + 1
    s.apply("move ski/31R 1610 1710")
    assert not s.pos.units["ski/31R"].stopped  # a non-ski ZOC does not stop it
    nxt = next(n for n in s.ter.nbrs("1710") if n not in ezoc(s, "soviet") and not s.units_at(n))
    assert move_cost(s, "ski/31R", "1710", nxt) == enter_cost(s, "ski/31R", "1710", nxt) + 1


# ---------------------------------------------------------------- Rule 15.D.2


def _vl_cut_off(engine: WhiteDeath) -> WDState:
    """The turn's last impulse ending (both sides' MPs spent), I/277 in Velikiye Luki cut
    off from every friendly edge by the ZOCs of Soviet units ringed two hexes out."""
    return position(engine, """
        step = "end-impulse"
        mps = {soviet = 0, german = 0}
    """ + velikiye_luki_cut_off(engine))


def test_15_D_2_city_point_spent_at_the_beginning_of_the_turn(engine: WhiteDeath) -> None:
    """Rule 15.D.2: "the German player may expend one supply point at the beginning of a
    turn in Velikiye Luki to allow the troops in the city to avoid the effects of
    isolation" -- before the Soviet's first impulse, so the city does not fight it
    isolated."""
    s = _vl_cut_off(engine)
    assert isolated(s, "I/277")
    roll(s, 1)  # weather for the new turn
    settle(s, 4)  # air drops
    d = s.decision()
    assert d is not None and d.side == "german" and d.kind == "vl-supply"
    assert s.pos.phasing == "soviet" and s.pos.impulses["soviet"] == 0
    points = s.pos.supply["vl"]
    s.apply("spend vl supply")
    assert not isolated(s, "I/277") and s.pos.supply["vl"] == points - 1
    d = s.decision()
    assert d is not None and d.side == "soviet" and d.kind == "impulse-mps"
    s.apply("impulse 1")
    s.apply("end movement")
    refused(s, "spend vl supply", "Rule 15.D.2")  # not in the German's impulse


def test_15_D_2_declining_keeps_the_point(engine: WhiteDeath) -> None:
    s = _vl_cut_off(engine)
    roll(s, 1)
    settle(s, 4)
    points = s.pos.supply["vl"]
    s.apply("keep vl supply")
    assert isolated(s, "I/277") and s.pos.supply["vl"] == points
    assert s.phase == "decision" and s.pos.phasing == "soviet"


# ---------------------------------------------------------------- Rule 15.A.3: rockets


def _rocket_barrage(engine: WhiteDeath) -> WDState:
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "NW/LIX" = "1510"
        "I/504" = "1610"  # observes
        "1188/357" = "1810"
    """)
    s.apply("impulse 5")
    s.apply("deploy NW/LIX")
    s.apply("end movement")
    s.apply("barrage 1810 with NW/LIX")
    return s


def test_15_A_3_german_may_fire_rockets_at_half_for_two_points(engine: WhiteDeath) -> None:
    """Rule 15.A.3: "When only two points are expended (for a normal barrage), then all
    German rocket artillery units conduct barrage fires at half of their indicated barrage
    factors" -- the German's choice even with three points in hand."""
    s = _rocket_barrage(engine)
    assert s.pos.supply["german"] == 5
    assert "fire barrage rockets at half" in [a.notation() for a in s.legal_actions()]
    events = s.apply("fire barrage rockets at half")
    assert s.pos.supply["german"] == 3
    assert any("Barrage of 15/2 on 1810" in e.text for e in events)  # 5 x 3, halved


def test_15_A_3_three_points_fire_rockets_at_full(engine: WhiteDeath) -> None:
    s = _rocket_barrage(engine)
    events = s.apply("fire barrage")
    assert s.pos.supply["german"] == 2
    assert any("Barrage of 15 on 1810" in e.text for e in events)


# ---------------------------------------------------------------- Rule 20: bridges


def test_20_A_built_bridge_is_a_road_hex(engine: WhiteDeath) -> None:
    """Rule 20: a bridge "allows units to enter and leave the hex as if it were a road
    hex" -- one built in the game too, though no road of the map runs into it."""
    s = position(engine, GERMAN_IMPULSE + """
        [units]
        "Brueck/LIX" = "1202"  # a river hex, no bridge, no road
        "I/504" = "1303"  # a road hex next to it
    """)
    s.apply("impulse 5")
    s.apply("build bridge Brueck/LIX")
    assert "1202" in s.pos.bridges
    road = Fraction(s.cat.tables.movement["road"]["l"].enter or 0, MP_TICKS)  # ticks
    assert enter_cost(s, "I/504", "1303", "1202") == road  # along the road onto the bridge
    s.apply("move I/504 1303 1202")
    assert left(s, "I/504") == 5 - road
    assert enter_cost(s, "I/504", "1202", "1303") == road  # and off it onto the road
    # from a hex without a road it is the hex's other terrain (Rule 7's example)
    assert enter_cost(s, "I/504", "1102", "1202") == Fraction(
        s.cat.tables.movement["clear"]["l"].enter or 0, MP_TICKS)


# ---------------------------------------------------------------- Rule 4.A


def _company(uid: str, div: str, battalion: str = "", companies: int = 0) -> UnitDef:
    t = WhiteDeath().catalog().types["mg-co"]
    return UnitDef(uid, "german", t, div, 2, battalion, companies)


def _battalion(uid: str, div: str) -> UnitDef:
    return UnitDef(uid, "german", WhiteDeath().catalog().types["inf-bn"], div, 4)


def test_4_A_all_companies_of_a_battalion_are_one_battalion_equivalent() -> None:
    """Rule 4.A: "A battalion equivalent is defined as any one battalion counter, any two
    companies, or all of the companies of a single battalion. (Several German battalions
    consist of four companies.)" Two battalions and all four companies of a third are
    three battalion equivalents: a legal stack, of any divisions."""
    whole = [_company(f"{i}/K", "B", "K", 4) for i in range(1, 5)]
    bns = [_battalion("I/A", "A"), _battalion("II/A", "A")]
    assert rules.german_stack_ok([*bns, *whole])
    # with one more company (Rule 4.A's additional company)
    assert rules.german_stack_ok([*bns, *whole, _company("x", "C")])
    # four companies of two battalions, neither whole, are two equivalents: too many
    split = [_company("1/K", "B", "K", 4), _company("2/K", "B", "K", 4),
             _company("1/L", "B", "L", 4), _company("2/L", "B", "L", 4)]
    assert not rules.german_stack_ok([*bns, *split])


def test_4_A_battalion_named_in_the_data(tmp_path: object) -> None:
    """units.toml may name a company's battalion ([type, division, strength, battalion]);
    the catalog counts the battalion's companies."""
    import shutil
    from pathlib import Path

    from .conftest import make_data_dir
    d = make_data_dir(Path(str(tmp_path)) / "wd")
    text = (d / "units.toml").read_text()
    text = text.replace('"Flak/VL"  = ["flak-co", "83", 2]',
                        '"Flak/VL"  = ["flak-co", "83", 2, "Flak/83"]\n'
                        '"Flak2/VL" = ["flak-co", "83", 2, "Flak/83"]')
    (d / "units.toml").write_text(text)
    cat = WhiteDeath(d).catalog()
    assert cat.units["Flak/VL"].battalion == "Flak/83" and cat.units["Flak/VL"].companies == 2
    bad = make_data_dir(Path(str(tmp_path)) / "bad")
    (bad / "units.toml").write_text(text.replace('"I/277"    = ["inf-bn", "83", 4]',
                                                 '"I/277"    = ["inf-bn", "83", 4, "X"]'))
    with pytest.raises(ScenarioError, match="only a company"):
        WhiteDeath(bad).catalog()
    shutil.rmtree(d)


# ---------------------------------------------------------------- Rule 13 and Rule 11.A readings


def test_13_A_frozen_half_lake_hexside_has_no_ice_roll(engine: WhiteDeath) -> None:
    """Rule 13.A (frozen): an AFV crossing a *lake* hexside rolls for the ice; Rule 13.B
    adds the hexsides "containing any lake at all" only in a thaw. The engine page's
    reading: in frozen weather a half-lake hexside (0809/0909) does not roll."""
    s = position(engine, """
        [units]
        "tk/18M" = "0809"
    """)
    s.apply("impulse 5")
    s.apply("move tk/18M 0809 0909")
    assert not s.is_chance()


def test_13_B_thaw_half_lake_hexside_rolls(engine: WhiteDeath) -> None:
    s = position(engine, """
        weather = "thaw"
        [units]
        "tk/18M" = "0809"
    """)
    s.apply("impulse 5")
    s.apply("move tk/18M 0809 0909")
    req = s.chance_request()
    assert req.rule == "Rule 13"


def test_11_A_1_artillery_in_the_assaulted_hex_may_support_it(engine: WhiteDeath) -> None:
    """Rule 11.A.1: "Artillery units firing support may not fire conventional fire or
    antitank fire during that phase" -- the only bar; the engine page's reading lets
    deployed artillery in the assaulted hex support its own stack instead of firing."""
    s = position(engine, """
        [units]
        "I/504" = "1510"
        "I/291A" = {hex = "1510", deployed = true}
        "1188/357" = "1610"
    """)
    declare_assault(s, "1510", "1188/357")
    before = set(firers(s, "conv"))
    assert "I/291A" in before  # it could fire its own factor
    s.apply("support with I/291A")
    assert "I/291A" not in firers(s, "conv")  # ... or support, not both
    assert pool(s, "conv") == (8 + 3, 1)  # its support at low intensity (factor 1 x 3)


def test_11_B_1_an_assaulting_unit_does_not_barrage(engine: WhiteDeath) -> None:
    """Rule 11.B.1: "Artillery units firing barrage may not use support, antitank, or
    conventional fire during that impulse": one declared to assault (and so to fire in it)
    may not barrage. No shipped artillery may assault (their factors are defensive only),
    so the declaration is part of the position."""
    s = position(engine, """
        [units]
        "hvy/KF" = {hex = "1810", deployed = true, assault = "1709"}
        "1188/357" = "1610"
        "I/504" = "1510"
    """)
    s.apply("impulse 3")
    s.apply("end movement")
    refused(s, "barrage 1510 with hvy/KF", "Rule 11.B.1")
