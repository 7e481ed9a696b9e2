"""Every scenario of every shipped engine, played by two bots through real signed files.

CI plays each game capped after its first turn (the whole games, 20 seeds each, are in
``bench/bench_selfplay.py``); every file is then audited from the files alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.audit import audit, collect
from pbem.registry import get
from pbem.selfplay import selfplay

GAMES = [(engine, s.id) for engine in ("white-death", "for-the-motherland")
         for s in get(engine).scenarios()]


@pytest.mark.parametrize(("engine", "scenario"), GAMES)
def test_capped_selfplay_through_files(engine: str, scenario: str, tmp_path: Path) -> None:
    result = selfplay(engine, scenario, 7, tmp_path, max_turns=1)
    assert result.desyncs == 0
    assert result.files >= 3 and result.actions > 0
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems
    assert len(report.rolls) == result.rolls


@pytest.mark.parametrize(("engine", "scenario"), GAMES)
def test_capped_selfplay_with_standing_orders(engine: str, scenario: str,
                                              tmp_path: Path) -> None:
    """Both bots answer every decision their engine allows in advance: the opponent's
    files apply those answers, the receivers check them, and the files are audited."""
    result = selfplay(engine, scenario, 7, tmp_path, max_turns=1, standing_orders=True)
    assert result.desyncs == 0 and result.actions > 0
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems


@pytest.mark.parametrize("engine", ["white-death", "for-the-motherland"])
def test_capped_selfplay_with_sealed_dice(engine: str, tmp_path: Path) -> None:
    """Sealed dice on a real engine: every roll finalized by the other side's next file."""
    scenario = get(engine).scenarios()[-1].id
    result = selfplay(engine, scenario, 3, tmp_path, max_turns=1, dice_mode="sealed",
                      standing_orders=True)
    assert result.desyncs == 0 and result.rolls > 0
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems
