"""A whole transcript as test vectors: fixed keys, nonce and clock give fixed bytes.

Ed25519 signatures are deterministic, so a game played with fixed keys, a fixed nonce, a
fixed clock and fixed choices produces byte-identical files on every machine.  The files
in ``tests/data/transcript/`` and the facts in ``transcript.json`` (game id, body hashes,
state digests, every roll) let a second implementation check its envelope, chain, seeds and
rolls against ours.  ``transcript-orders/`` is a game in which Bob orders every attack on
him answered by retreating (order records, the ``orders`` field); ``transcript-sealed/``
one with sealed dice (the sealed seed, rolls-only replies).  Regenerate with
``PBEM_WRITE_VECTORS=1 pytest tests/core/test_vectors.py`` only when the format changes on
purpose (and bump the format version).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import audit
from pbem.session import Home
from pbem.testing import Chooser, play_file

DATA = Path(__file__).parent.parent / "data" / "transcript"
ORDERS = Path(__file__).parent.parent / "data" / "transcript-orders"
SEALED = Path(__file__).parent.parent / "data" / "transcript-sealed"
VARIANTS = [(DATA, False, False), (ORDERS, False, True), (SEALED, True, False)]
IDS = ["open", "orders", "sealed"]
ALICE = bytes(range(32))
BOB = bytes(range(32, 64))
NONCE = bytes.fromhex("5e" * 32)


def play(root: Path, *, sealed_dice: bool = False, orders: bool = False) -> list[bytes]:
    alice = Home(root / "alice", clock=lambda: 1_800_000_000)
    bob = Home(root / "bob", clock=lambda: 1_800_000_000)
    alice.keys.create("Alice", "alice@example.org", None, secret=ALICE)
    bob.keys.create("Bob", "bob@example.org", None, secret=BOB)
    game = alice.new_game("skirmish", "short", "red", name="v", nonce=NONCE, chain_length=8,
                          dice_mode="sealed" if sealed_dice else "open")
    files = [game.files[0]]
    joined = bob.join(files[0], "0", name="v")
    files.append(joined.files[1])
    alice.receive(files[1], "1")
    if orders:
        bob.game("v").set_orders({"take-result": "retreat"})
    chooser = Chooser("vectors")
    while alice.game("v").result is None:
        for home, other in ((alice, bob), (bob, alice)):
            g = home.game("v")
            if g.my_decision() is None:
                continue
            seq = play_file(g, chooser)
            # an import may seal a reply at once (sealed dice): it is part of the game
            while seq is not None:
                files.append(home.game("v").file(seq)[1])
                report = other.receive(files[-1], str(seq))
                seq, home, other = report.sealed, other, home
            break
    return files


def facts(files: list[bytes]) -> dict[str, Any]:
    report = audit([(f"{i:04d}.pbem", d) for i, d in enumerate(files)])
    assert report.clean, report.problems
    out: dict[str, Any] = {"game_id": report.game_id.hex(), "result": report.result,
                           "files": [], "rolls": []}
    for data in files:
        env = canonical.decode(data)
        body = canonical.decode(env[5])
        out["files"].append({"kind": env[2], "seq": body.get("seq", 0),
                             "signer": env[3].hex(),
                             "body_sha256": hashlib.sha256(env[5]).hexdigest(),
                             "digest": (body.get("digest") or body.get("initial_digest")
                                        or b"").hex()})
    for roll in report.rolls:
        out["rolls"].append({"roll": roll.name, "seed": roll.seed.hex(),
                             "request": roll.request, "outcome": list(roll.outcome)})
    return out


@pytest.mark.parametrize(("folder", "sealed_dice", "orders"), VARIANTS, ids=IDS)
def test_transcript_vectors(tmp_path: Path, folder: Path, sealed_dice: bool,
                            orders: bool) -> None:
    files = play(tmp_path, sealed_dice=sealed_dice, orders=orders)
    expected = facts(files)
    if os.environ.get("PBEM_WRITE_VECTORS"):
        folder.mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(files):
            (folder / f"{i:04d}.pbem").write_bytes(data)
        (folder / "transcript.json").write_text(json.dumps(expected, indent=1) + "\n",
                                                encoding="utf-8")
    stored = sorted(folder.glob("*.pbem"))
    assert [p.read_bytes() for p in stored] == files, "file bytes differ from the vectors"
    assert json.loads((folder / "transcript.json").read_text(encoding="utf-8")) == expected


@pytest.mark.parametrize("folder", [v[0] for v in VARIANTS], ids=IDS)
def test_stored_vectors_audit_clean(folder: Path) -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(folder.glob("*.pbem"))]
    report = audit(files)
    assert report.clean and len(files) >= 6
    recorded = json.loads((folder / "transcript.json").read_text(encoding="utf-8"))
    assert report.result == recorded["result"]


def _bodies(folder: Path) -> list[dict[str, Any]]:
    return [canonical.decode(canonical.decode(p.read_bytes())[5])
            for p in sorted(folder.glob("*.pbem"))[2:]]


def test_the_vectors_hold_what_they_are_for() -> None:
    """Order records and the orders field; sealed rolls-only replies, rolls first."""
    orders = _bodies(ORDERS)
    assert ["o", "retreat"] in [r for b in orders for r in b["records"]]
    assert any(b.get("orders") == {"take-result": "retreat"} for b in orders)
    sealed = _bodies(SEALED)
    assert any(b["records"] and all(r[0] == "r" for r in b["records"]) for b in sealed)
    for b in sealed:
        kinds = [r[0] for r in b["records"]]
        assert "r" not in kinds[next((i for i, k in enumerate(kinds) if k != "r"),
                                     len(kinds)):]
