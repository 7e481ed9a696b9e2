"""pbem.view.BoardView.deferred: a view whose map's fields are made when first read.  The
check of the fields an engine gives is made once per view class and reused (a board
click's redraw asks a view of every new position: issue 35), and still refuses what it
refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from pbem import view as view_module
from pbem.view import DEFERRED, BoardView, Cell, Layout, Piece


def _fill() -> dict[str, Any]:
    return {"layout": Layout("flat", "even", 2, 1), "terrain": (),
            "cells": (Cell("0101", 1, 1, "clear"), Cell("0201", 2, 1, "clear")),
            "edges": (), "lines": (), "boxes": ()}


def _given(**more: Any) -> dict[str, Any]:
    return {"title": "t", "side": "red", "pieces": (Piece("a", "red", "1-1", "0101"),),
            "status": "turn 1", "highlights": (), "overlays": (), **more}


def test_a_deferred_view_is_the_view_made_whole() -> None:
    view = BoardView.deferred(_fill, **_given())
    assert view == BoardView(**_given(), **_fill())
    assert view.hexes() == {"0101", "0201"}


@pytest.mark.parametrize("wrong", [{"colour": "red"}, {"status": None, "side": None}])
def test_fields_that_are_not_a_views_or_too_few_are_refused(wrong: dict[str, Any]) -> None:
    given = _given(**wrong)
    if "colour" not in wrong:
        del given["pieces"]  # a field that is not deferred left out
    with pytest.raises(TypeError, match="give every field but layout"):
        BoardView.deferred(_fill, **given)


def test_the_fields_given_are_checked_once_per_view_class(
        monkeypatch: pytest.MonkeyPatch) -> None:
    BoardView.deferred(_fill, **_given())
    assert view_module._GIVEN[BoardView] == set(_given())
    assert not set(DEFERRED) & view_module._GIVEN[BoardView]

    def rebuilt(cls: type[BoardView], given: dict[str, Any]) -> bool:
        raise AssertionError("the fields' sets were made again")

    monkeypatch.setattr(view_module, "_gives_fields", rebuilt)
    view = BoardView.deferred(_fill, **_given(status="turn 2"))
    assert view.status == "turn 2" and len(view.cells) == 2
    # a deferred field given too (not the usual set) is checked in full
    with pytest.raises(AssertionError, match="made again"):
        BoardView.deferred(_fill, **_given(boxes=()))


def test_restated_is_replace_of_the_status_and_makes_no_map_field() -> None:
    view = BoardView.deferred(_fill, **_given())
    noted = view.restated("turn 1 | your plan")
    assert "cells" not in view.__dict__ and "cells" not in noted.__dict__
    assert noted == dataclasses.replace(view, status="turn 1 | your plan")
    assert view.status == "turn 1" and noted.cells == view.cells


def test_a_sides_view_with_its_plan_leaves_the_map_unmade(tmp_path: Path) -> None:
    """48th Panzer Korps 9.1: the Soviet player's view carries his secret plan after the
    status line; adding it makes none of the map's fields (a click's redraw reads the
    cells once, of the view it draws: issue 35)."""
    from pbem.selfplay import selfplay
    from pbem.session import Home

    selfplay("48th-panzer-korps", "first-day", 2, tmp_path, max_turns=1)
    games = [Home(tmp_path / f"home-{x}").game("selfplay-2") for x in "ab"]
    sov = next(g for g in games if g.side == "soviet")
    [note] = sov.private_notes()
    view = sov.view()
    base = sov.match._board()
    assert view.status == f"{base.status} | {note}"
    assert "cells" not in base.__dict__
    assert view == dataclasses.replace(base, status=view.status)
