"""What the steps of For the Motherland! share beyond the runtime's declared attributes: a
procedure that runs one rule (every die roll is a runtime :class:`~pbem.steps.Roll`
declaring its die).  Every decision is a plain
:class:`~pbem.steps.Choice`; the position's cached facts go after each step through
``MotherlandState.position_changed``.  The events their rules tell and the frames they
queue go to the runtime (``StepState.tell``, ``queue_frames``)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from engines.motherland.notation import ending
from pbem.engine import Action, Event
from pbem.steps import Choice, Flow, NoArgs, Procedure, Roll

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState
    from pbem.grammar import Act

    #: the runtime's steps as this game's, the bases of its steps: what mypy checks their
    #: methods against
    GameChoice = Choice[MotherlandState]
    GameRoll = Roll[MotherlandState]
    GameProcedure = Procedure[MotherlandState]
else:
    # at run time a step's base is the runtime's class itself: written subscripted, each
    # made a typing alias (0.13 M instructions the first of each) and took it apart (28 K
    # a class) for nothing, at every command's import (issue 35)
    GameChoice, GameRoll, GameProcedure = Choice, Roll, Procedure


def args_class(where: str) -> type[Any]:
    """The class ``module:Name`` of this engine (a step's frames' arguments)."""
    module, _, name = where.partition(":")
    found: type[Any] = getattr(import_module(f"engines.motherland.{module}"), name)
    return found


class CombatArgs:
    """A step's ``Args`` named, not held: the class of that name of
    :mod:`engines.motherland.combat_args` (or of ``module``, where the rules that make
    its frames keep it), imported when the runtime first reads or makes one of its
    frames (a legal listing at a retreat never does: issue 35), then kept on the step's
    class."""

    def __init__(self, name: str, module: str = "combat_args") -> None:
        self.where = f"{module}:{name}"

    def __get__(self, step: object, owner: type[Any]) -> type[Any]:
        found = args_class(self.where)
        owner.Args = found
        return found


class ProcedureArgs:
    """A procedure's ``Args`` named ``module:Name`` (:class:`MotherlandProcedure`), the
    class imported when the runtime first reads or makes one of its frames, then kept on
    the procedure itself, where it is read from then on: the combat procedures' classes
    are kept with the combat rules, which a retreat's act never loads (issue 35)."""

    def __get__(self, step: object, owner: type[Any]) -> type[Any]:
        if not isinstance(step, MotherlandProcedure):
            return NoArgs
        found = args_class(step.args_at)
        vars(step)["Args"] = found
        return found


#: the default of a standing order among options of equal standing (Choice.order)
FIRST_LISTED = "the first choice in the engine's listed order"


class EndedChoice(GameChoice):
    """A decision its side ends with a word (``done``, one of const.DONE): the step's
    ending action (``Choice.ending_for``) parsed when first listed or checked, not when
    the step is made: a command that lists no ending compiles no phase word (issue 35)."""

    done: ClassVar[str]

    def ended(self) -> Act:
        return ending(self.done)

    def ending_for(self, s: MotherlandState, args: Any) -> Action | None:
        return self.ended()


class MotherlandProcedure(GameProcedure):
    """Bookkeeping: one rule runs with the frame's arguments, the frame ends.  One class
    for the seventeen, each procedure an instance naming its step, rule and arguments:
    a class made for each was 2.3 M instructions of every command's import (issue 35)."""

    Args = ProcedureArgs()

    def __init__(self, step: str, rule: str, do: Callable[[MotherlandState, Any], None],
                 args: type[Any] | str = NoArgs) -> None:
        # what a class of its own would declare, read off the step by the runtime; a
        # class named (``module:Name``) is read when first asked (ProcedureArgs)
        vars(self).update(name=step, rule=rule)
        if isinstance(args, str):
            self.args_at = args
        else:
            vars(self)["Args"] = args
        self._do = do

    def run(self, s: MotherlandState, args: Any, flow: Flow) -> list[Event]:
        self._do(s, args)
        flow.end()
        return []


def _procedure(step: str, rule: str, do: Callable[[MotherlandState, Any], None],
               args: type[Any] | str = NoArgs) -> MotherlandProcedure:
    """A procedure that runs one rule of the state with the frame's arguments."""
    return MotherlandProcedure(step, rule, do, args)
