"""A terrain chart's column as a :class:`MoveClass` (:func:`move_class_from_chart`) and
its costs on a map priced a hex's row at a time (:class:`StepCosts`).

Kept apart from :mod:`engines.hexkit.movement` (its compiled tables and searches, which
re-exports these names): checking a received move prices the few rows a search toward
its goal reads and runs none of the kit's searches, so a receive loads this, not the
movement module beside it (issue 35: Backhand Blow's receive).  :class:`MoveCosts` and
:func:`reachable` below are that module's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from engines.hexkit.hexmap import HexMap
from engines.hexkit.moveclass import Cost, MoveClass
from engines.hexkit.shared import fraction_type
from engines.hexkit.tables import TerrainChart, parse_cost, parse_enter_leave

if TYPE_CHECKING:
    from engines.hexkit.overlay import OverlaidMap


def _denominator(values: Iterable[Cost | None]) -> int:
    d = 1
    for v in values:
        if v is None or isinstance(v, int):
            continue
        if not isinstance(v, fraction_type()):
            raise TypeError(f"movement costs must be int or Fraction, not {v!r}")
        d = math.lcm(d, v.denominator)
    return d


def _unscale(v: int, scale: int) -> Cost:
    # a whole number of MP (nearly every cost) without making a Fraction: a search
    # unscales every hex it reaches
    whole, part = divmod(v, scale)
    if not part:
        return whole
    return fraction_type()(v, scale)


class StepCosts:
    """A :class:`MoveClass`'s costs on a map, or on a map seen through an overlay, each
    row priced when first asked: for searches that read the rows of the few hexes a
    unit can reach, where a :class:`MoveCosts` prices every step of the map first (a
    table of 10,000 steps for each of White Death's mobility classes, most of a first
    listing's time; issue 35).  :func:`reachable` searches either.

    ``row(i)`` (or ``steps[i]``) is hex ``i``'s steps as a :class:`MoveCosts` row: in the
    map's adjacency order, ``(neighbour index, cost)`` in units of 1/``scale`` MP, ``-1``
    prohibited.  ``scale`` is the common denominator of the class's costs (a
    :class:`MoveCosts` scales by those its steps meet instead: the same costs).  For a
    class that prices steps its own way (a subclass overriding ``step_cost``), with a
    cost that is not a non-negative int or Fraction, or with an ``adjust``, compile a
    :class:`MoveCosts`."""

    def __init__(self, hexmap: HexMap | OverlaidMap, move_class: MoveClass) -> None:
        from engines.hexkit.pricing import Pricer

        pricer = Pricer.of(hexmap, move_class)
        if pricer is None:
            raise ValueError(f"{move_class.name}: priced by its own step_cost, or a cost "
                             "not a non-negative int or Fraction: compile a MoveCosts")
        #: the map the rows index (the printed one under an overlay)
        # asked of the printed map, not of the overlay's: a first move check compiles the
        # printed map's costs and loads no overlay module (issue 35)
        self.map = hexmap if isinstance(hexmap, HexMap) else hexmap.base
        self.move_class = move_class
        self.scale = pricer.scale
        #: what :func:`reachable` reads of a :class:`MoveCosts`: the rows by hex index
        self.steps = self
        self._step = pricer.step
        self._rows: list[tuple[tuple[int, int], ...] | None] = [None] * len(self.map.ids)

    def row(self, i: int) -> tuple[tuple[int, int], ...]:
        got = self._rows[i]
        if got is None:
            ids, step, a = self.map.ids, self._step, self.map.ids[i]
            got = self._rows[i] = tuple(
                (j, -1 if c is None else c)
                for j, c in ((j, step(a, ids[j])) for j in self.map.neighbor_rows[i]))
        return got

    __getitem__ = row

    def step(self, i: int, k: int) -> int:
        """Hex ``i``'s ``k``-th step (``row(i)[k]``'s cost, ``-1`` prohibited), priced
        alone when its row has not been: a check of one move asks one step of a hex, a
        listing every step of the hexes its units stand in."""
        got = self._rows[i]
        if got is not None:
            return got[k][1]
        c = self._step(self.map.ids[i], self.map.ids[self.map.neighbor_rows[i][k]])
        return -1 if c is None else c

    def __len__(self) -> int:
        return len(self._rows)

    def rows_priced(self) -> int:
        """How many rows have been asked for (and priced)."""
        return sum(r is not None for r in self._rows)


def move_class_from_chart(
    name: str,
    chart: TerrainChart,
    column: str,
    hexmap: HexMap,
    *,
    negated_by: Mapping[str, Sequence[str]] | None = None,
    network_crosses: bool = False,
    skip: Iterable[str] = (),
) -> MoveClass:
    """A :class:`MoveClass` from one column of a terrain chart, rows sorted by kind.

    Each chart row is matched against the map: a legend terrain becomes an entry cost
    (``"1-2"`` cells give entry and leaving costs), a network name (road) the rate along
    it, a hexside feature an extra crossing cost, a hex feature an extra entry cost.
    Rows that are none of these (combat-only rows) and rows in ``skip`` are ignored; a
    cell that is not a cost raises ``ValueError`` naming the row and column.
    """
    terrains = set(hexmap.terrain_classes)
    side_feats = hexmap.side_feature_names()
    hex_feats = {f for fs in hexmap.hex_features.values() for f in fs}
    enter: dict[str, Cost | None] = {t: None for t in terrains}
    leave: dict[str, Cost] = {}
    sides: dict[str, Cost | None] = {}
    nets: dict[str, Cost] = {}
    feats: dict[str, Cost | None] = {}
    skipped = set(skip)
    for row in chart.terrains:
        if row in skipped:
            continue
        cell = chart.value(row, column)
        try:
            if row in terrains:
                enter[row], lv = parse_enter_leave(cell)
                if lv:
                    leave[row] = lv
            elif row in hexmap.networks:
                rate = parse_cost(cell)
                if rate is not None:
                    nets[row] = rate
            elif row in side_feats:
                sides[row] = parse_cost(cell)
            elif row in hex_feats:
                feats[row] = parse_cost(cell)
        except ValueError as exc:
            raise ValueError(f"{chart.table.where}: row {row!r}, column {column!r}: {exc}") \
                from None
    return MoveClass(
        name,
        enter=MappingProxyType(dict(sorted(enter.items()))),
        leave=MappingProxyType(dict(sorted(leave.items()))),
        hexside=MappingProxyType(dict(sorted(sides.items()))),
        networks=MappingProxyType(dict(sorted(nets.items()))),
        negated_by=MappingProxyType(dict(negated_by or {})),
        network_crosses=network_crosses,
        hex_features=MappingProxyType(dict(sorted(feats.items()))),
    )
