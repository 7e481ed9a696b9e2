"""The signed envelope every pbem file travels in.

Binary form: the canonical msgpack array ``["pbem", 1, kind, key, signature, body]`` where
``key`` is the signer's 32-byte Ed25519 public key, ``signature`` the 64-byte Ed25519
signature over ``b"pbem/v1/" + kind + b"\\0" + body`` and ``body`` the canonical msgpack
bytes of the kind's map, carried as an opaque ``bin`` so the envelope can be parsed and the
signature checked before a single byte of the body is interpreted.

Reading, in the order ARCHITECTURE section 4 fixes: cap the size; parse only the envelope
(the strict reader refuses anything non-canonical); check the key is a sound Ed25519 point
and verify the signature over the exact body bytes; only then decode the body (strictly,
again).  The caller checks the key against the one pinned for the game and side.
"""

from __future__ import annotations

from typing import Any

from pbem import FORMAT_VERSION, canonical
from pbem.errors import FormatError, SignatureError, quote
from pbem.history import Frozen, set_field
from pbem.identity import Identity, verify
from pbem.sha import sha256

MAGIC = "pbem"
#: kinds two players exchange, and the local ones
EXCHANGED = ("invite", "accept", "turn")
KINDS = (*EXCHANGED, "save", "card")
#: an exchanged file larger than this is refused unread (a long turn is a few kB)
MAX_EXCHANGED = 4 * 1024 * 1024
MAX_SAVE = canonical.MAX_SIZE


def signing_message(kind: str, body: bytes) -> bytes:
    """The bytes an Ed25519 signature covers: domain-separated by format and kind."""
    return b"pbem/v1/" + kind.encode("ascii") + b"\0" + body


def file_name(game_id: bytes, seq: int, side: str) -> str:
    """The name a file travels under: ``<game-short-id>-<seq:04d>-<side>.pbem``.

    For people and folders only: nothing is trusted from a name.  The side is reduced to
    safe characters so a name can never point outside the folder it is written to.
    """
    safe_side = "".join(c if c.isalnum() or c in "_-" else "_" for c in side) or "side"
    return f"{game_id.hex()[:12]}-{seq:04d}-{safe_side}.pbem"


def body_hash(body: bytes) -> bytes:
    """SHA-256 of a body: the game id (of an invite) and every chain link."""
    return sha256(body).digest()



# the two records here are frozen records (pbem.history.Frozen), not dataclasses: every
# turn command makes their classes, about 0.2 M instructions each as dataclasses (issue 35)


class Envelope(Frozen):
    """A verified envelope: the signature over ``body`` by ``key`` has been checked."""

    __match_args__ = ("kind", "key", "signature", "body", "raw")
    kind: str
    key: bytes
    signature: bytes
    body: bytes
    raw: bytes

    def __init__(self, kind: str, key: bytes, signature: bytes, body: bytes,
                 raw: bytes) -> None:
        set_field(self, "kind", kind)
        set_field(self, "key", key)
        set_field(self, "signature", signature)
        set_field(self, "body", body)
        set_field(self, "raw", raw)

    @property
    def hash(self) -> bytes:
        return body_hash(self.body)

    @property
    def identity(self) -> tuple[str, bytes, bytes]:
        """What the signer signed: two files with the same identity are the same file.

        The signature itself is left out: a signer can sign one body twice (Ed25519 with
        another nonce), which says nothing new, and nobody else can make a second one.
        """
        return self.kind, self.key, self.hash

    def decode(self, *, own: bool = False) -> dict[str, Any]:
        """The body as a map, strictly decoded (only after the signature verified);
        ``own``: a body this home's own key signed (its save), which this code's encoder
        wrote, read without proving it canonical again (:func:`canonical.decode_signed`)."""
        value = canonical.decode_signed(self.body) if own else canonical.decode(self.body)
        if not isinstance(value, dict):
            raise FormatError(f"{self.kind} body is not a map")
        if value.get("kind") != self.kind:
            raise FormatError(f"body says kind {quote(value.get('kind'))}, envelope says "
                              f"{self.kind}")
        return value


def signed_identity(data: bytes) -> tuple[str, bytes, bytes]:
    """:attr:`Envelope.identity` of a stored file (already verified when it was stored)."""
    _, _, kind, key, _, body = canonical.decode(data)
    return kind, key, body_hash(body)


def seal(identity: Identity, kind: str, body: dict[str, Any]) -> bytes:
    """Encode ``body`` canonically, sign it, and wrap it: the bytes of a pbem file."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    return seal_body(identity, kind, canonical.encode({**body, "kind": kind}))


def seal_body(identity: Identity, kind: str, body_bytes: bytes) -> bytes:
    """:func:`seal` of a body already encoded canonically (its ``kind`` in it): signed
    and wrapped."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    signature = identity.sign(signing_message(kind, body_bytes))
    return canonical.encode([MAGIC, FORMAT_VERSION, kind, identity.public_key, signature,
                             body_bytes])


def binary_form(data: bytes) -> bytes:
    """The binary bytes of an exchanged file given in either form, as
    :func:`pbem.armor.read_any` gives them: a binary file, which starts with its
    envelope's 0x96 (a msgpack array of six), as it is, without loading the armor's
    module (issue 35: every receive loaded it for the binary file it was given)."""
    if data[:1] == b"\x96":
        return data
    from pbem.armor import read_any

    return read_any(data)


def _parse(data: bytes, max_size: int) -> tuple[str, bytes, bytes, bytes]:
    if len(data) > max_size:
        raise FormatError(f"file of {len(data)} bytes is larger than the limit of {max_size}")
    if not data:
        raise FormatError("file is empty")
    value = canonical.decode(data, max_size=max_size)
    if not isinstance(value, list) or len(value) != 6 or value[0] != MAGIC \
            or type(value[0]) is not str:
        raise FormatError("not a pbem file (no pbem envelope)")
    _, version, kind, key, signature, body = value
    # exact types: the signature does not cover these elements, so each must have the
    # one form the format fixes (``true`` equals 1 in Python, and is canonical msgpack:
    # accepting it would let anyone on the path make a second file out of a real one)
    if type(version) is not int or version != FORMAT_VERSION:
        raise FormatError(f"format version {quote(version)} is not supported (this is "
                          f"{FORMAT_VERSION})")
    if type(kind) is not str or kind not in KINDS:
        raise FormatError(f"unknown file kind {quote(kind)}")
    if not isinstance(key, bytes) or len(key) != 32:
        raise FormatError("signer key is not 32 bytes")
    if not isinstance(signature, bytes) or len(signature) != 64:
        raise FormatError("signature is not 64 bytes")
    if not isinstance(body, bytes):
        raise FormatError("body is not a byte string")
    return kind, key, signature, body


def open_envelope(data: bytes, *, max_size: int = MAX_EXCHANGED,
                  kinds: tuple[str, ...] = EXCHANGED) -> Envelope:
    """Parse and verify: the returned envelope's signature is good for its own key."""
    kind, key, signature, body = _parse(data, max_size)
    if kind not in kinds:
        raise FormatError(f"a {kind} file is not accepted here (expected {' or '.join(kinds)})")
    try:
        verify(key, signing_message(kind, body), signature)
    except SignatureError:
        raise SignatureError(f"the signature on this {kind} file does not verify") from None
    return Envelope(kind, key, signature, body, data)


def committed_envelope(data: bytes) -> Envelope:
    """A game's file read back from beside its save: parsed as :func:`open_envelope`
    parses, its signature not checked again.  Only for bytes a verified signature
    already covers: the save, signed by this home's own key and verified where it is
    read, commits to the file's SHA-256 (pbem.gamefiles checks it as it reads the file),
    and the file's own signature was verified when it first came in or was made.
    Checking it again cost every command that loads a game one more Ed25519
    verification (about 1.7 M instructions, issue 35)."""
    kind, key, signature, body = _parse(data, MAX_EXCHANGED)
    return Envelope(kind, key, signature, body, data)


class FileInfo(Frozen):
    """Enough to name and route a file, read without any key (nothing here is verified)."""

    __match_args__ = ("kind", "game_id", "seq", "side", "signer")
    kind: str
    game_id: bytes
    seq: int
    side: str
    signer: bytes

    def __init__(self, kind: str, game_id: bytes, seq: int, side: str, signer: bytes) -> None:
        set_field(self, "kind", kind)
        set_field(self, "game_id", game_id)
        set_field(self, "seq", seq)
        set_field(self, "side", side)
        set_field(self, "signer", signer)


def peek(data: bytes) -> FileInfo:
    """Route a file by its claims: signature verified, but not yet the pinned key or chain."""
    env = open_envelope(data)
    body = env.decode()
    if env.kind == "invite":
        side = body.get("creator_side")
        return FileInfo("invite", env.hash, 0, side if type(side) is str else "", env.key)
    game, seq, side = body.get("game"), body.get("seq"), body.get("side")
    if type(game) is not bytes or type(seq) is not int or type(side) is not str:
        raise FormatError(f"{env.kind} file lacks game, seq or side")
    return FileInfo(env.kind, game, seq, side, env.key)
