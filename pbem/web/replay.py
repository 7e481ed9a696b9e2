"""A whole game as one self-contained HTML file: the map, every action, every roll.

The page holds the map as inline SVG (drawn by :func:`pbem.render.svg.board_svg` without
counters), the game as JSON data (one frame per action: the counters as the viewer may
see them, the events it may read, the hexes to light up), and the plain script that
plays the frames (``board.js``).  Nothing is fetched: a Content-Security-Policy in the
page forbids every load, so the file opens offline, years later, without pbem.

Hidden information stays hidden: each frame is the :class:`~pbem.view.BoardView` the
viewing side's own ``pbem play`` would show, and only the events that side may read.
The referee's view (everything) is offered only for a finished game.

Everything from the files (unit names, messages, purposes) reaches the page as JSON data
or escaped SVG text; the script writes it with ``textContent`` only, never as markup.
"""

from __future__ import annotations

import base64
import json
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count, groupby, repeat
from operator import add, attrgetter, is_not
from typing import Any

from pbem.audit import AuditReport, audit, body_summary, explain_roll
from pbem.engine import Engine, Event, counter_text, package_files
from pbem.envelope import open_envelope
from pbem.errors import PbemError, UsageError
from pbem.naming import named
from pbem.registry import get as get_engine
from pbem.render.hexmap import abbreviate_marker
from pbem.render.narrate import (
    KIND_ALIASES,
    KIND_TAGS,
    Frame,
    FrameCutter,
    frames_from_records,
)
from pbem.render.svg import board_svg, box_rects, escape, svg_geometry
from pbem.sha import sha256
from pbem.text import displayable
from pbem.transcript import Accepted, Verifier, parse_invite
from pbem.view import BoardView, Piece

#: hex radius of the page's map in SVG units (the page scales it to the window)
SCALE = 36

_PIECE_ID = attrgetter("id")
_LOCATION = attrgetter("location")


def asset(name: str) -> str:
    """A file shipped beside this module (the page's script and style)."""
    # found as the engines find their data (pbem.engine.package_files), not through
    # importlib.resources, whose import (tempfile, shutil, random, zipfile...) was 18 M
    # instructions of the page (issue 35)
    return package_files("pbem.web").joinpath(name).read_text(encoding="utf-8")


def _escape(text: str, quote: bool = True) -> str:
    """:func:`html.escape`'s text, without importing :mod:`html`, whose import of its
    2,000-odd named entities (html.entities) no page of pbem needs (issue 35)."""
    text = escape(text)
    return text.replace('"', "&quot;").replace("'", "&#x27;") if quote else text


def event_kind(event: Event) -> str:
    """The narration kind of an event, as the terminal replay styles it."""
    kind = KIND_ALIASES.get(event.kind, event.kind)
    kind = kind if kind in KIND_TAGS else "info"
    if len(_EVENT_KINDS) < 256:  # an engine's few kinds; more is no engine's
        _EVENT_KINDS[event.kind] = kind
    return kind


#: the hex ids of a view's cells, by the cells' tuple (kept with it, so its id stays its
#: own): the views of one map share the tuple (engines.hexkit.board), and a set of every
#: hex made per frame was a sixth of a replay page's time, made per page a third of the
#: live board's redraw after a click (issue 35 items 1 and 4)
_CELL_SETS: dict[int, tuple[tuple[Any, ...], frozenset[str]]] = {}


def cell_hexes(view: BoardView) -> frozenset[str]:
    """The hexes of ``view``'s map, made once per map."""
    kept = _CELL_SETS.get(id(view.cells))
    if kept is None or kept[0] is not view.cells:
        if len(_CELL_SETS) >= 16:  # a map or two per process: more is a test's many maps
            _CELL_SETS.clear()
        kept = _CELL_SETS[id(view.cells)] = (view.cells,
                                              frozenset(c.hex for c in view.cells))
    return kept[1]


@dataclass
class PieceTable:
    """Distinct counters seen in the game, each stored once; frames list their indices.

    A long game repeats the same counters in hundreds of frames: storing each distinct
    one once keeps a whole campaign's replay file small.
    """

    rows: list[list[Any]] = field(default_factory=list)
    index: dict[tuple[Any, ...], int] = field(default_factory=dict)
    #: each counter's row by the counter itself (kept with it, so its id stays its own)
    #: and its depth: an engine that keeps its counters from view to view (White Death)
    #: hands the same ones frame after frame, and making the row again was a tenth of the
    #: page (issue 35 item 1)
    seen: dict[tuple[int, int], tuple[Piece, int]] = field(default_factory=dict)
    #: how each counter an event names reads (:func:`_counter_text`)
    texts: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def add(self, piece: Piece, depth: int) -> int:
        kept = self.seen.get((id(piece), depth))
        if kept is not None and kept[0] is piece:
            return kept[1]
        found = self._add(piece, depth)
        if len(self.seen) >= 65536:  # a bound on what it holds alive, not a record
            self.seen.clear()
        self.seen[(id(piece), depth)] = (piece, found)
        return found

    def _add(self, piece: Piece, depth: int) -> int:
        row = piece_row(piece, depth)
        key = tuple(row)
        if key not in self.index:
            self.index[key] = len(self.rows)
            self.rows.append(row)
        return self.index[key]


def piece_row(piece: Piece, depth: int) -> list[Any]:
    """A counter's row of the page's piece table: what the page draws of it (a hidden
    counter shows neither its label, its name nor its markers)."""
    markers = ",".join(abbreviate_marker(m) for m in piece.markers) if not \
        piece.hidden else ""
    return [piece.id, piece.side, "?" if piece.hidden else (piece.label or "?"),
            "" if piece.hidden else piece.name, piece.color, int(piece.hidden), markers,
            piece.location, depth]


def frame_data(view: BoardView, events: list[Event], side: str | None, table: PieceTable,
               *, runs: Runs | None = None, **extra: Any) -> dict[str, Any]:
    """One frame as page data: the counters that show (top of each stack, with its depth),
    the status, the events ``side`` may read, and the hexes they concern.

    ``runs``: the frame before's counters as :class:`Runs` keeps them, for a page made
    frame after frame (:class:`PageMaker`): only the counters that changed are walked."""
    cells = cell_hexes(view)
    shown = runs.shown(view, cells, table) if runs is not None else None
    if shown is None:
        shown = _shown(view, cells, table)
    return _framed(view, events, side, cells, shown, extra, table.texts,
                   runs.ids(view.pieces) if runs is not None else None)


def _shown(view: BoardView, cells: frozenset[str], table: PieceTable) -> list[int]:
    """The table's index of each counter that shows, in the order the view first shows
    each location: a map's stack by its top counter (one the viewer may identify, if
    any) and depth, a box's every counter."""
    boxes: set[str] | None = None
    shown: list[int] = []
    # the table's own look-up of a counter it has seen, made here: a White Death page
    # asks it 78,000 times (67 counters a frame), and a call each was a tenth of the
    # frames' own cost (issue 35)
    seen, add = table.seen, table.add
    # each location's first counter and the others it holds, in the order the view first
    # shows each location (stacks()'s order), in one walk over the counters and without
    # a list made for a location of one counter, as most are (a tenth of the board's
    # frame, issue 35 item 4)
    tops: dict[str, Piece] = {}
    more: dict[str, list[Piece]] = {}
    for piece in view.pieces:
        location = piece.location
        if location in tops:
            rest = more.get(location)
            if rest is None:
                more[location] = [piece]
            else:
                rest.append(piece)
        else:
            tops[location] = piece
    for location, top in tops.items():
        rest = more.get(location) if more else None
        if location in cells:
            depth = len(rest) if rest else 0
            if top.hidden and rest:
                # topped by one the viewer may identify, if any
                top = next((p for p in rest if not p.hidden), top)
            kept = seen.get((id(top), depth))
            shown.append(kept[1] if kept is not None and kept[0] is top else add(top, depth))
        else:
            if boxes is None:
                boxes = {b.name for b in view.boxes}
            if location in boxes:
                shown.append(add(top, 0))
                if rest:
                    shown.extend(add(p, 0) for p in rest)
    return shown


class Runs:
    """The counters of a page's frame before, as runs of one location each, and what
    each run shows, for the next frame (:class:`PageMaker`).

    An action changes a counter or two, and an engine hands the others again as the
    same objects (White Death keeps them from view to view): the next frame's counters
    are compared with these at C speed, and only the runs from the first changed counter
    to the last are walked again; the others' part of the frame is kept (a White Death
    page walked 80 counters for each of 1,160 frames, three of them changed on average:
    issue 35).  Kept only while each location's counters stand together, one run each,
    as White Death and Mortain list them; a view where they do not is walked whole
    (:func:`_shown`), and so is the next; after :data:`TRIES` such views (an engine
    listing its counters in its units' order, as Backhand Blow does) the page stops
    looking for runs, which would be a second walk of every frame, and only a frame
    whose counters are all the frame before's is not walked (most of Backhand Blow's:
    a roll, a phase, a declaration moves no counter)."""

    #: views whose counters are not in runs before the page stops looking for them
    TRIES = 3

    def __init__(self) -> None:
        self._misses = 0
        self._pieces: tuple[Piece, ...] | None = None
        self._cells: frozenset[str] = frozenset()
        self._boxes: tuple[Any, ...] = ()
        self._box_names: frozenset[str] = frozenset()
        #: where each run begins among the counters, its location, and how many of the
        #: frame's indices it gives (a map's stack one, a box one a counter)
        self._starts: list[int] = []
        self._locations: list[str] = []
        #: the same locations as a set: whether a location is a run's is asked of each run
        #: walked again, and a look-up in the list compared every location's text (a third
        #: of the walk's instructions on a White Death page)
        self._placed: set[str] = set()
        self._counts: list[int] = []
        self._shown: list[int] = []
        #: the ids of the counters, for the frame's events to find the units they name
        #: (:func:`_framed`) without a list of every id made again
        self._ids: list[str] = []

    def ids(self, pieces: tuple[Piece, ...]) -> list[str] | None:
        """The ids of ``pieces`` in order, when they are the counters last walked in runs
        (else None); the list is this one's own, changed with the next frame."""
        return self._ids if pieces is self._pieces and self._misses < self.TRIES else None

    def shown(self, view: BoardView, cells: frozenset[str], table: PieceTable
              ) -> list[int] | None:
        """:func:`_shown` of ``view``, or None where it must be walked whole."""
        pieces, old = view.pieces, self._pieces
        if self._misses >= self.TRIES:
            if old is None or (cells is not self._cells and cells != self._cells) or \
                    view.boxes != self._boxes or len(pieces) != len(old) or \
                    next(compress(count(), map(is_not, old, pieces)), None) is not None:
                self._shown = _shown(view, cells, table)
                self._pieces, self._cells, self._boxes = tuple(pieces), cells, view.boxes
            return self._shown
        if old is None or (cells is not self._cells and cells != self._cells) or \
                view.boxes != self._boxes or \
                not old or not pieces or type(pieces) is not tuple:
            return self._whole(view, cells, table)
        if pieces is old:
            return self._shown
        n_old, n_new = len(old), len(pieces)
        # the first and last counter not the same object as the frame before's, found at
        # C speed and lazily (two lists of 80 comparisons made were half the frame)
        first = next(compress(count(), map(is_not, old, pieces)), None)
        if first is None:
            if n_old == n_new:
                return self._shown
            first = min(n_old, n_new)
        last = next(compress(count(), map(is_not, reversed(old), reversed(pieces))),
                    min(n_old, n_new))
        # the counters [first, n - last) of each differ; the runs that hold them are made
        # again, from the start of the run holding the first (an appended counter may
        # continue the last run) to the end of the run holding the last
        last = min(last, min(n_old, n_new) - first)
        starts, locations = self._starts, self._locations
        k = bisect_right(starts, min(first, n_old - 1)) - 1
        begin = starts[k]
        k2 = bisect_left(starts, max(n_old - last, begin))
        delta = n_new - n_old
        end = (starts[k2] if k2 < len(starts) else n_old) + delta
        # the new runs, each checked before any is shown (a view walked whole after all
        # must add its counters to the table in its own order)
        mid_starts: list[int] = []
        mid_locations: list[str] = []
        # the runs' locations are each one run's: one of these is a run walked again
        replaced, placed = locations[k:k2], self._placed
        runs: list[tuple[Piece, ...]] = []
        i = begin
        # the counters grouped by location at C speed, not compared one by one here (a
        # fifth of the walk's own steps)
        for location, group in groupby(pieces[begin:end], _LOCATION):
            # a location a kept run holds, or one met twice here: not one run each
            if location in mid_locations or (location in placed and
                                             location not in replaced):
                return self._whole(view, cells, table)
            run = tuple(group)
            mid_starts.append(i)
            mid_locations.append(location)
            runs.append(run)
            i += len(run)
        mid_counts: list[int] = []
        mid_shown: list[int] = []
        boxes = self._box_names
        for run, location in zip(runs, mid_locations, strict=True):
            part = _run_shown(run, location, cells, boxes, table)
            mid_counts.append(len(part))
            mid_shown += part
        counts = self._counts
        c1 = sum(counts[:k])
        c2 = c1 + sum(counts[k:k2])
        # a new list: the frame before's keeps its own
        shown = self._shown[:]
        shown[c1:c2] = mid_shown
        self._shown = shown
        self._ids[begin:end - delta] = map(_PIECE_ID, pieces[begin:end])
        if delta:
            starts[k2:] = map(add, starts[k2:], repeat(delta))
        starts[k:k2] = mid_starts
        locations[k:k2] = mid_locations
        placed.difference_update(replaced)
        placed.update(mid_locations)
        counts[k:k2] = mid_counts
        self._pieces = pieces
        return shown

    def _whole(self, view: BoardView, cells: frozenset[str], table: PieceTable
               ) -> list[int] | None:
        """Every run of ``view`` made, or (a location's counters apart) None."""
        self._pieces = None
        pieces = view.pieces
        if type(pieces) is not tuple:
            return None
        starts: list[int] = []
        locations: list[str] = []
        location: str | None = None
        for i, piece in enumerate(pieces):
            if piece.location != location:
                location = piece.location
                starts.append(i)
                locations.append(location)
        placed = set(locations)
        if len(placed) != len(locations):
            self._misses += 1
            if self._misses >= self.TRIES:  # the frame walked whole, and kept
                self._shown = _shown(view, cells, table)
                self._pieces, self._cells, self._boxes = pieces, cells, view.boxes
                return self._shown
            return None
        boxes = frozenset(b.name for b in view.boxes)
        counts: list[int] = []
        shown: list[int] = []
        for k, begin in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(pieces)
            part = _run_shown(pieces[begin:end], locations[k], cells, boxes, table)
            counts.append(len(part))
            shown += part
        self._pieces, self._cells, self._boxes, self._box_names = (pieces, cells, view.boxes,
                                                                   boxes)
        self._starts, self._locations, self._counts, self._shown = (starts, locations,
                                                                    counts, shown)
        self._placed = placed
        self._ids = list(map(_PIECE_ID, pieces))
        return shown


def _run_shown(run: Sequence[Piece], location: str, cells: frozenset[str],
               boxes: frozenset[str], table: PieceTable) -> list[int]:
    """What one location's counters give the frame, as :func:`_shown` reads them."""
    if location in cells:
        top, depth = run[0], len(run) - 1
        if top.hidden and depth:
            top = next((p for p in run[1:] if not p.hidden), top)
        kept = table.seen.get((id(top), depth))
        return [kept[1] if kept is not None and kept[0] is top else table.add(top, depth)]
    if location in boxes:
        return [table.add(p, 0) for p in run]
    return []


def _framed(view: BoardView, events: list[Event], side: str | None, cells: frozenset[str],
            shown: list[int], extra: dict[str, Any],
            texts: dict[tuple[str, str, str], str] | None = None,
            ids: list[str] | None = None) -> dict[str, Any]:
    told: list[list[str]] = []
    lit: list[str] = []
    if side is not None:
        # each event's visibility asked once here, not in each of the two walks below
        events = [e for e in events if e.visible(side)]
    # each unit an event names, named as its counter reads, as the terminal's replay does;
    # only those units' counters are read (named() looks up no other), not the whole
    # board's: a tenth of a White Death replay page was every counter's text per frame.
    # The board's "now" frame names none: walking the counters again for where each
    # stands was a seventh of that frame, made on every click's redraw (issue 35)
    wanted = {u for e in events for u in e.units}
    where: dict[str, str] = {}
    counters: dict[str, str] = {}
    if wanted:
        # each named unit's counter found by its id in a list of the ids made at C speed,
        # not by two walks over every counter (a fifteenth of a White Death page's
        # frames); a unit two counters name reads as the last one, as the walks read it.
        # A page's Runs keeps the list, changed where the counters changed: making it
        # again read every counter of every frame
        pieces = view.pieces
        if ids is None:
            ids = list(map(_PIECE_ID, pieces))
        for u in wanted:
            many = ids.count(u)
            if many == 1:
                piece = pieces[ids.index(u)]
                where[u] = piece.location
                if not piece.hidden:
                    counters[u] = _counter_text(piece, texts)
            elif many:
                for piece in pieces:
                    if piece.id == u:
                        where[u] = piece.location
                        if not piece.hidden:
                            counters[u] = _counter_text(piece, texts)
    kinds = _EVENT_KINDS
    for e in events:
        kind = kinds.get(e.kind)
        told.append([kind if kind is not None else event_kind(e),
                     named(e.text, counters, e.units)])
        for h in e.hexes:
            if h in cells and h not in lit:
                lit.append(h)
        for u in e.units:
            h = where.get(u, "")
            if h in cells and h not in lit:
                lit.append(h)
    return {"status": view.status, "pieces": shown, "events": told, "hexes": lit, **extra}


#: :func:`event_kind` of each kind an engine gives (a handful), looked up once per event
#: of a page's frames rather than worked out again from the two tables
_EVENT_KINDS: dict[str, str] = {}


def _counter_text(piece: Piece, texts: dict[tuple[str, str, str], str] | None) -> str:
    """How ``piece`` reads (:func:`~pbem.engine.counter_text`), kept in ``texts`` by what
    it reads from: the unit an event names is most often the one it moved, a new counter
    of the same unit each frame."""
    key = (piece.id, piece.name, piece.label)
    text = texts.get(key) if texts is not None else None
    if text is None:
        text = counter_text(*key)
        if texts is not None:
            if len(texts) >= 65536:  # a bound on what it holds, as PieceTable.seen's
                texts.clear()
            texts[key] = text
    return text


def map_data(view: BoardView, box_slots: int) -> dict[str, Any]:
    """The static map: the SVG without counters, hex centers and box rectangles."""
    g = svg_geometry(view, scale=SCALE)
    rects = box_rects(view, scale=SCALE, box_slots=box_slots)
    return {
        "svg": board_svg(view, scale=SCALE, counters=False, box_slots=box_slots,
                         legend=True).split("?>", 1)[-1].strip(),
        "r": SCALE,
        "centers": {c.hex: [round(x, 1) for x in g.center(c)] for c in view.cells},
        "boxes": {name: [round(v, 1) for v in rect] for name, rect in rects.items()},
    }


def file_frames(verifier: Verifier, data: bytes, seq: int, side: str | None
                ) -> list[Frame]:
    """The frames of file ``seq`` (``verifier`` holds the game before it)."""
    body = body_summary(data)
    if body.get("kind") != "turn":
        return []
    return frames_from_records(verifier.state, body["records"], side, seq=seq)


@dataclass
class ReplayBook:
    """A game made into replay data: what the page shows, built from the files alone."""

    title: str
    side: str | None
    engine: str
    scenario: str
    report: AuditReport
    data: dict[str, Any]


def _roll_rows(report: AuditReport) -> list[dict[str, Any]]:
    rows = []
    for r in report.rolls:
        rows.append({"name": r.name, "side": r.side, "purpose": r.purpose, "rule": r.rule,
                     "dice": r.request, "result": ", ".join(str(o) for o in r.outcome),
                     "after": r.after_action, "explain": explain_roll(report, r.name)})
    return rows


def _file_rows(report: AuditReport) -> list[dict[str, Any]]:
    return [{"seq": row.seq, "kind": row.kind, "side": row.side, "signer": row.signer,
             "signature": row.signature, "chain": row.chain, "dice": row.dice,
             "replay": row.replay, "note": row.note} for row in report.files]


class PageMaker:
    """The page's data made as a verifier replays the game, file by file: the audit's own
    replay (``pbem audit --html``: :func:`pbem.audit.audit_games`' ``watch``) or
    :func:`build`'s.  Each frame is made into page data at once: a view per action kept
    to the end held a long game's every view alive (1.5 GB for a White Death campaign,
    issue 35 item 1); cutting the frames from the audit's replay instead of replaying the
    files again was most of the page's own cost (issue 35 item 2)."""

    def __init__(self, side: str | None) -> None:
        self.side = side
        self.table = PieceTable()
        self.frames: list[dict[str, Any]] = []
        self.slots = 0
        self.first: BoardView | None = None
        self._cut = FrameCutter(side)
        self._runs = Runs()

    def start(self, verifier: Verifier) -> PageMaker | None:
        """Begin at ``verifier``'s position (the game's start); None: this side has no
        view in the game's engine (:func:`build` says so)."""
        if self.side is not None and self.side not in verifier.engine.sides:
            return None
        self.first = verifier.state.view(self.side)
        self._add(self.first, [Event("the game begins", "phase")],
                  {"file": 0, "by": verifier.setup.creator_side})
        return self

    def _add(self, view: BoardView, events: list[Event], extra: dict[str, Any]) -> None:
        boxes = view.boxes
        if boxes:
            # the counters of each location counted at C speed, not a walk over every
            # counter for each box (two walks of 90 counters a frame for Backhand Blow)
            held = Counter(map(_LOCATION, view.pieces))
            self.slots = max(self.slots, *(held[b.name] for b in boxes))
        self.frames.append(frame_data(view, events, self.side, self.table, runs=self._runs,
                                      **extra))

    def file(self, seq: int) -> FrameCutter:
        """What to tell of file ``seq``'s replay (its frames, kept once it is accepted)."""
        self._cut = FrameCutter(self.side, seq=seq)
        return self._cut

    def accepted(self, accepted: Accepted, verifier: Verifier) -> None:
        """File ``accepted.seq`` verified: its frames join the page."""
        seq, side = accepted.seq, self.side
        header = f"file {seq} from the {accepted.side} player"
        if accepted.kind == "accept":
            self._add(verifier.state.view(side),
                      [Event(f"{header}: accepted the invitation", "phase")],
                      {"file": seq, "by": accepted.side})
            return
        lead = [Event(header, "phase")]
        if accepted.message:
            lead.append(Event(f"message: {accepted.message}", "info"))
        frames = self._cut.finish(verifier.state)
        for k, (view, events) in enumerate(frames):
            self._add(view, [*(lead if k == 0 else []), *events],
                      {"file": seq, "by": accepted.side})
        if not frames:
            self._add(verifier.state.view(side), lead, {"file": seq, "by": accepted.side})

    def finish(self, verifier: Verifier, report: AuditReport) -> ReplayBook:
        """The page's data, the replay over (``verifier``: the game after its last verified
        file; ``report``: the audit of the same files, its verdict and rolls)."""
        side, engine, setup, first = self.side, verifier.engine, verifier.setup, self.first
        assert first is not None, "start() first"
        if side is None and verifier.result is None:
            raise UsageError("the referee's view (everything) is for a finished game only; "
                             f"name a side ({', '.join(engine.sides)})")
        if verifier.result is not None:
            self._add(verifier.state.view(side),
                      [Event(f"game over: {verifier.result.text}", "phase")],
                      {"file": verifier.seq, "by": ""})
        title = first.title
        data: dict[str, Any] = {
            "version": 1,
            "title": title,
            "side": side or "referee",
            "engine": engine.id,
            "scenario": setup.scenario,
            "game": setup.game_id.hex(),
            "verdict": report.verdict(),
            "clean": report.clean,
            "result": report.result,
            "map": map_data(first, max(3, self.slots)),
            "pieces": self.table.rows,
            "frames": self.frames,
            "rolls": _roll_rows(report),
            "files": _file_rows(report),
        }
        return ReplayBook(title, side, engine.id, setup.scenario, report, data)


def build(files: list[bytes], side: str | None, *, sources: list[str] | None = None,
          report: AuditReport | None = None) -> ReplayBook:
    """Replay data for a game's files (in sequence order, the invite first).

    ``side`` is the viewer; ``None`` (the referee's view) is refused unless the game is
    over.  The audit of the same files gives the verdict and the roll explanations.
    """
    if not files:
        raise UsageError("no files to replay")
    names = sources or [f"file {i}" for i in range(len(files))]
    made = None
    if report is None:
        # the page made from the audit's replay: the game replayed once, not twice
        watching = PageMaker(side)
        report = audit(list(zip(names, files, strict=True)), watch=watching)
        made = watching if watching.first is not None else None
    # the audit's replay is this one when the files are the game's 0, 1, 2... as given,
    # each once (a save's are); else (a gap, a second copy, another game's file) the
    # replay below stops where its own order does
    if made is not None and report.verifier is not None and \
            [(row.seq, row.source) for row in report.files] == list(enumerate(names)):
        return made.finish(report.verifier, report)
    invite = open_envelope(files[0])
    setup = parse_invite(invite)
    engine: Engine = get_engine(setup.engine_id)
    if side is not None and side not in engine.sides:
        raise UsageError(f"{engine.id} has sides {', '.join(engine.sides)}, not {side!r}")
    verifier = Verifier(engine, invite)
    maker = PageMaker(side).start(verifier)
    assert maker is not None  # the side is the engine's
    known = {0: files[0]}
    for seq, raw in enumerate(files[1:], start=1):
        # the frames cut from the verifier's own replay of the file (no second replay on
        # a copy): a refused file's are dropped with it
        try:
            # not transactional: a refused file ends the replay, and the copy that would
            # keep the verifier intact costs a deep copy of the state per file
            accepted = verifier.add(open_envelope(raw), known, transactional=False,
                                    watch=maker.file(seq))
        except PbemError:
            break  # the audit names the failure; the replay shows what verified
        known[seq] = raw
        maker.accepted(accepted, verifier)
    return maker.finish(verifier, report)


#: how JSON writes a control character other than a newline or a tab (displayable()'s
#: business): a backslash escape of it, or (a literal backslash before the letter) a string
#: that merely looks like one, which only sends the data the slow way
_CONTROL_ESCAPES = ("\\u", "\\r", "\\b", "\\f")
#: any of them, found in one pass: the four searches each stopped at every backslash
#: (a White Death page's 44,000 quotes in its map's SVG), 26 M instructions to 13 M
_CONTROL_ESCAPE = re.compile(r"\\[urbf]")
#: the printable ASCII characters, as str.isprintable() reads them
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))


def _dump(value: Any) -> str:
    # no check for cycles: the page's data is made here as a tree, never a cycle (the
    # check kept a record of each of a White Death page's 10,000 lists and maps)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False,
                      check_circular=False)


def _as_shown(text: str) -> bool:
    """Whether JSON ``text`` holds no string that :func:`~pbem.text.displayable` would
    change: every character a terminal or page could misuse is either written raw, and
    then not printable or a bidi control, or (a C0 control) as one of JSON's escapes."""
    # a bidi control is a format character (Cf), never printable, so isprintable() finds
    # it too: BIDI.isdisjoint(text) hashed each of a White Death page's 1.4 million
    # characters into the set's table, 165 M instructions of its 2,900 (issue 35)
    # an ASCII text (a page's usually is, and isascii() reads a flag) is printable when
    # deleting its printable bytes leaves none: 15 M instructions for a White Death page's
    # 1.4 million characters, where isprintable() looked each up in Unicode's table (39 M)
    if text.isascii():
        printable = not text.encode("ascii").translate(None, _PRINTABLE_ASCII)
    else:
        printable = text.isprintable()
    return printable and _CONTROL_ESCAPE.search(text) is None


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can end it."""
    # the data dumped as it is, when no string in it needs displayable(): making a copy of
    # the whole page's data to find that out (120,000 values for White Death's purkayev)
    # cost three times the dump itself (issue 35)
    try:
        text = _dump(value)
    except (TypeError, ValueError):
        text = ""  # the copy below raises its own error, as it always did
    if not text or not _as_shown(text):
        text = _dump(displayable(value))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def csp_hash(script: str) -> str:
    # pbem's SHA-256 (pbem.sha): hashlib's import maps OpenSSL for one short digest
    digest = sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


def page(data: dict[str, Any], *, title: str, mode: str, extra_csp: str = "",
         boot: str = "") -> str:
    """The HTML page around ``data``: the style, the data block, and the script.

    ``mode`` is ``"replay"`` (a file) or ``"live"`` (``pbem board``).  The policy allows
    only this page's own script (by hash) and style; ``extra_csp`` adds what the live page
    needs (requests to its own server).
    """
    script = asset("board.js") + ("\n" + asset("live.js") if mode == "live" else "")
    style = asset("board.css")
    policy = (f"default-src 'none'; script-src {csp_hash(script)}; style-src 'unsafe-inline'; "
              f"img-src data:; base-uri 'none'; form-action 'none'{extra_csp}")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" "
        f"content=\"{_escape(policy, quote=False)}\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_escape(title)}</title>\n<style>{style}</style></head>\n"
        f"<body data-mode=\"{_escape(mode)}\">\n"
        f"<script type=\"application/json\" id=\"pbem-data\">{script_json(data)}</script>\n"
        f"{boot}<script>{script}</script>\n</body></html>\n"
    )


def replay_html(book: ReplayBook) -> str:
    who = "referee" if book.side is None else f"the {book.side} player"
    return page(book.data, title=f"{book.title}: replay ({who})", mode="replay")


def ordered_files(datas: list[tuple[str, bytes]]) -> tuple[list[str], list[bytes]]:
    """The files of one game in sequence order (binary, armor removed), from the invite
    on, up to the first gap; unreadable files and second copies are left to the audit,
    which names them."""
    from pbem.armor import read_any

    by_seq: dict[int, tuple[str, bytes]] = {}
    for source, data in datas:
        try:
            raw = read_any(data)
            env = open_envelope(raw)
            seq = 0 if env.kind == "invite" else env.decode().get("seq")
        except PbemError:
            continue
        if isinstance(seq, int) and not isinstance(seq, bool) and seq not in by_seq:
            by_seq[seq] = (source, raw)
    names: list[str] = []
    files: list[bytes] = []
    while len(files) in by_seq:
        source, raw = by_seq[len(files)]
        names.append(source)
        files.append(raw)
    return names, files


def write_html(path: Any, text: str) -> None:
    from pathlib import Path

    from pbem.atomic import write_atomic

    write_atomic(Path(path), text.encode("utf-8"), 0o644)
