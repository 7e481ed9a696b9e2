"""The kit's combat results tables: odds CRTs and differential CRTs, the typed views of a
scenario's ``odds`` and ``differential`` tables (:func:`engines.hexkit.tables.typed`).

Their own module, loaded with the first CRT made: :mod:`engines.hexkit.tables`, which
every command of every engine loads, made their classes at every start, and
:mod:`engines.hexkit.odds`, whose arithmetic a CRT reads, is loaded by games that keep
their own combat tables (issue 35).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from engines.hexkit.shared import Shared
from engines.hexkit.tables import parse_roll_key

if TYPE_CHECKING:
    from engines.hexkit.odds import Column, Number
    from engines.hexkit.tables import Table


class _RollTable(Shared):
    """Shared die-roll row lookup of the CRT kinds."""

    table: Table
    _bounds: tuple[tuple[int | None, int | None], ...]

    def _init_rows(self) -> None:
        self._bounds = tuple(parse_roll_key(k) for k, _ in self.table.rows)
        seen: list[tuple[int | None, int | None]] = []
        for b in self._bounds:
            for o in seen:
                if _overlap(b, o):
                    raise ValueError(f"{self.table.where}: die-roll rows {b} and {o} overlap")
            seen.append(b)

    def row_for(self, roll: int) -> tuple[Any, ...]:
        for (lo, hi), (_, values) in zip(self._bounds, self.table.rows, strict=True):
            if (lo is None or roll >= lo) and (hi is None or roll <= hi):
                return values
        raise KeyError(f"{self.table.where or self.table.name}: no row for a roll of {roll}")

    @property
    def lowest_roll(self) -> int | None:
        los = [lo for lo, _ in self._bounds]
        return None if None in los else min(lo for lo in los if lo is not None)

    @property
    def highest_roll(self) -> int | None:
        his = [hi for _, hi in self._bounds]
        return None if None in his else max(hi for hi in his if hi is not None)


def _overlap(a: tuple[int | None, int | None], b: tuple[int | None, int | None]) -> bool:
    lo = max(x for x in (a[0], b[0], -(10**9)) if x is not None)
    hi = min(x for x in (a[1], b[1], 10**9) if x is not None)
    return lo <= hi


class OddsCRT(_RollTable):
    """An odds combat results table (columns ``"1:3" ... "7:1+"``, rows by die roll)."""

    def __init__(self, table: Table) -> None:
        from engines.hexkit.odds import _odds_terms

        self.table = table
        self.labels = table.columns
        # a:b < c:d as a*d < c*b: checking the order makes no Fraction, so a command that
        # loads a scenario and works out no odds never imports fractions and decimal
        # (9 M instructions, issue 35)
        terms = [_odds_terms(c) for c in table.columns]
        if any(a * d >= c * b for (a, b), (c, d) in pairwise(terms)):
            raise ValueError(f"{table.where}: odds columns must increase left to right")
        self._init_rows()

    def column(self, attack: Number, defense: Number, shift: int = 0) -> Column:
        """The column after rounding for the defender and then shifting (8.2)."""
        from engines.hexkit.odds import odds_column, shift_column

        return shift_column(odds_column(attack, defense, self.labels), shift, self.labels)

    def result(self, column: Column | str, roll: int) -> Any:
        from engines.hexkit.odds import Column

        j = column.index if isinstance(column, Column) else self.labels.index(column)
        return self.row_for(roll)[j]


class DifferentialCRT(_RollTable):
    """A differential CRT (columns ``"-3" ... "+6"``: attack minus defense)."""

    def __init__(self, table: Table) -> None:
        from engines.hexkit.odds import parse_differential

        self.table = table
        self.labels = table.columns
        self.values: tuple[int, ...] = tuple(parse_differential(c) for c in table.columns)
        if list(self.values) != sorted(set(self.values)):
            raise ValueError(f"{table.where}: differential columns must increase")
        self._init_rows()

    def column(self, attack: Number, defense: Number, shift: int = 0) -> Column:
        from engines.hexkit.odds import differential_column, shift_column

        return shift_column(differential_column(attack, defense, self.labels), shift,
                            self.labels)

    def result(self, column: Column | str, roll: int) -> Any:
        from engines.hexkit.odds import Column

        j = column.index if isinstance(column, Column) else self.labels.index(column)
        return self.row_for(roll)[j]
