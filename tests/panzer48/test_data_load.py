"""48th Panzer Korps' data: what a load makes before a command asks (issue 35)."""

from __future__ import annotations

import pytest

from engines.hexkit import load_scenario_dir
from engines.hexkit.movement import MoveCosts
from engines.hexkit.pricedsteps import PricedSteps
from engines.hexkit.pricing import Pricer
from engines.panzer48.data import ENGINE_ID, Data, data


def test_movement_costs_and_the_map_edge_are_made_when_first_asked() -> None:
    """A load reads neither mode's movement costs (4, the Terrain Effects Chart) nor the
    map's edge (the Map-Edge retreat): a legal listing of a combat decision reads
    neither, and both were most of a load.  Asked, the edge is the one every load
    shares."""
    fresh = Data(load_scenario_dir(ENGINE_ID))
    assert "costs" not in vars(fresh) and "edge" not in vars(fresh)
    assert sorted(fresh.costs) == ["leg", "mech"]
    assert all(isinstance(c, PricedSteps) for c in fresh.costs.values())
    assert fresh.edge == data().edge and fresh.edge


def test_a_step_s_cost_is_priced_alone_not_with_the_whole_map(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """4: a move asks the costs of the steps around the hexes it passes; pricing them
    compiles no table of the whole map's 25,000 steps (a third of a short game's audit
    without a data cache, issue 35), and a step not on the map is refused as before."""
    def compiled(*args: object) -> object:
        raise AssertionError("the whole map's movement costs were compiled")

    monkeypatch.setattr(Pricer, "table", compiled)
    monkeypatch.setattr(MoveCosts, "_compile", compiled)
    fresh = Data(load_scenario_dir(ENGINE_ID))
    h = sorted(fresh.map.ids)[len(fresh.map.ids) // 2]
    n = fresh.map.neighbors(h)[0]
    assert fresh.costs["leg"].cost(h, n) == data().costs["leg"].cost(h, n)
    with pytest.raises(ValueError, match="not adjacent"):
        fresh.costs["mech"].cost(h, h)


@pytest.mark.parametrize("mode", ["leg", "mech"])
def test_every_step_costs_what_the_compiled_table_says(mode: str) -> None:
    """4 (the Terrain Effects Chart, slopes, roads, rivers and their bridges): every step
    of the map, priced alone, costs exactly what the kit's compiled table of the same
    class and slope rule gives, an int of half MPs (the road's half MP is 1; the map
    prohibits no step)."""
    lazy = Data(load_scenario_dir(ENGINE_ID)).costs[mode]
    table = MoveCosts(lazy.map, lazy.move_class, lazy.adjust)
    m = lazy.map
    kinds, costs = set(), set()
    for a in m.ids:
        for b in m.neighbors(a):
            want, got = table.cost(a, b), lazy.cost(a, b)
            assert got == want and type(got) is type(want), (a, b, got, want)
            kinds.add(type(want).__name__)
            costs.add(got)
    assert kinds == {"int"} and 1 in costs, (kinds, costs)


def test_a_command_that_moves_nothing_loads_no_movement_module() -> None:
    """Issue 35: listing the set-up's placements, drawing the board and its status line
    price no move, so the kit's movement modules (costs, searches, overlays) stay
    unloaded; the first move priced loads the costs."""
    import subprocess
    import sys

    probe = ("import sys\n"
             "from engines.panzer48 import ENGINE\n"
             "s = ENGINE.new_state('first-day', ENGINE.resolve_options({}))\n"
             "assert s.legal_actions() and s.view('german').pieces\n"
             "kit = ('engines.hexkit.movement', 'engines.hexkit.overlay', "
             "'engines.hexkit.pricedsteps')\n"
             "print(sorted(m for m in kit if m in sys.modules))\n"
             "from engines.panzer48.data import data\n"
             "h = data().map.ids[0]\n"
             "data().costs['leg'].cost(h, data().map.neighbors(h)[0])\n"
             "print(sorted(m for m in kit if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "[]"
    # the overlays stay unloaded: no rule of this game reads the map through one, and the
    # kit's movement costs import them only to apply one (issue 35)
    assert out[1] == "['engines.hexkit.movement', 'engines.hexkit.pricedsteps']"



def test_the_units_and_formations_are_made_without_their_classes_init(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The order of battle's records are each equal to the one the frozen class's own
    ``__init__`` makes from the same fields (hash and repr too), every field set, and
    still frozen; a load calls neither class's ``__init__`` (20 k instructions a unit,
    issue 35)."""
    import dataclasses

    from engines.panzer48.data import Formation, UnitInfo

    made = 0

    def counted(self: object, *args: object, **kwargs: object) -> None:
        nonlocal made
        made += 1

    for cls in (UnitInfo, Formation):
        monkeypatch.setattr(cls, "__init__", counted)
    fresh = Data(load_scenario_dir(ENGINE_ID))
    assert made == 0
    monkeypatch.undo()
    records = [*fresh.units.values(), *fresh.formations.values()]
    assert len(fresh.units) == 46 and len(fresh.formations) == 12
    for r in records:
        cls = type(r)
        fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
        assert set(vars(r)) == set(fields)
        own = cls(**fields)
        assert r == own and hash(r) == hash(own) and repr(r) == repr(own)
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.id = "x"  # type: ignore[misc]
