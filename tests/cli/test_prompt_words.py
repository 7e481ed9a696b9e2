"""The words around a decision: its rule said once (Mortain's set-up prompt names 13.0 in
its own words, and 'pbem legal' once added "(13.0)" after it), and 'did you mean' hints."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from pbem.cli import main
from pbem.naming import cites
from pbem.render.narrate import DecisionPrompt
from pbem.session import Home

pytest.importorskip("engines.mortain")


def test_cites_finds_the_rule_in_the_prompts_parentheses_only() -> None:
    assert cites("the US player sets up 1/33 (ccb area, 13.0)", "13.0")
    assert cites("A2: the attackers retreat 2 hexes, or one is depleted (7.8)", "7.8")
    assert not cites("moves and declares assaults (5 MPs this impulse)", "5")
    assert not cites("sets up (17.3)", "7.3")
    assert not cites("the german player's movement phase, turn 1", "S3")
    assert not cites("anything (13.0)", "")


def test_mortain_setup_lists_its_rule_once(tmp_path: Path) -> None:
    german, us = Home(tmp_path / "g"), Home(tmp_path / "u")
    german.keys.create("Erich", "", None)
    us.keys.create("Ivan", "", None)
    game = german.new_game("mortain", "counterattack", "german", name="m")
    joined = us.join(game.files[0], "invite", name="m")
    german.receive(joined.files[1], "reply")
    us.receive(german.game("m").file(2)[1], "file 2")
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "u"), "legal", "m"],
                           catch_exceptions=False, env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    head = r.output.splitlines()[0]
    assert head == "the US player sets up 1/33 Armd 4-3-10 (ccb area, 13.0)", head
    decision = us.game("m").my_decision()
    assert decision is not None and decision.rule == "13.0"
    # the board shows the rule on a line under the prompt: none when the prompt has it
    from pbem.web.server import Board

    shown = Board(us, "m").state()["prompt"]
    assert shown["prompt"].endswith("(ccb area, 13.0)") and shown["rule"] == ""
    console = Console(width=100, record=True, color_system=None)
    console.print(DecisionPrompt(decision))
    assert console.export_text().splitlines()[0] == \
        "us: the US player sets up 1/33 (ccb area, 13.0)"


def test_a_verb_not_legal_now_is_not_mistaken_for_a_word_of_another_action(
        tmp_path: Path) -> None:
    """Mortain's German movement (S3) before any unit entered: 'move G04 3214' was answered
    "did you mean 'movement'?" ('end movement' is legal, 'move' not yet), a suggestion
    that reads as a verb to type; an engine's own verb is never a misspelling."""
    from pbem.play import suggest

    german, us = Home(tmp_path / "g"), Home(tmp_path / "u")
    german.keys.create("Erich", "", None)
    us.keys.create("Ivan", "", None)
    game = german.new_game("mortain", "counterattack", "german", name="m")
    joined = us.join(game.files[0], "invite", name="m")
    german.receive(joined.files[1], "reply")
    us.receive(german.game("m").file(2)[1], "file 2")
    setting = us.game("m")
    sealed = None
    while sealed is None:
        decision = setting.my_decision()
        assert decision is not None and decision.default is not None
        sealed = setting.act(decision.default.notation())[2]
    german.receive(setting.file(sealed)[1], "file 3")
    state = german.game("m").state
    assert "end movement" in [a.notation() for a in state.legal_actions()]
    # the nearest whole action instead: the unit enters first (S3)
    assert suggest(state, "move G04 3214") == "did you mean 'enter G04 3214'?"
    assert suggest(state, "entr G04 3214") == "did you mean 'enter'?"  # a misspelling still
