"""15.1 administrative movement: what may move between the map and the boxes, and
where it may be placed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.fronts import in_range
from engines.backhand.position import OFF, PhaseArgs, other
from engines.backhand.supply import clear_region, in_supply

if TYPE_CHECKING:
    from engines.backhand.state import BBState


def groups_in(s: BBState, a: PhaseArgs) -> list[tuple[str, tuple[str, ...]]]:
    """Each unit alone, and all units of a formation together (15.1 (1): "one unit
    (or all units part of the same formation)"), by the name that moves them; none
    under Frontnahe Auffrischung (13.1, 15.1)."""
    pos = s.pos
    rochade = (a.side == "german" and pos.rochade_now
               and pos.rochade_segment in ("", pos.segment))
    limit = 5 if rochade else 1  # 15.12: five in any one segment of the turn
    out: list[tuple[str, tuple[str, ...]]] = []
    forms: set[str] = set()
    for u, x in sorted(pos.units.items()):
        if x.at != "box2" or s.side_of(u) != a.side or x.refit:
            continue
        t = s.data.units[u]
        if not t.variable and pos.admin_moves >= limit:
            continue
        out.append((u, (u,)))
        if t.formation and t.formation not in forms:
            forms.add(t.formation)
            grp = tuple(m for m in s.data.formations[t.formation].members
                        if pos.units[m].at == "box2" and not pos.units[m].refit)
            if len(grp) > 1:
                out.append((t.formation, grp))
    return out


def admin_targets(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
    """Where ``grp`` may be placed from Box #2 (15.1 (1), 15.12), within the stacking
    limits (10.1, 10.2)."""
    return [h for h in hexes_for(s, a, grp) if s.stack_ok(h, a.side, grp)]


def any_admin_target(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> bool:
    """Whether ``grp`` has a hex to be placed in: only offered if it has (15.1 (1))."""
    return any(s.stack_ok(h, a.side, grp) for h in hexes_for(s, a, grp))


def hexes_for(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
    """15.12: "all units part of the same formation must be placed in the same hex":
    a unit whose formation already had units placed this segment joins them."""
    hexes = admin_hexes(s, a)
    form = s.data.units[grp[0]].formation
    if not form:
        return hexes
    placed = {s.pos.units[m].at for m in s.data.formations[form].members
              if s.pos.units[m].admin and s.pos.units[m].at not in OFF}
    return [h for h in hexes if h in placed] if placed else hexes


def admin_hexes(s: BBState, a: PhaseArgs) -> list[str]:
    """The hexes of 15.1 (1) and 15.11 for ``a.side``, kept for the position (they read
    the units' places and the Front Markers)."""
    return s.cached(("admin-hexes", f"{a.side} {s.pos.fronts}"), lambda: _admin_hexes(s, a))


def _admin_hexes(s: BBState, a: PhaseArgs) -> list[str]:
    """15.1 (1) and 15.11 but stacking: the same for every unit placed."""
    region = clear_region(s, a.side)
    friends = s.occupied(a.side)
    ez = s.zoc(other(a.side))
    near = set(friends)
    if a.side == "soviet":
        near |= set(s.pos.fronts.values())
    cand = set(near)
    for h in near:
        cand.update(s.data.map.neighbors(h))
    out = []
    for h in sorted(cand):
        if h not in region or h in ez or s.data.map.terrain_of(h) == "sea":
            continue
        if a.side == "soviet" and not in_range(s, h):  # 15.11
            continue
        out.append(h)
    return out


def groups_out(s: BBState, a: PhaseArgs) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each unit alone (its id), and all units of a formation stacked in one hex
    together (the formation and the hex): 15.1 (3) "one unit (or all units part of
    the same formation that are stacked in the same hex)"."""
    ez = s.zoc(other(a.side))
    pos = s.pos

    def free(u: str) -> bool:
        x = pos.units[u]
        return not (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.admin
                    or x.refit or x.oos or x.at in ez or not in_supply(s, x.at, a.side)
                    or (a.side == "soviet" and not in_range(s, x.at)))
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    stacks: set[tuple[str, str]] = set()
    for u in sorted(pos.units):
        if not free(u):
            continue
        t = s.data.units[u]
        if not t.variable and pos.admin_moves >= 100:
            continue  # one unit or formation a segment
        out.append(((u,), (u,)))
        h = pos.units[u].at
        if t.formation and (t.formation, h) not in stacks:
            stacks.add((t.formation, h))
            grp = tuple(m for m in s.data.formations[t.formation].members
                        if pos.units[m].at == h and free(m))
            if len(grp) > 1:
                out.append(((t.formation, h), grp))
    return out
