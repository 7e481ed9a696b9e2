"""The replay page (``pbem replay --html``, ``pbem audit --html``): a real game, in Chromium.

A short White Death game is played by the selfplay bots through real files; its replay
page must open offline (nothing fetched), play, step, slide moved counters, draw the map's
terrain where the hexes are, explain every roll, and show each side only what it may see.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cdp import Browser
from click.testing import CliRunner
from render_maps import small_view

from pbem.cli import main
from pbem.engine import Event
from pbem.errors import UsageError
from pbem.render import colors
from pbem.selfplay import selfplay
from pbem.text import displayable
from pbem.web.replay import PieceTable, build, frame_data, map_data, page

pytest.importorskip("engines.white_death")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A White Death game's first turn, played by two bots through files (8 files)."""
    root = tmp_path_factory.mktemp("wd")
    result = selfplay("white-death", "purkayev", 1, root, max_turns=1)
    assert result.desyncs == 0
    return root


@pytest.fixture(scope="module")
def files(played: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted((played / "files").glob("*.pbem"))]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def page_data(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="pbem-data">(.*?)</script>', html,
                      re.S)
    assert found
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_page_is_self_contained_and_each_side_sees_only_its_own(files: list[bytes]) -> None:
    soviet = build(files, "soviet")
    html = page(soviet.data, title="t", mode="replay")
    # nothing to fetch: no src or href anywhere, and a policy that forbids every load
    assert not re.search(r"\s(src|href)=", html)
    assert "default-src 'none'" in html and "connect-src" not in html
    data = page_data(html)
    assert data["verdict"].startswith(f"CLEAN: {len(files)} files")  # type: ignore[union-attr]
    rolls = data["rolls"]
    # every roll of the game, as the audit of the same files counts them
    assert len(rolls) == len(soviet.report.rolls) >= 2  # type: ignore[arg-type]
    first = rolls[0]  # type: ignore[index]
    assert first["name"] == "2.0" and first["purpose"] == "weather for turn 1"
    assert first["rule"] == "Rule 16" and any("seed = SHA-256" in line
                                              for line in first["explain"])
    # every roll is told in the frames under its SEQ.INDEX name
    told = " ".join(e[1] for f in data["frames"] for e in f["events"])  # type: ignore[union-attr]
    for roll in rolls:  # type: ignore[union-attr]
        assert f"roll {roll['name']}:" in told
    # the Soviet replay never holds a German counter the Soviet may not see
    initial = _initial(files)
    hidden = ({p.id for p in initial.view(None).pieces if p.side == "german"}
              - {p.id for p in initial.view("soviet").pieces})
    assert hidden
    soviet_ids = {row[0] for row in soviet.data["pieces"]}
    assert not soviet_ids & hidden
    for unit in hidden:
        assert json.dumps(unit)[1:-1] not in html
    # the German replay counts them in their stacks; the Soviet one does not
    german = build(files, "german").data
    where = {p.id: p.location for p in initial.view(None).pieces}

    def depth(data: dict[str, Any], hex_id: str) -> int:
        rows = [data["pieces"][k] for k in data["frames"][0]["pieces"]]
        return sum(1 + row[8] for row in rows if row[7] == hex_id)

    for unit in hidden:
        assert depth(german, where[unit]) > depth(soviet.data, where[unit])


def _initial(files: list[bytes]):  # type: ignore[no-untyped-def]
    from pbem.envelope import open_envelope
    from pbem.registry import get
    from pbem.transcript import Verifier, parse_invite

    invite = open_envelope(files[0])
    return Verifier(get(parse_invite(invite).engine_id), invite).state


def test_referee_view_only_for_a_finished_game(files: list[bytes], played: Path,
                                               tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="finished game only"):
        build(files, None)
    runner = CliRunner()
    out = tmp_path / "audit.html"
    done = runner.invoke(main, ["audit", str(played / "files"), "--html", str(out)])
    assert done.exit_code != 0 and "finished game only" in done.output and not out.exists()
    done = runner.invoke(main, ["audit", str(played / "files"), "--html", str(out),
                                "--side", "german"])
    assert done.exit_code == 0, done.output
    assert page_data(out.read_text(encoding="utf-8"))["side"] == "german"
    home = played / "home-a"
    name = next((home / "games").glob("*.pbsave")).stem
    copy = tmp_path / "home"
    shutil.copytree(home, copy)
    game_html = tmp_path / "game.html"
    done = runner.invoke(main, ["--home", str(copy), "replay", name, "--html",
                                str(game_html)])
    assert done.exit_code == 0, done.output
    assert f"written to {game_html}" in done.output
    assert page_data(game_html.read_text(encoding="utf-8"))["side"] == "soviet"
    done = runner.invoke(main, ["--home", str(copy), "replay", name, "--html",
                                str(game_html), "--referee"])
    assert done.exit_code != 0 and "not over" in done.output


HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def test_hostile_text_from_files_stays_text(browser: Browser, tmp_path: Path) -> None:
    """Unit names, place names and messages come from files: never markup in the page."""
    view = small_view("german")
    cells = list(view.cells)
    cells[0] = type(cells[0])(cells[0].hex, cells[0].col, cells[0].row, cells[0].terrain,
                              HOSTILE)
    pieces = list(view.pieces)
    pieces[0] = type(pieces[0])(pieces[0].id, pieces[0].side, HOSTILE, pieces[0].location,
                                name=HOSTILE, color=pieces[0].color)
    view = type(view)(**{**view.__dict__, "cells": tuple(cells), "pieces": tuple(pieces)})
    table = PieceTable()
    frame = frame_data(view, [Event(f"message: {HOSTILE}", "info")], "german", table)
    data = {"title": HOSTILE, "side": "german", "engine": "x", "scenario": "y",
            "verdict": HOSTILE, "clean": True, "result": "", "map": map_data(view, 3),
            "pieces": table.rows, "frames": [frame], "rolls": [], "files": []}
    path = tmp_path / "hostile.html"
    path.write_text(page(data, title=HOSTILE, mode="replay"), encoding="utf-8")
    browser.open(path.as_uri())
    assert browser.js("window.pwned === undefined")
    assert browser.js("document.querySelectorAll('img').length") == 0
    assert browser.js("document.getElementById('event-list').textContent") == \
        f"message: {HOSTILE}"
    assert browser.js("document.getElementById('verdict-text').textContent") == HOSTILE
    labels = browser.js("Array.from(document.querySelectorAll('#places text'))"
                        ".map(t => t.textContent)")
    assert HOSTILE in labels
    assert browser.console_errors() == []


def test_replay_plays_in_chromium(browser: Browser, files: list[bytes],
                                  tmp_path: Path) -> None:
    book = build(files, "soviet")
    path = tmp_path / "replay.html"
    path.write_text(page(book.data, title="replay", mode="replay"), encoding="utf-8")
    browser.open(path.as_uri())
    assert browser.console_errors() == []
    # offline: the page loaded nothing beyond itself
    assert browser.js("performance.getEntriesByType('resource').length") == 0
    frames = book.data["frames"]
    assert browser.js("pbem.count()") == len(frames) and browser.js("pbem.frame()") == 0
    browser.click("#step")
    assert browser.js("document.body.dataset.frame") == "1"
    assert "accepted the invitation" in browser.js(
        "document.getElementById('event-list').textContent")
    # a frame where a Soviet unit moves: its counter slides from where it stood
    moving = next(i for i, f in enumerate(frames)
                  if i > 1 and any(e[0] == "move" and " moves " in e[1] for e in f["events"]))
    browser.js(f"pbem.go({moving - 1}, false)")
    browser.click("#step")
    assert browser.js("document.querySelectorAll('.counter.moving').length") >= 1
    # a roll in the frame lights its line in the dice log
    rolled = next(i for i, f in enumerate(frames) if any(e[0] == "roll" for e in f["events"]))
    browser.js(f"pbem.go({rolled}, false)")
    assert browser.js("document.querySelectorAll('#dice-list .roll.now').length") >= 1
    # play at 8x: the frames advance by themselves
    browser.js("pbem.go(0, false); var s = document.getElementById('speed');"
               "s.value = '8'; s.dispatchEvent(new Event('change'))")
    browser.click("#play")
    browser.wait("pbem.frame() >= 4", timeout=30)
    browser.click("#play")  # pause
    stopped = browser.js("pbem.frame()")
    if os.environ.get("PBEM_SCREENSHOTS"):
        browser.screenshot(Path(os.environ["PBEM_SCREENSHOTS"]) / "replay-white-death.png")
    browser.js("new Promise(r => setTimeout(r, 600))")
    assert browser.js("pbem.frame()") == stopped


def test_screenshot_pixels_match_the_terrain(browser: Browser, files: list[bytes],
                                             tmp_path: Path) -> None:
    book = build(files, "german")
    path = tmp_path / "replay.html"
    path.write_text(page(book.data, title="replay", mode="replay"), encoding="utf-8")
    browser.open(path.as_uri())
    state = _initial(files)
    view = state.view("german")
    busy = {p.location for p in view.pieces} | {c.hex for c in view.cells if c.label}
    busy |= {h for line in view.lines for h in line.hexes}
    busy |= {h for e in view.edges for h in (e.a, e.b)}
    busy |= set(book.data["frames"][0]["hexes"])
    # the hexes on screen, where the browser put them
    spots = browser.js(
        "(function(){var out={}, W=innerWidth, H=innerHeight;"
        "document.querySelectorAll('#hexes polygon').forEach(function(p){"
        "var r=p.getBoundingClientRect(), x=r.left+r.width/2, y=r.top+r.height/2;"
        "var m=document.getElementById('map').getBoundingClientRect();"
        "if(x>m.left+20&&x<m.right-20&&y>m.top+20&&y<m.bottom-20&&r.width>12)"
        "out[p.getAttribute('data-hex')]=[x,y,p.getAttribute('data-terrain')];});"
        "return out;})()")
    image = browser.screenshot(tmp_path / "shot.png")
    fills = {t.name: t.color for t in view.terrain}
    checked: dict[str, int] = {}
    for hex_id, (x, y, terrain) in sorted(spots.items()):
        if hex_id in busy or checked.get(terrain, 0) >= 3:
            continue
        got = image.pixel(x, y + 4)  # below the hex number
        want = colors.parse(fills[terrain])
        assert all(abs(a - b) <= 12 for a, b in zip(got, want, strict=True)), (
            hex_id, terrain, got, fills[terrain])
        checked[terrain] = checked.get(terrain, 0) + 1
    assert len(checked) >= 2 and sum(checked.values()) >= 5


def test_town_names_clear_of_counters_and_legend_in_players_words(
        browser: Browser, files: list[bytes], tmp_path: Path) -> None:
    book = build(files, "german")
    path = tmp_path / "replay.html"
    path.write_text(page(book.data, title="replay", mode="replay"), encoding="utf-8")
    browser.open(path.as_uri())
    for frame in (0, len(book.data["frames"]) - 1):
        browser.js(f"pbem.go({frame}, false)")
        crossing = browser.js(
            "(function(){var faces=Array.from(document.querySelectorAll('.counter .face'))"
            ".map(f=>f.getBoundingClientRect()), out=[];"
            "document.querySelectorAll('#places text').forEach(function(t){"
            "if(t.getAttribute('opacity')) return; var b=t.getBoundingClientRect();"
            "faces.forEach(function(r){if(b.left<r.right-0.5&&b.right>r.left+0.5&&"
            "b.top<r.bottom-0.5&&b.bottom>r.top+0.5) out.push(t.textContent);});});"
            "return out;})()")
        assert crossing == [], crossing
    moved = browser.js("document.querySelectorAll('#places text[data-moved]').length")
    assert moved >= 1, "Velikiye Luki's garrison sits on its names: some must move"
    # a name left where it is (faded) is drawn under the counters, never over them
    assert browser.js("!!(document.getElementById('places').compareDocumentPosition("
                      "document.getElementById('live-counters')) & "
                      "Node.DOCUMENT_POSITION_FOLLOWING)")
    legend = browser.js("Array.from(document.querySelectorAll('#legend text'))"
                        ".map(t => t.textContent)")
    assert {"Forest", "Partial lake hexside", "Slope hexside", "Railroad"} <= set(legend)
    assert not [w for w in legend if "_" in w]


def test_static_svg_town_names_clear_of_counters(browser: Browser, tmp_path: Path,
                                                 files: list[bytes]) -> None:
    """``pbem show --svg`` places names the same way: checked on Chromium's real text."""
    from pbem.render.svg import board_svg

    view = _initial(files).view("german")
    path = tmp_path / "board.html"
    path.write_text("<!DOCTYPE html><html><body style='margin:0'>"
                    + board_svg(view).split("?>", 1)[-1] + "</body></html>", encoding="utf-8")
    browser.open(path.as_uri())
    crossing = browser.js(
        "(function(){var faces=Array.from(document.querySelectorAll('#counters rect.counter'))"
        ".map(f=>f.getBoundingClientRect()), out=[];"
        "document.querySelectorAll('#places text').forEach(function(t){"
        "if(t.getAttribute('opacity')) return; var b=t.getBoundingClientRect();"
        "faces.forEach(function(r){if(b.left<r.right-0.5&&b.right>r.left+0.5&&"
        "b.top<r.bottom-0.5&&b.bottom>r.top+0.5) out.push(t.textContent);});});"
        "return [out, faces.length, document.querySelectorAll('#places text').length];})()")
    assert crossing[0] == [] and crossing[1] > 20 and crossing[2] > 10, crossing


def test_referee_replay_of_a_finished_game(played: Path, tmp_path: Path) -> None:
    """Once the game is over (here: the Soviet player resigns), the referee's page shows
    everything, hidden units included, and ends with the result."""
    copy = tmp_path / "home"
    shutil.copytree(played / "home-a", copy)
    from pbem.session import Home

    home = Home(copy, clock=lambda: 0)
    name = next((copy / "games").glob("*.pbsave")).stem
    game = home.game(name)
    game.resign()
    out = tmp_path / "referee.html"
    done = CliRunner().invoke(main, ["--home", str(copy), "replay", name, "--html", str(out),
                                     "--referee"])
    assert done.exit_code == 0, done.output
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["side"] == "referee" and "resigned" in data["result"]  # type: ignore[operator]
    last = data["frames"][-1]  # type: ignore[index]
    assert last["events"][-1][1].startswith("game over:")
    initial = _initial(game.files)
    everything = {p.id for p in initial.view(None).pieces}
    seen = {row[0] for row in data["pieces"]} | {  # type: ignore[union-attr]
        p.id for p in initial.view(None).pieces if sum(
            1 for q in initial.view(None).pieces if q.location == p.location) > 1}
    assert everything <= seen


def test_bidi_and_control_characters_from_files_are_shown_as_escapes() -> None:
    """A right-to-left override or an escape sequence in a name or message would reorder or
    hide what the page shows even as text: the page gets them as visible escapes."""
    hostile = "Ivan \u202egnp.exe\x1b[2J"
    html_text = page({"title": "t", "verdict": hostile, "frames": [],
                      "pieces": [{"name": hostile}]}, title="t", mode="replay")
    assert "\u202e" not in html_text and "\x1b" not in html_text
    assert "\\\\u202e" in html_text and "\\\\x1b" in html_text
    # plain words, newlines in a message and action notations pass unchanged
    assert displayable({"m": "two\nlines", "a": ["move 1/31R 3703 3702"]}) == \
        {"m": "two\nlines", "a": ["move 1/31R 3703 3702"]}


def test_multi_line_text_is_escaped_as_surely_as_one_line() -> None:
    """Multi-line text (a message, the map's drawing) passes at C speed when it is plain
    (issue 35): a control, separator or bidi character on any of its lines is still shown
    as an escape, and what is not one (a no-break space) stays as it is."""
    assert displayable("one\n\tline \u00a0two\n") == "one\n\tline \u00a0two\n"
    for bad, shown in (("\u202e", "\\u202e"), ("\x1b", "\\x1b"), ("\u2028", "\\u2028"),
                       ("\r", "\\x0d"), ("\x7f", "\\x7f")):
        assert displayable(f"<svg>\n<text>{bad}</text>\n</svg>") == \
            f"<svg>\n<text>{shown}</text>\n</svg>"


# The names' placing as it was first written: each name moved to each shape in turn and its
# own box read there.  The page reads the boxes from copies instead (a layout per name and
# try made a long game's frame take a tenth of a second); the outcome must not change.
MOVING_THE_NAME = """(function(){
  var d = pbem.data, R = d.map.r, C = R * 1.12, rects = [], inBox = {};
  pbem.data.frames[pbem.frame()].pieces.forEach(function (k) {
    var loc = d.pieces[k][7], x, y, b = d.map.boxes[loc];
    if (d.map.centers[loc]) { x = d.map.centers[loc][0]; y = d.map.centers[loc][1] + R * 0.04; }
    else if (b) { var n = inBox[loc] || 0, s = R * 0.95; inBox[loc] = n + 1;
      x = b[0] + R * 0.3 + s / 2 + n * s * 1.15; y = b[1] + R * 0.65 + s / 2; }
    else return;
    rects.push([x - C / 2, y - C / 2 - R * 0.25, x + C / 2 + R * 0.25, y + C / 2]);
  });
  function hits(b) { return rects.some(function (r) {
    return b.x < r[2] && b.x + b.width > r[0] && b.y < r[3] && b.y + b.height > r[1]; }); }
  var names = ['y', 'font-size', 'opacity', 'data-moved'];
  return Array.from(document.querySelectorAll('#places text')).map(function (t) {
    var drawn = names.map(function (a) { return t.getAttribute(a); });
    var y0 = Number(t.getAttribute('data-y')), size0 = Number(t.getAttribute('data-size'));
    var above = y0 - R * 1.42, out;
    var tries = [[y0, 1], [above, 1], [y0, 0.75], [above, 0.75], [y0, 0.6], [above, 0.6]];
    t.removeAttribute('opacity');
    for (var i = 0; i < tries.length; i++) {
      t.setAttribute('y', tries[i][0]); t.setAttribute('font-size', size0 * tries[i][1]);
      if (!hits(t.getBBox())) break;
    }
    if (i === tries.length) out = [String(y0), String(size0 * 0.75), '0.35', 'faded'];
    else out = [String(tries[i][0]), String(size0 * tries[i][1]), null, i ? '1' : null];
    names.forEach(function (a, n) {
      if (drawn[n] === null) t.removeAttribute(a); else t.setAttribute(a, drawn[n]); });
    return [t.textContent, drawn, out];
  }).filter(function (r) { return JSON.stringify(r[1]) !== JSON.stringify(r[2]); });
})()"""


@pytest.mark.parametrize(("width", "height", "touch"), [(1280, 860, False), (390, 844, True)])
def test_town_names_placed_as_by_moving_each_name(files: list[bytes], tmp_path: Path,
                                                  width: int, height: int,
                                                  touch: bool) -> None:
    """Every frame, stepped and jumped to, zoomed out and in, on a desktop and a phone:
    each town name has the place, size and fading that trying each shape on the name
    itself gives (the Soviet view: names shrink, fade, and move above their hex)."""
    book = build(files, "soviet")
    path = tmp_path / "replay.html"
    path.write_text(page(book.data, title="replay", mode="replay"), encoding="utf-8")
    b = Browser(width, height)
    try:
        b.emulate(width, height, touch)
        b.open(path.as_uri())
        n = b.js("pbem.count()")
        wrong, moved = [], 0
        for zoom in (0, 3, -6):
            b.js(f"(function(){{var s=document.getElementById('board'),"
                 f" r=s.getBoundingClientRect(); for (var k=0;k<{abs(zoom)};k++)"
                 f" s.dispatchEvent(new WheelEvent('wheel', "
                 f"{{deltaY: {100 if zoom > 0 else -100}, clientX: r.left + r.width / 2,"
                 f" clientY: r.top + r.height / 2, bubbles: true, cancelable: true}}));}})()")
            # a jump, then (at the first zoom) a step as the button takes it
            for i in range(0, n, 4) if zoom == 0 else range(2, n - 1, 9):
                b.js(f"pbem.go({i}, false)")
                for step in (False, True) if zoom == 0 else (False,):
                    if step:
                        b.click("#step")
                    wrong += [(zoom, b.js("pbem.frame()"), w) for w in b.js(MOVING_THE_NAME)]
                    moved += b.js("document.querySelectorAll('#places text[data-moved]')"
                                  ".length")
        assert wrong == []
        assert moved > 0  # some names had to move: the comparison saw the tries
        assert b.console_errors() == []
    finally:
        b.close()
