"""The auditor's order of checks (docs/protocol.md 5.3, issue 36 item 2): a vector for each
branch, and pbem's audit held to what the written procedure gives.

Each case is a few files made from the open transcript (``tests/data/transcript/``, fixed
keys: Alice is red and the creator, Bob blue and the joiner) and a stranger, Mallory
(secret bytes 64..95), re-signing or changing them.  ``EXPECTED`` says, from the procedure
alone, what each case gives: each game's verdict, the files set aside, the files that do
not open.  The files and ``cases.json`` (the same expectations, for a second
implementation: ``tests/independent_verifier/`` reads them) are written by
``PBEM_WRITE_VECTORS=1 pytest tests/core/test_audit_procedure.py`` and compared byte for
byte otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.armor import armor
from pbem.audit import audit_games
from pbem.envelope import seal
from pbem.identity import Identity

DATA = Path(__file__).parent.parent / "data"
HERE = DATA / "audit-procedure"
ALICE = Identity.from_secret(bytes(range(32)), "Alice", "alice@example.org")
BOB = Identity.from_secret(bytes(range(32, 64)), "Bob", "bob@example.org")
MALLORY = Identity.from_secret(bytes(range(64, 96)), "Mallory", "mallory@example.org")


def _files(name: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted((DATA / name).glob("*.pbem"))]


def _body(data: bytes) -> dict[str, Any]:
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body


def _signed(who: Identity, data: bytes, **change: Any) -> bytes:
    """File ``data``'s body with ``change`` (a value None: the field dropped), signed by
    ``who``."""
    env = canonical.decode(data)
    body = _body(data)
    for key, value in change.items():
        if value is None:
            body.pop(key, None)
        else:
            body[key] = value
    del body["kind"]
    return seal(who, env[2], body)


def _game(data: bytes) -> str:
    env = canonical.decode(data)
    if env[2] == "invite":
        return hashlib.sha256(env[5]).hexdigest()[:12]
    return _body(data)["game"].hex()[:12]


def cases() -> dict[str, dict[str, Any]]:
    """name -> {"step", "about", "files": [(file name, bytes)], "games": {id12: verdict},
    "set_aside": [names], "unreadable": [names]}, from the procedure alone."""
    t = _files("transcript")
    o = _files("transcript-orders")
    game, other = _game(t[0]), _game(o[0])
    std = [(f"{i:04d}.pbem", t[i]) for i in range(4)]  # files 0..3: a clean game so far
    flipped = bytearray(t[3])
    flipped[-1] ^= 1
    mallory_accept = _signed(MALLORY, t[1], joiner=MALLORY.card.to_data())
    bob_accept = t[1]
    # step 5: the accept with the smallest body hash pins the joiner
    two = sorted([("accept-bob.pbem", bob_accept), ("accept-mallory.pbem", mallory_accept)],
                 key=lambda f: hashlib.sha256(canonical.decode(f[1])[5]).digest())
    out: dict[str, dict[str, Any]] = {}

    def case(name: str, step: str, about: str, files: list[tuple[str, bytes]],
             games: dict[str, str], set_aside: list[str] = (),  # type: ignore[assignment]
             unreadable: list[str] = ()) -> None:  # type: ignore[assignment]
        out[name] = {"step": step, "about": about, "files": files, "games": games,
                     "set_aside": sorted(set_aside), "unreadable": sorted(unreadable)}

    clean, dirty = "CLEAN", "NOT CLEAN"
    case("clean", "11", "files 0..3 of one game", std, {game: clean})
    case("unreadable", "1", "a copy of file 3 with its last byte changed: does not open",
         [*std, ("x-flipped.pbem", bytes(flipped))], {game: clean},
         unreadable=["x-flipped.pbem"])
    case("card", "2", "Alice's identity card among the files",
         [*std, ("alice.card", seal(ALICE, "card", {"card": ALICE.card.to_data()}))],
         {game: clean}, set_aside=["alice.card"])
    case("names-no-game", "3", "Bob's file 3 again with no game field, signed by Bob",
         [*std, ("x-no-game.pbem", _signed(BOB, t[3], game=None))], {game: clean},
         set_aside=["x-no-game.pbem"])
    case("two-games", "3", "files 0..3 of two games: each audited, neither preferred",
         [*std, *[(f"orders-{i:04d}.pbem", o[i]) for i in range(4)]],
         {game: clean, other: clean})
    case("another-games-file", "3, 4", "a file of another game whose invite is not given",
         [*std, ("orders-0002.pbem", o[2])], {game: clean, other: dirty})
    case("game-option", "3", "--game: the other game's files set aside",
         [*std, *[(f"orders-{i:04d}.pbem", o[i]) for i in range(4)]], {game: clean},
         set_aside=[f"orders-{i:04d}.pbem" for i in range(4)])
    out["game-option"]["game_option"] = game
    case("missing-invite", "4", "files 1..3 without file 0", std[1:], {game: dirty})
    case("invite-re-signed", "4", "the invite's body signed by Mallory",
         [*std, ("x-invite-mallory.pbem", _signed(MALLORY, t[0]))], {game: clean},
         set_aside=["x-invite-mallory.pbem"])
    case("lone-bad-accept", "5, 6", "the invite and an accept naming the creator's side, "
         "signed by Bob: it pins the joiner, and is bad",
         [std[0], ("0001.pbem", _signed(BOB, t[1], side="red"))], {game: dirty})
    case("stranger-accept", "5, 6", "Mallory's accept beside the real one, which file 2 "
         "follows", [*std, ("x-accept-mallory.pbem", mallory_accept)], {game: clean},
         set_aside=["x-accept-mallory.pbem"])
    case("two-accepts-no-file-2", "5", "two accepts and no file 2: the smallest body hash "
         "pins the joiner", [std[0], *two], {game: clean}, set_aside=[two[1][0]])
    case("accept-by-creator", "6, 9", "an accept signed by Alice, the creator",
         [*std, ("x-accept-alice.pbem", _signed(ALICE, t[1]))], {game: dirty})
    case("stranger-side-bytes", "6", "file 3's body with its side written as bytes, "
         "signed by Mallory", [*std, ("x-mallory.pbem", _signed(MALLORY, t[3],
                                                                side=b"blue"))],
         {game: clean}, set_aside=["x-mallory.pbem"])
    case("stranger-malformed", "6", "a malformed turn (no records) signed by Mallory",
         [*std, ("x-mallory.pbem", _signed(MALLORY, t[3], records=None))], {game: clean},
         set_aside=["x-mallory.pbem"])
    case("pinned-side-bytes", "6, 10", "Bob's file 3 with its side written as bytes, "
         "signed by Bob", [*std[:3], ("0003.pbem", _signed(BOB, t[3], side=b"blue"))],
         {game: dirty})
    case("creator-signs-joiner-side", "6, 10", "file 3 (blue's) signed by Alice",
         [*std[:3], ("0003.pbem", _signed(ALICE, t[3]))], {game: dirty})
    case("duplicate", "8", "an armored copy of file 3",
         [*std, ("copy-0003.asc", armor(t[3]).encode())], {game: clean})
    case("equivocation", "9", "a second file 3 by Bob, its message changed",
         [*std, ("x-other-0003.pbem", _signed(BOB, t[3], message="another"))],
         {game: dirty})
    case("missing-middle", "10", "files 0..2 and 4: file 3 is missing",
         [*std[:3], ("0004.pbem", t[4])], {game: dirty})
    return out


def _stored() -> dict[str, Any]:
    return json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


def test_the_vectors_are_what_the_cases_make() -> None:
    made = cases()
    listing = {name: {**{k: v for k, v in c.items() if k != "files"},
                      "files": [n for n, _ in c["files"]]} for name, c in made.items()}
    if os.environ.get("PBEM_WRITE_VECTORS"):
        HERE.mkdir(exist_ok=True)
        for name, c in made.items():
            (HERE / name).mkdir(exist_ok=True)
            for file_name, data in c["files"]:
                (HERE / name / file_name).write_bytes(data)
        (HERE / "cases.json").write_text(json.dumps(listing, indent=1) + "\n",
                                         encoding="utf-8")
    assert _stored() == listing
    for name, c in made.items():
        for file_name, data in c["files"]:
            assert (HERE / name / file_name).read_bytes() == data, (name, file_name)


def decisions(name: str) -> dict[str, Any]:
    """What ``pbem audit`` decided for a stored case, in the terms of cases.json."""
    case = _stored()[name]
    datas = [(f, (HERE / name / f).read_bytes()) for f in case["files"]]
    whole = audit_games(datas, game=case.get("game_option"))
    report = whole.to_json()
    rows = [*report["files"], *[r for g in report["games"] for r in g["files"]]]
    return {"games": {g["game_id"][:12]: "CLEAN" if g["clean"] else "NOT CLEAN"
                      for g in report["games"]},
            "set_aside": sorted(r["source"] for r in rows if r["chain"] == "set aside"),
            "unreadable": sorted(r["source"] for r in rows if r["signature"] == "BAD")}


@pytest.mark.parametrize("name", sorted(cases()))
def test_pbem_follows_the_written_procedure(name: str) -> None:
    case = _stored()[name]
    assert decisions(name) == {k: case[k] for k in ("games", "set_aside", "unreadable")}
