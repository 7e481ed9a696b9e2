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

from pbem.render.board import ZOOMS, Window, board_screen, fit_window
from pbem.render.theme import style as named_style
from pbem.view import BoardView

HELP = ("arrows/hjkl pan  HJKL pan far  +/- zoom  z zones of control  "
        "0 top-left  q quit")

#: key -> (columns, rows) to pan, as fractions of the window (far = a whole window)
PAN = {
    "left": (-1, 0), "h": (-1, 0), "right": (1, 0), "l": (1, 0),
    "up": (0, -1), "k": (0, -1), "down": (0, 1), "j": (0, 1),
    "H": (-3, 0), "L": (3, 0), "K": (0, -3), "J": (0, 3),
}
QUIT = ("q", "Q", "escape", "\x03", "\x04")


@dataclass(frozen=True)
class BrowseState:
    """Where the viewer is looking: the window, the zoom, the ZOC overlay shown."""

    window: Window
    zoom: int
    show_zoc: str | None


def zoc_choices(view: BoardView) -> list[str | None]:
    """The ZOC overlays ``z`` cycles through: none, each side's, in name order."""
    sides = sorted(key.split(":", 1)[1] for key, _ in view.overlays if key.startswith("zoc:"))
    return [None, *sides]


def step(view: BoardView, state: BrowseState, key: str, width: int,
         height: int | None) -> BrowseState | None:
    """The state after one key; ``None`` when the key quits."""
    if key in QUIT:
        return None
    window, zoom, zoc = state.window, state.zoom, state.show_zoc
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
    elif key == "0":
        window = Window(view.layout.cols[0], view.layout.rows[0], window.cols, window.rows)
    return BrowseState(window, zoom, zoc)


def browse(console: Console, view: BoardView, *, read_key: Callable[[], str],
           window: Window | None = None, zoom: int = 1, show_zoc: str | None = None,
           clear: bool | None = None) -> BrowseState:
    """Show the board and follow pan/zoom keys until ``q``; returns where it ended.

    The window is fitted to the console (its height too, on a terminal) and redrawn
    after every key; the legend stays off to leave the screen to the map.
    """
    if clear is None:
        clear = console.is_terminal
    height = max(8, console.height - 5) if console.is_terminal else None
    state = BrowseState(window or fit_window(view, console.width, height, zoom=zoom), zoom,
                        show_zoc)
    while True:
        if clear:
            console.clear()
        console.print(board_screen(view, state.window, state.zoom, state.show_zoc,
                                   legend=False))
        console.print(Text(HELP, named_style(console, "narrate.prompt")))
        following = step(view, state, read_key(), console.width, height)
        if following is None:
            return state
        state = following
