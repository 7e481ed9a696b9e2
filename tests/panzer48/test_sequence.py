"""48th Panzer Korps' sequence of play (3) as pbem.steps Sequences (issue 34 item 3): the
turn (I, II, III) and the player turn (A. 3.1, B. 3.2) keep the frames a game saved
before they were sequences, so a game in progress restores and plays on the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.sequence import PlayerTurn, Turn
from pbem import canonical

#: written by the engine at commit fc936ea, when Turn and PlayerTurn were procedures
#: counting their stages by hand: a seeded bot's game of "chir" saved at the start of
#: turn 2's German Movement Phase with the 75 actions and rolls on to turn 3's Soviet
#: Movement Phase, and saved at the start of turn 12's (the last) with its one action to
#: the end of the game; each with the stack and state digest that code reached
SAVED = Path(__file__).resolve().parents[1] / "data" / "panzer48" / "saved-before-sequence.json"


@pytest.mark.parametrize("where", ["turn 2", "turn 12"])
def test_a_game_saved_before_the_turn_was_a_sequence_restores_and_plays_on(
        where: str) -> None:
    saved = json.loads(SAVED.read_text())[where]
    snapshot = canonical.decode(canonical.encode(saved["snapshot"]))
    s = ENGINE.restore(snapshot)
    # restored and saved again, byte for byte: the turn's frames are what they were
    assert canonical.encode(s.snapshot()) == canonical.encode(snapshot)
    assert s.snapshot()["body"]["stack"][1:3] == [
        ["turn", 0, {"side": "", "stage": 2}],
        ["player-turn", 0, {"side": "german", "stage": 2}]]
    for kind, what in saved["actions"]:
        if kind == "roll":
            s.apply_outcome(tuple(what))
        else:
            s.apply(what)
    # turn 2: through the end of the German player turn, 3.III and turn 3's Soviet
    # Prepared Combat Phase to its Movement Phase; turn 12: 3.III ends the game, and no
    # frame of the turn is left (Sequence.tail); the same frames and the same state
    assert s.snapshot()["body"]["stack"] == saved["stack"]
    assert s.digest().hex() == saved["digest"]
    assert s.is_terminal() == (where == "turn 12")


def test_the_turn_outline_is_the_books_and_the_guide_prints_it() -> None:
    assert Turn.outline() == ["3.I  player-turn", "3.II  player-turn", "3.III  turn-end"]
    assert PlayerTurn.outline() == ["3.1  prepared-phase", "3.2  movement-phase",
                                    "3  player-turn-end"]
    guide = (Path(__file__).resolve().parents[2] / "docs" / "engines"
             / "48th-panzer-korps.md").read_text()
    assert all(f"`{line}`" in guide for line in Turn.outline() + PlayerTurn.outline())


def test_the_standing_orders_are_the_defenders_fire_morale_and_retreat_in_play_order() -> None:
    """Declared on the steps (issue 34): 7.2's defender's fire, 8.1's morale option with
    its ``check`` policy, 8.3's retreat path (and its overstacked elimination, the same
    kind); the attacker's own fire takes none."""
    orders = ENGINE.standing_orders()
    assert [(o.kind, o.rule) for o in orders] == [
        ("defensive-fire", "7.2"), ("morale-option", "8.1"), ("retreat-path", "8.3")]
    assert [name for name, _ in orders[1].policies] == ["check"]
    assert {"attack-fire", "defensive-fire", "retreat-path"} <= set(ENGINE.decision_kinds())


def test_a_move_decision_lists_its_options_once_for_its_prompt_listing_check_and_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """4: a moving stack's options (every hex in reach) are computed once per decision,
    not again for the listing, the check of the action taken and the default."""
    from engines.panzer48.steps.movement import Moving
    s = ENGINE.new_state("first-day")
    while s.decision() is None or s.decision().kind != "move":  # type: ignore[union-attr]
        d = s.decision()
        assert d is not None and d.default is not None
        s.apply(d.default)
    calls: list[str] = []
    real = Moving.options
    monkeypatch.setattr(Moving, "options",
                        lambda self, st, args: calls.append("x") or real(self, st, args))
    s.forget_options()  # the loop above asked already
    d = s.decision()
    assert d is not None and d.default is not None
    s.legal_actions()
    s.apply(d.default)
    assert len(calls) == 1
