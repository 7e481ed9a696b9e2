"""The dice protocol: hash chains, seeds, and unbiased rolls, byte for byte.

Neither player may choose or bias a roll, and anyone holding the transcript must be able
to re-derive every roll.  So each side commits, at the start, to the anchor ``c_0`` of a
one-way hash chain it derived from its own key (:class:`HashChain`) and reveals one link
per file, in order.  The rolls of a file are drawn from a seed that mixes the actor's
fresh link with the opponent's latest revealed one (:func:`open_seed`); neither side
knew the other's link when it committed, so neither can steer the seed.  (The actor
*can* foresee the rolls of its open-dice file before sending it and choose which attack
gets which roll.  Sealed dice (:func:`sealed_seed`) remove that: a roll is finalized by
the opponent's next, still unrevealed link, in the opponent's next file.)

Every hash is SHA-256 over the canonical msgpack encoding (:func:`pbem.canonical.encode`)
of an array whose first element is a domain string, so no hash of one kind can be
mistaken for another.  Chance request ``index`` of a file reads the HMAC-SHA256 blocks
:func:`block` ``(seed, index, j)``, j = 0, 1, 2, ..., as big-endian 32-bit words, and
turns words into integers by rejection sampling (:func:`rejection_limit`): no modulo bias,
and a counter per request, so changing what an action *is* never re-rolls later dice.

Every word read is recorded as a :class:`Step`, so ``pbem audit --roll 17.3`` can show
exactly which block and word gave which die.  Python's ``random`` is never used.

docs/protocol-crypto.md fixes every byte; tests/data/dice_vectors.json and
chain_vectors.json pin them.
"""

from __future__ import annotations

import re
import struct
from _operator import _compare_digest as compare_digest  # hmac's, without hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.engine import ChanceRequest, Outcome
from pbem.errors import DiceError, FormatError, UsageError
from pbem.history import Frozen, set_field
from pbem.sha import hkdf_sha256, hmac_sha256, sha256, small_sha256

if TYPE_CHECKING:
    from pbem.chainkeep import Keeper

__all__ = [
    "MAX_CHAIN_LENGTH",
    "HashChain",
    "Roll",
    "Sampler",
    "Step",
    "block",
    "block_words",
    "chain_secret",
    "chain_step",
    "check_roll",
    "crafted_words",
    "draw_items",
    "open_seed",
    "parse_request",
    "parse_roll_name",
    "rejection_limit",
    "request_data",
    "resolve",
    "resolve_words",
    "roll_dice",
    "roll_name",
    "verify_link",
]

DOMAIN_SECRET = "pbem/v1/dice-secret"
DOMAIN_CHAIN = "pbem/v1/chain"
DOMAIN_OPEN = "pbem/v1/open"
DOMAIN_SEALED = "pbem/v1/sealed"

LINK_SIZE = 32
#: longest chain one anchor may commit to; a longer game re-anchors in a signed turn
MAX_CHAIN_LENGTH = 100_000
_U32 = 2**32
_WORDS_PER_BLOCK = 8

# --- the per-game secret and the hash chain ------------------------------------------------


def _check_chain_args(nonce: bytes, side: str, generation: int) -> None:
    if not isinstance(nonce, bytes) or not nonce:
        raise ValueError("the game nonce must be non-empty bytes")
    if not isinstance(side, str) or not side:
        raise ValueError("the side must be a non-empty string")
    if not isinstance(generation, int) or isinstance(generation, bool) or generation < 0:
        raise ValueError(f"chain generation must be an integer >= 0, got {generation!r}")


def chain_secret(secret: bytes, nonce: bytes, side: str, generation: int) -> bytes:
    """The last link ``c_N`` of a side's chain: HKDF-SHA256 of the identity's private key.

    Derived rather than drawn at random so that a lost save can be rebuilt from the key
    and the transcript alone.  ``secret`` is the 32-byte raw Ed25519 private key
    (:meth:`pbem.identity.Identity.secret_bytes`); salt = the game nonce; info =
    ``encode(["pbem/v1/dice-secret", side, generation])``, so each side and each
    re-anchoring gets an unrelated chain.
    """
    if not isinstance(secret, bytes) or len(secret) != 32:
        raise ValueError("the dice secret is derived from a 32-byte private key")
    _check_chain_args(nonce, side, generation)
    info = canonical.encode([DOMAIN_SECRET, side, generation])
    return hkdf_sha256(secret, nonce, info, LINK_SIZE)


def chain_step(nonce: bytes, side: str, generation: int, i: int, link: bytes) -> bytes:
    """``c_{i-1}`` from ``c_i``: SHA-256(encode(["pbem/v1/chain", nonce, side, gen, i, c_i])).

    Binding the nonce, side, generation and position into every step means no link can
    be replayed in another game, by the other side, in another chain or at another place.
    """
    _check_chain_args(nonce, side, generation)
    _check_link(i, link)
    return sha256(
        canonical.encode([DOMAIN_CHAIN, nonce, side, generation, i, link])
    ).digest()


def _check_link(i: int, link: bytes) -> None:
    if not isinstance(link, bytes) or len(link) != LINK_SIZE:
        raise ValueError(f"a chain link is {LINK_SIZE} bytes")
    if not isinstance(i, int) or not 1 <= i <= MAX_CHAIN_LENGTH:
        raise ValueError(f"chain index {i!r} is outside 1..{MAX_CHAIN_LENGTH}")


class _ChainHasher:
    """:func:`chain_step` with the constant part of the encoding prepared once.

    A msgpack array is its header followed by its elements' encodings, so the bytes are
    exactly ``canonical.encode([...])``; tests check that against the plain form.
    """

    def __init__(self, nonce: bytes, side: str, generation: int) -> None:
        _check_chain_args(nonce, side, generation)
        self._prefix = b"\x96" + b"".join(
            canonical.encode(v) for v in (DOMAIN_CHAIN, nonce, side, generation)
        )

    def __call__(self, i: int, link: bytes) -> bytes:
        _check_link(i, link)
        return self.step(i, link)

    def step(self, i: int, link: bytes) -> bytes:
        """The hash without argument checks, for links this module made itself.

        The shortest msgpack forms of a positive int up to 100,000 and of a 32-byte bin
        are written directly: building a chain of 4,096 links this way takes milliseconds
        instead of the tenth of a second ``canonical.encode`` would.
        """
        if i < 0x80:
            index = bytes((i,))
        elif i < 0x100:
            index = b"\xcc" + bytes((i,))
        elif i < 0x10000:
            index = b"\xcd" + i.to_bytes(2, "big")
        else:
            index = b"\xce" + i.to_bytes(4, "big")
        return sha256(self._prefix + index + b"\xc4\x20" + link).digest()


class HashChain:
    """A side's one-way chain: ``anchor`` is published first, links revealed 1, 2, ...

    ``secret`` is the identity's 32-byte raw private key.  Links are computed from the
    secret ``c_N`` down, only as far as asked for, and cached: ``link(i)`` costs
    ``N - i`` hashes the first time, ``anchor`` the whole walk (at most
    :data:`MAX_CHAIN_LENGTH`).  When :mod:`pbem.datacache` names a folder (the command
    line's home), one link every :data:`pbem.chainkeep.GAP` is kept there between
    commands, sealed under keys derived from ``secret`` (:mod:`pbem.chainkeep`): a
    command then walks at most ``GAP - 1`` hashes instead of up to 4,096 (issue 19).
    """

    def __init__(self, secret: bytes, nonce: bytes, side: str, generation: int, length: int,
                 *, keep: bool = True):
        """``keep=False``: never the data cache's kept links, even when it names a folder
        (a :class:`pbem.match.Match` on its own touches no file)."""
        if not isinstance(length, int) or not 1 <= length <= MAX_CHAIN_LENGTH:
            raise ValueError(f"chain length must be 1..{MAX_CHAIN_LENGTH}, got {length!r}")
        self.nonce = nonce
        self.side = side
        self.generation = generation
        self.length = length
        self._prefix = _ChainHasher(nonce, side, generation)._prefix
        self._links = [b""] * (length + 1)
        self._links[length] = chain_secret(secret, nonce, side, generation)
        #: the lowest index of the links known from the top: links[_low:] are all known
        self._low = length
        self._keeper: Keeper | None = None
        #: the indices the keeper holds (highest first), once read
        self._kept: list[int] | None = None
        if not keep:
            return
        from pbem import datacache

        if datacache.directory() is not None:
            from pbem.chainkeep import Keeper

            self._keeper = Keeper(secret, nonce, side, generation, length)

    def _fetch(self, to: int) -> None:
        """Make ``c_to`` known: from the nearest known or kept link above it."""
        from pbem.chainkeep import GAP

        links, start = self._links, self._low
        if self._keeper is not None:
            if self._kept is None:
                self._kept = self._keeper.load()
            kept = min((k for k in self._kept if to <= k < start), default=None)
            if kept is not None:
                if not links[kept]:
                    links[kept] = self._keeper.link(kept)
                start = kept
            # a stretch walked before from a kept link ends at the next multiple of GAP
            above = to + 1
            while above < min(start, (to // GAP + 1) * GAP) and not links[above]:
                above += 1
            if above < start and links[above]:
                start = above
        if start > to:
            self._walk(start, to)
        if start == self._low:
            self._low = to
        if self._keeper is not None and self._kept is not None:
            walked = range(-(-to // GAP) * GAP, start, GAP)
            if any(i not in self._kept for i in walked):
                self._keeper.keep({i: links[i] for i in walked})
                self._kept = sorted({*self._kept, *walked}, reverse=True)

    def _walk(self, start: int, to: int) -> None:
        """``c_{start-1}`` down to ``c_to`` from ``c_start``."""
        links, prefix, link = self._links, self._prefix, self._links[start]
        sha = small_sha256  # a local: up to 4,096 calls of about 100 bytes
        # _ChainHasher.step inlined, one run of indices per msgpack int form (the same
        # bytes; tests/core/test_dice.py compares them): a chain is walked by every
        # command that seals, 4,096 hashes, and the calls were a seventh of it
        for low, high, head, width in ((0x10000, MAX_CHAIN_LENGTH, b"\xce", 4),
                                       (0x100, 0xFFFF, b"\xcd", 2), (0x80, 0xFF, b"\xcc", 1),
                                       (1, 0x7F, b"", 1)):
            head = prefix + head
            # c_{i-1} from c_i, for i from start down to to + 1
            for i in range(min(start, high), max(low, to + 1) - 1, -1):
                link = links[i - 1] = sha(
                    b"".join((head, i.to_bytes(width, "big"), b"\xc4\x20", link))).digest()

    @property
    def anchor(self) -> bytes:
        """``c_0``: the commitment published in the invite, accept or re-anchoring turn."""
        if not self._links[0]:
            self._fetch(0)
        return self._links[0]

    def link(self, i: int) -> bytes:
        """``c_i``, revealed in the side's i-th file of this generation (1..length)."""
        if not 1 <= i <= self.length:
            raise ValueError(f"link {i} is outside the chain 1..{self.length}")
        if not self._links[i]:
            self._fetch(i)
        return self._links[i]

    def __repr__(self) -> str:
        return (
            f"HashChain(side={self.side!r}, generation={self.generation}, "
            f"length={self.length}, anchor={self.anchor.hex()[:16]}...)"
        )


def verify_link(
    nonce: bytes, side: str, generation: int, i: int, link: bytes, previous: bytes
) -> bool:
    """Whether ``link`` is a valid ``c_i``: it hashes to ``previous`` (= ``c_{i-1}``)."""
    try:
        expected = chain_step(nonce, side, generation, i, link)
    except ValueError:
        return False
    return isinstance(previous, bytes) and compare_digest(expected, previous)


# --- seeds and blocks ----------------------------------------------------------------------


def open_seed(game_id: bytes, seq: int, actor_link: bytes, opponent_link: bytes) -> bytes:
    """The seed of the rolls made while the actor acts in file ``seq``.

    SHA-256(encode(["pbem/v1/open", game_id, seq, actor_link, opponent_link])), where
    ``actor_link`` is the link revealed in that file and ``opponent_link`` the opponent's
    latest revealed link (its anchor if none yet).
    """
    return sha256(
        canonical.encode([DOMAIN_OPEN, game_id, seq, actor_link, opponent_link])
    ).digest()


def sealed_seed(game_id: bytes, seq: int, body_hash: bytes, resolver_link: bytes) -> bytes:
    """The seed of the rolls file ``seq`` asked for, in sealed-dice mode.

    SHA-256(encode(["pbem/v1/sealed", game_id, seq, body_hash, resolver_link])): file
    ``seq`` (body hash ``body_hash``) ended at a chance node; the other side finalizes its
    rolls with the link its next file reveals.  The roller never held that link, so it
    cannot foresee or order its rolls; the resolver cannot know ``body_hash`` before
    the roller's file arrives, so it cannot foresee them either.
    """
    return sha256(
        canonical.encode([DOMAIN_SEALED, game_id, seq, body_hash, resolver_link])
    ).digest()


def block(seed: bytes, index: int, j: int) -> bytes:
    """Block ``j`` of request ``index``: HMAC-SHA256(key=seed, msg=u32be(index) || u32be(j))."""
    if not 0 <= index < _U32 or not 0 <= j < _U32:
        raise ValueError(f"block counter out of range (index {index}, j {j})")
    return hmac_sha256(seed, struct.pack(">II", index, j))


def block_words(seed: bytes, index: int) -> Iterator[tuple[int, int, int]]:
    """The word stream of request ``index``: (block j, position 0..7, 32-bit word)."""
    unpack = struct.Struct(">8I").unpack
    for j in range(_U32):
        for position, word in enumerate(unpack(block(seed, index, j))):
            yield j, position, word
    raise DiceError(f"request {index} read 2**32 blocks")  # pragma: no cover - 2**37 words


def crafted_words(words: Iterable[int]) -> Iterator[tuple[int, int, int]]:
    """Given words numbered as if from blocks (8 per block): for tests and audits."""
    for k, word in enumerate(words):
        if not 0 <= word < _U32:
            raise ValueError(f"word {word} is not a 32-bit unsigned value")
        yield k // _WORDS_PER_BLOCK, k % _WORDS_PER_BLOCK, word


# --- uniform integers ----------------------------------------------------------------------


def rejection_limit(n: int) -> int:
    """The first rejected word for ``uniform(n)``: 2**32 - (2**32 mod n).

    Words below it fall into whole runs of n residues, so ``w mod n`` is exactly uniform.
    """
    if not 1 <= n <= _U32:
        raise ValueError(f"cannot draw uniformly from {n} values")
    return _U32 - _U32 % n



# the two records below are frozen records (pbem.history.Frozen), not dataclasses: a
# receive makes both classes, about 0.2 M instructions each as dataclasses (issue 35)


class Step(Frozen):
    """One word read: where it came from, what it was for, and whether it was kept."""

    __match_args__ = ("j", "position", "word", "n", "limit", "accepted", "result", "what")
    j: int  # block number within the request's stream
    position: int  # word within the block, 0..7
    word: int
    n: int  # the range asked for: a result in 0..n-1
    limit: int  # rejection_limit(n): words >= limit are rejected
    accepted: bool
    result: int | None  # word mod n when accepted, else None
    what: str  # "die 1 of 2 (d6)", "draw 1 of 3 from 5"

    def __init__(self, j: int, position: int, word: int, n: int, limit: int, accepted: bool,
                 result: int | None, what: str = "") -> None:
        set_field(self, "j", j)
        set_field(self, "position", position)
        set_field(self, "word", word)
        set_field(self, "n", n)
        set_field(self, "limit", limit)
        set_field(self, "accepted", accepted)
        set_field(self, "result", result)
        set_field(self, "what", what)

    def explain(self) -> str:
        where = f"block {self.j} word {self.position}: {self.word}"
        if not self.accepted:
            return f"{where} >= limit {self.limit} for {self.n} values: rejected, next word"
        return f"{where} < {self.limit}, mod {self.n} = {self.result}" + (
            f"  ({self.what})" if self.what else ""
        )


class Sampler:
    """Uniform integers from a word stream, optionally recording every :class:`Step`.

    The stream is injectable so tests can feed crafted words (a word just below and at
    the rejection limit); ``record=False`` is the fast path for statistical tests.
    """

    def __init__(self, words: Iterable[tuple[int, int, int]], *, record: bool = True) -> None:
        self._words = iter(words)
        self.record = record
        self.steps: list[Step] = []

    def uniform(self, n: int, what: str = "") -> int:
        """An integer in 0..n-1: take the next word w; if w < limit return w mod n, else
        reject it and take the next."""
        limit = rejection_limit(n)
        for j, position, word in self._words:
            if word < limit:
                result = word % n
                if self.record:
                    self.steps.append(Step(j, position, word, n, limit, True, result, what))
                return result
            if self.record:
                self.steps.append(Step(j, position, word, n, limit, False, None, what))
        raise DiceError("the word stream ended before a word was accepted")


def roll_dice(sampler: Sampler, dice: Sequence[int]) -> tuple[int, ...]:
    """Each die in order: ``uniform(sides) + 1``."""
    faces = []
    for k, sides in enumerate(dice):
        what = f"die {k + 1} of {len(dice)} (d{sides})" if sampler.record else ""
        faces.append(sampler.uniform(sides, what) + 1)
    return tuple(faces)


def draw_items(sampler: Sampler, contents: Sequence[str], count: int) -> tuple[str, ...]:
    """A front-to-back partial Fisher-Yates over the cup sorted by UTF-8 bytes.

    Sorting first makes the result independent of the order the engine listed the cup
    in; duplicates are kept (a cup is a multiset).  For k in 0..count-1:
    ``j = k + uniform(len - k)``, swap items k and j; the outcome is items[:count].
    """
    # Python orders str by code point, and UTF-8 preserves code-point order, so this is
    # the UTF-8 byte order (unlike UTF-16 order, which puts U+10000.. before U+E000..).
    items = sorted(contents)
    size = len(items)
    if not 1 <= count <= size:
        raise ValueError(f"cannot draw {count} from {size} items")
    record = sampler.record
    for k in range(count):
        what = f"draw {k + 1} of {count}: swap item {k} with item {k} + result" if record else ""
        j = k + sampler.uniform(size - k, what)
        items[k], items[j] = items[j], items[k]
    return tuple(items[:count])


# --- resolving a chance request ------------------------------------------------------------


class Roll(Frozen):
    """A resolved chance request: its index in the file, the outcome, and every word read."""

    __match_args__ = ("index", "outcome", "steps")
    index: int
    outcome: Outcome
    steps: tuple[Step, ...]

    def __init__(self, index: int, outcome: Outcome, steps: tuple[Step, ...]) -> None:
        set_field(self, "index", index)
        set_field(self, "outcome", outcome)
        set_field(self, "steps", steps)

    def explain(self) -> list[str]:
        """One line per word read, for ``pbem audit --roll``."""
        return [step.explain() for step in self.steps]


def resolve_words(
    words: Iterable[tuple[int, int, int]], index: int, request: ChanceRequest
) -> Roll:
    """Resolve ``request`` from any word stream (crafted streams in tests)."""
    sampler = Sampler(words)
    outcome: Outcome
    if request.kind == "dice":
        outcome = roll_dice(sampler, request.dice)
    elif request.kind == "draw":
        outcome = draw_items(sampler, request.contents, request.count)
    else:  # pragma: no cover - ChanceRequest refuses other kinds
        raise ValueError(f"unknown chance kind {request.kind!r}")
    return Roll(index, outcome, tuple(sampler.steps))


def resolve(seed: bytes, index: int, request: ChanceRequest) -> Roll:
    """Chance request ``index`` (0-based within its file) resolved from the file's seed."""
    return resolve_words(block_words(seed, index), index, request)


def check_roll(seed: bytes, index: int, request: ChanceRequest, outcome: Sequence[object]) -> Roll:
    """Re-derive a recorded roll; :class:`DiceError` if the file recorded something else."""
    roll = resolve(seed, index, request)
    # exact types too: a face of 1 recorded as ``true`` is not the roll (True == 1)
    if tuple(outcome) != roll.outcome or any(
            type(mine) is not type(theirs)
            for mine, theirs in zip(outcome, roll.outcome, strict=True)):
        raise DiceError(
            f"roll {index} ({request.describe()}) recorded {tuple(outcome)!r}, "
            f"but the seed gives {roll.outcome!r}"
        )
    return roll


# --- the request as a roll record carries it (game format 2) -------------------------------

#: the most dice one request may name (a file is at most 4 MiB anyway)
MAX_DICE = 1000


def request_data(request: ChanceRequest) -> dict[str, Any]:
    """What was asked, as the roll record of a format-2 game signs it.

    Only what the dice protocol reads: the die sizes, or the cup's name, its contents
    sorted by UTF-8 bytes (the order :func:`draw_items` draws from, so there is one
    form) and the count.  The purpose and rule are the engine's words, not needed to
    re-derive the outcome, and stay out of the signed record.
    """
    if request.kind == "dice":
        return {"kind": "dice", "dice": list(request.dice)}
    return {"kind": "draw", "cup": request.cup, "contents": sorted(request.contents),
            "count": request.count}


def _exact_int(value: object) -> bool:
    return type(value) is int


def parse_request(data: object, where: str) -> ChanceRequest:
    """A recorded request back into a :class:`ChanceRequest`; :class:`FormatError` naming
    ``where`` for anything but the one form :func:`request_data` writes."""
    bad = f"{where}: a roll's request is {{'kind': 'dice', 'dice': [sizes]}} or " \
          "{'kind': 'draw', 'cup': name, 'contents': [sorted items], 'count': n}"
    if type(data) is not dict:
        raise FormatError(bad)
    kind = data.get("kind")
    if kind == "dice" and set(data) == {"kind", "dice"}:
        sizes = data["dice"]
        if (type(sizes) is not list or not 1 <= len(sizes) <= MAX_DICE
                or not all(_exact_int(s) and 2 <= s <= 1_000_000 for s in sizes)):
            raise FormatError(f"{where}: the dice of a roll's request are 1..{MAX_DICE} "
                              "integers (never booleans), each 2..1000000")
        return ChanceRequest("dice", "", dice=tuple(sizes))
    if kind == "draw" and set(data) == {"kind", "cup", "contents", "count"}:
        cup, contents, count = data["cup"], data["contents"], data["count"]
        if type(cup) is not str or type(contents) is not list or not contents \
                or not all(type(item) is str for item in contents):
            raise FormatError(f"{where}: a draw's cup is a string and its contents a "
                              "non-empty list of strings")
        if contents != sorted(contents):
            raise FormatError(f"{where}: a draw's contents must be sorted by their UTF-8 "
                              "bytes")
        if not _exact_int(count) or not 1 <= count <= len(contents):
            raise FormatError(f"{where}: a draw's count is an integer (never a boolean) "
                              f"from 1 to the {len(contents)} items in the cup")
        return ChanceRequest("draw", "", cup=cup, contents=tuple(contents), count=count)
    raise FormatError(bad)


# --- names -----------------------------------------------------------------------------------

# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_ROLL_NAME = r"(0|[1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,9})"


def roll_name(seq: int, index: int) -> str:
    """How a person sees a roll: file sequence, a dot, request index (``"17.3"``)."""
    if seq < 0 or index < 0:
        raise ValueError(f"no roll {seq}.{index}")
    return f"{seq}.{index}"


def parse_roll_name(s: str) -> tuple[int, int]:
    """Inverse of :func:`roll_name`; :class:`UsageError` for anything else."""
    match = re.fullmatch(_ROLL_NAME, s.strip())
    if match is None:
        raise UsageError(f"{s!r} is not a roll name like 17.3 (file sequence.request index)")
    return int(match.group(1)), int(match.group(2))
