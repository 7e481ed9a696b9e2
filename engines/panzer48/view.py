"""48th Panzer Korps: the board view and the status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.panzer48.victory import score

if TYPE_CHECKING:
    from engines.panzer48.state import P48State
    from pbem.view import BoardView


def status_line(s: P48State, side: str | None) -> str:
    # the phase is the rulebook's; the runtime's step name is no word of it
    sc = score(s)
    return (f"turn {s.turn_number()}/{s.pos.last_turn}, {s.pos.phasing} "
            f"{s.pos.phase}; VP soviet {sc['soviet']} german {sc['german']}")


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
        pieces.append(Piece(u, info.side, f"{s.steps_of(u)}{info.target}{info.fire}",
                            x.hex, name=info.name, markers=marks,
                            color="#c04040" if info.side == "soviet" else "#6080a0"))
    return board_view(s.d.map, pieces, side=side, status=status_line(s, side))
