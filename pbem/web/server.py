"""``pbem board GAME``: the board in the browser, served by pbem on loopback only.

One player, one game, one machine: the standard library's ``http.server`` is enough.  Each
connection has its own thread with a socket timeout, so a connection left idle or half
sent (another page's stray request, a local program) never keeps the board from answering
the page; every request then works on the game under the board's one lock, which
serializes every change to the save.  What keeps other programs out:

* the socket is bound to 127.0.0.1 (never a wildcard address), so no other machine can
  connect at all;
* the browser is handed an address with a one-time code, which the server trades, once,
  for a cookie holding the board's secret (HttpOnly, SameSite=Strict, named after the
  port); every other request must carry that cookie; without it: 403.  The secret itself
  is never on a command line (the browser launcher's argv is readable by every local
  user), in the address bar or in the shell's history: a used code is worth nothing;
* the ``Host`` header must name the loopback address and our port (a web page that
  rebinds its own domain name to 127.0.0.1 cannot talk to us), and an ``Origin`` or
  ``Sec-Fetch-Site`` header, when present, must be our own; no CORS header is ever sent,
  so no other site's script can read an answer;
* only the game's page and its few JSON calls exist: no file is ever served from disk.

Every click becomes an action in the engine's notation, applied with
:meth:`pbem.session.Game.act`, exactly as ``pbem act`` does, and saved at once: closing
the page loses nothing.  The game is kept in memory between requests only while its save
on disk is the one it read or wrote last, so a ``pbem`` command run meanwhile in a
terminal is seen, never overwritten.
"""

from __future__ import annotations

import bisect
import functools
import hmac
import importlib
import itertools
import json
import operator
import pkgutil
import re
import secrets
import shlex
import socket
import sys
import threading
import traceback
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from pbem import orders
from pbem.audit import AuditReport, body_summary, explain_roll
from pbem.choices import reading_order
from pbem.engine import Action, State, counter_text
from pbem.envelope import open_envelope, peek
from pbem.errors import DuplicateFile, PbemError, UsageError
from pbem.grammar import Act, Form, hexes_of, names, units_of
from pbem.memo import Memo
from pbem.naming import cites, told
from pbem.play import write_outbox
from pbem.session import Game, Home
from pbem.text import displayable, safe
from pbem.transcript import Verifier
from pbem.view import BoardView, Piece
from pbem.web.replay import (
    PieceTable,
    cell_hexes,
    file_frames,
    frame_data,
    map_data,
    page,
    piece_row,
)

LOOPBACK = "127.0.0.1"
MAX_BODY = 64 * 1024
#: how long a refused connection's remaining input is read before it closes
DRAIN_SECONDS = 0.5
#: seconds a connection may sit idle, or take to send its request, before it is closed
TIMEOUT = 10.0

#: what ``json.dumps`` writes of a character :func:`pbem.text.safe` may escape: a control
#: (``\r``, ``\b``, ``\f``, ``\u0007``) or any character beyond ASCII (``\u202e``)
_ESCAPED = re.compile(r"\\(u[0-9a-f]{4}|[rbf])")


#: ``json.dumps``'s own C encoder, with its defaults (no circular check: a redraw's data is
#: made afresh, a tree), made once: ``json.dumps`` makes it again and goes through three
#: Python calls for every value, and a click's redraw encodes a few dozen small ones (a
#: third of its JSON's time, issue 35 item 4)
_ENCODE = None if c_make_encoder is None else c_make_encoder(
    None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ", ", ", False,
    False, True)


def dumps(value: Any) -> str:
    """``json.dumps(value)``, the same text."""
    if isinstance(value, str):
        # what json.dumps writes of a string (ASCII, quoted), without its encoder made
        # and its three Python calls: a redraw writes each key it sends
        return encode_basestring_ascii(value)
    if _ENCODE is None:
        return json.dumps(value)
    return "".join(_ENCODE(value, 0))


def page_json(value: Any) -> str:
    """``json.dumps(displayable(value))``, the same text, without walking ``value`` in Python
    when no string in it needs :func:`pbem.text.safe` (nearly always).

    ``json.dumps`` writes every control and every character beyond ASCII as an escape, so
    a text with no escape of a character ``safe`` changes has none in its strings; else
    (or when unsure: a backslash of the text before an ``r``) the slow way.  Walking a
    redraw's data string by string was a third of its JSON (issue 35 item 4)."""
    text = dumps(value)
    if "\\" not in text:
        # no escape at all (nearly always): found in C, without the pattern's scan
        return text
    for found in _ESCAPED.finditer(text):
        code = found.group(1)
        if len(code) == 1:
            return json.dumps(displayable(value))
        ch = chr(int(code[1:], 16))
        if safe(ch) != ch:
            return json.dumps(displayable(value))
    return text


@dataclass
class History:
    """What the page replays and the dice log, for one length of the game's transcript."""

    files: int
    frames: list[dict[str, Any]]
    #: the counters the frames show: each redraw reads it (:class:`Present`), none writes it
    table: PieceTable
    rolls: list[dict[str, Any]]
    #: the game replayed to its last file, and that file: what more files are added to
    verifier: Verifier
    last: bytes
    #: the page's JSON of the frames, the counters and the rolls above, each list's items
    #: joined as ``json.dumps`` joins them (made at the first redraw that needs it)
    encoded: dict[str, str] | None = None

    def json(self) -> dict[str, str]:
        if self.encoded is None:
            lists: dict[str, list[Any]] = {"frames": self.frames, "pieces": self.table.rows,
                                           "rolls": self.rolls}
            self.encoded = {key: ", ".join(page_json(item) for item in items)
                            for key, items in lists.items()}
        return self.encoded


@dataclass
class Sent:
    """The last redraw this board sent (to any of its pages): a page that holds it is sent
    only what changed since (:meth:`Board.answer`)."""

    version: str
    history: History
    #: each key's JSON as sent, but the lists'
    texts: dict[str, str]
    #: each key's value those texts were made of, but the lists': a key whose value is
    #: equal now is not encoded again (every value of a key is of one JSON shape, its
    #: dicts' keys in one order, so equal values make the same text)
    values: dict[str, Any]
    #: the JSON of each list's items after the history's (the board now, the counters
    #: only it shows, this file's rolls)
    tails: dict[str, list[str]]


def reindexed(frames: list[dict[str, Any]], table: PieceTable) -> PieceTable:
    """``frames``' counters as a table of their own, numbered in the order the frames first
    show them (as a table built for these frames alone numbers them); the frames' indices
    are made to match.  What the board keeps when its own seal leaves earlier files' frames
    out: their counters leave the page's table too."""
    fresh = PieceTable()
    number: dict[int, int] = {}
    for k, frame in enumerate(frames):
        shown: list[int] = []
        for old in frame["pieces"]:
            if old not in number:
                number[old] = len(fresh.rows)
                row = table.rows[old]
                fresh.index[tuple(row)] = number[old]
                fresh.rows.append(row)
            shown.append(number[old])
        # a new frame: the one kept may be in an answer already sent
        frames[k] = {**frame, "pieces": shown}
    return fresh


#: a counter's row of the piece table as a key, by the counter itself and its depth; with
#: the index of the history's table it was found in, and where (None: not found there)
Known = dict[tuple[int, int], tuple[Piece, tuple[Any, ...], dict[Any, int] | None,
                                    int | None]]


@dataclass
class Present(PieceTable):
    """One redraw's piece table: the history's rows, read and never written, then the rows
    of the counters only the board as it is now shows.

    A redraw used to copy the history's rows and index every one of them again, work that
    grew with the game on every click (issue 35 item 4); the history's own index answers
    instead, and ``known`` (kept by the board from redraw to redraw) spares making the row
    of a counter the engine hands again unchanged.

    ``seen`` (:attr:`PieceTable.seen`, which :func:`~pbem.web.replay.frame_data` reads
    before it calls :meth:`add`) is the board's too, kept for one history table's index
    (:meth:`Board.state`), and holds only the counters found in that table: their rows
    stay where they are while the table grows, while a row of this redraw's own is
    numbered by the order this redraw adds it."""

    history: PieceTable = field(default_factory=PieceTable)
    known: Known = field(default_factory=dict)
    #: each row of this redraw's own as the redraws before made it, by its fields (the
    #: board's, kept from redraw to redraw): the same row is the same list, never
    #: changed, so its JSON is made once (:meth:`Board.answer`)
    made: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)

    def add(self, piece: Piece, depth: int) -> int:
        index = self.history.index
        kept = self.known.get((id(piece), depth))
        if kept is not None and kept[2] is index and kept[0] is piece:
            # found in this history's table before: a table only grows, never renumbers
            # (a history made afresh has another), so the row is where it was; looking
            # its nine fields up again was a third of the board's frame (issue 35 item 4)
            self._seen(piece, depth, kept[3])  # type: ignore[arg-type]
            return kept[3]  # type: ignore[return-value]
        if kept is None or kept[0] is not piece:
            if len(self.known) >= 65536:  # a bound on what it holds alive, not a record
                self.known.clear()
            kept = (piece, tuple(piece_row(piece, depth)), None, None)
        key = kept[1]
        found = index.get(key)
        self.known[(id(piece), depth)] = (piece, key, index if found is not None else None,
                                          found)
        if found is not None:
            self._seen(piece, depth, found)
        else:
            found = self.index.get(key)
            if found is None:
                found = self.index[key] = len(self.history.rows) + len(self.rows)
                row = self.made.get(key)
                if row is None:
                    if len(self.made) >= 65536:  # a bound on what it holds alive
                        self.made.clear()
                    row = self.made[key] = list(key)
                self.rows.append(row)
        return found

    def _seen(self, piece: Piece, depth: int, found: int) -> None:
        """Keep a counter found in the history's table where ``frame_data`` looks first:
        the next redraw's frame then finds it without a call of :meth:`add`."""
        if len(self.seen) >= 65536:  # a bound on what it holds alive, not a record
            self.seen.clear()
        self.seen[(id(piece), depth)] = (piece, found)

    def every_row(self) -> list[list[Any]]:
        """The history's rows, then the present's: the page's whole piece table."""
        return [*self.history.rows, *self.rows]


@dataclass
class Stacks:
    """The board's last "now" frame as :func:`now_frame` found it, kept to make the next
    one from the counters a click changed: where each stack is, its top counter and depth,
    and the top's row in the history's table.  Each redraw walked every counter of the
    board twice for it, a fifth of Backhand Blow's redraw, where a click moves a counter
    or two (issue 35 item 4).  Only :func:`now_frame` reads and changes it."""

    #: the history's table the rows below are found in (another one numbers them anew)
    index: dict[tuple[Any, ...], int]
    #: the map's hexes (:func:`~pbem.web.replay.cell_hexes`) and its boxes' names: the
    #: frame shows the locations that are either, no other
    cells: frozenset[str]
    boxes: frozenset[str]
    #: the view's counters, and where each one is
    pieces: Sequence[Piece]
    locations: list[str]
    #: each location the frame shows: its first counter's place in ``pieces``, and the
    #: locations in that order (the frame's)
    first: dict[str, int]
    order: list[str]
    #: the number of the view's counters at each location (each in ``locations``)
    counts: dict[str, int]
    #: each hex's top counter and the number of counters under it
    tops: dict[str, tuple[Piece, int]]
    #: the top's row in the history's table, ``None``: to be found (a row of this redraw's
    #: own is numbered by the redraw, as :meth:`Present.add` meets it)
    found: dict[str, int | None]
    #: each box's counters, each shown (as frame_data shows them)
    boxed: dict[str, list[Piece]]
    #: the side the frame is made for, and the page's row of each of the view's counters
    #: of that side it may identify, by the counter's place (``None``: another side's or
    #: hidden): the redraw's ``mine``
    side: str | None
    rows: list[dict[str, str] | None]
    #: each row's JSON as the page is sent it (:meth:`Board._mine_text`), made when first
    #: asked, and the places of the rows changed since
    texts: list[str | None] | None = None
    dirty: list[int] = field(default_factory=list)
    #: the last frame made of these stacks, and its JSON once made: a click that moves
    #: no counter and leaves the status line (a phase declared) redraws the same frame
    frame: dict[str, Any] | None = None
    frame_text: str | None = None


#: the page's row of a counter of the frame's side it may identify (:attr:`Stacks.rows`)
Rows = Callable[[Piece], "dict[str, str] | None"]


def _stacks(view: BoardView, table: PieceTable, side: str | None, row: Rows
            ) -> Stacks | None:
    """The view's stacks, found afresh; ``None`` where :func:`now_frame` leaves the frame
    to ``frame_data``: a hidden counter topping others on the map (the top shown is the
    first the viewer may identify)."""
    pieces = view.pieces
    cells = cell_hexes(view)
    boxes = frozenset(b.name for b in view.boxes)
    locations = [p.location for p in pieces]
    first: dict[str, int] = {}
    tops: dict[str, tuple[Piece, int]] = {}
    boxed: dict[str, list[Piece]] = {}
    for i, location in enumerate(locations):
        if location in tops:
            top, under = tops[location]
            if top.hidden:
                return None
            tops[location] = (top, under + 1)
        elif location in boxed:
            boxed[location].append(pieces[i])
        elif location in cells:
            first[location] = i
            tops[location] = (pieces[i], 0)
        elif location in boxes:
            first[location] = i
            boxed[location] = [pieces[i]]
    return Stacks(table.index, cells, boxes, pieces, locations, first, list(first),
                  Counter(locations), tops, dict.fromkeys(tops), boxed, side,
                  [row(p) for p in pieces])


def _restacked(kept: Stacks, view: BoardView, row: Rows) -> Stacks | None:
    """``kept`` made the view's: the stacks a changed counter was or is in found again, in
    place (``None``: as :func:`_stacks`, and ``kept`` is then spoiled).  A location no
    changed counter was or is in holds the same counters at the same places, so its top,
    depth and first place stay."""
    pieces = view.pieces
    old = kept.pieces
    if pieces is old:  # the same counters (an engine may hand the last view's again)
        return kept
    kept.pieces = pieces
    changed = list(itertools.compress(range(len(pieces)), map(operator.is_not, old, pieces)))
    if not changed:
        return kept
    locations, first, tops, found, boxed, counts, order = (
        kept.locations, kept.first, kept.tops, kept.found, kept.boxed, kept.counts,
        kept.order)
    touched: set[str] = set()
    rows = kept.rows
    kept.dirty += changed
    for i in changed:
        rows[i] = row(pieces[i])
        counts[locations[i]] -= 1
        touched.add(locations[i])
        locations[i] = pieces[i].location
        counts[locations[i]] = counts.get(locations[i], 0) + 1
        touched.add(locations[i])
    # a location's place in the frame's order (its first counter's place) found again
    # only where its first place changed, or it came or went: sorting all seventy
    # locations again, and counting each touched one's counters among all the view's,
    # were most of a click's restacking (issue 35)
    by_first = first.__getitem__
    for location in touched:
        was = first.get(location)
        if location in kept.cells:
            count = counts[location]
            if count:
                i = locations.index(location)
                top = pieces[i]
                if top.hidden and count > 1:
                    return None
                first[location], tops[location], found[location] = i, (top, count - 1), None
            elif location in first:
                del first[location], tops[location], found[location]
        elif location in kept.boxes:
            members = list(itertools.compress(pieces, map(location.__eq__, locations)))
            if members:
                first[location], boxed[location] = locations.index(location), members
            elif location in first:
                del first[location], boxed[location]
        if first.get(location) != was:
            # in the order the view first shows each location, as the frame lists them
            if was is not None:
                order.remove(location)
            if location in first:
                bisect.insort(order, location, key=by_first)
    return kept


def now_frame(view: BoardView, side: str | None, table: Present, kept: Stacks | None,
              row: Rows) -> tuple[dict[str, Any], Stacks | None]:
    """``frame_data(view, [], side, table, file=None, now=True)``, the same frame (the
    board as it is now, on every click's redraw), and the stacks kept for the next one
    (:class:`Stacks`).  Each top found in the history's table before is not looked up
    again; the others, and a box's counters, are asked of ``table`` in the view's order,
    as frame_data asks them, so this redraw's own rows are numbered alike.  ``row``: the
    page's row of a counter of ``side`` it may identify, else ``None`` (:attr:`Stacks.rows`,
    made for the changed counters alone)."""
    if kept is None or kept.index is not table.history.index or len(kept.pieces) != \
            len(view.pieces) or kept.cells is not cell_hexes(view) or kept.side != side:
        kept = _stacks(view, table.history, side, row)
    else:
        kept = _restacked(kept, view, row)
    if kept is None:
        return frame_data(view, [], side, table, file=None, now=True), None
    tops, found, order, boxed = kept.tops, kept.found, kept.order, kept.boxed
    seen, add, history = table.seen, table.add, len(table.history.rows)
    shown: list[int | None]
    if boxed:
        shown = []
        for location in order:
            members = boxed.get(location)
            if members is not None:
                shown.extend([add(p, 0) for p in members])
                continue
            at = found[location]
            if at is None:
                top, depth = tops[location]
                got = seen.get((id(top), depth))
                at = got[1] if got is not None and got[0] is top else add(top, depth)
                if at < history:  # a row of the history's table: it stays where it is
                    found[location] = at
            shown.append(at)
    else:
        shown = list(map(found.__getitem__, order))
        if None in shown:
            for j in itertools.compress(range(len(shown)),
                                        map(operator.is_, shown, itertools.repeat(None))):
                location = order[j]
                top, depth = tops[location]
                got = seen.get((id(top), depth))
                at = got[1] if got is not None and got[0] is top else add(top, depth)
                shown[j] = at
                if at < history:
                    found[location] = at
    last = kept.frame
    if last is not None and last["pieces"] == shown and last["status"] == view.status:
        # the frame the last redraw made, whose JSON is kept with it (never changed)
        return last, kept
    kept.frame_text = None
    kept.frame = {"status": view.status, "pieces": shown, "events": [], "hexes": [],
                  "file": None, "now": True}
    return kept.frame, kept


#: an action's part in a redraw's buttons as :meth:`Board.buttons_of` keeps it: the
#: action, whether it names no hex of the map, its names (:meth:`Board.named_by`), and
#: those of its names that are not hexes of the map (where a waiting unit is found)
Button = tuple[Action, bool, tuple[str, ...], tuple[str, ...]]
_OFF_MAP: Callable[[Button], bool] = operator.itemgetter(1)
_NOT_HEXES: Callable[[Button], tuple[str, ...]] = operator.itemgetter(3)
_NAMES: Callable[[Button], tuple[str, ...]] = operator.itemgetter(2)

#: a counter's unit id (:attr:`Piece.id`), read in C
_ID: Callable[[Piece], str] = operator.attrgetter("id")

_K = TypeVar("_K")
_V = TypeVar("_V")


def _by_identity(table: dict[int, tuple[_K, _V]], obj: _K, make: Callable[[_K], _V]) -> _V:
    """``make(obj)``, kept in ``table`` under the object's id with the object itself (so
    no other object can take that id while the entry stands); the table is emptied at
    65,536 entries, a bound on what it holds alive, not a record."""
    kept = table.get(id(obj))
    if kept is None or kept[0] is not obj:
        if len(table) >= 65536:
            table.clear()
        kept = table[id(obj)] = (obj, make(obj))
    return kept[1]


@functools.cache
def _load_rules(module: str) -> None:
    """Import every module of the engine's package (``module``: where its engine class
    is defined; nothing for a class defined in a plain module).  An engine loads a rule
    where it is first asked, so a command pays only for what it reads (issue 35); a board
    serves one game click after click, and the click that first reached a phase paid
    for loading its rules (Backhand Blow's administrative movement, 15.1: a sixth of that
    click).  Loaded once per process, with the board's first state."""
    package = importlib.import_module(module)
    for found in pkgutil.walk_packages(getattr(package, "__path__", ()), f"{module}."):
        importlib.import_module(found.name)


def _mine_row_of(piece: Piece) -> dict[str, str]:
    return {"id": piece.id, "hex": piece.location, "label": piece.label, "name": piece.name}


#: what answers one request, bound to its board or lobby (``Gate.find``)
Responder = Callable[["Request"], "Answer"]


@dataclass(kw_only=True)
class Gate(ABC):
    """What the server checks every request against (its secret, its one-time codes) and
    the lock every answer is made under: one board's, or the lobby's for all its games."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    port: int = 0
    #: every request works under this lock (one thread per connection)
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: one-time codes not yet traded for the cookie
    codes: set[str] = field(default_factory=set)

    @property
    def cookie_name(self) -> str:
        # browsers share one cookie jar across the ports of 127.0.0.1: a name per port
        # keeps two boards (two games) from taking each other's cookie
        return f"pbem-board-{self.port}"

    def new_code(self) -> str:
        """A code the browser trades once for the cookie: all a launcher's argv holds."""
        code = secrets.token_urlsafe(24)
        self.codes.add(code)
        return code

    def trade(self, code: str) -> bool:
        """Spend ``code``: true the first time only."""
        for known in list(self.codes):
            if hmac.compare_digest(known.encode(), code.encode()):
                self.codes.discard(known)
                return True
        return False

    @abstractmethod
    def find(self, method: str, path: str) -> tuple[Responder | None, bool]:
        """What answers ``method`` at ``path``, and whether anything is at ``path`` at all
        (a 405 rather than a 404)."""

    def body_limit(self, path: str) -> int:
        """The most bytes of a request body read at ``path``."""
        return MAX_BODY


@dataclass
class Board(Gate):
    """The game a board page shows, and what the server remembers between requests."""

    home: Home
    name: str
    folder: Path | None = None
    #: the lobby's address when the board is one of the lobby's games (a link back)
    lobby: str | None = None
    _history: History | None = None
    _map: dict[str, Any] | None = None
    _game: Game | None = None
    #: each counter's row, kept from redraw to redraw (:class:`Present`)
    _known: Known = field(default_factory=dict)
    #: the counters found in one history table (its index, and :attr:`Present.seen`)
    _seen: tuple[dict[tuple[Any, ...], int], dict[tuple[int, int], tuple[Piece, int]]] | \
        None = None
    #: the counters' texts of one position: the position, its length, the texts
    _counters: tuple[State, int, Mapping[str, str]] | None = None
    #: what each listed action names, by the action: the action, its units, its hexes,
    #: both (:meth:`named_by`)
    _names: dict[int, tuple[Act, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = \
        field(default_factory=dict)
    #: the same, by an action's form and values (an equal action made afresh)
    _named: Memo[tuple[Form, tuple[Any, ...]], tuple[tuple[str, ...], tuple[str, ...],
                                                     tuple[str, ...]]] = \
        field(default_factory=lambda: Memo(65536))
    #: each listed action's part in the redraw's buttons, by the action (:meth:`buttons_of`),
    #: for the hexes of the map in ``_buttons_cells``
    _buttons: dict[int, Button] = field(default_factory=dict)
    _buttons_cells: frozenset[str] | None = None
    #: the last redraw sent, and this board's versions of it: unique to this board object
    #: (a lobby that opens a game's board again starts another), so a page's version is
    #: never taken for one it was not sent
    _sent: Sent | None = None
    _versions: Iterator[int] = field(default_factory=itertools.count)
    #: the page's row of each of this side's counters (``mine``), by the counter (kept
    #: with it): an engine hands the same counter again while its unit stays, so the row
    #: is the same object, and its JSON is made once (``_mine_json``)
    _mine: dict[int, tuple[Piece, dict[str, str]]] = field(default_factory=dict)
    #: the last redraw's stacks (:func:`now_frame`)
    _stacks: Stacks | None = None
    _mine_json: dict[int, tuple[dict[str, str], str]] = field(default_factory=dict)
    #: the rows of the counters only the board now shows (:attr:`Present.made`), and
    #: each one's JSON, by the row (kept with it): every counter a click moved is such a
    #: row until the file is sealed, and each redraw encoded all of them again, a cost
    #: that grew with the file (issue 35 item 4)
    _made: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    _made_json: dict[int, tuple[list[Any], str]] = field(default_factory=dict)
    #: the page's row of each roll of the file not yet sealed, by its record (kept with
    #: it), with the file's number (:meth:`_pending_roll`), and each row's JSON, by the row
    _rolls: dict[int, tuple[list[Any], int, dict[str, Any]]] = field(default_factory=dict)
    _rolls_json: dict[int, tuple[dict[str, Any], str]] = field(default_factory=dict)
    _nonce: str = field(default_factory=lambda: secrets.token_hex(4))
    notice: dict[str, str] = field(default_factory=dict)

    def game(self) -> Game:
        """The game, loaded once and kept between requests while its save on disk is the
        one it read or wrote last: a ``pbem`` command run meanwhile in a terminal (or an
        import) changes the save, and the next request loads it afresh."""
        if self._game is None or not self._game.current():
            self._game = self.home.game(self.name)
            # a click's save is not kept for 'pbem status' too: the next status reads it
            self._game.keep_summary = False
            # and its save's summary reads what the redraw after each click draws
            self._game.draws = True
            if self._game.my_decision() is not None:
                # the position a click changes, copied with the load rather than by the
                # first click (the redraw that follows the load asks the decision anyway),
                # and what each click's save reuses, made now as well
                self._game.match.ready()
                self._game.prepare_writes()
            _load_rules(type(self._game.engine).__module__)
        return self._game

    def find(self, method: str, path: str) -> tuple[Responder | None, bool]:
        fn = ROUTES.get((method, path))
        known = any(p == path for _, p in ROUTES)
        if fn is None:
            return None, known
        return (lambda request: fn(self, request)), True

    def counters(self, game: Game) -> Mapping[str, str]:
        """What each unit prints on its counter (``State.counters``), asked once per
        position: a click's act names its events' units by them and the redraw that
        follows names the waiting units' buttons by them, on the same position (issue 35
        item 4).  A position changes only by an action or a roll, each of which lengthens
        its history; an undo or a reload makes another position object."""
        state = game.state
        kept = self._counters
        if kept is None or kept[0] is not state or kept[1] != len(state.history):
            # from the view the redraw draws, where the engine reads them off it
            kept = self._counters = (state, len(state.history), game.counters())
        return kept[2]

    def named_by(self, action: Action) -> tuple[str, ...]:
        """What ``action`` names (:func:`pbem.grammar.names`), made once per action: a
        form makes each of its actions once and the engine lists that same object
        position after position, so a redraw reads its buttons off the listing without
        taking thousands of actions apart again (Mortain's 2,500 moves: 5 ms a redraw,
        issue 35 item 4).  An action that is not an :class:`~pbem.grammar.Act` (frozen)
        is read each time."""
        if not isinstance(action, Act):
            return names(action)
        return self._parts(action)[3]

    def _parts(self, action: Act) -> tuple[Act, tuple[str, ...], tuple[str, ...],
                                            tuple[str, ...]]:
        kept = self._names.get(id(action))
        if kept is None:
            if len(self._names) >= 65536:  # a bound on what it holds alive, not a record
                self._names.clear()
            # by the action's form and values, all its parts are read from: a listing
            # makes its actions afresh for each position (48th Panzer Korps' attacks to
            # declare), and reading each one's slots again, four times, was a twentieth
            # of a click's redraw (issue 35)
            key = (action.form, action.values)
            parts = self._named.find(key)
            if parts is None:
                units, hexes = units_of(action, bool), hexes_of(action, bool)
                # names(): an action's units, then its hexes
                parts = self._named.keep(key, (units, hexes, units + hexes))
            kept = self._names[id(action)] = (action, *parts)
        return kept

    def buttons_of(self, actions: list[Action], cells: frozenset[str]) -> list[Button]:
        """Each action's part in the redraw's buttons (:data:`Button`), made once per
        action and looked up in one pass: an entry holds its action alive, so no other
        object can have its id meanwhile.  An action of a listing stays the same object
        position after position, and whether it names a hex of the map never changes, so
        a redraw asks the map's hexes of none of Mortain's 1,870 but the few new ones (the
        moved unit's): a step over every action, twice, and a set of every hex with the
        counters beside it were a third of its redraw (issue 35 item 4)."""
        if cells is not self._buttons_cells:  # another map's hexes: nothing kept holds
            self._buttons.clear()
            self._buttons_cells = cells
        kept: list[Button | None] = list(map(self._buttons.get, map(id, actions)))
        if all(kept):  # every one kept (an entry is a tuple of four): as a tuple is true
            return kept  # type: ignore[return-value]  # none is None
        if len(self._buttons) >= 65536:  # a bound on what it holds alive, not a record
            self._buttons.clear()
        # the few not kept, found in C: a Python step for each of Mortain's 1,870 actions,
        # whenever one of them was new, was a third of its redraw
        for i in itertools.compress(range(len(kept)), map(operator.not_, kept)):
            action = actions[i]
            named = self.named_by(action)
            kept[i] = self._buttons[id(action)] = (
                action, cells.isdisjoint(named), named,
                tuple(n for n in named if n not in cells))
        return kept  # type: ignore[return-value]  # each made above

    def counters_of(self, game: Game, units: set[str]) -> dict[str, str]:
        """:meth:`counters` of ``units``, read off the view (each the first counter of
        its id the view shows its side): an act names the few units its events name, and
        reading every counter of the board for them was a tenth of a click (issue 35 item
        4).  The view is the one the click's redraw draws (made once per position), so
        reading it costs no drawing; an engine's own ``State.counters`` prints what its
        view shows for every unit on it (tests/core/test_counters_on_view.py), so it is
        asked only for a unit the view does not show (Mortain's reinforcement still to
        enter, 11.1): White Death's, made for every counter of the board, was an eighth
        of a click."""
        if not units:
            return {}
        out: dict[str, str] = {}
        pieces = game.view().pieces
        # each unit's counters found by their ids, listed in C: a Python step for each of
        # White Death's 60 counters, for the two or three units a click's events name,
        # was a fiftieth of its click (issue 35 item 4)
        ids = list(map(_ID, pieces))
        for unit in units:
            at = -1
            try:
                while pieces[at := ids.index(unit, at + 1)].hidden:
                    pass
            except ValueError:  # no counter of it the side may identify
                continue
            piece = pieces[at]
            out[unit] = counter_text(unit, piece.name, piece.label)
        if len(out) < len(units) and type(game.state).counters is not State.counters \
                and game.state.counters_off_map:
            counters = self.counters(game)
            out.update((u, counters[u]) for u in sorted(units - out.keys()) if u in counters)
        return out

    # -- what the page shows ----------------------------------------------------------------

    def map(self, game: Game) -> dict[str, Any]:
        if self._map is None:
            view = game.state.view(game.side)
            slots = max((sum(1 for p in view.pieces if p.location == b.name)
                         for b in view.boxes), default=3)
            self._map = map_data(view, max(4, slots + 2))
        return self._map

    def history(self, game: Game) -> History:
        """Frames of the files since our own last one (what arrived), and every roll.

        Kept while the game has the same files; when files are added (a seal, an import)
        only those are replayed, on the kept verifier: replaying the whole game from its
        set-up, as it once did, cost a click that seals a file or an import a fresh board's
        first state (issue 35 item 4).  A save whose files are not the kept ones followed
        by more (another game's, a rewritten folder) is replayed afresh."""
        kept = self._history
        if kept is not None and kept.files == len(game.files):
            return kept
        self._history = None  # a file refused below leaves nothing half-replayed kept
        mine = [seq for seq, _ in game.sealed_files()]
        since = max(mine) + 1 if mine else 1
        if (kept is not None and 0 < kept.files < len(game.files)
                and game.files[kept.files - 1] == kept.last):
            verifier, first = kept.verifier, kept.files
            frames = [f for f in kept.frames if f["file"] >= since]
            table = kept.table if len(frames) == len(kept.frames) else \
                reindexed(frames, kept.table)
        else:
            verifier = Verifier(game.engine, open_envelope(game.files[0]), keep_rolls=True)
            first, frames, table = 1, [], PieceTable()
        for seq in range(first, len(game.files)):
            data = game.files[seq]
            if seq >= since and body_summary(data).get("kind") == "turn":
                side = body_summary(data).get("side", "?")
                message = body_summary(data).get("message", "")
                for k, (view, events) in enumerate(file_frames(verifier, data, seq, game.side)):
                    lead = [["phase", f"file {seq} from the {side} player"]] if k == 0 else []
                    if k == 0 and message:
                        lead.append(["info", f"message: {message}"])
                    frame = frame_data(view, list(events), game.side, table, file=seq)
                    frame["events"] = lead + frame["events"]
                    frames.append(frame)
            verifier.add(open_envelope(data), game.files, transactional=False)
        report = AuditReport(rolls=list(verifier.rolls), verifier=verifier)
        rolls = [{"name": r.name, "side": r.side, "purpose": r.purpose, "rule": r.rule,
                  "dice": r.request, "result": ", ".join(str(o) for o in r.outcome),
                  "after": r.after_action, "explain": explain_roll(report, r.name)}
                 for r in verifier.rolls]
        self._history = History(len(game.files), frames, table, rolls, verifier,
                                game.files[-1])
        return self._history

    def state(self, game: Game | None = None) -> dict[str, Any]:
        """Everything the page shows now, as JSON data.  ``game``: the game this request
        read already (a click's act), used unless the shared folder brought a file."""
        if self.import_folder(game) or game is None:
            game = self.game()
        history = self.history(game)
        index = history.table.index
        if self._seen is None or self._seen[0] is not index:
            # another table: its rows are numbered otherwise
            self._seen = (index, {})
        table = Present(history=history.table, known=self._known, seen=self._seen[1],
                        made=self._made)
        view = game.view()  # with what only this side knows (its committed plan)
        side = game.side  # a property of a property: asked once, not once per counter
        now, self._stacks = now_frame(view, side, table, self._stacks,
                                      functools.partial(self._mine_row, side))
        decision = game.my_decision()
        prompt = None
        if decision is not None:
            # the rule shown under the prompt, unless the prompt names it already (13.0)
            rule = "" if cites(decision.prompt, decision.rule) else decision.rule
            default = decision.default
            prompt = {"side": decision.side, "prompt": decision.prompt, "rule": rule,
                      "options": [{"text": o.notation(),
                                   "default": default is not None
                                   and (o is default or o == default)}
                                  for o in decision.options],
                      "default": decision.default.notation() if decision.default else None}
        # a listed decision whose answers each name a hex (a set-up's "place 1/33 0708"):
        # the hexes light up on the map, and a tap on one answers
        targets: dict[str, list[str]] = {}
        if decision is not None and decision.options:
            cells = cell_hexes(view)  # made once per map, not per redraw
            for option in decision.options:
                said = self._parts(option)[2] if isinstance(option, Act) else \
                    hexes_of(option, cells.__contains__)
                named = [h for h in said if h in cells]
                if named:
                    targets.setdefault(named[-1], []).append(option.notation())
        mine: list[dict[str, str]]
        if self._stacks is not None:
            # the rows of the counters the click changed made, the others kept
            mine = list(filter(None, self._stacks.rows))
        else:
            # each row found here when kept, as _mine_row keeps it: two calls for each of
            # Backhand Blow's 41 counters of a side were a twentieth of its redraw
            rows = self._mine
            mine = [kept[1] if (kept := rows.get(id(p))) is not None and kept[0] is p
                    else _by_identity(rows, p, _mine_row_of) for p in view.pieces
                    if p.side == side and not p.hidden]
        general: list[str] = []
        waiting: list[dict[str, str]] = []
        if decision is not None and not decision.options:
            # the actions a click on the map cannot name ("end movement", "pass"): buttons
            on_map = set(map(_ID, view.pieces))
            cells = cell_hexes(view)
            # the listing less the moves a tap on a counter offers, where the engine
            # lists that for less (State.off_map_actions): none of them is a button
            buttons = self.buttons_of(game.state.off_map_actions(), cells)
            # those that name no hex of the map, picked in C (Mortain's moves each name
            # one), then those of them that name no counter on it
            general = [b[0].notation() for b in itertools.compress(buttons,
                                                                   map(_OFF_MAP, buttons))
                       if on_map.isdisjoint(b[2])]
            # a unit an action names that has no counter on the map (a reinforcement to
            # enter, Mortain 11.1): a button picks it as a tap on its counter would.  Only
            # an engine's own counters know such a unit: the default's are read off the
            # view's counters, every one of them in on_map, and an engine whose own are
            # its view's says so (State.counters_off_map: White Death's, made for every
            # counter of the board, were a tenth of a click)
            if type(game.state).counters is not State.counters and \
                    game.state.counters_off_map and \
                    not on_map.issuperset(set().union(*set(map(_NAMES, buttons)))):
                # (a listing that names nothing but the map's counters, Mortain's buttons
                # once entries close, waits for no unit: their texts are not asked)
                # named by id and counter, as play lists it: the default names the id
                counters = self.counters(game)
                # each distinct tuple once: a unit's moves name it alone but for their
                # hexes (half the time of a union of all 1,870)
                words: set[str] = set().union(*set(map(_NOT_HEXES, buttons)))

                def listed(unit: str) -> bool:
                    # a unit whose id is also a hex of the map (never yet) is looked for
                    # among the actions' hexes too
                    return unit in words or (unit in cells and
                                             any(unit in b[2] for b in buttons))

                waiting = [{"id": u, "name": text if text.split()[:1] == [u]
                            else f"{u} {text}"}
                           for u in reading_order(counters) if u not in on_map and listed(u)
                           for text in (counters[u],)]
        # this file's records as the save holds them (pbem.history.wire: ["a", text],
        # ["o", text], ["r", index, outcome(, request)]), read once: typing every record
        # twice a redraw grew with the file (a 33-action Mortain file: 66 records a click)
        records = game.pending
        seq = game.verifier.seq + 1
        pending_rolls = [self._pending_roll(r, seq, side) for r in records if r[0] == "r"]
        return {
            "game": game.name,
            "side": game.side,
            "status": view.status,
            "awaiting": game.awaiting(),
            "prompt": prompt,
            "my_turn": decision is not None,
            "pending": sum(1 for r in records if r[0] == "a"),
            "message": game.message,
            "orders": {"mine": orders.text(game.orders_to_come()),
                       "theirs": orders.text(game.verifier.orders.get(game.opponent_side,
                                                                      {}))},
            "result": game.result.text if game.result else None,
            "files": len(game.files),
            "frames": [*history.frames, now],
            "pieces": table.every_row(),
            "rolls": history.rolls + pending_rolls,
            "mine": mine,
            "general": general[:40],
            "waiting": waiting[:40],
            "targets": dict(sorted(targets.items())),
            "notice": self.notice,
            "folder": str(self.folder) if self.folder else None,
        }

    def _pending_roll(self, record: list[Any], seq: int, side: str) -> dict[str, Any]:
        """The page's row of a roll of file ``seq`` not yet sealed, made once per record
        (a record is never changed: the save's pending list only grows, an undo makes
        it again), so its JSON is made once too (:meth:`answer`): every redraw of a file
        wrote each of its rolls again."""
        kept = self._rolls.get(id(record))
        if kept is None or kept[0] is not record or kept[1] != seq or kept[2]["side"] != side:
            if len(self._rolls) >= 65536:  # a bound on what it holds alive, not a record
                self._rolls.clear()
            kept = self._rolls[id(record)] = (record, seq, {
                "name": f"{seq}.{record[1]}", "side": side, "purpose": "", "rule": "",
                "dice": "", "result": ", ".join(str(o) for o in record[2]), "after": "",
                "explain": None})
        return kept[2]

    def _mine_row(self, side: str | None, piece: Piece) -> dict[str, str] | None:
        """The page's row of one of ``side``'s counters, made once per counter; ``None``
        for a counter of the other side, or hidden."""
        if piece.side != side or piece.hidden:
            return None
        return _by_identity(self._mine, piece, _mine_row_of)

    def _mine_text(self, rows: list[dict[str, str]]) -> str:
        """``page_json(rows)``, each row's JSON made once (a row is never changed: a
        counter that changes is another row): a click moves a unit or two, and the JSON
        of every one of this side's counters, made again, was a fifth of the redraw's
        (issue 35 item 4).  ``rows`` made of the kept stacks' (:attr:`Stacks.rows`):
        their texts are kept beside them, and only the changed ones are looked up."""
        kept = self._mine_json
        stacks = self._stacks
        if stacks is not None and stacks.texts is not None:
            texts = stacks.texts
            for i in stacks.dirty:
                one = stacks.rows[i]
                texts[i] = None if one is None else _by_identity(kept, one, page_json)
            stacks.dirty = []
            return "[" + ", ".join(filter(None, texts)) + "]"
        if stacks is not None:
            stacks.texts = [None if one is None else _by_identity(kept, one, page_json)
                            for one in stacks.rows]
            stacks.dirty = []
            return "[" + ", ".join(filter(None, stacks.texts)) + "]"
        # each kept row's text found inline, a call only for a row not kept (the unit a
        # click moved): a call for each of Backhand Blow's 41 rows was most of this
        return "[" + ", ".join([
            found[1] if (found := kept.get(id(row))) is not None and found[0] is row
            else _by_identity(kept, row, page_json) for row in rows]) + "]"

    def _frame_text(self, frame: dict[str, Any]) -> str:
        """``page_json(frame)``, made once for the board's frame now while it stands
        (:attr:`Stacks.frame`): a click that changes no counter redraws the same frame,
        and its JSON, seventy stacks' numbers, was made again."""
        stacks = self._stacks
        if stacks is None or frame is not stacks.frame:
            return page_json(frame)
        if stacks.frame_text is None:
            stacks.frame_text = page_json(frame)
        return stacks.frame_text

    def state_json(self) -> bytes:
        """:meth:`state` as the page is sent it: ``json.dumps(displayable(...))``, the same
        bytes, with the history's frames, counters and rolls made once per history rather
        than again on every redraw (issue 35 item 4: they are most of the answer and grow
        with the game)."""
        value = self.state()
        history = self._history
        assert history is not None  # state() made it
        made = history.json()
        kept = {"frames": len(history.frames), "pieces": len(history.table.rows),
                "rolls": len(history.rolls)}
        parts: list[str] = []
        for key, item in value.items():
            if key in kept:
                items = [made[key]] if made[key] else []
                items += [json.dumps(displayable(x)) for x in item[kept[key]:]]
                text = "[" + ", ".join(items) + "]"
            else:
                text = json.dumps(displayable(item))
            parts.append(f"{json.dumps(displayable(key))}: {text}")
        return ("{" + ", ".join(parts) + "}").encode()

    def answer(self, have: object = None, game: Game | None = None) -> bytes:
        """The redraw as a page is sent it: :meth:`state_json` with its ``version``, or,
        to a page that holds the last redraw sent (``have`` is its version), only what
        changed since: the keys whose JSON did not change are left out, and each list
        (frames, pieces, rolls) gives the count of its first items the page keeps
        (``keep``) and the items after them.  A click's redraw was the whole state, 28 KB
        of White Death's, of which the board now, the prompt and the units moved are what
        changes (issue 35 item 4).  ``game``: as this request read it."""
        value = self.state(game)
        history = self._history
        assert history is not None  # state() made it
        made = history.json()
        kept = {"frames": len(history.frames), "pieces": len(history.table.rows),
                "rolls": len(history.rolls)}
        last = self._sent
        since = last if last is not None and have == last.version else None
        version = f"{self._nonce}.{next(self._versions)}"
        texts: dict[str, str] = {}
        values: dict[str, Any] = {}
        tails: dict[str, list[str]] = {}
        keep: dict[str, int] = {}
        parts: list[str] = []
        for key, item in value.items():
            if key in kept:
                tail = tails[key] = \
                    [self._frame_text(x) for x in item[kept[key]:]] if key == "frames" \
                    else [_by_identity(self._made_json if key == "pieces" else
                                       self._rolls_json, x, page_json)
                          for x in item[kept[key]:]]
                if since is not None and since.history is history:
                    old = since.tails[key]
                    same = 0
                    while same < min(len(old), len(tail)) and old[same] == tail[same]:
                        same += 1
                    keep[key], items = kept[key] + same, tail[same:]
                else:
                    keep[key], items = 0, ([made[key]] if made[key] else []) + tail
                text = "[" + ", ".join(items) + "]"
            else:
                values[key] = item
                if since is not None and key in since.texts and since.values[key] == item:
                    texts[key] = since.texts[key]
                    continue  # the page has it: not even encoded again
                text = texts[key] = self._mine_text(item) if key == "mine" else \
                    page_json(item)
                if since is not None and since.texts.get(key) == text:
                    continue  # the page has it
            parts.append(f"{dumps(key)}: {text}")
        parts.append(f'"version": {dumps(version)}')
        if since is not None:
            parts.append(f'"since": {dumps(since.version)}, "keep": {dumps(keep)}')
        self._sent = Sent(version, history, texts, values, tails)
        return ("{" + ", ".join(parts) + "}").encode()

    def redrawn(self, out: dict[str, Any], have: object) -> Answer:
        """A command's answer carrying the redraw that follows it (``state``): the page
        makes one request a click, not two, and the game this request read and wrote is
        not read again.  A redraw that fails leaves it out: the command is done and
        saved (never answered as failed), and the page asks for the state, which says why
        it cannot be shown."""
        try:
            state = self.answer(have, self._game)
        except PbemError:
            return json_answer(200, out)
        except Exception:  # a bug in the redraw: told where 'pbem board' runs, and by /api/state
            traceback.print_exc(file=sys.stderr)
            return json_answer(200, out)
        head = page_json(out)
        return Answer(200, f'{head[:-1]}, "state": '.encode() + state + b"}",
                      "application/json; charset=utf-8")

    # -- what the page does -------------------------------------------------------------------

    def where(self, unit: str) -> dict[str, Any]:
        """The hexes the legal actions naming ``unit`` lead to, with those actions."""
        game = self.game()
        if game.my_decision() is None:
            return {"hexes": {}, "other": []}
        view = game.state.view(game.side)
        cells = {c.hex for c in view.cells}
        here = {p.location for p in view.pieces if p.id == unit}
        hexes: dict[str, list[str]] = {}
        other: list[str] = []
        for action in game.state.legal_actions():
            # what the action names as typed arguments (a bridge 0507/0606 is both of its
            # hexes), kept from tap to tap (Mortain's 2,593 moves: 3.4 ms a tap), or the
            # words of its text for an engine without a grammar
            if isinstance(action, Act):
                _, units, named, _ = self._parts(action)
            else:
                units = units_of(action, unit.__eq__)
                named = hexes_of(action, cells.__contains__)
            if unit not in units:
                continue
            text = action.notation()
            targets = [h for h in named if h in cells and h not in here and h != unit]
            if not targets:
                other.append(text)
            for h in targets[-1:]:  # the destination: the last hex the action names
                hexes.setdefault(h, []).append(text)
        return {"hexes": dict(sorted(hexes.items())), "other": other}

    def act(self, text: str, game: Game | None = None) -> dict[str, Any]:
        """Apply ``text`` to the game (``game``: as this request read it) and save it."""
        if game is None:
            game = self.game()
        events, rolls, seq = game.act(text)
        seen = [e for e in events if e.visible(game.side)]
        # each unit an event names, named as its counter reads (issue 33), and a roll the
        # engine tells told once, as play says it
        counters = self.counters_of(game, {u for e in seen for u in e.units})
        lines = [[kind, line] for kind, line in told(seen, rolls, game.side, counters)]
        out: dict[str, Any] = {"ok": True, "action": text, "events": lines}
        if seq is not None:
            out["sealed"] = self.sealed(game, seq)
        self.notice = {}
        return out

    def sealed(self, game: Game, seq: int) -> dict[str, str]:
        path = write_outbox(game, seq)
        from pbem.transport.route import board_note

        how = board_note(game, seq, self.folder)
        result = f"game over: {game.result.text}. " if game.result else ""
        self.notice = {"kind": "sealed",
                       "text": f"{result}file {seq} is sealed and signed: {path}; {how}"}
        return self.notice

    def import_folder(self, game: Game | None = None) -> bool:
        """Import the opponent's next files from the shared folder, in order (``game``: as
        this request read it); whether any was offered to the game (its save may have
        changed: read it again)."""
        if self.folder is None or not self.folder.is_dir():
            return False
        if game is None:
            game = self.game()
        if game.has_pen() or game.result is not None:
            return False
        offered = False
        waiting: dict[int, tuple[Path, bytes]] = {}
        for path in sorted(self.folder.glob("*.pbem")):
            try:
                data = path.read_bytes()
                info = peek(data)
            except (OSError, PbemError):
                continue
            if info.game_id == game.game_id and info.seq > game.verifier.seq:
                waiting.setdefault(info.seq, (path, data))
        nxt = game.verifier.seq + 1
        while nxt in waiting:
            if nxt == 1:
                # a first contact: the fingerprint must be compared by a person first
                self.notice = {"kind": "info", "text": f"{waiting[nxt][0]} is the opponent's "
                               "first file: import it with 'pbem receive' (compare the "
                               "fingerprint)"}
                return offered
            path, data = waiting[nxt]
            offered = True
            try:
                report = self.home.receive(data, str(path))
            except DuplicateFile:
                pass
            except PbemError as exc:
                self.notice = {"kind": "refused", "text": f"refused {path}: {exc}"}
                return offered
            else:
                self.notice = {"kind": "info", "text": report.text}
                if report.sealed is not None:
                    self.sealed(self.game(), report.sealed)
            nxt += 1
        return offered

    def command(self, word: str, arg: str) -> dict[str, Any]:
        try:
            return self._command(word, arg)
        except BaseException:
            # a refused action may have been tried on the kept game: read the save again
            self._game = None
            raise

    def _command(self, word: str, arg: str) -> dict[str, Any]:
        game = self.game()
        if word == "act":
            return self.act(arg, game)
        if word == "undo":
            return {"ok": True, "events": [["info", f"undone: {game.undo()}"]]}
        if word == "say":
            text = arg.strip()
            if text[:1] in ('"', "'"):
                try:
                    text = shlex.split(text)[0]
                except ValueError:
                    raise UsageError(f"the message has an unclosed quote ({text[:1]}): "
                                     "close it, or write it without the quotes; the "
                                     "message kept before is unchanged") from None
            game.say(text)
            return {"ok": True, "events": [["info", "message kept for this file"]]}
        raise UsageError(f"unknown command {word!r}")

    # -- the page --------------------------------------------------------------------------

    def page(self) -> str:
        game = self.game()
        data = {"version": 1, "title": game.state.view(game.side).title, "side": game.side,
                "engine": game.engine.id, "scenario": game.verifier.setup.scenario,
                "game": game.game_id.hex(), "map": self.map(game), "pieces": [],
                "frames": [], "rolls": [], "lobby": self.lobby}
        return page(data, title=f"{game.name}: {data['title']}", mode="live",
                    extra_csp="; connect-src 'self'")


class Refused(Exception):
    """A request answered with an HTTP error and a message (no traceback, no change)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Request:
    """What a route is given: the method, the path's query, and the JSON body (POST)."""

    method: str
    path: str
    query: dict[str, list[str]]
    body: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """An HTTP reply: status, body, content type and extra headers."""

    status: int
    body: bytes
    kind: str
    headers: tuple[tuple[str, str], ...] = ()


def json_answer(status: int, value: Any) -> Answer:
    return Answer(status, page_json(value).encode(),
                  "application/json; charset=utf-8")


Route = Callable[[Board, Request], Answer]
#: (method, path) -> what answers it; HEAD is answered as GET without the body
ROUTES: dict[tuple[str, str], Route] = {}


def route(method: str, path: str) -> Callable[[Route], Route]:
    def register(fn: Route) -> Route:
        ROUTES[(method, path)] = fn
        return fn
    return register


@route("GET", "/")
def _page(board: Board, request: Request) -> Answer:
    return Answer(200, board.page().encode(), "text/html; charset=utf-8")


@route("GET", "/api/state")
def _state(board: Board, request: Request) -> Answer:
    have = request.query.get("have", [])
    return Answer(200, board.answer(have[0] if have else None),
                  "application/json; charset=utf-8")


@route("GET", "/api/where")
def _where(board: Board, request: Request) -> Answer:
    return json_answer(200, board.where((request.query.get("unit") or [""])[0]))


def _text(request: Request) -> str:
    if "text" not in request.body:
        raise Refused(400, 'the request has no "text": send {"text": "..."}')
    text = request.body["text"]
    if not isinstance(text, str):
        raise Refused(400, f'"text" must be a string, not {type(text).__name__}')
    return text


# each command's answer carries the redraw that follows it (Board.redrawn)
@route("POST", "/api/act")
def _act(board: Board, request: Request) -> Answer:
    return board.redrawn(board.command("act", _text(request)), request.body.get("have"))


@route("POST", "/api/say")
def _say(board: Board, request: Request) -> Answer:
    return board.redrawn(board.command("say", _text(request)), request.body.get("have"))


@route("POST", "/api/undo")
def _undo(board: Board, request: Request) -> Answer:
    return board.redrawn(board.command("undo", ""), request.body.get("have"))


class Handler(BaseHTTPRequestHandler):
    """Checks every request (host, origin, cookie) before anything else is looked at."""

    server: BoardHTTPServer
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT  # per connection: an idle or half-sent request is dropped

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal stays quiet; the page shows what happened

    def _send(self, answer: Answer) -> None:
        if answer.status >= 400:
            # a refused request may have left a body unread, or come from a page that is
            # not ours: the connection is not kept for another request
            self.close_connection = True
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.kind)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        for key, value in answer.headers:
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)
        if answer.status >= 400:
            self._drain()

    def _drain(self) -> None:
        """Read and drop what the client is still sending before the connection closes.

        A refused request's body may be unread (a chunked one is refused from its headers):
        closing on unread input makes the kernel reset the connection, and the client,
        still sending, sees a broken pipe or a reset instead of the answer.  The answer is
        sent first, then the input is read for a bounded time and size."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(DRAIN_SECONDS)
            left = MAX_BODY
            while left > 0:
                chunk = self.connection.recv(min(16384, left))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:
            pass  # the client went first: nothing is owed to it

    def _refuse(self, status: int = 403, text: str = "refused") -> None:
        self._send(Answer(status, f"{text}\n".encode(), "text/plain; charset=utf-8"))

    def _ours(self) -> bool:
        """The request comes from this machine's own page, not another site's."""
        port = self.server.server_address[1]
        hosts = {f"{LOOPBACK}:{port}", f"localhost:{port}"}
        if self.headers.get("Host", "") not in hosts:
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            return False
        return self.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")

    def _cookie(self) -> bool:
        board = self.server.board
        for header in self.headers.get_all("Cookie") or []:
            for part in header.split(";"):
                name, _, value = part.strip().partition("=")
                if name == board.cookie_name and hmac.compare_digest(
                        value.encode(), board.token.encode()):
                    return True
        return False

    def _traded(self, url: Any) -> bool:
        """A GET of ``/?code=...``: the one-time code traded for the cookie (True when
        answered here, with the cookie or a refusal)."""
        if self.command != "GET" or url.path != "/":
            return False
        codes = parse_qs(url.query).get("code")
        if not codes:
            return False
        board = self.server.board
        with board.lock:
            fresh = board.trade(codes[0])
        if not fresh and self._cookie():
            # the browser that spent it, opening the address again: to the page
            self._send(Answer(303, b"", "text/plain; charset=utf-8", (("Location", "/"),)))
            return True
        if not fresh:
            self._refuse(403, "refused: this one-time address was used already; open "
                         f"http://{LOOPBACK}:{board.port}/ in the browser that first opened "
                         "it, or start 'pbem board' again")
            return True
        cookie = (f"{board.cookie_name}={board.token}; Path=/; HttpOnly; SameSite=Strict")
        # to the page without the code: a reload or a bookmark then needs only the cookie
        self._send(Answer(303, b"", "text/plain; charset=utf-8",
                          (("Location", "/"), ("Set-Cookie", cookie))))
        return True

    def _body(self, limit: int = MAX_BODY) -> dict[str, Any]:
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            raise Refused(415, "the body must be JSON (Content-Type: application/json)")
        if self.headers.get("Transfer-Encoding") is not None:
            raise Refused(411, "send the body with a Content-Length (a chunked body is not "
                          "read)")
        given = self.headers.get("Content-Length")
        if given is None:
            raise Refused(411, "send the body with a Content-Length")
        try:
            length = int(given)
        except ValueError:
            raise Refused(400, f"Content-Length {given[:20]!r} is not a number") from None
        if not 0 <= length <= limit:
            raise Refused(413, f"the body is {length} bytes; at most {limit} are read here")
        raw = self.rfile.read(length)
        if len(raw) < length:
            raise Refused(400, f"the body ended after {len(raw)} of {length} bytes")
        try:
            body = json.loads(raw or b"{}")
        except RecursionError:
            raise Refused(400, "the body is not a JSON object: nested too deeply") from None
        except ValueError as exc:
            raise Refused(400, f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise Refused(400, "the body must be a JSON object such as {\"text\": \"...\"}, "
                          f"not a JSON {type(body).__name__}")
        return body

    def _handle(self) -> None:
        url = urlsplit(self.path)
        method = "GET" if self.command == "HEAD" else self.command
        if not self._ours():
            self._refuse()
            return
        if self._traded(url):
            return
        if not self._cookie():
            self._refuse()
            return
        gate = self.server.board
        try:
            fn, known = gate.find(method, url.path)
            if fn is None:
                if known:
                    raise Refused(405, f"{self.command} is not answered at {url.path}")
                raise Refused(404, "no such page")
            body = self._body(gate.body_limit(url.path)) if method == "POST" else {}
            request = Request(method, url.path, parse_qs(url.query), body)
            with gate.lock:
                try:
                    answer = fn(request)
                except PbemError as exc:
                    # the rules or the save refused: the page shows why (GET: 409)
                    answer = json_answer(200 if method == "POST" else 409,
                                         {"ok": False, "error": str(exc)})
        except Refused as exc:
            answer = json_answer(exc.status, {"ok": False, "error": str(exc)})
        except (ConnectionError, TimeoutError):
            raise
        except Exception as exc:  # every request is answered, even one that hits a bug
            traceback.print_exc(file=sys.stderr)
            answer = json_answer(500, {"ok": False, "error": "pbem failed on this request "
                                       f"({type(exc).__name__}: {exc}); nothing was saved "
                                       "by it; please report it"})
        self._send(answer)

    do_GET = do_HEAD = do_POST = _handle

    def do_OPTIONS(self) -> None:
        # a CORS preflight: never answered with CORS headers, so browsers block the call
        self._refuse(405)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS


class BoardHTTPServer(ThreadingHTTPServer):
    daemon_threads = True  # Ctrl-C never waits for a connection a page left open

    def __init__(self, board: Gate, port: int = 0) -> None:
        self.board = board
        super().__init__((LOOPBACK, port), Handler)
        board.port = self.server_address[1]

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # the page was closed mid-answer, or a connection idled out: no loss
        super().handle_error(request, client_address)


def serve(board: Gate, port: int = 0) -> BoardHTTPServer:
    """A server for ``board`` (a game's, or the lobby of every game) bound to 127.0.0.1
    (``port`` 0: any free port)."""
    return BoardHTTPServer(board, port)


def url_of(server: BoardHTTPServer) -> str:
    """An address that opens the board once: its code is spent by the first browser."""
    return f"http://{LOOPBACK}:{server.server_address[1]}/?code={server.board.new_code()}"
