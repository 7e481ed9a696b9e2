"""The audit replays each file on its one verifier, with no copy of the state per file
(issue 35 item 2: the copy, and the engine caches a copy starts without, were 3-10% of an
audit), and a refused file still changes nothing the report says: the verifier is made
again from the files accepted before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import audit, explain_roll
from pbem.engine import State
from pbem.envelope import seal
from pbem.identity import Identity

DATA = Path(__file__).parent.parent / "data" / "transcript"
ALICE = Identity.from_secret(bytes(range(32)), "Alice", "alice@example.org")  # red


def _files() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.pbem"))]


def _resigned(data: bytes, **change: Any) -> bytes:
    env = canonical.decode(data)
    body = canonical.decode(env[5])
    body.update(change)
    del body["kind"]
    return seal(ALICE, env[2], body)


def test_a_clean_audit_copies_no_state(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files()
    first = audit(files).verifier
    assert first is not None
    kind = type(first.state)  # the engine's own class, which has its own clone
    copies: list[int] = []
    real = kind.clone

    def clone(self: State) -> State:
        copies.append(1)
        return real(self)

    monkeypatch.setattr(kind, "clone", clone)
    report = audit(files)
    assert report.clean and len(files) > 10
    assert not copies  # one per file before


def test_a_file_refused_after_its_moves_changes_nothing_reported() -> None:
    """The last file (red's, ending the game by the rules) replays its moves and rolls,
    then signs a digest that is not the position's: the report is the audit of the files
    before it, with the refusal: no result, none of its rolls, the position before it."""
    files = _files()
    last_name, last = files[-1]
    assert canonical.decode(canonical.decode(last)[5])["end"] == "rules"
    bad = _resigned(last, digest=bytes(32))
    before = audit(files[:-1])
    report = audit([*files[:-1], (last_name, bad)])
    assert not report.clean and "desync" in report.problems[0]
    assert report.result == "" and before.result == ""
    assert [r.name for r in report.rolls] == [r.name for r in before.rolls]
    assert report.verifier is not None and before.verifier is not None
    assert report.verifier.state.digest() == before.verifier.state.digest()
    assert report.verifier.seq == before.verifier.seq == len(files) - 2
    assert report.verifier.rolls == before.verifier.rolls
    roll = f"{len(files) - 1}.0"
    assert explain_roll(report, roll)[0].startswith(f"no roll {roll} in this transcript")


def test_the_verifier_reads_one_view_of_the_files_placed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The files verified so far reach the verifier as one view of the audit's table,
    not a copy of it made for every file (the 2,000th file copied 2,000 places)."""
    from pbem.transcript import Verifier

    files = _files()
    given: list[Any] = []
    real = Verifier.add

    def add(self: Verifier, env: Any, known: Any = None, **kw: Any) -> Any:
        given.append(known)  # held: no id reused by a later copy
        return real(self, env, known, **kw)

    monkeypatch.setattr(Verifier, "add", add)
    assert audit(files).clean
    assert len(given) == len(files) - 1 and all(k is given[0] for k in given)
