"""Issue 17 item 14: under NO_COLOR every distinction the colours carry has a glyph."""

from __future__ import annotations

import io

from rich.console import Console

from pbem.registry import get
from pbem.render import board_screen, fit_window


def _plain(view, center: str, width: int = 100) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    console = Console(file=out, width=width, no_color=True, color_system=None,
                      highlight=False)
    console.print(board_screen(view, fit_window(view, width, 16, center=center)))
    return out.getvalue()


def test_sides_labels_water_and_the_header_without_colour() -> None:
    engine = get("white-death")
    state = engine.new_state("purkayev", engine.resolve_options({}))
    text = _plain(state.view("german"), "3801")
    # the side of every counter: German [..], Soviet (..), even when the label is cut
    assert "[Ski/3G" in text and "(1188/3" in text
    assert "[] german" in text and "() soviet" in text
    # a cut label is given whole under the board
    assert "in full:" in text and "3901 (1188/357 6)" in text and "3801 [Ski/3Geb 2]" in text
    # standing water and rivers read apart
    assert "% lake" in text and "~ river" in text and "~ lake" not in text
    # the header is folded, not cut
    head = " ".join(text.splitlines()[:2])
    assert "…" not in head and head.rstrip().endswith("Velikiye Luki 0"), head


def test_a_counter_that_shows_only_factors_shows_its_id() -> None:
    """For the Motherland!'s counters print factors ('9-8-7'); the id a player types
    ('14Pz') goes on the line below when the hex has room."""
    engine = get("for-the-motherland")
    state = engine.new_state("4-uranus", engine.resolve_options({}))
    text = _plain(state.view("axis"), "2424")
    assert "[9-8-7]" in text and "14Pz" in text


def test_every_kind_of_water_has_its_own_glyph_and_the_key_says_which() -> None:
    """'~' meant lake, partial lake and river: each kind now reads apart on the map and
    in the key, and no two features of one map share a character."""
    from pbem.render.hexmap import edge_glyphs

    wd = get("white-death")
    view = wd.new_state("purkayev", wd.resolve_options({})).view("german")
    assert edge_glyphs(view) == {"lake": "%", "partial_lake": ";", "slope": "^"}
    text = _plain(view, "3801")
    assert "% lake" in text and "; partial_lake" in text and "~ river" in text

    ftm = get("for-the-motherland")
    view = ftm.new_state("1-barbarossa", ftm.resolve_options({})).view("axis")
    glyphs = edge_glyphs(view)
    assert (glyphs["major_river"], glyphs["minor_river"]) == ("≈", "~")
    assert (glyphs["sea"], glyphs["lake"], glyphs["strait"]) == ("%", "&", "$")
    assert len(set(glyphs.values())) == len(glyphs)
    text = _plain(view, "1735")
    # the sea and lake terrains fill hexes; their hexsides are named apart in the key
    for entry in ("≈ major_river", "~ minor_river", "% sea hexside", "& lake hexside",
                  "$ strait"):
        assert entry in " ".join(text.split()), entry
    board = text.split("map columns")[0]
    assert "%" in board and "&" not in board  # the Black Sea coast, no lake here
    uranus = ftm.new_state("4-uranus", ftm.resolve_options({})).view("axis")
    assert "≈" in _plain(uranus, "2424").split("map columns")[0]  # the Don


def test_a_crowded_hex_and_the_boxes_give_every_id_a_player_types() -> None:
    """'+2' alone hides which units are there; For the Motherland!'s box counters show
    factors only: the ids go under the board and into the box lines."""
    engine = get("for-the-motherland")
    state = engine.new_state("4-uranus", engine.resolve_options({}))
    view = state.view("axis")
    text = _plain(view, "2424")
    below = text.split("in full:")[1]
    # every unit under the top of a stack in the window is named under the board
    from pbem.render import fit_window
    from pbem.render.hexmap import stacks

    window = fit_window(view, 100, 16, center="2424")
    crowded = [s for s in stacks(view).values() if len(s) > 1 and s[0].location in
               {c.hex for c in view.cells if window.contains(c.col, c.row)}]
    assert crowded
    flat = " ".join(below.split())
    for stack in crowded:
        for piece in stack[1:]:
            assert f"{piece.location} " in flat and piece.id in flat, piece
    assert "(OS10 0-0-4)" in " ".join(text.split())
