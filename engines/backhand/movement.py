"""15.0 movement: where a unit or formation stack may end its move, and what a move
costs."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from engines.backhand.fronts import paying_front
from engines.backhand.position import BOXES, OFF, MoveArgs, PhaseArgs, other
from engines.backhand.reinforcements import formation_places

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engines.backhand.combat import AttackArgs
    from engines.backhand.state import BBState
    from engines.hexkit.moveclass import Cost, MoveClass
    from engines.hexkit.stepcosts import StepCosts

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
    if goal is None:
        # the kit's ZOC policies load with the first listing: a received move's check
        # reads the ZOC as a set of hexes and never loads them (issue 35)
        from engines.hexkit.zoc import STOP_ON_ENTRY

        reach = _THIS.reachable(costs, origin, ma, zoc=ez, policy=STOP_ON_ENTRY,
                                blocked=enemy, can_end=can_end)
        ends = set(reach.ends)
    else:
        # only the goal's stacking is asked (issue 35: one stacking check a hex of the
        # search, each reading the placement, to check one received move)
        ends = ({goal} if _within(s, costs, origin, goal, ma, ez, enemy) and can_end(goal)
                else set())
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


def _within(s: BBState, costs: StepCosts, origin: str, goal: str, ma: int,
            ez: frozenset[str], enemy: Mapping[str, object]) -> bool:
    """Whether a move of ``ma`` MPs from ``origin`` ends in ``goal`` (15.0, 6.0): the
    goal among the hexes the kit's search (``reachable`` with STOP_ON_ENTRY, the enemy
    blocking) finishes, found by a search toward the goal (A*) that asks the same
    graph.  A hex's cost from the origin is its least, whatever the order hexes are
    met in; a hex in the enemy's ZOC is entered and left by no step (the origin
    excepted), whatever path reached it; so the goal is finished exactly when its
    least cost is within ``ma``.  Each hex is weighed by its cost so far and the
    least any move on to the goal can cost (:func:`least_step` a hex of the hex
    distance: no step costs less, so no hex is finished at more than its least cost),
    and one that cannot reach the goal within ``ma`` even so is not entered: checking
    a received move (issue 35) searched every hex cheaper than its goal, the way away
    from it too, and priced each one's steps."""
    m = costs.map
    index, ids = m.index, m.ids
    start = index[origin]  # KeyError, as the kit's search: the unit is not on the map
    target = index.get(goal)
    if target is None or target == start:
        return False  # not a hex of the map; a unit's own hex is never among its ends
    budget = ma * costs.scale
    per_hex = int(least_step(costs.move_class) * costs.scale)
    axial = s.data.axial
    gq, gr = axial(goal)

    def rest(h: str) -> int:  # the least the move from ``h`` on to the goal costs
        q, r = axial(h)
        return per_hex * ((abs(q - gq) + abs(r - gr) + abs(q + r - gq - gr)) // 2)
    first = rest(origin)
    if first > budget:
        return False  # every hex on the way weighs as much or more (no step is cheaper)
    best: dict[int, int] = {start: 0}
    done: set[int] = set()
    # the hexes to finish by weight, a list for each weight up to the budget (a hex
    # above it is never entered), each hex one int, cost * size + index: no weight met
    # is below the one being finished (a step costs at least the drop in ``rest`` it
    # makes), so the lists are taken in order, each hex of the lightest list finished at
    # its least cost, in any order within it; no heapq, whose load was 0.7 M
    # instructions of a receive (issue 35)
    size = len(ids)
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[first].append(start)
    get_best, rows, step_of = best.get, m.neighbor_rows, costs.step
    for bucket in buckets:
        while bucket:
            c, i = divmod(bucket.pop(), size)
            if i in done or c != best[i]:
                continue
            if i == target:
                return True
            done.add(i)
            if i != start and ids[i] in ez:
                continue  # 6.0: a move ends on entering an enemy ZOC
            # a step is priced only when the least any step costs (``per_hex``) would not
            # already leave its hex unentered: beyond the budget, no cheaper than the hex's
            # cost so far, or an enemy's (the same hexes entered at the same costs as
            # pricing every step of the hex; most of a search's steps lead away from its
            # goal, and pricing them was most of checking a move, issue 35)
            least = c + per_hex
            for k, j in enumerate(rows[i]):
                old = get_best(j)
                if old is not None and least >= old:
                    continue
                h = ids[j]
                if old is None and h in enemy:
                    continue
                left = rest(h)
                if least + left > budget:
                    continue
                step = step_of(i, k)
                if step < 0:
                    continue
                nc = c + step
                if (old is not None and nc >= old) or nc + left > budget:
                    continue
                best[j] = nc
                buckets[nc + left].append(nc * size + j)
    return False


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
