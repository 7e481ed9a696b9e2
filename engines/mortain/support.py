"""Support fire (12.0 allotment, 15.0 Hill 317)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mortain.data import SUPPLY

if TYPE_CHECKING:
    from engines.mortain.state import MortainState


def allotment(s: MortainState, side: str) -> tuple[int, list[str]]:
    """12.0 halving (the half lost is rounded down) while the enemy holds the supply symbol
    hex, then 15.0 doubling for the US (a halved allotment is doubled normally)."""
    base = s.r.allotment[side][min(s.pos.turn, len(s.r.allotment[side])) - 1]
    why: list[str] = []
    occ = s.occupant()
    held = SUPPLY[side] in occ and s.side_of(occ[SUPPLY[side]]) != side
    n = base
    if held:  # "will lose half (rounded down)": 5 loses 2, keeps 3
        n -= n // 2
        why.append("12.0")
    if side == "us" and s.pos.hill_317:
        n *= 2
        why.append("15.0")
    return n, why
