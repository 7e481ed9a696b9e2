"""The open-dice protocol: vectors, an independent re-implementation, thresholds, statistics.

The vector files in tests/data/ are written by this module (run it as a script:
``python tests/core/test_dice.py --write``) from ``pbem.dice``, and every test run checks
them against both ``pbem.dice`` and the small independent implementation below, which is
written straight from docs/protocol-crypto.md and imports nothing of pbem (its msgpack
encoder and HKDF are hand-written too).  Two implementations agreeing on the file is what
makes it safe for a third to check itself against.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import canonical, dice
from pbem.dice import (
    MAX_CHAIN_LENGTH,
    HashChain,
    Roll,
    Sampler,
    block,
    block_words,
    chain_secret,
    chain_step,
    check_roll,
    crafted_words,
    draw_items,
    open_seed,
    parse_roll_name,
    rejection_limit,
    resolve,
    resolve_words,
    roll_dice,
    roll_name,
    sealed_seed,
    verify_link,
)
from pbem.engine import ChanceRequest
from pbem.errors import DiceError, UsageError

DATA = Path(__file__).resolve().parent.parent / "data"
DICE_FILE = DATA / "dice_vectors.json"
CHAIN_FILE = DATA / "chain_vectors.json"
TWO32 = 2**32


# =============================================================================================
# An independent implementation, straight from the spec (no pbem imports)
# =============================================================================================


def ref_pack(value: Any) -> bytes:
    """The canonical msgpack of the few types the dice protocol hashes."""
    if isinstance(value, str):
        raw = value.encode("utf-8")
        n = len(raw)
        if n < 32:
            head = bytes([0xA0 | n])
        elif n < 2**8:
            head = b"\xd9" + n.to_bytes(1, "big")
        elif n < 2**16:
            head = b"\xda" + n.to_bytes(2, "big")
        else:
            head = b"\xdb" + n.to_bytes(4, "big")
        return head + raw
    if isinstance(value, bytes):
        n = len(value)
        if n < 2**8:
            head = b"\xc4" + n.to_bytes(1, "big")
        elif n < 2**16:
            head = b"\xc5" + n.to_bytes(2, "big")
        else:
            head = b"\xc6" + n.to_bytes(4, "big")
        return head + value
    if isinstance(value, int):
        assert 0 <= value < 2**64
        if value < 128:
            return bytes([value])
        for tag, width in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
            if value < 2 ** (8 * width):
                return bytes([tag]) + value.to_bytes(width, "big")
    if isinstance(value, list):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")
        return head + b"".join(ref_pack(v) for v in value)
    raise TypeError(value)


def ref_hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    """RFC 5869 with SHA-256, 32 bytes of output (a single T(1) block)."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def ref_chain(secret: bytes, nonce: bytes, side: str, generation: int, length: int) -> list[bytes]:
    """[c_0, c_1, ..., c_N]."""
    top = ref_hkdf(secret, nonce, ref_pack(["pbem/v1/dice-secret", side, generation]))
    links = [top]
    for i in range(length, 0, -1):
        step = ref_pack(["pbem/v1/chain", nonce, side, generation, i, links[0]])
        links.insert(0, hashlib.sha256(step).digest())
    return links


def ref_seed(game_id: bytes, seq: int, actor: bytes, opponent: bytes) -> bytes:
    return hashlib.sha256(ref_pack(["pbem/v1/open", game_id, seq, actor, opponent])).digest()


def ref_words(seed: bytes, index: int) -> Iterator[int]:
    for j in itertools.count():
        msg = index.to_bytes(4, "big") + j.to_bytes(4, "big")
        out = hmac.new(seed, msg, hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(out[k : k + 4], "big")


def ref_uniform(words: Iterator[int], n: int) -> int:
    limit = TWO32 - TWO32 % n
    while True:
        w = next(words)
        if w < limit:
            return w % n


def ref_resolve(seed: bytes, index: int, request: dict[str, Any]) -> list[Any]:
    words = ref_words(seed, index)
    if request["kind"] == "dice":
        return [ref_uniform(words, sides) + 1 for sides in request["dice"]]
    items = sorted(request["contents"], key=lambda s: s.encode("utf-8"))
    for k in range(request["count"]):
        j = k + ref_uniform(words, len(items) - k)
        items[k], items[j] = items[j], items[k]
    return items[: request["count"]]


# =============================================================================================
# The vectors, generated from pbem.dice
# =============================================================================================

H = bytes.fromhex
SECRET_A = H("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")  # RFC 8032 T1
SECRET_B = H("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")  # RFC 8032 T2
NONCE = hashlib.sha256(b"pbem test nonce").digest()
GAME_ID = hashlib.sha256(b"pbem test invite body").digest()

ROLL_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("2d6", 0, {"kind": "dice", "dice": [6, 6]}),
    ("d6", 1, {"kind": "dice", "dice": [6]}),
    ("d10", 2, {"kind": "dice", "dice": [10]}),
    ("d20 d20", 3, {"kind": "dice", "dice": [20, 20]}),
    ("d6 d10 d20 d100", 4, {"kind": "dice", "dice": [6, 10, 20, 100]}),
    (
        "draw 1 of 5 with a duplicate",
        5,
        {"kind": "draw", "contents": ["rain", "clear", "snow", "clear", "fog"], "count": 1},
    ),
    ("shuffle 4", 6, {"kind": "draw", "contents": ["d", "c", "b", "a"], "count": 4}),
    (
        "draw 3 of 9, UTF-8 order",
        7,
        {
            "kind": "draw",
            "contents": [
                "Ärräpää",
                "Zulu",
                "alpha",
                "Äbo",
                "zeta",
                "Alpha",
                "ä",
                "\U0001d518",
                "\uff5a",
            ],
            "count": 3,
        },
    ),
]


def request_of(spec: dict[str, Any]) -> ChanceRequest:
    if spec["kind"] == "dice":
        return ChanceRequest.roll("vector", *spec["dice"])
    return ChanceRequest.draw("vector", "cup", spec["contents"], spec["count"])


def roll_vector(name: str, seed: bytes, index: int, spec: dict[str, Any]) -> dict[str, Any]:
    roll = resolve(seed, index, request_of(spec))
    first = [w for _, _, w in itertools.islice(block_words(seed, index), 8)]
    return {
        "name": name,
        "seed": seed.hex(),
        "index": index,
        "request": spec,
        "block_0": block(seed, index, 0).hex(),
        "first_words": first,
        "steps": [
            [s.j, s.position, s.word, s.n, s.limit, s.accepted, s.result] for s in roll.steps
        ],
        "outcome": list(roll.outcome),
    }


def find_rejection(seed: bytes, sides: int) -> int:
    """The first request index whose d``sides`` roll rejects a word (for a vector)."""
    for index in itertools.count():
        if not resolve(seed, index, ChanceRequest.roll("x", sides)).steps[0].accepted:
            return index
    raise AssertionError  # pragma: no cover


def build_chain_vectors() -> dict[str, Any]:
    chains = []
    for secret, side, generation, length, full in (
        (SECRET_A, "soviet", 0, 8, True),
        (SECRET_B, "german", 0, 8, True),
        (SECRET_A, "soviet", 1, 3, True),
        (SECRET_B, "german", 0, 1000, False),
    ):
        chain = HashChain(secret, NONCE, side, generation, length)
        entry: dict[str, Any] = {
            "secret": secret.hex(),
            "nonce": NONCE.hex(),
            "side": side,
            "generation": generation,
            "length": length,
            "hkdf_info": canonical.encode(["pbem/v1/dice-secret", side, generation]).hex(),
            "chain_secret": chain_secret(secret, NONCE, side, generation).hex(),
            "anchor": chain.anchor.hex(),
            "step_1_preimage": canonical.encode(
                ["pbem/v1/chain", NONCE, side, generation, 1, chain.link(1)]
            ).hex(),
        }
        if full:
            entry["links"] = [chain.link(i).hex() for i in range(1, length + 1)]
        else:
            entry["some_links"] = {str(i): chain.link(i).hex() for i in (1, 2, 500, 999, 1000)}
        chains.append(entry)
    return {
        "description": (
            "Dice hash chains (docs/protocol-crypto.md). chain_secret = c_N = "
            "HKDF-SHA256(ikm=secret, salt=nonce, info=hkdf_info, length=32); "
            'c_{i-1} = SHA-256(canonical msgpack ["pbem/v1/chain", nonce, side, '
            "generation, i, c_i]); anchor = c_0; links[i-1] = c_i. Secrets are the RFC 8032 "
            "TEST 1 and TEST 2 private keys."
        ),
        "chains": chains,
    }


def build_dice_vectors() -> dict[str, Any]:
    soviet = HashChain(SECRET_A, NONCE, "soviet", 0, 8)
    german = HashChain(SECRET_B, NONCE, "german", 0, 8)
    # seq 2: the creator's first turn reveals its link 1; the joiner has revealed nothing
    # yet, so its anchor counts as its latest link.  seq 3: the joiner's reply.
    seeds: list[dict[str, Any]] = []
    for seq, actor, opponent in (
        (2, soviet.link(1), german.anchor),
        (3, german.link(1), soviet.link(1)),
        (4, soviet.link(2), german.link(1)),
    ):
        seeds.append(
            {
                "game_id": GAME_ID.hex(),
                "seq": seq,
                "actor_link": actor.hex(),
                "opponent_link": opponent.hex(),
                "preimage": canonical.encode(["pbem/v1/open", GAME_ID, seq, actor, opponent]).hex(),
                "seed": open_seed(GAME_ID, seq, actor, opponent).hex(),
            }
        )
    seed = H(seeds[0]["seed"])
    blocks = [
        {
            "seed": seed.hex(),
            "index": i,
            "j": j,
            "message": (i.to_bytes(4, "big") + j.to_bytes(4, "big")).hex(),
            "block": block(seed, i, j).hex(),
        }
        for i, j in ((0, 0), (0, 1), (3, 0), (70000, 2**32 - 1))
    ]
    rolls = [roll_vector(name, seed, index, spec) for name, index, spec in ROLL_CASES]
    other = H(seeds[1]["seed"])
    rolls.append(roll_vector("2d6 in the next file", other, 0, {"kind": "dice", "dice": [6, 6]}))
    rejecting = find_rejection(seed, 1_000_000)
    rolls.append(
        roll_vector(
            "d1000000 whose first word is rejected",
            seed,
            rejecting,
            {"kind": "dice", "dice": [1_000_000]},
        )
    )
    # sealed dice: file 3 (the joiner's) ended at a chance node; the creator's file 4
    # finalizes its rolls with soviet link 2 (a made-up body hash stands for file 3's)
    body_3 = hashlib.sha256(b"the body of file 3").digest()
    sealed_seeds = [
        {
            "game_id": GAME_ID.hex(),
            "seq": 3,
            "body_hash": body_3.hex(),
            "resolver_link": soviet.link(2).hex(),
            "preimage": canonical.encode(["pbem/v1/sealed", GAME_ID, 3, body_3,
                                          soviet.link(2)]).hex(),
            "seed": sealed_seed(GAME_ID, 3, body_3, soviet.link(2)).hex(),
        }
    ]
    return {
        "description": (
            "Open and sealed dice (docs/protocol-crypto.md 3.3, 3.3.1). Seeds from the chains of "
            "chain_vectors.json (soviet: TEST 1 key, german: TEST 2 key, generation 0, "
            "length 8). Each roll: block_0 = HMAC-SHA256(seed, u32be(index) || u32be(0)); "
            "first_words = block_0 as eight big-endian u32; steps = [block j, word position, "
            "word, n, limit, accepted, result] for every word read; outcome as recorded. "
            "Generated by pbem.dice and checked against an independent implementation."
        ),
        "nonce": NONCE.hex(),
        "seeds": seeds,
        "sealed_seeds": sealed_seeds,
        "blocks": blocks,
        "rolls": rolls,
    }


def write_vectors() -> None:
    for path, data in ((CHAIN_FILE, build_chain_vectors()), (DICE_FILE, build_dice_vectors())):
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# =============================================================================================
# Vector tests
# =============================================================================================


def test_vector_files_match_implementation() -> None:
    assert load(CHAIN_FILE) == build_chain_vectors()
    assert load(DICE_FILE) == build_dice_vectors()


def test_chain_vectors_match_independent_implementation() -> None:
    for entry in load(CHAIN_FILE)["chains"]:
        secret, nonce = H(entry["secret"]), H(entry["nonce"])
        side, generation, length = entry["side"], entry["generation"], entry["length"]
        links = ref_chain(secret, nonce, side, generation, length)
        assert ref_pack(["pbem/v1/dice-secret", side, generation]).hex() == entry["hkdf_info"]
        assert links[length].hex() == entry["chain_secret"]
        assert links[0].hex() == entry["anchor"]
        preimage = ref_pack(["pbem/v1/chain", nonce, side, generation, 1, links[1]])
        assert preimage.hex() == entry["step_1_preimage"]
        assert hashlib.sha256(preimage).digest() == links[0]
        if "links" in entry:
            assert [c.hex() for c in links[1:]] == entry["links"]
        else:
            for i, link in entry["some_links"].items():
                assert links[int(i)].hex() == link


def test_dice_vectors_match_independent_implementation() -> None:
    data = load(DICE_FILE)
    for s in data["seeds"]:
        args = (H(s["game_id"]), s["seq"], H(s["actor_link"]), H(s["opponent_link"]))
        assert ref_pack(["pbem/v1/open", *args]).hex() == s["preimage"]
        assert ref_seed(*args).hex() == s["seed"]
    for s in data["sealed_seeds"]:
        packed = ref_pack(["pbem/v1/sealed", H(s["game_id"]), s["seq"], H(s["body_hash"]),
                           H(s["resolver_link"])])
        assert packed.hex() == s["preimage"]
        assert hashlib.sha256(packed).hexdigest() == s["seed"]
    for b in data["blocks"]:
        msg = b["index"].to_bytes(4, "big") + b["j"].to_bytes(4, "big")
        assert msg.hex() == b["message"]
        assert hmac.new(H(b["seed"]), msg, hashlib.sha256).hexdigest() == b["block"]
    for r in data["rolls"]:
        seed = H(r["seed"])
        assert ref_resolve(seed, r["index"], r["request"]) == r["outcome"], r["name"]
        words = ref_words(seed, r["index"])
        assert [next(words) for _ in range(8)] == r["first_words"]
        assert (
            hmac.new(seed, r["index"].to_bytes(4, "big") + bytes(4), hashlib.sha256).hexdigest()
            == r["block_0"]
        )
        # the recorded steps are the words read in order, accepted or not
        words = ref_words(seed, r["index"])
        for _j, _position, word, n, limit, accepted, result in r["steps"]:
            assert word == next(words)
            assert limit == TWO32 - TWO32 % n
            assert accepted == (word < limit)
            assert result == (word % n if accepted else None)
        last_j, last_position = r["steps"][-1][:2]
        assert last_j * 8 + last_position == len(r["steps"]) - 1


def test_vectors_include_a_rejection_and_every_kind() -> None:
    rolls = load(DICE_FILE)["rolls"]
    assert any(not step[5] for r in rolls for step in r["steps"])
    assert {r["request"]["kind"] for r in rolls} == {"dice", "draw"}


def test_cup_order_is_utf8_not_utf16() -> None:
    """U+FF5A sorts before U+1D518 in UTF-8 (and code points); UTF-16 would swap them."""
    cup = ["\U0001d518", "\uff5a", "z"]
    assert sorted(cup, key=lambda s: s.encode("utf-8")) == ["z", "\uff5a", "\U0001d518"]
    assert sorted(cup, key=lambda s: s.encode("utf-16-be"))[1] == "\U0001d518"
    # a full draw with words 0, 0, 0 keeps the sorted order: the order the protocol fixes
    request = ChanceRequest.draw("t", "cup", cup, 3)
    assert resolve_words(crafted_words([0, 0, 0]), 0, request).outcome == (
        "z",
        "\uff5a",
        "\U0001d518",
    )


def test_reference_encoder_agrees_with_canonical() -> None:
    for value in (
        ["pbem/v1/chain", b"\x00" * 32, "soviet", 0, 1, b"\xff" * 32],
        ["x" * 40, b"y" * 300, 2**16, 2**32, 255, 127, 128],
        list(range(20)),
        ["é" * 200, b"", ""],
    ):
        assert ref_pack(value) == canonical.encode(value)


def test_reference_hkdf_agrees_with_cryptography() -> None:
    for side in ("soviet", "german"):
        for generation in (0, 1, 300):
            info = ref_pack(["pbem/v1/dice-secret", side, generation])
            assert ref_hkdf(SECRET_A, NONCE, info) == chain_secret(
                SECRET_A, NONCE, side, generation
            )


# =============================================================================================
# Chains
# =============================================================================================


@settings(max_examples=60, deadline=None)
@given(
    secret=st.binary(min_size=32, max_size=32),
    nonce=st.binary(min_size=1, max_size=64),
    side=st.text(min_size=1, max_size=12),
    generation=st.integers(0, 2**40),
    length=st.integers(1, 40),
)
def test_chain_verifies_link_by_link(
    secret: bytes, nonce: bytes, side: str, generation: int, length: int
) -> None:
    chain = HashChain(secret, nonce, side, generation, length)
    previous = chain.anchor
    for i in range(1, length + 1):
        link = chain.link(i)
        assert verify_link(nonce, side, generation, i, link, previous)
        assert chain_step(nonce, side, generation, i, link) == previous
        previous = link
    assert previous == chain_secret(secret, nonce, side, generation)
    assert ref_chain(secret, nonce, side, generation, length)[0] == chain.anchor


@settings(max_examples=60, deadline=None)
@given(
    secret=st.binary(min_size=32, max_size=32),
    length=st.integers(2, 20),
    data=st.data(),
)
def test_wrong_link_fails(secret: bytes, length: int, data: st.DataObject) -> None:
    chain = HashChain(secret, NONCE, "soviet", 0, length)
    i = data.draw(st.integers(1, length))
    link, previous = chain.link(i), chain.link(i - 1) if i > 1 else chain.anchor
    bit = data.draw(st.integers(0, 255))
    flipped = bytearray(link)
    flipped[bit // 8] ^= 1 << (bit % 8)
    assert not verify_link(NONCE, "soviet", 0, i, bytes(flipped), previous)
    assert not verify_link(NONCE, "german", 0, i, link, previous)  # other side
    assert not verify_link(NONCE, "soviet", 1, i, link, previous)  # other generation
    assert not verify_link(NONCE + b"x", "soviet", 0, i, link, previous)  # other game
    other_i = i + 1 if i < length else i - 1
    assert not verify_link(NONCE, "soviet", 0, other_i, link, previous)  # other place
    if i > 1:
        # skipping a link: c_i does not hash to c_{i-2}
        assert not verify_link(
            NONCE, "soviet", 0, i, link, chain.link(i - 2) if i > 2 else chain.anchor
        )


def test_verify_link_refuses_malformed_input() -> None:
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, 3)
    assert not verify_link(NONCE, "soviet", 0, 1, chain.link(1)[:31], chain.anchor)
    assert not verify_link(NONCE, "soviet", 0, 0, chain.link(1), chain.anchor)
    assert not verify_link(NONCE, "soviet", 0, 1, chain.link(1), chain.anchor[:31])
    assert not verify_link(b"", "soviet", 0, 1, chain.link(1), chain.anchor)
    assert not verify_link(NONCE, "", 0, 1, chain.link(1), chain.anchor)
    assert not verify_link(NONCE, "soviet", -1, 1, chain.link(1), chain.anchor)


def test_chain_bounds() -> None:
    for bad in (0, -1, MAX_CHAIN_LENGTH + 1):
        with pytest.raises(ValueError):
            HashChain(SECRET_A, NONCE, "soviet", 0, bad)
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, 5)
    for bad in (0, 6, -1):
        with pytest.raises(ValueError):
            chain.link(bad)
    with pytest.raises(ValueError):
        chain_secret(SECRET_A[:31], NONCE, "soviet", 0)
    with pytest.raises(ValueError):
        HashChain(SECRET_A, NONCE, "soviet", True, 5)  # a bool is not a generation
    assert "soviet" in repr(chain) and SECRET_A.hex() not in repr(chain)


def test_longest_chain() -> None:
    chain = HashChain(SECRET_B, NONCE, "german", 2, MAX_CHAIN_LENGTH)
    assert chain.link(MAX_CHAIN_LENGTH) == chain_secret(SECRET_B, NONCE, "german", 2)
    for i in (1, 2, 50_000, MAX_CHAIN_LENGTH):
        previous = chain.link(i - 1) if i > 1 else chain.anchor
        assert verify_link(NONCE, "german", 2, i, chain.link(i), previous)


def test_chains_are_deterministic_and_separated() -> None:
    a = HashChain(SECRET_A, NONCE, "soviet", 0, 4)
    assert HashChain(SECRET_A, NONCE, "soviet", 0, 4).anchor == a.anchor  # rebuildable
    assert HashChain(SECRET_A, NONCE, "soviet", 0, 5).link(5) == a.link(4) != a.link(3)
    others = {
        HashChain(SECRET_B, NONCE, "soviet", 0, 4).anchor,
        HashChain(SECRET_A, NONCE[:-1], "soviet", 0, 4).anchor,
        HashChain(SECRET_A, NONCE, "german", 0, 4).anchor,
        HashChain(SECRET_A, NONCE, "soviet", 1, 4).anchor,
    }
    assert a.anchor not in others and len(others) == 4


# =============================================================================================
# Seeds, blocks, resolve
# =============================================================================================


def test_open_seed_is_ordered_and_bound_to_everything() -> None:
    a, b = b"\x01" * 32, b"\x02" * 32
    base = open_seed(GAME_ID, 5, a, b)
    assert base == ref_seed(GAME_ID, 5, a, b)
    assert (
        len(
            {
                base,
                open_seed(GAME_ID, 5, b, a),
                open_seed(GAME_ID, 6, a, b),
                open_seed(GAME_ID[::-1], 5, a, b),
            }
        )
        == 4
    )


def test_block_counter_bounds() -> None:
    seed = b"s" * 32
    assert block(seed, 2**32 - 1, 2**32 - 1) == hmac.new(seed, b"\xff" * 8, hashlib.sha256).digest()
    for index, j in ((2**32, 0), (0, 2**32), (-1, 0)):
        with pytest.raises(ValueError):
            block(seed, index, j)


def test_stream_spans_blocks_in_order() -> None:
    seed = b"s" * 32
    stream = list(itertools.islice(block_words(seed, 9), 20))
    assert [(j, p) for j, p, _ in stream] == [(k // 8, k % 8) for k in range(20)]
    ref = ref_words(seed, 9)
    assert [w for _, _, w in stream] == [next(ref) for _ in range(20)]


@settings(max_examples=200, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    index=st.integers(0, 2**32 - 1),
    sides=st.lists(st.integers(2, 1_000_000), min_size=1, max_size=6),
)
def test_dice_deterministic_and_in_range(seed: bytes, index: int, sides: list[int]) -> None:
    request = ChanceRequest.roll("p", *sides)
    roll = resolve(seed, index, request)
    assert roll == resolve(seed, index, request)
    assert roll.index == index
    assert len(roll.outcome) == len(sides)
    assert all(isinstance(f, int) and 1 <= f <= s for f, s in zip(roll.outcome, sides, strict=True))
    request.check(roll.outcome)
    assert list(roll.outcome) == ref_resolve(seed, index, {"kind": "dice", "dice": sides})
    assert sum(s.accepted for s in roll.steps) == len(sides)
    check_roll(seed, index, request, roll.outcome)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    index=st.integers(0, 1000),
    contents=st.lists(
        st.sampled_from(["a", "b", "ä", "Z", "inf", "", "\uff5a", "\U0001d518"]),
        min_size=1,
        max_size=25,
    ),
    data=st.data(),
)
def test_draw_is_a_sub_multiset(
    seed: bytes, index: int, contents: list[str], data: st.DataObject
) -> None:
    count = data.draw(st.integers(1, len(contents)))
    request = ChanceRequest.draw("p", "cup", contents, count)
    roll = resolve(seed, index, request)
    assert roll == resolve(seed, index, request)
    assert len(roll.outcome) == count
    assert not Counter(roll.outcome) - Counter(contents)
    request.check(roll.outcome)
    # the order the engine lists the cup in does not matter
    shuffled = ChanceRequest.draw("p", "cup", list(reversed(contents)), count)
    assert resolve(seed, index, shuffled).outcome == roll.outcome
    assert list(roll.outcome) == ref_resolve(
        seed, index, {"kind": "draw", "contents": contents, "count": count}
    )


def test_index_not_content_decides_the_stream() -> None:
    """Varying one request must not change the dice of the next (counter per request)."""
    seed = b"q" * 32
    later = resolve(seed, 1, ChanceRequest.roll("b", 6, 6))
    for first in (ChanceRequest.roll("a", 6), ChanceRequest.roll("a", 20, 20, 20)):
        resolve(seed, 0, first)
        assert resolve(seed, 1, ChanceRequest.roll("b", 6, 6)) == later


def test_check_roll_refuses_another_outcome() -> None:
    seed = b"r" * 32
    request = ChanceRequest.roll("attack", 6, 6)
    roll = check_roll(seed, 4, request, resolve(seed, 4, request).outcome)
    wrong = tuple(int(f) % 6 + 1 for f in roll.outcome)
    with pytest.raises(DiceError, match="recorded"):
        check_roll(seed, 4, request, wrong)


def test_explain_names_blocks_and_words() -> None:
    seed = H(load(DICE_FILE)["rolls"][-1]["seed"])
    index = load(DICE_FILE)["rolls"][-1]["index"]
    roll = resolve(seed, index, ChanceRequest.roll("x", 1_000_000))
    lines = roll.explain()
    assert "rejected" in lines[0] and "block 0 word 0" in lines[0]
    assert "die 1 of 1 (d1000000)" in lines[-1]


# =============================================================================================
# Rejection thresholds, with crafted word streams
# =============================================================================================

SIZES = sorted({6, 10, 20, 100, 1_000_000, 2**31 + 1, 2**32 - 1, *range(1, 61)})


def test_known_limits() -> None:
    assert rejection_limit(6) == 4294967292
    assert rejection_limit(10) == 4294967290
    assert rejection_limit(20) == 4294967280
    assert rejection_limit(1_000_000) == 4294000000
    assert rejection_limit(1) == rejection_limit(2) == rejection_limit(64) == TWO32
    assert rejection_limit(2**31 + 1) == 2**31 + 1
    for bad in (0, -3, TWO32 + 1):
        with pytest.raises(ValueError):
            rejection_limit(bad)


@pytest.mark.parametrize("n", SIZES)
def test_threshold_edges(n: int) -> None:
    limit = rejection_limit(n)
    assert limit == TWO32 - TWO32 % n
    assert limit % n == 0 and TWO32 - limit < n  # whole runs only, and as many as fit
    sampler = Sampler(crafted_words([limit - 1]))
    assert sampler.uniform(n) == n - 1
    assert sampler.steps[0].accepted
    if limit == TWO32:  # a power of two: no word is ever rejected
        return
    sampler = Sampler(crafted_words([limit, TWO32 - 1, 7]))
    assert sampler.uniform(n) == 7 % n
    assert [s.accepted for s in sampler.steps] == [False, False, True]
    assert [s.result for s in sampler.steps] == [None, None, 7 % n]
    assert [(s.j, s.position) for s in sampler.steps] == [(0, 0), (0, 1), (0, 2)]


@pytest.mark.parametrize("sides", [6, 10, 20])
def test_dice_thresholds_through_resolve(sides: int) -> None:
    limit = rejection_limit(sides)
    request = ChanceRequest.roll("t", sides, sides)
    roll = resolve_words(crafted_words([limit - 1, limit, limit + 1, 0]), 3, request)
    assert roll.outcome == (sides, 1)  # (limit-1) mod n = n-1 -> face n; then 0 -> face 1
    assert [s.accepted for s in roll.steps] == [True, False, False, True]
    assert roll.index == 3


@pytest.mark.parametrize("size", range(2, 61))
def test_cup_thresholds_through_resolve(size: int) -> None:
    contents = [f"item{k:02d}" for k in range(size)]
    request = ChanceRequest.draw("t", "cup", contents[::-1], 1)
    limit = rejection_limit(size)
    last = resolve_words(crafted_words([limit - 1]), 0, request)
    assert last.outcome == (contents[-1],)
    if limit < TWO32:
        first = resolve_words(crafted_words([limit, 0]), 0, request)
        assert first.outcome == (contents[0],)
        assert [s.accepted for s in first.steps] == [False, True]


def test_draw_direction_is_front_to_back() -> None:
    """k = 0 first, j = k + uniform(len - k), swap: pinned with crafted words."""
    request = ChanceRequest.draw("t", "cup", ["c", "a", "d", "b"], 4)  # sorted: a b c d
    # k=0: 2 mod 4 = 2 -> swap 0,2: c b a d; k=1: 1 mod 3 = 1 -> swap 1,2: c a b d;
    # k=2: 0 -> stays; k=3: uniform(1) reads a word too
    roll = resolve_words(crafted_words([2, 1, 0, 12345]), 0, request)
    assert roll.outcome == ("c", "a", "b", "d")
    assert [s.n for s in roll.steps] == [4, 3, 2, 1]


def test_exhausted_crafted_stream() -> None:
    with pytest.raises(DiceError):
        Sampler(crafted_words([rejection_limit(6)])).uniform(6)
    with pytest.raises(ValueError):
        list(crafted_words([TWO32]))


# =============================================================================================
# Uniformity: chi-square over 10**6 draws
# =============================================================================================

# Upper critical values of the chi-square distribution at p = 0.001, from the standard
# table (NIST/SEMATECH e-Handbook 1.3.6.7.4); checked when written against the regularized
# incomplete gamma function.  Keyed by degrees of freedom.
CHI2_999 = {3: 16.266, 5: 20.515, 10: 29.588, 23: 49.728}
N = 10**6


def chi_square(observed: Counter[Any], expected: dict[Any, float]) -> float:
    assert set(observed) <= set(expected)
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def fast_sampler(label: bytes) -> Sampler:
    """One long request stream (many words per HMAC block), not recording steps."""
    return Sampler(block_words(hashlib.sha256(label).digest(), 0), record=False)


@pytest.mark.slow
def test_uniform_d6() -> None:
    sampler = fast_sampler(b"chi d6")
    counts = Counter(roll_dice(sampler, (6,))[0] for _ in range(N))
    assert chi_square(counts, {f: N / 6 for f in range(1, 7)}) < CHI2_999[5]


@pytest.mark.slow
def test_uniform_2d6_sum() -> None:
    sampler = fast_sampler(b"chi 2d6")
    counts = Counter(sum(roll_dice(sampler, (6, 6))) for _ in range(N))
    ways = {s: 6 - abs(s - 7) for s in range(2, 13)}
    assert chi_square(counts, {s: N * w / 36 for s, w in ways.items()}) < CHI2_999[10]


@pytest.mark.slow
def test_uniform_cup_draw_with_duplicate() -> None:
    sampler = fast_sampler(b"chi cup")
    cup = ["fog", "clear", "snow", "clear", "rain"]
    counts = Counter(draw_items(sampler, cup, 1)[0] for _ in range(N))
    expected = {"clear": N * 2 / 5, "fog": N / 5, "rain": N / 5, "snow": N / 5}
    assert chi_square(counts, expected) < CHI2_999[3]


@pytest.mark.slow
def test_uniform_full_shuffle_of_four() -> None:
    sampler = fast_sampler(b"chi shuffle")
    cup = ["a", "b", "c", "d"]
    counts = Counter(draw_items(sampler, cup, 4) for _ in range(N))
    perms = list(itertools.permutations(cup))
    assert len(perms) == 24 and set(counts) == set(perms)
    assert chi_square(counts, {p: N / 24 for p in perms}) < CHI2_999[23]


def test_chi_square_would_catch_modulo_bias() -> None:
    """The test has teeth: w mod 6 over words with a biased top range fails it."""
    # words below 2**32 scaled to a range where the modulo bias is large (mod 6 of 0..9)
    counts = Counter((k % 10) % 6 + 1 for k in range(60_000))
    assert chi_square(counts, {f: 60_000 / 6 for f in range(1, 7)}) > CHI2_999[5]


# =============================================================================================
# Roll names
# =============================================================================================


def test_roll_names() -> None:
    assert roll_name(17, 3) == "17.3"
    assert parse_roll_name("17.3") == (17, 3)
    assert parse_roll_name(" 0.0 ") == (0, 0)
    for seq, index in ((2, 0), (123456, 78), (2**32 - 1, 9)):
        assert parse_roll_name(roll_name(seq, index)) == (seq, index)
    for bad in ("17", "17.", ".3", "a.b", "01.2", "1.02", "-1.2", "1.2.3", "", "17,3", "1e3.1"):
        with pytest.raises(UsageError):
            parse_roll_name(bad)
    with pytest.raises(ValueError):
        roll_name(-1, 0)


def test_roll_is_frozen() -> None:
    roll = resolve(b"z" * 32, 0, ChanceRequest.roll("x", 6))
    assert isinstance(roll, Roll)
    with pytest.raises(AttributeError):
        roll.index = 2  # type: ignore[misc]
    assert dice.DOMAIN_OPEN == "pbem/v1/open"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_vectors()
        print(f"wrote {CHAIN_FILE} and {DICE_FILE}")
    else:
        print("usage: python tests/core/test_dice.py --write", file=sys.stderr)
        sys.exit(2)


@given(st.integers(1, 100_000), st.binary(min_size=32, max_size=32))
def test_fast_chain_step_equals_canonical_encoding(i: int, link: bytes) -> None:
    hasher = dice._ChainHasher(b"n" * 32, "german", 3)
    assert hasher.step(i, link) == dice.chain_step(b"n" * 32, "german", 3, i, link)


@pytest.mark.parametrize("length", [1, 2, 127, 128, 129, 255, 256, 257, 4096, 65535, 65536,
                                    65537])
def test_chain_built_inline_equals_step_by_step(length: int) -> None:
    """HashChain hashes its links inline, a run per msgpack int form: the same links as
    chain_step one by one (across each change of form: 127/128, 255/256, 65535/65536)."""
    chain = dice.HashChain(b"k" * 32, b"n" * 32, "soviet", 2, length)
    link = dice.chain_secret(b"k" * 32, b"n" * 32, "soviet", 2)
    assert chain.link(length) == link
    for i in range(length, max(length - 300, 0), -1):
        link = dice.chain_step(b"n" * 32, "soviet", 2, i, link)
        if i > 1:
            assert chain.link(i - 1) == link, i
    if length <= 4096:
        for i in range(max(length - 300, 0), 0, -1):
            link = dice.chain_step(b"n" * 32, "soviet", 2, i, link)
        assert chain.anchor == link


@pytest.mark.parametrize("order", [(5, 1, 300, 0), (300, 299, 129, 128, 127, 2),
                                   (4096, 256, 255, 1), (0,)])
def test_a_chain_walked_part_way_gives_the_same_links(order: tuple[int, ...]) -> None:
    """``link(i)`` hashes only down to ``c_i`` (issue 19): asked in any order, each link
    is the one the whole walk gives (the independent implementation's)."""
    expected = ref_chain(SECRET_A, NONCE, "soviet", 0, 4096)
    chain = HashChain(SECRET_A, NONCE, "soviet", 0, 4096)
    for i in order:
        assert (chain.anchor if i == 0 else chain.link(i)) == expected[i]
    assert [chain.link(i) for i in range(1, 4097)] == expected[1:]
    assert chain.anchor == expected[0]
