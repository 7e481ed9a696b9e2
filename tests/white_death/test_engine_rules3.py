"""Ski units, roads, default allocation, garrison release, weather, Rule 5's 'all remaining'."""

from __future__ import annotations

from fractions import Fraction

from engines.white_death import WhiteDeath
from engines.white_death.artillery import sees
from engines.white_death.assault import default_allocation, pool
from engines.white_death.movement import left, move_cost
from engines.white_death.reinforcements import entry_hexes
from engines.white_death.state import WDState
from engines.white_death.supply import ezoc
from engines.white_death.terrain import enter_cost

from .conftest import (
    declare_assault,
    refused,
    roll,
    settle,
    started,
)
from .positions import GERMAN_IMPULSE, position


def test_3_B_ski_units_pay_to_slip_through_zocs(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "ski/31R" = "1710"
        "I/504" = "1510"
    """)
    s.apply("impulse 6")
    s.apply("move ski/31R 1710 1610")  # into a non-ski ZOC: no stop (Rule 3.B)
    assert not s.pos.units["ski/31R"].stopped
    nxt = next(n for n in s.map.neighbors("1610") if n not in ezoc(s, "soviet")
               and not s.units_at(n))
    assert move_cost(s, "ski/31R", "1610", nxt) == enter_cost(s, "ski/31R", "1610", nxt) + 1
    s.apply(f"move ski/31R 1610 {nxt}")


def test_3_B_ski_units_stop_in_enemy_ski_zocs(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "ski/31R" = "1710"
        "Ski/3Geb" = "1510"
    """)
    s.apply("impulse 6")
    s.apply("move ski/31R 1710 1610")
    assert s.pos.units["ski/31R"].stopped


def test_7_road_rate_only_along_the_road(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1307"
    """)
    road_next = s.map.network_neighbors("road", "1307")
    assert road_next
    assert enter_cost(s, "1188/357", "1307", road_next[0]) == Fraction(1, 2)  # leg on a road
    off = next(n for n in s.map.neighbors("1307") if not s.ter.road("1307", n)
               and "clear" in s.ter.terrain(n) and len(s.ter.terrain(n)) == 1)
    assert enter_cost(s, "1188/357", "1307", off) == 1


def test_default_allocation_is_the_decision_default(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "1/31R" = "1609"
        "I/504" = "1510"
    """)
    declare_assault(s, "1510", "1188/357", "1/31R")
    d = s.decision()
    assert d is not None and d.default is not None
    shares = default_allocation(s)
    # 8 conventional points shared equally by the two assaulting personnel units
    assert sorted((t, k, v) for t, k, v in shares) == [
        ("1/31R", "conv", (4, 1)), ("1188/357", "conv", (4, 1))]
    events = s.apply(d.default)
    assert sum("Default allocation" in e.text for e in events) == 2


def test_5_soviet_may_assault_with_all_remaining_mps(engine: WhiteDeath) -> None:
    s = position(engine, """
        mps = {soviet = 2}
        [units]
        "1188/357" = "1610"
        "I/504" = "1510"
    """)
    s.apply("impulse 2")  # fewer than 3 left: all of them will do (Rule 5)
    s.apply("assault 1510 with 1188/357")


def test_22_velikiye_luki_garrison_moves_within_the_city(engine: WhiteDeath) -> None:
    s = position(engine, """
        board = "scenario"
        turn = 2
        step = "release"
        vl_released = false
    """, "purkayev")
    roll(s, 2)  # release roll on turn 2: only a 1 releases (Rule 22)
    settle(s)
    assert s.pos.turn == 2 and not s.pos.vl_released
    s = position(engine, GERMAN_IMPULSE + """
        board = "scenario"
        turn = 2
        vl_released = false
    """, "purkayev")
    s.apply("impulse 5")
    vl = set(s.ter.vl_hexes())
    uid = next(x for x in s.side_units("german") if s.pos.units[x].garrison == "vl"
               and s.utype(x).mob == "l")
    h = s.pos.units[uid].loc
    inside = [n for n in s.map.neighbors(h) if n in vl and s.stack_ok_with(n, uid)]
    outside = [n for n in s.map.neighbors(h) if n not in vl and not s.units_at(n, "soviet")]
    assert outside and inside
    refused(s, f"move {uid} {h} {outside[0]}", "Rule 22")
    s.apply(f"move {uid} {h} {inside[0]}")
    # the town garrisons are free from turn 2
    town = next(x for x in s.side_units("german") if s.pos.units[x].garrison == "town")
    assert [a for a in s.legal_actions() if a.units() == (town,)]


def test_16_weather_table_by_turn(engine: WhiteDeath) -> None:
    t = engine.catalog().tables
    rows = {(a, b): r for a, b, r in t.weather}
    assert set(rows[(1, 4)]) <= {"clear", "snow", "thaw"}
    assert rows[(10, 13)].count("thaw") == 0  # deep January: never thaw in the stand-in
    s = started(engine, "woehler", weather=3)  # the roll itself, from the scenario's start
    assert s.pos.weather == "snow"


def test_11_B_3_observation_battalion_finds_deployed_artillery(engine: WhiteDeath) -> None:
    def at(weather: str, deployed: bool) -> WDState:
        return position(engine, f"""
            weather = "{weather}"
            [units]
            "17Obs" = "1207"
            "918A/357" = {{hex = "1807", deployed = {str(deployed).lower()}}}
        """)
    s = at("clear", False)
    assert not sees(s, "17Obs", "1807")  # concentrated: an ordinary two-hex observer
    s = at("clear", True)
    assert s.map.distance("1207", "1807") <= 7 and sees(s, "17Obs", "1807")  # Rule 11.B.3.D
    s = at("snow", True)
    assert not sees(s, "17Obs", "1807")  # Rule 11.B.3.E


def test_19_bunkers_add_their_strength_to_defensive_fire(engine: WhiteDeath) -> None:
    s = position(engine, """
        bunkers = [{hex = "1207", strength = 10}]
        [units]
        "I/277" = "1207"
        "1188/357" = "1307"
    """)
    declare_assault(s, "1207", "1188/357")
    assert pool(s, "conv") == (8 + 10, 1)  # I/277 (2 x 4) and the bunker (1 x 10), Rule 19


def test_12_no_assault_into_prohibited_terrain(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "tk/18M" = "1810"
        "I/504" = "1811"  # forest: prohibited to track units off the road (Rule 12.A)
    """)
    s.apply("impulse 3")
    refused(s, "assault 1811 with tk/18M", "Rule 12.A")


def test_6_deploying_costs_one_mp_and_moving_concentrates(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "918A/357" = "2010"
    """)
    s.apply("impulse 3")
    s.apply("deploy 918A/357")
    assert s.pos.units["918A/357"].deployed and left(s, "918A/357") == 2  # Rule 6.B.2
    refused(s, "deploy 918A/357", "Rule 6.B.2")
    nxt = next(n for n in s.map.neighbors("2010") if not s.units_at(n)
               and move_cost(s, "918A/357", "2010", n) is not None
               and move_cost(s, "918A/357", "2010", n) <= 2)
    s.apply(f"move 918A/357 2010 {nxt}")
    assert not s.pos.units["918A/357"].deployed


def test_17_alternate_german_entry_zones(engine: WhiteDeath) -> None:
    def due(turn: int) -> WDState:
        s = position(engine, GERMAN_IMPULSE + f"""
            schedule = [{{turn = {turn}, uid = "I/SS8", area = "german-south"}}]
            [units]
            "I/504" = "1518"  # keeps the southern zones open (Rule 17.E)
            "I/SS8" = {{loc = "raster", entry = "german-south"}}
        """)
        s.apply("impulse 5")
        return s
    this_turn = position(engine, GERMAN_IMPULSE).pos.turn
    s = due(this_turn)
    west_only = set(s.cat.resolve("german-west")) - set(s.cat.resolve("german-southwest"))
    south_side = set(s.cat.resolve("german-south")) | set(s.cat.resolve("german-southwest"))
    offered = set(entry_hexes(s, "I/SS8"))
    assert offered & set(s.cat.resolve("german-southwest"))  # the same turn (Rule 17.D)
    assert offered <= south_side and not offered & west_only
    s = due(this_turn - 1)
    assert set(entry_hexes(s, "I/SS8")) & west_only  # a turn late: the western zone too
