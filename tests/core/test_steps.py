"""pbem.steps: the runtime on a tiny game built for it (the toy engine is the whole-game
example; the contract suite plays it).

"Count": a sequence per round (Count 1 draw a card only in even rounds, Count 2 the
mover adds 1 or 2 to the total, Count 3 a forced acknowledgement by the other side when
it has one option, Count 4 the round ends).  The game ends at a total of 6 or more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from pbem import canonical
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
from pbem.errors import ActionSyntaxError, FormatError, IllegalAction
from pbem.steps import (
    Choice,
    Entry,
    Flow,
    Frame,
    NoArgs,
    Procedure,
    Roll,
    Sequence,
    StepState,
    step_table,
)
from pbem.view import BoardView, Layout


@dataclass
class Pos:
    round: int = 1
    total: int = 0
    mover: str = "a"
    card: str = ""
    acks: int = 0


@dataclass
class AddArgs:
    """A frame's typed arguments: how much this add step may add at most."""

    most: int = 2


class Rounds(Procedure["CountState"]):
    name = "rounds"

    def run(self, s: CountState, args: NoArgs, flow: Flow) -> list[Event]:
        flow.call("round")
        return []


class Round(Sequence["CountState"]):
    name = "round"
    entries = (
        Entry("Count 1", "card", when=lambda s: s.pos.round % 2 == 0),
        Entry("Count 2", "add", args=AddArgs(2)),
        Entry("Count 3", "ack"),
        Entry("Count 4", "end-round"),
    )


class Card(Roll["CountState"]):
    name = "card"
    rule = "Count 1"
    batch = "round-cards"

    def request(self, s: CountState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.draw("a card", "deck", ("one", "two"), rule=self.rule)

    def resolve(self, s: CountState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        s.pos.card = str(outcome[0])
        return [Event(f"card {s.pos.card}")]


class Add(Choice["CountState"]):
    name = "add"
    kind = "add"
    rule = "Count 2"
    Args = AddArgs

    def side(self, s: CountState, args: AddArgs) -> str:
        return s.pos.mover

    def prompt(self, s: CountState, args: AddArgs) -> str:
        return f"{s.pos.mover} adds 1 to {args.most}"

    def options(self, s: CountState, args: AddArgs) -> list[Action]:
        return [TextAction(f"add {n}") for n in range(1, args.most + 1)]

    def default(self, s: CountState, args: AddArgs) -> Action:
        return TextAction("add 1")

    def apply(self, s: CountState, args: AddArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction)
        s.pos.total += int(action.text.split()[1])
        flow.end()
        return [Event(f"total {s.pos.total}")]


class Ack(Choice["CountState"]):
    name = "ack"
    kind = "ack"
    rule = "Count 3"
    auto = True

    def side(self, s: CountState, args: NoArgs) -> str:
        return "b" if s.pos.mover == "a" else "a"

    def prompt(self, s: CountState, args: NoArgs) -> str:
        return "acknowledge"

    def options(self, s: CountState, args: NoArgs) -> list[Action]:
        # a choice only when the total is odd: otherwise forced, and taken without asking
        out: list[Action] = [TextAction("ok")]
        return [*out, TextAction("protest")] if s.pos.total % 2 else out

    def apply(self, s: CountState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        s.pos.acks += 1
        flow.end()
        return [Event(f"{self.side(s, args)} says {action}")]


class EndRound(Procedure["CountState"]):
    name = "end-round"

    def run(self, s: CountState, args: NoArgs, flow: Flow) -> list[Event]:
        s.pos.round += 1
        s.pos.mover = "b" if s.pos.mover == "a" else "a"
        flow.end()
        return []


class CountState(StepState[Pos]):
    steps = step_table(Rounds(), Round(), Card(), Add(), Ack(), EndRound())
    start = "rounds"
    Position = Pos

    def over(self) -> bool:
        return self.pos.total >= 6

    def _result(self) -> Result | None:
        return Result(None, "rules", f"total {self.pos.total}")

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Count", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        if text in ("add 1", "add 2", "ok", "protest"):
            return TextAction(text)
        raise ActionSyntaxError(f"cannot read {text!r}")


class CountEngine(Engine):
    id = "count"
    title = "Count"
    rules_version = "1"
    sides = ("a", "b")
    state_class = CountState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("one", "One")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = CountState(self, scenario, options)
        state.begin(Pos())
        return state


ENGINE = CountEngine()


def test_a_decision_lists_and_applies_from_one_step() -> None:
    s = ENGINE.new_state("one")
    assert s.current_player() == "a"  # round 1 is odd: Count 1 is skipped
    d = s.decision()
    assert d is not None and (d.kind, d.rule, d.prompt) == ("add", "Count 2", "a adds 1 to 2")
    assert [a.notation() for a in d.options] == ["add 1", "add 2"]
    assert d.default == TextAction("add 1")
    with pytest.raises(IllegalAction, match=r"^Count 2: 'add 3' is not allowed now: a adds"):
        s.apply(TextAction("add 3"))


def test_forced_choice_is_taken_and_a_real_one_is_asked() -> None:
    s = ENGINE.new_state("one")
    events = s.apply("add 2")  # even total: b's acknowledgement is forced
    assert [e.text for e in events] == ["total 2", "b says ok"]
    assert s.current_player() == CHANCE  # round 2: the card
    s.apply_outcome(("two",))
    s.apply("add 1")  # odd total: b may protest, so b is asked
    d = s.decision()
    assert d is not None and (d.side, d.kind) == ("a", "ack")


def test_sequence_entry_runs_only_when_it_applies() -> None:
    s = ENGINE.new_state("one")
    s.apply("add 2")
    # round 2 is even: Count 1 draws a card; its step names its batch (issue 21)
    assert s.is_chance() and s.chance_request().rule == "Count 1"
    assert isinstance(s, CountState) and s.chance_batch() == "round-cards"
    assert Round.outline() == ["Count 1  card (when it applies)", "Count 2  add",
                               "Count 3  ack", "Count 4  end-round"]


def test_frames_with_typed_arguments_live_in_the_snapshot() -> None:
    s = ENGINE.new_state("one")
    body = s.snapshot()["body"]
    assert body["stack"] == [["rounds", 0, {}], ["round", 2, {}], ["add", 0, {"most": 2}]]
    again = ENGINE.restore(canonical.decode(canonical.encode(s.snapshot())))
    assert again.digest() == s.digest() and again.legal_actions() == s.legal_actions()
    bad = s.snapshot()
    bad["body"]["stack"][2][2] = {"most": "2"}
    with pytest.raises(FormatError, match=r"stack\[2\]\.most: expected int"):
        ENGINE.restore(bad)
    bad["body"]["stack"][2] = ["nowhere", 0, {}]
    with pytest.raises(FormatError, match=r"stack\[2\]: not a frame of CountState"):
        ENGINE.restore(bad)


def test_game_ends_when_the_rules_say() -> None:
    s = ENGINE.new_state("one")
    s.apply("add 2")
    s.apply_outcome(("one",))
    s.apply("add 2")
    assert s.current_player() == "a"  # round 3: no card
    s.apply("add 2")
    assert s.is_terminal() and s.result() == Result(None, "rules", "total 6")


def test_a_step_moves_the_flow_once() -> None:
    flow = Flow()
    flow.end()
    with pytest.raises(RuntimeError, match="may end or goto, not both"):
        flow.goto("x")


def test_a_procedure_that_never_moves_on_is_a_bug() -> None:
    class Stuck(Procedure[CountState]):
        name = "rounds"

        def run(self, s: CountState, args: NoArgs, flow: Flow) -> list[Event]:
            return []

    class StuckState(CountState):
        steps = step_table(Stuck(), Round(), Card(), Add(), Ack(), EndRound())

    state = StuckState(ENGINE, "one", {})
    with pytest.raises(RuntimeError, match="procedure rounds neither ended nor moved on"):
        state.begin(Pos(), [Frame("rounds")])
