"""7.0 supply (the series trace, stand-in) and the clear region of 15.1 (1)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, TypeVar

from engines.backhand.data import zoc_hexes
from engines.backhand.position import OFF, other
from engines.hexkit.facts import BoardFacts, RegionFlood
from engines.hexkit.hexmap import HexMap
from pbem.memo import Memo

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from engines.backhand.data import Data
    from engines.backhand.state import BBState

#: a hex as a search keeps it: its map index, or its id
_T = TypeVar("_T", int, str)

def supply_sources(s: BBState, side: str) -> frozenset[str]:
    return s.data.soviet_supply if side == "soviet" else s.data.german_supply


def in_supply(s: BBState, h: str, side: str) -> bool:
    """7.0 with the series trace (stand-in): a path of any length to a source, not
    through enemy units or an EZOC a friendly unit does not occupy."""
    f = s.facts()  # asked for every unit of a listing: the facts looked up once
    if h in f.stacks(other(side)):
        return False
    if h in supply_sources(s, side):
        return True
    last = _LAST_TRACE.get(side)
    if last is None or last[0] is not f:
        blocked = floods(s.data).supply_blocked(f, side)
        known = _DECIDED.get((side, blocked), dict)
        last = _LAST_TRACE[side] = (f, blocked, known)
    return _joined(s, h, side, last[1], last[2])


#: the hexes a supply search has decided, by the side and the hexes its supply may not
#: enter (all it reads of the placement): joined to a source or not (a free hex is
#: joined to a source exactly when every free hex it is joined to is)
_DECIDED: Memo[tuple[str, frozenset[str]], dict[str, bool]] = Memo(64)
_LAST_TRACE: dict[str, tuple[BoardFacts, frozenset[str], dict[str, bool]]] = {}


def _nearest(frontier: dict[int, list[_T]]) -> _T:
    """A hex of the least distance in a search's frontier (hexes met by their distance
    from the sources), taken out of it: a list for each distance met, not heapq, whose
    load was 0.7 M instructions of a receive (issue 35)."""
    low = min(frontier)
    bucket = frontier[low]
    x = bucket.pop()
    if not bucket:
        del frontier[low]
    return x


def _joined(s: BBState, h: str, side: str, blocked: frozenset[str],
            known: dict[str, bool]) -> bool:
    """Whether a search from ``h`` through free hexes reaches a free source: what the
    supply net asks (``h`` in the net, or next to it), but searched from the unit and
    stopped at the first source or hex already decided, where the net floods the whole
    map (issue 35: the units of a side are mostly joined to a source by their
    neighbours' searches).  A hex the search leaves undecided is one whose search ran
    from a blocked start (its free neighbours need not be joined to one another)."""
    if h in known:
        return known[h]
    d = s.data
    sources = supply_sources(s, side)
    # the neighbours off the map's own tables (made for the ZOC that ``blocked`` holds),
    # not Data.nbrs: its sorted tuple is made a hex at a time, a Python call for each of
    # the ~800 hexes the searches of a turn's supply check (4.2 I.D) meet (issue 35); a
    # search's order of neighbours changes which hexes it meets, not what it answers
    ids, index, rows = d.map.ids, d.map.index, d.map.neighbor_rows
    # the hex nearest the sources' columns first: a unit's search runs toward the
    # sources rather than around it (issue 35); the answer is the same in any order
    columns = _source_columns(d, side)
    # one column (a map edge: both sides' sources here): a hex's distance from it is its
    # own column's, the digits its number starts with (Data.axial's q of a map hex),
    # worked out in the loop rather than by two calls a hex met (issue 35)
    column = columns[0] if len(columns) == 1 else None
    cd = d.map.grid.numbering.col_digits
    toward = _toward_sources(d, side)
    get_known = known.get
    # the hexes met and not yet searched from, each its map index, by their distance
    # from the sources' columns, the nearest taken first (:func:`_nearest`); which of
    # the nearest is taken first changes which hexes are met, not the answer
    frontier: dict[int, list[int]] = {0: [index[h]]}
    seen = [h]
    visited = {h}
    found = False
    while frontier and not found:
        for j in rows[_nearest(frontier)]:
            n = ids[j]
            if n in visited or n in blocked:
                continue
            was = get_known(n)
            if was is False:
                continue  # a part of the map joined to no source: nothing to find there
            if was or n in sources:
                found = True
                break
            visited.add(n)
            seen.append(n)
            far = abs(int(n[:cd]) - column) if column is not None else toward(n)
            frontier.setdefault(far, []).append(j)
    if not found or h not in blocked:
        # exhausted: every free hex met is cut off; found from a free start: every hex
        # met is joined to the start, and so to the source
        for x in seen:
            if x not in blocked:
                known[x] = found
    return found


def supply_net(s: BBState, side: str) -> Mapping[str, int]:
    """The passable hexes joined to a passable source (impassable: enemy units, and
    EZOC hexes no friendly unit is in), each with its distance from the nearest: one
    flood for every unit."""
    return _net(s, s.facts(), "supply", side)


def clear_region(s: BBState, side: str) -> Mapping[str, int]:
    """15.1 (1): hexes joined to a friendly source by hexes free of enemy units and
    EZOCs (a friendly unit does not negate an EZOC here)."""
    return _net(s, s.facts(), "clear", side)


def in_clear_region(s: BBState, side: str, h: str) -> bool:
    """Whether ``h`` is in :func:`clear_region` of ``side``: free of enemy units and
    EZOCs, and joined to a free source by such hexes.  Searched from ``h``, the hex
    nearest a source first, where the region floods the whole map (issue 35: asked of
    a hex or two to check a received administrative move, 15.1 (1)); the answer is the
    region's, whatever the order of the search."""
    blocked = floods(s.data).clear_blocked(s.facts(), side)
    if h in blocked:
        return False
    sources = supply_sources(s, side)
    if h in sources:
        return True
    toward, nbrs = _toward_sources(s.data, side), s.data.nbrs
    # the hexes to search from by their distance from the sources, the nearest first
    # (:func:`_joined`'s frontier)
    frontier: dict[int, list[str]] = {0: [h]}
    seen = {h}
    while frontier:
        for n in nbrs[_nearest(frontier)]:
            if n in seen or n in blocked:
                continue
            if n in sources:
                return True
            seen.add(n)
            frontier.setdefault(toward(n), []).append(n)
    return False


def _toward_sources(d: Data, side: str) -> Callable[[str], int]:
    """How far a hex is from the columns of ``side``'s sources (the map edges a side's
    supply is traced to, 7.0): the order :func:`in_clear_region` and :func:`_joined`
    search in, the hex nearest first; any order gives the same answer."""
    columns = _source_columns(d, side)
    axial = d.axial
    if len(columns) == 1:  # a map edge (both sides' here): no generator a hex
        (column,) = columns

        def toward_edge(h: str) -> int:
            return abs(axial(h)[0] - column)
        return toward_edge

    def toward(h: str) -> int:
        q = axial(h)[0]
        return min(abs(q - c) for c in columns)
    return toward


@functools.cache
def _source_columns(d: Data, side: str) -> tuple[int, ...]:
    return tuple(sorted({d.axial(h)[0] for h in (
        d.soviet_supply if side == "soviet" else d.german_supply)}))


def supply_blocked(s: BBState, side: str) -> frozenset[str]:
    """7.0: the hexes ``side``'s supply may not enter: enemy units, and EZOC hexes no
    friendly unit is in."""
    return floods(s.data).supply_blocked(s.facts(), side)


#: the floods by what they read of the placement: the kind, the side and the hexes it
#: may not enter (with the map it ran on, which a hit must be).  A move that blocks or
#: frees no hex for a side (a unit behind its lines, a unit of the other side out of
#: reach of any ZOC) changes nothing of its flood: a third of the floods of a game.
_NETS: Memo[tuple[str, str, frozenset[str]], tuple[HexMap, Mapping[str, int]]] = Memo(64)
#: the last answer for each kind and side, with the board facts it was for (asked for
#: every unit of a listing)
_LAST: dict[tuple[str, str], tuple[BoardFacts, Mapping[str, int]]] = {}


def _net(s: BBState, f: BoardFacts, kind: str, side: str) -> Mapping[str, int]:
    last = _LAST.get((kind, side))
    if last is not None and last[0] is f:
        return last[1]
    fl = floods(s.data)
    rule, blocked = (fl.supply, fl.supply_blocked) if kind == "supply" else (
        fl.clear, fl.clear_blocked)
    kept = _NETS.get((kind, side, blocked(f, side)), lambda: (f.map, f.flood(side, rule)))
    found = kept[1] if kept[0] is f.map else f.flood(side, rule)
    _LAST[(kind, side)] = (f, found)
    return found


class Floods:
    """The two floods of the game as the kit's rules, made once (the facts key a rule by
    identity).  A plain class: a ``typing.NamedTuple`` compiles each of its string
    annotations when the class is made, 1.3 M instructions of every command that
    imports the engine, where only its four attributes are read (issue 35)."""

    __slots__ = ("clear", "clear_blocked", "supply", "supply_blocked")

    def __init__(self, supply: RegionFlood, clear: RegionFlood,
                 supply_blocked: Callable[[BoardFacts, str], frozenset[str]],
                 clear_blocked: Callable[[BoardFacts, str], frozenset[str]]) -> None:
        self.supply = supply
        self.clear = clear
        #: the hexes each may not enter, for the facts and side (the last kept)
        self.supply_blocked = supply_blocked
        self.clear_blocked = clear_blocked


@functools.cache
def floods(d: Data) -> Floods:
    """7.0's supply net and 15.1 (1)'s clear region as the kit's ``region`` from the
    side's sources.  ``region`` starts from every hex it is given, passable or not, so
    the blocked sources are left out of the starts: the set is the engine's own flood's
    exactly (a connected set, so neither the order of the search nor the distances
    matter to the rules, which read only membership)."""
    def supply_blocked(f: BoardFacts, side: str) -> frozenset[str]:
        # 7.0: enemy units, and EZOC hexes no friendly unit is in
        enemy = other(side)
        return f.occupied(enemy) | zoc_hexes(d, f, enemy).difference(f.occupied(side))

    def clear_blocked(f: BoardFacts, side: str) -> frozenset[str]:
        # 15.1 (1): enemy units and EZOC hexes, a friendly unit there or not
        enemy = other(side)
        return f.occupied(enemy) | zoc_hexes(d, f, enemy)

    supply, blocked_for_supply = _flood(d, supply_blocked)
    clear, blocked_for_clear = _flood(d, clear_blocked)
    return Floods(supply, clear, blocked_for_supply, blocked_for_clear)


def _flood(d: Data, blocked: Callable[[BoardFacts, str], frozenset[str]]
           ) -> tuple[RegionFlood, Callable[[BoardFacts, str], frozenset[str]]]:
    # the blocked set is made once a flood (for the facts and side last asked of, held so
    # their identity stays theirs), and the flood enters the map's other hexes, one set
    # (issue 35: a call for each hex it reached was a third of a flood)
    last: list[tuple[BoardFacts | None, str, frozenset[str]]] = [(None, "", frozenset())]
    # the set of every hex of the map, made when a flood first asks it: a turn's supply
    # check (4.2 I.D) searches from each unit and floods nothing, and the two sets of
    # 2,091 hexes were most of making the floods (issue 35)
    every: list[frozenset[str]] = []

    def blocked_now(f: BoardFacts, side: str) -> frozenset[str]:
        kept = last[0]
        if kept[0] is not f or kept[1] != side:
            kept = last[0] = (f, side, blocked(f, side))
        return kept[2]

    def passable(f: BoardFacts, side: str, h: str) -> bool:
        return h not in blocked_now(f, side)

    def enterable(f: BoardFacts, side: str) -> frozenset[str]:
        if not every:
            every.append(frozenset(d.map.ids))
        return every[0] - blocked_now(f, side)

    def sources(f: BoardFacts, side: str) -> list[str]:
        out = blocked_now(f, side)
        return [h for h in sorted(d.soviet_supply if side == "soviet" else d.german_supply)
                if h not in out]

    return RegionFlood(sources, passable, enterable=enterable), blocked_now


def check_supply(s: BBState) -> tuple[str, ...]:
    """4.2 I.D: mark every unit on the map In or Out Of Supply (7.0), counting the turns
    in a row it has been out; the units that roll for attrition, by id (not the
    stationary Verfuegungskraefte and Uprising Forces)."""
    for u, x in sorted(s.pos.units.items()):
        if x.at in OFF:
            continue
        oos = not in_supply(s, x.at, s.side_of(u))
        x.oos_turns = x.oos_turns + 1 if (oos and x.oos) else (1 if oos else 0)
        x.oos = oos
    return tuple(u for u, x in sorted(s.pos.units.items())
                 if x.oos and x.at not in OFF and not s.stationary(u))


def attrition_drm(s: BBState, uid: str) -> int:
    """The Attrition Check's modifiers (stand-in, the data's note): Deep Mud, motorized,
    and each turn Out Of Supply after the first, at most two."""
    x = s.pos.units[uid]
    return ((1 if s.pos.weather == "deep" else 0) + (1 if s.motorized(uid) else 0)
            + min(2, x.oos_turns - 1))
