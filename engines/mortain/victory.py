"""Victory (19.0, 19.2): who holds Mortain, the German exits off the west edge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mortain.data import MORTAIN
from engines.mortain.position import Status

if TYPE_CHECKING:
    from engines.mortain.state import MortainState


def note_mortain(s: MortainState) -> None:
    """19.0: who last occupied each Mortain hex."""
    occ = s.occupant()
    for h in MORTAIN:
        if h in occ:
            s.pos.mortain[h] = s.side_of(occ[h])


def german_exits(s: MortainState) -> int:
    """19.0: full-strength mobile German units exited off the west edge."""
    return sum(1 for u, x in s.pos.units.items()
               if x.status is Status.EXITED and not x.depleted and s.r.units[u].mobile)


def mortain_captured(s: MortainState) -> bool:
    """19.0: each Mortain hex German-held or last German-occupied, none in a US ZOC."""
    us_zoc = s.zoc_of("us")
    return all(s.pos.mortain.get(h) == "german" and h not in us_zoc for h in MORTAIN)
