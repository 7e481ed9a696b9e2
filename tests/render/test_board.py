"""The terminal board: geometry, content, windows, color and no-color output."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest
from render_maps import GERMAN, RIVER, SOVIET, large_view, small_view
from rich.console import Console

from pbem.render.board import BoardRenderable, Legend, StatusLine, board_screen
from pbem.render.hexmap import Window, abbreviate_marker, fit_window, neighbor
from pbem.render.theme import console_theme
from pbem.view import Layout, Piece

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain(renderable: object, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def colored(renderable: object, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system="truecolor",
                      force_terminal=True, theme=console_theme())
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def bg(color: str) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"48;2;{r};{g};{b}"


def test_whole_small_map_fits_80_columns_and_shows_every_hex() -> None:
    out = plain(BoardRenderable(small_view()))
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    for col in range(1, 11):
        for row in range(1, 9):
            assert f"{col:02d}{row:02d}" in out
    assert "showing" not in out  # the whole map: no window caption


def test_counters_show_top_piece_stack_count_markers_and_side_brackets() -> None:
    out = plain(BoardRenderable(small_view()))
    assert "[6-4-8]" in out  # german counters in [], soviet in ()
    assert "(5-3-4)" in out and "(2-2-4)" in out
    assert "+1 OoS" in out  # stack of two, top out of supply
    assert "+2" in out  # one visible soviet and two hidden beneath
    assert "Rt" in out and "Dep" in out
    board, _, below = out.partition("in full:")
    assert "4-4-6" not in board  # second in its stack: zoom 1 shows only the top
    # issue 17 item 14: what "+1" hides is listed under the board, id and all
    assert "0303 [g2 4-4-6]" in below


def test_hidden_pieces_are_counted_never_identified() -> None:
    view = small_view()
    secret = Piece("s9", "soviet", "9-9-9", "0906", name="Guards", hidden=True, color=SOVIET)
    view = replace(view, pieces=(*view.pieces, secret))
    for zoom in (0, 1, 2):
        out = plain(board_screen(view, zoom=zoom))
        assert "9-9-9" not in out and "Guards" not in out
    assert "?" in plain(BoardRenderable(view))


def test_second_counter_of_a_stack_at_zoom_2() -> None:
    out = plain(BoardRenderable(small_view(), Window(1, 1, 6, 8), zoom=2))
    assert "[6-4-8]" in out and "[4-4-6]" in out


def test_river_hexsides_roads_and_railroads_are_drawn_on_the_crossed_sides() -> None:
    out = plain(BoardRenderable(small_view()))
    # every river hexside has its 2 characters at zoom 1; the road bridges one of them
    assert out.count("~") == 2 * len(RIVER) - 1
    assert out.count("=") == 9  # ten road hexes, nine hexsides crossed
    assert out.count("#") == 7  # eight railroad hexes
    assert "__#__" in out


def test_place_names_drawn_without_hiding_features() -> None:
    out = plain(BoardRenderable(small_view()))
    assert "Kiev_" in out and "Minsk" in out
    assert "Orsha" in out  # its bottom side carries the railroad, so it moves inside


def test_highlights_marked_without_color() -> None:
    out = plain(BoardRenderable(small_view()))
    for hex_id in small_view().highlights:
        assert f"*{hex_id}" in out
    assert "*0101" not in out


def test_zoc_overlay_only_on_request() -> None:
    view = small_view()
    zoc = dict(view.overlays)["zoc:soviet"]
    assert plain(BoardRenderable(view)).count("z") == 0
    assert plain(BoardRenderable(view, show_zoc="soviet")).count("z") == len(zoc)
    assert plain(BoardRenderable(view, show_zoc="zoc:soviet")).count("z") == len(zoc)
    assert plain(BoardRenderable(view, show_zoc="german")).count("z") == 0


def test_no_color_map_uses_terrain_glyphs() -> None:
    out = plain(BoardRenderable(small_view()))
    assert "♣♣♣♣♣♣♣" in out and "∩∩∩" in out and ",,,,,,," in out and "%%%" in out


def test_NO_COLOR_environment_is_honored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    assert console.no_color
    console.print(board_screen(small_view()))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert not re.search(r"\x1b\[[0-9;]*(38|48);", out)  # no colors at all
    text = ANSI.sub("", out)
    assert "♣♣♣" in text and "[6-4-8]" in text and "*0503" in text


def test_color_output_uses_terrain_counter_and_highlight_colors() -> None:
    out = colored(BoardRenderable(small_view(), show_zoc="soviet"))
    assert bg("#3f7f3a") in out  # woods fill
    assert bg("#e8dfb0") in out  # clear fill
    assert bg(SOVIET) in out and bg(GERMAN) in out  # counters
    assert "38;2;48;96;192" in out  # the river's own color (#3060c0)
    text = ANSI.sub("", out)
    assert "*0503" not in text and "0503" in text  # color marks the highlight instead
    assert "[6-4-8]" not in text and " 6-4-8 " in text  # color tells the sides apart


def test_window_shows_only_its_hexes_and_says_so() -> None:
    view = large_view()
    window = Window.centered(view, "2515", 11, 4)
    assert window == Window(20, 14, 11, 4)
    out = plain(BoardRenderable(view, window))
    assert "2515" in out and "[1-1-1]" in out
    assert "2013" not in out and "3115" not in out and "0101" not in out
    assert "showing columns 20-30, rows 14-17" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_windows_clamp_pan_and_fit() -> None:
    view = large_view()
    layout = view.layout
    assert Window.centered(view, "0101", 11, 4) == Window(1, 1, 11, 4)
    assert Window.centered(view, "5030", 11, 4) == Window(40, 27, 11, 4)
    w = Window(1, 1, 11, 4)
    assert w.pan(5, 2, layout) == Window(6, 3, 11, 4)
    assert w.pan(-5, -2, layout) == w
    assert w.pan(100, 100, layout) == Window(40, 27, 11, 4)
    assert Window(1, 1, 99, 99).clamp(layout) == Window(1, 1, 50, 30)
    assert fit_window(view, 80, zoom=1).cols == 11
    assert fit_window(view, 80, zoom=0).cols == 19
    assert fit_window(view, 80, zoom=2).cols == 7
    assert fit_window(view, 80, 20, zoom=1).rows == 4
    assert fit_window(view, 120, 40, zoom=1, center="2515") == Window(18, 11, 16, 9)
    assert fit_window(small_view(), 200, 200) == Window(1, 1, 10, 8)
    with pytest.raises(KeyError):
        Window.centered(view, "9999", 5, 5)


@pytest.mark.parametrize("zoom", [0, 1, 2])
@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_windows_wider_than_the_console_are_cut_to_fit(zoom: int, orientation: str) -> None:
    view = large_view(orientation)
    for width in (40, 80, 132):
        out = plain(BoardRenderable(view, Window(1, 1, 50, 3), zoom=zoom), width=width)
        assert max(len(line) for line in out.splitlines()) <= width
        assert "0101" in out or zoom == 0


def test_zoom_must_be_known() -> None:
    with pytest.raises(ValueError, match="zoom"):
        BoardRenderable(small_view(), zoom=3)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("offset", ["odd", "even"])
def test_neighbors_are_mutual(orientation: str, offset: str) -> None:
    layout = Layout(orientation, offset, (1, 9), (1, 9))  # type: ignore[arg-type]
    opposite = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW",
                "E": "W", "W": "E"}
    dirs = ("NE", "E", "SE", "SW", "W", "NW") if orientation == "pointy" else (
        "N", "NE", "SE", "S", "SW", "NW")
    for col in range(2, 9):
        for row in range(2, 9):
            seen = set()
            for d in dirs:
                other = neighbor(layout, col, row, d)
                assert neighbor(layout, *other, opposite[d]) == (col, row)
                seen.add(other)
            assert len(seen) == 6


def test_pointy_map_draws_edges_on_the_shared_side() -> None:
    view = small_view(layout=Layout("pointy", "even", (1, 10), (1, 8)),
                      lines=(), highlights=())
    out = plain(BoardRenderable(view, Window(1, 1, 9, 8)))
    # in a pointy grid every river pair above is still adjacent: 2 characters each
    # for slanted sides, 2 lines of vertical side for E-W neighbours
    assert out.count("~") >= len(RIVER)
    assert "0101" in out and "(5-3-4)" in out


def test_marker_abbreviations() -> None:
    assert abbreviate_marker("out of supply") == "OoS"
    assert abbreviate_marker("Routed") == "Rt"
    assert abbreviate_marker("no retreat") == "NR"
    assert abbreviate_marker("frozen") == "Fro"


def test_legend_lists_only_what_the_map_uses() -> None:
    out = plain(Legend(small_view(), show_zoc="soviet"), width=200)
    for name in ("clear", "woods", "swamp", "hills", "lake", "river", "road", "railroad",
                 "german", "soviet", "out of supply", "routed", "deployed", "highlighted",
                 "ZOC (soviet)"):
        assert name in out
    assert "[] german" in out and "() soviet" in out
    from pbem.view import TerrainStyle

    view = small_view()
    more = replace(view, terrain=(*view.terrain, TerrainStyle("desert", "#ffff00", ":")))
    assert "desert" not in plain(Legend(more), width=200)


def test_status_line_and_boxes() -> None:
    out = plain(board_screen(small_view()))
    first = out.splitlines()[0]
    assert first.startswith("Synthetic Front") and "[german]" in first
    assert "German movement" in first
    assert "OKH reserve:" in out and "8-6-8" in out
    assert "[referee]" in plain(StatusLine(small_view(side=None)))


def test_output_is_stable(request: pytest.FixtureRequest) -> None:
    """The small map, zoom 1, without color, pinned; rewrite the file on purpose only."""
    golden = request.path.parent / "data" / "small_zoom1.txt"
    out = plain(board_screen(small_view(), show_zoc="soviet"))
    assert out == golden.read_text(encoding="utf-8")


def test_bridges_and_several_features_on_one_hexside() -> None:
    from pbem.view import Edge

    view = small_view(lines=(), edges=(Edge("0506", "0606", "bridge", "#404040"),
                                       Edge("0506", "0606", "river"),
                                       Edge("0507", "0607", "slope", "#805020"),
                                       Edge("0507", "0606", "prohibited", "#c02020")))
    out = plain(BoardRenderable(view))
    assert out.count("~") == 1 and out.count("=") == 1  # river under its bridge
    assert out.count("^") == 2 and out.count("X") == 2
    assert "38;2;64;64;64" in colored(BoardRenderable(view))  # the bridge's own color


def test_irregular_and_odd_views_do_not_break_the_board() -> None:
    view = small_view()
    holes = tuple(c for c in view.cells if (c.col + c.row) % 5)
    lost = Piece("zz", "german", "1-1-1", "nowhere", color=GERMAN)
    odd = replace(view, cells=holes, pieces=(*view.pieces, lost),
                  highlights=("9999", "0101"), overlays=(("zoc:soviet", ("9999",)),))
    odd = replace(odd, cells=(*odd.cells[:-1], replace(odd.cells[-1], terrain="unknown")))
    for zoom in (0, 1, 2):
        out = plain(board_screen(odd, zoom=zoom, show_zoc="soviet"))
        assert "Synthetic Front" in out
    empty = replace(view, cells=(), pieces=(), edges=(), lines=(), highlights=(), boxes=())
    assert "Synthetic Front" in plain(board_screen(empty))


def test_a_river_drawn_through_hex_centers_reads_as_water() -> None:
    from pbem.view import Line

    view = small_view(edges=(), lines=(Line("river", ("0201", "0202", "0203"), "#3060c0"),
                                        Line("road", ("0202", "0203"), "#7a4a20")))
    out = plain(BoardRenderable(view))
    assert out.count("~") == 1 and out.count("=") == 1  # the road bridges the river


def test_terrain_without_glyphs_gets_letters_so_no_color_stays_readable() -> None:
    from pbem.render.hexmap import terrain_glyphs
    from pbem.view import TerrainStyle

    # names the common table (TERRAIN_GLYPHS) does not know: the letters of their names
    terrain = (TerrainStyle("clear", "#e8e0c0"), TerrainStyle("polder", "#508040"),
               TerrainStyle("tundra", "#90a890"), TerrainStyle("depot", "#a0a0a0", "#"))
    view = small_view(terrain=terrain, cells=tuple(
        replace(c, terrain=("clear", "polder", "tundra", "depot")[c.col % 4]) for c in
        small_view().cells))
    glyphs = terrain_glyphs(view)
    # "#" is the board's railroad crossing: without color the depot takes a letter
    assert glyphs == {"clear": (" ", False), "polder": ("p", False), "tundra": ("t", False),
                      "depot": ("d", False)}
    assert terrain_glyphs(view, plain=False)["depot"] == ("#", True)
    out = plain(BoardRenderable(view))
    assert "ppppppp" in out and "ttttttt" in out
    colored_out = ANSI.sub("", colored(BoardRenderable(view)))
    assert "ppppppp" not in colored_out  # made-up letters stay out of the color map
    no_clear = replace(view, terrain=terrain[1:])
    assert terrain_glyphs(no_clear)["polder"][0] in (" ", "p")


def test_one_glyph_per_terrain_whatever_the_engine_gave() -> None:
    """Issue 33: the same terrain reads the same on every engine's map, and never as a
    glyph the key gives to water: Mortain's hedgerow was '%' (the guide's lake), White
    Death's swamp '~' (its river), with colour as without."""
    from pbem.render.hexmap import terrain_glyphs
    from pbem.view import TerrainStyle

    terrain = (TerrainStyle("clear", "#e8e0c0", "."), TerrainStyle("hedgerow", "#b8c890", "%"),
               TerrainStyle("swamp", "#8fb8a8", "~"), TerrainStyle("forest", "#6f9a5e", "^"),
               TerrainStyle("town", "#b0a090", "#"), TerrainStyle("woods-hill", "#4f7a4e"),
               TerrainStyle("sea", "#6090d0", "~"), TerrainStyle("lake", "#8cb8e8", "~"))
    view = small_view(terrain=terrain)
    for plain_mode in (True, False):
        glyphs = {name: g for name, (g, _) in terrain_glyphs(view, plain_mode).items()}
        assert glyphs == {"clear": " ", "hedgerow": '"', "swamp": ",", "forest": "♣",
                          "town": "■", "woods-hill": "♠", "sea": "%", "lake": "&"}


def test_the_key_says_a_shared_glyph_once() -> None:
    """"= bridge  = road" read as a key with a glyph missing: one entry, both names."""
    from pbem.render.board import Legend
    from pbem.view import Edge

    view = small_view(edges=(Edge("0506", "0606", "bridge", "#404040"),
                             Edge("0506", "0607", "river")))
    out = plain(Legend(view))
    assert "= bridge or road" in out and "= road" not in out.replace("or road", "")


def test_hexside_feature_glyphs() -> None:
    from pbem.render.hexmap import edge_glyph, line_glyph

    assert edge_glyph("major_river") == "~" and edge_glyph("minor_river") == "~"
    # issue 17 item 14: standing water is not drawn as a river
    assert edge_glyph("strait") == "%" and edge_glyph("lake") == "%"
    assert edge_glyph("partial_lake") == "%" and edge_glyph("sea") == "%"
    assert edge_glyph("rail_bridge") == "=" and edge_glyph("bridge") == "="
    assert edge_glyph("slope") == "^" and edge_glyph("ridge") == "^"
    assert edge_glyph("out_of_play") == "X" and edge_glyph("prohibited") == "X"
    assert edge_glyph("frozen_access") == "F"
    assert line_glyph("railroad") == "#" and line_glyph("road") == "="
    assert line_glyph("trail") == ":" and line_glyph("river") == "~"


def test_the_board_measures_itself_inside_other_renderables() -> None:
    from rich.panel import Panel

    out = plain(Panel.fit(BoardRenderable(small_view()), title="map"), width=80)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].startswith("╭") and "map" in lines[0]
    assert "0101" in out and "1008" in out
