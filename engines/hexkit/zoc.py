"""Zones of control: which hexes an enemy controls, and what that does to movement.

What a ZOC is (the six hexes around a unit, not across a sea or lake hexside) and what
it does differ between games, so the extent is computed here from data and the effect
on movement is a :class:`ZocPolicy` value the movement search consults:

* White Death Rule 3: stop on entering; pay 1 MP to leave; AFVs need not stop, but
  every enemy unit whose ZOC they leave may fire (3A: the engine's, on the move made);
  ski units pay 1 MP per ZOC left instead of stopping.
* For the Motherland! 4.2: no stop; +2 MP to leave; no moving ZOC to ZOC except German
  Panzers (5.1.4); some units may not enter an enemy ZOC at all (4.2.3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias

from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.shared import Shared

# Fraction is imported where a value is made: importing fractions pulls decimal and costs a
# command 9 M instructions, and most commands of most games make no fraction (issue 35)
if TYPE_CHECKING:
    from fractions import Fraction

Cost: TypeAlias = "int | Fraction"


@dataclass(frozen=True)
class ZocMap(Shared):
    """The hexes in a side's ZOC and, for each, the units exerting it (sorted ids)."""

    sources: Mapping[HexId, tuple[str, ...]]

    @property
    def hexes(self) -> frozenset[HexId]:
        return frozenset(self.sources)

    def __contains__(self, h: object) -> bool:
        return h in self.sources

    def exerted_by(self, h: HexId) -> tuple[str, ...]:
        return self.sources.get(h, ())


def zoc_map(
    hexmap: HexMap,
    units: Mapping[str, HexId] | Iterable[tuple[str, HexId]],
    *,
    blocking_sides: Iterable[str] = (),
    blocks: Callable[[HexId, HexId], bool] | None = None,
    include_own_hex: bool = False,
) -> ZocMap:
    """The ZOC of ``units`` (unit id -> hex; pass only units that exert one).

    A unit's ZOC covers its on-map neighbors except across a hexside carrying any of
    ``blocking_sides`` (``["sea", "lake"]`` for For the Motherland! 4.1) or where
    ``blocks(unit_hex, neighbor)`` says so.  ``include_own_hex`` adds the unit's hex.
    """
    items = units.items() if isinstance(units, Mapping) else units
    blocking = frozenset(blocking_sides)
    index: Mapping[HexId, int]
    adjacency: Sequence[Iterable[int]]
    ids: Sequence[HexId]
    if "adjacency" in hexmap.__dict__:
        index, adjacency, ids = hexmap.index, hexmap.adjacency, hexmap.ids
    else:
        # the neighbours of the exerting units' hexes alone, until the map has its whole
        # table: 48th Panzer Korps' first-day audit asks five ZOCs of 52 units, where
        # making the table of its 2,160 hexes was 22.8 M instructions (issue 35)
        items = list(items)
        index, adjacency, ids = _around(hexmap, [h for _, h in items])
    sides = hexmap.hexsides
    acc: dict[HexId, list[str]] = {}
    for unit, h in items:
        if include_own_hex:
            acc.setdefault(h, []).append(unit)
        for j in adjacency[index[h]]:
            n = ids[j]
            if blocking and blocking & sides.get(hexside(h, n), frozenset()):
                continue
            if blocks is not None and blocks(h, n):
                continue
            acc.setdefault(n, []).append(unit)
    return ZocMap(MappingProxyType({h: tuple(sorted(set(v))) for h, v in sorted(acc.items())}))


def _around(hexmap: HexMap, hexes: Iterable[HexId]
            ) -> tuple[dict[HexId, int], list[range], list[HexId]]:
    """The map's ``index``, ``adjacency`` and ``ids`` as :func:`zoc_map` reads them, for
    ``hexes`` alone: each hex's neighbours (:meth:`HexMap.neighbors`, the same hexes in
    the same order) listed one after another, and each hex's range of them."""
    index: dict[HexId, int] = {}
    adjacency: list[range] = []
    ids: list[HexId] = []
    for h in hexes:
        if h not in index:
            near = hexmap.neighbors(h)
            index[h] = len(adjacency)
            adjacency.append(range(len(ids), len(ids) + len(near)))
            ids += near
    return index, adjacency, ids


@dataclass(frozen=True)
class ZocPolicy(Shared):
    """What entering, leaving and crossing enemy ZOCs does to a moving unit."""

    #: entering an enemy ZOC hex ends the move (White Death Rule 3)
    stop_on_entry: bool = True
    #: extra cost to leave an enemy ZOC hex (White Death 1, For the Motherland! 2)
    exit_cost: Cost = 0
    #: may move straight from one enemy ZOC hex into another
    zoc_to_zoc: bool = True
    #: may enter an enemy ZOC hex at all (For the Motherland! 4.2.3 says no for some)
    may_enter: bool = True


#: no ZOC effect at all (strategic moves check their own conditions)
IGNORE_ZOC = ZocPolicy(stop_on_entry=False)
#: the common rule: stop on entering
STOP_ON_ENTRY = ZocPolicy()
