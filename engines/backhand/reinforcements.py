"""Reinforcements and refit: where a formation's units stand, and the Frontnahe
Auffrischung steps (13.1).  Control (3.1) and the Front Markers' rules (14.1), with the
supply rules they lean on, load where a unit is put or a marker's range asked: listing
a turn's reinforcements needs neither (issue 35)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from engines.backhand.position import BOXES, other
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.backhand.data import Data
    from engines.backhand.state import BBState


def formation_places(s: BBState, fid: str) -> list[tuple[str, list[str]]]:
    """Where a formation's units in play stand (a hex or a box), each with its units."""
    out: dict[str, list[str]] = {}
    for u in s.data.formations[fid].members:
        at = s.pos.units[u].at
        if at not in ("elim", "out", "pending", "cup"):
            out.setdefault(at, []).append(u)
    return sorted(out.items())


def apply_refits(s: BBState) -> list[Event]:
    """13.1: up to two steps each for the marked formation's units in the marked hex;
    its eliminated units are rebuilt there, unless the enemy holds the hex or it is full
    (10.2); none if every unit of the formation is eliminated."""
    from engines.backhand.control import update_control

    ev = []
    for marker, spec in sorted(s.pos.refit_marks.items()):
        fid, _, h = spec.partition("@")
        members = s.data.formations[fid].members
        if not any(s.pos.units[u].at not in ("elim", "out") for u in members):
            continue
        for u in members:
            x = s.pos.units[u]
            if (x.at == "elim" and (h in BOXES or not s.units_at(h, "soviet"))
                    and (h in BOXES or s.stack_ok(h, "german", [u]))):
                x.at = h
                s.invalidate()
            if x.at == h:
                x.steps = min(s.data.units[u].steps, x.steps + 2)
        ev.append(Event(f"{fid} refits in {h} ({marker} marker)", "reinforce", rule="13.1",
                        hexes=() if h in BOXES else (h,)))
    s.pos.refit_marks = {}
    update_control(s)
    return ev


def reinforcements_due(s: BBState, side: str) -> list[str]:
    return [u for u, x in sorted(s.pos.units.items()) if x.at == "pending"
            and s.side_of(u) == side and s.data.units[u].arrive <= s.pos.turn]


def replaceable(s: BBState) -> list[str]:
    from engines.backhand.fronts import in_range

    held = s.pos.replacements
    if held.get("mot", 0) <= 0 and held.get("non", 0) <= 0:
        # 12.0: a step of a kind not held goes to no unit; with none of either kind held
        # no unit is read (the decision after the last step is spent, on every board
        # click and listing, read all 124 units for nothing: 0.4 M instructions)
        return []
    out = []
    for u, x in sorted(s.pos.units.items()):
        if u.startswith("UP-") or s.data.units[u].side != "soviet" or x.replaced:
            continue
        if x.at in ("elim", "out", "pending", "cup") or x.steps >= s.data.units[u].steps:
            continue
        if s.pos.replacements["mot" if s.motorized(u) else "non"] <= 0:
            continue
        if x.at in BOXES or (not x.oos and in_range(s, x.at)):
            out.append(u)
    return out


def refit_places(s: BBState) -> list[tuple[str, str, str]]:
    """(marker, formation, hex or box): every place where units of a motorized
    formation stand, In Supply and not adjacent to an enemy unit. One unit is enough:
    only a formation with every unit eliminated may not refit (13.1)."""
    out = []
    for fid, f in s.data.formations.items():
        marker = "ss" if f.ss else "heer"
        if not f.motorized or marker in s.pos.refit_marks:
            continue
        for h, members in formation_places(s, fid):
            if h not in BOXES and (any(s.pos.units[u].oos for u in members) or any(
                    s.units_at(n, "soviet") for n in s.data.map.neighbors(h))):
                continue
            out.append((marker, fid, h))
    return out


def ersatz_pairs(s: BBState) -> list[tuple[str, str]]:
    """13.2: each reduced German non-motorized unit with each Variable Reinforcement in
    its hex (or both in the boxes), by unit id then Variable Reinforcement id."""
    units = s.pos.units
    gone = ("elim", "out", "pending", "cup")
    restored, variable = _ersatz_kinds(s.data)
    out = []
    in_play: list[tuple[str, str]] | None = None
    for u in restored:
        x = units.get(u)
        if x is None or x.at in gone or x.steps >= s.data.units[u].steps:
            continue
        if in_play is None:
            in_play = [(v, units[v].at) for v in variable
                       if v in units and units[v].at not in gone]
        for v, at in in_play:
            if at == x.at or (at in BOXES and x.at in BOXES):
                out.append((u, v))
    return out


@functools.cache
def _ersatz_kinds(d: Data) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The units 13.2 may restore (German, non-motorized, neither stationary nor a
    Variable Reinforcement) and the Variable Reinforcements, each in unit order: the
    counters' kinds never change, and reading every unit's at every German segment's
    close was most of its options (issue 35)."""
    restored: list[str] = []
    variable: list[str] = []
    for u, t in sorted(d.units.items()):
        if u[:3] == "UP-":
            continue
        if t.variable:
            variable.append(u)
        elif t.side == "german" and not t.motorized and not t.stationary:
            restored.append(u)
    return tuple(restored), tuple(variable)


def arrive(s: BBState, side: str, *, to_box: bool) -> list[Event]:
    """11.1: ``side``'s reinforcements due this turn enter at their entry hex (a Front
    Marker's for Soviet front units), or go to Box #1 when the player sends them there,
    they enter in the box, or the hex is enemy held or full (10.1, 10.2)."""
    from engines.backhand.control import put

    ev = []
    for u in reinforcements_due(s, side):
        entry = s.data.units[u].entry
        if entry.startswith("front:"):
            entry = s.pos.fronts[entry[6:]]
        if (to_box or entry == "box" or s.units_at(entry, other(side))
                or not s.stack_ok(entry, side, [u])):
            s.pos.units[u].at = "box1"
            ev.append(Event(f"{u} arrives in Administrative Movement Box #1", "reinforce",
                            rule="11.1"))
        else:
            put(s, [u], entry)
            ev.append(Event(f"{u} enters at {entry}", "reinforce", rule="11.1",
                            hexes=(entry,)))
    return ev
