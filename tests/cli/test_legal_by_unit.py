"""Issue 33, "Big decisions made small": a decision with hundreds of actions is listed by
unit, each unit named as its counter prints it (designation and factors), with what it may
do and how many; 'legal GAME UNIT' folds one unit's hexes; '--all' is the whole list."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from pbem.play import Prompt, where
from pbem.session import Home
from pbem.web.server import Board

from .conftest import Run

#: a screen: what 'pbem legal' may print for the biggest decisions without --all
SCREEN = 40


def mortain_homes(root: Path, until: str, engine: str = "mortain",
                  scenario: str = "counterattack", side: str = "german",
                  prefer: Callable[[list[str]], str | None] = lambda legal: None) -> None:
    """Mortain (or ``engine``'s ``scenario``) between Anna (German) and Bert (US), game
    'mort', played by ``prefer`` (else the default, else the first legal action) until a
    side's prompt contains ``until``."""
    anna, bert = Home(root / "anna"), Home(root / "bert")
    anna.keys.create("Anna", "", None, secret=hashlib.sha256(b"anna").digest())
    bert.keys.create("Bert", "", None, secret=hashlib.sha256(b"bert").digest())
    game = anna.new_game(engine, scenario, side, name="mort",
                         nonce=hashlib.sha256(b"mort").digest())
    joined = bert.join(game.files[0], "invite", name="mort")
    anna.receive(joined.files[1], "reply")
    if len(anna.game("mort").files) > 2:
        bert.receive(anna.game("mort").file(2)[1], "file 2")
    homes = (anna, bert)
    for _ in range(500):
        for home in homes:
            g = home.game("mort")
            decision = g.my_decision()
            if decision is None:
                continue
            if until in decision.prompt:
                return
            legal = [a.notation() for a in g.state.legal_actions()]
            default = decision.default.notation() if decision.default else None
            pick = prefer(legal) or (default if default in legal else legal[0])
            _, _, sealed = g.act(pick)
            if sealed is not None:
                other = homes[1 - homes.index(home)]
                other.receive(g.file(sealed)[1], f"file {sealed}")
            break
    raise AssertionError(f"no prompt with {until!r}")


@pytest.fixture(scope="module")
def german_turn_1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mort1")
    mortain_homes(root, "german player's movement phase, turn 1")
    return root


@pytest.fixture(scope="module")
def us_turn_2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mort2")
    mortain_homes(root, "us player's movement phase, turn 2")
    return root


def legal(run: Run, root: Path, who: str, *args: str) -> list[str]:
    r = run(None, "--home", str(root / who), "legal", "mort", *args)
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_german_turn_1_fits_a_screen_by_unit(run: Run, german_turn_1: Path) -> None:
    """526 entries (25 units x 21 entry hexes, rule 11.1, and 'end movement') are 25
    lines, one a unit, each named as its counter prints it before it enters."""
    lines = legal(run, german_turn_1, "anna")
    assert len(lines) <= SCREEN, "\n".join(lines)
    text = "\n".join(lines)
    assert "526 actions, 25 units" in text
    assert any(line.split()[:3] == ["G01", "I/2", "3-3-10"] and line.endswith("enter 21")
               for line in lines), text
    assert "G25 37/Fick (Pz) 3-2-10" in text
    assert "enter G01 3201" not in text  # no hex listed one a line
    assert "end movement" in text


def test_one_unit_and_all(run: Run, german_turn_1: Path) -> None:
    lines = legal(run, german_turn_1, "anna", "G03")
    assert len(lines) <= 6, lines
    assert lines[1].strip() == "G03 2 (recon) 1-2-16: 21 actions"
    assert lines[2].strip().startswith("enter G03 HEX (21 hexes): 3201 3202")
    every = legal(run, german_turn_1, "anna", "--all")
    assert len(every) == 527 and every[1].strip() == "enter G01 3201"


def test_us_movement_fits_a_screen(run: Run, us_turn_2: Path) -> None:
    """Some 2,300 US moves on turn 2: one line a unit with its count."""
    every = legal(run, us_turn_2, "bert", "--all")
    assert len(every) > 2000
    lines = legal(run, us_turn_2, "bert")
    assert len(lines) <= SCREEN, "\n".join(lines)
    assert any("1/33 Armd 4-3-10 at " in line and " move " in f"{line} " for line in lines)


def test_many_units_go_in_columns(run: Run, tmp_path: Path) -> None:
    """For the Motherland!'s Axis movement, turn 1: 38 units with some 960 moves, in two
    columns so the list stays a screen."""
    mortain_homes(tmp_path, "axis player moves", "for-the-motherland", "1-barbarossa",
                  "axis")
    lines = legal(run, tmp_path, "anna")
    assert len(lines) <= SCREEN, "\n".join(lines)
    assert "38 units" in lines[1]
    assert sum(line.count(" move ") for line in lines) == 38


def test_the_prompt_names_the_unit_as_its_counter(run: Run, tmp_path: Path) -> None:
    """Mortain's US set-up (13.0) names the unit to place as its counter reads."""
    mortain_homes(tmp_path, "US player sets up 1/33")
    lines = legal(run, tmp_path, "bert")
    assert lines[0] == "the US player sets up 1/33 Armd 4-3-10 (ccb area, 13.0)"  # 13.0 said once
    assert lines[2].split() == ["1/33", "Armd", "4-3-10", "place", "37"]



def test_a_short_list_is_printed_without_the_board(
        run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision of 30 actions or fewer is printed one a line, as it is: the side's view
    (the board's picture, ~10 M instructions of a 'legal', issue 35) is not drawn for it,
    only to group a long list by unit or to find the unit a 'legal GAME UNIT' names."""
    from engines.mortain.state import MortainState

    mortain_homes(tmp_path, "german player's combat phase, turn 1")
    every = legal(run, tmp_path, "anna", "--all")

    def no_view(self: MortainState, side: str | None) -> object:
        raise AssertionError("the view was drawn")

    monkeypatch.setattr(MortainState, "view", no_view)
    assert legal(run, tmp_path, "anna") == every
    assert 1 < len(every) <= 31 and every[-1] == "  end combat"


@pytest.fixture(scope="module")
def bridge_turn_3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mortain, the US movement phase of turn 3 with the US engineer Eng/CCB beside the
    See bridge 0507/0606 (moved there on turn 2): it may demolish the bridge (S9)."""
    def to_bridge(legal: list[str]) -> str | None:
        return "move Eng/CCB 0507" if "move Eng/CCB 0507" in legal else None

    root = tmp_path_factory.mktemp("mort3")
    mortain_homes(root, "us player's movement phase, turn 3", prefer=to_bridge)
    return root


def test_a_unit_or_hex_finds_the_actions_naming_it_as_an_argument(
        run: Run, bridge_turn_3: Path) -> None:
    """'demolish Eng/CCB 0507/0606' names both hexes of the bridge in one word; 'legal
    GAME HEX' picks actions by the hexes and units their grammar says they name, so either
    bridge hex finds it, as the unit does."""
    for focus in ("0606", "0507", "Eng/CCB"):
        r = run(None, "--home", str(bridge_turn_3 / "bert"), "legal", "mort", focus,
                "--json")
        assert r.exit_code == 0, r.output
        assert "demolish Eng/CCB 0507/0606" in json.loads(r.output)["actions"], focus
    r = run(None, "--home", str(bridge_turn_3 / "bert"), "legal", "mort", "0606", "--json")
    assert all("0606" in a for a in json.loads(r.output)["actions"])


def test_the_board_and_where_lead_a_unit_to_the_hexes_its_actions_name(
        bridge_turn_3: Path) -> None:
    """On the board a tap on the engineer lights the hex across the bridge, whose tap
    offers to move there or to demolish the bridge; the terminal's 'where Eng/CCB' lists
    that hex too."""
    home = Home(bridge_turn_3 / "bert")
    board = Board(home, "mort", folder=bridge_turn_3 / "out")
    found = board.where("Eng/CCB")
    assert found["hexes"]["0606"] == ["move Eng/CCB 0606", "demolish Eng/CCB 0507/0606"]
    assert "demolish Eng/CCB 0507/0606" not in found["other"]
    game = home.game("mort")
    assert "0606" in where(game.state, "us", "Eng/CCB")


def test_tab_completes_a_word_at_a_time(bridge_turn_3: Path) -> None:
    """The prompt's Tab, on an engine with a grammar: the next word of the legal actions
    (a unit, then its hexes), not all 2,000 US moves at once."""
    game = Home(bridge_turn_3 / "bert").game("mort")
    prompt = Prompt(Console(file=io.StringIO()), game)

    def offers(text: str) -> list[str]:
        out: list[str] = []
        while (found := prompt._complete(text, len(out))) is not None:
            out.append(found)
        return out

    assert offers("demolish ") == ["demolish Eng/CCB "]
    hexes = offers("move Eng/CCB ")
    assert "move Eng/CCB 0606" in hexes and all(len(h.split()) == 3 for h in hexes)
    assert prompt._complete("mo", 0) == "move "
