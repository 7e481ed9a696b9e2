"""48th Panzer Korps: zones of control (5): who controls which hexes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.hexkit.zoc import zoc_map
from pbem.memo import Memo

if TYPE_CHECKING:
    from engines.panzer48.state import P48State


#: zoc() by the units that can exert one (side; id, hex, losses of each in unit order): a
#: pure function of those, kept because one position asks it again for every option
_ZOCS: Memo[tuple[str, tuple[tuple[str, str, int], ...]], dict[str, bool]] = Memo(512)


def zoc(s: P48State, side: str) -> dict[str, bool]:
    """5: hexes controlled by ``side``'s stacks of 3 or more steps (retreated units
    contribute nothing); value: an armor unit is in a stack exerting it (8.3)."""
    d = s.d
    key = (side, tuple((u, x.hex, x.losses) for u, x in s.pos.units.items()
                       if x.where == "map" and not x.retreated and d.units[u].side == side))
    return _ZOCS.get(key, lambda: _zoc(s, side))  # shared: callers only read it


def _zoc(s: P48State, side: str) -> dict[str, bool]:
    stacks: dict[str, list[str]] = {}
    for u in s.on_map(side):
        if not s.pos.units[u].retreated:
            stacks.setdefault(s.pos.units[u].hex, []).append(u)
    exerting = {h: us for h, us in sorted(stacks.items())
                if sum(s.steps_of(u) for u in us) >= 3}
    zm = zoc_map(s.d.map, [(h, h) for h in exerting])
    return {h: any(s.d.units[u].target == "A" for src in zm.exerted_by(h)
                   for u in exerting[src]) for h in zm.hexes}
