"""Movement costs, least-cost paths and reachable sets.

A game describes how a mobility class pays for movement as data (a
:class:`MoveClass`, typically one column of the terrain chart), the kit compiles it
against a map once (:class:`MoveCosts`) and then answers per unit: where can it go
with this allowance, this enemy ZOC, these occupied hexes.

Costs are ints or :class:`~fractions.Fraction` (a chart's half-MP road hexes; White
Death gives its chart in ticks, sixths of an MP, so its costs are ints).
Inside the search every cost is scaled to an integer by the common denominator, so the
search is exact and fast; results come back in the caller's units.

Ties between equally cheap paths are broken by hex id (the predecessor with the lowest
id wins), so a path shown to one player is the path the other player's program finds.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, overload

from engines.hexkit.geometry import Hexside, hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.moveclass import Cost as Cost
from engines.hexkit.moveclass import MoveClass as MoveClass
from engines.hexkit.moveclass import crossing_cost as crossing_cost
from engines.hexkit.shared import Shared, fraction_type
from engines.hexkit.stepcosts import StepCosts as StepCosts
from engines.hexkit.stepcosts import _denominator, _unscale
from engines.hexkit.stepcosts import move_class_from_chart as move_class_from_chart

# Fraction is imported where a value is made: importing fractions pulls decimal and costs a
# command 9 M instructions, and most commands of most games make no fraction (issue 35).
# The graph searches, overlays and ZOC policies load where first used: a command that
# prices one step (White Death's advance, Rule 9.D) runs none of them, and each module
# costs it about 0.45 M instructions to load (issue 35)
if TYPE_CHECKING:

    from engines.hexkit.graph import breadth_first as breadth_first
    from engines.hexkit.graph import lightest_chain as lightest_chain
    from engines.hexkit.graph import region as region
    from engines.hexkit.graph import spread as spread
    from engines.hexkit.graph import trace as trace
    from engines.hexkit.overlay import Overlay, StepHook
    from engines.hexkit.zoc import ZocPolicy

#: the graph searches this module has always offered, re-exported from
#: :mod:`engines.hexkit.graph` when first asked (:func:`__getattr__`)
_GRAPH = frozenset({"breadth_first", "lightest_chain", "region", "spread", "trace"})


def __getattr__(name: str) -> Any:
    if name in _GRAPH:
        from engines.hexkit import graph

        # kept as this module's own name from then on, as engines.backhand.movement keeps
        # its reachable: a later read is a plain global, not this call and an import
        value = globals()[name] = getattr(graph, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def _canon(value: object) -> object:
    """``value`` with every mapping and set in sorted order, for a key: the repr of a
    frozenset follows string hashing, which differs from one process to the next."""
    if isinstance(value, Mapping):
        return [[k, _canon(v)] for k, v in sorted(value.items())]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    return value


def _cache_key(hexmap: HexMap, move_class: MoveClass,
               adjust: Callable[[HexId, HexId, Cost], Cost | None] | None,
               adjust_key: bytes | None) -> bytes | None:
    from pbem import datacache

    if hexmap.source is None or datacache.directory() is None or \
            (adjust is not None and adjust_key is None):
        return None
    fields_ = {f: _canon(getattr(move_class, f)) for f in move_class._fields}
    return datacache.make_key("movecosts", hexmap.source, repr(sorted(fields_.items())),
                              adjust_key or b"")


#: one hex's steps in a compiled table: ``(neighbour index, scaled cost or -1)``
Row: TypeAlias = tuple[tuple[int, int], ...]


class KeptRows(Shared, Sequence[Row]):
    """A kept compilation's rows (:mod:`pbem.datacache`), each made a row when first
    read: a command's searches read the rows of the few hexes a unit can reach, and
    making every row of 48th Panzer Korps' two tables was most of loading its data
    (issue 35).  Equal to any sequence of the same rows."""

    __slots__ = ("_flat", "_rows")

    def __init__(self, flat: list[list[int]]) -> None:
        #: each row as the cache writes it: neighbour, cost, neighbour, cost...
        self._flat = flat
        self._rows: list[Row | None] = [None] * len(flat)

    @overload
    def __getitem__(self, i: int) -> Row: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Row]: ...

    def __getitem__(self, i: int | slice) -> Row | Sequence[Row]:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(len(self._rows))))
        got = self._rows[i]
        if got is None:
            flat = self._flat[i]
            got = self._rows[i] = tuple(zip(flat[0::2], flat[1::2], strict=True))
        return got

    def __len__(self) -> int:
        return len(self._rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return NotImplemented if not isinstance(other, Sequence) else False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def rows_made(self) -> int:
        """How many rows have been read (and made)."""
        return sum(r is not None for r in self._rows)


class MoveCosts(Shared):
    """A :class:`MoveClass` compiled against one map: every directed step's cost.

    Build once per (map, class) and keep it (engines cache it beside the map); each
    query then only adds what changes per move: allowance, ZOC, occupied hexes.
    """

    #: the common denominator every cost is scaled by
    scale: int
    #: per hex index: (neighbor index, scaled int cost or -1 when prohibited)
    steps: Sequence[Row]

    def __init__(self, hexmap: HexMap, move_class: MoveClass,
                 adjust: Callable[[HexId, HexId, Cost], Cost | None] | None = None, *,
                 adjust_key: bytes | None = None) -> None:
        """``adjust(a, b, cost)`` lets a game amend a step's cost for rules the data
        cannot say; it returns the new cost or ``None`` to forbid the step.

        The compiled costs are kept between commands (:mod:`pbem.datacache`) for a map
        :func:`~engines.hexkit.scenario.parse_map` built, under the map's source, this
        class and ``adjust_key``: compiling was most of loading a game's data (Backhand
        Blow's six tables, 190 ms a command).  With ``adjust``, only when the caller gives
        ``adjust_key``, which must change whenever what ``adjust`` answers could (its
        code and the data it reads): a callable cannot be hashed."""
        self.map = hexmap
        self.move_class = move_class
        self.adjust = adjust
        self._overlaid: dict[tuple[object, ...], MoveCosts] = {}
        key = _cache_key(hexmap, move_class, adjust, adjust_key)
        if key is not None and self._load(key):
            return
        self._compile()
        if key is not None:
            from pbem import datacache

            datacache.store("movecosts", key, [self.scale, [
                [x for step in row for x in step] for row in self.steps]])

    def _load(self, key: bytes) -> bool:
        """The kept compilation under ``key``, if there is one of this map's shape."""
        from pbem import datacache

        kept: Any = datacache.load("movecosts", key)
        # an entry is read only when its payload hashes as written, under a key holding
        # this kit's code: its values are this code's; only its shape is checked here
        try:
            scale, rows = kept  # a miss (None), or not what this code writes: rebuilt
            adjacency = self.map.adjacency
            if type(scale) is not int or scale < 1 or type(rows) is not list or \
                    len(rows) != len(adjacency) or \
                    any(type(r) is not list or len(r) != 2 * len(a)
                        for r, a in zip(rows, adjacency, strict=True)):
                return False
        except (TypeError, ValueError):
            return False
        self.scale = scale
        # each row made when a search first reads it (most are never read in a command)
        self.steps = KeptRows(rows)
        return True

    def _compile(self) -> None:
        hexmap, move_class, adjust = self.map, self.move_class, self.adjust
        ids, adjacency = hexmap.ids, hexmap.adjacency
        from engines.hexkit.pricing import Pricer

        pricer = Pricer.of(hexmap, move_class)
        if pricer is not None:
            self.scale, self.steps = pricer.table(hexmap, adjust)
            return
        step_cost = move_class.step_cost
        raw: list[list[tuple[int, Cost | None]]] = []
        # the costs that are not whole numbers, for the common denominator (most maps
        # have none: every step is then its cost, not scaled)
        parts: list[Cost] = []
        for i, a in enumerate(ids):
            row: list[tuple[int, Cost | None]] = []
            for j in adjacency[i]:
                b = ids[j]
                c = step_cost(hexmap, a, b)
                if c is not None:
                    if adjust is not None:
                        c = adjust(a, b, c)
                    if c is not None:
                        if c < 0:
                            raise ValueError(
                                f"{move_class.name}: negative cost {c} from {a} to {b}")
                        if type(c) is not int:
                            parts.append(c)
                row.append((j, c))
            raw.append(row)
        self.scale = scale = _denominator(parts)
        if not parts:  # every cost an int already: the steps are the costs
            self.steps = tuple(
                tuple((j, -1 if c is None else int(c)) for j, c in row) for row in raw)
            return
        self.steps = tuple(
            tuple((j, -1 if c is None else int(c * scale)) for j, c in row) for row in raw)

    @classmethod
    def of_rows(cls, hexmap: HexMap, move_class: MoveClass, steps: Sequence[Row]) -> MoveCosts:
        """Costs a game priced itself, given compiled: per hex index, ``(neighbour index,
        cost)`` in the map's :attr:`~engines.hexkit.hexmap.HexMap.adjacency` order, every
        cost a whole number of MP (``-1``: prohibited).  For rules that price a whole map
        faster than step by step (For the Motherland! reads each hex's terrain and each
        hexside's features once, not once a step; a new weather's tables were the slowest
        listings of a game, issue 35).  ``move_class`` names them; an :meth:`overlaid`
        view prices the steps its overlay touches by the class's ``step_cost``.  Not
        kept in the data cache: the game keeps them."""
        if len(steps) != len(hexmap.adjacency):
            raise ValueError(f"{move_class.name}: {len(steps)} rows for "
                             f"{len(hexmap.adjacency)} hexes")
        out = object.__new__(cls)
        out.map, out.move_class, out.adjust, out._overlaid = hexmap, move_class, None, {}
        out.scale, out.steps = 1, steps
        return out

    @staticmethod
    def slowest(members: Sequence[MoveCosts]) -> MoveCosts:
        """Costs for a stack moving together: each step costs what its slowest member
        pays, and is barred if barred to any member."""
        if not members:
            raise ValueError("a stack needs at least one member")
        first = members[0]
        if any(m.map is not first.map for m in members):
            raise ValueError("stack members' costs were compiled for different maps")
        scale = math.lcm(*(m.scale for m in members))
        out = object.__new__(MoveCosts)
        out.map = first.map
        out.move_class = MoveClass("+".join(m.move_class.name for m in members), {})
        out.adjust, out._overlaid = None, {}
        out.scale = scale
        steps = []
        for i, row in enumerate(first.steps):
            merged = []
            for k, (j, _) in enumerate(row):
                vals = [m.steps[i][k][1] * (scale // m.scale) for m in members]
                merged.append((j, -1 if min(m.steps[i][k][1] for m in members) < 0
                               else max(vals)))
            steps.append(tuple(merged))
        out.steps = tuple(steps)
        return out

    def overlaid(self, overlay: Overlay) -> MoveCosts:
        """These costs with ``overlay`` applied: only the steps it touches are priced again,
        every other row is shared.  Kept per overlay, so a position fact met again (the
        same weather, the same bridges) costs a lookup."""
        found = self._overlaid.get(overlay.key())
        if found is not None:
            return found
        overlay.check(self.map)
        from engines.hexkit.overlay import OverlaidMap

        view = OverlaidMap(self.map, overlay)
        ids = self.map.ids
        priced: dict[tuple[int, int], Cost | None] = {}
        from engines.hexkit.pricing import Pricer

        pricer = Pricer.of(view, self.move_class)
        step_cost = self.move_class.step_cost if pricer is None else pricer.cost
        for i, j in sorted(overlay.touched(self.map)):
            c = step_cost(view, ids[i], ids[j])
            if c is not None and self.adjust is not None:
                c = self.adjust(ids[i], ids[j], c)
            if c is not None and c < 0:
                raise ValueError(f"{self.move_class.name}: negative cost {c} from {ids[i]} "
                                 f"to {ids[j]}")
            priced[(i, j)] = c
        scale = math.lcm(self.scale, _denominator(priced.values()))
        k = scale // self.scale
        # the rows a priced step leaves (a set, not a scan of every row's steps: a thaw
        # overlay is asked of each class in the first listing of a thaw turn)
        changed = {i for i, _ in priced}
        rows = []
        for i, row in enumerate(self.steps):
            if k == 1 and i not in changed:
                rows.append(row)
                continue
            new_row = []
            for j, c in row:
                if (i, j) in priced:
                    v = priced[(i, j)]
                    new_row.append((j, -1 if v is None else int(v * scale)))
                else:
                    new_row.append((j, c if c < 0 else c * k))
            rows.append(tuple(new_row))
        out = object.__new__(MoveCosts)
        out.map, out.move_class, out.adjust = self.map, self.move_class, self.adjust
        out.scale, out.steps, out._overlaid = scale, tuple(rows), {}
        self._overlaid[overlay.key()] = out
        return out

    def cost(self, a: HexId, b: HexId) -> Cost | None:
        """The compiled cost of one step (no units considered)."""
        i, j = self.map.index[a], self.map.index[b]
        for n, c in self.steps[i]:
            if n == j:
                return None if c < 0 else _unscale(c, self.scale)
        raise ValueError(f"{a} and {b} are not adjacent on the map")


def _rescale(v: Cost, scale: int) -> int:
    if isinstance(v, int):
        return v * scale
    scaled = fraction_type()(v) * scale
    if scaled.denominator != 1:
        raise ValueError(f"a step hook's cost {v} is finer than the class's costs (1/{scale})")
    return int(scaled)


@dataclass(frozen=True)
class Reach(Shared):
    """The result of a movement search from one hex.

    ``cost`` holds every hex the unit can be in along a legal move, with its least
    cost (including hexes it may pass but not stop in); ``ends`` the hexes it may end
    in (sorted, start excluded); ``prev`` the chosen predecessor for :meth:`path_to`.
    """

    start: HexId
    cost: Mapping[HexId, Cost]
    prev: Mapping[HexId, HexId]
    ends: tuple[HexId, ...]
    #: hexes where movement must stop (entered an enemy ZOC, the one-hex minimum move)
    stops: frozenset[HexId]

    def path_to(self, h: HexId) -> list[HexId]:
        if h not in self.cost:
            raise KeyError(f"{h} is not reachable from {self.start}")
        path = [h]
        while path[-1] != self.start:
            path.append(self.prev[path[-1]])
        path.reverse()
        return path


#: the hex indices of recent ZOCs, by the ZOC (a game lists every unit's moves against the
#: same enemy ZOC): with the index they were taken from, which a hit must be
_ZOC_INDICES: dict[tuple[int, frozenset[HexId]], tuple[object, frozenset[int]]] = {}


def _zoc_indices(index: Mapping[HexId, int], zset: frozenset[HexId]) -> frozenset[int]:
    if not zset:
        return frozenset()
    key = (id(index), zset)
    hit = _ZOC_INDICES.get(key)
    if hit is not None and hit[0] is index:
        return hit[1]
    found = frozenset(index[h] for h in zset if h in index)
    if len(_ZOC_INDICES) >= 64:
        _ZOC_INDICES.clear()
    _ZOC_INDICES[key] = (index, found)
    return found


def _as_set(x: Iterable[HexId] | None) -> frozenset[HexId]:
    return frozenset(x) if x is not None else frozenset()


def reachable(
    costs: MoveCosts | StepCosts,
    start: HexId,
    allowance: Cost,
    *,
    zoc: Iterable[HexId] | None = None,
    policy: ZocPolicy | None = None,
    blocked: Iterable[HexId] | Callable[[HexId], bool] | None = None,
    can_end: Callable[[HexId], bool] | None = None,
    min_one_hex: bool = False,
    goal: HexId | None = None,
    hook: StepHook | None = None,
) -> Reach:
    """Dijkstra from ``start`` spending at most ``allowance``.

    ``zoc`` is the set of hexes in enemy ZOC and ``policy`` what they do (none:
    :data:`~engines.hexkit.zoc.IGNORE_ZOC`).  ``blocked``
    hexes may not be entered (enemy units).  ``can_end`` is the game's stacking check:
    a hex failing it may be passed through but not ended in (White Death Rule 4).
    ``min_one_hex`` is "a unit may always move one hex" (For the Motherland! 5.1.3):
    an adjacent hex the unit could enter but cannot afford is reachable for the whole
    allowance, and the move ends there.  With ``goal`` the search stops once the goal's
    cost is final.  ``hook`` is a rule on steps out of some hexes that depends on where
    the path came from (see :class:`~engines.hexkit.overlay.StepHook`).
    """
    if policy is None:  # ZOC ignored: the policy module loads with the first search
        from engines.hexkit.zoc import IGNORE_ZOC

        policy = IGNORE_ZOC
    hexmap = costs.map
    ids, index = hexmap.ids, hexmap.index
    if start not in index:
        raise KeyError(f"{start} is not on the map")
    zset = _as_set(zoc)
    if callable(blocked):
        is_blocked = blocked
    else:
        bset = _as_set(blocked)
        is_blocked = bset.__contains__
    scale = math.lcm(costs.scale, _denominator([allowance, policy.exit_cost]))
    k = scale // costs.scale
    budget = _rescale(allowance, scale)
    exit_extra = _rescale(policy.exit_cost, scale)
    # the ZOC's hexes by index: a list as long as the map, made for every search, cost
    # more than a short search itself (issue 35 item 5)
    zoc_set = _zoc_indices(index, zset)

    s = index[start]
    best: dict[int, int] = {s: 0}
    prev: dict[int, int] = {}
    stops: set[int] = set()
    # (cost, hex index): the map's indices follow its sorted ids (HexMap.ids), so ties
    # pop in hex id order as (cost, id) would, without an id read and compared a step
    heap: list[tuple[int, int]] = [(0, s)]
    done: set[int] = set()
    goal_i = index.get(goal) if goal is not None else None
    # the loop runs for every step out of every hex reached (most of a listing's time on
    # a map of thousands of hexes): what it reads is bound here once (issue 35 item 5)
    pop, push, get_best, steps = heapq.heappop, heapq.heappush, best.get, costs.steps
    may_enter, zoc_to_zoc = policy.may_enter, policy.zoc_to_zoc
    stop_on_entry = policy.stop_on_entry
    while heap:
        c, i = pop(heap)
        if i in done or c != best[i]:
            continue
        done.add(i)
        if i == goal_i:
            break
        if i in stops and i != s:
            continue
        here_zoc = i in zoc_set
        hooked = hook is not None and ids[i] in hook.hexes
        extra = exit_extra if here_zoc else 0
        for j, step in steps[i]:
            if step < 0:
                continue
            if hooked:
                assert hook is not None
                came = ids[prev[i]] if i in prev else hook.start_from
                amended = hook.check(came, ids[i], ids[j], _unscale(step, costs.scale))
                if amended is None:
                    continue
                step = _rescale(amended, costs.scale)
            if j in zoc_set:
                if not may_enter or (here_zoc and not zoc_to_zoc):
                    continue
                stop = stop_on_entry
            else:
                stop = False
            nc = c + step * k + extra
            if nc > budget:
                if not (min_one_hex and i == s):
                    continue
                nc, stop = budget, True
            old = get_best(j)
            # a hex with a cost was entered before, so it is not blocked (or it is the
            # start, which a step never improves on): ``blocked`` is asked once a hex
            # met within the allowance, not once a step into it (a search looks at each
            # hex from up to six sides; Backhand Blow's 15.0 check asks a closure).  A
            # tie goes to the predecessor of lower index, which is of lower id
            if old is None:
                if is_blocked(ids[j]):
                    continue
            elif not (nc < old or (nc == old and j != s and i < prev[j])):
                continue
            best[j] = nc
            prev[j] = i
            if stop:
                stops.add(j)
            elif j in stops:
                stops.discard(j)
            if j not in done:
                push(heap, (nc, j))
    # with a goal, the hexes whose cost is final: the cost, the predecessors and the stops
    # of those alone (a finished hex's predecessor is finished), not of every hex met on
    # the way (a received move's check reads only whether its goal is among the ends,
    # and made the tables of the hexes around it: issue 35)
    if goal_i is not None:
        stops &= done
    # in hex order, which is index order; C's own calls where it can: a search's result
    # was as dear as its search on a short move
    order = sorted(best if goal_i is None else done)
    cost: dict[HexId, Cost]
    if scale == 1:  # every cost a whole number of MP, as _unscale gives it
        cost = {ids[i]: best[i] for i in order}
    else:
        cost = {ids[i]: _unscale(best[i], scale) for i in order}
    ends = tuple([h for h in cost if h != start and (can_end is None or can_end(h))])
    return Reach(
        start,
        MappingProxyType(cost),
        MappingProxyType({ids[j]: ids[prev[j]] for j in order if j != s}),
        ends,
        frozenset([ids[i] for i in stops]),
    )


def crossings(hexmap: HexMap, path: Sequence[HexId], features: Iterable[str]) -> list[Hexside]:
    """The hexsides along ``path`` that carry any of ``features``, in path order.

    For rules that act per hexside crossed: White Death Rule 13 (one ice roll per AFV
    per lake hexside), For the Motherland! 8.6.3 (a step lost retreating across a river).
    """
    wanted = frozenset(features)
    out: list[Hexside] = []
    for a, b in itertools.pairwise(path):
        side = hexside(a, b)
        if wanted & hexmap.hexsides.get(side, frozenset()):
            out.append(side)
    return out


#: per costs table, the least cost of any step in it (a bound for :func:`reaches`), with
#: the table it was read from, which a hit must be
_LEAST_STEP: dict[int, tuple[object, int]] = {}
#: per map, each hex index's cube position (q, r), with the map, which a hit must be
_CUBES: dict[int, tuple[object, tuple[tuple[int, int], ...]]] = {}


def _least_step(costs: MoveCosts | StepCosts) -> int:
    """The least scaled cost of a step ``costs`` allows (0 when it cannot tell cheaply: a
    table computed per hex on demand is not read whole for a bound)."""
    hit = _LEAST_STEP.get(id(costs))
    if hit is not None and hit[0] is costs:
        return hit[1]
    if not isinstance(costs, MoveCosts):
        return 0
    least = min((c for row in costs.steps for _, c in row if c >= 0), default=0)
    if len(_LEAST_STEP) >= 64:
        _LEAST_STEP.clear()
    _LEAST_STEP[id(costs)] = (costs, least)
    return least


def _cubes(hexmap: HexMap) -> tuple[tuple[int, int], ...]:
    hit = _CUBES.get(id(hexmap))
    if hit is not None and hit[0] is hexmap:
        return hit[1]
    to_cube = hexmap.grid.to_cube
    found = tuple((c.q, c.r) for c in map(to_cube, hexmap.ids))
    if len(_CUBES) >= 16:
        _CUBES.clear()
    _CUBES[id(hexmap)] = (hexmap, found)
    return found


def reaches(
    costs: MoveCosts | StepCosts,
    start: HexId,
    allowance: Cost,
    goal: HexId,
    *,
    zoc: Iterable[HexId] | None = None,
    policy: ZocPolicy | None = None,
    blocked: Iterable[HexId] | None = None,
) -> bool:
    """Whether ``goal`` is among the hexes :func:`reachable` finds from ``start`` with
    the same arguments (``cost``'s keys; ``False`` for ``start`` itself, which is no
    move): the one answer a check of one move needs.

    The same search, steered towards ``goal``: a hex is taken in the order of its cost
    so far plus the least any path from it to ``goal`` could cost (its distance times the
    table's cheapest step, never more than the real cost), and a hex whose bound is over
    the allowance is never taken.  That bound never overstates, so the goal is reached
    exactly when the whole search reaches it, after a fraction of its hexes: a move's
    check searched every hex cheaper than its goal, in every direction (issue 35)."""
    if policy is None:  # ZOC ignored: the policy module loads with the first search
        from engines.hexkit.zoc import IGNORE_ZOC

        policy = IGNORE_ZOC
    hexmap = costs.map
    index = hexmap.index
    if start not in index:
        raise KeyError(f"{start} is not on the map")
    if goal == start or goal not in index:
        return False
    zset = _as_set(zoc)
    is_blocked = _as_set(blocked).__contains__
    scale = math.lcm(costs.scale, _denominator([allowance, policy.exit_cost]))
    k = scale // costs.scale
    budget = _rescale(allowance, scale)
    exit_extra = _rescale(policy.exit_cost, scale)
    zoc_set = _zoc_indices(index, zset)
    least = _least_step(costs) * k
    cubes = _cubes(hexmap)
    g = index[goal]
    gq, gr = cubes[g]

    def bound(j: int) -> int:
        q, r = cubes[j]
        dq, dr = q - gq, r - gr
        return least * ((abs(dq) + abs(dr) + abs(dq + dr)) // 2)

    ids, steps = hexmap.ids, costs.steps
    may_enter, zoc_to_zoc = policy.may_enter, policy.zoc_to_zoc
    stop_on_entry = policy.stop_on_entry
    s = index[start]
    if bound(s) > budget:
        return False
    best: dict[int, int] = {s: 0}
    done: set[int] = set()
    heap: list[tuple[int, int, int]] = [(bound(s), 0, s)]
    pop, push, get_best = heapq.heappop, heapq.heappush, best.get
    while heap:
        _, c, i = pop(heap)
        if i in done or c != get_best(i):
            continue
        if i == g:
            return True
        done.add(i)
        # a hex entered in an enemy ZOC under stop_on_entry is left by no path
        here_zoc = i in zoc_set
        if i != s and here_zoc and stop_on_entry:
            continue
        extra = exit_extra if here_zoc else 0
        for j, step in steps[i]:
            if step < 0:
                continue
            there_zoc = j in zoc_set
            if there_zoc and not may_enter:
                continue
            if here_zoc and there_zoc and not zoc_to_zoc:
                continue
            if is_blocked(ids[j]):
                continue
            nc = c + step * k + extra
            if nc > budget:
                continue
            old = get_best(j)
            if (old is None or nc < old) and j not in done:
                f = nc + bound(j)
                if f <= budget:
                    best[j] = nc
                    push(heap, (f, nc, j))
    return False
