"""A whole transcript as test vectors: fixed keys, nonce and clock give fixed bytes.

Ed25519 signatures are deterministic, so a game played with fixed keys, a fixed nonce, a
fixed clock and fixed choices produces byte-identical files on every machine.  The files
in ``tests/data/transcript/`` and the facts in ``transcript.json`` (game id, body hashes,
state digests, every roll) let a second implementation check its envelope, chain, seeds and
rolls against ours.  Regenerate with
``PBEM_WRITE_VECTORS=1 pytest tests/core/test_vectors.py`` only when the format changes on
purpose (and bump the format version).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.audit import audit
from pbem.session import Home
from pbem.testing import Chooser

DATA = Path(__file__).parent.parent / "data" / "transcript"
ALICE = bytes(range(32))
BOB = bytes(range(32, 64))
NONCE = bytes.fromhex("5e" * 32)


def play(root: Path) -> list[bytes]:
    alice = Home(root / "alice", clock=lambda: 1_800_000_000)
    bob = Home(root / "bob", clock=lambda: 1_800_000_000)
    alice.keys.create("Alice", "alice@example.org", None, secret=ALICE)
    bob.keys.create("Bob", "bob@example.org", None, secret=BOB)
    game = alice.new_game("skirmish", "short", "red", name="v", nonce=NONCE, chain_length=8)
    files = [game.files[0]]
    joined = bob.join(files[0], "0", name="v")
    files.append(joined.files[1])
    alice.receive(files[1], "1")
    chooser = Chooser("vectors")
    while alice.game("v").result is None:
        for home, other in ((alice, bob), (bob, alice)):
            g = home.game("v")
            if g.my_decision() is None:
                continue
            sealed = None
            while sealed is None:
                _, _, sealed = g.act(chooser.pick(g.state.legal_actions()).notation())
            files.append(g.file(sealed)[1])
            other.receive(files[-1], str(sealed))
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


def test_transcript_vectors(tmp_path: Path) -> None:
    files = play(tmp_path)
    expected = facts(files)
    if os.environ.get("PBEM_WRITE_VECTORS"):
        DATA.mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(files):
            (DATA / f"{i:04d}.pbem").write_bytes(data)
        (DATA / "transcript.json").write_text(json.dumps(expected, indent=1) + "\n")
    stored = sorted(DATA.glob("*.pbem"))
    assert [p.read_bytes() for p in stored] == files, "file bytes differ from the vectors"
    assert json.loads((DATA / "transcript.json").read_text()) == expected


def test_stored_vectors_audit_clean() -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.pbem"))]
    report = audit(files)
    assert report.clean and len(files) >= 6
    assert report.result == json.loads((DATA / "transcript.json").read_text())["result"]
