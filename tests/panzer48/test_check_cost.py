"""48th Panzer Korps checks a received action against that action alone, not a listing of
every option (issue 35: replaying a file checks every action it holds), and takes exactly
what the listing holds: an action the listing leaves out, taken by a check, would be a
signed illegal move replayed as legal."""

from __future__ import annotations

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.notation import PLACE, act
from engines.panzer48.state import P48State
from engines.panzer48.steps.setup import Setup
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.testing import Chooser


def new_state(scenario: str) -> P48State:
    """A new game of ``scenario``, its options the defaults."""
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, P48State)
    return state


def accepted(s: P48State, action: Action) -> bool:
    """Whether the step at hand's check takes ``action``."""
    try:
        s.step().check(s, s.frame().args, action)  # type: ignore[attr-defined]
    except IllegalAction:
        return False
    return True


def test_a_placement_is_checked_without_listing_every_unit_s_hexes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """9: 'place U H' is checked against U's set-up hexes alone; a hex it may not set
    up in is refused, in 9's words, as before."""
    s = new_state("first-day")
    assert s.decision() is not None and s.decision().kind == "setup"  # type: ignore[union-attr]
    # listed on a clone: the options memo of this decision would answer the check
    legal = [act(a) for a in s.clone().legal_actions()]
    place = next(a for a in legal if a.form is PLACE)
    u = place.text("unit")
    other = next(h for h in sorted(s.d.map.ids) if PLACE(u, h) not in legal)

    def listed(*args: object) -> object:
        raise AssertionError("every unit's set-up hexes were listed to check one placement")

    with monkeypatch.context() as m:
        m.setattr(Setup, "options", listed)
        s.apply(place.notation())
    assert s.pos.units[u].hex == place.text("hex") and s.pos.units[u].placed
    with pytest.raises(IllegalAction, match="may not set up in"):
        s.apply(f"place {u} {other}")


@pytest.mark.parametrize("scenario,seed", [("first-day", 1), ("chir", 2)])
def test_the_set_up_check_takes_exactly_what_the_listing_holds(scenario: str,
                                                                seed: int) -> None:
    """9 / 6 / 5: over the set-up of a seeded playout, every listed placement is taken
    and a near miss (a neighbouring hex, the unit's own hex, a hex off the map, another
    unit, an enemy unit, a unit already placed, no unit) is refused exactly when the
    listing does not hold it."""
    s = new_state(scenario)
    choose = Chooser(f"panzer48/check-cost/{scenario}/{seed}")
    decisions = tried = 0
    while s.decision() is not None and s.decision().kind == "setup":  # type: ignore[union-attr]
        legal = s.legal_actions()
        listed = set(legal)
        if decisions % 4 == 0:
            hexes = sorted({act(a).text("hex") for a in legal if act(a).form is PLACE})
            near = {n for h in hexes[:: max(1, len(hexes) // 6)]
                    for n in s.d.map.neighbors(h)}
            units = [*sorted(s.pos.units), "no-such-unit"]
            for u in units[:: max(1, len(units) // 40)]:
                here = s.pos.units[u].hex if u in s.pos.units else ""
                mine = {act(a).text("hex") for a in legal
                        if act(a).form is PLACE and act(a).text("unit") == u}
                for h in sorted(mine | near | {"9999", here} - {""}):
                    action = PLACE(u, h)
                    assert accepted(s, action) == (action in listed), (u, h)
                    tried += 1
            assert all(accepted(s, a) for a in legal)
        decisions += 1
        s.apply(choose.pick(legal), side=s.current_player())
    assert decisions > 20 and tried > 500, (decisions, tried)


def test_counters_are_the_views_without_drawing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a listing names units by (State.counters) is what the board view's pieces
    print, at every position of a seeded playout, and no view is drawn for it (each
    drew the status line, scoring 10 again: issue 35)."""
    from engines.panzer48 import state as p48state
    from pbem.engine import view_counters

    s = new_state("first-day")
    choose = Chooser("panzer48/check-cost/counters")
    for _ in range(150):
        for side in (None, "soviet", "german"):
            assert s.counters(side) == view_counters(s.view(side))
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply_outcome(choose.outcome(s.chance_request()))
        else:
            s.apply(choose.pick(s.legal_actions()), side=s.current_player())

    def drawn(*args: object) -> object:
        raise AssertionError("the board was drawn to name the units")

    monkeypatch.setattr(p48state, "board", drawn)
    assert s.counters("german")


def test_a_moving_stack_s_next_hexes_price_each_step_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """4: the hexes a moving stack may step into are listed after every step of its move
    (the runtime settles it): each unit's MPs left are worked out once per listing, and
    a step's cost is read from the table as it is, not priced again and added to what
    was spent for every neighbour; the hexes listed are the same."""
    from engines.panzer48 import movement
    from pbem.setup import setup

    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
              'step = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')
    s.apply("move 1021")
    s.pos.units["110PG/I"].spent = (1, 1)  # type: ignore[attr-defined]
    before = {a.notation() for a in s.clone().legal_actions()}
    assert any(a.startswith("to ") for a in before)

    def priced(*args: object) -> object:
        raise AssertionError("a step was priced again to list the next hexes")

    monkeypatch.setattr(movement, "step_halves", priced)
    assert {a.notation() for a in s.clone().legal_actions()} == before
