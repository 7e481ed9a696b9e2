"""The Front Markers: range (14.0), who pays a Soviet move or attack (9.0), and a
marker displaced (14.1)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from engines.backhand.data import FRONTS
from engines.backhand.position import BOXES
from engines.hexkit.facts import take_nearest
from pbem.engine import Event

if TYPE_CHECKING:
    from collections.abc import Callable

    from engines.backhand.data import Data
    from engines.backhand.state import BBState
    from engines.hexkit.facts import BoardFacts


#: 14.0: how far a Front Marker reaches, in hexes
FRONT_RANGE = 12


def in_range(s: BBState, h: str, front: str | None = None) -> bool:
    """14.0: within twelve hexes of a Front Marker (the line may cross the enemy): the
    hex distance of a map hex, asked of the hexes a rule names (issue 35: the set of
    every hex within twelve of each hex a marker stood in, 469 of them, was made for a
    few questions)."""
    if h in BOXES:
        return True
    m = s.data.map
    if h not in m:
        return False
    fronts = [front] if front else list(FRONTS)
    return any(m.distance(h, s.pos.fronts[f]) <= FRONT_RANGE for f in fronts)


def paying_front(s: BBState, hexes: list[str]) -> str | None:
    """9.0: a Soviet move or attack is paid by a front whose marker is in range; the
    front with more points left pays (the engine's reading; ties: Southwest)."""
    best: str | None = None
    for f in FRONTS:
        if (s.pos.ap[f] > 0 and any(in_range(s, h, f) for h in hexes)
                and (best is None or s.pos.ap[f] > s.pos.ap[best])):
            best = f
    return best


def ap_left(s: BBState, side: str) -> int:
    if side == "german":
        return s.pos.ap["german"]
    return sum(s.pos.ap[f] for f in FRONTS)


def marker_moves(s: BBState, front: str) -> list[str]:
    """14.2: the hexes ``front``'s marker may move to: those around it in the Soviet
    supply net (14.1: free of the enemy and joined to a Soviet source), in hex order,
    but sea.  A marker in the net (as 14.1 keeps it) has every free hex around it in the
    net too, joined through the marker: a trace from the marker tells, where the net
    would flood the whole map (issue 35); a marker out of it asks the net."""
    from engines.backhand.supply import supply_blocked, supply_net

    h = s.pos.fronts[front]
    m = s.data.map
    around = [n for n in s.data.nbrs[h] if m.terrain_of(n) != "sea"]
    blocked = supply_blocked(s, "soviet")

    def free(x: str) -> bool:
        return x not in blocked
    if traces(s, h, free):
        return [n for n in around if free(n)]
    net = supply_net(s, "soviet")
    return [n for n in around if n in net]


#: the path a marker's hex last traced to a Soviet source by (14.1), by the hex: the
#: map never changes, so a path whose every hex is still passable is a trace again
_PATHS: dict[str, tuple[str, ...]] = {}


def traces(s: BBState, h: str, passable: Callable[[str], bool]) -> bool:
    """14.1: whether a Front Marker in ``h`` traces to a Soviet source through hexes
    ``passable`` allows (``h`` among them).  Asked for both markers after every move of
    either side, and mostly answered by the path the hex last traced by, every hex of
    it still passable, instead of a search from the marker (issue 35: a tenth of an
    audit); a path no longer open is searched for again."""
    if not passable(h):
        return False
    path = _PATHS.get(h)
    if path is not None and all(map(passable, path)):
        return True
    found = _path_to_source(s, h, passable)
    if found is None:
        return False
    _PATHS[h] = found
    return True


def _path_to_source(s: BBState, h: str, passable: Callable[[str], bool]
                    ) -> tuple[str, ...] | None:
    """A path of hexes ``passable`` allows from ``h`` (allowed) to a Soviet source, or
    ``None`` when there is none: searched from ``h``, the hex nearest the sources'
    columns first.  14.1 asks only whether a trace exists, and the search ends exactly
    when the passable hexes joined to ``h`` hold a source, as the kit's breadth-first
    trace does; that one went round the marker hex by hex, hundreds of hexes for a
    marker a dozen from the map's edge (issue 35: 7 M instructions of an act placing
    reinforcements, every command's first trace of each marker)."""
    sources, nbrs = s.data.soviet_supply, s.data.nbrs
    if h in sources:
        return (h,)
    toward = _toward_sources(s)
    parent: dict[str, str] = {h: h}
    # the frontier's hexes by how far each is from the sources' columns, taken as a heap
    # of (that, hex) pairs gives them (take_nearest): the same hexes in the same order,
    # so the same path; a hex joins the frontier once
    frontier: dict[int, list[str]] = {toward(h): [h]}
    while frontier:
        x = take_nearest(frontier)
        for n in nbrs[x]:
            if n in parent or not passable(n):
                continue
            parent[n] = x
            if n in sources:
                path = [n]
                while path[-1] != h:
                    path.append(parent[path[-1]])
                return tuple(reversed(path))
            key = toward(n)
            if key in frontier:
                frontier[key].append(n)
            else:
                frontier[key] = [n]
    return None


#: the Soviet sources' columns (their cube q), by the data they were read from
_COLUMNS: dict[int, tuple[Data, tuple[int, ...]]] = {}


def _toward_sources(s: BBState) -> Callable[[str], int]:
    """How far a hex's column is from the nearest Soviet source's: the order
    :func:`_path_to_source` searches in (any order finds the same answer)."""
    d = s.data
    kept = _COLUMNS.get(id(d))
    if kept is None or kept[0] is not d:
        kept = _COLUMNS[id(d)] = (d, tuple(sorted({d.axial(x)[0] for x in d.soviet_supply})))
    columns, axial = kept[1], d.axial
    if len(columns) == 1:  # the map's edge: no generator a hex
        (column,) = columns

        def toward_edge(x: str) -> int:
            return abs(axial(x)[0] - column)
        return toward_edge

    def toward(x: str) -> int:
        q = axial(x)[0]
        return min(abs(q - c) for c in columns)
    return toward


#: by a marker's hex, the data and the board facts (a pure function of where every unit
#: stands) under which it last traced (14.1), the path it traced by, and that path's
#: hexes and their neighbours: a unit leaving or entering any other hex changes no hex of
#: the path's passage (occupied by a German unit, or in German ZOC, read off its
#: neighbours); the data too, whose sources and cities a trace reads
_TRACED: dict[str, tuple[Data, BoardFacts, tuple[str, ...], frozenset[str]]] = {}


def displace_fronts(s: BBState, since: BoardFacts | None = None,
                    changed: frozenset[str] = frozenset()) -> None:
    """14.1: a Front Marker whose hex the enemy entered or that cannot trace to a
    Soviet source goes "to the next available hex ... closer to a Soviet supply source
    and fulfilling all requirements": the nearest hex of the Soviet supply net (free of
    German units, out of German ZOC unless a Soviet unit is there, joined to a source),
    among those nearer a source than the marker if there are any; ties by distance to
    a source, then hex id. The net is what Fronts (14.2) offers a marker to move to.

    ``since``: the board facts before the units in the hexes ``changed`` alone left or
    entered them (a unit put or eliminated)."""
    facts = s.facts()
    due = []
    for f in FRONTS:
        h = s.pos.fronts[f]
        kept = _TRACED.get(h)
        if kept is not None and kept[0] is s.data and (kept[1] is facts or (
                kept[1] is since and changed.isdisjoint(kept[3]))):
            # the path the marker traced by before the change, none of whose hexes is
            # in or next to a hex that changed: each still passes as it did, so it
            # traces by it (issue 35: both markers' paths checked after every put)
            _TRACED[h] = (s.data, facts, kept[2], kept[3])
        else:
            due.append(f)
    if due:
        _displace(s, facts, due)


def _displace(s: BBState, facts: BoardFacts, fronts: list[str]) -> None:
    """:func:`displace_fronts` of the markers of ``fronts``, whose traces are not known."""
    d = s.data
    m = d.map
    germans = s.occupied("german")
    sov = s.occupied("soviet")
    cities, nbrs = d.city_hexes, d.nbrs
    # the German ZOC of the hexes asked (BBState.in_zoc: next to a German unit, not a
    # city, 6.0), each read off its neighbours here: mostly the hexes of a path a marker
    # traced by before, a few dozen, where the ZOC of every German unit is hundreds, and
    # asked after every unit put (issue 35); whether a hex's neighbours hold a German
    # unit is one isdisjoint in C against the stacks' own keys, where a generator over
    # the neighbours was most of a path's check
    german_hexes = germans.keys()

    def ok(x: str) -> bool:
        return x not in germans and (x in sov or x in cities
                                     or german_hexes.isdisjoint(nbrs[x]))

    # the sources in order, sorted with a marker's first displacement, not after every
    # unit put, when both markers trace
    sources: list[str] = []

    def to_source(x: str) -> int:
        if not sources:
            sources.extend(sorted(d.soviet_supply))
        return min(m.distance(x, y) for y in sources)
    for f in fronts:
        h = s.pos.fronts[f]
        # the usual case, a marker still joined to a source, by a trace from the marker
        # (cheaper after every move than the flood of the whole net)
        if traces(s, h, ok):
            path = _PATHS[h]
            kept = _TRACED.get(h)
            _TRACED[h] = (d, facts, path, kept[3] if kept is not None and kept[2] is path
                          else frozenset(itertools.chain(path, *map(nbrs.__getitem__, path))))
            continue
        # the supply net (and its module) only for a marker that no longer traces
        # (issue 35: 0.8 M instructions of an act placing reinforcements)
        from engines.backhand.supply import supply_net

        net = supply_net(s, "soviet")
        legal = [x for x in sorted(net) if m.terrain_of(x) != "sea"]
        if not legal:
            continue  # no hex anywhere meets 14.1: the marker stays
        here = to_source(h)
        closer = [x for x in legal if to_source(x) < here] or legal
        new = min(closer, key=lambda x: (m.distance(h, x), to_source(x), x))
        s.pos.fronts[f] = new
        # told last: 14.1 holds "at any time", so the displacement is told once the
        # action or roll has done everything else
        s.tell(Event(f"the {f} Front Marker is displaced from {h} to {new}", "move",
                     rule="14.1", hexes=(h, new)), last=True)
