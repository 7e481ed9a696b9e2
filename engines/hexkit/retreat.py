"""Retreat path search under a game's priority list.

For the Motherland! 8.6 is the model: each hex of a retreat must be farther from the
combat hex than the last, and where several hexes qualify the rules rank them (8.6.1:
empty and free of enemy ZOC first; then with a friendly unit and no ZOC; then with a
friendly unit in ZOC; then empty in ZOC).  The ranking is the game's (a list of
predicates, or any callback), and the kit returns *every* equally best path, because
the rules leave the choice among them to the owning player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap

#: rank of entering ``hex`` after ``path``: lower is better, ``None`` forbids it
Ranker = Callable[[tuple[HexId, ...], HexId], int | None]


def priority_ranker(priorities: Sequence[Callable[[HexId], bool]]) -> Ranker:
    """A ranker from an ordered list of tests: rank is the index of the first that holds.

    A hex none of them accepts may not be entered.  For the Motherland! 8.6.1 is
    ``[empty_no_zoc, friendly_no_zoc, friendly_in_zoc, empty_in_zoc]``.
    """
    tests = tuple(priorities)

    def rank(_path: tuple[HexId, ...], h: HexId) -> int | None:
        for i, test in enumerate(tests):
            if test(h):
                return i
        return None

    return rank


@dataclass(frozen=True)
class RetreatOptions:
    """The best retreat paths (each starting after the retreating hex), all equally ranked.

    ``complete`` is false when no path of the full length exists: then ``paths`` are
    the best of the longest possible and the game applies its rule for the rest (step
    losses, elimination).  ``ranks`` is the rank sequence the paths share.
    """

    paths: tuple[tuple[HexId, ...], ...]
    complete: bool
    ranks: tuple[int, ...]

    @property
    def hexes(self) -> tuple[HexId, ...]:
        """Where the retreat can end, sorted."""
        return tuple(sorted({p[-1] for p in self.paths if p}))


def retreat_options(
    hexmap: HexMap,
    start: HexId,
    length: int,
    rank: Ranker,
    *,
    away_from: HexId | None = None,
    may_cross: Callable[[HexId, HexId], bool] | None = None,
) -> RetreatOptions:
    """All best retreat paths of ``length`` hexes from ``start``.

    Every step must increase the distance from ``away_from`` (default: ``start``, the
    combat hex of the defender) and be allowed by ``may_cross(a, b)`` (sea, lake and
    frozen-access hexsides, For the Motherland! 8.6.4) and by ``rank``.  Paths are
    compared by their rank sequences, first hex first (the priorities choose each hex
    in turn); ties are all returned, sorted.
    """
    if length < 0:
        raise ValueError(f"negative retreat length {length}")
    origin = away_from if away_from is not None else start
    hexmap.require(start)
    # depth-first over paths; retreats are at most a few hexes, so this stays small
    best: dict[int, tuple[tuple[int, ...], list[tuple[HexId, ...]]]] = {}

    def record(path: tuple[HexId, ...], ranks: tuple[int, ...]) -> None:
        n = len(path)
        cur = best.get(n)
        if cur is None or ranks < cur[0]:
            best[n] = (ranks, [path])
        elif ranks == cur[0]:
            cur[1].append(path)

    def extend(path: tuple[HexId, ...], ranks: tuple[int, ...]) -> None:
        record(path, ranks)
        if len(path) == length:
            return
        here = path[-1] if path else start
        d = hexmap.distance(here, origin)
        for n in hexmap.neighbors(here):
            if n in path or n == start or hexmap.distance(n, origin) <= d:
                continue
            if may_cross is not None and not may_cross(here, n):
                continue
            r = rank(path, n)
            if r is None:
                continue
            extend((*path, n), (*ranks, r))

    extend((), ())
    longest = max(best)
    ranks, paths = best[longest]
    return RetreatOptions(tuple(sorted(paths)), longest == length, ranks)
