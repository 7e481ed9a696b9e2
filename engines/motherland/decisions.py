"""The engine contract's hooks the step runtime leaves to the game: the decision shown to
the player (its options computed once), events gathered from ``say``, standing orders,
the result and the snapshot.

Who acts, the legal actions, applying actions and outcomes and forced choices are
``pbem.steps.StepState``'s, on the steps of ``steps.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from engines.motherland.actions import Take, parse
from engines.motherland.core import MotherlandCore
from engines.motherland.steps import MotherlandChoice
from pbem.engine import Action, Decision, Event, Outcome, Result

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


class DecisionMixin(MotherlandCore):
    """The contract's hooks: decisions, events, orders, result, snapshot."""

    def over(self) -> bool:
        return self.pos.result is not None

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        # 8.5: of the ways to take a result, the one with the most step losses (the
        # options run from all losses to all retreats; ties keep the listed order)
        if (decision.kind, policy) != ("result-choice", "losses"):
            return None
        takes = [a for a in self._legal_actions() if isinstance(a, Take)]
        return max(takes, key=lambda a: a.steps, default=None)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def _apply_action(self, action: Action) -> list[Event]:
        self._events = []
        super()._apply_action(action)
        return self._events

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        self._events = []
        super()._apply_outcome(outcome)
        return self._events

    def _decision(self) -> Decision:
        step, frame = self._choice()
        assert isinstance(step, MotherlandChoice)
        s, args = cast("MotherlandState", self), frame.args
        opts = step.options(s, args)
        shown = tuple(opts) if len(opts) <= step.show_at_most else ()
        return Decision(step.side(s, args), step.kind, step.prompt(s, args), shown,
                        step.default_of(s, args, opts), step.rule)

    def _decision_head(self) -> tuple[str, str]:
        # side and prompt as _decision words them, without listing the options (a game's
        # summary, written by every act and receive, shows none: issue 19)
        step, frame = self._choice()
        s = cast("MotherlandState", self)
        return step.side(s, frame.args), step.prompt(s, frame.args)

    def _result(self) -> Result | None:
        r = self.pos.result
        if r is None:
            return None
        return Result(r.winner, "rules", r.text, r.level)

