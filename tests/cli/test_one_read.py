"""A command-line receive reads, verifies and decodes the game's save once, and checks
each signature once (issue 19: the save is the bulk of a long game)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pbem.session as session
from pbem.cli import main
from pbem.selfplay import selfplay


class _Enough(Exception):
    pass


def test_receive_reads_the_save_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_signature_checks: Callable[[], list[bytes]]) -> None:
    play = tmp_path / "play"

    def on_file(count: int) -> None:
        if count == 8:  # file 7 written, not yet received by the other home
            shutil.copytree(play, tmp_path / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay("skirmish", "long", 1, play, on_file=on_file)
    incoming = sorted((tmp_path / "before" / "files").iterdir())[-1]
    home = tmp_path / "before" / ("home-b" if incoming.name.endswith("-red.pbem")
                                  else "home-a")
    reads: list[Path] = []
    real_read = session.read_save

    def read_save(home: Any, path: Path, data: bytes | None = None) -> Any:
        reads.append(path)
        return real_read(home, path, data)

    monkeypatch.setattr(session, "read_save", read_save)
    checks = count_signature_checks()
    result = CliRunner().invoke(main, ["--home", str(home), "receive", str(incoming)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "file 7 from" in result.output
    assert len(reads) == 1
    # the incoming file and the save, each checked once; the invite beside the save is
    # read under the SHA-256 the save signs (issue 35)
    assert len(checks) == 2
