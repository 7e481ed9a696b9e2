"""9.1: the Soviet player's own plan on his screens, found again from his salt, is kept
under all it reads (issue 35: a click's redraw showed it by trying every scheduled area
again, two digests an area)."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

import pytest

from engines.panzer48 import reinforcements
from pbem.selfplay import selfplay
from pbem.session import Home


def test_the_plan_line_is_kept_and_follows_what_it_reads(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    selfplay("48th-panzer-korps", "first-day", 2, tmp_path, max_turns=1)
    games = [Home(tmp_path / f"home-{x}").game("selfplay-2") for x in "ab"]
    sov = next(g for g in games if g.side == "soviet")
    ger = next(g for g in games if g.side == "german")
    [note] = sov.private_notes()
    assert note.startswith("your plan (9.1, secret): 321 turn ")
    tried: list[str] = []
    real = reinforcements.digest_of

    def counted(formation: str, area: str, salt: bytes) -> str:
        tried.append(formation)
        return real(formation, area, salt)

    monkeypatch.setattr(reinforcements, "digest_of", counted)
    # the same position, the same key: the line kept, no area tried again
    assert sov.private_notes() == [note] and tried == []
    # another salt (not the Soviet player's key: one of this test's own, so no other
    # test kept its line) finds nothing, and is tried
    def other(formation: str) -> bytes:
        return sha256(f"{tmp_path}/{formation}".encode()).digest()

    assert "area unknown" in ger.state.private_notes("soviet", other)[0]
    assert tried
    # another turn for a planned formation: another line
    pos = sov.state.pos  # type: ignore[attr-defined]
    pos.plan_turns["321"] += 1
    [moved] = sov.state.private_notes("soviet", sov._commit_salt)
    assert moved != note and f"321 turn {pos.plan_turns['321']} area" in moved
    assert sov.state.private_notes("german", sov._commit_salt) == []
