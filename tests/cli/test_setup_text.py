"""Issue 33: a whole set-up given as one text ('UNIT HEX' a line), checked against the
set-up rules at once: all of it is kept, or none, and a refusal names the rule."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pbem.session import Home

from .conftest import Run


@pytest.fixture
def mortain_setup(tmp_path: Path) -> Path:
    """Mortain up to the US set-up (13.0): Bert, the US, holds file 2."""
    anna, bert = Home(tmp_path / "anna"), Home(tmp_path / "bert")
    anna.keys.create("Anna", "", None, secret=hashlib.sha256(b"anna").digest())
    bert.keys.create("Bert", "", None, secret=hashlib.sha256(b"bert").digest())
    game = anna.new_game("mortain", "counterattack", "german", name="mort",
                         nonce=hashlib.sha256(b"mort").digest())
    joined = bert.join(game.files[0], "invite", name="mort")
    anna.receive(joined.files[1], "reply")
    bert.receive(anna.game("mort").file(2)[1], "file 2")
    return tmp_path


def a_legal_setup(root: Path) -> list[str]:
    """Every US unit in a hex its area allows (the last legal hex of each, in turn)."""
    state = Home(root / "bert").game("mort").state.clone()
    lines = []
    while (d := state.decision()) is not None and d.kind == "setup":
        text = state.legal_actions()[-1].notation()
        _, unit, where = text.split()
        lines.append(f"{unit} {where}")
        state.apply(text, side="us")
    return lines


def test_print_names_every_unit_to_set_up(run: Run, mortain_setup: Path) -> None:
    r = run("bert", "setup", "mort", "--print")
    assert r.exit_code == 0, r.output
    assert "# 1/33 HEX  # 1/33 Armd 4-3-10: not on the map yet" in r.output
    assert "# 743 HEX  # 743 Tank 4-3-10: not on the map yet" in r.output


def test_a_whole_setup_in_any_order(run: Run, mortain_setup: Path) -> None:
    """23 lines, written last unit first: placed in 13.0's order, the file sealed."""
    lines = a_legal_setup(mortain_setup)
    assert len(lines) == 23
    (mortain_setup / "us.txt").write_text("# our set-up\n" + "\n".join(reversed(lines)))
    r = run("bert", "setup", "mort", "us.txt")
    assert r.exit_code == 0, r.output
    assert "US 743 Tank 4-3-10 sets up in" in r.output and "file 3" in r.output, r.output
    game = Home(mortain_setup / "bert").game("mort")
    assert len(game.files) == 4
    placed = {p.id: p.location for p in game.state.view("us").pieces if p.side == "us"}
    assert all(placed[line.split()[0]] == line.split()[1] for line in lines)


def test_a_refused_line_names_the_rule_and_keeps_nothing(run: Run,
                                                         mortain_setup: Path) -> None:
    lines = a_legal_setup(mortain_setup)
    lines[5] = f"{lines[5].split()[0]} 3212"  # the German supply hex: outside every area
    (mortain_setup / "us.txt").write_text("\n".join(lines))
    before = (mortain_setup / "bert" / "games").stat().st_mtime_ns
    r = run("bert", "setup", "mort", "us.txt")
    assert r.exit_code != 0
    assert "us.txt, line 6" in r.output and "13.0" in r.output
    assert "13.0: 2/119 sets up in its ccb area" in r.output and "(none applied)" in r.output
    game = Home(mortain_setup / "bert").game("mort")
    assert game.pending == [] and len(game.files) == 3
    assert (mortain_setup / "bert" / "games").stat().st_mtime_ns == before


def test_a_malformed_line_is_named(run: Run, mortain_setup: Path) -> None:
    (mortain_setup / "us.txt").write_text("1/33 0707\n1/36 to 0708\n")
    r = run("bert", "setup", "mort", "us.txt")
    assert r.exit_code != 0
    assert "us.txt, line 2: '1/36 to 0708' is not 'UNIT HEX'" in r.output
