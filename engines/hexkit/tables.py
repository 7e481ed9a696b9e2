"""Rule tables read from scenario data: odds CRTs, differential CRTs, terrain charts.

Tables are data, never code, because several rulebooks ship without their charts: the
project fills the gap with a stand-in (marked ``stand_in = "why"``) that a player who
owns the printed game replaces by editing TOML.  A :class:`Table` is the table as
written (columns, rows keyed by die roll or terrain name); the typed views
(:class:`TerrainChart`, and the CRTs :class:`~engines.hexkit.crt.OddsCRT` and
:class:`~engines.hexkit.crt.DifferentialCRT`, in their own module) add the lookups.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

from engines.hexkit.hexid import FrozenRecord
from engines.hexkit.shared import Shared

# Fraction is imported where a value is made: importing fractions pulls decimal and costs a
# command 9 M instructions, and most commands of most games make no fraction (issue 35).
# The odds arithmetic loads with the first CRT made or consulted: a game's data file
# declares its tables, which every command loads, and most commands resolve no combat
# (issue 35: 2.1 M instructions a command)
if TYPE_CHECKING:
    from fractions import Fraction

    from engines.hexkit.crt import DifferentialCRT, OddsCRT

#: table kinds the loader knows how to check
KINDS = ("odds", "differential", "chart", "lookup")

# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_ROLL_KEY = r"^\s*(?:(-?\d+)\s*-\s*(-?\d+)|(-?\d+)\s*\+|(?:<=|≤)\s*(-?\d+)|(-?\d+))\s*$"


def parse_roll_key(key: str) -> tuple[int | None, int | None]:
    """Inclusive roll bounds of a row key: ``"4"``, ``"2-3"``, ``"10+"``, ``"<=0"``."""
    # the keys the shipped tables use, read without the pattern: compiling it is about
    # 1.5 M instructions, most of a command that looks up one die roll (issue 35).
    # ``str.isdecimal`` is exactly the pattern's ``\d`` (Unicode Nd), so these return what
    # the pattern returns; every other key (signs, spaces) goes to the pattern
    if key.isdecimal():
        return int(key), int(key)
    lo_text, dash, hi_text = key.partition("-")
    if dash and lo_text.isdecimal() and hi_text.isdecimal():
        a, b = int(lo_text), int(hi_text)
        if a > b:
            raise ValueError(f"row {key!r} runs backward")
        return a, b
    if key[-1:] == "+" and key[:-1].isdecimal():
        return int(key[:-1]), None
    # Backhand Blow's Weather and Attrition Tables (5.1, 4.2 I.D) open with "<=7", "<=4":
    # read by the pattern, every turn's end compiled it (issue 35)
    bound = key[2:] if key[:2] == "<=" else key[1:] if key[:1] == "≤" else ""
    if bound.isdecimal():
        return None, int(bound)
    m = re.match(_ROLL_KEY, key)
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


class Table(FrozenRecord):
    """A table as the data file gives it.  ``where`` names the file and key for messages."""

    name: str
    kind: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Any, ...]], ...]
    stand_in: str | None
    where: str
    #: keys of the TOML table other than kind/columns/rows/stand_in (notes, die size...)
    extra: Mapping[str, Any]
    _fields = __match_args__ = ("name", "kind", "columns", "rows", "stand_in", "where", "extra")

    def __init__(self, name: str, kind: str, columns: tuple[str, ...],
                 rows: tuple[tuple[str, tuple[Any, ...]], ...], stand_in: str | None = None,
                 where: str = "", extra: Mapping[str, Any] | None = None) -> None:
        self.__dict__.update(
            name=name, kind=kind, columns=columns, rows=rows, stand_in=stand_in, where=where,
            extra=MappingProxyType({}) if extra is None else extra)

    def row(self, key: str) -> tuple[Any, ...]:
        for k, values in self.rows:
            if k == key:
                return values
        raise KeyError(f"{self.where or self.name}: no row {key!r}")

    def cell(self, row: str, column: str) -> Any:
        try:
            j = self.columns.index(column)
        except ValueError:
            raise KeyError(f"{self.where or self.name}: no column {column!r}") from None
        return self.row(row)[j]


Cost: TypeAlias = "int | Fraction"
# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_FRACTION = r"^\s*(\d+)\s*/\s*(\d+)\s*$"


def parse_cost(value: Any) -> Cost | None:
    """A chart cell as a cost: ``2`` -> 2, ``"1/2"`` -> Fraction(1, 2), ``"P"`` -> None.

    ``None`` means prohibited (the charts print P).  Floats are refused: a chart that
    says 1.5 must be written ``"3/2"`` so no float can reach game state.
    """
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a cost")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.upper() == "P":
            return None
        if text.lstrip("-").isdigit():
            return int(text)
        m = re.match(_FRACTION, text)
        if m and int(m.group(2)) != 0:
            from engines.hexkit.odds import fraction_type

            f = fraction_type()(int(m.group(1)), int(m.group(2)))
            return f.numerator if f.denominator == 1 else f
    raise ValueError(f"{value!r} is not a cost (write 2, \"1/2\" or \"P\")")


def parse_enter_leave(value: Any) -> tuple[Cost | None, Cost]:
    """White Death Rule 7's ``"1-2"`` cells: cost to enter, then cost to leave the type."""
    if isinstance(value, str) and "-" in value.strip().lstrip("-"):
        enter, leave = value.split("-", 1)
        lv = parse_cost(leave)
        if lv is None:
            raise ValueError(f"{value!r}: a leaving cost cannot be prohibited")
        return parse_cost(enter), lv
    return parse_cost(value), 0


class TerrainChart(Shared):
    """A terrain effects chart: rows are terrain (or hexside) names, columns are effects.

    ``chart.cost("forest", "leg")`` reads a movement cost; ``chart.value`` reads any
    other cell as written (defense values, column shifts, die-roll modifiers).
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self._rows = {k: v for k, v in table.rows}
        if len(self._rows) != len(table.rows):
            raise ValueError(f"{table.where}: a terrain row appears twice")

    @property
    def terrains(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.table.rows)

    def has(self, terrain: str) -> bool:
        return terrain in self._rows

    def value(self, terrain: str, column: str) -> Any:
        if terrain not in self._rows:
            raise KeyError(f"{self.table.where}: no row for terrain {terrain!r}")
        return self.table.cell(terrain, column)

    def cost(self, terrain: str, column: str) -> Cost | None:
        return parse_cost(self.value(terrain, column))

    def column_map(self, column: str) -> dict[str, Any]:
        """Every row's value in one column, e.g. the entry costs of one mobility class."""
        j = self.table.columns.index(column)
        return {k: v[j] for k, v in self.table.rows}


def typed(table: Table) -> OddsCRT | DifferentialCRT | TerrainChart | Table:
    """The typed view matching the table's ``kind`` (a plain lookup stays a Table)."""
    if table.kind in ("odds", "differential"):
        from engines.hexkit.crt import DifferentialCRT, OddsCRT

        return OddsCRT(table) if table.kind == "odds" else DifferentialCRT(table)
    if table.kind == "chart":
        return TerrainChart(table)
    return table


def __getattr__(name: str) -> type[Any]:
    """The CRTs (:class:`~engines.hexkit.crt.OddsCRT`,
    :class:`~engines.hexkit.crt.DifferentialCRT`) where they were first defined: made in
    :mod:`engines.hexkit.crt`, loaded with the first CRT, so a command that makes none
    does not make their classes (issue 35)."""
    if name in ("OddsCRT", "DifferentialCRT"):
        from engines.hexkit import crt

        found: type[Any] = getattr(crt, name)
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
