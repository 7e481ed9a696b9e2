"""15.0 movement: where a unit or formation stack may end its move, and what a move
costs."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from engines.backhand.fronts import paying_front
from engines.backhand.position import BOXES, OFF, MoveArgs, PhaseArgs, other
from engines.backhand.reinforcements import formation_places
from engines.hexkit.zoc import STOP_ON_ENTRY

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from engines.backhand.combat import AttackArgs
    from engines.backhand.state import BBState
    from engines.hexkit.movement import Cost, MoveClass

#: this module: its ``reachable`` is read as an attribute, so that the kit's search loads
#: with the first move looked at (the other phases' commands never search: issue 35) and
#: stays this module's name for it
_THIS = sys.modules[__name__]


def __getattr__(name: str) -> Any:
    if name == "reachable":
        from engines.hexkit.movement import reachable

        globals()["reachable"] = reachable
        return reachable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def destinations(s: BBState, units: tuple[str, ...], origin: str) -> list[str]:
    """Where a unit or formation stack may end a move (15.0, TEC by weather); the
    same for the players' two verifiers and a probe's twin, so remembered by what it
    reads: the units, their hex, the weather and the placement."""
    return list(s.placed("destinations", f"{s.pos.weather} {origin} {units}",
                             lambda: tuple(_destinations(s, units, origin))))


def reaches(s: BBState, units: tuple[str, ...], origin: str, h: str) -> bool:
    """Whether ``h`` is among :func:`destinations`, by a search that stops once ``h``'s
    cost is final: checking one move of a received file needs no more of the map (every
    hex the search has finished is one the whole search reaches at the same cost)."""
    return h in _destinations(s, units, origin, goal=h)


def _destinations(s: BBState, units: tuple[str, ...], origin: str,
                  goal: str | None = None) -> list[str]:
    pos, m = s.pos, s.data.map
    side = s.side_of(units[0])
    mot = any(s.motorized(u) for u in units)
    ma = min(s.data.units[u].ma for u in units)
    enemy = s.occupied(other(side))
    ez = s.zoc_set(other(side))
    costs = s.data.costs[(pos.weather, mot)]
    friends = s.occupied(side)
    alone = s.stack_fits(sorted(set(units)), side)  # into a hex no friend holds

    def can_end(h: str) -> bool:
        return s.stack_ok(h, side, units) if h in friends else alone
    # with a goal only the goal's stacking is asked: the search has finished every hex
    # it stopped at, and the kit asks can_end of each (issue 35: one stacking check a
    # hex of the search, each reading the placement, to check one received move)
    blocked: Mapping[str, object] | Callable[[str], bool] = enemy
    least = least_step(costs.move_class)
    if goal is not None and least:
        blocked = _off_the_way(s, origin, goal, ma, least, enemy)
    reach = _THIS.reachable(costs, origin, ma, zoc=ez, policy=STOP_ON_ENTRY, blocked=blocked,
                            can_end=can_end if goal is None else None, goal=goal)
    if goal is None:
        ends = set(reach.ends)
    else:
        ends = {goal} if goal in reach.ends and can_end(goal) else set()
    if pos.weather != "frozen":
        # 15.31: across a river by spending all MPs, from a hex adjacent to it
        for n in m.neighbors(origin):
            if (m.has_side(origin, n, "river") and not m.has_side(origin, n, "bridge")
                    and n not in enemy and costs.move_class.enter.get(m.terrain_of(n))
                    is not None and s.stack_ok(n, side, list(units))):
                ends.add(n)
    return sorted(ends)


#: :func:`least_step` of each move class met, by its id (with the class, which a hit
#: must be): asked for every move checked
_LEAST: dict[int, tuple[MoveClass, Cost]] = {}


def least_step(mc: MoveClass) -> Cost:
    """The least a step of ``mc`` can cost (15.0, the TEC): the cheapest hex to enter or
    network to move along, every extra (a hexside, a hex feature, leaving a terrain)
    adding to it; 0 (no bound) for a class that prices a hex otherwise or lowers a
    cost anywhere."""
    kept = _LEAST.get(id(mc))
    if kept is not None and kept[0] is mc:
        return kept[1]
    least = _least_step(mc)
    _LEAST[id(mc)] = (mc, least)
    return least


def _least_step(mc: MoveClass) -> Cost:
    extras = [*mc.leave.values(), *mc.hexside.values(), *mc.hex_features.values(),
              *mc.leave_features.values()]
    if mc.dearest or mc.overrides or any(x is not None and x < 0 for x in extras):
        return 0
    return min([c for c in mc.enter.values() if c is not None] + list(mc.networks.values()),
               default=0)


def _off_the_way(s: BBState, origin: str, goal: str, ma: int, least: Cost,
                 enemy: Mapping[str, object]) -> Callable[[str], bool]:
    """The hexes a search for ``goal`` need not enter: the enemy's, and those no move of
    ``ma`` MPs from ``origin`` to ``goal`` can pass, its hexes from the origin and on to
    the goal costing at least ``least`` each (a step is one hex: the hex distance counts
    them at least).  The goal's cost is the same without them (issue 35: a received
    move's check searched every hex cheaper than its goal, the way away from it too)."""
    axial = s.data.axial
    oq, orr = axial(origin)
    gq, gr = axial(goal)
    steps = ma // least  # the most hexes a move of ma can enter
    memo: dict[str, bool] = {}

    def blocked(h: str) -> bool:
        out = memo.get(h)
        if out is None:
            q, r = axial(h)
            out = memo[h] = h in enemy or (
                abs(q - oq) + abs(r - orr) + abs(q + r - oq - orr)
                + abs(q - gq) + abs(r - gr) + abs(q + r - gq - gr)) // 2 > steps
        return out
    return blocked


def pays(s: BBState, a: PhaseArgs | MoveArgs | AttackArgs, units: tuple[str, ...]) -> bool:
    """Whether the move or attack costs an activity point (15.2, 15.3, 16.0)."""
    return a.kind == "sp" and not all(s.data.units[u].variable for u in units
                                      if not u.startswith("UP-"))


def may_move(s: BBState, a: PhaseArgs, u: str) -> bool:
    """Whether unit ``u`` may move alone in this phase (15.0, 15.1, 13.1, 4.2 VI.E), its
    activity point paid (15.2, 15.3): what :func:`movers` lists, asked of one unit."""
    x = s.pos.units[u]
    if (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.moved
            or x.admin or x.refit or (a.kind == "general" and x.fought)):
        return False
    if pays(s, a, (u,)):
        if a.side == "german" and s.pos.ap["german"] <= 0:
            return False
        if a.side == "soviet" and paying_front(s, [x.at]) is None:
            return False
    return True


def movers(s: BBState, a: PhaseArgs) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
        ((u,), (u,)) for u in sorted(s.pos.units) if may_move(s, a, u)]
    for fid in s.data.formations:
        out += formation_movers(s, a, fid)
    return out


def formation_movers(s: BBState, a: PhaseArgs, fid: str
                     ) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The stacks of formation ``fid`` that :func:`movers` lists, asked of the one
    formation: checking a received formation's move need not ask every unit whether it
    may move (issue 35: two formation moves of a file asked 500 units)."""
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    if fid in s.data.formations and a.side == "german" and (
            a.kind != "sp" or s.pos.ap["german"] > 0):
        # 15.2: the formation's units that begin the phase stacked in a hex, and may
        # still move, move as one stack for one point (all survivors need not be there)
        for h, members in formation_places(s, fid):
            free = tuple(m for m in members if not (
                s.pos.units[m].moved or s.pos.units[m].admin or s.pos.units[m].refit
                or (a.kind == "general" and s.pos.units[m].fought)))
            if h not in BOXES and len(free) > 1:
                out.append(((fid, h), free))
    return out
