"""The transport interface, and the one routing door every incoming file goes through.

A :class:`Transport` delivers sealed bytes and collects candidate files.  What to do with
a candidate is the same whatever carried it, so it is decided once, here, by
:class:`Router`: it reads the file's claims without a key (:func:`pbem.envelope.peek`), and

* a file of a game this home does not know is left alone with a note (an invitation is
  shown with its sender's fingerprint and the ``pbem join`` line to accept it);
* a file this side wrote itself is left alone (in a shared folder the player's own files
  sit beside the opponent's);
* an accept from a correspondent never seen before is shown with its fingerprint and is
  imported only once the player confirmed it (then the card is pinned);
* everything else is handed to the importer (``Home.receive``), which verifies and
  imports it or refuses it: the refusal becomes the note.

Outcomes say whether they are *final*: a file that waits for an earlier one (``pending``)
or for a game not joined yet is looked at again next time; a final one is not.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pbem.envelope import file_name
from pbem.errors import ChainError, DuplicateFile, PbemError, SignatureError
from pbem.sha import sha256

if TYPE_CHECKING:
    from pbem.envelope import FileInfo
    from pbem.session import Game, Home
    from pbem.transport.state import HandledState

__all__ = [
    "Delivered",
    "Importer",
    "Outcome",
    "Router",
    "Transport",
    "TransportError",
    "file_name",
]

Importer = Callable[[bytes, str], object]
Peek = Callable[[bytes], "FileInfo"]
#: asked about an accept from a key not pinned yet; returns True to import it
Confirm = Callable[["FileInfo", Any], bool]

#: statuses after which a file is not looked at again
FINAL = frozenset({"imported", "duplicate", "own", "own-fork", "refused", "ignored"})
#: statuses of files that may become importable later (an earlier file, a join, a yes)
RETRY = frozenset({"pending", "unknown-game", "invite", "unconfirmed"})


class TransportError(PbemError):
    """A folder, a mail server or a message could not be used; the message says which."""

    exit_code = 13


@dataclass(frozen=True)
class Outcome:
    """What happened to one candidate file, in one line for a person."""

    source: str
    status: str
    note: str
    info: FileInfo | None = None
    report: object | None = None
    digest: str = ""
    #: the exit status this outcome calls for (a refused file: its error's, errors.py)
    exit_code: int = 0
    #: the exact cause of a refusal, in the parser's words (--verbose, --json)
    cause: str = ""
    #: a duplicate of the game's latest file, from the opponent: a reminder (pbem nudge)
    #: that the next file is this side's, said even where duplicates are not
    reminder: bool = False

    @property
    def final(self) -> bool:
        return self.status in FINAL

    def line(self) -> str:
        return f"{self.status}: {self.note}"


@dataclass(frozen=True)
class Delivered:
    """Where one file went: ``how`` and ``where`` are kept in the home's one record of
    deliveries (:func:`pbem.transport.state.record_sent`), ``line`` is for the player."""

    how: str
    where: str
    line: str


class Transport(Protocol):
    """A way files travel, made by its factory (registered by name in the
    ``pbem.transports`` entry-point group, :mod:`pbem.transport.plugins`) from the home's
    folder and the route's ``where``.

    ``deliver`` sends one sealed file of ``game`` and says where it went, or raises
    :class:`TransportError`; ``collect`` hands every new candidate file to the router
    (``state`` remembers what was handled); ``place`` names what ``collect`` reads, so a
    watcher reads one mailbox once however many games travel through it ('' when the
    transport brings nothing in, as a written mail message)."""

    name: str

    def deliver(self, data: bytes, info: FileInfo, game: Game) -> Delivered: ...

    def collect(self, router: Router, state: HandledState | None) -> list[Outcome]: ...

    def place(self) -> str: ...


def digest(data: bytes) -> str:
    return sha256(data).hexdigest()


def _default_peek(data: bytes) -> FileInfo:
    from pbem.armor import read_any
    from pbem.envelope import peek

    return peek(read_any(data))


def _fingerprint(key: bytes) -> str:
    try:
        from pbem.identity import fingerprint

        return fingerprint(key)
    except PbemError:
        return key.hex()[:32]


class Router:
    """Decides, for each candidate file, import, leave alone or refuse; never raises."""

    def __init__(self, importer: Importer, known: Callable[[], Mapping[bytes, str]], *,
                 peek: Peek | None = None, confirm: Confirm | None = None,
                 is_pinned: Callable[[bytes], bool] | None = None,
                 pin: Callable[[Any], None] | None = None,
                 invites_dir: Path | None = None,
                 on_invite: Callable[[FileInfo, str, Any], None] | None = None) -> None:
        #: importer(data, source) verifies and imports one file (``Home.receive``)
        self.importer = importer
        #: known() maps each game id of this home to the side this home plays in it
        self.known = known
        self.peek: Peek = peek or _default_peek
        self.confirm = confirm
        self.is_pinned = is_pinned
        self.pin = pin
        #: where invitations that arrived by mail are kept for ``pbem join``
        self.invites_dir = invites_dir
        #: told of each invitation found, with its source and card: the way it came is
        #: the route ``pbem join`` proposes (issue 32 item 1)
        self.on_invite = on_invite

    @classmethod
    def for_home(cls, home: Home, *, confirm: Confirm | None = None) -> Router:
        """The router of a real home: imports with ``Home.receive``, pins confirmed cards."""

        def known() -> dict[bytes, str]:
            # from the signed summaries: no engine loaded, and one save that cannot be
            # used (put back from a backup, say) does not stop the files of the others
            return {bytes.fromhex(s["game_id"]): s["side"] for s in home.statuses()}

        def is_pinned(key: bytes) -> bool:
            return any(c.key == key for c in home.keys.contacts())

        def pin(card: Any) -> None:
            problem = home.keys.name_conflict(card, "the file")
            if problem is not None:
                raise problem
            home.keys.pin_contact(card)

        def on_invite(info: FileInfo, source: str, card: Any) -> None:
            from pbem.transport.route import Route, propose

            if Path(source).is_file():  # found in a shared folder: answer through it
                propose(home.path, info.game_id, Route("folder", str(Path(source).parent)))
            elif card is not None and card.email:  # came by mail: answer by mail
                propose(home.path, info.game_id, Route("mail", card.email))

        return cls(home.receive, known, confirm=confirm, is_pinned=is_pinned,
                   pin=pin, invites_dir=home.path / "incoming", on_invite=on_invite)

    # -- routing ---------------------------------------------------------------------------

    def route_all(self, items: Iterable[tuple[str, bytes]]) -> list[Outcome]:
        """Route several files, earliest sequence of each game first (a sync client or a
        mailbox may hand them over in any order)."""
        peeked: list[tuple[str, bytes, FileInfo | None, Outcome | None]] = []
        for source, data in items:
            try:
                info = self.peek(data)
            except PbemError as exc:
                peeked.append((source, data, None, Outcome(
                    source, "refused", f"{source}: not a pbem file ({_cause(exc)})",
                    digest=digest(data), exit_code=exc.exit_code, cause=_cause(exc))))
                continue
            peeked.append((source, data, info, None))
        peeked.sort(key=lambda item: (item[2].game_id, item[2].seq) if item[2] else (b"", -1))
        known = dict(self.known())
        out: list[Outcome] = []
        for source, data, claims, done in peeked:
            if done is not None:
                out.append(done)
            elif claims is not None:
                out.append(self._route(source, data, claims, known))
                if out[-1].status == "imported" and claims.kind == "accept":
                    known = dict(self.known())
        return out

    def route(self, data: bytes, source: str) -> Outcome:
        return self.route_all([(source, data)])[0]

    def _route(self, source: str, data: bytes, info: FileInfo,
               known: Mapping[bytes, str]) -> Outcome:
        sha = digest(data)
        short = info.game_id.hex()[:12]

        def outcome(status: str, note: str, report: object | None = None,
                    error: BaseException | None = None, reminder: bool = False) -> Outcome:
            code = getattr(error, "exit_code", 1) if error is not None else 0
            return Outcome(source, status, note, info, report, sha, code,
                           _cause(error) if error is not None else "", reminder)

        if info.game_id not in known:
            if info.kind == "invite":
                return outcome("invite", self._invite_note(source, data, info))
            return outcome("unknown-game",
                           f"{source}: file {info.seq} of game {short}, which is not in this "
                           f"home; left alone")
        if known[info.game_id] == info.side:
            return self._own(source, data, info, outcome)
        if info.kind == "invite":
            return outcome("duplicate", f"{source}: the invitation to game {short}, which you "
                                        f"have already joined or created")
        if info.kind == "accept" and self.is_pinned is not None \
                and not self.is_pinned(info.signer):
            card = _card_of(data)
            who = card.who if card is not None else "the joiner"
            first = (f"{source}: first contact: {who} joined game {short} with fingerprint "
                     f"{_fingerprint(info.signer)}")
            if self.confirm is None or not self.confirm(info, card):
                return outcome("unconfirmed", f"{first}; compare it with your opponent, then "
                                              f"import it again and confirm (or use --yes)")
            if card is not None and self.pin is not None:
                try:
                    self.pin(card)
                except SignatureError as exc:
                    # a name pinned with another key: once the player has checked and run
                    # 'pbem id forget', the next scan takes it as a first contact
                    return outcome("unconfirmed", f"{source}: {_cause(exc)}", error=exc)
                except PbemError as exc:
                    return outcome("refused", f"{source}: {_cause(exc)}", error=exc)
        try:
            report = self.importer(data, source)
        except DuplicateFile as exc:
            if exc.latest:
                return outcome("duplicate", f"{source}: file {info.seq} of game {short} "
                                            f"again, already imported: your opponent sent it "
                                            f"again as a reminder (the next file is yours)",
                               reminder=True)
            return outcome("duplicate", f"{source}: file {info.seq} of game {short} was "
                                        f"already imported")
        except ChainError as exc:
            if exc.reason == "missing":
                return outcome("pending", f"{source}: waits for an earlier file "
                                          f"({_cause(exc)})")
            if exc.reason == "other-game":
                return outcome("unknown-game", f"{source}: {_cause(exc)}; left alone")
            return outcome("refused", f"{source}: refused: {_cause(exc)}", error=exc)
        except PbemError as exc:
            return outcome("refused", f"{source}: refused: {_cause(exc)}", error=exc)
        except Exception as exc:  # a file that trips a bug must not stop the other files
            return outcome("refused", f"{source}: refused: internal error while importing "
                                      f"({type(exc).__name__}: {exc}); please report it",
                           error=exc)
        text = getattr(report, "text", None)
        return outcome("imported", f"{source}: {text}" if isinstance(text, str) else
                       f"{source}: imported file {info.seq} of game {short}", report)

    def _own(self, source: str, data: bytes, info: FileInfo,
             outcome: Callable[..., Outcome]) -> Outcome:
        """One of this side's files: left alone when the home has it; taken back when the
        home is behind it (restored from a backup, played from another computer); two
        versions of one place named as such (issue 23 items 1 and 2)."""
        short = info.game_id.hex()[:12]
        if info.kind == "invite":
            return outcome("own", f"{source}: your own file {info.seq} of game {short}; "
                                  f"left alone")
        try:
            report = self.importer(data, source)
        except DuplicateFile:
            return outcome("own", f"{source}: your own file {info.seq} of game {short}; "
                                  f"left alone")
        except ChainError as exc:
            if exc.reason == "missing":
                return outcome("pending", f"{source}: {_cause(exc)}")
            if exc.reason == "own-fork":
                return outcome("own-fork", f"{source}: {_cause(exc)}")
            return outcome("refused", f"{source}: refused: {_cause(exc)}")
        except PbemError as exc:
            return outcome("refused", f"{source}: refused: {_cause(exc)}")
        except Exception as exc:  # a file that trips a bug must not stop the other files
            return outcome("refused", f"{source}: refused: internal error while importing "
                                      f"({type(exc).__name__}: {exc}); please report it")
        text = getattr(report, "text", None)
        return outcome("imported", f"{source}: {text}" if isinstance(text, str) else
                       f"{source}: caught up with your own file {info.seq} of game {short}",
                       report)

    def _invite_note(self, source: str, data: bytes, info: FileInfo) -> str:
        card = _card_of(data)
        who = card.who if card is not None else "someone"
        if self.on_invite is not None:
            # a proposal is a convenience: 'pbem join --folder/--email' says it anyway
            with contextlib.suppress(PbemError):
                self.on_invite(info, source, card)
        where = source
        if self.invites_dir is not None and not Path(source).is_file():
            from pbem.atomic import write_atomic

            self.invites_dir.mkdir(parents=True, exist_ok=True)
            path = self.invites_dir / file_name(info.game_id, 0, info.side)
            if not path.exists():
                write_atomic(path, data, 0o644)
            where = str(path)
        return (f"{source}: an invitation from {who}, fingerprint {_fingerprint(info.signer)}; "
                f"to accept, compare the fingerprint with them, then run: pbem join {where}")


def _card_of(data: bytes) -> Any:
    """The card an invite or accept carries (already signature-checked by peek)."""
    try:
        from pbem.armor import read_any
        from pbem.envelope import open_envelope
        from pbem.identity import Card

        body = open_envelope(read_any(data)).decode()
        return Card.from_data(body.get("creator") or body.get("joiner"))
    except (PbemError, ImportError):
        return None


def _cause(exc: BaseException) -> str:
    """The message of an error without a leading ``path:`` that the caller names anyway."""
    text = str(exc)
    path = getattr(exc, "path", None)
    if path and text.startswith(f"{path}: "):
        text = text[len(path) + 2:]
    return text
