"""Numbering.format reads a hex id's digits off tables kept per numbering (issue 35: an
f-string with a nested format spec a call was a third of building White Death's map),
with the ids and the refusals of the format spec."""

from __future__ import annotations

import pytest

from engines.hexkit.hexid import FOUR_DIGIT, Numbering


def _reference(n: Numbering, col: int, row: int) -> str | None:
    if col < 0 or row < 0 or col >= 10**n.col_digits or row >= 10**n.row_digits:
        return None
    return f"{col:0{n.col_digits}d}{row:0{n.row_digits}d}"


@pytest.mark.parametrize("digits", [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2), (2, 5)])
def test_every_id_and_refusal_is_the_format_specs(digits: tuple[int, int]) -> None:
    n = Numbering(*digits)
    cols = [*range(-2, min(10**n.col_digits, 1_000) + 2), 10**n.col_digits - 1,
            10**n.col_digits, 10**n.col_digits + 1]
    rows = [-1, 0, 1, 7, 10, 99, 100, 999, 1_000, 10**n.row_digits - 1, 10**n.row_digits]
    for col in cols:
        for row in rows:
            want = _reference(n, col, row)
            if want is None:
                with pytest.raises(ValueError, match="does not fit"):
                    n.format(col, row)
            else:
                assert n.format(col, row) == want


def test_the_digits_are_made_once_a_numbering() -> None:
    n = Numbering(2, 2)
    assert n.format(3, 41) == "0341"
    kept = n.__dict__["_texts"]
    assert n.format(12, 7) == "1207" and n.__dict__["_texts"] is kept
    assert kept is not None and len(kept[0]) == 100
    assert Numbering(4, 2).format(1234, 5) == "123405"  # wider: no table of 10,000
    assert n == FOUR_DIGIT and hash(n) == hash(FOUR_DIGIT)  # the tables are no part of it


def _reference_range(n: Numbering, a: str, b: str) -> list[str]:
    (c1, r1), (c2, r2) = n.parse(a), n.parse(b)
    if c1 == c2:
        step = 1 if r2 >= r1 else -1
        return [_reference(n, c1, r) or "" for r in range(r1, r2 + step, step)]
    step = 1 if c2 >= c1 else -1
    return [_reference(n, c, r1) or "" for c in range(c1, c2 + step, step)]


@pytest.mark.parametrize("digits", [(1, 1), (2, 2), (2, 3), (3, 2), (4, 2)])
def test_a_range_reads_its_ids_off_the_tables_as_formatted(digits: tuple[int, int]) -> None:
    """Up, down, to row or column 0, from the numbering's last, one hex long."""
    n = Numbering(*digits)
    cols = [0, 1, 2, 5, 10**n.col_digits - 1]
    rows = [0, 1, 3, 10**n.row_digits - 1]
    for fixed, ends, along_rows in ((cols, rows, True), (rows, cols, False)):
        for k in fixed:
            for x in ends:
                for y in ends:
                    a, b = ((n.format(k, x), n.format(k, y)) if along_rows
                            else (n.format(x, k), n.format(y, k)))
                    assert n.parse_range(f" {a} - {b} ") == _reference_range(n, a, b)
