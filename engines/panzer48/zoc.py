"""48th Panzer Korps: zones of control (5): who controls which hexes.

A side's ZOC is the kit's board fact (engines/hexkit/facts.py) under :data:`ZOC`: it is
computed once per placement of that side's units, each unit placed with its steps left
and whether it retreated (``mark``), the two things rule 5 reads of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from engines.hexkit.facts import Placed, ZocRule
from engines.panzer48.data import SIDES

if TYPE_CHECKING:  # the kit's ZOC search loads with the first ZOC asked (issue 35)
    from engines.hexkit.facts import BoardFacts
    from engines.hexkit.zoc import ZocMap
    from engines.panzer48.state import P48State


def _exerting(stack: tuple[Placed, ...]) -> tuple[Placed, ...]:
    # 5: a stack of 3 or more steps controls the hexes around it; retreated units
    # contribute nothing, neither steps nor a ZOC, and every other unit of the stack is
    # a source of it (8.3 asks whether an armor unit is among them)
    ready = tuple(p for p in stack if not cast(tuple[int, bool], p.mark)[1])
    return ready if sum(cast(tuple[int, bool], p.mark)[0] for p in ready) >= 3 else ()


#: 5: built once, since the board facts know a rule by identity
ZOC = ZocRule(stack=_exerting)


def zoc(s: P48State, side: str) -> ZocMap:
    """5: hexes controlled by ``side``'s stacks of 3 or more steps (retreated units
    contribute nothing), each with the units exerting it."""
    return s.facts().zoc(side, ZOC)


def zoc_sides_at(facts: BoardFacts, h: str) -> set[str]:
    """5: the sides whose ZOC (:data:`ZOC`) covers ``h``, asked of that hex alone: a
    side's stack in a neighbouring hex exerting one (adjacency is symmetric, so these
    are the stacks whose ZOC reaches ``h``).  The same answer as ``h in
    facts.zoc_hexes(side, ZOC)``, without a side's every stack asked."""
    # each side's own stacks, not everyone's: a step of a move changes the moving side's
    # alone, and everyone's were made again after every step for this and the moving
    # stack's next hexes only (issue 35)
    sides: set[str] = set()
    near = facts.map.neighbors(h)
    placed = facts.placed
    for side in SIDES:
        stacks = facts.stacks(side)
        for n in near:
            units = stacks.get(n)
            if units and _exerting(tuple(_placed(placed, u) for u in units)):
                sides.add(side)
                break
    return sides


def _placed(placed: Callable[[str], Placed | None], u: str) -> Placed:
    p = placed(u)
    assert p is not None
    return p


def armor_in(s: P48State, zm: ZocMap, h: str) -> bool:
    """8.3: an armor unit is in a stack exerting the ZOC ``zm`` in ``h``."""
    return any(s.d.units[u].target == "A" for u in zm.exerted_by(h))
