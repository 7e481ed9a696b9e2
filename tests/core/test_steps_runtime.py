"""The runtime pieces engines used to rebuild each (issue 34 item 1), in pbem.steps and
pbem.engine: the event log (``StepState.tell``), the frame queue (``StepState.queue``),
the per-decision options memo, a move that replaces another (``Flow``'s ``replace``),
declared step attributes (``default_action``, ``default_option``, ``refusal``,
``prompt_template``, ``order``, a ``decider`` of ``PHASING``/``NON_PHASING``), and the
engine's ``decision_kinds``, ``standing_orders`` and ``_restore`` derived from its steps.

"Log": a start procedure calls a decision; the decision's ``apply`` calls rule helpers
that tell events from two levels down (some for the end of the action) and queue frames
(some in front), then a note procedure runs for each queued frame, telling and
returning its own events.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from pbem import registry
from pbem.engine import (
    Action,
    ChanceRequest,
    Engine,
    Event,
    OrderSpec,
    Result,
    ScenarioInfo,
    State,
    TextAction,
)
from pbem.errors import FormatError, IllegalAction
from pbem.steps import (
    NON_PHASING,
    PHASING,
    Choice,
    Flow,
    Frame,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    StepState,
    step_table,
)
from pbem.view import BoardView, Layout


@dataclass
class LPos:
    log: list[str] = field(default_factory=list)
    total: int = 0


@dataclass
class NoteArgs:
    text: str = ""


class Start(Procedure["LState"]):
    name = "start"

    def run(self, s: LState, args: NoArgs, flow: Flow) -> list[Event]:
        flow.goto("pick")
        return []


def inner(s: LState, text: str) -> None:
    """A helper two calls deep: tells, queues at the back."""
    s.tell(Event(f"inner {text}"))
    s.tell(Event(f"at any time {text}"), last=True)
    s.queue("note", NoteArgs(f"back {text}"))


def outer(s: LState) -> None:
    """A rule helper: tells around a nested helper and queues in front of all."""
    s.tell(Event("outer before"))
    inner(s, "1")
    inner(s, "2")
    s.queue("note", NoteArgs("front"), first=True)
    s.queue_frames([Frame("note", NoteArgs("group a")), Frame("note", NoteArgs("group b"))],
                   first=True)
    s.tell(Event("outer after"))


class Note(Procedure["LState"]):
    name = "note"
    Args = NoteArgs

    def run(self, s: LState, args: NoteArgs, flow: Flow) -> list[Event]:
        s.pos.log.append(args.text)
        s.tell(Event(f"told by note {args.text}"))
        flow.end()
        return [Event(f"returned by note {args.text}")]


class Pick(Choice["LState"]):
    name = "pick"
    kind = "pick"
    rule = "L 2"
    decider = "a"
    default_action = TextAction("add 1")
    prompt_template = "the {side} player adds to {total}"
    order = "add one"
    order_policies = (("most", "add the most listed"),)

    def prompt_fields(self, s: LState, args: NoArgs) -> dict[str, int]:
        return {"total": s.pos.total}

    def options(self, s: LState, args: NoArgs) -> list[Action]:
        s.asked += 1
        return [TextAction(f"add {n}") for n in range(1, 4 - s.pos.total)] or \
            [TextAction("stop")]

    def apply(self, s: LState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction)
        if action.text == "stop":
            flow.end()
            return []
        s.pos.total += int(action.text.split()[1])
        if s.pos.total == 1:
            outer(s)
            flow.push("note", NoteArgs("pushed"))
        flow.end()  # the pick is done ...
        if s.pos.total < 3:
            flow.goto("pick", replace=True)  # ... unless more may be added: asked again
        return [Event("returned by pick")]


class LState(StepState[LPos]):
    steps = step_table(Start(), Note(), Pick())
    start = "start"
    Position = LPos
    memo_options = True
    asked = 0  # how often Pick.options ran (a test's counter, not the position)

    def _result(self) -> Result | None:
        return Result(None, "rules", f"total {self.pos.total}")

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Log", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        return TextAction(text)


class LEngine(Engine):
    id = "log"
    title = "Log"
    rules_version = "1"
    sides = ("a", "b")
    state_class = LState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("one", "One")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = LState(self, scenario, options)
        state.begin(LPos())
        return state


ENGINE = LEngine()


def new() -> LState:
    s = ENGINE.new_state("one")
    assert isinstance(s, LState)
    return s


def test_told_events_come_in_the_order_told_each_steps_before_its_returned_list() -> None:
    s = new()
    texts = [e.text for e in s.apply("add 1")]
    assert texts == [
        # the decision: told through two levels of helpers, then its returned list
        "outer before", "inner 1", "inner 2", "outer after", "returned by pick",
        # then each step the runtime runs after it, told before returned
        "told by note pushed", "returned by note pushed",
        "told by note group a", "returned by note group a",
        "told by note group b", "returned by note group b",
        "told by note front", "returned by note front",
        "told by note back 1", "returned by note back 1",
        "told by note back 2", "returned by note back 2",
        # then what was told for the end of the action, in the order told
        "at any time 1", "at any time 2",
    ]


def test_an_action_applied_runs_no_context_manager_and_its_log_goes_after() -> None:
    """Issue 35: the log and queue are set up and taken down by plain calls, not a
    generator-based context manager (a few thousand instructions an action replayed);
    after the action neither is left behind."""
    s = new()
    seen: list[str] = []

    def hook(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == contextlib.__file__:
            seen.append(frame.f_code.co_name)

    sys.setprofile(hook)
    try:
        s.apply("add 1")
    finally:
        sys.setprofile(None)
    assert seen == []
    assert not {"_runtime_told", "_runtime_last", "_runtime_queued"} & s.__dict__.keys()


def test_queued_frames_run_after_the_pushed_ones_front_pushes_first() -> None:
    s = new()
    s.apply("add 1")
    assert s.pos.log == ["pushed", "group a", "group b", "front", "back 1", "back 2"]
    assert s.stack_data() == [["pick", 0, {}]]  # the replacing goto: asked again


def test_a_tell_or_queue_outside_a_step_is_refused_and_never_reaches_the_next_action() -> None:
    s = new()
    with pytest.raises(RuntimeError, match="told while no step runs"):
        s.tell(Event("stray"))
    assert [e.text for e in s.apply("add 2")] == ["returned by pick"]


def test_the_options_are_listed_once_per_decision_and_again_after_the_position_moves() -> None:
    s = new()
    s.asked = 0
    s.decision()
    s.legal_actions()
    s.decision()
    assert s.asked == 1
    s.apply("add 2")  # its check reads the memo; the apply drops it
    assert s.asked == 1
    assert s.legal_actions() == [TextAction("add 1")]  # the new position's options
    assert s.asked == 2


def test_the_memo_never_enters_a_clone_or_a_snapshot() -> None:
    s = new()
    s.legal_actions()
    twin = s.clone()
    assert isinstance(twin, LState)
    assert not any(k.startswith("_runtime") for k in twin.__dict__)
    twin.pos.total = 2  # the clone's position changes by hand: its options are its own
    assert twin.legal_actions() == [TextAction("add 1")]
    assert s.legal_actions() == [TextAction(f"add {n}") for n in (1, 2, 3)]
    assert set(s.snapshot()["body"]) == {"position", "stack"}


def test_a_second_move_is_a_bug_unless_it_replaces_the_first() -> None:
    flow = Flow()
    flow.end()
    with pytest.raises(RuntimeError, match="replace=True"):
        flow.goto("pick")
    flow.goto("pick", replace=True)
    assert flow.move == ("goto", "pick", None)


def test_declared_prompt_default_and_standing_order() -> None:
    s = new()
    d = s.decision()
    assert d is not None
    assert (d.side, d.prompt, d.default) == ("a", "the a player adds to 0", TextAction("add 1"))
    assert ENGINE.standing_orders() == [
        OrderSpec("pick", "L 2", "add one", (("most", "add the most listed"),))]
    assert ENGINE.decision_kinds() == ("pick",)


def test_the_derived_restore_rebuilds_the_state_and_names_a_missing_or_bad_field() -> None:
    s = new()
    s.apply("add 1")
    snap = s.snapshot()
    back = ENGINE.restore(snap)
    assert back.digest() == s.digest()
    for name in ("position", "stack"):
        bad = copy.deepcopy(snap)
        del bad["body"][name]
        with pytest.raises(FormatError, match=rf"^body\.{name}: missing"):
            ENGINE.restore(bad)
    bad = copy.deepcopy(snap)
    bad["body"]["position"]["total"] = "many"
    with pytest.raises(FormatError, match=r"position\.total"):
        ENGINE.restore(bad)


def _state_class(engine: Engine) -> type[StepState[Any]] | None:
    state = engine.new_state(engine.scenarios()[0].id)
    return type(state) if isinstance(state, StepState) else None


@pytest.mark.parametrize("engine_id", sorted(registry.engines()))
def test_every_engines_decision_kinds_are_its_step_tables_choice_kinds(engine_id: str) -> None:
    """What each engine hand-lists today (and what the default derives once it drops it)
    is the set of its decision steps' kinds."""
    engine = registry.get(engine_id)
    cls = _state_class(engine)
    if cls is None:
        pytest.skip(f"{engine_id} is not on the step runtime")
    assert set(engine.decision_kinds()) == set(cls.choice_kinds())


def test_a_rule_function_called_by_a_test_tells_and_queues_into_telling() -> None:
    s = new()
    with s.telling() as (told, queued):
        outer(s)
    assert [e.text for e in told] == ["outer before", "inner 1", "inner 2", "outer after",
                                      "at any time 1", "at any time 2"]
    assert [f.args.text for f in queued] == ["group a", "group b", "front", "back 1",
                                             "back 2"]
    assert not any(k.startswith("_runtime") for k in s.__dict__)
    assert [e.text for e in s.apply("add 2")] == ["returned by pick"]


@dataclass
class TPos:
    phasing: str = "a"
    answers: list[str] = field(default_factory=list)


class Offer(Choice["TState"]):
    """The phasing side offers, its opponent answers: the side by its role in the turn."""

    name = "offer"
    kind = "offer"
    rule = "T 1"
    decider = PHASING
    default_option = 0
    prompt_template = "the {side} player offers"

    def options(self, s: TState, args: NoArgs) -> list[Action]:
        return [TextAction("offer peace"), TextAction("offer war")]

    def apply(self, s: TState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        flow.goto("answer")
        return []


class Answer(Choice["TState"]):
    name = "answer"
    kind = "answer"
    rule = "T 2"
    decider = NON_PHASING
    default_option = -1
    refusal = Refusal("T 2.1", "the answer is yes or no")
    prompt_template = "the {side} player answers"

    def options(self, s: TState, args: NoArgs) -> list[Action]:
        return [TextAction("say yes"), TextAction("say no")] if len(s.pos.answers) < 2 else []

    def apply(self, s: TState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction)
        s.pos.answers.append(action.text)
        return []


class TState(StepState[TPos]):
    steps = step_table(Offer(), Answer())
    start = "offer"
    Position = TPos

    def phasing_side(self) -> str:
        return self.pos.phasing

    def _result(self) -> Result | None:
        return None

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Turn", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        return TextAction(text)


class TEngine(Engine):
    id = "turns"
    title = "Turns"
    rules_version = "1"
    sides = ("a", "b")
    state_class = TState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("a", "a first"), ScenarioInfo("b", "b first")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = TState(self, scenario, options)
        state.begin(TPos(phasing=scenario))
        return state


def test_a_decider_by_role_follows_the_phasing_side_the_state_names() -> None:
    for phasing, opponent in (("a", "b"), ("b", "a")):
        s = TEngine().new_state(phasing)
        d = s.decision()
        assert d is not None
        assert (d.side, d.prompt, d.default) == (phasing, f"the {phasing} player offers",
                                                 TextAction("offer peace"))
        s.apply("offer war")
        d = s.decision()
        assert d is not None
        assert (d.side, d.prompt, d.default) == (opponent, f"the {opponent} player answers",
                                                 TextAction("say no"))


def test_a_declared_refusal_and_a_default_option_with_nothing_listed() -> None:
    s = TEngine().new_state("a")
    s.apply("offer war")
    with pytest.raises(IllegalAction, match="the answer is yes or no") as refused:
        s.apply("say maybe")
    assert refused.value.rule == "T 2.1"
    s.apply("say yes")
    s.apply("say no")
    d = s.decision()
    assert d is not None and d.options == () and d.default is None


def test_a_decider_by_role_needs_the_state_to_name_the_phasing_side() -> None:
    s = TEngine().new_state("a")
    assert isinstance(s, TState)
    s.pos.phasing = "c"  # no side of the engine's: no one opponent
    with pytest.raises(ValueError, match="no one opponent of 'c'"):
        s.non_phasing_side()
    with pytest.raises(NotImplementedError, match="names no phasing side"):
        StepState.phasing_side(s)


# -- a task a side works through until it stops (issue 34: For the Motherland!'s own
# Choice base, now the runtime's declared attributes) ------------------------------------


@dataclass
class KPos:
    left: int = 2
    must: bool = False  # the rules say a side may not stop yet: "done" is not offered
    auto: bool = False  # play the task whose sole option is taken without asking
    owner_decides: bool = False  # play the task of the owner of unit A1
    log: list[str] = field(default_factory=list)


@dataclass
class SideArgs:
    side: str = ""


class KStart(Procedure["KState"]):
    name = "start"

    def run(self, s: KState, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.owner_decides:
            flow.goto("yield", UnitsArgs(("A1", "B1")))
        else:
            flow.goto("gather_auto" if s.pos.auto else "gather", SideArgs("b"))
        return []


class Gather(Choice["KState"]):
    name = "gather"
    kind = "gather"
    rule = "T 1"
    Args = SideArgs
    decider_field = "side"
    ending = TextAction("done")
    when_empty = "end"
    default_option = 0
    prompt_template = "the {side} player gathers ({left} left)"

    def prompt_fields(self, s: KState, args: SideArgs) -> dict[str, int]:
        return {"left": s.pos.left}

    def options(self, s: KState, args: SideArgs) -> list[Action]:
        takes: list[Action] = [TextAction(f"take {n}") for n in range(1, s.pos.left + 1)]
        return takes if s.pos.must else [*takes, TextAction("done")]

    def apply(self, s: KState, args: SideArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction) and action.text.startswith("take "), action
        s.pos.left -= int(action.text.split()[1])
        s.pos.log.append(action.text)
        return []

    def end(self, s: KState, args: SideArgs, flow: Flow) -> list[Event]:
        s.pos.log.append(f"stopped with {s.pos.left}")
        flow.end()
        return []


class Yield(Gather):
    """A decision of the owner of the unit the frame names (its units: the first)."""

    name = "yield"
    kind = "yield"
    decider_field = ""
    decider_unit = "units"


@dataclass
class UnitsArgs:
    units: tuple[str, ...] = ()


class GatherAuto(Gather):
    name = "gather_auto"
    kind = "gather-auto"
    auto = True
    show_at_most = 10


class KState(StepState[KPos]):
    steps = step_table(KStart(), Gather(), GatherAuto(), Yield())
    start = "start"
    Position = KPos
    show_at_most = 3
    changed = 0  # how often the runtime said the position may have changed

    def position_changed(self) -> None:
        self.changed += 1

    def owner(self, unit: str) -> str:
        return unit[0].lower()  # A1 is side a's

    def _result(self) -> Result | None:
        return Result(None, "rules", f"left {self.pos.left}")

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Tasks", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        return TextAction(text)


class KEngine(Engine):
    id = "tasks"
    title = "Tasks"
    rules_version = "1"
    sides = ("a", "b")
    state_class = KState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("one", "One")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = KState(self, scenario, options)
        state.begin(KPos())
        return state


TASKS = KEngine()


def task(pos: KPos) -> KState:
    s = KState(TASKS, "one", {})
    s.begin(pos)
    return s


def test_the_side_comes_from_the_frames_field_and_the_ending_is_the_default_where_listed(
) -> None:
    d = task(KPos(left=2)).decision()
    assert d is not None
    assert (d.side, d.prompt, d.default) == ("b", "the b player gathers (2 left)",
                                             TextAction("done"))
    # a side that may not stop yet: the ending is not listed, nor the default
    d = task(KPos(left=2, must=True)).decision()
    assert d is not None and d.default == TextAction("take 1")


def test_the_side_is_the_owner_of_the_unit_the_frame_names() -> None:
    d = task(KPos(left=2, owner_decides=True)).decision()
    assert d is not None and (d.side, d.prompt) == ("a", "the a player gathers (2 left)")


def test_the_ending_action_ends_the_task_through_end_never_apply() -> None:
    s = task(KPos(left=2))
    s.apply("take 1")
    assert s.current_player() == "b"  # a take leaves the task open
    s.apply("done")
    assert s.pos.log == ["take 1", "stopped with 1"]
    assert s.stack == []


def test_a_task_with_nothing_offered_ends_itself_without_asking() -> None:
    s = task(KPos(left=0, must=True))
    assert s.stack == [] and s.pos.log == []
    # with auto, a sole option is taken too, and the task then ends itself
    s = task(KPos(left=1, must=True, auto=True))
    assert s.stack == [] and s.pos.log == ["take 1"]


def test_when_empty_is_ask_or_end() -> None:
    class Odd(Gather):
        name = "odd"
        when_empty = "stop"

    s = task(KPos(left=1))
    with pytest.raises(ValueError, match="odd: when_empty is 'ask' or 'end', not 'stop'"):
        Odd().settle(s, SideArgs("b"), Flow())


def test_options_are_listed_with_the_decision_only_up_to_show_at_most() -> None:
    s = task(KPos(left=2))  # three options: the state's show_at_most, 3
    d = s.decision()
    assert d is not None and len(d.options) == 3
    s = task(KPos(left=3))  # four: none listed, though all are legal
    d = s.decision()
    assert d is not None and d.options == () and len(s.legal_actions()) == 4
    assert d.default == TextAction("done")
    s = task(KPos(left=3, auto=True))  # the step's own limit, 10, comes first
    d = s.decision()
    assert d is not None and len(d.options) == 4


def test_the_state_hears_after_each_step_that_acted_not_after_asking() -> None:
    s = task(KPos(left=2))
    begun = s.changed  # the start procedure ran
    assert begun == 1
    s.decision()
    s.legal_actions()
    assert s.changed == begun
    s.apply("take 1")
    assert s.changed == begun + 1
    s.apply("done")
    assert s.changed == begun + 2


# -- a roll declared with its dice, a purpose template and one handler (issue 34: White
# Death's WDRoll and For the Motherland!'s MotherlandRoll, now the runtime's) -----------


@dataclass
class RPos:
    turn: int = 3
    two: bool = False  # roll the two-dice step instead
    rolled: list[int] = field(default_factory=list)


@dataclass
class FireArgs:
    target: str = ""
    rule: str = ""
    hex: str = ""


class RStart(Procedure["RState"]):
    name = "start"

    def run(self, s: RState, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.two:
            flow.goto("two-dice")
        else:
            flow.goto("fire", FireArgs("B2", "T 9.1", "0203"))
        return []


class Fire(Roll["RState"]):
    name, rule = "fire", "T 9"
    Args = FireArgs
    dice = (6,)
    purpose_template = "fire at {target} on turn {turn}"
    rule_field = "rule"
    told = True
    hex_field = "hex"

    def purpose_fields(self, s: RState, args: FireArgs) -> dict[str, int]:
        return {"turn": s.pos.turn}

    def then(self, s: RState, args: FireArgs, roll: int) -> list[Event]:
        s.pos.rolled.append(roll)
        return [Event(f"{args.target} is hit", "loss", rule=args.rule)]


class TwoDice(Roll["RState"]):
    name, rule = "two-dice", "T 4"
    dice = (6, 6)
    purpose_template = "weather"

    def then(self, s: RState, args: NoArgs, roll: int) -> None:
        s.pos.rolled.append(roll)


class RState(StepState[RPos]):
    steps = step_table(RStart(), Fire(), TwoDice())
    start = "start"
    Position = RPos

    def _result(self) -> Result | None:
        return Result(None, "rules", "rolled") if self.pos.rolled else None

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Rolls", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        return TextAction(text)


class REngine(Engine):
    id = "rolls"
    title = "Rolls"
    rules_version = "1"
    sides = ("a", "b")
    state_class = RState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("one", "One")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = RState(self, scenario, options)
        state.begin(RPos())
        return state


ROLLS = REngine()


def rolls(pos: RPos) -> RState:
    s = RState(ROLLS, "one", {})
    s.begin(pos)
    return s


def test_a_declared_roll_asks_for_its_dice_with_its_purpose_and_the_frames_rule() -> None:
    s = rolls(RPos())
    assert s.chance_request() == ChanceRequest.roll("fire at B2 on turn 3", 6, rule="T 9.1")
    # without a rule field, the step's own rule; every die declared is rolled
    s = rolls(RPos(two=True))
    assert s.chance_request() == ChanceRequest.roll("weather", 6, 6, rule="T 4")


def test_a_told_roll_is_told_before_its_handlers_events_and_the_handler_gets_the_total(
) -> None:
    s = rolls(RPos())
    events = s.apply_outcome((4,))
    assert [(e.text, e.kind, e.hexes, e.rule) for e in events] == [
        ("fire at B2 on turn 3: rolled 4", "roll", ("0203",), "T 9.1"),
        ("B2 is hit", "loss", (), "T 9.1")]
    assert s.pos.rolled == [4]
    # not told: only what the handler tells; two dice give their total
    s = rolls(RPos(two=True))
    assert s.apply_outcome((2, 5)) == [] and s.pos.rolled == [7]


def test_a_roll_without_dice_or_a_purpose_names_the_step() -> None:
    class Bare(Roll[RState]):
        name = "bare"

    s = rolls(RPos())
    with pytest.raises(NotImplementedError, match="bare: no dice declared nor request"):
        Bare().request(s, NoArgs())

    class Aimless(Bare):
        dice = (6,)

    with pytest.raises(NotImplementedError, match="bare: no purpose_template nor request"):
        Aimless().request(s, NoArgs())
