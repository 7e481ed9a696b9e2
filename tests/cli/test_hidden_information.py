"""Issue 17 item 4: under White Death's limited intelligence (Rule 4.C) every surface the
German player is shown tells a Soviet move as 'a soviet unit moves', never by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.session import Home


@pytest.fixture(scope="module")
def luki(tmp_path_factory: pytest.TempPathFactory, purkayev) -> Path:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("li")
    soviet_file_3(root, purkayev, "move 1/31R 3703 3702")
    return root


def soviet_file_3(root: Path, purkayev, move: str) -> tuple[Home, Home]:  # type: ignore[no-untyped-def]
    """Erich and Ivan in ``root``; Ivan's first impulse (``move``, then the assault on
    3801) sealed as file 3, written to ``root / "f3.pbem"`` for Erich to receive."""
    erich, ivan = purkayev(root, b"luki1")
    soviet = ivan.game("luki")
    for action in ("impulse 4", move, "assault 3801 with 1188/357", "end movement"):
        soviet.act(action)
    (root / "f3.pbem").write_bytes(ivan.game("luki").file(3)[1])
    return erich, ivan


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
    assert "1/31R rifle-bn (31R) 4 moves 3703 to 3702" in r.output  # as its counter reads
    # the German status line gives only the German supply (the Soviet's is hidden)
    status = pbem(luki, "status", "luki")
    assert "supply German" in status and "Soviet 3" not in status


def test_the_german_board_and_svg_name_only_the_top_of_a_soviet_stack(
        tmp_path: Path, purkayev) -> None:  # type: ignore[no-untyped-def]
    """Rule 4.C on the board surfaces: 1/3E moves onto tk/34M at 3804; the German board
    (text, its 'in full' list, the SVG) names the stack's top counter only, and counts
    the other; the Soviet player's own board names both."""
    erich, ivan = soviet_file_3(tmp_path, purkayev, "move 1/3E 3805 3804")
    pbem(tmp_path, "receive", str(tmp_path / "f3.pbem"))
    view = erich.game("luki").view()
    at = [p for p in view.pieces if p.location == "3804"]
    assert len(at) == 2 and sum(p.hidden for p in at) == 1, at
    top = next(p.id for p in at if not p.hidden)
    under = ({"1/3E", "tk/34M"} - {top}).pop()
    board = pbem(tmp_path, "show", "luki", "--center", "3804")
    pbem(tmp_path, "show", "luki", "--svg", str(tmp_path / "g.svg"))
    svg = (tmp_path / "g.svg").read_text(encoding="utf-8")
    for surface in (board, svg):
        assert top in surface and under not in surface
    assert "+1" in board  # the hidden one is counted, never named
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "ivan"), "show", "luki",
                                  "--center", "3804"], env={"COLUMNS": "100"})
    assert "1/3E" in r.output and "tk/34M" in r.output
