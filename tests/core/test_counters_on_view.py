"""An engine's own ``State.counters`` prints, for every unit its view shows, what the
view's counter prints, and one that says ``counters_off_map = False`` names no unit
beyond its view: the board names a click's units off the view it draws for the redraw
and asks such an engine's counters for nothing more (issue 35 item 4,
pbem.web.server.Board.counters_of), so what a click says must be what the engine's own
counters say, along random games of every engine, for each side and the referee."""

from __future__ import annotations

import pytest

from pbem.engine import State, view_counters
from pbem.registry import engines
from pbem.testing import Chooser, decisions

ENGINES = engines()
#: decisions walked per scenario: past the set-up into the first turns' moves, combats
#: and reinforcements
STEPS = 120


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_own_counters_print_what_the_view_shows(engine: str) -> None:
    e = ENGINES[engine]
    checked = 0
    for scenario in e.scenarios():
        s = e.new_state(scenario.id, e.resolve_options({}))
        if type(s).counters is State.counters:
            pytest.skip(f"{engine} reads its counters off its view (the default)")
        for st in decisions(s, Chooser(f"counters-on-view/{engine}/{scenario.id}"), STEPS):
            for side in (*e.sides, None):
                own = st.counters(side)
                shown = view_counters(st.view(side))
                where = (scenario.id, side, st.turn_number())
                assert {u: own.get(u) for u in shown} == shown, where
                if not type(st).counters_off_map:
                    assert sorted(own) == sorted(shown), where
                checked += len(shown)
    assert checked > 1000
