"""Sealed rules 2 in White Death (docs/protocol.md 6.2.1, issue 32 item 8): after the last
barrage of a player's barrage phase, whose result the opponent's file resolves, the only
action left to the barraging player is `end barrage` (Rule 11.B: "The Barrage is effected
immediately"); under rules 1 that cost a rolls-only reply and a file of that one action,
under rules 2 the program takes it and the opponent's file plays on."""

from __future__ import annotations

from pbem.registry import get
from pbem.testing import Chooser


def test_the_last_barrage_ends_the_barrage_phase_without_a_file() -> None:
    engine = get("white-death")
    state = engine.new_state("final-relief", engine.resolve_options({}))
    state.sealed_dice, state.sealed_rules = True, 2
    picks, dice = Chooser("wd sealed rules"), Chooser("wd sealed dice")
    for _ in range(20_000):
        assert not state.is_terminal(), "no barrage ended by a roll in this game"
        if not state.is_chance():
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) == 1 else picks.pick(legal))
            continue
        outcome = dice.outcome(state.chance_request())
        before = state.clone()
        before.sealed_rules = 1
        events = state.apply_outcome(outcome)
        taken = [e for e in events if "taken for you" in e.text]
        if not taken:
            continue
        assert [e.text for e in taken] == [
            "your only option, taken for you: end barrage (sealed dice)"]
        side = taken[0].visible_to
        # rules 1 stop at the barraging player's one option; taking it gives the same game
        before.apply_outcome(outcome)
        assert (before.current_player(),) == side
        assert [a.notation() for a in before.legal_actions()] == ["end barrage"]
        before.apply("end barrage")
        assert before.digest() == state.digest()
        assert state.current_player() not in side  # the turn passed on: no file for it
        return
    raise AssertionError("no barrage ended by a roll within 20,000 steps")
