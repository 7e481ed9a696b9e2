"""For the Motherland! on the action grammar (issue 34): 'pbem legal GAME UNIT', the
board's taps and Tab pick actions by the units and hexes the grammar says they name (a
unit third in a group of attackers too), not by the words of their text."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from engines.motherland.notation import act
from pbem.play import Prompt
from pbem.session import Home
from pbem.web.server import Board

from .conftest import Run
from .test_legal_by_unit import mortain_homes


def _ends(legal: list[str]) -> str | None:
    return next((w for w in ("end movement", "end exploitation", "end reinforcements")
                 if w in legal), None)


@pytest.fixture(scope="module")
def soviet_attacks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Operation Uranus, the Soviet player's first Combat Phase (8.0): Anna is the Axis,
    Bert the Soviets; every movement phase ended at once."""
    root = tmp_path_factory.mktemp("ftm")
    mortain_homes(root, "soviet player declares attacks", engine="for-the-motherland",
                  scenario="4-uranus", side="axis", prefer=_ends)
    return root


def legal_json(run: Run, root: Path, focus: str) -> list[str]:
    r = run(None, "--home", str(root / "bert"), "legal", "mort", focus, "--json")
    assert r.exit_code == 0, r.output
    actions: list[str] = json.loads(r.output)["actions"]
    return actions


def test_legal_unit_lists_every_attack_naming_it(run: Run, soviet_attacks: Path) -> None:
    """8.0: 50A may attack alone or with the armies beside it; each attack naming it, as
    the third attacker too, is one of its actions, and none that does not name it."""
    state = Home(soviet_attacks / "bert").game("mort").state
    naming = [a.notation() for a in state.legal_actions() if "50A" in act(a).units()]
    assert "attack 1714 with 43A 49A 50A" in naming and "attack 1716 with 3A 50A" in naming
    assert legal_json(run, soviet_attacks, "50A") == naming
    on_hex = legal_json(run, soviet_attacks, "1714")
    assert on_hex and all(t.startswith("attack 1714 with ") for t in on_hex)


def test_legal_picks_by_argument_not_by_word(run: Run, soviet_attacks: Path) -> None:
    """The words of the notation name nothing: 'with' (in every attack) and 'end' pick no
    action; split words matched them all."""
    assert legal_json(run, soviet_attacks, "with") == []
    assert legal_json(run, soviet_attacks, "end") == []


def test_the_board_leads_a_unit_to_the_hexes_it_may_attack(soviet_attacks: Path) -> None:
    """A tap on 50A lights each hex it may attack, with the attacks on it naming 50A."""
    home = Home(soviet_attacks / "bert")
    found = Board(home, "mort", folder=soviet_attacks / "out").where("50A")
    assert "attack 1714 with 43A 49A 50A" in found["hexes"]["1714"]
    assert all("50A" in t.split() for ts in found["hexes"].values() for t in ts)


def test_tab_completes_an_attack_a_word_at_a_time(soviet_attacks: Path) -> None:
    """Tab offers the next word of the legal actions (a target, then its attackers), not
    every attack whole."""
    prompt = Prompt(Console(file=io.StringIO()), Home(soviet_attacks / "bert").game("mort"))

    def offers(text: str) -> list[str]:
        out: list[str] = []
        while (found := prompt._complete(text, len(out))) is not None:
            out.append(found)
        return out

    assert prompt._complete("att", 0) == "attack "
    assert "attack 1714 " in offers("attack ")
    assert offers("attack 1714 with ") == ["attack 1714 with 50A",
                                           "attack 1714 with 43A", "attack 1714 with 49A"]
