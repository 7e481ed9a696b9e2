"""The board as a picture: a standalone SVG of the whole map, for sharing or printing.

Drawn only from the :class:`~pbem.view.BoardView` (so a side's picture shows what that
side may see, no more): hex polygons filled with the terrain color, hexside features as
strokes on the shared edge, roads and railroads as lines through hex centers, place
names, counters in their side's color with markers and stack depth, off-map boxes beside
the map, and a legend.

The output is deterministic: the same view gives the same bytes (coordinates rounded to
one decimal, elements in the view's order), so a picture can be compared in a test or
attached twice without churning.

:func:`board_png` rasterizes the same picture when the optional ``resvg-py`` is
installed: a self-contained 3 MB wheel (resvg, in Rust) with no system library, where
``cairosvg`` needs libcairo (often missing on Windows and macOS) and a headless browser
is far too heavy for a game tool.  Without it, the SVG opens in every browser.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from pbem.errors import UsageError
from pbem.memo import Memo
from pbem.render import colors, words
from pbem.render.hexmap import (
    Window,
    abbreviate_marker,
    edge_glyph,
    line_glyph,
    stacks,
    top_piece,
    zoc_hexes,
)
from pbem.text import safe
from pbem.view import BoardView, Cell, Piece

SQRT3 = math.sqrt(3)
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BACKGROUND = "#f4f1e8"
INK = "#202020"
GRID = "#6b6b6b"
HIGHLIGHT = "#ffd800"
ZOC = "#c00000"
MARKER = "#b00000"


#: each coordinate's text once made: a map's hexes share their corners (each with two
#: others), a column its x and a row its y, and formatting a float again for each of a
#: White Death map's 29,000 numbers was a fifth of its drawing (issue 35); bounded, as a
#: long-running board draws on
_NUMBERS: dict[float, str] = {}


def _n(value: float) -> str:
    """A coordinate as text: one decimal, always, so output is byte-stable."""
    text = _NUMBERS.get(value)
    if text is None:
        text = f"{value:.1f}"
        if text == "-0.0":
            text = "0.0"
        if len(_NUMBERS) >= 65536:
            _NUMBERS.clear()
        _NUMBERS[value] = text  # -0.0 is 0.0 as a key, and both are written "0.0"
    return text


def escape(data: str) -> str:
    """``data`` with ``&``, ``<`` and ``>`` as entities: :func:`xml.sax.saxutils.escape`'s
    text, written here because importing xml.sax.saxutils imports urllib.request, and with
    it http.client, ssl and email, 60-odd modules no drawing uses: a tenth of what a
    replay page cost beyond its audit (issue 35)."""
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    """``data`` escaped and quoted as an attribute value, as
    :func:`xml.sax.saxutils.quoteattr` writes it (see :func:`escape` for why not that)."""
    data = escape(data).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"' + data.replace('"', "&quot;") + '"'


#: attribute values as written: a map's drawing writes the same few (its colours, fonts,
#: classes) 9,000 times for White Death's; bounded, as a long-running board draws on
_ATTRS: Memo[str, str] = Memo(4096)


def _attr(value: str) -> str:
    got = _ATTRS.find(value)
    return _ATTRS.keep(value, quoteattr(value)) if got is None else got


#: each corner's direction from a hex's center (cosine, sine), by the first corner's
#: angle (0 flat-topped, 30 pointy): the same numbers the drawing computed for each of a
#: map's 1,800 hexes again (issue 35)
_CORNERS = {start: tuple((math.cos(math.radians(start + 60 * k)),
                          math.sin(math.radians(start + 60 * k))) for k in range(6))
            for start in (0, 30)}


@dataclass(frozen=True)
class SvgGeometry:
    """Where each hex of a view lands in the picture: centers, corners, overall size.

    Public so tests (and anything overlaying the picture) can find a hex's pixel.
    """

    view: BoardView
    scale: float
    #: top-left of the map area inside the picture
    left: float
    top: float

    @property
    def flat(self) -> bool:
        return self.view.layout.orientation != "pointy"

    @cached_property
    def _grid(self) -> tuple[bool, int, int, bool]:
        """The layout's orientation, first column and row, and whether even ones are
        shifted: read once, not for each of a map's 5,700 centers (issue 35)."""
        layout = self.view.layout
        return (layout.orientation != "pointy", layout.cols[0], layout.rows[0],
                layout.offset == "even")

    def center(self, cell: Cell) -> tuple[float, float]:
        r = self.scale
        flat, c0, r0, even = self._grid
        half = 0.5 if ((cell.col if flat else cell.row) % 2 == 0) == even else 0.0
        if flat:
            h = SQRT3 * r
            return (self.left + r + (cell.col - c0) * 1.5 * r,
                    self.top + h / 2 + (cell.row - r0 + half) * h)
        w = SQRT3 * r
        return (self.left + w / 2 + (cell.col - c0 + half) * w,
                self.top + r + (cell.row - r0) * 1.5 * r)

    def corners(self, cell: Cell, shrink: float = 1.0) -> list[tuple[float, float]]:
        return self.corners_at(self.center(cell), shrink)

    def corners_at(self, center: tuple[float, float], shrink: float = 1.0
                   ) -> list[tuple[float, float]]:
        """:meth:`corners` of the hex whose :meth:`center` is ``center``."""
        cx, cy = center
        r = self.scale * shrink
        return [(cx + r * c, cy + r * s) for c, s in _CORNERS[0 if self._grid[0] else 30]]

    def map_size(self) -> tuple[float, float]:
        whole = Window.whole(self.view.layout)
        r = self.scale
        if self.flat:
            return (2 * r + (whole.cols - 1) * 1.5 * r,
                    SQRT3 * r * (whole.rows + (0.5 if whole.cols > 1 else 0)))
        return (SQRT3 * r * (whole.cols + (0.5 if whole.rows > 1 else 0)),
                2 * r + (whole.rows - 1) * 1.5 * r)

    def shared_edge(self, a: Cell, b: Cell) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of ``a`` on the side facing ``b``: the edge nearest b's center."""
        bx, by = self.center(b)
        pts = self.corners(a)
        best = min(range(6), key=lambda k: (
            ((pts[k][0] + pts[(k + 1) % 6][0]) / 2 - bx) ** 2
            + ((pts[k][1] + pts[(k + 1) % 6][1]) / 2 - by) ** 2))
        return pts[best], pts[(best + 1) % 6]


def svg_geometry(view: BoardView, *, scale: int = 36) -> SvgGeometry:
    """The placement :func:`board_svg` uses for ``view`` at ``scale``."""
    margin = scale * 0.5
    return SvgGeometry(view, float(scale), margin, margin + scale * 1.6)


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


def _text(x: float, y: float, text: str, *, size: float, fill: str = INK,
          anchor: str = "middle", weight: str = "normal", halo: str | None = None,
          cls: str = "") -> str:
    extra = ""
    if halo:
        extra = (f' stroke={_attr(halo)} stroke-width="{_n(size * 0.28)}" '
                 'stroke-linejoin="round" paint-order="stroke"')
    klass = f" class={_attr(cls)}" if cls else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill={_attr(fill)} '
            f'text-anchor="{anchor}" font-weight="{weight}"{extra}{klass}>'
            f"{escape(safe(text))}</text>")


def _counter(x: float, y: float, size: float, piece: Piece, depth: int,
             cls: str = "counter") -> list[str]:
    """One counter centered at (x, y), with up to three edges showing the stack beneath."""
    out: list[str] = []
    half = size / 2
    step = size * 0.09
    fill = piece.color if not piece.hidden else colors.mix(piece.color, "#404040", 0.5)
    for k in range(min(depth, 3), 0, -1):
        out.append(f'<rect x="{_n(x - half + k * step)}" y="{_n(y - half - k * step)}" '
                   f'width="{_n(size)}" height="{_n(size)}" rx="{_n(size * 0.08)}" '
                   f'fill={_attr(colors.mix(fill, "#000000", 0.25))} stroke="#000000" '
                   'stroke-width="0.6"/>')
    out.append(f'<rect x="{_n(x - half)}" y="{_n(y - half)}" width="{_n(size)}" '
               f'height="{_n(size)}" rx="{_n(size * 0.08)}" fill={_attr(fill)} '
               f'stroke="#000000" stroke-width="0.9" class={_attr(cls)} '
               f'data-piece={_attr(piece.id)} data-side={_attr(piece.side)}/>')
    ink = colors.contrast(fill)
    label = "?" if piece.hidden else (piece.label or "?")
    font = size * (0.30 if len(label) <= 5 else 0.24)
    if piece.name and not piece.hidden:
        out.append(_text(x, y - size * 0.16, piece.name[:9], size=size * 0.21, fill=ink))
        out.append(_text(x, y + size * 0.16, label, size=font, fill=ink, weight="bold"))
    else:
        out.append(_text(x, y + font * 0.35, label, size=font * 1.2, fill=ink, weight="bold"))
    if piece.markers and not piece.hidden:
        text = ",".join(abbreviate_marker(m) for m in piece.markers)
        out.append(f'<rect x="{_n(x - half)}" y="{_n(y + half * 0.48)}" width="{_n(size)}" '
                   f'height="{_n(half * 0.52)}" fill="{MARKER}" class="marker"/>')
        out.append(_text(x, y + half * 0.9, text, size=size * 0.19, fill="#ffffff",
                         weight="bold"))
    return out


def box_rects(view: BoardView, *, scale: int = 36, box_slots: int = 3
              ) -> dict[str, tuple[float, float, float, float]]:
    """Each off-map box's (x, y, width, height) in :func:`board_svg`'s picture.

    Boxes stand beside the map, one row of counters each, wide enough for ``box_slots``
    counters or the most any box holds now (the browser board sizes them for a whole game).
    """
    g = svg_geometry(view, scale=scale)
    r = g.scale
    pile = stacks(view)
    box_x = g.left + g.map_size()[0] + r * 0.8
    counter = r * 0.95
    box_w = max((counter * 1.15 * max(box_slots, len(pile.get(b.name, []))) + r * 0.6
                 for b in view.boxes), default=0.0)
    box_h = counter + r * 1.1
    return {box.name: (box_x, g.top + i * (box_h + r * 0.4), box_w, box_h)
            for i, box in enumerate(view.boxes)}


def place_label(cx: float, cy: float, label: str, r: float,
                occupied: list[tuple[float, float]]) -> tuple[float, float, bool]:
    """Where a place name goes so that it crosses no counter: (baseline, size, faded).

    Below its hex's counter first; else above it; else smaller; else faded (the name is
    still there, the counters stay readable).  The browser board does the same with the
    real text sizes; here the width is estimated (bold sans: about 0.62 em a letter).
    """
    half = r * 0.5

    def clear(y: float, size: float) -> bool:
        w = len(label) * size * 0.62 / 2
        top, bottom = y - size * 0.8, y + size * 0.2
        for ox, oy in occupied:
            oy += r * 0.05
            if (cx - w < ox + half + r * 0.25 and cx + w > ox - half
                    and top < oy + half and bottom > oy - half - r * 0.25):
                return False
        return True

    below, above, size = cy + r * 0.78, cy - r * 0.64, r * 0.32
    for y, k in ((below, 1.0), (above, 1.0), (below, 0.75), (above, 0.75), (below, 0.6),
                 (above, 0.6)):
        if clear(y, size * k):
            return y, size * k, False
    return below, size * 0.75, True


def board_svg(view: BoardView, *, scale: int = 36, show_zoc: str | None = None,
              legend: bool = True, counters: bool = True, box_slots: int = 3) -> str:
    """The whole map of ``view`` as a standalone SVG document (UTF-8 text).

    ``scale`` is the hex radius in pixels (36 makes a 10x8 map about 560 px wide).
    ``show_zoc`` marks the zones of control of a side, as on the terminal board.
    ``counters=False`` draws the map and boxes only, for the browser board, which places
    the counters itself frame by frame (boxes sized for ``box_slots`` counters).
    """
    g = svg_geometry(view, scale=scale)
    r = g.scale
    map_w, map_h = g.map_size()
    cells = sorted(view.cells, key=lambda c: (c.col, c.row))
    by_id = {c.hex: c for c in view.cells}
    # each hex's center once: the hexes, their ids, the lines and the place names each
    # asked it again (issue 35)
    at = {c.hex: g.center(c) for c in view.cells}
    terrain = {t.name: t for t in view.terrain}
    pile = stacks(view) if counters else {}
    zoc = zoc_hexes(view, show_zoc)

    # off-map boxes beside the map, one row of counters each
    rects = box_rects(replace(view, pieces=view.pieces if counters else ()), scale=scale,
                      box_slots=box_slots)
    box_x = g.left + map_w + r * 0.8
    counter = r * 0.95
    box_w = max((w for _, _, w, _ in rects.values()), default=0.0)
    box_h = counter + r * 1.1
    width = (box_x + box_w + r * 0.5) if view.boxes else g.left * 2 + map_w
    legend_entries = _legend(view, zoc) if legend else []
    legend_h = r * 0.9 * ((len(legend_entries) + 3) // 4) + r * 0.4 if legend_entries else 0
    height = max(g.top + map_h, g.top + len(view.boxes) * (box_h + r * 0.4)) + r * 0.5
    status_y = height + r * 0.2
    height = status_y + legend_h + r * 0.2
    # whole pixels, so every renderer makes the picture the same size
    width, height = float(math.ceil(width)), float(math.ceil(height))

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0.0 0.0 {_n(width)} {_n(height)}" font-family={_attr(FONT)}>',
        f"<title>{escape(safe(view.title))}</title>",
        f'<rect x="0.0" y="0.0" width="{_n(width)}" height="{_n(height)}" fill="{BACKGROUND}"/>',
        _text(g.left, r * 0.75, view.title, size=r * 0.6, anchor="start", weight="bold",
              cls="title"),
        _text(g.left, r * 1.35, f"{view.status}  [{view.side or 'referee'}]".strip(),
              size=r * 0.38, anchor="start", cls="status"),
    ]

    out.append('<g id="hexes">')
    grid_width = _n(r * 0.03)
    for cell in cells:
        fill = terrain[cell.terrain].color if cell.terrain in terrain else "#d0d0d0"
        out.append(f"<polygon points={_attr(_points(g.corners_at(at[cell.hex])))} "
                   f'fill={_attr(fill)} stroke="{GRID}" stroke-width="{grid_width}" '
                   f"data-hex={_attr(cell.hex)} data-terrain={_attr(cell.terrain)}/>")
    out.append("</g>")

    out.append('<g id="highlights">')
    for hex_id in view.highlights:
        lit = by_id.get(hex_id)
        if lit is not None:
            out.append(f"<polygon points={_attr(_points(g.corners(lit, 0.9)))} "
                       f'fill="{HIGHLIGHT}" fill-opacity="0.35" stroke="{HIGHLIGHT}" '
                       f'stroke-width="{_n(r * 0.1)}" data-hex={_attr(hex_id)}/>')
    out.append("</g>")

    out.append('<g id="hex-ids">')
    # each terrain's id colour mixed once, not for each hex (issue 35)
    id_inks: dict[str, str] = {}
    for cell in cells:
        fill = terrain[cell.terrain].color if cell.terrain in terrain else "#d0d0d0"
        ink = id_inks.get(fill)
        if ink is None:
            ink = id_inks[fill] = colors.mix(fill, colors.contrast(fill), 0.55)
        cx, cy = at[cell.hex]
        out.append(_text(cx, cy - r * 0.55, cell.hex, size=r * 0.26, fill=ink))
    out.append("</g>")

    out.append('<g id="lines" fill="none" stroke-linecap="round" stroke-linejoin="round">')
    for line in sorted(view.lines, key=lambda ln: line_glyph(ln.feature) != "~"):
        pts = [at[h] for h in line.hexes if h in at]
        if len(pts) < 2:
            continue
        kind = line_glyph(line.feature)  # the same reading as the terminal board's
        attrs = f"points={_attr(_points(pts))} data-feature={_attr(line.feature)}"
        if kind == "#":
            out.append(f'<polyline {attrs} stroke={_attr(line.color)} '
                       f'stroke-width="{_n(r * 0.08)}"/>')
            out.append(f'<polyline points={_attr(_points(pts))} stroke={_attr(line.color)} '
                       f'stroke-width="{_n(r * 0.26)}" stroke-dasharray="{_n(r * 0.05)} '
                       f'{_n(r * 0.2)}" stroke-linecap="butt"/>')
        elif kind == "~":
            out.append(f'<polyline {attrs} stroke={_attr(line.color)} '
                       f'stroke-width="{_n(r * 0.22)}" stroke-opacity="0.9"/>')
        elif kind == ":":
            out.append(f'<polyline {attrs} stroke={_attr(line.color)} '
                       f'stroke-width="{_n(r * 0.08)}" stroke-dasharray="{_n(r * 0.2)} '
                       f'{_n(r * 0.12)}"/>')
        else:
            out.append(f'<polyline {attrs} stroke={_attr(line.color)} '
                       f'stroke-width="{_n(r * 0.13)}"/>')
    out.append("</g>")

    out.append('<g id="edges" stroke-linecap="round">')
    # water under everything else on the same hexside; bridges across, not along
    for edge in sorted(view.edges, key=lambda e: ("bridge" in e.feature.lower(),
                                                 edge_glyph(e.feature) != "~")):
        a, b = by_id.get(edge.a), by_id.get(edge.b)
        if a is None or b is None:
            continue
        (x1, y1), (x2, y2) = g.shared_edge(a, b)
        if "bridge" in edge.feature.lower():
            (ax, ay), (bx, by) = g.center(a), g.center(b)
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            dx, dy = (bx - ax) / 2 * 0.45, (by - ay) / 2 * 0.45
            x1, y1, x2, y2 = mx - dx, my - dy, mx + dx, my + dy
            width_ = r * 0.16
        else:
            width_ = r * (0.2 if edge_glyph(edge.feature) == "~" else 0.14)
        out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                   f'stroke={_attr(edge.color)} stroke-width="{_n(width_)}" '
                   f"data-edge={_attr(edge.a + '-' + edge.b)} "
                   f"data-feature={_attr(edge.feature)}/>")
    out.append("</g>")

    if zoc:
        out.append('<g id="zoc">')
        for hex_id in sorted(zoc):
            zone = by_id.get(hex_id)
            if zone is None:
                continue
            cx, cy = g.center(zone)
            out.append(_text(cx + r * 0.6, cy + r * 0.12, "Z", size=r * 0.32, fill=ZOC,
                             weight="bold", cls="zoc"))
        out.append("</g>")

    out.append('<g id="places">')
    occupied = [at[h] for h in pile if h in at]
    for cell in cells:
        if cell.label:
            cx, cy = at[cell.hex]
            y, size, faded = place_label(cx, cy, cell.label, r, occupied)
            text = _text(cx, y, cell.label, size=size, weight="bold", halo="#ffffff",
                         cls="place")
            out.append(text.replace("<text ", '<text opacity="0.35" ', 1) if faded else text)
    out.append("</g>")

    out.append('<g id="counters">')
    for cell in cells if counters else ():
        stack = pile.get(cell.hex)
        if not stack:
            continue
        cx, cy = g.center(cell)
        out.extend(_counter(cx, cy + r * 0.05, r * 0.92, top_piece(stack), len(stack) - 1))
        if len(stack) > 1:
            out.append(_text(cx + r * 0.62, cy - r * 0.3, f"+{len(stack) - 1}",
                             size=r * 0.28, weight="bold", halo="#ffffff", cls="stack"))
    out.append("</g>")

    if view.boxes:
        out.append('<g id="boxes">')
        for i, box in enumerate(view.boxes):
            y = g.top + i * (box_h + r * 0.4)
            out.append(f'<rect x="{_n(box_x)}" y="{_n(y)}" width="{_n(box_w)}" '
                       f'height="{_n(box_h)}" fill="#ffffff" stroke="{INK}" '
                       f'stroke-width="1.0" data-box={_attr(box.name)}/>')
            out.append(_text(box_x + r * 0.3, y + r * 0.42, box.title, size=r * 0.3,
                             anchor="start", weight="bold"))
            for k, piece in enumerate(pile.get(box.name, [])):
                px = box_x + r * 0.3 + counter / 2 + k * counter * 1.15
                out.extend(_counter(px, y + r * 0.65 + counter / 2, counter, piece, 0))
        out.append("</g>")

    if counters:
        out.append(_text(g.left, status_y, f"{len(view.cells)} hexes, "
                         f"{sum(1 for p in view.pieces if p.location in by_id)} counters on "
                         "the map", size=r * 0.28, anchor="start", fill=GRID, cls="summary"))
    if legend_entries:
        out.append('<g id="legend">')
        col_w = (width - 2 * g.left) / 4
        for k, (kind, color, name) in enumerate(legend_entries):
            x = g.left + (k % 4) * col_w
            y = status_y + r * 0.35 + (k // 4) * r * 0.9
            if kind == "fill":
                out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(r * 0.9)}" '
                           f'height="{_n(r * 0.6)}" fill={_attr(color)} stroke="{GRID}"/>')
            else:
                out.append(f'<line x1="{_n(x)}" y1="{_n(y + r * 0.3)}" x2="{_n(x + r * 0.9)}" '
                           f'y2="{_n(y + r * 0.3)}" stroke={_attr(color)} '
                           f'stroke-width="{_n(r * 0.16)}"/>')
            out.append(_text(x + r * 1.1, y + r * 0.45, name, size=r * 0.3, anchor="start"))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(view: BoardView, zoc: frozenset[str]) -> list[tuple[str, str, str]]:
    """(kind, color, name) for the terrain, hexsides, lines and sides this view shows."""
    used = {c.terrain for c in view.cells}
    out = [("fill", t.color, words.spoken(t.name)) for t in view.terrain if t.name in used]
    seen: set[str] = set()
    for e in view.edges:
        if e.feature not in seen:
            seen.add(e.feature)
            out.append(("line", e.color, words.hexside(e.feature)))
    for line in view.lines:
        if line.feature not in seen:
            seen.add(line.feature)
            out.append(("line", line.color, words.spoken(line.feature)))
    sides: dict[str, str] = {}
    for p in view.pieces:
        if not p.hidden:
            sides.setdefault(p.side, p.color)
    out.extend(("fill", color, side) for side, color in sorted(sides.items()))
    if view.highlights:
        out.append(("fill", colors.mix("#ffffff", HIGHLIGHT, 0.6), "highlighted"))
    if zoc:
        out.append(("line", ZOC, "zone of control (Z)"))
    return out


def board_png(view: BoardView, *, scale: int = 36, show_zoc: str | None = None,
              legend: bool = True) -> bytes:
    """The picture of :func:`board_svg` as PNG bytes, through the optional ``resvg-py``.

    Raises :class:`~pbem.errors.UsageError` naming the package when it is missing, so
    ``pbem show --png`` can say what to install (``--svg`` needs nothing).
    """
    try:
        renderer = importlib.import_module("resvg_py")
    except ImportError:
        raise UsageError("PNG pictures need the optional renderer resvg-py "
                         "(pip install resvg-py); --svg works without it") from None
    svg = board_svg(view, scale=scale, show_zoc=show_zoc, legend=legend)
    data = renderer.svg_to_bytes(svg_string=svg, background=BACKGROUND)
    return bytes(data)
