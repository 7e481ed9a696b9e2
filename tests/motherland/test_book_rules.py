"""For the Motherland! rules the coverage table claims (issue 31): one test per rule, each
on the book's words, on the rules test map (conftest: woods 1415, mountain 1713, swamp
1813, a railroad along row 20, sources on columns 1 and 28)."""

from __future__ import annotations

import pytest

from engines.motherland import ENGINE, MotherlandEngine
from engines.motherland.state import MotherlandState
from engines.motherland.supply import air_available
from engines.motherland.victory import victory_points
from pbem.errors import IllegalAction

from .conftest import position
from .test_rules import d2_position, draw, roll


def notations(st: MotherlandState) -> list[str]:
    return [a.notation() for a in st.legal_actions()]


def mp_after(st: MotherlandState, uid: str, move: str) -> int:
    st.apply(move)
    return st.u(uid).mp


def test_4_1_a_supply_base_exerts_no_zoc(rules_engine: MotherlandEngine) -> None:
    """4.1: Supply Bases (with Air Bases, the Railroad Gun, Offensive Support and Economic
    Assets) exert no ZOC: the hex beside one is free to a Soviet unit; beside a corps it
    is not."""
    st = position(rules_engine, 3, "move", "soviet", {"5A": "1214", "SB1": "1413"})
    assert not st.ezoc("soviet", "1314")
    st = position(rules_engine, 3, "move", "soviet", {"5A": "1214", "9K": "1413"})
    assert st.ezoc("soviet", "1314")


def test_4_2_3_a_supply_base_never_enters_an_enemy_zoc(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"SB1": "1413", "5A": "1214", "9K": "0305"})
    assert not any(n.startswith("move SB1 1413 1314") for n in notations(st))
    with pytest.raises(IllegalAction, match=r"^4\.2\.3: SB1 cannot enter the enemy ZOC at 1314"):
        st.apply("move SB1 1413 1314")
    st = position(rules_engine, 3, "move", "axis", {"9K": "1413", "5A": "1214"})
    st.apply("move 9K 1413 1314")  # a corps may
    assert st.u("9K").hex == "1314"


def test_5_1_1_lack_of_supply_halves_the_movement_factor_rounded_up(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"41Pz": "1714", "5A": "0305"},
                  fields={"41Pz": {"supply": "lack"}})
    assert st.c("41Pz").factors[0][2] == 7 and st.factors("41Pz")[2] == 4  # 7 / 2 = 4
    assert st.u("41Pz").mp == 4


def test_5_1_5_mountain_units_pay_one_less_in_mountains(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"49Mt": "1613", "9K": "1612", "5A": "0305"})
    mountain = st.u("49Mt").mp - mp_after(st, "49Mt", "move 49Mt 1613 1713")
    corps = st.u("9K").mp - mp_after(st, "9K", "move 9K 1612 1713")
    assert mountain == corps - 1


def test_5_1_6_the_railroad_gun_rides_any_distance_of_connected_rail(
        rules_engine: MotherlandEngine) -> None:
    """5.1.6: along connected Railroad hexes, any distance, never into an enemy ZOC."""
    st = position(rules_engine, 3, "move", "axis", {"RRGun": "0220", "5A": "2421"})
    moves = [n.split()[-1] for n in notations(st) if n.startswith("move RRGun")]
    assert "2220" in moves  # 20 hexes along row 20, past its movement factor
    assert all(h.endswith("20") for h in moves)  # rail only
    assert "2320" in moves and "2420" not in moves  # 2420 is in 5A's ZOC
    assert not any(h > "2420" for h in moves)  # nor through it


def test_5_1_8_swamp_is_woods_on_a_snow_turn(rules_engine: MotherlandEngine) -> None:
    def cost(turn: int, to: str, start: str) -> int:
        st = position(rules_engine, turn, "move", "soviet", {"5A": start, "9K": "0305"})
        return st.u("5A").mp - mp_after(st, "5A", f"move 5A {start} {to}")

    assert cost(5, "1813", "1913") == cost(5, "1415", "1515")  # snow: swamp as woods
    assert cost(3, "1813", "1913") > cost(3, "1415", "1515")  # clear: swamp dearer


def test_8_3_6_a_fortress_never_attacks(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "soviet", {"FMOS": "1214", "9K": "1314"})
    assert notations(st) == ["end combat"]
    with pytest.raises(IllegalAction, match=r"^8\.3\.6: FMOS cannot attack 1314"):
        st.apply("attack 1314 with FMOS")


def test_8_3_8_a_zero_attack_factor_never_attacks(rules_engine: MotherlandEngine) -> None:
    """8.3.8, with an Economic Asset (a factory: attack factor 0) beside a German corps."""
    st = position(rules_engine, 3, "combat", "soviet", {"FacKEV": "1214", "9K": "1314"})
    assert st.factors("FacKEV")[0] == 0
    assert notations(st) == ["end combat"]
    with pytest.raises(IllegalAction, match=r"^8\.3\.8: FacKEV cannot attack 1314"):
        st.apply("attack 1314 with FacKEV")


def test_8_3_5_a_units_attack_factor_is_used_whole_in_one_combat(
        rules_engine: MotherlandEngine) -> None:
    """8.3.5: "The Attack Factor of a unit cannot be divided and used in separate
    combats": 41Pz's 9 go against 1214 and it is offered against no other hex after."""
    st = position(rules_engine, 3, "combat", "axis", {"41Pz": "1314", "5A": "1214", "16A": "1315"},
                  fields={"5A": {"chit": "A4-3*"}, "16A": {"chit": "A4-3*"}})
    assert {"attack 1214 with 41Pz", "attack 1315 with 41Pz"} <= set(notations(st))
    texts = [e.text for e in st.apply("attack 1214 with 41Pz")]
    assert "Odds 9 to 3 (3:1), shift +0 -> 3:1" in texts
    st.apply_outcome((3,))  # D1
    st.apply("take D1 as 0 step 1 retreat")
    while st.decision() is not None and st.decision().kind != "combat":  # type: ignore[union-attr]
        st.apply(notations(st)[-1])
    assert not any("41Pz" in n for n in notations(st))


def test_8_4_2_no_tank_attack_across_the_kerch_strait(rules_engine: MotherlandEngine) -> None:
    """8.4.2: the Kerch Strait (here the test map's strait 1113/1114) is a Major River for
    combat, and Tank and Mechanized units cannot attack across it; infantry may."""
    st = position(rules_engine, 3, "combat", "soviet", {"1T": "1114", "9K": "1113"},
                  fields={"1T": {"chit": "A8-6"}})
    assert notations(st) == ["end combat"]
    with pytest.raises(IllegalAction, match=r"^8\.4\.2: 1T cannot attack 1113"):
        st.apply("attack 1113 with 1T")
    st = position(rules_engine, 3, "combat", "soviet", {"5A": "1114", "9K": "1113"},
                  fields={"5A": {"chit": "A8-6"}})
    assert "attack 1113 with 5A" in notations(st)


def test_8_5_2_axis_step_structures(rules_engine: MotherlandEngine) -> None:
    """8.5.2: German corps three steps (the back a Kampfgruppe), allied armies three (the
    starred army), every other Axis unit one."""
    st = position(rules_engine, 3, "move", "axis", {"9K": "1714", "5A": "0305"})
    assert [st.c(u).max_steps for u in ("9K", "41Pz", "49Mt", "Rom3")] == [3, 3, 3, 3]
    assert [st.c(u).max_steps for u in ("SB1", "AB1", "RRGun")] == [1, 1, 1]
    st.u("9K").steps = 1
    st.u("Rom3").steps = 1
    assert (st.label("9K"), st.label("Rom3")) == ("9K(KG)", "Rom3*")


def test_13_0_offensive_support_adds_three_within_three_hexes(
        rules_engine: MotherlandEngine) -> None:
    def die(os_hex: str) -> str:
        st = position(rules_engine, 3, "combat", "soviet",
                      {"9K": "1214", "5A": "1315", "OS1": os_hex}, fields={"5A": {"chit": "A8-6"}})
        st.apply("attack 1214 with 5A")
        return st.apply_outcome((3,))[0].text

    assert die("1317") == "Die 3 +3 Offensive Support (13.0) = 6: D1"  # 3 hexes away
    assert die("1319") == "Die 3 = 3: A1"  # 5 hexes away


#: Soviet armies two hexes out from 1010 whose ZOCs close every line out of it (and the
#: same ring four columns west, around 0610)
RING_1010 = {"5A": "1112", "16A": "0911", "19A": "0909", "20A": "1109", "31A": "1210"}
RING_0610 = {"5A": "0712", "16A": "0511", "19A": "0509", "20A": "0709", "31A": "0810"}


def test_9_1_1_an_air_base_without_a_supply_line_is_removed_for_three_turns(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "supply", "", {"AB1": "1010", **RING_1010})
    assert st.u("AB1").hex == ""
    assert (st.u("AB1").box, st.u("AB1").return_turn) == ("track", 6)


def test_9_1_2_soviets_beside_a_factory_are_never_out_of_supply(
        rules_engine: MotherlandEngine) -> None:
    ring = {"9K": "1112", "10K": "0911", "11K": "0909", "12K": "1109", "13K": "1210"}
    lacking = {"5A": {"supply": "lack"}}
    st = position(rules_engine, 3, "supply", "", {"5A": "1010", "FacKEV": "1011", **ring},
                  fields=lacking)
    assert st.u("5A").supply == "lack"
    st = position(rules_engine, 3, "supply", "", {"5A": "1010", **ring}, fields=lacking)
    assert st.u("5A").supply == "out"


def test_9_3_an_axis_line_ends_at_a_supply_base_on_connected_rail(
        rules_engine: MotherlandEngine) -> None:
    """9.3: four hexes to a Supply Base on a Railroad connected to a source; 5A at 1613
    keeps 9K within six hexes of a Soviet unit, so 9.3.3's special supply does not apply."""
    st = position(rules_engine, 3, "supply", "", {"9K": "1416", "SB1": "1420", "5A": "1613"})
    assert st.u("9K").supply == ""
    st = position(rules_engine, 3, "supply", "", {"9K": "1416", "5A": "1613"})
    assert st.u("9K").supply == "lack"


def test_9_4_a_soviet_line_ends_on_connected_rail(rules_engine: MotherlandEngine) -> None:
    """9.4: four hexes to a Railroad hex connected to a Soviet source (row 20 here)."""
    st = position(rules_engine, 3, "supply", "", {"5A": "1216", "9K": "0305"})
    assert st.u("5A").supply == ""
    st = position(rules_engine, 3, "supply", "", {"5A": "1215", "9K": "0305"})
    assert st.u("5A").supply == "lack"


def test_9_3_4_an_expended_supply_base_supplies_then_leaves_for_three_turns(
        rules_engine: MotherlandEngine) -> None:
    units = {"9K": "1412", "SB1": "1415", "5A": "1610"}
    st = position(rules_engine, 3, "supply", "", units)
    assert notations(st) == ["expend SB1", "end expending"]
    st.apply("end expending")
    assert st.u("9K").supply == "lack"  # SB1 is off the railroad: no line through it
    st = position(rules_engine, 3, "supply", "", units)
    st.apply("expend SB1")
    assert st.u("9K").supply == ""
    assert st.phase() == ("move", "axis")  # removed at the end of the phase
    assert (st.u("SB1").hex, st.u("SB1").box, st.u("SB1").return_turn) == ("", "track", 6)


def test_9_3_5_air_supply_turns_out_of_supply_into_lack(rules_engine: MotherlandEngine) -> None:
    """9.3.5 (and 14.2): an Air Unit turns a German unit Out of Supply within four hexes
    of an Air Base into Lack of Supply; not on a Mud Turn (turn 4)."""
    lacking = {"9K": {"supply": "lack"}}
    st = position(rules_engine, 3, "supply", "", {"9K": "0610", "AB1": "0310", **RING_0610},
                  fields=lacking)
    assert st.u("9K").supply == "out"
    assert notations(st) == ["air supply 9K", "end air supply"]
    air = air_available(st)
    st.apply("air supply 9K")
    assert st.u("9K").supply == "lack" and air_available(st) == air - 1
    st = position(rules_engine, 4, "supply", "", {"9K": "0610", "AB1": "0310", **RING_0610},
                  fields=lacking)
    assert st.u("9K").supply == "out"
    assert not any(n.startswith("air supply") for n in notations(st))


def test_8_6_each_hex_of_a_retreat_is_farther_from_the_combat_hex(
        rules_engine: MotherlandEngine) -> None:
    """8.6: "each hex of a retreat must be farther away from the original combat hex":
    after 1214 -> 1213, the second hex is two hexes from 1214, never back beside it."""
    st = d2_position(rules_engine)
    st.apply("take D2 as 0 step 2 retreat")
    st.apply("retreat 9K 10K to 1213")
    grid = st.data.hexmap.grid
    second = {n.split()[-1] for n in notations(st)}
    assert second and all(grid.distance(h, "1214") == 2 for h in second)
    near = next(h for h in st.data.neighbors["1213"] if grid.distance(h, "1214") == 1
                and not st.units_at(h))
    with pytest.raises(IllegalAction):
        st.apply(f"retreat 9K 10K to {near}")


def test_8_6_2_out_of_supply_units_never_retreat_into_an_enemy_zoc(
        rules_engine: MotherlandEngine) -> None:
    """8.6.2: with every free neighbour in a Soviet ZOC, a supplied stack retreats into one
    for a step (4.2.1's test); Out of Supply, it cannot retreat and takes the hexes as
    steps (8.5.1): D3 destroys both corps."""
    st = position(rules_engine, 3, "combat", "soviet",
                  {"9K": "1214", "10K": "1214", "5A": "1315", "16A": "1215", "19A": "1115",
                   "OS1": "1216", "31A": "1212"},
                  fields={"9K": {"supply": "out"}, "10K": {"supply": "out"}})
    st.pos.cups["A"] = ["A8-6", "A8-6", "A8-6"]
    st.apply("attack 1214 with 16A 19A 5A")
    draw(st, "A8-6", "A8-6", "A8-6")
    roll(st, 4)  # defence halved (9.5): D3
    texts = [e.text for e in st.apply("take D3 as 0 step 3 retreat")]
    assert "9K cannot retreat: 3 step loss(es) instead (8.5.1)" in texts
    assert st.u("9K").hex == "" and st.u("10K").hex == ""


def test_9_5_supply_effects_halve_factors_and_bar_overruns(
        rules_engine: MotherlandEngine) -> None:
    """9.5: Lack halves attack and movement, Out defence too (rounded up); neither may
    overrun (the refusal cites the overrun restrictions, 7.2.1)."""
    got = {}
    for supply in ("", "lack", "out"):
        st = position(rules_engine, 3, "move", "axis", {"41Pz": "1314", "5A": "1214"},
                      fields={"41Pz": {"supply": supply}, "5A": {"chit": "C1-2*"}})
        got[supply] = st.factors("41Pz")
        overrun = "overrun 1214 with 41Pz"
        assert (overrun in notations(st)) == (supply == "")
        if supply:
            with pytest.raises(IllegalAction, match=rf"^7\.2\.1: 41Pz is {supply} of supply"):
                st.apply(overrun)
    assert got == {"": (9, 8, 7), "lack": (5, 8, 4), "out": (5, 4, 4)}


def test_16_1_the_ss_panzer_corps_takes_panzer_replacements_and_no_other_kg(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 4, "admin", "", {"SSPz": "2020", "9K": "0305"},
                  fields={"SSPz": {"steps": 2}})
    while "replace SSPz" not in notations(st) and st.decision() is not None \
            and st.decision().kind != "replacement":  # type: ignore[union-attr]
        st.apply(notations(st)[-1])
    assert "replace SSPz" in notations(st)  # Mud turn 4: Panzer points (15.1)
    st = position(rules_engine, 3, "admin", "", {"SSPz": "2020", "41Pz": "2020"},
                  fields={"SSPz": {"steps": 1}, "41Pz": {"steps": 1}})
    assert not any(n.startswith("combine") for n in notations(st))


def test_16_3_italy_leaves_in_the_turn_17_administrative_phase(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 16, "admin", "", {"Ita8": "2020", "5A": "0305"})
    assert st.u("Ita8").hex == "2020"
    st = position(rules_engine, 17, "admin", "", {"Ita8": "2020", "5A": "0305"})
    assert (st.u("Ita8").hex, st.u("Ita8").box) == ("", "removed")


@pytest.mark.parametrize(("uid", "back"), [("5A", 6), ("1T", 8)])
def test_17_1_eliminated_armies_return_three_turns_later_tanks_five(
        rules_engine: MotherlandEngine, uid: str, back: int) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"41Pz": "1314", "47Pz": "1314", uid: "1214"},
                  fields={uid: {"chit": "C1-2*", "steps": 1}})
    st.apply("attack 1214 with 41Pz 47Pz")
    assert [e.text for e in st.apply_outcome((6,))][1] == f"{uid} is eliminated at 1214: DE (8.5)"
    assert (st.u(uid).box, st.u(uid).return_turn) == ("track", back)


def _points(engine: MotherlandEngine, units: dict[str, str]) -> list[str]:
    st = position(engine, 3, "combat", "axis", units)
    st.pos.control = {"2113": "axis"}
    st._touch()
    return victory_points(st)[1]


def test_19_1_3_a_city_scores_only_with_a_line_to_a_source(
        rules_engine: MotherlandEngine) -> None:
    assert "Moscow held: 10" in _points(rules_engine, {"9K": "2113", "5A": "2820"})
    ring = {"5A": "2115", "16A": "1914", "19A": "1912", "20A": "2112", "31A": "2214"}
    assert "Moscow held: 10" not in _points(rules_engine, {"9K": "2113", **ring})


def test_19_1_4_an_empty_city_in_an_enemy_zoc_does_not_score(
        rules_engine: MotherlandEngine) -> None:
    assert "Moscow held: 10" in _points(rules_engine, {"5A": "2820", "9K": "0305"})
    assert "Moscow held: 10" not in _points(rules_engine, {"5A": "2114"})
    assert "Moscow held: 10" in _points(rules_engine, {"5A": "2114", "9K": "2113"})


def test_5_1_7_soviet_infantry_cross_frozen_access_on_snow_turns(
        rules_engine: MotherlandEngine) -> None:
    """5.1.7 (18.2.2): on a Snow Turn Soviet infantry cross the red-arrow hexsides as Minor
    Rivers (2 MP each: 0405 -> 0505 -> 0506 -> 0606 is 6 MP), never ending on the ice;
    not on a clear turn, not a tank."""
    def at(turn: int, uid: str) -> MotherlandState:
        st = position(rules_engine, turn, "move", "soviet", {uid: "0405", "9K": "2020"},
                      fields={uid: {"chit": "A8-6"}})
        st.u(uid).mp = 6
        return st

    st = at(5, "5A")
    with pytest.raises(IllegalAction, match=r"^5\.1\.7: a move cannot end in a Sea or Lake hex"):
        st.apply("move 5A 0405 0505")
    st.apply("move 5A 0405 0505 0506 0606")
    assert (st.u("5A").hex, st.u("5A").mp) == ("0606", 0)
    for turn, uid in ((3, "5A"), (5, "1T")):
        with pytest.raises(IllegalAction, match=rf"^5\.1: 0505 is prohibited terrain for {uid}"):
            at(turn, uid).apply(f"move {uid} 0405 0505 0506 0606")


def test_5_1_9_an_out_of_play_hexside_is_never_crossed() -> None:
    """5.1.9, on the shipped map: 1526/1625 is out of play (brown), as a sea hexside."""
    st = position(ENGINE, 3, "move", "axis", {"9K": "1526", "5A": "0305"})
    assert not any(n.startswith("move 9K 1526 1625") for n in notations(st))
    with pytest.raises(IllegalAction, match=r"^5\.1\.9: the hexside 1526/1625 cannot be crossed"):
        st.apply("move 9K 1526 1625")


def test_14_0_air_units_fly_within_four_hexes_of_an_air_base(
        rules_engine: MotherlandEngine) -> None:
    """14.0: five Air Units, one to a combat, within four hexes of an Air Base; halved
    (rounded down) on a Mud Turn (18.1.1)."""
    def attacks(base: str, turn: int = 3) -> tuple[list[str], int]:
        st = position(rules_engine, turn, "combat", "axis",
                      {"41Pz": "1314", "5A": "1214", "AB1": base}, fields={"5A": {"chit": "A8-6"}})
        return notations(st), air_available(st)

    assert attacks("1412") == (["attack 1214 with 41Pz", "attack 1214 with 41Pz and air",
                                "end combat"], 5)  # 3 hexes from 1214
    assert attacks("1408")[0] == ["attack 1214 with 41Pz", "end combat"]  # 7 hexes
    assert attacks("1412", turn=4)[1] == 2
