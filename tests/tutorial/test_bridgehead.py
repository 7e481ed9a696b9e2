"""Bridgehead's rules, one test per rule of its page (tests/tutorial/README.md), each
position stated with the setup API.  The map: the Mill runs between columns 4 and 5,
bridged at 0403/0503 on the road; Millbrook is 0703."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tutorial_engine import ENGINE, BridgeheadState, rules

from pbem.errors import IllegalAction, UsageError
from pbem.setup import describe, setup

#: the red units out of the way in the south-east corner, their ZOC far from the river
FAR = 'R1 = "0806", R2 = "0805"'


def at(text: str) -> BridgeheadState:
    state = setup(ENGINE, "bridgehead", text)
    assert isinstance(state, BridgeheadState)
    return state


def legal(state: BridgeheadState) -> list[str]:
    return [a.notation() for a in state.legal_actions()]


def test_2_a_unit_may_pass_a_friend_but_not_end_its_move_on_it() -> None:
    state = at(f'units = {{ B1 = "0202", B2 = "0203", {FAR} }}\nstep = "movement"')
    assert "move B1 0204" in legal(state)  # through 0203, or round it
    with pytest.raises(IllegalAction, match=r"^2: 0203 is occupied"):
        state.apply("move B1 0203")


def test_3_1_a_unit_moves_once_a_phase_and_the_road_costs_half() -> None:
    state = at(f'units = {{ B1 = "0103", {FAR} }}\nstep = "movement"')
    # 0103 to 0803 is seven hexes: 3 1/2 of B1's 4 along the road, 7 across the fields
    assert "move B1 0803" in legal(state)
    assert "move B1 0804" not in legal(state)  # one hex beyond the road's end: 4 1/2
    state.apply("move B1 0803")
    with pytest.raises(IllegalAction, match=r"^3\.1: B1 has moved this phase"):
        state.apply("move B1 0703")


def test_3_2_the_river_is_crossed_only_at_the_bridge() -> None:
    assert rules().costs.cost("0402", "0502") is None
    assert rules().costs.cost("0403", "0503") == Fraction(1, 2)
    state = at(f'units = {{ B1 = "0401", {FAR} }}\nstep = "movement"')
    # 0501 is next door, but by the bridge it costs 4 1/2: beyond B1's 4
    assert "move B1 0502" in legal(state)
    with pytest.raises(IllegalAction, match=r"^3\.2: B1 cannot cross the river from 0401"):
        state.apply("move B1 0501")


def test_3_3_no_unit_enters_an_enemy_units_hex() -> None:
    state = at('units = { B1 = "0502", R1 = "0503", R2 = "0806" }\nstep = "movement"')
    with pytest.raises(IllegalAction, match=r"^3\.3: 0503 holds an enemy unit"):
        state.apply("move B1 0503")


def test_4_1_a_zone_of_control_reaches_across_the_bridge_not_the_river() -> None:
    state = at('units = { R1 = "0503" }')
    zoc = state.zoc("red").hexes
    assert "0403" in zoc  # across the bridge
    assert "0402" not in zoc  # across the river
    assert {"0502", "0504", "0602", "0603"} <= zoc


def test_4_2_entering_an_enemy_zone_of_control_ends_the_move() -> None:
    state = at('units = { B1 = "0303", R1 = "0603", R2 = "0806" }\nstep = "movement"')
    # 0503 is in R1's zone; 0502, beyond it, costs 2 of B1's 4 but cannot be reached
    assert "move B1 0502" not in legal(state)
    events = state.apply("move B1 0503")
    assert events[0].text == "B1 moves 0303 to 0503 and stops in an enemy zone of control " \
        "(4.1, 4.2)"


def test_4_3_no_move_from_one_enemy_zone_hex_straight_into_another() -> None:
    state = at('units = { B1 = "0503", R1 = "0603", R2 = "0806" }\nstep = "movement"')
    assert "move B1 0502" in legal(state)  # leaving the zone is free
    assert "move B1 0504" not in legal(state)  # 0503 and 0504 are both in R1's zone
    with pytest.raises(IllegalAction, match=r"^4\.3: B1 cannot move from one enemy zone"):
        state.apply("move B1 0504")


def test_5_1_each_enemy_hex_once_by_every_adjacent_unit_not_across_the_river() -> None:
    state = at('units = { B1 = "0503", B2 = "0602", B3 = "0402", R1 = "0603", '
               'R2 = "0502" }\nstep = "combat"')
    # R2 at 0502 is next to B1 (so attackable), and to B3 only across the river
    assert legal(state) == ["attack 0502", "attack 0603", "end"]
    events = state.apply("attack 0603")
    assert events[0].text == "B1, B2 attack 0603"
    state.apply_outcome((3,))  # 8 to 3 is 2:1: a 3 makes R1 retreat
    state.apply("retreat 0604")
    # 0603 has been attacked; R2 is next only to B1 and B2, which have attacked
    assert legal(state) == ["end"]


def test_5_2_odds_round_down_for_the_defender_and_a_town_shifts_one_column_left() -> None:
    state = at('units = { B1 = "0603", B2 = "0702", R1 = "0703", R2 = "0806" }\n'
               'step = "combat"')
    state.apply("attack 0703")
    events = state.apply_outcome((1,))  # 8 to 3 is 2:1, the town makes it 1:1: AE
    assert events[0].text.startswith("8 to 3 at 1:1 (5.2: shifted for the terrain), roll 1: AE")
    assert state.pos.units["B1"] == state.pos.units["B2"] == ""


def test_6_1_defender_eliminated() -> None:
    state = at('units = { B1 = "0504", B2 = "0604", R2 = "0505" }\nstep = "combat"')
    state.apply("attack 0505")
    state.apply_outcome((2,))  # 8 to 2 is 4:1: a 2 is DE
    assert state.pos.units["R2"] == ""


def test_6_2_the_defender_retreats_one_hex_out_of_enemy_zones_and_chooses_where() -> None:
    state = at('units = { B1 = "0504", R1 = "0806", R2 = "0505" }\nstep = "combat"')
    state.apply("attack 0505")
    state.apply_outcome((2,))  # 4 to 2 is 2:1, a 2: DR
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("red", "retreat")
    # 0604 is in B1's zone; 0404 and 0405 lie across the river
    assert legal(state) == ["retreat 0506", "retreat 0605"]
    state.apply("retreat 0605")
    assert state.pos.units["R2"] == "0605"


def test_6_2_a_retreat_with_one_hex_to_go_to_is_taken_without_asking() -> None:
    state = at('units = { B1 = "0504", B2 = "0604", R1 = "0806", R2 = "0505" }\n'
               'step = "combat"')
    state.apply("attack 0505")
    state.apply_outcome((1,))  # 8 to 2 is 4:1, a 1: DR; B2's zone leaves 0506 only
    assert state.pos.units["R2"] == "0506"
    assert state.current_player() == "blue"


def test_6_2_a_unit_that_cannot_retreat_is_eliminated() -> None:
    state = at('units = { B1 = "0504", B2 = "0604", B3 = "0606", R1 = "0806", '
               'R2 = "0505" }\nstep = "combat"')
    state.apply("attack 0505")
    events = state.apply_outcome((1,))
    assert "R2 cannot retreat and is eliminated" in events[0].text
    assert state.pos.units["R2"] == ""


def test_7_1_a_side_with_no_unit_left_loses_at_once() -> None:
    state = at('units = { B1 = "0504", B2 = "0604", R1 = "", R2 = "0505" }\nstep = "combat"')
    state.apply("attack 0505")
    events = state.apply_outcome((2,))
    assert events[-1].text == "the red side has no unit left and loses"
    result = state.result()
    assert state.is_terminal() and result is not None and result.winner == "blue"


@pytest.mark.parametrize(("b1", "winner"), [("0703", "blue"), ("0603", "red")])
def test_7_2_blue_wins_if_it_holds_millbrook_when_the_last_turn_ends(
        b1: str, winner: str) -> None:
    state = at(f'turn = 4\nphasing = "red"\nunits = {{ B1 = "{b1}", {FAR} }}\n'
               'step = "combat"')
    assert not state.is_terminal()
    events = state.apply("end")
    result = state.result()
    assert state.is_terminal() and result is not None and result.winner == winner
    assert events[-1].text == f"the last turn ends: {result.text}"


def test_a_position_set_up_is_described_and_set_up_again_to_the_same_digest() -> None:
    state = at('turn = 3\nphasing = "red"\nmoved = ["R1"]\nstep = "movement"')
    assert at(describe(state)).digest() == state.digest()


def test_1_blue_moves_then_fights_then_red_does_and_the_turn_ends() -> None:
    state = at("")
    seen = []
    for _ in range(4):
        decision = state.decision()
        assert decision is not None
        seen.append((state.pos.turn, decision.side, decision.kind))
        state.apply("end")
    assert seen == [(1, "blue", "move"), (1, "blue", "attack"), (1, "red", "move"),
                    (1, "red", "attack")]
    assert (state.pos.turn, state.pos.phasing) == (2, "blue")


def test_5_3_one_die_on_the_odds_column_four_to_one_and_more_share_the_last() -> None:
    state = at('units = { B1 = "0504", B2 = "0604", B3 = "0506", R1 = "0806", '
               'R2 = "0505" }\nstep = "combat"')
    # 11 to 2 is 5:1, off the table: the 4:1+ column, where a 1 is DR
    state.apply("attack 0505")
    events = state.apply_outcome((1,))
    assert events[0].text.startswith("11 to 2 at 4:1+, roll 1: DR")


@pytest.mark.parametrize("step", ["retreat", "combat-roll"])
def test_a_step_whose_frame_needs_arguments_is_set_up_with_its_frames(step: str) -> None:
    with pytest.raises(UsageError, match=rf"step '{step}' does not fit the position.*stack"):
        at(f'step = "{step}"')
    state = at('units = { B1 = "0504", R1 = "0806", R2 = "0505" }\n'
               'stack = [["game", 0, {}], ["player-turn", 2, {}], ["combat", 0, {}], '
               '["retreat", 0, { unit = "R2" }]]')
    assert legal(state) == ["retreat 0506", "retreat 0605"]
