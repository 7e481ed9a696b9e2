"""Backhand Blow's board view: the counters, the Front Markers and the status line."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from engines.backhand.data import FRONTS
from engines.backhand.position import DRAWN, SET
from pbem.engine import counter_text
from pbem.memo import Memo

if TYPE_CHECKING:
    from engines.backhand.data import Data
    from engines.backhand.position import Unit
    from engines.backhand.state import BBState
    from pbem.view import BoardView, Piece

#: where a counter is not drawn: not yet arrived, in the cup, eliminated, out of play
_OFF = ("pending", "cup", "elim", "out")


#: :data:`_OFF` as a set: every counter of every view asks it
_OFF_SET = frozenset(_OFF)


def _sorted_ids(data: Data, units: dict[str, Unit]) -> list[str]:
    """The units' ids sorted, kept in the data set with the ids in their order in the
    position (the same 124 ids position after position): sorting them at every view was
    a seventh of the view a click's redraw draws (issue 35 item 4)."""
    ids = tuple(units)
    kept: tuple[tuple[str, ...], list[str]] | None = data.__dict__.get("_sorted_ids")
    if kept is None or kept[0] != ids:
        kept = data.__dict__["_sorted_ids"] = (ids, sorted(ids))
    return kept[1]


def _kept(data: Data) -> Memo[tuple[str, str, int, bool], Piece]:
    got: Memo[tuple[str, str, int, bool], Piece] | None = data.__dict__.get("_view_pieces")
    if got is None:
        got = data.__dict__["_view_pieces"] = Memo(8192)
    return got


def _piece(s: BBState, u: str, x: Unit) -> Piece:
    from pbem.view import Piece

    sd = s.side_of(u)
    a, d = s.factors(u)
    label = f"({a}-{d})" if (not u.startswith("UP-") and s.data.units[u].bracket) \
        else f"{a}-{d}"
    return Piece(u, sd, label, x.at, name=u, color="#c03030" if sd == "soviet" else "#8090a0",
                 markers=("OOS",) if x.oos else ())


def _front(f: str, at: str) -> Piece:
    from pbem.view import Piece

    return Piece(f"front-{f}", "soviet", f"{f[:2].upper()} Front", at,
                 name=f"{f} Front Marker", color="#ffd040")


def counters(s: BBState) -> dict[str, str]:
    """What each counter on the board prints, as :func:`board`'s view has it (every side
    sees every counter: nothing is hidden in this game), read off the position: a
    listing's prompt and an act's events name the units with these, and drawing the board
    for them loaded the picture's classes on every ``legal`` and ``act`` (issue 35)."""
    texts = _texts(s.data)
    out = {}
    for u, x in sorted(s.pos.units.items()):
        if x.at in _OFF:
            continue
        key = (u, x.steps)
        text = texts.get(key)
        if text is None:
            a, d = s.factors(u)
            bracket = not u.startswith("UP-") and s.data.units[u].bracket
            text = texts[key] = counter_text(u, u, f"({a}-{d})" if bracket else f"{a}-{d}")
        out[u] = text
    for f in FRONTS:
        out[f"front-{f}"] = counter_text(f"front-{f}", f"{f} Front Marker",
                                         f"{f[:2].upper()} Front")
    return out


def _texts(data: Data) -> dict[tuple[str, int], str]:
    """A counter's text by its unit and steps (its factors by steps, its bracket, are the
    order of battle's), kept in the data set: every listing names the units again."""
    got: dict[tuple[str, int], str] | None = data.__dict__.get("_counter_texts")
    if got is None:
        got = data.__dict__["_counter_texts"] = {}
    return got


def board(s: BBState, side: str | None) -> BoardView:
    """The board, every counter kept in the data set under all it reads (its id, where it
    is, its steps and whether it is out of supply: its side, factors by steps and bracket
    are the order of battle's): a click's redraw asks the view of each new position, and
    making its 84 counters again was most of it, three times the engine's apply (353 ->
    108 us a view along a random game of High Water Mark; issue 35).

    The units' counters of the last view are kept with its units and the count of
    changes to what they draw (:data:`~engines.backhand.position.DRAWN`): while no unit
    was made, moved, stepped or put out of supply since, they are those counters, and
    the view with the same Front Markers and status line is the last view itself.  Most
    board clicks (a phase declared, a segment ended, a Front Marker moved) change no
    unit, and reading all 124 again was a tenth of each such click (issue 35)."""
    # the picture's classes load when a board is drawn: legal, act and receive draw
    # none, they write the status line alone (issue 35)
    from engines.hexkit.board import board_view

    data = s.data
    units = s.pos.units
    last: _Last | None = data.__dict__.get("_last_view")
    drawn: tuple[Piece, ...] | None = None
    if last is not None and last[0] is units and last[1] == len(units):
        drawn = last[3] if last[2] == DRAWN[0] else _redrawn(s, last)
    if drawn is None:
        kept = _kept(data)
        find = kept.find
        pieces: list[Piece] = []
        slots = {}
        # each counter found kept by its key alone, its maker made only on a miss: a
        # partial for each of the ~130 units a click was most of the view's own work
        # (issue 35); the ids sorted alone, not (id, unit) pairs, each pair compared
        # through its own comparison of the ids (the same order: an id is a key)
        for u in _sorted_ids(data, units):
            x = units[u]
            if x.at in _OFF_SET:
                continue
            key = (u, x.at, x.steps, x.oos)
            piece = find(key)
            slots[u] = len(pieces)
            pieces.append(piece if piece is not None else kept.keep(key, _piece(s, u, x)))
        drawn = tuple(pieces)
        ids = {id(x): u for u, x in units.items()}
    else:
        assert last is not None
        ids, slots = last[6], last[7]
    fronts = s.pos.fronts
    places = tuple(fronts[f] for f in FRONTS)
    status = s.status_line(side)
    if last is not None and last[3] is drawn and last[4] == places \
            and last[5].status == status and last[5].side == side:
        view = last[5]
    else:
        kept = _kept(data)
        find = kept.find
        markers = []
        for f in FRONTS:
            key = (f"front-{f}", fronts[f], 0, False)
            piece = find(key)
            markers.append(piece if piece is not None else kept.keep(key, _front(f, fronts[f])))
        if last is not None and last[5].side == side:
            # the last view's map, title and (no) highlights: drawn as board_view draws
            view = last[5].redrawn(drawn + tuple(markers), status)
        else:
            view = board_view(data.map, drawn + tuple(markers), side=side, status=status)
    # the units held alive with the key (no other dict can take their place unseen)
    data.__dict__["_last_view"] = (units, len(units), DRAWN[0], drawn, places, view, ids,
                                   slots)
    return view


#: the last view's units, their number, the count of changes then, the units' counters,
#: the Front Markers' places, the view, each unit's id by the unit object's (kept alive
#: in the units), and each drawn unit's place among the counters (:func:`board`)
_Last = tuple["dict[str, Unit]", int, int, "tuple[Piece, ...]", "tuple[str, ...]",
              "BoardView", dict[int, str], dict[str, int]]


def _redrawn(s: BBState, last: _Last) -> tuple[Piece, ...] | None:
    """The last view's units' counters with those of the units set since redrawn (the
    same units: each set is listed in position.SET), or ``None`` where the list cannot
    say which (a unit made, or more set than it keeps) or a unit came onto the map or
    left it: then every unit is read again.  A move, a step lost or replaced changes
    a unit or two of 124 (issue 35)."""
    count, now = last[2], DRAWN[0]
    if now - count > len(SET) or SET[-1][0] != now or SET[count - now][0] != count + 1:
        return None
    units, ids, slots = last[0], last[6], last[7]
    kept = _kept(s.data)
    pieces = list(last[3])
    for _, x in itertools.islice(SET, len(SET) - (now - count), None):
        u = ids.get(id(x))
        if u is None or units.get(u) is not x:
            continue  # a unit of another position (a copy the rules probed)
        slot = slots.get(u)
        if (slot is None) != (x.at in _OFF_SET):
            return None  # onto the map or off it: the counters' places move
        if slot is not None:
            key = (u, x.at, x.steps, x.oos)
            piece = kept.find(key)
            pieces[slot] = piece if piece is not None else kept.keep(key, _piece(s, u, x))
    return tuple(pieces)
