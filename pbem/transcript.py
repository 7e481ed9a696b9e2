"""Verifying a game's files in order and replaying them: one code path for everything.

The receiver importing a file, the sender sealing its own file (checked before it is
stored), ``pbem audit`` on a folder of exchanged files and ``pbem rebuild`` all run the
same :class:`Verifier`.  It holds what the chain has fixed so far (the pinned keys of both
sides, the highest sequence, the hash of the last body, each side's dice chain position)
and the engine state after the last accepted file.

:meth:`Verifier.add` either accepts a file whole or raises and changes nothing: it works
on a copy and commits the copy only at the end.

Body fields by kind (all maps, canonical msgpack; docs/protocol.md is the reference):

invite  kind, engine, rules_version, scenario, scenario_digest, scenario_files, options,
        sides, creator_side, creator (card), dice_mode, chain_length, anchor, nonce,
        initial_digest, software
accept  kind, game, seq=1, prev, side, joiner (card), anchor, rules_version,
        scenario_digest, initial_digest, software
turn    kind, game, seq>=2, prev, side, generation, link_index, reveal, records, digest,
        to_act, message, clock, draw, end, result, next_anchor
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Protocol

from pbem import canonical, dice, history
from pbem.engine import CHANCE, ChanceRequest, Engine, Event, Result, State
from pbem.envelope import Envelope, binary_form, open_envelope, signed_identity
from pbem.errors import (
    ChainError,
    DesyncError,
    DiceError,
    DuplicateFile,
    FormatError,
    MismatchError,
    PbemError,
    SignatureError,
    quote,
)
from pbem.history import Frozen, Mutable
from pbem.identity import Card

if TYPE_CHECKING:
    from pbem import orders

    # for mypy only: a Protocol class costs ~0.15 M instructions to make (issue 35)
    class Known(Protocol):
        """The files a game already holds, by place: a dict, or the session's files beside
        its save (read only for the place asked about)."""

        def get(self, seq: int, /) -> bytes | None: ...

    class Watch(Protocol):
        """Told of each record of a turn file as :meth:`Verifier.add` replays it: a replay
        page cuts its frames from the verifier's own replay (:class:`pbem.render.narrate.
        FrameCutter`) instead of replaying every file a second time on a copy."""

        def action(self, state: State, text: str, ordered_by: str | None) -> None:
            """Action ``text`` is about to be applied to ``state``; ``ordered_by``: the side
            whose standing order plays it (None: the sender's own action)."""

        def acted(self, events: list[Event]) -> None:
            """What the action just applied told."""

        def rolled(self, state: State, request: ChanceRequest, outcome: tuple[Any, ...],
                   index: int, told: list[Event]) -> None:
            """Roll ``index`` of the file came out ``outcome`` (asked as ``request``, before
            it) and told ``told``; ``state`` is the position after it."""


DICE_MODES = ("open", "sealed")
#: the game format this version writes (the invite's ``format`` field): 2 puts each
#: roll's request in its record, so the files alone check every outcome; 1 (no field,
#: games from before) is still read, its rolls checked through the engine only
FORMAT = 2
FORMATS = (1, 2)
#: the sealed-dice rules this version writes for a sealed game (the invite's ``sealed``
#: field, docs/protocol.md 6.2.1): 2 takes a decision with one legal option that a roll's
#: result leads to, so no file stops for a non-choice; 1 (no field: every sealed game
#: before it, and every open game) replays as it always did
SEALED_RULES = 2
SEALED_RULES_READ = (1, 2)
MAX_RECORDS = 100_000
MAX_MESSAGE = 4000


# --- field checks ----------------------------------------------------------------------------


def _need(body: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in body:
        raise FormatError(f"{what} lacks the field {key!r}")
    value = body[key]
    # exact types (docs/protocol.md section 3): an integer is never a boolean, a boolean
    # never an integer, although Python compares True == 1
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if type(value) not in kinds:
        raise FormatError(f"{what} field {key!r} has the wrong type "
                          f"({type(value).__name__}, not {' or '.join(k.__name__ for k in kinds)})")
    return value


def _need_hash(body: dict[str, Any], key: str, what: str) -> bytes:
    value: bytes = _need(body, key, bytes, what)
    if len(value) != 32:
        raise FormatError(f"{what} field {key!r} is not 32 bytes")
    return value


def check_fields(body: dict[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(body) - allowed)
    if extra:
        raise FormatError(f"{what} has unknown fields: {', '.join(extra)}")


INVITE_FIELDS = {"kind", "engine", "rules_version", "scenario", "scenario_digest",
                 "scenario_files", "options", "sides", "creator_side", "creator", "dice_mode",
                 "chain_length", "anchor", "nonce", "initial_digest", "software", "format",
                 "pace", "reminders", "sealed"}
ACCEPT_FIELDS = {"kind", "game", "seq", "prev", "side", "joiner", "anchor", "rules_version",
                 "scenario_digest", "initial_digest", "software"}
TURN_FIELDS = {"kind", "game", "seq", "prev", "side", "generation", "link_index", "reveal",
               "records", "digest", "to_act", "message", "clock", "draw", "end", "result",
               "next_anchor", "orders"}


# --- what the verifier keeps ------------------------------------------------------------


# the records below are pbem.history's records, not dataclasses: a receive makes their
# classes, about 0.2 M instructions each as dataclasses (issue 35)


class ChainPos(Mutable):
    """Where one side's dice chain stands."""

    __slots__ = __match_args__ = ("generation", "index", "prev", "latest")
    generation: int
    index: int
    #: the value the next link must hash to (the anchor, or the last revealed link)
    prev: bytes
    #: the latest value this side has revealed (its anchor until its first reveal)
    latest: bytes

    def __init__(self, generation: int = 0, index: int = 0, prev: bytes = b"",
                 latest: bytes = b"") -> None:
        self.generation = generation
        self.index = index
        self.prev = prev
        self.latest = latest

    def to_data(self) -> list[Any]:
        return [self.generation, self.index, self.prev, self.latest]

    @staticmethod
    def from_data(data: list[Any]) -> ChainPos:
        return ChainPos(int(data[0]), int(data[1]), bytes(data[2]), bytes(data[3]))


class RollRecord(Frozen):
    """One roll as the audit shows it."""

    __match_args__ = ("seq", "index", "side", "purpose", "rule", "request", "outcome",
                      "seed", "after_action", "roll", "actor_link", "opponent_link", "asked",
                      "recorded", "told")
    seq: int
    index: int
    side: str
    purpose: str
    rule: str
    request: str
    outcome: tuple[Any, ...]
    seed: bytes
    after_action: str
    roll: dice.Roll | None
    #: the two links the seed mixes: the actor's, revealed in this file, and the opponent's
    actor_link: bytes
    opponent_link: bytes
    #: the request as :func:`pbem.dice.request_data` gives it; ``recorded`` says whether
    #: the file signs it (format 2) or only the engine knows it (format 1)
    asked: dict[str, Any]
    recorded: bool
    #: the events of kind ``roll`` its outcome gave: the engine telling the roll in its
    #: own words, which ``receive`` and ``act`` then name instead of telling it twice
    told: tuple[Event, ...]

    def __init__(self, seq: int, index: int, side: str, purpose: str, rule: str, request: str,
                 outcome: tuple[Any, ...], seed: bytes, after_action: str,
                 roll: dice.Roll | None = None, actor_link: bytes = b"",
                 opponent_link: bytes = b"", asked: dict[str, Any] | None = None,
                 recorded: bool = False, told: tuple[Event, ...] = ()) -> None:
        set_field = object.__setattr__
        set_field(self, "seq", seq)
        set_field(self, "index", index)
        set_field(self, "side", side)
        set_field(self, "purpose", purpose)
        set_field(self, "rule", rule)
        set_field(self, "request", request)
        set_field(self, "outcome", outcome)
        set_field(self, "seed", seed)
        set_field(self, "after_action", after_action)
        set_field(self, "roll", roll)
        set_field(self, "actor_link", actor_link)
        set_field(self, "opponent_link", opponent_link)
        # a fresh dict a record, as the dataclass's default factory gave
        set_field(self, "asked", {} if asked is None else asked)
        set_field(self, "recorded", recorded)
        set_field(self, "told", told)

    @property
    def name(self) -> str:
        return dice.roll_name(self.seq, self.index)


class Accepted(Mutable):
    """What one accepted file did: for narration, status and the audit table."""

    __slots__ = __match_args__ = ("seq", "kind", "side", "hash", "events", "actions", "rolls",
                                  "message", "draw", "end", "clock", "acted", "ordered",
                                  "orders")
    seq: int
    kind: str
    side: str
    hash: bytes
    events: list[Event]
    actions: list[str]
    rolls: list[RollRecord]
    message: str
    draw: str
    end: str
    clock: int
    #: whether the file played any action (sealed dice: its rolls all come before)
    acted: bool
    #: the actions among ``actions`` played by the receiver's own standing orders
    ordered: list[str]
    #: the sender's standing orders, when this file changes them
    orders: dict[str, str] | None

    def __init__(self, seq: int, kind: str, side: str, hash: bytes,
                 events: list[Event] | None = None, actions: list[str] | None = None,
                 rolls: list[RollRecord] | None = None, message: str = "", draw: str = "",
                 end: str = "", clock: int = 0, acted: bool = False,
                 ordered: list[str] | None = None,
                 orders: dict[str, str] | None = None) -> None:
        self.seq = seq
        self.kind = kind
        self.side = side
        self.hash = hash
        # a fresh list each, as the dataclass's default factories gave
        self.events = [] if events is None else events
        self.actions = [] if actions is None else actions
        self.rolls = [] if rolls is None else rolls
        self.message = message
        self.draw = draw
        self.end = end
        self.clock = clock
        self.acted = acted
        self.ordered = [] if ordered is None else ordered
        self.orders = orders


class Setup(Mutable):
    """The invite's promises, checked against what is installed here."""

    __slots__ = __match_args__ = (
        "game_id", "engine_id", "rules_version", "scenario", "scenario_digest",
        "scenario_files", "options", "sides", "creator_side", "creator", "dice_mode",
        "chain_length", "nonce", "anchor", "initial_digest", "format", "pace", "reminders",
        "sealed_rules")
    game_id: bytes
    engine_id: str
    rules_version: str
    scenario: str
    scenario_digest: bytes
    scenario_files: dict[str, bytes]
    options: dict[str, str]
    sides: tuple[str, str]
    creator_side: str
    creator: Card
    dice_mode: str
    chain_length: int
    nonce: bytes
    anchor: bytes
    initial_digest: bytes
    #: the game format (docs/protocol.md 3.1): 1 when the invite has no ``format`` field
    format: int
    #: the agreed pace, seconds a side may take over a file (None: the invite agrees none)
    pace: int | None
    #: ``"watch"``: pbem watch reminds a late side by itself; ``""``: only ``pbem nudge``
    reminders: str
    #: the sealed-dice rules (docs/protocol.md 6.2.1): 1 when the invite has no ``sealed``
    sealed_rules: int

    def __init__(self, game_id: bytes, engine_id: str, rules_version: str, scenario: str,
                 scenario_digest: bytes, scenario_files: dict[str, bytes],
                 options: dict[str, str], sides: tuple[str, str], creator_side: str,
                 creator: Card, dice_mode: str, chain_length: int, nonce: bytes,
                 anchor: bytes, initial_digest: bytes, format: int = 1,
                 pace: int | None = None, reminders: str = "", sealed_rules: int = 1) -> None:
        self.game_id = game_id
        self.engine_id = engine_id
        self.rules_version = rules_version
        self.scenario = scenario
        self.scenario_digest = scenario_digest
        self.scenario_files = scenario_files
        self.options = options
        self.sides = sides
        self.creator_side = creator_side
        self.creator = creator
        self.dice_mode = dice_mode
        self.chain_length = chain_length
        self.nonce = nonce
        self.anchor = anchor
        self.initial_digest = initial_digest
        self.format = format
        self.pace = pace
        self.reminders = reminders
        self.sealed_rules = sealed_rules

    @property
    def joiner_side(self) -> str:
        return self.sides[1] if self.creator_side == self.sides[0] else self.sides[0]

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]


def parse_invite(env: Envelope, body: dict[str, Any] | None = None) -> Setup:
    """The game an invite sets up; ``body``: ``env.decode()``, when the caller has it."""
    if env.kind != "invite":
        raise FormatError(f"expected an invite, got a {env.kind} file")
    if body is None:
        body = env.decode()
    what = "invite"
    check_fields(body, INVITE_FIELDS, what)
    sides = _need(body, "sides", list, what)
    if len(sides) != 2 or not all(isinstance(s, str) and s for s in sides) or sides[0] == sides[1]:
        raise FormatError("invite must name two different sides")
    creator = Card.from_data(_need(body, "creator", dict, what))
    if creator.key != env.key:
        raise SignatureError("invite is not signed by the creator it names")
    creator_side = _need(body, "creator_side", str, what)
    if creator_side not in sides:
        raise FormatError(f"creator side {quote(creator_side)} is not one of the sides")
    mode = _need(body, "dice_mode", str, what)
    if mode not in DICE_MODES:
        raise FormatError(f"dice mode {quote(mode)} is not supported by this version")
    length = _need(body, "chain_length", int, what)
    if not 2 <= length <= dice.MAX_CHAIN_LENGTH:
        raise FormatError(f"chain length {length} is out of range")
    options = _need(body, "options", dict, what)
    files = _need(body, "scenario_files", dict, what)
    if not all(isinstance(v, str) for v in options.values()):
        raise FormatError("invite options must be strings")
    if not all(isinstance(v, bytes) for v in files.values()):
        raise FormatError("invite scenario_files must map names to hashes")
    nonce = _need_hash(body, "nonce", what)
    game_format = 1
    if "format" in body:
        # one form per format: 1 is written by leaving the field out
        game_format = _need(body, "format", int, what)
        if game_format not in FORMATS or game_format == 1:
            raise FormatError(f"game format {game_format} is not supported by this version "
                              f"(it reads {FORMAT}, and 1 written without the field)")
    pace, reminders = _pace(body, what)
    return Setup(
        game_id=env.hash,
        engine_id=_need(body, "engine", str, what),
        rules_version=_need(body, "rules_version", str, what),
        scenario=_need(body, "scenario", str, what),
        scenario_digest=_need_hash(body, "scenario_digest", what),
        scenario_files=dict(files),
        options=dict(options),
        sides=(sides[0], sides[1]),
        creator_side=creator_side,
        creator=creator,
        dice_mode=mode,
        chain_length=length,
        nonce=nonce,
        anchor=_need_hash(body, "anchor", what),
        initial_digest=_need_hash(body, "initial_digest", what),
        format=game_format,
        pace=pace,
        reminders=reminders,
        sealed_rules=_sealed_rules(body, mode, what),
    )


def _pace(body: dict[str, Any], what: str) -> tuple[int | None, str]:
    """The optional ``pace`` and ``reminders`` (protocol.md 3.1): one form each, absent
    when not agreed, so every invite written before them is read as before."""
    if "pace" not in body and "reminders" not in body:
        return None, ""  # a game without a pace does not load its module (issue 35)
    from pbem.pace import MAX_PACE, MIN_PACE, REMINDERS

    pace: int | None = None
    if "pace" in body:
        pace = _need(body, "pace", int, what)
        if not MIN_PACE <= pace <= MAX_PACE:
            raise FormatError(f"invite pace {pace} is out of range ({MIN_PACE}..{MAX_PACE} "
                              f"seconds)")
    reminders = ""
    if "reminders" in body:
        reminders = _need(body, "reminders", str, what)
        if reminders != REMINDERS:
            raise FormatError(f"invite reminders {quote(reminders)} is not supported by this "
                              f"version (only {REMINDERS!r}, or the field left out)")
        if pace is None:
            raise FormatError("invite has reminders but no pace to remind by")
    return pace, reminders


def _sealed_rules(body: dict[str, Any], mode: str, what: str) -> int:
    """The invite's ``sealed`` field (docs/protocol.md 6.2.1): only in a sealed game, and
    one form per rules, as for ``format``: 1 is written by leaving the field out."""
    if "sealed" not in body:
        return 1
    rules: int = _need(body, "sealed", int, what)
    if mode != "sealed":
        raise FormatError(f"{what}: sealed-dice rules {rules} in a game whose dice are "
                          f"{quote(mode)} (the field belongs to sealed games only)")
    if rules not in SEALED_RULES_READ or rules == 1:
        raise FormatError(f"{what}: sealed-dice rules {rules} are not supported by this "
                          f"version (it reads {SEALED_RULES}, and 1 written without the field)")
    return rules


def check_installed(setup: Setup, engine: Engine) -> None:
    """Refuse a game whose engine or data differ from what is installed, saying exactly how."""
    problems: list[str] = []
    if engine.rules_version != setup.rules_version:
        problems.append(f"the game needs {setup.engine_id} rules_version {setup.rules_version}, "
                        f"installed is {engine.rules_version}")
    try:
        installed = engine.scenario_files(setup.scenario)
    except MismatchError as exc:
        raise MismatchError(str(exc)) from None
    if list(engine.sides) != list(setup.sides):
        problems.append(f"sides differ: game {setup.sides}, installed {engine.sides}")
    for name in sorted(set(installed) | set(setup.scenario_files)):
        mine, theirs = installed.get(name), setup.scenario_files.get(name)
        if mine is None:
            problems.append(f"scenario file {name} is missing here")
        elif theirs is None:
            problems.append(f"scenario file {name} is here but not in the game")
        elif mine != theirs:
            problems.append(f"scenario file {name} differs (game {theirs.hex()[:12]}, "
                            f"here {mine.hex()[:12]})")
    if not problems and engine.scenario_digest(setup.scenario) != setup.scenario_digest:
        problems.append("scenario digest differs")
    if problems:
        raise MismatchError("; ".join(problems))


class Verifier:
    """A game's verified chain and replayed state; :meth:`add` takes the next file."""

    #: the state a save restored, its history's length then, and the save's bytes of it
    _loaded_snapshot: tuple[State, int, bytes] | None = None

    def __init__(self, engine: Engine, invite: Envelope, *, keep_rolls: bool = False,
                 setup: Setup | None = None) -> None:
        self.engine = engine
        # ``setup``: parse_invite(invite), when the caller parsed it already (the audit)
        self.setup = setup if setup is not None else parse_invite(invite)
        if self.setup.engine_id != engine.id:
            raise MismatchError(f"the game is for engine {self.setup.engine_id}, not {engine.id}")
        check_installed(self.setup, engine)
        self.state: State = engine.new_state(self.setup.scenario, self.setup.options)
        # sealed dice let batched rolls wait (pbem.steps); the mode is the signed invite's
        self.state.sealed_dice = self.sealed
        self.state.sealed_rules = self.setup.sealed_rules
        if self.state.digest() != self.setup.initial_digest:
            raise MismatchError("the initial position here differs from the invite's "
                                "(same versions, different engine behaviour)")
        self.keys: dict[str, bytes] = {self.setup.creator_side: self.setup.creator.key}
        self.cards: dict[str, Card] = {self.setup.creator_side: self.setup.creator}
        self.chains: dict[str, ChainPos] = {
            self.setup.creator_side: ChainPos(0, 0, self.setup.anchor, self.setup.anchor)}
        self.seq = 0
        #: who sent the latest file (in sealed mode, a file that ends at a chance node
        #: hands the pen to the other side, who finalizes its rolls)
        self.last_side = ""
        self.last_hash = invite.hash
        self.result: Result | None = None
        self.draw_offered_by = ""
        self.keep_rolls = keep_rolls
        self.rolls: list[RollRecord] = []
        #: each side's standing orders in force (pbem.orders), from its latest file
        self.orders: dict[str, orders.Orders] = {}

    # -- cache for the save file -----------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            # the encoding the digest hashes, as bytes: no second encoding to save
            "snapshot": self._snapshot_bytes(),
            "keys": dict(self.keys),
            "cards": {s: c.to_data() for s, c in self.cards.items()},
            "chains": {s: c.to_data() for s, c in self.chains.items()},
            "seq": self.seq,
            "last_side": self.last_side,
            # the latest file's body hash, which the next file's ``prev`` must name (save
            # format 2 kept every file's here: O(N) bytes per save, issue 19)
            "last_hash": self.last_hash,
            "result": self.result.to_data() if self.result else None,
            "draw_offered_by": self.draw_offered_by,
            "orders": {side: dict(o) for side, o in sorted(self.orders.items())},
        }

    def _snapshot_bytes(self) -> bytes:
        """The position's encoding for the save: the bytes the save was loaded with while
        the position is the one they restored (the same state, nothing applied to it
        since), else its encoding.  A board's first click after a load, and each 'pbem
        act', saved the verified position it had not changed by encoding it again: 0.3-0.5
        ms of CPU a save (issue 35 item 4)."""
        kept = self._loaded_snapshot
        if kept is not None and kept[0] is self.state and kept[1] == len(self.state.history):
            return kept[2]
        self._loaded_snapshot = None
        return self.state.encoded()

    @classmethod
    def from_cache(cls, engine: Engine, invite: Envelope, data: dict[str, Any]) -> Verifier:
        self = cls.__new__(cls)
        self.engine = engine
        self.setup = parse_invite(invite)
        check_installed(self.setup, engine)
        snapshot = data["snapshot"]
        # bytes (the canonical encoding); a map in saves written before that change.  The
        # bytes are the save's, signed by this home's own key and verified where it was
        # read (as its files are, pbem.envelope.committed_envelope): this code's encoder
        # wrote them, so they are read without proving them canonical again
        self.state = engine.restore(canonical.decode_signed(snapshot)
                                    if isinstance(snapshot, bytes) else snapshot)
        self.state.sealed_dice = self.setup.dice_mode == "sealed"
        self.state.sealed_rules = self.setup.sealed_rules
        if isinstance(snapshot, bytes):
            # the save is this home's own, signed: its bytes are the position's encoding
            # until something is applied to it (to_data writes them back unchanged)
            self._loaded_snapshot = (self.state, len(self.state.history), snapshot)
        self.keys = dict(data["keys"])
        self.cards = {s: Card.from_data(c) for s, c in data["cards"].items()}
        self.chains = {s: ChainPos.from_data(c) for s, c in data["chains"].items()}
        self.seq = int(data["seq"])
        self.last_side = str(data.get("last_side", ""))
        # a format 1 or 2 save's cache lists every body hash; the last is the one needed
        self.last_hash = bytes(data["last_hash"] if "last_hash" in data
                               else data["hashes"][-1])
        self.result = Result.from_data(data["result"]) if data["result"] else None
        self.draw_offered_by = str(data["draw_offered_by"])
        self.orders = {str(k): dict(v) for k, v in data.get("orders", {}).items()}
        self.keep_rolls = False
        self.rolls = []
        return self

    # -- helpers ---------------------------------------------------------------------------------

    @property
    def game_id(self) -> bytes:
        return self.setup.game_id

    def expected_sender(self) -> str:
        """Whose file comes next: the joiner's accept, the creator's first turn, then by state."""
        if self.seq == 0:
            return self.setup.joiner_side
        if self.seq == 1:
            return self.setup.creator_side
        player = self.state.current_player()
        if player == CHANCE and self.sealed and self.last_side:
            # the rolls the last file asked for: the other side finalizes them
            return self.setup.other(self.last_side)
        if player is None or player == CHANCE:
            raise ChainError("the game is over: no file may follow", reason="over")
        return player

    @property
    def sealed(self) -> bool:
        return self.setup.dice_mode == "sealed"

    def seed_for(self, seq: int, side: str, link: bytes) -> bytes:
        """The seed of file ``seq``'s rolls, whose sender reveals ``link`` (this verifier
        holds the game up to file ``seq - 1``)."""
        if self.sealed:
            return dice.sealed_seed(self.game_id, seq - 1, self.last_hash, link)
        return dice.open_seed(self.game_id, seq, link, self.chains[self.setup.other(side)].latest)

    def classify(self, env: Envelope, body: dict[str, Any], known: Known) -> None:
        """Raise the precise chain error for a file that is not the next one."""
        game = body.get("game")
        seq = body.get("seq")
        if game != self.game_id:
            raise ChainError(
                f"this file belongs to another game "
                f"({game.hex()[:16] if isinstance(game, bytes) else '?'}, "
                f"not {self.game_id.hex()[:16]})", reason="other-game")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise FormatError("sequence number is missing or not a positive integer")
        if seq > self.seq + 1:
            raise ChainError(
                f"file {seq} arrived but file {self.seq + 1} is missing: ask the opponent to "
                f"send it again (pbem send GAME --seq {self.seq + 1})", reason="missing")
        if seq <= self.seq:
            stored = known.get(seq)
            # the same file is what its signer signed, not the same bytes: a copy that
            # differs only outside the signature is no second file (issue 20 item 1)
            if stored is not None and signed_identity(stored) == env.identity:
                if seq == self.seq:
                    raise DuplicateFile(f"file {seq} was already imported: nothing changed",
                                        latest=True)
                raise DuplicateFile(
                    f"file {seq} is older than the latest file {self.seq} (a rollback): "
                    "it was already imported, nothing changed")
            # only the key that signed place ``seq`` can equivocate about it: a file signed
            # by anyone else proves nothing against anyone and is refused, not kept
            # (issue 20 item 2)
            self._check_pinned(env, body, seq)
            if stored is not None and signed_identity(stored)[1] != env.key:
                raise ChainError(f"file {seq} is signed by the {quote(body.get('side'))} "
                                 f"side, but place {seq} is the other side's",
                                 reason="out-of-turn")
            raise ChainError(
                f"two different files claim place {seq} in this game (equivocation): "
                "both kept as evidence", reason="fork")

    def _check_pinned(self, env: Envelope, body: dict[str, Any], seq: int) -> None:
        """Refuse a file not signed by the key pinned for the side it names."""
        side = body.get("side")
        if type(side) is not str or env.key != self.keys.get(side):
            raise SignatureError(
                f"file {seq} is signed by a key that is not the one pinned for the "
                f"{quote(side)} side: refused (not kept as evidence: only a player's own "
                "key can equivocate)")

    # -- the checks and the replay -----------------------------------------------------------

    def add(self, env: Envelope, known: Known | None = None, *,
            transactional: bool = True, body: dict[str, Any] | None = None,
            watch: Watch | None = None) -> Accepted:
        """Check ``env`` is the next file of this game and replay it; all or nothing.

        ``transactional=False`` skips the copy that makes a refusal leave this verifier
        as it was: for callers that throw the verifier away on any error (the session
        reloads its game from the save file for every import).  ``body``: what
        ``env.decode()`` gave the caller already (the audit decodes each file to sort
        them; issue 19: once per file), read here and never changed.  ``watch``: told of
        each record as it is replayed (a refused file may have told some first).
        """
        if env.kind not in ("accept", "turn"):
            raise FormatError(f"a {env.kind} file cannot follow in a game")
        if body is None:
            body = env.decode()
        seq = body.get("seq")
        if body.get("game") == self.game_id and type(seq) is not int:
            raise FormatError(f"a {env.kind} file's sequence number must be an integer, "
                              f"not {quote(seq)}")
        if (env.kind == "accept") != (type(seq) is int and seq == 1):
            raise FormatError(f"a {env.kind} file cannot be file {quote(seq)} of a game")
        if body.get("game") != self.game_id or not isinstance(seq, int) or seq != self.seq + 1:
            self.classify(env, body, known or {})
        assert isinstance(seq, int)
        if self.result is not None:
            raise ChainError(f"the game is over ({self.result.text}): no file may follow",
                             reason="over")
        prev = _need_hash(body, "prev", env.kind)
        if prev != self.last_hash:
            if env.kind != "turn":
                raise ChainError(f"the {env.kind} file follows another file than this game's "
                                 f"file {seq - 1}", reason="chain")
            self._check_pinned(env, body, seq)
            raise ChainError(
                f"file {seq} follows a different file {seq - 1} than the one this game holds "
                "(a fork of the chain): kept as evidence", reason="fork")
        side = _need(body, "side", str, env.kind)
        expected = self.expected_sender()
        if side != expected:
            raise ChainError(f"file {seq} is from the {side} side, but the {expected} side "
                             "was to send it", reason="out-of-turn")
        if transactional:
            work = copy.copy(self)
            work.state = self.state.clone()
            work.keys = dict(self.keys)
            work.cards = dict(self.cards)
            work.chains = {s: copy.copy(c) for s, c in self.chains.items()}
            work.rolls = list(self.rolls)
            work.orders = dict(self.orders)
        else:
            work = self
        accepted = (work._accept(env, body) if env.kind == "accept"
                    else work._turn(env, body, watch))
        work.seq = seq
        work.last_hash = env.hash
        if work is not self:
            self.__dict__.update(work.__dict__)
        return accepted

    def _accept(self, env: Envelope, body: dict[str, Any]) -> Accepted:
        what = "accept"
        check_fields(body, ACCEPT_FIELDS, what)
        joiner = Card.from_data(_need(body, "joiner", dict, what))
        if joiner.key != env.key:
            raise SignatureError("accept is not signed by the joiner it names")
        if joiner.key == self.setup.creator.key:
            raise SignatureError("the joiner's key is the creator's own key")
        if _need(body, "rules_version", str, what) != self.setup.rules_version:
            raise MismatchError(f"the joiner runs rules_version "
                                f"{quote(body['rules_version'])}, the game needs "
                                f"{self.setup.rules_version}")
        if _need_hash(body, "scenario_digest", what) != self.setup.scenario_digest:
            raise MismatchError("the joiner's scenario data differ from the invite's")
        if _need_hash(body, "initial_digest", what) != self.setup.initial_digest:
            raise MismatchError("the joiner's initial position differs from the invite's")
        side = self.setup.joiner_side
        anchor = _need_hash(body, "anchor", what)
        self.keys[side] = joiner.key
        self.cards[side] = joiner
        self.chains[side] = ChainPos(0, 0, anchor, anchor)
        return Accepted(1, "accept", side, env.hash)

    def _turn(self, env: Envelope, body: dict[str, Any], watch: Watch | None = None
              ) -> Accepted:
        what = f"turn {body['seq']}"
        check_fields(body, TURN_FIELDS, what)
        seq: int = body["seq"]
        side: str = body["side"]
        if env.key != self.keys.get(side):
            raise SignatureError(f"{what} is signed by a key that is not the one pinned for "
                                 f"the {side} side")
        # the dice chain: the next link, in order
        chain = self.chains[side]
        generation = _need(body, "generation", int, what)
        index = _need(body, "link_index", int, what)
        reveal = _need_hash(body, "reveal", what)
        if (generation, index) != (chain.generation, chain.index + 1):
            raise DiceError(f"{what} reveals link {generation}/{index}, expected "
                            f"{chain.generation}/{chain.index + 1}")
        if not dice.verify_link(self.setup.nonce, side, generation, index, reveal, chain.prev):
            raise DiceError(f"{what}: the revealed dice link does not hash to the committed one")
        seed = self.seed_for(seq, side, reveal)
        links = (reveal, self.last_hash if self.sealed else
                 self.chains[self.setup.other(side)].latest)
        chain.index, chain.prev, chain.latest = index, reveal, reveal
        accepted = Accepted(seq, "turn", side, env.hash, clock=_need(body, "clock", int, what))
        message = _need(body, "message", str, what)
        if len(message) > MAX_MESSAGE:
            raise FormatError(f"{what}: message longer than {MAX_MESSAGE} characters")
        accepted.message = message
        records = _need(body, "records", list, what)
        if len(records) > MAX_RECORDS:
            raise FormatError(f"{what} has more than {MAX_RECORDS} records")
        self.replay_records(seq, side, seed, records, accepted, links, watch)
        # the end of the file: whose decision is next
        draw = _need(body, "draw", str, what)
        end = _need(body, "end", str, what)
        if draw not in ("", "offer"):
            raise FormatError(f"{what}: draw must be '' or 'offer'")
        if end not in ("", "resign", "draw", "rules"):
            raise FormatError(f"{what}: end must be '', resign, draw or rules")
        if draw and end:
            # an offer in a file that ends the game could never be accepted
            raise FormatError(f"{what}: a file that ends the game offers no draw")
        if self.state.is_chance() and not (self.sealed and accepted.acted):
            raise ChainError(f"{what} stops at an unresolved die roll", reason="incomplete")
        player = self.state.current_player()
        if end == "":
            if player is None:
                raise ChainError(f"{what}: the game ended by the rules but the file does not "
                                 "say so", reason="incomplete")
            if player == side:
                raise ChainError(f"{what} stops while it is still the {side} player's decision",
                                 reason="incomplete")
            if player == CHANCE:
                player = self.setup.other(side)  # sealed: the opponent finalizes the rolls
            # the standing orders load where a file reads them: a listing that replays
            # nothing does not, nor a file of a game where no side has any in force (no
            # order answers then: pbem.orders.answer; issue 35)
            if any(self.orders.values()):
                from pbem.orders import answer

                if answer(self.state, side, self.orders) is not None:
                    raise ChainError(f"{what} stops at a decision the {player} player's "
                                     "standing orders answer: the sender must apply them and "
                                     "play on", reason="incomplete")
        elif end == "rules":
            if player is not None:
                raise ChainError(f"{what} claims the game ended by the rules, but it has not",
                                 reason="incomplete")
            self.result = self.state.result()
        elif end == "resign":
            winner = self.setup.other(side)
            self.result = Result(winner, "resign", f"the {side} player resigned; {winner} wins")
        elif end == "draw":
            if self.draw_offered_by != self.setup.other(side):
                raise ChainError(f"{what} accepts a draw nobody offered", reason="draw")
            self.result = Result(None, "draw", "drawn by agreement")
        self.draw_offered_by = side if draw == "offer" else ""
        signed_result = body.get("result")
        if (self.result.to_data() if self.result else None) != signed_result:
            raise DesyncError(f"{what}: the signed result {quote(signed_result)} is not the result "
                              "here")
        to_act = _need(body, "to_act", str, what)
        here = "" if self.result or player is None or player == CHANCE else player
        if to_act != here:
            raise DesyncError(f"{what} says the {to_act or 'nobody'} side acts next; here it is "
                              f"{here or 'nobody'}")
        digest = _need_hash(body, "digest", what)
        if digest != self.state.digest():
            raise DesyncError(
                f"{what}: replaying the {side} player's actions gives state "
                f"{self.state.digest().hex()[:16]}, but the file signs "
                f"{digest.hex()[:16]} (desync)")
        next_anchor = body.get("next_anchor")
        if index >= self.setup.chain_length:
            if not isinstance(next_anchor, bytes) or len(next_anchor) != 32:
                raise DiceError(f"{what} uses the last link of its dice chain and must commit "
                                "a new anchor")
            chain.generation, chain.index, chain.prev = generation + 1, 0, next_anchor
        elif next_anchor is not None:
            raise DiceError(f"{what} commits a new anchor before its chain ran out")
        if "orders" in body:
            # in force from the end of this file: they answer the sender's decisions in
            # the opponent's files to come
            from pbem.orders import parse

            self.orders[side] = parse(self.engine, body["orders"], what)
            accepted.orders = dict(self.orders[side])
        accepted.draw, accepted.end = draw, end
        self.last_side = side
        return accepted

    def replay_records(self, seq: int, side: str, seed: bytes, records: list[Any],
                       accepted: Accepted, links: tuple[bytes, bytes] = (b"", b""),
                       watch: Watch | None = None) -> None:
        """Apply the sender's actions and re-derive each roll from the seed."""
        roll_index = 0
        last_action = f"(asked for by file {seq - 1})" if self.sealed else "(start of file)"
        recorded = self.setup.format >= 2
        for n, record in enumerate(records):
            where = f"file {seq} record {n}"
            typed = history.read(record, where, request=recorded, index=roll_index)
            if isinstance(typed, history.Ordered):
                from pbem.orders import answer

                player = self.state.current_player()
                due = answer(self.state, side, self.orders)
                if due is None:
                    raise ChainError(f"{where}: {quote(typed.text)} is played as a standing "
                                     f"order of the {player or 'nobody'} side, but no order "
                                     "of that side answers this decision", reason="out-of-turn")
                if typed.text != due:
                    raise DesyncError(f"{where}: the {player} side's standing order answers "
                                      f"{due!r} here, not {quote(typed.text)}")
                assert isinstance(player, str)
                if watch is not None:
                    watch.action(self.state, typed.text, player)
                told = self.state.apply(typed.text, side=player, order=True)
                if watch is not None:
                    watch.acted(told)
                accepted.events += told
                accepted.actions.append(typed.text)
                accepted.ordered.append(typed.text)
                last_action = typed.text
                accepted.acted = True
            elif isinstance(typed, history.Acted):
                player = self.state.current_player()
                if player != side:
                    raise ChainError(f"{where}: action {quote(typed.text)} by the {side} "
                                     f"player when it is {player or 'nobody'}'s turn",
                                     reason="out-of-turn")
                if watch is not None:
                    watch.action(self.state, typed.text, None)
                try:
                    told = self.state.apply(typed.text, side=side)
                except PbemError as exc:
                    raise DesyncError(f"{where}: {quote(typed.text)} is refused here: "
                                      f"{exc}") from None
                if watch is not None:
                    watch.acted(told)
                accepted.events += told
                accepted.actions.append(typed.text)
                accepted.acted = True
                last_action = typed.text
            else:
                if not self.state.is_chance():
                    raise DesyncError(f"{where}: a roll where the rules call for none")
                if self.sealed and accepted.acted:
                    raise DiceError(f"{where}: with sealed dice the rolls an action asks for "
                                    "are finalized by the opponent's next file, not by the "
                                    "sender")
                request = self.state.chance_request()
                asked = dice.request_data(request)
                name = dice.roll_name(seq, roll_index)
                if recorded:
                    signed = dice.parse_request(typed.request, where)
                    if typed.request != asked:
                        raise DesyncError(
                            f"{where}: roll {name} records the request "
                            f"{signed.describe()}, but the rules here ask for "
                            f"{request.describe()} ({request.purpose}): request mismatch")
                try:
                    roll = dice.check_roll(seed, roll_index, request, list(typed.outcome))
                except DiceError as exc:
                    raise DiceError(f"{where}: roll {name}: {exc}") from None
                told = self.state.apply_outcome(roll.outcome)
                if watch is not None:
                    watch.rolled(self.state, request, typed.outcome, roll_index, told)
                accepted.events += told
                rec = RollRecord(seq, roll_index, side, request.purpose, request.rule,
                                 request.describe(), roll.outcome, seed, last_action,
                                 roll if self.keep_rolls else None, *links, asked=asked,
                                 recorded=recorded,
                                 told=tuple(e for e in told if e.kind == "roll"))
                accepted.rolls.append(rec)
                if self.keep_rolls:
                    self.rolls.append(rec)
                roll_index += 1


def load_envelope(data: bytes, source: str) -> Envelope:
    """Open an exchanged file (binary or armored), naming ``source`` in any error."""
    try:
        return open_envelope(binary_form(data))
    except FormatError as exc:
        raise FormatError(str(exc), path=source) from None
    except SignatureError as exc:
        raise SignatureError(str(exc), path=source) from None
