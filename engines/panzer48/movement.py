"""48th Panzer Korps: movement (4): a moving stack's step into a hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.panzer48.data import other
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.panzer48.state import P48State


def step_group(s: P48State, n: str) -> list[Event]:
    pos = s.pos
    h = pos.units[pos.moving[0]].hex
    halts = n in s.zoc(other(pos.phasing))  # 5 (stand-in): entering ends the move
    for u in pos.moving:
        c = s.step_cost(u, h, n)
        assert c is not None
        pos.units[u].spent += c
        pos.units[u].hex = n
        pos.units[u].halted = halts
    pos.moved_hexes += 1
    return [Event(f"{', '.join(pos.moving)} move to {n}", "move", hexes=(n,), rule="4"),
            *s.after_move(pos.moving)]

