"""48th Panzer Korps' control (10) after each step of a move asks again only the control
hexes at or next to a unit placed otherwise since control was last set (issue 35: every
town and bridge after every step cost the first-day audit 21 M instructions).  A hex's
control must come out exactly as asking every control hex gives it: a score, a status
line and a state digest read it, so a hex left unasked that should have changed hands
would change a game's result and desync a replay."""

from __future__ import annotations

import pytest

from engines.hexkit.facts import BoardFacts
from engines.panzer48 import ENGINE
from engines.panzer48.state import P48State
from engines.panzer48.victory import update_control
from pbem.setup import setup
from pbem.testing import Chooser, decisions


@pytest.mark.parametrize(("scenario", "seed"), [("first-day", 1), ("first-day", 4),
                                                 ("chir", 1)])
def test_10_control_asked_near_the_moved_units_is_control_asked_everywhere(
        scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """10: along seeded playouts, each update of control (after every step, entry and
    set-up) gives what asking every control hex gives, and some updates do change a
    hex's control (the playouts test something)."""
    import engines.panzer48.movement as movement
    import engines.panzer48.steps.setup as setup_steps

    calls = {"near": 0, "changed": 0}

    def checked(s: P48State) -> BoardFacts:
        before = dict(s.pos.control)
        near = s.control_kept is not None and s.control_kept[1] == before
        update_control(s)
        got = dict(s.pos.control)
        # asked again of every hex, from the same control on the same placement
        s.pos.control.clear()
        s.pos.control.update(before)
        s.control_kept = None
        facts = update_control(s)
        assert s.pos.control == got, (s.pos.turn, s.pos.phasing)
        assert facts is s.facts()
        calls["near"] += near
        calls["changed"] += s.pos.control != before
        return facts

    # where the rules call it: a move's (movement.after_move) and the set-up's
    monkeypatch.setattr(movement, "update_control", checked)
    monkeypatch.setattr(setup_steps, "update_control", checked)
    game = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    for _ in decisions(game, Chooser(f"panzer48/control-kept/{scenario}/{seed}"), 1500):
        pass
    assert calls["near"] > 100 and calls["changed"] > 0, calls


def test_10_control_set_by_hand_is_asked_again_everywhere() -> None:
    """10: control changed outside the rules (an edited position) is no longer the
    control last set, so every control hex is asked again: a town whose Soviet stack
    stands in it goes back to the Soviet side."""
    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nat = { "89T" = "3508" }')
    assert isinstance(s, P48State)
    update_control(s)
    assert s.pos.control["3508"] == "soviet" and s.control_kept is not None
    s.pos.control["3508"] = "german"
    update_control(s)
    assert s.pos.control["3508"] == "soviet"
