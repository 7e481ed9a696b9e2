"""A click's redraw encodes what it has not sent before, not again what it has (issue 35
item 4): the rows of the counters only the board now shows (each counter a click moved
this file) are made and encoded once each, and a text with no escape in it is not
scanned for one; the answers stay those recorded (tests/render/test_board_redraw.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.selfplay import selfplay
from pbem.session import Home
from pbem.text import displayable
from pbem.web import server
from pbem.web.server import ROUTES, Board, Request

pytest.importorskip("engines.white_death")


def test_a_text_without_a_backslash_is_not_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    """``json.dumps`` writes every character :func:`pbem.text.safe` may change as an
    escape, so a text with no backslash needs no look at its escapes."""
    class Unscanned:
        def finditer(self, text: str) -> Any:
            raise AssertionError(f"scanned {text!r}")

    value = {"status": "Turn 1/4, clear; soviet movement", "pieces": [3, 1, 4], "n": None}
    monkeypatch.setattr(server, "_ESCAPED", Unscanned())
    assert server.page_json(value) == json.dumps(value)
    monkeypatch.undo()
    # a text with escapes is still made safe: a control and a bidi override
    tricky = {"message": "a\u202eb\x07c \u00e9"}
    assert server.page_json(tricky) == json.dumps(displayable(tricky))


def test_a_moved_counters_row_is_encoded_once_a_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    selfplay("white-death", "purkayev", 1, tmp_path, max_turns=1)
    homes = [Home(tmp_path / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    board = Board(home, "selfplay-1")
    have = json.loads(ROUTES[("GET", "/api/state")](
        board, Request("GET", "/api/state", {}, {})).body)["version"]
    encoded: list[tuple[Any, ...]] = []
    real = server.page_json

    def counted(value: Any) -> str:
        if isinstance(value, list) and len(value) == 9:  # a row of the piece table
            encoded.append(tuple(value))
        return real(value)

    monkeypatch.setattr(server, "page_json", counted)
    for _ in range(8):
        game = board.game()
        if game.my_decision() is None:
            break
        legal = game.state.legal_actions()
        action = next((a for a in legal if a.notation().startswith("move")), legal[0])
        answer = json.loads(ROUTES[("POST", "/api/act")](board, Request(
            "POST", "/api/act", {}, {"text": action.notation(), "have": have})).body)
        state = answer["state"]
        have = state["version"]
    # the clicks moved counters the history's table does not hold: each such row was
    # encoded once, though every redraw of the file lists it again (and compares it
    # with what the page holds)
    assert len(encoded) >= 3
    assert len(set(encoded)) == len(encoded), encoded


def test_a_kept_counter_row_text_is_found_without_a_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's rows of this side's counters (``mine``): each row's JSON is kept with
    the row, and a redraw finds the kept ones inline, a call made only for a row not
    kept (a click moves a unit or two of Backhand Blow's 41)."""
    board = Board(Home.__new__(Home), "none")
    rows = [{"id": f"u{i}", "hex": "0101", "label": "1", "name": ""} for i in range(5)]
    first = board._mine_text(rows)
    assert json.loads(first) == rows
    calls: list[object] = []
    real = server._by_identity

    def counted(table: Any, obj: Any, make: Any) -> Any:
        calls.append(obj)
        return real(table, obj, make)

    monkeypatch.setattr(server, "_by_identity", counted)
    moved = {"id": "u2", "hex": "0202", "label": "1", "name": ""}
    again = [*rows[:2], moved, *rows[3:]]
    assert json.loads(board._mine_text(again)) == again
    assert calls == [moved]
