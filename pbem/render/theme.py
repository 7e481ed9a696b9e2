"""The named styles every renderable in :mod:`pbem.render` uses.

Renderables never spell a color inline when the choice is the program's own (a
highlighted hex, a river the engine gave no color, the narration of a loss): they name a
style here, so a user or a test can swap the whole look with one :class:`rich.theme.Theme`
pushed on the console.  Colors that come from the game (terrain fills, counter colors,
road and river colors in the :class:`~pbem.view.BoardView`) are the engine's data and are
drawn as given.

Use :func:`console_theme` when building a console (``Console(theme=console_theme())``);
the renderables also work on a console without it, falling back to :data:`STYLES`.
"""

from __future__ import annotations

from rich import errors
from rich.console import Console
from rich.style import Style
from rich.theme import Theme

#: every style name the render package uses, with its default
STYLES: dict[str, str] = {
    # the board
    "board.grid": "#5a5a5a",
    "board.background": "",
    "board.hexid": "",
    "board.place": "bold",
    "board.highlight": "bold #ffe000 on #ffe000",
    "board.zoc": "bold #c00000",
    "board.marker": "bold #b00000 on #fff0c0",
    "board.stack": "bold",
    "board.hidden": "bold #ffffff on #505050",
    "board.ruler": "dim",
    "board.title": "bold",
    "board.status": "italic",
    # the legend
    "legend.title": "bold",
    "legend.name": "",
    # the replay narration, by event kind
    "narrate.move": "#6fa8dc",
    "narrate.attack": "bold #e06666",
    "narrate.barrage": "bold #ff9900",
    "narrate.roll": "#f1c232",
    "narrate.loss": "bold #cc0000",
    "narrate.retreat": "#e69138",
    "narrate.morale": "#c27ba0",
    "narrate.phase": "bold #93c47d",
    "narrate.info": "",
    "narrate.header": "bold",
    "narrate.prompt": "dim",
}


def console_theme() -> Theme:
    """The default theme; push it on a console or pass it to ``Console(theme=...)``."""
    return Theme(STYLES, inherit=True)


def style(console: Console, name: str) -> Style:
    """The style called ``name`` on this console, or the package default when not themed.

    Lets a renderable print correctly on any console (the CLI's, a test's) without
    requiring the caller to remember to install :func:`console_theme`.
    """
    try:
        return console.get_style(name)
    except errors.MissingStyle:
        return Style.parse(STYLES.get(name, ""))
