"""Drawing any engine's board and telling its events, from :mod:`pbem.view` data only.

Game-agnostic by construction: nothing here imports an engine; everything is drawn from
the :class:`~pbem.view.BoardView` a state gives for one side, and told from the
:class:`~pbem.engine.Event` values its actions returned.

* :mod:`pbem.render.hexmap`: the map's geometry, glyphs and windows (no rich): what every
  drawing shares, windows for maps larger than the screen, three zoom levels.
* :mod:`pbem.render.board`: the board in the terminal (rich renderables), a legend and a
  status line.
* :mod:`pbem.render.svg`: the whole board as a standalone SVG picture.
* :mod:`pbem.render.browse`: pan and zoom a big map with keys.
* :mod:`pbem.render.narrate`: narration for one side and the paced replay driver.
* :mod:`pbem.render.theme`: the named styles all of them use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.render.board import (
        BoardRenderable,
        BoxesRenderable,
        Legend,
        StatusLine,
        board_screen,
    )
    from pbem.render.browse import browse
    from pbem.render.hexmap import Window, fit_window
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

#: where each name lives: a module loads when one of its names is first asked for, so a
#: replay page (the SVG map, the frames) loads no terminal drawing and none of rich's
#: modules, about 150 M instructions of White Death's 'audit --html' (issue 35)
_WHERE = {
    "BoardRenderable": "pbem.render.board",
    "BoxesRenderable": "pbem.render.board",
    "DecisionPrompt": "pbem.render.narrate",
    "KeyPoller": "pbem.render.narrate",
    "Legend": "pbem.render.board",
    "NarrationLine": "pbem.render.narrate",
    "ReplayResult": "pbem.render.narrate",
    "StatusLine": "pbem.render.board",
    "Window": "pbem.render.hexmap",
    "board_png": "pbem.render.svg",
    "board_screen": "pbem.render.board",
    "board_svg": "pbem.render.svg",
    "browse": "pbem.render.browse",
    "console_theme": "pbem.render.theme",
    "fit_window": "pbem.render.hexmap",
    "frames_from_records": "pbem.render.narrate",
    "narrate": "pbem.render.narrate",
    "replay": "pbem.render.narrate",
    "roll_event": "pbem.render.narrate",
    "svg_geometry": "pbem.render.svg",
    "terminal_keys": "pbem.render.narrate",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'pbem.render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


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
