"""White Death through real turn files: two bots, signed files, replay, no desync."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.selfplay import selfplay


def test_selfplay_one_turn_of_the_final_relief(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_ENGINES", "engines.white_death:ENGINE")
    result = selfplay("white-death", "final-relief", 3, tmp_path, max_turns=12)
    assert result.desyncs == 0
    assert result.files >= 4
    assert result.actions > 0 and result.rolls > 0
