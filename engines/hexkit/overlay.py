"""Per-position changes to the map's movement facts, without recompiling the map.

The printed map is fixed; the position changes what it means to move across it: a
bridge built or blown (White Death Rule 20), lakes frozen or thawed and rivers crossable
only at bridges in a thaw (Rules 13 and 16), a hex whose terrain the weather changes.
An :class:`Overlay` states those changes as data (terrain per hex, hexside and hex
features added or removed, network links added: a bridge built joins the road);
:meth:`MoveCosts.overlaid
<engines.hexkit.movement.MoveCosts.overlaid>` recomputes only the steps they touch and
shares every other row with the compiled costs, so an engine keeps one compiled
:class:`~engines.hexkit.movement.MoveCosts` per mobility class and one overlaid copy per
position fact (weather, bridges) it has met.

Rules that depend on the path itself rather than on the map (White Death Rule 16.B: in
a thaw a unit leaves a river hex on the side it entered) are a :class:`StepHook`: a
check on each step out of its hexes, given the hex the unit came from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

from engines.hexkit.geometry import Hexside, hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.shared import Shared

# Fraction is imported where a value is made: importing fractions pulls decimal and costs a
# command 9 M instructions, and most commands of most games make no fraction (issue 35)
if TYPE_CHECKING:
    from fractions import Fraction

Cost: TypeAlias = "int | Fraction"
_EMPTY: frozenset[str] = frozenset()


def _frozen_map(items: Mapping[HexId, str] | None) -> Mapping[HexId, str]:
    return MappingProxyType(dict(sorted((items or {}).items())))


def _frozen_sets(items: Mapping[HexId, Iterable[str]] | None) -> Mapping[HexId, frozenset[str]]:
    return MappingProxyType({k: frozenset(v) for k, v in sorted((items or {}).items())})


def _link_sets(items: Mapping[str, Iterable[Hexside]] | None
               ) -> Mapping[str, frozenset[Hexside]]:
    return MappingProxyType({k: frozenset(hexside(*side) for side in v)
                             for k, v in sorted((items or {}).items())})


def _side_sets(items: Mapping[Hexside, Iterable[str]] | None
               ) -> Mapping[Hexside, frozenset[str]]:
    return MappingProxyType({k: frozenset(v) for k, v in sorted((items or {}).items())})


@dataclass(frozen=True, eq=False)
class Overlay(Shared):
    """What the position changes on the map (build with :meth:`make`)."""

    #: hex -> terrain class it has now (a legend name: "frozen_lake" for "lake")
    terrain: Mapping[HexId, str] = field(default_factory=lambda: _frozen_map(None))
    sides_added: Mapping[Hexside, frozenset[str]] = field(
        default_factory=lambda: _side_sets(None))
    sides_removed: Mapping[Hexside, frozenset[str]] = field(
        default_factory=lambda: _side_sets(None))
    features_added: Mapping[HexId, frozenset[str]] = field(
        default_factory=lambda: _frozen_sets(None))
    features_removed: Mapping[HexId, frozenset[str]] = field(
        default_factory=lambda: _frozen_sets(None))
    #: network -> hexsides it runs across now besides the map's own (White Death Rule 20:
    #: a bridge "allows units to enter and leave the hex as if it were a road hex")
    links_added: Mapping[str, frozenset[Hexside]] = field(
        default_factory=lambda: _link_sets(None))

    @staticmethod
    def make(*, terrain: Mapping[HexId, str] | None = None,
             sides_added: Mapping[Hexside, Iterable[str]] | None = None,
             sides_removed: Mapping[Hexside, Iterable[str]] | None = None,
             features_added: Mapping[HexId, Iterable[str]] | None = None,
             features_removed: Mapping[HexId, Iterable[str]] | None = None,
             links_added: Mapping[str, Iterable[Hexside]] | None = None) -> Overlay:
        return Overlay(_frozen_map(terrain), _side_sets(sides_added), _side_sets(sides_removed),
                       _frozen_sets(features_added), _frozen_sets(features_removed),
                       _link_sets(links_added))

    @staticmethod
    def rename_side_feature(hexmap: HexMap, old: str, new: str) -> Overlay:
        """Every hexside with feature ``old`` carries ``new`` instead (a thaw: "lake" sides
        become "lake_thaw", which the movement class prices on its own)."""
        sides = hexmap.sides_with(old)
        return Overlay.make(sides_added={s: {new} for s in sides},
                            sides_removed={s: {old} for s in sides})

    def __add__(self, other: Overlay) -> Overlay:
        """Both overlays (``other`` wins where they disagree on a hex's terrain)."""
        def union(a: Mapping[Any, frozenset[Any]], b: Mapping[Any, frozenset[Any]]
                  ) -> dict[Any, frozenset[Any]]:
            return {k: a.get(k, _EMPTY) | b.get(k, _EMPTY) for k in sorted({*a, *b})}
        return Overlay.make(
            terrain={**self.terrain, **other.terrain},
            sides_added=union(self.sides_added, other.sides_added),
            sides_removed=union(self.sides_removed, other.sides_removed),
            features_added=union(self.features_added, other.features_added),
            features_removed=union(self.features_removed, other.features_removed),
            links_added=union(self.links_added, other.links_added))

    def key(self) -> tuple[object, ...]:
        """The overlay as plain sorted tuples (for caching compiled costs per overlay)."""
        key: tuple[object, ...] = (
            tuple(self.terrain.items()),
            *(tuple((k, tuple(sorted(v))) for k, v in m.items())
              for m in (self.sides_added, self.sides_removed, self.features_added,
                        self.features_removed)))
        if self.links_added:  # only when used, so older overlays keep their keys
            links = tuple((n, tuple(sorted(sides))) for n, sides in self.links_added.items())
            key += (links,)
        return key

    def check(self, hexmap: HexMap) -> None:
        """``ValueError`` naming a hex, hexside or terrain the map does not have."""
        for h, t in self.terrain.items():
            hexmap.require(h)
            if t not in hexmap.terrain_classes:
                raise ValueError(f"overlay: terrain {t!r} for {h} is not in the map's legend")
        for h in (*self.features_added, *self.features_removed):
            hexmap.require(h)
        links = [side for sides in self.links_added.values() for side in sorted(sides)]
        for side in (*self.sides_added, *self.sides_removed, *links):
            a, b = side
            if b not in hexmap.neighbors(a):
                raise ValueError(f"overlay: {a}/{b} is not a hexside of the map")

    def touched(self, hexmap: HexMap) -> set[tuple[int, int]]:
        """The directed steps (hex index pairs) whose cost may differ under the overlay."""
        index, adjacency = hexmap.index, hexmap.adjacency
        out: set[tuple[int, int]] = set()
        for h in {*self.terrain, *self.features_added, *self.features_removed}:
            i = index[h]
            for j in adjacency[i]:
                out.add((i, j))  # leaving costs depend on the terrain left
                out.add((j, i))
        links = {side for sides in self.links_added.values() for side in sides}
        for a, b in {*self.sides_added, *self.sides_removed, *links}:
            i, j = index[a], index[b]
            out.add((i, j))
            out.add((j, i))
        return out


class OverlaidMap:
    """The map's movement facts with an overlay applied (what ``MoveClass.step_cost``
    reads: terrain, hexside features, hex features, networks)."""

    def __init__(self, hexmap: HexMap, overlay: Overlay) -> None:
        self.base = hexmap
        self.overlay = overlay
        self.terrain: Mapping[HexId, str] = _Terrain(hexmap.terrain, overlay.terrain)
        self.hexsides: Mapping[Hexside, frozenset[str]] = _Sides(hexmap.hexsides, overlay)
        #: network -> its hexsides, the overlay's links added (as ``HexMap.networks``)
        self.networks: Mapping[str, frozenset[Hexside]] = MappingProxyType({
            n: hexmap.networks.get(n, frozenset()) | overlay.links_added.get(n, frozenset())
            for n in sorted({*hexmap.networks, *overlay.links_added})})

    def features_of(self, h: HexId) -> frozenset[str]:
        return ((self.base.features_of(h) | self.overlay.features_added.get(h, _EMPTY))
                - self.overlay.features_removed.get(h, _EMPTY))

    def connected(self, network: str, a: HexId, b: HexId) -> bool:
        return hexside(a, b) in self.networks.get(network, frozenset())


class _Terrain(Mapping[HexId, str]):
    def __init__(self, base: Mapping[HexId, str], over: Mapping[HexId, str]) -> None:
        self.base, self.over = base, over

    def __getitem__(self, h: HexId) -> str:
        return self.over.get(h) or self.base[h]

    def __iter__(self) -> Iterator[HexId]:
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)


class _Sides(Mapping[Hexside, frozenset[str]]):
    def __init__(self, base: Mapping[Hexside, frozenset[str]], overlay: Overlay) -> None:
        self.base, self.overlay = base, overlay

    def __getitem__(self, side: Hexside) -> frozenset[str]:
        got = ((self.base.get(side, _EMPTY) | self.overlay.sides_added.get(side, _EMPTY))
               - self.overlay.sides_removed.get(side, _EMPTY))
        if not got and side not in self.base:
            raise KeyError(side)
        return got

    def __iter__(self) -> Iterator[Hexside]:
        return iter(sorted({*self.base, *self.overlay.sides_added}))

    def __len__(self) -> int:
        return len({*self.base, *self.overlay.sides_added})


@dataclass(frozen=True)
class StepHook(Shared):
    """A rule on each step out of ``hexes``: ``check(came_from, here, to, cost)`` returns
    the step's cost, or ``None`` to bar it.  ``came_from`` is the hex the path entered
    ``here`` from (for the search's start hex, ``start_from``: the side a unit already
    in a river hex came in by, kept in the position).

    The search keeps one cheapest path per hex, so a hook sees the predecessor on that
    path: a dearer entry that would allow another exit is not tried.
    """

    hexes: frozenset[HexId]
    check: Callable[[HexId | None, HexId, HexId, Cost], Cost | None]
    start_from: HexId | None = None
