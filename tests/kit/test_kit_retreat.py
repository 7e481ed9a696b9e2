"""Retreat under For the Motherland! 8.6 / 8.6.1 priorities."""

from __future__ import annotations

from collections.abc import Callable

from engines.hexkit.retreat import priority_ranker, retreat_options
from kit.helpers import make_map

M = make_map(7, 7)


def motherland_priorities(friends: set[str], enemies: set[str],
                          zoc: set[str]) -> list[Callable[[str], bool]]:
    """8.6.1: 1 empty, no ZOC; 2 friendly, no ZOC; 3 friendly in ZOC; 4 empty in ZOC."""
    def empty(h: str) -> bool:
        return h not in friends and h not in enemies

    return [
        lambda h: empty(h) and h not in zoc,
        lambda h: h in friends and h not in zoc,
        lambda h: h in friends and h in zoc,
        lambda h: empty(h) and h in zoc,
    ]


def test_first_priority_wins_and_ties_are_all_offered() -> None:
    # defender in 0404; enemies north (0403) exert ZOC on their neighbors
    enemies = {"0403"}
    zoc = set(M.neighbors("0403"))
    rank = priority_ranker(motherland_priorities(set(), enemies, zoc))
    opts = retreat_options(M, "0404", 1, rank)
    free = sorted(h for h in M.neighbors("0404") if h not in zoc and h not in enemies)
    assert opts.complete and opts.ranks == (0,)
    assert opts.hexes == tuple(free) and len(free) >= 2


def test_friendly_hex_beats_zoc_hex() -> None:
    neighbors = M.neighbors("0404")
    friends = {neighbors[0]}
    zoc = set(neighbors)  # every way out is in enemy ZOC
    rank = priority_ranker(motherland_priorities(friends, set(), zoc))
    opts = retreat_options(M, "0404", 1, rank)
    assert opts.hexes == (neighbors[0],) and opts.ranks == (2,)
    zoc -= {neighbors[3]}
    opts = retreat_options(M, "0404", 1, priority_ranker(
        motherland_priorities(friends, set(), zoc)))
    assert opts.hexes == (neighbors[3],) and opts.ranks == (0,)


def test_each_hex_farther_from_the_combat_hex() -> None:
    rank = priority_ranker([lambda h: True])
    opts = retreat_options(M, "0404", 2, rank)
    assert opts.complete
    for path in opts.paths:
        assert len(path) == 2
        assert M.distance("0404", path[0]) == 1 and M.distance("0404", path[1]) == 2
    assert set(opts.hexes) == set(M.ring("0404", 2))
    # away from a different hex (an attacker retreating from the hex it attacked)
    away = retreat_options(M, "0404", 1, rank, away_from="0405")
    assert all(M.distance(h, "0405") == 2 for h in away.hexes)


def test_blocked_retreat_is_incomplete() -> None:
    enemies = set(M.neighbors("0404")) - {"0505"}
    rank = priority_ranker(motherland_priorities(set(), enemies, set()))
    opts = retreat_options(M, "0404", 2, rank, may_cross=lambda a, b: b != "0506")
    # only 0505 is open, then everything farther except the barred hexside's far side
    assert opts.complete and all(p[0] == "0505" for p in opts.paths)
    assert "0506" not in opts.hexes
    boxed = retreat_options(M, "0404", 2, priority_ranker([lambda h: False]))
    assert not boxed.complete and boxed.paths == ((),) and boxed.hexes == ()


def test_earlier_steps_rank_first() -> None:
    # a first hex of rank 0 beats a first hex of rank 1 even if its second step is worse
    first_ok = "0405"
    zoc = set(M.ring("0404", 1)) - {first_ok} | set(M.ring("0404", 2))
    rank = priority_ranker(motherland_priorities(set(), set(), zoc))
    opts = retreat_options(M, "0404", 2, rank)
    assert all(p[0] == first_ok for p in opts.paths)
    assert opts.ranks == (0, 3)


def test_a_retreat_in_an_enemy_zoc_goes_on_and_the_shortest_wins() -> None:
    """White Death 14.C.1: a retreat whose last hex is in an enemy ZOC goes on until it is
    not, up to a limit; 14.B judges the route as a whole (not through a ZOC first, then
    the end farthest from the enemy)."""
    start = "0404"
    ring2 = {h for h in M.ids if M.distance(h, start) == 2}
    rank = priority_ranker([lambda h: True])
    # the kit's usual retreat is unchanged: two hexes, each farther, ending in the ring
    plain = retreat_options(M, start, 2, rank)
    assert plain.complete and set(plain.hexes) == ring2
    # every end two hexes out is in a ZOC: three hexes, none shorter, none longer
    opts = retreat_options(M, start, 2, rank, may_end=lambda h: h not in ring2, max_length=4)
    assert opts.complete and opts.paths and all(len(p) == 3 for p in opts.paths)
    assert {M.distance(h, start) for h in opts.hexes} == {3}
    # and where the limit is too short there is no retreat
    assert not retreat_options(M, start, 2, rank, may_end=lambda h: h not in ring2).complete
    # the route as a whole: the end farthest from an enemy in 0101, all such routes
    far = retreat_options(M, start, 2, rank, path_rank=lambda p: (-M.distance(p[-1], "0101"),))
    best = max(M.distance(h, "0101") for h in ring2)
    assert far.complete and {M.distance(h, "0101") for h in far.hexes} == {best}
    assert len(far.paths) == len({p for p in plain.paths if M.distance(p[-1], "0101") == best})


def test_a_retreat_may_step_sideways_when_only_its_end_must_be_away() -> None:
    """White Death 14.B: "two hexes away from its original hex", not each step farther."""
    start = "0404"
    n1, n2 = next((a, b) for a in M.neighbors(start) for b in M.neighbors(start)
                  if b in M.neighbors(a))
    m = next(h for h in M.neighbors(n2)
             if M.distance(h, start) == 2 and h not in M.neighbors(n1))

    def rank(path: tuple[str, ...], h: str) -> int | None:
        # the way out: n1 first, then along to n2, then out to m
        allowed = {(): n1, (n1,): n2, (n1, n2): m}.get(path)
        return 0 if h == allowed else None

    assert not retreat_options(M, start, 2, rank, max_length=3).complete
    opts = retreat_options(M, start, 2, rank, farther=False, max_length=3)
    assert opts.complete and opts.paths == ((n1, n2, m),)
