"""Synthetic board views for the render tests: no engine, only :mod:`pbem.view` data.

``small_view`` is a 10x8 flat-top map with everything the display must handle (terrain,
a river on hexsides, a road and a railroad, towns, a stack with hidden members, markers,
highlights, a ZOC overlay, an off-map box); ``large_view`` is 50x30 for windowing.
"""

from __future__ import annotations

from pbem.view import (
    BoardView,
    Box,
    Cell,
    Edge,
    Layout,
    Line,
    Piece,
    TerrainStyle,
)

TERRAIN = (
    TerrainStyle("clear", "#e8dfb0", "."),
    TerrainStyle("woods", "#3f7f3a", "♣"),
    TerrainStyle("swamp", "#7fa79a", ","),
    TerrainStyle("hills", "#b08850", "∩"),
    TerrainStyle("lake", "#5b8fd0", "≈"),
)
COLORS = {t.name: t.color for t in TERRAIN}
SOVIET = "#c8402c"
GERMAN = "#9aa6b0"


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def _terrain(col: int, row: int) -> str:
    if (col, row) in {(3, 2), (3, 3), (4, 2), (4, 3), (8, 6), (9, 6), (9, 7), (2, 7)}:
        return "woods"
    if (col, row) in {(6, 1), (7, 1), (7, 2)}:
        return "hills"
    if (col, row) in {(1, 5), (1, 6), (2, 6)}:
        return "swamp"
    if (col, row) == (10, 1):
        return "lake"
    return "clear"


#: a river along the seam between columns 5 and 6, from the top of 0503 to the map edge
RIVER = tuple(pair for r in range(3, 9)
              for pair in ((hex_id(5, r), hex_id(6, r - 1)), (hex_id(5, r), hex_id(6, r))))
ROAD = ("0104", "0204", "0304", "0404", "0504", "0604", "0704", "0804", "0904", "1004")
RAIL = ("0501", "0502", "0503", "0504", "0505", "0506", "0507", "0508")
PLACES = {"0204": "Kiev", "0504": "Orsha", "0907": "Minsk"}


def small_view(side: str | None = "german", **changes: object) -> BoardView:
    cells = tuple(Cell(hex_id(c, r), c, r, _terrain(c, r), PLACES.get(hex_id(c, r), ""))
                  for c in range(1, 11) for r in range(1, 9))
    pieces = (
        Piece("g1", "german", "6-4-8", "0303", name="11 PzD", markers=("out of supply",),
              color=GERMAN),
        Piece("g2", "german", "4-4-6", "0303", name="83 ID", color=GERMAN),
        Piece("g3", "german", "3-3-6", "0404", name="82 ID", markers=("routed",),
              color=GERMAN),
        Piece("s1", "soviet", "5-3-4", "0804", name="7 Rifle", color=SOVIET),
        Piece("s2", "soviet", "?", "0804", hidden=True, color=SOVIET),
        Piece("s3", "soviet", "?", "0804", hidden=True, color=SOVIET),
        Piece("s4", "soviet", "2-2-4", "0705", name="NKVD", markers=("deployed",),
              color=SOVIET),
        Piece("g9", "german", "8-6-8", "reserve", name="SS Wiking", color=GERMAN),
    )
    view = BoardView(
        title="Synthetic Front",
        side=side,
        layout=Layout("flat", "even", (1, 10), (1, 8)),
        terrain=TERRAIN,
        cells=cells,
        edges=tuple(Edge(a, b, "river") for a, b in RIVER),
        lines=(Line("road", ROAD, "#7a4a20"), Line("railroad", RAIL, "#303030")),
        pieces=pieces,
        boxes=(Box("reserve", "OKH reserve"),),
        status="Turn 3 · German movement · 4 MP left",
        highlights=("0403", "0404", "0405", "0503", "0504"),
        overlays=(("zoc:soviet", ("0703", "0704", "0705", "0803", "0805", "0903", "0904")),),
    )
    if changes:
        from dataclasses import replace

        view = replace(view, **changes)  # type: ignore[arg-type]
    return view


def large_view(orientation: str = "flat") -> BoardView:
    """50 x 30 = 1,500 hexes, terrain in bands so a window's position is recognizable."""
    names = ("clear", "woods", "swamp", "hills")
    cells = tuple(Cell(hex_id(c, r), c, r, names[(c // 10 + r // 10) % 4])
                  for c in range(1, 51) for r in range(1, 31))
    return BoardView(
        title="Big Map",
        side=None,
        layout=Layout(orientation, "even", (1, 50), (1, 30)),  # type: ignore[arg-type]
        terrain=TERRAIN,
        cells=cells,
        pieces=(Piece("x", "german", "1-1-1", "2515", color=GERMAN),),
    )
