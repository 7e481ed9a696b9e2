"""Issue 33, "The terminal": the words a player meets when something goes wrong: an
action typed without its quotes, a command that loses a race with another pbem, Ctrl-C
outside 'play'."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from pbem.session import Game, Home

from .test_play_keyboard import spawn


def test_an_unquoted_action_says_to_quote_it(run: Any, tmp_path: Path,
                                             purkayev: Any) -> None:
    """'pbem act luki move 1/31R 3703 3702' (the shell split the action in four): not
    "'move' is not a White Death action" alone, but the action, quoted."""
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    save = ivan.games_dir / "luki.pbsave"
    before = save.read_bytes()
    r = run("ivan", "act", "luki", "move", "1/31R", "3703", "3702")
    assert r.exit_code == 9
    assert "quote the action: pbem act luki 'move 1/31R 3703 3702'" in r.output
    assert save.read_bytes() == before
    # two real actions stay two actions: no quoting advice for those
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702", "move 1/31X 3702 3701")
    assert "quote the action" not in r.output and "action 2 of 2" in r.output


def test_a_lost_race_prints_only_the_refusal(run: Any, tmp_path: Path, purkayev: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Another pbem saves the game while 'act' runs: the refusal alone, not the move it
    did not keep followed by "nothing was written"."""
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    real_act = Game.act

    def act_then_race(self: Game, text: str, **kw: Any) -> Any:
        out = real_act(self, text, **kw)
        Home(tmp_path / "ivan").game("luki").say("meanwhile, another window")
        return out

    monkeypatch.setattr(Game, "act", act_then_race)
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702")
    assert r.exit_code != 0
    assert "changed by another pbem command" in r.output
    assert "move 1/31R 3703 3702" not in r.output and "3702" not in r.output


def test_ctrl_c_outside_play_says_what_was_kept(tmp_path: Path, purkayev: Any) -> None:
    purkayev(tmp_path, b"luki1")
    child = spawn(tmp_path, "ivan", "resign", "luki")
    child.expect(r"Resign luki\?")
    time.sleep(0.5)  # the prompt is waiting for its answer
    child.sendintr()
    child.expect("interrupted: what finished before Ctrl-C is kept")
    child.expect(pexpect.EOF)
    assert "Aborted!" not in child.before
    child.close()
    assert child.exitstatus == 130
    assert Home(tmp_path / "ivan").game("luki").result is None
