"""Issue 35: a set-up group's unit is placed where the hex's terrain allows its class
(Rule 7) without asking its entry from off the map (roads, bridges, the class's chart
column and the map's overlay), which could only say yes as well; that entry is asked
only of a hex whose terrain prohibits the class."""

from __future__ import annotations

import pytest

from engines.white_death import ENGINE, placement
from engines.white_death.state import WDState


@pytest.mark.parametrize("scenario", ["purkayev", "first-relief"])
def test_the_entry_is_asked_only_where_the_terrain_prohibits(
        monkeypatch: pytest.MonkeyPatch, scenario: str) -> None:
    asked: list[tuple[str, str]] = []
    plain = placement.enter_ticks

    def counted(s: WDState, uid: str, frm: str | None, to: str) -> object:
        asked.append((uid, to))
        return plain(s, uid, frm, to)

    monkeypatch.setattr(placement, "enter_ticks", counted)
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    placed = [u for u in state.pos.units.values() if u.loc in state.map]
    assert len(placed) > 20
    for uid, h in asked:
        assert state.ter.enter_cost_terrain(state.utype(uid).mob, h) is None, (uid, h)
