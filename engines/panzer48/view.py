"""48th Panzer Korps: the board view and the status line."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pbem.engine import counter_text
from pbem.memo import Memo

if TYPE_CHECKING:
    from engines.panzer48.data import Data
    from engines.panzer48.state import P48State
    from pbem.view import BoardView, Piece


def status_line(s: P48State, side: str | None) -> str:
    # the score's rules imported here, not by every command that shows counters (issue 35)
    from engines.panzer48.victory import score

    # the phase is the rulebook's; the runtime's step name is no word of it
    sc = score(s)
    return (f"turn {s.turn_number()}/{s.pos.last_turn}, {s.pos.phasing} "
            f"{s.pos.phase}; VP soviet {sc['soviet']} german {sc['german']}")


def counters(s: P48State, side: str | None) -> dict[str, str]:
    """What :func:`board`'s pieces print, by unit id (every unit on the map, none hidden:
    the default reads them off the view), without drawing the board: a listing names
    its units by them twice, and each view wrote the status line, scoring 10 again."""
    d, units = s.d, s.pos.units
    out: dict[str, str] = {}
    for u in s.on_map():
        info = d.units[u]
        out[u] = counter_text(u, info.name,
                              f"{info.steps - units[u].losses}{info.target}{info.fire}")
    return out


def plan_notes(s: P48State, side: str, salt: Callable[[str], bytes]) -> list[str]:
    """9.1: the Soviet player's own plan, which no file holds until each area is
    revealed: the position keeps only the digests, so the areas are found again by
    trying the scheduled ones with his salt (only he can make it).  The line is kept in
    the data set under all it reads (each secret formation, its digest, its turn and
    its salt): his view of every position shows it, and trying the areas again, two
    digests an area, was a fifth of a click's redraw (issue 35)."""
    pos = s.pos
    secret = [f for f in sorted(pos.plan_digests) if f not in pos.plan_areas]
    if side != "soviet" or not secret:
        return []
    key = tuple((f, pos.plan_digests[f], pos.plan_turns[f], salt(f)) for f in secret)
    kept = _notes(s.d)
    line = kept.find(key)
    if line is None:
        from engines.panzer48.reinforcements import digest_of, open_salt

        plans = []
        for f, dig, turn, mine in key:
            areas = [a for a, _ in s.d.formations[f].schedule
                     if dig in (digest_of(f, a, mine), digest_of(f, a, open_salt(f)))]
            area = f"area {areas[0]}" if areas else "area unknown (not committed with your key)"
            plans.append(f"{f} turn {turn} {area}")
        line = kept.keep(key, "your plan (9.1, secret): " + ", ".join(plans))
    return [line]


def _notes(d: Data) -> Memo[tuple[tuple[str, str, int, bytes], ...], str]:
    got: Memo[tuple[tuple[str, str, int, bytes], ...], str] | None = \
        d.__dict__.get("_plan_notes")
    if got is None:
        got = d.__dict__["_plan_notes"] = Memo(64)
    return got


def _kept(d: Data) -> Memo[tuple[str, str, int, bool, bool], Piece]:
    got: Memo[tuple[str, str, int, bool, bool], Piece] | None = d.__dict__.get("_view_pieces")
    if got is None:
        got = d.__dict__["_view_pieces"] = Memo(4096)
    return got


def _piece(d: Data, u: str, at: str, losses: int, flipped: bool, retreated: bool) -> Piece:
    from pbem.view import Piece

    info = d.units[u]
    marks = tuple(m for m, on in (("flipped", flipped), ("retreated", retreated)) if on)
    return Piece(u, info.side, f"{info.steps - losses}{info.target}{info.fire}", at,
                 name=info.name, markers=marks,
                 color="#c04040" if info.side == "soviet" else "#6080a0")


def board(s: P48State, side: str | None) -> BoardView:
    """The board, each counter kept in the data set under all it reads (its id, hex,
    losses, flipped (3.1) and retreated: its side, steps, target and fire numbers are the
    counter's): a click's redraw asks the view of each new position, and an action moves
    a unit or two (issue 35)."""
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view

    d = s.d
    kept = _kept(d)
    find = kept.find
    pieces = []
    # the units in id order, as on_map gives them, read once: each counter found kept by
    # its key alone, its maker made only on a miss (a partial for each of the 46 units,
    # and a second look-up of each, were a third of the view: issue 35)
    # the ids sorted alone, not (id, unit) pairs, each pair compared through its own
    # comparison of the ids (the same order: an id is a key)
    units = s.pos.units
    for u in sorted(units):
        x = units[u]
        if x.where != "map" or not x.hex:
            continue
        key = (u, x.hex, x.losses, x.flipped, x.retreated)
        piece = find(key)
        if piece is None:
            piece = kept.keep(key, _piece(d, *key))
        pieces.append(piece)
    return board_view(d.map, pieces, side=side, status=status_line(s, side))
