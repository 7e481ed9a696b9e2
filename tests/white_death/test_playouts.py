"""White Death's own playout check: saving and restoring in the middle of combat.

Random playouts of every scenario, notation round trips, defaults and selfplay through
files are the contract suite's (tests/test_contract.py); bench/bench_white_death.py
plays every scenario to its end.
"""

from __future__ import annotations

from engines.white_death import WhiteDeath
from pbem import canonical
from pbem.testing import Chooser, check_snapshot


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
