"""The board's "now" frame, made on every click's redraw, is made from the last one: only
the stacks a changed counter was or is in are found again (issue 35 item 4: walking
every counter of the board twice was a fifth of Backhand Blow's redraw).  The frame and
the piece table it fills are the ones ``frame_data`` makes, along seeded games of every
engine, for each side and the referee, position after position as a board redraws them."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from render_maps import small_view

from pbem.view import BoardView, Piece
from pbem.web import server
from pbem.web.replay import PieceTable, frame_data
from pbem.web.server import Known, Present, Stacks, now_frame


class Redraws:
    """The board's side of the frames (what :meth:`Board.state` keeps between redraws),
    against frame_data on a table that keeps nothing, for one history table."""

    def __init__(self, history: PieceTable) -> None:
        self.history = history
        self.known: Known = {}
        self.seen: dict[tuple[int, int], tuple[Piece, int]] = {}
        self.made: dict[tuple[Any, ...], list[Any]] = {}
        self.kept: Stacks | None = None

    def check(self, view: BoardView, side: str | None) -> None:
        table = Present(history=self.history, known=self.known, seen=self.seen,
                        made=self.made)
        now, self.kept = now_frame(view, side, table, self.kept, partial(row, side))
        want = Present(history=self.history)
        assert now == frame_data(view, [], side, want, file=None, now=True)
        assert table.every_row() == want.every_row()
        if self.kept is not None:  # the page's rows of the side's counters (``mine``)
            assert list(filter(None, self.kept.rows)) == [
                {"id": p.id, "hex": p.location, "label": p.label, "name": p.name}
                for p in view.pieces if p.side == side and not p.hidden]


def row(side: str | None, piece: Piece) -> dict[str, str] | None:
    return {"id": piece.id, "hex": piece.location, "label": piece.label, "name": piece.name} \
        if piece.side == side and not piece.hidden else None


@pytest.mark.parametrize(("engine", "scenario"), [
    ("white-death", "purkayev"), ("mortain", "counterattack"),
    ("48th-panzer-korps", "chir"), ("backhand-blow", "high-water-mark"),
    ("for-the-motherland", "4-uranus")])
def test_the_now_frame_made_from_the_last_is_frame_datas(engine: str, scenario: str) -> None:
    from pbem.registry import get as get_engine
    from pbem.testing import Chooser, decisions

    found = get_engine(engine)
    state = found.new_state(scenario, found.resolve_options({}))
    choose = Chooser(f"stacks/{engine}")
    boards: dict[str | None, Redraws] = {}
    for side in (None, *found.sides):
        # the history's table holds the opening's counters: found there, a top's row
        # is kept from redraw to redraw; a counter moved since is a row of the redraw's
        history = PieceTable()
        frame_data(state.view(side), [], side, history, file=1)
        boards[side] = Redraws(history)
    for _ in decisions(state, choose, 60):
        for side, board in boards.items():
            board.check(state.view(side), side)


def moved(view: BoardView, unit: str, to: str) -> BoardView:
    return replace(view, pieces=tuple(replace(p, location=to) if p.id == unit else p
                                      for p in view.pieces))


def test_a_box_and_a_hidden_top_are_shown_as_frame_data_shows_them() -> None:
    """A box shows each of its counters; a stack topped by a counter the viewer may not
    identify shows the first one it may (there the frame is frame_data's own, and the
    next one is found afresh)."""
    view = small_view()
    board = Redraws(PieceTable())
    kept: list[bool] = []
    for unit, to in (("g2", "reserve"), ("g1", "reserve"), ("g9", "0505"),
                     ("s1", "0805"),  # the hidden pair alone at 0804: a hidden top
                     ("s2", "0806"), ("s4", "0806"),  # s4 under the hidden s2
                     ("s2", "0807"), ("g3", "0807"), ("g1", "0303")):
        view = moved(view, unit, to)
        board.check(view, "german")
        kept.append(board.kept is not None)
    assert kept == [True, True, True, False, True, False, True, True, True]


def test_a_clicks_redraw_finds_only_the_moved_counters_stacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a click, the redraw does not find every stack again (frame_data's two walks
    over the board), and its answer is the one a board opened afresh sends."""
    from pbem.selfplay import selfplay
    from pbem.session import Home

    selfplay("backhand-blow", "high-water-mark", 1, tmp_path, max_turns=1)
    homes = [Home(tmp_path / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    board = server.Board(home, "selfplay-1")
    board.state()
    walked: list[int] = []
    counting = [False]
    real_stacks, real_frame = server._stacks, server.frame_data

    def stacks(view: BoardView, *args: Any) -> Stacks | None:
        walked.extend([len(view.pieces)] * counting[0])
        return real_stacks(view, *args)

    def frame(*args: Any, **kwargs: Any) -> dict[str, Any]:
        walked.extend([-1] * counting[0])
        return real_frame(*args, **kwargs)

    monkeypatch.setattr(server, "_stacks", stacks)
    monkeypatch.setattr(server, "frame_data", frame)
    played = []
    for click in range(4):
        game = board.game()
        legal = game.state.legal_actions()
        action = next((a for a in legal if a.notation().startswith("move")), legal[0])
        # the first click brings counters onto the map: its redraw finds them all
        counting[0] = click > 0
        board.command("act", action.notation())
        # the redraw as a page that holds nothing is sent it, its counters' JSON kept
        state = json.loads(board.answer())
        counting[0] = False
        del state["version"]
        assert state == json.loads(server.Board(home, "selfplay-1").state_json())
        played.append(action.notation())
    assert walked == [], played
