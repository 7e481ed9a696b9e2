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
