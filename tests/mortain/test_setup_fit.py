"""Mortain Counterattack: a position set up at a step of the sequence of play (10.1's
German then US player turn, S2's phases, 13.0's US set-up) is refused, naming the field,
when the step does not fit it (issue 31), instead of returning a position whose fields
and frames disagree."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE
from pbem.errors import UsageError
from pbem.setup import setup
from tests.mortain.test_rules import SCEN, at, us_set_up


def refused(text: str) -> str:
    with pytest.raises(UsageError) as caught:
        setup(ENGINE, SCEN, text)
    return str(caught.value)


def test_10_1_a_german_step_is_refused_in_the_us_player_turn() -> None:
    """``move`` is the German movement phase: with ``phasing = "us"`` the frames ran the
    German player turn while the US player moved (and the US turn came again after it)."""
    text = 'turn = 2\nphasing = "us"\nphase = "movement"\nstep = "move"\n' + us_set_up()
    message = refused(text)
    assert "field 'phasing' = 'us'" in message and "10.1" in message
    assert "us:..." in message
    # the same position with the US step is the US movement phase
    state = at(text.replace('"move"', '"us:move"'))
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("us", "movement")


def test_10_1_a_us_step_is_refused_in_the_german_player_turn() -> None:
    message = refused('turn = 2\nphasing = "german"\nphase = "combat"\nstep = "us:combat"\n'
                      + us_set_up())
    assert "field 'phasing' = 'german'" in message


@pytest.mark.parametrize(("phase", "step"), [
    ("movement", "mobile-move"), ("mobile", "move"), ("movement", "combat"),
    ("setup", "move")])
def test_10_1_a_step_of_another_phase_of_the_player_turn_is_refused(phase: str,
                                                                    step: str) -> None:
    """S2: movement, combat, mobile movement; ``phase`` says which the position is in."""
    message = refused(f'turn = 3\nphasing = "german"\nphase = "{phase}"\nstep = "{step}"\n'
                      + us_set_up())
    assert f"field 'phase' = '{phase}'" in message and "(S2)" in message


def test_13_0_the_us_set_up_is_refused_after_the_first_turn() -> None:
    message = refused('turn = 3\nstep = "us-setup"')
    assert "field 'turn' = 3" in message and "13.0" in message
    assert "does not fit" in refused('phase = "movement"\nstep = "us-setup"')
    assert "field 'units'" in refused('step = "us-setup"\n' + us_set_up())


def test_13_0_a_game_turn_step_is_refused_while_a_us_unit_is_still_to_set_up() -> None:
    """Turn 2's German movement with the US units off the map: at the end of the turn
    the game went back to the US set-up."""
    message = refused('turn = 2\nphasing = "german"\nphase = "movement"\nstep = "move"')
    assert "field 'units'" in message and "13.0" in message


def test_10_1_a_turn_after_the_last_is_refused() -> None:
    message = refused('turn = 8\nphasing = "german"\nphase = "movement"\nstep = "move"\n'
                      + us_set_up())
    assert "field 'turn' = 8" in message and "1 to 7" in message


def test_10_1_a_combat_step_with_no_attack_open_is_refused_naming_the_field() -> None:
    message = refused('turn = 2\nphasing = "german"\nphase = "combat"\nstep = "support"\n'
                      + us_set_up())
    assert "field 'combat'" in message and "(S7)" in message


def test_10_1_the_us_draw_and_player_turn_are_the_us_players() -> None:
    """``us:draw`` drew from the German cup (the German draw, refused when the German
    allotment is 0) and ``us:begin-player`` could not be set up at all."""
    state = at('turn = 2\nallotment = {german = 0, us = 3}\nstep = "us:draw"\n'
               + us_set_up())
    request = state.chance_request()
    assert (request.cup, request.count) == ("us-support", 3)
    state = at('turn = 2\nstep = "us:begin-player"\n' + us_set_up())
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("us", "movement")
    assert state.pos.phasing == "us"


def test_10_1_a_step_of_both_players_has_no_us_form() -> None:
    message = refused('turn = 2\nstep = "us:hill-check"\n' + us_set_up())
    assert "no step 'us:hill-check'" in message


def test_10_1_the_combat_phase_choice_is_refused_while_an_attack_is_open() -> None:
    """The combat phase's choice of the next attack with one open: attacking again
    overwrote the attack open (S7: each attack is resolved before the next)."""
    message = refused('turn = 2\nphasing = "german"\nphase = "combat"\nstep = "combat"\n'
                      'combat = { target = "2010", bombard = false, attackers = ["G07"], '
                      'att_chits = [], def_chits = [], result = "", retreating = [] }\n'
                      + us_set_up('G07 = "2110"\n"2/119" = "2010"\n'))
    assert "field 'combat'" in message and "(S7)" in message
