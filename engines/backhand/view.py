"""Backhand Blow's board view: the counters, the Front Markers and the status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.backhand.data import FRONTS

if TYPE_CHECKING:
    from engines.backhand.state import BBState
    from pbem.view import BoardView


def status_line(s: BBState) -> str:
    p = s.pos
    return (f"turn {p.turn}/{p.last_turn} {p.weather}, {p.segment}; C3I S{p.c3i['soviet']} "
            f"G{p.c3i['german']}; AP SW{p.ap['southwest']} VO{p.ap['voronezh']} "
            f"G{p.ap['german']}")


def board(s: BBState, side: str | None) -> BoardView:
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view
    from pbem.view import Piece

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
