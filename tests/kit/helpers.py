"""Building small maps in code for the kit's tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from engines.hexkit.geometry import HexGrid, Hexside, Parity
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap, TerrainClass

DATA = Path(__file__).parent / "data"

LEGEND = (
    TerrainClass("clear", ".", "#e8e0c0"),
    TerrainClass("forest", "f", "#3a7a3a", "f"),
    TerrainClass("rough", "r", "#a09070"),
    TerrainClass("swamp", "s", "#708060"),
    TerrainClass("lake", "~", "#6090d0"),
    TerrainClass("town", "t", "#a0a0a0"),
)


def make_map(
    cols: int,
    rows: int,
    terrain: Mapping[HexId, str] | None = None,
    *,
    parity: Parity = "even",
    hexsides: Mapping[str, Iterable[Hexside]] | None = None,
    networks: Mapping[str, Iterable[Hexside]] | None = None,
    facing: Mapping[str, Iterable[tuple[HexId, HexId]]] | None = None,
    features: Mapping[str, Iterable[HexId]] | None = None,
) -> HexMap:
    grid = HexGrid(parity, (1, cols), (1, rows))
    base = {h: "clear" for h in grid.ids()}
    base.update(terrain or {})
    return HexMap.build(grid=grid, terrain=base, legend=LEGEND, title="test",
                        hexsides=hexsides, networks=networks, facing=facing,
                        hex_features=features)
