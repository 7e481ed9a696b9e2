"""What the steps of For the Motherland! share beyond the runtime's declared attributes: a
die roll's handler; a procedure that runs one rule.  Every decision is a plain
:class:`~pbem.steps.Choice`; the position's cached facts go after each step through
``MotherlandState.position_changed``.  The events their rules tell and the frames they
queue go to the runtime (``StepState.tell``, ``queue_frames``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engines.motherland.args import RollArgs
from pbem.engine import ChanceRequest, Event, Outcome
from pbem.steps import Flow, NoArgs, Procedure, Roll

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState

#: the default of a standing order among options of equal standing (Choice.order)
FIRST_LISTED = "the first choice in the engine's listed order"


class MotherlandRoll(Roll["MotherlandState"]):
    """One die (every roll of the game is 1d6); ``then`` names the rule's handler."""

    Args = RollArgs

    def request(self, s: MotherlandState, args: RollArgs) -> ChanceRequest:
        return ChanceRequest.roll(args.purpose, 6, rule=self.rule)

    def resolve(self, s: MotherlandState, args: RollArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        self.then(s, args, int(outcome[0]))
        return []

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        raise NotImplementedError


class MotherlandProcedure(Procedure["MotherlandState"]):
    """Bookkeeping: the rule runs, the frame ends."""

    def run(self, s: MotherlandState, args: Any, flow: Flow) -> list[Event]:
        self.do(s, args)
        flow.end()
        return []

    def do(self, s: MotherlandState, args: Any) -> None:
        raise NotImplementedError


def _procedure(step: str, rule: str, do: Callable[[MotherlandState, Any], None],
               args: type[Any] = NoArgs) -> MotherlandProcedure:
    """A procedure that runs one rule of the state with the frame's arguments."""
    cls = type(f"Procedure_{step}", (MotherlandProcedure,),
               {"name": step, "rule": rule, "Args": args,
                "do": lambda self, s, a: do(s, a)})
    procedure: MotherlandProcedure = cls()
    return procedure
