"""A hex's neighbours without the map's whole tables (issue 35): ``HexMap.neighbors``
works them out from the hex's number until the map has made :attr:`HexMap.adjacency`
and :attr:`HexMap.index`, and the board facts check a placement against the map's
hexes, not its index, so a command that places three units (Backhand Blow's
reinforcements, 11.1, and the control of its eight watched hexes, 3.1) makes neither."""

from __future__ import annotations

import pytest

from engines.hexkit.facts import BoardFacts, Placed
from engines.hexkit.geometry import HexGrid
from engines.hexkit.hexid import Numbering
from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import load_scenario_dir
from tests.kit.helpers import LEGEND, make_map

ENGINES = ["48th-panzer-korps", "backhand-blow", "for-the-motherland", "mortain",
           "white-death"]


def _tables(m: HexMap, h: str) -> list[str]:
    """The neighbours as the map's tables give them (what ``neighbors`` read before)."""
    return [m.ids[j] for j in m.adjacency[m.index[h]]]


def _fresh(m: HexMap) -> HexMap:
    """The same map with none of its tables made yet."""
    return HexMap.build(grid=m.grid, terrain=m.terrain, legend=m.legend, title=m.title)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_hex_of_every_map_has_the_tables_neighbours(engine: str) -> None:
    m = _fresh(load_scenario_dir(engine).map)
    worked_out = {h: m.neighbors(h) for h in m.terrain}
    assert "adjacency" not in m.__dict__ and "index" not in m.__dict__
    assert worked_out == {h: _tables(m, h) for h in m.terrain}
    # and once the tables are made, read off them: the same again
    assert {h: m.neighbors(h) for h in m.terrain} == worked_out


@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("digits", [(2, 2), (1, 1), (3, 2)])
def test_holes_edges_and_digits(parity: str, digits: tuple[int, int]) -> None:
    """A map with holes in its grid (a sea left out) and a grid at the edge of what its
    digits can number: no neighbour off the map, none written with too many digits."""
    numbering = Numbering(*digits)
    most = 10 ** min(digits)
    grid = HexGrid(parity, (0, min(9, most - 1)), (0, min(9, most - 1)),  # type: ignore[arg-type]
                   numbering)
    terrain = {h: "clear" for i, h in enumerate(grid.ids()) if i % 7 != 3}
    m = HexMap.build(grid=grid, terrain=terrain, legend=LEGEND, title="holes")
    worked_out = {h: m.neighbors(h) for h in terrain}
    assert "adjacency" not in m.__dict__
    assert worked_out == {h: _tables(m, h) for h in terrain}


def test_a_hex_off_the_map_is_refused_as_before() -> None:
    m = make_map(6, 6)
    with pytest.raises(KeyError, match="hex 0907 is not on the map 'test'"):
        m.neighbors("0907")
    with pytest.raises(KeyError, match="hex x is not on the map"):
        m.neighbors("x")


def test_board_facts_and_a_few_neighbours_make_no_table() -> None:
    m = make_map(8, 8)
    f = BoardFacts(m, [Placed("a", "0303", "red"), Placed("b", "0505", "blue")])
    assert f.at("0303") == ("a",)
    assert m.neighbors("0404") == _tables(_fresh(m), "0404")
    assert "adjacency" not in m.__dict__ and "index" not in m.__dict__
    with pytest.raises(ValueError, match="'c' is placed at '0999', which is not on the map"):
        BoardFacts(m, [Placed("c", "0999", "red")])


@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("col", [0, 1, 10, 11, 38, 41])
def test_the_written_steps_are_the_cube_conversions(parity: str, col: int) -> None:
    """The (column, row) steps ``neighbors`` takes, written out in hexmap.py, are each
    direction's step through the grid's cube conversion, from any column."""
    from engines.hexkit.geometry import DIRECTIONS, Cube, cube_to_offset, offset_to_cube
    from engines.hexkit.hexmap import _OFFSETS

    row = 7
    c = offset_to_cube(parity, col, row)  # type: ignore[arg-type]
    steps = []
    for d in DIRECTIONS:
        ncol, nrow = cube_to_offset(parity, Cube(c.q + d.q, c.r + d.r, c.s + d.s))  # type: ignore[arg-type]
        steps.append((ncol - col, nrow - row))
    assert _OFFSETS[(parity, col & 1)] == tuple(steps)
