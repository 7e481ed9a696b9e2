"""The history as typed records with one wire form (pbem.history; issue 12 item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from toy_engine import ENGINE

from pbem import history
from pbem.errors import FormatError, IllegalAction
from pbem.golden import text_record
from pbem.history import Acted, Ordered, Rolled


@pytest.mark.parametrize(("record", "data"), [
    (Acted("move b"), ["a", "move b"]),
    (Ordered("absorb"), ["o", "absorb"]),
    (Rolled(2, (3, 4)), ["r", 2, [3, 4]]),
    (Rolled(0, ("calm",), {"kind": "draw"}), ["r", 0, ["calm"], {"kind": "draw"}]),
])
def test_wire_form_reads_back(record: history.Record, data: list[object]) -> None:
    assert history.wire(record) == data
    assert history.read(data) == record


@pytest.mark.parametrize(("data", "message"), [
    ("a", "record 7 is neither an action, a roll nor an order"),
    (["x", "move b"], "neither an action, a roll nor an order"),
    (["a"], r"an action record is \['a', text\]"),
    (["o", 3], r"an order record is \['o', text\]"),
    (["r", True, [1]], "a roll record is"),  # false is not 0 (issue 20)
    (["r", 0, (1,)], "a roll record is"),
])
def test_other_shapes_are_refused_naming_the_record(data: object, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        history.read(data, "record 7")


def test_a_roll_must_match_its_file_format_and_place() -> None:
    """Format 2 files carry each roll's request, format 1 files none (docs/protocol.md 6);
    a roll carries its number in the file."""
    with pytest.raises(FormatError, match=r"\['r', index, outcome, request\]"):
        history.read(["r", 0, [1]], request=True)
    with pytest.raises(FormatError, match=r"\['r', index, outcome\]"):
        history.read(["r", 0, [1], {}], request=False)
    with pytest.raises(FormatError, match=r"\['r', 1, outcome\]"):
        history.read(["r", 0, [1]], request=False, index=1)
    assert history.read(["r", 1, [1]], request=False, index=1) == Rolled(1, (1,))


def test_the_state_keeps_what_was_applied() -> None:
    state = ENGINE.new_state("short")
    assert state.history == []
    state.apply_outcome(("calm",))
    state.apply("move b")
    with pytest.raises(IllegalAction):
        state.apply("move c")  # refused: not in the history
    state.apply("attack 2")
    assert state.history == [Rolled(0, ("calm",)), Acted("move b"), Acted("attack 2")]
    twin = state.clone()
    req = state.chance_request()
    state.apply_outcome(tuple(1 for _ in req.dice))
    assert state.history[-1] == Rolled(1, (1, 1))
    assert len(twin.history) == 3  # a clone's history is its own


def test_a_clone_shares_the_frozen_records_not_the_list() -> None:
    """Issue 35 item 2: the records are frozen, so a clone holds the same ones in a list of
    its own; copying each record made every clone cost the game so far and an audit (one
    clone per file) quadratic in the game."""
    state = ENGINE.new_state("short")
    state.apply_outcome(("calm",))
    state.apply("move b")
    twin = state.clone()
    assert twin.history is not state.history
    assert all(a is b for a, b in zip(twin.history, state.history, strict=True))
    twin.apply("attack 2")
    assert len(state.history) == 2 and len(twin.history) == 3


def test_an_action_by_standing_orders_is_recorded_as_an_order() -> None:
    state = ENGINE.new_state("short")
    state.apply_outcome(("calm",))
    state.apply("pass", order=True)
    assert state.history[-1] == Ordered("pass")


def test_the_history_replays_to_the_same_game() -> None:
    state = ENGINE.new_state("short")
    state.apply_outcome(("calm",))
    state.apply("move b")
    state.apply("attack 2")
    state.apply_outcome((6, 6))
    wire = [history.wire(r) for r in state.history]
    lines = text_record(ENGINE, "short", dict(state.options), wire)
    acts = [line.split(": ", 1)[1] for line in lines if line.startswith("act ")]
    rolls = [line.rsplit(" -> ", 1)[1] for line in lines if line.startswith("chance ")]
    assert acts == ["move b", "attack 2"] and rolls == ['["calm"]', "[6, 6]"]
    replayed = ENGINE.new_state("short")
    for r in state.history:
        if isinstance(r, Rolled):
            replayed.apply_outcome(r.outcome)
        else:
            replayed.apply(r.text)
    assert replayed.digest() == state.digest() and replayed.history == state.history


def test_a_list_of_records_reads_typed_naming_the_bad_one() -> None:
    assert history.read_all([["a", "move b"], ["r", 0, [1], {"kind": "dice"}], ["o", "x"]]) \
        == [Acted("move b"), Rolled(0, (1,), {"kind": "dice"}), Ordered("x")]
    with pytest.raises(FormatError, match="pending record 1 is neither"):
        history.read_all([["a", "move b"], ["z"]], "pending record")
    assert isinstance(Acted("x"), history.Played) and isinstance(Ordered("x"), history.Played)
    assert not isinstance(Rolled(0, ()), history.Played)


def test_a_sessions_unsealed_records_read_typed_and_survive_the_save(table: Any) -> None:
    """The session keeps its unsealed records in the wire form the file will hold and
    reads them typed; a reloaded game reads the same from its save."""
    game = table.game(table.alice)
    game.act("move b")
    records = game.pending_records
    assert isinstance(records[0], Rolled) and records[0].index == 0  # die roll 2.0
    assert records[-1] == Acted("move b")
    assert game.pending == [history.wire(r) for r in records]
    assert game.pending_actions() == ["move b"] and game.status()["pending_actions"] == 1
    again = table.game(table.alice)
    assert again is not game and again.pending_records == records
    assert again.state.digest() == game.state.digest()
