"""48th Panzer Korps: the board view and the status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.panzer48.victory import score
from pbem.engine import counter_text

if TYPE_CHECKING:
    from engines.panzer48.state import P48State
    from pbem.view import BoardView


def status_line(s: P48State, side: str | None) -> str:
    # the phase is the rulebook's; the runtime's step name is no word of it
    sc = score(s)
    return (f"turn {s.turn_number()}/{s.pos.last_turn}, {s.pos.phasing} "
            f"{s.pos.phase}; VP soviet {sc['soviet']} german {sc['german']}")


def counters(s: P48State, side: str | None) -> dict[str, str]:
    """What :func:`board`'s pieces print, by unit id (every unit on the map, none hidden:
    the default reads them off the view), without drawing the board: a listing names
    its units by them twice, and each view wrote the status line, scoring 10 again."""
    out: dict[str, str] = {}
    for u in s.on_map():
        info = s.d.units[u]
        out[u] = counter_text(u, info.name, _label(s, u))
    return out


def _label(s: P48State, u: str) -> str:
    info = s.d.units[u]
    return f"{s.steps_of(u)}{info.target}{info.fire}"


def board(s: P48State, side: str | None) -> BoardView:
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view
    from pbem.view import Piece

    pieces = []
    for u in s.on_map():
        info, x = s.d.units[u], s.pos.units[u]
        marks = tuple(m for m, on in (("flipped", x.flipped), ("retreated", x.retreated))
                      if on)
        pieces.append(Piece(u, info.side, _label(s, u),
                            x.hex, name=info.name, markers=marks,
                            color="#c04040" if info.side == "soviet" else "#6080a0"))
    return board_view(s.d.map, pieces, side=side, status=status_line(s, side))
