"""Rule 15.B's roads run back to a friendly edge: the flood starts from the edge's road
and railroad hexes free of enemy units and ZOCs.  Which edge hexes carry a road or a
railroad is the map's, found once per side (issue 35); only the blocked hexes are
taken out for each placement, and the ends are those the map gives, in order."""

from __future__ import annotations

import pytest

from engines.hexkit.hexmap import HexMap
from engines.white_death import ENGINE
from engines.white_death.state import WDState
from engines.white_death.supply import _blocked, enemy_facts, supply_roads
from pbem.testing import Chooser

from .conftest import decisions


def _by_map(s: WDState, side: str, blocked: frozenset[str]) -> list[str]:
    ter = s.ter
    return [h for h in sorted(ter.edge_hexes(side)) if h not in blocked
            and (ter.map.network_neighbors("road", h) or ter.rail_hex(h))]


@pytest.mark.parametrize("scenario", ["purkayev", "first-relief"])
def test_the_road_ends_are_the_maps_and_read_once(monkeypatch: pytest.MonkeyPatch,
                                                  scenario: str) -> None:
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"road-ends/{scenario}")
    plain = HexMap.network_neighbors
    asked: list[str] = []

    def counted(self: HexMap, network: str, h: str) -> object:
        asked.append(network)
        return plain(self, network, h)

    compared = 0
    for n in decisions(state, choose, 200):
        if n % 20 == 0:
            for side in ("soviet", "german"):
                facts = enemy_facts(state, side)
                ends = supply_roads(state).sources(facts, side)
                assert list(ends) == _by_map(state, side, frozenset(_blocked(facts, side)))
                asked.clear()
                monkeypatch.setattr(HexMap, "network_neighbors", counted)
                again = supply_roads(state).sources(facts, side)
                monkeypatch.undo()
                assert list(again) == list(ends) and "road" not in asked
                compared += 1
        state.apply(choose.pick(state.legal_actions()))
    assert compared >= 10
