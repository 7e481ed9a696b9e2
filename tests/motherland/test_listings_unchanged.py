"""For the Motherland!'s decision listings read as they did before the listing code was
made faster (issue 35 item 5: the movement searches, Strategic Movement, the step costs
and the supply lines): the census games' every listing, options in their order, hashed
and compared with the hashes recorded on the code before that work (commit 5e2fa5a).
A rule that changes what a game lists changes these hashes, and must say so."""

from __future__ import annotations

import hashlib

import pytest

from engines.motherland import MotherlandEngine
from pbem.testing import Chooser

#: each game's listings hashed on the code before (decisions listed, sha-256)
BEFORE = {
    # turn 1's Minor Rivers (20.1), mountain units, Snow Turns (5.1.7, 5.1.8) and a late
    # game's Strategic Movements (5.3): the slowest listings of the census
    "1-barbarossa": (539, "5f6434bfd1e81b66dbac29d168373c406bf9c22c9167b225656a5b6c2fa35066"),
    "6-for-the-motherland": (
        531, "00447313f1579321a564843e15fffa55841a8c406f43d3e75977ebd5fb99985a"),
}


@pytest.mark.parametrize("scenario", sorted(BEFORE))
def test_a_census_games_listings_are_those_of_the_code_before(
        engine: MotherlandEngine, scenario: str) -> None:
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser(f"census/{engine.id}/{scenario}/1")
    digest = hashlib.sha256()
    listed = 0
    for _ in range(600):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
            continue
        side = state.current_player()
        legal = state.legal_actions()
        digest.update("\n".join(a.notation() for a in legal).encode() + b"\n\n")
        listed += 1
        state.apply(legal[choose.below(len(legal))], side=side)
    assert (listed, digest.hexdigest()) == BEFORE[scenario]
