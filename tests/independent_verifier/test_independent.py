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
            "transcript-anchor-sealed", "transcript-batched", "transcript-sealed-2",
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
