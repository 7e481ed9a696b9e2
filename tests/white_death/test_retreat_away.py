"""Rule 14.B's retreat ranks its routes' ends by their distance from the nearest enemy
unit ("generally away from enemy units"): measured from the enemy hexes' cube positions
taken once per retreat (issue 35), not by asking the map for the distance to every enemy
hex again for every end; the routes are the ones the map's distances give."""

from __future__ import annotations

import pytest

from engines.hexkit.hexmap import HexMap
from engines.white_death import ENGINE
from engines.white_death.combat import retreat_path
from engines.white_death.state import WDState
from engines.white_death.supply import enemy_hexes
from pbem.testing import Chooser

from .conftest import decisions


def test_a_retreat_asks_the_map_for_no_distance(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser("retreat-away")
    asked: list[tuple[str, str]] = []
    plain = HexMap.distance

    def counted(self: HexMap, a: str, b: str) -> int:
        asked.append((a, b))
        return plain(self, a, b)

    routes = 0
    for n in decisions(state, choose, 300):
        if n % 25 == 0:
            side = state.pos.phasing
            near = [uid for uid in state.side_units(side)
                    if any(state.units_at(x, "german" if side == "soviet" else "soviet")
                           for x in state.ter.nbrs(state.pos.units[uid].loc))]
            for uid in near[:6]:
                fresh = state.clone()
                assert isinstance(fresh, WDState)
                asked.clear()
                monkeypatch.setattr(HexMap, "distance", counted)
                got = retreat_path(fresh, uid)
                monkeypatch.undo()
                foes = enemy_hexes(fresh, side)
                # the kit's own search measures its steps from the unit's hex: only
                # the distances to enemy hexes are the ranking's
                assert not [p for p in asked if p[1] in foes or p[0] in foes], uid
                routes += got is not None
        state.apply(choose.pick(state.legal_actions()))
    assert routes > 5
