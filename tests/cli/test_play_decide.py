"""Issue 33 at a real terminal: a big decision is picked unit first, then the unit's
action; the default never throws a movement phase away."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

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
