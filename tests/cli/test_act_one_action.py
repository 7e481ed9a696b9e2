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


def test_one_action_taken_clones_no_more_than_a_listing(run: Any, tmp_path: Path,
                                                       purkayev: Any, monkeypatch: Any) -> None:
    """An act that is taken makes no copy of the position for a refusal it did not meet
    (issue 35: the clone cost 0.3-2.7 M instructions of every act): it clones what
    loading the game clones, as 'legal' does; a refused one suggests from the save's
    position, loaded again, as the test above reads."""
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    kind = type(ivan.game("luki").state)
    clones: list[object] = []
    real = kind.clone

    def counting(self: Any) -> Any:
        clones.append(self)
        return real(self)

    monkeypatch.setattr(kind, "clone", counting)
    assert run("ivan", "legal", "luki").exit_code == 0
    loading = len(clones)
    clones.clear()
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702")
    assert r.exit_code == 0, r.output
    assert len(clones) == loading
    r = run("ivan", "act", "luki", "move 1/31X 3702 3701")
    assert r.exit_code == 9, r.output
    assert "did you mean '1/31R'?" in r.output


def test_an_act_reads_the_counters_only_for_a_line_that_names_a_unit(
        run: Any, tmp_path: Path, purkayev: Any, monkeypatch: Any) -> None:
    """What an act tells names its units as their counters read; the engine's counters
    (every unit on the map) are made only when a line names a unit: an impulse's
    points name none (issue 35: 1.3-1.5 M instructions of an act)."""
    _, ivan = purkayev(tmp_path, b"luki1")
    kind = type(ivan.game("luki").state)
    asked: list[str | None] = []
    real = kind.counters

    def counting(self: Any, side: str | None) -> dict[str, str]:
        asked.append(side)
        return real(self, side)

    monkeypatch.setattr(kind, "counters", counting)
    r = run("ivan", "act", "luki", "impulse 4")
    assert r.exit_code == 0, r.output
    assert "spends 4 movement points" in r.output
    assert asked == []
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702")
    assert r.exit_code == 0, r.output
    assert asked == ["soviet"]
    # the unit named as its counter reads: the id, then its designation and factors
    line = next(x for x in r.output.splitlines() if "moves 3703 to 3702" in x
                and "1/31R" in x)
    assert len(line.split("moves")[0].split()) > 1, line
