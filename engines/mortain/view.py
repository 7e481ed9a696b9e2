"""Mortain Counterattack's board view, status line and the names of its counters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mortain.position import Status
from engines.mortain.victory import german_exits
from pbem.engine import counter_text

if TYPE_CHECKING:
    from engines.mortain.state import MortainState
    from pbem.view import BoardView


def status_line(s: MortainState, side: str | None) -> str:
    pos = s.pos
    date = s.r.dates[min(pos.turn, pos.last_turn) - 1]
    # the phase is the rulebook's; the runtime's step name ('us-setup', 'att-loss') is
    # no word of it, and the decision's prompt already says what is awaited
    return (f"turn {pos.turn}/{pos.last_turn} ({date}), {pos.phasing} {pos.phase}; "
            f"support US {len(pos.chits.get('us', []))} German "
            f"{len(pos.chits.get('german', []))}; exited {german_exits(s)}/5")


def board(s: MortainState, side: str | None) -> BoardView:
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view
    from pbem.view import Piece

    pieces = []
    for u, x in sorted(s.pos.units.items()):
        if x.status is not Status.MAP:
            continue
        info = s.r.units[u]
        a, d = info.factors(x.depleted)
        pieces.append(Piece(u, info.side, f"{a}-{d}-{info.ma}", x.hex, name=info.name,
                            markers=("depleted",) if x.depleted else (),
                            color="#4060a0" if info.side == "us" else "#606060"))
    return board_view(s.r.map, pieces, side=side, status=status_line(s, side),
                      highlights=[s.pos.combat.target] if s.pos.combat else ())


def counters(s: MortainState, side: str | None) -> dict[str, str]:
    # no hidden units in this game: a reinforcement still to enter (11.1) or a US unit
    # still to set up (13.0) reads as its counter does, not as the bare id G01
    out = {}
    for u in s.r.order:  # the book's order (11.1, 13.0)
        info, x = s.r.units[u], s.pos.units[u]
        if side is not None and info.side != side and x.status is not Status.MAP:
            continue  # the enemy's units off the map are none of ours to name
        a, d = info.factors(x.depleted)
        out[u] = counter_text(u, info.name, f"{a}-{d}-{info.ma}")
    return out
