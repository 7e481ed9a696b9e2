"""Issue 20: nobody can frame an honest player, and no input crashes, hangs or floods pbem.

Each test is the regression test of one item of the issue, named in its docstring.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical, session
from pbem.audit import audit
from pbem.envelope import seal
from pbem.errors import ChainError, FormatError, SignatureError
from pbem.identity import Identity


def body_of(data: bytes) -> dict[str, Any]:
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body


def resign_body(identity: Identity, body: dict[str, Any]) -> bytes:
    kind = body.pop("kind")
    return seal(identity, kind, body)


def _evidence(home: Any) -> list[Path]:
    folder = home.path / "evidence"
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def _true_twin(data: bytes) -> bytes:
    """The file with its envelope's version 1 (0x01) written as ``true`` (0xc3)."""
    # 0x96 array of 6, 0xa4 "pbem", then the version
    assert data[:7] == b"\x96\xa4pbem\x01"
    return data[:6] + b"\xc3" + data[7:]


def test_a_version_true_twin_is_refused_before_and_after_the_real_file(table: Any) -> None:
    """Item 1: a twin made without the key is not a file, so never equivocation."""
    home, seq, data = table.play_file()
    receiver = table.other(home)
    twin = _true_twin(data)
    before = table.save_bytes(receiver)
    with pytest.raises(FormatError, match="format version True"):
        receiver.receive(twin, "twin.pbem")
    assert table.save_bytes(receiver) == before
    receiver.receive(data, "real.pbem")
    after = table.save_bytes(receiver)
    with pytest.raises(FormatError, match="format version"):
        receiver.receive(twin, "twin.pbem")
    assert table.save_bytes(receiver) == after
    assert _evidence(receiver) == []
    files = [(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())]
    report = audit([*files, ("twin.pbem", twin)])
    assert not any("equivocation" in p for p in report.problems)


def test_an_integer_field_written_as_a_boolean_is_refused(table: Any) -> None:
    """Item 1: every body field has its exact type (``false`` is not roll index 0)."""
    home, seq, data = table.play_file()
    while not any(r[0] == "r" for r in body_of(data)["records"]):
        table.other(home).receive(data, "f")
        home, seq, data = table.play_file()
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    body = body_of(data)
    first = next(i for i, r in enumerate(body["records"]) if r[0] == "r")
    assert body["records"][first][1] == 0
    body["records"][first][1] = False
    with pytest.raises(FormatError, match="a roll record is"):
        receiver.receive(resign_body(home.identity(), body), "false-index.pbem")
    body = body_of(data)
    body["clock"] = True
    with pytest.raises(FormatError, match="'clock' has the wrong type"):
        receiver.receive(resign_body(home.identity(), body), "true-clock.pbem")
    assert table.save_bytes(receiver) == before
    receiver.receive(data, "real.pbem")


def test_a_stranger_cannot_plant_equivocation_evidence(table: Any) -> None:
    """Item 2: a file for a taken place, signed by a key not pinned, is refused unstored."""
    table.exchange(2)
    home, seq, data = table.play_file()
    receiver = table.other(home)
    receiver.receive(data, "real.pbem")
    before = table.save_bytes(receiver)
    mallory = Identity.generate("Mallory")
    for n in range(20):
        body = body_of(data)
        body["message"] = "x" * 1000 + str(n)
        with pytest.raises(SignatureError, match=r"not the one pinned.*not kept"):
            receiver.receive(resign_body(mallory, body), f"mallory{n}.pbem")
    # the same for a fork at the next place (a file that follows another file seq)
    body = body_of(data)
    body["seq"], body["side"] = seq + 1, table.game(home).side
    body["prev"] = b"\x01" * 32
    with pytest.raises(SignatureError, match="not the one pinned"):
        receiver.receive(resign_body(mallory, body), "mallory-fork.pbem")
    assert table.save_bytes(receiver) == before
    assert _evidence(receiver) == []


def test_equivocation_evidence_is_bounded(table: Any, monkeypatch: Any) -> None:
    """Item 2: a player who equivocates many times fills at most the evidence bound."""
    monkeypatch.setattr(session, "MAX_EVIDENCE_FILES", 4)
    home, seq, data = table.play_file()
    receiver = table.other(home)
    receiver.receive(data, "real.pbem")
    for n in range(10):
        body = body_of(data)
        body["message"] = f"twin {n}"
        with pytest.raises(ChainError, match="equivocation") as err:
            receiver.receive(resign_body(home.identity(), body), f"twin{n}.pbem")
        assert err.value.reason == "fork"
    assert len(_evidence(receiver)) == 4
    assert data in {p.read_bytes() for p in _evidence(receiver)}


def test_junk_files_are_set_aside_and_the_real_game_fully_audited(table: Any,
                                                                 tmp_path: Path) -> None:
    """Item 3: a stranger's file, or another game's, does not derail a referee's audit."""
    table.exchange(6)
    files = [(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())]
    mallory = Identity.generate("Mallory")
    junk = resign_body(mallory, body_of(files[3][1]))
    stranger_invite = session.Home(tmp_path / "m", clock=lambda: 1).keys
    stranger_invite.create("Mallory", "", None)
    other = session.Home(tmp_path / "m", clock=lambda: 1).new_game("skirmish", "short", "red")
    report = audit([("0002-junk.pbem", junk), *files, ("zz-other.pbem", other.files[0])])
    assert report.clean, report.problems
    assert len(report.set_aside) == 2
    assert any("0002-junk.pbem" in s and "did not pin" in s for s in report.set_aside)
    checked = [f for f in report.files if f.chain == "ok"]
    assert len(checked) == len(files) - 1  # every real file after the invite
    assert "2 files set aside" in report.verdict()
    # a real player's equivocation is still reported as such
    body = body_of(files[-1][1])
    body["message"] = "a second file for the same place"
    sender = table.alice if body["side"] == "red" else table.bob
    twin = resign_body(sender.identity(), body)
    report = audit([*files, ("twin.pbem", twin), ("0002-junk.pbem", junk)])
    assert any("equivocation" in p for p in report.problems)


def _to_move(table: Any, home: Any) -> None:
    """Exchange files until ``home`` is to write the next file."""
    while table.mover() is not home:
        table.exchange()


def test_a_save_put_back_from_a_backup_is_named_and_never_seals_a_second_file(
        table: Any, monkeypatch: Any) -> None:
    """Item 4: the record of sealed files outside the save; rollback detected on load."""
    alice = table.alice
    _to_move(table, alice)
    game = table.game(alice)
    backup, first = game.path.read_bytes(), len(game.files)
    _, seq, original = table.play_file()  # Alice seals file `first`
    assert seq == first
    table.bob.receive(original, "f")
    _, reply_seq, reply = table.play_file()  # Bob's reply
    alice.receive(reply, "reply.pbem")
    table.game(alice).path.write_bytes(backup)  # the save is put back
    with pytest.raises(ChainError, match="already seen version") as err:
        table.game(alice)
    assert err.value.reason == "rollback"
    # the player chooses to go on from the copy: the file it sealed is taken back in,
    # and Bob's reply after it too, when it comes again
    (alice.path / "sealed" / game.game_id.hex() / "version").unlink()
    restored = table.game(alice)
    assert len(restored.files) == first + 1 and restored.files[first] == original
    assert restored.file(first) == (first, original)
    alice.receive(reply, "reply-again.pbem")
    assert len(table.game(alice).files) == reply_seq + 1


def test_sealing_a_different_file_for_a_sealed_place_is_refused(table: Any,
                                                                monkeypatch: Any) -> None:
    """Item 4: when the sealed file cannot be taken back, a second one is refused."""
    alice = table.alice
    _to_move(table, alice)
    game = table.game(alice)
    backup = game.path.read_bytes()
    _, seq, original = table.play_file()
    game.path.write_bytes(backup)
    (alice.path / "sealed" / game.game_id.hex() / "version").unlink()
    monkeypatch.setattr(session.Game, "_adopt_sealed", lambda self, record: None)
    again = table.game(alice)
    with pytest.raises(ChainError, match=f"already sealed as a different file.*pbem send "
                                         f"duel --seq {seq}") as err:
        while True:
            again.act(again.state.legal_actions()[0].notation())
    assert err.value.reason == "sealed"
    assert len(table.game(alice).files) == seq  # nothing sealed, nothing saved for it
    assert table.game(alice).file(seq) == (seq, original)  # what 'pbem send --seq' sends


# --- crashes, hangs and floods (items 5 to 9) -------------------------------------------


def _cli(home: Any, *args: str) -> Any:
    from click.testing import CliRunner

    from pbem.cli import main

    return CliRunner().invoke(main, ["--home", str(home.path), *args])


def test_receive_names_a_folder_a_fifo_and_a_device(table: Any, tmp_path: Path) -> None:
    """Item 6: what is not a regular file is named, never read (a FIFO used to hang)."""
    fifo = tmp_path / "pipe.pbem"
    os.mkfifo(fifo)
    before = table.save_bytes(table.bob)
    for path, words in ((tmp_path, "is a folder"), (fifo, "not a regular file"),
                        (Path("/dev/zero"), "not a regular file")):
        res = _cli(table.bob, "receive", str(path))
        assert res.exit_code != 0 and words in res.output, res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)
    assert table.save_bytes(table.bob) == before


def test_a_huge_file_is_refused_before_it_is_read(table: Any, tmp_path: Path) -> None:
    """Item 6: a 100 MB file is refused by its size, at the cost of nothing."""
    import subprocess
    import sys

    big = tmp_path / "big.pbem"
    with big.open("wb") as handle:
        handle.truncate(100 * 1024 * 1024)
    # the peak is this process's own (VmHWM): ru_maxrss survives fork and exec on Linux,
    # so it would report the test runner's size, not what reading the file cost
    code = ("import re, sys; from pathlib import Path; from pbem.cli import main\n"
            "try:\n    main(['--home', sys.argv[1], 'receive', sys.argv[2]])\n"
            "except SystemExit as e:\n"
            "    status = Path('/proc/self/status').read_text(encoding='utf-8')\n"
            "    print(re.search(r'VmHWM:\\s+(\\d+)', status).group(1), e.code)\n")
    out = subprocess.run([sys.executable, "-c", code, str(table.bob.path), str(big)],
                         capture_output=True, text=True, timeout=60)
    assert "larger than the limit" in out.stderr
    peak_kib, status = out.stdout.split()
    assert status != "0"
    assert int(peak_kib) < 120 * 1024  # the file is never read into memory


def test_the_documented_container_limit_is_enforced() -> None:
    """Item 7: an array of 1,500,000 nils is refused before anything is built."""
    data = b"\xdd" + (1_500_000).to_bytes(4, "big") + b"\xc0" * 1_500_000
    with pytest.raises(FormatError, match="larger than the limit of 1000000"):
        canonical.decode(data)
    data = b"\xdf" + (1_000_001).to_bytes(4, "big") + b"\xa0\xc0" * 1_000_001
    with pytest.raises(FormatError, match="map of 1000001 entries"):
        canonical.decode(data)


def test_a_hostile_invite_cannot_flood_the_error_line(table: Any, tmp_path: Path) -> None:
    """Item 8: anyone can sign an invite; what its error quotes is bounded."""
    body = body_of(table.game(table.alice).files[0])
    mallory = Identity.generate("Mallory")
    body["creator"] = {**body["creator"], "key": mallory.public_key}
    for field in ("dice_mode", "creator_side", "x" * 1_000_000):
        hostile = dict(body)
        hostile[field] = "y" * 3_000_000
        path = tmp_path / "invite.pbem"
        path.write_bytes(resign_body(mallory, hostile))
        res = _cli(table.bob, "join", str(path), "--yes")
        assert res.exit_code != 0
        assert len(res.output) < 2000, (field[:20], len(res.output))


def test_a_damaged_armored_file_is_called_damaged(table: Any, tmp_path: Path) -> None:
    """Item 8: base64 intact, bytes no pbem file: 'damaged', not 'cannot armor'."""
    import base64

    from pbem.armor import BEGIN, END

    path = tmp_path / "turn.pbem"
    path.write_text(f"{BEGIN}\n\n{base64.b64encode(b'not a pbem file').decode()}\n{END}\n")
    res = _cli(table.bob, "receive", str(path))
    assert res.exit_code != 0
    assert "damaged" in res.output and "cannot armor" not in res.output


HOSTILE_TEXT = "\x1b[2J\x1b]0;pwned\x07pbem: error: \u202esdrawkcab\r\nfake prompt> "


def test_text_from_a_file_never_reaches_the_terminal_raw(table: Any) -> None:
    """Item 9: ANSI, OSC, bidi and line tricks in a message (or an action) are escaped."""
    home = table.mover()
    game = table.game(home)
    game.say(HOSTILE_TEXT)
    home, seq, data = table.play_file()
    receiver = table.other(home)
    # an action text in an error first
    body = body_of(data)
    body["records"] = [["a", HOSTILE_TEXT], *body["records"]]
    bad = table.folder / "bad.pbem"
    bad.write_bytes(resign_body(home.identity(), body))
    refused = _cli(receiver, "receive", str(bad)).output
    assert "refused here" in refused or "turn" in refused, refused
    path = table.folder / f"{seq:04d}.pbem"
    outputs = [_cli(receiver, "receive", str(path)).output,
               _cli(receiver, "log", "duel").output, refused]
    for out in outputs:
        assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
        assert "\r" not in out
        assert "\nfake prompt" not in out and "\npbem: error: \\u202e" not in out
    assert "\\x1b[2J" in outputs[0]


def test_rebuild_sets_aside_a_strangers_file(table: Any, tmp_path: Path) -> None:
    """Item 3, for 'pbem rebuild': a junk file in the folder does not stop the rebuild."""
    table.exchange(4)
    files = [(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())]
    junk = resign_body(Identity.generate("Mallory"), body_of(files[3][1]))
    body = body_of(files[3][1])
    body["seq"] = True
    odd = resign_body(Identity.generate("Mallory"), body)
    fresh = session.Home(tmp_path / "fresh", clock=lambda: 1)
    shutil.copytree(table.bob.path / "identity", fresh.path / "identity")
    game = session.rebuild(fresh, [("junk.pbem", junk), ("odd.pbem", odd), *files])
    assert game.files == table.game(table.bob).files


def test_a_crash_between_the_seal_record_and_the_save_loses_nothing(
        table: Any, monkeypatch: Any) -> None:
    """Item 4: the record is written before the save; a crash in between is taken back."""
    alice = table.alice
    _to_move(table, alice)
    game = table.game(alice)
    count = len(game.files)
    real_write = session.Game.write

    def crash_after_seal(self: session.Game) -> None:
        if len(self.files) > count:
            raise KeyboardInterrupt("killed after the record, before the save")
        real_write(self)

    monkeypatch.setattr(session.Game, "write", crash_after_seal)
    with pytest.raises(KeyboardInterrupt):
        while True:
            game.act(game.state.legal_actions()[0].notation())
    monkeypatch.setattr(session.Game, "write", real_write)
    recorded = (alice.path / "sealed" / game.game_id.hex() / f"{count:06d}.pbem").read_bytes()
    again = table.game(alice)  # the save does not hold the file; the record does
    assert again.files[count] == recorded and not again.pending
    table.bob.receive(recorded, "f")  # the file the opponent may already hold is the one
    assert table.game(table.bob).files[count] == recorded
