"""The bases of Backhand Blow's decisions."""

from __future__ import annotations

from typing import Any

from engines.backhand.state import BBState
from pbem.engine import Action
from pbem.steps import Choice


class BBChoice(Choice[BBState]):
    """A decision whose check reads the options listed for this position (BBState.listed)
    instead of computing them again."""

    def check(self, s: BBState, args: Any, action: Action) -> None:
        if action not in s.listed(self, args):
            super().check(s, args, action)

    def only_option(self, s: BBState, args: Any) -> Action | None:
        # check takes nothing the step does not list (the memo only spares computing the
        # options again), so a lone listed action is the only one there is: sealed rules 2
        # (docs/protocol.md 6.2.1) take it after a roll, as a hit that leaves one loss
        # (16.0) or replacements with none eligible (12.0).  A subclass that takes unlisted
        # variants (its own check or accepts) says for itself.
        cls = type(self)
        if cls.check is not BBChoice.check or cls.accepts is not Choice.accepts:
            return None
        options = s.listed(self, args)
        return options[0] if len(options) == 1 else None


class SideChoice(BBChoice):
    """A decision taken by the side its frame names (``args.side``): the frame was pushed
    for that side's segment or for that side's units."""

    def side(self, s: BBState, a: Any) -> str:
        return str(a.side)
