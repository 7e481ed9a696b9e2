"""Hits, retreats and the advance after combat (the series' stand-in hit rule, 16.72x):
whose stack takes the hits, where it may retreat, where a motorized unit may advance a
second hex."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.backhand.position import OFF, other

if TYPE_CHECKING:
    from engines.backhand.state import BBState


@dataclass(frozen=True)
class HitArgs:
    """A combat result being taken: the side taking the hits, how many, and the retreat
    and advance that follow (16.7)."""

    side: str = "soviet"  # the side taking the hits
    attacker: str = "soviet"
    kind: str = "sp"
    target: str = ""
    hits: int = 0
    retreat: bool = False  # an R result (16.723: optional in a city)
    retreated: int = 0
    river: bool = False  # the retreat crossed a river: it stops (16.722)
    units: tuple[str, ...] = ()  # the attackers (advance)
    then: tuple[int, str] = (0, "")  # attacker's hits still to take, and events
    no_advance: bool = False


@dataclass(frozen=True)
class AdvanceArgs:
    """An advance after combat: the attackers who may advance into the target hex and on
    (16.722), and those that have."""

    side: str = "soviet"
    kind: str = "sp"
    target: str = ""
    units: tuple[str, ...] = ()
    retreated: int = 0
    across: tuple[str, ...] = ()  # attackers who attacked across a river (16.722)
    second: tuple[str, ...] = ()  # units that have taken their second hex


def defending(a: HitArgs) -> bool:
    return a.side != a.attacker


def hit_stack(s: BBState, a: HitArgs) -> list[str]:
    """The units taking the hits: the defenders in the hex, or the attackers still on the
    map."""
    if defending(a):
        return s.units_at(a.target, a.side)
    return [u for u in a.units if s.pos.units[u].at not in OFF]


def movable(s: BBState, a: HitArgs) -> list[str]:
    """The stack's units that retreat: a city's stationary Verfuegungskraefte (or
    Uprising Forces) stay (2.4, their movement allowance is zero), so the rest of a
    city garrison may still choose to retreat (16.723)."""
    return [u for u in hit_stack(s, a) if not s.stationary(u)]


def must_retreat(s: BBState, a: HitArgs) -> bool:
    """An R result: the first hex is compulsory, except in a city (16.723)."""
    return (defending(a) and a.retreat and a.retreated == 0
            and a.target not in s.data.cities)


def retreats(s: BBState, a: HitArgs) -> list[str]:
    """The hexes the defending stack may retreat one hex into, sorted: at most two hexes
    in all, none after crossing a river (16.722), never into enemy units, the sea, an EZOC
    no friendly unit holds, over the stacking limit (10.1, 10.2), nor a swamp for a
    motorized stack (16.724).

    One hex of the kit's retreat search: every neighbour is farther from the hex than the
    hex itself, and every allowed hex ranks the same, so the kit's options are exactly the
    allowed neighbours, sorted (the order this engine always listed them in)."""
    # the kit's retreat search loads with the first retreat looked at (a combat's
    # result), not with every command of the game (issue 35: 1.2 M instructions)
    from engines.hexkit.retreat import priority_ranker, retreat_options

    if not defending(a) or a.retreated >= 2 or a.river:
        return []
    if a.hits == 0 and not a.retreat:
        return []
    if a.retreated and a.hits == 0:
        return []
    stack = movable(s, a)
    if not stack:
        return []
    m = s.data.map
    enemy = s.occupied(a.attacker)
    ez = s.zoc(a.attacker)
    friends = s.occupied(a.side)
    mot = any(s.motorized(u) for u in stack)

    def allowed(n: str) -> bool:
        t = m.terrain_of(n)
        if n in enemy or t == "sea" or (n in ez and n not in friends):
            return False
        if mot and t == "swamp":
            return False  # 16.724
        return s.stack_ok(n, a.side, stack)

    def may_cross(x: str, y: str) -> bool:
        # 16.722: not across a river to a second hex
        return not (a.retreated and m.has_side(x, y, "river"))
    return list(retreat_options(m, a.target, 1, priority_ranker([allowed]),
                                may_cross=may_cross).hexes)


def second_hexes(s: BBState, a: AdvanceArgs, u: str) -> list[str]:
    """Where ``u``, having advanced into the vacated hex, may go on: a motorized unit after
    a two-hex retreat, not if it attacked across a river, nor across one, nor into a swamp
    (16.722, 16.724)."""
    m = s.data.map
    if (a.retreated < 2 or not s.motorized(u) or u in a.across or u in a.second
            or s.pos.units[u].at != a.target):
        return []
    enemy = s.occupied(other(a.side))
    return [n for n in sorted(m.neighbors(a.target))
            if n not in enemy and not m.has_side(a.target, n, "river")
            and m.terrain_of(n) not in ("swamp", "sea") and s.stack_ok(n, a.side, [u])]
