"""The catalog's :class:`Terrain` (issue 13) holds no position: every state and clone of
a catalog shares the one object, and what it keeps are answers to what it was asked, so
a fresh one with nothing kept gives the same answers, in any weather and with any
bridges (Rules 7, 13, 16.B, 20), whatever the shared one was asked before.
"""

from __future__ import annotations

from engines.hexkit.graph import region
from engines.white_death import ENGINE
from engines.white_death.state import WDState
from engines.white_death.terrain import Terrain
from pbem.testing import Chooser

from .conftest import decisions


def test_one_terrain_per_catalog_shared_by_clones() -> None:
    state = ENGINE.new_state("first-relief", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    twin = state.clone()
    assert isinstance(twin, WDState)
    assert state.ter is twin.ter is Terrain.of(state.cat)
    assert ENGINE.new_state("campaign", ENGINE.resolve_options({})).ter is state.ter


def test_kept_answers_equal_a_fresh_terrains() -> None:
    state = ENGINE.new_state("campaign", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser("terrain-object/campaign/2")
    kept = state.ter
    compared = bridged = 0
    for n in decisions(state, choose, 1500):
        units = state.side_units(state.pos.phasing)
        if n % 50 == 0 and units:
            fresh = Terrain(state.cat)
            # the printed bridges, none, and one more (a built one, Rule 20) near a unit
            sets = [set(state.pos.bridges), set(),
                    set(state.pos.bridges) | {state.pos.units[units[0]].loc}]
            for bridges in sets:
                for frozen in (True, False):
                    for uid in units:
                        mob = state.utype(uid).mob
                        frm = state.pos.units[uid].loc
                        row = kept.enter_row(mob, frm, frozen, bridges)
                        assert row == fresh.enter_row(mob, frm, frozen, bridges), (uid, frm)
                        for to in kept.nbrs(frm):
                            assert kept.enter_cost(mob, frm, to, frozen, bridges) == \
                                fresh.enter_cost(mob, frm, to, frozen, bridges), (uid, to)
                            via = state.pos.units[uid].via
                            assert kept.wrong_bank(mob, via, frm, to, frozen, bridges) == \
                                fresh.wrong_bank(mob, via, frm, to, frozen, bridges)
                            compared += 1
                            bridged += frm in bridges or to in bridges
                        assert kept.enter_cost(mob, None, frm, frozen, bridges) == \
                            fresh.enter_cost(mob, None, frm, frozen, bridges)
        state.apply(choose.pick(state.legal_actions()))
    assert compared > 5000 and bridged > 50, (compared, bridged)


def test_banks_are_the_parts_of_the_map_without_the_river() -> None:
    """Rule 16.B's banks: each land hex is labelled with the lowest hex id of its part of
    the map once the river hexes are taken out (the kit's region from each part's lowest
    hex, as they were found before), a river hex with none; both sides of the Lowatj."""
    ter = ENGINE.new_state("campaign", ENGINE.resolve_options({})).ter
    m = ter.map
    river = {x for x in m.ids if "river" in ter.terrain(x)}
    land = frozenset(x for x in m.ids if x not in river)
    want: dict[str, str] = dict.fromkeys(river, "")
    for start in sorted(m.ids):
        if start not in want:
            want.update(dict.fromkeys(region(m, [start], passable=land), start))
    assert {h: ter.bank(h) for h in m.ids} == want
    assert len(set(want.values()) - {""}) >= 2
