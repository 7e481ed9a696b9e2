"""The BoardView built from a map, and the rulebook hex checks."""

from __future__ import annotations

import itertools

from engines.hexkit.board import board_view, network_lines
from engines.hexkit.checks import check_named_hexes
from engines.hexkit.geometry import hexside
from engines.hexkit.scenario import load_scenario_path
from kit.helpers import DATA, make_map
from pbem.view import DEFERRED, BoardView, Piece

TINY = load_scenario_path(DATA / "tiny").map


def test_board_view_of_the_tiny_map() -> None:
    piece = Piece("u1", "blue", "2-4-6", "0303", name="1st Infantry")
    view = board_view(TINY, [piece], side="blue", status="turn 1",
                      highlights=["0305", "0205", "0305"], overlays={"zoc:red": ["0504", "0404"]})
    assert view.layout.offset == "even" and view.layout.cols == (1, 6)
    assert view.layout.rows == (1, 5)
    assert len(view.cells) == 29 and "0604" not in {c.hex for c in view.cells}
    cell = next(c for c in view.cells if c.hex == "0303")
    assert (cell.col, cell.row, cell.terrain, cell.label) == (3, 3, "town", "Tinyburg")
    colors = {t.name: t.color for t in view.terrain}
    assert colors["forest"] == "#3a7a3a" and colors["lake"] == "#6090d0"
    assert {(e.a, e.b, e.feature) for e in view.edges} >= {
        ("0302", "0402", "bridge"), ("0302", "0402", "river"), ("0402", "0502", "slope")}
    river = next(e for e in view.edges if e.feature == "river")
    assert river.color == "#3060c0"
    assert view.pieces == (piece,)
    assert view.boxes[0].name == "depot" and view.boxes[0].title == "Rear depot"
    assert view.highlights == ("0205", "0305")
    assert view.overlays == (("zoc:red", ("0404", "0504")),)
    assert view.title == "Tiny" and view.side == "blue" and view.status == "turn 1"


def test_a_view_makes_the_maps_parts_only_when_read() -> None:
    """Naming a view's units (what 'legal' and 'act' ask of it) builds none of the map's
    cells, hexsides or lines (issue 35 item 3); read, they are the whole view's, and the
    view equals, hashes, copies and replaces as one built whole."""
    import copy
    import dataclasses

    piece = Piece("u1", "blue", "2-4-6", "0303")
    view = board_view(TINY, [piece], side="blue", status="turn 1")
    assert view.pieces == (piece,) and view.status == "turn 1"
    assert view.hexes() == frozenset(TINY.ids) and "0604" not in view.hexes()
    assert not any(name in vars(view) for name in DEFERRED)
    whole = board_view(TINY, [piece], side="blue", status="turn 1")
    made = BoardView(**{f: getattr(whole, f) for f in BoardView.__dataclass_fields__})
    assert vars(made).keys() >= set(DEFERRED)
    assert copy.deepcopy(view) == made == view and hash(made) == hash(view)
    assert len(view.cells) == 29 and view.edges and view.lines and view.boxes
    assert view.hexes() == made.hexes() == {c.hex for c in made.cells}
    assert dataclasses.replace(board_view(TINY), status="x").cells == view.cells
    assert BoardView("t", None, view.layout, (), ()).edges == ()  # defaults still apply


def test_network_lines_cover_each_connection_once() -> None:
    links = [("0101", "0201"), ("0201", "0301"), ("0301", "0401"), ("0201", "0202"),
             ("0202", "0302"), ("0302", "0301")]
    m = make_map(5, 4, networks={"road": links})
    chains = network_lines(m, "road")
    seen = [hexside(a, b) for chain in chains for a, b in itertools.pairwise(chain)]
    assert sorted(seen) == sorted(hexside(a, b) for a, b in links)
    assert len(seen) == len(set(seen))
    assert network_lines(m, "road") == chains  # deterministic


def test_check_named_hexes() -> None:
    good = [
        ("0303", "place:Tinyburg", "rule 1"),
        ("0303", "town", "rule 2"),
        ("0303", "feature:bunker", "rule 3"),
        ("0601", "area:east edge", "rule 4"),
        ("0302/0402", "river", "rule 5"),
        ("0105-0205", "network:road", "rule 6"),
        ("0101", "box:depot", "rule 7"),
        ("0201", "network:railroad", "rule 8"),
    ]
    assert check_named_hexes(TINY, good) == []
    bad = [
        ("0304", "place:Tinyburg", "8.1"),
        ("0909", "place:Nowhere", "8.2"),
        ("0101/0303", "river", "8.3"),
        ("0302/0402", "network:railroad", "8.4"),
        ("0303", "colour:red", "8.5"),
        ("0303", "terrain:forest", "8.6"),
    ]
    problems = check_named_hexes(TINY, bad)
    assert len(problems) == len(bad)
    assert problems[0].startswith("8.1: hex 0304 should have 'place:Tinyburg'")
    assert "terrain clear" in problems[0]
    assert problems[1] == "8.2: hex 0909 (place:Nowhere) is not on the map"
    assert "not adjacent" in problems[2]
    assert "8.4: hexside 0302/0402" in problems[3] and "feature bridge, river" in problems[3]
    assert "bad expectation" in problems[4]
    assert "8.6: hex 0303 should have 'terrain:forest'" in problems[5]
    assert "place Tinyburg" in problems[5]


def test_views_of_one_map_share_its_static_parts() -> None:
    """Issue 35 item 1: a replay page asks a view per action; each rebuilt every cell of
    the map and kept its own copy alive (1.5 GB for a White Death campaign).  Views of one
    map share the map's records; other labels are other records; the pieces are each
    view's own."""
    m = load_scenario_path(DATA / "tiny").map
    assert m is not None
    a = board_view(m, [Piece("u1", "red", "1-4", "0101", "")], side="red")
    b = board_view(m, [Piece("u2", "blue", "2-3", "0102", "")], side="blue")
    assert a.cells is b.cells and a.edges is b.edges and a.lines is b.lines
    assert a.pieces != b.pieces
    first = m.ids[0]
    labelled = board_view(m, labels={first: "here"})
    assert labelled.cells is not a.cells
    assert [c.label for c in labelled.cells if c.hex == first] == ["here"]
    assert board_view(m, labels={first: "here"}).cells is labelled.cells
    assert [c for c in labelled.cells if c.hex != first] == \
        [c for c in a.cells if c.hex != first]
