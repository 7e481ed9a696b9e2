"""What docs/protocol.md left unsaid until issue 36 item 3, each pinned: the armor headers
of a card (section 4), and the value type of a turn's ``orders`` map (section 3.3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.armor import armor, dearmor
from pbem.audit import audit
from pbem.envelope import seal
from pbem.errors import FormatError
from pbem.identity import Identity

ORDERS = Path(__file__).parent.parent / "data" / "transcript-orders"
BOB = Identity.from_secret(bytes(range(32, 64)), "Bob", "bob@example.org")


def test_a_card_has_the_kind_header_alone() -> None:
    card = seal(BOB, "card", {"card": BOB.card.to_data()})
    text = armor(card)
    assert text.splitlines()[1:3] == ["Kind: card", ""]
    assert dearmor(text) == card
    for header in ("Game: 0123456789abcdef", "Seq: 1", "Side: blue"):
        with pytest.raises(FormatError, match="header"):
            dearmor(text.replace("Kind: card", f"Kind: card\n{header}"))


@pytest.mark.parametrize("orders", [{"take-result": 1}, {"take-result": ["retreat"]},
                                    {"take-result": b"retreat"}, ["take-result"]])
def test_orders_map_decision_kinds_to_policy_names(orders: Any) -> None:
    """The ``orders`` value of the orders vectors is ``{"take-result": "retreat"}``; a
    policy written as anything but its name (a str) is a FormatError."""
    files = [(p.name, p.read_bytes()) for p in sorted(ORDERS.glob("*.pbem"))]
    for i, (name, data) in enumerate(files):
        env = canonical.decode(data)
        body = canonical.decode(env[5])
        if env[2] == "turn" and "orders" in body:
            assert body["orders"] == {"take-result": "retreat"}
            body["orders"] = orders
            del body["kind"]
            files[i] = (name, seal(BOB, "turn", body))
            break
    else:
        raise AssertionError("no file of the orders vectors carries orders")
    report = audit(files)
    assert not report.clean and report.exit_code == FormatError.exit_code
    assert "orders" in report.problems[0] or "policy" in report.problems[0]
