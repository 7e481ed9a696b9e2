"""The per-unit fast paths of the movement listing (issue 13) answer what the per-hex
ones answer: a unit's row of entry costs equals :meth:`enter_ticks` into each neighbour,
and the numbers standing for the stacks near a hex, kept across moves, equal fresh ones.
"""

from __future__ import annotations

from typing import Any

from engines.white_death import ENGINE
from engines.white_death.movement import near_token, stacks_near
from engines.white_death.notation import act
from engines.white_death.state import WDState
from engines.white_death.supply import enemy_key, ezoc
from engines.white_death.terrain import enter_row, enter_ticks, wrong_bank
from pbem.testing import Chooser

from .conftest import decisions


def _game(scenario: str, seed: int) -> tuple[WDState, Chooser]:
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    return state, Chooser(f"fast-rows/{scenario}/{seed}")


def test_entry_cost_row_is_enter_ticks_per_neighbour() -> None:
    compared = thaw = 0
    for scenario, seed in (("first-relief", 3), ("campaign", 4), ("final-relief", 5)):
        state, choose = _game(scenario, seed)
        for n in decisions(state, choose, 900):
            if n % 11 == 0:
                # the position as played, and in a thaw (Rule 16.B's banks, the lake
                # hexsides): a game need not reach one
                for weather in sorted({state.pos.weather, "thaw"}):
                    twin = state.clone()
                    assert isinstance(twin, WDState)
                    twin.pos.weather = weather
                    twin._moved()
                    for uid in twin.side_units(twin.pos.phasing):
                        frm = twin.pos.units[uid].loc
                        row = enter_row(twin, twin.utype(uid).mob, frm)
                        for to, c in zip(twin.ter.nbrs(frm), row, strict=True):
                            # the row leaves Rule 16.B to its caller, as _move_reach does
                            if c is not None and weather == "thaw":
                                thaw += 1
                                if wrong_bank(twin, uid, frm, to):
                                    c = None
                            assert c == enter_ticks(twin, uid, frm, to), (uid, frm, to)
                            compared += 1
            state.apply(choose.pick(state.legal_actions()))
    assert compared > 5000 and thaw > 1000, (compared, thaw)


def test_near_tokens_kept_across_moves_match_fresh_ones() -> None:
    state, choose = _game("first-relief", 8)
    carried = 0
    for _ in decisions(state, choose, 1500):
        kept = dict(state._neartok)
        assert kept.keys() <= state._near.keys()
        carried += len(kept)
        fresh = state.clone()
        assert isinstance(fresh, WDState)
        for (side, h), tok in kept.items():
            assert near_token(fresh, side, h) == tok, (side, h)
            assert stacks_near(fresh, side, h) == stacks_near(state, side, h)
        state.apply(choose.pick(state.legal_actions()))
    assert carried > 1000


def test_position_caches_carried_across_moves_match_fresh_ones() -> None:
    """``_put`` brings the units by hex and the mover's side's occupied hexes up to date
    and keeps each side's units, the units by hex and side of the hexes it did not change,
    and the ZOCs, traces and facts of the side that did not move: along
    games (one state, so the carried entries are the ones checked) every carried entry
    equals a fresh clone's."""
    carried = 0
    for scenario, seed in (("first-relief", 9), ("campaign", 10)):
        state, choose = _game(scenario, seed)
        for _ in decisions(state, choose, 1200):
            state.apply(choose.pick(state.legal_actions()))
            kept = {**state._pcache, **state._foe["soviet"], **state._foe["german"]}
            carried += len(kept) + len(state._at)
            fresh = state.clone()
            assert isinstance(fresh, WDState)
            for (h, side), units in state._at.items():
                assert units == fresh.units_at(h, side), (h, side)
            for k, v in kept.items():
                if k == "byhex":
                    assert v == fresh._by_hex()
                elif k == "facts":
                    # the kit's board facts of the placement: never carried across a
                    # move, so those here were made since and must be of this placement
                    assert v.placement == fresh.facts().placement
                elif k[0] == "occupied":
                    assert v == fresh.occupied(k[1]), k
                elif k[0] == "side-units":
                    assert v == fresh.side_units(k[1]), k
                elif k[0] == "ezoc":
                    # the enemy's ZOC, carried across the side's own moves (Rule 3)
                    assert set(v) == set(ezoc(fresh, k[1], k[2])), k
                elif k[0] == "ekey":
                    assert v == enemy_key(fresh, k[1]), k
                elif k[0] == "foe-facts":
                    # the facts of the enemies of a side whose moves carried them
                    assert v.placement == fresh.foe_facts(k[1]).placement, k
                else:
                    assert k[0] == "by-enemies", k
                    assert kept[("ekey", k[2])] == enemy_key(fresh, k[2]), k
    assert carried > 5000


def test_put_carries_the_position_caches() -> None:
    """Straight after ``_put`` (nothing asked since) the carried caches are there and
    equal fresh ones: a unit moved on the map, taken off it to a box, placed on it
    from the box."""
    state, choose = _game("first-relief", 11)
    while state.is_chance() or state.decision().kind != "movement":
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            state.apply(choose.pick(state.legal_actions()))
    side = state.pos.phasing
    mover = state.side_units(side)[0]
    free = next(h for h in sorted(state.map.ids) if not state.units_at(h))
    for uid, h in ((mover, state.ter.nbrs(state.pos.units[mover].loc)[0]), (mover, "dead"),
                   (mover, free)):
        state.legal_actions()
        state.occupied("soviet"), state.occupied("german"), enemy_key(state, side)
        state._put(uid, h)
        kept = {**state._pcache, **state._foe["soviet"], **state._foe["german"]}
        assert {"byhex", ("occupied", "soviet"), ("occupied", "german"),
                ("side-units", "soviet"), ("side-units", "german")} <= kept.keys()
        fresh = state.clone()
        assert isinstance(fresh, WDState)
        assert kept["byhex"] == fresh._by_hex()
        for s in ("soviet", "german"):
            assert kept[("occupied", s)] == fresh.occupied(s)
            assert kept[("side-units", s)] == fresh.side_units(s)
        assert (uid in kept[("side-units", side)]) == (h not in ("dead",))


def test_a_move_keeps_what_the_movers_enemies_decide_whole() -> None:
    """Issue 35: the caches read through a side's enemies (their ZOCs, their key, their
    units) are kept as one dict per side, which the side's own move keeps as it is, not
    looked over entry by entry; what the other side reads of the mover is dropped but
    for the mover's units and occupied hexes, brought up to date."""
    state, choose = _game("first-relief", 11)
    while state.is_chance() or state.decision().kind != "movement":
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            state.apply(choose.pick(state.legal_actions()))
    side = state.pos.phasing
    foe = "german" if side == "soviet" else "soviet"
    mover = state.side_units(side)[0]
    ezoc(state, side), enemy_key(state, side), ezoc(state, foe), state.occupied(side)
    mine, theirs = state._foe[side], state._foe[foe]
    assert ("ezoc", side, False) in mine and ("ezoc", foe, False) in theirs
    state._put(mover, state.ter.nbrs(state.pos.units[mover].loc)[0])
    assert state._foe[side] is mine
    assert set(state._foe[foe]) <= {("side-units", side), ("occupied", side)}
    fresh = state.clone()
    assert isinstance(fresh, WDState)
    assert state.occupied(side) == fresh.occupied(side)
    assert set(ezoc(state, foe)) == set(ezoc(fresh, foe))


def _listed_iff_accepted(state: WDState, legal: list[Any], kind: str,
                         units: list[str]) -> int:
    """Each unit's ``kind`` action into every hex is listed exactly when the check
    accepts it; how many were accepted."""
    listed = {(a.text("unit"), a.text("hex")) for a in legal if a.kind == kind}
    accepted = 0
    for uid in units:
        for h in sorted(state.map.ids):
            ok = state._valid(act(kind, uid, h))
            assert ok == ((uid, h) in listed), (kind, uid, h)
            accepted += ok
    return accepted


def test_listed_rail_moves_and_entries_pass_their_check() -> None:
    """Rail moves and entries are listed unchecked (built from rail_destinations and
    entry_hexes, which hold what _check_rail and _check_enter ask): each listed one
    passes the check, and each one the check accepts is listed."""
    checked = entered = probes = 0  # every hex probed at every sixth movement decision
    for scenario, seed in (("campaign", 12), ("woehler", 13), ("purkayev", 14)):
        state, choose = _game(scenario, seed)
        for _ in decisions(state, choose, 1500):
            legal = state.legal_actions()
            if state.decision().kind == "movement":
                probes += 1
            if state.decision().kind == "movement" and probes % 6 == 0:
                checked += _listed_iff_accepted(state, legal, "rail", [
                    uid for uid in state.side_units(state.pos.phasing)
                    if state.pos.units[uid].entrained])
                entered += _listed_iff_accepted(state, legal, "enter", [
                    uid for uid in sorted(state.pos.units)
                    if state.pos.units[uid].loc == "raster"])
            state.apply(choose.pick(legal))
    assert checked > 20 and entered > 20, (checked, entered)
