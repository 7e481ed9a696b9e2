"""A reinforcement's entry (Rule 17) is checked of its one hex (``enters_at``), not by
listing every hex of its entry areas (issue 35): the one-hex answer must be the list's
(``h in entry_hexes``) for every hex the list holds and for near misses (the areas'
other hexes, their neighbours, hexes far off), at every movement decision of seeded
games, so a turn file can get no entry accepted that the listing would refuse."""

from __future__ import annotations

import pytest

from engines.white_death import ENGINE
from engines.white_death.reinforcements import _entry_areas, _entry_hexes, enters_at
from engines.white_death.state import WDState
from pbem.errors import ScenarioError
from pbem.testing import Chooser

from .conftest import decisions


def _asked(s: WDState, uid: str) -> list[str]:
    """The hexes of ``uid``'s entry areas, open or not, their neighbours and a few others."""
    near: set[str] = set()
    for area in _entry_areas(s, uid):
        try:
            near.update(s.cat.resolve(area))
        except ScenarioError:
            continue
    for h in list(near):
        near.update(s.ter.nbrs(h))
    ids = sorted(s.map.ids)
    near.update(ids[:: max(1, len(ids) // 25)])
    return sorted(near)


@pytest.mark.parametrize(("scenario", "seed", "steps"), [
    ("purkayev", 1, 900), ("first-relief", 2, 700), ("campaign", 3, 500)])
def test_an_entry_checked_of_its_hex_is_the_lists_answer(scenario: str, seed: int,
                                                          steps: int) -> None:
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"enter-one-hex/{scenario}/{seed}")
    compared = listed = 0
    for _ in decisions(state, choose, steps):
        if state.phase == "movement":
            waiting = [uid for uid, u in sorted(state.pos.units.items())
                       if u.loc == "raster" and state.side_of(uid) == state.pos.phasing]
            for uid in waiting[:4]:
                whole = _entry_hexes(state, uid)
                listed += len(whole)
                for h in _asked(state, uid):
                    state._cache.pop(("entry", uid), None)
                    assert enters_at(state, uid, h) == (h in whole), (uid, h)
                    compared += 1
                # and with the list kept, as a listing leaves it
                state._cache[("entry", uid)] = whole
                assert all(enters_at(state, uid, h) for h in whole)
                state._cache.pop(("entry", uid), None)
        state.apply(choose.pick(state.legal_actions()))
    assert compared > 500 and listed > 10, (compared, listed)


def test_a_replayed_entry_prices_its_own_hex_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry's check asks Rule 17.C's cost of the hex entered, not of every hex of
    the unit's areas (as listing them does)."""
    from engines.white_death import reinforcements
    from engines.white_death.notation import typed

    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser("enter-one-hex/priced")
    entered = 0
    priced: list[str] = []
    plain = reinforcements.enter_ticks

    def counted(s: WDState, uid: str, frm: str | None, to: str) -> object:
        priced.append(to)
        return plain(s, uid, frm, to)

    for _ in decisions(state, choose, 900):
        legal = state.legal_actions()
        enters = [a for a in legal if typed(a).kind == "enter"]
        if enters and entered < 4:
            a = typed(choose.pick(enters))
            priced.clear()
            fresh = state.clone()
            assert isinstance(fresh, WDState)
            monkeypatch.setattr(reinforcements, "enter_ticks", counted)
            fresh.apply(a.notation())
            monkeypatch.undo()
            assert set(priced) == {a.text("hex")}, priced
            entered += 1
        state.apply(choose.pick(legal))
    assert entered == 4
