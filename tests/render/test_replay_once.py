"""The replay page replays each file once (issue 35 item 2): its frames are cut from the
verifier's own replay (``pbem.render.narrate.FrameCutter`` told by ``Verifier.add``), not
from a second replay of every file on a copy of the state, and they are the frames that
replay on a copy gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.audit import audit
from pbem.cli import main
from pbem.engine import State
from pbem.envelope import open_envelope
from pbem.registry import get
from pbem.render.narrate import FrameCutter, frames_from_records
from pbem.selfplay import selfplay
from pbem.transcript import Verifier
from pbem.web.replay import build, replay_html


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    root = tmp_path_factory.mktemp("sp")
    result = selfplay("skirmish", "short", 2, root)
    assert result.desyncs == 0 and result.rolls > 0
    return [p.read_bytes() for p in sorted((root / "files").glob("*.pbem"))]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    applied: list[str] = []
    real_apply, real_outcome = State.apply, State.apply_outcome

    def apply(self: State, action: Any, **kw: Any) -> Any:
        applied.append(f"a {action}")
        return real_apply(self, action, **kw)

    def apply_outcome(self: State, outcome: Any) -> Any:
        applied.append(f"r {tuple(outcome)}")
        return real_outcome(self, outcome)

    monkeypatch.setattr(State, "apply", apply)
    monkeypatch.setattr(State, "apply_outcome", apply_outcome)
    return applied


def test_the_page_applies_each_action_and_roll_once(
        files: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    report = audit([(f"file {n}", data) for n, data in enumerate(files)])
    assert report.clean, report.problems
    played = sum(len(open_envelope(f).decode().get("records", [])) for f in files[2:])
    applied = _counted(monkeypatch)
    book = build(files, None, report=report)
    assert len(applied) == played  # twice before: the verifier's and a copy's
    assert len(book.data["frames"]) > len(files)


@pytest.mark.parametrize("side", [None, "red", "blue"])
def test_the_verifiers_frames_are_those_a_replay_on_a_copy_gives(
        files: list[bytes], side: str | None) -> None:
    verifier = Verifier(get("skirmish"), open_envelope(files[0]))
    cut_some = False
    for seq, raw in enumerate(files[1:], start=1):
        env = open_envelope(raw)
        records = env.decode().get("records", [])
        on_copy = frames_from_records(verifier.state, records, side, seq=seq)
        cut = FrameCutter(side, seq=seq)
        verifier.add(env, transactional=False, watch=cut)
        frames = cut.finish(verifier.state)
        assert [(view, list(events)) for view, events in frames] == \
            [(view, list(events)) for view, events in on_copy], f"file {seq}"
        cut_some |= len(frames) > 1 and any(e.kind == "roll" for _, ev in frames for e in ev)
    assert cut_some


@pytest.mark.parametrize("side", [None, "blue"])
def test_audit_html_makes_its_page_from_the_audits_replay(
        files: list[bytes], side: str | None, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``pbem audit --html`` replays the game once in all: the audit's replay makes the
    page (three times before: the audit's, the page's verifier's, a copy's); the page is
    the one :func:`build` makes from the same files."""
    folder = tmp_path / "files"
    folder.mkdir()
    for n, data in enumerate(files):
        (folder / f"{n:05d}.pbem").write_bytes(data)
    played = sum(len(open_envelope(f).decode().get("records", [])) for f in files[2:])
    applied = _counted(monkeypatch)
    page = tmp_path / "replay.html"
    argv = ["audit", str(folder), "--html", str(page), *(["--side", side] if side else [])]
    result = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(applied) == played
    monkeypatch.undo()
    report = audit([(f"file {n}", data) for n, data in enumerate(files)])
    assert page.read_text(encoding="utf-8") == replay_html(build(files, side, report=report))


def test_replay_html_from_a_saves_files_replays_once(
        files: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """``pbem replay --html`` (``build`` with no audit given) makes the page from the audit
    it runs: each action and roll applied once (twice before)."""
    played = sum(len(open_envelope(f).decode().get("records", [])) for f in files[2:])
    applied = _counted(monkeypatch)
    book = build(files, "red")
    assert len(applied) == played
    monkeypatch.undo()
    report = audit([(f"file {n}", data) for n, data in enumerate(files)])
    assert replay_html(book) == replay_html(build(files, "red", report=report))


def test_files_out_of_place_replay_in_the_order_given(files: list[bytes]) -> None:
    """Files that are not the game's 0, 1, 2... in order (here a second copy of file 3)
    are replayed as given, up to the first that does not follow, as before: the audit
    (which sets the copy aside as a duplicate) verifies more than this page shows."""
    book = build([*files[:4], files[3], *files[4:]], "red")
    assert {f["file"] for f in book.data["frames"]} == {0, 1, 2, 3}
    assert book.report.clean
