"""Issue 17: playing White Death at a real terminal, as a new player would type."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from pbem.session import Home

PBEM = str(Path(sys.executable).with_name("pbem"))


@pytest.fixture(scope="module")
def luki(tmp_path_factory: pytest.TempPathFactory, purkayev) -> Path:  # type: ignore[no-untyped-def]
    """Purkayev's Attack up to the German defensive fire at 3801 (file 3 received)."""
    root = tmp_path_factory.mktemp("luki")
    # with this nonce the German decides on after 'done firing' (the rules version is part
    # of the dice: 0.8 made luki2 hand the decision to the Soviet; luki7, 8, 9, 11 keep it
    # with the German: re-pick it if the rules change)
    _, ivan = purkayev(root, b"luki7")
    ivan.game("luki").act("impulse 4")
    return root


def copy_home(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def _as_a_terminal_starts_it() -> None:
    # Ctrl-C interrupts, as in a player's shell: a test run started as a background job
    # of a non-interactive shell (``.ci/run &``) has SIGINT ignored, every child
    # inherits that across exec, and Python then leaves it ignored, so a Ctrl-C test
    # would wait out its timeout on a pbem that never got the signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(root: Path, home: str, *args: str) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "dumb", "NO_COLOR": "1"}
    return pexpect.spawn(PBEM, ["--home", home, *args], cwd=str(root), env=env, timeout=90,
                         encoding="utf-8", dimensions=(40, 100),
                         preexec_fn=_as_a_terminal_starts_it)


def german_at_defensive_fire(root: Path) -> None:
    ivan = Home(root / "ivan")
    soviet = ivan.game("luki")
    soviet.act("assault 3801 with 1188/357")
    _, _, sealed = soviet.act("end movement")
    assert sealed == 3
    Home(root / "erich").receive(ivan.game("luki").file(3)[1], "file 3")


def test_done_firing_is_an_action_and_numbers_pick(luki: Path, tmp_path: Path) -> None:
    """Item 1: 'done firing' is applied, not taken for 'leave'; item 2: '2' picks the
    second listed option and Enter takes the shown default."""
    root = copy_home(luki, tmp_path / "g")
    german_at_defensive_fire(root)
    child = spawn(root, "erich", "play", "luki")
    child.expect(r"1\. done firing\s+\(default\)")
    child.expect("Enter takes the default \\(done firing\\)")
    child.expect("german> ")
    child.sendline("2")  # high intensity, by its number
    child.expect("high intensity defensive support")
    child.expect(r"1\. done firing")  # the list changed: shown again with new numbers
    child.expect("german> ")
    child.sendline("done firing")
    child.expect("Default allocation: 2 at 1188/357")
    child.expect("conventional fire 1:4")
    child.expect("german> ")  # still at the prompt: the German impulse decision now
    child.sendline("")  # Enter: the default, all 10 movement points
    child.expect("default: impulse 10")
    child.expect("german> ")
    child.sendline("done")  # no longer 'leave': refused with the way out
    child.expect("to leave the prompt, type quit")
    child.sendline("quit")
    child.expect("your actions are saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = Home(root / "erich").game("luki")
    assert "done firing" in [r[1] for r in game.pending if r[0] == "a"]


def test_a_big_movement_decision_is_a_summary_by_unit(luki: Path, tmp_path: Path) -> None:
    """Item 2: ~190 movement options are one line per unit; 'legal UNIT' lists one."""
    root = copy_home(luki, tmp_path / "g")
    child = spawn(root, "ivan", "play", "luki")
    child.expect(r"(\d+) actions; by unit")
    assert int(child.match.group(1)) > 150
    child.expect("soviet> ")
    listing = child.before
    assert "1188/357 rifle-rgt (357) 6 at 3901" in listing and "assault" in listing
    assert "move 1188/357" not in listing  # the moves are not listed one by one
    assert listing.count("\n") < 60
    child.sendline("legal 1188/357")
    child.expect("assault 3801 with 1188/357")
    child.expect("soviet> ")
    child.sendline("7")
    child.expect("no action 7 in the list")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_big_decision_reached_at_the_prompt_is_summarised(tmp_path: Path,
                                                            purkayev) -> None:  # type: ignore[no-untyped-def]
    """Item 2: the movement decision reached by typing the impulse's number shows its
    summary by unit and the way to expand it at once; a move within it repeats only
    the prompt, not the summary."""
    purkayev(tmp_path, b"luki2")
    child = spawn(tmp_path, "ivan", "play", "luki")
    child.expect("Enter takes the default")
    child.expect("soviet> ")
    child.sendline("4")
    child.expect(r"(\d+) actions; by unit")
    assert int(child.match.group(1)) > 150
    child.expect("or type an action")
    child.expect("soviet> ")
    child.sendline("move 1/31R 3703 3702")
    child.expect("soviet> ")
    assert "by unit" not in child.before and "moves and declares assaults" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_prompt_words_never_shadow_an_action() -> None:
    """Item 1: no installed engine has an action that begins with a word of the prompt
    (random playouts of every engine's first scenario; every action listed is checked)."""
    from pbem.play import PROMPT_WORDS
    from pbem.registry import engines
    from pbem.testing import Chooser

    for engine in engines().values():
        scenario = engine.scenarios()[0].id
        state = engine.new_state(scenario, engine.resolve_options({}))
        chooser = Chooser(f"words/{engine.id}")
        firsts: set[str] = set()
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_outcome(chooser.outcome(state.chance_request()))
                continue
            legal = state.legal_actions()
            firsts.update(a.notation().split()[0] for a in legal)
            state.apply(chooser.pick(legal))
        assert firsts, engine.id
        assert not firsts & PROMPT_WORDS, (engine.id, firsts & PROMPT_WORDS)


def test_the_passphrase_is_asked_once_first_with_retries(tmp_path: Path) -> None:
    """Item 12: receiving with a protected key asks for the passphrase before the
    fingerprint question, says why, lets a mistyped one be typed again, and asks once."""
    def run(*args: str, env_extra: dict[str, str] | None = None) -> None:
        env = {**os.environ, "COLUMNS": "100", "TERM": "dumb", **(env_extra or {})}
        child = pexpect.spawn(PBEM, list(args), cwd=str(tmp_path), env=env, timeout=60,
                              encoding="utf-8")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before

    secret = {"PBEM_PASSPHRASE": "correct horse"}
    run("--home", "a", "id", "new", "Alice", "--passphrase", env_extra=secret)
    run("--home", "b", "id", "new", "Bob")
    run("--home", "a", "new", "white-death", "purkayev", "--side", "german", "--name", "g",
        "-o", "inv.pbem", env_extra=secret)
    run("--home", "b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes")
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    child = pexpect.spawn(PBEM, ["--home", "a", "receive", "acc.pbem"], cwd=str(tmp_path),
                          env={**env, "TERM": "dumb"}, timeout=60, encoding="utf-8")
    child.expect("pbem needs it to sign")
    child.expect("Passphrase for your pbem key")
    assert "Does it match" not in child.before
    child.sendline("wrong horse")
    child.expect("wrong passphrase; try again")
    child.expect("Passphrase for your pbem key")
    child.sendline("correct horse")
    child.expect("first contact")
    child.expect("Does it match")
    child.sendline("y")
    child.expect("sealed file 2 of g")
    child.expect(pexpect.EOF)
    assert "Passphrase" not in child.before  # once per command
    child.close()
    assert child.exitstatus == 0


def test_the_demo_is_a_short_story_that_ends_with_what_to_do(tmp_path: Path) -> None:
    """Item 3: piped, the demo is a few hundred lines: the fighting and the rolls, moves
    counted not listed, one board, and the commands that start a real game."""
    from click.testing import CliRunner

    from pbem.cli import main

    r = CliRunner().invoke(main, ["demo", "--dir", str(tmp_path / "demo")],
                           catch_exceptions=False, env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    # the dice follow the demo's fresh keys, so the story's length varies (183-251 lines
    # seen); 9,400 before issue 17
    assert len(lines) < 400, len(lines)
    assert "passing signed files" in r.output  # the intro says what is going on
    assert "your file" not in r.output and "Erich's file 2 was sealed" in r.output
    assert "more actions: moves and the like" in r.output
    assert sum("a soviet unit moves" in line for line in lines) < 10
    assert "CLEAN" in r.output and "identical" in r.output
    # each fight is told once: as the receiver sees the file replayed
    import re

    told = re.findall(r"roll (\d+\.\d+): ", r.output)
    assert told and len(told) == len(set(told)), told
    tail = "\n".join(lines[-8:])
    for command in ("id new YOUR-NAME", "new white-death purkayev --side german",
                    "play mygame"):
        assert command in tail, tail


def test_a_replay_frame_without_a_hex_opens_on_the_action() -> None:
    """Item 3: a roll with no hex (the weather) is not drawn on the map's empty corner."""
    import io

    from rich.console import Console

    from pbem.engine import Event
    from pbem.registry import get
    from pbem.render.narrate import replay

    engine = get("white-death")
    view = engine.new_state("purkayev", engine.resolve_options({})).view("soviet")
    out = io.StringIO()
    console = Console(file=out, width=100, no_color=True, color_system=None)
    replay(console, [(view, [Event("roll 2.0: weather for turn 1: rolled 4", "roll")])],
           pace=0, sleep=lambda s: None, final=False)
    text = out.getvalue()
    assert "showing columns 1-" not in text and "showing columns" in text


def test_the_demo_at_a_terminal_is_a_paced_story_of_about_two_minutes(tmp_path: Path) -> None:
    """Item 3: at a terminal the intro stays up long enough to read before the first file,
    the files are told at a pace a newcomer follows, and the whole story stays near two
    minutes (the pauses are recorded, not waited)."""
    import io

    from rich.console import Console

    from pbem.demo import DEMO_PACE, demo
    from pbem.play import Pacing

    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, no_color=True,
                      color_system=None)
    pauses: list[tuple[float, str]] = []

    def sleep(seconds: float) -> None:
        pauses.append((seconds, out.getvalue()))

    code = demo(console, tmp_path / "demo", pacing=Pacing(pace=DEMO_PACE, sleep=sleep))
    assert code == 0
    text = out.getvalue()
    # the intro: what is going on, then a pause of seconds before anything moves
    first, screen = pauses[0]
    assert first >= 5 and "passing signed files" in screen and "file 1" not in screen
    joined = next(s for s, shown in pauses if "joins as" in shown)
    assert joined >= 5
    # the fighting is told at a pace one reads: no line of it goes by in under half a second
    assert min(s for s, _ in pauses) >= 0.5
    # about two minutes in all (a few seconds more go to making the files); measured at a
    # terminal: 122 s wall time for 105 s of these pauses
    total = sum(s for s, _ in pauses)
    assert 70 <= total <= 150, total
    # the story ends with what to type next
    tail = text[text.rindex("your turn"):]
    assert "id new YOUR-NAME" in tail and "new white-death purkayev" in tail
    assert "play mygame" in tail


def test_the_demo_in_a_terminal_animates_the_fighting_and_sums_up_the_moves(
        tmp_path: Path) -> None:
    """Item 3, as a newcomer watches it in a terminal (a pty, the pace made quick): the
    intro first, then a board only for the fighting (a fire, a roll, a loss), never for
    a move; the 150-move file is a few counted runs of moves; the end says what to type."""
    import re

    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm", "NO_COLOR": "1"}
    child = pexpect.spawn(PBEM, ["demo", "--pace", "0.02", "--dir", str(tmp_path / "demo")],
                          cwd=str(tmp_path), env=env, timeout=240, encoding="utf-8",
                          dimensions=(40, 100))
    child.expect(pexpect.EOF)
    child.close()
    raw = child.before
    assert child.exitstatus == 0, raw[-2000:]
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw.replace("\x1b[2J", "<<CLEAR>>"))
    screens = text.split("<<CLEAR>>")
    intro, boards = screens[0], screens[1:]
    assert "passing signed files" in intro and "Enter or space cuts a wait" in intro
    assert not re.search(r"replay \d", intro)  # the intro is not wiped by a board at once
    fighting = (" d6 ", " !! ", " xx ", " <- ", " ?? ", " ** ")
    assert len(boards) >= 5
    for screen in boards:
        assert re.search(r"replay \d+/\d+", screen)
        told = [line for line in screen.splitlines() if line.startswith(fighting)]
        assert told, screen[-1500:]  # a board is drawn for the fighting only
    # each file's boards are counted 1/N ... N/N: no gaps where moves were folded
    expected = 1
    for number, total in re.findall(r"replay (\d+)/(\d+)", text):
        assert int(number) == expected, (number, total)
        expected = 1 if number == total else expected + 1
    assert expected == 1
    # the long movement file: its moves are counted in runs, not drawn one by one
    long_file = next(m for m in re.finditer(r"file (\d+) from the soviet player: (\d+) "
                                            r"actions", text) if int(m.group(2)) > 100)
    section = text[text.index(f"file {long_file.group(1)} from the soviet player ─"):
                   long_file.start()]
    assert "more actions: moves and the like" in section
    drawn = len(re.findall(r"replay \d+/\d+", section))
    assert 1 <= drawn <= 12, drawn
    assert sum(line.startswith(" -> ") for line in section.splitlines()) < 10
    tail = text[text.rindex("your turn"):]
    for command in ("id new YOUR-NAME", "new white-death purkayev --side german",
                    "play mygame"):
        assert command in tail, tail


def test_a_long_file_is_told_faster_but_no_line_under_the_floor(monkeypatch: Any) -> None:
    """The demo caps a file's replay (DEMO_FILE_SECONDS) by telling its lines faster, but
    a line of fighting stays at least DEMO_MIN_LINE: a file of 42 lines once went by at
    0.48 s a line.  A short file keeps the full pace."""
    import io

    from rich.console import Console

    import pbem.play as play
    from pbem.demo import DEMO_FILE_SECONDS, DEMO_MIN_LINE, DEMO_PACE
    from pbem.engine import Event

    paces: list[float] = []
    monkeypatch.setattr(play, "replay", lambda console, frames, pace, **kw: paces.append(pace))
    console = Console(file=io.StringIO())
    pacing = play.Pacing(pace=DEMO_PACE, max_seconds=DEMO_FILE_SECONDS,
                         min_line=DEMO_MIN_LINE)

    def file_of(lines: int) -> list[Any]:
        return [(None, [Event(f"fire {i}", kind="fire") for i in range(lines)])]

    play.show_frames(console, file_of(10), pacing, "german")
    play.show_frames(console, file_of(30), pacing, "german")
    play.show_frames(console, file_of(42), pacing, "german")
    play.show_frames(console, file_of(400), pacing, "german")
    assert paces[0] == DEMO_PACE  # 10 lines: 9 s, under the cap
    assert abs(paces[1] - DEMO_FILE_SECONDS / 30) < 1e-9  # told faster, within the cap
    assert paces[2] == paces[3] == DEMO_MIN_LINE  # never under the floor
