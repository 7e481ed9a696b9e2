"""The board's "now" frame, made on every click's redraw, walks the view's counters once
(issue 35): where each unit stands is looked up only for the units an event names, and
a frame whose events name units still lights the hexes they stand in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from render_maps import small_view

from pbem.engine import Event
from pbem.view import BoardView, Piece
from pbem.web.replay import PieceTable, frame_data


class Counted(tuple[Piece, ...]):
    """The view's counters, counting the walks over them."""

    walks = 0

    def __iter__(self) -> Iterator[Piece]:
        Counted.walks += 1
        return super().__iter__()


def test_the_now_frame_walks_the_counters_once() -> None:
    view = small_view()
    counted = replace(view, pieces=Counted(view.pieces))
    table = PieceTable()
    Counted.walks = 0
    now = frame_data(counted, [], "german", table, file=None, now=True)
    assert Counted.walks == 1
    # the same frame as the plain view's: each stack's top counter the viewer may
    # identify (the hidden Soviet pair under 7 Rifle), the reserve box's counter
    assert now == frame_data(view, [], "german", PieceTable(), file=None, now=True)
    shown = [table.rows[i][0] for i in now["pieces"]]
    assert sorted(shown) == ["g1", "g3", "g9", "s1", "s4"] and now["hexes"] == []


def test_an_event_naming_a_unit_lights_the_hex_it_stands_in() -> None:
    view = small_view()
    frame = frame_data(view, [Event("NKVD deploys", "info", units=("s4",)),
                              Event("only the Soviet sees", visible_to=("soviet",),
                                    units=("g3",))], "german", PieceTable())
    assert frame["hexes"] == ["0705"]
    assert [kind for kind, _ in frame["events"]] == ["info"]


def test_a_counter_seen_in_the_frame_before_is_not_asked_of_the_table_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A long game's frames show the same counters frame after frame (White Death keeps
    them from view to view): a map's counter the table has seen is found by the frame
    itself, and only the reserve box's (a box lists its counters) are asked of it."""
    view = small_view()
    table = PieceTable()
    first = frame_data(view, [], "german", table, file=1)
    asked: list[str] = []
    real = PieceTable.add

    def counting(self: PieceTable, piece: Piece, depth: int) -> int:
        asked.append(piece.id)
        return real(self, piece, depth)

    monkeypatch.setattr(PieceTable, "add", counting)
    again = frame_data(view, [], "german", table, file=1)
    assert again == first and len(table.rows) == len(first["pieces"])
    boxed = {p.id for p in view.pieces if p.location in {b.name for b in view.boxes}}
    assert boxed and set(asked) == boxed


def _stack_walk(view: BoardView, table: PieceTable) -> list[int]:
    """The frame's counters as found before: every location's stack made, then each."""
    from pbem.render.hexmap import stacks

    cells = {c.hex for c in view.cells}
    boxes = {b.name for b in view.boxes}
    shown: list[int] = []
    for location, stack in stacks(view).items():
        if location in cells:
            top = next((p for p in stack if not p.hidden), stack[0])
            shown.append(table.add(top, len(stack) - 1))
        elif location in boxes:
            shown.extend(table.add(p, 0) for p in stack)
    return shown


@pytest.mark.parametrize(("engine", "scenario"), [
    ("white-death", "purkayev"), ("mortain", "counterattack"),
    ("48th-panzer-korps", "chir"), ("backhand-blow", "high-water-mark"),
    ("for-the-motherland", "4-uranus")])
def test_the_frame_finds_each_stack_without_making_the_stacks(
        engine: str, scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The frame finds each location's top counter and depth in its one walk over the
    counters, making no list for a location of one counter (most are: issue 35 item 4,
    a tenth of the board's frame); along seeded games, for each side and the referee,
    it shows what the walk over every stack shows (a stack topped by a counter the viewer
    may not identify, an off-map box, a location that is neither)."""
    from pbem import web
    from pbem.registry import get as get_engine
    from pbem.testing import Chooser, decisions

    def unmade(view: BoardView) -> None:
        raise AssertionError("the stacks were made")

    monkeypatch.setattr(web.replay, "stacks", unmade, raising=False)
    found = get_engine(engine)
    state = found.new_state(scenario, found.resolve_options({}))
    choose = Chooser(f"frame/{engine}")
    seen_hidden = 0
    for _ in decisions(state, choose, 40):
        for side in (None, *found.sides):
            view = state.view(side)
            table = PieceTable()
            now = frame_data(view, [], side, table, file=None, now=True)
            want = PieceTable()
            assert now["pieces"] == _stack_walk(view, want), (engine, side)
            assert table.rows == want.rows
            seen_hidden += any(p.hidden for p in view.pieces)
    # White Death hides enemy stacks (Rule 4.C); the small view above has a box too
    assert seen_hidden or engine != "white-death"
