"""SHA-256 from CPython's own builtin module, not through ``hashlib``.

Importing ``hashlib`` loads ``_hashlib``, which maps OpenSSL's libcrypto and fetches
its digests: about 11.7 million instructions, 5% of ``pbem status`` (issue 19).  Every
start-up path of pbem needs SHA-256 alone, and CPython carries its own implementation
(``_sha256`` in 3.11, ``_sha2`` from 3.12), built unless a distribution configures
``--with-builtin-hashlib-hashes`` without it; then ``hashlib``'s is used.  SHA-256 is
one function (FIPS 180-4), so every implementation gives the same bytes;
tests/core/test_sha.py checks this one against ``hashlib`` on the standard's vectors.
The builtin is the slower on long inputs (no SHA instructions), so an input of
:data:`BIG` bytes or more goes to ``hashlib`` after all, imported then.
The ``hmac`` module imports ``hashlib`` too, so HMAC-SHA256 (the dice blocks) is here,
built on the same function as RFC 2104 says, and checked against ``hmac``; so is
HKDF-SHA256 (RFC 5869, the dice chain's secret), checked against cryptography's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import _Hash
    from hashlib import sha256 as small_sha256
else:
    try:
        from _sha256 import sha256 as small_sha256  # CPython 3.11
    except ImportError:
        try:
            from _sha2 import sha256 as small_sha256  # CPython 3.12 and later
        except ImportError:  # a build without the builtin hashes
            from hashlib import sha256 as small_sha256

#: from this many bytes on, OpenSSL's SHA-256 (with the CPU's SHA instructions about 4x
#: the builtin's speed: 0.45 ms against 2.5 ms for 514 KB) repays its import of about
#: 5 ms; once imported it takes every input past a block or two
BIG = 256 * 1024
_SMALL_ENOUGH = 4096
_openssl: Callable[[bytes], _Hash] | None = None


def sha256(data: bytes = b"") -> _Hash:
    """A SHA-256 object over ``data``: the builtin one for a short input, OpenSSL's for a
    long one (a long game's save, hashed several times a command)."""
    global _openssl
    if _openssl is None:
        if len(data) < BIG:
            return small_sha256(data)
        import hashlib

        _openssl = hashlib.sha256
    if len(data) < _SMALL_ENOUGH:
        return small_sha256(data)
    return _openssl(data)


#: SHA-256 digests this process took by :func:`content_digest`, by the exact content
#: (a dict compares keys whole, so equal content is the only hit); bounded, as a
#: long-running process (the web replay) could otherwise keep every file it hashed
_digests: dict[bytes, bytes] = {}
_DIGESTS_KEPT = 256


def content_digest(data: bytes | str) -> bytes:
    """SHA-256 of ``data`` (text as UTF-8), taken once per process for the same content.

    A game's scenario files are hashed for the invite's digest (pbem.engine
    ``scenario_files``) and for their cache keys as bytes and as text (hexkit): three
    hashes of ~100 KB a command, about 47 instructions a byte with the builtin hash,
    where looking the content up costs about one."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    found = _digests.get(raw)
    if found is None:
        if len(_digests) >= _DIGESTS_KEPT:
            _digests.clear()
        found = _digests[raw] = sha256(raw).digest()
    return found


def remember_digest(data: bytes, digest: bytes) -> None:
    """Take ``digest`` as :func:`content_digest` of ``data`` for this process: the data
    cache's digest of a file it read, kept under the file's stamp
    (:func:`pbem.datacache.read_known`)."""
    if len(_digests) >= _DIGESTS_KEPT:
        _digests.clear()
    _digests[data] = digest


__all__ = ["BIG", "content_digest", "hkdf_sha256", "hmac_sha256", "remember_digest",
           "sha256", "small_sha256"]

_BLOCK = 64  # SHA-256's block size in bytes, RFC 2104's B
# the tables ``key.translate`` XORs a key with RFC 2104's opad (0x5C) and ipad (0x36) by:
# every byte value XORed with the pad, as one 256-byte integer rather than a byte at a
# time by a generator (0.19 M instructions of every command that imports this, issue 35)
_VALUES = int.from_bytes(bytes(range(256)), "big")
_OUTER = (_VALUES ^ int.from_bytes(b"\x5c" * 256, "big")).to_bytes(256, "big")
_INNER = (_VALUES ^ int.from_bytes(b"\x36" * 256, "big")).to_bytes(256, "big")


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under ``key`` (RFC 2104): the bytes of
    ``hmac.digest(key, message, "sha256")``."""
    if len(key) > _BLOCK:
        key = small_sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = small_sha256(key.translate(_INNER))
    inner.update(message)
    return small_sha256(key.translate(_OUTER) + inner.digest()).digest()


#: RFC 5869's bound on the output: 255 blocks of HMAC-SHA256
HKDF_MAX = 255 * 32


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF-SHA256 (RFC 5869): the bytes of cryptography's ``HKDF(hashes.SHA256(),
    length, salt, info).derive(ikm)``.  That one fetched OpenSSL's digest for each
    derivation, about 4.5 million instructions for two HMACs (a twelfth of the cost
    ``pbem act`` adds to ``pbem legal``, issue 19); these are a few thousand.  An empty
    salt is RFC 5869's default, a block of zeros (HMAC pads the key with zeros anyway)."""
    if not 0 < length <= HKDF_MAX:
        raise ValueError(f"HKDF-SHA256 gives 1..{HKDF_MAX} bytes, not {length}")
    prk = hmac_sha256(salt, ikm)  # extract
    out = b""
    block = b""
    counter = 1
    while len(out) < length:  # expand: T(n) = HMAC(PRK, T(n-1) | info | n)
        block = hmac_sha256(prk, block + info + bytes((counter,)))
        out += block
        counter += 1
    return out[:length]
