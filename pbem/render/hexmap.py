"""The board's characters, windows and geometry, for the terminal's board and the SVG
picture alike: no rich, so a replay page (which draws no terminal board) loads none of
rich's modules, about 150 M instructions of White Death's 'audit --html' (issue 35).
:mod:`pbem.render.board` (the terminal), :mod:`pbem.render.svg` and the board server draw
with them; import them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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
    geometry = Geometry.make(view.layout.orientation, zoom)
    cols, rows = geometry.capacity(width, height)
    whole = Window.whole(view.layout)
    cols, rows = min(cols, whole.cols), min(rows, whole.rows)
    if center is not None:
        return Window.centered(view, center, cols, rows)
    return Window(whole.col0, whole.row0, cols, rows)


# --- geometry ------------------------------------------------------------------------------

Stroke = tuple[int, int, str]  # dx, dy, character


@dataclass(frozen=True)
class Geometry:
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
    def make(orientation: str, zoom: int) -> Geometry:
        if zoom not in ZOOMS:
            raise ValueError(f"zoom must be one of {ZOOMS}, not {zoom}")
        if orientation == "pointy":
            a, v = ((1, 1), (3, 2), (4, 3))[zoom]
            return Geometry._pointy(a, v, zoom)
        d, s = ((1, 3), (2, 5), (3, 7))[zoom]
        return Geometry._flat(d, s, zoom)

    @staticmethod
    def _flat(d: int, s: int, zoom: int) -> Geometry:
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
        return Geometry("flat", d, s, 0, outline, tuple(interior), slots)

    @staticmethod
    def _pointy(a: int, v: int, zoom: int) -> Geometry:
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
        return Geometry("pointy", a, 0, v, outline, tuple(interior), slots)

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


def is_shifted(layout: Layout, col: int, row: int) -> bool:
    """Whether this hex's column (flat) or row (pointy) is the half-hex-shifted one."""
    n = row if layout.orientation == "pointy" else col
    return (n % 2 == 0) == (layout.offset == "even")


def neighbor(layout: Layout, col: int, row: int, direction: str) -> tuple[int, int]:
    """The (col, row) across the hexside ``direction`` in an offset grid."""
    shifted = is_shifted(layout, col, row)
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


def edge_index(view: BoardView) -> dict[frozenset[str], tuple[Edge | None, Edge | None]]:
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
