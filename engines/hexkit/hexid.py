"""Hex numbers as the rulebooks print them: column digits then row digits (``2510``).

A hex id is kept as the printed string everywhere (state, actions, views, TOML) so
that what a player reads on the map is what the program stores.  The width of each
part is a property of the map (a 60-column map needs three column digits on some
published games), so parsing and formatting go through a :class:`Numbering`.
"""

from __future__ import annotations

import functools
import re
from typing import ClassVar

from engines.hexkit.shared import Shared
from pbem.history import Frozen

#: a hex id string, e.g. ``"2510"``
HexId = str

# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_RANGE = r"^\s*(\d+)\s*-\s*(\d+)\s*$"


class FrozenRecord(Shared, Frozen):
    """pbem's :class:`~pbem.history.Frozen` for the kit's records that were frozen
    dataclasses (:class:`Numbering`, :class:`~engines.hexkit.geometry.HexGrid`,
    :class:`~engines.hexkit.hexmap.HexMap` and its legend's and boxes' records,
    :class:`~engines.hexkit.moveclass.MoveClass`, :class:`~engines.hexkit.facts.ZocRule`,
    the floods, and the scenario data's :class:`~engines.hexkit.scenario.Doc`,
    :class:`~engines.hexkit.scenario.StandIn`, :class:`~engines.hexkit.scenario.ScenarioSet`
    and :class:`~engines.hexkit.tables.Table`): a field assigned or deleted raises
    :class:`dataclasses.FrozenInstanceError`, the repr names every field of
    ``__match_args__`` (which ``_fields`` names too); each record's ``__init__`` is written
    in its source.  dataclasses made those methods at every import, 0.35 M instructions
    a class of every command that loads a game (issue 35).  What they keep of their
    dataclasses that Frozen's records do not: :class:`Shared`'s copying (the record
    itself: a map is copied with every position that holds it) and an object's own
    pickling (the fields' dict, whatever the record's ``__init__`` takes).  Equal and hashed by
    the fields as Frozen's are, but for the floods, whose dataclasses had ``eq=False``
    (told apart by identity: some hold tables that cannot be hashed), and
    :class:`~engines.hexkit.scenario.Doc`, whose kept bytes are not compared."""

    _fields: ClassVar[tuple[str, ...]] = ()
    # object's own (not an override of it: pickle then takes its default path), which
    # mypy reads as a narrower return than Frozen's
    __reduce__ = object.__reduce__  # type: ignore[assignment]


class Numbering(FrozenRecord):
    """How many digits the column and the row take in a hex id."""

    col_digits: int
    row_digits: int
    _fields = __match_args__ = ("col_digits", "row_digits")

    def __init__(self, col_digits: int = 2, row_digits: int = 2) -> None:
        d = self.__dict__
        d["col_digits"], d["row_digits"] = col_digits, row_digits
        if col_digits < 1 or row_digits < 1:
            raise ValueError(f"digit widths must be positive, got {self!r}")

    @property
    def width(self) -> int:
        return self.col_digits + self.row_digits

    @functools.cached_property
    def _texts(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """Every column's and every row's digits, by number, for widths of three digits
        or fewer (``None`` for wider: the tables would outgrow what they save)."""
        if self.col_digits > 3 or self.row_digits > 3:
            return None
        return (tuple(str(n).zfill(self.col_digits) for n in range(10**self.col_digits)),
                tuple(str(n).zfill(self.row_digits) for n in range(10**self.row_digits)))

    def format(self, col: int, row: int) -> HexId:
        """The printed id of column ``col``, row ``row``; refuses what does not fit."""
        # read off the digits' tables: an f-string with a nested format spec was 9,600
        # instructions a call, and a map's hex lists format thousands (White Death's
        # 2,660: 25 M of the 74 M of building its map, issue 35)
        texts = self._texts
        if texts is not None:
            cols, rows = texts
            if 0 <= col < len(cols) and 0 <= row < len(rows):
                return cols[col] + rows[row]
        elif 0 <= col < 10**self.col_digits and 0 <= row < 10**self.row_digits:
            return str(col).zfill(self.col_digits) + str(row).zfill(self.row_digits)
        raise ValueError(
            f"column {col}, row {row} does not fit {self.col_digits}+{self.row_digits} digits")

    def parse(self, text: str) -> tuple[int, int]:
        """``(column, row)`` of a printed id; the id must have exactly the map's width."""
        if len(text) != self.width or not text.isascii() or not text.isdigit():
            raise ValueError(f"{text!r} is not a {self.width}-digit hex number")
        return int(text[: self.col_digits]), int(text[self.col_digits :])

    def is_id(self, text: str) -> bool:
        return len(text) == self.width and text.isascii() and text.isdigit()

    def parse_range(self, text: str) -> list[HexId]:
        """Expand ``"3201-3221"`` (column 32, rows 1..21) or ``"0105-3205"`` (row 5).

        A single id expands to itself.  Both ends must share the column or the row, as
        rulebooks print map edges and entry areas ("hexes 3201-3221").  The result is in
        order from the first end to the second, inclusive, whichever way it runs.
        """
        text = text.strip()
        if self.is_id(text):
            return [text]
        m = re.match(_RANGE, text)
        if not m:
            raise ValueError(f"{text!r} is neither a hex number nor a range like 3201-3221")
        (c1, r1), (c2, r2) = self.parse(m.group(1)), self.parse(m.group(2))
        # both ends were parsed from ids of the numbering's widths, so every id between
        # them fits it: read off the digits' tables without a call an id (a map's ranges
        # are most of its 2,660 hex ids, issue 35)
        texts = self._texts
        if c1 == c2:
            step = 1 if r2 >= r1 else -1
            if texts is not None:
                col = texts[0][c1]
                return [col + row for row in texts[1][r1:r2 + step if r2 + step >= 0
                                                       else None:step]]
            return [self.format(c1, r) for r in range(r1, r2 + step, step)]
        if r1 == r2:
            step = 1 if c2 >= c1 else -1
            if texts is not None:
                row = texts[1][r1]
                return [col + row for col in texts[0][c1:c2 + step if c2 + step >= 0
                                                      else None:step]]
            return [self.format(c, r1) for c in range(c1, c2 + step, step)]
        raise ValueError(f"range {text!r} must keep either the column or the row fixed")


#: the four-digit numbering every rulebook in this project uses
FOUR_DIGIT = Numbering(2, 2)
