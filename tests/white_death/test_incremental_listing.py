"""The incremental movement listing (issue 13) lists what a listing from scratch lists.

A state keeps its last movement-phase listing unit by unit (``WDState._listing``) and,
at the next decision, lists again only the units whose inputs changed (a unit's moves
alone where only the friendly stacks near it did). Here random games are played on one
state each, so that every listing but a phase's first is the incremental one, and at
every movement decision the list is compared, in order, with every candidate of
:meth:`_movement_candidates` put through its own check on a clone (no kept listing, no
per-unit keys: each action checked one by one, as ``apply`` checks it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.white_death import ENGINE, listing
from engines.white_death.movement import _movement_candidates
from engines.white_death.state import WDState
from pbem.testing import Chooser

from .conftest import decisions


def _from_scratch(state: WDState) -> list[str]:
    fresh = state.clone()
    assert isinstance(fresh, WDState) and not fresh._listing
    return [a.notation() for a in _movement_candidates(fresh) if fresh._valid(a)]


@pytest.mark.parametrize(("scenario", "seed", "steps"), [
    ("campaign", 1, 1200), ("first-relief", 2, 700), ("final-relief", 3, 700),
])
def test_incremental_listing_equals_the_full_listing(
        scenario: str, seed: int, steps: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # how each unit was listed: afresh (through _unit_key), its moves alone (outside
    # _unit_candidates), or kept whole
    seen: Counter[str] = Counter()
    unit_key = listing._unit_key
    # the listing calls movement's functions by the names it imported
    unit_candidates = listing._unit_candidates
    move_actions = listing._move_actions

    def counting_key(s: WDState, uid: str, common: object) -> Any:
        seen["afresh"] += 1
        return unit_key(s, uid, common)

    def inside(s: WDState, uid: str, dests: Any = None) -> Any:
        seen["inside"] += 1
        try:
            return unit_candidates(s, uid, dests)
        finally:
            seen["inside"] -= 1

    def counting_moves(s: WDState, uid: str, dests: Any) -> Any:
        if not seen["inside"]:
            seen["moves alone"] += 1
        return move_actions(s, uid, dests)

    monkeypatch.setattr(listing, "_unit_key", counting_key)
    monkeypatch.setattr(listing, "_unit_candidates", inside)
    monkeypatch.setattr(listing, "_move_actions", counting_moves)
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"incremental/{scenario}/{seed}")
    compared = 0
    for _ in decisions(state, choose, steps):
        before = seen.copy()
        legal = state.legal_actions()
        if state.phase == "movement":
            listed = len(state.side_units(state.pos.phasing)) if not state.pos.passing else 1
            seen["kept"] += listed - sum(seen[k] - before[k] for k in ("afresh", "moves alone"))
            assert [a.notation() for a in legal] == _from_scratch(state)
            # units kept with what they read farther (the city garrison's rail lines,
            # a Brandenburg's stack)
            seen["far"] += sum(1 for k, v in state._listing.items() if k and v[3] is not None)
            compared += 1
        state.apply(choose.pick(legal))
    # the comparison covered the kept listings and the partial ones, not only fresh ones
    assert compared > 100, compared
    assert seen["kept"] > 3 * seen["afresh"], seen
    assert seen["moves alone"] > 50, seen
    if scenario == "campaign":
        assert seen["far"] > 100, seen
