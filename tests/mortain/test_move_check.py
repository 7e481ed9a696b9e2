"""Mortain Counterattack's movement check (S3, S4, 11.0, 17.0, 18.0, 19.1): a received
file's move, entry or exit is checked against its one unit (movement.listed) instead of
listing the side's every move (issue 35: 85% of applying one).  A check that took what the
listing does not would replay an illegal move as legal: over seeded playouts, every listed
action is taken and every near miss is refused exactly when the listing lacks it."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE, movement
from engines.mortain.notation import END_MOVEMENT, ENTER, EXIT, MOVE, parse
from engines.mortain.position import Status
from engines.mortain.sequence import Move
from engines.mortain.state import MortainState
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.testing import Chooser, turns
from tests.mortain.test_facts_kept import at_us_movement


def near_misses(st: MortainState, legal: list[Action]) -> list[Act]:
    """Actions a file could hold here: the phasing side's moves to the hexes around each
    unit, to its own hex and to hexes other units may reach now, a few of the other
    side's, entries (11.0) of waiting units, units on the map and the other side's, every
    unit's exit, and names and hexes nobody has."""
    pos, r = st.pos, st.r
    acts = [parse_act(a) for a in legal]
    ends = sorted({a.text("to") for a in acts if a.kind == "move"})
    gates = sorted({r.entry[0], r.entry[-1], *(a.text("at") for a in acts
                                                if a.kind == "enter")})
    out: list[Act] = [END_MOVEMENT, MOVE("ZZ9", "3110"), ENTER("ZZ9", r.entry[0]),
                      EXIT("ZZ9")]
    others = 0
    for u, x in sorted(pos.units.items()):
        mine = st.side_of(u) == pos.phasing
        if not mine:
            others += 1
            if others % 6:
                continue
        out.append(EXIT(u))
        if x.status is not Status.MAP or not mine:
            out += [ENTER(u, h) for h in gates]
        if x.status is Status.MAP:
            around = [x.hex, *r.map.neighbors(x.hex), "0101", "9999"]
            out += [MOVE(u, h) for h in sorted({*around, *ends[::max(1, len(ends) // 4)]})]
    return out


def parse_act(action: Action) -> Act:
    return action if isinstance(action, Act) else parse(action.notation())


def refused(st: MortainState, step: Move, action: Action) -> bool:
    try:
        step.check(st, st.stack[-1].args, action)
    except IllegalAction:
        return True
    return False


def test_s3_a_move_is_taken_exactly_when_the_listing_holds_it() -> None:
    st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
    assert isinstance(st, MortainState)
    choose = Chooser("mortcheck/1")
    decisions = 0
    seen = {"move": 0, "enter": 0, "exit": 0, "stranded": 0, "turn-one": 0}
    for _ in turns(st, choose, 700):
        legal = st.legal_actions()
        if st.stack[-1].step == "move":
            step = st.steps["move"]
            assert isinstance(step, Move)
            mobile = st.stack[-1].args.mobile
            stuck = movement.stranded(st) is not None
            seen["stranded"] += stuck
            seen["turn-one"] += st.pos.turn == 1 and st.pos.phasing == "german"
            held = set(legal)
            decisions += 1
            # some 40 of the listed moves and entries and every other listed action, near
            # misses at every third decision (a US listing holds thousands of moves)
            acts = list(map(parse_act, legal))
            sample = [a for i, a in enumerate(acts)
                      if a.kind not in ("move", "enter") or i % max(1, len(acts) // 40) == 0]
            misses = near_misses(st, legal) if decisions % 3 == 0 else []
            for a in [*sample, *misses]:
                fast = movement.listed(st, mobile, a)
                assert not fast or a in held, (a, st.pos.turn, st.pos.phasing)
                if not stuck and a.kind in ("move", "enter", "exit", "end-movement"):
                    assert fast == (a in held), (a, st.pos.turn, st.pos.phasing)
                if fast or a.kind not in ("move", "enter"):
                    assert refused(st, step, a) == (a not in held), a
                if a in held:
                    seen[a.kind] = seen.get(a.kind, 0) + 1
        st.apply(legal[choose.below(len(legal))])
    # the playouts met what the check works out: moves, entries (11.0), exits (19.1),
    # an arrival that must move on (11.0, 17.0) and turn 1's 17.0
    assert seen["move"] > 5000 and seen["enter"] > 20 and seen["turn-one"] > 5, seen


def test_s3_a_received_move_is_checked_without_listing_the_side(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: replaying a move or 'end movement' lists nothing, and the move's search
    goes towards its hex alone; a move the listing lacks is refused in its words (S5) and changes
    nothing."""
    st = at_us_movement("mortcheck/received")
    legal = st.legal_actions()
    move = next(a for a in legal if parse_act(a).kind == "move")
    unit = parse_act(move).text("unit")
    taken = st.clone()
    st.forget_options()
    taken.forget_options()

    def listing(*args: object) -> object:
        raise AssertionError("the side's moves were listed to check one")

    # the units on the map are gathered once for the check, not for each lookup
    gathered: list[object] = []
    facts = MortainState.facts

    def counted(self: MortainState) -> object:
        gathered.append(self)
        return facts(self)

    with monkeypatch.context() as m:
        m.setattr(MortainState, "facts", counted)
        assert movement.listed(st, False, parse_act(move))
    assert len(gathered) == 1
    goals: list[object] = []
    steer = movement.reaches

    def whole(*args: object, **kwargs: object) -> object:
        raise AssertionError("a unit's whole reach was searched to check one move")

    def spy(*args: object, **kwargs: object) -> object:
        goals.append(args[3])
        return steer(*args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(Move, "options", listing)
        m.setattr(movement, "reachable", whole)
        m.setattr(movement, "reaches", spy)
        movement._REACH.clear()
        movement._REACHES.clear()
        taken.apply(move)
        taken.apply(END_MOVEMENT)
        # the same move checked again on the same position (a board click's server
        # loads the saved game again) is answered by the first search
        again = st.clone()
        again.apply(move)
    assert taken.pos.units[unit].hex == again.pos.units[unit].hex == parse_act(move).text("to")
    # the move's search went towards its one hex (the kit's reaches), once
    assert goals == [parse_act(move).text("to")]
    other = next(u for u, x in sorted(st.pos.units.items())
                 if x.status is Status.MAP and u != unit and st.side_of(u) == "us")
    before = st.pos.units[unit].hex
    with pytest.raises(IllegalAction, match="S5"):
        st.apply(MOVE(unit, st.pos.units[other].hex))
    assert st.pos.units[unit].hex == before
