"""Mortain Counterattack keeps the facts of who is where (the kit's board facts and the
occupant of each hex) on the state while the units stand still (issue 35: gathering the
units on the map for each question was a quarter of an audit's replay), and gathers them
again as soon as a unit is placed, moves or leaves the map, so no rule reads a stale
answer."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE
from engines.mortain import state as state_module
from engines.mortain.notation import END_MOVEMENT, parse
from engines.mortain.position import Status
from engines.mortain.state import MortainState
from pbem.testing import Chooser


def at_us_movement(seed: str = "mortfacts/1") -> MortainState:
    """The US player's movement on turn 2 of a playout seeded by ``seed`` that ends
    every movement at once."""
    st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
    assert isinstance(st, MortainState)
    choose = Chooser(seed)
    while st.stack[-1].step != "move" or st.pos.phasing != "us" or st.pos.turn != 2:
        if st.is_chance():
            st.apply_outcome(choose.outcome(st.chance_request()))
        else:
            legal = st.legal_actions()
            st.apply(END_MOVEMENT if END_MOVEMENT in legal else
                     legal[choose.below(len(legal))])
    return st


def test_the_units_on_the_map_are_gathered_once_a_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st = at_us_movement().clone()  # a clone keeps no facts: they are gathered when asked
    assert isinstance(st, MortainState)
    gathered: list[int] = []
    real = state_module.board_facts

    def counted(*args: object, **kwargs: object) -> object:
        gathered.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(state_module, "board_facts", counted)
    occ = st.occupant()
    assert st.facts() is st.facts()
    assert st.occupant() is occ
    st.zoc_of("german")
    st.on_map("us")
    # a move's check asks these of the facts it took: the same answers, not made again
    assert st.occupant(st.facts()) is occ
    enemy = st.enemy_hexes("us")
    assert st.enemy_hexes("us", st.facts()) is enemy
    assert enemy == {h for h, u in occ.items() if st.side_of(u) == "german"}
    assert len(gathered) == 1
    # moves checked and taken one after another: each gathers the units once, after its
    # unit has moved (19.0's Mortain hexes read it), and the next move's check reads
    # those facts again
    gathered.clear()
    moved = 0
    while moved < 5:
        move = next(a for a in st.legal_actions() if parse(a.notation()).kind == "move")
        st.apply(move)
        moved += 1
    assert len(gathered) <= moved + 1, len(gathered)


def test_a_unit_that_moves_is_seen_where_it_went_at_once() -> None:
    """S5 and 19.0 read who is where right after a unit moves, inside the same step: the
    facts kept before the move are not the answer; nor are a clone's, nor those of a
    position changed by hand or put in place of the state's."""
    st = at_us_movement()
    move = parse(next(a for a in st.legal_actions()
                      if parse(a.notation()).kind == "move").notation())
    unit, to = move.text("unit"), move.text("to")
    frm = st.pos.units[unit].hex
    twin = st.clone()
    assert st.occupant()[frm] == unit and to not in st.occupant()
    held = st.enemy_hexes("german")
    assert frm in held and to not in held
    st.apply(move)
    assert st.occupant()[to] == unit and frm not in st.occupant()
    assert to in st.enemy_hexes("german") and frm not in st.enemy_hexes("german")
    assert st.on_map("us")[unit] == to
    # the clone stood still
    assert twin.occupant()[frm] == unit and twin.on_map("us")[unit] == frm
    # a unit eliminated by hand, the position replaced: both seen
    twin.pos.units[unit].status = Status.ELIMINATED
    assert unit not in twin.occupant().values()
    st.pos = twin.pos
    assert unit not in st.on_map("us")
