"""Sealed rules 2 (docs/protocol.md 6.2.1, issue 32 item 8): a decision with one legal
option that a roll's result leads to is taken by the program, so the opponent's file that
resolves the roll plays on instead of handing back a rolls-only reply for a non-choice.
Selected by the signed invite's ``sealed`` field, never by the program: a sealed game whose
invite has none (every game before rules 2) replays as it always did.

The test engine's "dusk" scenario (Skirmish 6): an attack that misses leaves the attacker
only ``regroup``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import audit
from pbem.engine import CHANCE
from pbem.envelope import open_envelope
from pbem.errors import FormatError
from pbem.registry import get
from pbem.session import Home
from pbem.transcript import parse_invite

from .test_protocol import body_of, resign_body
from .test_vectors import play


def missed_attack(rules: int, *, sealed: bool = True) -> tuple[Any, list[Any]]:
    """Red attacks with 1 at dusk and rolls 1 and 1 (total 3: a miss, Skirmish 2.2)."""
    state = get("skirmish").new_state("dusk")
    state.sealed_dice = sealed
    state.sealed_rules = rules
    state.apply_outcome(("calm",))
    state.apply("attack 1", side="red")
    assert state.is_chance()
    return state, state.apply_outcome((1, 1))


def test_rules_1_stop_at_the_one_option_rules_2_take_it() -> None:
    before, _ = missed_attack(1)
    assert before.current_player() == "red"
    assert [a.notation() for a in before.legal_actions()] == ["regroup"]
    after, events = missed_attack(2)
    # the turn passed: blue's round begins with its event draw (Skirmish 1)
    assert after.current_player() == CHANCE
    taken = [e for e in events if "only option" in e.text]
    assert [(e.text, e.visible_to, e.rule) for e in taken] == [
        ("your only option, taken for you: regroup (sealed dice)", ("red",), "Skirmish 6")]
    # the same position as rules 1 after red's regroup: the same game, one file less
    before.apply("regroup", side="red")
    assert before.digest() == after.digest()


def test_open_dice_and_real_choices_are_untouched() -> None:
    state, _ = missed_attack(2, sealed=False)
    assert state.current_player() == "red"  # open dice: the asker plays on in its file
    state = get("skirmish").new_state("dusk")
    state.sealed_dice, state.sealed_rules = True, 2
    state.apply_outcome(("calm",))
    state.apply("attack 3", side="red")
    state.apply_outcome((6, 6))  # a hit: the defender's two options are asked (Skirmish 3)
    assert state.current_player() == "blue"
    assert [a.notation() for a in state.legal_actions()] == ["absorb", "retreat"]


def _records(files: list[bytes]) -> list[list[list[Any]]]:
    return [body_of(f)["records"] for f in files[2:]]


def test_a_dusk_game_saves_the_rolls_only_reply_and_the_one_action_file(
        tmp_path: Path) -> None:
    old = _records(play(tmp_path / "1", sealed_dice=True, scenario="dusk", sealed_rules=1))
    new_files = play(tmp_path / "2", sealed_dice=True, scenario="dusk", sealed_rules=2)
    new = _records(new_files)
    # rules 1: a rolls-only reply, then a file of red's or blue's one option
    alone = [n for n, r in enumerate(old) if r == [["a", "regroup"]]]
    assert alone and all(all(x[0] == "r" for x in old[n - 1]) for n in alone)
    # rules 2: no file holds a regroup, and the files that resolve a miss play on
    assert not any(x == ["a", "regroup"] for r in new for x in r)
    assert audit([(f"{i:04d}.pbem", d) for i, d in enumerate(new_files)]).clean
    invite = body_of(new_files[0])
    assert invite["sealed"] == 2 and invite["dice_mode"] == "sealed"


def _invite(tmp_path: Path, dice_mode: str, **kw: Any) -> tuple[Home, bytes]:
    home = Home(tmp_path / "alice", clock=lambda: 1_800_000_000)
    home.keys.create("Alice", "alice@example.org", None, secret=bytes(range(32)))
    game = home.new_game("skirmish", "dusk", "red", name="g", dice_mode=dice_mode, **kw)
    return home, game.files[0]


def test_new_sealed_games_write_rules_2_and_open_games_nothing(tmp_path: Path) -> None:
    _, sealed = _invite(tmp_path / "s", "sealed")
    assert body_of(sealed)["sealed"] == 2
    assert parse_invite(open_envelope(sealed)).sealed_rules == 2
    _, old = _invite(tmp_path / "o", "sealed", sealed_rules=1)
    assert "sealed" not in body_of(old)  # one form: rules 1 is the field left out
    assert parse_invite(open_envelope(old)).sealed_rules == 1
    _, opened = _invite(tmp_path / "d", "open")
    assert "sealed" not in body_of(opened)


@pytest.mark.parametrize(("mode", "value", "match"), [
    ("sealed", 1, "sealed-dice rules 1 are not supported"),
    ("sealed", 3, "sealed-dice rules 3 are not supported"),
    ("sealed", True, "field 'sealed' has the wrong type"),
    ("sealed", "2", "field 'sealed' has the wrong type"),
    ("open", 2, "in a game whose dice are 'open'"),
])
def test_a_bad_sealed_field_is_refused_by_name(tmp_path: Path, mode: str, value: Any,
                                               match: str) -> None:
    home, data = _invite(tmp_path, mode)
    body = dict(body_of(data), sealed=value)
    forged = resign_body(home.identity(), body)
    with pytest.raises(FormatError, match=match):
        parse_invite(open_envelope(forged))


def test_the_stored_vectors_keep_their_rules() -> None:
    data = Path(__file__).parent.parent / "data"
    for name in ("transcript-sealed", "transcript-anchor-sealed", "transcript-batched"):
        invite = canonical.decode(canonical.decode(
            (data / name / "0000.pbem").read_bytes())[5])
        assert "sealed" not in invite, name
    for name in ("transcript-sealed-2", "transcript-batched-2"):
        invite = canonical.decode(canonical.decode(
            (data / name / "0000.pbem").read_bytes())[5])
        assert invite["sealed"] == 2, name
