"""Issue 17 item 4: under White Death's limited intelligence (Rule 4.C) every surface the
German player is shown tells a Soviet move as 'a soviet unit moves', never by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.fixture(scope="module")
def luki(tmp_path_factory: pytest.TempPathFactory, purkayev) -> Path:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("li")
    _, ivan = purkayev(root, b"luki1")
    soviet = ivan.game("luki")
    for action in ("impulse 4", "move 1/31R 3703 3702", "assault 3801 with 1188/357",
                   "end movement"):
        soviet.act(action)
    (root / "f3.pbem").write_bytes(ivan.game("luki").file(3)[1])
    return root


def pbem(root: Path, *args: str) -> str:
    r = CliRunner().invoke(main, ["--home", str(root / "erich"), *args],
                           catch_exceptions=False, env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    return r.output


def test_every_german_surface_hides_the_soviet_units_name(luki: Path) -> None:
    received = pbem(luki, "receive", str(luki / "f3.pbem"))
    log = pbem(luki, "log", "luki")
    replayed = pbem(luki, "replay", "luki", "--fast")
    for surface in (received, log, replayed):
        assert "a soviet unit moves 3703 to 3702" in surface, surface
        assert "move 1/31R" not in surface and "1/31R moves" not in surface, surface
    # the Soviet player's own log names the unit
    r = CliRunner().invoke(main, ["--home", str(luki / "ivan"), "log", "luki"])
    assert "1/31R moves 3703 to 3702" in r.output
    # the German status line gives only the German supply (the Soviet's is hidden)
    status = pbem(luki, "status", "luki")
    assert "supply German" in status and "Soviet 3" not in status
