"""Mortain Counterattack: the exclusive rules, each from the book's own numbers, positions
stated with the setup API (pbem.setup)."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE
from engines.mortain.data import rules
from engines.mortain.movement import allowance, reach
from engines.mortain.position import Status
from engines.mortain.state import MortainState
from engines.mortain.support import allotment
from pbem.errors import IllegalAction
from pbem.setup import setup

SCEN = "counterattack"


def at(text: str) -> MortainState:
    state = setup(ENGINE, SCEN, text)
    assert isinstance(state, MortainState)
    return state


def texts(state: MortainState) -> list[str]:
    return [a.notation() for a in state.legal_actions()]


def us_set_up(extra: str = "") -> str:
    """Every US unit placed somewhere harmless (west, rows 18-21) unless moved by ``extra``."""
    r = rules()
    us = [u for u in r.order if r.units[u].side == "us"]
    spots = [f"{c:02d}{row:02d}" for row in (19, 21) for c in range(2, 30, 2)]
    where = {f'"{u}"': f'"{spots[i]}"' for i, u in enumerate(us)}
    for line in extra.splitlines():
        key, _, value = line.partition(" = ")
        where[key if key.startswith('"') else f'"{key}"'] = value
    return "[units]\n" + "\n".join(f"{k} = {v}" for k, v in where.items()) + "\n"


# -- 15.0 / 12.0 / 16.0: support fire allotments -------------------------------------------


def draw_counts(state: MortainState) -> dict[str, int]:
    """Resolve the draws of the turn's start and return how many each side drew."""
    out = {}
    while state.is_chance():
        req = state.chance_request()
        assert req.kind == "draw" and req.rule == "16.0"
        side = req.cup.split("-")[0]
        out[side] = req.count
        state.apply_outcome(tuple(sorted(req.contents)[:req.count]))
    return out


def test_15_0_aug_6th_allotment_6_doubled_to_12_by_a_us_unit_on_hill_317() -> None:
    """15.0's example: a US unit on Hill 317 at the start of Aug. 6th: 6 becomes 12."""
    plain = at('turn = 1\nstep = "hill-check"\n' + us_set_up())
    assert draw_counts(plain)["us"] == 6
    hill = at('turn = 1\nstep = "hill-check"\n' + us_set_up('"1/33" = "2815"\n'))
    assert hill.pos.hill_317
    assert draw_counts(hill)["us"] == 12


def test_15_0_a_depleted_us_unit_on_the_hill_doubles_too() -> None:
    state = at('turn = 1\nstep = "hill-check"\n' + us_set_up('"1/33" = "2815 depleted"\n'))
    assert draw_counts(state)["us"] == 12


def test_15_0_doubling_holds_for_the_turn_if_the_unit_leaves_and_not_after() -> None:
    """Begun the turn there: doubled even though the unit has left (or died) since."""
    state = at('turn = 3\nhill_317 = true\nstep = "allot"\n' + us_set_up())
    assert draw_counts(state)["us"] == 12
    # the next turn's check finds nobody on 2815: no carry-over
    state = at('turn = 4\nhill_317 = true\nstep = "hill-check"\n' + us_set_up())
    assert not state.pos.hill_317
    assert draw_counts(state)["us"] == 6


def test_12_0_halved_while_the_enemy_holds_the_supply_symbol() -> None:
    """US 6 -> 3 with a German unit on 0102; the German 5 loses half rounded down (2) with
    a US unit on 3212, keeping 3 (12.0: "will lose half (rounded down) its support fire
    marker allotment")."""
    state = at('turn = 2\nstep = "hill-check"\n' + us_set_up('"1/33" = "3212"\nG01 = "0102"\n'))
    assert draw_counts(state) == {"german": 3, "us": 3}


def test_12_0_an_odd_allotment_loses_half_rounded_down_and_keeps_the_rest() -> None:
    """The rounding falls on what is lost: 5 loses 2 and keeps 3 (not 2)."""
    state = at('turn = 2\nstep = "hill-check"\n' + us_set_up('"1/33" = "3212"\n'))
    assert state.r.allotment["german"][1] == 5
    assert allotment(state, "german") == (3, ["12.0"])


def test_12_0_then_15_0_halved_allotment_is_doubled_normally() -> None:
    state = at('turn = 2\nstep = "hill-check"\n'
               + us_set_up('"1/33" = "2815"\nG01 = "0102"\n'))
    n, why = allotment(state, "us")
    assert (n, why) == (6, ["12.0", "15.0"])


def test_16_0_markers_drawn_from_the_side_pool() -> None:
    state = at('turn = 2\nstep = "hill-check"\n' + us_set_up())
    req = state.chance_request()
    assert req.cup == "german-support" and sorted(req.contents) == list(rules().pool["german"])
    state.apply_outcome(("3", "3", "2", "1", "1"))
    assert state.pos.chits["german"] == [1, 1, 2, 3, 3]


# -- 11.0 / 11.1 reinforcements, 17.0, 18.0 --------------------------------------------------


def german_move(extra: str, turn: int = 2) -> MortainState:
    return at(f'turn = {turn}\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
              + us_set_up(extra))


def test_11_1_german_units_enter_in_3201_3221_and_turn_2_units_wait() -> None:
    state = german_move("", turn=1)
    acts = texts(state)
    assert "enter G01 3201" in acts and "enter G01 3221" in acts
    assert not any(a.startswith("enter G26 ") for a in acts)
    with pytest.raises(IllegalAction, match=r"11\.1"):
        state.apply("enter G26 3210")
    with pytest.raises(IllegalAction, match=r"11\.1"):
        state.apply("enter G01 3110")


def test_11_0_an_arriving_unit_moves_at_once_with_what_its_entry_leaves() -> None:
    state = german_move('G02 = "3210"\n')
    state.apply("enter G01 3212")
    # it entered a hedgerow hex along the road at 1 half-MP of its 20 and may move on
    assert state.pos.mp_left["G01"] == 2 * 10 - rules().entry_cost("3212")
    assert any(a.startswith("move G01 ") for a in texts(state))
    assert not any(a == "move G01 3210" for a in texts(state))


def test_11_0_an_arrival_may_pass_through_an_occupied_entry_hex_but_not_end_there() -> None:
    """11.0: "no unit may arrive and end its movement stacked in the same hex with any
    other unit": entering G02's hex is allowed; G01 must then move on before anything
    else, and may not end there."""
    state = german_move('G02 = "3210"\n')
    assert "enter G01 3210" in texts(state)
    state.apply("enter G01 3210")
    acts = texts(state)
    assert acts and all(a.startswith("move G01 ") for a in acts)
    assert "move G01 3210" not in acts
    with pytest.raises(IllegalAction, match=r"11\.0.*G01.*moves on"):
        state.apply("end movement")
    with pytest.raises(IllegalAction, match=r"11\.0"):
        state.apply("enter G03 3201")
    state.apply("move G01 3110")
    assert state.pos.units["G01"].hex == "3110"
    assert "end movement" in texts(state)


def test_11_0_no_arrival_into_an_occupied_entry_hex_it_could_not_leave() -> None:
    """An entry hex in a US ZOC stops the arrival there (S3): entering it stacked would end
    the move stacked."""
    state = german_move('G02 = "3212"\n"1/33" = "3112"\n')
    assert "3212" in state.zoc_of("us")
    assert "enter G01 3212" not in texts(state)
    with pytest.raises(IllegalAction, match=r"11\.0"):
        state.apply("enter G01 3212")


def test_11_0_an_arrival_that_enters_a_us_zoc_ends_its_move_there() -> None:
    """S3 with 11.0: entering an enemy ZOC ends the move, entering from off the map too (it
    did not start its move in the ZOC, so leaving it is not free)."""
    state = german_move('"1/33" = "3112"\n')
    assert "3212" in state.zoc_of("us")
    state.apply("enter G01 3212")
    assert not any(a.startswith("move G01 ") for a in texts(state))
    with pytest.raises(IllegalAction, match=r"S3"):
        state.apply("move G01 3213")
    # nor in the mobile movement phase that follows
    mobile = at('turn = 2\nphasing = "german"\nphase = "mobile"\nstep = "mobile-move"\n'
                + us_set_up('"1/33" = "3112"\n'))
    mobile.apply("enter G01 3212")
    assert not any(a.startswith("move G01 ") for a in texts(mobile))


def test_11_0_reinforcements_enter_at_the_beginning_of_the_phase() -> None:
    """11.0: "Enter reinforcements ... at the beginning of each respective player's
    movement phase": once a unit that was on the map moves, no more arrivals."""
    state = german_move('G01 = "3010"\n')
    state.apply("enter G26 3201")
    state.apply("move G26 3102")  # an arrival moving on does not close the entries
    assert any(a.startswith("enter G27 ") for a in texts(state))
    state.apply("move G01 2910")
    assert not any(a.startswith("enter ") for a in texts(state))
    with pytest.raises(IllegalAction, match=r"11\.0.*beginning"):
        state.apply("enter G27 3201")


def test_17_0_turn_1_no_german_unit_ends_adjacent_to_another() -> None:
    state = german_move('G02 = "3210"\n', turn=1)
    state.apply("enter G01 3215")
    with pytest.raises(IllegalAction, match=r"17\.0"):
        state.apply("move G01 3211")
    state2 = german_move('G02 = "3210"\n', turn=2)
    state2.apply("enter G01 3211")  # from Aug. 7th on, the penalty is gone
    assert "end movement" in texts(state2)


def test_17_0_turn_1_an_arrival_may_pass_next_to_another_german_unit() -> None:
    """17.0 bars ending a move adjacent, not passing: G01 may enter 3211 beside G02 but must
    move on to a hex next to no German unit."""
    state = german_move('G02 = "3210"\n', turn=1)
    assert "enter G01 3211" in texts(state)
    state.apply("enter G01 3211")
    with pytest.raises(IllegalAction, match=r"17\.0"):
        state.apply("end movement")
    acts = texts(state)
    assert acts and all(a.startswith("move G01 ") for a in acts)
    assert "move G01 3211" not in acts and "move G01 3111" not in acts
    assert "move G01 3013" in acts


def test_18_0_no_us_unit_moves_on_turn_1() -> None:
    state = at('turn = 1\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n' + us_set_up())
    assert texts(state) == ["end movement"]
    with pytest.raises(IllegalAction, match=r"18\.0"):
        state.apply("move 1/33 0320")


def test_18_0_no_us_advance_after_combat_on_aug_6th() -> None:
    """18.0: on Aug. 6th "no US unit may move from its current set-up hex": an advance after
    combat would (the page's reading; a retreat is the combat result's, not a move)."""
    state = at('turn = 1\nphasing = "us"\nphase = "combat"\nstep = "us:combat"\n'
               'chits = { german = [], us = [] }\n'
               + us_set_up('"1/33" = "2110"\n"2/33" = "2011"\n"3/33" = "1910"\n'
                           'G30 = "2010 depleted"\n'))
    state.apply("attack 2010")
    for u in ("1/33", "2/33", "3/33"):
        state.apply(f"with {u}")
    state.apply("resolve")
    state.apply("no support")
    state.apply("no support")
    assert "12 - 1 = +11" in state.chance_request().purpose
    state.apply_outcome((1,))
    assert state.pos.units["G30"].status is Status.ELIMINATED
    d = state.decision()
    assert d is not None and d.kind == "combat"  # no advance offered
    assert "2010" not in state.occupant()
    assert [state.pos.units[u].hex for u in ("1/33", "2/33", "3/33")] == ["2110", "2011",
                                                                           "1910"]


def test_11_2_us_replacement_once_per_game_on_0102() -> None:
    state = at('turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"1/33" = "eliminated"\n"1/36" = "0420 depleted"\n'))
    assert {"replace 1/33", "replace 1/36"} <= set(texts(state))
    state.apply("replace 1/33")
    assert state.pos.units["1/33"].hex == "0102" and state.pos.units["1/33"].depleted
    with pytest.raises(IllegalAction, match=r"11\.2: one replacement per game"):
        state.apply("replace 1/36")


def test_11_2_no_arrival_when_0102_is_in_a_german_zoc() -> None:
    # 0103 is a hedgerow hex: ZOC reaches 0102 only if 0102 is not hedgerow-without-road
    r = rules()
    zoc = r.zoc({"G01": "0202"}).hexes
    blocked = "0102" in zoc
    state = at('turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"1/33" = "eliminated"\nG01 = "0202"\n'))
    assert ("replace 1/33" in texts(state)) == (not blocked)
    occupied = at('turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
                  + us_set_up('"1/33" = "eliminated"\nG01 = "0102"\n'))
    assert "replace 1/33" not in texts(occupied)
    with pytest.raises(IllegalAction, match=r"11\.2"):
        occupied.apply("replace 1/33")


def test_11_2_a_replacement_arrives_on_0102_beside_a_us_unit_there_and_moves_on() -> None:
    """11.2 bars the arrival only when 0102 is "occupied by any German unit or within any
    German unit's ZOC"; with a US unit there the replacement arrives and, by 11.0, moves
    on rather than end stacked."""
    state = at('turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"1/33" = "eliminated"\n"1/36" = "0102"\n'))
    assert "replace 1/33" in texts(state)
    state.apply("replace 1/33")
    assert state.pos.units["1/33"].hex == "0102" and state.pos.units["1/33"].depleted
    acts = texts(state)
    assert acts and all(a.startswith("move 1/33 ") for a in acts)
    assert "move 1/33 0102" not in acts
    with pytest.raises(IllegalAction, match=r"11\.0"):
        state.apply("end movement")
    state.apply(acts[0])
    assert "end movement" in texts(state)


def test_11_2_the_refusal_names_what_bars_the_arrival() -> None:
    base = 'turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
    held = at(base + us_set_up('"1/33" = "eliminated"\nG01 = "0102"\n'))
    with pytest.raises(IllegalAction, match=r"11\.2: a German unit occupies 0102"):
        held.apply("replace 1/33")
    zoc = at(base + us_set_up('"1/33" = "eliminated"\nG01 = "0103"\n'))
    assert "0102" in zoc.zoc_of("german")
    with pytest.raises(IllegalAction, match=r"11\.2: 0102 is in a German unit's ZOC"):
        zoc.apply("replace 1/33")


def test_11_3_a_replacement_arrives_on_3212_beside_a_german_unit_there() -> None:
    state = german_move('G01 = "eliminated"\nG02 = "3212"\n', turn=3)
    assert "replace G01" in texts(state)
    state.apply("replace G01")
    assert state.pos.units["G01"].hex == "3212"
    assert all(a.startswith("move G01 ") for a in texts(state))


def test_11_3_german_replacement_rebuilds_a_depleted_unit_even_in_an_enemy_zoc() -> None:
    state = german_move('G01 = "2716 depleted"\n"1/33" = "2715"\n')
    state.apply("replace G01")
    assert not state.pos.units["G01"].depleted and state.pos.replaced == {"german"}


# -- 14.1 hedgerows, 14.2 the See --------------------------------------------------------------


def test_14_1_zoc_does_not_enter_a_hedgerow_hex_without_road_or_trail() -> None:
    r = rules()
    assert r.map.terrain_of("2009") == "hedgerow" and "2009" not in r.on_network
    assert r.map.terrain_of("1910") == "hedgerow" and "1910" in r.on_network
    zoc = r.zoc({"1/33": "2010"}).hexes
    assert "2009" not in zoc and "2110" not in zoc
    assert "1910" in zoc and "2111" in zoc  # a trail hedgerow hex, a hill hex


def test_14_1_attacks_on_a_hedgerow_hex_use_the_hedgerow_row() -> None:
    r = rules()
    assert r.crt_row("2010") == "hedgerow"
    assert r.crt_row("1910") == "hedgerow"  # with a trail: still the Hedgerow row
    assert r.crt_row("2815") == "peak" and r.crt_row("2514") == "town"


def test_14_2_no_movement_across_an_unbridged_see_hexside() -> None:
    r = rules()
    a, b = "0205", "0206"
    assert (a, b) in r.see_unbridged
    # G20 (1-2-5) cannot go round by the Brecey bridge (16 half-MPs): only straight across
    state = german_move(f'G20 = "{a}"\n')
    assert f"move G20 {b}" not in texts(state)
    with pytest.raises(IllegalAction, match=r"14\.2"):
        state.apply(f"move G20 {b}")
    assert r.costs.cost("1008", "1009") is not None  # the Cuves bridge


def combat_at(extra: str, turn: int = 2, chits: str = "") -> MortainState:
    return at(f'turn = {turn}\nphasing = "german"\nphase = "combat"\nstep = "combat"\n'
              + (f"{chits}\n" if chits else "") + us_set_up(extra))


def test_14_2_no_attack_across_the_see_but_bombardment_is_allowed() -> None:
    state = combat_at('G01 = "0205"\n"1/33" = "0206"\n',
                      chits="chits = { german = [2], us = [] }")
    acts = texts(state)
    assert "attack 0206" not in acts and "bombard 0206" in acts
    with pytest.raises(IllegalAction, match=r"14\.2"):
        state.apply("attack 0206")


def test_14_2_an_attack_wholly_across_a_bridge_uses_the_see_river_bridged_row() -> None:
    """The ICRT's "See River (bridged)" row (with Hill) for an attack made only across a
    bridged See hexside: Cuves (1008, a town) from 1009 over the Cuves bridge; from 1108,
    not across the See, the Town row."""
    bridge = combat_at('G07 = "1009"\n"2/119" = "1008"\n')
    bridge.apply("attack 1008")
    bridge.apply("with G07")
    bridge.apply("resolve")
    bridge.apply("no support")
    bridge.apply("no support")
    assert "on the hill row" in bridge.chance_request().purpose
    land = combat_at('G07 = "1108"\n"2/119" = "1008"\n')
    land.apply("attack 1008")
    land.apply("with G07")
    land.apply("resolve")
    land.apply("no support")
    land.apply("no support")
    assert "on the town row" in land.chance_request().purpose


def test_s9_demolished_bridge_stops_movement_until_repaired() -> None:
    state = at('turn = 2\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"Eng/CCB" = "1008"\n'))
    state.apply("demolish Eng/CCB 1008/1009")
    assert state.pos.demolished == {"1008/1009"}
    mover = german_move('G30 = "1009"\nG01 = "1109"\n')
    mover.pos.demolished = {"1008/1009"}
    mover2 = at('turn = 2\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
                'demolished = ["1008/1009"]\n' + us_set_up('G30 = "1009"\nG01 = "1209"\n'))
    assert "move G30 1008" not in texts(mover2)
    mover2.apply("repair G30 1008/1009")
    assert mover2.pos.demolished == set()
    assert any(a.startswith("move G01 1008") for a in texts(mover2))


# -- 19.0 / 19.1 victory and exiting -------------------------------------------------------------


def test_19_1_exit_costs_the_last_hex_and_a_road_leading_off_costs_the_road() -> None:
    r = rules()
    assert r.exit_cost("0105") == r.enter_cost["clear"]
    assert r.exit_cost("0113") == r.road_cost
    state = german_move('G01 = "0105"\n', turn=3)
    state.pos.mp_left = {}
    ok = at('turn = 3\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
            'mp_left = { G01 = 2 }\n' + us_set_up('G01 = "0105"\n'))
    assert "exit G01" in texts(ok)
    short = at('turn = 3\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
               'mp_left = { G01 = 1 }\n' + us_set_up('G01 = "0105"\n'))
    assert "exit G01" not in texts(short)
    with pytest.raises(IllegalAction, match=r"19\.1"):
        short.apply("exit G01")
    ok.apply("exit G01")
    assert ok.pos.units["G01"].status is Status.EXITED


def test_19_1_a_road_or_trail_along_the_edge_does_not_lead_off_the_map() -> None:
    """19.1: only "a unit moving along a trail or road leading off of the map" pays the road
    cost for the imaginary hex; the road along 0102-0103 leaves the map at 0102 and the
    trail along 0109-0110-0111 at 0111, so 0103, 0109 and 0110 cost their hedgerow."""
    r = rules()
    assert r.exit_cost("0102") == r.road_cost and r.exit_cost("0111") == r.trail_cost
    for h in ("0103", "0109", "0110"):
        assert r.exit_cost(h) == r.enter_cost["hedgerow"], h
    # G01 (3-3-10) in mobile movement from 0408: 0109 costs 8 of its 10 half-MPs, and
    # the hex beyond 4 more, not the trail's 2
    state = at('turn = 3\nphasing = "german"\nphase = "mobile"\nstep = "mobile-move"\n'
               + us_set_up('G01 = "0408"\n'))
    assert reach(state, "G01", "0408", allowance(state, "G01", True)).cost["0109"] == 8
    assert "exit G01" not in texts(state)
    with pytest.raises(IllegalAction, match=r"19\.1"):
        state.apply("exit G01")


def test_19_1_us_units_never_exit() -> None:
    state = at('turn = 3\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"1/33" = "0105"\n'))
    with pytest.raises(IllegalAction, match=r"19\.1"):
        state.apply("exit 1/33")


WIN = ('G01 = "exited"\nG02 = "exited"\nG07 = "exited"\nG08 = "exited"\nG09 = "exited"\n'
       'G10 = "2514"\nG11 = "2515"\n')
HELD = 'mortain = { 2514 = "german", 2515 = "german", 2414 = "german" }\n'


def end_turn(extra: str, mortain: str = HELD) -> MortainState:
    return at('turn = 3\nphasing = "us"\nphase = "mobile"\nstep = "end-turn"\n' + mortain
              + us_set_up(extra))


def test_19_0_german_victory_five_exits_and_mortain_captured() -> None:
    state = end_turn(WIN)
    assert state.is_terminal() and state.result().winner == "german"


def test_19_0_last_occupied_counts_as_captured() -> None:
    # 2414 is empty but a German unit was the last there
    state = end_turn(WIN)
    assert "2414" not in state.occupant() and state.result().winner == "german"


def test_19_0_four_exits_are_not_enough() -> None:
    state = end_turn(WIN.replace('G09 = "exited"\n', ''))
    assert not state.is_terminal()


def test_19_0_a_depleted_or_slow_unit_does_not_count() -> None:
    depleted = end_turn(WIN.replace('G09 = "exited"', 'G09 = "exited depleted"'))
    assert not depleted.is_terminal()
    slow = end_turn(WIN.replace('G09 = "exited"', 'G04 = "exited"'))  # 2-3-7
    assert not slow.is_terminal()


def test_19_0_a_mortain_hex_in_a_us_zoc_is_not_captured() -> None:
    state = end_turn(WIN + '"1/33" = "2314"\n')  # a town hex takes ZOC: 2314 is next to 2414
    assert "2414" in rules().zoc({"1/33": "2314"}).hexes
    assert not state.is_terminal()


def test_19_0_mortain_last_held_by_the_us_is_not_captured() -> None:
    state = end_turn(WIN, mortain='mortain = { 2514 = "german", 2515 = "german", '
                                  '2414 = "us" }\n')
    assert not state.is_terminal()


def test_19_2_us_victory_after_the_last_turn() -> None:
    state = at('turn = 7\nphasing = "us"\nphase = "mobile"\nstep = "end-turn"\n' + us_set_up())
    assert state.is_terminal() and state.result().winner == "us"


def test_20_0_the_us_sets_up_and_every_german_unit_enters_from_the_east() -> None:
    state = ENGINE.new_state(SCEN)
    assert isinstance(state, MortainState)
    d = state.decision()
    assert d is not None and d.side == "us" and d.kind == "setup"
    assert all(x.status is Status.OFF for x in state.pos.units.values())
    while (d := state.decision()) is not None and d.kind == "setup":
        state.apply(d.default.notation())
    assert not any(state.side_of(u) == "german" for u in state.on_map())
    while state.is_chance():
        req = state.chance_request()
        state.apply_outcome(tuple(sorted(req.contents)[:req.count]))
    enters = {a.split()[2] for a in texts(state) if a.startswith("enter ")}
    assert enters == set(rules().entry) == {f"32{r:02d}" for r in range(1, 22)}


def test_11_3_one_german_replacement_per_game() -> None:
    state = at('turn = 3\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
               'replaced = ["german"]\n' + us_set_up('G01 = "eliminated"\n'))
    assert "replace G01" not in texts(state)
    with pytest.raises(IllegalAction, match=r"11\.3: one replacement per game"):
        state.apply("replace G01")


def test_s4_only_mobile_units_move_in_the_mobile_movement_phase() -> None:
    state = at('turn = 3\nphasing = "german"\nphase = "mobile"\nstep = "mobile-move"\n'
               + us_set_up('G04 = "3010"\nG01 = "3012"\n'))
    acts = texts(state)
    assert any(a.startswith("move G01 ") for a in acts)  # 3-3-10
    assert not any(a.startswith("move G04 ") for a in acts)  # 2-3-7
    with pytest.raises(IllegalAction, match=r"S4"):
        state.apply("move G04 3011")
    # half the allowance: 10 half-MPs, five hedgerow... never farther than 10 road hexes
    far = [a.split()[2] for a in acts if a.startswith("move G01 ")]
    assert max(rules().map.distance("3012", h) for h in far) <= 10


def test_s5_one_unit_a_hex() -> None:
    state = german_move('G01 = "3010"\nG02 = "3011"\n')
    with pytest.raises(IllegalAction, match=r"S5"):
        state.apply("move G01 3011")


def test_s8_2_at_most_two_markers_a_side_in_one_combat() -> None:
    state = combat_at('G07 = "2110"\n"2/119" = "2010"\n',
                      chits="chits = { german = [1, 1, 3], us = [] }")
    state.apply("attack 2010")
    state.apply("with G07")
    state.apply("resolve")
    state.apply("support 1")
    state.apply("support 3")
    assert texts(state) == ["no support"]
    with pytest.raises(IllegalAction, match=r"S8\.2"):
        state.apply("support 1")


def test_s8_3_a_bombardment_needs_a_marker() -> None:
    state = combat_at('G01 = "0205"\n"1/33" = "0206"\n',
                      chits="chits = { german = [], us = [] }")
    assert "bombard 0206" not in texts(state)
    with pytest.raises(IllegalAction, match=r"S8\.3"):
        state.apply("bombard 0206")


def test_s9_a_demolished_bridge_stops_a_zoc_across_it_in_the_board_facts() -> None:
    """The ZOC (14.2 stand-in) the state reads from the kit's board facts follows the
    bridges: across the intact 1008/1009 bridge, not once it is demolished, and again once
    repaired; one ZOC rule a set of demolished bridges."""
    base = 'turn = 2\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
    intact = at(base + us_set_up('G30 = "1009"\n'))
    assert "1008" in intact.zoc_of("german")
    gone = at(base + 'demolished = ["1008/1009"]\n' + us_set_up('G30 = "1009"\n'))
    assert "1008" not in gone.zoc_of("german")
    assert rules().zoc_rule(["1008/1009"]) is rules().zoc_rule({"1008/1009"})
    gone.apply("repair G30 1008/1009")
    assert "1008" in gone.zoc_of("german")


def test_a_movement_decision_lists_its_options_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """S3: the movement options (every unit's reach) are computed once per decision, for
    the prompt's default, the listing and the check of the action taken (memo_options)."""
    from engines.mortain import movement
    state = german_move('G02 = "3210"\n')
    calls: list[bool] = []
    real = movement.move_options
    monkeypatch.setattr(movement, "move_options",
                        lambda s, mobile: calls.append(mobile) or real(s, mobile))
    state.forget_options()
    d = state.decision()
    assert d is not None and d.default is not None
    state.legal_actions()
    state.apply(d.default)
    assert calls == [False]


def test_s9_only_an_engineer_next_to_a_bridge_demolishes_it() -> None:
    state = at('turn = 2\nphasing = "us"\nphase = "movement"\nstep = "us:move"\n'
               + us_set_up('"1/33" = "1008"\n"Eng/CCB" = "0420"\n'))
    assert not any(a.startswith("demolish ") for a in texts(state))
    with pytest.raises(IllegalAction, match=r"S9"):
        state.apply("demolish 1/33 1008/1009")


def test_10_1_after_the_german_mobile_movement_the_us_player_turn_follows() -> None:
    state = at('turn = 2\nphasing = "german"\nphase = "mobile"\nstep = "mobile-move"\n'
               + us_set_up())
    state.apply("end movement")
    d = state.decision()
    assert d is not None and d.side == "us" and d.kind == "movement"
    assert state.pos.phasing == "us" and state.pos.turn == 2
