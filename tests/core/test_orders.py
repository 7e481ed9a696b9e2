"""Standing orders (ARCHITECTURE 9): the defender answers in advance, the attacker's file
applies the answer, the receiver checks it was the order's and not a choice."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.audit import audit
from pbem.errors import ChainError, DesyncError, FormatError

from .test_protocol import body_of, resign_body

ORDERS = {"take-result": "default"}


def publish_blue_orders(table: Any) -> None:
    """Bob (blue) orders 'absorb' for every attack, sent with his next file."""
    table.game(table.bob).set_orders(ORDERS)
    while True:
        home, seq, data = table.play_file()
        report = table.other(home).receive(data, f"{seq:04d}.pbem")
        if home is table.bob:
            assert "standing orders are now: take-result=default" in report.text
            return


def file_with_order(table: Any, limit: int = 80) -> tuple[Any, int, bytes]:
    """Exchange files until one carries an order record; that one is not delivered."""
    for _ in range(limit):
        home, seq, data = table.play_file()
        if any(r[0] == "o" for r in body_of(data)["records"]):
            return home, seq, data
        table.other(home).receive(data, f"{seq:04d}.pbem")
    raise AssertionError(f"no order record in {limit} files")


def test_orders_travel_and_answer_the_defender_inside_the_attackers_file(table: Any) -> None:
    publish_blue_orders(table)
    assert table.game(table.alice).status()["opponent_orders"] == ORDERS
    assert table.game(table.bob).status()["orders"] == ORDERS
    assert table.game(table.bob).status()["orders_pending"] is None
    home, seq, data = file_with_order(table)
    assert home is table.alice
    records = body_of(data)["records"]
    at = next(i for i, r in enumerate(records) if r[0] == "o")
    assert records[at] == ["o", "absorb"]
    # play went on in the same file: the loss roll that follows absorbing is in it
    assert records[at + 1][0] == "r"
    # the replay on Bob's screen says whose order answered
    from pbem.render.narrate import frames_from_records

    before = table.game(table.bob).verifier.state
    told = [e.text for _, events in frames_from_records(before, records, "blue")
            for e in events]
    assert "by the blue player's standing order: absorb" in told
    report = table.bob.receive(data, f"{seq:04d}.pbem")
    assert report.seq == seq and "answered by your standing orders" in report.text
    assert any("absorbs the attack" in e.text for e in report.events)
    digests = {table.game(h).verifier.state.digest() for h in (table.alice, table.bob)}
    assert len(digests) == 1
    files = [(f"{n:04d}", d) for n, d in enumerate(table.game(table.bob).files)]
    report_audit = audit(files)
    assert report_audit.clean, report_audit.problems
    # a referee sees which answers were the defender's orders, and when they were given
    assert any("1 by standing order" in row.replay for row in report_audit.files)
    assert any("standing orders: take-result=default" in row.note
               for row in report_audit.files)


def test_an_order_record_must_be_the_orders_answer(table: Any) -> None:
    publish_blue_orders(table)
    home, seq, data = file_with_order(table)
    body = body_of(data)
    at = next(i for i, r in enumerate(body["records"]) if r[0] == "o")
    body["records"][at] = ["o", "retreat"]
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    with pytest.raises(DesyncError, match="standing order answers 'absorb' here, not 'retreat'"):
        receiver.receive(resign_body(home.identity(), body), "forged.pbem")
    assert table.save_bytes(receiver) == before


def test_an_order_record_without_orders_in_force_is_refused(table: Any) -> None:
    """With no orders from blue, a red file ends at blue's decision; red may not answer
    it in blue's name."""
    for _ in range(80):
        home, seq, data = table.play_file()
        body = body_of(data)
        if body["side"] == "red" and body["to_act"] == "blue" and body["records"] and \
                body["records"][-1][0] == "r":
            game = table.game(home)
            if game.state.decision() is not None and \
                    game.state.decision().kind == "take-result":
                break
        table.other(home).receive(data, "f")
    else:
        raise AssertionError("no attack hit in 80 files")
    body["records"].append(["o", "absorb"])
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    with pytest.raises(ChainError, match="no order of that side answers"):
        receiver.receive(resign_body(home.identity(), body), "forged.pbem")
    assert table.save_bytes(receiver) == before


def test_a_file_may_not_stop_where_the_opponents_orders_answer(table: Any) -> None:
    """Applying an order is not optional: stopping there would let the sender choose
    whether the defender's answer comes now or after the sender saw more dice."""
    publish_blue_orders(table)
    home, seq, data = file_with_order(table)
    body = body_of(data)
    at = next(i for i, r in enumerate(body["records"]) if r[0] == "o")
    body["records"] = body["records"][:at]
    body["to_act"] = "blue"
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    with pytest.raises(ChainError, match="standing orders answer"):
        receiver.receive(resign_body(home.identity(), body), "stopped.pbem")
    assert table.save_bytes(receiver) == before


def test_orders_for_an_unknown_decision_are_refused(table: Any) -> None:
    home, seq, data = table.play_file()
    body = body_of(data)
    body["orders"] = {"surrender": "default"}
    with pytest.raises(FormatError, match="no standing order for decision kind 'surrender'"):
        table.other(home).receive(resign_body(home.identity(), body), "orders.pbem")
    body["orders"] = {"take-result": "always-retreat"}
    body["kind"] = "turn"
    with pytest.raises(FormatError, match="unknown standing-order policy"):
        table.other(home).receive(resign_body(home.identity(), body), "orders.pbem")


def test_orders_survive_a_reload_and_can_be_withdrawn(table: Any) -> None:
    publish_blue_orders(table)
    bob = table.game(table.bob)
    bob.set_orders({})
    assert table.game(table.bob).orders_pending == {}  # kept in the save
    while True:
        home, seq, data = table.play_file()
        table.other(home).receive(data, "f")
        if home is table.bob:
            break
    assert table.game(table.alice).status()["opponent_orders"] == {}


def test_a_named_policy_answers_differently_from_the_default(table: Any) -> None:
    """Skirmish names a second policy for its defender: retreat instead of absorbing."""
    table.game(table.bob).set_orders({"take-result": "retreat"})
    while True:
        home, seq, data = table.play_file()
        table.other(home).receive(data, f"{seq:04d}.pbem")
        if home is table.bob:
            break
    home, seq, data = file_with_order(table)
    assert ["o", "retreat"] in body_of(data)["records"]
    table.other(home).receive(data, f"{seq:04d}.pbem")
    digests = {table.game(h).verifier.state.digest() for h in (table.alice, table.bob)}
    assert len(digests) == 1


def test_orders_are_checked_when_set_not_when_sealed(table: Any) -> None:
    from pbem.errors import UsageError

    bob = table.game(table.bob)
    with pytest.raises(UsageError, match="no standing order for decision kind 'bogus'"):
        bob.set_orders({"bogus": "default"})
    with pytest.raises(UsageError, match="unknown standing-order policy 'charge'"):
        bob.set_orders({"take-result": "charge"})
    assert table.game(table.bob).orders_pending is None
