"""14.1: a Front Marker's trace to a Soviet source searches the hexes in the order a heap
of (distance from the sources' columns, hex) gives them, without loading heapq (issue 35:
its C module's load was a million instructions of an act placing reinforcements).  The
path found is kept as the hex's next first guess, so it is held to the heap's own."""

from __future__ import annotations

import heapq
import subprocess
import sys
from collections.abc import Callable

from engines.backhand import ENGINE, fronts
from engines.backhand.state import BBState
from pbem.testing import Chooser, decisions


def by_heap(s: BBState, h: str, passable: Callable[[str], bool]) -> tuple[str, ...] | None:
    """The search as it was written with heapq."""
    sources, nbrs = s.data.soviet_supply, s.data.nbrs
    if h in sources:
        return (h,)
    toward = fronts._toward_sources(s)
    parent = {h: h}
    heap = [(toward(h), h)]
    while heap:
        _, x = heapq.heappop(heap)
        for n in nbrs[x]:
            if n in parent or not passable(n):
                continue
            parent[n] = x
            if n in sources:
                path = [n]
                while path[-1] != h:
                    path.append(parent[path[-1]])
                return tuple(reversed(path))
            heapq.heappush(heap, (toward(n), n))
    return None


def compare(at: BBState, hexes: list[str]) -> tuple[int, int]:
    """Searches from ``hexes`` and the markers, by displace_fronts' test of a hex and by
    one with a line of columns closed too: (searches, paths found)."""
    germans, sov = at.occupied("german"), at.occupied("soviet")

    def ok(x: str) -> bool:  # displace_fronts' test of a hex a marker may trace by
        return x not in germans and (x in sov or not at.in_zoc(x, germans))

    def walled(x: str) -> bool:  # many searches find no path
        return ok(x) and at.data.axial(x)[0] % 9 != 4
    compared = found = 0
    for passable in (ok, walled):
        for h in [*hexes, *sorted(at.pos.fronts.values())]:
            got = fronts._path_to_source(at, h, passable)
            assert got == by_heap(at, h, passable), (h, at.pos.turn)
            compared += 1
            found += got is not None
    return compared, found


def test_14_1_the_trace_finds_the_path_the_heap_search_found() -> None:
    st = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    hexes = sorted(st.data.map.ids)
    compared = found = 0
    for i, at in enumerate(decisions(st, Chooser("bbtrace/1"), 1500)):
        if i % 150 == 0:
            assert isinstance(at, BBState)
            n, f = compare(at, hexes[i % 5::5])
            compared, found = compared + n, found + f
    # searches that found a path and searches that found none, over a game's positions
    assert compared > 2000 and 0 < found < compared, (compared, found)


def test_14_1_a_marker_traced_in_a_fresh_process_loads_no_heapq() -> None:
    code = (
        "import sys\n"
        "from engines.backhand import ENGINE, fronts\n"
        "s = ENGINE.new_state('high-water-mark', ENGINE.resolve_options({}))\n"
        "fronts._PATHS.clear()\n"
        "fronts.displace_fronts(s)\n"
        "assert fronts._PATHS, 'no search ran'\n"
        "print('heapq' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
