"""Drawing any engine's board and telling its events, from :mod:`pbem.view` data only.

Game-agnostic by construction: nothing here imports an engine; everything is drawn from
the :class:`~pbem.view.BoardView` a state gives for one side, and told from the
:class:`~pbem.engine.Event` values its actions returned.

* :mod:`pbem.render.board`: the board in the terminal (rich renderables), with windows
  for maps larger than the screen, three zoom levels, a legend and a status line.
* :mod:`pbem.render.svg`: the whole board as a standalone SVG picture.
* :mod:`pbem.render.browse`: pan and zoom a big map with keys.
* :mod:`pbem.render.narrate`: narration for one side and the paced replay driver.
* :mod:`pbem.render.theme`: the named styles all of them use.
"""

from pbem.render.board import (
    BoardRenderable,
    BoxesRenderable,
    Legend,
    StatusLine,
    Window,
    board_screen,
    fit_window,
)
from pbem.render.browse import browse
from pbem.render.narrate import (
    DecisionPrompt,
    KeyPoller,
    NarrationLine,
    ReplayResult,
    frames_from_records,
    narrate,
    replay,
    roll_event,
    terminal_keys,
)
from pbem.render.svg import board_png, board_svg, svg_geometry
from pbem.render.theme import console_theme

__all__ = [
    "BoardRenderable",
    "BoxesRenderable",
    "DecisionPrompt",
    "KeyPoller",
    "Legend",
    "NarrationLine",
    "ReplayResult",
    "StatusLine",
    "Window",
    "board_png",
    "board_screen",
    "board_svg",
    "browse",
    "console_theme",
    "fit_window",
    "frames_from_records",
    "narrate",
    "replay",
    "roll_event",
    "svg_geometry",
    "terminal_keys",
]
