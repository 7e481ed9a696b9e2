"""``pbem board GAME``: the board in the browser, served by pbem on loopback only.

One player, one game, one machine: the standard library's ``http.server`` is enough (one
request at a time, which also serializes every change to the save).  What keeps other
programs out:

* the socket is bound to 127.0.0.1 (never a wildcard address), so no other machine can
  connect at all;
* every request must carry the random token the URL was opened with (the page sends it
  back in a header); without it: 403, and nothing else is said;
* the ``Host`` header must name the loopback address and our port (a web page that
  rebinds its own domain name to 127.0.0.1 cannot talk to us), and an ``Origin`` or
  ``Sec-Fetch-Site`` header, when present, must be our own; no CORS header is ever sent,
  so no other site's script can read an answer;
* only the game's page and its few JSON calls exist: no file is ever served from disk.

Every click becomes an action in the engine's notation, applied with
:meth:`pbem.session.Game.act`, exactly as ``pbem act`` does, and saved at once: closing
the page loses nothing.  The game is loaded afresh for each request, so a ``pbem``
command run meanwhile in a terminal is seen, never overwritten.
"""

from __future__ import annotations

import hmac
import json
import secrets
import shlex
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pbem import orders
from pbem.audit import AuditReport, body_summary, explain_roll
from pbem.envelope import open_envelope, peek
from pbem.errors import DuplicateFile, PbemError, UsageError
from pbem.history import Rolled
from pbem.play import write_outbox
from pbem.session import Game, Home
from pbem.text import displayable
from pbem.transcript import Verifier
from pbem.web.replay import PieceTable, file_frames, frame_data, map_data, page

LOOPBACK = "127.0.0.1"
MAX_BODY = 64 * 1024


@dataclass
class History:
    """What the page replays and the dice log, for one length of the game's transcript."""

    files: int
    frames: list[dict[str, Any]]
    pieces: list[list[Any]]
    rolls: list[dict[str, Any]]


@dataclass
class Board:
    """The game a board page shows, and what the server remembers between requests."""

    home: Home
    name: str
    folder: Path | None = None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    port: int = 0
    _history: History | None = None
    _map: dict[str, Any] | None = None
    notice: dict[str, str] = field(default_factory=dict)

    def game(self) -> Game:
        return self.home.game(self.name)

    # -- what the page shows ----------------------------------------------------------------

    def map(self, game: Game) -> dict[str, Any]:
        if self._map is None:
            view = game.state.view(game.side)
            slots = max((sum(1 for p in view.pieces if p.location == b.name)
                         for b in view.boxes), default=3)
            self._map = map_data(view, max(4, slots + 2))
        return self._map

    def history(self, game: Game) -> History:
        """Frames of the files since our own last one (what arrived), and every roll."""
        if self._history is not None and self._history.files == len(game.files):
            return self._history
        verifier = Verifier(game.engine, open_envelope(game.files[0]), keep_rolls=True)
        mine = [seq for seq, _ in game.sealed_files()]
        since = max(mine) + 1 if mine else 1
        table = PieceTable()
        frames: list[dict[str, Any]] = []
        for seq, data in enumerate(game.files[1:], start=1):
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
        self._history = History(len(game.files), frames, table.rows, rolls)
        return self._history

    def state(self) -> dict[str, Any]:
        """Everything the page shows now, as JSON data."""
        self.import_folder()
        game = self.game()
        history = self.history(game)
        table = PieceTable(list(history.pieces), {tuple(r): i for i, r in
                                                  enumerate(history.pieces)})
        view = game.view()  # with what only this side knows (its committed plan)
        now = frame_data(view, [], game.side, table, file=None, now=True)
        decision = game.my_decision()
        prompt = None
        if decision is not None:
            prompt = {"side": decision.side, "prompt": decision.prompt, "rule": decision.rule,
                      "options": [{"text": o.notation(),
                                   "default": decision.default is not None
                                   and o == decision.default} for o in decision.options],
                      "default": decision.default.notation() if decision.default else None}
        mine = [{"id": p.id, "hex": p.location, "label": p.label, "name": p.name}
                for p in view.pieces if p.side == game.side and not p.hidden]
        general: list[str] = []
        if decision is not None and not decision.options:
            # the actions a click on the map cannot name ("end movement", "pass"): buttons
            names = {c.hex for c in view.cells} | {p.id for p in view.pieces}
            for action in game.state.legal_actions():
                text = action.notation()
                if not names.intersection(text.split()):
                    general.append(text)
        pending_rolls = [{"name": f"{game.verifier.seq + 1}.{r.index}", "side": game.side,
                          "purpose": "", "rule": "", "dice": "",
                          "result": ", ".join(str(o) for o in r.outcome), "after": "",
                          "explain": None} for r in game.pending_records
                         if isinstance(r, Rolled)]
        return {
            "game": game.name,
            "side": game.side,
            "status": view.status,
            "awaiting": game.awaiting(),
            "prompt": prompt,
            "my_turn": decision is not None,
            "pending": len(game.pending_actions()),
            "message": game.message,
            "orders": {"mine": orders.text(game.orders_to_come()),
                       "theirs": orders.text(game.verifier.orders.get(game.opponent_side,
                                                                      {}))},
            "result": game.result.text if game.result else None,
            "files": len(game.files),
            "frames": [*history.frames, now],
            "pieces": table.rows,
            "rolls": history.rolls + pending_rolls,
            "mine": mine,
            "general": general[:40],
            "notice": self.notice,
            "folder": str(self.folder) if self.folder else None,
        }

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
            text = action.notation()
            words = text.split()
            if unit not in words:
                continue
            targets = [w for w in words if w in cells and w not in here and w != unit]
            if not targets:
                other.append(text)
            for h in targets[-1:]:  # the destination: the last hex the action names
                hexes.setdefault(h, []).append(text)
        return {"hexes": dict(sorted(hexes.items())), "other": other}

    def act(self, text: str) -> dict[str, Any]:
        game = self.game()
        events, rolls, seq = game.act(text)
        told = [[e.kind, e.text] for e in events if e.visible(game.side)]
        told += [["roll", f"roll {r.name}: {r.purpose}: {r.request} -> "
                          f"{', '.join(str(o) for o in r.outcome)}"] for r in rolls]
        out: dict[str, Any] = {"ok": True, "action": text, "events": told}
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

    def import_folder(self) -> None:
        """Import the opponent's next files from the shared folder, in order."""
        if self.folder is None or not self.folder.is_dir():
            return
        game = self.game()
        if game.has_pen() or game.result is not None:
            return
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
                return
            path, data = waiting[nxt]
            try:
                report = self.home.receive(data, str(path))
            except DuplicateFile:
                pass
            except PbemError as exc:
                self.notice = {"kind": "refused", "text": f"refused {path}: {exc}"}
                return
            else:
                self.notice = {"kind": "info", "text": report.text}
                if report.sealed is not None:
                    self.sealed(self.game(), report.sealed)
            nxt += 1

    def command(self, word: str, arg: str) -> dict[str, Any]:
        game = self.game()
        if word == "act":
            return self.act(arg)
        if word == "undo":
            return {"ok": True, "events": [["info", f"undone: {game.undo()}"]]}
        if word == "say":
            text = arg.strip()
            if text[:1] in ('"', "'"):
                text = shlex.split(text)[0]
            game.say(text)
            return {"ok": True, "events": [["info", "message kept for this file"]]}
        raise UsageError(f"unknown command {word!r}")

    # -- the page --------------------------------------------------------------------------

    def page(self) -> str:
        game = self.game()
        data = {"version": 1, "title": game.state.view(game.side).title, "side": game.side,
                "engine": game.engine.id, "scenario": game.verifier.setup.scenario,
                "game": game.game_id.hex(), "map": self.map(game), "pieces": [],
                "frames": [], "rolls": []}
        return page(data, title=f"{game.name}: {data['title']}", mode="live",
                    extra_csp="; connect-src 'self'")


class Handler(BaseHTTPRequestHandler):
    """Checks every request (token, host, origin) before anything else is looked at."""

    server: BoardHTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal stays quiet; the page shows what happened

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(displayable(value)).encode(),
                   "application/json; charset=utf-8")

    def _refuse(self, status: int = 403) -> None:
        self._send(status, b"refused\n", "text/plain; charset=utf-8")

    def _allowed(self) -> bool:
        board = self.server.board
        port = self.server.server_address[1]
        hosts = {f"{LOOPBACK}:{port}", f"localhost:{port}"}
        if self.headers.get("Host", "") not in hosts:
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            return False
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return False
        query = parse_qs(urlsplit(self.path).query)
        given = self.headers.get("X-Pbem-Token") or (query.get("t") or [""])[0]
        return hmac.compare_digest(given.encode(), board.token.encode())

    def do_GET(self) -> None:
        if not self._allowed():
            self._refuse()
            return
        url = urlsplit(self.path)
        board = self.server.board
        try:
            if url.path == "/":
                self._send(200, board.page().encode(), "text/html; charset=utf-8")
            elif url.path == "/api/state":
                self._json(200, board.state())
            elif url.path == "/api/where":
                unit = (parse_qs(url.query).get("unit") or [""])[0]
                self._json(200, board.where(unit))
            else:
                self._refuse(404)
        except PbemError as exc:
            self._json(409, {"ok": False, "error": str(exc)})

    def do_POST(self) -> None:
        if not self._allowed() or self.headers.get("Content-Type", "").split(";")[0] \
                != "application/json":
            self._refuse()
            return
        url = urlsplit(self.path)
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._refuse(413)
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            arg = body.get("text", "") if isinstance(body, dict) else ""
            if not isinstance(arg, str):
                raise ValueError
        except ValueError:
            self._json(400, {"ok": False, "error": "the request is not a JSON object"})
            return
        word = url.path.removeprefix("/api/")
        if word not in ("act", "undo", "say"):
            self._refuse(404)
            return
        try:
            self._json(200, self.server.board.command(word, arg))
        except PbemError as exc:
            self._json(200, {"ok": False, "error": str(exc)})

    def do_OPTIONS(self) -> None:
        # a CORS preflight: never answered with CORS headers, so browsers block the call
        self._refuse(405)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS


class BoardHTTPServer(HTTPServer):
    def __init__(self, board: Board, port: int = 0) -> None:
        self.board = board
        super().__init__((LOOPBACK, port), Handler)
        board.port = self.server_address[1]

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the page was closed or reloaded mid-answer: nothing was lost
        super().handle_error(request, client_address)


def serve(board: Board, port: int = 0) -> BoardHTTPServer:
    """A server for ``board`` bound to 127.0.0.1 (``port`` 0: any free port)."""
    return BoardHTTPServer(board, port)


def url_of(server: BoardHTTPServer) -> str:
    return f"http://{LOOPBACK}:{server.server_address[1]}/?t={server.board.token}"
