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


def test_a_clicks_events_name_each_unit_by_its_first_counter_the_side_may_identify() -> None:
    """:meth:`Board.counters_of` (the units a click's events name): each unit's first
    counter the side may identify, found by its id; a unit shown only hidden, or not at
    all, is left to the engine's own counters (none here)."""
    from types import SimpleNamespace

    from pbem.engine import State, counter_text

    view = small_view()
    pieces = (Piece("s9", "soviet", "?", "0605", hidden=True),
              Piece("s9", "soviet", "3-3-4", "0606", name="9 Rifle"), *view.pieces)
    view = replace(view, pieces=pieces)

    class Plain:
        counters = State.counters
        counters_off_map = False

    game = SimpleNamespace(view=lambda: view, state=Plain())
    board = server.Board.__new__(server.Board)
    got = board.counters_of(game, {"s9", "g2", "s2", "s1", "nobody"})  # type: ignore[arg-type]
    assert got == {"s9": counter_text("s9", "9 Rifle", "3-3-4"),
                   "g2": counter_text("g2", "83 ID", "4-4-6"),
                   "s1": counter_text("s1", "7 Rifle", "5-3-4")}


def test_a_clicks_save_encodes_the_verified_position_once_per_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board saves at every click; the save's part that holds the verified position
    (``cache``: the position at the last file, its chains and cards) changes only with
    the files, so a game encodes it once, and the save is byte for byte the one the plain
    seal of its body makes (canonical: the reader re-encodes it to the same bytes)."""
    from pbem import canonical
    from pbem.envelope import seal
    from pbem.selfplay import selfplay
    from pbem.session import Home, read_save

    selfplay("48th-panzer-korps", "chir", 1, tmp_path, max_turns=1)
    homes = [Home(tmp_path / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    game = home.game("selfplay-1")
    encoded: list[int] = []
    real = canonical.encode

    def counting(value: Any) -> bytes:
        if isinstance(value, dict) and ("snapshot" in value or "cache" in value):
            encoded.append(1)  # the position's part, alone or in a whole body
        return real(value)

    monkeypatch.setattr(canonical, "encode", counting)
    for _ in range(2):
        action = game.state.legal_actions()[0]
        assert game.act(action.notation())[2] is None  # saved, not sealed
        data, body = read_save(home, game.path)
        del body["kind"]
        assert data == seal(home.identity(), "save", body)
    assert len(encoded) == 1 + 2  # the first save's, then each plain seal's above


def test_a_boards_first_click_saves_what_the_board_made_with_the_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board loads a game to save it at every click: what each save reuses (the
    verified position's encoded part) is made with the load, not by the first click."""
    from pbem import canonical
    from pbem.selfplay import selfplay
    from pbem.session import Home

    selfplay("48th-panzer-korps", "chir", 1, tmp_path, max_turns=1)
    homes = [Home(tmp_path / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    board = server.Board(home, "selfplay-1")
    board.state()
    encoded: list[int] = []
    real = canonical.encode

    def counting(value: Any) -> bytes:
        if isinstance(value, dict) and ("snapshot" in value or "cache" in value):
            encoded.append(1)
        return real(value)

    monkeypatch.setattr(canonical, "encode", counting)
    action = board.game().state.legal_actions()[0]
    assert board.command("act", action.notation())["ok"]
    assert encoded == []
