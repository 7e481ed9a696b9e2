"""Replay narration: visibility, styles, pacing, skipping and stepping with fakes."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from render_maps import small_view
from rich.console import Console

from pbem.engine import Decision, Event, TextAction
from pbem.errors import FormatError
from pbem.render.narrate import (
    DecisionPrompt,
    KeyPoller,
    NarrationLine,
    narrate,
    replay,
)
from pbem.render.theme import console_theme

EVENTS = [
    Event("German movement phase", "phase"),
    Event("82 ID moves 0403 -> 0404", "move", hexes=("0403", "0404"), units=("g3",)),
    Event("Secret: 11 PzD regroups in 0303", "move", visible_to=("german",),
          hexes=("0303",)),
    Event("82 ID attacks 0504 at 3:1", "attack", hexes=("0504",)),
    Event("CRT 3:1 against 0504: rolled 5 (roll 17.3)", "roll"),
    Event("7 Rifle loses a step", "loss", hexes=("0804",)),
    Event("7 Rifle retreats to 0905", "retreat", hexes=("0905",)),
    Event("NKVD fails its morale check and routs", "morale"),
    Event("The Soviet player sees this alone", "info", visible_to=("soviet",)),
]


def plain_console(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


def output(console: Console) -> str:
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_narration_filters_by_visibility() -> None:
    soviet = [line.text for line in narrate(EVENTS, "soviet")]
    german = [line.text for line in narrate(EVENTS, "german")]
    referee = [line.text for line in narrate(EVENTS, None)]
    assert "Secret: 11 PzD regroups in 0303" not in soviet
    assert "Secret: 11 PzD regroups in 0303" in german
    assert "The Soviet player sees this alone" in soviet
    assert "The Soviet player sees this alone" not in german
    assert len(referee) == len(EVENTS)
    assert len(soviet) == len(german) == len(EVENTS) - 1


def test_narration_lines_render_with_kind_styles() -> None:
    console = Console(file=io.StringIO(), width=100, color_system="truecolor",
                      force_terminal=True, theme=console_theme())
    for line in narrate(EVENTS, None):
        console.print(line)
    out = output(console)
    # each kind has its own color from the theme
    assert "38;2;204;0;0" in out  # narrate.loss  #cc0000
    assert "38;2;241;194;50" in out  # narrate.roll #f1c232
    assert "38;2;111;168;220" in out  # narrate.move #6fa8dc
    text = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert " -> 82 ID moves 0403 -> 0404  (0403, 0404)" in text
    assert " xx 7 Rifle loses a step" in text
    plain = plain_console()
    plain.print(NarrationLine("unknown-kind", "still told"))
    assert ".. still told" in output(plain)


def test_decision_prompt_lists_options_and_default() -> None:
    yes, no = TextAction("take retreat"), TextAction("take step loss")
    console = plain_console()
    console.print(DecisionPrompt(Decision("soviet", "retreat-choice",
                                          "7 Rifle must retreat or lose a step",
                                          (yes, no), default=yes, rule="Rule 9")))
    out = output(console)
    assert "soviet: 7 Rifle must retreat or lose a step  (Rule 9)" in out
    assert "1. take retreat  (default)" in out and "2. take step loss" in out


class Clock:
    """A fake clock: ``sleep`` advances it, ``keys`` arrive at given times."""

    def __init__(self, keys: dict[float, str] | None = None) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []
        self.keys = dict(keys or {})

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def poll(self) -> str | None:
        for at in sorted(self.keys):
            if self.now >= at:
                return self.keys.pop(at)
        return None


def frames() -> list[tuple[object, list[Event]]]:
    view = small_view("soviet")
    return [(view, EVENTS[:3]), (replace(view, status="Turn 3 · combat"), EVENTS[3:])]


def test_paced_replay_sleeps_after_each_visible_line() -> None:
    clock = Clock()
    console = plain_console()
    result = replay(console, frames(), pace=0.5, sleep=clock.sleep)  # type: ignore[arg-type]
    assert result.lines == len(EVENTS) - 1 and result.boards == 3 and not result.skipped
    assert clock.now == pytest.approx(0.5 * (len(EVENTS) - 1))
    out = output(console)
    assert "replay 1/2" in out and "replay 2/2" in out and "now" in out
    assert "Secret" not in out  # not entitled
    assert "The Soviet player sees this alone" in out
    assert out.count("Synthetic Front") == 3
    # the frame's event hexes are highlighted on its board
    first = out.split("replay 2/2")[0]
    assert "*0404" in first and "*0403" in first and "*0303" not in first


def test_fast_replay_tells_everything_without_pauses_and_one_board() -> None:
    clock = Clock()
    console = plain_console()
    result = replay(console, frames(), pace=0.5, fast=True, sleep=clock.sleep)  # type: ignore[arg-type]
    assert clock.sleeps == [] and result.boards == 1 and result.lines == len(EVENTS) - 1
    out = output(console)
    assert "replay 1/2" not in out and "7 Rifle retreats to 0905" in out


def test_a_key_skips_to_the_end() -> None:
    clock = Clock(keys={0.7: "s"})
    console = plain_console()
    result = replay(console, frames(), pace=0.5, sleep=clock.sleep,  # type: ignore[arg-type]
                    poll_key=clock.poll, tick=0.1)
    assert result.skipped and result.lines == len(EVENTS) - 1
    assert clock.now == pytest.approx(0.7)  # paused until the key, never after
    assert all(s <= 0.1 + 1e-9 for s in clock.sleeps)
    out = output(console)
    assert "skipping to the end" in out
    assert "replay 2/2" not in out  # the second frame's board was skipped
    assert "NKVD fails its morale check" in out  # but its story told
    assert result.boards == 2  # the first frame and the final position


def test_other_keys_do_not_skip() -> None:
    clock = Clock(keys={0.2: "x"})
    result = replay(plain_console(), frames(), pace=0.5, sleep=clock.sleep,  # type: ignore[arg-type]
                    poll_key=clock.poll)
    assert not result.skipped


def test_step_mode_waits_for_the_viewer() -> None:
    asked: list[str] = []
    answers = iter(["", "q"])

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    clock = Clock()
    three = [*frames(), (small_view("soviet"), [Event("Turn 4", "phase")])]
    result = replay(plain_console(), three, pace=0.0, step=True,  # type: ignore[arg-type]
                    input_fn=ask, sleep=clock.sleep)
    assert len(asked) == 2 and result.quit and result.boards == 2
    assert "s: skip" in asked[0]

    skip_answers = iter(["s"])
    console = plain_console()
    result = replay(console, three, pace=0.0, step=True,  # type: ignore[arg-type]
                    input_fn=lambda _p: next(skip_answers), sleep=clock.sleep)
    assert result.skipped and not result.quit and result.boards == 2
    assert "Turn 4" in output(console)


def test_replay_follows_the_action_on_a_big_map() -> None:
    from render_maps import large_view

    view = large_view()
    events = [Event("1-1-1 moves to 2515", "move", hexes=("2515",))]
    console = plain_console()
    replay(console, [(view, events)], pace=0.0, sleep=lambda _s: None, final=False)
    out = output(console)
    assert "*2515" in out and "showing columns 20-30" in out


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, int]]:
    master, slave = os.openpty()
    yield master, slave
    os.close(master)
    os.close(slave)


def test_key_poller_reads_single_keys_from_a_terminal(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    with KeyPoller(slave) as poller:
        assert poller.active
        assert poller.poll() is None
        os.write(master, b"s")
        assert poller.poll() == "s"
        assert poller.poll() is None
    assert not poller.active
    read, write = os.pipe()
    try:
        with KeyPoller(read) as not_a_tty:
            os.write(write, b"s")
            assert not not_a_tty.active and not_a_tty.poll() is None
    finally:
        os.close(read)
        os.close(write)


def test_roll_events_tell_dice_result_and_purpose() -> None:
    from pbem.render.narrate import roll_event

    e = roll_event("CRT 3:1 against 2514", "2d6", (3, 5), name="17.3", rule="Rule 14")
    assert e.text == "roll 17.3: 2d6 rolled 3+5 = 8 for CRT 3:1 against 2514 (Rule 14)"
    assert e.kind == "roll" and e.visible("german") and e.visible("soviet")
    assert roll_event("loss", "1d6", (4,)).text == "1d6 rolled 4 for loss"
    drawn = roll_event("event for round 1", "draw 1 from events (5 in the cup)", ("fog",))
    assert "drew fog" in drawn.text


def test_frames_from_a_real_engines_records_and_their_replay() -> None:
    """The test engine's state through the contract: frames per action, rolls told."""
    from toy_engine import ENGINE

    from pbem.render.narrate import frames_from_records

    state = ENGINE.new_state("short")
    before = state.digest()
    records = [["r", 0, ["calm"]], ["a", "attack 2"], ["r", 1, [4, 5]], ["a", "absorb"],
               ["r", 2, [6]]]
    frames = frames_from_records(state, records, "blue", seq=5)
    assert state.digest() == before  # the caller's state is untouched
    assert len(frames) == 3
    texts = [[e.text for e in events] for _, events in frames]
    assert texts[0][0].startswith("roll 5.0: draw 1 from events") and "round 1: calm" in texts[0]
    assert texts[1][0] == "red attacks with 2"
    assert texts[1][1] == "roll 5.1: attack roll [4, 5] total 11: hit"  # the engine's words
    # the loss roll the engine does not tell itself: the session's words, with purpose
    assert texts[2][-2] == "roll 5.2: 1d6 rolled 6 for loss for blue (Skirmish 3)"
    assert texts[2][-1].endswith(" loses 3")
    assert all(view.side == "blue" for view, _ in frames)
    assert "round 1/4" in frames[-1][0].status
    console = plain_console()
    result = replay(console, frames, pace=0.0, sleep=lambda _s: None)  # type: ignore[arg-type]
    assert result.lines == sum(len(t) for t in texts)
    out = output(console)
    assert "loses 3" in out and "(Skirmish 3)" in out and "replay 3/3" in out
    untold = frames_from_records(state, records, "blue", tell_rolls=False)
    assert not any(e.text.startswith("roll") for _, events in untold for e in events)
    with pytest.raises(FormatError, match="record 0 is neither an action, a roll nor an order"):
        frames_from_records(state, [["x"]], "blue")


def test_a_key_skips_a_replay_in_a_real_terminal() -> None:
    """End to end on a pseudo-terminal: 40 lines at 3 s each, skipped by one key press."""
    import sys
    import time
    from pathlib import Path

    import pexpect

    script = Path(__file__).parent / "replay_demo.py"
    child = pexpect.spawn(sys.executable, [str(script)], encoding="utf-8", timeout=30,
                          dimensions=(50, 100), env={**os.environ, "NO_COLOR": "1"})
    try:
        child.expect("step 0 of a long turn")
        started = time.monotonic()
        child.send("s")
        child.expect("skipping to the end")
        child.expect("DONE skipped=True")
        assert time.monotonic() - started < 10
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_engine_roll_events_are_named_not_repeated() -> None:
    from toy_engine import ENGINE

    from pbem.render.narrate import frames_from_records

    state = ENGINE.new_state("short")
    records = [["r", 0, ["calm"]], ["a", "attack 2"], ["r", 1, [4, 5]]]
    frames = frames_from_records(state, records, "blue", seq=7)
    attack = [e.text for e in frames[1][1]]
    # the test engine tells its attack roll itself: named 7.1, not told twice
    assert attack == ["red attacks with 2", "roll 7.1: attack roll [4, 5] total 11: hit"]


def test_kind_aliases_take_their_meanings_style() -> None:
    console = Console(file=io.StringIO(), width=100, color_system="truecolor",
                      force_terminal=True, theme=console_theme())
    console.print(NarrationLine("assault", "2 GR assaults 2514"))
    console.print(NarrationLine("barrage", "artillery barrages 2514"))
    out = output(console)
    assert "38;2;224;102;102" in out  # narrate.attack
    assert "38;2;255;153;0" in out  # narrate.barrage
    text = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert " !! 2 GR assaults 2514" in text and " ** artillery barrages" in text
