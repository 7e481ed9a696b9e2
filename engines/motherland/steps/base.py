"""What every step of For the Motherland! shares: the position's cached facts dropped after
an answer; a die roll's handler; a procedure that runs one rule.  The events their rules
tell and the frames they queue go to the runtime (``StepState.tell``, ``queue_frames``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from engines.motherland.args import RollArgs
from engines.motherland.notation import STRUCTURED, act, ending, is_end
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal, Roll

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState

#: the default of a standing order among options of equal standing (Choice.order)
FIRST_LISTED = "the first choice in the engine's listed order"


class MotherlandChoice(Choice["MotherlandState"]):
    """What every decision of the game shares: the position's cached facts dropped after
    an answer, the side from the frame, the settling modes before asking (``forced``)."""

    #: the word that ends it (const.DONE), if a side may end it
    done: ClassVar[str] = ""
    #: what ``settle`` does before asking: "" nothing; "drop" end when nothing is offered;
    #: "forced" also take a sole option; "once" end when nothing is offered, take a sole
    #: option unless it is the ending word (then end)
    forced: ClassVar[str] = ""
    #: options listed with the decision up to this many (a movement phase offers thousands)
    show_at_most: ClassVar[int] = 40

    def side(self, s: MotherlandState, args: Any) -> str:
        return self.decider or str(args.side)  # "": the frame's side

    def ending(self, s: MotherlandState, args: Any) -> str:
        return self.done

    def default(self, s: MotherlandState, args: Any) -> Action | None:
        """The ending word where a side may end the task now, else the first option."""
        opts = s.options_for(self, args)
        end = self.ending(s, args)
        if end and ending(end) in opts:  # not when the task must be done first (10.2)
            return ending(end)
        return opts[0] if opts else None

    def why_not(self, s: MotherlandState, args: Any, action: Action) -> str | Refusal:
        if act(action).kind in STRUCTURED:
            return f"{action.notation()!r} does not answer {self.prompt(s, args)}"
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MotherlandState, args: Any, action: Action, flow: Flow) -> list[Event]:
        self.answer(s, args, action, flow)
        s._touch()
        return []

    def answer(self, s: MotherlandState, args: Any, action: Action, flow: Flow) -> None:
        """Apply an answer (an action ``check`` let through)."""
        if is_end(action):
            self.end(s, args, flow)
            return
        self.word(s, args, act(action), flow)

    def end(self, s: MotherlandState, args: Any, flow: Flow) -> None:
        flow.end()

    def word(self, s: MotherlandState, args: Any, a: Act, flow: Flow) -> None:
        raise NotImplementedError

    def settle(self, s: MotherlandState, args: Any, flow: Flow) -> list[Event] | None:
        if not self.forced:
            return None
        opts = s.options_for(self, args)
        if not opts:
            flow.end()
        elif len(opts) != 1 or self.forced == "drop":
            return None
        elif self.forced == "forced":
            self.answer(s, args, opts[0], flow)
        elif is_end(opts[0]):
            self.end(s, args, flow)
        else:  # a forced choice (10.2 a marker with one Supply Base to go to)
            self.word(s, args, act(opts[0]), flow)
        return []


class MotherlandRoll(Roll["MotherlandState"]):
    """One die (every roll of the game is 1d6); ``then`` names the rule's handler."""

    Args = RollArgs

    def request(self, s: MotherlandState, args: RollArgs) -> ChanceRequest:
        return ChanceRequest.roll(args.purpose, 6, rule=self.rule)

    def resolve(self, s: MotherlandState, args: RollArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        self.then(s, args, int(outcome[0]))
        s._touch()
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
