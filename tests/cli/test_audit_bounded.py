"""``pbem audit`` lists a bounded table: every file with a note, the last files and rolls;
``--all`` lists everything (issue 19: a 1,042-file game took 1.7 s to draw)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import AUDIT_SHOWN, main
from pbem.selfplay import selfplay


def test_audit_lists_a_bounded_table(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COLUMNS", "200")
    result = selfplay("skirmish", "long", 1, tmp_path / "sp")
    files = tmp_path / "sp" / "files"
    assert result.files > AUDIT_SHOWN + 3
    runner = CliRunner()
    short = runner.invoke(main, ["audit", str(files)], catch_exceptions=False)
    assert short.exit_code == 0, short.output
    assert "CLEAN" in short.output
    hidden = result.files - AUDIT_SHOWN
    assert f"({hidden} earlier files verified without a note are not listed" in short.output
    assert f"the last {AUDIT_SHOWN}" in short.output
    full = runner.invoke(main, ["audit", str(files), "--all"], catch_exceptions=False)
    assert full.exit_code == 0 and "not listed" not in full.output
    assert len(full.output.splitlines()) > len(short.output.splitlines()) + hidden
    # a file with a problem is listed wherever it is: file 3 altered (its signature no
    # longer verifies) is listed among the files of no game (nobody can be named as its
    # signer), and the game's table goes on from the gap it leaves at file 4
    altered = bytearray((files / "00003-blue.pbem").read_bytes())
    altered[-1] ^= 1
    (files / "00003-blue.pbem").write_bytes(bytes(altered))
    broken = runner.invoke(main, ["audit", str(files)], catch_exceptions=False)
    assert broken.exit_code != 0 and "NOT CLEAN" in broken.output
    rows = [line for line in broken.output.splitlines() if line.startswith("│")]
    assert rows[0].split("│")[1].strip() == "4" and "NO" in rows[0]
    assert "BAD" in rows[-1] and "does not verify" in rows[-1]


def test_audit_decodes_each_body_once(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 19: the audit decoded each body to sort the files, then the verifier again."""
    from pbem.audit import audit, collect
    from pbem.envelope import Envelope

    result = selfplay("skirmish", "short", 2, tmp_path / "sp")
    datas = collect([tmp_path / "sp" / "files"])
    decoded: list[bytes] = []
    real = Envelope.decode

    def counting(self: Envelope) -> dict:  # type: ignore[type-arg]
        decoded.append(self.hash)
        return real(self)

    monkeypatch.setattr(Envelope, "decode", counting)
    report = audit(datas)
    assert report.exit_code == 0 and not report.problems, report.problems
    assert len(datas) == result.files
    assert sorted(decoded) == sorted(set(decoded)) and len(decoded) == len(datas)
