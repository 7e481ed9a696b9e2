"""Mortain Counterattack's board view, status line and the names of its counters."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engines.mortain.position import Status
from engines.mortain.victory import german_exits
from pbem.engine import counter_text
from pbem.memo import Memo

if TYPE_CHECKING:
    from engines.mortain.data import Rules
    from engines.mortain.state import MortainState
    from pbem.view import BoardView, Piece


def status_line(s: MortainState, side: str | None) -> str:
    pos = s.pos
    date = s.r.dates[min(pos.turn, pos.last_turn) - 1]
    # the phase is the rulebook's; the runtime's step name ('us-setup', 'att-loss') is
    # no word of it, and the decision's prompt already says what is awaited
    return (f"turn {pos.turn}/{pos.last_turn} ({date}), {pos.phasing} {pos.phase}; "
            f"support US {len(pos.chits.get('us', []))} German "
            f"{len(pos.chits.get('german', []))}; exited {german_exits(s)}/5")


def _kept(r: Rules) -> Memo[tuple[str, str, bool], Piece]:
    got: Memo[tuple[str, str, bool], Piece] | None = r.__dict__.get("_view_pieces")
    if got is None:
        got = r.__dict__["_view_pieces"] = Memo(4096)
    return got


def _piece(r: Rules, u: str, at: str, depleted: bool) -> Piece:
    from pbem.view import Piece

    info = r.units[u]
    a, d = info.factors(depleted)
    return Piece(u, info.side, f"{a}-{d}-{info.ma}", at, name=info.name,
                 markers=("depleted",) if depleted else (),
                 color="#4060a0" if info.side == "us" else "#606060")


def board(s: MortainState, side: str | None) -> BoardView:
    """The board, each counter kept in the scenario's rules under all it reads (its id,
    hex and whether it is depleted: its side, factors and name are the counter's): a
    click's redraw asks the view of each new position, and an action moves a unit or
    two (issue 35)."""
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view

    r = s.r
    kept = _kept(r)
    pieces = [kept.get((u, x.hex, x.depleted), partial(_piece, r, u, x.hex, x.depleted))
              for u, x in sorted(s.pos.units.items()) if x.status is Status.MAP]
    return board_view(r.map, pieces, side=side, status=status_line(s, side),
                      highlights=[s.pos.combat.target] if s.pos.combat else ())


def _texts(r: Rules) -> dict[tuple[str, bool], str]:
    got: dict[tuple[str, bool], str] | None = r.__dict__.get("_counter_texts")
    if got is None:
        got = r.__dict__["_counter_texts"] = {}
    return got


def counters(s: MortainState, side: str | None) -> dict[str, str]:
    """How each counter reads, kept in the scenario's rules by unit and whether it is
    depleted (all a text reads: two at most a unit): every legal, and every redraw of a
    board click, names the units again (issue 35)."""
    # no hidden units in this game: a reinforcement still to enter (11.1) or a US unit
    # still to set up (13.0) reads as its counter does, not as the bare id G01
    out = {}
    r = s.r
    texts = _texts(r)
    for u in r.order:  # the book's order (11.1, 13.0)
        info, x = r.units[u], s.pos.units[u]
        if side is not None and info.side != side and x.status is not Status.MAP:
            continue  # the enemy's units off the map are none of ours to name
        text = texts.get((u, x.depleted))
        if text is None:
            a, d = info.factors(x.depleted)
            text = texts[(u, x.depleted)] = counter_text(u, info.name, f"{a}-{d}-{info.ma}")
        out[u] = text
    return out
