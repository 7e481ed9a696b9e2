"""The board's redraw keeps what it built between requests (issue 35 item 4) and answers
exactly as before: along a sequence of clicks (moves, an undo, the seal of the file, then
the opponent's file imported) every
``/api/act`` and ``/api/state`` answer is the one recorded before the redraw kept its piece
table, and every state equals what a board opened afresh on the same save shows."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pbem.selfplay import selfplay
from pbem.session import Home
from pbem.text import displayable
from pbem.web.server import Board

pytest.importorskip("engines.white_death")

#: one sha256 per answer, recorded with the board before its redraw kept its piece table;
#: PBEM_RECORD=1 writes it again (only after an intended change of what the page shows)
RECORDED = Path(__file__).resolve().parent.parent / "data" / "board-redraw" / "purkayev.json"


def sent(board: Board, root: Path) -> str:
    """The state as ``/api/state`` sends it, checked against the JSON of the state it is."""
    data = board.state_json()
    assert data == json.dumps(displayable(board.state())).encode()
    return canonical(json.loads(data), root)


def canonical(value: Any, root: Path) -> str:
    # the outbox path a seal's notice names is under the test's own temporary folder
    return json.dumps(value, sort_keys=True).replace(str(root), "ROOT")


def clicks(root: Path) -> list[tuple[str, str]]:
    """Each answer of a board played by clicks, as (what was asked, its canonical JSON)."""
    selfplay("white-death", "purkayev", 1, root, max_turns=1)
    homes = [Home(root / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    board = Board(home, "selfplay-1")
    answers = [("state", sent(board, root))]
    for i in range(60):
        game = board.game()
        if game.my_decision() is None:
            break
        legal = game.state.legal_actions()
        action = next((a for a in legal if a.notation().startswith("move")), legal[0])
        text = action.notation()
        answers.append((f"act {text}", canonical(board.command("act", text), root)))
        state = json.loads(board.state_json())
        # what a board opened afresh on the same save (nothing kept) shows
        fresh = Board(home, "selfplay-1").state()
        assert canonical(state, root) == canonical(fresh, root), f"after act {text}"
        answers.append(("state", canonical(state, root)))
        if i == 3:
            answers.append(("undo", canonical(board.command("undo", ""), root)))
            answers.append(("state", sent(board, root)))
    # the opponent answers the sealed file with its own, which the board's player imports:
    # the board replays the file that arrived (its frames lead the next state)
    other = next(h for h in homes if h is not home)
    ours = home.game("selfplay-1")
    report = other.receive(ours.file(len(ours.files) - 1)[1], "ours")
    sealed = report.sealed
    theirs = other.game("selfplay-1")
    for _ in range(300):
        if sealed is not None or theirs.my_decision() is None:
            break
        legal = theirs.state.legal_actions()
        action = next((a for a in legal if a.notation().startswith("move")), legal[0])
        sealed = theirs.act(action.notation())[2]
    assert sealed is not None
    home.receive(theirs.file(sealed)[1], "theirs")
    state = json.loads(board.state_json())
    assert state == json.loads(json.dumps(displayable(board.state())))
    assert canonical(state, root) == canonical(Board(home, "selfplay-1").state(), root)
    assert any(f.get("file") == sealed for f in state["frames"])
    answers.append(("state", canonical(state, root)))
    return answers


def test_the_redraw_answers_as_recorded_along_a_file_of_clicks(tmp_path: Path) -> None:
    answers = clicks(tmp_path)
    digests = [[asked, hashlib.sha256(text.encode()).hexdigest()] for asked, text in answers]
    if os.environ.get("PBEM_RECORD"):
        RECORDED.write_text(json.dumps(digests, indent=1) + "\n")
    recorded = json.loads(RECORDED.read_text())
    # the seal of the file is among the clicks, so a kept history is redrawn too
    assert any('"sealed"' in text for _, text in answers)
    assert len(digests) == len(recorded)
    for k, (mine, then) in enumerate(zip(digests, recorded, strict=True)):
        assert mine == then, f"answer {k} ({mine[0]}) differs from the one recorded"
