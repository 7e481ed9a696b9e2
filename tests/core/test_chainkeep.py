"""Dice-chain links kept between commands (pbem.chainkeep, issue 19): the same links as
the whole walk, far fewer hashes, nothing readable without the private key, and an entry
that does not authenticate is only a miss."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pbem import canonical, chainkeep, datacache, dice
from pbem.dice import HashChain, chain_secret

SECRET_A = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
SECRET_B = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
NONCE = hashlib.sha256(b"pbem test nonce").digest()
LENGTH = 4096


def reference(secret: bytes, side: str = "soviet", generation: int = 0,
              length: int = LENGTH) -> list[bytes]:
    """[c_0 .. c_N] by hashlib and canonical.encode, as docs/protocol-crypto.md says."""
    links = [chain_secret(secret, NONCE, side, generation)]
    for i in range(length, 0, -1):
        step = canonical.encode(["pbem/v1/chain", NONCE, side, generation, i, links[0]])
        links.insert(0, hashlib.sha256(step).digest())
    return links


@pytest.fixture(scope="module")
def expected() -> list[bytes]:
    return reference(SECRET_A)


class Counter:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = dice.small_sha256

        def counting(data: bytes = b"") -> object:
            self.calls += 1
            return real(data)

        monkeypatch.setattr(dice, "small_sha256", counting)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("chain-*.msgpack"))


def test_nothing_is_kept_without_a_cache_folder(tmp_path: Path, expected: list[bytes]) -> None:
    datacache.configure(None)
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH)
    assert chain.anchor == expected[0]
    assert list(tmp_path.iterdir()) == []


def test_a_kept_chain_gives_the_same_links_with_few_hashes(
        data_cache: Path, expected: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).anchor == expected[0]
    assert len(entries(data_cache)) == 1
    count = Counter(monkeypatch)
    for i in (1, 2, 63, 64, 65, 700, 4095, 4096, 3):  # each in a fresh command
        count.calls = 0
        assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(i) == expected[i]
        assert count.calls < chainkeep.GAP, i
    # one chain object asked in any order, then every link
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH)
    for i in (900, 5, 899, 64, 1, 4000, 128, 127):
        assert chain.link(i) == expected[i]
    assert [chain.link(i) for i in range(1, LENGTH + 1)] == expected[1:]
    assert chain.anchor == expected[0]


def test_a_game_that_started_before_keeps_its_links_at_the_first_walk(
        data_cache: Path, expected: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """No entry yet (a game begun before this version, or the cache deleted): the first
    command walks from c_N and keeps what it passed; the next walks a few hashes."""
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(10) == expected[10]
    count = Counter(monkeypatch)
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(11) == expected[11]
    assert count.calls < chainkeep.GAP
    # links below the first one asked were never passed: walked (and kept) when asked
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(1) == expected[1]


def test_the_entry_holds_no_link(data_cache: Path, expected: list[bytes]) -> None:
    """What is kept is sealed: no link, no part of one, and not c_N, appears as itself."""
    HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(1)
    data = entries(data_cache)[0].read_bytes()
    secret = chain_secret(SECRET_A, NONCE, "soviet", 0)
    for link in [*expected, secret]:
        for start in range(0, 32, 8):
            assert link[start:start + 8] not in data
    assert SECRET_A[:8] not in data


def _forge(folder: Path, change: int) -> None:
    """Rewrite the entry as someone who can write the home could: flip one sealed byte
    and recompute the cache's own payload hash, so that only the MAC can tell."""
    assert len(entries(folder)) == 1
    key = _keys_of(SECRET_A)[0]
    entry = datacache.load("chain", key)
    assert entry is not None
    links = entry["links"]
    index, sealed = links[change]
    links[change] = [index, bytes([sealed[0] ^ 1]) + sealed[1:]]
    datacache.store("chain", key, entry)
    assert len(entries(folder)) == 1


def _keys_of(secret: bytes) -> list[bytes]:
    return [chainkeep.Keeper(secret, NONCE, "soviet", 0, LENGTH)._name]


@pytest.mark.parametrize("change", [0, 5, -1])
def test_a_forged_entry_is_a_miss_never_a_wrong_link(
        data_cache: Path, expected: list[bytes], monkeypatch: pytest.MonkeyPatch,
        change: int) -> None:
    HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).anchor  # noqa: B018 (keeps the links)
    _forge(data_cache, change)
    count = Counter(monkeypatch)
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH)
    assert chain.link(5) == expected[5]
    assert count.calls == LENGTH - 5  # the whole walk again, from c_N
    # and the entry is written anew: the next command walks little
    count.calls = 0
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(6) == expected[6]
    assert count.calls < chainkeep.GAP


def test_another_identity_side_or_generation_keeps_its_own(data_cache: Path) -> None:
    a = HashChain(SECRET_A, NONCE, "soviet", 0, 200)
    b = HashChain(SECRET_B, NONCE, "soviet", 0, 200)
    assert a.anchor != b.anchor
    HashChain(SECRET_A, NONCE, "german", 0, 200).anchor  # noqa: B018
    HashChain(SECRET_A, NONCE, "soviet", 1, 200).anchor  # noqa: B018
    assert len(entries(data_cache)) == 4
    for secret, side, generation in ((SECRET_A, "soviet", 0), (SECRET_B, "soviet", 0),
                                     (SECRET_A, "german", 0), (SECRET_A, "soviet", 1)):
        want = reference(secret, side, generation, 200)
        chain = HashChain(secret, NONCE, side, generation, 200)
        assert [chain.link(i) for i in range(1, 201)] == want[1:]


def test_an_entry_moved_to_another_chains_name_is_refused(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another chain's entry, put where this chain's would be (with the cache's framing
    rewritten for this name): its MAC is under another key."""
    HashChain(SECRET_B, NONCE, "soviet", 0, LENGTH).anchor  # noqa: B018
    other = chainkeep.Keeper(SECRET_B, NONCE, "soviet", 0, LENGTH)._name
    entry = datacache.load("chain", other)
    datacache.store("chain", _keys_of(SECRET_A)[0], entry)
    count = Counter(monkeypatch)
    want = reference(SECRET_A, length=LENGTH)
    assert HashChain(SECRET_A, NONCE, "soviet", 0, LENGTH).link(2) == want[2]
    assert count.calls == LENGTH - 2
