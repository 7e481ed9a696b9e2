"""The main commands with ``sys.platform`` saying Windows or macOS.

What this proves: every platform branch pbem takes at run time (save locks, file
replacement, key protection, the key reader, readline) works through a whole game, and
a Windows player's saves are really locked (the fake ``msvcrt`` sees every lock taken
and released).  What it cannot prove: the real Windows APIs, paths and console (see
docs/security.md and the README's Windows section).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main


def _runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("PBEM_CLOCK", "1800000000")
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    # the homes lie in the player's profile, as the platform's app-data folder does
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    runner = CliRunner()

    def invoke(home: str | None, *args: str, input: str | None = None) -> Result:
        argv = (["--home", str(tmp_path / home)] if home else []) + list(args)
        return runner.invoke(main, argv, input=input, catch_exceptions=False)

    return invoke


def _a_game(run: Any, tmp_path: Path) -> None:
    assert run("a", "id", "new", "Alice").exit_code == 0
    assert run("b", "id", "new", "Bob").exit_code == 0
    assert f"home: {tmp_path / 'a'}" in run("a", "id", "show").output
    r = run("a", "new", "skirmish", "long", "--side", "red", "--name", "g", "-o", "inv.pbem")
    assert r.exit_code == 0, r.output
    r = run("b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes", "--armor")
    assert r.exit_code == 0, r.output
    # an armored file that crossed a Windows mail client: CR LF line ends
    acc = (tmp_path / "acc.pbem").read_bytes()
    (tmp_path / "acc.pbem").write_bytes(acc.replace(b"\n", b"\r\n"))
    assert run("a", "receive", "acc.pbem", "--yes").exit_code == 0
    assert run("a", "act", "g", "move b").exit_code == 0
    r = run("a", "act", "g", "pass")
    assert r.exit_code == 0 and "sealed file 2" in r.output
    assert run("a", "send", "g", "-o", "t2.pbem").exit_code == 0
    r = run("b", "receive", "t2.pbem")
    assert r.exit_code == 0 and "your decision" in r.output, r.output
    status = json.loads(run("b", "status", "g", "--json").output)
    assert status["your_move"] and status["seq"] == 2
    r = run("b", "replay", "g", "--fast")
    assert r.exit_code == 0 and "replayed 1 file of g" in r.output
    assert run("b", "show", "g").exit_code == 0
    audit = run(None, "audit", "inv.pbem", "acc.pbem", "t2.pbem")
    assert audit.exit_code == 0 and "CLEAN" in audit.output


def test_a_game_on_windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           windows: Any) -> None:
    run = _runner(tmp_path, monkeypatch)
    _a_game(run, tmp_path)
    assert windows.positions, "no save was locked on Windows"
    assert windows.held == {}, "a lock was left held after the commands ended"
    games = tmp_path / "b" / "games"
    assert sorted(p.name for p in games.iterdir()) == ["g.files", "g.pbsave", "g.pbsave.lock"]
    # the transcript beside the save (save format 3): no temporary left either
    assert sorted(p.name for p in (games / "g.files").iterdir()) == [
        *(f"{seq:06d}.pbem" for seq in range(len(list((games / "g.files").iterdir())) - 1)),
        "transcript"]


def test_a_game_on_macos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         all_of_pbem_imported: None) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setitem(sys.modules, "msvcrt", None)  # any use of it would fail
    _a_game(_runner(tmp_path, monkeypatch), tmp_path)


def test_windows_key_outside_the_profile_refused_by_every_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, windows: Any) -> None:
    run = _runner(tmp_path, monkeypatch)
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "Users" / "alice"))
    assert run("a", "id", "new", "Alice").exit_code == 0
    r = run("a", "new", "skirmish", "long", "--side", "red", "--name", "g", "-o", "inv.pbem")
    assert r.exit_code == 11 and "outside your profile folder" in r.output
    assert "key.pem" in r.output and not (tmp_path / "inv.pbem").exists()
    assert not (tmp_path / "a" / "games").exists()


def test_armored_text_saved_by_windows_tools_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, windows: Any) -> None:
    """``pbem id export > me.card`` in Windows PowerShell 5 writes UTF-16 with a byte-order
    mark and CR LF; Notepad's "UTF-8" may add a BOM: all are the same card."""
    run = _runner(tmp_path, monkeypatch)
    assert run("a", "id", "new", "Алиса").exit_code == 0
    assert run("b", "id", "new", "Bob").exit_code == 0
    text = run("a", "id", "export").output.replace("\n", "\r\n")
    saved = {"ps5.card": text.encode("utf-16"), "bom.card": "\ufeff".encode() + text.encode()}
    for name, data in saved.items():
        (tmp_path / name).write_bytes(data)
        r = run("b", "id", "import", name, "--yes")
        assert r.exit_code == 0 and "Алиса" in r.output, (name, r.output)
    (tmp_path / "bad.card").write_bytes(b"\xff\xfe" + b"\x00\xd8" * 3)  # lone surrogates
    r = run("b", "id", "import", "bad.card", "--yes")
    assert r.exit_code == 3 and "bad.card" in r.output and "UTF-16" in r.output


def test_windows_demo_and_selfplay_run_outside_the_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, windows: Any) -> None:
    """Their players are made up: the key check that guards a real player's key would
    only stop ``pbem demo --dir D:\\games`` for nothing."""
    run = _runner(tmp_path, monkeypatch)
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "Users" / "erich"))
    r = run(None, "demo", "--fast", "--files", "3", "--dir", "demo")
    assert r.exit_code == 0 and "CLEAN" in r.output, r.output[-2000:]
    r = run(None, "selfplay", "skirmish", "short", "--seed", "3", "--dir", "bots")
    assert r.exit_code == 0, r.output
    r = run("demo/second", "id", "export")  # the same key, used as a real identity
    assert r.exit_code == 11 and "outside your profile folder" in r.output


@pytest.mark.parametrize("name", ["CON", "nul.game", "g.", "aux"])
def test_game_names_windows_cannot_hold_refused_everywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A save may be copied to Windows (a sync client, a backup), so the names that
    would break there are refused on every platform, before anything is written."""
    run = _runner(tmp_path, monkeypatch)
    assert run("a", "id", "new", "Alice").exit_code == 0
    r = run("a", "new", "skirmish", "long", "--side", "red", "--name", name, "-o", "inv.pbem")
    assert r.exit_code == 2 and "Windows" in r.output and repr(name) in r.output
    assert not (tmp_path / "inv.pbem").exists() and not (tmp_path / "a" / "games").exists()
