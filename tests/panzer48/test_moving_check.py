"""48th Panzer Korps' moving stack (4 / 5 / 6 / 3.2 / 10) is checked, and settled after
each of its steps, and the Movement Phase's choice of what moves next (4 / 9.1 / 8.3) is
checked, without listing every option (issue 35: the settling's full listing was
the largest part of a replay).  Both must agree with the listing exactly: a check that
took an action the listing lacks would replay a signed illegal move as legal, and a
settling that took a step when the listing had a choice would play a side's move for it.
Over seeded playouts, every listed action and every near miss is taken exactly when the
listing holds it, and every settling takes what the listing's sole option is."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.notation import (
    DROP,
    END_MOVEMENT,
    ENTER,
    EXIT,
    HASTY,
    MOVE,
    MOVE_STACK,
    PICKUP,
    REVEAL,
    STOP,
    TO,
    act,
)
from engines.panzer48.state import P48State
from engines.panzer48.steps.movement import Movement, Moving
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.testing import Chooser, decisions
from tests.panzer48.test_check_cost import accepted, new_state

S = TypeVar("S", Moving, Movement)


def near_misses(s: P48State) -> list[Act]:
    """What a file could hold at a moving stack's decision: a step to each hex around it,
    to its own hex, two hexes away, off the map; a pick-up and a drop of every unit of
    the hex, of the stack and of others; a hasty attack on each hex around and on one
    further; the exit, the stop, and other phases' actions."""
    pos = s.pos
    h = s.pos.units[pos.moving[0]].hex
    around = list(s.d.map.neighbors(h))
    further = sorted({m for n in around for m in s.d.map.neighbors(n)} - {h, *around})[:3]
    hexes = [*around, h, *further, "9999"]
    units = sorted({*s.at(h), *pos.moving, *sorted(pos.units)[::7], "no-such-unit"})
    return [*map(TO, hexes), *map(HASTY, hexes), *map(PICKUP, units), *map(DROP, units),
            EXIT, STOP, END_MOVEMENT, MOVE(pos.moving[0])]


def _at_step(kind: type[S], runs: tuple[tuple[str, int], ...]) -> Iterator[tuple[P48State, S]]:
    """Each decision of the step ``kind`` in seeded playouts of the ``runs`` (scenario,
    seed), with the step."""
    for scenario, seed in runs:
        s = new_state(scenario)
        step = s.steps[kind.name]
        assert isinstance(step, kind)
        for st in decisions(s, Chooser(f"panzer48/moving-check/{scenario}/{seed}"), 4000):
            assert isinstance(st, P48State)
            if st.frame().step == kind.name:
                yield st, step


def _takes_exactly(st: P48State, step: Moving | Movement, held: set[Action],
                   misses: list[Act], seen: dict[str, int], where: tuple[object, ...]) -> int:
    """The step's one-action test takes each of ``held`` (counted in ``seen`` by kind)
    and refuses each of ``misses`` the listing lacks, which its check refuses: how many
    it refused.  ``where`` ends an assertion's message."""
    refused = 0
    for a in [*map(act, held), *misses]:
        fast = step._listed(st, a)
        assert fast == (a in held), (a, *where)
        if a in held:
            seen[a.kind] = seen.get(a.kind, 0) + 1
        else:
            assert not accepted(st, a), a
            refused += 1
    return refused


def test_a_moving_stack_s_check_takes_exactly_what_the_listing_holds() -> None:
    """4 / 5 / 6 / 3.2 / 10: at every decision of a moving stack in seeded playouts,
    the one-action test takes every listed action and refuses every near miss the
    listing lacks; the check refuses those in the listing's words."""
    seen: dict[str, int] = {}
    refused = 0
    runs = (("first-day", 1), ("first-day", 2), ("chir", 3), ("chir", 4))
    for st, step in _at_step(Moving, runs):
        listed = st.legal_actions()
        # the listing the settling began, finished: the step's whole listing, in order
        assert listed == step.options(st, st.frame().args)
        refused += _takes_exactly(st, step, set(listed), near_misses(st), seen,
                                  (st.pos.turn, st.pos.moving))
    # the playouts met every kind of the moving stack's actions but the exit (10: a
    # Soviet stack on the south edge's roads), which the near misses ask at each stop
    assert seen.get("to", 0) > 1000 and seen.get("stop", 0) > 200, seen
    assert min(seen.get(k, 0) for k in ("pickup", "drop", "hasty")) > 0, seen
    assert refused > 10000, refused


def test_a_moving_stack_is_settled_as_its_listing_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """4 / 5: wherever the runtime settles a moving stack (after each of its steps, the
    enemy ZOC's roll, a hasty attack), the option it takes without asking is the
    listing's one option, and it asks whenever the listing has none or several."""
    asked: dict[str, int] = {"one": 0, "several": 0}
    fast = Moving.auto_option

    def both(self: Moving, s: P48State, args: Any) -> Action | None:
        listed = self.options(s, args)
        got = fast(self, s, args)
        assert got == (listed[0] if len(listed) == 1 else None), (listed, got)
        asked["one" if len(listed) == 1 else "several"] += 1
        return got

    monkeypatch.setattr(Moving, "auto_option", both)
    for scenario, seed in (("first-day", 4), ("chir", 5)):
        s = new_state(scenario)
        for _ in decisions(s, Chooser(f"panzer48/moving-settle/{scenario}/{seed}"), 3000):
            pass
    assert asked["one"] > 10 and asked["several"] > 300, asked


def test_a_replayed_step_lists_no_moving_stack_s_options(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: applying a step of a move, and settling the stack after it, list none
    of the stack's options (each step listed them all, with every full hex's onward
    moves); an illegal step is still refused in 4's words and changes nothing."""
    from pbem.setup import setup

    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
              'step = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')
    s.apply("move 1021")
    legal = [act(a) for a in s.clone().legal_actions()]
    to = next(a for a in legal if a.form is TO)

    def listed(*args: object) -> object:
        raise AssertionError("the moving stack's options were listed")

    with monkeypatch.context() as m:
        m.setattr(Moving, "options", listed)
        s.apply(to.notation())
    assert s.pos.units["110PG/I"].hex == to.text("hex")  # type: ignore[attr-defined]
    # a side's listing now goes on from where the settling stopped, not from the start
    begun = Moving._listing
    starts: list[int] = []

    def counted(self: Moving, st: P48State) -> Any:
        starts.append(1)
        return begun(self, st)

    with monkeypatch.context() as m:
        m.setattr(Moving, "_listing", counted)
        after = s.legal_actions()
    assert not starts and len(after) > 2 and after == s.clone().legal_actions()
    before = s.digest()
    with pytest.raises(IllegalAction, match="cannot move to 9999"):
        s.apply("to 9999")
    assert s.digest() == before


def test_a_step_the_settling_listed_is_taken_as_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """4: a step to one of the hexes the settling listed after the stack's last step
    is taken as listed, its test not made again, and moves the stack there (issue 35);
    a step it did not list is tested, and an illegal one refused in 4's words."""
    from pbem.setup import setup

    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
              'step = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')
    assert isinstance(s, P48State)
    s.apply("move 1021")
    listed = s.options_listed(s.steps["moving"], s.frame().args)
    assert len(listed) == 2 and list(listed) == s.clone().legal_actions()[:2]
    tested: list[Act] = []
    test = Moving._listed

    def counted(self: Moving, st: P48State, a: Act) -> bool:
        tested.append(a)
        return test(self, st, a)

    monkeypatch.setattr(Moving, "_listed", counted)
    s.apply(listed[1])
    assert not tested and s.pos.units["110PG/I"].hex == act(listed[1]).text("hex")
    before = s.digest()
    with pytest.raises(IllegalAction, match="cannot move to 9999"):
        s.apply("to 9999")
    assert tested == [TO("9999")] and s.digest() == before


def phase_near_misses(s: P48State) -> list[Act]:
    """What a file could hold at the Movement Phase's choice: a move of every unit (on
    the map or not, either side's), a stack's move from every occupied hex and from
    empty ones, entries of every unit at every entry hex and at hexes around them, the
    end of the phase, every formation's reveal, and a moving stack's actions."""
    units = [*sorted(s.pos.units), "no-such-unit"]
    occupied = sorted(s.stacks())
    entries = sorted({h for hs in s.d.entry.values() for h in hs})
    around = sorted({n for h in entries[::5] for n in s.d.map.neighbors(h)})
    out: list[Act] = [*map(MOVE, units), *map(MOVE_STACK, [*occupied, "0101", "9999"])]
    for u in units[::3]:
        out += [ENTER(u, h) for h in [*entries[::2], *around[::4], "9999"]]
    waiting = [u for u, x in sorted(s.pos.units.items()) if x.where in ("due", "off")]
    for u in waiting:
        out += [ENTER(u, h) for h in [*entries, *around]]
    out += [END_MOVEMENT, *map(REVEAL, sorted(s.d.formations)), STOP, TO(entries[0])]
    return out


def test_the_movement_phase_s_check_takes_exactly_what_the_listing_holds() -> None:
    """4 / 9.1 / 8.3: at every Movement Phase choice of seeded playouts, the one-action
    test takes every listed action (a unit's or a stack's move, an entry, the end, the
    reveal) and refuses every near miss the listing lacks, which the check refuses."""
    seen: dict[str, int] = {}
    refused = 0
    for st, step in _at_step(Movement, (("first-day", 1), ("chir", 3), ("chir", 6))):
        refused += _takes_exactly(st, step, set(st.legal_actions()), phase_near_misses(st),
                                  seen, (st.pos.turn, st.pos.phasing))
    assert min(seen.get(k, 0) for k in ("move", "move-stack", "end-movement", "enter",
                                        "reveal")) > 0, seen
    assert refused > 10000, refused


def test_a_replayed_move_lists_no_movement_phase_options(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: starting a unit's or a stack's move lists no other unit's moves or
    entries; a unit that may not move is refused in 4's words and changes nothing."""
    from pbem.setup import setup

    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
              'step = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')

    def listed(*args: object) -> object:
        raise AssertionError("the Movement Phase's options were listed")

    with monkeypatch.context() as m:
        m.setattr(Movement, "options", listed)
        s.apply("move 1021")
    assert s.pos.moving == ["110PG/I", "110PG/II"]  # type: ignore[attr-defined]
    s.apply("stop")
    before = s.digest()
    with pytest.raises(IllegalAction, match="110PG/I cannot move now"):
        s.apply("move 110PG/I")
    assert s.digest() == before


def test_a_step_past_the_first_asks_neither_who_stays_nor_the_division(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """5 / 9: a German stack's step after its first asks neither who stays behind (the
    enemy ZOC's roll is for leaving a hex vacant at the move's start) nor where the 7th
    Luftwaffe's units stand (only a Soviet unit's move releases it); issue 35: each
    was asked at every step of every move."""
    from pbem.setup import setup

    s = setup(ENGINE, "chir", 'only = true\nphase = "turns"\nphasing = "german"\n'
              'step = "movement"\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')
    assert isinstance(s, P48State) and not s.pos.released
    s.apply("move 1021")
    s.apply(next(a for a in s.legal_actions() if act(a).form is TO))
    step = next(a for a in s.legal_actions() if act(a).form is TO)

    def asked(*args: object) -> object:
        raise AssertionError("who stays, or the division's units, were asked")

    with monkeypatch.context() as m:
        m.setattr(P48State, "at", asked)
        m.setattr(P48State, "on_map", asked)
        s.apply(step)
    assert s.pos.units["110PG/I"].hex == act(step).text("hex")
