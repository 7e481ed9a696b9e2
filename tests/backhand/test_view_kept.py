"""Backhand Blow's board view keeps each counter under what it reads (issue 35): along
random games it shows what the plain per-call computation shows, to each side and to the
referee, so a key left incomplete (a step lost, out of supply, a Front Marker moved)
shows up as a difference."""

from __future__ import annotations

from engines.backhand import ENGINE
from engines.backhand.data import FRONTS
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
