"""A player's own copies gone wrong (issue 36 items 4 and 6): a damaged twin of a file in
the folder a save is rebuilt from, and save heads swapped between two games.  Neither came
from the opponent, so neither may be answered with "ask the sender"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest


def start(run, tmp_path: Path, name: str = "g") -> None:  # type: ignore[no-untyped-def]
    """Alice (red) invites Bob to ``name``; Bob's accept is in; Alice's file 2 goes to Bob."""
    for home, who in (("a", "Alice"), ("b", "Bob")):
        if not (tmp_path / home).exists():
            assert run(home, "id", "new", who).exit_code == 0
    # open dice: file 2 passes the turn to Bob (the tests damage and rebuild from it)
    r = run("a", "new", "skirmish", "short", "--side", "red", "--name", name, "--dice", "open",
            "-o", f"{name}-inv.pbem")
    assert r.exit_code == 0, r.output
    r = run("b", "join", f"{name}-inv.pbem", "--name", name, "-o", f"{name}-acc.pbem", "--yes")
    assert r.exit_code == 0, r.output
    assert run("a", "receive", f"{name}-acc.pbem", "--yes").exit_code == 0
    assert run("a", "act", name, "pass").exit_code == 0
    assert run("a", "send", name, "-o", f"{name}-t2.pbem").exit_code == 0


def test_rebuild_sets_a_damaged_twin_aside_and_uses_the_good_copy(  # type: ignore[no-untyped-def]
        run, tmp_path: Path) -> None:
    start(run, tmp_path)
    assert run("b", "receive", "g-t2.pbem").exit_code == 0
    before = json.loads(run("b", "status", "g", "--json").output)
    folder = tmp_path / "copies"
    folder.mkdir()
    for name in ("g-inv.pbem", "g-acc.pbem", "g-t2.pbem"):
        shutil.copy(tmp_path / name, folder / name)
    # a sync conflict's twin of file 2 with the envelope's version byte changed
    twin = bytearray((tmp_path / "g-t2.pbem").read_bytes())
    assert twin[:7] == b"\x96\xa4pbem\x01"
    twin[6] = 2
    (folder / "g-t2.sync-conflict-20270101-000000-ABCDEFG.pbem").write_bytes(bytes(twin))
    (tmp_path / "b" / "games" / "g.pbsave").unlink()
    shutil.rmtree(tmp_path / "b" / "games" / "g.files")
    r = run("b", "rebuild", "copies", "--name", "g")
    assert r.exit_code == 0, r.output
    assert "set aside: copies/g-t2.sync-conflict-20270101-000000-ABCDEFG.pbem: damaged (" \
        in r.output
    assert "the rebuild uses the other files" in r.output
    assert "ask for it again" not in r.output and "sender" not in r.output
    assert "rebuilt g from 3 files" in r.output
    after = json.loads(run("b", "status", "g", "--json").output)
    assert after["seq"] == before["seq"] == 2 and after["your_move"]


def test_a_damaged_only_copy_is_named_as_the_missing_file(  # type: ignore[no-untyped-def]
        run, tmp_path: Path) -> None:
    start(run, tmp_path)
    folder = tmp_path / "copies"
    folder.mkdir()
    for name in ("g-inv.pbem", "g-acc.pbem"):
        shutil.copy(tmp_path / name, folder / name)
    shutil.copy(tmp_path / "g-t2.pbem", folder / "g-t3.pbem")  # file 2, a later name
    acc = bytearray((tmp_path / "g-acc.pbem").read_bytes())
    acc[6] = 2
    (folder / "g-acc.pbem").write_bytes(bytes(acc))
    (tmp_path / "b" / "games" / "g.pbsave").unlink()
    shutil.rmtree(tmp_path / "b" / "games" / "g.files")
    r = run("b", "rebuild", "copies", "--name", "g")
    assert r.exit_code == 5
    assert "file 1 is missing" in r.output
    assert "1 damaged file set aside may have been it (copies/g-acc.pbem)" in r.output


@pytest.mark.parametrize("command", [("status", "g1"), ("receive", "g1-t2.pbem")])
def test_swapped_save_heads_are_named_a_local_inconsistency(  # type: ignore[no-untyped-def]
        run, tmp_path: Path, command: tuple[str, ...]) -> None:
    start(run, tmp_path, "g1")
    start(run, tmp_path, "g2")
    games = tmp_path / "b" / "games"
    one, two = (games / "g1.pbsave").read_bytes(), (games / "g2.pbsave").read_bytes()
    (games / "g1.pbsave").write_bytes(two)
    (games / "g2.pbsave").write_bytes(one)
    r = run("b", *command)
    assert r.exit_code == 3
    assert "your local save of game" in r.output and "is inconsistent" in r.output
    assert "holds the save head of the game named" in r.output
    assert "putting the two back under their own names restores both" in r.output
    assert "pbem rebuild" in r.output
    assert "ask for it again" not in r.output and "the sender runs" not in r.output
    # nothing was changed: put back, both games load and go on
    assert (games / "g1.pbsave").read_bytes() == two
    (games / "g1.pbsave").write_bytes(one)
    (games / "g2.pbsave").write_bytes(two)
    assert run("b", "receive", "g1-t2.pbem").exit_code == 0
    assert run("b", "status", "g2").exit_code == 0
