"""Dice-chain links kept between commands, sealed under the identity's own key (issue 19).

A side reveals link ``c_i`` of its hash chain in its i-th file, and the chain runs down
from the secret ``c_N`` (:class:`pbem.dice.HashChain`): ``c_i`` costs ``N - i`` SHA-256s,
4,096 in the first files of a game, about 35 million instructions, a tenth of ``pbem
act``.  Every link not yet revealed is a secret: whoever knows ``c_j`` knows every
``c_i`` below it, so could foresee this side's seeds.  So a link is kept here only as
safe as the key it is derived from:

- one link every :data:`GAP` (64 of a chain of 4,096), each XORed with its own pad,
  ``HMAC-SHA256(pad key, index)``; the pad key, the authentication key and the entry's
  name are derived by HKDF-SHA256 from the identity's private key, salted with the game
  nonce, for this side and chain generation (info ``[DOMAIN, side, generation,
  length]``), as ``c_N`` itself is (another info, so unrelated keys).  Reading a kept
  link needs the private key, which derives every link anyway; without it an entry says
  nothing about any link (HMAC-SHA256 as a pseudorandom function).  A passphrase that
  protects the key protects the kept links the same way.
- the entry, ``HOME/cache/chain-*`` (:mod:`pbem.datacache`, mode 0600), carries an
  HMAC-SHA256 over all its indices and sealed links under the authentication key: an
  entry damaged, forged, of another identity or another game does not authenticate and
  is a miss: the walk starts from ``c_N`` as before, and the entry is written anew.  A
  wrong link is never revealed from a kept one.

Each link is a function of the key, nonce, side, generation and index alone, and so is
its pad: an entry written again holds the same bytes for the same index (no pad is ever
used for two different links).  Nothing is kept unless :mod:`pbem.datacache` names a
folder (the command line does, for its home): library callers and tests walk as before.
docs/security.md says what this keeps and why.
"""

from __future__ import annotations

from _operator import _compare_digest as compare_digest  # hmac's, without hashlib
from typing import Any

from pbem import canonical
from pbem.sha import hkdf_sha256, hmac_sha256

DOMAIN = "pbem/v1/chain-keep"
#: a link kept every GAP indices: a command walks at most GAP - 1 hashes from one
GAP = 64
_LINK = 32


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(_LINK, "big")


class Keeper:
    """The kept links of one chain (one identity, game nonce, side, generation, length)."""

    def __init__(self, private_key: bytes, nonce: bytes, side: str, generation: int,
                 length: int) -> None:
        keys = hkdf_sha256(private_key, nonce,
                           canonical.encode([DOMAIN, side, generation, length]), 3 * _LINK)
        self._pad_key, self._mac_key, self._name = keys[:32], keys[32:64], keys[64:]
        self._sealed: dict[int, bytes] = {}

    def _pad(self, index: int) -> bytes:
        return hmac_sha256(self._pad_key, index.to_bytes(4, "big"))

    def _mac(self, sealed: dict[int, bytes]) -> bytes:
        # fixed-width records (4-byte index, 32-byte sealed link): one reading only
        return hmac_sha256(self._mac_key, b"".join(
            index.to_bytes(4, "big") + sealed[index] for index in sorted(sealed)))

    def load(self) -> list[int]:
        """The indices kept (authenticated), highest first; [] when none are."""
        from pbem import datacache

        entry: Any = datacache.load("chain", self._name)
        self._sealed = {}
        sealed = _parse(entry)
        if sealed is None or not compare_digest(self._mac(sealed), entry["mac"]):
            return []
        self._sealed = sealed
        return sorted(sealed, reverse=True)

    def link(self, index: int) -> bytes:
        """The kept link at ``index`` (one of :meth:`load`'s)."""
        return _xor(self._sealed[index], self._pad(index))

    def keep(self, links: dict[int, bytes]) -> None:
        """Add ``links`` (index: link, each index a multiple of :data:`GAP`) to the entry."""
        from pbem import datacache

        new = {i: link for i, link in links.items() if i not in self._sealed}
        if not new:
            return
        sealed = dict(self._sealed)
        sealed.update({i: _xor(link, self._pad(i)) for i, link in new.items()})
        datacache.store("chain", self._name, {
            "links": [[index, sealed[index]] for index in sorted(sealed)],
            "mac": self._mac(sealed)})
        self._sealed = sealed


def _parse(entry: Any) -> dict[int, bytes] | None:
    if type(entry) is not dict or set(entry) != {"links", "mac"} \
            or type(entry["mac"]) is not bytes or type(entry["links"]) is not list:
        return None
    sealed: dict[int, bytes] = {}
    for item in entry["links"]:
        if type(item) is not list or len(item) != 2 or type(item[0]) is not int \
                or type(item[1]) is not bytes or len(item[1]) != _LINK \
                or not 0 <= item[0] < 2**32 or item[0] % GAP or item[0] in sealed:
            return None
        sealed[item[0]] = item[1]
    return sealed
