"""A whole transcript as test vectors: fixed keys, nonce and clock give fixed bytes.

Ed25519 signatures are deterministic, so a game played with fixed keys, a fixed nonce, a
fixed clock and fixed choices produces byte-identical files on every machine.  The files
in ``tests/data/transcript/`` and the facts in ``transcript.json`` (game id, body hashes,
state digests, every roll) let a second implementation check its envelope, chain, seeds and
rolls against ours.  ``transcript-orders/`` is a game in which Bob orders every attack on
him answered by retreating (order records, the ``orders`` field); ``transcript-sealed/``
one with sealed dice (the sealed seed, rolls-only replies); ``transcript-pace/`` the
open game with an agreed pace in its invite (``pace``, ``reminders``); ``transcript-anchor/`` and
``transcript-anchor-sealed/`` play with chain length 3, so each side re-anchors
(``next_anchor``, generation 1) in open and in sealed mode.  All are game format 2: each
roll record signs its request (die sizes, or cup, sorted contents and count).
``transcript-v1/`` is the open game as format 1 wrote it (no request in the record,
frozen): old games must still audit.  Regenerate with
``PBEM_WRITE_VECTORS=1 pytest tests/core/test_vectors.py`` only when the format changes on
purpose (and bump the format version).
"""

from __future__ import annotations

import hashlib
import itertools
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
ANCHOR = Path(__file__).parent.parent / "data" / "transcript-anchor"
ANCHOR_SEALED = Path(__file__).parent.parent / "data" / "transcript-anchor-sealed"
V1 = Path(__file__).parent.parent / "data" / "transcript-v1"
BATCHED = Path(__file__).parent.parent / "data" / "transcript-batched"
RESIGN = Path(__file__).parent.parent / "data" / "transcript-resign"
AGREED = Path(__file__).parent.parent / "data" / "transcript-agreed-draw"
#: the open game with an agreed pace in its invite (protocol.md 3.1: ``pace``, ``reminders``)
PACE = Path(__file__).parent.parent / "data" / "transcript-pace"
PACE_SECONDS = 48 * 3600
#: the same games under sealed rules 2 (docs/protocol.md 6.2.1): the invite's ``sealed``
SEALED_2 = Path(__file__).parent.parent / "data" / "transcript-sealed-2"
BATCHED_2 = Path(__file__).parent.parent / "data" / "transcript-batched-2"
#: folder, sealed dice, orders, chain length, scenario, ending, sealed rules (1: the games
#: every sealed invite without ``sealed`` plays, as pbem wrote them before rules 2)
VARIANTS = [(DATA, False, False, 8, "short", "", 1), (ORDERS, False, True, 8, "short", "", 1),
            (SEALED, True, False, 8, "short", "", 1), (ANCHOR, False, False, 3, "short", "", 1),
            (ANCHOR_SEALED, True, False, 3, "short", "", 1),
            (BATCHED, True, False, 8, "night", "", 1),
            (RESIGN, False, False, 8, "short", "resign", 1),
            (AGREED, False, False, 8, "short", "draw", 1), (PACE, False, False, 8, "short", "", 1),
            (SEALED_2, True, False, 8, "dusk", "", 2), (BATCHED_2, True, False, 8, "night", "", 2)]
IDS = ["open", "orders", "sealed", "anchor", "anchor-sealed", "batched", "resign",
       "agreed-draw", "pace", "sealed-2", "batched-2"]
#: the ending games stop by the players' choice at this file: one side resigns, or offers
#: a draw that the other accepts with its next file (protocol.md 3.3, the endings table)
ENDING_AT = 5
ALICE = bytes(range(32))
BOB = bytes(range(32, 64))
NONCE = bytes.fromhex("5e" * 32)
#: the orders game needs dice under which an attack on Bob is answered by his order
NONCE_ORDERS = bytes.fromhex("5f" * 32)


def play(root: Path, *, sealed_dice: bool = False, orders: bool = False,
         chain_length: int = 8, scenario: str = "short", ending: str = "",
         pace: int | None = None, sealed_rules: int = 1) -> list[bytes]:
    alice = Home(root / "alice", clock=lambda: 1_800_000_000)
    bob = Home(root / "bob", clock=lambda: 1_800_000_000)
    alice.keys.create("Alice", "alice@example.org", None, secret=ALICE)
    bob.keys.create("Bob", "bob@example.org", None, secret=BOB)
    game = alice.new_game("skirmish", scenario, "red", name="v",
                          nonce=NONCE_ORDERS if orders else NONCE, chain_length=chain_length,
                          dice_mode="sealed" if sealed_dice else "open", pace=pace,
                          reminders="watch" if pace else "",
                          sealed_rules=sealed_rules if sealed_dice else None)
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
            if ending == "resign" and len(files) == ENDING_AT:
                seq = g.resign()
            elif ending == "draw" and len(files) == ENDING_AT:
                assert g.draw()[0] == "offered"
                seq = play_file(g, chooser)
            elif ending == "draw" and len(files) == ENDING_AT + 1:
                said, seq = g.draw()
                assert said == "accepted"
            else:
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
                             "request": roll.request, "asked": roll.asked,
                             "outcome": list(roll.outcome)})
    return out


@pytest.mark.parametrize(("folder", "sealed_dice", "orders", "chain_length", "scenario",
                          "ending", "sealed_rules"), VARIANTS, ids=IDS)
def test_transcript_vectors(tmp_path: Path, folder: Path, sealed_dice: bool,
                            orders: bool, chain_length: int, scenario: str,
                            ending: str, sealed_rules: int) -> None:
    files = play(tmp_path, sealed_dice=sealed_dice, orders=orders, chain_length=chain_length,
                 scenario=scenario, ending=ending,
                 pace=PACE_SECONDS if folder == PACE else None, sealed_rules=sealed_rules)
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


def test_the_pace_vector_differs_from_the_open_game_only_by_its_pace() -> None:
    """protocol.md 3.1: ``pace`` and ``reminders`` are signed in the invite, which is
    otherwise the open game's; an invite without them is read as it always was."""
    def invite(folder: Path) -> dict[str, Any]:
        body: dict[str, Any] = canonical.decode(
            canonical.decode((folder / "0000.pbem").read_bytes())[5])
        return body

    paced, plain = invite(PACE), invite(DATA)
    assert paced.pop("pace") == PACE_SECONDS and paced.pop("reminders") == "watch"
    assert paced == plain


def test_the_batched_vectors_carry_waiting_rolls() -> None:
    """Sealed dice batching (issue 21): a file asks for flares, goes on giving orders, and
    ends at the waiting rolls; the opponent's next file opens with one roll record for
    each, all from its one link (the seed of protocol-crypto 3.3.1)."""
    bodies = _bodies(BATCHED)
    pinned = json.loads((BATCHED / "transcript.json").read_text(encoding="utf-8"))["rolls"]
    batched = 0
    for asking, reply in itertools.pairwise(bodies):
        actions = [r[1] for r in asking["records"] if r[0] == "a"]
        flares = [a for a in actions if a.startswith("flare")]
        if not flares or actions[-1].startswith("flare"):
            continue
        # flares, then more orders in the same file: their rolls waited
        waited = sum(int(a.split()[1]) for a in flares)
        rolls = [r for r in reply["records"][:waited] if r[0] == "r"]
        assert [r[1] for r in rolls] == list(range(waited))
        seeds = {p["seed"] for p in pinned if p["roll"].split(".")[0] == str(reply["seq"])}
        assert len(seeds) == 1
        batched += waited >= 2
    assert batched, "no file of the batched vectors carries two waiting rolls"


def test_the_anchor_vectors_cross_a_generation() -> None:
    """Chain length 3: the file revealing link 3 carries ``next_anchor``; the side's next
    file reveals link 1 of generation 1, which hashes to that anchor (open and sealed)."""
    for folder in (ANCHOR, ANCHOR_SEALED):
        bodies = _bodies(folder)
        for side in ("red", "blue"):
            mine = [b for b in bodies if b["side"] == side]
            assert [(b["generation"], b["link_index"]) for b in mine][:4] == \
                [(0, 1), (0, 2), (0, 3), (1, 1)], folder
            assert [b["next_anchor"] is not None for b in mine][:4] == \
                [False, False, True, False]


def test_every_roll_record_signs_its_request() -> None:
    """Format 2: each ``["r", i, outcome, request]`` names the dice or the cup, its
    sorted contents and the count, and transcript.json pins the same request."""
    for folder, *_ in VARIANTS:
        invite = canonical.decode(canonical.decode((folder / "0000.pbem").read_bytes())[5])
        assert invite["format"] == 2
        records = [r for b in _bodies(folder) for r in b["records"] if r[0] == "r"]
        pinned = json.loads((folder / "transcript.json").read_text(encoding="utf-8"))["rolls"]
        assert [r[3] for r in records] == [p["asked"] for p in pinned]
        assert {r[3]["kind"] for r in records} == {"dice", "draw"}
        for r in records:
            if r[3]["kind"] == "draw":
                assert r[3]["contents"] == sorted(r[3]["contents"]) and r[3]["cup"]


def test_a_format_1_game_still_audits() -> None:
    """The open game as format 1 wrote it (no ``format`` field, three-element roll
    records): every check still runs, through the engine; no request is signed."""
    files = [(p.name, p.read_bytes()) for p in sorted(V1.glob("*.pbem"))]
    report = audit(files)
    assert report.clean, report.problems
    recorded = json.loads((V1 / "transcript.json").read_text(encoding="utf-8"))
    assert report.result == recorded["result"]
    rows = report.to_json()["rolls"]
    assert len(rows) == len(recorded["rolls"]) and not any(r["request_recorded"] for r in rows)
    assert [r["seed"] for r in rows] == [r["seed"] for r in recorded["rolls"]]
    assert all(r["request"]["kind"] in ("dice", "draw") for r in rows)


def _resigned(folder: Path, change: Any) -> tuple[list[tuple[str, bytes]], str]:
    """The transcript with its first roll record changed by ``change`` and re-signed by
    its real signer (only the signer can do this; the checks must still catch it)."""
    from pbem.envelope import seal
    from pbem.identity import Identity

    files = [(p.name, p.read_bytes()) for p in sorted(folder.glob("*.pbem"))]
    signers = {k: Identity.from_secret(k, "x") for k in (ALICE, BOB)}
    for i, (name, data) in enumerate(files[2:], start=2):
        env = canonical.decode(data)
        body = canonical.decode(env[5])
        rolls = [r for r in body["records"] if r[0] == "r"]
        if not rolls:
            continue
        change(rolls[0])
        signer = next(s for s in signers.values() if s.public_key == env[3])
        del body["kind"]
        files[i] = (name, seal(signer, "turn", body))
        return files, name
    raise AssertionError("no roll to change")


def _other_item(record: list[Any]) -> None:
    """Roll 2.0 of the open vectors is the event draw: another item of the same cup."""
    assert record[3]["kind"] == "draw"
    record[2][0] = next(i for i in record[3]["contents"] if i != record[2][0])


def _dice_instead(record: list[Any]) -> None:
    record[3] = {"kind": "dice", "dice": [6]} if record[3]["kind"] == "draw" else \
        {"kind": "dice", "dice": [*record[3]["dice"], 6]}


def test_a_changed_outcome_or_request_is_refused_with_a_named_error() -> None:
    from pbem.errors import DesyncError, DiceError

    files, name = _resigned(DATA, _other_item)
    report = audit(files)
    assert not report.clean and report.exit_code == DiceError.exit_code
    assert name in report.problems[0] and "roll 2.0" in report.problems[0]
    files, name = _resigned(DATA, _dice_instead)
    report = audit(files)
    assert report.exit_code == DesyncError.exit_code
    assert "request mismatch" in report.problems[0] and "roll 2.0" in report.problems[0]


def test_a_file_that_ends_the_game_offers_no_draw() -> None:
    """docs/protocol.md 3.3: ``draw`` is "" whenever ``end`` is set."""
    from pbem.envelope import seal
    from pbem.identity import Identity

    files = [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.pbem"))]
    env = canonical.decode(files[-1][1])
    body = canonical.decode(env[5])
    assert body["end"] == "rules"
    body["draw"] = "offer"
    del body["kind"]
    signer = next(i for i in (Identity.from_secret(s, "x") for s in (ALICE, BOB))
                  if i.public_key == env[3])
    report = audit([*files[:-1], ("last.pbem", seal(signer, "turn", body))])
    assert report.exit_code == 3 and "offers no draw" in report.problems[0]


def test_the_folder_audit_rules() -> None:
    """docs/protocol.md 5.3: any order; identical duplicates ignored; a card file is set
    aside (not a problem); no invite is refused; a missing middle file is named, a
    missing last file cannot be seen."""
    from pbem.armor import armor
    from pbem.envelope import seal
    from pbem.identity import Identity

    files = [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.pbem"))]
    alice = Identity.from_secret(ALICE, "Alice", "alice@example.org")
    card = seal(alice, "card", {"card": alice.card.to_data()})
    shuffled = [*reversed(files), ("copy.pbem", files[4][1]),
                ("armored.asc", armor(files[5][1]).encode()), ("alice.card", card)]
    report = audit(shuffled)
    assert report.clean, report.problems
    notes = {row.source: row.note for row in report.files}
    assert notes["alice.card"] == "a card file is not part of a transcript"
    assert "duplicate of" in notes["copy.pbem"] or "duplicate of" in notes[files[4][0]]
    assert len(report.rolls) == len(json.loads((DATA / "transcript.json").read_text())["rolls"])
    none = audit(files[1:])
    assert not none.clean and "file 0, the invite, is missing" in none.problems[0]
    gap = audit([*files[:4], *files[5:]])
    assert not gap.clean and "file 4 is missing" in gap.problems[0]
    assert audit(files[:-1]).clean  # the last file's absence shows nowhere


def test_audit_roll_says_where_the_request_comes_from() -> None:
    from pbem.audit import explain_roll

    told = "\n".join(explain_roll(audit([(p.name, p.read_bytes())
                                         for p in sorted(DATA.glob("*.pbem"))]), "2.0"))
    assert "signed in the roll record" in told
    assert "cup events, sorted: calm, calm, fog, rally, storm" in told
    old = "\n".join(explain_roll(audit([(p.name, p.read_bytes())
                                        for p in sorted(V1.glob("*.pbem"))]), "2.0"))
    assert "a format-1 file does not record it" in old


@pytest.mark.parametrize(("folder", "change", "shape"), [
    (DATA, lambda r: r.pop(), "['r', 0, outcome, request]"),
    (DATA, lambda r: r.append("more"), "['r', 0, outcome, request]"),
    (V1, lambda r: r.append({"kind": "dice", "dice": [6]}), "['r', 0, outcome]")],
    ids=["format-2-three", "format-2-five", "format-1-four"])
def test_a_roll_record_of_the_wrong_length_is_a_format_error(folder: Path, change: Any,
                                                             shape: str) -> None:
    """docs/protocol.md 6: a roll record has 4 elements in game format 2 and 3 in format
    1; any other length, re-signed by its real signer, is a FormatError (exit 3)."""
    from pbem.errors import FormatError

    files, name = _resigned(folder, change)
    report = audit(files)
    assert not report.clean and report.exit_code == FormatError.exit_code
    assert name in report.problems[0] and f"a roll record is {shape}" in report.problems[0]
