"""Stacking (6.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.const import SOVIET, other
from engines.motherland.data import CORPS_TYPES, SOVIET_ARMY_TYPES
from engines.motherland.phase_args import HexArgs
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Stacking limits (6.0).


# ================================================================================
# stacking (6.0)
# ================================================================================


def over_limit(s: MotherlandState, h: str) -> list[str]:
    """Units among which the excess must be eliminated in ``h`` (empty when legal)."""
    units = sorted(s.units_at(h))
    if len(units) <= 1:
        return []
    by: dict[str, list[str]] = {}
    for uid in units:
        c = s.c(uid)
        if c.type in CORPS_TYPES:
            key = "corps"
        elif c.type == "allied_army":
            key = "allied"
        elif c.type == "turkish":
            key = "turkish"
        elif c.side == SOVIET and c.type in SOVIET_ARMY_TYPES:
            # 6.3, 6.4
            key = "army" if s.turn <= 11 or c.type in ("combined_arms", "mech_group") \
                else "elite"
        else:
            key = c.type
        by.setdefault(key, []).append(uid)
    combat_axis = by.get("corps", []) + by.get("allied", []) + by.get("turkish", [])
    if by.get("allied") and len(combat_axis) > 1:
        return combat_axis  # 6.2
    if by.get("turkish") and len(combat_axis) > len(by["turkish"]):
        return combat_axis  # 21.2.2: not with German or other Axis units
    if len(by.get("turkish", [])) > 3:
        return by["turkish"]  # corps, limited as German Corps are (6.1)
    for key, limit in (("corps", 3), ("army", 1), ("elite", 1), ("air_base", 1),
                       ("supply_base", 1), ("railroad_gun", 1), ("fortress", 1),
                       ("offensive_support", 1), ("economic", 1)):
        if len(by.get(key, [])) > limit:
            return by[key]
    return []


def stacking(s: MotherlandState) -> None:
    tasks = []
    for h in s.stacks():
        over = over_limit(s, h)
        if over:
            owner = s.c(over[0]).side
            tasks.append(Frame("stack", HexArgs(other(owner), h)))
    s.queue_frames(tasks, first=True)
