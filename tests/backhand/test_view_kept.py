"""Backhand Blow's board view keeps each counter under what it reads (issue 35): along
random games it shows what the plain per-call computation shows, to each side and to the
referee, so a key left incomplete (a step lost, out of supply, a Front Marker moved)
shows up as a difference."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from engines.backhand import ENGINE
from engines.backhand import view as view_module
from engines.backhand.data import FRONTS
from engines.backhand.position import Unit
from engines.backhand.state import BBState
from engines.hexkit.board import board_view
from pbem.testing import Chooser, decisions
from pbem.view import BoardView, Piece


def _plain(s: BBState, side: str | None) -> BoardView:
    """The view as it was made before anything was kept: every counter, every call."""
    pieces = []
    for u, x in sorted(s.pos.units.items()):
        if x.at in ("pending", "cup", "elim", "out"):
            continue
        sd = s.side_of(u)
        a, d = s.factors(u)
        label = f"({a}-{d})" if (not u.startswith("UP-") and s.data.units[u].bracket) \
            else f"{a}-{d}"
        pieces.append(Piece(u, sd, label, x.at, name=u,
                            color="#c03030" if sd == "soviet" else "#8090a0",
                            markers=("OOS",) if x.oos else ()))
    for f in FRONTS:
        pieces.append(Piece(f"front-{f}", "soviet", f"{f[:2].upper()} Front",
                            s.pos.fronts[f], name=f"{f} Front Marker", color="#ffd040"))
    return board_view(s.data.map, pieces, side=side, status=s.status_line(side))


def test_kept_view_is_the_plain_view_along_random_games() -> None:
    seen_oos = seen_reduced = fronts_moved = reused = 0
    for scenario, steps in (("high-water-mark", 400), ("backhand-blow", 300)):
        s = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(s, BBState)
        choose = Chooser(f"view-kept/{scenario}")
        first = dict(s.pos.fronts)
        last: dict[str, Piece] = {}
        for _ in decisions(s, choose, steps):
            for side in (None, "soviet", "german"):
                got = s.view(side)
                assert got == _plain(s, side), (scenario, side, s.pos.segment)
            pieces = {p.id: p for p in got.pieces}
            # a counter the action left alone is the one drawn before, not made again
            reused += sum(1 for k, p in pieces.items() if last.get(k) is p)
            last = pieces
            seen_oos += any(u.oos for u in s.pos.units.values())
            seen_reduced += any(u.steps < s.data.units[k].steps
                                for k, u in s.pos.units.items() if not k.startswith("UP-"))
            fronts_moved += s.pos.fronts != first
        # out of supply (9.0) is a mark of the counter: flipped on a unit the view drew
        # before, the next view shows it, and flipped back, it is gone again
        unit = next(k for k, p in sorted(last.items()) if not k.startswith("front-"))
        for oos in (True, False):
            s.pos.units[unit].oos = oos
            seen_oos += oos
            for side in (None, "soviet", "german"):
                assert s.view(side) == _plain(s, side), (scenario, side, unit, oos)
            assert ("OOS" in next(p for p in s.view(None).pieces if p.id == unit).markers) \
                == oos
    # the games reach what the key must tell apart
    assert seen_oos and seen_reduced and fronts_moved and reused


def test_a_counter_kept_makes_no_maker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A click's redraw draws the view of a position an action changed in a unit or two:
    a counter kept is found by its key without making its maker (a partial for each of
    High Water Mark's ~90 counters, made again every view, was a quarter of it: issue
    35); only the counters changed since the last view are made, and the view is the
    plain one."""
    made: list[str] = []
    real_piece, real_front = view_module._piece, view_module._front

    def counted_piece(s: BBState, u: str, x: Unit) -> Piece:
        made.append(u)
        return real_piece(s, u, x)

    def counted_front(f: str, at: str) -> Piece:
        made.append(f"front-{f}")
        return real_front(f, at)

    def counted_partial(fn: Callable[..., object], *args: object) -> object:
        # the counter: a maker made, whether called or not
        made.append(str(args[1]) if fn is counted_piece else f"front-{args[0]}")
        return partial(fn, *args)

    monkeypatch.setattr(view_module, "_piece", counted_piece)
    monkeypatch.setattr(view_module, "_front", counted_front)
    # the module once made a partial of each counter (raising=False: it makes none now)
    monkeypatch.setattr(view_module, "partial", counted_partial, raising=False)
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(s, BBState)
    choose = Chooser("view-maker")
    redrawn = 0
    before: dict[str, tuple[str, int, bool]] = {}
    for _ in decisions(s, choose, 200):
        made.clear()
        got = s.view(None)
        assert got == _plain(s, None)
        now = {u: (x.at, x.steps, x.oos) for u, x in s.pos.units.items()}
        now.update((f"front-{f}", (at, 0, False)) for f, at in s.pos.fronts.items())
        if before:  # drawn before: only the counters changed since are made
            assert set(made) <= {u for u in now if before.get(u) != now[u]}
            redrawn += len(got.pieces) > len(made)
        before = now
    assert redrawn


def test_the_view_sorts_the_unit_ids_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The view reads the units in id order by sorting their ids, not (id, unit) pairs,
    whose every comparison went through the pair's own comparison of the ids (issue 35
    item 4: a few per cent of a board click's view); the order, and so the view, is
    the plain one (above)."""
    state = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(state, BBState)
    sorts: list[list[object]] = []

    def recorded(items: object, **kw: object) -> list[object]:
        got: list[object] = sorted(items, **kw)  # type: ignore[call-overload]
        sorts.append(got)
        return got

    state.data.__dict__.pop("_sorted_ids", None)  # as a process's first view finds it
    monkeypatch.setattr(view_module, "sorted", recorded, raising=False)
    side = state.current_player()
    got = state.view(side)
    units = [s for s in sorts if len(s) == len(state.pos.units)]
    assert units and all(isinstance(u, str) for s in units for u in s)
    # the ids are the same position after position: sorted once, kept in the data set
    # (sorting them at every view was a seventh of a click's view, issue 35 item 4)
    sorts.clear()
    again = state.clone().view(side)
    monkeypatch.undo()
    assert [s for s in sorts if len(s) == len(state.pos.units)] == []
    assert got == _plain(state, side) and again == got
