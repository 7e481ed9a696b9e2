r"""The board in the terminal: any engine's :class:`~pbem.view.BoardView` drawn as text.

Each hex is drawn with its outline, the way a printed map shows it (here without color)::

     /0103.\......./0303♣\♣♣♣♣♣♣♣/*0503\
    /.......\_____/[6-4-8]\_____/.......\
    \......./0203.\+1 OoS /*0403\......./
     \_____=.......=_____=[3-3-6]=Orsha=.

Drawing real outlines (rather than colored bricks) keeps the map readable with no color
at all (``NO_COLOR``, a log file, a screen reader's copy): terrain then shows as the
terrain's glyph, rivers as ``~`` on the hexsides they follow, roads as ``=`` where they
cross a hexside.  With color the hex interiors take the terrain fill and counters their
side's color.

A 1,500-hex map does not fit a screen, so the renderable draws a :class:`Window` of
columns and rows (pan by moving it, zoom by choosing the cell size) and, without one, as
many columns as the console is wide.  Everything shown comes from the view, so limited
intelligence (White Death Rule 4C) is the engine's business: hidden stack members arrive
as ``hidden`` pieces and are only counted here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from pbem.render import colors
from pbem.render.theme import style as named_style
from pbem.view import BoardView, Cell, Edge, Layout, Piece

#: zoom levels: 0 is an overview (one short line per hex), 2 shows two counters per hex
ZOOMS = (0, 1, 2)

#: how well-known markers are abbreviated on a counter; others use their initials
MARKER_ABBREVIATIONS: dict[str, str] = {
    "out of supply": "OoS",
    "unsupplied": "OoS",
    "isolated": "Iso",
    "deployed": "Dep",
    "routed": "Rt",
    "disrupted": "Dis",
    "disorganized": "Dsg",
    "demoralized": "Dem",
    "broken": "Brk",
    "pinned": "Pin",
    "suppressed": "Sup",
    "entrenched": "Ent",
    "dug in": "DI",
    "fortified": "Fort",
    "depleted": "Dpl",
    "reduced": "Red",
    "spent": "Sp",
    "fired": "Fir",
    "moved": "Mov",
    "used": "Usd",
    "exhausted": "Exh",
    "ski": "Ski",
}


def abbreviate_marker(marker: str) -> str:
    """A marker's short form for a counter: known names, else initials, else 3 letters."""
    key = marker.strip().lower()
    if key in MARKER_ABBREVIATIONS:
        return MARKER_ABBREVIATIONS[key]
    words = [w for w in key.replace("-", " ").split() if w]
    if len(words) > 1:
        return "".join(w[0] for w in words).upper()
    return marker.strip()[:3].capitalize() if key else "?"


_WATER = ("river", "stream", "creek", "canal", "lake", "sea", "water", "brook", "ford",
          "strait")
#: standing water along a hexside (a lake shore, a partial-lake or sea side): not a river,
#: so it gets its own character
_STILL = ("lake", "sea", "strait", "marsh", "pond", "bay")
_HEIGHT = ("slope", "escarpment", "ridge", "cliff", "crest", "bluff")


def edge_glyph(feature: str) -> str:
    """The character a hexside feature is drawn with: ``~`` a river, ``%`` standing water
    (lake, sea), ``^`` heights,
    ``=`` a bridge, ``X`` a side that may not be crossed, else its initial in capitals
    (terrain letters are lower case, so the two never read alike)."""
    name = feature.lower()
    if "bridge" in name:  # before the heights: "bridge" contains "ridge"
        return "="
    if any(w in name for w in _STILL) and "river" not in name:
        return "%"
    if any(w in name for w in _WATER):
        return "~"
    if any(w in name for w in _HEIGHT):
        return "^"
    if any(w in name for w in ("prohibit", "impass", "border", "out_of_play", "out of play")):
        return "X"
    return name[:1].upper() or "!"


#: the glyphs water along hexsides is drawn with, so every kind reads apart without colour
#: (issue 17 item 14): per kind of water, the glyphs it may take, best first.  Sea comes
#: before lake: on a map with both (For the Motherland!) the sea keeps ``%`` and the lake
#: takes ``&``; on a map with only lakes (White Death) the lake is ``%``.
_WATER_KINDS: tuple[tuple[Callable[[str], bool], tuple[str, ...]], ...] = (
    (lambda n: "river" in n and "major" in n, ("≈", "~")),
    (lambda n: "partial" in n, (";",)),
    (lambda n: "sea" in n, ("%", "&")),
    (lambda n: "lake" in n or "pond" in n, ("%", "&")),
    (lambda n: "strait" in n or "bay" in n, ("$", "%")),
    (lambda n: edge_glyph(n) == "~", ("~",)),
)


def edge_glyphs(view: BoardView) -> dict[str, str]:
    """The character each hexside feature of ``view`` is drawn with: :func:`edge_glyph`,
    with the kinds of water told apart (``≈`` a major river, ``~`` a river, ``%`` the
    sea or a lake, ``&`` a lake beside a sea, ``;`` a partial lake, ``$`` a strait) and
    never two features of one view on the same character."""
    features = sorted({e.feature for e in view.edges})
    out: dict[str, str] = {}
    taken: set[str] = set()
    for match, choices in _WATER_KINDS:
        for feature in features:
            name = feature.lower()
            if feature in out or "bridge" in name or not match(name):
                continue
            glyph = next((g for g in choices if g not in taken), choices[-1])
            out[feature] = glyph
            taken.add(glyph)
    for feature in features:
        out.setdefault(feature, edge_glyph(feature))
    return out


def line_glyph(feature: str) -> str:
    """The character a line feature shows where it crosses a hexside.

    Most lines are roads and railroads; a river an engine draws through hex centers
    (rivers inside hexes, as on White Death's map) is water and reads as such.
    """
    name = feature.lower()
    if any(w in name for w in _WATER):
        return "~"
    if "trail" in name or "track" in name or "path" in name:  # before "rail": t-rail
        return ":"
    if "rail" in name:
        return "#"
    return "="


#: terrain names that stay blank when the engine gives no glyph: the open ground
_OPEN = ("clear", "open", "plain", "plains", "flat", "grass", "field", "fields")


#: characters the board itself uses for features and marks
RESERVED = frozenset("~%^=#:X*z?+|/\\_[]()<>{}")

#: one glyph per kind of terrain, whatever engine draws it (issue 33: Mortain's hedgerow
#: was '%', the lake of the guide's key, and White Death's swamp '~', its river): the
#: first entry whose words the terrain's name holds wins, so "woods-hill" is a wooded
#: hill, not woods.  docs/guide.md's key lists the same.
TERRAIN_GLYPHS: tuple[tuple[tuple[str, ...], str], ...] = (  # glyphs: best first
    (("clear", "open", "plain", "field", "grass"), " "),
    (("woods-hill", "wooded hill", "wooded_hill"), "♠"),
    (("hedgerow", "bocage"), '"'),
    (("forest", "wood"), "♣"),
    (("swamp", "marsh", "fen", "bog"), ","),
    (("high_mountain", "high mountain"), "Λ"),
    (("mountain", "peak"), "▲"),
    (("hill", "high", "height"), "∩"),
    (("broken", "rough"), "∴"),
    (("town", "city", "village", "urban"), "■"),
    (("sea", "lake", "water", "ocean"), "%&"),
)


def terrain_glyph(name: str, taken: frozenset[str] = frozenset()) -> str | None:
    """The glyph :data:`TERRAIN_GLYPHS` gives the terrain called ``name``, if any: the
    first of its choices not ``taken`` (the sea keeps '%', a lake beside it takes '&',
    as on the hexsides)."""
    low = name.lower()
    choices = next((g for words, g in TERRAIN_GLYPHS if any(w in low for w in words)), None)
    return None if choices is None else next((g for g in choices if g not in taken), None)


def terrain_glyphs(view: BoardView, plain: bool = True) -> dict[str, tuple[str, bool]]:
    """The character each terrain is drawn with, and whether it is the engine's own
    (``True``) or made up here (``False``).

    An engine may leave glyphs blank; without color every terrain would then look the
    same, so each blank one but the open ground (a name like "clear", else the most
    common terrain) gets the first free letter of its name.  Without color an engine's
    glyph that the board uses for something else (``~`` is a river here, ``#`` a
    railroad crossing) is replaced the same way; with color the fill tells them apart
    and the engine's glyph stays.
    """
    counts: dict[str, int] = {}
    for c in view.cells:
        counts[c.terrain] = counts.get(c.terrain, 0) + 1
    # and the water glyphs this map's hexsides use
    reserved = RESERVED | set(edge_glyphs(view).values())

    def usable(glyph: str) -> bool:
        return bool(glyph.strip()) and not (plain and glyph[0] in reserved)

    out: dict[str, tuple[str, bool]] = {}
    for t in view.terrain:
        glyph = terrain_glyph(t.name, frozenset(g for g, _ in out.values()))
        if glyph is not None:
            out[t.name] = (glyph, glyph != " ")
    rest = [t for t in view.terrain if t.name not in out]
    blank = [t.name for t in rest if not usable(t.glyph)]
    open_ground = next((n for n in blank if n.lower() in _OPEN), None)
    if open_ground is None and blank and not any(g == " " for g, _ in out.values()):
        open_ground = max(blank, key=lambda n: (counts.get(n, 0), n == blank[0]))
    taken = {t.glyph[0] for t in rest if usable(t.glyph)} | {g for g, _ in out.values()}
    for t in rest:
        if usable(t.glyph):
            out[t.name] = (t.glyph[0], True)
        elif t.name == open_ground:
            out[t.name] = (" ", False)
        else:
            letters = [ch for ch in t.name.lower() if ch.isalpha()] or ["?"]
            pick = next((ch for ch in letters if ch not in taken), letters[0])
            taken.add(pick)
            out[t.name] = (pick, False)
    return out


# --- windows ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """The part of the map on screen: ``cols`` columns from ``col0``, ``rows`` rows from ``row0``.

    Columns and rows are the map's own numbers (``Layout.cols``/``rows``), so a window
    reads like the hex ids printed on the map.
    """

    col0: int
    row0: int
    cols: int
    rows: int

    def contains(self, col: int, row: int) -> bool:
        return (self.col0 <= col < self.col0 + self.cols
                and self.row0 <= row < self.row0 + self.rows)

    def clamp(self, layout: Layout) -> Window:
        """The same size window moved (and shrunk if need be) to lie on the map."""
        (c_lo, c_hi), (r_lo, r_hi) = layout.cols, layout.rows
        cols = max(1, min(self.cols, c_hi - c_lo + 1))
        rows = max(1, min(self.rows, r_hi - r_lo + 1))
        col0 = max(c_lo, min(self.col0, c_hi - cols + 1))
        row0 = max(r_lo, min(self.row0, r_hi - rows + 1))
        return Window(col0, row0, cols, rows)

    def pan(self, dcols: int, drows: int, layout: Layout) -> Window:
        """Moved by whole columns and rows, stopping at the map's edge."""
        return replace(self, col0=self.col0 + dcols, row0=self.row0 + drows).clamp(layout)

    @staticmethod
    def whole(layout: Layout) -> Window:
        (c_lo, c_hi), (r_lo, r_hi) = layout.cols, layout.rows
        return Window(c_lo, r_lo, c_hi - c_lo + 1, r_hi - r_lo + 1)

    @staticmethod
    def centered(view: BoardView, hex_id: str, cols: int, rows: int) -> Window:
        """A ``cols`` x ``rows`` window with ``hex_id`` as near its middle as the map allows."""
        cell = _cell_index(view).get(hex_id)
        if cell is None:
            raise KeyError(f"no hex {hex_id!r} on the map of {view.title!r}")
        return Window(cell.col - (cols - 1) // 2, cell.row - (rows - 1) // 2, cols,
                      rows).clamp(view.layout)

    def describe(self) -> str:
        return (f"columns {self.col0}-{self.col0 + self.cols - 1}, "
                f"rows {self.row0}-{self.row0 + self.rows - 1}")


def fit_window(view: BoardView, width: int, height: int | None = None, *, zoom: int = 1,
               center: str | None = None) -> Window:
    """The largest window that fits ``width`` columns (and ``height`` lines) of a console.

    Centered on the hex ``center`` when given (the replay follows the action this way),
    else starting at the map's first column and row.  ``height`` counts only the map's
    own lines; leave room for title and status yourself.
    """
    geometry = _Geometry.make(view.layout.orientation, zoom)
    cols, rows = geometry.capacity(width, height)
    whole = Window.whole(view.layout)
    cols, rows = min(cols, whole.cols), min(rows, whole.rows)
    if center is not None:
        return Window.centered(view, center, cols, rows)
    return Window(whole.col0, whole.row0, cols, rows)


# --- geometry ------------------------------------------------------------------------------

Stroke = tuple[int, int, str]  # dx, dy, character


@dataclass(frozen=True)
class _Geometry:
    """Where the outline and the text lines of one hex fall, relative to its origin.

    Flat-top hexes have ``d`` lines per slanted side and ``s`` underscores on top and
    bottom; pointy-top hexes have ``d`` lines per slanted side and ``v`` lines of
    vertical side.  The slots name the interior lines the content goes on.
    """

    orientation: str
    d: int
    s: int
    v: int
    #: direction -> strokes of that hexside
    outline: dict[str, tuple[Stroke, ...]]
    #: every interior span (dy, x0, width): filled with the terrain
    interior: tuple[tuple[int, int, int], ...]
    #: content name -> span; "place_edge" means the flat bottom edge carries the name
    slots: dict[str, tuple[int, int, int]]

    @staticmethod
    def make(orientation: str, zoom: int) -> _Geometry:
        if zoom not in ZOOMS:
            raise ValueError(f"zoom must be one of {ZOOMS}, not {zoom}")
        if orientation == "pointy":
            a, v = ((1, 1), (3, 2), (4, 3))[zoom]
            return _Geometry._pointy(a, v, zoom)
        d, s = ((1, 3), (2, 5), (3, 7))[zoom]
        return _Geometry._flat(d, s, zoom)

    @staticmethod
    def _flat(d: int, s: int, zoom: int) -> _Geometry:
        outline = {
            "N": tuple((d + k, -1, "_") for k in range(s)),
            "NW": tuple((d - 1 - i, i, "/") for i in range(d)),
            "NE": tuple((s + d + i, i, "\\") for i in range(d)),
            "SW": tuple((i, d + i, "\\") for i in range(d)),
            "SE": tuple((s + 2 * d - 1 - i, d + i, "/") for i in range(d)),
            "S": tuple((d + k, 2 * d - 1, "_") for k in range(s)),
        }
        interior = [(i, d - i, s + 2 * i) for i in range(d)]
        interior += [(d + i, i + 1, s + 2 * d - 2 - 2 * i) for i in range(d - 1)]
        spans = {dy: (dy, x0, w) for dy, x0, w in interior}
        bottom = (2 * d - 1, d, s)
        if zoom == 0:
            slots = {"piece": spans[0], "place_edge": bottom}
        elif zoom == 1:
            slots = {"id": spans[0], "piece": spans[1], "info": spans[2], "place_edge": bottom}
        else:
            slots = {"id": spans[0], "place": spans[1], "piece": spans[2], "info": spans[3],
                     "piece2": spans[4]}
        return _Geometry("flat", d, s, 0, outline, tuple(interior), slots)

    @staticmethod
    def _pointy(a: int, v: int, zoom: int) -> _Geometry:
        w = 2 * a + 2
        outline = {
            "NW": tuple((a - i, i, "/") for i in range(a)),
            "NE": tuple((a + 2 + i, i, "\\") for i in range(a)),
            "W": tuple((0, a + k, "|") for k in range(v)),
            "E": tuple((w, a + k, "|") for k in range(v)),
            "SW": tuple((1 + i, a + v + i, "\\") for i in range(a)),
            "SE": tuple((w - 1 - i, a + v + i, "/") for i in range(a)),
        }
        top = [(i, a - i + 1, 2 * i + 1) for i in range(a)]
        middle = [(a + k, 1, 2 * a + 1) for k in range(v)]
        bottom = [(a + v + i, 2 + i, 2 * a - 1 - 2 * i) for i in range(a)]
        interior = top + middle + bottom
        if zoom == 0:
            slots = {"piece": middle[0]}
        elif zoom == 1:
            slots = {"id": top[-1], "piece": middle[0], "info": middle[1], "place": bottom[0]}
        else:
            slots = {"id": top[-1], "place": middle[0], "piece": middle[1], "info": middle[2],
                     "piece2": bottom[0]}
        return _Geometry("pointy", a, 0, v, outline, tuple(interior), slots)

    # -- placement --------------------------------------------------------------------

    @property
    def pitch(self) -> tuple[int, int]:
        if self.orientation == "pointy":
            return 2 * self.d + 2, self.d + self.v
        return self.s + self.d, 2 * self.d

    def size(self, cols: int, rows: int) -> tuple[int, int]:
        """Characters and lines needed for a window of ``cols`` x ``rows`` hexes."""
        px, py = self.pitch
        if self.orientation == "pointy":
            return cols * px + self.d + 2, rows * py + self.d
        return cols * px + self.d, 1 + rows * py + self.d

    def capacity(self, width: int, height: int | None) -> tuple[int, int]:
        """How many columns and rows fit in ``width`` x ``height`` (at least one each)."""
        px, py = self.pitch
        extra_w, extra_h = self.size(0, 0)
        cols = max(1, (width - extra_w) // px)
        rows = 10_000 if height is None else max(1, (height - extra_h) // py)
        return cols, rows

    def origin(self, ci: int, ri: int, shifted: bool) -> tuple[int, int]:
        px, py = self.pitch
        if self.orientation == "pointy":
            return ci * px + (self.d + 1 if shifted else 0), ri * py
        return ci * px, 1 + ri * py + (self.d if shifted else 0)


def _shifted(layout: Layout, col: int, row: int) -> bool:
    """Whether this hex's column (flat) or row (pointy) is the half-hex-shifted one."""
    n = row if layout.orientation == "pointy" else col
    return (n % 2 == 0) == (layout.offset == "even")


def neighbor(layout: Layout, col: int, row: int, direction: str) -> tuple[int, int]:
    """The (col, row) across the hexside ``direction`` in an offset grid."""
    shifted = _shifted(layout, col, row)
    if layout.orientation == "pointy":
        table = {
            "E": (1, 0), "W": (-1, 0),
            "NE": (1, -1) if shifted else (0, -1), "SE": (1, 1) if shifted else (0, 1),
            "NW": (0, -1) if shifted else (-1, -1), "SW": (0, 1) if shifted else (-1, 1),
        }
    else:
        table = {
            "N": (0, -1), "S": (0, 1),
            "NE": (1, 0) if shifted else (1, -1), "SE": (1, 1) if shifted else (1, 0),
            "NW": (-1, 0) if shifted else (-1, -1), "SW": (-1, 1) if shifted else (-1, 0),
        }
    dc, dr = table[direction]
    return col + dc, row + dr


# --- what is where ------------------------------------------------------------------------


def _edge_index(view: BoardView) -> dict[frozenset[str], tuple[Edge | None, Edge | None]]:
    """Per hexside: the feature to draw along it (water first) and a bridge across it.

    A hexside can carry several features (a river and its bridge, a river on a border);
    one character wide, the side shows the one that matters most for movement.
    """
    found: dict[frozenset[str], list[Edge]] = {}
    water_glyphs = {g for _, choices in _WATER_KINDS for g in choices}
    glyphs = edge_glyphs(view)
    for e in view.edges:
        found.setdefault(frozenset((e.a, e.b)), []).append(e)
    out: dict[frozenset[str], tuple[Edge | None, Edge | None]] = {}
    for pair, features in found.items():
        bridge = next((e for e in features if "bridge" in e.feature.lower()), None)
        rest = [e for e in features if e is not bridge]
        water = [e for e in rest if glyphs[e.feature] in water_glyphs]
        main = (water or rest)[0] if (water or rest) else None
        out[pair] = (main, bridge)
    return out


def _cell_index(view: BoardView) -> dict[str, Cell]:
    return {c.hex: c for c in view.cells}


def stacks(view: BoardView) -> dict[str, list[Piece]]:
    """Pieces by location, top of the stack first (the view's own order)."""
    found: dict[str, list[Piece]] = {}
    for piece in view.pieces:
        found.setdefault(piece.location, []).append(piece)
    return found


def top_piece(stack: Sequence[Piece]) -> Piece:
    """The counter that shows: the first the viewer may identify, else the first."""
    return next((p for p in stack if not p.hidden), stack[0])


def zoc_hexes(view: BoardView, show_zoc: str | None) -> frozenset[str]:
    """Hexes of the ZOC overlay asked for: a side name, an overlay key, or ``"all"``."""
    if not show_zoc:
        return frozenset()
    found: set[str] = set()
    for key, hexes in view.overlays:
        if (key == show_zoc or key == f"zoc:{show_zoc}"
                or (show_zoc in ("all", "*") and key.startswith("zoc"))):
            found.update(hexes)
    return frozenset(found)


#: how counters of each side are bracketed when there is no color to tell them apart
BRACKETS = (("[", "]"), ("(", ")"), ("<", ">"), ("{", "}"))


def side_marks(view: BoardView) -> dict[str, tuple[str, str]]:
    """Brackets per side, sides in name order, so the same side reads the same every turn."""
    sides = sorted({p.side for p in view.pieces})
    return {side: BRACKETS[i % len(BRACKETS)] for i, side in enumerate(sides)}


def focus_hex(view: BoardView, recent: Sequence[str] = ()) -> str | None:
    """Where a board should open: the hexes the view emphasizes, else the latest of the
    ``recent`` texts (our own actions) naming a hex, else the front: our unit nearest a
    unit of the other side (so a big map does not open on an empty corner)."""
    cells = {c.hex: (c.col, c.row) for c in view.cells}
    for h in view.highlights:
        if h in cells:
            return h
    for text in reversed(recent):
        for word in reversed(text.split()):
            if word in cells:
                return word
    ours = [p.location for p in view.pieces if p.side == view.side and p.location in cells]
    theirs = [cells[p.location] for p in view.pieces
              if p.side != view.side and p.location in cells]
    if ours and theirs:
        def contact(h: str) -> tuple[int, int]:
            # most enemy units within 3 hexes (where the fighting is), then the nearest
            col, row = cells[h]
            gaps = [max(abs(col - c), abs(row - r)) for c, r in theirs]
            return -sum(1 for g in gaps if g <= 3), min(gaps)

        return min(sorted(ours), key=contact)
    if ours:
        return sorted(ours)[len(ours) // 2]
    located = sorted(p.location for p in view.pieces if p.location in cells)
    return located[len(located) // 2] if located else None



# --- the canvas -----------------------------------------------------------------------------


class _Canvas:
    """A grid of characters, each with an optional text style and background color."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.fg: list[list[Style | None]] = [[None] * width for _ in range(height)]
        self.bg: list[list[str | None]] = [[None] * width for _ in range(height)]

    def put(self, x: int, y: int, ch: str, fg: Style | None = None,
            bg: str | None = None) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.chars[y][x] = ch
            self.fg[y][x] = fg
            if bg is not None:
                self.bg[y][x] = bg

    def text(self, x: int, y: int, text: str, fg: Style | None = None,
             bg: str | None = None) -> None:
        for i, ch in enumerate(text):
            self.put(x + i, y, ch, fg, bg)

    def lines(self, base: Style) -> Iterator[list[Segment]]:
        combined: dict[tuple[Style | None, str | None], Style] = {}

        def style_of(fg: Style | None, bg: str | None) -> Style:
            key = (fg, bg)
            found = combined.get(key)
            if found is None:
                found = base + (fg or Style.null()) + (
                    Style(bgcolor=bg) if bg else Style.null())
                combined[key] = found
            return found

        for y in range(self.height):
            segments: list[Segment] = []
            chars, fgs, bgs = self.chars[y], self.fg[y], self.bg[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or fgs[x] is not fgs[start] or bgs[x] != bgs[start]:
                    run_style = style_of(fgs[start], bgs[start])
                    run = "".join(chars[start:x])
                    if x == self.width and fgs[start] is None and bgs[start] is None:
                        run = run.rstrip()
                    if run:
                        segments.append(Segment(run, run_style))
                    start = x
            yield segments


# --- the renderable ----------------------------------------------------------------------


class BoardRenderable:
    """A window of the board as one side sees it; print it on any rich console.

    ``window=None`` draws from the map's first column and row as much as the console's
    width allows; a window wider than the console is cut to fit (pan to see the rest).
    ``show_zoc`` names a side (or an overlay key, or ``"all"``) whose zones of control
    are marked with ``z``.  Without color (``NO_COLOR``, ``Console(no_color=True)``, or
    no color system) terrain is drawn with its glyph and highlighted hexes get a ``*``.
    """

    def __init__(self, view: BoardView, window: Window | None = None, zoom: int = 1,
                 show_zoc: str | None = None) -> None:
        self.view = view
        self.window = window
        self.zoom = zoom
        self.show_zoc = show_zoc
        self.geometry = _Geometry.make(view.layout.orientation, zoom)
        self.marks = side_marks(view)
        #: counters whose label did not fit their hex in the last drawing
        self.cut: list[Piece] = []

    def visible_window(self, width: int) -> Window:
        """The window actually drawn on a console ``width`` characters wide."""
        whole = Window.whole(self.view.layout)
        cols, _ = self.geometry.capacity(width, None)
        window = self.window or whole
        window = Window(window.col0, window.row0, min(window.cols, cols), window.rows)
        return window.clamp(self.view.layout)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        window = self.visible_window(options.max_width)
        plain = console.no_color or console.color_system is None
        canvas = self._draw(console, window, plain)
        base = named_style(console, "board.background")
        for segments in canvas.lines(base):
            yield from segments
            yield Segment.line()
        whole = Window.whole(self.view.layout)
        if window != whole:
            yield Text(f"map {whole.describe()}; showing {window.describe()}",
                       style=named_style(console, "board.ruler"))
        if self.cut:
            # nothing a player must read is lost to a narrow hex: the whole labels
            marks = self.marks if plain else {}
            text = Text("in full: ", style=named_style(console, "board.ruler"))
            for i, piece in enumerate(sorted(self.cut, key=lambda p: (p.location, p.id))):
                opening, closing = marks.get(piece.side, ("", ""))
                shown = piece.label if piece.id in piece.label else f"{piece.id} {piece.label}"
                text.append(("; " if i else "") + f"{piece.location} {opening}{shown}{closing}")
            yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        window = self.visible_window(options.max_width)
        width, _ = self.geometry.size(window.cols, window.rows)
        return Measurement(min(width, options.max_width), min(width, options.max_width))

    # -- drawing ---------------------------------------------------------------------

    def _draw(self, console: Console, window: Window, plain: bool) -> _Canvas:
        view, g = self.view, self.geometry
        self.cut = []
        layout = view.layout
        width, height = g.size(window.cols, window.rows)
        canvas = _Canvas(width, height)
        cells = [c for c in view.cells if window.contains(c.col, c.row)]
        by_pos = {(c.col, c.row): c for c in view.cells}
        terrain = {t.name: t for t in view.terrain}
        glyphs = terrain_glyphs(view, plain)
        edges = _edge_index(view)
        side_glyphs = edge_glyphs(view)
        crossings: dict[frozenset[str], tuple[str, str]] = {}
        # water first, so a road crossing the same hexside shows on top (a bridge)
        for line in sorted(view.lines, key=lambda ln: line_glyph(ln.feature) != "~"):
            for a, b in zip(line.hexes, line.hexes[1:], strict=False):
                crossings[frozenset((a, b))] = (line_glyph(line.feature), line.color)
        highlights = frozenset(view.highlights)
        zoc = zoc_hexes(view, self.show_zoc)
        pile = stacks(view)

        grid = named_style(console, "board.grid")
        hl_style = named_style(console, "board.highlight")
        hl_fg = Style(color=hl_style.color, bold=hl_style.bold)
        hl_tint = hl_style.bgcolor.get_truecolor().hex if hl_style.bgcolor else "#ffe000"

        def origin(cell: Cell) -> tuple[int, int]:
            return g.origin(cell.col - window.col0, cell.row - window.row0,
                            _shifted(layout, cell.col, cell.row))

        def fill_of(cell: Cell) -> str:
            fill = terrain[cell.terrain].color if cell.terrain in terrain else "#d0d0d0"
            return colors.mix(fill, hl_tint, 0.45) if cell.hex in highlights else fill

        # interiors first, then outlines (plain before highlighted, so a highlighted hex
        # shows its whole outline), so shared hexsides are drawn once, consistently
        for cell in cells:
            x, y = origin(cell)
            fill = fill_of(cell)
            glyph, own = glyphs.get(cell.terrain, (" ", False))
            texture = Style(color=colors.mix(fill, colors.contrast(fill), 0.35))
            # with color only an engine's own glyphs texture the hex (made-up letters
            # would be noise); without color every glyph is needed to tell terrain apart
            textured = plain or (own and glyph not in (" ", "."))
            for dy, x0, w in g.interior:
                for k in range(w):
                    ch = glyph if textured and (plain or dy == g.interior[-1][0]) else " "
                    canvas.put(x + x0 + k, y + dy, ch, texture, fill)
            if g.orientation == "flat":
                for dx, dy, _ in g.outline["S"]:
                    canvas.put(x + dx, y + dy, "_", grid, fill)

        for cell in sorted(cells, key=lambda c: c.hex in highlights):
            x, y = origin(cell)
            lit = cell.hex in highlights
            for direction, strokes in g.outline.items():
                other = by_pos.get(neighbor(layout, cell.col, cell.row, direction))
                pair = frozenset((cell.hex, other.hex)) if other else frozenset()
                edge, bridge = edges.get(pair, (None, None))
                road = crossings.get(pair)
                if bridge is not None:
                    road = ("=", bridge.color)
                for i, (dx, dy, ch) in enumerate(strokes):
                    fg = hl_fg if lit else grid
                    if edge is not None:
                        ch = side_glyphs[edge.feature]
                        fg = Style(color=edge.color, bold=True)
                    if road is not None and i == len(strokes) // 2:
                        # on the hex's own fill: a road's dark ink must not vanish
                        # into a dark terminal between the hexes
                        canvas.put(x + dx, y + dy, road[0], Style(color=road[1], bold=True),
                                   fill_of(cell))
                        continue
                    canvas.put(x + dx, y + dy, ch, fg)

        for cell in cells:
            below = by_pos.get(neighbor(layout, cell.col, cell.row, "S")) if (
                g.orientation == "flat") else None
            pair = frozenset((cell.hex, below.hex)) if below else frozenset()
            self._content(console, canvas, cell, origin(cell), fill_of(cell), plain,
                          cell.hex in highlights, cell.hex in zoc, pile.get(cell.hex, []),
                          pair in edges or pair in crossings)
        return canvas

    def _content(self, console: Console, canvas: _Canvas, cell: Cell, at: tuple[int, int],
                 fill: str, plain: bool, lit: bool, in_zoc: bool,
                 stack: list[Piece], edge_busy: bool) -> None:
        g = self.geometry
        x, y = at
        ink = colors.contrast(fill)
        id_style = Style(color=colors.mix(fill, ink, 0.6))
        place_style = named_style(console, "board.place") + Style(color=ink)
        slots = g.slots

        if "id" in slots:
            mark = "*" if lit and plain else ""
            _text_span(canvas, x, y, slots["id"], mark + cell.hex, id_style, fill)

        if stack:
            top = top_piece(stack)
            marks = self.marks if plain else {}
            self._counter(console, canvas, x, y, slots["piece"], top,
                          lit and plain and "id" not in slots, marks)
            shown = 1
            if "piece2" in slots and len(stack) > 1:
                self._counter(console, canvas, x, y, slots["piece2"], stack[1], False, marks)
                shown = 2
            # a crowded hex says only "+n": the units under it are listed below the board,
            # so every id a player may type is on the screen
            self.cut.extend(p for p in stack[shown:] if not p.hidden and p not in self.cut)
            if "info" in slots:
                # an occupied town keeps its name where the line has room left
                crowded = cell.label and "place" not in slots and (
                    "place_edge" not in slots or edge_busy)
                self._info(console, canvas, x, y, slots["info"], stack, top, fill, in_zoc,
                           (cell.label, place_style) if crowded else None)
        elif "info" in slots and in_zoc:
            self._info(console, canvas, x, y, slots["info"], [], None, fill, in_zoc)
        elif lit and plain and "id" not in slots:
            dy, x0, _ = slots["piece"]
            canvas.put(x + x0, y + dy, "*", id_style)
        if not cell.label:
            return
        # the name goes where it hides nothing: its own line, else the bottom hexside
        # unless a river or road is drawn there, else a free line inside the hex
        if "place" in slots:
            _text_span(canvas, x, y, slots["place"], cell.label, place_style, fill)
        elif "place_edge" in slots and not edge_busy:
            dy, x0, w = slots["place_edge"]
            canvas.text(x + x0, y + dy, cell.label[:w], place_style + Style(underline=True),
                        fill)
        elif not stack and "info" in slots:
            dy, x0, w = slots["info"]
            room = w - 1 if in_zoc else w
            _text_span(canvas, x, y, (dy, x0, room), cell.label, place_style, fill)
        elif not stack and "piece" in slots:
            _text_span(canvas, x, y, slots["piece"], cell.label, place_style, fill)

    def _counter(self, console: Console, canvas: _Canvas, x: int, y: int,
                 span: tuple[int, int, int], piece: Piece, star: bool,
                 marks: dict[str, tuple[str, str]]) -> None:
        dy, x0, w = span
        if piece.hidden:
            style = named_style(console, "board.hidden")
            label = "?"
        else:
            ink = colors.contrast(piece.color)
            style = Style(color=ink, bgcolor=piece.color, bold=True)
            label = piece.label or "?"
        if star:
            label = "*" + label
        opening, closing = marks.get(piece.side, (" ", " "))
        if len(label) + 2 <= w:
            body = f"{opening}{label}{closing}"
        elif marks and not piece.hidden:
            # without color the bracket is the only sign of the side: it stays, and the
            # whole label is listed under the board
            body = opening + label[:w - 1]
            self.cut.append(piece)
        else:
            body = label[:w]
            if len(label) > w and not piece.hidden:
                self.cut.append(piece)
        left = (w - len(body)) // 2
        canvas.text(x + x0 + left, y + dy, body, style, style.bgcolor.get_truecolor().hex
                    if style.bgcolor else None)

    def _info(self, console: Console, canvas: _Canvas, x: int, y: int,
              span: tuple[int, int, int], stack: list[Piece], top: Piece | None,
              fill: str, in_zoc: bool, place: tuple[str, Style] | None = None) -> None:
        """Stack count, markers, what fits of the place name, and the ZOC mark."""
        dy, x0, w = span
        ink = colors.contrast(fill)
        parts: list[tuple[str, Style]] = []
        if len(stack) > 1:
            parts.append((f"+{len(stack) - 1}", named_style(console, "board.stack")
                          + Style(color=ink)))
        if top is not None and top.markers:
            text = ",".join(abbreviate_marker(m) for m in top.markers)
            parts.append((text, named_style(console, "board.marker")))
        if place is not None:
            parts.append(place)
        if top is not None and not top.hidden and top.id not in top.label:
            # a counter that shows only its factors (For the Motherland!'s 5-7-4): its id
            # is what 'legal UNIT' and every action take, so it goes here when it fits
            parts.append((top.id, named_style(console, "board.stack") + Style(color=ink)))
        room = w - (1 if in_zoc else 0)
        if parts:
            canvas.text(x + x0, y + dy, " " * room, Style(color=ink), fill)
        pos = 0
        for text, style in parts:
            if pos and pos < room:
                pos += 1
            if (text, style) == place and room - pos < min(3, len(text)):
                break  # two letters of a name say nothing
            chunk = text[: max(0, room - pos)]
            if top is not None and text == top.id and chunk != text and top not in self.cut:
                self.cut.append(top)  # its id did not fit: given whole under the board
            canvas.text(x + x0 + pos, y + dy, chunk, style)
            pos += len(chunk)
        if in_zoc:
            canvas.put(x + x0 + w - 1, y + dy, "z", named_style(console, "board.zoc"))


def _text_span(canvas: _Canvas, x: int, y: int, span: tuple[int, int, int], text: str,
               style: Style, fill: str) -> None:
    """Centered text on a span, the terrain texture left around it."""
    dy, x0, w = span
    body = text[:w]
    left = (w - len(body)) // 2
    canvas.text(x + x0 + left, y + dy, body, style, fill)


# --- legend, status, boxes -------------------------------------------------------------------


class StatusLine:
    """One line under the board: title, the side viewing, and the engine's status."""

    def __init__(self, view: BoardView) -> None:
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        view = self.view
        # folded, never cut: the status is what the player needs to know
        text = Text(no_wrap=False, overflow="fold")
        text.append(view.title, named_style(console, "board.title"))
        text.append(f"  [{view.side or 'referee'}]", named_style(console, "board.ruler"))
        if view.status:
            text.append("  " + view.status, named_style(console, "board.status"))
        yield text


class Legend:
    """A compact key to what is on the map: terrain, hexsides, roads, counters, markers.

    Lists only what this view uses, so the key stays a few lines long on any map.
    """

    def __init__(self, view: BoardView, show_zoc: str | None = None) -> None:
        self.view = view
        self.show_zoc = show_zoc

    def entries(self, plain: bool) -> list[tuple[str, Style, str]]:
        """(symbol, symbol style, meaning) for everything the view uses."""
        view = self.view
        used = {c.terrain for c in view.cells}
        out: list[tuple[str, Style, str]] = []
        glyphs = terrain_glyphs(view, plain)
        for t in view.terrain:
            if t.name in used:
                glyph, own = glyphs[t.name]
                symbol = glyph * 2 if plain or own else "  "
                out.append((symbol, Style(color=colors.contrast(t.color), bgcolor=t.color),
                            t.name))
        # features shown on the commonest terrain, as on the map (a railroad's black
        # would vanish on a dark terminal)
        counts: dict[str, int] = {}
        for c in view.cells:
            counts[c.terrain] = counts.get(c.terrain, 0) + 1
        common = max(counts, key=lambda n: counts[n], default="")
        ground = next((t.color for t in view.terrain if t.name == common), None)
        seen: set[str] = set()
        side_glyphs = edge_glyphs(view)
        for e in view.edges:
            if e.feature not in seen:
                seen.add(e.feature)
                # "sea" is a terrain and a hexside on some maps: the key tells them apart
                name = f"{e.feature} hexside" if e.feature in used else e.feature
                out.append((side_glyphs[e.feature], Style(color=e.color, bold=True,
                                                         bgcolor=ground), name))
        for line in view.lines:
            if line.feature not in seen:
                seen.add(line.feature)
                out.append((line_glyph(line.feature), Style(color=line.color, bold=True,
                                                            bgcolor=ground), line.feature))
        sides: dict[str, str] = {}
        for p in view.pieces:
            if not p.hidden:
                sides.setdefault(p.side, p.color)
        marks = side_marks(view)
        for side, color in sorted(sides.items()):
            opening, closing = marks[side]
            out.append((f"{opening}{closing}" if plain else "  ", Style(bgcolor=color), side))
        markers = sorted({m for p in view.pieces for m in p.markers})
        for m in markers:
            out.append((abbreviate_marker(m), Style(bold=True), m))
        if any(p.hidden for p in view.pieces):
            out.append(("?", Style(bold=True), "unidentified"))
        if len(stacks(view)) < len(view.pieces):
            out.append(("+n", Style(bold=True), "more in stack"))
        if view.highlights:
            out.append(("*" if plain else "  ", Style(bgcolor="#ffe000"), "highlighted"))
        if self.show_zoc and zoc_hexes(view, self.show_zoc):
            out.append(("z", Style(color="#c00000", bold=True), f"ZOC ({self.show_zoc})"))
        return out

    def merged(self, plain: bool) -> list[tuple[str, Style, str]]:
        """:meth:`entries` with the features drawn alike said once: "= bridge or road",
        not "= bridge  = road" (which reads as if the key had lost a glyph)."""
        out: list[tuple[str, Style, str]] = []
        at: dict[str, int] = {}
        for symbol, symbol_style, meaning in self.entries(plain):
            if symbol.strip() and len(symbol) == 1 and symbol in at:
                i = at[symbol]
                out[i] = (symbol, out[i][1], f"{out[i][2]} or {meaning}")
                continue
            at[symbol] = len(out)
            out.append((symbol, symbol_style, meaning))
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        plain = console.no_color or console.color_system is None
        name_style = named_style(console, "legend.name")
        text = Text(no_wrap=True, overflow="crop")
        for symbol, symbol_style, meaning in self.merged(plain):
            # entries never break inside: wrap between them, by hand
            size = len(symbol) + 1 + len(meaning)
            if text.cell_len and text.cell_len + 2 + size > options.max_width:
                yield text
                text = Text(no_wrap=True, overflow="crop")
            if text.cell_len:
                text.append("  ")
            text.append(symbol, symbol_style)
            text.append(" " + meaning, name_style)
        if text.cell_len:
            yield text


class BoxesRenderable:
    """The off-map boxes and what each holds, as lines under the board."""

    def __init__(self, view: BoardView) -> None:
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pile = stacks(self.view)
        plain = console.no_color or console.color_system is None
        marks = side_marks(self.view) if plain else {}
        for box in self.view.boxes:
            text = Text(no_wrap=False)
            text.append(box.title + ": ", named_style(console, "legend.title"))
            held = pile.get(box.name, [])
            if not held:
                text.append("empty", named_style(console, "board.ruler"))
            for i, piece in enumerate(held):
                if i:
                    text.append(" ")
                if piece.hidden:
                    text.append(" ? ", named_style(console, "board.hidden"))
                else:
                    opening, closing = marks.get(piece.side, (" ", " "))
                    # the id a player types, where the label is only factors ('0-0-4')
                    label = piece.label if piece.id in piece.label else (
                        f"{piece.id} {piece.label}")
                    text.append(f"{opening}{label}{closing}",
                                Style(color=colors.contrast(piece.color),
                                                         bgcolor=piece.color, bold=True))
                    if piece.markers:
                        text.append(
                            "[" + ",".join(abbreviate_marker(m) for m in piece.markers) + "]",
                            named_style(console, "board.marker"))
            yield text


def board_screen(view: BoardView, window: Window | None = None, zoom: int = 1,
                 show_zoc: str | None = None, *, legend: bool = True) -> Group:
    """What ``pbem show`` prints: status line, board window, off-map boxes, legend."""
    parts: list[object] = [StatusLine(view), BoardRenderable(view, window, zoom, show_zoc)]
    if view.boxes:
        parts.append(BoxesRenderable(view))
    if legend:
        parts.append(Legend(view, show_zoc))
    return Group(*parts)  # type: ignore[arg-type]
