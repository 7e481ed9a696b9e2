"""48th Panzer Korps: a position set up at a step of the sequence of play (3: the Soviet
then the German player turn, each a Prepared Combat Phase, 3.1, and a Movement Phase,
3.2), of the set-up (9) or of the plan (9.1) is refused, naming the field, when the step
does not fit it (issue 31), instead of returning a position that plays on wrongly."""

from __future__ import annotations

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.reinforcements import plan_formations
from engines.panzer48.state import P48State
from pbem.errors import UsageError
from pbem.setup import setup


def refused(text: str, scenario: str = "chir") -> str:
    with pytest.raises(UsageError) as caught:
        setup(ENGINE, scenario, text)
    return str(caught.value)


def test_9_the_set_up_is_refused_after_the_first_turn() -> None:
    message = refused('turn = 4\nstep = "setup"')
    assert "field 'turn' = 4" in message and "(9)" in message
    assert "field 'phase' = 'turns'" in refused('phase = "turns"\nstep = "setup"')


def test_9_1_the_plan_is_refused_after_the_first_turn_or_with_nothing_to_plan() -> None:
    message = refused('turn = 4\nphase = "plan"\nstep = "plan"')
    assert "field 'turn' = 4" in message and "(9.1)" in message
    assert "field 'phase' = 'setup'" in refused('step = "plan"')
    start = ENGINE.new_state("chir")
    assert isinstance(start, P48State)
    planned = ", ".join(f'"{f}" = 3' for f in plan_formations(start))
    # every formation planned: the plan's next question had no formation (StopIteration)
    message = refused(f'phase = "plan"\nplan_turns = {{ {planned} }}\nstep = "plan"')
    assert "field 'plan_turns'" in message


def test_3_a_turn_step_is_refused_while_the_phase_is_the_set_up() -> None:
    """Set up at the German Movement Phase with ``phase`` left at the scenario's
    ``"setup"``, the end of the turn went back to the set-up (turn 2, ``setup``)."""
    message = refused('phasing = "german"\nstep = "movement"', "first-day")
    assert "field 'phase' = 'setup'" in message and "(3.2)" in message
    state = setup(ENGINE, "first-day", 'phase = "turns"\nphasing = "german"\n'
                                       'step = "movement"')
    state.apply("end-movement")
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("soviet",
                                                                       "prepared-combat")
    assert state.pos.turn == 2


@pytest.mark.parametrize(("phase", "step"), [("prepared", "movement"),
                                             ("movement", "prepared")])
def test_3_a_step_of_the_other_phase_of_the_player_turn_is_refused(phase: str,
                                                                   step: str) -> None:
    message = refused(f'phase = "{phase}"\nphasing = "german"\nstep = "{step}"')
    assert f"field 'phase' = '{phase}'" in message


def test_3_a_turn_outside_the_scenario_is_refused() -> None:
    message = refused('turn = 3\nphase = "turns"\nphasing = "german"\nstep = "movement"',
                      "first-day")
    assert "field 'turn' = 3" in message and "turns 1-2" in message


def test_7_an_attack_step_needs_an_attack_open_of_the_phasing_side() -> None:
    assert "field 'combat'" in refused('phase = "prepared"\nphasing = "german"\n'
                                       'step = "declare"')
    message = refused('phase = "prepared"\nphasing = "german"\nstep = "declare"\n'
                      'combat = { hex = "1021", attacker = "soviet", prepared = true }')
    assert "field 'phasing' = 'german'" in message and "soviet player's" in message


def test_3_2_a_hasty_attack_is_set_up_in_the_movement_phase_it_interrupts() -> None:
    """A hasty attack's steps (3.2) were set up in the Prepared Combat Phase: cancelled,
    the German player was asked for prepared attacks instead of moving on."""
    state = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
                  'step = "declare"\nat = { "Adam" = "1020", "349R" = "1021" }\n'
                  'combat = { hex = "1021", attacker = "german", prepared = false }')
    state.apply("cancel")
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("german", "movement")
    assert "field 'phase' = 'prepared'" in refused(
        'phase = "prepared"\nphasing = "german"\nstep = "declare"\n'
        'combat = { hex = "1021", attacker = "german", prepared = false }')


def test_7_the_prepared_attack_choice_is_refused_while_an_attack_is_open() -> None:
    message = refused('only = true\nphase = "turns"\nphasing = "soviet"\nstep = "prepared"\n'
                      'at = { "Adam" = "1021", "89T" = "1020" }\n'
                      'combat = { hex = "1021", attacker = "soviet", prepared = true }')
    assert "field 'combat'" in message and "(7)" in message
