"""48th Panzer Korps' data: what a load makes before a command asks (issue 35)."""

from __future__ import annotations

from engines.hexkit import load_scenario_dir
from engines.hexkit.movement import MoveCosts
from engines.panzer48.data import ENGINE_ID, Data, data


def test_movement_tables_and_the_map_edge_are_made_when_first_asked() -> None:
    """A load reads neither mode's movement costs (4, the Terrain Effects Chart: two
    tables of the whole map) nor the map's edge (the Map-Edge retreat): a legal
    listing of a combat decision reads neither, and both were most of a load.  Asked,
    they are the ones every load shares."""
    fresh = Data(load_scenario_dir(ENGINE_ID))
    assert "costs" not in vars(fresh) and "edge" not in vars(fresh)
    assert sorted(fresh.costs) == ["leg", "mech"]
    assert all(isinstance(c, MoveCosts) for c in fresh.costs.values())
    assert fresh.costs["leg"].steps == data().costs["leg"].steps
    assert fresh.edge == data().edge and fresh.edge
