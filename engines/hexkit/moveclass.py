"""How one mobility class pays to move (:class:`MoveClass`) and what crossing a hexside
adds (:func:`crossing_cost`): the chart as data, and one step priced from it.

Kept apart from :mod:`engines.hexkit.movement` (its compiled tables, searches and the
chart reader, which re-exports these names): a command that prices one step and searches
nothing (White Death's advance after combat, Rule 9.D) loads this alone, not the
movement module, the chart reader and heapq beside it (issue 35: about 3 M instructions
of such an act).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import FrozenRecord, HexId

if TYPE_CHECKING:
    from fractions import Fraction

    from engines.hexkit.hexmap import HexMap
    from engines.hexkit.overlay import OverlaidMap


Cost: TypeAlias = "int | Fraction"
#: a cost in a class's own values (:data:`Cost`) or a pricer's scaled ints; the bound is
#: for mypy (at run time typing would compile its text into a ForwardRef, issue 35)
if TYPE_CHECKING:
    _C = TypeVar("_C", bound="int | Fraction")
else:
    _C = TypeVar("_C")


def _no_costs() -> Mapping[str, Cost | None]:
    return MappingProxyType({})


def _no_extras() -> Mapping[str, Cost]:
    return MappingProxyType({})


def _no_negation() -> Mapping[str, Sequence[str]]:
    return MappingProxyType({})


class MoveClass(FrozenRecord):
    """How one mobility class pays to move (leg, mech, ski...).

    * ``enter[terrain]``: cost to enter a hex of that terrain; ``None`` or absent is
      prohibited.
    * ``leave[terrain]``: extra cost to move out of that terrain into a different one
      (White Death Rule 7's creek "1-2": 2 MP to leave the creek, nothing to move along it).
    * ``hexside[feature]``: extra cost to cross a hexside with that feature (For the
      Motherland! 5.1: minor and major rivers); ``None`` prohibits the crossing.
    * ``networks[name]``: the cost per hex moving *along* that network (road, rail), in
      place of the terrain (White Death Rule 7: only hex to hex along the road).
    * ``negated_by[feature]``: hexside features that cancel this one's cost and
      prohibition (``{"river": ["bridge"]}``; White Death Rule 20).
    * ``network_crosses``: when moving along a network, hexside costs are ignored
      (the road has its own bridge); otherwise they still apply unless negated.
    * ``hex_features[feature]``: extra cost to enter a hex with that feature.

    Charts that price a hex by its dearest terrain rather than a sum (White Death
    Rule 7: "a hex costs the highest of its terrains"; a river hex, a town and a road
    replace that cost) set, all optional:

    * ``dearest``: a hex costs the dearest of its terrain's ``enter`` cost and its
      features' ``hex_features`` costs (then costs to enter, not extras); any of them
      prohibited prohibits it.
    * ``fills``: terrains that are the absence of terrain (White Death's clear): they
      count only in a hex with no feature in ``hex_features``.
    * ``overrides``: names that, when they apply, set the cost of the hex entered
      outright, the first that applies winning: a hex feature of the hex entered
      (its ``hex_features`` cost), its terrain (its ``enter`` cost), or a network the
      step runs along (its rate).  Only then come the unlisted networks, then the
      terrain and features.
    * ``leave_features[feature]``: extra cost to move out of a hex with that feature
      into one without it, however the hex is entered (White Death's river and creek
      hexes, drawn as hex features: "1-2" is 2 MP to leave the creek).
    """

    name: str
    enter: Mapping[str, Cost | None]
    leave: Mapping[str, Cost]
    hexside: Mapping[str, Cost | None]
    networks: Mapping[str, Cost]
    negated_by: Mapping[str, Sequence[str]]
    network_crosses: bool
    hex_features: Mapping[str, Cost | None]
    dearest: bool
    fills: frozenset[str]
    overrides: Sequence[str]
    leave_features: Mapping[str, Cost]
    _fields = __match_args__ = (
        "name", "enter", "leave", "hexside", "networks", "negated_by", "network_crosses",
        "hex_features", "dearest", "fills", "overrides", "leave_features")

    def __init__(self, name: str, enter: Mapping[str, Cost | None],
                 leave: Mapping[str, Cost] | None = None,
                 hexside: Mapping[str, Cost | None] | None = None,
                 networks: Mapping[str, Cost] | None = None,
                 negated_by: Mapping[str, Sequence[str]] | None = None,
                 network_crosses: bool = False,
                 hex_features: Mapping[str, Cost | None] | None = None,
                 dearest: bool = False, fills: frozenset[str] = frozenset(),
                 overrides: Sequence[str] = (),
                 leave_features: Mapping[str, Cost] | None = None) -> None:
        # a table not given is a new empty one, as the dataclass's default factories made
        self.__dict__.update(
            name=name, enter=enter, leave=_no_extras() if leave is None else leave,
            hexside=_no_costs() if hexside is None else hexside,
            networks=_no_extras() if networks is None else networks,
            negated_by=_no_negation() if negated_by is None else negated_by,
            network_crosses=network_crosses,
            hex_features=_no_costs() if hex_features is None else hex_features,
            dearest=dearest, fills=fills, overrides=overrides,
            leave_features=_no_extras() if leave_features is None else leave_features)

    def step_cost(self, hexmap: HexMap | OverlaidMap, a: HexId, b: HexId) -> Cost | None:
        """Cost to move from ``a`` into adjacent ``b`` ignoring units; ``None`` if barred.
        ``hexmap`` may be the map seen through a position's overlay."""
        ta, tb = hexmap.terrain[a], hexmap.terrain[b]
        side = hexside(a, b)
        feats = hexmap.hexsides.get(side, frozenset())
        nets = hexmap.networks
        along = [n for n in self.networks if side in nets.get(n, frozenset())]
        got = self._hex_cost(hexmap, b, along)
        if got is None:
            return None
        total: Cost = got
        if not along and ta != tb:
            total += self.leave.get(ta, 0)
        if self.leave_features:
            into = hexmap.features_of(b)
            for f in sorted(hexmap.features_of(a)):
                if f in self.leave_features and f not in into:
                    total += self.leave_features[f]
        if not (along and self.network_crosses):
            extra = crossing_cost(feats, self.hexside, self.negated_by)
            if extra is None:
                return None
            total += extra
        return total

    def entry_cost(self, hexmap: HexMap | OverlaidMap, b: HexId,
                   along: Collection[str] = ()) -> Cost | None:
        """Cost to enter ``b`` from off the map (reinforcements), arriving along the
        networks named in ``along``: the hex's own cost, no leaving or hexside cost."""
        return self._hex_cost(hexmap, b, [n for n in self.networks if n in along])

    def _hex_cost(self, hexmap: HexMap | OverlaidMap, b: HexId,
                  along: Sequence[str]) -> Cost | None:
        """What entering ``b`` costs for the hex itself, ``along`` the networks the move
        runs on (in ``networks`` order)."""
        tb = hexmap.terrain[b]
        if self.overrides:
            fb = hexmap.features_of(b)
            for name in self.overrides:
                if name in along:
                    return self.networks[name]
                if name in fb and name in self.hex_features:
                    return self.hex_features[name]
                if name == tb and name in self.enter:
                    return self.enter[name]
        if along:
            return min(self.networks[n] for n in along)
        base = self.enter.get(tb)
        if self.dearest:
            priced = [self.hex_features[f] for f in sorted(hexmap.features_of(b))
                      if f in self.hex_features]
            costs = priced if priced and tb in self.fills else [base, *priced]
            if any(c is None for c in costs):
                return None
            return max(c for c in costs if c is not None)
        if base is None:
            return None
        total: Cost = base
        for f in sorted(hexmap.features_of(b)):
            if f in self.hex_features:
                extra = self.hex_features[f]
                if extra is None:
                    return None
                total += extra
        return total


def crossing_cost(feats: Collection[str], hexside: Mapping[str, _C | None],
                  negated_by: Mapping[str, Sequence[str]]) -> _C | int | None:
    """What crossing a hexside with ``feats`` adds to a step (``None``: barred): each of
    the class's hexside features there, unless a feature that negates it is there too (a
    bridge over the river), taken in name order so that a barred crossing is found the
    same way every time.  :meth:`MoveClass.step_cost` reads it in the class's costs, the
    integer :class:`~engines.hexkit.pricing.Pricer` in its scaled ones."""
    extras: list[_C] = []
    for f in sorted(feats):
        if f not in hexside or any(n in feats for n in negated_by.get(f, ())):
            continue
        extra = hexside[f]
        if extra is None:
            return None
        extras.append(extra)
    return sum(extras)
