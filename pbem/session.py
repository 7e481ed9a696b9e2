"""A player's home: identity, saved games, and the loop of receive, act, seal.

A game is kept in one signed save file (``games/<name>.pbsave`` under the home), a small
head of constant size: a cache of the verified state (so loading does not replay a long
game), the local actions not yet sealed, and a commitment to the game's transcript, which
is kept beside it in ``games/<name>.files/`` and only appended to (the exchanged files,
each written once, and one entry per file: :class:`pbem.gamefiles.GameFiles`).  Each
change appends to the transcript, then writes a new head atomically (temp file, fsync,
rename), so a crash leaves the last good save, and a refused file leaves the save byte for
byte as it was.

The turn loop (ARCHITECTURE section 3) is :class:`pbem.match.Match`'s, which touches no
file; :class:`Game` is the store that holds one and keeps what it does.  While the next
decision is the local side's, the player acts; the chance requests that follow an action
are resolved at once from the open-dice seed of the file being written; when the next
decision is the opponent's (or the game ends) the file is *sealed*: signed, checked by the
same :class:`Verifier` that checks incoming files, and stored (in this home's
:class:`pbem.gamefiles.SealRecord`, then the save).  Undo goes back one action, never past
a roll or a seal.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import __version__, canonical, history, portable
from pbem.atomic import write_atomic
from pbem.envelope import (
    MAX_SAVE,
    Envelope,
    body_hash,
    committed_envelope,
    open_envelope,
    seal,
    seal_body,
)
from pbem.errors import (
    ChainError,
    ConcurrencyError,
    DuplicateFile,
    FormatError,
    KeyStoreError,
    MismatchError,
    NotYourTurn,
    PbemError,
    SignatureError,
    UsageError,
    quote,
)

# the save's files moved to pbem.gamefiles; their names are still found here
from pbem.gamefiles import ENTRY_SIZE as ENTRY_SIZE
from pbem.gamefiles import SAVE_FORMAT as SAVE_FORMAT
from pbem.gamefiles import SAVE_SUFFIX as SAVE_SUFFIX
from pbem.gamefiles import TRANSCRIPT_NAME as TRANSCRIPT_NAME
from pbem.gamefiles import GameFiles as GameFiles
from pbem.gamefiles import SealRecord as SealRecord
from pbem.gamefiles import announce as announce
from pbem.gamefiles import chain_entry as chain_entry
from pbem.gamefiles import files_dir as files_dir
from pbem.gamefiles import transcript_entry as transcript_entry
from pbem.identity import Card, Identity, KeyStore, passphrase_from_env
from pbem.match import Match
from pbem.sha import sha256

if TYPE_CHECKING:
    # the engine, the dice, the verifier and the registry (importlib.metadata) are
    # imported where a game is loaded or played: 'pbem status' and 'pbem list' read only
    # the signed summary of each save (issue 19; tests/cli/test_startup.py holds it)
    from pbem import orders
    from pbem.engine import Decision, Engine, Event, Result, State
    from pbem.match import Step
    from pbem.transcript import RollRecord, Verifier
    from pbem.view import BoardView

#: equivocation evidence kept per game at most (files, bytes)
MAX_EVIDENCE_FILES = 32
MAX_EVIDENCE_BYTES = 32 * 1024 * 1024
DEFAULT_CHAIN = 4096
# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$"

Clock = Callable[[], int]


def get_engine(engine_id: str) -> Engine:
    """The installed engine (the registry reads the installed packages' metadata: only
    commands that load a game pay for it)."""
    from pbem.registry import get

    return get(engine_id)


def load_envelope(data: bytes, source: str) -> Envelope:
    from pbem.transcript import load_envelope as load

    return load(data, source)


def _default_clock() -> int:
    fixed = os.environ.get("PBEM_CLOCK")
    return int(fixed) if fixed else int(time.time())


def _lock_of(path: Path) -> Path:
    """The lock file of the save at ``path``, held exclusively (``portable.lock_file``,
    every platform) while the save is checked and replaced."""
    return path.with_name(path.name + ".lock")


def read_save(home: Home, path: Path, data: bytes | None = None) -> tuple[bytes, dict[str, Any]]:
    """A save's bytes and body, checked: the right kind, signed by this home's own key
    (``data``: the bytes, if already read)."""
    if data is None:
        from pbem.readfile import read_bounded

        data = read_bounded(path, MAX_SAVE)
    try:
        env = open_envelope(data, max_size=MAX_SAVE, kinds=("save",))
    except (FormatError, SignatureError) as exc:
        raise type(exc)(f"save file is damaged or was altered: {exc}", path=str(path)) \
            from None
    if env.key != home.card().key:
        raise SignatureError("save file was not signed by this home's identity",
                             path=str(path))
    return data, env.decode(own=True)


def _summary_key(home: Home, path: Path, key: bytes | None = None) -> tuple[bytes, bytes]:
    """The entry's name and the home key it must name: one entry per save name,
    overwritten as the game goes on."""
    from pbem import datacache

    return (datacache.make_key("summary", path.name),
            home.card().key if key is None else key)


def _kept_summary(home: Home, path: Path, data: bytes, key: bytes | None = None, *,
                  keys: tuple[bytes, bytes] | None = None) -> dict[str, Any] | None:
    """``pbem status``'s summary of the save ``data``, as read from these same bytes and
    verified by an earlier command (the data cache, HOME/cache), or None.

    Fifty games used to cost fifty Ed25519 checks per ``status``, ``list`` and
    ``receive`` (issue 19).  The entry holds the exact save bytes it was read from and
    the home key that verified them, and is used only for the same bytes under the same
    key, compared whole: a save altered since is verified, and refused, as before; an
    entry forged by someone who can write the home changes only what this home's
    status lists (every command that loads the game still verifies its save).  The
    bytes, not their SHA-256: hashing a save took 47 instructions a byte, twice in a
    receive and once in every act and status (issue 35), and comparing them is exact.
    ``key``: the home's public key, read once by a caller that looks at every save."""
    from pbem import datacache

    if datacache.directory() is None:
        return None
    name, home_key = keys or _summary_key(home, path, key)
    kept = datacache.load("summary", name)
    if type(kept) is not dict or kept.get("key") != home_key or kept.get("save") != data \
            or type(kept.get("status")) is not dict:
        return None
    status: dict[str, Any] = kept["status"]
    return status


def _keep_summary(home: Home, path: Path, data: bytes, status: dict[str, Any], *,
                  keys: tuple[bytes, bytes] | None = None) -> None:
    """Keep ``status`` for the save bytes ``data`` (``keys``: their :func:`_summary_key`,
    if made already)."""
    from pbem import datacache

    if datacache.directory() is None:
        return
    name, home_key = keys or _summary_key(home, path)
    datacache.store("summary", name, {"key": home_key, "save": data, "status": status})


def times_of(log: list[dict[str, Any]]) -> dict[str, Any]:
    """The times the last file came in and went out, from a format 1 or 2 save's log."""
    return {
        "last_in": max((e["time"] for e in log if e["dir"] == "in"), default=None),
        "last_out": max((e["time"] for e in log if e["dir"] == "out"), default=None),
        #: the latest file this home sealed (status says whether it was sent, issue 23 item 3)
        "last_sealed": max((e["seq"] for e in log if e["dir"] == "out"), default=None),
    }


def saved_times(body: dict[str, Any]) -> dict[str, Any]:
    """The save's times: kept as they are by format 3, from the whole log before it."""
    if "times" in body:
        return dict(body["times"])
    return times_of(body["log"])


def with_times(status: dict[str, Any], times: dict[str, Any]) -> dict[str, Any]:
    """A summary with the times the last file came in and went out."""
    status.update(times)
    return status


#: a home's routes file (pbem.transport.route), under the home
ROUTES = ("transport", "routes.json")


def sealed_lines(game: Game, seq: int) -> list[str]:
    """What became of file ``seq``, just sealed: sent (and how), held, not sent and why,
    or, for a game without a route, the commands that send it (pbem.transport.route
    leaves what its route did in ``home.deliveries``)."""
    from pbem.text import bound, safe

    said = game.home.deliveries.get((game.game_id, seq))
    if said is not None:
        # a server's or another package's words may be in it: never raw to a terminal
        return [safe(bound(said, 2000))]
    name = game.name
    return [f"not sent: {name} has no route; send it with 'pbem send {name} --folder DIR' "
            f"(or --email, or -o FILE), or give the game its route once: 'pbem route "
            f"{name} --folder DIR' (or --email)"]


def _deliver_by_route(game: Game, seq: int) -> None:
    # a home without the routes file has no game with a route: the transports stay
    # unloaded ('pbem send' as before; issue 35: an act that seals needs none of them)
    if not game.home.path.joinpath(*ROUTES).exists():
        return
    from pbem.transport.route import on_sealed

    on_sealed(game, seq)


def short_id(game_id: bytes) -> str:
    return game_id.hex()[:12]


class ReceiveReport(history.Mutable):
    """What importing one file did, for the person who imported it.  A record of
    pbem.history's, not a dataclass: made as one, its class cost every receive about
    0.2 M instructions (issue 35)."""

    __slots__ = __match_args__ = ("game_name", "seq", "kind", "side", "text", "events",
                                  "rolls", "message", "result", "sealed", "game")
    game_name: str
    seq: int
    kind: str
    side: str
    text: str
    events: list[Event]
    rolls: list[RollRecord]
    message: str
    result: Result | None
    #: the sequence number of a file this import caused the local side to seal at once
    sealed: int | None
    #: the game as it stands after the import (as its save now holds it)
    game: Game | None

    def __init__(self, game_name: str, seq: int, kind: str, side: str, text: str,
                 events: list[Event] | None = None, rolls: list[RollRecord] | None = None,
                 message: str = "", result: Result | None = None, sealed: int | None = None,
                 game: Game | None = None) -> None:
        self.game_name = game_name
        self.seq = seq
        self.kind = kind
        self.side = side
        self.text = text
        # a fresh list each, as the dataclass's default factories gave
        self.events = [] if events is None else events
        self.rolls = [] if rolls is None else rolls
        self.message = message
        self.result = result
        self.sealed = sealed
        self.game = game


def saves_in(folder: Path) -> list[Path]:
    """The save files in ``folder`` (none when it is missing), sorted: the names that end
    with the suffix, as a glob of '*.pbsave' finds them, without compiling the glob's
    pattern (issue 35: a receive looks its game up here)."""
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(folder / n for n in names if n.endswith(SAVE_SUFFIX))


class Home:
    """One player's folder: identity, contacts, games, evidence."""

    def __init__(self, path: Path, *, clock: Clock = _default_clock,
                 passphrase: Callable[[], bytes | None] | None = None) -> None:
        self.path = Path(path)
        self.keys = KeyStore(self.path)
        self.clock = clock
        self._passphrase = passphrase or passphrase_from_env
        self._identity: Identity | None = None
        #: called at the end of every seal: the game's route delivers the file at once
        #: (pbem.transport.route.on_sealed), whoever sealed it (issue 32 item 1)
        self.after_seal: Callable[[Game, int], None] | None = _deliver_by_route
        #: True: a sealed file stays here (``--hold``); 'pbem send' sends it later
        self.hold = False
        #: what the route did with each file sealed by this Home, for the command to say
        self.deliveries: dict[tuple[bytes, int], str] = {}

    # -- identity ------------------------------------------------------------------------

    @property
    def games_dir(self) -> Path:
        return self.path / "games"

    @property
    def evidence_dir(self) -> Path:
        return self.path / "evidence"

    def card(self) -> Card:
        if not self.keys.exists():
            raise KeyStoreError(f"no identity in {self.path}: run 'pbem id new NAME' first")
        return self.keys.card()

    def identity(self) -> Identity:
        if self._identity is None:
            self.card()
            passphrase = self._passphrase() if self.keys.is_encrypted() else None
            self._identity = self.keys.load(passphrase)
        return self._identity

    # -- games ---------------------------------------------------------------------------------

    def save_paths(self) -> list[Path]:
        return saves_in(self.games_dir)

    def games(self) -> list[Game]:
        return [Game.load(self, p) for p in self.save_paths()]

    def game(self, ref: str) -> Game:
        """A game by name, by (a prefix of) its id, or by the path of its save."""
        path = Path(ref)
        if ref.endswith(SAVE_SUFFIX) and path.is_file():
            return Game.load(self, path)
        direct = self.games_dir / f"{ref}{SAVE_SUFFIX}"
        if direct.is_file():
            return Game.load(self, direct)
        matches = [g for g in self.games() if g.game_id.hex().startswith(ref.lower())] \
            if re.fullmatch(r"[0-9a-fA-F]{4,64}", ref) else []
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise UsageError(f"{ref!r} matches {len(matches)} games; give more of the id")
        names = ", ".join(p.stem for p in self.save_paths()) or "none"
        raise UsageError(f"no game {ref!r} in {self.games_dir} (games: {names})")

    def statuses(self, ref: str | None = None) -> list[dict[str, Any]]:
        """``pbem status`` / ``pbem list``: each game's signed summary, read without loading
        its engine (a save written before summaries existed is loaded the long way)."""
        out = []
        paths = self.save_paths()
        # the card once, not once a game (two stats and a compare each, issue 19)
        key = self.card().key if paths else None
        for path in paths:
            status = self._read_summary(path, key)
            if ref is not None and ref not in (status["name"], str(path)) and not (
                    re.fullmatch(r"[0-9a-fA-F]{4,64}", ref)
                    and status["game_id"].startswith(ref.lower())):
                continue
            out.append(status)
        if ref is not None and not out:
            if ref.endswith(SAVE_SUFFIX) and Path(ref).is_file():
                out = [self._read_summary(Path(ref))]
            else:
                self.game(ref)  # raises the error that names the known games
        if ref is not None and len(out) > 1:
            raise UsageError(f"{ref!r} matches {len(out)} games; give more of the id")
        from pbem.pace import overdue

        # the clock decides only what is shown (issue 32 item 5): added here, never kept
        # in the signed summary
        now = self.clock()
        return [{**s, "overdue": overdue(s, now)} for s in out]

    def _read_summary(self, path: Path, key: bytes | None = None) -> dict[str, Any]:
        from pbem.readfile import read_bounded

        data = read_bounded(path, MAX_SAVE)
        kept = _kept_summary(self, path, data, key)
        if kept is not None:
            return kept
        _, body = read_save(self, path, data)
        if "summary" not in body:
            return Game.load(self, path).status()
        status = with_times(dict(body["summary"]), saved_times(body))
        _keep_summary(self, path, data, status)
        return status

    def game_by_id(self, game_id: bytes) -> Game | None:
        """The game with that id; only its save is loaded the whole way (engine included).

        A save whose summary is kept (the same bytes, read and verified before) and names
        another game is passed over unverified: only the save that is loaded needs to be."""
        from pbem import datacache
        from pbem.readfile import read_bounded

        for path in self.save_paths():
            data = read_bounded(path, MAX_SAVE)
            # the entry's name made once, for the kept summary looked up and, when none
            # is, the one kept
            keys = _summary_key(self, path) if datacache.directory() else None
            kept = _kept_summary(self, path, data, keys=keys)
            if kept is not None and kept["game_id"] != game_id.hex():
                continue
            data, body = read_save(self, path, data)
            if kept is None and "summary" in body:
                _keep_summary(self, path, data,
                              with_times(dict(body["summary"]), saved_times(body)), keys=keys)
            # the game id is the hash of the invite's body, the first file of every save
            saved_id = body["game_id"] if "game_id" in body else \
                body_hash(canonical.decode(body["files"][0])[5])
            if saved_id == game_id:
                return Game.load(self, path, read=(data, body))
        return None

    def _unique_name(self, wanted: str | None, default: str) -> str:
        name = wanted or default
        if not re.match(_NAME, name):
            raise UsageError(f"game name {name!r}: use letters, digits, '.', '_' or '-'")
        # the name becomes a save's and an evidence folder's name, which must survive a
        # copy to Windows (a sync client, a backup) whatever this machine allows
        problem = portable.file_name_problem(name)
        if problem:
            raise UsageError(f"game name {name!r}: {problem}")
        if (self.games_dir / f"{name}{SAVE_SUFFIX}").exists():
            raise UsageError(f"a game named {name!r} already exists in {self.games_dir}")
        return name

    def new_game(self, engine_id: str, scenario: str, side: str, *,
                 options: dict[str, str] | None = None, dice_mode: str = "open",
                 name: str | None = None, chain_length: int = DEFAULT_CHAIN,
                 nonce: bytes | None = None, pace: int | None = None,
                 reminders: str = "", sealed_rules: int | None = None) -> Game:
        """Create a game and its invite (file 0), to be sent to the opponent.

        ``pace``: the agreed seconds a side may take over a file, ``reminders``
        ``"watch"`` to have pbem watch remind a late side (protocol.md 3.1).
        ``sealed_rules``: a sealed game's rules (docs/protocol.md 6.2.1), by default the
        latest; 1 writes an invite as pbem did before them (tests, vectors)."""
        if dice_mode not in ("open", "sealed"):
            raise UsageError(f"unknown dice mode {dice_mode!r} (open or sealed)")
        from pbem.pace import MAX_PACE, MIN_PACE, REMINDERS

        if pace is not None and (type(pace) is not int or not MIN_PACE <= pace <= MAX_PACE):
            raise UsageError(f"pace {pace!r}: give {MIN_PACE} to {MAX_PACE} seconds")
        if reminders not in ("", REMINDERS) or (reminders and pace is None):
            raise UsageError(f"reminders {reminders!r}: only {REMINDERS!r}, and only with "
                             f"a pace")
        from pbem import dice
        from pbem.transcript import FORMAT as GAME_FORMAT
        from pbem.transcript import SEALED_RULES, SEALED_RULES_READ, Verifier

        if type(chain_length) is not int or not 2 <= chain_length <= dice.MAX_CHAIN_LENGTH:
            raise UsageError(f"chain length {chain_length!r}: give 2 to "
                             f"{dice.MAX_CHAIN_LENGTH} dice links per generation")
        engine = get_engine(engine_id)
        if side not in engine.sides:
            raise UsageError(f"{engine.id} has sides {', '.join(engine.sides)}, not {side!r}")
        info = engine.scenario(scenario)
        resolved = engine.resolve_options(options or {})
        identity = self.identity()
        nonce = nonce or os.urandom(32)
        chain = dice.HashChain(identity.secret_bytes(), nonce, side, 0, chain_length)
        initial = engine.new_state(info.id, resolved)
        body = {
            "engine": engine.id,
            "rules_version": engine.rules_version,
            "scenario": info.id,
            "scenario_digest": engine.scenario_digest(info.id),
            "scenario_files": engine.scenario_files(info.id),
            "options": resolved,
            "sides": list(engine.sides),
            "creator_side": side,
            "creator": identity.card.to_data(),
            "dice_mode": dice_mode,
            "chain_length": chain_length,
            "anchor": chain.anchor,
            "nonce": nonce,
            "initial_digest": initial.digest(),
            "software": f"pbem {__version__}",
            "format": GAME_FORMAT,
        }
        # left out when not agreed: one form each, and the invite reads as before
        if pace is not None:
            body["pace"] = pace
        if reminders:
            body["reminders"] = reminders
        if dice_mode == "sealed":
            rules = SEALED_RULES if sealed_rules is None else sealed_rules
            if rules not in SEALED_RULES_READ:
                raise UsageError(f"sealed-dice rules {rules!r}: give one of "
                                 f"{', '.join(map(str, SEALED_RULES_READ))}")
            if rules != 1:
                body["sealed"] = rules
        invite = seal(identity, "invite", body)
        env = open_envelope(invite)
        verifier = Verifier(engine, env)
        name = self._unique_name(name, f"{engine.id}-{info.id}-{short_id(env.hash)[:8]}")
        game = Game(self, self.games_dir / f"{name}{SAVE_SUFFIX}", name, side, engine,
                    None, verifier)
        game.add_file(invite, "out")
        game.write()
        return game

    def join(self, data: bytes, source: str, *, name: str | None = None) -> Game:
        """Accept an invite: check it, pin the creator, write the accept (file 1)."""
        env = load_envelope(data, source)
        if env.kind != "invite":
            raise FormatError(f"this is a {env.kind} file, not an invite", path=source)
        identity = self.identity()
        if env.key == identity.public_key:
            raise UsageError(f"{source}: this is your own invite; send it to your opponent")
        from pbem import dice
        from pbem.transcript import Verifier, parse_invite

        setup = parse_invite(env)
        engine = get_engine(setup.engine_id)
        try:
            verifier = Verifier(engine, env)
        except MismatchError as exc:
            raise MismatchError(f"cannot join: {exc}", path=source) from None
        if self.game_by_id(setup.game_id) is not None:
            raise DuplicateFile(f"{source}: you have already joined this game")
        self.pin(setup.creator, source)
        side = setup.joiner_side
        chain = dice.HashChain(identity.secret_bytes(), setup.nonce, side, 0,
                               setup.chain_length)
        body = {
            "game": setup.game_id,
            "seq": 1,
            "prev": env.hash,
            "side": side,
            "joiner": identity.card.to_data(),
            "anchor": chain.anchor,
            "rules_version": engine.rules_version,
            "scenario_digest": engine.scenario_digest(setup.scenario),
            "initial_digest": verifier.state.digest(),
            "software": f"pbem {__version__}",
        }
        accept = seal(identity, "accept", body)
        verifier.add(open_envelope(accept))
        name = self._unique_name(name, f"{engine.id}-{setup.scenario}-"
                                       f"{short_id(setup.game_id)[:8]}")
        game = Game(self, self.games_dir / f"{name}{SAVE_SUFFIX}", name, side, engine,
                    None, verifier)
        game.add_file(data if data[:1] == b"\x96" else env.raw, "in")
        game.add_file(accept, "out")
        game.write()
        return game

    def receive(self, data: bytes, source: str, *, loaded: Game | None = None) -> ReceiveReport:
        """Verify one incoming file and import it into its game; nothing changes on error.

        ``loaded``: the game as a long-running caller (selfplay) already holds it, used when
        the file is for that game instead of loading it from its save again; after an
        error it must be dropped (the save on disk is what stays good).
        """
        env = load_envelope(data, source)
        if env.kind == "invite":
            raise UsageError(f"{source} is an invite: use 'pbem join {source}'")
        body = env.decode()
        game_id = body.get("game")
        if not isinstance(game_id, bytes):
            raise FormatError("file names no game", path=source)
        game = loaded if loaded is not None and loaded.game_id == game_id \
            else self.game_by_id(game_id)
        if game is None:
            raise ChainError(f"this file is for game {game_id.hex()[:12]}, which is not in "
                             f"{self.games_dir}", path=source, reason="other-game")
        try:
            report = game.receive(env, source, body)
            report.game = game
            return report
        except DuplicateFile as exc:
            raise DuplicateFile(str(exc), path=source, latest=exc.latest) from None
        except ChainError as exc:
            raise ChainError(str(exc), path=source, reason=exc.reason) from None
        except PbemError as exc:
            if exc.path is None:
                exc.path = source
                exc.args = (f"{source}: {exc.args[0]}",)
            raise

    def pin(self, card: Card, source: str) -> None:
        """Trust on first use: remember the correspondent's key; refuse a changed one.

        A card whose name is pinned with another key is refused (impersonation, or a
        correspondent who really changed keys: ``pbem id forget NAME`` after checking).
        """
        try:
            self.keys.pin_contact(card)
        except KeyStoreError as exc:
            raise SignatureError(f"{source}: {card.name} signs with a key other than the one "
                                 f"pinned for that name ({exc})") from None

    def keep_evidence(self, game: Game, seq: int, files: list[tuple[str, bytes]]) -> Path:
        """Keep signed proof of equivocation, within a bound (a hostile opponent may send
        many: the first ones prove the point, and the disk is not theirs to fill)."""
        folder = self.evidence_dir / game.name
        folder.mkdir(parents=True, exist_ok=True)
        kept = [p for p in folder.iterdir() if p.is_file()]
        count, size = len(kept), sum(p.stat().st_size for p in kept)
        for label, data in files:
            digest = sha256(data).hexdigest()[:12]
            path = folder / f"seq{seq:05d}-{label}-{digest}.pbem"
            if path.exists():
                continue
            if count >= MAX_EVIDENCE_FILES or size + len(data) > MAX_EVIDENCE_BYTES:
                raise ChainError(
                    f"two different files claim place {seq} in this game (equivocation); "
                    f"{folder} already holds {count} files of evidence, the most kept: "
                    "this one was not stored", reason="fork")
            write_atomic(path, data, 0o644)
            count, size = count + 1, size + len(data)
        return folder


class Game:
    """One saved game of this home: its save, transcript and sealed record on disk,
    holding the :class:`~pbem.match.Match` that plays it.

    Every change the match makes is written here: :meth:`act`, :meth:`undo`, :meth:`say`
    and the rest call the match, then seal what it says is due (recorded in the home's
    :class:`SealRecord`, saved, handed to the home's route) or save.  A trial that must
    never be written is the match alone (:attr:`match`), which no store holds.
    """

    def __init__(self, home: Home, path: Path, name: str, side: str, engine: Engine,
                 files: GameFiles | None, verifier: Verifier) -> None:
        """``files``: the game's transcript as its save holds it; None for a game made
        now, whose files :meth:`add_file` adds."""
        self.home = home
        self.path = path
        #: the turn logic: state, pending actions, dice; no file access
        self.match = Match(name, side, engine,
                           files if files is not None
                           else GameFiles.new(files_dir(path), verifier.game_id),
                           verifier, identity=home.identity, clock=home.clock,
                           keep_links=True)
        #: the save file's bytes as loaded or last written (None: a new game, no file yet),
        #: compared byte for byte with the file on disk: hashing them was three SHA-256 of
        #: the save a board click (CPython's own, about 70 us for 14 KB each, issue 35
        #: item 4)
        self._loaded: bytes | None = None
        #: the save's version: one more at every write, never lower than one seen before
        self.version = 0
        #: whether a write keeps what ``pbem status`` reads of the save in the data cache
        #: (:func:`_keep_summary`); a board leaves it to the next status, which reads the
        #: save once and keeps it then (:meth:`Home._read_summary`), rather than writing
        #: the cache's entry at every click (0.5 ms of each, issue 35 item 4)
        self.keep_summary = True
        #: whether whoever holds this game draws every position it saves, as a board
        #: redraws after each click: the save's summary then reads the view and the
        #: decision the redraw asks for (:meth:`Match.drawn`), made once for both
        self.draws = False
        #: where the home's rollback mark last moved for this game (:meth:`_undoable_key`
        #: of the save loaded or written then); None: not yet, the next write moves it
        self._marked: tuple[int, int] | None = None
        self._record: SealRecord | None = None
        #: the verified position's part of the save (``Verifier.to_data``) and its
        #: canonical bytes, as the last write encoded them: it changes only with the
        #: files, and a board's every click wrote it again (issue 35 item 4)
        self._cache_bytes: tuple[dict[str, Any], bytes] | None = None
        #: the save's folder and lock, once this game made or found them (a later write
        #: of the same game does not make them again, as a board's every click did)
        self._lock_path: Path | None = None

    # -- the match's facts, for the callers of a game ----------------------------------------

    @property
    def name(self) -> str:
        return self.match.name

    @property
    def side(self) -> str:
        return self.match.side

    @property
    def engine(self) -> Engine:
        return self.match.engine

    @property
    def files(self) -> GameFiles:
        files = self.match.files
        assert isinstance(files, GameFiles)  # a store's match holds its saved transcript
        return files

    @property
    def verifier(self) -> Verifier:
        return self.match.verifier

    @property
    def pending(self) -> list[list[Any]]:
        return self.match.pending

    @property
    def message(self) -> str:
        return self.match.message

    @property
    def draw_offer(self) -> bool:
        return self.match.draw_offer

    @property
    def orders_pending(self) -> orders.Orders | None:
        return self.match.orders_pending

    @property
    def times(self) -> dict[str, Any]:
        return self.match.times

    @property
    def state(self) -> State:
        """The position now, unsealed actions included (read only: use act/undo)."""
        return self.match.state

    @property
    def game_id(self) -> bytes:
        return self.match.game_id

    @property
    def opponent_side(self) -> str:
        return self.match.opponent_side

    @property
    def result(self) -> Result | None:
        return self.match.result

    @property
    def pending_records(self) -> list[history.Record]:
        return self.match.pending_records

    def decision(self) -> Decision | None:
        return self.match.decision()

    def opponent(self) -> Card | None:
        return self.match.opponent()

    def has_pen(self) -> bool:
        return self.match.has_pen()

    def my_decision(self) -> Decision | None:
        return self.match.my_decision()

    def awaiting(self, decision: Decision | None = None) -> str:
        return self.match.awaiting(decision)

    def decision_head(self) -> tuple[str, str] | None:
        return self.match.decision_head()

    def summary(self) -> dict[str, Any]:
        return self.match.summary()

    def status(self) -> dict[str, Any]:
        return self.match.status()

    def private_notes(self) -> list[str]:
        return self.match.private_notes()

    def view(self) -> BoardView:
        return self.match.view()

    def counters(self) -> Mapping[str, str]:
        return self.match.counters()

    def pending_actions(self) -> list[str]:
        return self.match.pending_actions()

    def orders_to_come(self) -> orders.Orders:
        return self.match.orders_to_come()

    def _commit_salt(self, label: str) -> bytes:
        return self.match._commit_salt(label)

    def add_file(self, data: bytes, direction: str) -> None:
        """File ``len(self.files)`` of the game, which came in or went out now."""
        self.match.add_file(data, direction)

    @property
    def record(self) -> SealRecord:
        # made once: its folder is the home's and the game's, and each save asks for it
        if self._record is None:
            self._record = SealRecord(self.home.path, self.game_id)
        return self._record

    # -- persistence ---------------------------------------------------------------------------

    @classmethod
    def load(cls, home: Home, path: Path, *,
             read: tuple[bytes, dict[str, Any]] | None = None) -> Game:
        """The game of a save; ``read``: what :func:`read_save` just gave for it (one
        read, one signature check and one decode of the save per command)."""
        data, body = read if read is not None else read_save(home, path)
        files = _saved_files(home, path, body)
        # committed to by the save just verified: read, not verified again
        invite = committed_envelope(files[0])
        sealed = SealRecord(home.path, invite.hash)
        version = body.get("version", 0)
        highest = sealed.highest()
        if type(version) is int and version < highest:
            # another pbem may have written a newer save since we read this one
            data, body = read_save(home, path)
            files = _saved_files(home, path, body)
            version = body.get("version", 0)
        if type(version) is not int or version < highest:
            raise ChainError(
                f"this save is version {quote(version)}, but this home has already seen "
                f"version {highest} of it: it was put back from a backup or brought from "
                "another machine, and may not know files already sent or received. Your "
                f"own sealed files are kept in {sealed.dir}: rebuild the game from all its "
                "files with 'pbem rebuild' (after moving this save away), or, to go on from "
                f"this copy anyway, delete {sealed.dir / 'version'}",
                path=str(path), reason="rollback")
        from pbem.transcript import Verifier

        engine = get_engine(body["engine"])
        try:
            verifier = Verifier.from_cache(engine, invite, body["cache"])
        except MismatchError as exc:
            raise MismatchError(str(exc), path=str(path)) from None
        game = cls(home, path, body["name"], body["side"], engine, files, verifier)
        game._loaded = data
        match = game.match
        match.message = body["message"]
        match.draw_offer = body["draw_offer"]
        pending_orders = body.get("orders_pending")
        match.orders_pending = dict(pending_orders) if pending_orders is not None else None
        match.times = saved_times(body)
        match.pending = []
        game.version = version
        sealed.see(version)  # a newer save brought in is the new mark (remember the highest)
        for record in history.read_all(body["pending"], f"{path}: pending record"):
            # our own signed save: its recorded rolls are replayed without the dice key,
            # so status and show need no passphrase
            match.replay(record, derive=False)
        # before a sealed file is taken back below: that changes the files, so the next
        # write moves the mark again
        game._marked = game._undoable_key()
        game._adopt_sealed(sealed)
        return game

    def current(self) -> bool:
        """The save on disk is still the one this game was loaded from or last wrote (no
        other pbem command saved it since): a long-lived reader may go on with it."""
        try:
            return self.path.read_bytes() == self._loaded
        except OSError:
            return False

    def _adopt_sealed(self, record: SealRecord) -> None:
        """Take into the game the files this home sealed after the save was written.

        A crash between recording a sealed file and writing the save, or a save put
        back from before the seal: the file is signed and may be with the opponent, so
        the game goes on from it (the unsealed actions it holds are dropped with it).
        """
        while (data := record.file(len(self.files))) is not None:
            try:
                accepted = self.verifier.add(open_envelope(data), self.files)
            except PbemError:
                return  # not the next file of this chain: sealing will name the conflict
            self.match.went_out(data, accepted.seq)

    def write(self) -> None:
        record = self.record
        version = max(self.version, record.highest()) + 1
        if self.draws:
            self.match.drawn()
        summary = self.summary()
        files = self.files
        body = {
            "format": SAVE_FORMAT,
            "version": version,
            "name": self.name,
            "side": self.side,
            "engine": self.engine.id,
            "game_id": self.game_id,
            # the transcript beside the save, committed to by its length, its first file
            # and its running hash (docs/protocol.md 3.4): no per-file data in the head
            "file_count": len(files),
            "invite_hash": files.invite,
            "transcript_hash": files.tip,
            "pending": self.pending,
            "message": self.message,
            "draw_offer": self.draw_offer,
            "orders_pending": self.orders_pending,
            "times": self.times,
            "summary": summary,
        }
        data = seal_body(self.home.identity(), "save", self._save_body(body))
        lock = self._lock_path
        if lock is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = self._lock_path = _lock_of(self.path)
        elif not lock.parent.is_dir():  # the folder gone since (moved away meanwhile)
            self.path.parent.mkdir(parents=True, exist_ok=True)
        with portable.lock_file(lock):
            # another pbem (a 'watch' importing mail, a second window) may have saved this
            # game since we loaded it: writing now would silently undo its work
            try:
                on_disk: bytes | None = self.path.read_bytes()
            except FileNotFoundError:
                on_disk = None
            if on_disk != self._loaded:
                raise ConcurrencyError(
                    f"{self.name} was changed by another pbem command while this one ran; "
                    "nothing was written: run the command again", path=str(self.path))
            # under the lock, after the check: the files and entries beyond the save on
            # disk are ours; written before the head that commits to them
            files.flush()
            write_atomic(self.path, data)
        self._loaded = data
        self.version = version
        if files.migrated_from is not None:
            announce(f"{self.name}: save format {files.migrated_from} rewritten as format "
                     f"{SAVE_FORMAT} (its transcript is now beside it in "
                     f"{files.folder.name}/; pbem versions before format 3 cannot read it)")
            files.migrated_from = None
        if self.keep_summary:
            # what 'pbem status' will read from these bytes, kept so it need not verify them
            _keep_summary(self.home, self.path, data, with_times(dict(summary), self.times))
        key = self._undoable_key()
        if key != self._marked:
            # after the save: a crash in between leaves the record behind, never ahead
            record.see(version)
            self._marked = key

    def prepare_writes(self) -> None:
        """Make now what every write of this game reuses (:meth:`write`): the verified
        position's encoded part, the rollback record, the save's lock and the opponent's
        fingerprint.  A board opens a game to save it at every click: made with the
        load, they are not the first click's (issue 35 item 4)."""
        cache = self.verifier.to_data()
        self._cache_bytes = (cache, canonical.encode(cache))
        self.record  # noqa: B018  # made once (a cached property)
        if self._loaded is not None:  # its folder exists: the save was read from it
            self._lock_path = _lock_of(self.path)
        opponent = self.opponent()
        if opponent is not None:
            opponent.fingerprint  # noqa: B018  # kept with the card

    def _save_body(self, body: dict[str, Any]) -> bytes:
        """The canonical bytes of the save's ``body`` with its ``kind`` and the verified
        position's part (``cache``), that part encoded once while it is the same: the
        first key of the map (every other sorts after it), written before the others'
        entries as :func:`canonical.encode` writes them (the same bytes)."""
        cache = self.verifier.to_data()
        kept = self._cache_bytes
        if kept is None or kept[0] != cache:
            kept = self._cache_bytes = (cache, canonical.encode(cache))
        rest = {**body, "kind": "save"}
        assert min(rest) > "cache"  # the map's keys in their canonical (UTF-8) order
        packed = canonical.encode(rest)
        return (canonical.map_header(len(rest) + 1) + canonical.pack_normal("cache")
                + kept[1] + packed[len(canonical.map_header(len(rest))):])

    def _undoable_key(self) -> tuple[int, int]:
        """What a save must keep for the home's rollback mark to stay where it is: the
        game's files and the rolls of the file being written.

        The mark (:class:`~pbem.gamefiles.SealRecord`, docs/protocol.md 3.4) refuses a
        save put back from before it.  It moves when a save passes a point
        :meth:`undo` cannot take back (a file sealed or imported, a die rolled: undo
        never takes back a roll, and a file once sealed is undone by nothing); between
        two such points the saves differ by actions undo takes back one by one, so a
        save put back from among them gives nothing undo would not, and the mark is not
        written again.  A board click that rolls nothing writes the save alone, not the
        mark's two fsyncs beside it (issue 35 item 4: 0.6-1.1 ms of a click's CPU)."""
        return len(self.files), sum(1 for record in self.pending if record[0] == "r")

    # -- the files this side wrote -----------------------------------------------------------

    def sealed_files(self) -> list[tuple[int, bytes]]:
        """Every file this side wrote, by sequence number (invite or accept included)."""
        me = self.home.card().key
        # the signer field of a stored (already verified) envelope; no need to verify again
        return [(seq, data) for seq, data in enumerate(self.files)
                if canonical.decode(data)[3] == me]

    def _latest_sealed(self) -> tuple[int, bytes] | None:
        """The last file this side wrote, read from the end (the files before it are not
        read at all)."""
        me = self.home.card().key
        for seq in range(len(self.files) - 1, -1, -1):
            if canonical.decode(self.files[seq])[3] == me:
                return seq, self.files[seq]
        return None

    def file(self, seq: int | None = None) -> tuple[int, bytes]:
        """The latest file this side sealed, or file ``seq`` (any file, byte for byte)."""
        if seq is None:
            latest = self._latest_sealed()
            if latest is None:
                raise NotYourTurn(f"{self.name}: nothing sealed to send yet")
            return latest
        if seq >= len(self.files) and (kept := self.record.file(seq)) is not None:
            return seq, kept  # sealed by this home, not in this (older) save
        if not 0 <= seq < len(self.files):
            raise UsageError(f"{self.name} has files 0..{len(self.files) - 1}, not {seq}")
        return seq, self.files[seq]

    # -- the turn loop, stored -----------------------------------------------------------------

    def _stored(self, step: Step, save: bool = True) -> tuple[list[Event], list[RollRecord],
                                                              int | None]:
        """A step of the match kept: the file sealed if it is due, else saved (``save``)."""
        events, rolls, end = step
        if end is not None:
            return events, rolls, self._seal(end)
        if save:
            self.write()
        return events, rolls, None

    def advance(self) -> tuple[list[Event], list[RollRecord], int | None]:
        """Resolve due rolls, then seal if the next decision is the opponent's."""
        return self._stored(self.match.advance())

    def act(self, text: str, *, save: bool = True) -> tuple[list[Event], list[RollRecord],
                                                            int | None]:
        """Apply one action of ours, resolve its rolls, seal if the opponent decides next.

        ``save=False`` leaves the save file to the seal (bots acting many times a file).
        """
        return self._stored(self.match.act(text), save)

    def undo(self) -> str:
        """Take back our last action, unless a die was rolled after it or the file is sealed."""
        text = self.match.undo()
        self.write()
        return text

    def say(self, text: str) -> None:
        self.match.say(text)
        self.write()

    def set_orders(self, new: orders.Orders) -> None:
        """Standing orders to publish with our next file (they hold from its end on)."""
        self.match.set_orders(new)
        self.write()

    def resign(self) -> int:
        return self._seal(self.match.resign())

    def draw(self) -> tuple[str, int | None]:
        """Accept the opponent's standing offer, or offer a draw with our next file."""
        end = self.match.draw()
        if end is not None:
            return "accepted", self._seal(end)
        self.write()
        return "offered", None

    def _seal(self, end: str) -> int:
        seq, data = self.match.seal_file(end)
        record = self.record
        record.check(seq, data, self.name)
        self.match.sent(data)
        # recorded before the save: whatever happens to the save, the place is taken
        record.add(seq, data)
        self.write()
        if self.home.after_seal is not None:
            self.home.after_seal(self, seq)
        return seq

    def _behind_note(self) -> str:
        """What to say when the next missing file is this side's own (issue 23 item 2)."""
        return (f"file {self.verifier.seq + 1} is your own file, and this home does not "
                f"have it: this home is behind (put back from a backup, or the game was "
                f"played on from another computer). Put all the game's files in one folder "
                f"and run 'pbem rebuild FOLDER/{short_id(self.game_id)}-*.pbem' (after "
                f"moving {self.path} away), or import your own files in order with "
                f"'pbem receive'")


    def _catch_up(self, env: Envelope, source: str) -> ReceiveReport:
        """One of this side's own files: already held (a duplicate), two versions of one
        place (this home sealed twice), or the next file, which a home behind its own
        files (restored from a backup, played from another computer) takes back: it is
        signed by this home's own key, so it is ours to adopt."""
        claimed = env.decode().get("seq")
        seq = claimed if type(claimed) is int else -1
        if 0 <= seq < len(self.files):
            if self.files[seq] == env.raw:
                raise DuplicateFile(f"{source} is your own file {seq} of {self.name}, "
                                    f"already in the game: nothing to import")
            raise ChainError(
                f"two versions of your own file {seq} of {self.name}: this home holds one, "
                f"{source} is another, both signed by your key. The same game was played "
                f"on from two computers (or from a home put back from a backup). Keep the "
                f"version your opponent's next file follows: put all the game's files in "
                f"one folder and run 'pbem rebuild' on them (it picks that chain and names "
                f"the files it sets aside)", reason="own-fork")
        if seq > len(self.files):
            raise ChainError(f"your own file {seq} is ahead of this home, which has files "
                             f"0..{len(self.files) - 1}: {self._behind_note()}",
                             reason="missing")
        dropped = len(self.pending_actions())
        # not transactional: on any error this Game is dropped and the save is untouched
        accepted = self.verifier.add(env, self.files, transactional=False)
        # ours, signed: the place is taken (a different seal there is refused from now on)
        self.record.add(accepted.seq, env.raw)
        self.match.went_out(env.raw, accepted.seq)
        self.write()
        text = (f"{self.name}: caught up with your own file {accepted.seq} (this home was "
                f"behind it: put back from a backup, or played from another computer)")
        if dropped:
            text += f"; {dropped} unsealed actions of this home were dropped: the file holds " \
                    f"what was really sent"
        return ReceiveReport(self.name, accepted.seq, accepted.kind, accepted.side, text,
                             result=self.result)

    def receive(self, env: Envelope, source: str,
                body: dict[str, Any] | None = None) -> ReceiveReport:
        """Import the opponent's file ``env`` (``body``: its decoded body, if the caller
        has it: read, never changed)."""
        if env.key == self.home.card().key:
            return self._catch_up(env, source)
        try:
            # on any error this Game is dropped, the save is untouched, and the next
            # import loads the game afresh from its save
            accepted = self.match.check_in(env, body)
        except ChainError as exc:
            if exc.reason == "fork":
                claimed = env.decode().get("seq")
                seq = claimed if isinstance(claimed, int) else -1
                ours = [("kept", self.files[seq])] if 0 <= seq < len(self.files) else []
                folder = self.home.keep_evidence(self, seq, [*ours, ("incoming", env.raw)])
                raise ChainError(f"{exc} (in {folder})", reason="fork") from None
            if exc.reason == "missing" and self.match.next_is_ours():
                # never "ask the opponent to send file N" for a file only we can have
                claimed = env.decode().get("seq")
                raise ChainError(f"file {claimed} arrived, but {self._behind_note()}",
                                 reason="missing") from None
            raise

        if accepted.kind == "accept":
            self.home.pin(self.verifier.cards[accepted.side], source)
        self.match.took(env.raw)
        # a save put back from a backup: the file we sealed after this one is taken
        # again instead of being written anew (two files for one place)
        self._adopt_sealed(self.record)
        # the rolls due right after the file are ours to make: what they gave (the
        # weather of the turn the accept opens, White Death 4.0) is told with them
        more, rolls, sealed = self.advance()
        events = [e for e in accepted.events + more if e.visible(self.side)]
        return ReceiveReport(self.name, accepted.seq, accepted.kind, accepted.side,
                             self.match.told_in(accepted), events, accepted.rolls + rolls,
                             accepted.message, self.result, sealed)


def _saved_files(home: Home, path: Path, body: dict[str, Any]) -> GameFiles:
    """The transcript a save commits to (format 3), or the files it names beside it
    (format 2) or holds (format 1), to be written as format 3 at the next save."""
    if body.get("format") == 3:
        return GameFiles.from_head(path, body)
    if "files" in body:
        files = [bytes(f) for f in body["files"]]
        return GameFiles.from_list(path, body, [sha256(f).digest() for f in files],
                                   dict(enumerate(files)), 1, home.card().key)
    hashes = body.get("file_hashes")
    if body.get("format") != 2 or type(hashes) is not list or not hashes \
            or not all(type(h) is bytes and len(h) == 32 for h in hashes):
        raise FormatError("save file is damaged: it names no files of its game", path=str(path))
    return GameFiles.from_list(path, body, list(hashes), {}, 2, home.card().key)


def __getattr__(name: str) -> Any:
    """``rebuild`` and ``one_chain`` moved to :mod:`pbem.rebuild` (which imports this
    module, so they are found here only when asked for)."""
    if name in ("rebuild", "one_chain"):
        from pbem import rebuild

        return getattr(rebuild, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
