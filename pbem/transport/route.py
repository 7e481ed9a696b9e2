"""Each game's route, and the one way a sealed file leaves (issue 32 items 1 and 2).

A route is a transport's name and its ``where`` (``folder`` and a shared folder,
``mail`` and the opponent's address, or any transport another package registers), kept
per game in ``<home>/transport/routes.json``.  Every file this home seals, whoever
sealed it (``play``, ``act``, the board, an import under ``watch``, ``inbox``, ``fetch``
or ``receive``), goes through :func:`on_sealed`, which the session calls at the end of
every seal: the file is delivered by the game's route at once, unless the command holds
it back (``--hold``), and every delivery, by whichever path, is recorded by
:func:`deliver_file` in the one record ``status`` and ``list`` read
(:func:`pbem.transport.state.record_sent`).  A delivery that fails (a mail server
down, a folder unplugged) leaves the file owed: ``status`` says so and ``pbem watch``
sends it when the route works again (:func:`send_owed`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.atomic import write_atomic
from pbem.errors import PbemError

# with the session, which every command that seals loads: 'act' says what became of its
# file without loading the transports (issue 35)
from pbem.session import sealed_lines
from pbem.transport.base import Delivered, TransportError

if TYPE_CHECKING:
    from pbem.session import Game, Home

__all__ = [
    "Route",
    "board_note",
    "deliver_file",
    "held",
    "hold",
    "on_sealed",
    "owed",
    "proposal_for",
    "propose",
    "remind",
    "reminded",
    "reminders_due",
    "route_of",
    "routes",
    "sealed_lines",
    "send_owed",
    "set_route",
    "turn_words",
    "unsent",
]


@dataclass(frozen=True)
class Route:
    """How one game's files travel: a registered transport and where it takes them."""

    kind: str
    where: str

    def words(self) -> str:
        if self.kind == "folder":
            return f"the shared folder {self.where}"
        if self.kind == "mail":
            return f"mail to {self.where}" if self.where else "mail to your opponent"
        return f"{self.kind} {self.where}".strip()

    def option(self) -> str:
        """The command-line words that choose this route."""
        if self.kind == "folder":
            return f"--folder {self.where}"
        if self.kind == "mail":
            return "--email" + (f" --to {self.where}" if self.where else "")
        return f"--via {self.kind}" + (f" --to {self.where}" if self.where else "")


def _path(home: Path) -> Path:
    from pbem.session import ROUTES

    return Path(home).joinpath(*ROUTES)


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise TransportError(f"cannot read the games' routes ({exc}); set them again with "
                             f"'pbem route GAME ...'", path=str(path)) from None
    if not isinstance(data, dict):
        raise TransportError("the games' routes are not a JSON object", path=str(path))
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode(), 0o600)


def _route(value: Any) -> Route | None:
    if isinstance(value, dict) and isinstance(value.get("kind"), str) \
            and isinstance(value.get("where", ""), str):
        return Route(value["kind"], value.get("where", ""))
    return None


def routes(home: Path) -> dict[str, Route]:
    """Every game's route, by game id (hex)."""
    out: dict[str, Route] = {}
    for game_id, value in sorted(_read(_path(home)).get("games", {}).items()):
        route = _route(value)
        if route is not None:
            out[game_id] = route
    return out


def route_of(home: Path, game_id: bytes) -> Route | None:
    return routes(home).get(game_id.hex())


def set_route(home: Path, game_id: bytes, route: Route | None) -> None:
    """Give a game its route (``None``: no route; files leave with ``pbem send``)."""
    if route is not None:
        from pbem.transport import plugins

        plugins.factory(route.kind)  # a name no package registers is refused now
        if route.kind == "folder":
            route = Route("folder", str(Path(route.where).resolve()))
    path = _path(home)
    data = _read(path)
    games = data.setdefault("games", {})
    if route is None:
        games.pop(game_id.hex(), None)
    else:
        games[game_id.hex()] = {"kind": route.kind, "where": route.where}
    _write(path, data)


def propose(home: Path, game_id: bytes, route: Route) -> None:
    """Remember how an invitation came (the folder it was found in, the mail it came by):
    ``pbem join`` takes that route when given none (the proposal the joiner accepts)."""
    path = _path(home)
    data = _read(path)
    proposals = data.setdefault("proposals", {})
    if proposals.get(game_id.hex()) != {"kind": route.kind, "where": route.where}:
        proposals[game_id.hex()] = {"kind": route.kind, "where": route.where}
        _write(path, data)


def hold(home: Path, game_id: bytes, seq: int) -> None:
    """Remember that file ``seq`` is held back (``--hold``): ``pbem watch`` does not send
    it as owed; ``pbem send`` does, when the player says so."""
    path = _path(home)
    data = _read(path)
    data.setdefault("held", {})[game_id.hex()] = seq
    _write(path, data)


def held(home: Path) -> dict[str, int]:
    """Each game's file held back, by game id (hex)."""
    table = _read(_path(home)).get("held", {})
    return {k: v for k, v in table.items() if isinstance(v, int)} \
        if isinstance(table, dict) else {}


def proposal_for(home: Path, game_id: bytes) -> Route | None:
    return _route(_read(_path(home)).get("proposals", {}).get(game_id.hex()))


def deliver_file(game: Game, seq: int, data: bytes, route: Route, *,
                 once: bool = False) -> Delivered:
    """Deliver file ``seq`` of ``game`` by ``route`` and record it where ``status`` and
    ``list`` read it; raises :class:`TransportError` (nothing recorded) when it fails.

    ``once``: not again if the record says this file went already (a ``watch`` and a
    ``play`` sealing at the same moment both try; the home's delivery lock lets one
    deliver and shows the other the record)."""
    from pbem.armor import read_any
    from pbem.envelope import peek
    from pbem.portable import lock_file
    from pbem.transport import plugins
    from pbem.transport.state import record_sent, sent_records

    info = peek(read_any(data))
    transport = plugins.make(route.kind, game.home.path, route.where)
    folder = game.home.path / "transport"
    folder.mkdir(parents=True, exist_ok=True)
    with lock_file(folder / "deliver.lock"):
        if once:
            record = (sent_records(game.home.path) or {}).get(game.game_id.hex())
            if isinstance(record, dict) and record.get("seq") == seq and (
                    record.get("how") != "folder" or Path(str(record.get("where"))).exists()):
                how = str(record.get("how"))
                verb = "written to" if how == "folder" else how
                return Delivered(how, str(record.get("where")),
                                 f"file {seq} of {game.name} {verb} {record.get('where')} "
                                 f"(by another pbem command, a moment before)")
        done = transport.deliver(data, info, game)
        record_sent(game.home.path, game.game_id, seq, done.how, done.where,
                    now=game.home.clock())
    return done


def on_sealed(game: Game, seq: int) -> None:
    """The session's hook at the end of every seal: deliver by the game's route at once,
    unless the home holds files back; never raises (the file is sealed and saved
    whatever the road does), and leaves one line for the command to print in
    ``game.home.deliveries``."""
    home = game.home
    if not _path(home.path).exists():
        return  # no game of this home has a route: 'pbem send' as before
    try:
        route = route_of(home.path, game.game_id)
    except PbemError as exc:
        home.deliveries[(game.game_id, seq)] = f"not sent: {exc}"
        return
    if route is None:
        return
    if home.hold:
        try:
            hold(home.path, game.game_id, seq)
        except (PbemError, OSError) as exc:
            home.deliveries[(game.game_id, seq)] = f"not sent, and not marked held ({exc})"
            return
        home.deliveries[(game.game_id, seq)] = (
            f"held back (--hold): 'pbem send {game.name}' sends it by {route.words()}")
        return
    try:
        done = deliver_file(game, seq, game.file(seq)[1], route, once=True)
    except PbemError as exc:
        home.deliveries[(game.game_id, seq)] = (
            f"not sent yet ({exc}); 'pbem watch' sends it when {route.words()} can be "
            f"reached, or 'pbem send {game.name}' now")
        return
    except Exception as exc:  # a transport another package wrote: the seal stands
        home.deliveries[(game.game_id, seq)] = (
            f"not sent yet ({type(exc).__name__}: {exc}); 'pbem watch' sends it when "
            f"{route.words()} can be reached, or 'pbem send {game.name}' now")
        return
    home.deliveries[(game.game_id, seq)] = f"sent: {done.line}"


def owed(home: Home) -> list[tuple[dict[str, Any], Route]]:
    """The games whose latest sealed file has a route and has not gone by it yet."""
    from pbem.transport.state import sent_records

    table = routes(home.path)
    if not table:
        return []
    kept = held(home.path)
    records = sent_records(home.path) or {}
    out = []
    for status in home.statuses():
        route = table.get(status["game_id"])
        sealed = status.get("last_sealed")
        if route is None or not isinstance(sealed, int) or status["seq"] > sealed \
                or kept.get(status["game_id"]) == sealed:
            continue  # no route, nothing sealed, answered already, or held back
        record = records.get(status["game_id"])
        if isinstance(record, dict) and record.get("seq") == sealed and (
                record.get("how") != "folder" or Path(str(record.get("where"))).exists()):
            continue
        out.append((status, route))
    return out


def send_owed(home: Home) -> list[tuple[str, str]]:
    """Send every owed file by its route; ``(game name, line)`` per file sent or not."""
    out = []
    for status, route in owed(home):
        name = status["name"]
        try:
            game = home.game(name)
            seq, data = game.file(status["last_sealed"])
            done = deliver_file(game, seq, data, route, once=True)
        except (PbemError, OSError) as exc:
            out.append((name, f"{name}: file {status['last_sealed']} is owed and could not "
                              f"be sent yet ({exc}); trying again later"))
            continue
        out.append((name, f"sent what was owed: {done.line}"))
    return out


def _reminders_state(home: Path) -> Any:
    from pbem.transport.state import HandledState

    # a file of its own, like sent.json: a running watch and a 'pbem nudge' both write it
    return HandledState(Path(home) / "transport" / "reminders.json")


def reminded(home: Path) -> dict[str, Any]:
    """The last reminder sent in each game, by game id (hex): ``{"seq", "time"}``."""
    try:
        section: dict[str, Any] = _reminders_state(home).section("reminders")
    except TransportError:
        return {}
    return section


def _reminder_file(game: Game) -> tuple[int, bytes]:
    """The file a reminder carries: this side's latest, which the opponent has not
    answered; a clear refusal when there is nobody to remind."""
    from pbem.errors import UsageError

    if game.result is not None:
        raise UsageError(f"{game.name}: the game is over ({game.result.text}): nobody to "
                         f"remind")
    latest = game.times.get("last_sealed")
    if not isinstance(latest, int) or latest < game.verifier.seq:
        raise UsageError(f"{game.name}: the next file is yours ({game.awaiting()}): there "
                         f"is nobody to remind")
    return game.file(latest)


def remind(game: Game, now: int) -> Delivered:
    """Send the opponent a short reminder by the game's route, carrying this side's
    latest file again (``pbem nudge``; ``pbem watch`` where the invite agreed), and note
    when it went; raises :class:`PbemError` naming what is wrong (nothing noted then).

    A transport with a ``remind(data, info, game, subject, summary)`` method (folder,
    mail, eml) says it is a reminder; any other delivers the file again."""
    from pbem.armor import read_any
    from pbem.envelope import peek
    from pbem.errors import UsageError
    from pbem.portable import lock_file
    from pbem.transport import plugins
    from pbem.transport.telling import reminder

    route = route_of(game.home.path, game.game_id)
    if route is None:
        raise UsageError(f"{game.name} has no route to send a reminder by: give it one with "
                         f"'pbem route {game.name} --folder DIR' (or --email)")
    seq, data = _reminder_file(game)
    info = peek(read_any(data))
    subject, summary = reminder(game, seq, data, now)
    transport = plugins.make(route.kind, game.home.path, route.where)
    folder = game.home.path / "transport"
    folder.mkdir(parents=True, exist_ok=True)
    with lock_file(folder / "deliver.lock"):
        method = getattr(transport, "remind", None)
        done: Delivered = method(data, info, game, subject, summary) if callable(method) \
            else transport.deliver(data, info, game)
        state = _reminders_state(game.home.path)
        # the clock decides only when to remind again, never anything in the game
        state.section("reminders")[game.game_id.hex()] = {"seq": seq, "time": now}
        state.save()
    return done


def reminders_due(home: Home, now: int) -> list[dict[str, Any]]:
    """The games in which ``pbem watch`` reminds the opponent now: the invite agreed to
    it (``reminders``), the opponent is overdue, this side's file is not held back, and
    no reminder went in this game within the last pace period (so at most one a period)."""
    table = routes(home.path)
    if not table:
        return []
    kept = held(home.path)
    last = reminded(home.path)
    out = []
    for status in home.statuses():
        late = status.get("overdue")
        if status.get("reminders") != "watch" or not late or late["yours"] \
                or status["game_id"] not in table \
                or kept.get(status["game_id"]) == status.get("last_sealed"):
            continue
        record = last.get(status["game_id"])
        if isinstance(record, dict) and isinstance(record.get("time"), int) \
                and now - record["time"] < status["pace"]:
            continue
        out.append(status)
    return out


def unsent(game: Game) -> tuple[int, Route | None] | None:
    """This side's latest sealed file, when it has not left yet and the opponent has not
    answered it: ``(seq, the game's route)``; else None."""
    from pbem.transport.state import sent_records

    latest = game.times.get("last_sealed")
    if not isinstance(latest, int) or latest < game.verifier.seq:
        return None  # nothing sealed, or the opponent has answered it
    record = (sent_records(game.home.path) or {}).get(game.game_id.hex())
    if isinstance(record, dict) and record.get("seq") == latest:
        return None
    try:
        route = route_of(game.home.path, game.game_id)
    except PbemError:
        route = None
    return latest, route


def turn_words(game: Game) -> str:
    """Whose turn it is when it is not this side's: the file awaited, from whom, and when
    this side's own last file went (issue 32 item 3); safe to print as it is."""
    from pbem.text import safe

    return safe(_turn_words(game))


def _turn_words(game: Game) -> str:
    from pbem.transport.state import sent_records, when

    if game.result is not None:
        return f"{game.name}: the game is over ({game.result.text})"
    opp = game.opponent()
    who = opp.name if opp is not None else "your opponent"
    awaited = game.verifier.seq + 1
    head = game.decision_head()
    what = f" ({head[1]})" if head is not None and head[0] != game.side else ""
    text = f"{game.name}: it is not your turn: file {awaited} is awaited from {who}{what}"
    latest = game.times.get("last_sealed")
    record = (sent_records(game.home.path) or {}).get(game.game_id.hex())
    if isinstance(latest, int) and isinstance(record, dict) and record.get("seq") == latest:
        at = when(record.get("time"))
        how = str(record.get("how"))
        verb = "was written to" if how == "folder" else f"was {how}" \
            if how.startswith(("written", "mailed")) else f"went {how}"
        text += (f"; your file {latest} {verb} {record.get('where')}"
                 + (f" at {at}" if at else ""))
    elif unsent(game) is not None:
        text += f"; your file {latest} is sealed but NOT sent: 'pbem send {game.name}'"
    return text + _arrived_words(game, awaited)


def _arrived_words(game: Game, awaited: int) -> str:
    """The awaited file may already sit in the game's shared folder with no watch running
    to bring it in: "not your turn" alone would leave the player waiting for a file they
    have (found playing two homes through one folder)."""
    from pbem.envelope import file_name
    from pbem.text import safe

    try:
        route = route_of(game.home.path, game.game_id)
    except PbemError:
        return ""
    if route is None or route.kind != "folder":
        return ""
    prefix = file_name(game.game_id, awaited, "x")[:-len("x.pbem")]
    try:
        names = sorted(n for n in os.listdir(route.where) if n.startswith(prefix)
                       and n.lower().endswith(".pbem"))
    except OSError:
        return ""
    if not names:
        return ""
    path = Path(route.where) / names[0]
    return (f"; but file {awaited} is already in the shared folder: 'pbem watch' brings "
            f"it in (leave it running), or 'pbem receive {safe(str(path))}'")


def board_note(game: Game, seq: int, folder: Path | None) -> str:
    """What the board says of a file it sealed (the one call ``pbem.web.server`` makes):
    what the game's route did with it, or, for ``pbem board --folder DIR`` on a game
    without a route, the file delivered into DIR and recorded like every other delivery
    (status and list read it), or the command that sends it."""
    said = game.home.deliveries.get((game.game_id, seq))
    if said is None and folder is not None:
        try:
            done = deliver_file(game, seq, game.file(seq)[1], Route("folder", str(folder)),
                                once=True)
            said = f"sent: {done.line}"
        except PbemError as exc:
            said = f"not sent: {exc}"
    return said if said is not None else sealed_lines(game, seq)[0]
