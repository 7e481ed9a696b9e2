"""``pbem act GAME ACTION`` with one action plays it on the game itself, without the dry
run several actions need (issue 19: the game was loaded, and its dice chain rebuilt,
twice); a refusal reads and changes exactly what it did with the dry run."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def test_one_refused_action_changes_nothing_and_says_so(run: Any, tmp_path: Path,
                                                        purkayev: Any) -> None:
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    save = ivan.games_dir / "luki.pbsave"
    before = save.read_bytes()
    r = run("ivan", "act", "luki", "move 1/31X 3703 3702")
    assert r.exit_code == 9, r.output
    assert "did you mean '1/31R'?" in r.output
    assert "(action 1 of 1: none applied)" in r.output
    assert save.read_bytes() == before
    r = run("ivan", "act", "luki", "impulse 4")
    assert r.exit_code == 9, r.output  # not a movement action: refused by the rules
    assert save.read_bytes() == before
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702")
    assert r.exit_code == 0, r.output
    assert "unsealed: 2 records" in run("ivan", "log", "luki").output
