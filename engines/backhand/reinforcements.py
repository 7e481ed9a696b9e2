"""Reinforcements and refit: where a formation's units stand, and the Frontnahe
Auffrischung steps (13.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.control import update_control
from engines.backhand.position import (
    BOXES,
)
from pbem.engine import Event

if TYPE_CHECKING:
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
