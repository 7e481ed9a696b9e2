"""Looking around a map larger than the screen: pan and zoom the board with keys.

``pbem show`` on a terminal calls :func:`browse`; the keys come from an injectable
``read_key`` (a :class:`~pbem.render.narrate.KeyPoller` in a terminal, a list in a
test), so the loop is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from pbem.render.board import Legend, board_screen
from pbem.render.hexmap import ZOOMS, Window, fit_window
from pbem.render.theme import style as named_style
from pbem.view import BoardView

HELP = ("arrows/hjkl pan  HJKL pan far  +/- zoom  z zones of control  "
        "? key  0 top-left  q quit")

#: key -> (columns, rows) to pan, as fractions of the window (far = a whole window)
PAN = {
    "left": (-1, 0), "h": (-1, 0), "right": (1, 0), "l": (1, 0),
    "up": (0, -1), "k": (0, -1), "down": (0, 1), "j": (0, 1),
    "H": (-3, 0), "L": (3, 0), "K": (0, -3), "J": (0, 3),
}
QUIT = ("q", "Q", "escape", "\x03", "\x04")
KEY = "?"


@dataclass(frozen=True)
class BrowseState:
    """Where the viewer is looking: the window, the zoom, the ZOC overlay shown, and
    whether the key to the map is printed under it (issue 33)."""

    window: Window
    zoom: int
    show_zoc: str | None
    show_key: bool = False


def map_height(height: int | None, key_lines: int, show_key: bool) -> int | None:
    """The lines left to the map on a screen of ``height`` when the key takes
    ``key_lines`` of them (``None``: not a terminal, every line fits)."""
    if height is None or not show_key:
        return height
    return max(8, height - key_lines)


def zoc_choices(view: BoardView) -> list[str | None]:
    """The ZOC overlays ``z`` cycles through: none, each side's, in name order."""
    sides = sorted(key.split(":", 1)[1] for key, _ in view.overlays if key.startswith("zoc:"))
    return [None, *sides]


def step(view: BoardView, state: BrowseState, key: str, width: int,
         height: int | None, key_lines: int = 0) -> BrowseState | None:
    """The state after one key; ``None`` when the key quits.  ``height``: the screen's
    lines for the map and the key, ``key_lines`` of them the key's when shown."""
    if key in QUIT:
        return None
    window, zoom, zoc, shown = state.window, state.zoom, state.show_zoc, state.show_key
    screen, height = height, map_height(height, key_lines, shown)
    if key in PAN:
        dc, dr = PAN[key]
        # one key moves a third of the window, so the old view stays in sight
        window = window.pan(dc * max(1, window.cols // 3), dr * max(1, window.rows // 3),
                            view.layout)
    elif key in ("+", "=", "-", "_"):
        zoom = min(ZOOMS[-1], zoom + 1) if key in "+=" else max(ZOOMS[0], zoom - 1)
        middle = (window.col0 + window.cols // 2, window.row0 + window.rows // 2)
        fitted = fit_window(view, width, height, zoom=zoom)
        window = Window(middle[0] - fitted.cols // 2, middle[1] - fitted.rows // 2,
                        fitted.cols, fitted.rows).clamp(view.layout)
    elif key == "z":
        choices = zoc_choices(view)
        zoc = choices[(choices.index(zoc) + 1) % len(choices)] if zoc in choices else None
    elif key == KEY:
        shown = not shown
        if screen is not None:
            # the key's lines come from the map's or go back to it: the same corner, as
            # many rows as now fit
            fitted = fit_window(view, width, map_height(screen, key_lines, shown), zoom=zoom)
            window = Window(window.col0, window.row0, fitted.cols, fitted.rows).clamp(
                view.layout)
    elif key == "0":
        window = Window(view.layout.cols[0], view.layout.rows[0], window.cols, window.rows)
    return BrowseState(window, zoom, zoc, shown)


def browse(console: Console, view: BoardView, *, read_key: Callable[[], str],
           window: Window | None = None, zoom: int = 1, show_zoc: str | None = None,
           clear: bool | None = None) -> BrowseState:
    """Show the board and follow pan/zoom keys until ``q``; returns where it ended.

    The window is fitted to the console (its height too, on a terminal) and redrawn
    after every key.  The key to the map is printed under it (issue 33: a key under every
    board) unless that would take lines from the map on a terminal too small for both;
    ``?`` shows or hides it either way.
    """
    if clear is None:
        clear = console.is_terminal
    height = max(8, console.height - 5) if console.is_terminal else None
    # the most lines the key takes, with whichever ZOC overlay ``z`` shows, so showing
    # another overlay never pushes the map off the screen
    key_lines = max(len(console.render_lines(Legend(view, zoc), console.options))
                    for zoc in zoc_choices(view))
    fitted = fit_window(view, console.width, height, zoom=zoom)
    show_key = fitted == fit_window(view, console.width, map_height(height, key_lines, True),
                                    zoom=zoom)
    if window is None:
        window = fit_window(view, console.width, map_height(height, key_lines, show_key),
                            zoom=zoom)
    state = BrowseState(window, zoom, show_zoc, show_key)
    while True:
        if clear:
            console.clear()
        console.print(board_screen(view, state.window, state.zoom, state.show_zoc,
                                   legend=state.show_key))
        console.print(Text(HELP, named_style(console, "narrate.prompt")))
        following = step(view, state, read_key(), console.width, height, key_lines)
        if following is None:
            return state
        state = following
