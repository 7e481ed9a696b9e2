"""Rule 3's enemy ZOC (and 3.B's ski units' ZOC) is asked hex by hex: ``ezoc`` keeps the
kit's set of the ZOC's hexes (issue 35), not its map of each hex to the units exerting
it, which no caller reads.  The set must be the map's hexes, for both sides and both
rules, at every decision of seeded games."""

from __future__ import annotations

import pytest

from engines.hexkit import zoc as kit_zoc
from engines.white_death import ENGINE
from engines.white_death.state import WDState
from engines.white_death.supply import SKI_ZOC, ZOC, ezoc
from pbem.testing import Chooser

from .conftest import decisions


@pytest.mark.parametrize(("scenario", "steps"), [("purkayev", 400), ("first-relief", 300)])
def test_the_enemy_zoc_is_the_kits_zoc_hexes(scenario: str, steps: int) -> None:
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"ezoc-hexes/{scenario}")
    compared = 0
    for n in decisions(state, choose, steps):
        if n % 7 == 0:
            for side, foe in (("soviet", "german"), ("german", "soviet")):
                facts = state.foe_facts(side)
                for ski, rule in ((False, ZOC), (True, SKI_ZOC)):
                    assert set(ezoc(state, side, ski)) == set(facts.zoc(foe, rule).sources)
                    compared += 1
        state.apply(choose.pick(state.legal_actions()))
    assert compared > 50


def test_the_enemy_zoc_maps_no_hex_to_its_units(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ENGINE.new_state("first-relief", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    mapped: list[int] = []
    plain = kit_zoc.zoc_map

    def counted(*args: object, **kw: object) -> object:
        mapped.append(1)
        return plain(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(kit_zoc, "zoc_map", counted)
    fresh = state.clone()
    assert isinstance(fresh, WDState)
    fresh._moved()
    assert ezoc(fresh, "soviet") and ezoc(fresh, "german", True) is not None
    assert mapped == []
