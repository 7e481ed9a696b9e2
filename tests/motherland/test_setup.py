"""The setup API on For the Motherland! (issue 31): ``turn``, ``phase`` and ``step`` build
the position they name, and a step that does not fit that position is refused."""

from __future__ import annotations

import pytest

from engines.motherland import ENGINE
from engines.motherland import state as motherland_state
from engines.motherland.state import MotherlandState
from pbem.errors import UsageError
from pbem.setup import setup


def _at(scenario: str, text: str) -> MotherlandState:
    state = setup(ENGINE, scenario, text)
    assert isinstance(state, MotherlandState)
    return state


def test_3_1_setup_starts_the_phase_given_not_the_scenarios_first() -> None:
    """Turn 3, phase 2 (3.1 C, the Axis Combat Phase): the position is that phase's start,
    the Axis player asked for his attacks, no Mutual Supply Phase run."""
    s = _at("1-barbarossa", 'turn = 3\nphase = 2\nstep = "phase"')
    assert (s.pos.turn, s.pos.phase) == (3, 2)
    assert "Axis Combat Phase" in s.status_line(None)
    d = s.decision()
    assert d is not None and (d.side, d.kind) == ("axis", "combat")
    assert not any("Mutual Supply" in e.text for e in s.history)


def test_3_0_setup_on_a_soviet_first_turn_moves_the_soviets() -> None:
    """3.0: from turn 12 the Soviets move first, so phase 1 (3.1 B) is the Soviet Movement
    Phase: ``step = "move"`` there is the Soviet player's move, in the turn-12 sequence."""
    s = _at("2-road-to-stalingrad", 'turn = 12\nphase = 1\nstep = "move"')
    assert s.stack[1].step == "soviet-first-turn"
    d = s.decision()
    assert d is not None and d.side == "soviet"
    assert "Soviet Movement Phase" in s.status_line(None)


def test_3_1_setup_refuses_a_step_of_another_phase() -> None:
    with pytest.raises(UsageError, match=r"step 'move' does not fit the position: field "
                       r"'phase' = 2: phase 2 of turn 3 is the Axis Combat Phase \(3\.1\); "
                       r"'move' is a step of the Movement Phase or Exploitation"):
        _at("1-barbarossa", 'turn = 3\nphase = 2\nstep = "move"')
    with pytest.raises(UsageError, match=r"step 'expend' does not fit the position: field "
                       r"'phase' = 6: .* is a step of the Mutual Supply Phase"):
        _at("1-barbarossa", 'turn = 3\nphase = 6\nstep = "expend"')
    with pytest.raises(UsageError, match=r"field 'phase' = 7: the turn has phases 0-6"):
        _at("1-barbarossa", 'turn = 3\nphase = 7\nstep = "phase"')


def test_20_0_setup_refuses_a_turn_outside_the_scenario() -> None:
    with pytest.raises(UsageError, match=r"step 'phase' does not fit the position: field "
                       r"'turn' = 9: scenario 1-barbarossa is played on turns 1-7 \(20\.0\)"):
        _at("1-barbarossa", 'turn = 9\nstep = "phase"')


def test_the_phase_table_names_only_steps_of_the_game() -> None:
    assert set(motherland_state.STEP_PHASES) <= set(ENGINE.new_state("1-barbarossa").steps)  # type: ignore[attr-defined]
