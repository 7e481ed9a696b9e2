"""Partisans (10.0): their effect on Supply Bases (10.1) and their placement (10.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.args import RollArgs
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.phase_args import CountArgs, PlaceArgs
from pbem.engine import Event
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Partisan markers on Axis Supply Bases (10.0).


# -- partisans (10.0) -----------------------------------------------------------------


def base_hexes(s: MotherlandState) -> dict[str, str]:
    return {s.u(x).hex: x for x in sorted(s.on_map(AXIS))
            if s.c(x).type == "supply_base"}


def partisan_effects(s: MotherlandState) -> None:
    bases = base_hexes(s)
    tasks = []
    for p, h in sorted(s.pos.partisans.items()):
        if h and h in bases:
            tasks.append(Frame("roll-partisan",
                               RollArgs(f"partisans {p} at {h}", hex=h, p=p)))
    s.queue_frames(tasks, first=True)


def on_partisan(s: MotherlandState, t: RollArgs, roll: int) -> None:
    n = s.data.partisan_table[roll - 1]
    s.tell(Event(f"Partisans {t.p} at {t.hex}: {n} Out of Supply marker(s) "
                 f"(10.1, rolled {roll})", "info", hexes=(t.hex,), rule="10.1"))
    if n:
        s.queue_frames([Frame("partisan_oos", CountArgs(SOVIET, t.hex, n))], first=True)


def partisan_targets(s: MotherlandState, base: str) -> list[str]:
    grid = s.data.hexmap.grid
    cands = []
    for uid in sorted(s.on_map(AXIS)):
        c = s.c(uid)
        if c.nation != "german" or not c.is_combat or c.type == "railroad_gun":
            continue
        if s.u(uid).supply == "out":
            continue
        d = grid.distance(base, s.u(uid).hex)
        if d <= 4:
            cands.append((d, uid))
    if not cands:
        return []
    nearest = min(d for d, _ in cands)
    return [uid for d, uid in cands if d == nearest]


def partisan_moves(s: MotherlandState, t: PlaceArgs) -> list[tuple[str, str]]:
    grid = s.data.hexmap.grid
    bases = base_hexes(s)
    out = []
    placed = s.pos.partisans
    for p, h in sorted(placed.items()):
        if p in t.moved:
            continue
        on_base = h in bases
        for bh, buid in sorted(bases.items()):
            if bh == h:
                continue
            if on_base and grid.distance(h, bh) > 5:
                continue  # 10.2 relocation within five hexes
            if any(q != p and qh and grid.distance(qh, bh) < 5 for q, qh in placed.items()):
                continue
            out.append((p, buid))
    return out
