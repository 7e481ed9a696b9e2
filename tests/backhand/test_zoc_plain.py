"""Backhand Blow's ZOC (6.0: none into cities), asked after every unit placed (3.1
control), is the neighbours of the hexes a side holds without the kit's per-hex sorted
sources (issue 35 item 3): along random games it is the kit's zoc_map of the side's
units, cities taken out, for both sides at every step."""

from __future__ import annotations

from typing import NoReturn

import pytest

import engines.backhand.state as state_module
import engines.hexkit.facts as facts_module
import engines.hexkit.zoc as zoc_module
from engines.backhand import ENGINE, data
from engines.backhand.data import SIDES
from engines.backhand.position import OFF
from engines.backhand.state import BBState
from engines.backhand.supply import check_supply, floods, supply_blocked
from engines.hexkit.zoc import zoc_map
from pbem.memo import Memo
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
                got = frozenset(state.zoc(side))  # the hexes of the board facts' ZOC
                assert got == _plain(state, side), (scenario, side)
                cities_reached += any(
                    n in state.data.cities for h in state.occupied(side)
                    for n in state.data.map.neighbors(h))
            if state.is_chance():
                state.apply_outcome(choose.outcome(state.chance_request()))
            else:
                state.apply(choose.pick(state.legal_actions()))
        assert cities_reached  # the games reach what the rule leaves out


def _kits(s: BBState, side: str) -> frozenset[str]:
    """The kit's ZOC of ``side`` under the game's rule (6.0), made afresh."""
    units = [(u, x.at) for u, x in sorted(s.pos.units.items())
             if x.at not in OFF and s.side_of(u) == side]
    return zoc_map(s.data.map, units, blocks=s.data.zoc_rule.blocks).hexes


def test_zoc_sets_and_blocked_hexes_are_the_kits_along_random_games() -> None:
    """The set a move's search reads (6.0), and the hexes the supply trace (7.0) and the
    clear region (15.1 (1)) may not enter, made from the hexes a side holds and kept
    while they stand: the kit's ZOC map's, made afresh, at every step of random games
    (the kept set is asked across both sides' moves and after each is refreshed)."""
    for scenario in ("high-water-mark", "backhand-blow"):
        state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(state, BBState)
        choose = Chooser(f"bb-zoc-set/{scenario}")
        changed = 0
        before: dict[str, frozenset[str]] = {}
        for _ in range(400):
            if state.is_terminal():
                break
            f = state.facts()
            for side in SIDES:
                enemy = "german" if side == "soviet" else "soviet"
                kits = _kits(state, side)
                assert state.zoc_set(side) == kits, (scenario, side)
                changed += before.get(side, kits) != kits
                before[side] = kits
                enemy_zoc = _kits(state, enemy)
                assert supply_blocked(state, side) == f.occupied(enemy) | {
                    h for h in enemy_zoc if h not in f.occupied(side)}, (scenario, side)
                assert floods(state.data).clear_blocked(f, side) == (
                    f.occupied(enemy) | enemy_zoc), (scenario, side)
            if state.is_chance():
                state.apply_outcome(choose.outcome(state.chance_request()))
            else:
                state.apply(choose.pick(state.legal_actions()))
        assert changed  # the ZOCs moved, so the kept sets were made again


def test_move_check_and_supply_make_no_zoc_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """A received move's check (15.0, 6.0) and the supply check (7.0) read the ZOC as a
    set of hexes: the kit's map of the units exerting each hex, sorted, is not made
    (issue 35: two of them were some 4 M instructions of a receive)."""
    # every ZOC made afresh here, none kept from another test's placement: the kit's
    # memos of a side's ZOC and of recent board facts, and the engine's own
    monkeypatch.setattr(facts_module, "_SIDE_ZOCS", Memo(256))
    monkeypatch.setattr(state_module, "_BOARDS", Memo(64))
    monkeypatch.setattr(data, "_ZOCS", {}, raising=False)
    state = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(state, BBState)
    want = {side: _kits(state, side) for side in SIDES}

    def refused(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("the kit's ZOC map was made")
    monkeypatch.setattr(zoc_module, "zoc_map", refused)
    for side in SIDES:
        assert state.zoc_set(side) == want[side]
        assert supply_blocked(state, side) >= want["german" if side == "soviet" else
                                                    "soviet"] - state.facts().occupied(side)
    check_supply(state)


_CHECK_A_MOVE = """
import json, sys
from engines.backhand import ENGINE
from engines.backhand.notation import w

asked = json.loads(sys.stdin.read())
s = ENGINE.restore(asked["snapshot"])
units = s.stack[-1].args.units
s.apply(w("to", asked["to"]))
print(s.pos.units[units[0]].at)
print("engines.hexkit.zoc" in sys.modules)
from engines.backhand.movement import destinations
destinations(s, units, s.pos.units[units[0]].at)
print("engines.hexkit.zoc" in sys.modules)
"""


def test_a_received_move_is_checked_without_the_kits_zoc_module() -> None:
    """15.0, 6.0: a move of a received file is checked by a search that reads the enemy
    ZOC as a set of hexes, in a process that loads none of the kit's ZOC module (its
    policies are the listing's search's: issue 35, 0.9 M instructions of a receive);
    a listing of where the unit may move on loads it, as that search needs."""
    import json

    from engines.backhand import movement
    from pbem.testing import decisions, fresh_run

    state = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    for at in decisions(state, Chooser("bb-zoc-lazy"), 4000):
        if at.stack[-1].step == "move-to":
            a = at.stack[-1].args
            listed = movement.destinations(at, a.units, a.origin)
            if listed:
                break
    else:
        raise AssertionError("no move with a destination in the playout")
    asked = {"snapshot": at.snapshot(), "to": listed[-1]}
    moved, loaded, then = fresh_run(_CHECK_A_MOVE, json.dumps(asked))
    assert moved == listed[-1]
    assert loaded == "False"
    assert then == "True"
