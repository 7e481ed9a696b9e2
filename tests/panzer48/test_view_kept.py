"""48th Panzer Korps' board view keeps each counter under what it reads (issue 35): along
random games it shows what the plain per-call computation shows, to each side and to the
referee, so a key left incomplete (a step lost, a unit flipped by a prepared attack (3.1)
or retreated) shows up as a difference."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

from engines.hexkit.board import board_view
from engines.panzer48 import ENGINE
from engines.panzer48 import view as view_module
from engines.panzer48.state import P48State
from engines.panzer48.view import status_line
from pbem.testing import Chooser, decisions
from pbem.view import BoardView, Piece


def _plain(s: P48State, side: str | None) -> BoardView:
    """The view as it was made before anything was kept: every counter, every call."""
    pieces = []
    for u in s.on_map():
        info, x = s.d.units[u], s.pos.units[u]
        marks = tuple(m for m, on in (("flipped", x.flipped), ("retreated", x.retreated))
                      if on)
        pieces.append(Piece(u, info.side, f"{s.steps_of(u)}{info.target}{info.fire}",
                            x.hex, name=info.name, markers=marks,
                            color="#c04040" if info.side == "soviet" else "#6080a0"))
    return board_view(s.d.map, pieces, side=side, status=status_line(s, side))


def test_kept_view_is_the_plain_view_along_random_games() -> None:
    seen_loss = seen_flipped = seen_retreated = reused = 0
    for scenario in ("first-day", "chir"):
        s = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(s, P48State)
        choose = Chooser(f"view-kept/{scenario}")
        last: dict[str, Piece] = {}
        for _ in decisions(s, choose, 500):
            for side in (None, "soviet", "german"):
                got = s.view(side)
                assert got == _plain(s, side), (scenario, side, s.pos.phase)
            pieces = {p.id: p for p in got.pieces}
            # a counter the action left alone is the one drawn before, not made again
            reused += sum(1 for k, p in pieces.items() if last.get(k) is p)
            last = pieces
            on = [s.pos.units[u] for u in s.on_map()]
            seen_loss += any(x.losses for x in on)
            seen_flipped += any(x.flipped for x in on)
            seen_retreated += any(x.retreated for x in on)
    # the games reach what the key must tell apart
    assert seen_loss and seen_flipped and seen_retreated and reused


def test_a_counter_kept_makes_no_maker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A click's redraw draws the view of a position an action changed in a unit or two:
    a counter kept is found by its key without making its maker (a partial for each of
    the 46 units, made again every view, was a fifth of it: issue 35); only the counters
    the action changed are made, and the view is the plain one."""
    made: list[str] = []
    real_piece = view_module._piece

    def counted_piece(d: object, u: str, *rest: object) -> Piece:
        made.append(u)
        return real_piece(d, u, *rest)  # type: ignore[arg-type]

    def counted_partial(fn: Callable[..., object], *args: object) -> object:
        made.append(str(args[1]))  # the unit: a maker made, whether called or not
        return partial(fn, *args)

    monkeypatch.setattr(view_module, "_piece", counted_piece)
    # the module once made a partial of each counter (raising=False: it makes none now)
    monkeypatch.setattr(view_module, "partial", counted_partial, raising=False)
    s = ENGINE.new_state("chir", ENGINE.resolve_options({}))
    assert isinstance(s, P48State)
    choose = Chooser("view-maker")
    redrawn = 0
    before: dict[str, tuple[str, str, int, bool, bool]] = {}
    for _ in decisions(s, choose, 200):
        made.clear()
        got = s.view(None)
        assert got == _plain(s, None)
        now = {u: (x.where, x.hex, x.losses, x.flipped, x.retreated)
               for u, x in s.pos.units.items()}
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
    state = ENGINE.new_state("chir", ENGINE.resolve_options({}))
    assert isinstance(state, P48State)
    sorts: list[list[object]] = []

    def recorded(items: object, **kw: object) -> list[object]:
        got: list[object] = sorted(items, **kw)  # type: ignore[call-overload]
        sorts.append(got)
        return got

    monkeypatch.setattr(view_module, "sorted", recorded, raising=False)
    side = state.current_player()
    got = state.view(side)
    monkeypatch.undo()
    assert got == _plain(state, side)
    units = [s for s in sorts if len(s) == len(state.pos.units)]
    assert units and all(isinstance(u, str) for s in units for u in s)
