"""17.0 uprisings: which cities a Soviet move brings an attempt in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.control import update_control
from engines.backhand.position import Unit
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.backhand.state import BBState


def uprisings_due(s: BBState, moved_to: tuple[str, ...]) -> tuple[str, ...]:
    """17.0: cities a Soviet unit has just moved within three hexes of (``moved_to``:
    where its move or advance ended), each once a game."""
    out = []
    for c in s.data.cities:
        if c in s.pos.uprising_tried:
            continue
        vk = [u for u in s.units_at(c, "german") if s.data.units[u].city == c]
        if not vk:
            continue
        if any(s.data.map.distance(c, h) <= 3 for h in moved_to):
            out.append(c)
    return tuple(out)


def rise(s: BBState, c: str) -> list[Event]:
    """17.0, a successful uprising in city ``c``: its Verfuegungskraefte leave play, and
    Soviet Uprising Forces hold the city if no other German unit is there."""
    ev = []
    vk = [u for u in s.units_at(c, "german") if s.data.units[u].city == c]
    for u in vk:
        s.pos.units[u].at = "out"
    s.invalidate()
    if not s.units_at(c, "german"):
        up = f"UP-{c}"
        s.pos.units[up] = Unit(at=c, steps=1)
        ev.append(Event(f"Soviet Uprising Forces hold {s.data.city_names[c]}", "info",
                        rule="17.0"))
    update_control(s)
    return ev
