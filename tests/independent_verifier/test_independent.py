"""The verifier written from the docs alone (``verifier.py``, no ``pbem`` import, no
engine) against the shipped transcripts and fresh selfplay games of every engine.

Only this test module uses pbem, to play the fresh games and to re-sign tampered files;
the verifier itself never sees pbem.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from . import verifier
from .verifier import Refused, verify

DATA = Path(__file__).parent.parent / "data"
FORMAT_2 = ["transcript", "transcript-orders", "transcript-sealed", "transcript-anchor",
            "transcript-anchor-sealed", "transcript-batched", "transcript-resign",
            "transcript-agreed-draw", "transcript-pace", "transcript-sealed-2",
            "transcript-batched-2"]
ALICE = bytes(range(32))
BOB = bytes(range(32, 64))


def files_of(folder: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob("*.pbem"))]


def test_the_verifier_does_not_use_pbem() -> None:
    tree = ast.parse(Path(verifier.__file__).read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom)}
    assert "pbem" not in imported and "engines" not in imported


@pytest.mark.parametrize("name", FORMAT_2)
def test_every_roll_of_the_shipped_transcripts(name: str) -> None:
    report = verify(files_of(DATA / name))
    pinned = json.loads((DATA / name / "transcript.json").read_text(encoding="utf-8"))
    assert report.game_id.hex() == pinned["game_id"] and report.format == 2
    assert [(r.name, r.seed.hex(), r.request, r.outcome) for r in report.rolls] == \
        [(r["roll"], r["seed"], r["asked"], r["outcome"]) for r in pinned["rolls"]]
    assert report.unchecked_rolls == 0
    assert {r.request["kind"] for r in report.rolls} == {"dice", "draw"}
    if "anchor" in name:
        assert min(report.generations.values()) >= 1


def test_the_pace_is_read_from_the_invite_and_old_invites_have_none() -> None:
    paced = verify(files_of(DATA / "transcript-pace"))
    assert (paced.pace, paced.reminders) == (48 * 3600, "watch")
    plain = verify(files_of(DATA / "transcript"))
    assert (plain.pace, plain.reminders) == (None, "")


def _invite_with(change: dict[str, Any], drop: tuple[str, ...] = ()) -> bytes:
    """The pace vector's invite re-signed by its creator with ``change``."""
    from pbem import canonical
    from pbem.envelope import seal
    from pbem.identity import Identity

    body = canonical.decode(canonical.decode(files_of(DATA / "transcript-pace")[0])[5])
    del body["kind"]
    body.update(change)
    for key in drop:
        del body[key]
    return seal(Identity.from_secret(ALICE, "x"), "invite", body)


@pytest.mark.parametrize(("change", "drop"), [
    ({"pace": True}, ()), ({"pace": 3599}, ()), ({"pace": 31_622_401}, ()),
    ({"pace": "48h"}, ()), ({"reminders": "auto"}, ()), ({"reminders": ""}, ()),
    ({}, ("pace",))], ids=["bool", "too-short", "too-long", "text", "other-reminders",
                           "empty-reminders", "reminders-without-pace"])
def test_a_pace_in_another_form_is_refused_by_both_verifiers(change: dict[str, Any],
                                                            drop: tuple[str, ...]) -> None:
    from pbem.envelope import open_envelope
    from pbem.errors import FormatError
    from pbem.transcript import parse_invite

    data = _invite_with(change, drop)
    with pytest.raises(Refused, match=r"invite: (pace|reminders)"):
        verify([data])
    with pytest.raises(FormatError, match=r"invite (pace|reminders|field 'pace'|has remi)"):
        parse_invite(open_envelope(data))


ENDINGS = [("transcript", "rules", "blue"), ("transcript-anchor", "rules", None),
           ("transcript-resign", "resign", "red"), ("transcript-agreed-draw", "draw", None)]


@pytest.mark.parametrize(("name", "end", "winner"), ENDINGS)
def test_each_ending_and_what_a_nil_winner_means(name: str, end: str,
                                                 winner: str | None) -> None:
    """protocol.md 3.3, the endings: a win and a draw by the rules, a resignation, a
    draw by agreement; nil is "nobody won"."""
    report = verify(files_of(DATA / name))
    assert report.result is not None
    assert (report.result["reason"], report.result["winner"]) == (end, winner)


@pytest.mark.parametrize(("name", "winner", "error"), [
    ("transcript-agreed-draw", "red", "draw by agreement names a winner"),
    ("transcript-resign", "blue", "resignation's winner is the sender's opponent"),
    ("transcript-resign", None, "resignation's winner is the sender's opponent")])
def test_a_winner_that_does_not_fit_the_ending_is_refused(name: str, winner: str | None,
                                                          error: str) -> None:
    from pbem import canonical
    from pbem.envelope import seal
    from pbem.identity import Identity

    files = files_of(DATA / name)
    env = canonical.decode(files[-1])
    body = canonical.decode(env[5])
    body["result"]["winner"] = winner
    del body["kind"]
    signer = next(i for i in (Identity.from_secret(s, "x") for s in (ALICE, BOB))
                  if i.public_key == env[3])
    with pytest.raises(Refused, match=error):
        verify([*files[:-1], seal(signer, "turn", body)])


def test_a_format_1_transcript_proves_its_chain_but_not_its_rolls() -> None:
    report = verify(files_of(DATA / "transcript-v1"))
    pinned = json.loads((DATA / "transcript-v1" / "transcript.json").read_text())
    assert report.format == 1 and report.rolls == []
    assert report.unchecked_rolls == len(pinned["rolls"]) > 0


def _bot_secret(seed: int, label: str) -> bytes:
    from pbem.selfplay import _derive

    return _derive(seed, f"key {label}")


GAMES = [("skirmish", "short", "open", False), ("skirmish", "short", "sealed", False),
         ("white-death", None, "open", False), ("white-death", None, "sealed", True),
         ("for-the-motherland", None, "open", False),
         ("for-the-motherland", None, "sealed", True)]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{g[0]}-{g[2]}" for g in GAMES])
def fresh(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> tuple[list[bytes], dict[str, Any]]:
    from pbem.audit import audit
    from pbem.registry import get
    from pbem.selfplay import selfplay

    engine, scenario, dice_mode, orders = request.param
    # White Death's first (smallest) scenario; the Motherland's last, which draws chits
    scenario = scenario or get(engine).scenarios()[0 if engine == "white-death" else -1].id
    where = tmp_path_factory.mktemp(engine)
    # the toy game is short enough to play whole; the real ones stop after a turn
    result = selfplay(engine, scenario, 11, where,
                      max_turns=None if engine == "skirmish" else 1, dice_mode=dice_mode,
                      standing_orders=orders, chain_length=2)
    assert result.desyncs == 0
    files = [p.read_bytes() for p in sorted((where / "files").iterdir())]
    pbem_report = audit([(str(n), d) for n, d in enumerate(files)]).to_json()
    assert pbem_report["clean"], pbem_report["problems"]
    return files, pbem_report


def test_every_roll_of_a_fresh_selfplay_game(fresh: tuple[list[bytes],
                                                        dict[str, Any]]) -> None:
    """Every roll the files record: same seed, request and outcome as ``pbem audit
    --json`` reports, derived here without the engine."""
    files, pbem_report = fresh
    report = verify(files)
    assert len(report.rolls) == len(pbem_report["rolls"]) > 0
    assert [(r.name, r.seed.hex(), r.request, r.outcome) for r in report.rolls] == \
        [(r["roll"], r["seed"], r["request"], r["outcome"]) for r in pbem_report["rolls"]]
    assert max(report.generations.values()) >= 1  # chain length 2: re-anchored


def test_the_motherland_games_draw_from_cups(fresh: tuple[list[bytes],
                                                         dict[str, Any]]) -> None:
    files, _ = fresh
    report = verify(files)
    kinds = {r.request["kind"] for r in report.rolls}
    assert "dice" in kinds
    if b"for-the-motherland" in files[0] or b"skirmish" in files[0]:
        assert "draw" in kinds, "no cup draw in this game: pick another seed"


def resigned(files: list[bytes], secrets: list[bytes],
             change: Callable[[list[Any]], bool]) -> list[bytes]:
    """Re-sign, with its real signer's key, the first file whose roll ``change`` alters."""
    from pbem import canonical
    from pbem.envelope import seal
    from pbem.identity import Identity

    signers = [Identity.from_secret(s, "x") for s in secrets]
    out = list(files)
    for n, data in enumerate(files):
        env = canonical.decode(data)
        if env[2] != "turn":
            continue
        body = canonical.decode(env[5])
        for record in body["records"]:
            if record[0] == "r" and change(record):
                signer = next(s for s in signers if s.public_key == env[3])
                del body["kind"]
                out[n] = seal(signer, "turn", body)
                return out
    raise AssertionError("nothing to change")


@pytest.mark.parametrize("value", [3, 1, True, "2"])
def test_an_invite_with_other_sealed_rules_is_refused(value: Any) -> None:
    """protocol.md 6.2.1: ``sealed`` is 2 or absent (one form per rules), an integer."""
    from pbem import canonical
    from pbem.envelope import seal
    from pbem.identity import Identity

    files = files_of(DATA / "transcript-sealed-2")
    body = canonical.decode(canonical.decode(files[0])[5])
    del body["kind"]
    body["sealed"] = value
    invite = seal(Identity.from_secret(ALICE, "x"), "invite", body)
    with pytest.raises(Refused, match="sealed-dice rules"):
        verify([invite, *files[1:]])


def other_face(record: list[Any]) -> bool:
    if record[3]["kind"] != "dice":
        return False
    record[2][0] = record[2][0] % record[3]["dice"][0] + 1
    return True


def other_item(record: list[Any]) -> bool:
    if record[3]["kind"] != "draw":
        return False
    others = [i for i in record[3]["contents"] if i not in record[2]]
    if not others:
        return False
    record[2][0] = others[0]
    return True


@pytest.mark.parametrize("change", [other_face, other_item], ids=["die-face", "drawn-item"])
@pytest.mark.parametrize("name", ["transcript", "transcript-sealed"])
def test_a_re_signed_changed_roll_is_refused(name: str, change: Any) -> None:
    files = resigned(files_of(DATA / name), [ALICE, BOB], change)
    with pytest.raises(Refused, match=r"roll \d+\.\d+ records .* but the seed gives"):
        verify(files)


@pytest.mark.parametrize("change", [other_face, other_item], ids=["die-face", "drawn-item"])
def test_a_re_signed_selfplay_roll_is_refused(fresh: tuple[list[bytes], dict[str, Any]],
                                              change: Any) -> None:
    files, _ = fresh
    if change is other_item and b"white-death" in files[0]:
        pytest.skip("White Death draws nothing from a cup: only dice to change")
    tampered = resigned(files, [_bot_secret(11, "a"), _bot_secret(11, "b")], change)
    with pytest.raises(Refused, match="but the seed gives"):
        verify(tampered)


def test_a_tampered_armored_or_unsigned_change_is_refused() -> None:
    files = files_of(DATA / "transcript")
    flipped = bytearray(files[3])
    flipped[-3] ^= 1
    with pytest.raises(Refused, match=r"signature|canonical"):
        verify([*files[:3], bytes(flipped), *files[4:]])
    with pytest.raises(Refused, match="missing"):
        verify([*files[:3], *files[4:]])


def test_armored_files_verify_and_a_changed_header_is_refused() -> None:
    """The armor grammar of protocol.md 4, read by the docs-built reader: quoted,
    re-wrapped, two spaces after a colon; a changed, unknown or repeated header refused."""
    from pbem.armor import armor

    files = files_of(DATA / "transcript")
    texts = [armor(f) for f in files]
    quoted = ["".join(f"> {line}\r\n" for line in t.splitlines()) for t in texts]
    spaced = [t.replace("Kind: ", "Kind:  ") for t in texts]
    for variant in (quoted, spaced):
        report = verify([t.encode() for t in variant])
        assert len(report.rolls) == len(verify(files).rolls) > 0
    for change in (("Seq: 3", "Seq: 4"), ("Seq: 3", "seq: 3"), ("Seq: 3", "Seq: 3\nSeq: 3")):
        changed = [t.replace(*change).encode() for t in texts]
        with pytest.raises(Refused, match="header"):
            verify(changed)


PROCEDURE = DATA / "audit-procedure"
CASES = json.loads((PROCEDURE / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_set_aside_decisions_follow_the_written_procedure(name: str) -> None:
    """protocol.md 5.3, the auditor's order of checks, applied by the docs-built verifier
    to each branch's vector: the same verdicts, files set aside and unreadable files as
    the case lists (written from the procedure, not from pbem's output)."""
    case = CASES[name]
    named = [(f, (PROCEDURE / name / f).read_bytes()) for f in case["files"]]
    got = verifier.audit(named, game=case.get("game_option"))
    assert got == {k: case[k] for k in ("games", "set_aside", "unreadable")}


SCHEMA = json.loads((DATA.parent.parent / "docs" / "audit-schema.json").read_text(
    encoding="utf-8"))


@pytest.mark.parametrize("name", [*FORMAT_2, "transcript-v1"])
def test_pbem_audit_json_read_by_its_schema_matches_the_verifier(name: str) -> None:
    """A referee's tool reads ``pbem audit --json`` by docs/audit-schema.json alone: the
    output is valid under it, and the rolls found where it says (``games[].rolls``) are
    the ones the docs-built verifier derives, roll for roll."""
    import jsonschema
    from click.testing import CliRunner

    from pbem.cli import main

    out = CliRunner().invoke(main, ["audit", str(DATA / name), "--json"]).output
    report = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    [game] = report["games"]
    mine = verify(files_of(DATA / name))
    assert game["game_id"] == mine.game_id.hex() and game["clean"]
    recorded = [r for r in game["rolls"] if r["request_recorded"]]
    assert [(r.name, r.seed.hex(), r.request, r.outcome) for r in mine.rolls] == \
        [(r["roll"], r["seed"], r["request"], r["outcome"]) for r in recorded]
    assert mine.unchecked_rolls == len(game["rolls"]) - len(recorded)
    if mine.result is not None:
        assert game["result"] == mine.result["text"]
