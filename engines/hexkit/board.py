"""The map as a :class:`pbem.view.BoardView`, the generic picture the display draws.

Engines call :func:`board_view` from ``State._view`` with the pieces the viewing side
may see; everything static (cells, terrain colors from the TOML legend, hexside
features, roads and railroads as lines, off-map boxes) comes from the map, so every
hex game looks the same way without drawing code of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engines.hexkit.geometry import Hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from pbem.view import BoardView, Box, Cell, Edge, Layout, Line, Piece, TerrainStyle

#: colors for hexside features and networks a map's ``[map.styles]`` does not name
DEFAULT_STYLES: Mapping[str, str] = {
    "river": "#3060c0",
    "major_river": "#2050b0",
    "minor_river": "#5080d0",
    "stream": "#70a0e0",
    "creek": "#70a0e0",
    "lake": "#4070c0",
    "lake_edge": "#4070c0",
    "sea": "#2040a0",
    "slope": "#805020",
    "bridge": "#404040",
    "prohibited": "#c02020",
    "road": "#806040",
    "railroad": "#202020",
    "trail": "#a08060",
}


def network_lines(hexmap: HexMap, network: str) -> list[tuple[HexId, ...]]:
    """A network's connections joined into as few hex chains as a simple walk finds.

    Chains start at ends and junctions (lowest id first), then loops; each connection
    appears in exactly one chain, so a display draws every segment once.
    """
    links = sorted(hexmap.networks.get(network, frozenset()))
    adj: dict[HexId, list[HexId]] = {}
    for a, b in links:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj.values():
        v.sort()
    unused: set[Hexside] = set(links)
    chains: list[tuple[HexId, ...]] = []

    def take(a: HexId) -> HexId | None:
        for n in adj[a]:
            side = (a, n) if a < n else (n, a)
            if side in unused:
                unused.discard(side)
                return n
        return None

    order = sorted(adj, key=lambda h: (len(adj[h]) == 2, h))
    for start in order:
        while True:
            nxt = take(start)
            if nxt is None:
                break
            chain = [start, nxt]
            while len(adj[chain[-1]]) == 2:
                step = take(chain[-1])
                if step is None:
                    break
                chain.append(step)
            chains.append(tuple(chain))
    return chains


def board_view(
    hexmap: HexMap,
    pieces: Sequence[Piece] = (),
    *,
    side: str | None = None,
    title: str | None = None,
    status: str = "",
    highlights: Iterable[HexId] = (),
    overlays: Mapping[str, Iterable[HexId]] | None = None,
    labels: Mapping[HexId, str] | None = None,
) -> BoardView:
    """The view of ``hexmap`` with ``pieces`` (in stack order: top piece first per hex).

    Cell labels default to the first place name in the hex; ``labels`` overrides them.
    """
    key = None if labels is None else tuple(sorted(labels.items()))
    # the map's parts are made when first read (most views are only asked for their
    # pieces: the names of a listing's units, pbem.engine.State.counters)
    return BoardView.deferred(
        lambda: map_fields(hexmap, key),
        hexes=lambda: hexmap.ids,
        title=title if title is not None else hexmap.title,
        side=side,
        pieces=tuple(pieces),
        status=status,
        highlights=tuple(sorted(set(highlights))),
        overlays=tuple((k, tuple(sorted(set(v)))) for k, v in sorted((overlays or {}).items())),
    )


def map_fields(hexmap: HexMap, labels: tuple[tuple[HexId, str], ...] | None = None
               ) -> dict[str, object]:
    """The fields of a view of ``hexmap`` that depend on the map alone (those
    :meth:`pbem.view.BoardView.deferred` leaves to its ``fill``), ``labels`` the cells'
    labels that differ from the first place name, sorted by hex: for an engine that makes
    its deferred view itself, to add what its map file says beyond the kit's map (White
    Death's river courses)."""
    static = _static_parts(hexmap, labels)
    return {"layout": static.layout, "terrain": static.terrain, "cells": static.cells,
            "edges": static.edges, "lines": static.lines, "boxes": static.boxes}


@dataclass(frozen=True)
class _Static:
    """The parts of a view that depend on the map alone."""

    layout: Layout
    terrain: tuple[TerrainStyle, ...]
    cells: tuple[Cell, ...]
    edges: tuple[Edge, ...]
    lines: tuple[Line, ...]
    boxes: tuple[Box, ...]


def _static_parts(hexmap: HexMap, labels: tuple[tuple[HexId, str], ...] | None) -> _Static:
    """The map's cells, hexsides, lines and boxes as view records, made once per map and
    labels and shared by every view of it (the records are frozen): a replay page asks a
    view per action, and rebuilding every cell each time was most of its cost and kept a
    copy of the whole map per frame alive (issue 35 item 1)."""
    kept: dict[object, _Static] = hexmap.__dict__.setdefault("_view_parts", {})
    found = kept.get(labels)
    if found is not None:
        return found
    given = dict(labels) if labels is not None else None
    grid = hexmap.grid
    styles = {**DEFAULT_STYLES, **hexmap.styles}
    cells = []
    for h in hexmap.ids:
        col, row = grid.coords_of(h)
        if given is not None and h in given:
            label = given[h]
        else:
            names = hexmap.places_at(h)
            label = names[0] if names else ""
        cells.append(Cell(h, col, row, hexmap.terrain[h], label))
    made = _Static(
        layout=Layout("flat", grid.parity, grid.cols, grid.rows),
        terrain=tuple(TerrainStyle(t.name, t.color, t.glyph) for t in hexmap.legend),
        cells=tuple(cells),
        edges=tuple(Edge(a, b, feature, styles.get(feature, "#3060c0"))
                    for (a, b), feats in hexmap.hexsides.items() for feature in sorted(feats)),
        lines=tuple(Line(name, chain, styles.get(name, "#806040"))
                    for name in hexmap.networks for chain in network_lines(hexmap, name)),
        boxes=tuple(Box(b.name, b.title) for b in hexmap.boxes.values()))
    if len(kept) < 8:  # labels vary by engine, not by position: a few at most
        kept[labels] = made
    return made
