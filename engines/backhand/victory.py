"""18.1 and 18.2: who has won at the end of the last game turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.control import control, soviet_controlled

if TYPE_CHECKING:
    from engines.backhand.state import BBState


def victory(s: BBState) -> tuple[str | None, str]:
    """18.1 and 18.2 at the end of the last game turn."""
    pos = s.pos
    now = soviet_controlled(s)
    sov_cities = [c for c in s.data.cities if c in now]
    west = sorted(u for u, x in pos.units.items()
                  if x.at in s.data.west_of_donets and s.side_of(u) == "soviet")
    names = ", ".join(s.data.city_names[c] for c in sov_cities)
    if pos.victory == "high-water-mark":
        if sov_cities:
            return "soviet", f"Soviet victory: {names} Soviet controlled (18.1)"
        if not west:
            return "german", "German victory: no Soviet unit west of the Donets (18.1)"
        return None, f"draw: {len(west)} Soviet units west of the Donets, no city taken (18.1)"
    german_all = all(control(s, c) == "german" for c in s.data.cities)
    n = len(sov_cities)
    if german_all and not any(c in pos.ever_soviet or c in now for c in s.data.cities):
        return "german", "German decisive victory: every city held throughout (18.2)"
    if not west:
        return "german", "German major victory: no Soviet unit west of the Donets (18.2)"
    if german_all:
        return "german", "German minor victory: every city German controlled (18.2)"
    if n >= 4:
        return "soviet", f"Soviet decisive victory: {names} (18.2)"
    if n == 3:
        return "soviet", f"Soviet major victory: {names} (18.2)"
    if n == 2:
        return "soviet", f"Soviet minor victory: {names} (18.2)"
    return None, f"draw (18.2): Soviet cities: {names or 'none'}"
