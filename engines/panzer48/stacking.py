"""48th Panzer Korps: stacking (6), in thirds of a battalion."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engines.panzer48.data import other

if TYPE_CHECKING:
    from engines.hexkit.facts import BoardFacts
    from engines.panzer48.state import P48State


def stack_size(s: P48State, h: str, side: str, extra: Iterable[str] = (),
               facts: BoardFacts | None = None) -> int:
    here = (s.facts() if facts is None else facts).at(h, side)
    info = s.d.units
    size = 0
    for u in set(here).union(extra):  # a loop, not a generator: asked at every stop
        size += info[u].size
    return size


def enemy_held(facts: BoardFacts, side: str, h: str) -> bool:
    """Whether the first unit in ``h``, in id order, is the enemy's of ``side``: read
    off each side's own stacks, not everyone's, which the board facts would otherwise
    make again after every step of a move (issue 35)."""
    theirs = facts.stacks(other(side)).get(h)
    if not theirs:
        return False
    mine = facts.stacks(side).get(h)
    return not mine or theirs[0] < mine[0]


def fits(s: P48State, h: str, side: str, extra: Iterable[str] = (),
         facts: BoardFacts | None = None) -> bool:
    """6: stacking limits (in thirds of a battalion); ``facts``: the state's board facts
    (``s.facts()``) when the caller asks for many hexes of one position."""
    return stack_size(s, h, side, extra, facts) <= s.d.stack_limit[side]
