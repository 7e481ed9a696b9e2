"""Vectors of files that must be refused for a boolean in an integer field (issue 22
item 2): ``tests/data/bool_vectors.json``.

msgpack has a boolean type, and ``true`` is canonical msgpack; a language where
``true == 1`` (Python among them) would take ``["pbem", true, ...]`` for version 1, an
accept with ``seq: true`` for file 1, a roll index ``false`` for request 0, a die face
``true`` for a 1.  docs/protocol.md: "an integer, never a boolean".  Each vector is one
file of the open transcript (``tests/data/transcript/``) with one integer replaced by
the boolean equal to it in Python, re-signed by its real signer (the envelope version is
not signed: that twin is not re-signed).  Fed after the files before it, each must be
refused with the error the vector names.  Regenerate with ``PBEM_WRITE_VECTORS=1``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import audit
from pbem.envelope import seal
from pbem.identity import Identity

DATA = Path(__file__).parent.parent / "data"
VECTORS = DATA / "bool_vectors.json"
ALICE = bytes(range(32))
BOB = bytes(range(32, 64))
#: exit codes of the named errors
FORMAT, DICE = 3, 7


def _transcript() -> list[bytes]:
    return [p.read_bytes() for p in sorted((DATA / "transcript").glob("*.pbem"))]


def _resign(data: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    env = canonical.decode(data)
    body = canonical.decode(env[5])
    change(body)
    signer = next(i for i in (Identity.from_secret(s, "x") for s in (ALICE, BOB))
                  if i.public_key == env[3])
    kind = body.pop("kind")
    return seal(signer, kind, body)


def _version_true(data: bytes) -> bytes:
    env = canonical.decode(data)
    env[1] = True
    return canonical.encode(env)


def _first_roll(body: dict[str, Any]) -> list[Any]:
    return next(r for r in body["records"] if r[0] == "r")




def _field(key: str, value: bool) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        assert body[key] == value and type(body[key]) is int
        body[key] = value
    return change


def _roll_index_false(body: dict[str, Any]) -> None:
    roll = _first_roll(body)
    assert roll[1] == 0
    roll[1] = False


def _face_true(body: dict[str, Any]) -> None:
    roll = next(r for r in body["records"] if r[0] == "r" and r[3]["kind"] == "dice")
    assert roll[2][0] == 1
    roll[2][0] = True


def _count_true(body: dict[str, Any]) -> None:
    roll = next(r for r in body["records"] if r[0] == "r" and r[3]["kind"] == "draw")
    assert roll[3]["count"] == 1
    roll[3]["count"] = True


def build() -> list[dict[str, Any]]:
    files = _transcript()
    cases: list[tuple[str, str, int, bytes, list[int]]] = [
        ("envelope-version-true", "envelope element 1 (the format version, unsigned)", 2,
         _version_true(files[2]), [FORMAT]),
        ("accept-seq-true", "accept seq", 1, _resign(files[1], _field("seq", True)),
         [FORMAT]),
        ("turn-generation-false", "turn generation", 2,
         _resign(files[2], _field("generation", False)), [FORMAT]),
        ("turn-link-index-true", "turn link_index", 2,
         _resign(files[2], _field("link_index", True)), [FORMAT]),
        ("roll-index-false", "roll record index", 2, _resign(files[2], _roll_index_false),
         [FORMAT]),
        ("die-face-true", "roll outcome (a die face of 1)", 3, _resign(files[3], _face_true),
         [DICE, FORMAT]),
        ("draw-count-true", "roll request count (format 2)", 2,
         _resign(files[2], _count_true), [FORMAT]),
    ]
    return [{"name": name, "field": what, "seq": seq, "file": data.hex(), "refused": codes}
            for name, what, seq, data, codes in cases]


def test_vectors_are_current() -> None:
    if os.environ.get("PBEM_WRITE_VECTORS"):
        VECTORS.write_text(json.dumps({"base": "tests/data/transcript", "vectors": build()},
                                      indent=1) + "\n", encoding="utf-8")
    assert json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"] == build()


def _load() -> list[dict[str, Any]]:
    return list(json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"])


@pytest.mark.parametrize("vector", _load(), ids=lambda v: v["name"])
def test_pbem_refuses_a_boolean_for_an_integer(vector: dict[str, Any]) -> None:
    files = _transcript()
    seq = vector["seq"]
    given = [(f"{n:04d}.pbem", d) for n, d in enumerate(files[:seq])]
    report = audit([*given, (f"{seq:04d}-bool.pbem", bytes.fromhex(vector["file"]))])
    assert not report.clean, f"{vector['name']} was accepted"
    assert report.exit_code in vector["refused"], report.problems


@pytest.mark.parametrize("vector", _load(), ids=lambda v: v["name"])
def test_the_independent_verifier_refuses_it(vector: dict[str, Any]) -> None:
    from tests.independent_verifier.verifier import Refused, verify

    files = _transcript()
    seq = vector["seq"]
    with pytest.raises(Refused):
        verify([*files[:seq], bytes.fromhex(vector["file"]), *files[seq + 1:]])
