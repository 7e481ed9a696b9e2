"""The board can be drawn in every state, the final one included."""

from __future__ import annotations

from engines.motherland import ENGINE
from pbem.testing import Chooser


def test_view_and_status_line_after_the_game_ended() -> None:
    state = ENGINE.new_state("4-uranus")
    chooser = Chooser("end")
    steps = 0
    while not state.is_terminal() and steps < 20_000:
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
        else:
            state.apply(chooser.pick(state.legal_actions()))
        steps += 1
    assert state.is_terminal()
    for side in (None, "axis", "soviet"):
        assert state.view(side).cells
        assert state.status_line(side)
