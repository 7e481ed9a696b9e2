"""``pbem board`` with no game: the lobby of every game of the home, in the browser.

The board as home (issue 32 item 6): after ``pbem id new`` a player who never opens a
terminal again starts a game, joins one from an invite file, and plays every game from
this page.  It is the board's server (:mod:`pbem.web.server`) with more routes, and the
same guards: loopback only, the cookie a one-time address is traded for, the ``Host``,
``Origin`` and ``Sec-Fetch-Site`` checks, bodies read up to a size, nothing served from
disk.  Each game's board is at ``/game/NAME/`` under the same cookie.

What the lobby lists is what ``pbem status`` prints: :meth:`pbem.session.Home.statuses`
with :func:`pbem.transport.state.sent_line` and the routes, read the same way, never a
second computation; who is overdue (``overdue``, issue 32 item 5) is shown in the words
the status gives, when it gives any.  The page asks a cheap stamp (the saves' and the
delivery record's sizes and times) every two seconds and reads the list again when it
changed, so a file that ``pbem watch`` (or the lobby's own watcher, or a terminal)
imports shows at once.

The lobby follows every game's route with :class:`pbem.transport.watcher.Watcher`, as
``pbem watch`` does, on a thread and under the lobby's one lock (so an import never runs
beside a click on a board; a look at a slow mailbox holds the page that long): a first
contact waits on the page for the player to compare its fingerprint, an invitation found
waits to be joined.

A new game and a join go through the same calls as ``pbem new`` and ``pbem join``: the
engine, scenario and side checked by name, the invite's bytes read with the bound
``pbem join`` reads a file with (:func:`pbem.cli.read_incoming_file`), the creator's
fingerprint shown for the player to compare before anything is written, a refused file
changing nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.envelope import MAX_EXCHANGED, file_name
from pbem.errors import MismatchError, PbemError, UsageError
from pbem.session import SAVE_SUFFIX, Home
from pbem.web.replay import asset, csp_hash, script_json
from pbem.web.server import (
    MAX_BODY,
    ROUTES,
    Answer,
    Board,
    Gate,
    Refused,
    Request,
    Responder,
    json_answer,
)

if TYPE_CHECKING:
    from pbem.envelope import FileInfo
    from pbem.transport.base import Outcome
    from pbem.transport.route import Route
    from pbem.transport.watcher import Watcher

#: the largest invite file read from the browser: what ``pbem join`` reads from a disk
MAX_INVITE = 2 * MAX_EXCHANGED
#: the join's body: the file in base64 (4/3 of its bytes), its name and the route
MAX_JOIN_BODY = MAX_INVITE * 4 // 3 + 8192
#: the lobby's own watcher: seconds between two looks at every route
WATCH_INTERVAL = 5.0
#: watcher lines the page shows (the latest)
NOTES = 30

_GAME_PATH = re.compile(r"^/game/([A-Za-z0-9][A-Za-z0-9._-]{0,79})(/.*)$")

LobbyRoute = Callable[["Lobby", Request], Answer]
#: (method, path) -> what answers it, at the lobby's own paths (a game's are the board's)
LOBBY_ROUTES: dict[tuple[str, str], LobbyRoute] = {}


def lobby_route(method: str, path: str) -> Callable[[LobbyRoute], LobbyRoute]:
    def register(fn: LobbyRoute) -> LobbyRoute:
        LOBBY_ROUTES[(method, path)] = fn
        return fn
    return register


@dataclass
class Lobby(Gate):
    """Every game of ``home``, and the boards opened from the lobby (one lock for all)."""

    home: Home
    boards: dict[str, Board] = field(default_factory=dict)
    #: what the lobby's watcher said lately (imports, deliveries, places unreachable)
    notes: deque[str] = field(default_factory=lambda: deque(maxlen=NOTES))
    #: fingerprints the player compared and confirmed on the page (a first contact)
    confirmed: set[str] = field(default_factory=set)
    #: first contacts waiting for the player: fingerprint -> what the page shows
    firsts: dict[str, dict[str, str]] = field(default_factory=dict)
    #: invitations the watcher found (a shared folder, the mailbox): game id -> what the
    #: page shows, and the file's path (kept here: the page names the game, never a path)
    invitations: dict[str, dict[str, str]] = field(default_factory=dict)
    _invitation_paths: dict[str, Path] = field(default_factory=dict)
    #: the note last said for each source: a waiting invitation is said once, as by
    #: 'pbem watch', not at every look
    _said: dict[str, str] = field(default_factory=dict)
    #: bumped on every note, so the stamp changes when only the notes did
    version: int = 0
    watcher: Watcher | None = None
    _stop: threading.Event = field(default_factory=threading.Event)

    # -- routing ---------------------------------------------------------------------------

    def find(self, method: str, path: str) -> tuple[Responder | None, bool]:
        match = _GAME_PATH.match(path)
        if match is not None:
            name, rest = match.groups()
            if not (self.home.games_dir / f"{name}{SAVE_SUFFIX}").is_file():
                return None, False
            board = self.board(name)
            if (method, rest) == ("GET", "/file"):
                return (lambda request: self.download(name, request)), True
            fn = ROUTES.get((method, rest))
            if fn is None:
                return None, any(p == rest for _, p in ROUTES) or rest == "/file"
            return (lambda request: fn(board, request)), True
        found = LOBBY_ROUTES.get((method, path))
        if found is None:
            return None, any(p == path for _, p in LOBBY_ROUTES)
        return (lambda request: found(self, request)), True

    def body_limit(self, path: str) -> int:
        return MAX_JOIN_BODY if path == "/api/join" else MAX_BODY

    def board(self, name: str) -> Board:
        with self.lock:
            if name not in self.boards:
                # the lobby's lock: an answer of one game's board never runs beside the
                # watcher importing into it, or the lobby starting another game
                self.boards[name] = Board(self.home, name, lobby="/", lock=self.lock)
            return self.boards[name]

    # -- what the page lists ---------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Each game as ``pbem status`` reads it (the same calls), and what the page
        needs to show it."""
        from pbem.transport.base import TransportError
        from pbem.transport.route import routes
        from pbem.transport.state import sent_line, sent_records, when

        data = self.home.statuses()
        records = sent_records(self.home.path)
        try:
            table = dict(routes(self.home.path))
        except TransportError as exc:
            self.note(f"note: {exc}")
            table = {}
        out = []
        for s in data:
            sent = sent_line(self.home.path, s, records, table)
            route = table.get(s["game_id"])
            result = s.get("result")
            if result:
                whose = f"game over: {result.get('text', '')}"
            elif s["your_move"]:
                whose = f"your move: {s['decision']}"
            else:
                whose = s["awaiting"]
            # the pace helper's field, when the status has it (issue 32 item 5): shown as
            # the status words it, never worked out here
            late = s.get("overdue")
            out.append({
                "name": s["name"], "game_id": s["game_id"], "engine": s["engine"],
                "scenario": s["scenario"],
                "side": s["side"], "opponent": s["opponent"], "seq": s["seq"],
                "position": s.get("position") or "", "your_move": bool(s["your_move"]),
                "over": bool(result), "whose": whose, "decision": s.get("decision"),
                "overdue": late.get("words") if isinstance(late, dict) else None,
                "last_in": when(s.get("last_in")) or "-",
                "last_out": when(s.get("last_out")) or "-",
                "sent": sent, "unsent": sent is not None and ("not sent" in sent
                                                              or "no longer there" in sent),
                "sealed": s.get("last_sealed"),
                "route": route.words() if route is not None else None,
                "href": f"/game/{s['name']}/",
            })
        # the games waiting for the player first, then by name
        out.sort(key=lambda g: (not g["your_move"], g["over"], g["name"]))
        return out

    def listing(self) -> dict[str, Any]:
        card = self.home.card()
        games = self.games()
        ids = {g["game_id"] for g in games}
        for joined in [k for k in self.invitations if k in ids]:
            del self.invitations[joined]  # joined (here, or by 'pbem join')
        return {"me": {"name": card.name, "fingerprint": card.fingerprint},
                "games": games, "notes": list(self.notes),
                "invitations": [self.invitations[k] for k in sorted(self.invitations)],
                "firsts": [self.firsts[k] for k in sorted(self.firsts)],
                "watching": self.watcher is not None, "stamp": self.stamp()}

    def stamp(self) -> str:
        """Changes whenever what the lobby lists may have: a save written (a file
        imported, an action played), a delivery recorded, a route set, a note added.
        Stats only: the page asks for it every two seconds."""
        seen: list[str] = [str(self.version)]
        paths = [*self.home.save_paths(), self.home.path / "transport" / "sent.json",
                 self.home.path / "transport" / "routes.json"]
        for path in paths:
            try:
                st = path.stat()
            except OSError:
                seen.append(f"{path.name}:-")
                continue
            seen.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
        return hashlib.sha256("\n".join(seen).encode()).hexdigest()[:16]

    def engines(self) -> list[dict[str, Any]]:
        from pbem.registry import engines

        return [{"id": e.id, "title": e.title, "sides": list(e.sides),
                 "scenarios": [{"id": s.id, "title": s.title} for s in e.scenarios()]}
                for e in engines().values()]

    def contacts(self) -> list[dict[str, str]]:
        return [{"name": c.name, "email": c.email, "fingerprint": c.fingerprint}
                for c in sorted(self.home.keys.contacts(), key=lambda c: c.name)]

    def note(self, line: str) -> None:
        self.notes.append(line)
        self.version += 1

    # -- starting and joining ------------------------------------------------------------

    def route_of(self, body: dict[str, Any], opponent_email: str | None) -> Route | None:
        """The route the form chose: none, a shared folder, or mail to an address."""
        from pbem.transport.route import Route

        kind = _field(body, "route", 20) or "none"
        where = _field(body, "where", 1000).strip()
        if kind == "none":
            return None
        if kind == "folder":
            if not where:
                raise UsageError("route by folder: give the shared folder's path")
            folder = Path(where).expanduser()
            if not folder.is_dir():
                raise UsageError(f"{where}: the shared folder does not exist (create it, or "
                                 f"give the path your sync tool uses)")
            return Route("folder", str(folder.resolve()))
        if kind == "mail":
            to = where or opponent_email or ""
            if not to:
                raise UsageError("route by mail: give the opponent's address")
            return Route("mail", to)
        raise UsageError(f"unknown route {kind!r}: none, folder or mail")

    def deliver(self, game: Any, seq: int, route: Route | None, what: str) -> str:
        from pbem.transport import plugins
        from pbem.transport.route import deliver_file, set_route

        if route is None:
            return (f"{what} ready: download it below and send it to your opponent (attach "
                    f"it to a mail, or put it in your shared folder)")
        plugins.factory(route.kind)
        set_route(self.home.path, game.game_id, route)
        try:
            done = deliver_file(game, seq, game.files[seq], route, once=True)
        except PbemError as exc:
            return (f"{what} not sent yet ({exc}); the lobby's watcher sends it when "
                    f"{route.words()} can be reached")
        return f"{what} sent: {done.line}"

    def new_game(self, body: dict[str, Any]) -> dict[str, Any]:
        """``pbem new`` from the page's form: the same checks, the same calls."""
        from pbem.registry import get

        engine_id = _field(body, "engine", 100)
        scenario = _field(body, "scenario", 100)
        side = _field(body, "side", 100)
        # sealed, as pbem new: the watchers answer its rolls-only replies (docs/guide.md 6)
        dice_mode = _field(body, "dice", 10) or "sealed"
        name = _field(body, "name", 80).strip() or None
        if not engine_id or not scenario or not side:
            raise UsageError("choose the game, the scenario and your side")
        try:
            get(engine_id).scenario(scenario)
        except MismatchError as exc:
            raise UsageError(str(exc)) from None
        fingerprint = _field(body, "opponent", 200)
        contact = self.home.keys.contact(fingerprint) if fingerprint else None
        if fingerprint and contact is None:
            raise UsageError(f"no contact with fingerprint {fingerprint!r}")
        route = self.route_of(body, contact.email if contact else None)
        if route is not None:
            from pbem.transport import plugins

            plugins.factory(route.kind)  # an unknown transport: refused before the game
        game = self.home.new_game(engine_id, scenario, side, dice_mode=dice_mode, name=name)
        told = [f"game {game.name} created: you play {side}"]
        told.append(self.deliver(game, 0, route, "invite"))
        return {"ok": True, "name": game.name, "told": told,
                "file": None if route else f"/game/{game.name}/file?seq=0"}

    def join(self, body: dict[str, Any]) -> dict[str, Any]:
        """``pbem join`` from an uploaded invite.  Without ``confirmed`` nothing is
        written: the answer names the creator and the fingerprint to compare."""
        from pbem.transcript import load_envelope, parse_invite
        from pbem.transport.route import Route, proposal_for

        found = _field(body, "found", 64)
        if found:
            # an invitation the watcher found: read from where it lies, as 'pbem join
            # PATH' reads it
            from pbem.cli import read_incoming_file

            path = self._invitation_paths.get(found)
            if path is None:
                raise UsageError("no such invitation is waiting (joined already?)")
            source = str(path)
            data = read_incoming_file(path)
        else:
            source = "the uploaded " + (_field(body, "file_name", 200) or "invite")
            raw = body.get("data")
            if not isinstance(raw, str) or not raw:
                raise UsageError("choose the invite file to upload")
            try:
                data = base64.b64decode(raw, validate=True)
            except (binascii.Error, ValueError):
                raise UsageError(f"{source}: the upload is damaged (not base64): choose "
                                 "the file again") from None
        if len(data) > MAX_INVITE:
            raise UsageError(f"{source} is {len(data)} bytes; an invite is at most "
                             f"{MAX_INVITE}: this is not an invite")
        env = load_envelope(data, source)
        if env.kind != "invite":
            raise UsageError(f"{source}: this is a {env.kind} file, not an invite")
        setup = parse_invite(env)
        card = self.home.card()
        if setup.creator.key == card.key:
            raise UsageError(f"{source}: this is your own invite; your opponent joins it")
        if self.home.game_by_id(setup.game_id) is not None:
            raise UsageError(f"{source}: you have already joined this game")
        problem = self.home.keys.name_conflict(setup.creator, source)
        if problem is not None:
            raise problem
        known = self.home.keys.contact(setup.creator.fingerprint)
        first = known is None or known.key != setup.creator.key
        if first and body.get("confirmed") is not True:
            return {"ok": True, "confirm": {
                "who": setup.creator.who, "fingerprint": setup.creator.fingerprint,
                "game": f"{setup.engine_id} / {setup.scenario}",
                "side": setup.joiner_side}}
        route = self.route_of(body, setup.creator.email or None) \
            if _field(body, "route", 20) not in ("", "invite") else None
        if route is None and _field(body, "route", 20) in ("", "invite"):
            route = proposal_for(self.home.path, setup.game_id)
            if route is not None and route.kind == "mail" and not route.where:
                route = Route("mail", setup.creator.email) if setup.creator.email else None
        if route is not None:
            from pbem.transport import plugins

            plugins.factory(route.kind)  # an unknown transport: refused before the join
        name = _field(body, "name", 80).strip() or None
        game = self.home.join(data, source, name=name)
        told = [f"joined {game.name}: {setup.engine_id} / {setup.scenario}, you play "
                f"{game.side}"]
        told.append(self.deliver(game, 1, route, "reply"))
        return {"ok": True, "name": game.name, "told": told,
                "file": None if route else f"/game/{game.name}/file?seq=1"}

    def confirm(self, body: dict[str, Any]) -> dict[str, Any]:
        """The player compared a first contact's fingerprint: the watcher's next look
        imports the file (and pins the card), as ``pbem watch`` does when told yes."""
        fingerprint = _field(body, "fingerprint", 200)
        if fingerprint not in self.firsts:
            raise UsageError("no first contact with that fingerprint is waiting")
        self.confirmed.add(fingerprint)
        self.firsts.pop(fingerprint)
        self.note(f"fingerprint {fingerprint} confirmed: imported at the next look")
        if self.watcher is not None:
            self.look()
        return {"ok": True}

    def download(self, name: str, request: Request) -> Answer:
        """One of this side's own files (the invite, the reply, a sealed turn), for a
        player whose game has no route: the browser saves it to be sent."""
        game = self.board(name).game()
        try:
            seq = int((request.query.get("seq") or [""])[0])
        except ValueError:
            raise Refused(400, "give the file's number: ?seq=N") from None
        mine = dict(game.sealed_files())
        if seq not in mine:
            raise Refused(404, f"{name} has no file {seq} of yours")
        label = file_name(game.game_id, seq, game.side)
        return Answer(200, mine[seq], "application/octet-stream",
                      (("Content-Disposition", f'attachment; filename="{label}"'),))

    # -- the watcher ---------------------------------------------------------------------

    def start_watching(self, interval: float = WATCH_INTERVAL) -> threading.Thread:
        """Follow every game's route as ``pbem watch`` does, on a thread, under the lock."""
        from pbem.transport.watcher import Watcher

        self.watcher = Watcher(self.home, say=self.note, show=self._show,
                               confirm=self._confirmed, interval=interval)

        def loop() -> None:
            while not self._stop.is_set():
                self.look()
                self._stop.wait(interval)

        thread = threading.Thread(target=loop, name="pbem-lobby-watch", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stop.set()

    def look(self) -> None:
        if self.watcher is None:
            return
        with self.lock:
            try:
                self.watcher.look()
            except Exception as exc:  # the watcher never stops the lobby
                self.note(f"the watcher failed ({type(exc).__name__}: {exc})")

    def _show(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if outcome.status == "invite" and outcome.info is not None:
                self._invited(outcome)
            # as 'pbem watch' says them: a note once while it stays the same, this home's
            # own files and the ones it has already never
            fresh = outcome.status == "imported" or (
                outcome.status not in ("own", "duplicate")
                and self._said.get(outcome.source) != outcome.note)
            self._said.pop(outcome.source, None)
            self._said[outcome.source] = outcome.note
            if fresh:
                self.note(outcome.line())
        while len(self._said) > 1000:  # the oldest go first: at worst a note is said again
            del self._said[next(iter(self._said))]

    def _invited(self, outcome: Outcome) -> None:
        """Keep an invitation the watcher found, for the page to offer to join."""
        from pbem.cli import read_incoming_file
        from pbem.transcript import load_envelope, parse_invite

        info = outcome.info
        assert info is not None
        key = info.game_id.hex()
        if key in self.invitations:
            return
        path = Path(outcome.source)
        if not path.is_file():  # came by mail: the router kept a copy here
            path = self.home.path / "incoming" / file_name(info.game_id, 0, info.side)
        try:
            card = parse_invite(load_envelope(read_incoming_file(path), str(path))).creator
        except (OSError, PbemError):
            return  # said in the notes; 'pbem join' names what is wrong with it
        self._invitation_paths[key] = path
        self.invitations[key] = {"game": key, "who": card.who,
                                 "fingerprint": card.fingerprint,
                                 "from": outcome.source}
        self.version += 1

    def _confirmed(self, info: FileInfo, card: Any) -> bool:
        if card is None:
            return False
        if card.fingerprint in self.confirmed:
            return True
        if card.fingerprint not in self.firsts:
            self.firsts[card.fingerprint] = {
                "who": card.who, "fingerprint": card.fingerprint,
                "game": info.game_id.hex()[:8]}
            self.version += 1
        return False

    # -- the page --------------------------------------------------------------------------

    def page(self) -> str:
        script = asset("lobby.js")
        style = asset("lobby.css")
        policy = (f"default-src 'none'; script-src {csp_hash(script)}; style-src "
                  "'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
                  "connect-src 'self'")
        card = self.home.card()
        data = {"me": card.name}
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" "
            f"content=\"{html.escape(policy, quote=False)}\">\n"
            "<meta name=\"referrer\" content=\"no-referrer\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>pbem: {html.escape(card.name)}'s games</title>\n"
            f"<style>{style}</style></head>\n<body data-mode=\"lobby\">\n"
            f"<script type=\"application/json\" id=\"pbem-data\">{script_json(data)}"
            f"</script>\n<script>{script}</script>\n</body></html>\n")


def _field(body: dict[str, Any], key: str, limit: int) -> str:
    """A text field of a form's body, checked: a string, at most ``limit`` characters."""
    value = body.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refused(400, f'"{key}" must be a string, not {type(value).__name__}')
    if len(value) > limit:
        raise Refused(400, f'"{key}" is {len(value)} characters; at most {limit}')
    return value


@lobby_route("GET", "/")
def _page(lobby: Lobby, request: Request) -> Answer:
    return Answer(200, lobby.page().encode(), "text/html; charset=utf-8")


@lobby_route("GET", "/api/lobby")
def _listing(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, lobby.listing())


@lobby_route("GET", "/api/stamp")
def _stamp(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, {"stamp": lobby.stamp()})


@lobby_route("GET", "/api/engines")
def _engines(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, {"engines": lobby.engines(), "contacts": lobby.contacts()})


@lobby_route("POST", "/api/new")
def _new(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, lobby.new_game(request.body))


@lobby_route("POST", "/api/join")
def _join(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, lobby.join(request.body))


@lobby_route("POST", "/api/confirm")
def _confirm(lobby: Lobby, request: Request) -> Answer:
    return json_answer(200, lobby.confirm(request.body))
