"""The grid's id of a cube position is looked up, not converted and written each time
(engines/hexkit/geometry.py ``HexGrid.from_cube``): the hexes within five of every Soviet
unit (For the Motherland! 9.3.3) wrote 91 ids a unit (issue 35 item 5)."""

from __future__ import annotations

import pytest

from engines.hexkit.geometry import Cube, HexGrid, cube_to_offset
from engines.hexkit.hexid import Numbering


@pytest.mark.parametrize("parity", ["odd", "even"])
def test_from_cube_looks_the_id_up_and_is_none_off_the_grid(
        parity: str, monkeypatch: pytest.MonkeyPatch) -> None:
    grid = HexGrid(parity, (0, 12), (3, 10))  # type: ignore[arg-type]
    cubes = [Cube(q, r, -q - r) for q in range(-4, 17) for r in range(-12, 16)]

    def written(c: Cube) -> str | None:
        col, row = cube_to_offset(grid.parity, c)
        inside = grid.cols[0] <= col <= grid.cols[1] and grid.rows[0] <= row <= grid.rows[1]
        return grid.numbering.format(col, row) if inside else None

    expected = {c: written(c) for c in cubes}
    assert sum(v is None for v in expected.values()) > 100  # off the grid on every side
    monkeypatch.setattr(Numbering, "format", lambda *_: pytest.fail("an id written"))
    assert {c: grid.from_cube(c) for c in cubes} == expected
    assert grid.within("0605", 5) == sorted(h for h in expected.values() if h is not None
                                            and grid.distance("0605", h) <= 5)


@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("digits", [(2, 2), (3, 2), (2, 3), (1, 1)])
def test_grid_cells_are_written_once_a_column_and_a_row(
        parity: str, digits: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a grid's cells are each column's digits joined to each row's, and each
    cube its column's shift from the row, not a call to format and convert a cell: the
    same ids, in the same order, at the same cubes as formatting and converting each."""
    from engines.hexkit.geometry import offset_to_cube

    numbering = Numbering(*digits)
    cols, rows = (0, 9), (1, 9)
    expected = {numbering.format(c, r): offset_to_cube(parity, c, r)  # type: ignore[arg-type]
                for c in range(cols[0], cols[1] + 1) for r in range(rows[0], rows[1] + 1)}
    calls: list[tuple[int, int]] = []
    real = Numbering.format

    def counted(self: Numbering, col: int, row: int) -> str:
        calls.append((col, row))
        return real(self, col, row)

    monkeypatch.setattr(Numbering, "format", counted)
    grid = HexGrid(parity, cols, rows, numbering)  # type: ignore[arg-type]
    assert list(grid._cubes.items()) == list(expected.items())
    assert all(type(c) is Cube for c in grid._cubes.values())
    assert len(calls) <= 2  # the corners, checked to fit the digits


def test_grid_numbers_that_do_not_fit_are_refused_as_before() -> None:
    for cols, rows in (((0, 100), (1, 5)), ((1, 5), (0, 100)), ((-1, 5), (1, 5))):
        with pytest.raises(ValueError, match="does not fit 2\\+2 digits"):
            HexGrid("odd", cols, rows)
