"""The board and the replay on a phone, a tablet and a desktop, in real headless Chromium.

Issue 33: at 390x844 the map was 0 px wide (the side panel took the screen), counters
could not be read at the opening zoom, and the Mortain replay opened on an empty corner.
Each size here: the map's width on the screen, counters a finger (or an eye) can find,
a unit moved by tapping it and then a hex (a finger on the touch sizes, the mouse on the
desktop), and the replay opening on the units of its latest frame.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cdp import Browser
from test_web_board import Running, movable, new_pair, wait_idle

from pbem.selfplay import selfplay
from pbem.web.replay import build, replay_html
from pbem.web.server import Board, url_of

pytest.importorskip("engines.white_death")
pytest.importorskip("engines.mortain")

SHOTS = os.environ.get("PBEM_SCREENSHOTS")  # a folder: keep the guide's screenshots there

#: (name, width, height, touch): a phone and a tablet held upright, a laptop's screen
SIZES = [("phone", 390, 844, True), ("tablet", 820, 1180, True),
         ("desktop", 1440, 900, False)]


def rect(b: Browser, selector: str) -> dict[str, float]:
    box = b.js(f"(function(){{var r=document.querySelector({json.dumps(selector)})"
               ".getBoundingClientRect(); return {left:r.left, top:r.top, width:r.width,"
               " height:r.height};})()")
    assert box is not None, selector
    return box  # type: ignore[no-any-return]


def press(b: Browser, touch: bool, x: float, y: float) -> None:
    if touch:
        b.tap(x, y)
    else:
        b.click_at(x, y)


def on_screen(b: Browser, selector: str) -> tuple[float, float]:
    """The center of ``selector``, which must be inside the map's box on the screen."""
    box, where = rect(b, "#map"), rect(b, selector)
    x, y = where["left"] + where["width"] / 2, where["top"] + where["height"] / 2
    assert box["left"] <= x <= box["left"] + box["width"], (selector, x, box)
    assert box["top"] <= y <= box["top"] + box["height"], (selector, y, box)
    return x, y


@pytest.mark.parametrize(("size", "width", "height", "touch"), SIZES)
def test_the_board_at_each_size(size: str, width: int, height: int, touch: bool,
                                tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    _, soviet, name = new_pair(tmp_path, "white-death", "purkayev", "german", folder)
    board = Board(soviet, name, folder=folder)
    running = Running(board)
    b = Browser(width, height)
    try:
        b.emulate(width, height, touch)
        b.open(url_of(running.server))
        b.wait("document.body.dataset.files === '3'")
        wait_idle(b)
        b.js("window.scrollTo(0, 0)")
        # the map first, as wide as the screen on a phone and a tablet (it was 0 px)
        box = rect(b, "#map")
        if touch:
            assert box["width"] >= 0.9 * width, box
            assert box["height"] >= 0.5 * height, box
        else:
            assert box["width"] >= 0.6 * width and box["height"] >= 0.8 * height, box
        # counters read at the opening zoom: at least 44 px, a fingertip
        sizes = b.js("Array.from(document.querySelectorAll('#live-counters .face'))"
                     ".map(r => r.getBoundingClientRect().width)")
        assert sizes and min(sizes) >= 44, sizes
        # the player's own units are in sight at once
        seen = b.js("(function(){var m=document.getElementById('map').getBoundingClientRect();"
                    "return Array.from(document.querySelectorAll('.counter[data-side=soviet]'))"
                    ".filter(function(n){var r=n.getBoundingClientRect(); return r.left>=m.left"
                    " && r.right<=m.right && r.top>=m.top && r.bottom<=m.bottom;}).length;})()")
        assert seen >= 3, seen
        # a thumb-sized answer, tapped
        button = '#options button[data-action="impulse 4"]'
        if touch:
            assert rect(b, button)["height"] >= 44
        press(b, touch, *b.center_of(button))
        b.wait("!document.querySelector('#options button[data-action=\"impulse 4\"]')")
        assert soviet.game(name).pending[-1] == ["a", "impulse 4"]
        b.js("window.scrollTo(0, 0)")
        # tap a unit, then a hex it may go to: the unit moves, on the map and in the save
        game = soviet.game(name)
        unit, target, action = movable(board, game)
        b.js(f"pbem.showPiece({json.dumps(unit)})")  # brought into sight, zoom kept
        press(b, touch, *on_screen(b, f'.counter[data-piece="{unit}"]'))
        b.wait("document.querySelectorAll('#targets polygon').length > 0")
        b.js(f"pbem.centerOn({json.dumps(target)})")
        press(b, touch, *on_screen(b, f'#targets polygon[data-hex="{target}"]'))
        b.wait(f"(document.querySelector('.counter[data-piece={json.dumps(unit)}]') || {{}})"
               f".getAttribute && document.querySelector('.counter[data-piece="
               f"{json.dumps(unit)}]').getAttribute('data-hex') === {json.dumps(target)}")
        assert soviet.game(name).pending[-1] == ["a", action]
        if SHOTS:
            b.js("window.scrollTo(0, 0)")
            b.screenshot(Path(SHOTS) / f"board-{size}.png")
        assert b.console_errors() == []
    finally:
        b.close()
        running.stop()


def view_box(b: Browser) -> list[float]:
    """The window on the map: the viewBox holds its size, the pan group where it is."""
    box = b.js("(function(){var v=document.getElementById('board').getAttribute('viewBox')"
               ".split(/\\s+/).map(Number), m=/translate\\(([^,]+),([^)]+)\\)/.exec("
               "document.getElementById('pan').getAttribute('transform')||'');"
               "return m ? [v[0]-Number(m[1]), v[1]-Number(m[2]), v[2], v[3]] : v;})()")
    return [float(v) for v in box]


def test_drag_and_pinch_with_fingers(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    _, soviet, name = new_pair(tmp_path, "white-death", "purkayev", "german", folder)
    running = Running(Board(soviet, name, folder=folder))
    b = Browser(390, 844)
    try:
        b.emulate(390, 844, True)
        b.open(url_of(running.server))
        b.wait("document.body.dataset.files === '3'")
        wait_idle(b)
        b.js("window.scrollTo(0, 0)")
        box = rect(b, "#map")
        cx, cy = box["left"] + box["width"] / 2, box["top"] + box["height"] / 2
        b.js("pbem.centerOn('3010'); pbem.show('3010')")  # the middle of the map
        before = view_box(b)
        scroll = b.js("window.scrollY")
        # one finger drags the map (not the page) by 60 px: the view moves 60 px' worth
        b.touch("touchStart", [(cx, cy)])
        for k in range(1, 7):
            b.touch("touchMove", [(cx - 10 * k, cy)])
        b.touch("touchEnd", [])
        after = view_box(b)
        per_px = before[2] / box["width"]
        assert after[0] == pytest.approx(before[0] + 60 * per_px, abs=2 * per_px)
        assert after[2] == before[2] and b.js("window.scrollY") == scroll
        # two fingers spread apart zoom in, about the point between them
        b.touch("touchStart", [(cx - 40, cy), (cx + 40, cy)])
        for k in range(1, 9):
            b.touch("touchMove", [(cx - 40 - 2.5 * k, cy), (cx + 40 + 2.5 * k, cy)])
        b.touch("touchEnd", [])
        zoomed = view_box(b)
        assert zoomed[2] == pytest.approx(after[2] * 80 / 120, rel=0.05)
        middle = after[0] + after[2] / 2
        assert zoomed[0] + zoomed[2] / 2 == pytest.approx(middle, abs=3 * per_px)
        assert b.console_errors() == []
    finally:
        b.close()
        running.stop()


@pytest.fixture(scope="module")
def mortain_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The German player's replay of Mortain's first turn, played by the bots."""
    root = tmp_path_factory.mktemp("mortain")
    assert selfplay("mortain", "counterattack", 1, root, max_turns=1).desyncs == 0
    files = [p.read_bytes() for p in sorted((root / "files").glob("*.pbem"))]
    book = build(files, "german")
    page = root / "replay.html"
    page.write_text(replay_html(book), encoding="utf-8")
    yield page, book.data


@pytest.mark.parametrize(("size", "width", "height", "touch"), SIZES)
def test_the_replay_opens_on_the_action_at_each_size(
        size: str, width: int, height: int, touch: bool,
        mortain_page: tuple[Path, dict[str, Any]]) -> None:
    page, data = mortain_page
    b = Browser(width, height)
    try:
        b.emulate(width, height, touch)
        b.open(page.as_uri())
        b.wait("window.pbem !== undefined")
        box = rect(b, "#map")
        if touch:
            assert box["width"] >= 0.9 * width and box["height"] >= 0.5 * height, box
        else:
            assert box["width"] >= 0.6 * width and box["height"] >= 0.8 * height, box
        # the window opens where the latest frame's units are, both sides' (Mortain's
        # first frame has none: the German player sees the map before the US sets up)
        x, y, w, h = view_box(b)
        centers = data["map"]["centers"]
        latest = [data["pieces"][k] for k in data["frames"][-1]["pieces"]]
        inside = [row for row in latest if row[7] in centers
                  and x <= centers[row[7]][0] <= x + w and y <= centers[row[7]][1] <= y + h]
        assert len(inside) >= 4 and {row[1] for row in inside} == {"us", "german"}, inside
        assert w < 0.6 * (max(c[0] for c in centers.values()))  # zoomed in to read
        # event numbers from 10 up are not cut off
        b.js(f"pbem.go({len(data['frames']) - 1}, false)")
        fits = b.js("(function(){var ol=document.getElementById('event-list');"
                    "var s=document.createElement('span'); s.textContent='100.';"
                    "ol.appendChild(s); var w=s.getBoundingClientRect().width; s.remove();"
                    "return parseFloat(getComputedStyle(ol).paddingLeft) >= w + 4;})()")
        assert fits
        if SHOTS:
            b.js("window.scrollTo(0, 0)")
            b.screenshot(Path(SHOTS) / f"replay-mortain-{size}.png")
        assert b.console_errors() == []
    finally:
        b.close()


@pytest.mark.parametrize(("size", "width", "height", "touch"), [SIZES[0], SIZES[2]])
def test_a_set_up_placed_by_tapping_the_map(size: str, width: int, height: int,
                                            touch: bool, tmp_path: Path) -> None:
    """Mortain's US set-up (rule 13.0) asks where each unit goes: the hexes it may go to
    light up on the map, and a tap on one places it."""
    folder = tmp_path / "shared"
    folder.mkdir()
    us, _, name = new_pair(tmp_path, "mortain", "counterattack", "us", folder)
    running = Running(Board(us, name, folder=folder))
    b = Browser(width, height)
    try:
        b.emulate(width, height, touch)
        b.open(url_of(running.server))
        b.wait("document.body.dataset.files !== undefined")
        for placed in range(2):
            decision = us.game(name).my_decision()
            assert decision is not None and decision.rule.startswith("13")
            places = {o.notation().split()[-1]: o.notation() for o in decision.options}
            b.wait(f"document.querySelectorAll('#targets polygon').length === {len(places)}")
            lit = b.js("Array.from(document.querySelectorAll('#targets polygon'))"
                       ".map(p => p.getAttribute('data-hex'))")
            assert set(lit) == set(places)
            b.js("window.scrollTo(0, 0)")
            # a lit hex in sight: the view opened on the places
            hexes = [h for h in sorted(places) if b.js(
                f"(function(){{var r=document.querySelector('#targets polygon[data-hex=\"{h}\"]')"
                ".getBoundingClientRect(), m=document.getElementById('map')"
                ".getBoundingClientRect(); return r.left>=m.left && r.right<=m.right &&"
                " r.top>=m.top && r.bottom<=m.bottom;})()")]
            assert hexes, "no lit hex in sight"
            hex_id = hexes[len(hexes) // 2]
            before = int(b.js("document.body.dataset.version"))
            press(b, touch, *on_screen(b, f'#targets polygon[data-hex="{hex_id}"]'))
            b.wait(f"Number(document.body.dataset.version) > {before}")
            assert us.game(name).pending[-1] == ["a", places[hex_id]]
            assert b.js(f"!!document.querySelector('.counter[data-hex=\"{hex_id}\"]')")
            assert len(us.game(name).pending) == placed + 1
        assert b.console_errors() == []
    finally:
        b.close()
        running.stop()
