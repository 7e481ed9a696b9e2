"""pbem.steps.Sequence's options (issue 34 item 3): the count of entries done kept in a
field of the frame's arguments (``counter``), an entry's arguments derived from the
sequence frame's own, and the last entry as a ``goto`` (``tail``), so an engine's
hand-kept ``stage`` procedures become sequences whose saved frames do not change.

The toy game "Duel": each round, a match for the side to begin: M 1 that side picks a
number, M 2 (only on even rounds) the other side answers, M 3 the side picks again, M 4
the round ends (the match's tail)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from pbem import canonical
from pbem.engine import (
    Action,
    Engine,
    Event,
    Result,
    ScenarioInfo,
    State,
    TextAction,
)
from pbem.errors import ActionSyntaxError
from pbem.steps import (
    Choice,
    Entry,
    Flow,
    NoArgs,
    Procedure,
    Sequence,
    StepState,
    step_table,
)
from pbem.view import BoardView, Layout


@dataclass
class Pos:
    round: int = 1
    picks: list[str] = field(default_factory=list)


@dataclass
class MatchArgs:
    """The match's side and, as a hand-kept procedure kept it, its ``stage``."""

    side: str = ""
    stage: int = 0


@dataclass
class PickArgs:
    side: str = ""
    #: changed by the step as it is played: an entry's fixed arguments must not change
    tries: int = 0


class Rounds(Procedure["DuelState"]):
    name = "rounds"

    def run(self, s: DuelState, args: NoArgs, flow: Flow) -> list[Event]:
        flow.call("match", MatchArgs("a" if s.pos.round % 2 else "b"))
        return []


class Match(Sequence["DuelState"]):
    name = "match"
    Args = MatchArgs
    counter = "stage"
    tail = True
    entries = (
        Entry("M 1", "pick", args=lambda s, a: PickArgs(a.side)),
        Entry("M 2", "pick", when=lambda s: s.pos.round % 2 == 0, args=PickArgs("a")),
        Entry("M 3", "pick", args=lambda s, a: PickArgs(a.side)),
        Entry("M 4", "end-round"),
    )


class Pick(Choice["DuelState"]):
    name = "pick"
    kind = "pick"
    rule = "M 1"
    Args = PickArgs

    def side(self, s: DuelState, args: PickArgs) -> str:
        return args.side

    def prompt(self, s: DuelState, args: PickArgs) -> str:
        return f"{args.side} picks"

    def options(self, s: DuelState, args: PickArgs) -> list[Action]:
        return [TextAction("pick 1"), TextAction("pick 2"), TextAction("again")]

    def apply(self, s: DuelState, args: PickArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, TextAction)
        if action.text == "again":
            args.tries += 1
            return []
        s.pos.picks.append(f"{args.side}{action.text[-1]}")
        flow.end()
        return []


class EndRound(Procedure["DuelState"]):
    name = "end-round"

    def run(self, s: DuelState, args: NoArgs, flow: Flow) -> list[Event]:
        s.pos.round += 1
        flow.end()
        return [Event(f"round {s.pos.round}")]


class DuelState(StepState[Pos]):
    steps = step_table(Rounds(), Match(), Pick(), EndRound())
    start = "rounds"
    Position = Pos

    def over(self) -> bool:
        return self.pos.round > 3

    def _result(self) -> Result | None:
        return Result(None, "rules", "three rounds")

    def _view(self, side: str | None) -> BoardView:
        return BoardView("Duel", side, Layout(cols=(1, 1), rows=(1, 1)), (), ())

    def parse_action(self, text: str) -> Action:
        if text in ("pick 1", "pick 2", "again"):
            return TextAction(text)
        raise ActionSyntaxError(f"cannot read {text!r}")


class DuelEngine(Engine):
    id = "duel"
    title = "Duel"
    rules_version = "1"
    sides = ("a", "b")
    state_class = DuelState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("one", "One")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = DuelState(self, scenario, options)
        state.begin(Pos())
        return state


ENGINE = DuelEngine()


def _stack(s: State) -> list[object]:
    return list(s.snapshot()["body"]["stack"])


def test_the_count_lives_in_the_named_field_and_pc_stays_zero() -> None:
    s = ENGINE.new_state("one")
    assert _stack(s) == [["rounds", 0, {}], ["match", 0, {"side": "a", "stage": 1}],
                         ["pick", 0, {"side": "a", "tries": 0}]]
    s.apply("pick 1")
    # round 1 is odd: M 2 is skipped, and counted (the count is of entries passed)
    assert _stack(s)[1] == ["match", 0, {"side": "a", "stage": 3}]


def test_entries_run_in_order_when_they_apply_with_derived_and_fixed_args() -> None:
    s = ENGINE.new_state("one")
    sides = []
    for _ in range(5):
        sides.append(s.current_player())
        s.apply("pick 2")
    assert isinstance(s, DuelState)
    # round 1 (a begins, M 2 skipped): a, a; round 2 (b begins): b, a (M 2's fixed a), b
    assert sides == ["a", "a", "b", "a", "b"]
    assert s.pos.picks == ["a2", "a2", "b2", "a2", "b2"]


def test_an_entrys_fixed_args_are_a_copy_for_each_call() -> None:
    s = ENGINE.new_state("one")
    s.apply("pick 1")
    s.apply("pick 1")
    s.apply("pick 1")  # round 2, M 1 (b)
    assert _stack(s)[-1] == ["pick", 0, {"side": "a", "tries": 0}]  # M 2's fixed args
    s.apply("again")
    assert _stack(s)[-1] == ["pick", 0, {"side": "a", "tries": 1}]
    assert Match.entries[1].args == PickArgs("a")


def test_the_tail_entry_replaces_the_sequence_frame() -> None:
    s = ENGINE.new_state("one")
    s.apply("pick 1")
    events = s.apply("pick 1")  # M 3 ends: M 4 is a goto, the match frame is gone
    assert [e.text for e in events][-1] == "round 2"
    assert _stack(s)[:2] == [["rounds", 0, {}], ["match", 0, {"side": "b", "stage": 1}]]
    for _ in range(5):
        s.apply("pick 1")
    # the game ends in M 4 of round 3: no match frame is left on the stack
    assert s.is_terminal() and _stack(s) == [["rounds", 0, {}]]


def test_a_snapshot_mid_sequence_restores_and_plays_on_the_same() -> None:
    s = ENGINE.new_state("one")
    for text in ("pick 1", "pick 2", "pick 1", "again"):
        s.apply(text)
    again = ENGINE.restore(canonical.decode(canonical.encode(s.snapshot())))
    assert again.digest() == s.digest()
    for text in ("pick 2", "pick 1", "pick 2", "pick 1"):
        s.apply(text)
        again.apply(text)
        assert again.digest() == s.digest()


def test_a_count_out_of_range_is_refused_naming_the_sequence() -> None:
    s = ENGINE.new_state("one")
    data = s.snapshot()
    data["body"]["stack"][1][2]["stage"] = 9
    bad = ENGINE.restore(data)
    with pytest.raises(RuntimeError, match=r"sequence match: stage = 9 is not a count"):
        bad.apply("pick 1")


def test_outline_is_unchanged_by_the_options() -> None:
    assert Match.outline() == ["M 1  pick", "M 2  pick (when it applies)", "M 3  pick",
                               "M 4  end-round"]
