"""For the Motherland!'s own playout checks.  Random playouts, notation round trips,
defaults and selfplay through files of every scenario are the contract suite's
(tests/test_contract.py); the whole games are in bench/bench_motherland.py, and every
scenario to its end with PBEM_SLOW set (test_every_scenario_to_its_end).
"""

from __future__ import annotations

import os

import pytest

from engines.motherland import MotherlandEngine
from pbem.testing import random_playout


def test_clone_shares_the_data_and_copies_the_position() -> None:
    """The session's working position is a clone: it must not copy the map and tables
    (that cost 50 ms a file) and must not leak changes back into the verified state."""
    from engines.motherland import ENGINE

    state = ENGINE.new_state("6-for-the-motherland")
    before = state.digest()
    twin = state.clone()
    assert twin.engine is state.engine and twin.data is state.data  # type: ignore[attr-defined]
    twin.apply(twin.legal_actions()[0])
    assert state.digest() == before != twin.digest()
    assert ENGINE.restore(state.snapshot()).digest() == before


@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="whole games: set PBEM_SLOW")
@pytest.mark.parametrize("scenario", ["1-barbarossa", "2-road-to-stalingrad", "3-fall-blau",
                                      "5-zitadelle", "6-for-the-motherland"])
def test_every_scenario_to_its_end(engine: MotherlandEngine, scenario: str) -> None:
    """4-uranus, the shortest, ends in the contract suite's CI run; these with PBEM_SLOW."""
    report = random_playout(engine, scenario, seed=1, max_steps=60_000, check_every=211,
                            known=frozenset({"default"}))
    assert report.terminal, f"{scenario} did not finish in {report.steps} steps"
    assert report.result


def test_options_playout(engine: MotherlandEngine) -> None:
    """The options (Baku, Turkey) change the rules; the contract plays the defaults."""
    report = random_playout(engine, "3-fall-blau", seed=3, max_steps=300,
                            options={"baku": "on", "turkey": "on"}, check_every=61,
                            known=frozenset({"default"}))
    assert report.actions > 200
