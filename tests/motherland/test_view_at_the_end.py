"""The board can be drawn in every state, the final one included."""

from __future__ import annotations

from engines.motherland import ENGINE
from pbem.testing import Chooser


def test_view_and_status_line_after_the_game_ended() -> None:
    state = ENGINE.new_state("4-uranus")
    chooser = Chooser("end")
    steps = 0
    while not state.is_terminal() and steps < 20_000:
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
        else:
            state.apply(chooser.pick(state.legal_actions()))
        steps += 1
    assert state.is_terminal()
    for side in (None, "axis", "soviet"):
        assert state.view(side).cells
        assert state.status_line(side)


def test_the_maps_parts_are_made_once_per_data_set_and_show_its_own_map() -> None:
    """A view shares its map's cells, hexsides and railroads with every other view of the
    same data (issue 35: remaking them was nine tenths of a view), shows what a fresh
    build shows along a game, and an engine on another map shows that map."""
    from engines.motherland import MotherlandEngine

    from .conftest import DATA

    state = ENGINE.new_state("4-uranus")
    chooser = Chooser("view-parts")
    for _ in range(150):
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
            continue
        kept = state.view("axis")
        assert kept.cells  # made (or found) before the data set's parts are dropped
        state.data.__dict__.pop("_view_static")
        assert state.view("axis") == kept
        state.apply(chooser.pick(state.legal_actions()))
    other = ENGINE.new_state("6-for-the-motherland")
    assert other.view(None).cells is state.view("soviet").cells
    small = MotherlandEngine(map_file=DATA / "testmap.toml")
    cells = small.new_state("4-uranus").view(None).cells
    assert {c.hex for c in cells} == set(small.data.hexmap.ids) != \
        {c.hex for c in state.view(None).cells}


def test_naming_the_units_makes_none_of_the_maps_parts() -> None:
    """'legal' and 'act' only name a view's units (State.counters): the view leaves the
    map's 951 cells, hexsides and railroads to their first reading (issue 35 item 3), and
    answers the map's hex ids (a listing's units on the map or in a box) without them."""
    from pbem.view import DEFERRED

    state = ENGINE.new_state("4-uranus")
    chooser = Chooser("view-deferred")
    for _ in range(120):
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
            continue
        for side in (None, "axis", "soviet"):
            view = state.view(side)
            assert state.counters(side)
            hexes = view.hexes()
            assert not any(name in vars(view) for name in DEFERRED), side
            assert hexes == {c.hex for c in view.cells} and len(hexes) == 951
            assert [b.name for b in view.boxes][:2] == ["assets", "baku"]
        state.apply(chooser.pick(state.legal_actions()))
