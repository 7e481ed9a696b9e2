"""Pricing every step of a map for a :class:`~engines.hexkit.movement.MoveClass` at
once, with :meth:`MoveClass.step_cost`'s answers (issue 35).

Imported by :mod:`engines.hexkit.movement` when a table is compiled, not when a command
loads it from the data cache, and by :mod:`engines.hexkit.stepcosts` when a hex's steps
are first priced: most commands never price a step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engines.hexkit.geometry import Hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.moveclass import Cost, MoveClass, crossing_cost
from engines.hexkit.shared import fraction_type
from engines.hexkit.stepcosts import _denominator, _unscale

if TYPE_CHECKING:  # a map seen through an overlay is priced alike: only annotated here
    from engines.hexkit.overlay import OverlaidMap

#: a memo's "not priced yet" (``None`` is a price: prohibited)
_UNSET: Any = object()
_NO_FEATURES: frozenset[str] = frozenset()


class Pricer:
    """:meth:`MoveClass.step_cost` for every step of a map, with the same answers, in
    integers: every cost of the class scaled by their common denominator ``scale``.

    The reference prices each step from scratch (Fraction sums, sorted feature sets):
    10,000 steps a class on White Death's map, most of a fresh command's time (issue 35).
    What a step costs is made of parts shared by many steps, each priced here once: the
    hex entered by its terrain, features and the networks the step runs along; the
    features of a hexside; the features left for those entered.  Classes whose
    ``step_cost`` is their own (a subclass), or with a cost that is not a non-negative
    int or Fraction (the reference's errors say what is wrong), are priced by the
    reference: :meth:`of` returns ``None`` for them."""

    def __init__(self, hexmap: HexMap | OverlaidMap, mc: MoveClass, scale: int) -> None:
        self.mc, self.scale = mc, scale
        self.terrain, self.sides, self.features_of = \
            hexmap.terrain, hexmap.hexsides, hexmap.features_of

        def scaled(costs: Mapping[str, Cost | None]) -> dict[str, int | None]:
            return {k: None if v is None else int(v * scale) for k, v in costs.items()}

        self.enter, self.hex_features = scaled(mc.enter), scaled(mc.hex_features)
        self.hexside = scaled(mc.hexside)
        self.networks: dict[str, int] = {k: int(v * scale) for k, v in mc.networks.items()}
        self.leave: dict[str, int] = {k: int(v * scale) for k, v in mc.leave.items()}
        self.leave_features: dict[str, int] = {
            k: int(v * scale) for k, v in mc.leave_features.items()}
        nets = hexmap.networks
        #: the class's networks in its order, with their hexsides on this map
        no_sides: frozenset[Hexside] = frozenset()
        self.along_sides = tuple((n, nets.get(n, no_sides)) for n in mc.networks)
        self.any_network = no_sides.union(*(sides for _, sides in self.along_sides))
        self._hexes: dict[tuple[str, frozenset[str], tuple[str, ...]], int | None] = {}
        self._crossings: dict[frozenset[str], int | None] = {}
        self._left: dict[tuple[frozenset[str], frozenset[str]], int] = {}

    @staticmethod
    def of(hexmap: HexMap | OverlaidMap, mc: MoveClass) -> Pricer | None:
        t = type(mc)
        if t.step_cost is not MoveClass.step_cost or t._hex_cost is not MoveClass._hex_cost:
            return None
        values = [*mc.enter.values(), *mc.leave.values(), *mc.hexside.values(),
                  *mc.networks.values(), *mc.hex_features.values(),
                  *mc.leave_features.values()]
        parts: list[Cost] = []
        for v in values:
            if v is None or isinstance(v, int):
                if v is not None and v < 0:
                    return None
                continue
            if not isinstance(v, fraction_type()) or v < 0:
                return None
            parts.append(v)
        return Pricer(hexmap, mc, _denominator(parts))

    def cost(self, hexmap: object, a: HexId, b: HexId) -> Cost | None:
        """``step_cost(hexmap, a, b)`` for this pricer's map (in the class's units)."""
        v = self.step(a, b)
        if v is None:
            return None
        return _unscale(v, self.scale)

    def table(self, hexmap: HexMap,
              adjust: Callable[[HexId, HexId, Cost], Cost | None] | None = None
              ) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
        """Every step's cost as :class:`MoveCosts` keeps it: its scale (the denominator
        of the costs met, not of every cost the class names) and the rows, ``adjust``
        applied as :class:`MoveCosts` says.  :meth:`step` for each step, with what is
        the same for every step into a hex, or out of one, looked up once per hex."""
        mc, unit = self.mc, self.scale
        ids, adjacency = hexmap.ids, hexmap.adjacency
        terrain = [self.terrain[h] for h in ids]
        features = [self.features_of(h) for h in ids]
        hexes, hex_cost = self._hexes, self._hex
        plain: list[int | None] = []  # each hex's own cost, entered off any network
        for t, f in zip(terrain, features, strict=True):
            got = hexes.get((t, f, ()), _UNSET)
            if got is _UNSET:
                got = hexes[(t, f, ())] = hex_cost(t, f, ())
            plain.append(got)
        leave, leave_features, any_network = self.leave, self.leave_features, self.any_network
        sides, crossings, crossing = self.sides, self._crossings, self._crossing
        left_memo, crosses = self._left, mc.network_crosses
        # an adjusted cost finer than 1/unit: every cost is then scaled by ``finer`` too
        finer = scale = 1
        rows: list[list[tuple[int, Any]]] = []  # int, or a Fraction while finer
        for i, a in enumerate(ids):
            ta, fa = terrain[i], features[i]
            leave_a = leave.get(ta, 0)
            leaving = bool(leave_features) and bool(fa)
            row: list[tuple[int, Any]] = []
            for j in adjacency[i]:
                b = ids[j]
                side = (a, b) if a < b else (b, a)
                if side in any_network:
                    along = tuple(n for n, on in self.along_sides if side in on)
                    got = hexes.get((terrain[j], features[j], along), _UNSET)
                    if got is _UNSET:
                        got = hexes[(terrain[j], features[j], along)] = \
                            hex_cost(terrain[j], features[j], along)
                else:
                    along, got = (), plain[j]
                if got is None:
                    row.append((j, -1))
                    continue
                v: int = got
                if not along and ta != terrain[j]:
                    v += leave_a
                if leaving:
                    fb = features[j]
                    left = left_memo.get((fa, fb))
                    if left is None:
                        left = left_memo[(fa, fb)] = sum(
                            leave_features[f] for f in fa
                            if f in leave_features and f not in fb)
                    v += left
                if not (along and crosses):
                    feats = sides.get(side, _NO_FEATURES)
                    if feats:
                        extra = crossings.get(feats, _UNSET)
                        if extra is _UNSET:
                            extra = crossings[feats] = crossing(feats)
                        if extra is None:
                            row.append((j, -1))
                            continue
                        v += extra
                if adjust is None:
                    if v % unit:
                        scale = math.lcm(scale, unit // math.gcd(v, unit))
                    row.append((j, v))
                    continue
                c = _unscale(v, unit)
                amended = adjust(a, b, c)
                if amended is None:
                    row.append((j, -1))
                    continue
                if amended is not c:
                    if amended < 0:
                        raise ValueError(
                            f"{mc.name}: negative cost {amended} from {a} to {b}")
                    w = amended * unit
                    if type(w) is not int:
                        w = fraction_type()(w)
                        if w.denominator != 1:
                            finer = math.lcm(finer, w.denominator)
                            row.append((j, w))
                            continue
                        w = int(w)
                    v = w
                if v % unit:
                    scale = math.lcm(scale, unit // math.gcd(v, unit))
                row.append((j, v))
            rows.append(row)
        if finer != 1:  # what ``adjust`` made finer than the class's costs: scaled anew
            unit *= finer
            scale = 1
            for row in rows:
                for k, (j, w) in enumerate(row):
                    if w != -1:
                        row[k] = (j, v := int(w * finer))
                        if v % unit:
                            scale = math.lcm(scale, unit // math.gcd(v, unit))
        # scale divides unit: every cost met is a whole number of 1/scale MP
        q = unit // scale
        if q == 1:
            return scale, tuple(tuple(row) for row in rows)
        return scale, tuple(tuple((j, w if w < 0 else w // q) for j, w in row)
                            for row in rows)

    def step(self, a: HexId, b: HexId) -> int | None:
        """``step_cost`` in units of 1/``scale``: its terms in the same order."""
        terrain, mc = self.terrain, self.mc
        ta, tb = terrain[a], terrain[b]
        side = (a, b) if a < b else (b, a)
        along: tuple[str, ...] = ()
        if side in self.any_network:
            along = tuple(n for n, sides in self.along_sides if side in sides)
        fb = self.features_of(b)
        key = (tb, fb, along)
        got = self._hexes.get(key, _UNSET)
        if got is _UNSET:
            got = self._hexes[key] = self._hex(tb, fb, along)
        if got is None:
            return None
        total: int = got
        if not along and ta != tb:
            total += self.leave.get(ta, 0)
        if self.leave_features:
            fa = self.features_of(a)
            if fa:
                left = self._left.get((fa, fb))
                if left is None:
                    left = self._left[(fa, fb)] = sum(
                        self.leave_features[f] for f in fa
                        if f in self.leave_features and f not in fb)
                total += left
        if not (along and mc.network_crosses):
            feats = self.sides.get(side, _NO_FEATURES)
            if feats:
                extra = self._crossings.get(feats, _UNSET)
                if extra is _UNSET:
                    extra = self._crossings[feats] = self._crossing(feats)
                if extra is None:
                    return None
                total += extra
        return total

    def _hex(self, tb: str, fb: frozenset[str], along: tuple[str, ...]) -> int | None:
        """:meth:`MoveClass._hex_cost` of a hex of terrain ``tb`` and features ``fb``."""
        mc = self.mc
        enter, hex_features = self.enter, self.hex_features
        for name in mc.overrides:
            if name in along:
                return self.networks[name]
            if name in fb and name in hex_features:
                return hex_features[name]
            if name == tb and name in enter:
                return enter[name]
        if along:
            return min(self.networks[n] for n in along)
        base = enter.get(tb)
        priced = [hex_features[f] for f in sorted(fb) if f in hex_features]
        if mc.dearest:
            costs = priced if priced and tb in mc.fills else [base, *priced]
            if any(c is None for c in costs):
                return None
            return max(c for c in costs if c is not None)
        if base is None or any(c is None for c in priced):
            return None
        return base + sum(c for c in priced if c is not None)

    def _crossing(self, feats: frozenset[str]) -> int | None:
        """The hexside's extra cost (``None``: barred), as ``step_cost`` adds it."""
        return crossing_cost(feats, self.hexside, self.mc.negated_by)
