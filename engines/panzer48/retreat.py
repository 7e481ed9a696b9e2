"""48th Panzer Korps: retreats (8.2, 8.3) and the advance after combat (8.4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.hexkit import HexMap
from engines.panzer48.data import other
from engines.panzer48.position import Combat, RetreatArgs
from engines.panzer48.stacking import fits
from engines.panzer48.zoc import zoc

if TYPE_CHECKING:
    from engines.panzer48.state import P48State


def firing_units(s: P48State, args: RetreatArgs) -> list[str]:
    """8.3 priority 3's "adjacent firing units": the enemy units that have fired in this
    combat and stand, on the map, adjacent to the hex the retreat starts from (supporting
    artillery at range is not adjacent, 7.6)."""
    c = s.pos.combat
    if c is None:
        return []
    side = s.d.units[args.units[0]].side
    return [u for u in c.fired
            if s.d.units[u].side != side and s.pos.units[u].where == "map"
            and s.d.map.distance(s.pos.units[u].hex, args.start) == 1]


def first_stop(m: HexMap, start: str, length: int, step_ok: Callable[[str, str], bool],
               may_end: Callable[[str], bool]) -> int | None:
    """The fewest hexes, at least ``length``, after which a retreat from ``start`` may
    stop, each hex one farther from ``start`` than the last (so the hexes reachable after
    n steps are a ring's subset, found without listing paths); None if it never can.
    8.3 sets no limit ("it must continue retreating until it reaches a noncontrolled
    hex"): the map's edge is the only one."""
    frontier = {start}
    n = 0
    while frontier:
        if n >= length and any(may_end(h) for h in frontier):
            return n
        n += 1
        frontier = {nb for h in sorted(frontier) for nb in m.neighbors(h)
                    if m.distance(nb, start) == n and step_ok(h, nb)}
    return None


@dataclass(frozen=True)
class RetreatPlan:
    """What 8.3 leaves the owner: ``kind`` "fit" (paths ending where the stack may
    stop), "overstacked" (no such hex can be reached: paths ending out of enemy ZOC,
    then the owner eliminates retreating units of his choice until the stack fits),
    "edge" (no path on the map: paths to an edge hex, then off the map; no hexes when
    the retreat starts on the edge) or "none" (eliminated)."""

    kind: str
    paths: tuple[tuple[str, ...], ...] = ()


def retreat_plan(s: P48State, args: RetreatArgs) -> RetreatPlan:
    """8.3: the best paths under the book's priorities, in its order: (1) the stack
    retreats together (one path for all of ``args.units``); (2) avoid enemy-controlled
    hexes if possible (fewest entered); (3) as far from the adjacent firing units as
    possible (the retreat's last hex, by its distance to the nearest of them); (4) into
    an enemy-controlled hex, the hex closest to a friendly unit.  Each hex is farther
    from the start than the last (the engine's reading of "the required number of
    hexes"), never across an unbridged river, never into an enemy-occupied hex; a path
    runs on past its length, as far as it must, to leave an enemy ZOC ("until it
    reaches a noncontrolled hex") or an overstacked hex ("until it reaches a hex in
    which it can legally stack")."""
    # the kit's retreat search loads with the first retreat looked at (a combat's
    # result), not with every command of the game (issue 35: 1.2 M instructions)
    from engines.hexkit.retreat import retreat_options

    side = s.d.units[args.units[0]].side
    ez = zoc(s, other(side))
    weapons = any(s.d.units[u].target == "W" for u in args.units)
    friends = [s.pos.units[u].hex for u in s.on_map(side) if u not in args.units]
    enemy = s.facts().occupied(other(side))
    firers = sorted({s.pos.units[u].hex for u in firing_units(s, args)})
    m = s.d.map

    def rank(path: tuple[str, ...], h: str) -> int | None:
        if h in enemy:
            return None
        if h not in ez:
            return 0
        if weapons and all(s.d.units[u].target == "W" for u in args.units):
            return None  # weapons never retreat into an enemy ZOC
        near = min((m.distance(h, f) for f in friends), default=99)
        return 1 + min(near, 50)  # priority 4: the hex closest to a friend

    def whole(path: tuple[str, ...]) -> list[int]:
        # lower is better, the book's priorities in its order
        zoc_hexes = sum(1 for h in path if h in ez)  # priority 2
        away = min((m.distance(path[-1], f) for f in firers), default=0)  # priority 3
        return [zoc_hexes, -away, *(rank(path[:i], h) or 0 for i, h in enumerate(path))]

    def cross(a: str, b: str) -> bool:
        return not (m.has_side(a, b, "river") and not (
            m.has_side(a, b, "river_bridge") or m.has_side(a, b, "bridge")))

    def step_ok(a: str, b: str) -> bool:
        return cross(a, b) and rank((), b) is not None

    def best(length: int, may_end: Callable[[str], bool]) -> tuple[tuple[str, ...], ...]:
        top = first_stop(m, args.start, length, step_ok, may_end)
        if top is None or top == 0:
            return ()
        opts = retreat_options(m, args.start, length, rank, may_cross=cross,
                               may_end=may_end, max_length=top, path_rank=whole)
        return tuple(sorted(opts.paths)) if opts.complete and all(opts.paths) else ()

    facts = s.facts()
    # stacking satisfied at the end of the retreat, and never ending in an enemy ZOC
    paths = best(args.length, lambda h: h not in ez and fits(s, h, side, args.units, facts))
    if paths:
        return RetreatPlan("fit", paths)
    paths = best(args.length, lambda h: h not in ez)
    if paths:
        return RetreatPlan("overstacked", paths)
    # Map-Edge: "only if they would be eliminated otherwise", by the nearest edge hex
    if args.start in s.d.edge:
        return RetreatPlan("edge")
    paths = best(1, lambda h: h in s.d.edge)
    if paths:
        return RetreatPlan("edge", paths)
    return RetreatPlan("none")


def retreat_paths(s: P48State, args: RetreatArgs) -> tuple[list[tuple[str, ...]], bool]:
    """8.3: the best paths ending where the stack may stop (``retreat_plan``'s "fit"),
    and whether there are any."""
    plan = retreat_plan(s, args)
    return (list(plan.paths), True) if plan.kind == "fit" else ([], False)


def on_path(c: Combat, u: str, here: str, n: str) -> bool:
    """8.4: the step ``here`` to ``n`` follows "the exact path along which defending
    units retreated": the vacated hex first, then each hex of the retreat in turn, by a
    unit that has not left that path."""
    trail = [c.hex, *c.path] if c.path else []
    if u in c.strayed or not trail:
        return False
    if n == trail[0]:
        return here != trail[0]
    return here in trail and trail.index(here) + 1 < len(trail) and trail[
        trail.index(here) + 1] == n


def advance_hexes(s: P48State, u: str, here: str, left: int,
                  seen: frozenset[str] = frozenset()) -> list[str]:
    """The hexes ``u`` may advance into from ``here`` with ``left`` hexes to go: not
    enemy-occupied, never across unbridged major rivers (8.4), and a full hex only
    when the advance can go on from it to a hex within the limit (6)."""
    c = s.fight()
    m = s.d.map
    ez = zoc(s, other(c.attacker))
    out = []
    for n in m.neighbors(here):
        if n in seen or s.owner_at(n) == other(c.attacker):
            continue
        if m.has_side(here, n, "river") and not (
                m.has_side(here, n, "river_bridge") or m.has_side(here, n, "bridge")):
            continue  # 8.4: never across unbridged major rivers
        if not fits(s, n, c.attacker, [u]):
            stops = n in ez and not on_path(c, u, here, n)
            if left <= 1 or stops or not advance_hexes(s, u, n, left - 1, seen | {here, n}):
                continue
        out.append(n)
    return out
