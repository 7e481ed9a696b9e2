"""A table's die-roll row keys: the plain keys every shipped table uses ("4", "1-2",
"8+") are read without the pattern (issue 35), and every key reads as the pattern reads
it, refused with the same words."""

from __future__ import annotations

import itertools
import re

import pytest

from engines.backhand import ENGINE
from engines.backhand.data import roll_lookup
from engines.hexkit import tables
from engines.hexkit.tables import parse_roll_key


def by_pattern(key: str) -> tuple[int | None, int | None]:
    """The reading of a row key by ``_ROLL_KEY`` alone (the kit's before issue 35)."""
    m = re.match(tables._ROLL_KEY, key)
    if not m:
        raise ValueError(f"row {key!r} is not a die roll like '4', '2-3', '10+' or '<=0'")
    lo, hi, plus, le, one = m.groups()
    if lo is not None and hi is not None:
        a, b = int(lo), int(hi)
        if a > b:
            raise ValueError(f"row {key!r} runs backward")
        return a, b
    if plus is not None:
        return int(plus), None
    if le is not None:
        return None, int(le)
    return int(one), int(one)


def reading(parse: object, key: str) -> object:
    assert callable(parse)
    try:
        return parse(key)
    except ValueError as e:
        return ("refused", str(e))


#: digits of several scripts (``\d`` and ``str.isdecimal`` take Unicode Nd), a
#: superscript and a fraction (digits to ``str.isdigit``/``isnumeric``, not decimals),
#: signs, spaces and the pattern's other marks
PIECES = ("1", "6", "12", "07", "٣", "५", "²", "½", "-", "+", " ", "<=", "≤", "x", "")


def test_every_key_of_up_to_three_pieces_reads_as_the_pattern_reads_it() -> None:
    keys = {"".join(p) for n in (1, 2, 3) for p in itertools.product(PIECES, repeat=n)}
    for key in sorted(keys):
        assert reading(parse_roll_key, key) == reading(by_pattern, key), key


def test_the_plain_keys_are_read_without_compiling_the_pattern(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class NoPattern:
        def match(self, pattern: str, text: str) -> None:
            raise AssertionError(f"the pattern was asked of {text!r}")

    # Backhand Blow's Soviet Replacement Table (12.0), looked up after a reinforcement
    # act, and its Weather (5.1) and Attrition Tables (4.2 I.D), looked up at every
    # turn's end: no row key of them needs the pattern (the game's load comes first)
    data = ENGINE.new_state("high-water-mark").data  # type: ignore[attr-defined]
    monkeypatch.setattr(tables, "re", NoPattern())
    assert parse_roll_key("4") == (4, 4)
    assert parse_roll_key("1-2") == (1, 2)
    assert parse_roll_key("8+") == (8, None)
    assert parse_roll_key("<=7") == (None, 7)
    assert parse_roll_key("≤0") == (None, 0)
    with pytest.raises(ValueError, match="runs backward"):
        parse_roll_key("3-1")
    assert [roll_lookup(data.replacements, roll) for roll in range(1, 7)] == [
        (0, 1), (0, 1), (1, 1), (1, 1), (1, 2), (2, 2)]
    assert [roll_lookup(data.weather, roll) for roll in (2, 7, 8, 12)] == [
        ("frozen",), ("frozen",), ("mud",), ("mud",)]
    assert [roll_lookup(data.attrition, roll) for roll in (1, 4, 5, 6, 7, 9)] == [
        (0,), (0,), (1,), (1,), (2,), (2,)]
