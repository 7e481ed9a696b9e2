"""Mortain Counterattack: the Integrated Combat Results Table (reconstructed) and every
result code, with the 7.8 retreat-or-deplete choice of its owner."""

from __future__ import annotations

import pytest

from engines.mortain.data import RESULTS, rules
from engines.mortain.position import Status
from pbem.engine import Decision
from pbem.errors import IllegalAction
from tests.mortain.test_rules import combat_at, texts

# every cell that survived the extraction, row by row in its printed order
SURVIVING = {
    1: (["(A)", "A3", "A2"], ["Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"]),
    2: (["(A)", "(A)", "A3", "A2"], ["Ex", "Ex", "Ex", "D2", "D2", "D3", "De"]),
    3: (["(A)", "(A)", "(A)", "A3"], ["Ex", "Ex", "Ex", "D2", "D2", "D3"]),
    4: (["(A)", "(A)", "(A)", "(A)", "A3", "A2"], ["Ex", "Ex", "Ex", "D2", "D2"]),
    5: (["Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2"], ["Ex", "Ex", "Ex", "D2"]),
    6: (["Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)"], ["Ex", "Ex", "Ex"]),
}


def test_icrt_reconstruction_keeps_every_surviving_cell_in_order() -> None:
    """Each die row starts with its surviving attacker cells and ends with its surviving
    defender cells; the strays (A2, A1) and one no-effect cell a row fill the middle."""
    table = rules().icrt.results
    assert len(table) == 6 and all(len(row) == 12 for row in table)
    strays = []
    for roll, (left, right) in SURVIVING.items():
        row = list(table[roll - 1])
        assert row[:len(left)] == left and row[12 - len(right):] == right
        middle = row[len(left):12 - len(right)]
        assert middle.count("-") == 1
        strays += [c for c in middle if c != "-"]
    assert sorted(strays) == ["A1", "A2"]
    assert {c for row in table for c in row} == set(RESULTS)


def test_icrt_each_row_is_one_column_worse_than_the_row_above() -> None:
    table = rules().icrt.results
    assert [row.index("-") for row in table] == [3, 4, 5, 6, 7, 8]


def test_icrt_terrain_rows_shift_the_differentials() -> None:
    icrt = rules().icrt
    # +10 or more is the last column of each printed row: column 8 on the Peak row
    assert icrt.column("peak", 10) == 7 and icrt.column("road", 10) == 11
    assert icrt.column("peak", 25) == 7
    # -1 or less is the Peak row's first column; -5 or less the Road row's
    assert icrt.column("peak", -1) == 0 and icrt.column("peak", -7) == 0
    assert icrt.column("road", -5) == 0 and icrt.column("road", -4) == 1
    # ranges: +2,+3 share a column
    assert icrt.column("town", 2) == icrt.column("town", 3) == 5
    # the same +1 attack is two columns better on the road than on a hill
    assert icrt.column("road", 1) - icrt.column("hill", 1) == 3
    assert icrt.result("peak", 10, 1) == "D2" and icrt.result("road", 10, 1) == "De"


def test_icrt_de_needs_plus_10_on_the_hedgerow_row_and_plus_8_on_the_road_row() -> None:
    """The engine page's notes: De lies in columns 11 and 12 only, the Hedgerow row's +10
    and the Road row's +8/+9 and +10; the Peak row (Hill 317) reaches column 8 at most,
    where die 1 gives D2: never D3 nor De there."""
    icrt = rules().icrt
    de = {(row, col) for row, cells in enumerate(icrt.results, 1)
          for col, c in enumerate(cells, 1) if c == "De"}
    assert {col for _, col in de} == {11, 12}

    def best(row: str) -> int:
        """The least differential that gives De on any die."""
        return min(d for d in range(-6, 14) if any(icrt.result(row, d, n) == "De"
                                                     for n in range(1, 7)))
    assert best("hedgerow") == 10 and best("road") == 8
    assert all(icrt.result(r, d, n) != "De" for r in ("peak", "hill", "town")
               for d in range(-6, 14) for n in range(1, 7))
    peak = {icrt.result("peak", d, n) for d in range(-6, 14) for n in range(1, 7)}
    assert "D2" in peak and "D3" not in peak


def fight(extra: str, target: str, attackers: list[str], roll: int,
          chits: str = "chits = { german = [], us = [] }"):
    state = combat_at(extra, chits=chits)
    state.apply(f"attack {target}")
    for u in attackers:
        state.apply(f"with {u}")
    state.apply("resolve")
    state.apply("no support")   # the attacker's
    state.apply("no support")   # the defender's
    req = state.chance_request()
    assert req.dice == (6,) and req.rule == "ICRT"
    state.apply_outcome((roll,))
    return state


# G07 4-4-10 attacks US 2/119 (2-3-5) in 2010, a hedgerow hex: 4 - 3 = +1, Hedgerow row
# column 6 (index 5): die 1 Ex, 2 Ex, 3 -, 4 A2, 5 A3, 6 (A)
HEDGE = 'G07 = "2110"\n"2/119" = "2010"\n'


def test_icrt_ex_depletes_one_attacker_and_the_defender() -> None:
    state = fight(HEDGE, "2010", ["G07"], 1)
    assert state.pos.units["2/119"].depleted and state.pos.units["G07"].depleted
    assert state.pos.combat is None


def test_icrt_no_effect() -> None:
    state = fight(HEDGE, "2010", ["G07"], 3)
    assert not state.pos.units["2/119"].depleted and not state.pos.units["G07"].depleted


def test_icrt_a2_retreat_or_deplete_is_the_attackers_choice() -> None:
    state = fight(HEDGE, "2010", ["G07"], 4)
    d = state.decision()
    assert d is not None and d.side == "german" and d.rule == "7.8"
    assert "retreat" in texts(state) and "deplete G07" in texts(state)
    state.apply("retreat")
    ends = [a for a in texts(state) if a.startswith("retreat G07 ")]
    assert ends
    for a in ends:
        h = a.split()[2]
        assert rules().map.distance(h, "2110") == 2
    state.apply(ends[0])
    assert state.pos.units["G07"].hex == ends[0].split()[2]


def test_icrt_a3_deplete_instead() -> None:
    state = fight(HEDGE, "2010", ["G07"], 5)
    state.apply("deplete G07")
    assert state.pos.units["G07"].depleted and state.pos.units["G07"].hex == "2110"


def test_icrt_a_with_two_attackers_asks_which() -> None:
    # 4 - 3 = +1, die 6: (A); two attackers only if both attack: G20 adds 1 -> +2: die 6
    # on the Hedgerow row column 7 is still (A)
    state = fight(HEDGE + 'G20 = "2009"\n', "2010", ["G07", "G20"], 6)
    d = state.decision()
    assert d is not None and d.kind == "attacker-loss"
    assert texts(state) == ["deplete G07", "deplete G20"]
    state.apply("deplete G20")
    assert state.pos.units["G20"].depleted and not state.pos.units["G07"].depleted


def test_icrt_ae_eliminates_every_attacker() -> None:
    # G20 (1-2-5) alone against 2/119 on Hill 317 (peak): 1 - 3 = -2, column 1: die 5 Ae
    state = fight('G20 = "2816"\n"2/119" = "2815"\n', "2815", ["G20"], 5)
    assert state.pos.units["G20"].status is Status.ELIMINATED


def test_icrt_d2_the_defender_chooses_and_depleting_holds_the_hex() -> None:
    # three attackers, 4 + 3 + 3 = 10 against 3 in a hedgerow hex: +7 on the Hedgerow row
    # is column 9 (index 8): die 1 is D2
    extra = 'G07 = "2110"\nG01 = "2011"\nG02 = "1910"\n"2/119" = "2010"\n'
    state = fight(extra, "2010", ["G07", "G01", "G02"], 1)
    assert rules().icrt.result("hedgerow", 7, 1) == "D2"
    d = state.decision()
    assert d is not None and d.side == "us" and d.kind == "retreat-or-deplete"
    assert d.rule == "7.8"
    opts = texts(state)
    assert opts[-1] == "deplete 2/119"
    state.apply("deplete 2/119")
    assert state.pos.units["2/119"].depleted
    # the hex is still held: no advance is offered, the combat ends
    assert state.pos.combat is None


def test_icrt_d3_cells() -> None:
    assert rules().icrt.result("town", 10, 1) == "D3"
    assert rules().icrt.result("hill", 10, 1) == "D2"  # the hill caps the attack lower
    assert rules().icrt.result("road", 8, 2) == "D3"


def test_icrt_de_then_advance_after_combat() -> None:
    # 4 + 3 + 3 and a support marker of 1 = 11 against a depleted 1-2 (defense 1) in a
    # hedgerow hex: +10 on the Hedgerow row, die 1: De
    extra = 'G07 = "2110"\nG01 = "2011"\nG02 = "1910"\n"105" = "2010 depleted"\n'
    state = combat_at(extra, chits="chits = { german = [1], us = [] }")
    state.apply("attack 2010")
    for u in ("G07", "G01", "G02"):
        state.apply(f"with {u}")
    state.apply("resolve")
    state.apply("support 1")
    state.apply("no support")
    state.apply("no support")
    assert "11 - 1 = +10" in state.chance_request().purpose
    state.apply_outcome((1,))
    assert rules().icrt.result("hedgerow", 10, 1) == "De"
    assert state.pos.units["105"].status is Status.ELIMINATED
    d = state.decision()
    assert d is not None and d.kind == "advance" and d.rule == "S7.9"
    assert texts(state) == ["advance G07", "advance G01", "advance G02", "no advance"]
    state.apply("advance G01")
    assert state.pos.units["G01"].hex == "2010" and state.pos.combat is None


def test_7_8_defender_retreat_goes_its_whole_length_away() -> None:
    extra = 'G07 = "2110"\nG01 = "2011"\nG02 = "1910"\n"2/119" = "2010"\n'
    state = fight(extra, "2010", ["G07", "G01", "G02"], 1)
    retreats = [a for a in texts(state) if a.startswith("retreat ")]
    assert retreats
    for a in retreats:
        assert rules().map.distance(a.split()[2], "2010") == 2
    with pytest.raises(IllegalAction, match=r"S7\.7"):
        state.apply("retreat 2/119 2009")


def test_7_8_standing_order_deplete_answers_for_the_defender() -> None:
    extra = 'G07 = "2110"\nG01 = "2011"\nG02 = "1910"\n"2/119" = "2010"\n'
    state = fight(extra, "2010", ["G07", "G01", "G02"], 1)
    d = state.decision()
    assert isinstance(d, Decision)
    assert state.order_answer(d, "deplete").notation() == "deplete 2/119"
    assert state.order_answer(d, "default") == d.default


def test_s8_support_fire_adds_to_attack_and_defense() -> None:
    state = combat_at(HEDGE, chits="chits = { german = [1, 3], us = [2] }")
    state.apply("attack 2010")
    state.apply("with G07")
    state.apply("resolve")
    state.apply("support 3")
    state.apply("no support")
    d = state.decision()
    assert d is not None and d.side == "us" and d.kind == "defensive-support"
    assert state.order_answer(d, "strongest").notation() == "support 2"
    state.apply("support 2")
    state.apply("no support")
    req = state.chance_request()
    assert "7 - 5 = +2" in req.purpose and "hedgerow" in req.purpose
    assert state.pos.chits == {"german": [1], "us": []}


def test_s8_3_bombardment_needs_a_marker_and_ignores_attacker_results() -> None:
    state = combat_at('G01 = "0205"\n"1/33" = "0206"\n',
                      chits="chits = { german = [1], us = [] }")
    state.apply("bombard 0206")
    assert texts(state) == ["support 1"]
    state.apply("support 1")
    state.apply("no support")
    state.apply("no support")
    state.apply_outcome((6,))  # 1 - 3 = -2 on the Hedgerow row... any attacker result
    assert state.pos.combat is None and state.pos.units["G01"].status is Status.MAP


def test_s7_1_each_hex_attacked_once_each_unit_attacks_once() -> None:
    state = fight(HEDGE, "2010", ["G07"], 3)
    with pytest.raises(IllegalAction, match=r"S7\.1"):
        state.apply("attack 2010")
