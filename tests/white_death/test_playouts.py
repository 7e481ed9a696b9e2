"""Random playouts of every White Death scenario through the standard engine suite.

Capped to keep the CI budget (each checks snapshots, restores, digests and a replay of
the whole history); bench/bench_white_death.py plays every scenario to its end.
"""

from __future__ import annotations

import pytest

from engines.white_death.engine import WhiteDeath
from pbem import canonical
from pbem.testing import Chooser, check_snapshot, random_playout

SCENARIOS = ["purkayev", "woehler", "first-relief", "second-relief", "final-relief", "campaign"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_capped_playout_keeps_the_contract(engine: WhiteDeath, scenario: str) -> None:
    report = random_playout(engine, scenario, 7, max_steps=150, check_every=50)
    assert report.steps > 0
    assert report.actions > 0


@pytest.mark.slow
def test_final_relief_plays_to_the_end(engine: WhiteDeath) -> None:
    report = random_playout(engine, "final-relief", 1, max_steps=5000, check_every=250,
                            check_replay=True)
    assert report.terminal, report.steps
    assert "victory" in report.result or "Draw" in report.result


def test_save_reload_mid_combat(engine: WhiteDeath) -> None:
    """Snapshots taken at every decision and die of a combat-heavy stretch restore exactly."""
    s = engine.new_state("first-relief")
    choose = Chooser("mid-combat")
    seen_phases = set()
    for _ in range(400):
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply_outcome(choose.outcome(s.chance_request()))
        else:
            legal = s.legal_actions()
            assert legal
            # lean on combat so defensive fire and assault states get saved
            keen = [a for a in legal if a.notation().split()[0] in (
                "assault", "done", "fire", "end", "impulse", "advance")]
            s.apply(choose.pick(keen or legal))
        seen_phases.add(getattr(s, "phase", ""))
        data = canonical.encode(s.snapshot())
        again = engine.restore(canonical.decode(data))
        assert again.digest() == s.digest()
    check_snapshot(engine, s)
    assert {"movement", "decision"} <= seen_phases
