"""Mortain Counterattack's rules data: what is derived from the map (the movement costs,
the set-up areas 13.0, the hexes into which no ZOC extends 14.1, the unbridged See
hexsides 14.2, the edge hexes a road or trail leaves the map by 19.1) is made when a rule
first asks, not by every command that loads the data (issue 35: building it was 18 M
instructions of a 400 M 'pbem legal' at a combat decision, which reads none of it)."""

from __future__ import annotations

from engines.hexkit.scenario import load_scenario_dir
from engines.mortain.data import ENGINE_ID, Rules, rules

DERIVED = ("costs", "areas", "on_network", "hedgerow_no_zoc", "see_unbridged", "_off_map")


def test_loading_the_rules_derives_nothing_from_the_map() -> None:
    r = Rules(load_scenario_dir(ENGINE_ID))
    assert not [name for name in DERIVED if name in r.__dict__]
    # what a combat decision reads is there: the units, the ICRT, the support pools
    assert r.units and r.icrt.results and r.pool["us"]


def test_the_derived_facts_read_as_the_map_says() -> None:
    """19.1's exits and 11.0's entries cost the road (trail) rate where the road (trail)
    leaves the map at an edge hex, else the hex's own cost; 14.1 and 14.2's hexes as the
    map marks them."""
    r, m = rules(), rules().map
    edge = [h for h in m.ids if len(m.neighbors(h)) < 6]
    for net, off in (("road", r.road_off), ("trail", r.trail_off)):
        assert off == {h for h in edge if len(m.network_neighbors(net, h)) == 1}
        assert off  # the map has both
    for h in edge:
        want = (r.road_cost if h in r.road_off else r.trail_cost if h in r.trail_off
                else r.enter_cost[m.terrain_of(h)])
        assert r.exit_cost(h) == r.entry_cost(h) == want
    roads = set(m.network_hexes("road")) | set(m.network_hexes("trail"))
    assert r.hedgerow_no_zoc == {h for h in m.ids
                                 if m.terrain_of(h) == "hedgerow" and h not in roads}
    assert all("see" in m.hexsides[s] and "bridge" not in m.hexsides[s]
               for s in r.see_unbridged if s in m.hexsides)
    assert r.costs is r.costs
