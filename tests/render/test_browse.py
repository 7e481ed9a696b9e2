"""Panning and zooming the board with keys (fake keys, fixed-width console)."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import pytest
from render_maps import large_view, small_view
from rich.console import Console

from pbem.render.browse import BrowseState, browse, step, zoc_choices
from pbem.render.hexmap import Window
from pbem.render.narrate import KeyPoller


def keys(*pressed: str) -> Iterator[str]:
    yield from pressed


def test_pan_zoom_and_quit() -> None:
    view = large_view()
    console = Console(file=io.StringIO(), width=80, color_system=None)
    pressed = keys("right", "l", "down", "J", "+", "-", "-", "0", "q")
    end = browse(console, view, read_key=lambda: next(pressed))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert out.count("Big Map") == 9  # drawn once per key, quit included
    assert "arrows/hjkl pan" in out
    assert "showing columns 1-11" in out and "showing columns 4-14" in out
    assert "showing columns 7-17, rows 1-30" in out
    assert end.zoom == 0 and end.window.col0 == 1 and end.window.row0 == 1
    assert end.window.cols == 19  # zoom 0 fits 19 columns in 80


def test_step_clamps_at_the_map_edge_and_cycles_zoc() -> None:
    view = large_view()
    state = BrowseState(Window(1, 1, 11, 4), 1, None)
    after = step(view, state, "left", 80, None)
    assert after is not None and after.window == state.window
    far = step(view, BrowseState(Window(40, 27, 11, 4), 1, None), "L", 80, None)
    assert far is not None and far.window == Window(40, 27, 11, 4)
    assert step(view, state, "q", 80, None) is None
    small = small_view()
    assert zoc_choices(small) == [None, "soviet"]
    s1 = step(small, BrowseState(Window(1, 1, 10, 8), 1, None), "z", 80, None)
    assert s1 is not None and s1.show_zoc == "soviet"
    s2 = step(small, s1, "z", 80, None)
    assert s2 is not None and s2.show_zoc is None
    same = step(view, state, "x", 80, None)
    assert same == state


def test_key_poller_reads_arrows(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = os.openpty()
    try:
        with KeyPoller(slave) as poller:
            os.write(master, b"\x1b[C")
            assert poller.read() == "right"
            os.write(master, b"q")
            assert poller.read() == "q"
            os.write(master, b"\x1b")
            assert poller.read() == "escape"
    finally:
        os.close(master)
        os.close(slave)
    assert KeyPoller(0).read() == "q"  # not entered: no terminal, quit at once


def test_the_key_is_under_the_board_and_question_mark_toggles_it() -> None:
    # issue 33: a key under every board; off a terminal (and where the map loses nothing
    # to it) it is printed, and "?" (named in the help line) hides and shows it again
    view = large_view()
    console = Console(file=io.StringIO(), width=80, color_system=None)
    end = browse(console, view, read_key=iter(["?", "?", "q"]).__next__)
    frames = console.file.getvalue().split("Big Map")[1:]  # type: ignore[attr-defined]
    assert len(frames) == 3 and "? key" in frames[0]
    assert ["♣♣ woods" in f and "[] german" in f for f in frames] == [True, False, True]
    assert end.show_key
    small = small_view()
    console = Console(file=io.StringIO(), width=80, height=60, force_terminal=True,
                      color_system=None)
    assert browse(console, small, read_key=iter(["q"]).__next__, clear=False).show_key
    assert "~ river" in console.file.getvalue()  # type: ignore[attr-defined]


def test_on_a_small_terminal_the_key_waits_for_question_mark() -> None:
    # 24 lines leave the map 4 rows; the key would take one of them, so it is off until
    # asked for, and then takes its line from the map, which gets it back when hidden
    view = large_view()
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True,
                      color_system=None)
    end = browse(console, view, read_key=iter(["?", "?", "q"]).__next__, clear=False)
    frames = console.file.getvalue().split("Big Map")[1:]  # type: ignore[attr-defined]
    assert ["♣♣ woods" in f for f in frames] == [False, True, False]
    assert ["rows 1-4" in f for f in frames] == [True, False, True]
    assert "rows 1-3" in frames[1]
    assert not end.show_key and end.window.rows == 4
    shown = step(view, BrowseState(Window(1, 1, 11, 4), 1, None), "?", 80, 19, 1)
    assert shown == BrowseState(Window(1, 1, 11, 3), 1, None, True)
