"""Issue 33 at a real terminal: a big decision is picked unit first, then the unit's
action; the default never throws a movement phase away."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from pbem.session import Home

from . import test_play_keyboard
from .test_legal_by_unit import mortain_homes
from .test_play_keyboard import copy_home, spawn

#: White Death's Purkayev's Attack at the Soviet movement (test_play_keyboard's fixture)
luki = test_play_keyboard.luki


@pytest.fixture(scope="module")
def german_turn_1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mortplay")
    mortain_homes(root, "german player's movement phase, turn 1")
    return root


def test_pick_a_unit_then_its_action(german_turn_1: Path, tmp_path: Path) -> None:
    """Mortain's German turn 1 (526 actions) is 25 numbered units named as their
    counters read; '1' lists G01's 21 entry hexes, numbered; a number enters it there;
    Enter takes the default, which enters the next unit (11.1), not 'end movement'."""
    root = copy_home(german_turn_1, tmp_path / "g")
    child = spawn(root, "anna", "play", "mort")
    child.expect(r"526 actions; by unit")
    child.expect("german> ")
    listing = child.before
    assert "1. G01 I/2 3-3-10" in listing and "enter 21" in listing
    assert "enter G01 3201" not in listing
    assert listing.count("\n") < 40
    assert "Enter takes the default (enter G01 " in listing
    child.sendline("1")
    child.expect("G01 I/2 3-3-10: 21 actions")
    child.expect(r"21\. enter G01 3221")
    child.expect("german> ")
    child.sendline("21")
    child.expect("enter G01 3221")
    child.expect("german> ")
    child.sendline("G02")  # a unit by its name does the same as its number
    child.expect(r"G02 I/304 3-3-10: \d+ actions")
    child.expect("german> ")
    child.sendline("legal")
    child.expect(r"2\. G02 I/304 3-3-10")
    child.expect("german> ")
    child.sendline("")
    child.expect("default: enter G02 ")
    child.expect("german> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_enter_never_ends_a_movement_unmoved(luki: Path, tmp_path: Path) -> None:
    """White Death: after 'impulse 4', Enter does not end the movement with every unit
    where it stood (the impulse's points thrown away); it says how to end it."""
    root = copy_home(luki, tmp_path / "g")
    child = spawn(root, "ivan", "play", "luki")
    child.expect(r"(\d+) actions; by unit")
    child.expect("german> |soviet> ")
    assert "Enter takes the default" not in child.before
    child.sendline("")
    child.expect("Enter does not end movement before a unit has moved: type "
                 "'end movement'")
    child.expect("soviet> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.fixture(scope="module")
def us_setup(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mortsetup")
    mortain_homes(root, "US player sets up 1/33")
    return root


def test_a_setup_is_made_on_the_map(us_setup: Path, tmp_path: Path) -> None:
    """The board, its key and the hexes the unit may take lit, before the first 'place'
    prompt and after each placement (13.0); 'show' prints the key too; 'setup FILE'
    places the rest at once and seals the file."""
    from pbem.session import Home

    root = copy_home(us_setup, tmp_path / "g")
    child = spawn(root, "bert", "play", "mort")
    child.expect("hedgerow")  # the key under the board
    child.expect("= bridge or road")
    child.expect(r"\* highlighted")
    child.expect(r"the lit hexes take a unit now; 'setup' gives the whole set-up as one "
                 r"text \(37 hexes lit\)")
    child.expect("us> ")
    child.sendline("place 1/33 0707")
    child.expect("US 1/33 Armd 4-3-10 sets up in 0707")  # named as its counter reads
    child.expect(r"\(\d+ hexes lit\)")  # the next unit's board
    child.expect(r"sets up 1/36 Armd Inf 3-4-10 \(ccb area")
    child.expect("us> ")
    child.sendline("show")
    child.expect("= bridge or road")
    child.expect("us> ")
    # the rest of the set-up as one text: every unit in the last hex its area allows
    state = Home(root / "bert").game("mort").state.clone()
    lines = []
    while (d := state.decision()) is not None and d.kind == "setup":
        text = state.legal_actions()[-1].notation()
        lines.append(" ".join(text.split()[1:]))
        state.apply(text, side="us")
    (root / "rest.txt").write_text("\n".join(lines) + "\n")
    child.sendline(f"setup {root / 'rest.txt'}")
    child.expect("file 3 is sealed and signed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_every_action_word_is_explained() -> None:
    """Every first word of an action any engine offers (random playouts of its first
    scenario) has its explanation, and nearly all name their rule."""
    import re

    from pbem.registry import engines
    from pbem.testing import Chooser

    for engine in engines().values():
        if engine.id == "skirmish":
            continue  # the toy engine of the tests
        scenario = engine.scenarios()[0].id
        state = engine.new_state(scenario, engine.resolve_options({}))
        chooser = Chooser(f"explained/{engine.id}")
        firsts: set[str] = set()
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance():
                state.apply_outcome(chooser.outcome(state.chance_request()))
                continue
            legal = state.legal_actions()
            firsts.update(a.notation().split()[0] for a in legal)
            state.apply(chooser.pick(legal))
        assert firsts - set(engine.action_words) == set(), engine.id
        cited = [w for w in engine.action_words.values() if re.search(r"\(.*\d.*\)", w)]
        assert len(cited) >= len(engine.action_words) - 3, engine.id


def test_an_action_word_is_explained_the_first_time(luki: Path, tmp_path: Path) -> None:
    """'assault' is explained with its rules under the list, once a session."""
    root = copy_home(luki, tmp_path / "g")
    child = spawn(root, "ivan", "play", "luki")
    child.expect(r"'assault': declare that the unit assaults the enemy hex; the fire "
                 r"comes after the defensive fire \(Rules 5, 9\)")
    child.expect("soviet> ")
    child.sendline("legal")
    child.expect("soviet> ")
    assert "'assault':" not in child.before and "1188/357" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_impulse_word_does_not_promise_ten_points_after_the_first(luki: Path,
                                                                      tmp_path: Path) -> None:
    """Ivan's second impulse of turn 1 (6 of his movement points left, Rule 5) was
    explained as "spend that many of the side's 10 movement points", under a list that
    stops at 6."""
    root = copy_home(luki, tmp_path / "g")
    ivan, erich = Home(root / "ivan"), Home(root / "erich")
    _, _, sealed = ivan.game("luki").act("end movement")
    erich.receive(ivan.game("luki").file(sealed)[1], "soviet file")
    german = erich.game("luki")
    german.act("impulse 4")
    _, _, sealed = german.act("end movement")
    ivan.receive(german.file(sealed)[1], "german file")
    child = spawn(root, "ivan", "play", "luki")
    child.expect(r"how many of his 6 movement points")
    child.expect("soviet> ")
    assert "'impulse': spend that many of the side's movement points left" in child.before
    assert "10 movement points" not in child.before, child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
