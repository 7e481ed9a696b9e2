"""A move's cost is worked out once per action (issue 35): its check (Rule 6.A: the MPs
it needs) and its effect (the MPs spent) read the same answer, kept with the position's
other answers until a step acts; and what is kept is what a fresh computation gives, at
every move of random games, so a cost left over from before a change shows up."""

from __future__ import annotations

from typing import Any

import pytest

from engines.white_death import ENGINE, movement
from engines.white_death.notation import typed
from engines.white_death.state import WDState
from pbem.grammar import Act
from pbem.testing import Chooser

from .conftest import decisions


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    calls: list[tuple[str, str, str]] = []
    plain = movement._move_ticks

    def counted(s: WDState, uid: str, frm: str, to: str) -> int | None:
        calls.append((uid, frm, to))
        return plain(s, uid, frm, to)
    monkeypatch.setattr(movement, "_move_ticks", counted)
    return calls


def _game() -> WDState:
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    return state


def test_a_move_is_costed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _game()
    choose = Chooser("move-cost-kept/once")
    moves = 0
    for _ in decisions(state, choose, 400):
        legal = state.legal_actions()
        plain = [a for a in legal if typed(a).kind == "move"]
        if plain and moves < 12:
            a = choose.pick(plain)
            calls = _counting(monkeypatch)
            before = state.pos.units[typed(a).text("unit")].spent
            state.apply(a)
            monkeypatch.undo()
            # Rule 6.A: checked, then spent: one computation of the step's cost
            assert calls.count((typed(a).text("unit"), typed(a).text("frm"),
                                typed(a).text("hex"))) == 1, a.notation()
            # the cost checked is the cost spent (an AFV drawing fire spends it later)
            assert state.pos.units[typed(a).text("unit")].spent > before or state.is_chance()
            moves += 1
            continue
        state.apply(choose.pick(legal))
    assert moves == 12


@pytest.mark.parametrize("seed", range(3))
def test_kept_cost_is_the_fresh_one(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At each move of a random game, the cost move_ticks gives (kept or not) is the one
    worked out afresh, asked before and after other actions and rolls changed things."""
    state = _game()
    choose = Chooser(f"move-cost-kept/{seed}")
    seen = 0
    for _ in decisions(state, choose, 600):
        legal = state.legal_actions()
        for a in legal:
            t: Any = typed(a)
            if t.kind == "move":
                got = movement.move_ticks(state, t.text("unit"), t.text("frm"), t.text("hex"))
                assert got == movement._move_ticks(state, t.text("unit"), t.text("frm"),
                                                   t.text("hex")), a.notation()
                seen += 1
        state.apply(choose.pick(legal))
    assert seen > 50


def test_a_move_reads_its_words_once_in_its_check_and_once_in_its_effect(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the unit, the hex left and the hex entered are read from the action
    once by Rule 6.A's check and once by the move (each read a call and a lookup by
    name, some ten a move replayed before)."""
    state = _game()
    choose = Chooser("move-cost-kept/words")
    moves = 0
    watched: list[Act] = []
    reads: list[str] = []
    text = Act.text

    def counted(self: Act, name: str) -> str:
        if self in watched:
            reads.append(name)
        return text(self, name)

    for _ in decisions(state, choose, 400):
        legal = state.legal_actions()
        plain = [a for a in legal if typed(a).kind == "move"
                 and not state.utype(typed(a).text("unit")).afv]
        if plain and moves < 8:
            a = typed(choose.pick(plain))
            watched[:], reads[:] = [a], []
            monkeypatch.setattr(Act, "text", counted)
            state.apply(a)
            monkeypatch.undo()
            assert sorted(reads) == sorted(["unit", "frm", "hex"] * 2), (a.notation(), reads)
            moves += 1
            continue
        state.apply(choose.pick(legal))
    assert moves == 8


def test_rule_4_is_asked_of_the_hex_entered_before_the_move_not_again_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: whether the mover may stand in the hex it enters (Rule 4: which units
    stand together, the same before the move and after it) is read before the unit is
    put there, where the check's answer is kept, and not asked again once the move has
    dropped the hex's answers."""
    state = _game()
    choose = Chooser("move-cost-kept/rule-4")
    moves = 0
    after: list[tuple[str, str]] = []
    put, ok = WDState._put, WDState.stack_ok_with
    moved: list[bool] = [False]

    def putting(self: WDState, uid: str, h: str) -> None:
        put(self, uid, h)
        moved[0] = True

    def asked(self: WDState, h: str, uid: str, leaving: Any = ()) -> bool:
        if moved[0]:
            after.append((h, uid))
        return ok(self, h, uid, leaving)

    for _ in decisions(state, choose, 400):
        legal = state.legal_actions()
        plain = [a for a in legal if typed(a).kind == "move"
                 and not state.utype(typed(a).text("unit")).afv]
        if plain and moves < 8:
            a = typed(choose.pick(plain))
            after[:], moved[0] = [], False
            fits = state.stack_ok_with(a.text("hex"), a.text("unit"))
            monkeypatch.setattr(WDState, "_put", putting)
            monkeypatch.setattr(WDState, "stack_ok_with", asked)
            state.apply(a)
            monkeypatch.undo()
            assert (a.text("hex"), a.text("unit")) not in after, a.notation()
            assert (state.pos.passing == a.text("unit")) == (not fits)
            moves += 1
            continue
        state.apply(choose.pick(legal))
    assert moves == 8
