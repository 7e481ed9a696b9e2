"""The SVG picture: its structure, and what a real browser draws from it."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from render_browser import read_png, screenshot
from render_maps import COLORS, GERMAN, RIVER, SOVIET, large_view, small_view

from pbem.render import colors
from pbem.render.svg import HIGHLIGHT, board_svg, svg_geometry
from pbem.view import Layout, Piece

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def group(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f"s:g[@id='{name}']", NS)
    assert found is not None, f"no <g id={name!r}>"
    return found


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_structure_hexes_edges_lines_places_counters_boxes() -> None:
    view = small_view()
    root = parse(board_svg(view, show_zoc="soviet"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert float(root.attrib["width"]) > 400 and float(root.attrib["height"]) > 400
    hexes = group(root, "hexes").findall("s:polygon", NS)
    assert len(hexes) == 80
    terrain = {c.hex: c.terrain for c in view.cells}
    for poly in hexes:
        assert poly.attrib["fill"] == COLORS[terrain[poly.attrib["data-hex"]]]
        assert len(poly.attrib["points"].split()) == 6
    corners = {p.attrib["data-hex"]: {tuple(map(float, pt.split(",")))
                                      for pt in p.attrib["points"].split()} for p in hexes}
    edges = group(root, "edges").findall("s:line", NS)
    assert len(edges) == len(RIVER)
    for line in edges:
        a, b = line.attrib["data-edge"].split("-")
        ends = {(float(line.attrib["x1"]), float(line.attrib["y1"])),
                (float(line.attrib["x2"]), float(line.attrib["y2"]))}
        assert ends <= corners[a] and ends <= corners[b], "a river off the shared side"
    roads = [p for p in group(root, "lines").findall("s:polyline", NS)
             if p.attrib.get("data-feature") == "road"]
    assert len(roads) == 1 and len(roads[0].attrib["points"].split()) == 10
    words = texts(root)
    assert {"Kiev", "Orsha", "Minsk", "Synthetic Front"} <= set(words)
    assert "6-4-8" in words and "+1" in words and "+2" in words and "OoS" in words
    assert words.count("Z") == 7
    pieces = {r.attrib["data-piece"] for r in group(root, "counters").iter()
              if "data-piece" in r.attrib}
    assert pieces == {"g1", "g3", "s1", "s4"}  # the tops of the four stacks
    boxes = group(root, "boxes")
    assert [r.attrib["data-box"] for r in boxes.findall("s:rect", NS)
            if "data-box" in r.attrib] == ["reserve"]
    assert "OKH reserve" in words and "8-6-8" in words
    assert len(group(root, "highlights").findall("s:polygon", NS)) == 5


def test_hidden_pieces_are_not_identified() -> None:
    view = small_view()
    secret = Piece("s9", "soviet", "9-9-9", "0906", name="Guards", hidden=True, color=SOVIET)
    svg = board_svg(replace(view, pieces=(*view.pieces, secret)))
    assert "9-9-9" not in svg and "Guards" not in svg
    assert "?" in texts(parse(svg))


def test_output_is_deterministic_with_one_decimal_coordinates() -> None:
    view = small_view()
    svg = board_svg(view)
    assert svg == board_svg(small_view())
    numbers = re.findall(r'\b(?:x|y|x1|y1|x2|y2|width|height|font-size)="([^"]*)"', svg)
    assert numbers and all(re.fullmatch(r"-?\d+\.\d", n) for n in numbers)
    for points in re.findall(r'points="([^"]*)"', svg):
        for pt in points.split():
            assert re.fullmatch(r"-?\d+\.\d,-?\d+\.\d", pt)


def test_a_1500_hex_map_and_a_pointy_map() -> None:
    root = parse(board_svg(large_view()))
    assert len(group(root, "hexes").findall("s:polygon", NS)) == 1500
    pointy = small_view(layout=Layout("pointy", "even", (1, 10), (1, 8)))
    root = parse(board_svg(pointy))
    polys = group(root, "hexes").findall("s:polygon", NS)
    first = [tuple(map(float, p.split(","))) for p in polys[0].attrib["points"].split()]
    assert min(y for _, y in first) < first[0][1]  # a corner at the top: pointy


def close(a: tuple[int, int, int], b: str, tolerance: int = 10) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, colors.parse(b), strict=True))


def test_chromium_draws_the_map_as_specified(tmp_path: Path) -> None:
    """Render in headless Chromium and check pixels where the geometry says things are."""
    view = small_view()
    svg = board_svg(view, show_zoc="soviet")
    root = parse(svg)
    width = math.ceil(float(root.attrib["width"]))
    height = math.ceil(float(root.attrib["height"]))
    png = screenshot(svg, width, height, tmp_path)
    assert png.stat().st_size > 20_000  # a real picture, not a blank page
    image = read_png(png)
    assert (image.width, image.height) == (width, height)
    g = svg_geometry(view)
    cells = {c.hex: c for c in view.cells}

    # bare hexes show their terrain fill at the center
    for hex_id, terrain in (("0101", "clear"), ("0302", "woods"), ("0106", "swamp"),
                            ("0701", "hills"), ("1001", "lake"), ("0807", "clear")):
        x, y = g.center(cells[hex_id])
        assert close(image.pixel(x, y), COLORS[terrain]), (hex_id, image.pixel(x, y))
    # a highlighted hex is tinted
    x, y = g.center(cells["0405"])
    tinted = colors.mix(COLORS["clear"], HIGHLIGHT, 0.35)
    assert close(image.pixel(x, y), tinted, 14), image.pixel(x, y)
    # the river is drawn on the shared hexside
    (x1, y1), (x2, y2) = g.shared_edge(cells["0506"], cells["0606"])
    assert close(image.pixel((x1 + x2) / 2, (y1 + y2) / 2), "#3060c0", 30)
    # counters in their side's color (left part of the counter, clear of the text)
    for hex_id, color in (("0804", SOVIET), ("0404", GERMAN)):
        x, y = g.center(cells[hex_id])
        size = g.scale * 0.92  # the counter's side; its top strip carries no text
        top = y + g.scale * 0.05 - size * 0.42
        assert close(image.pixel(x - size * 0.3, top), color, 14), hex_id
    # a grey background outside the map, white inside the off-map box
    assert close(image.pixel(2, height - 2), "#f4f1e8", 6)
    whole_w, _ = g.map_size()
    assert close(image.pixel(g.left + whole_w + g.scale * 2.8, g.top + g.scale * 1.3),
                 "#ffffff", 6)


def test_a_bridge_crosses_its_river() -> None:
    from pbem.view import Edge

    view = small_view(edges=(Edge("0506", "0606", "bridge", "#404040"),
                             Edge("0506", "0606", "river")))
    lines = group(parse(board_svg(view)), "edges").findall("s:line", NS)
    assert [ln.attrib["data-feature"] for ln in lines] == ["river", "bridge"]
    river, bridge = (((float(ln.attrib["x2"]) - float(ln.attrib["x1"])),
                      (float(ln.attrib["y2"]) - float(ln.attrib["y1"]))) for ln in lines)
    dot = river[0] * bridge[0] + river[1] * bridge[1]
    norms = math.hypot(*river) * math.hypot(*bridge)
    assert abs(dot) / norms < 0.05  # at right angles: across the river, not along it


def test_png_through_resvg_matches_the_geometry(tmp_path: Path) -> None:
    """``board_png`` (optional resvg-py): same pixels where the terrain is."""
    pytest.importorskip("resvg_py", reason="resvg-py is the optional PNG renderer")
    from pbem.render.svg import board_png

    view = small_view()
    png = tmp_path / "board.png"
    png.write_bytes(board_png(view))
    image = read_png(png)
    root = parse(board_svg(view))
    assert (image.width, image.height) == (math.ceil(float(root.attrib["width"])),
                                           math.ceil(float(root.attrib["height"])))
    g = svg_geometry(view)
    cells = {c.hex: c for c in view.cells}
    for hex_id, terrain in (("0101", "clear"), ("0302", "woods"), ("1001", "lake")):
        assert close(image.pixel(*g.center(cells[hex_id])), COLORS[terrain]), hex_id


def test_png_without_resvg_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from pbem.errors import UsageError
    from pbem.render import svg

    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> object:
        if name == "resvg_py":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(svg.importlib, "import_module", missing)
    with pytest.raises(UsageError, match="resvg-py"):
        svg.board_png(small_view())
