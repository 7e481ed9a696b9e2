"""Who signs: Ed25519 identities, their public cards, fingerprints, and where keys live.

A player is an Ed25519 key pair.  The public half travels in a :class:`Card` (name,
email, key) inside the invite and the accept, and is pinned per game and per
correspondent, so a later file signed by another key is refused.  Two people compare
:func:`fingerprint` strings aloud (on the phone, at the club) to be sure the card they
pinned is really their opponent's.

Why :func:`check_public_key` exists at all: the ``cryptography`` package (OpenSSL) does
not reject public keys of small order.  Under the identity point every message has the
same "signature" (R = the identity, S = 0), so a card carrying such a key would let
anyone forge that player's files.  We check in plain Python integers that the key
decodes to a point, and refuse the eight points whose multiple by the cofactor 8 is the
identity; we also refuse every non-canonical encoding, so one key has exactly one byte
string.

The private key is kept in ``<home>/identity/key.pem`` (PKCS#8, encrypted when a
passphrase is given), private to its owner: 0600 permissions on POSIX, the user's own
profile folder on Windows (:func:`pbem.portable.private_file_problem`); the card beside
it in ``card.json`` is readable without the passphrase.  Pinned correspondents live in
``<home>/contacts.json``.
"""

from __future__ import annotations

import functools
import os
import sys
import unicodedata
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from pbem import portable
from pbem.atomic import write_atomic
from pbem.errors import FormatError, KeyStoreError, SignatureError
from pbem.history import Frozen, set_field
from pbem.sha import sha256

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = [
    "Card",
    "Identity",
    "KeyStore",
    "check_public_key",
    "fingerprint",
    "home_dir",
    "passphrase_from_env",
    "verify",
]



def _key_functions() -> Any:
    """cryptography's three Ed25519 key makers (``generate_key``, ``from_private_bytes``,
    ``from_public_bytes``), asked of its Rust binding, which makes the keys.

    Its public module (``hazmat.primitives.asymmetric.ed25519``) is those functions
    behind abstract classes, and importing it imports serialization's, hashes' and
    utils' classes with it: about 8 M instructions of every command that signs or checks
    a signature, some 2.5% of a turn command (issue 35).  The keys are the same objects
    either way (the public classes are the binding's, registered).  Serialization, the
    public classes and ``InvalidSignature`` are imported where a key file is written or
    read, or a signature fails.  A cryptography whose binding is laid out otherwise is
    asked through the public classes."""
    try:
        from cryptography.hazmat.bindings._rust import openssl

        binding: Any = openssl.ed25519
        if all(hasattr(binding, name) for name in (
                "generate_key", "from_private_bytes", "from_public_bytes")):
            return binding
    except ImportError:
        pass
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

    return SimpleNamespace(generate_key=Ed25519PrivateKey.generate,
                           from_private_bytes=Ed25519PrivateKey.from_private_bytes,
                           from_public_bytes=Ed25519PublicKey.from_public_bytes)


_ED25519 = _key_functions()

KEY_SIZE = 32
SIGNATURE_SIZE = 64
NAME_MAX = 100
EMAIL_MAX = 254
FINGERPRINT_DOMAIN = b"pbem/v1/fingerprint\0"

#: an unencrypted Ed25519 key as ``save()`` writes it: PKCS#8 (RFC 8410 section 7: version
#: 0, the id-Ed25519 algorithm, no attributes, no public key) around the 32-byte seed
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
_PEM_HEAD = b"-----BEGIN PRIVATE KEY-----\n"
_PEM_TAIL = b"\n-----END PRIVATE KEY-----\n"
#: RFC 4648's Base64 alphabet, by value
_BASE64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _plain_pkcs8(pem: bytes) -> Ed25519PrivateKey | None:
    """The key of an unencrypted key file in exactly the form :meth:`KeyStore.save` writes
    it, or None for anything else (read by cryptography's PEM reader, with its errors).

    cryptography's serialization module imports every cipher and key type it can read:
    38 M instructions, a tenth of 'pbem act', to read 32 bytes (issue 19).  The one line
    of Base64 (RFC 4648 section 4) is read here too: ``binascii``, a shared library,
    took 0.6 M instructions of every 'act' and 'receive' to load (issue 35)."""
    if len(pem) != len(_PEM_HEAD) + 64 + len(_PEM_TAIL) or not pem.startswith(_PEM_HEAD) \
            or not pem.endswith(_PEM_TAIL):
        return None
    body = pem[len(_PEM_HEAD):-len(_PEM_TAIL)]
    # 64 characters of the alphabet are 384 bits, exactly 48 bytes: no padding, and no
    # other text reads as them, so these are the one encoding of the bytes (what
    # binascii's strict decoding and re-encoding checked); anything else is refused
    value = 0
    for char in body:
        digit = _BASE64.find(char)
        if digit < 0:
            return None
        value = value << 6 | digit
    der = value.to_bytes(48, "big")
    if not der.startswith(_PKCS8_ED25519):
        return None
    private: Ed25519PrivateKey = _ED25519.from_private_bytes(der[len(_PKCS8_ED25519):])
    return private


# --- where things live -------------------------------------------------------------------


def home_dir() -> Path:
    """The folder holding identities, contacts and games: ``PBEM_HOME``, else the
    platform's per-user application-data folder (see :func:`pbem.portable.home_dir`)."""
    return portable.home_dir()


def passphrase_from_env() -> bytes | None:
    """``PBEM_PASSPHRASE`` as UTF-8 bytes, for scripts and CI (empty or unset: None)."""
    value = os.environ.get("PBEM_PASSPHRASE")
    return value.encode("utf-8") if value else None


# --- Ed25519 point checks, in plain integers ----------------------------------------------

_P = 2**255 - 19
# RFC 8032 section 5.1's d = -121665/121666 mod p as a number: a modular inverse
# computed at import cost every command that loads a game (issue 35;
# tests/core/test_identity.py derives it again)
_D = 37095705934669439343138083508754565189542113879843219016388785533085940283555
#: the y of the eight points of order dividing 8 (x = 0: y = 1, the identity, and
#: y = p - 1, of order 2; y = 0: the two of order 4; the four of order 8 by their two y),
#: the points with [8]P the identity; tests/core/test_identity.py finds them again by
#: RFC 8032's decoding and three doublings
_SMALL_ORDER_Y = frozenset((
    0, 1, _P - 1,
    2707385501144840649318225287225658788936804267575313519463743609750303402022,
    55188659117513257062467267217118295137698188065244968500265048394206261417927))


def _is_square(a: int) -> bool:
    """Whether ``a`` (not 0 mod p) is a square mod p: its Jacobi symbol is 1 (the binary
    algorithm, Cohen's Algorithm 1.4.10).  RFC 8032's decoding takes a square root by a
    modular power to the same end: 1.5 M instructions a key, and every turn command
    checks two; this is a quarter of it (issue 35)."""
    n, t = _P, 1
    a %= n
    while a:
        twos = (a & -a).bit_length() - 1
        if twos:
            a >>= twos
            if twos & 1 and n & 7 in (3, 5):
                t = -t
        if a & 3 == 3 and n & 3 == 3:
            t = -t
        a, n = n % a, a
    return n == 1 and t == 1


def check_public_key(key: bytes) -> None:
    """Refuse anything but the one canonical encoding of a point not of small order.

    Raises :class:`SignatureError` for: a length other than 32, y >= p, x = 0 with the
    sign bit set, a y with no point on the curve, and every point P with [8]P = identity
    (the eight small-order points, which make forged signatures trivial).
    """
    if not isinstance(key, bytes) or len(key) != KEY_SIZE:
        raise SignatureError(f"a public key must be {KEY_SIZE} bytes")
    problem = _key_problem(key)
    if problem:
        raise SignatureError(problem)


@functools.lru_cache(maxsize=256)
def _key_problem(key: bytes) -> str:
    """The point checks, remembered per key: a game has two keys and thousands of files.

    RFC 8032 section 5.1.3's strict decoding, without computing x: y must be below p
    (no second encoding of small y values); some x must exist, x^2 = u/v with
    u = y^2 - 1 and v = d y^2 + 1 (v is never 0, -1/d not being a square); x = 0, that
    is u = 0, must come with the sign bit clear (no second encoding of those points).
    Then the point is of small order exactly when its y is one of theirs: the sign bit
    only chooses between P and -P, of the same order."""
    n = int.from_bytes(key, "little")
    y = n & ((1 << 255) - 1)
    canonical = "public key is not a canonical Ed25519 point encoding"
    if y >= _P:
        return canonical
    u = (y * y - 1) % _P
    if u == 0 and n >> 255:
        return canonical
    if u and not _is_square(u * ((_D * y * y + 1) % _P)):
        return canonical  # u/v is not a square: no point has this y
    if y in _SMALL_ORDER_Y:
        return "public key is a small-order point (forgeable); refused"
    return ""


def verify(key: bytes, message: bytes, signature: bytes) -> None:
    """Check an Ed25519 signature, refusing degenerate keys first.

    Every failure raises the same :class:`SignatureError`, so a caller (or an attacker
    watching the messages) learns nothing about *why* it failed.
    """
    try:
        check_public_key(key)
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
            raise SignatureError("bad signature")
        if type(message) is not bytes:
            # kept below: a copy, never a buffer its caller may change (a str or an int is
            # no buffer: TypeError, refused as before)
            message = bytes(memoryview(message))
        seen = (key, signature)
        if _verified.get(seen) == message:
            return
        _ED25519.from_public_bytes(key).verify(signature, message)
    except Exception as exc:
        from cryptography.exceptions import InvalidSignature

        if not isinstance(exc, SignatureError | InvalidSignature | ValueError | TypeError):
            raise
        raise SignatureError("signature does not verify") from None
    _remember(seen, message)


def _remember(seen: tuple[bytes, bytes], message: bytes) -> None:
    global _verified_bytes
    if len(message) > VERIFIED_BYTES:
        return
    if not _verified:
        _verified_bytes = 0  # emptied (a test's fresh table): nothing is counted
    dropped = _verified.pop(seen, None)
    if dropped is not None:
        _verified_bytes -= len(dropped)
    while _verified and (len(_verified) >= VERIFIED_KEPT
                         or _verified_bytes + len(message) > VERIFIED_BYTES):
        # the oldest: a bound, not a policy
        _verified_bytes -= len(_verified.pop(next(iter(_verified))))
    _verified[seen] = message
    _verified_bytes += len(message)


#: signatures this process has verified, by key and signature, with the very message each
#: signed: a command checks one file where it is read, again where its game is loaded and
#: where it is replayed (issue 19).  A hit needs the same key and signature and a message
#: equal byte for byte, so it answers as a new verification would; refusals are not kept.
#: The message itself is kept, not its SHA-256: hashing it cost every command that loads
#: a game about 47 instructions a byte of its save (0.4 M for an 8 KB save, issue 35),
#: where comparing it costs about one; the bytes kept are bounded as the entries are.
VERIFIED_KEPT = 4096
VERIFIED_BYTES = 16 * 1024 * 1024
_verified: dict[tuple[bytes, bytes], bytes] = {}
_verified_bytes = 0


def fingerprint(key: bytes) -> str:
    """Thirty decimal digits in six groups of five, to read aloud and compare.

    SHA-256 over ``b"pbem/v1/fingerprint\\0" + key``; the first 30 bytes of the digest
    are cut into six 5-byte big-endian integers, each taken mod 100000 and written with
    five digits.  Digits because they are unambiguous on the phone; about 99.7 bits
    survive (each group keeps log2(100000) = 16.6 bits), plenty against a second key
    matching by chance or by a brute-force search.
    """
    digest = sha256(FINGERPRINT_DOMAIN + bytes(key)).digest()
    groups = (int.from_bytes(digest[i : i + 5], "big") % 100_000 for i in range(0, 30, 5))
    return " ".join(f"{g:05d}" for g in groups)


def _normalize_fingerprint(text: str) -> str:
    """Digits only, so "04213-99810..." or "0421399810..." match the spaced form."""
    return "".join(ch for ch in text if ch.isdigit())


# --- cards ---------------------------------------------------------------------------------

# Characters that could hide or reorder what a person reads: the C0/C1 controls, line and
# paragraph separators, and the bidirectional overrides and isolates (U+202E can make a
# name display backwards).
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _check_text(field: str, value: object, low: int, high: int) -> str:
    if not isinstance(value, str):
        raise FormatError(f"card {field} must be a string, got {type(value).__name__}")
    if not low <= len(value) <= high:
        raise FormatError(f"card {field} must be {low}..{high} characters, got {len(value)}")
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI:
            raise FormatError(f"card {field} contains the control character U+{ord(ch):04X}")
    return value




class Card(Frozen):
    """The public face of an identity: what an invite carries and a contact pins.  A
    frozen record (pbem.history.Frozen), not a dataclass: every turn command makes the
    class, about 0.2 M instructions as a dataclass (issue 35)."""

    __match_args__ = ("name", "email", "key")
    name: str
    email: str
    key: bytes

    def __init__(self, name: str, email: str, key: bytes) -> None:
        set_field(self, "name", name)
        set_field(self, "email", email)
        set_field(self, "key", key)

    @property
    def fingerprint(self) -> str:
        # made once a card (frozen, so kept in its __dict__): a save names the opponent's,
        # at every board click; a cached_property's first read cost ten times the digits
        got: str | None = self.__dict__.get("_fingerprint")
        if got is None:
            got = self.__dict__["_fingerprint"] = fingerprint(self.key)
        return got

    @property
    def who(self) -> str:
        """'Name <email>', or the name alone when the card has no email (not 'Name <>')."""
        return f"{self.name} <{self.email}>" if self.email else self.name

    def to_data(self) -> dict[str, Any]:
        """The canonical-msgpack form (key as raw bytes)."""
        return {"name": self.name, "email": self.email, "key": self.key}

    @staticmethod
    def from_data(data: Any) -> Card:
        """Validate a card read from a file: FormatError for shape, SignatureError for key.

        Unknown fields are refused: a card is signed data and must mean one thing.
        """
        if not isinstance(data, dict):
            raise FormatError(f"a card must be a map, got {type(data).__name__}")
        if set(data) != {"name", "email", "key"}:
            raise FormatError(f"a card has fields name, email, key; got {sorted(data)}")
        name = _check_text("name", data["name"], 1, NAME_MAX)
        email = _check_text("email", data["email"], 0, EMAIL_MAX)
        key = data["key"]
        if not isinstance(key, bytes):
            raise FormatError(f"card key must be bytes, got {type(key).__name__}")
        check_public_key(key)
        return Card(name, email, key)

    def to_json(self) -> dict[str, str]:
        """The human-readable form of ``card.json`` and ``contacts.json``."""
        return {
            "name": self.name,
            "email": self.email,
            "key": self.key.hex(),
            "fingerprint": self.fingerprint,
        }

    @staticmethod
    def from_json(data: Any) -> Card:
        """Inverse of :meth:`to_json`; the stored fingerprint must match the key."""
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise FormatError("a card in JSON needs a hex 'key' field")
        try:
            key = bytes.fromhex(data["key"])
        except ValueError:
            raise FormatError("card key is not hexadecimal") from None
        card = Card.from_data({"name": data.get("name"), "email": data.get("email"), "key": key})
        stated = data.get("fingerprint")
        if stated is not None and stated != card.fingerprint:
            raise FormatError("card fingerprint does not match its key")
        return card


# --- identities ----------------------------------------------------------------------------


class Identity:
    """A private key together with the card that names it.  Signs; never leaves the host."""

    def __init__(self, private_key: Ed25519PrivateKey, card: Card) -> None:
        public = private_key.public_key().public_bytes_raw()
        if public != card.key:
            raise KeyStoreError("the card's key is not this private key's public key")
        self._private = private_key
        self.card = card

    @staticmethod
    def generate(name: str, email: str = "") -> Identity:
        """A fresh key pair from the operating system's random source."""
        private: Ed25519PrivateKey = _ED25519.generate_key()
        key = private.public_key().public_bytes_raw()
        return Identity(private, Card.from_data({"name": name, "email": email, "key": key}))

    @staticmethod
    def from_secret(secret: bytes, name: str, email: str = "") -> Identity:
        """An identity from a 32-byte raw private key (tests inject fixed keys this way)."""
        private: Ed25519PrivateKey = _ED25519.from_private_bytes(secret)
        key = private.public_key().public_bytes_raw()
        return Identity(private, Card.from_data({"name": name, "email": email, "key": key}))

    @property
    def public_key(self) -> bytes:
        return self.card.key

    @property
    def private_key(self) -> Ed25519PrivateKey:
        return self._private

    def sign(self, message: bytes) -> bytes:
        """An Ed25519 signature (64 bytes).  Never use it as randomness: it is not unique."""
        signature: bytes = self._private.sign(message)
        if type(message) is bytes:
            # the card's key is this private key's own (checked when the identity was
            # made), so the signature verifies over these very bytes: kept as verified,
            # a file this process seals is checked again where its game goes on from it
            # (pbem.match.Match.sent, as the opponent will check it) by the table, not
            # by a second Ed25519 verification, 1.5 M instructions of every act that
            # seals a file (issue 35)
            _remember((self.card.key, signature), message)
        return signature

    def secret_bytes(self) -> bytes:
        """The 32-byte raw private key: only ever HKDF input for the dice secret."""
        return self._private.private_bytes_raw()

    def __repr__(self) -> str:  # never print the secret
        return f"Identity({self.card.name!r}, {self.card.fingerprint!r})"


# --- the key store -------------------------------------------------------------------------


class KeyStore:
    """The identity and pinned contacts under one home folder."""

    def __init__(self, home: Path, *, throwaway: bool = False) -> None:
        self.home = Path(home)
        #: the demo's and selfplay's made-up players: their keys guard nothing, so they
        #: may live anywhere (``pbem demo --dir D:\\x`` on Windows, outside the profile)
        self.throwaway = throwaway
        self.identity_dir = self.home / "identity"
        self.key_path = self.identity_dir / "key.pem"
        self.card_path = self.identity_dir / "card.json"
        self.contacts_path = self.home / "contacts.json"
        #: the card last read, with the file's identity then (inode, size, mtime): ``status``
        #: and ``receive`` check every save against it, which read and parsed card.json
        #: once per save (issue 19)
        self._card: tuple[tuple[int, int, int, int], Card] | None = None

    # identity

    def exists(self) -> bool:
        """True once ``key.pem`` is written (it is written last, so it marks completion)."""
        return self.key_path.exists()

    def create(self, name: str, email: str, passphrase: bytes | None, *,
               secret: bytes | None = None) -> Identity:
        """Make a new identity; refuse to replace one (a lost key loses every game).

        ``secret`` restores a known 32-byte key (a backup, or the fixed keys of the
        protocol test vectors) instead of generating one.
        """
        if self.exists():
            raise KeyStoreError(
                "an identity already exists; refusing to overwrite it", path=str(self.key_path)
            )
        from cryptography.hazmat.primitives import serialization

        identity = (Identity.from_secret(secret, name, email) if secret is not None
                    else Identity.generate(name, email))
        self.identity_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        encryption: serialization.KeySerializationEncryption
        if passphrase:
            encryption = serialization.BestAvailableEncryption(passphrase)
        else:
            encryption = serialization.NoEncryption()
        pem = identity.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
        )
        write_atomic(self.card_path, _json_bytes(identity.card.to_json()), mode=0o644)
        write_atomic(self.key_path, pem, mode=0o600)
        return identity

    def is_encrypted(self) -> bool:
        """Whether ``key.pem`` needs a passphrase (so the CLI knows whether to prompt)."""
        return b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in self._read_key()

    def _read_key(self) -> bytes:
        try:
            return self.key_path.read_bytes()
        except FileNotFoundError:
            raise KeyStoreError(
                "no identity here; create one with `pbem id new NAME`", path=str(self.key_path)
            ) from None
        except OSError as exc:
            raise KeyStoreError(f"cannot read: {exc.strerror}", path=str(self.key_path)) from None

    def _check_permissions(self, encrypted: bool) -> None:
        if self.throwaway:
            return
        problem = portable.private_file_problem(self.key_path, encrypted=encrypted)
        if problem:
            if sys.platform == "win32":  # there an encrypted key may live anywhere
                problem += ", or make a key protected by a passphrase (pbem id new --passphrase)"
            raise KeyStoreError(f"the private key is not private: {problem}",
                                path=str(self.key_path))

    def load(self, passphrase: bytes | None) -> Identity:
        """Unlock the identity.  Every failure names ``key.pem`` and says what to do."""
        pem = self._read_key()
        encrypted = b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in pem
        self._check_permissions(encrypted)
        path = str(self.key_path)
        if encrypted and not passphrase:
            raise KeyStoreError(
                "the key is protected by a passphrase; give it (or set PBEM_PASSPHRASE)",
                path=path,
            )
        private: Any = _plain_pkcs8(pem) if not encrypted else None
        plain = private is not None
        try:
            if private is None:
                from cryptography.hazmat.primitives import serialization

                private = serialization.load_pem_private_key(
                    pem, password=passphrase if encrypted else None
                )
        except ValueError:
            if encrypted:
                raise KeyStoreError("wrong passphrase", path=path) from None
            raise KeyStoreError("not a valid private key file", path=path) from None
        except Exception as exc:  # TypeError, UnsupportedAlgorithm: not a key we can use
            raise KeyStoreError(f"cannot load the key ({exc})", path=path) from None
        if not plain:  # a key _plain_pkcs8 read is an Ed25519 key; PEM's may be any
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

            if not isinstance(private, Ed25519PrivateKey):
                raise KeyStoreError("the key is not an Ed25519 key", path=path)
        card = self.card()
        if private.public_key().public_bytes_raw() != card.key:
            raise KeyStoreError(
                "card.json names another key than key.pem holds", path=str(self.card_path)
            )
        return Identity(private, card)

    def card(self) -> Card:
        """The public card, readable without the passphrase."""
        try:
            st = os.stat(self.card_path)
        except OSError:
            return _read_card(self.card_path)  # which names the problem
        # a card is replaced whole (write_atomic: a new inode), never edited in place
        stamp = (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)
        if self._card is not None and self._card[0] == stamp:
            return self._card[1]
        card = _kept_card(self.card_path, stamp)
        self._card = (stamp, card)
        return card

    # contacts

    def name_conflict(self, card: Card, what: str) -> SignatureError | None:
        """The refusal of a card whose name is pinned with another key, or None.

        No answer to a fingerprint question could make such a card acceptable, so every
        command says this first (the CLI's first contact, ``inbox``, ``watch``, ``fetch``),
        with the same exit status as a key that is not the one pinned."""
        for old in self.contacts():
            if old.name == card.name and old.key != card.key:
                return SignatureError(
                    f"{what} is signed by a new key under the name {card.name!r}, which is "
                    f"pinned with another key: pinned {old.fingerprint}, new "
                    f"{card.fingerprint}. If {card.name} really changed keys (ask them by "
                    f"phone or in person), run 'pbem id forget \"{old.fingerprint}\"' and try "
                    "again; nothing was written")
        return None

    def contacts(self) -> list[Card]:
        """Every pinned correspondent, in the order they were first pinned."""
        if not self.contacts_path.exists():
            return []
        # kept as the card is (_kept_card), by size and time: 'receive' checks every
        # file's sender against them, and reading the JSON cost the json module's import
        # (issue 35); pinning writes the file anew, at a new time
        from pbem import datacache

        try:
            st = os.stat(self.contacts_path)
        except OSError:
            key = None
        else:
            key = datacache.make_key("contacts", str(st.st_size), str(st.st_mtime_ns))
            kept = datacache.load("contacts", key)
            if type(kept) is list and all(
                    type(e) is dict and all(type(k) is str and type(v) is str
                                            for k, v in e.items()) for e in kept):
                try:
                    return [Card.from_json(entry) for entry in kept]
                except (FormatError, SignatureError):
                    pass  # not what this code kept: read the file
        data = _read_json(self.contacts_path)
        entries = data.get("contacts") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise KeyStoreError('expected {"contacts": [...]}', path=str(self.contacts_path))
        try:
            cards = [Card.from_json(entry) for entry in entries]
        except (FormatError, SignatureError) as exc:
            raise KeyStoreError(f"bad contact: {exc}", path=str(self.contacts_path)) from None
        if key is not None:
            datacache.store("contacts", key, [card.to_json() for card in cards])
        return cards

    def pin_contact(self, card: Card) -> None:
        """Remember a correspondent's key (trust on first use).

        Pinning the same key again updates its name and email.  Pinning a *different*
        key under a name already pinned is refused: that is exactly the substitution the
        pin is there to catch; remove the old one first with :meth:`unpin_contact`.
        """
        check_public_key(card.key)
        cards = self.contacts()
        for i, old in enumerate(cards):
            if old.key == card.key:
                cards[i] = card
                break
        else:
            for old in cards:
                if old.name == card.name:
                    raise KeyStoreError(
                        f"{card.name!r} is already pinned with fingerprint {old.fingerprint}; "
                        f"the new card has {card.fingerprint}",
                        path=str(self.contacts_path),
                    )
            cards.append(card)
        self._write_contacts(cards)

    def unpin_contact(self, fingerprint_or_name: str) -> Card:
        """Forget one contact (for a correspondent who really changed keys)."""
        card = self.contact(fingerprint_or_name)
        if card is None:
            raise KeyStoreError(f"no contact {fingerprint_or_name!r}", path=str(self.contacts_path))
        self._write_contacts([c for c in self.contacts() if c.key != card.key])
        return card

    def contact(self, fingerprint_or_name: str) -> Card | None:
        """The pinned card with this fingerprint (spacing ignored) or exact name, or None."""
        cards = self.contacts()
        digits = _normalize_fingerprint(fingerprint_or_name)
        if len(digits) == 30:
            for card in cards:
                if _normalize_fingerprint(card.fingerprint) == digits:
                    return card
        named = [card for card in cards if card.name == fingerprint_or_name]
        if len(named) > 1:  # cannot happen through pin_contact, but the file is editable
            raise KeyStoreError(
                f"several contacts are named {fingerprint_or_name!r}; use a fingerprint",
                path=str(self.contacts_path),
            )
        return named[0] if named else None

    def _write_contacts(self, cards: list[Card]) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        data = {"contacts": [card.to_json() for card in cards]}
        write_atomic(self.contacts_path, _json_bytes(data), mode=0o644)


def _json_bytes(data: Any) -> bytes:
    import json

    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _read_json(path: Path) -> Any:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KeyStoreError("missing", path=str(path)) from None
    except (OSError, ValueError) as exc:
        raise KeyStoreError(f"cannot read: {exc}", path=str(path)) from None


def _kept_card(path: Path, stamp: tuple[int, int, int, int]) -> Card:
    """The card of ``card.json``, kept in the data cache under the file's size and
    modification time, as Python keeps bytecode under its source's: 'legal' and 'act'
    then read no JSON, and do not import the json module (5.3 M instructions, issue
    35).  The kept form is the file's own fields, checked again as the file's are
    (:meth:`Card.from_json`)."""
    from pbem import datacache

    # by size and modification time (a card is replaced whole, at a new time), not by
    # path or inode: the cache is this home's own, and a copy of the home (a backup put
    # back, another machine) keeps both, so its entries still serve
    key = datacache.make_key("card", str(stamp[2]), str(stamp[3]))
    kept = datacache.load("card", key)
    if type(kept) is dict and all(type(k) is str and type(v) is str
                                  for k, v in kept.items()):
        try:
            return Card.from_json(kept)
        except (FormatError, SignatureError):
            pass  # not a card this code kept: read the file
    card = _read_card(path)
    datacache.store("card", key, card.to_json())
    return card


def _read_card(path: Path) -> Card:
    data = _read_json(path)
    try:
        return Card.from_json(data)
    except (FormatError, SignatureError) as exc:
        raise KeyStoreError(f"bad card: {exc}", path=str(path)) from None
