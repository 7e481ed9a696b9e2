"""The page's data block (:func:`pbem.web.replay.script_json`): the JSON of what the page
may show, made without copying data that has nothing to escape (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.render import svg
from pbem.testing import fresh_run
from pbem.text import BIDI, displayable
from pbem.web import replay
from pbem.web.replay import script_json


def as_before(value: Any) -> str:
    """The block as it was made before: every string of the data through displayable()."""
    text = json.dumps(displayable(value), ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


@settings(max_examples=500, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(
        exclude_categories=()) | st.sampled_from(
            sorted(BIDI) + list("\n\t\r\b\f\\\"\x00\x1b\x7f\x85\u2028\u2029\u00a0<&>"))),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=4) | st.integers(), inner, max_size=4),
    max_leaves=12))
def test_the_data_block_is_the_json_of_what_the_page_may_show(value: Any) -> None:
    """Plain or hostile (a bidi override, an escape sequence, a line separator, a string
    that merely reads like a JSON escape), the block is what displayable() made of it."""
    assert script_json(value) == as_before(value)


def test_plain_data_is_not_copied_to_be_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose strings need no escape is dumped as it is: the copy of every value
    through displayable() was three times the dump for a White Death game (issue 35)."""
    copies: list[object] = []

    def counting(value: object) -> object:
        copies.append(value)
        return displayable(value)

    monkeypatch.setattr(replay, "displayable", counting)
    plain = {"title": "Purkayev", "frames": [{"events": [["move", "1/31R 3703 -> 3702"]],
                                              "note": "two\nlines\tand a \"quote\" \\ "}]}
    assert script_json(plain) == as_before(plain)
    assert copies == []
    hostile = {"m": "Ivan \u202egnp.exe\x1b[2J"}
    block = script_json(hostile)
    assert block == as_before(hostile) and "\u202e" not in block and copies == [hostile]


def test_every_bidi_control_is_found_by_the_printable_check() -> None:
    """The data block's fast check finds a bidi control through str.isprintable() alone
    (each is a format character): a page with one in it is still made safe, whatever
    else the text holds (issue 35: checking the whole text against the set again was a
    seventeenth of a White Death page)."""
    assert not any(c.isprintable() for c in BIDI)
    for c in sorted(BIDI):
        value = {"frames": [{"events": [["info", "x" * 5000 + c + "y"]]}]}
        assert c not in script_json(value)
        assert script_json(value) == as_before(value)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(
    [chr(c) for c in range(0x80)] + ["\\u", "\\r", "\\b", "\\f", "\\n", "\\\"",
                                      "\u00e9", "\u202e", "\x85", "\u00a0"])).map("".join))
def test_the_fast_check_reads_a_text_as_the_printable_check_did(text: str) -> None:
    """The data block's check (an ASCII text's bytes, one search for the escapes) says
    what str.isprintable() and a search for each escape said, whatever the text."""
    before = text.isprintable() and not any(e in text for e in replay._CONTROL_ESCAPES)
    assert replay._as_shown(text) == before
    plain = text.encode("ascii", "ignore").decode("ascii")  # the ASCII path as well
    assert replay._as_shown(plain) == (
        plain.isprintable() and not any(e in plain for e in replay._CONTROL_ESCAPES))


def test_a_value_json_cannot_write_fails_as_it_did() -> None:
    with pytest.raises(TypeError):
        script_json({"a": object()})


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=())
               | st.sampled_from(list("&<>\"'\n\r\t;#"))))
def test_the_drawing_escapes_text_as_xml_sax_did(text: str) -> None:
    """The SVG's own escapes write what xml.sax.saxutils wrote (no drawing changes)."""
    from xml.sax.saxutils import escape as sax_escape
    from xml.sax.saxutils import quoteattr as sax_quoteattr

    assert svg.escape(text) == sax_escape(text)
    assert svg.quoteattr(text) == sax_quoteattr(text)


@given(st.text(alphabet=st.sampled_from(list("&<>\"' a\n")) | st.characters()),
       st.booleans())
def test_the_page_escapes_markup_as_html_did(text: str, quote: bool) -> None:
    import html

    assert replay._escape(text, quote) == html.escape(text, quote)


def test_a_page_reads_no_module_it_does_not_use() -> None:
    """Making a replay page (its map drawn, its script hashed, its assets read) imports
    neither xml.sax (whose urllib.request brings http.client, ssl and email), hashlib,
    html nor importlib.resources: 130 modules a referee's 'audit --html' loaded for a few
    string escapes, one digest and two file reads (issue 35)."""
    loaded = fresh_run(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from render_maps import small_view\n"
        "from pbem.web.replay import map_data, page\n"
        "view = small_view()\n"
        "assert page({'map': map_data(view, 3)}, title='t', mode='replay')\n"
        "print(*sorted(m for m in ('xml.sax', 'urllib.request', 'http.client', 'hashlib',\n"
        "      'html', 'importlib.resources') if m in sys.modules))\n")
    assert loaded == [""]


def test_a_drawing_writes_each_attribute_value_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map's drawing writes the same colours and fonts thousands of times: each value is
    quoted once and then found (issue 35); the drawing is the same."""
    from render_maps import small_view

    view = small_view()
    before = svg.board_svg(view, scale=30)
    quoted: list[str] = []
    real = svg.quoteattr

    def counting(value: str) -> str:
        quoted.append(value)
        return real(value)

    monkeypatch.setattr(svg, "quoteattr", counting)
    svg._ATTRS.clear()
    assert svg.board_svg(view, scale=30) == before
    assert quoted and len(quoted) == len(set(quoted))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_a_hex_has_the_corners_it_had(orientation: str) -> None:
    """Each hex's corners from the directions computed once are the numbers the drawing
    computed for each hex (the same floats: the page's bytes do not change)."""
    import math
    from dataclasses import replace

    from render_maps import small_view

    view = small_view()
    view = replace(view, layout=replace(view.layout, orientation=orientation))
    g = svg.svg_geometry(view, scale=36)
    start = 0 if orientation == "flat" else 30
    for cell in view.cells:
        cx, cy = g.center(cell)
        for shrink in (1.0, 0.8):
            r = g.scale * shrink
            assert g.corners(cell, shrink) == [
                (cx + r * math.cos(math.radians(start + 60 * k)),
                 cy + r * math.sin(math.radians(start + 60 * k))) for k in range(6)]


def test_a_drawing_formats_each_number_once() -> None:
    """A map's hexes share their corners, columns and rows: each coordinate is formatted
    once and then found (issue 35), and the drawing is the same as one made afresh."""
    from render_maps import small_view

    view = small_view()
    svg._NUMBERS.clear()
    before = svg.board_svg(view, scale=30)
    kept = dict(svg._NUMBERS)
    assert kept and all(text == ("0.0" if f"{x:.1f}" == "-0.0" else f"{x:.1f}")
                        for x, text in kept.items())
    written = sum(before.count(text) for text in set(kept.values()))
    assert written > 2 * len(kept)  # the same numbers, many times over
    svg._NUMBERS.clear()
    assert svg.board_svg(view, scale=30) == before
    assert svg._n(-0.04) == "0.0" and svg._n(0.0) == "0.0" and svg._n(2.25) == "2.2"
