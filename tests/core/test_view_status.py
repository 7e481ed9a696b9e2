"""State.view_status: an engine that says its view's status is its status line says so
truly, position after position, for each side and the referee.  A board's save reads the
line off the view it draws where the engine says so (pbem.match.Match.status_line), so
the status a save's summary keeps for 'pbem status' and 'pbem list' is the one a load of
it works out again."""

from __future__ import annotations

import pytest

from pbem.registry import get
from pbem.testing import Chooser


@pytest.mark.parametrize(("engine_id", "scenario"), [
    ("48th-panzer-korps", "chir"),
    ("backhand-blow", "high-water-mark"),
])
def test_the_view_writes_the_status_line_where_the_engine_says_it_does(
        engine_id: str, scenario: str) -> None:
    engine = get(engine_id)
    state = engine.new_state(scenario, engine.resolve_options({}))
    assert type(state).view_status
    chooser = Chooser(f"v/{scenario}")
    seen = set()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
            continue
        for side in (*engine.sides, None):
            line = state.status_line(side)
            assert state.view(side).status == line, (side, line)
            seen.add(line)
        state.apply(chooser.pick(state.legal_actions()))
    assert len(seen) > 3  # the line changed along the game: more than one position seen
