"""Sealed rules 2 in Backhand Blow (docs/protocol.md 6.2.1, issue 32): where a combat result
leaves the stack one way to take its hits (16.0) or a replacement roll leaves no unit to
replace (12.0), the one listed action is the only one there is, and the program takes it
after the roll: under rules 1 that cost a rolls-only reply and a file of that one action,
under rules 2 the opponent's file that resolved the roll plays on."""

from __future__ import annotations

from pbem.registry import get
from pbem.testing import Chooser


def test_a_lone_hit_or_replacement_decision_is_taken_after_the_roll() -> None:
    engine = get("backhand-blow")
    state = engine.new_state("high-water-mark", engine.resolve_options({}))
    state.sealed_dice, state.sealed_rules = True, 2
    picks, dice = Chooser("bb sealed rules"), Chooser("bb sealed dice")
    taken_by_rule: dict[str, int] = {}
    while not state.is_terminal():
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
        # rules 1 stop at each one-option decision; taking it gives the same game
        before.apply_outcome(outcome)
        for event in taken:
            assert event.rule in ("16.0", "12.0"), event
            taken_by_rule[event.rule] = taken_by_rule.get(event.rule, 0) + 1
            assert before.current_player() in event.visible_to
            legal = before.legal_actions()
            assert len(legal) == 1 and event.text == (
                f"your only option, taken for you: {legal[0].notation()} (sealed dice)")
            before.apply(legal[0])
        assert before.digest() == state.digest()
    assert set(taken_by_rule) == {"16.0", "12.0"}, taken_by_rule


def test_a_choice_of_hits_is_still_asked() -> None:
    # two units to lose a step from, or a retreat beside a loss: a real choice, not taken
    engine = get("backhand-blow")
    state = engine.new_state("high-water-mark", engine.resolve_options({}))
    state.sealed_dice, state.sealed_rules = True, 2
    picks, dice = Chooser("bb sealed rules"), Chooser("bb sealed dice")
    asked = 0
    while not state.is_terminal() and asked == 0:
        if state.is_chance():
            state.apply_outcome(dice.outcome(state.chance_request()))
            continue
        step, frame = state.step(), state.frame()
        legal = state.legal_actions()
        if step.name in ("hits", "replace") and len(legal) > 1:
            assert step.only_option(state, frame.args) is None
            asked += 1
        state.apply(legal[0] if len(legal) == 1 else picks.pick(legal))
    assert asked
