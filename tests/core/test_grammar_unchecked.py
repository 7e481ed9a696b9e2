"""The grammar's actions made in bulk without checking (pbem.grammar ``Form.unchecked``):
an engine's own thousands of moves, listed in one call (issue 35 item 5)."""

from __future__ import annotations

import pytest

from pbem.grammar import Form, Grammar, Type

G = Grammar(
    Form("move", "move {unit:unit} {start:hex} {path:hex+}"),
    types={"unit": Type.token("a unit id", r"[A-Z0-9][A-Za-z0-9/]*"), "hex": Type.hex()},
)
MOVE = G["move"]


def test_unchecked_gives_the_actions_made_before_and_makes_the_rest_unwritten(
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = G.parse("move G01 3110 3111")  # a file's text: kept by its values
    monkeypatch.setattr(Form, "_build", lambda *_: pytest.fail("checked"))
    got = MOVE.unchecked([("G01", "3110", ("3111",)), ("G01", "3110", ("3111", "3112")),
                          ("G01", "3110", ("3111", "3112"))])
    assert got[0] is before  # found in the list by identity
    assert got[1] is got[2] and got[1]._text is None  # made once, its text when asked
    assert got[1].notation() == "move G01 3110 3111 3112"
    assert G.parse("move G01 3110 3111 3112") is got[1]
