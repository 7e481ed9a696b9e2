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
    farther: bool = True,
    may_end: Callable[[HexId], bool] | None = None,
    max_length: int | None = None,
    path_rank: Callable[[tuple[HexId, ...]], Sequence[int]] | None = None,
    neighbors: Callable[[HexId], Sequence[HexId]] | None = None,
) -> RetreatOptions:
    """All best retreat paths of ``length`` hexes from ``start``.

    Every step must increase the distance from ``away_from`` (default: ``start``, the
    combat hex of the defender) and be allowed by ``may_cross(a, b)`` (sea, lake and
    frozen-access hexsides, For the Motherland! 8.6.4) and by ``rank``.  Paths are
    compared by their rank sequences, first hex first (the priorities choose each hex
    in turn); ties are all returned, sorted.

    Rules that judge the retreat as a whole (White Death Rule 14.B: "place the unit two
    hexes away from its original hex ... generally away from enemy units"; 14.C.1: a
    retreat that would end in an enemy ZOC goes on until it does not) set, all optional:

    * ``farther=False``: a step need not be farther from ``away_from``; the retreat must
      still end as far from it as ``length`` steps each farther would (``length`` more
      than ``start`` is).
    * ``may_end``: where a retreat may stop; one whose last hex fails it goes on, hex by
      hex, up to ``max_length`` hexes (default ``length``), and the shortest that may
      stop wins.  No such path: ``complete`` is false.
    * ``path_rank``: compare whole paths by this key, lower first, instead of by their
      rank sequences (``ranks`` is then the first returned path's).

    ``neighbors``: what ``hexmap.neighbors`` gives, found by the game's own way (For the
    Motherland! works out a few hexes' without the map's whole table).
    """
    if length < 0:
        raise ValueError(f"negative retreat length {length}")
    top = length if max_length is None else max_length
    if top < length:
        raise ValueError(f"max_length {top} is shorter than the retreat's {length} hexes")
    origin = away_from if away_from is not None else start
    hexmap.require(start)
    near = hexmap.neighbors if neighbors is None else neighbors
    far = hexmap.distance(start, origin) + length

    def may_stop(path: tuple[HexId, ...]) -> bool:
        end = path[-1] if path else start
        if not farther and hexmap.distance(end, origin) < far:
            return False
        return may_end is None or may_end(end)

    def pick(found: list[tuple[tuple[HexId, ...], tuple[int, ...]]], complete: bool
             ) -> RetreatOptions:
        if path_rank is not None and complete:
            keyed = [(tuple(path_rank(p)), p, r) for p, r in found]
            low = min(k for k, _, _ in keyed)
            chosen = sorted((p, r) for k, p, r in keyed if k == low)
            return RetreatOptions(tuple(p for p, _ in chosen), True, chosen[0][1])
        low_r = min(r for _, r in found)
        return RetreatOptions(tuple(sorted(p for p, r in found if r == low_r)), complete,
                              low_r)

    # breadth-first over paths, a level per hex; retreats are a few hexes, so this stays
    # small, and the first level where a retreat may stop is the answer
    level: list[tuple[tuple[HexId, ...], tuple[int, ...]]] = [((), ())]
    for n in range(top + 1):
        if n > 0:
            nxt: list[tuple[tuple[HexId, ...], tuple[int, ...]]] = []
            for path, ranks in level:
                here = path[-1] if path else start
                d = hexmap.distance(here, origin)
                for nb in near(here):
                    if nb in path or nb == start:
                        continue
                    if farther and hexmap.distance(nb, origin) <= d:
                        continue
                    if may_cross is not None and not may_cross(here, nb):
                        continue
                    r = rank(path, nb)
                    if r is None:
                        continue
                    nxt.append(((*path, nb), (*ranks, r)))
            if not nxt:
                break
            level = nxt
        if n >= length:
            good = [(p, r) for p, r in level if may_stop(p)]
            if good:
                return pick(good, True)
    return pick(level, False)
