"""Searches that count hexes, not movement points, over one graph: a neighbour table.

Supply lines, hex-counted moves and lines across the map (White Death Rule 15, For the
Motherland! 5.3, 9.2 and 19.2, 48th Panzer Korps and Backhand Blow supply traces) are
breadth-first searches over a table of each hex's neighbours: the map's own
(:meth:`~engines.hexkit.hexmap.HexMap.neighbor_table`, neighbours in id order, on the map
or along networks) or a game's (land hexes only).  :func:`region`, :func:`trace` and
:func:`breadth_first` are one search; :func:`spread` (a budget per source) and
:func:`lightest_chain` (hexes weighed) are the two that are not breadth-first by distance.
Every result is the same whatever the order of the starts; among equally short paths
the one the table lists first wins.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence

from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap


def _as_set(x: Iterable[HexId] | None) -> frozenset[HexId]:
    return frozenset(x) if x is not None else frozenset()


def region(
    hexmap: HexMap,
    starts: Iterable[HexId],
    *,
    passable: Callable[[HexId], bool] | Container[HexId] | None = None,
    networks: Iterable[str] | None = None,
    max_steps: int | None = None,
) -> dict[HexId, int]:
    """Every hex joined to any of ``starts``, with its distance in hexes from the nearest.

    The searches supply rules make: White Death Rule 15.C (a friendly edge, through
    hexes free of enemy units and ZOCs, to the unit), 15.B (seven hexes to a road running
    back to an edge), Rule 8 (the railroad from the unit to an edge) and the banks of a
    river (Rule 16.B: the land on either side once the river's hexes are taken out).
    ``passable`` (a set or a test) is what a path may enter; the starts are in whether
    passable or not, so a unit standing in an enemy ZOC still traces from its own hex.
    ``networks`` restricts each step to a connection of any of them (road, railroad).
    Distances are breadth-first from all starts at once, so they do not depend on the
    order of anything; the result is sorted by hex id.
    """
    ok = passable if passable is None or callable(passable) else passable.__contains__
    first = sorted(set(starts))
    for h in first:
        hexmap.require(h)
    dist, _, _ = _breadth_first(hexmap.neighbor_table(networks), first, enter=ok,
                                max_steps=max_steps)
    return dict(sorted(dist.items()))


def trace(
    hexmap: HexMap,
    start: HexId,
    targets: Iterable[HexId] | Callable[[HexId], bool],
    *,
    network: str | None = None,
    passable: Callable[[HexId], bool] | None = None,
    max_steps: int | None = None,
    neighbors: Mapping[HexId, Sequence[HexId]] | None = None,
) -> list[HexId] | None:
    """The shortest hex path from ``start`` to any target (supply lines), else ``None``.

    Counts hexes, not movement points, as supply rules do; ``network`` restricts the
    path to that network's connections.  Neighbors are explored in id order, so among
    equally short paths the same one is returned on every machine.
    """
    is_target = targets if callable(targets) else _as_set(targets).__contains__
    hexmap.require(start)
    table = neighbors if neighbors is not None else hexmap.neighbor_table(
        None if network is None else [network])
    _, parent, found = _breadth_first(table, [start], enter=passable, max_steps=max_steps,
                                      is_target=is_target)
    if found is None:
        return None
    path = [found]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def spread(
    neighbors: Mapping[HexId, Sequence[HexId]],
    starts: Mapping[HexId, int],
    *,
    blocked: Collection[HexId] = frozenset(),
) -> dict[HexId, int]:
    """Every hex within a budget of hexes from several sources: hex -> the most budget
    left on reaching it (each step costs 1; a start holds its own budget).

    Supply lines counted in hexes from many sources at once (For the Motherland! 9.2: four
    hexes from a source or a rail-connected Supply Base, not into ``blocked`` hexes: enemy
    units, enemy ZOC, enemy-held cities), sea-supply lines from ports (9.6), and a
    network's connected part (``neighbors`` the railroad's links, a budget larger than
    the network).  ``neighbors`` is the game's own adjacency table (land hexes only, not
    across sea hexsides, across Frozen Access in a snow turn), so the terrain rules stay
    data.  The result does not depend on the order of ``starts`` or of the table.
    """
    best: dict[HexId, int] = {}
    queue: deque[HexId] = deque()
    for h, b in sorted(starts.items()):
        if h in blocked:
            continue
        if best.get(h, -1) < b:
            best[h] = b
            queue.append(h)
    pop, push, get = queue.popleft, queue.append, best.get
    while queue:
        h = pop()
        b = best[h] - 1
        if b < 0:
            continue
        for n in neighbors[h]:
            if get(n, -1) < b and n not in blocked:
                best[n] = b
                push(n)
    return best


def breadth_first(
    neighbors: Mapping[HexId, Sequence[HexId]],
    start: HexId,
    *,
    step_ok: Callable[[HexId, HexId], bool] | None = None,
    max_steps: int | None = None,
    within: Container[HexId] | None = None,
    ends: Collection[HexId] | None = None,
) -> dict[HexId, tuple[HexId, ...]]:
    """Every hex reachable from ``start`` hex by hex, each with the first path found (the
    fewest hexes; among equally short ones, the one ``neighbors`` lists first).

    Moves counted in hexes rather than movement points over a game's own adjacency
    table, with a rule on each step ``step_ok(from_hex, to_hex)`` that may depend on the
    hexside crossed: For the Motherland! 5.3 Strategic Movement (up to 15 hexes, ``max_steps``,
    clear of the enemy, not over the open Chongar bridge) and 16.2 the Railroad Gun (along
    the railroad's links, not into an enemy ZOC).  The paths come back in the order the
    hexes were reached, ``start`` left out.  (:func:`trace` does the same over the map's
    own :meth:`~engines.hexkit.hexmap.HexMap.neighbor_table`.)

    ``within``: the hexes that may be entered, the same search as a ``step_ok`` that
    asks whether the hex entered is in it, without a Python call a step.  ``ends``: only
    the paths to these hexes, the rest searched through but not written (a Strategic
    Movement's listing wants those to cities, some 20 of 700 hexes reached); the paths
    are those of the whole search, in the same order.
    """
    if within is not None and step_ok is None:
        parent = _levels(neighbors, start, within, max_steps)
    else:
        _, parent, _ = _breadth_first(neighbors, [start], within=within, step_ok=step_ok,
                                      max_steps=max_steps)
    # each hex's path is its predecessor's and one more, in the order the hexes were
    # reached (not walked back from each: 15 steps a hex on a Strategic Movement)
    paths: dict[HexId, tuple[HexId, ...]] = {start: (start,)}
    if ends is None:
        for n, p in parent.items():
            paths[n] = (*paths[p], n)
        del paths[start]
        return paths
    return paths_to(parent, start, [n for n in parent if n in ends])


def paths_to(prev: Mapping[HexId, HexId], start: HexId, ends: Iterable[HexId]
             ) -> dict[HexId, tuple[HexId, ...]]:
    """The path from ``start`` to each of ``ends`` (start first) along a search's
    predecessors ``prev``, in the order of ``ends``: each hex's path its predecessor's
    and one more, walked back only to the first hex whose path is made (a listing writes
    hundreds of paths that share their first hexes: issue 35)."""
    made: dict[HexId, tuple[HexId, ...]] = {start: (start,)}
    out: dict[HexId, tuple[HexId, ...]] = {}
    for h in ends:
        got = made.get(h)
        if got is None:
            back = [h]
            x = prev[h]
            while x not in made:
                back.append(x)
                x = prev[x]
            got = made[x]
            for x in reversed(back):
                got = made[x] = (*got, x)
        out[h] = got
    return out


def _levels(neighbors: Mapping[HexId, Sequence[HexId]], start: HexId,
            within: Container[HexId], max_steps: int | None) -> dict[HexId, HexId]:
    """:func:`_breadth_first`'s predecessors of a search from ``start`` into ``within``
    alone, in the same order: taken a level at a time, each in the order reached, as
    its queue takes them, with no distance written and read a hex and no tests a step
    of what is not given (For the Motherland!'s Strategic Movement, 5.3: a movement
    phase's first listing searched some 200 hexes for each of dozens of units)."""
    parent = {start: start}
    frontier = [start]
    adjacent = neighbors.get
    levels = itertools.count() if max_steps is None else range(max_steps)
    for _ in levels:
        reached: list[HexId] = []
        add = reached.append
        for h in frontier:
            for n in adjacent(h, ()):
                if n not in parent and n in within:
                    parent[n] = h
                    add(n)
        if not reached:
            break
        frontier = reached
    del parent[start]
    return parent


def lightest_chain(
    neighbors: Mapping[HexId, Sequence[HexId]],
    starts: Iterable[HexId],
    goals: Collection[HexId],
    weight: Callable[[HexId], int],
) -> int | None:
    """The least total ``weight`` of the hexes of a chain of adjacent hexes from any of
    ``starts`` to any of ``goals`` (both ends counted), or ``None`` if no chain joins them.

    A line across the map judged by the hexes it lacks: For the Motherland! 19.2, the
    hexes missing from a side's best front line from the Baltic to the Black Sea (weight 1
    for a hex neither held nor in its ZOC, 0 otherwise).  ``neighbors`` is the game's own
    adjacency table (not across sea hexsides); weights must not be negative.
    """
    best: dict[HexId, int] = {}
    heap: list[tuple[int, HexId]] = []
    for h in sorted(set(starts)):
        w = weight(h)
        if w < best.get(h, w + 1):
            best[h] = w
            heapq.heappush(heap, (w, h))
    while heap:
        w, h = heapq.heappop(heap)
        if w > best[h]:
            continue
        if h in goals:
            return w
        for n in neighbors.get(h, ()):
            nw = w + weight(n)
            if nw < best.get(n, nw + 1):
                best[n] = nw
                heapq.heappush(heap, (nw, n))
    return None


def _breadth_first(
    neighbors: Mapping[HexId, Sequence[HexId]],
    starts: Sequence[HexId],
    *,
    enter: Callable[[HexId], bool] | None = None,
    step_ok: Callable[[HexId, HexId], bool] | None = None,
    max_steps: int | None = None,
    is_target: Callable[[HexId], bool] | None = None,
    within: Container[HexId] | None = None,
) -> tuple[dict[HexId, int], dict[HexId, HexId], HexId | None]:
    """The one hex-by-hex search under :func:`region`, :func:`trace` and
    :func:`breadth_first`: from every start at once, over a neighbour table in its
    order, into hexes of ``within`` that ``enter`` allows by steps ``step_ok`` allows,
    at most ``max_steps``
    hexes.  Each hex reached with its distance and its predecessor (both in the order
    reached), and the first target reached, where the search stops."""
    dist = dict.fromkeys(starts, 0)
    parent: dict[HexId, HexId] = {}
    if is_target is not None:
        for h in dist:
            if is_target(h):
                return dist, parent, h
    queue = deque(dist)
    pop, push, adjacent = queue.popleft, queue.append, neighbors.get
    while queue:
        h = pop()
        d = dist[h]
        if max_steps is not None and d >= max_steps:
            continue
        for n in adjacent(h, ()):
            if n in dist or (within is not None and n not in within) or \
                    (enter is not None and not enter(n)) or \
                    (step_ok is not None and not step_ok(h, n)):
                continue
            dist[n] = d + 1
            parent[n] = h
            if is_target is not None and is_target(n):
                return dist, parent, n
            push(n)
    return dist, parent, None
