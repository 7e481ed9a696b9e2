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
