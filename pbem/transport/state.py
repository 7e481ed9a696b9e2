"""What this home has already handled, per folder and per mailbox, so nothing is taken twice.

Kept in ``<home>/transport/handled.json``, written atomically.  The session would refuse
a second copy of a file anyway (as a duplicate); this record spares the work and the
repeated notes, and for IMAP it backs up the ``$PbemHandled`` keyword on servers that do
not keep keywords.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.atomic import write_atomic
from pbem.transport.base import TransportError

__all__ = ["HandledState", "record_sent", "sent_line", "sent_records"]


class HandledState:
    """A JSON map ``section -> key -> record``, loaded lazily and saved on :meth:`save`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._data: dict[str, dict[str, Any]] | None = None
        #: the bytes read, so that a save with nothing changed writes nothing (a watch
        #: looks every two seconds for days)
        self._read: bytes | None = None

    @classmethod
    def of_home(cls, home: Path) -> HandledState:
        return cls(Path(home) / "transport" / "handled.json")

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._data is None:
            if self.path.exists():
                try:
                    self._read = self.path.read_bytes()
                    data = json.loads(self._read.decode("utf-8"))
                except (OSError, ValueError) as exc:
                    raise TransportError(f"cannot read the handled-files record ({exc}); "
                                         f"delete it to start afresh", path=str(self.path)) \
                        from None
                if not isinstance(data, dict):
                    raise TransportError("the handled-files record is not a JSON object",
                                         path=str(self.path))
                self._data = data
            else:
                self._data = {}
        return self._data

    def section(self, name: str) -> dict[str, Any]:
        data = self._load()
        section = data.setdefault(name, {})
        if not isinstance(section, dict):
            section = data[name] = {}
        return section

    def save(self) -> None:
        data = self._load()
        text = (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()
        if text == self._read:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, text, 0o600)
        self._read = text


def _sent_state(home: Path) -> HandledState:
    # a file of its own: a running 'pbem watch' saves handled.json from what it read
    # when it started, and would undo a 'pbem send' made meanwhile
    return HandledState(Path(home) / "transport" / "sent.json")


def record_sent(home: Path, game_id: bytes, seq: int, how: str, where: str, *,
                now: int) -> None:
    """Remember the latest file of a game sent, and where to (``pbem status`` shows it).

    ``now``: the home's clock (``Home.clock``, ``PBEM_CLOCK`` in tests), the one that stamps
    "last out", so the two times a status shows of one file agree."""
    state = _sent_state(home)
    sent = state.section("sent")
    old = sent.get(game_id.hex())
    if isinstance(old, dict) and isinstance(old.get("seq"), int) and old["seq"] > seq:
        return  # an earlier file sent again: the latest one stays the one to show
    # when, for the player ("sent 2026-05-01 10:12"): a note of the transport, never game state
    sent[game_id.hex()] = {"seq": seq, "how": how, "where": where, "time": now}
    state.save()


def sent_records(home: Path) -> dict[str, Any] | None:
    """What :func:`record_sent` kept, read once for every game a command lists (None: the
    record cannot be read, as if nothing were sent)."""
    try:
        return _sent_state(home).section("sent")
    except TransportError:
        return None


def when(t: object) -> str:
    if not isinstance(t, int):
        return ""
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def sent_line(home: Path, status: dict[str, Any],
              records: dict[str, Any] | bool | None = False,
              routes: dict[str, Any] | None = None) -> str | None:
    """One line on the latest file this home sealed in a game: where it went and when,
    whether it is still in the folder, or that it is not sent and the command that sends
    it (issue 23 item 3, issue 32 item 3).

    ``records``: :func:`sent_records` of the home, when the caller read it already;
    ``routes``: :func:`pbem.transport.route.routes`, likewise."""
    sealed = status.get("last_sealed")
    if not isinstance(sealed, int):
        return None
    if records is False:
        records = sent_records(home)
    if routes is None:
        from pbem.transport.route import routes as read_routes

        try:
            routes = dict(read_routes(home))
        except TransportError:
            routes = {}
    route = routes.get(status["game_id"])
    record = records.get(status["game_id"]) if isinstance(records, dict) else None
    name = status["name"]
    if not isinstance(record, dict) or record.get("seq") != sealed:
        if status.get("seq", sealed) > sealed:
            return None  # the opponent has answered it: it went, by whatever road
        if route is not None:
            return (f"file {sealed} is sealed but not sent: 'pbem send {name}' sends it by "
                    f"{route.words()} ('pbem watch' sends it by itself)")
        last = Path(str(record.get("where"))).parent if isinstance(record, dict) and \
            record.get("how") == "folder" else None
        how = f"--folder {last}" if last else "--folder DIR (or --email, or -o FILE)"
        return f"file {sealed} is sealed but not sent: pbem send {name} {how}"
    where = str(record.get("where", ""))
    at = when(record.get("time"))
    at = f" ({at})" if at else ""
    if record.get("how") == "folder":
        if Path(where).exists():
            return f"file {sealed} sent: written to {where}, still there{at}"
        folder = Path(where).parent
        return (f"file {sealed} was written to {where} and is no longer there (deleted, "
                f"or moved by the sync tool): send it again with pbem send {name} --seq "
                f"{sealed} --folder {folder}")
    return f"file {sealed} sent: {record.get('how')} {where}{at}"
