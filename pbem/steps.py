"""The step runtime: a game's sequence of play as steps on a typed frame stack.

Modeled on Rally the Troops' ``states`` with ``call``/``goto``/``end`` and on its scripted
sequences of play; chance stays OpenSpiel's (a chance node the session resolves).

- A :class:`Choice` is one decision point: its kind, rule, deciding side, prompt, options
  (the legal actions), how an action applies, and its default.  Listing and applying
  come from the same object, so they cannot disagree, and an action that is not listed is
  refused here, once, naming the step's rule.
- A :class:`Roll` is one chance node: its request (dice or cup, purpose, rule) and what
  continues with the outcome.
- A :class:`Procedure` is bookkeeping between decisions (end of a phase, a loss applied):
  it runs, then ends, goes to another step or calls one.
- A :class:`Sequence` is the book's sequence outline as data: entries with their rule
  numbers, each calling a step, optionally only when a condition holds.

The state keeps a stack of :class:`Frame` values (the step's name, its typed arguments,
a position in a sequence) in its snapshot.

Sealed dice (docs/protocol.md 6.2, issue 21): with sealed dice every roll is finalized by
the opponent's next file, so a roll that stops play costs a round trip.  A :class:`Roll`
that names a ``batch`` may instead *wait*: after an action of a side, the runtime sets the
roll's frame aside (``parked``, kept in the snapshot) and plays on, for as long as every
step it comes to lets that batch wait (:attr:`Step.lets_wait`, each declaration citing the
rule that allows it) and every decision it comes to is the same side's.  At the first step
that does not (one that reads a result, a decision of the opponent, the end of the batch's
scope, the end of the game), the waiting rolls go back on the stack in the order they were
asked, above that step, and are the chance nodes of the position: the side's file ends
there and the opponent's next file resolves them, each as its own ``SEQ.INDEX``, with its
one link.  Batching is on only when the game's dice are sealed (``State.sealed_dice``, set
from the invite); with open dice the rolls come as they always did.

Sealed rules 2 (docs/protocol.md 6.2.1, issue 32): where a roll's result leads to a
decision with one option (:meth:`Choice.only_option`), the runtime takes it while settling
after the outcome, so the opponent's file that resolved the roll plays on instead of
handing a non-choice back in a rolls-only reply.  Selected by the invite's ``sealed`` field
(``State.sealed_rules``), so games begun under rules 1 replay as they always did.

:class:`StepState` implements the :class:`~pbem.engine.State` hooks once: who acts, legal
actions, apply, chance request and outcome, the decision, and forced choices taken without
asking (``Choice.auto``).

What rule functions (plain functions taking the state) get from the runtime, so no engine
builds its own (issue 34): :meth:`StepState.tell` (events told where they happen, in one
log per action), :meth:`StepState.queue` (steps to run after the current step's move),
:meth:`StepState.options_for` (a decision's options computed once, with
:attr:`StepState.memo_options`), ``replace=True`` on a :class:`Flow` move, the declared
:class:`Choice` attributes, and the engine's kinds, standing orders and restore derived
from its step table (``Engine.state_class``).  docs/engine-guide.md section 3 gives
the order of events and of queued steps.
docs/engine-guide.md's worked example is its tutorial, Bridgehead, one whole game on this
runtime: tests/tutorial/tutorial_engine.py (the toy engine, tests/toy/, only tests it).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pbem import canonical, plainargs

# pbem.codec is imported where a position or a frame goes its way: an engine that reads
# and writes both by hand (For the Motherland!) loads it for no turn command (issue 35:
# 1.5 M instructions of each)
from pbem.engine import (
    CHANCE,
    Action,
    ChanceRequest,
    Decision,
    Engine,
    Event,
    OrderSpec,
    Outcome,
    Snapshot,
    State,
)
from pbem.errors import FormatError, IllegalAction
from pbem.history import Frozen, Mutable, set_field

if TYPE_CHECKING:
    S = TypeVar("S", bound="StepState[Any]")
else:
    # the bound is for mypy: at run time typing would compile its text into a ForwardRef
    # on every command that loads a game, and nothing reads it (issue 35)
    S = TypeVar("S")
P = TypeVar("P")

#: a sequence that runs away (a procedure that neither ends nor moves on) is a bug: stop
MAX_RUN = 100_000
#: attribute values a clone shares as they are: they never change (the rest of an engine's
#: own attributes are deep-copied; its position and frames are copied by their types)
_SHARED_LEAVES = frozenset({int, str, bool, bytes, type(None)})
#: what :meth:`StepState.clone` copies (or shares) itself: the engine is one shared object;
#: ``parked`` is a tuple of frames never changed while they wait (copied as they go back)
_COPIED_HERE = frozenset({"engine", "options", "history", "pos", "stack", "parked"})
#: what the runtime keeps on a state only while a step runs (the event log, the frame
#: queue) or for one decision (the options memo): never in a clone nor a snapshot
_TOLD, _LAST, _QUEUED, _MEMO = ("_runtime_told", "_runtime_last", "_runtime_queued",
                                "_runtime_options")
#: the last entry of a snapshot's stack while rolls wait (sealed dice): never a step's name
WAITING = "(rolls waiting)"


class _Begun:
    """An options listing begun and stopped (:meth:`StepState.options_begun`): the
    options listed so far, and the iterator of the rest.  A plain class: a dataclass
    would be made at every import of the runtime."""

    __slots__ = ("rest", "seen")

    def __init__(self, seen: tuple[Action, ...], rest: Iterator[Action]) -> None:
        self.seen = seen
        self.rest = rest
#: :attr:`Choice.decider` for a decision of the side whose player turn it is, or of its
#: opponent, where the rules name the side by that role: the state names the phasing side
#: once (:meth:`StepState.phasing_side`).  Never a side's name (in parentheses)
PHASING, NON_PHASING = "(phasing)", "(non-phasing)"


@dataclass(frozen=True)
class NoArgs:
    """The arguments of a step that takes none."""


#: a frame's arguments when none are given: one value shared by every such frame
_NO_ARGS = NoArgs()


class Frame(Mutable):
    """One step in progress: which step, its arguments, where a sequence has got to.  A
    record of pbem.history's, not a dataclass, as :class:`Refusal` (issue 35)."""

    __slots__ = __match_args__ = ("step", "args", "pc")
    step: str
    args: Any
    pc: int

    def __init__(self, step: str, args: Any = _NO_ARGS, pc: int = 0) -> None:
        self.step = step
        self.args = args
        self.pc = pc


class Refusal(Frozen):
    """Why an action is refused, under a rule finer than its step's (``"Skirmish 2.1"``).
    A frozen record, not a dataclass, as :mod:`pbem.engine`'s (issue 35)."""

    __match_args__ = ("rule", "text")
    rule: str
    text: str

    def __init__(self, rule: str, text: str) -> None:
        set_field(self, "rule", rule)
        set_field(self, "text", text)


class Flow:
    """What a step does with its frame once it has acted: nothing (a choice stays, for
    several actions in one phase), ``end``, ``goto`` another step, or ``call`` one and
    come back.  One move per step run; besides it, any number of :meth:`push`.

    A second move is a bug unless it says it replaces the first (``replace=True``): a
    step that has ended its frame and then finds, further down its rule, that the play
    goes elsewhere (Backhand Blow's move that brings an uprising due, 17.0)."""

    def __init__(self) -> None:
        self.move: tuple[str, str, Any] | None = None
        #: steps to run next, in this order, on top of where the move leaves the stack
        self.pushed: list[tuple[str, Any]] = []

    def _set(self, move: tuple[str, str, Any], replace: bool) -> None:
        if self.move is not None and not replace:
            raise RuntimeError(f"a step may {self.move[0]} or {move[0]}, not both "
                               "(say replace=True where the second move is meant)")
        self.move = move

    def end(self, *, replace: bool = False) -> None:
        self._set(("end", "", None), replace)

    def goto(self, step: str, args: Any = None, *, replace: bool = False) -> None:
        self._set(("goto", step, args), replace)

    def call(self, step: str, args: Any = None, *, replace: bool = False) -> None:
        self._set(("call", step, args), replace)

    def push(self, step: str, args: Any = None) -> None:
        """Run ``step`` next, after the steps pushed before it in this run, then come back
        to whatever the move left on top (this frame if it stays; the frame below if it
        ended).  The work a rule queues up as it goes (a combat's chit draws, its die
        roll, each side's result) without moving on itself."""
        self.pushed.append((step, args))


class Step(Generic[S]):
    """Base of every step.  ``name`` is how frames and sequences refer to it."""

    name: ClassVar[str]
    rule: ClassVar[str] = ""
    #: the dataclass of a frame's arguments (kept in the snapshot through pbem.codec)
    Args: ClassVar[type[Any]] = NoArgs
    #: sealed dice (issue 21): the batches (:attr:`Roll.batch`) whose rolls may stay
    #: unresolved while this step runs or is decided, because the rules let the side go on
    #: without their results here (cite the rule where it is declared).  Empty: any waiting
    #: roll is resolved before this step, the safe default.
    lets_wait: ClassVar[frozenset[str]] = frozenset()

    def may_wait(self, s: S, args: Any, batches: frozenset[str]) -> bool:
        """Whether rolls of ``batches`` may stay unresolved at this step (a step whose
        answer depends on the position overrides this; the default is :attr:`lets_wait`)."""
        return batches <= self.lets_wait


class Choice(Step[S]):
    """A decision point.  Subclasses give ``kind``, ``rule``, :meth:`side`, :meth:`prompt`,
    :meth:`options` and :meth:`apply`; :meth:`default` where the rulebook names one.

    What is the same at every position is declared, not written as a one-line method:
    :attr:`decider` (the side, or its role: the phasing side or its opponent),
    :attr:`default_action` or :attr:`default_option` (the default), :attr:`refusal`,
    :attr:`prompt_template` (the prompt), :attr:`order` (the standing order).  The
    methods remain for what depends on the position.

    What a task a side works through until it stops shares is declared too:
    :attr:`decider_field` (the side named by the frame's arguments) or
    :attr:`decider_unit` (the owner of the unit they name), :attr:`ending` (the
    action that ends the task: the default where listed, ending the frame when taken,
    :meth:`end`), :attr:`when_empty` (``"end"``: the task ends itself when nothing is
    offered), :attr:`show_at_most` (the options listed with the decision up to a
    count)."""

    kind: ClassVar[str]
    #: take the only option without asking (a forced choice is no decision):
    #: :meth:`auto_option`
    auto: ClassVar[bool] = False
    #: list the options in the Decision (False when they are too many to show)
    show: ClassVar[bool] = True

    #: the side that decides where the rules always name the same one, or its role in the
    #: player turn (:data:`PHASING`, :data:`NON_PHASING`) ("": say it in :meth:`side`)
    decider: ClassVar[str] = ""
    #: the default the rulebook names where it is always the same action (None: there is
    #: none, or :meth:`default` says it from the position)
    default_action: ClassVar[Action | None] = None
    #: the default as a place in the listed options where it is always the one listed
    #: there (0 the first, -1 the last; none when nothing is listed); None: see
    #: :attr:`default_action`
    default_option: ClassVar[int | None] = None
    #: the refusal of any action not listed where it is the same whatever the action
    #: (None: :meth:`why_not` words it)
    refusal: ClassVar[Refusal | None] = None
    #: the prompt as a format string (``str.format_map``) filled with ``side`` (who
    #: decides), each field of the frame's arguments by name, and what
    #: :meth:`prompt_fields` adds ("": :meth:`prompt` words it)
    prompt_template: ClassVar[str] = ""
    #: the standing order (ARCHITECTURE 9) this decision takes, answering with its
    #: default: what that does, in a player's words ("": no standing order); the
    #: engine's :class:`~pbem.engine.OrderSpec` is derived from it with the step's kind
    #: and rule (:meth:`StepState.order_specs`)
    order: ClassVar[str] = ""
    #: further answers of the standing order, as (name, what it does): the engine's
    #: :meth:`~pbem.engine.State.order_answer` gives them
    order_policies: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the field of the frame's arguments that names the deciding side, where the same
    #: step is each side's in turn (a phase's moves: ``"side"``); :attr:`decider` first
    decider_field: ClassVar[str] = ""
    #: the field of the frame's arguments naming the unit (or units: the first) whose
    #: owner decides (a retreat, a loss, a unit's option: the owner's choice), by the
    #: state's :meth:`StepState.owner`; :attr:`decider` and :attr:`decider_field` first
    decider_unit: ClassVar[str] = ""
    #: the action that ends the task (a side's "done"), where a side may stop: the
    #: default whenever it is listed (:meth:`default`), and taken, it ends the frame
    #: (:meth:`end`) without reaching :meth:`apply`; None: no such action, or
    #: :meth:`ending_for` says it from the position
    ending: ClassVar[Action | None] = None
    #: what the runtime does when nothing is offered: ``"ask"`` (ask anyway; an engine
    #: whose decision is never empty) or ``"end"`` (the task is over: the frame ends
    #: without asking); with :attr:`auto` a sole option is taken too
    when_empty: ClassVar[str] = "ask"
    #: list the options in the Decision only up to this many (a phase's moves run to
    #: thousands at one position and a handful at another); None: the state's
    #: :attr:`StepState.show_at_most`
    show_at_most: ClassVar[int | None] = None

    def side(self, s: S, args: Any) -> str:
        if self.decider == PHASING:
            return s.phasing_side()
        if self.decider == NON_PHASING:
            return s.non_phasing_side()
        if self.decider:
            return self.decider
        if self.decider_field:
            return str(getattr(args, self.decider_field))
        if self.decider_unit:
            unit = getattr(args, self.decider_unit)
            return s.owner(str(unit[0] if isinstance(unit, list | tuple) else unit))
        raise NotImplementedError

    def prompt(self, s: S, args: Any) -> str:
        if not self.prompt_template:
            raise NotImplementedError(f"{self.name}: no prompt_template nor prompt()")
        fields: dict[str, Any] = {}
        if dataclasses.is_dataclass(args):
            fields.update((f.name, getattr(args, f.name)) for f in dataclasses.fields(args))
        fields["side"] = self.side(s, args)
        fields.update(self.prompt_fields(s, args))
        return self.prompt_template.format_map(fields)

    def prompt_fields(self, s: S, args: Any) -> Mapping[str, Any]:
        """What :attr:`prompt_template` names beyond ``side`` and the arguments' fields
        (the turn, a hex's name...)."""
        return {}

    def options(self, s: S, args: Any) -> list[Action]:
        raise NotImplementedError

    def apply(self, s: S, args: Any, action: Action, flow: Flow) -> list[Event]:
        """Apply a listed action (the runtime has refused any other)."""
        raise NotImplementedError

    def default(self, s: S, args: Any) -> Action | None:
        ending = self.ending_for(s, args)
        if ending is not None and ending in s.options_for(self, args):
            return ending  # a side may stop now: not when the task must be done first
        if self.default_option is not None:
            options = s.options_for(self, args)
            return options[self.default_option] if options else None
        return self.default_action

    def ending_for(self, s: S, args: Any) -> Action | None:
        """The action that ends the task here (:attr:`ending`)."""
        return self.ending

    def end(self, s: S, args: Any, flow: Flow) -> list[Event]:
        """Take the ending action (:attr:`ending`): the frame ends.  A rule that acts
        when a side stops (what is left over) overrides this and ends the flow."""
        flow.end()
        return []

    def take(self, s: S, args: Any, action: Action, flow: Flow) -> list[Event]:
        """What the runtime calls with an action it has checked (or takes for a side):
        the ending action goes to :meth:`end`, any other to :meth:`apply`."""
        ending = self.ending_for(s, args)
        if ending is not None and action == ending:
            return self.end(s, args, flow)
        return self.apply(s, args, action, flow)

    def accepts(self, s: S, args: Any, action: Action) -> bool:
        """An action not in :meth:`options` that the step still takes: a parameter
        variant too many to list (the engine contract allows leaving those out), such as
        a commitment's digest or a reveal's salt, which only a session can make."""
        return False

    def check(self, s: S, args: Any, action: Action) -> None:
        """Refuse ``action`` (raise :class:`~pbem.errors.IllegalAction`) unless it may be
        applied.  The default refuses what :meth:`options` does not list, in the words of
        :meth:`why_not`; a step whose ``apply`` checks an action itself (a move along any
        legal path, not only the listed one) overrides this."""
        if action not in s.options_for(self, args) and not self.accepts(s, args, action):
            why = self.why_not(s, args, action)
            if isinstance(why, Refusal):
                raise IllegalAction(why.text, rule=why.rule)
            raise IllegalAction(why, rule=self.rule)

    def settle(self, s: S, args: Any, flow: Flow) -> list[Event] | None:
        """Before a side is asked: ``None`` to ask, or the events of what this step did
        without asking (ended with nothing left to decide, took a forced option), having
        moved ``flow`` or not (then it is asked again).  For rules more particular than
        ``auto``.  By default: with :attr:`when_empty` ``"end"``, the frame ends when
        nothing is offered."""
        if self.when_empty == "ask":
            return None
        if self.when_empty != "end":
            raise ValueError(f"{self.name}: when_empty is 'ask' or 'end', not "
                             f"{self.when_empty!r}")
        if s.options_for(self, args):
            return None
        flow.end()
        return []

    def only_option(self, s: S, args: Any) -> Action | None:
        """The one action this decision can take now, or ``None`` when there is a choice.
        Sealed rules 2 (docs/protocol.md 6.2.1) take it without asking where a roll's
        result leads here, so no file stops for a non-choice.  By default: the one listed
        option, when the step takes nothing it does not list (neither :meth:`check` nor
        :meth:`accepts` overridden); a step whose ``check`` takes unlisted variants says
        itself when its one option is really the only one."""
        cls = type(self)
        if cls.check is not Choice.check or cls.accepts is not Choice.accepts:
            return None
        options = s.options_for(self, args)
        return options[0] if len(options) == 1 else None

    def auto_option(self, s: S, args: Any) -> Action | None:
        """What an :attr:`auto` step takes without asking: its one option, or ``None``
        when it has none or several (the side is asked).  By default: the one option
        :meth:`options` lists.  A step whose full listing is costly and whose one option
        it can tell without it overrides this, exactly equal to the listing's answer
        (48th Panzer Korps' moving stack, settled after each of its steps: issue 35)."""
        options = s.options_for(self, args)
        return options[0] if len(options) == 1 else None

    def why_not(self, s: S, args: Any, action: Action) -> str | Refusal:
        """Why ``action`` is not listed, for the refusal: words under the step's rule, or a
        :class:`Refusal` naming a finer rule."""
        if self.refusal is not None:
            return self.refusal
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"


class Roll(Step[S]):
    """A chance node: :meth:`request` says what to roll or draw and why; :meth:`resolve`
    applies the outcome.  The frame ends after it unless ``resolve`` moves on itself.

    A roll of the same dice at every position is declared, not written as a one-line
    :meth:`request`: :attr:`dice` (the sides of each die), :attr:`purpose_template` (why,
    filled like a decision's prompt: each field of the frame's arguments by name and
    what :meth:`purpose_fields` adds), :attr:`rule_field` (where the frame names a finer
    rule than the step's); :attr:`told` tells the number rolled as an event before its
    rule applies it; the one handler :meth:`then` gets the number rolled (the dice's
    total) and applies its rule.  A draw, or a roll whose handler reads each die,
    writes :meth:`request` and :meth:`resolve` instead."""

    #: sealed dice (issue 21): the batch this roll belongs to.  With sealed dice, a roll
    #: of a batch asked for after a side's action waits while play goes on through steps
    #: that let the batch wait (:attr:`Step.lets_wait`); a roll lets its own batch wait.
    #: Empty: the roll is resolved before play goes on (and with open dice, always).
    batch: ClassVar[str] = ""
    #: the sides of each die rolled, where it is the same at every position (``(6,)``:
    #: one six-sided die); empty: :meth:`request` says what to roll
    dice: ClassVar[tuple[int, ...]] = ()
    #: the roll's purpose as a format string (``str.format_map``) filled with each field
    #: of the frame's arguments by name and what :meth:`purpose_fields` adds
    purpose_template: ClassVar[str] = ""
    #: the field of the frame's arguments naming the rule the roll is made under, where
    #: the frame names a finer one than the step's :attr:`rule` ("": the step's)
    rule_field: ClassVar[str] = ""
    #: tell the number rolled as an event ("<purpose>: rolled <n>") before :meth:`then`
    #: applies it, so a rule's effects are told after the roll that caused them
    told: ClassVar[bool] = False
    #: the field of the frame's arguments naming the hex the told roll is made for ("":
    #: none, or it is empty)
    hex_field: ClassVar[str] = ""

    def may_wait(self, s: S, args: Any, batches: frozenset[str]) -> bool:
        return batches <= self.lets_wait | {self.batch} if self.batch else False

    def purpose(self, s: S, args: Any) -> str:
        """Why the roll is made (:attr:`purpose_template`)."""
        if not self.purpose_template:
            raise NotImplementedError(f"{self.name}: no purpose_template nor request()")
        fields: dict[str, Any] = {}
        if dataclasses.is_dataclass(args):
            fields.update((f.name, getattr(args, f.name)) for f in dataclasses.fields(args))
        fields.update(self.purpose_fields(s, args))
        return self.purpose_template.format_map(fields)

    def purpose_fields(self, s: S, args: Any) -> Mapping[str, Any]:
        """What :attr:`purpose_template` names beyond the arguments' fields (the turn...)."""
        return {}

    def rule_for(self, s: S, args: Any) -> str:
        """The rule the roll is made under (:attr:`rule_field`, else the step's)."""
        return str(getattr(args, self.rule_field)) if self.rule_field else self.rule

    def request(self, s: S, args: Any) -> ChanceRequest:
        if not self.dice:
            raise NotImplementedError(f"{self.name}: no dice declared nor request()")
        return ChanceRequest.roll(self.purpose(s, args), *self.dice, rule=self.rule_for(s, args))

    def resolve(self, s: S, args: Any, outcome: Outcome, flow: Flow) -> list[Event]:
        roll = sum(int(n) for n in outcome)
        if self.told:
            h = str(getattr(args, self.hex_field)) if self.hex_field else ""
            s.tell(Event(f"{self.purpose(s, args)}: rolled {roll}", "roll",
                         hexes=(h,) if h else (), rule=self.rule_for(s, args)))
        return list(self.then(s, args, roll) or ())

    def then(self, s: S, args: Any, roll: int) -> list[Event] | None:
        """Apply the number rolled by the step's rule (its events told, or returned)."""
        raise NotImplementedError

    def settle(self, s: S, args: Any, flow: Flow) -> list[Event] | None:
        """Before the roll is requested: ``None`` to request it (``args`` may be adjusted,
        a draw's count to what the cup holds now), or the events of what happened instead
        (a draw from an empty cup), having moved ``flow``."""
        return None


class Procedure(Step[S]):
    """Bookkeeping between decisions.  :meth:`run` must move the flow (end, goto or call);
    after a call it runs again when the called step ends."""

    def run(self, s: S, args: Any, flow: Flow) -> list[Event]:
        raise NotImplementedError


class Entry(Frozen, Generic[S]):
    """One line of a sequence of play: the rule, the step it calls, and when it applies.

    ``args``: the called step's arguments: ``None`` (its ``Args()``), a fixed value
    (copied for each call, so a step that changes its frame's arguments never changes the
    entry's), or a function ``(state, sequence_args) -> args`` of the sequence frame's own
    arguments (a player turn passing its side to each of its phases).  A frozen record,
    not a dataclass, as :mod:`pbem.engine`'s (issue 35)."""

    __match_args__ = ("rule", "step", "when", "args")
    rule: str
    step: str
    when: Callable[[S], bool] | None
    args: Any

    def __init__(self, rule: str, step: str, when: Callable[[S], bool] | None = None,
                 args: Any = None) -> None:
        set_field(self, "rule", rule)
        set_field(self, "step", step)
        set_field(self, "when", when)
        set_field(self, "args", args)

    def args_for(self, s: S, sequence_args: Any) -> Any:
        """The arguments this entry calls its step with, in ``s`` from a sequence frame
        whose arguments are ``sequence_args``."""
        if callable(self.args):
            return self.args(s, sequence_args)
        return copy.deepcopy(self.args)


class Sequence(Step[S]):
    """The book's sequence outline as data: each entry in order, then the frame ends.

    Where the sequence has got to is the number of entries done (skipped ones too), kept
    by default in the frame's ``pc``.  Two options keep a sequence's frames as an engine
    saved them before it was one (a saved game in progress restores, a golden game's
    state digests stay):

    - :attr:`counter`: the name of an ``int`` field of the frame's arguments (``Args``)
      that holds the count instead (``pc`` stays 0): the hand-kept ``stage`` of a
      procedure that called its steps in turn;
    - :attr:`tail`: the last entry's step replaces the sequence's frame (a ``goto``)
      instead of being called from it, as a procedure that did the last entry's work
      itself and ended left the stack.

    With :meth:`Entry.args_for`, an entry's arguments may be derived from the sequence
    frame's own (a player turn's side)."""

    entries: ClassVar[tuple[Entry[Any], ...]]
    #: the ``int`` field of the frame's arguments counting the entries done ("": ``pc``)
    counter: ClassVar[str] = ""
    #: the last entry is a ``goto`` from the sequence's frame, not a call
    tail: ClassVar[bool] = False

    def done(self, frame: Frame) -> int:
        """How many entries the sequence in ``frame`` has done (or skipped)."""
        n = getattr(frame.args, self.counter) if self.counter else frame.pc
        if type(n) is not int or not 0 <= n <= len(self.entries):
            raise RuntimeError(f"sequence {self.name}: {self.counter or 'pc'} = {n!r} is "
                               f"not a count of its {len(self.entries)} entries")
        return n

    def advance(self, s: S, frame: Frame, flow: Flow) -> None:
        """Move ``flow`` on to the next entry that applies (counting every entry passed in
        ``frame``), or end the sequence when none is left."""
        n = self.done(frame)
        while n < len(self.entries):
            entry = self.entries[n]
            n += 1
            if entry.when is None or entry.when(s):
                args = entry.args_for(s, frame.args)
                if self.tail and n == len(self.entries):
                    flow.goto(entry.step, args)
                else:
                    flow.call(entry.step, args)
                break
        else:
            flow.end()
        if self.counter:
            setattr(frame.args, self.counter, n)
        else:
            frame.pc = n

    @classmethod
    def outline(cls) -> list[str]:
        """The sequence as the book prints it (for docs and ``pbem rules``)."""
        return [f"{e.rule}  {e.step}" + (" (when it applies)" if e.when else "")
                for e in cls.entries]


def step_table(*steps: Step[Any]) -> dict[str, Step[Any]]:
    table: dict[str, Step[Any]] = {}
    for step in steps:
        if step.name in table:
            raise ValueError(f"two steps named {step.name!r}")
        table[step.name] = step
    return table


if TYPE_CHECKING:
    from pbem.steptable import LazyStepTable as LazyStepTable
else:
    def __getattr__(name: str) -> Any:
        # pbem.steps.LazyStepTable loads with the first engine that makes one: its class,
        # a Mapping, cost every turn command of every other engine 0.32 M instructions
        # to make (issue 35)
        if name == "LazyStepTable":
            from pbem.steptable import LazyStepTable

            return LazyStepTable
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Misfit(Exception):
    """Raised by :meth:`StepState.frames_for`: the step asked for does not fit the
    position (a Combat Phase step set up in a Movement Phase); pbem.setup refuses the
    setup text, naming ``field``, the position field the step disagrees with."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field
        self.why = why


class StepState(State, Generic[P]):
    """A :class:`~pbem.engine.State` whose control flow is steps on a frame stack.

    An engine gives ``steps`` (see :func:`step_table`), ``start`` (the step the game
    begins with), ``Position`` (its position dataclass), and the hooks the runtime cannot
    know: :meth:`_result`, :meth:`_view`, :meth:`parse_action`.  The game is over when the
    stack is empty or :meth:`over` says so.
    """

    steps: ClassVar[Mapping[str, Step[Any]]]
    start: ClassVar[str]
    Position: ClassVar[type[Any]]

    pos: P
    stack: list[Frame]
    #: sealed dice (issue 21): the rolls waiting, in the order they were asked for, and the
    #: side whose action asked for them; in the snapshot (:meth:`stack_data`) when any.
    #: A tuple, never changed in place, of frames never changed while they wait: a clone
    #: may share it (the frames are copied when they go back on the stack)
    parked: tuple[Frame, ...] = ()
    parked_by: str = ""
    #: the attributes :meth:`clone` leaves out: caches an engine keeps of what the position
    #: implies, which it makes again when they are missing
    clone_drops: ClassVar[tuple[str, ...]] = ()
    #: the attributes a clone shares with its original: what never changes in a game
    #: whatever the position (its scenario's tables, facts of the map, caches of pure
    #: functions of their keys)
    clone_shares: ClassVar[tuple[str, ...]] = ()
    #: compute a decision's options once for its prompt, its listing, the check of the
    #: action taken and :meth:`Choice.only_option` (:meth:`options_for`).  On, the
    #: position may change only inside steps (a test that edits it by hand between two
    #: asks calls :meth:`forget_options`); off, every ask computes them again.
    memo_options: ClassVar[bool] = False
    #: list a decision's options only up to this many, for every step that does not
    #: declare its own :attr:`Choice.show_at_most` (None: no such limit)
    show_at_most: ClassVar[int | None] = None

    def begin(self, position: P, stack: list[Frame] | None = None) -> list[Event]:
        """Set the position and the frames (a new game: the start step), then run to the
        first decision or roll."""
        self.pos = position
        # the start step's own default arguments (a bare Frame would give it NoArgs)
        self.stack = stack if stack is not None else [self._frame(self.start, None)]
        self.forget_options()
        return self._settle()

    # -- the runtime's services to rule helpers ----------------------------------------------

    def tell(self, event: Event, *, last: bool = False) -> None:
        """Tell ``event`` from wherever a rule finds it (a helper deep in a step: a unit
        eliminated on the way), without returning it through every caller.  The order
        (docs/engine-guide.md section 3, "Telling events"): an action's or outcome's events are one
        log in the order things happened: each step's told events in the order told,
        then the list the step returned (as if told as it returned), step after step as
        the runtime runs them; then, in the order told, those told with ``last``: what a
        rule checks "at any time" and tells once the action is done (Backhand Blow's
        Front Marker displaced by a move, 14.1).  Only while a step runs."""
        told: list[Event] | None = self.__dict__.get(_LAST if last else _TOLD)
        if told is None:
            raise RuntimeError(f"{event.text!r} told while no step runs (tell from a "
                               "step's apply, run, resolve or settle)")
        told.append(event)

    def queue(self, step: str, args: Any = None, *, first: bool = False) -> None:
        """Run ``step`` after the current step has moved its flow, as :meth:`Flow.push`
        does, from a rule helper that has no flow: after whatever was queued before it,
        or (``first``) before all of it."""
        self.queue_frames([self._frame(step, args)], first=first)

    def queue_frames(self, frames: Iterable[Frame], *, first: bool = False) -> None:
        """Queue ``frames`` in their order: after what was queued, or (``first``) all of
        them, in their order, before it."""
        queued: list[Frame] = self.__dict__.setdefault(_QUEUED, [])
        if first:
            queued[0:0] = list(frames)
        else:
            queued.extend(frames)

    def options_for(self, step: Choice[Any], args: Any) -> list[Action]:
        """``step.options(self, args)``, computed once per decision when
        :attr:`memo_options` is on: the memo lives only between steps (dropped before
        and after every step's call, as the position may change) and never enters a
        clone or a snapshot."""
        if not self.memo_options:
            return step.options(self, args)
        memo: tuple[Step[Any], Any, tuple[Action, ...] | _Begun] | None = (
            self.__dict__.get(_MEMO))
        if memo is not None and memo[0] is step and memo[1] == args:
            listed = memo[2]
            if isinstance(listed, _Begun):  # finished now, from where it stopped
                listed = (*listed.seen, *listed.rest)
                self.__dict__[_MEMO] = (step, args, listed)
            return list(listed)
        options = step.options(self, args)
        self.__dict__[_MEMO] = (step, args, tuple(options))
        return options

    def options_begun(self, step: Choice[Any], args: Any, seen: Iterable[Action],
                      rest: Iterator[Action]) -> None:
        """Keep a listing of ``step``'s options that was begun and stopped (its first
        options ``seen``, and ``rest`` yielding the others in :meth:`Choice.options`'
        order) as the options memo, when :attr:`memo_options` is on: finished only if
        the decision is listed before the next step runs.  For a
        :meth:`Choice.auto_option` that looks no further than it must (48th Panzer
        Korps' moving stack): a side's listing then goes on from where it stopped."""
        if self.memo_options:
            self.__dict__[_MEMO] = (step, args, _Begun(tuple(seen), rest))

    def options_listed(self, step: Choice[Any], args: Any) -> tuple[Action, ...]:
        """Those of ``step``'s options already listed for this decision (the memo of
        :meth:`options_for`, or the part of a listing :meth:`options_begun` kept), none
        listed further: an action among them is one :meth:`Choice.options` lists, so a
        step's own :meth:`Choice.check` may take it without asking its rules again
        (48th Panzer Korps' moving stack: its settling lists a step's first next hexes,
        and the step received is often one of them, issue 35)."""
        memo: tuple[Step[Any], Any, tuple[Action, ...] | _Begun] | None = (
            self.__dict__.get(_MEMO))
        if memo is None or memo[0] is not step or memo[1] != args:
            return ()
        listed = memo[2]
        return listed.seen if isinstance(listed, _Begun) else listed

    def forget_options(self) -> None:
        """Drop the options memo (the position changed outside a step)."""
        self.__dict__.pop(_MEMO, None)

    @contextlib.contextmanager
    def telling(self) -> Iterator[tuple[list[Event], list[Frame]]]:
        """For a test or a tool that calls rule functions itself, outside any step: the
        events they tell (those told ``last`` at the end, once the block is done) and
        the frames they queue, collected here, and gone after the block."""
        mine = (_TOLD, _LAST, _QUEUED)
        saved = {k: self.__dict__.pop(k) for k in mine if k in self.__dict__}
        told: list[Event] = []
        last: list[Event] = []
        queued: list[Frame] = []
        self.__dict__.update({_TOLD: told, _LAST: last, _QUEUED: queued})
        try:
            yield told, queued
            told += last
        finally:
            for k in mine:
                self.__dict__.pop(k, None)
            self.__dict__.update(saved)

    def _run_begin(self) -> tuple[list[Event], list[Event], dict[str, Any]]:
        """A fresh event log and frame queue for an action or outcome being applied
        (an engine's own clone taken inside a step may hold its original's: they are set
        aside, and back at :meth:`_run_end`, which follows in a ``finally``): the log,
        the log of what is told last, and what was set aside.  Not a context manager:
        its generator and wrapper were a few thousand instructions an action replayed
        (issue 35)."""
        d = self.__dict__
        saved = {k: d.pop(k) for k in (_TOLD, _LAST, _QUEUED) if k in d}
        told: list[Event] = []
        last: list[Event] = []
        d[_TOLD], d[_LAST] = told, last
        return told, last, saved

    def _run_done(self, told: list[Event], last: list[Event]) -> None:
        """The action or outcome ran without an error: what was told last goes at the
        end of its log."""
        d = self.__dict__
        if d.get(_QUEUED):
            raise RuntimeError(f"frames queued after the last step's move: {d[_QUEUED]}")
        told += last

    def _run_end(self, saved: dict[str, Any]) -> None:
        """The log and queue gone, whatever happened, and what was set aside back."""
        d = self.__dict__
        for k in (_TOLD, _LAST, _QUEUED):
            d.pop(k, None)
        d.update(saved)

    def _ran(self, told: list[Event], returned: list[Event] | None) -> None:
        """A step's call has returned: its list after what it told; the options memo
        goes, since the position may have changed (it went before the call too: a rule
        asking :meth:`options_for` inside a step reads the position as it is then), and
        where the step acted, :meth:`position_changed`."""
        if returned:
            told.extend(returned)
        self.forget_options()
        if returned is not None:  # the step acted (a settle that asks returns None)
            self.position_changed()

    # -- derived for the engine (pbem.engine.Engine's defaults) ------------------------------

    @classmethod
    def choice_kinds(cls) -> tuple[str, ...]:
        """Every decision kind of the step table (``Engine.decision_kinds``), sorted."""
        return tuple(sorted({step.kind for step in cls.steps.values()
                             if isinstance(step, Choice)}))

    @classmethod
    def order_specs(cls) -> list[OrderSpec]:
        """The standing orders the steps declare (:attr:`Choice.order`), each with its
        step's kind and rule, in the step table's order (``Engine.standing_orders``)."""
        specs: dict[str, OrderSpec] = {}
        for step in cls.steps.values():
            if isinstance(step, Choice) and step.order:
                spec = OrderSpec(step.kind, step.rule, step.order, step.order_policies)
                if specs.setdefault(step.kind, spec) != spec:
                    raise ValueError(f"{cls.__name__}: two standing orders for decisions "
                                     f"of kind {step.kind!r}")
        return list(specs.values())

    @classmethod
    def restored(cls, engine: Engine, snapshot: Snapshot) -> State:
        """A state from a snapshot (``Engine._restore``): made as a new state is, with
        ``(engine, scenario, options)``, then its body set by :meth:`restore_body`."""
        state = cls(engine, snapshot["scenario"], dict(snapshot["options"]))
        state.restore_body(snapshot["body"])
        return state

    # -- for engines ----------------------------------------------------------------------

    def phasing_side(self) -> str:
        """The side whose player turn it is, named once by an engine whose steps declare
        ``decider = PHASING`` or ``NON_PHASING``."""
        raise NotImplementedError(f"{type(self).__name__} names no phasing side: a step "
                                  "declares decider = PHASING or NON_PHASING")

    def non_phasing_side(self) -> str:
        """The phasing side's opponent: the engine's other side."""
        phasing = self.phasing_side()
        others = [side for side in self.engine.sides if side != phasing]
        if phasing not in self.engine.sides or len(others) != 1:
            raise ValueError(f"no one opponent of {phasing!r} among the sides "
                             f"{self.engine.sides}")
        return others[0]

    def owner(self, unit: str) -> str:
        """The side that owns ``unit``, named once by an engine whose steps declare
        :attr:`Choice.decider_unit`."""
        raise NotImplementedError(f"{type(self).__name__} names no unit's owner: a step "
                                  "declares decider_unit")

    def position_changed(self) -> None:
        """Called by the runtime after each step that acted (an action or outcome
        applied, a procedure run, a settle that did something): an engine that caches
        facts about the position (who is where, ZOCs) drops them here, so no step has
        to."""

    def over(self) -> bool:
        """The game has ended by the rules although steps remain (a side wiped out...)."""
        return False

    def frames_for(self, step: str) -> list[Frame]:
        """The frame stack of a position at ``step`` (the setup API's ``step = "..."``);
        engines whose steps nest say how (see pbem.setup).  The position is the one set
        up (its turn, phase and side as given); raise :class:`Misfit` when ``step`` does
        not fit it, ``KeyError`` when there is no such step."""
        return [Frame(step)]

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """The setup API's adapter (pbem.setup): turn an engine's shorthand (units in hexes
        with their states, markers) into position fields; plain fields pass as they are."""
        return data

    def frame(self) -> Frame:
        return self.stack[-1]

    def step(self) -> Step[Any]:
        return self.steps[self.stack[-1].step]

    # -- the State hooks, once ---------------------------------------------------------------

    def _current_player(self) -> str | None:
        if not self.stack or self.over():
            return None
        step, frame = self.step(), self.stack[-1]
        if isinstance(step, Roll):
            return CHANCE
        assert isinstance(step, Choice)
        return step.side(self, frame.args)

    def _choice(self) -> tuple[Choice[Any], Frame]:
        step = self.step()
        assert isinstance(step, Choice), f"{step.name} is not a decision"
        return step, self.stack[-1]

    def _legal_actions(self) -> list[Action]:
        step, frame = self._choice()
        return self.options_for(step, frame.args)

    def _decision(self) -> Decision:
        step, frame = self._choice()
        args = frame.args
        shown: tuple[Action, ...] = ()
        if step.show:
            shown = tuple(self.options_for(step, args))
            most = self.show_at_most if step.show_at_most is None else step.show_at_most
            if most is not None and len(shown) > most:
                shown = ()
        return Decision(step.side(self, args), step.kind, step.prompt(self, args),
                        shown, step.default(self, args), rule=step.rule)

    def _decision_head(self) -> tuple[str, str]:
        if type(self)._decision is not StepState._decision:
            # an engine's own _decision may word it otherwise: asked in full (such an
            # engine whose override keeps side and prompt can return _step_head())
            return super()._decision_head()
        return self._step_head()

    def _step_head(self) -> tuple[str, str]:
        """Side and prompt exactly as :meth:`_decision` words them, no options listed."""
        step, frame = self._choice()
        return step.side(self, frame.args), step.prompt(self, frame.args)

    def _apply_action(self, action: Action) -> list[Event]:
        step, frame = self._choice()
        step.check(self, frame.args, action)
        # sealed dice: the rolls this action leads to may wait while the same side decides
        actor = step.side(self, frame.args) if self.sealed_dice else ""
        told, last, saved = self._run_begin()
        try:
            flow = Flow()
            self.forget_options()  # the step may change the position
            self._ran(told, step.take(self, frame.args, action, flow))
            self._move(flow, stay=True)
            self._settle_into(told, actor, False)
            self._run_done(told, last)
        finally:
            self._run_end(saved)
        return told

    def _chance_request(self) -> ChanceRequest:
        step = self.step()
        assert isinstance(step, Roll)
        return step.request(self, self.stack[-1].args)

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        step = self.step()
        assert isinstance(step, Roll)
        told, last, saved = self._run_begin()
        try:
            flow = Flow()
            self.forget_options()  # the step may change the position
            self._ran(told, step.resolve(self, self.stack[-1].args, outcome, flow))
            self._move(flow, stay=False)
            # sealed rules 2: the resolver's file need not stop where the result leaves a
            # decision with one option (docs/protocol.md 6.2.1, issue 32)
            self._settle_into(told, "", self.sealed_dice and self.sealed_rules >= 2)
            self._run_done(told, last)
        finally:
            self._run_end(saved)
        return told

    def chance_batch(self) -> str:
        """The batch the roll asked for now belongs to (issue 21; empty: none)."""
        step = self.step()
        return step.batch if isinstance(step, Roll) else ""

    def waiting(self) -> list[ChanceRequest]:
        """The rolls waiting (sealed dice, issue 21), as they would be asked now."""
        return [self._roll(f).request(self, f.args) for f in self.parked]

    def rolls_due(self) -> list[ChanceRequest]:
        """The rolls due now, in order: the roll frames on top of the stack (after a batch
        comes back, every one of its rolls; otherwise the one roll, or none).  What a
        sealed game's resolver will make, for telling the players what a file waits for."""
        if not self.is_chance():
            return []
        due: list[ChanceRequest] = []
        for frame in reversed(self.stack):
            step = self.steps[frame.step]
            if not isinstance(step, Roll):
                break
            due.append(step.request(self, frame.args))
        return due

    def _roll(self, frame: Frame) -> Roll[Any]:
        step = self.steps[frame.step]
        assert isinstance(step, Roll), f"{frame.step} is not a roll"
        return step

    # -- running -------------------------------------------------------------------------------

    def _frame(self, name: str, args: Any) -> Frame:
        if name not in self.steps:
            raise KeyError(f"{type(self).__name__} has no step {name!r}")
        return Frame(name, args if args is not None else self.steps[name].Args())

    def _move(self, flow: Flow, *, stay: bool) -> None:
        """Make the step's move, then put what it pushed and what was queued
        (:meth:`queue`) on top, the first to run last in."""
        if flow.move is None:
            if not stay:
                self.stack.pop()
        else:
            kind, name, args = flow.move
            if kind == "end":
                self.stack.pop()
            elif kind == "goto":
                self.stack[-1] = self._frame(name, args)
            else:
                self.stack.append(self._frame(name, args))
        queued: list[Frame] = self.__dict__.pop(_QUEUED, [])
        for f in reversed(queued):
            self.stack.append(f)
        for name, args in reversed(flow.pushed):
            self.stack.append(self._frame(name, args))

    def _settle(self, actor: str = "", *, forced: bool = False) -> list[Event]:
        """Run procedures and sequences, and take forced choices, until a side must decide,
        a roll is due, or the game is over.  ``actor``: the side whose action this follows,
        with sealed dice (its batched rolls may wait, see the module's docstring).
        ``forced``: this follows a roll's result under sealed rules 2, and a decision with
        one option (:meth:`Choice.only_option`) is taken too, until the next real
        decision or roll.  The events of what ran, in the log's order (:meth:`tell`)."""
        # called from a step (an engine's own setting up), it returns its events to that
        # step, as a log of its own
        told, last, saved = self._run_begin()
        try:
            self._settle_into(told, actor, forced)
            self._run_done(told, last)
        finally:
            self._run_end(saved)
        return told

    def _settle_into(self, events: list[Event], actor: str, forced: bool) -> None:
        for _ in range(MAX_RUN):
            if not self.stack or self.over():
                if self.parked and not self.stack:
                    # the end of the sequence of play: what waits is rolled now
                    self._unpark()
                    actor = ""
                    continue
                return
            step, frame = self.step(), self.stack[-1]
            if self.parked and not (actor and self._may_pass(step, frame, actor)):
                # a step the waiting rolls must come before: they are the chance nodes now,
                # in the order they were asked for, then this step again
                self._unpark()
                actor = ""
                continue
            flow = Flow()
            if isinstance(step, Roll | Choice):
                self.forget_options()  # the step may change the position
                done = step.settle(self, frame.args, flow)
                self._ran(events, done)
                if done is not None:
                    self._move(flow, stay=True)
                    continue
                if self.__dict__.get(_QUEUED):
                    raise RuntimeError(f"{step.name}: settle queued frames but asks")
            if isinstance(step, Roll):
                if actor and step.batch:
                    # the roll waits; play goes on from the frame below, as if it had ended
                    purpose = step.request(self, frame.args).purpose
                    resolver = next((x for x in self.engine.sides if x != actor), "other")
                    events.append(Event(f"{purpose}: the roll waits for the {resolver} "
                                        "player's next file (sealed dice)", "roll",
                                        rule=step.rule))
                    self.stack.pop()
                    self.parked = (*self.parked, frame)
                    self.parked_by = actor
                    continue
                return
            if isinstance(step, Choice):
                if forced and not step.auto:
                    only = step.only_option(self, frame.args)
                    if only is None:
                        return
                    side = step.side(self, frame.args)
                    # told to the side alone: an action's words may be what the rules
                    # hide from the opponent (its own events tell what it did)
                    events.append(Event(f"your only option, taken for you: "
                                        f"{only.notation()} (sealed dice)", "info",
                                        visible_to=(side,), rule=step.rule))
                    self.forget_options()  # the step may change the position
                    self._ran(events, step.take(self, frame.args, only, flow))
                    self._move(flow, stay=True)
                    continue
                if not step.auto:
                    return
                only = step.auto_option(self, frame.args)
                if only is None:
                    return
                self.forget_options()  # the step may change the position
                self._ran(events, step.take(self, frame.args, only, flow))
                self._move(flow, stay=True)
                continue
            if isinstance(step, Sequence):
                step.advance(self, frame, flow)
                self._move(flow, stay=False)
                continue
            assert isinstance(step, Procedure), f"{step.name}: not a step kind"
            self.forget_options()  # the step may change the position
            self._ran(events, step.run(self, frame.args, flow))
            if flow.move is None:
                raise RuntimeError(f"procedure {step.name} neither ended nor moved on")
            self._move(flow, stay=False)
        raise RuntimeError(f"the sequence of play did not settle in {MAX_RUN} steps")

    def _may_pass(self, step: Step[Any], frame: Frame, actor: str) -> bool:
        """Whether the waiting rolls may stay waiting at ``step`` (sealed dice): it lets
        their batches wait and, if it is a decision, it is the side's that asked for them
        (a decision of the opponent always comes after the rolls)."""
        if actor != self.parked_by:
            return False
        if isinstance(step, Choice) and step.side(self, frame.args) != actor:
            return False
        batches = frozenset(self._roll(f).batch for f in self.parked)
        return step.may_wait(self, frame.args, batches)

    def _unpark(self) -> None:
        """The waiting rolls back on the stack, the first asked on top (copies: a clone
        may share the parked frames)."""
        for f in reversed(self.parked):
            self.stack.append(Frame(f.step, copy.deepcopy(f.args), f.pc))
        self.parked, self.parked_by = (), ""

    # -- copying ---------------------------------------------------------------------------

    def clone(self) -> State:
        """An independent copy, derived from the types (pbem.typedcopy): the position by
        :attr:`Position`'s fields, each frame's arguments by its step's ``Args``; the
        engine, whatever it shares (``Shared`` data, never changed) and the attributes
        named in :attr:`clone_shares` are the same objects, the history a list of its own
        holding the same frozen records, and the attributes named in :attr:`clone_drops`
        (caches of what the position implies) are left out, to be made again when asked.
        ``copy.deepcopy`` of the whole state cost 2-6 ms (9-18 ms late in long games) on
        the engines without a copy of their own (issue 35 item 5)."""
        twin = object.__new__(type(self))
        state = self.__dict__.copy()
        # queued frames and told events live only while a step runs
        assert not {_QUEUED, _TOLD, _LAST} & state.keys(), "a clone taken mid-step"
        state.pop(_MEMO, None)
        for name in self.clone_drops:
            state.pop(name, None)
        memo: dict[int, Any] = {}
        for name, value in state.items():
            if (type(value) not in _SHARED_LEAVES and name not in _COPIED_HERE
                    and name not in self.clone_shares):
                # an engine's own attribute: the deep copy is exact whatever it holds (its
                # shared data returns itself)
                state[name] = copy.deepcopy(value, memo)
        state["options"] = dict(self.options)
        state["history"] = list(self.history)
        state["pos"] = self.copy_position()
        state["stack"] = self.copy_stack()
        twin.__dict__.update(state)
        return twin

    def copy_position(self) -> Any:
        """The position's copy for :meth:`clone`, derived from :attr:`Position`'s field
        types (pbem.typedcopy, loaded with the first clone: a receive or a listing makes
        none, issue 35).  An engine may give its own, exactly the same copy, where
        deriving typedcopy's costs a process that clones once more than it saves."""
        from pbem.typedcopy import copier

        return copier(self.Position)(self.pos)

    def copy_stack(self) -> list[Frame]:
        """The frames' copy for :meth:`clone`, each frame's arguments by its step's
        ``Args``: by hand where they are plain (pbem.plainargs), else by pbem.typedcopy,
        loaded then; an engine may give its own, exactly the same copy."""
        steps = self.steps
        stack = []
        for f in self.stack:
            cls = steps[f.step].Args
            args = plainargs.args_copy(cls, f.args)
            if args is None:
                from pbem.typedcopy import copier

                args = copier(cls)(f.args)
            stack.append(Frame(f.step, args, f.pc))
        return stack

    # -- snapshot ----------------------------------------------------------------------------

    def _snapshot(self) -> Snapshot:
        return {"position": self.setup_position(), "stack": self.stack_data()}

    def normal_body(self) -> bytes | None:
        """The body's canonical bytes in one typed pass (pbem.codec.to_canonical_bytes),
        when the engine keeps this class's snapshot; None (the generic way, which also
        names any fault) when it does not, or the position holds what its types do not
        promise."""
        cls = type(self)
        if (cls._snapshot is not StepState._snapshot
                or cls.setup_position is not StepState.setup_position):
            return None
        from pbem import codec

        try:
            return self.packed_body(codec.to_canonical_bytes(self.pos, 2))
        except Exception:  # the generic way raises the error it always raised, or succeeds
            return None

    def packed_body(self, position: bytes) -> bytes:
        """The body's canonical bytes around the position's, packed by the caller (the
        codec's typed writer, or an engine's own writer of its plain data): the frames
        as :meth:`stack_data` gives them.  Raises what packing them raises."""
        stack = canonical.pack_normal(canonical.normalize(self.stack_data(), 2))
        return canonical.pack_map([("position", position), ("stack", stack)])

    def setup_position(self) -> Any:
        """The position's data, as the snapshot body's ``position`` holds it (pbem.setup
        merges a setup text into it).  An engine whose position is not (yet) a typed
        dataclass gives its own."""
        from pbem import codec

        return codec.to_data(self.pos)

    def stack_data(self, frames: list[Frame] | None = None) -> list[list[Any]]:
        """The frames (by default the state's own) as snapshot data: ``[step, pc, args]``;
        the state's own end with ``[WAITING, side, [frame, ...]]`` while rolls wait
        (sealed dice), so engines that store the stack store those too."""
        data = [self._frame_data(f) for f in (self.stack if frames is None else frames)]
        if frames is None and self.parked:
            data.append([WAITING, self.parked_by, [self._frame_data(f) for f in self.parked]])
        return data

    def _frame_data(self, f: Frame) -> list[Any]:
        # by hand where the arguments are plain (pbem.plainargs), else by the codec
        cls = self.steps[f.step].Args
        data = plainargs.args_data(cls, f.args)
        if data is None:
            from pbem import codec

            data = codec.to_data_of(cls, f.args)
        return [f.step, f.pc, data]

    def restore_body(self, body: Mapping[str, Any]) -> None:
        """Set position and frames from a snapshot body (the engine's ``_restore``),
        refusing a body that lacks either, naming the field."""
        if not isinstance(body, Mapping):
            raise FormatError(f"body: not a {type(self).__name__} snapshot body")
        for name in ("position", "stack"):
            if name not in body:
                raise FormatError(f"body.{name}: missing from the snapshot")
        from pbem import codec

        self.pos = codec.from_data(self.Position, body["position"])
        self.restore_stack(body["stack"])

    def restore_stack(self, data: Any) -> None:
        """Set the frames from their snapshot data (:meth:`stack_data`), refusing any that
        is not a frame of this state's steps."""
        if not isinstance(data, list):
            raise FormatError(f"stack: not a frame stack of {type(self).__name__}")
        parked: list[Frame] = []
        parked_by = ""
        if data and isinstance(data[-1], list) and data[-1][:1] == [WAITING]:
            where = f"stack[{len(data) - 1}]"
            item = data[-1]
            if (len(item) != 3 or item[1] not in self.engine.sides
                    or not isinstance(item[2], list) or not item[2]):
                raise FormatError(f"{where}: not the waiting rolls of {type(self).__name__}")
            parked = self._frames(item[2], f"{where}[2]")
            if not all(isinstance(step := self.steps[f.step], Roll) and step.batch
                       for f in parked):
                raise FormatError(f"{where}: a waiting frame that is not a batched roll")
            parked_by = item[1]
            data = data[:-1]
        self.stack = self._frames(data, "stack")
        self.parked, self.parked_by = tuple(parked), parked_by
        self.forget_options()

    def _frames(self, data: list[Any], at: str) -> list[Frame]:
        stack = []
        for n, item in enumerate(data):
            where = f"{at}[{n}]"
            if (not isinstance(item, list) or len(item) != 3 or item[0] not in self.steps
                    or type(item[1]) is not int):
                raise FormatError(f"{where}: not a frame of {type(self).__name__}")
            args = self.frame_args(self.steps[item[0]].Args, item[2], where)
            stack.append(Frame(item[0], args, item[1]))
        return stack

    def frame_args(self, cls: type[Any], data: Any, where: str) -> Any:
        """A frame's arguments, of its step's class ``cls``, from their snapshot data: the
        codec's reading, which names any fault, but where they are plain (pbem.plainargs:
        exactly what the codec gives, read by hand)."""
        args = plainargs.args_from_data(cls, data)
        if args is None:
            from pbem import codec

            args = codec.from_data(cls, data, where)
        return args
