"""The BoardView of a For the Motherland! position (no hidden information: 6.6)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from pbem.memo import Memo

if TYPE_CHECKING:
    from engines.motherland.data import GameData
    from engines.motherland.state import MotherlandState
    from pbem.view import BoardView, Box, Cell, Edge, Layout, Line, Piece, TerrainStyle

_SIDE_COLORS = {"axis": "#a0a8b0", "soviet": "#d06050"}
_EDGE_COLORS = {"minor_river": "#5080d0", "major_river": "#2040b0", "sea": "#3060c0",
                "lake": "#3060c0", "frozen_access": "#d02020", "rail_bridge": "#404040",
                "strait": "#2040b0", "out_of_play": "#806040"}
_BOXES = {"track": "Turn Record Track", "elim": "Eliminated", "removed": "Out of play",
          "conv": "Conversion Holding Box", "osm": "OSM Waiting Box",
          "evac": "Evacuated Factories Box", "assets": "Eliminated Economic Assets",
          "pool": "Reinforcements", "baku": "Baku"}


@dataclass(frozen=True)
class _Static:
    """The parts of a view that depend on the data alone."""

    layout: Layout
    terrain: tuple[TerrainStyle, ...]
    cells: tuple[Cell, ...]
    edges: tuple[Edge, ...]
    lines: tuple[Line, ...]
    boxes: tuple[Box, ...]


def _static(data: GameData) -> _Static:
    """The map's cells, hexsides, railroads and boxes as view records, made once per data
    set and shared by every view (the records are frozen): a replay page or the browser
    board asks a view per action, and remaking the 951 cells was nine tenths of one
    (3.4 ms; issue 35)."""
    kept: _Static | None = data.__dict__.get("_view_static")
    if kept is not None:
        return kept
    from pbem.view import Box, Cell, Edge, Layout, Line, TerrainStyle

    hm = data.hexmap
    grid = hm.grid
    names = data.place_names
    made = _Static(
        layout=Layout("flat", grid.parity, grid.cols, grid.rows),
        terrain=tuple(TerrainStyle(t.name, t.color, t.glyph) for t in hm.legend),
        cells=tuple(Cell(h, *grid.coords_of(h), hm.terrain[h], names.get(h, ""))
                    for h in hm.ids),
        edges=tuple(Edge(a, b, f, _EDGE_COLORS.get(f, "#3060c0"))
                    for (a, b), feats in sorted(hm.hexsides.items()) for f in sorted(feats)),
        lines=tuple(Line("railroad", (a, b), "#404040")
                    for a, b in sorted(hm.networks.get("railroad", frozenset()))),
        boxes=tuple(Box(k, v) for k, v in sorted(_BOXES.items())))
    data.__dict__["_view_static"] = made
    return made


def _map_fields(data: GameData) -> dict[str, object]:
    static = _static(data)
    return {"layout": static.layout, "terrain": static.terrain, "cells": static.cells,
            "edges": static.edges, "lines": static.lines, "boxes": static.boxes}


def _piece(state: MotherlandState, uid: str, loc: str) -> Piece:
    from pbem.view import Piece

    c, u = state.c(uid), state.u(uid)
    markers = []
    if u.supply:
        markers.append(f"{u.supply} of supply")
    if u.chit:
        a, d = state.factors(uid)[:2]
        markers.append(f"chit {u.chit} ({a}-{d})")
    return Piece(uid, c.side, state.printed(uid), loc, state.label(uid), tuple(markers),
                 False, _SIDE_COLORS[c.side])


def _kept(data: GameData) -> Memo[tuple[str, str, int, str, str], Piece]:
    got: Memo[tuple[str, str, int, str, str], Piece] | None = \
        data.__dict__.get("_view_pieces")
    if got is None:
        got = data.__dict__["_view_pieces"] = Memo(8192)
    return got


def build_view(state: MotherlandState, side: str | None) -> BoardView:
    """The board, each counter kept in the data set under all it reads (its id, where it
    is, its steps, chit and supply: its side, type and factors by steps are the counter
    mix's, a chit's factors the chits'): a click's redraw asks the view of each new
    position, and making Operation Uranus' 116 counters again was four fifths of it
    (679 -> 141 us a view along a random game; issue 35)."""
    from pbem.view import BoardView, Piece

    kept = _kept(state.data)
    pieces = []
    for uid, u in sorted(state.pos.units.items()):
        loc = u.hex or u.box
        if loc == "out":
            continue
        pieces.append(kept.get((uid, loc, u.steps, u.chit, u.supply),
                               partial(_piece, state, uid, loc)))
    for p, h in sorted(state.pos.partisans.items()):
        if h:
            pieces.append(Piece(f"partisan:{p}", "soviet", "P", h, p, (), False, "#60a060"))
    if state.pos.stalin == "moscow":
        pieces.append(Piece("stalin", "soviet", "Stalin", "2113", "Stalin", (), False,
                            "#c02020"))
    control = state.pos.control
    overlays = tuple((f"control:{s}", tuple(sorted(h for h, v in control.items() if v == s)))
                     for s in ("axis", "soviet"))
    # the map's parts are made when first read: 'legal' and 'act' only name the view's
    # units (pbem.engine.State.counters; issue 35 item 3)
    data = state.data
    return BoardView.deferred(
        partial(_map_fields, data), hexes=lambda: data.hexmap.ids,
        title=f"For the Motherland! - {state.sc.title}", side=side, pieces=tuple(pieces),
        status=state.status(), highlights=(), overlays=overlays)
