"""The bases of Backhand Blow's decisions."""

from __future__ import annotations

from typing import Any

from engines.backhand.state import BBState
from pbem.steps import Choice


class SideChoice(Choice[BBState]):
    """A decision taken by the side its frame names (``args.side``): the frame was pushed
    for that side's segment or for that side's units."""

    def side(self, s: BBState, a: Any) -> str:
        return str(a.side)
