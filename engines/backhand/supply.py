"""7.0 supply (the series trace, stand-in) and the clear region of 15.1 (1)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from engines.backhand.data import zoc_hexes
from engines.backhand.position import OFF, other
from engines.hexkit.facts import BoardFacts, RegionFlood, take_nearest
from engines.hexkit.geometry import DIRECTIONS, cube_to_offset, offset_to_cube
from engines.hexkit.hexmap import HexMap
from pbem.memo import Memo

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from engines.backhand.data import Data
    from engines.backhand.state import BBState

def supply_sources(s: BBState, side: str) -> frozenset[str]:
    return s.data.soviet_supply if side == "soviet" else s.data.german_supply


def in_supply(s: BBState, h: str, side: str) -> bool:
    """7.0 with the series trace (stand-in): a path of any length to a source, not
    through enemy units or an EZOC a friendly unit does not occupy.  ``h`` itself need
    not be passable: a hex next to the net is in supply (the trace starts from it)."""
    return _supplied(s, side)(h)


def _supplied(s: BBState, side: str) -> Callable[[str], bool]:
    """:func:`in_supply` of ``side`` for the placement now, kept with its board facts:
    asked for every unit of a listing, and of every unit at once by a turn's supply
    check (4.2 I.D)."""
    f = s.facts()
    last = _LAST_TRACE.get(side)
    if last is not None and last[0] is f:
        return last[1]
    d = s.data
    blocked = floods(d).supply_blocked(f, side)
    net = _NET_BITS.get((side, blocked), lambda: _net_bits(d, side, blocked))
    enemy, sources = f.stacks(other(side)), supply_sources(s, side)
    index, rows = d.map.index, d.map.neighbor_rows

    def supplied(h: str) -> bool:
        if h in enemy:
            return False
        if h in sources:
            return True
        i = index[h]
        # a passable hex is in the net exactly when a neighbour is (or it is a source);
        # a blocked one never is, and is in supply when a neighbour is in the net
        return bool(net >> i & 1) or any(net >> j & 1 for j in rows[i])

    _LAST_TRACE[side] = (f, supplied)
    return supplied


#: the supply net as bits (:func:`_net_bits`) by the side and the hexes its supply may
#: not enter (all it reads of the placement)
_NET_BITS: Memo[tuple[str, frozenset[str]], int] = Memo(64)
#: the last answer for each side, with the board facts it was for
_LAST_TRACE: dict[str, tuple[BoardFacts, Callable[[str], bool]]] = {}


class _Grid:
    """Backhand Blow's map as bits of one int, bit ``i`` its hex of index ``i``: the
    map is its numbering grid's whole rectangle, so the index runs down each column
    (``tall`` hexes) and on to the next.  A hex's neighbours are the two above and
    below it in its column, and in each column beside it the hex of its row and the one
    above (``up``: the hexes of the columns of one parity, but those at a column's head)
    or below (``down``: the other parity's, but those at a column's foot)."""

    __slots__ = ("down", "every", "feet", "heads", "tall", "up")

    def __init__(self, m: HexMap) -> None:
        g = m.grid
        (c0, c1), (r0, r1) = g.cols, g.rows
        self.tall, wide = r1 - r0 + 1, c1 - c0 + 1
        if len(m.ids) != self.tall * wide:
            raise ValueError(f"map {m.title!r} is not its grid's whole rectangle")
        self.every = (1 << len(m.ids)) - 1
        column = (1 << self.tall) - 1
        self.heads = self.every // column  # a bit at the head of each column
        self.feet = self.heads << (self.tall - 1)
        pair = (1 << 2 * self.tall) - 1
        first = ((1 << 2 * self.tall * ((wide + 1) // 2)) - 1) // pair * column
        self.up = self.down = 0
        for p, cols in ((c0 & 1, first), (~c0 & 1, self.every & ~first)):
            c, r = c0 + 2 + p - (c0 & 1), r0 + 1  # a column of parity p, inside the grid
            here = offset_to_cube(g.parity, c, r)
            steps = set()
            for d in DIRECTIONS:
                nc, nr = cube_to_offset(g.parity, here + d)
                steps.add((nc - c, nr - r))
            if steps == {(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)}:
                self.up |= cols & ~self.heads
            elif steps == {(0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, 1)}:
                self.down |= cols & ~self.feet
            else:
                raise ValueError(f"map {m.title!r} is not in offset columns")

    def flood(self, reach: int, free: int) -> int:
        """The hexes of ``free`` joined to ``reach`` by hexes of ``free``, and
        ``reach``: grown a ring at a time, each ring a few operations on the whole map's
        int."""
        tall = self.tall
        # the free hexes a hex reaches from the one above or below it in its column: a
        # column's head or foot is no neighbour of the next column's foot or head
        from_above, from_below = free & ~self.heads, free & ~self.feet
        # ``up`` and ``down`` moved as their hexes' neighbours in the column are: a shift
        # of ``reach & up`` is the shifted reach's part in the shifted ``up``, so a ring
        # shifts the reach once each way and reads both shifts twice (three operations
        # on the map's int a ring fewer, issue 35)
        up, down = self.up >> 1, self.down << 1
        while True:
            # each reached hex's neighbours below and above it in its column
            below, above = reach << 1, reach >> 1
            # reach, and the hexes above or below those that the columns beside see as
            # beside them in a row
            side = reach | above & up | below & down
            grown = (reach | below & from_above | above & from_below
                     | (side << tall | side >> tall) & free)
            if grown == reach:
                return reach
            reach = grown


@functools.cache
def _grid(d: Data) -> _Grid:
    return _Grid(d.map)


def _net_bits(d: Data, side: str, blocked: frozenset[str]) -> int:
    """The passable hexes joined to a passable source as bits (:class:`_Grid`): one
    flood of the map's int a side, where a search from each unit in Python was 9 M
    instructions of a turn's supply check (4.2 I.D, issue 35)."""
    grid = _grid(d)
    free = grid.every ^ _bits(d, blocked)
    return grid.flood(free & _sources_bits(d, side), free)


def _bits(d: Data, hexes: Iterable[str]) -> int:
    """``hexes`` as bits of the map (:class:`_Grid`): written as the digits of a binary
    number, bit ``i`` the ``i``-th digit from the end, and read as one by ``int`` in C,
    not or-ed in a bit at a time (a new int of up to 2,091 bits for each hex)."""
    digits = bytearray(b"0") * len(d.map.ids)
    for i in map(d.map.index.__getitem__, hexes):
        digits[~i] = 49  # "1"
    return int(digits, 2)


@functools.cache
def _sources_bits(d: Data, side: str) -> int:
    return _bits(d, d.soviet_supply if side == "soviet" else d.german_supply)


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
    # (the kit's bucket frontier, take_nearest)
    frontier: dict[int, list[str]] = {0: [h]}
    seen = {h}
    while frontier:
        for n in nbrs[take_nearest(frontier)]:
            if n in seen or n in blocked:
                continue
            if n in sources:
                return True
            seen.add(n)
            frontier.setdefault(toward(n), []).append(n)
    return False


def _toward_sources(d: Data, side: str) -> Callable[[str], int]:
    """How far a hex is from the columns of ``side``'s sources (the map edges a side's
    supply is traced to, 7.0): the order :func:`in_clear_region`
    searches in, the hex nearest first; any order gives the same answer."""
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
    supplied = {side: _supplied(s, side) for side in ("german", "soviet")}
    short = []
    for u, x in sorted(s.pos.units.items()):
        if x.at in OFF:
            continue
        oos = not supplied[s.side_of(u)](x.at)
        turns = x.oos_turns + 1 if (oos and x.oos) else (1 if oos else 0)
        # a mark set only where it changes: a unit's every set is a call of its
        # __setattr__, and one of ``oos`` a change a view redraws (position.DRAWN); most
        # units stay In Supply turn after turn (issue 35)
        if turns != x.oos_turns:
            x.oos_turns = turns
        if oos is not x.oos:
            x.oos = oos
        if oos and not s.stationary(u):
            short.append(u)
    return tuple(short)


def attrition_drm(s: BBState, uid: str) -> int:
    """The Attrition Check's modifiers (stand-in, the data's note): Deep Mud, motorized,
    and each turn Out Of Supply after the first, at most two."""
    x = s.pos.units[uid]
    return ((1 if s.pos.weather == "deep" else 0) + (1 if s.motorized(uid) else 0)
            + min(2, x.oos_turns - 1))
