"""Von Manstein's Backhand Blow: a position set up at a step of the sequence of play (4.2:
the Administrative Segment, then the Schwerpunkt and General Segments) sits where the
sequence has it, and is refused, naming the field, when the step does not fit it
(issue 31), instead of returning a position that plays on wrongly."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.state import BBState
from pbem.errors import UsageError
from pbem.setup import setup

SC = "backhand-blow"


def refused(text: str) -> str:
    with pytest.raises(UsageError) as caught:
        setup(ENGINE, SC, text)
    return str(caught.value)


def decisions(s: BBState, n: int) -> list[tuple[str, str, str]]:
    """The next ``n`` decisions (side, kind, segment), each answered by its default."""
    out = []
    for _ in range(n):
        if s.is_chance():
            break
        d = s.decision()
        assert d is not None and d.default is not None
        out.append((d.side, d.kind, s.pos.segment))
        s.apply(d.default)
    return out


def test_4_2_a_combat_phase_set_up_is_played_once() -> None:
    """The combat phase was set up with the movement phase first and at the movement
    stage, so the segment ran a second combat phase after it."""
    s = setup(ENGINE, SC, 'turn = 3\nphasing = "soviet"\nstep = "combat"')
    seen = decisions(s, 2)
    assert seen[0][:2] == ("soviet", "combat")
    assert seen[1][:2] == ("german", "admin")


def test_4_2_a_german_segment_step_is_set_up_in_the_german_segment() -> None:
    """The German movement phase was set up in the Soviet Schwerpunkt Segment's place, so
    the turn played the German Schwerpunkt Segment again after it (two in a row)."""
    s = setup(ENGINE, SC, 'turn = 3\nphasing = "german"\nstep = "c3i"')
    segments = []
    for _ in range(12):
        if s.is_chance():
            s.apply_outcome(tuple(1 for _ in s.chance_request().dice))
            continue
        d = s.decision()
        assert d is not None and d.default is not None
        if d.kind == "fronts" or d.kind == "admin":
            segments.append((d.side, d.kind))
            break
        s.apply(d.default)
    assert segments == [("soviet", "fronts")]  # Frozen: the 2nd Soviet segment (5.2)


def test_4_2_an_administrative_step_is_set_up_at_its_entry_of_the_turn() -> None:
    """4.2 I: the weather roll is not made on turn 1 (18.0: it starts with the 1st Soviet
    Schwerpunkt Segment); set up there it was made, then the German segment came."""
    assert "only when it applies" in refused('turn = 1\nstep = "weather"')
    s = setup(ENGINE, SC, 'turn = 3\nstep = "weather"')
    assert s.is_chance() and s.chance_request().rule.startswith("5.1")


def test_4_2_the_front_markers_move_in_a_soviet_segment_only() -> None:
    message = refused('turn = 3\nphasing = "german"\nstep = "fronts"')
    assert "field 'phasing' = 'german'" in message and "14.2" in message


def test_4_2_no_administrative_movement_on_turn_1() -> None:
    message = refused('turn = 1\nstep = "admin-in"')
    assert "field 'turn' = 1" in message and "15.1" in message


def test_4_2_no_schwerpunkt_segment_in_deep_mud() -> None:
    message = refused('turn = 3\nweather = "deep"\nstep = "move"')
    assert "field 'weather' = 'deep'" in message and "4.2 II-V" in message


def test_4_2_a_turn_outside_the_scenario_is_refused() -> None:
    message = refused('turn = 99\nstep = "move"')
    assert "field 'turn' = 99" in message
