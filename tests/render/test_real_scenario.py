"""A real scenario through ``State.view(side)``: White Death, Scenario I.

The render package never imports a game; this test does, to check that what a real
engine hands over (a 1,720-hex map, hidden stacks, hexside lakes and slopes, roads and
railroads as hex-to-hex lines) draws correctly in the terminal, in the SVG and in a
browser, and replays.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from render_browser import read_png, screenshot
from rich.console import Console

from pbem.engine import State
from pbem.naming import named
from pbem.render import colors
from pbem.render.board import BoardRenderable, board_screen
from pbem.render.hexmap import Window, fit_window, stacks
from pbem.render.narrate import counters_of, frames_from_records, replay
from pbem.render.svg import board_svg, svg_geometry
from pbem.view import BoardView

wd = pytest.importorskip("engines.white_death")  # the engine lives in this repository
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def state() -> State:
    engine = wd.ENGINE
    return engine.new_state("purkayev")  # type: ignore[no-any-return]


def plain(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def town(view: BoardView) -> str:
    return next(c.hex for c in view.cells if c.label == "Velikiye Luki")


def test_terminal_board_of_each_side_around_velikiye_luki(state: State) -> None:
    for side in ("soviet", "german"):
        view = state.view(side)
        assert view.side == side and len(view.cells) > 1500
        window = fit_window(view, 100, 40, center=town(view))
        out = plain(board_screen(view, window))
        lines = out.splitlines()
        assert max(len(line) for line in lines) <= 100
        assert lines[0].startswith("White Death") and f"[{side}]" in lines[0]
        assert town(view) in out and "Velik" in out
        assert f"showing {window.describe()}" in out
    soviet = state.view("soviet")
    center = town(soviet)
    if not any(p.hidden for p in soviet.pieces):
        # the scenario's setup may stack nothing the Soviet cannot see: put an unknown
        # German unit under a visible one, as limited intelligence would show it
        top = next(p for p in soviet.pieces if p.side == "german")
        extra = replace(top, id=top.id + "-under", label="?", name="", hidden=True)
        soviet = replace(soviet, pieces=(*soviet.pieces, extra))
        center = top.location
    assert any(p.hidden for p in soviet.pieces)
    window = fit_window(soviet, 100, 40, center=center)
    where = {c.hex: (c.col, c.row) for c in soviet.cells}
    out = plain(BoardRenderable(soviet, window))
    for hex_id, stack in stacks(soviet).items():
        if hex_id in where and window.contains(*where[hex_id]):
            if all(p.hidden for p in stack):  # only unknowns: a "?" counter
                assert "?" in out
            elif len(stack) > 1:  # hidden members are counted under the top
                assert f"+{len(stack) - 1}" in out


def test_svg_shows_each_side_only_what_it_may_see(state: State) -> None:
    referee, soviet = state.view(None), state.view("soviet")
    root = ET.fromstring(board_svg(soviet).encode())
    words = {t.text for t in root.iter(f"{SVG}text")}
    hidden_labels = {p.label for p in referee.pieces if p.side == "german"} - {
        p.label for p in soviet.pieces if p.side == "german"}
    hidden_names = {p.name for p in referee.pieces if p.side == "german" and p.name} - {
        p.name for p in soviet.pieces if p.side == "german"}
    assert hidden_labels, "the scenario should hide some German units from the Soviet"
    visible_names = {p.name[:9] for p in soviet.pieces}  # type names repeat: "inf-bn (83"
    assert not (words & hidden_labels)
    assert not (words & ({n[:9] for n in hidden_names} - visible_names))
    polygons = [p for p in root.iter(f"{SVG}polygon") if "data-terrain" in p.attrib]
    assert len(polygons) == len(soviet.cells)
    tops = {r.attrib["data-piece"] for r in root.iter(f"{SVG}rect") if "data-piece" in r.attrib}
    assert len(tops) == len([h for h in stacks(soviet) if h in {c.hex for c in soviet.cells}])


def test_chromium_draws_the_real_map(state: State, tmp_path: Path) -> None:
    view = state.view("german")
    svg = board_svg(view, scale=14, legend=False)
    root = ET.fromstring(svg.encode())
    width = math.ceil(float(root.attrib["width"]))
    height = math.ceil(float(root.attrib["height"]))
    image = read_png(screenshot(svg, width, height, tmp_path))
    assert (image.width, image.height) == (width, height)
    g = svg_geometry(view, scale=14)
    busy = {p.location for p in view.pieces} | {c.hex for c in view.cells if c.label}
    busy |= {h for line in view.lines for h in line.hexes}
    busy |= {h for e in view.edges for h in (e.a, e.b)}
    fills = {t.name: t.color for t in view.terrain}
    checked: dict[str, int] = {}
    for cell in view.cells:
        if cell.hex in busy or checked.get(cell.terrain, 0) >= 3:
            continue
        x, y = g.center(cell)
        got = image.pixel(x, y)
        want = colors.parse(fills[cell.terrain])
        assert all(abs(a - b) <= 10 for a, b in zip(got, want, strict=True)), (
            cell.hex, cell.terrain, got, fills[cell.terrain])
        checked[cell.terrain] = checked.get(cell.terrain, 0) + 1
    bare = {c.terrain for c in view.cells if c.hex not in busy}
    assert set(checked) == bare and {"clear", "forest", "swamp"} <= bare


def _play(state: State, steps: int) -> list[list[Any]]:
    """Records of a short deterministic playout: a move when there is one (the replay
    should have units moving), else the first legal action; the lowest dice."""
    work = state.clone()
    records: list[list[Any]] = []
    index = 0
    for _ in range(steps):
        if work.is_terminal():
            break
        if work.is_chance():
            request = work.chance_request()
            outcome: tuple[Any, ...] = (tuple(1 for _ in request.dice)
                                        if request.kind == "dice"
                                        else tuple(sorted(request.contents)[:request.count]))
            records.append(["r", index, list(outcome)])
            index += 1
            work.apply_outcome(outcome)
        else:
            legal = work.legal_actions()
            moves = [a for a in legal if a.notation().startswith("move")]
            action = (moves or legal)[0]
            records.append(["a", action.notation()])
            work.apply(action)
    return records


def test_replay_of_real_records(state: State) -> None:
    records = _play(state, 12)
    assert any(r[0] == "a" for r in records)
    for side in ("soviet", "german"):
        frames = frames_from_records(state, records, side, seq=2)
        assert frames and all(view.side == side for view, _ in frames)
        console = Console(file=io.StringIO(), width=100, color_system=None)
        result = replay(console, frames, pace=0.0, sleep=lambda _s: None)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        # each unit told of as its counter reads in that frame's view (issue 33)
        told = [named(e.text, counters_of(view), e.units) for view, events in frames
                for e in events if e.visible(side)]
        assert result.lines == len(told)
        for text in told:
            assert text in out
        for _, events in frames:
            for e in events:
                if not e.visible(side):
                    assert e.text not in out
    assert Window.centered(state.view(None), town(state.view(None)), 5, 5).cols == 5


def test_for_the_motherland_boxes_and_whole_map() -> None:
    """The other real engine: 966 hexes, sea and river hexsides, nine off-map boxes."""
    fm = pytest.importorskip("engines.motherland")
    state = fm.ENGINE.new_state("1-barbarossa")
    view = state.view("soviet")
    out = plain(board_screen(view, fit_window(view, 100, 30, center=town_of(view, "Moscow"))))
    assert "+2 Mosc" in out  # an occupied city keeps what fits of its name
    for box in view.boxes:
        assert f"{box.title}:" in out
    root = ET.fromstring(board_svg(view).encode())
    boxes = [r.attrib["data-box"] for r in root.iter(f"{SVG}rect") if "data-box" in r.attrib]
    assert boxes == [b.name for b in view.boxes]
    features = {ln.attrib["data-feature"] for ln in root.iter(f"{SVG}line")
                if "data-feature" in ln.attrib}
    assert {"sea", "major_river"} <= features


def town_of(view: BoardView, name: str) -> str:
    return next(c.hex for c in view.cells if c.label == name)
