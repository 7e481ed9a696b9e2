"""A board drawn after the one before draws again only the hexes the position changed
since (issue 35: a replay page draws a view after each of a campaign's 5,600 actions):
the hexes the rules name as they change a unit's hex, strength or deployment
(``WDState._hex_changed``, ``_put``), those whose bunker changed and those revealed or no
longer revealed (Rule 4.C).  Along played campaigns every view, after every action and
every roll, is the board drawn whole; a hex the rules forgot to name would show its
counters as they were."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.white_death import ENGINE
from engines.white_death import view as view_module
from engines.white_death.data import SIDES
from engines.white_death.state import WDState
from engines.white_death.supply import ezoc
from pbem.testing import Chooser
from pbem.view import BoardView

from .conftest import decisions


def _whole(state: WDState, side: str | None) -> BoardView:
    """The view with nothing kept from the board before."""
    phase = state.phase
    return view_module.board(state.pos, state.cat, side,
                             title=f"White Death: {state.sc.title}",
                             status=state.status_line(side), phase=phase,
                             stacks=state._by_hex(), udef=state.udef,
                             zoc=ezoc(state, side) if side is not None else ())


@pytest.mark.parametrize("side", [None, *SIDES])
def test_every_view_of_a_campaign_is_the_board_drawn_whole(
        side: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    state = ENGINE.new_state("campaign", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"view-redrawn/{side}")
    redrawn = Counter[str]()
    real = view_module._redraw

    def counted(*args: object) -> None:
        redrawn["views"] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(view_module, "_redraw", counted)
    start = {uid: (u.strength, u.deployed) for uid, u in state.pos.units.items()}
    for _ in range(1800):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            state.apply(choose.pick(state.legal_actions()))
        assert state.view(side) == _whole(state, side), (side, state.pos.turn, state.phase)
        for uid, u in state.pos.units.items():
            if uid in start and u.loc not in ("dead", "pending", "raster", "refit", "setup"):
                strength, deployed = start[uid]
                redrawn["weaker"] += u.strength < strength
                redrawn["deployed"] += u.deployed and not deployed
        redrawn["revealed"] += bool(view_module._revealed(state.pos, side, state.phase))
    # most views were drawn from the one before, and the game changed what they must
    # draw again: units weakened on the map, artillery deployed, (for a side) a hex
    # assaulted and shown in full
    assert redrawn["views"] > 1000
    assert redrawn["weaker"] and redrawn["deployed"]
    assert redrawn["revealed"] or side is None


def test_a_bunker_barraged_between_two_views_is_drawn_again() -> None:
    """A barrage takes a bunker's strength (Rule 19) without moving a unit: the next view
    marks the German stack of its hex with the bunker's new strength, as the board drawn
    whole does."""
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    # the strongest bunker of an occupied hex: the one its counters are marked with
    bunker = max((b for b in state.pos.bunkers if b.hex in state._by_hex()),
                 key=lambda b: b.strength)
    before = state.view("german")
    bunker.strength -= 1
    after = state.view("german")
    assert after == _whole(state, "german")
    assert after != before
    marked = {m for p in after.pieces if p.location == bunker.hex for m in p.markers
              if m.startswith("bunker")}
    assert marked == {f"bunker {max(b.strength for b in state.pos.bunkers if b.hex == bunker.hex)}"}


def test_a_deployed_unit_entrained_between_two_views_loses_its_mark() -> None:
    """Entraining undeploys the unit (Rules 6.B.2 and 8) where it stands: the next view
    shows its counter without the deployed mark, as the board drawn whole does."""
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser("view-entrain")
    for _ in decisions(state, choose, 3000):
        entrain = [a for a in state.legal_actions() if a.notation().startswith("entrain")]
        if entrain:
            break
        state.apply(choose.pick(state.legal_actions()))
    else:
        pytest.fail("no entrain in the game")
    action = entrain[0]
    uid = action.notation().split()[1]
    unit = state.pos.units[uid]
    unit.deployed = True  # as a deploy earlier in the impulse leaves it
    state._hex_changed(unit.loc)
    side = state.pos.phasing
    assert "deployed" in next(p for p in state.view(side).pieces if p.id == uid).markers
    state.apply(action)
    after = state.view(side)
    assert after == _whole(state, side)
    assert "deployed" not in next(p for p in after.pieces if p.id == uid).markers


def test_units_taken_off_the_map_outside_a_move_are_drawn_whole() -> None:
    """A unit eliminated, or a brigade refitted (Rule 18), leaves its hex without a move
    (``_relocated``): the next view no longer shows it."""
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    side = state.pos.phasing
    state.view(side)
    h, uids = next((h, uids) for h, uids in sorted(state._by_hex().items())
                   if len(uids) == 1 and state.side_of(uids[0]) == side)
    state.pos.units[uids[0]].loc = "refit"
    state._relocated()
    after = state.view(side)
    assert after == _whole(state, side)
    assert not any(p.location == h for p in after.pieces)


def test_a_position_restored_over_the_one_drawn_is_drawn_whole() -> None:
    """A position read over the state's (a save restored into it, its caches forgotten
    as after any change from outside the rules) is drawn whole: the hexes changed since
    the last board say nothing of another position."""
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    body = state.snapshot()["body"]
    choose = Chooser("view-restored")
    side = state.pos.phasing
    first = state.view(side)
    for _ in decisions(state, choose, 300):
        state.apply(choose.pick(state.legal_actions()))
        state.view(side)
    assert state.view(side).pieces != first.pieces
    state.restore_body(body)
    state._moved()
    again = state.view(side)
    assert again == _whole(state, side)
    assert again.pieces == first.pieces


def test_a_clone_and_its_original_draw_their_own_boards() -> None:
    """A replay's copy of the game (``clone``) plays on while the original stands: each
    shows its own position, the copy's moves not drawn on the original's board nor the
    original's on the copy's."""
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    side = state.pos.phasing
    first = state.view(side)
    twin = state.clone()
    assert isinstance(twin, WDState)
    choose = Chooser("view-clone")
    for _ in decisions(twin, choose, 300):
        twin.apply(choose.pick(twin.legal_actions()))
        assert twin.view(side) == _whole(twin, side)
    assert twin.view(side).pieces != first.pieces
    assert state.view(side) == _whole(state, side) == first
    again = Chooser("view-clone-original")
    for _ in decisions(state, again, 300):
        state.apply(again.pick(state.legal_actions()))
    assert state.view(side) == _whole(state, side)
    assert twin.view(side) == _whole(twin, side)
