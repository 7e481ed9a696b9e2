"""Random playouts of every scenario through the standard engine suite (pbem.testing):
snapshots canonical and restorable at many points, the history replays to the same digest.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from engines.motherland import MotherlandEngine
from pbem.testing import random_playout

FULL = ["1-barbarossa", "3-fall-blau", "4-uranus", "5-zitadelle"]
LONG = ["2-road-to-stalingrad", "6-for-the-motherland"]


@pytest.mark.parametrize("scenario", FULL)
def test_random_playout_to_the_end(engine: MotherlandEngine, scenario: str) -> None:
    t0 = time.monotonic()
    report = random_playout(engine, scenario, seed=1, max_steps=20_000, check_every=97)
    assert report.terminal, f"{scenario} did not finish in {report.steps} steps"
    assert report.result
    print(f"{scenario}: {report.actions} actions, {report.rolls} rolls, "
          f"{time.monotonic() - t0:.1f}s, {report.result[:60]}")


@pytest.mark.parametrize("scenario", LONG)
def test_long_scenarios(engine: MotherlandEngine, scenario: str) -> None:
    """To the end when PBEM_SLOW is set; otherwise the first ~5 turns."""
    full = bool(os.environ.get("PBEM_SLOW"))
    report = random_playout(engine, scenario, seed=2, max_steps=50_000 if full else 700,
                            check_every=151)
    assert report.terminal or not full
    assert report.actions > 300


def test_options_playout(engine: MotherlandEngine) -> None:
    report = random_playout(engine, "3-fall-blau", seed=3, max_steps=20_000,
                            options={"baku": "on", "turkey": "on"}, check_every=211)
    assert report.terminal


def test_every_listed_action_round_trips_and_is_accepted(engine: MotherlandEngine) -> None:
    """Each listed action parses back to itself; a sample of them is applied on clones."""
    from pbem.testing import Chooser

    st = engine.new_state("4-uranus", {"baku": "on", "turkey": "on"})
    choose = Chooser("ftm/roundtrip")
    steps = 0
    while not st.is_terminal() and steps < 400:
        steps += 1
        if st.is_chance():
            st.apply_outcome(choose.outcome(st.chance_request()))
            continue
        legal = st.legal_actions()
        for a in legal:
            assert st.parse_canonical(a.notation()) == a
        for a in legal[:: max(1, len(legal) // 3)]:
            st.clone().apply(a)  # listed means accepted
        st.apply(choose.pick(legal))


def test_selfplay_through_real_signed_files(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bots play Operation Uranus through real files: sign, seal, verify, replay."""
    from pbem.selfplay import selfplay

    monkeypatch.setenv("PBEM_ENGINES", "engines.motherland:ENGINE")
    out = selfplay("for-the-motherland", "4-uranus", 1, tmp_path, max_turns=12)
    assert out.desyncs == 0
    assert out.files > 2 and out.actions > 20


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
