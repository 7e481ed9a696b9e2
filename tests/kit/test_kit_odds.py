"""Odds, differentials, column shifts and die-roll caps, with the rulebooks' examples."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.hexkit.odds import (
    differential_column,
    modified_roll,
    odds_column,
    parse_odds,
    shift_column,
    simple_odds,
)
from engines.hexkit.tables import (
    DifferentialCRT,
    OddsCRT,
    Table,
    parse_cost,
    parse_enter_leave,
    parse_roll_key,
)
from pbem.testing import fresh_run

FTM = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1+"]
WD = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]


def test_for_the_motherland_8_1_examples() -> None:
    # "Odds of 15 to 4 become 3:1 odds and odds of 11 to 12 become 1:2 odds"
    assert odds_column(15, 4, FTM).label == "3:1"
    assert odds_column(11, 12, FTM).label == "1:2"
    assert simple_odds(15, 4) == "3:1"
    assert simple_odds(11, 12) == "1:2"


def test_white_death_rule_9_example() -> None:
    # "29 conventional fire factors firing against ... a defense value of 10 ... 2:1"
    assert odds_column(29, 10, WD).label == "2:1"
    assert simple_odds(29, 10) == "2:1"
    # Rule 10: fractional antitank values are kept as fractions, not rounded
    assert odds_column(Fraction(7, 2), Fraction(7, 4), WD).label == "2:1"
    assert odds_column(Fraction(7, 2) - Fraction(1, 100), Fraction(7, 4), WD).label == "1:1"


def test_for_the_motherland_8_2_column_shifts_from_the_end_columns() -> None:
    # "if an odds ratio is calculated as 9:1, a column shift of 2 Left starts on the
    # 7:1+ column and shifts left to the 5:1 column"
    nine = odds_column(9, 1, FTM)
    assert nine.label == "7:1+" and nine.above
    assert shift_column(nine, -2, FTM).label == "5:1"
    # "Odds of 1:5 with a column shift of 2 Right starts on the 1:3 column and shifts up
    # to the 1:1 column"
    fifth = odds_column(1, 5, FTM)
    assert fifth.label == "1:3" and fifth.below
    assert shift_column(fifth, 2, FTM).label == "1:1"
    # "Otherwise, column shifts are made from the odds ratio calculated in Step 2"
    assert shift_column(odds_column(15, 4, FTM), -1, FTM).label == "2:1"
    # shifts never leave the table
    assert shift_column(odds_column(2, 1, FTM), 20, FTM).label == "7:1+"
    assert shift_column(odds_column(2, 1, FTM), -20, FTM).label == "1:3"


def test_for_the_motherland_8_2_1_roll_cap() -> None:
    # "Die roll modifiers are cumulative. If a modified die roll is greater than 9, it
    # is treated as 9."
    assert modified_roll(6, [2, 3], high=9) == 9
    assert modified_roll(4, [2, 3], high=9) == 9
    assert modified_roll(3, [2, 3], high=9) == 8
    assert modified_roll(1, [-2], low=1) == 1


@given(st.integers(1, 200), st.integers(1, 200))
def test_odds_round_in_the_defenders_favour(a: int, d: int) -> None:
    col = odds_column(a, d, FTM)
    ratio = Fraction(a, d)
    if not col.below:
        assert parse_odds(col.label) <= ratio
    if col.index + 1 < len(FTM):
        assert parse_odds(FTM[col.index + 1]) > ratio
    # one more defense point never raises the column
    assert odds_column(a, d + 1, FTM).index <= col.index
    assert odds_column(a + 1, d, FTM).index >= col.index


@given(st.integers(0, 200), st.integers(0, 200), st.sampled_from([FTM, WD]))
def test_whole_strengths_pick_the_exact_ratios_column(a: int, d: int,
                                                      labels: list[str]) -> None:
    """Whole strengths are compared as cross products, not as a Fraction (issue 35):
    the column, and whether the odds ran off either end, are the exact ratio's."""
    assert odds_column(a, d, labels) == odds_column(Fraction(a), Fraction(d), labels)


def test_whole_strengths_check_the_columns_and_strengths_as_ratios_do() -> None:
    for a, d in ((3, 1), (Fraction(3), Fraction(1))):
        with pytest.raises(ValueError, match="strictly increasing"):
            odds_column(a, d, ["1:1", "2:1", "4:2"])
        with pytest.raises(ValueError, match="negative strength"):
            odds_column(-a, d, FTM)
        with pytest.raises(ValueError, match="not an odds column"):
            odds_column(a, d, ["1:0", "2:1"])


def test_whole_numbers_never_import_fractions() -> None:
    """Importing fractions (it pulls decimal) was 9 M instructions of every command (issue
    35 item 3): the kit imports it only to make a fraction, so a game of whole numbers
    (For the Motherland!, Mortain) loads, picks odds and searches moves without it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = """
import sys
import engines.motherland.rules, engines.mortain.state
from kit.helpers import make_map
from engines.hexkit.movement import MoveClass, MoveCosts, reachable
from engines.hexkit.odds import odds_column
assert odds_column(7, 3, ["1:2", "1:1", "2:1", "3:1"]).label == "2:1"
costs = MoveCosts(make_map(4, 4), MoveClass("leg", enter={"clear": 1}))
assert reachable(costs, "0101", 2).cost["0103"] == 2
assert "fractions" not in sys.modules, "fractions imported"
"""
    tests = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [tests, *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]


def test_zero_defense_is_off_the_top() -> None:
    col = odds_column(3, 0, FTM)
    assert col.label == "7:1+" and col.above


def test_floats_refused() -> None:
    with pytest.raises(TypeError):
        odds_column(1.5, 1, FTM)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        parse_cost(1.5)


def test_differential() -> None:
    cols = ["-3", "-2", "-1", "0", "+1", "+2", "+3", "+4"]
    assert differential_column(7, 4, cols).label == "+3"
    assert differential_column(4, 7, cols).label == "-3"
    assert differential_column(2, 9, cols).below
    assert differential_column(20, 1, cols).label == "+4"
    # half a point short of +1 rounds down, for the defender
    assert differential_column(Fraction(9, 2), 4, cols).label == "0"
    table = Table("icrt", "differential", tuple(cols),
                  (("1-3", tuple("abcdefgh")), ("4-6", tuple("ABCDEFGH"))))
    crt = DifferentialCRT(table)
    assert crt.result(crt.column(7, 4), 2) == "g"
    assert crt.result(crt.column(7, 4, shift=-1), 5) == "F"


def test_crt_rows_and_lookup() -> None:
    assert parse_roll_key("4") == (4, 4)
    assert parse_roll_key("2-3") == (2, 3)
    assert parse_roll_key("10+") == (10, None)
    assert parse_roll_key("<=0") == (None, 0)
    with pytest.raises(ValueError):
        parse_roll_key("3-1")
    table = Table("crt", "odds", ("1:1", "2:1"),
                  (("<=1", ("x", "y")), ("2-5", ("a", "b")), ("6+", ("c", "d"))))
    crt = OddsCRT(table)
    assert crt.result(crt.column(3, 2), -3) == "x"
    assert crt.result(crt.column(5, 2), 4) == "b"
    assert crt.result("2:1", 9) == "d"
    gap = Table("crt", "odds", ("1:1",), (("1", ("a",)), ("3", ("b",))))
    with pytest.raises(KeyError, match="roll of 2"):
        OddsCRT(gap).row_for(2)
    with pytest.raises(ValueError, match="increase"):
        OddsCRT(Table("crt", "odds", ("2:1", "1:1"), ()))


def test_cost_cells() -> None:
    assert parse_cost(2) == 2
    assert parse_cost("1/2") == Fraction(1, 2)
    assert parse_cost("4/2") == 2 and isinstance(parse_cost("4/2"), int)
    assert parse_cost("P") is None
    assert parse_enter_leave("1-2") == (1, 2)
    assert parse_enter_leave(3) == (3, 0)
    assert parse_enter_leave("P-2") == (None, 2)
    with pytest.raises(ValueError):
        parse_cost("lots")


def test_threshold_columns_for_totals() -> None:
    from engines.hexkit.odds import threshold_column

    bounds = [1, 3, 6, 10, 20, 30]
    labels = ["1-2", "3-5", "6-9", "10-19", "20-29", "30+"]
    assert threshold_column(25, bounds, labels).label == "20-29"
    assert threshold_column(Fraction(59, 2), bounds, labels).label == "20-29"
    assert threshold_column(0, bounds, labels).below
    assert threshold_column(80, bounds, labels).label == "30+"
    assert threshold_column(10, bounds).label == "10"


#: characters near the odds label's pattern: ASCII and Unicode decimal digits (Arabic-Indic,
#: fullwidth), a digit that is no decimal (superscript two), the signs and bounds, and
#: Unicode spaces and line ends
_NEAR = "0123456789:+-<=>≤≥ \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000\u0663\uff11\u00b2x"


@settings(max_examples=3000)
@given(st.one_of(st.text(alphabet=_NEAR, max_size=10), st.text(max_size=6),
                 st.sampled_from(FTM + WD + ["<=1:3", ">= 7:1+", "≤ 1:4", "3:1\n",
                                             "3 : 1 +", "3:1++", "1:0", ":1", "3:",
                                             "\u0663:\uff11", "1\u00b2:1", "<=≥3:1"])))
def test_an_odds_label_reads_as_its_pattern(label: str) -> None:
    """The kit reads a column label by hand: what re's match of the pattern gives, on
    hostile and near-miss text too (issue 35: compiling it was 0.96 M instructions of a
    command that resolves a combat)."""
    from engines.hexkit.odds import _ODDS, _odds_read

    m = re.match(_ODDS, label)
    assert _odds_read(label) == (None if m is None else (int(m.group(1)), int(m.group(2))))


_RESOLVED = """
import json, re
real, seen = re._compile, []
def compiling(pattern, flags):
    seen.append(pattern if isinstance(pattern, str) else repr(pattern))
    return real(pattern, flags)
re._compile = compiling
from engines.hexkit.odds import _ODDS, odds_column
assert odds_column(5, 28, {labels!r}).label == "1:3"
print(json.dumps([_ODDS in seen]))
"""


def test_an_odds_column_compiles_no_pattern() -> None:
    assert fresh_run(_RESOLVED.format(labels=FTM))[-1] == "[false]"
