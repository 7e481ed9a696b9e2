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

from collections.abc import Iterator

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from pbem.render import colors
from pbem.render.hexmap import (
    Geometry,
    Window,
    abbreviate_marker,
    edge_glyphs,
    edge_index,
    is_shifted,
    line_glyph,
    neighbor,
    side_marks,
    stacks,
    terrain_glyphs,
    top_piece,
    zoc_hexes,
)
from pbem.render.theme import style as named_style
from pbem.view import BoardView, Cell, Piece

__all__ = ["BoardRenderable", "BoxesRenderable", "Legend", "StatusLine", "board_screen"]


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
        self.geometry = Geometry.make(view.layout.orientation, zoom)
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
        edges = edge_index(view)
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
                            is_shifted(layout, cell.col, cell.row))

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
