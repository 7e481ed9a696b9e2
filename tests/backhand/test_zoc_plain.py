"""Backhand Blow's ZOC (6.0: none into cities), asked after every unit placed (3.1
control), is the neighbours of the hexes a side holds without the kit's per-hex sorted
sources (issue 35 item 3): along random games it is the kit's zoc_map of the side's
units, cities taken out, for both sides at every step."""

from __future__ import annotations

from engines.backhand import ENGINE
from engines.backhand.data import SIDES
from engines.backhand.position import OFF
from engines.backhand.state import BBState
from engines.hexkit.zoc import zoc_map
from pbem.testing import Chooser


def _plain(s: BBState, side: str) -> frozenset[str]:
    units = [(u, x.at) for u, x in sorted(s.pos.units.items())
             if x.at not in OFF and s.side_of(u) == side]
    return frozenset(zoc_map(s.data.map, units).hexes - set(s.data.cities))


def test_zoc_is_the_kits_zoc_map_without_cities() -> None:
    for scenario in ("high-water-mark", "backhand-blow"):
        state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(state, BBState)
        choose = Chooser(f"bb-zoc/{scenario}")
        cities_reached = 0
        for _ in range(400):
            if state.is_terminal():
                break
            for side in SIDES:
                got = state.zoc(side)
                assert got == _plain(state, side), (scenario, side)
                cities_reached += any(
                    n in state.data.cities for h in state.occupied(side)
                    for n in state.data.map.neighbors(h))
            if state.is_chance():
                state.apply_outcome(choose.outcome(state.chance_request()))
            else:
                state.apply(choose.pick(state.legal_actions()))
        assert cities_reached  # the games reach what the rule leaves out
