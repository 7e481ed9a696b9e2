"""pbem.steps additions made for For the Motherland! (issue 12): ``Flow.push``,
``Choice.check``, ``Choice.settle`` and ``Roll.settle``, ``stack_data`` /
``restore_stack`` / ``setup_position``, and ``begin`` giving the start step its own
arguments.  "Queue": a start step queues two notes and a pick; the pick accepts any
``add N`` up to 3 (listed or not), is forced at a total of 2, and at 3 or more queues a
draw, which ends without a request when the cup is empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from pbem import codec
from pbem.engine import (
    CHANCE,
    Action,
    ChanceRequest,
    Engine,
    Event,
    Outcome,
    Result,
    ScenarioInfo,
    State,
    TextAction,
)
from pbem.errors import FormatError, IllegalAction
from pbem.steps import Choice, Flow, NoArgs, Procedure, Roll, StepState, step_table
from pbem.view import BoardView, Layout


@dataclass
class QPos:
    log: list[str] = field(default_factory=list)
    total: int = 0
    cup: list[str] = field(default_factory=list)


@dataclass
class StartArgs:
    started: bool = False


@dataclass
class NoteArgs:
    text: str = ""


class Start(Procedure["QState"]):
    name = "start"
    Args = StartArgs

    def run(self, s: QState, args: StartArgs, flow: Flow) -> list[Event]:
        assert isinstance(args, StartArgs)  # begin() gave the start step its own Args
        if args.started:
            flow.end()
            return []
        args.started = True
        flow.call("pick")  # the move; what is pushed runs before it, in order
        flow.push("note", NoteArgs("first"))
        flow.push("note", NoteArgs("second"))
        return []


class Note(Procedure["QState"]):
    name = "note"
    Args = NoteArgs

    def run(self, s: QState, args: NoteArgs, flow: Flow) -> list[Event]:
        s.pos.log.append(args.text)
        flow.end()
        return []


class Pick(Choice["QState"]):
    name = "pick"
    kind = "pick"
    rule = "Q 2"

    def side(self, s: QState, args: NoArgs) -> str:
        return "a"

    def prompt(self, s: QState, args: NoArgs) -> str:
        return "add 1 to 3"

    def options(self, s: QState, args: NoArgs) -> list[Action]:
        return [TextAction("add 1")]  # the others are accepted, not listed

    def check(self, s: QState, args: NoArgs, action: Action) -> None:
        if not (isinstance(action, TextAction) and action.text in ("add 1", "add 2", "add 3")):
            raise IllegalAction("add 1 to 3 only", rule="Q 2.1")

    def apply(self, s: QState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction)
        s.pos.total += int(action.text.split()[1])
        if s.pos.total >= 3:
            flow.end()
            flow.push("draw")
        return [Event(f"total {s.pos.total}")]

    def settle(self, s: QState, args: NoArgs, flow: Flow) -> list[Event] | None:
        if s.pos.total != 2:
            return None
        return [Event("forced"), *self.apply(s, args, TextAction("add 1"), flow)]


class Draw(Roll["QState"]):
    name = "draw"
    rule = "Q 3"

    def request(self, s: QState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.draw("a chip", "cup", tuple(s.pos.cup), rule=self.rule)

    def resolve(self, s: QState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        s.pos.log.append(str(outcome[0]))
        return []

    def settle(self, s: QState, args: NoArgs, flow: Flow) -> list[Event] | None:
        if s.pos.cup:
            return None
        flow.end()
        return [Event("the cup is empty")]


class QState(StepState[QPos]):
    steps = step_table(Start(), Note(), Pick(), Draw())
    start = "start"
    Position = QPos

    def _result(self) -> Result | None:
        return Result(None, "rules", f"total {self.pos.total}")

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Queue", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        return TextAction(text)


class QEngine(Engine):
    id = "queue"
    title = "Queue"
    rules_version = "1"
    sides = ("a", "b")
    state_class = QState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("empty", "Empty cup"), ScenarioInfo("full", "A chip")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = QState(self, scenario, options)
        state.begin(QPos(cup=["chip"] if scenario == "full" else []))
        return state


ENGINE = QEngine()


def test_pushed_steps_run_first_in_the_order_pushed() -> None:
    s = ENGINE.new_state("empty")
    assert isinstance(s, QState)
    assert s.pos.log == ["first", "second"] and s.current_player() == "a"
    assert s.stack_data() == [["start", 0, {"started": True}], ["pick", 0, {}]]


def test_check_lets_an_unlisted_action_through_and_refuses_with_its_rule() -> None:
    s = ENGINE.new_state("empty")
    with pytest.raises(IllegalAction, match=r"^Q 2\.1: add 1 to 3 only"):
        s.apply("add 7")
    events = s.apply("add 3")  # not listed, accepted by check
    # the pushed draw meets an empty cup: its settle ends it without a request
    assert [e.text for e in events] == ["total 3", "the cup is empty"]
    assert s.is_terminal()


def test_settle_takes_a_forced_choice_and_a_roll_waits_for_a_full_cup() -> None:
    s = ENGINE.new_state("full")
    events = s.apply("add 2")
    assert [e.text for e in events] == ["total 2", "forced", "total 3"]
    assert s.current_player() == CHANCE and s.chance_request().rule == "Q 3"
    s.apply_outcome(("chip",))
    assert isinstance(s, QState) and s.pos.log == ["first", "second", "chip"]


def test_stack_and_position_data_round_trip() -> None:
    s = ENGINE.new_state("full")
    assert isinstance(s, QState)
    assert s.setup_position() == codec.to_data(s.pos)
    assert s.snapshot()["body"] == {"position": s.setup_position(), "stack": s.stack_data()}
    twin = ENGINE.new_state("full")
    assert isinstance(twin, QState)
    twin.stack = []
    twin.restore_stack(s.stack_data())
    assert twin.digest() == s.digest()
    with pytest.raises(FormatError, match="stack: not a frame stack of QState"):
        twin.restore_stack({"start": 0})
