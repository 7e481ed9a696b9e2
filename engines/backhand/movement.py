"""15.0 movement: where a unit or formation stack may end its move, and what a move
costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.position import (
    AttackArgs,
    MoveArgs,
    PhaseArgs,
    other,
)
from engines.hexkit.movement import reachable
from engines.hexkit.zoc import STOP_ON_ENTRY

if TYPE_CHECKING:
    from engines.backhand.state import BBState


def destinations(s: BBState, units: tuple[str, ...], origin: str) -> list[str]:
    """Where a unit or formation stack may end a move (15.0, TEC by weather); the
    same for the players' two verifiers and a probe's twin, so remembered by what it
    reads: the units, their hex, the weather and the placement."""
    return list(s.placed("destinations", f"{s.pos.weather} {origin} {units}",
                             lambda: tuple(_destinations(s, units, origin))))


def _destinations(s: BBState, units: tuple[str, ...], origin: str) -> list[str]:
    pos, m = s.pos, s.data.map
    side = s.side_of(units[0])
    mot = any(s.motorized(u) for u in units)
    ma = min(s.data.units[u].ma for u in units)
    enemy = s.occupied(other(side))
    ez = s.zoc(other(side))
    costs = s.data.costs[(pos.weather, mot)]
    friends = s.occupied(side)
    alone = s.stack_fits(sorted(set(units)), side)  # into a hex no friend holds
    reach = reachable(costs, origin, ma, zoc=ez, policy=STOP_ON_ENTRY, blocked=enemy,
                      can_end=lambda h: s.stack_ok(h, side, units) if h in friends
                      else alone)
    ends = set(reach.ends)
    if pos.weather != "frozen":
        # 15.31: across a river by spending all MPs, from a hex adjacent to it
        for n in m.neighbors(origin):
            if (m.has_side(origin, n, "river") and not m.has_side(origin, n, "bridge")
                    and n not in enemy and costs.move_class.enter.get(m.terrain_of(n))
                    is not None and s.stack_ok(n, side, list(units))):
                ends.add(n)
    return sorted(ends)


def pays(s: BBState, a: PhaseArgs | MoveArgs | AttackArgs, units: tuple[str, ...]) -> bool:
    """Whether the move or attack costs an activity point (15.2, 15.3, 16.0)."""
    return a.kind == "sp" and not all(s.data.units[u].variable for u in units
                                      if not u.startswith("UP-"))
