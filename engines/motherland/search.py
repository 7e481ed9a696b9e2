"""Pure searches over the map's adjacency: supply lines (9.2) and rail connection.

They take the neighbour tables and blocked hexes as arguments and read no position, so
the supply rules, the victory check (19.1.3) and evacuation (12.2) share them and they
can be tested on their own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping


def spread(starts: dict[str, int], blocked: frozenset[str],
           nbrs: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    """Multi-source search: hex -> the most budget left on reaching it."""
    best: dict[str, int] = {}
    queue: deque[str] = deque()
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
        for n in nbrs[h]:
            if get(n, -1) < b and n not in blocked:
                best[n] = b
                push(n)
    return best


def rail_from(rail: Mapping[str, tuple[str, ...]], starts: Iterable[str],
              blocked: frozenset[str]) -> set[str]:
    """Railroad hexes connected to ``starts`` without entering ``blocked``."""
    seen = {h for h in starts if h in rail and h not in blocked}
    queue = deque(sorted(seen))
    while queue:
        h = queue.popleft()
        for n in rail.get(h, ()):
            if n not in seen and n not in blocked:
                seen.add(n)
                queue.append(n)
    return seen
