"""For the Motherland!'s board view keeps each counter under what it reads (issue 35):
along random games it shows what the plain per-call computation shows, to each side and
to the referee, so a key left incomplete (a step lost, a chit drawn, a unit out of supply
(9.5)) shows up as a difference."""

from __future__ import annotations

from typing import Any

import pytest

from engines.motherland import ENGINE
from engines.motherland.state import MotherlandState
from engines.motherland.view import _piece
from pbem.engine import view_counters
from pbem.testing import Chooser, decisions
from pbem.view import BoardView, Piece


def _plain_pieces(state: MotherlandState) -> tuple[Piece, ...]:
    """The counters as they were made before anything was kept: every one, every call."""
    return tuple(_piece(state, uid, u.hex or u.box)
                 for uid, u in sorted(state.pos.units.items()) if (u.hex or u.box) != "out")


def test_kept_counters_are_the_plain_counters_along_random_games() -> None:
    seen_supply = seen_chit = seen_reduced = reused = seen_partisan = seen_stalin = 0
    for scenario, steps in (("4-uranus", 600), ("1-barbarossa", 400)):
        state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(state, MotherlandState)
        choose = Chooser(f"view-kept/{scenario}")
        last: dict[str, Piece] = {}
        for _ in decisions(state, choose, steps):
            plain = _plain_pieces(state)
            for side in (None, "axis", "soviet"):
                got: BoardView = state.view(side)
                counters = tuple(p for p in got.pieces if p.id in state.pos.units)
                assert counters == plain, (scenario, side, state.status())
                # how 'legal' and 'act' name the units, read off the position without
                # drawing the board: what the view's counters say, in the same order
                named = state.counters(side)
                assert list(named.items()) == list(view_counters(got).items()), side
                seen_partisan += any(k.startswith("partisan:") for k in named)
                seen_stalin += "stalin" in named
            pieces = {p.id: p for p in got.pieces}
            # a counter the action left alone is the one drawn before, not made again
            reused += sum(1 for k, p in pieces.items() if last.get(k) is p)
            last = pieces
            units = state.pos.units.values()
            seen_supply += any(u.supply for u in units)
            seen_chit += any(u.chit for u in units)
            seen_reduced += any(u.steps == 1 and len(state.c(k).factors) > 1
                                for k, u in state.pos.units.items())
    # the games reach what the key must tell apart
    assert seen_supply and seen_chit and seen_reduced and reused
    assert seen_partisan and seen_stalin


def test_the_names_are_worked_out_once_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grouped listing asks the units' names twice (the prompt, then the groups): the
    second time finds them kept with the position, and a change forgets them.  A
    caller's copy of them changes nothing kept."""
    from engines.motherland import state as state_module

    state = ENGINE.new_state("4-uranus", ENGINE.resolve_options({}))
    assert isinstance(state, MotherlandState)
    choose = Chooser("names-kept")
    asked: list[str] = []
    plain = state_module._factors

    def counted(c: Any, u: Any, chits: Any) -> tuple[int, int, int]:
        asked.append(c.id)
        return plain(c, u, chits)

    # each unit's factors (9.5, 11.0), as its name prints them
    monkeypatch.setattr(state_module, "_factors", counted)
    for _ in decisions(state, choose, 30):
        asked.clear()
        first = dict(state.counters("axis"))
        once = len(asked)
        assert once and dict(state.counters("soviet")) == first and len(asked) == once
        first["nobody"] = "changed by its caller"
        assert "nobody" not in state.counters(None)
