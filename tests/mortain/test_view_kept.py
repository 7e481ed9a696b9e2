"""Mortain Counterattack's board view keeps each counter under what it reads (issue 35):
along random games it shows what the plain per-call computation shows, to each side and
to the referee, so a key left incomplete (a unit depleted, moved) shows up as a
difference."""

from __future__ import annotations

from engines.hexkit.board import board_view
from engines.mortain import ENGINE
from engines.mortain.position import Status
from engines.mortain.state import MortainState
from engines.mortain.view import status_line
from pbem.testing import Chooser, decisions
from pbem.view import BoardView, Piece


def _plain(s: MortainState, side: str | None) -> BoardView:
    """The view as it was made before anything was kept: every counter, every call."""
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


def test_kept_view_is_the_plain_view_along_random_games() -> None:
    seen_depleted = reused = moved = 0
    for seed in ("a", "b"):
        s = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
        assert isinstance(s, MortainState)
        choose = Chooser(f"view-kept/{seed}")
        last: dict[str, Piece] = {}
        for _ in decisions(s, choose, 400):
            for side in (None, "us", "german"):
                got = s.view(side)
                assert got == _plain(s, side), (seed, side, s.pos.phase)
            pieces = {p.id: p for p in got.pieces}
            # a counter the action left alone is the one drawn before, not made again
            reused += sum(1 for k, p in pieces.items() if last.get(k) is p)
            moved += sum(1 for k, p in pieces.items() if k in last
                         and last[k].location != p.location)
            last = pieces
            seen_depleted += any(x.depleted and x.status is Status.MAP
                                 for x in s.pos.units.values())
    # the games reach what the key must tell apart
    assert seen_depleted and moved and reused
