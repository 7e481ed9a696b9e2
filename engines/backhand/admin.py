"""15.1 administrative movement: what may move between the map and the boxes, and
where it may be placed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.fronts import in_range
from engines.backhand.position import OFF, PhaseArgs, other
from engines.backhand.supply import clear_region, in_clear_region, in_supply

if TYPE_CHECKING:
    from collections.abc import Callable

    from engines.backhand.state import BBState


def groups_in(s: BBState, a: PhaseArgs) -> list[tuple[str, tuple[str, ...]]]:
    """Each unit alone, and all units of a formation together (15.1 (1): "one unit
    (or all units part of the same formation)"), by the name that moves them; none
    under Frontnahe Auffrischung (13.1, 15.1)."""
    pos = s.pos
    limit = _limit_in(s, a)
    out: list[tuple[str, tuple[str, ...]]] = []
    forms: set[str] = set()
    for u in sorted(pos.units):
        if not _may_come_in(s, a, limit, u):
            continue
        t = s.data.units[u]
        out.append((u, (u,)))
        if t.formation and t.formation not in forms:
            forms.add(t.formation)
            grp = _formation_in(s, t.formation)
            if len(grp) > 1:
                out.append((t.formation, grp))
    return out


def group_in(s: BBState, a: PhaseArgs, name: str) -> tuple[str, ...] | None:
    """The units :func:`groups_in` lists under ``name`` (its first entry of that name),
    asked of that unit or formation alone: ``None`` where it lists none, or where a unit
    and a formation share the name (then the listing decides).  A received file's every
    administrative move is checked, and the listing reads every unit of the side."""
    pos = s.pos
    limit = _limit_in(s, a)
    form = s.data.formations.get(name)
    if name in pos.units:
        if form is not None or name not in s.data.units:
            return None
        return (name,) if _may_come_in(s, a, limit, name) else None
    if form is None or not any(_may_come_in(s, a, limit, m) for m in form.members):
        return None
    grp = _formation_in(s, name)
    return grp if len(grp) > 1 else None


def _limit_in(s: BBState, a: PhaseArgs) -> int:
    pos = s.pos
    rochade = (a.side == "german" and pos.rochade_now
               and pos.rochade_segment in ("", pos.segment))
    return 5 if rochade else 1  # 15.12: five in any one segment of the turn


def _may_come_in(s: BBState, a: PhaseArgs, limit: int, u: str) -> bool:
    x = s.pos.units[u]
    if x.at != "box2" or s.side_of(u) != a.side or x.refit:
        return False
    return s.data.units[u].variable != "" or s.pos.admin_moves < limit


def _formation_in(s: BBState, fid: str) -> tuple[str, ...]:
    units = s.pos.units
    return tuple(m for m in s.data.formations[fid].members
                 if units[m].at == "box2" and not units[m].refit)


def admin_targets(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
    """Where ``grp`` may be placed from Box #2 (15.1 (1), 15.12), within the stacking
    limits (10.1, 10.2)."""
    return [h for h in hexes_for(s, a, grp) if s.stack_ok(h, a.side, grp)]


def any_admin_target(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> bool:
    """Whether ``grp`` has a hex to be placed in: only offered if it has (15.1 (1)).
    :func:`admin_targets` asked hex by hex, the clear region last and by a search from
    the hex (:func:`~engines.backhand.supply.in_clear_region`): a received 'admin' is
    checked, and the region floods the whole map (issue 35)."""
    near = _near(s, a)
    placed = _formation_placed(s, grp)
    if placed:
        hexes = sorted(placed)
    else:
        cand = set(near)
        for h in near:
            cand.update(s.data.map.neighbors(h))
        hexes = sorted(cand)
    return any(_target(s, a, grp, near, h) for h in hexes)


def is_admin_target(s: BBState, a: PhaseArgs, grp: tuple[str, ...], h: str) -> bool:
    """Whether ``h`` is among :func:`admin_targets` of ``grp``, asked of ``h`` alone (a
    received 'place' is checked; the listing floods the clear region, issue 35)."""
    if h not in s.data.map.index:
        return False
    placed = _formation_placed(s, grp)
    return (not placed or h in placed) and _target(s, a, grp, _near(s, a), h)


def _target(s: BBState, a: PhaseArgs, grp: tuple[str, ...], near: set[str], h: str) -> bool:
    """:func:`admin_targets`' tests of map hex ``h`` but the formation's hex (15.12): in
    or next to ``near``, :func:`_admin_hex`, the stacking, and the clear region last."""
    return ((h in near or any(n in near for n in s.data.map.neighbors(h)))
            and _admin_hex(s, a, h) and s.stack_ok(h, a.side, grp)
            and in_clear_region(s, a.side, h))


def _near(s: BBState, a: PhaseArgs) -> set[str]:
    """15.1 (1): the hexes an administrative placement must be in or next to: the
    side's units', and the Front Markers' for the Soviets (15.11)."""
    near = set(s.occupied(a.side))
    if a.side == "soviet":
        near |= set(s.pos.fronts.values())
    return near


def _admin_hex(s: BBState, a: PhaseArgs, h: str) -> bool:
    """:func:`_admin_hexes`' tests of a candidate hex but the clear region, asked of one
    hex: free of EZOCs, no sea, in a Front Marker's range for the Soviets (15.11)."""
    if h in s.zoc(other(a.side)) or s.data.map.terrain_of(h) == "sea":
        return False
    return a.side != "soviet" or in_range(s, h)


def hexes_for(s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
    """15.12: "all units part of the same formation must be placed in the same hex":
    a unit whose formation already had units placed this segment joins them."""
    hexes = admin_hexes(s, a)
    placed = _formation_placed(s, grp)
    return [h for h in hexes if h in placed] if placed else hexes


def _formation_placed(s: BBState, grp: tuple[str, ...]) -> set[str]:
    """15.12: the hexes ``grp``'s formation had units placed in this segment."""
    form = s.data.units[grp[0]].formation
    if not form:
        return set()
    return {s.pos.units[m].at for m in s.data.formations[form].members
            if s.pos.units[m].admin and s.pos.units[m].at not in OFF}


def admin_hexes(s: BBState, a: PhaseArgs) -> list[str]:
    """The hexes of 15.1 (1) and 15.11 for ``a.side``, kept for the placement and the
    Front Markers, which is all they read: a received 'admin' is checked, its 'place'
    listed and checked, at the same placement (issue 35)."""
    return list(s.placed("admin-hexes", f"{a.side} {s.pos.fronts}",
                         lambda: tuple(_admin_hexes(s, a))))


def _admin_hexes(s: BBState, a: PhaseArgs) -> list[str]:
    """15.1 (1) and 15.11 but stacking: the same for every unit placed."""
    region = clear_region(s, a.side)
    ez = s.zoc(other(a.side))
    near = _near(s, a)
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
    free = _free_out(s, a)
    pos = s.pos
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


def group_out(s: BBState, a: PhaseArgs, name: tuple[str, ...]) -> tuple[str, ...] | None:
    """The units :func:`groups_out` lists under ``name`` (a unit, or a formation and
    its hex), asked of those units alone, else ``None``: a received file's every
    administrative move is checked, and the listing traces supply (7.0) for every unit
    of the side, a flood of the whole map after every move (issue 35)."""
    pos = s.pos
    free = _free_out(s, a)

    def first(u: str) -> bool:
        return free(u) and (s.data.units[u].variable != "" or pos.admin_moves < 100)
    if len(name) == 1:
        u = name[0]
        return (u,) if u in pos.units and first(u) else None
    if len(name) != 2 or name[0] not in s.data.formations:
        return None
    fid, h = name
    members = s.data.formations[fid].members
    if not any(pos.units[m].at == h and first(m) for m in members):
        return None
    grp = tuple(m for m in members if pos.units[m].at == h and free(m))
    return grp if len(grp) > 1 else None


def _free_out(s: BBState, a: PhaseArgs) -> Callable[[str], bool]:
    """15.1 (3), 15.11: whether a unit may be taken off the map (the tests cheapest
    first, supply last: it floods the map once for the placement)."""
    ez = s.zoc(other(a.side))
    pos = s.pos

    def free(u: str) -> bool:
        x = pos.units[u]
        return not (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.admin
                    or x.refit or x.oos or x.at in ez
                    or (a.side == "soviet" and not in_range(s, x.at))
                    or not in_supply(s, x.at, a.side))
    return free
