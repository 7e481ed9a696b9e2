"""7.0 supply (the series trace, stand-in) and the clear region of 15.1 (1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.position import OFF, other
from engines.hexkit.movement import region

if TYPE_CHECKING:
    from engines.backhand.state import BBState


def supply_sources(s: BBState, side: str) -> frozenset[str]:
    return s.data.soviet_supply if side == "soviet" else s.data.german_supply


def in_supply(s: BBState, h: str, side: str) -> bool:
    """7.0 with the series trace (stand-in): a path of any length to a source, not
    through enemy units or an EZOC a friendly unit does not occupy."""
    if h in s.occupied(other(side)):
        return False
    net = supply_net(s, side)
    return h in net or h in supply_sources(s, side) or any(
        n in net for n in s.data.nbrs[h])


def supply_net(s: BBState, side: str) -> frozenset[str]:
    return s.placed("supply", side, lambda: _supply_net(s, side))


def _supply_net(s: BBState, side: str) -> frozenset[str]:
    """The passable hexes joined to a passable source: one flood for every unit."""
    friends = s.occupied(side)
    # impassable: enemy units, and EZOC hexes no friendly unit is in
    blocked = set(s.occupied(other(side))) | {
        h for h in s.zoc(other(side)) if h not in friends}
    return _flood(s, side, blocked)


def _flood(s: BBState, side: str, blocked: set[str]) -> frozenset[str]:
    """The hexes joined to a source of ``side`` outside ``blocked`` by hexes outside.

    The kit's ``region`` starts from every hex it is given, passable or not, so the
    blocked sources are left out of the starts: the set is the flood's exactly (a
    connected set, so neither the order of the search nor the kit's distances matter)."""
    starts = [h for h in sorted(supply_sources(s, side)) if h not in blocked]
    return frozenset(region(s.data.map, starts, passable=lambda h: h not in blocked))


def clear_region(s: BBState, side: str) -> frozenset[str]:
    """15.1 (1): hexes joined to a friendly source by hexes free of enemy units and
    EZOCs (a friendly unit does not negate an EZOC here)."""
    return s.placed("clear", side, lambda: _clear_region(s, side))


def _clear_region(s: BBState, side: str) -> frozenset[str]:
    return _flood(s, side, set(s.occupied(other(side))) | s.zoc(other(side)))


def check_supply(s: BBState) -> tuple[str, ...]:
    """4.2 I.D: mark every unit on the map In or Out Of Supply (7.0), counting the turns
    in a row it has been out; the units that roll for attrition, by id (not the
    stationary Verfuegungskraefte and Uprising Forces)."""
    for u, x in sorted(s.pos.units.items()):
        if x.at in OFF:
            continue
        oos = not in_supply(s, x.at, s.side_of(u))
        x.oos_turns = x.oos_turns + 1 if (oos and x.oos) else (1 if oos else 0)
        x.oos = oos
    return tuple(u for u, x in sorted(s.pos.units.items())
                 if x.oos and x.at not in OFF and not s.stationary(u))


def attrition_drm(s: BBState, uid: str) -> int:
    """The Attrition Check's modifiers (stand-in, the data's note): Deep Mud, motorized,
    and each turn Out Of Supply after the first, at most two."""
    x = s.pos.units[uid]
    return ((1 if s.pos.weather == "deep" else 0) + (1 if s.motorized(uid) else 0)
            + min(2, x.oos_turns - 1))
