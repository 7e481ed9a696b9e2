"""Board facts of one placement of the units: who is where, stacks, ZOCs, supply floods.

Every engine asks the same questions of a position many times between two moves (each
unit's listed moves reads the enemy's ZOC; each supply check floods from the same
edge), and each had kept its own cache of the answers with its own key and its own
return type.  Here the key is the placement itself, an ordered tuple of
:class:`Placed` (unit, hex, side and whatever else the engine's rules read of a unit,
such as its steps), and a :class:`BoardFacts` answers for exactly that placement:

* occupancy and stacks, per side or for everyone (:meth:`BoardFacts.stacks`,
  :meth:`~BoardFacts.at`, :meth:`~BoardFacts.occupied`);
* a side's ZOC under the game's :class:`ZocRule` (which units exert one, whether a stack
  must be big enough, what a ZOC does not reach across), as the kit's
  :class:`~engines.hexkit.zoc.ZocMap` (hexes, and the units exerting each);
* a side's supply flood under the game's :class:`RegionFlood` (through
  :func:`~engines.hexkit.graph.region`: distances from sources) or
  :class:`SpreadFlood` (through :func:`~engines.hexkit.graph.spread`: budget left).

Each answer is computed once per placement and rule (a side's ZOC once per placement of
that side's units: the other side's moves do not touch it).  A placement that changes is
a new key: :func:`board_facts` hands out a fresh :class:`BoardFacts` with nothing computed,
and keeps the last few placements' facts so a position met again (a take-back, the
same position reached by both players' programs) costs a lookup.

A rule is part of the key by identity for its functions, so build each rule once (a
module constant, or one per fact outside the placement it depends on, such as
demolished bridges) rather than per call.  Everything a rule's functions read must be
in the placement or fixed with the rule: the memo cannot see anything else.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Collection,
    Container,
    Hashable,
    Iterable,
    Mapping,
    Sequence,
)
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar

from engines.hexkit.hexid import FrozenRecord, HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.shared import Shared
from pbem.memo import Memo

if TYPE_CHECKING:  # the searches load with the first ZOC or flood asked (issue 35)
    from engines.hexkit.zoc import ZocMap

T = TypeVar("T")


if TYPE_CHECKING:
    class _PlacedFields(NamedTuple):
        unit: str
        hex: HexId
        side: str
        mark: Hashable = None
else:
    from _collections import _tuplegetter

    from engines.hexkit.geometry import FieldTuple

    # not collections.namedtuple (its __new__ compiled by eval at each import) nor
    # typing.NamedTuple's class form (each string annotation compiled), as
    # engines.hexkit.geometry.Cube (issue 35)
    class _PlacedFields(FieldTuple):
        __slots__ = ()
        _fields = __match_args__ = ("unit", "hex", "side", "mark")
        _field_defaults: ClassVar[dict[str, Any]] = {"mark": None}

        def __new__(cls, unit, hex, side, mark=None):
            return tuple.__new__(cls, (unit, hex, side, mark))

        # namedtuple's own field getters, in C
        unit = _tuplegetter(0, "Alias for field number 0")
        hex = _tuplegetter(1, "Alias for field number 1")
        side = _tuplegetter(2, "Alias for field number 2")
        mark = _tuplegetter(3, "Alias for field number 3")


class Placed(_PlacedFields):
    """One unit on the map: its id, hex and side, and ``mark``: what else the engine's
    ZOC or flood rules read of it (48th Panzer Korps 5: its steps and whether it has
    retreated), so that a change to it is a change of placement."""

    __slots__ = ()


Placement = tuple[Placed, ...]


class ZocRule(FrozenRecord):
    """Which of a side's units exert a ZOC and where it reaches.

    ``exerts(unit)`` picks the units that exert one (For the Motherland! 4.1: by type;
    White Death Rule 3: ski units only, for 3.B).  Where it depends on the unit's stack,
    ``stack(units)`` is given each hex's units of the side (in id order) and returns those
    of them that exert one (48th Panzer Korps 5: every unit not retreated, when they
    make three or more steps; White Death Rule 3: not a German weapons company alone);
    with both, a unit exerts one when both say so.  ``blocking_sides`` and
    ``blocks(unit_hex, neighbour)`` are
    :func:`~engines.hexkit.zoc.zoc_map`'s (For the Motherland! 4.1: not across sea or
    lake hexsides; Backhand Blow 6.0: not into a city is ``blocks=lambda a, b: b in
    cities``).
    """

    exerts: Callable[[Placed], bool] | None
    stack: Callable[[tuple[Placed, ...]], Iterable[Placed]] | None
    blocking_sides: frozenset[str]
    blocks: Callable[[HexId, HexId], bool] | None
    include_own_hex: bool
    _fields = __match_args__ = ("exerts", "stack", "blocking_sides", "blocks",
                                "include_own_hex")

    def __init__(self, exerts: Callable[[Placed], bool] | None = None,
                 stack: Callable[[tuple[Placed, ...]], Iterable[Placed]] | None = None,
                 blocking_sides: frozenset[str] = frozenset(),
                 blocks: Callable[[HexId, HexId], bool] | None = None,
                 include_own_hex: bool = False) -> None:
        d = self.__dict__
        d["exerts"], d["stack"], d["blocking_sides"] = exerts, stack, blocking_sides
        d["blocks"], d["include_own_hex"] = blocks, include_own_hex

    # the hash of the fields, made once: a rule is in the key of every ZOC asked and
    # kept (hundreds a replay), and a dataclass's generated __hash__ built and hashed
    # the tuple of the fields at each (3 K instructions, issue 35)
    def __hash__(self) -> int:
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash(self._values())
            object.__setattr__(self, "_hash", found)
        return found



#: every unit exerts a ZOC into all six hexes around it
ALL_EXERT = ZocRule()


class RegionFlood(FrozenRecord):
    """A flood counted in hexes from sources through what a side may pass.

    ``sources(facts, side)`` are where it starts (White Death 15.C: the side's friendly
    map edge), ``passable(facts, side, hex)`` what it may enter (free of enemy units and
    of enemy ZOC); ``networks`` and ``max_steps`` are
    :func:`~engines.hexkit.graph.region`'s; ``enterable(facts, side)``, where given, is
    the set of the hexes it may enter, in place of asking ``passable`` of each.  The
    answer is every hex reached with its distance from the nearest source, in hex order.
    """

    sources: Callable[[BoardFacts, str], Iterable[HexId]]
    passable: Callable[[BoardFacts, str, HexId], bool] | None
    networks: tuple[str, ...] | None
    max_steps: int | None
    #: in place of ``passable``: every hex it may enter, as one set made for the flood
    #: (a flood of a big map asks thousands of hexes: a set's lookup costs a fraction
    #: of a call for each)
    enterable: Callable[[BoardFacts, str], Container[HexId]] | None
    _fields = __match_args__ = ("sources", "passable", "networks", "max_steps", "enterable")
    # told apart by identity, as their dataclass (eq=False) was
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(self, sources: Callable[[BoardFacts, str], Iterable[HexId]],
                 passable: Callable[[BoardFacts, str, HexId], bool] | None = None,
                 networks: tuple[str, ...] | None = None, max_steps: int | None = None,
                 enterable: Callable[[BoardFacts, str], Container[HexId]] | None = None
                 ) -> None:
        d = self.__dict__
        d["sources"], d["passable"], d["networks"] = sources, passable, networks
        d["max_steps"], d["enterable"] = max_steps, enterable


class SpreadFlood(FrozenRecord):
    """A flood of supply lines of a length in hexes from several sources at once.

    ``budgets(facts, side)`` gives each source its length (For the Motherland! 9.2: four
    hexes from a supply source), ``blocked(facts, side)`` the hexes a line may not enter
    (enemy units, enemy ZOC), ``neighbors`` the game's own adjacency table (land hexes
    only): :func:`~engines.hexkit.graph.spread`'s.  The answer is every hex reached
    with the most length left on reaching it, in hex order.  Flood rules are told
    apart by identity (a table cannot be hashed).
    """

    budgets: Callable[[BoardFacts, str], Mapping[HexId, int]]
    neighbors: Mapping[HexId, Sequence[HexId]]
    blocked: Callable[[BoardFacts, str], Collection[HexId]] | None
    _fields = __match_args__ = ("budgets", "neighbors", "blocked")
    # told apart by identity, as their dataclass (eq=False) was
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(self, budgets: Callable[[BoardFacts, str], Mapping[HexId, int]],
                 neighbors: Mapping[HexId, Sequence[HexId]],
                 blocked: Callable[[BoardFacts, str], Collection[HexId]] | None = None
                 ) -> None:
        d = self.__dict__
        d["budgets"], d["neighbors"], d["blocked"] = budgets, neighbors, blocked


Flood = RegionFlood | SpreadFlood


class BoardFacts(Shared):
    """The facts of one placement of the units on one map, each computed once.

    Build it with :func:`board_facts` (which reuses the facts of a placement met
    recently) or directly for a placement used once.  It never changes: a unit that
    moves makes a new placement, and so a new :class:`BoardFacts`.
    """

    __slots__ = ("_by_unit", "_found", "map", "placement")

    def __init__(self, hexmap: HexMap, placement: Iterable[Placed]) -> None:
        self.map = hexmap
        self.placement: Placement = tuple(sorted(placement, key=_unit_of))
        by_unit: dict[str, Placed] = {}
        # the map's hexes themselves, not its index (the same hexes): a placement checked
        # need not make the index of the whole map (issue 35)
        on_map = hexmap.terrain
        for p in self.placement:
            if p.unit in by_unit:
                raise ValueError(f"unit {p.unit!r} is placed twice: at {by_unit[p.unit].hex} "
                                 f"and at {p.hex}")
            if p.hex not in on_map:
                raise ValueError(f"unit {p.unit!r} is placed at {p.hex!r}, which is not on "
                                 f"the map {hexmap.title!r}")
            by_unit[p.unit] = p
        self._by_unit: MappingProxyType[str, Placed] = MappingProxyType(by_unit)
        self._found: dict[tuple[Any, ...], Any] = {}

    def changed(self, placed: Iterable[Placed], gone: Iterable[str] = ()) -> BoardFacts:
        """The facts of this placement with the units of ``placed`` where those say (put
        on the map or moved) and the units ``gone`` off the map: what
        ``BoardFacts(map, new placement)`` is, and each side's units and stacks already
        found here carried over with only the changed units changed, not found again
        from every unit (issue 35: a game that makes new facts after every move, as
        Backhand Blow's does, found each side's stacks anew from every unit each time).
        A side none of whose units changed keeps its ZOC as found here, since a side's
        ZOC is a function of that side's units alone (the rule's contract).
        A unit placed twice or off the map is refused as the constructor refuses it."""
        moved: dict[str, Placed] = {}
        for p in placed:
            if p.unit in moved:
                raise ValueError(f"unit {p.unit!r} is placed twice: at {moved[p.unit].hex} "
                                 f"and at {p.hex}")
            moved[p.unit] = p
        before = self._by_unit
        on_map = self.map.terrain
        # each side's changes, (old, new) with None for off the map or of another side;
        # their order does not matter, each unit changing once
        sides: dict[str, list[_Change]] = {}
        changes: list[_Change] = []
        arrived = False
        for u in sorted(set(gone)) if gone else ():
            if u in moved:
                raise ValueError(f"unit {u!r} is both placed and taken off the map")
            old = before.get(u)
            if old is not None:
                changes.append((old, None))
                sides.setdefault(old.side, []).append((old, None))
        for u, p in sorted(moved.items()) if len(moved) > 1 else moved.items():
            if p.hex not in on_map:
                raise ValueError(f"unit {p.unit!r} is placed at {p.hex!r}, which is not on "
                                 f"the map {self.map.title!r}")
            old = before.get(u)
            if old == p:
                continue
            changes.append((old, p))
            if old is None:
                arrived = True
                sides.setdefault(p.side, []).append((None, p))
            elif old.side == p.side:
                sides.setdefault(p.side, []).append((old, p))
            else:
                sides.setdefault(old.side, []).append((old, None))
                sides.setdefault(p.side, []).append((None, p))
        if not changes:
            return self
        # a copy of the proxy's dict (its copy()), not dict() of the proxy, which reads it
        # key by key through the mapping protocol: ten times the cost (issue 35)
        by_unit = before.copy()
        for old, new in changes:
            if new is None:
                del by_unit[old.unit]  # type: ignore[union-attr]
            else:
                by_unit[new.unit] = new
        if arrived:  # a unit new to the map: in id order
            by_unit = dict(sorted(by_unit.items()))
        out = object.__new__(BoardFacts)
        out.map = self.map
        out.placement = tuple(by_unit.values())
        out._by_unit = MappingProxyType(by_unit)
        found: dict[tuple[Any, ...], Any] = {}
        out._found = found
        # everyone's stacks too (48th Panzer Korps' control, 10, reads them after every
        # step of a move); everyone's units are the placement itself, never kept; a
        # side's ZOC and its hexes only while none of its units changed; floods and the
        # occupied hexes are found again
        for key, kept in self._found.items():
            kind = key[0]
            if kind == "stacks":
                side = key[1]
                mine = changes if side is None else sides.get(side)
                if mine:
                    kept = _stacks_changed(kept, mine)
                    if kept is None:
                        continue
            elif kind == "units":
                mine = sides.get(key[1])
                if mine:
                    kept = _units_changed(kept, mine)
                    if kept is None:
                        continue
            elif kind == "zoc" or kind == "zoc-hexes" or kind == "zoc-set":
                if key[1] in sides:
                    continue
            else:
                continue
            found[key] = kept
        return out

    def _once(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        if key not in self._found:
            self._found[key] = make()
        found: T = self._found[key]
        return found

    # -- who is where ----------------------------------------------------------------

    def units(self, side: str | None = None) -> Placement:
        """The units placed (of ``side``, else all), in unit id order."""
        if side is None:
            return self.placement
        return self._once(("units", side),
                          lambda: tuple(p for p in self.placement if p.side == side))

    def placed(self, unit: str) -> Placed | None:
        """Where ``unit`` is, or ``None`` when it is not on the map."""
        return self._by_unit.get(unit)

    def stacks(self, side: str | None = None) -> Mapping[HexId, tuple[str, ...]]:
        """Every hex holding units (of ``side``, else of anyone), in hex order, with its
        units in id order."""
        # found by its key first, with no maker made for it: a rule asks the stacks a
        # thousand times a game's replay for every time they are new (48th Panzer
        # Korps' moves, issue 35: a closure and a call each were 3.6 M instructions of
        # its first-day audit)
        key = ("stacks", side)
        found: Mapping[HexId, tuple[str, ...]] | None = self._found.get(key)
        if found is None:
            acc: dict[HexId, list[str]] = {}
            for p in self.units(side):
                acc.setdefault(p.hex, []).append(p.unit)
            found = self._found[key] = MappingProxyType(
                {h: tuple(us) for h, us in sorted(acc.items())})
        return found

    def at(self, h: HexId, side: str | None = None) -> tuple[str, ...]:
        """The units in ``h`` (of ``side``, else of anyone), in id order."""
        return self.stacks(side).get(h, ())

    def occupied(self, side: str | None = None) -> frozenset[HexId]:
        """The hexes holding at least one unit (of ``side``, else of anyone)."""
        return self._once(("occupied", side), lambda: frozenset(self.stacks(side)))

    def sides_at(self, h: HexId) -> tuple[str, ...]:
        """The sides with units in ``h``, sorted."""
        return tuple(sorted({self._by_unit[u].side for u in self.at(h)}))

    # -- zones of control and floods -------------------------------------------------

    def zoc(self, side: str, rule: ZocRule = ALL_EXERT) -> ZocMap:
        """The ZOC ``side``'s units exert under ``rule``: its hexes and, for each, the
        units exerting it (sorted)."""
        key = ("zoc", side, rule)  # found by its key first, as the stacks are
        found: ZocMap | None = self._found.get(key)
        if found is None:
            found = self._found[key] = self._side_zoc(side, rule)
        return found

    def _side_zoc(self, side: str, rule: ZocRule) -> ZocMap:
        # a side's ZOC is a function of that side's units alone: kept across the other
        # side's moves, which make new placements (each unit's listed moves while the
        # enemy stands still reads the same enemy ZOC)
        key = (id(self.map), side, self.units(side), rule)
        kept = _SIDE_ZOCS.get(key, lambda: (self.map, self._zoc(side, rule)))
        return kept[1] if kept[0] is self.map else self._zoc(side, rule)

    def in_zoc(self, side: str, h: HexId, rule: ZocRule = ALL_EXERT) -> bool:
        """Whether ``h`` is in :meth:`zoc` of ``side`` under ``rule``, asked of that hex
        alone: a rule that reads a few hexes after every move (48th Panzer Korps 10: the
        control of towns and bridges) need not map every hex the moving side controls,
        at each of its steps."""
        known = self._found.get(("zoc", side, rule))
        if known is not None or rule.blocking_sides or rule.blocks is not None:
            return h in (known if known is not None else self.zoc(side, rule))
        hexes = self._once(("zoc-hexes", side, rule), lambda: self._side_zoc_hexes(side, rule))
        if rule.include_own_hex and h in hexes:
            return True
        i = self.map.index.get(h)
        if i is None:
            return False
        # adjacency is symmetric (the six directions and their opposites): h is around
        # an exerting unit exactly when one stands around h
        ids = self.map.ids
        return any(ids[j] in hexes for j in self.map.adjacency[i])

    def zoc_hexes(self, side: str, rule: ZocRule = ALL_EXERT) -> frozenset[HexId]:
        """The hexes of :meth:`zoc` of ``side`` under ``rule``, without the units exerting
        it in each: for a rule that asks :meth:`in_zoc` of the same few hexes after
        every step of a move (48th Panzer Korps 10: the towns and bridges, both sides),
        one set made from the exerting units' hexes and kept across the other side's
        moves, as :meth:`zoc` is."""
        known = self._found.get(("zoc", side, rule))
        if known is not None or rule.blocking_sides or rule.blocks is not None:
            return self.zoc(side, rule).hexes
        return self._once(("zoc-set", side, rule), lambda: self._side_zoc_set(side, rule))

    def _side_zoc_set(self, side: str, rule: ZocRule) -> frozenset[HexId]:
        key = (id(self.map), side, self.units(side), rule)
        kept = _SIDE_ZOC_SETS.get(key, lambda: (self.map, self._zoc_set(side, rule)))
        return kept[1] if kept[0] is self.map else self._zoc_set(side, rule)

    def _zoc_set(self, side: str, rule: ZocRule) -> frozenset[HexId]:
        # in_zoc's reading, for every hex at once: around an exerting unit's hex (and
        # that hex, with include_own_hex), on the map
        sources = self._side_zoc_hexes(side, rule)
        # by each source's neighbours (read off the map's table once it has one, else
        # worked out from the hex's number): a command that asks nothing else of the
        # map's neighbours than a side's ZOC and a few hexes' (White Death's isolation
        # check of a fire, Rule 15.C) need not make the whole map's index and table for
        # the units' few dozen hexes, 3.8 M instructions on its 1,700 hexes (issue 35)
        neighbors = self.map.neighbors
        around = {n for h in sources for n in neighbors(h)}
        if rule.include_own_hex:
            around |= sources
        return frozenset(around)

    def _side_zoc_hexes(self, side: str, rule: ZocRule) -> frozenset[HexId]:
        # kept across the other side's moves, as _side_zoc's maps are
        key = (id(self.map), side, self.units(side), rule)
        kept = _SIDE_ZOC_HEXES.get(key, lambda: (self.map, frozenset(
            p.hex for p in self._exerting(side, rule))))
        return kept[1] if kept[0] is self.map else frozenset(
            p.hex for p in self._exerting(side, rule))

    def _exerting(self, side: str, rule: ZocRule) -> Iterable[Placed]:
        exerting: Iterable[Placed] = self.units(side)
        if rule.stack is not None:
            stack = rule.stack
            stacks: dict[HexId, list[Placed]] = {}
            for p in exerting:
                stacks.setdefault(p.hex, []).append(p)
            picked: set[Placed] = set()
            for h, ps in sorted(stacks.items()):
                for p in stack(tuple(ps)):
                    if p.hex != h or self._by_unit.get(p.unit) != p:
                        raise ValueError(f"a ZOC rule's stack test gave {p.unit!r} at {p.hex}, "
                                         f"not one of the units in {h}")
                    picked.add(p)
            exerting = sorted(picked, key=_unit_of)
        if rule.exerts is not None:
            exerting = [p for p in exerting if rule.exerts(p)]
        return exerting

    def _zoc(self, side: str, rule: ZocRule) -> ZocMap:
        from engines.hexkit.zoc import zoc_map

        exerting = self._exerting(side, rule)
        return zoc_map(self.map, [(p.unit, p.hex) for p in exerting],
                       blocking_sides=sorted(rule.blocking_sides), blocks=rule.blocks,
                       include_own_hex=rule.include_own_hex)

    def flood(self, side: str, rule: Flood) -> Mapping[HexId, int]:
        """``side``'s flood under ``rule`` (see :class:`RegionFlood`, :class:`SpreadFlood`
        for what the numbers mean), in hex order."""
        return self._once(("flood", side, rule), lambda: self._flood(side, rule))

    def _flood(self, side: str, rule: Flood) -> Mapping[HexId, int]:
        from engines.hexkit.graph import region, spread

        if isinstance(rule, SpreadFlood):
            blocked = rule.blocked(self, side) if rule.blocked is not None else frozenset()
            found = spread(rule.neighbors, rule.budgets(self, side), blocked=blocked)
            return MappingProxyType(dict(sorted(found.items())))
        passable = rule.passable
        ok: Callable[[HexId], bool] | Container[HexId] | None = (
            None if passable is None else (lambda h: passable(self, side, h)))
        if rule.enterable is not None:
            ok = rule.enterable(self, side)
        return MappingProxyType(region(self.map, rule.sources(self, side), passable=ok,
                                       networks=rule.networks, max_steps=rule.max_steps))


def take_nearest(frontier: dict[int, list[HexId]]) -> HexId:
    """The least item of the least distance in a search's frontier (its items by their
    distance), taken out of it: the item a heap of (distance, item) pairs pops first, so
    a search visits the same hexes in the same order, without heapq, whose load (its C
    module's with it) was 0.7-1 M instructions of an act or a receive (issue 35: White
    Death's isolation trace, 15.C; Backhand Blow's front marker trace, 14.1, and its
    clear region, 15.1 (1))."""
    low = min(frontier)
    bucket = frontier[low]
    x = min(bucket)
    if len(bucket) == 1:
        del frontier[low]
    else:
        bucket.remove(x)
    return x


def _unit_of(p: Placed) -> str:
    return p.unit


_Change = tuple["Placed | None", "Placed | None"]


def _units_changed(units: Placement, changes: list[_Change]) -> Placement | None:
    """A side's units (in id order) with each change's old placement taken out and its
    new one put in (:meth:`BoardFacts.changed`); ``None`` when they do not hold an old
    one (then found again from every unit)."""
    out = list(units)
    for old, new in changes:
        if old is not None:
            # found by equality in C, not by a bisection in Python: a side's few dozen
            # units (issue 35)
            try:
                i = out.index(old)
            except ValueError:
                return None
            if new is not None:  # the same unit (a change is of one unit): in its place
                out[i] = new
                continue
            del out[i]
        if new is not None:
            out.insert(_where(out, new.unit), new)
    return tuple(out)


def _where(units: list[Placed], unit: str) -> int:
    """Where ``unit`` is or would go in ``units`` (in id order): ``bisect_left`` by the
    unit, without loading the bisect module (0.75 M instructions) for a few changes."""
    lo, hi = 0, len(units)
    while lo < hi:
        mid = (lo + hi) // 2
        if units[mid][0] < unit:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _stacks_changed(stacks: MappingProxyType[HexId, tuple[str, ...]], changes: list[_Change]
                    ) -> MappingProxyType[HexId, tuple[str, ...]] | None:
    """A side's stacks (hexes in order, each hex's units in id order) with each change
    made (:meth:`BoardFacts.changed`); ``None`` when they do not hold an old unit."""
    acc: dict[HexId, tuple[str, ...]] | None = None
    added = False
    for old, new in changes:
        if old is not None:
            here = (stacks if acc is None else acc).get(old.hex, ())
            if old.unit not in here:
                return None
            if new is not None and new.hex == old.hex:
                continue  # its steps or retreat changed, not its hex (48th Panzer Korps 5)
            if acc is None:
                acc = stacks.copy()  # the dict's own copy, as BoardFacts.changed's
            if len(here) == 1:
                del acc[old.hex]
            else:
                acc[old.hex] = tuple(u for u in here if u != old.unit)
        if new is not None:
            if acc is None:
                acc = stacks.copy()
            there = acc.get(new.hex)
            if there is None:
                added = True
                acc[new.hex] = (new.unit,)
            else:
                acc[new.hex] = tuple(sorted((*there, new.unit)))
    if acc is None:  # no unit changed hex
        return stacks
    if added:
        # the hexes in order, each with its units: a dict of the sorted hexes updated
        # from the dict, no (hex, units) pair compared or made
        ordered: dict[HexId, tuple[str, ...]] = dict.fromkeys(sorted(acc), ())
        ordered.update(acc)
        acc = ordered
    return MappingProxyType(acc)


#: the facts of recent placements, by map and placement: with the map they were taken
#: on, which a hit must be (an id can be reused once a map is gone)
_RECENT: Memo[tuple[int, Placement], BoardFacts] = Memo(64)


#: sides' ZOCs, by map, side, that side's units and the rule: with the map they were
#: taken on, which a hit must be
_SIDE_ZOCS: Memo[tuple[int, str, Placement, ZocRule], tuple[HexMap, ZocMap]] = Memo(256)


#: the hexes of sides' units exerting a ZOC (BoardFacts.in_zoc), keyed as _SIDE_ZOCS
_SIDE_ZOC_HEXES: Memo[tuple[int, str, Placement, ZocRule], tuple[HexMap, frozenset[HexId]]] = (
    Memo(256))


#: the hexes of sides' ZOCs (BoardFacts.zoc_hexes), keyed as _SIDE_ZOCS
_SIDE_ZOC_SETS: Memo[tuple[int, str, Placement, ZocRule], tuple[HexMap, frozenset[HexId]]] = (
    Memo(256))


def board_facts(hexmap: HexMap, placement: Iterable[Placed]) -> BoardFacts:
    """The facts of ``placement`` on ``hexmap``: those of a recent same placement (with
    whatever they have computed), else new ones."""
    key = (id(hexmap), tuple(sorted(placement, key=_unit_of)))
    found = _RECENT.get(key, lambda: BoardFacts(hexmap, key[1]))
    if found.map is not hexmap:
        found = BoardFacts(hexmap, key[1])
    return found
