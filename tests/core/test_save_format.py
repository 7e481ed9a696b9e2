"""Save format 3 (issue 19): the signed save is a small head committing to the game's
transcript, which is kept beside it and only appended to (the exchanged files, one
fixed-size entry per file with a running hash).  Someone who can change the folder but
holds no key cannot change, cut, reorder or add to the transcript unnoticed; a crash
between the transcript and the head leaves the last good save.  Format 1 and 2 saves
still load and are written as format 3 the next time the game changes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical, session
from pbem.envelope import open_envelope, seal
from pbem.errors import ChainError, FormatError, SignatureError
from pbem.session import ENTRY_SIZE, SAVE_FORMAT, Home, chain_entry, files_dir
from pbem.testing import Chooser, play_file

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "save-format-2"


def _body(path: Any) -> dict[str, Any]:
    env = open_envelope(path.read_bytes(), max_size=canonical.MAX_SIZE, kinds=("save",))
    return env.decode()


def _transcript(game: Any) -> Path:
    return files_dir(game.path) / "transcript"


def _history(table: Any) -> list[bytes]:
    """Every file of Alice's game, as a command that needs the history reads them."""
    return list(table.game(table.alice).files)


def test_the_save_is_a_small_head_and_the_transcript_is_beside_it(table: Any) -> None:
    table.exchange(4)
    game = table.game(table.alice)
    body = _body(game.path)
    assert body["format"] == SAVE_FORMAT == 3
    assert not {"files", "file_hashes", "log"} & set(body)
    assert "hashes" not in body["cache"] and body["cache"]["last_hash"] == \
        game.verifier.last_hash
    assert body["game_id"] == game.game_id and body["file_count"] == len(game.files) >= 6
    data = game.path.read_bytes()
    folder = files_dir(game.path)
    for seq in range(len(game.files)):
        kept = (folder / f"{seq:06d}.pbem").read_bytes()
        assert kept == game.files[seq]
        assert kept not in data  # the save carries no exchanged file
    # the transcript: one entry a file, chained from the game id to the hash the save signs
    raw = _transcript(game).read_bytes()
    assert len(raw) == ENTRY_SIZE * len(game.files)
    tip = game.game_id
    for seq in range(len(game.files)):
        entry = raw[seq * ENTRY_SIZE:(seq + 1) * ENTRY_SIZE]
        assert entry[:32] == session.sha256(game.files[seq]).digest()
        assert entry[32:33] == (b"o" if seq in (0, 2, 4) else b"i")
        assert int.from_bytes(entry[33:41], "big", signed=True) == 1_700_000_000
        tip = chain_entry(tip, entry[:41])
        assert entry[41:] == tip
    assert body["transcript_hash"] == tip
    assert body["invite_hash"] == session.sha256(game.files[0]).digest()
    # another command loads the game reading none of the earlier files but the invite,
    # and not the transcript's entries (only its last one, at load)
    again = table.game(table.alice)
    assert set(again.files._held) == {0} and again.files._hashes is None
    # the head does not grow with the game: apart from the position (the engine's
    # snapshot, the result) and the summary, it is the same size at the end of the game
    def head_size(body: dict[str, Any]) -> dict[str, int]:
        cache = {k: v for k, v in body["cache"].items() if k not in ("snapshot", "result")}
        return {k: len(canonical.encode(v)) for k, v in {**body, "cache": cache}.items()
                if k not in ("summary", "version")}

    before = head_size(body)
    while table.mover() is not None:
        table.exchange(1)
    after = _body(game.path)
    assert after["file_count"] > body["file_count"] + 3
    # (a counter may take a byte more; a per-file field would take 32 bytes a file)
    assert head_size(after).keys() == before.keys()
    assert all(abs(n - before[k]) <= 2 for k, n in head_size(after).items())
    assert table.game(table.alice).status()["last_sealed"] == \
        max(s for s, d in table.game(table.alice).sealed_files())


def test_an_altered_or_missing_file_beside_the_save_is_refused(table: Any) -> None:
    table.exchange(3)
    game = table.game(table.alice)
    folder = files_dir(game.path)
    turn = folder / "000002.pbem"
    good = turn.read_bytes()
    altered = bytearray(good)
    altered[-1] ^= 1
    turn.write_bytes(bytes(altered))
    with pytest.raises(FormatError, match="not the one the save signed") as err:
        table.game(table.alice).file(2)
    assert str(turn) in str(err.value)
    # a file another valid file replaced: signed, but not the one this save names
    turn.write_bytes((folder / "000003.pbem").read_bytes())
    with pytest.raises(FormatError, match="not the one the save signed"):
        table.game(table.alice).file(2)
    turn.unlink()
    with pytest.raises(FormatError, match="cannot be read"):
        table.game(table.alice).file(2)
    turn.write_bytes(good)
    assert table.game(table.alice).file(2) == (2, good)
    # the invite is read at every load: altered, the game does not load
    invite = folder / "000000.pbem"
    first = invite.read_bytes()
    invite.write_bytes(first[:-1] + bytes([first[-1] ^ 1]))
    with pytest.raises(FormatError, match="not the one the save signed"):
        table.game(table.alice)
    invite.write_bytes(first)
    # and the commitment is signed: a changed running hash is a changed save
    data = bytearray(game.path.read_bytes())
    at = bytes(data).index(_body(game.path)["transcript_hash"])
    data[at] ^= 1
    game.path.write_bytes(bytes(data))
    with pytest.raises((FormatError, SignatureError)):
        table.game(table.alice)


def test_every_flipped_byte_of_the_transcript_is_detected(table: Any) -> None:
    """A byte flipped anywhere in the entries: the last entry at load (cheap), any other
    when the history is read; the game's play on from its save is never affected."""
    table.exchange(3)
    path = _transcript(table.game(table.alice))
    good = path.read_bytes()
    entries = len(good) // ENTRY_SIZE
    for at in range(len(good)):
        bad = bytearray(good)
        bad[at] ^= 0x40
        path.write_bytes(bytes(bad))
        try:
            game = table.game(table.alice)
        except FormatError as exc:
            # the last entry, or the running hash the last one is chained from
            assert at >= (entries - 1) * ENTRY_SIZE - 32, at
            assert f"entry {entries - 1} of the transcript" in str(exc)
            continue
        assert at < (entries - 1) * ENTRY_SIZE - 32, at
        with pytest.raises(FormatError, match=f"entry {at // ENTRY_SIZE} of the transcript"):
            list(game.files)
    path.write_bytes(good)
    assert len(_history(table)) == entries


def test_a_cut_transcript_is_refused_at_load(table: Any) -> None:
    table.exchange(3)
    path = _transcript(table.game(table.alice))
    good = path.read_bytes()
    for size in (0, ENTRY_SIZE, len(good) - ENTRY_SIZE, len(good) - 1):
        path.write_bytes(good[:size])
        with pytest.raises(FormatError, match="the save counts"):
            table.game(table.alice)
    path.unlink()
    with pytest.raises(FormatError, match="cannot be read"):
        table.game(table.alice)
    path.write_bytes(good)
    table.exchange(1)


def test_swapped_entries_or_an_entry_of_another_game_are_refused(table: Any) -> None:
    table.exchange(4)
    path = _transcript(table.game(table.alice))
    good = path.read_bytes()
    entry = [good[i:i + ENTRY_SIZE] for i in range(0, len(good), ENTRY_SIZE)]
    # two entries swapped whole (each keeps its own running hash)
    swapped = [*entry[:2], entry[3], entry[2], *entry[4:]]
    path.write_bytes(b"".join(swapped))
    with pytest.raises(FormatError, match="entry 2 of the transcript"):
        _history(table)
    # the running hashes recomputed over the swapped entries: the last one differs
    tip, remade = table.game(table.alice).game_id, []
    for e in swapped:
        tip = chain_entry(tip, e[:41])
        remade.append(e[:41] + tip)
    path.write_bytes(b"".join(remade))
    with pytest.raises(FormatError, match="transcript"):
        table.game(table.alice)
    # an entry added in the middle, or one taken out: the entries shift under the count
    for changed in ([*entry[:3], entry[2], *entry[3:]], [*entry[:2], *entry[3:]]):
        path.write_bytes(b"".join(changed))
        with pytest.raises(FormatError, match="transcript"):
            table.game(table.alice)
    # Bob's transcript of the same game differs (its in and out are the other way round)
    bob = _transcript(table.game(table.bob)).read_bytes()
    assert bob != good and len(bob) == len(good)
    path.write_bytes(bob)
    with pytest.raises(FormatError, match="transcript"):
        table.game(table.alice)
    # ... and put in place after the load checked the last entry, before the history read
    path.write_bytes(good)
    loaded = table.game(table.alice)
    path.write_bytes(bob)
    with pytest.raises(FormatError, match="does not end in the hash the save signed"):
        list(loaded.files)
    path.write_bytes(good)
    assert len(_history(table)) == len(entry)


def test_an_older_head_with_a_longer_transcript_holds_only_its_own_point(
        table: Any) -> None:
    """A save put back from a backup while the transcript beside it went on: the rollback
    is named; taken on anyway, the game is the old head's, whose entries check, the later
    ones are ignored, and the next write cuts them off."""
    table.exchange(2)
    game = table.game(table.alice)
    old, count = game.path.read_bytes(), len(game.files)
    assert table.mover() is table.alice
    table.exchange(2)  # Alice seals file `count`, Bob answers with `count + 1`
    answer = table.folder / f"{count + 1:04d}.pbem"
    game.path.write_bytes(old)
    with pytest.raises(ChainError, match="already seen version"):
        table.game(table.alice)
    (game.record.dir / "version").unlink()  # go on from the copy, on purpose
    back = table.game(table.alice)
    # its own file `count`, in the sealed record, is taken back; nothing past it
    assert len(back.files) == count + 1
    assert list(back.files) == list(table.game(table.bob).files)[:count + 1]
    assert _transcript(game).stat().st_size == ENTRY_SIZE * (count + 2)
    table.alice.receive(answer.read_bytes(), answer.name)
    assert _transcript(game).stat().st_size == ENTRY_SIZE * (count + 2)
    assert _history(table) == list(table.game(table.bob).files)
    assert table.game(table.alice).verifier.state.digest() == \
        table.game(table.bob).verifier.state.digest()


def test_a_crash_between_the_transcript_and_the_head_leaves_the_last_good_save(
        table: Any, monkeypatch: Any) -> None:
    table.exchange(2)
    home, seq, data = table.play_file()
    receiver = table.other(home)
    game = table.game(receiver)
    before = game.path.read_bytes()
    real = session.write_atomic

    def crash(path: Path, data: bytes, mode: int = 0o600) -> None:
        if path == game.path:
            raise OSError("power cut")
        real(path, data, mode)

    monkeypatch.setattr(session, "write_atomic", crash)
    with pytest.raises(OSError, match="power cut"):
        receiver.receive(data, "file")
    monkeypatch.undo()
    assert game.path.read_bytes() == before
    # the file and its entry were written first: past the count the head signs, ignored
    assert _transcript(game).stat().st_size == ENTRY_SIZE * (seq + 1)
    assert len(table.game(receiver).files) == seq
    # a torn entry on top (the crash came in the middle of the append)
    with _transcript(game).open("ab") as handle:
        handle.write(b"\x00" * 30)
    assert len(table.game(receiver).files) == seq
    receiver.receive(data, "file")
    assert _transcript(game).stat().st_size == ENTRY_SIZE * (seq + 1)
    assert list(table.game(receiver).files) == list(table.game(home).files)
    table.exchange(2)


def test_a_format_1_save_loads_and_is_written_as_format_3(table: Any, capsys: Any) -> None:
    table.exchange(3)
    game = table.game(table.alice)
    files = list(game.files)
    body = _body(game.path)
    # the save as pbem wrote it before format 2: the files inside, the log, no format
    old = {k: v for k, v in body.items()
           if k not in ("format", "game_id", "file_count", "invite_hash", "transcript_hash",
                        "times", "kind")}
    old["files"] = files
    old["log"] = [{"seq": s, "dir": "out" if s in (0, 2, 4) else "in",
                   "time": 1_600_000_000 + s} for s in range(len(files))]
    old["cache"] = {**body["cache"], "hashes": [b"\x00" * 32, game.verifier.last_hash]}
    del old["cache"]["last_hash"]
    game.path.write_bytes(seal(table.alice.identity(), "save", old))
    shutil.rmtree(files_dir(game.path))
    loaded = table.game(table.alice)
    assert list(loaded.files) == files
    assert loaded.status() == {**game.status(), "last_in": 1_600_000_003,
                               "last_out": 1_600_000_004}
    assert not files_dir(game.path).exists()  # reading changes nothing
    assert capsys.readouterr().err == ""
    table.exchange(2)  # the game goes on; its next write is format 3
    assert "duel: save format 1 rewritten as format 3" in capsys.readouterr().err
    body = _body(game.path)
    assert body["format"] == SAVE_FORMAT and "files" not in body
    assert list(table.game(table.alice).files)[:len(files)] == files
    raw = _transcript(game).read_bytes()
    assert int.from_bytes(raw[33:41], "big") == 1_600_000_000  # the log, kept
    assert table.game(table.alice).verifier.state.digest() == \
        table.game(table.bob).verifier.state.digest()


def test_a_format_2_save_made_by_format_2_code_loads_and_is_migrated_once(
        tmp_path: Path, capsys: Any) -> None:
    """tests/data/save-format-2: two homes whose game was saved by pbem's own format 2
    code (commit a7adf74, make.py beside them)."""
    shutil.copytree(FIXTURE, tmp_path / "homes")
    homes = []
    for name in ("alice", "bob"):
        (tmp_path / "homes" / name / "identity" / "key.pem").chmod(0o600)
        homes.append(Home(tmp_path / "homes" / name, clock=lambda: 1_800_000_000))
    alice, bob = homes
    saves = [h.games_dir / "duel.pbsave" for h in homes]
    assert [_body(p)["format"] for p in saves] == [2, 2]
    first = [p.read_bytes() for p in saves]
    status = alice.statuses()[0]
    assert status["seq"] == 5 and status["last_in"] == status["last_out"] == 1_700_000_000
    game = alice.game("duel")
    assert len(game.files) == 6 and len(list(game.files)) == 6
    assert [p.read_bytes() for p in saves] == first  # loading writes nothing
    assert capsys.readouterr().err == ""
    chooser = Chooser("format-2-on")
    for _ in range(4):
        mover = next(h for h in homes if h.game("duel").my_decision() is not None)
        g = mover.game("duel")
        seq, data = g.file(play_file(g, chooser))
        (bob if mover is alice else alice).receive(data, f"{seq:04d}.pbem")
    err = capsys.readouterr().err
    assert err.count("save format 2 rewritten as format 3") == 2  # once per home
    for home, save in zip(homes, saves, strict=True):
        body = _body(save)
        assert body["format"] == 3 and body["file_count"] == 10
        game = home.game("duel")
        raw = _transcript(game).read_bytes()
        assert len(raw) == 10 * ENTRY_SIZE
        # the format 2 log's times, then the new ones
        assert [int.from_bytes(raw[i * ENTRY_SIZE + 33:i * ENTRY_SIZE + 41], "big")
                for i in (0, 5, 6, 9)] == [1_700_000_000] * 2 + [1_800_000_000] * 2
    assert list(alice.game("duel").files) == list(bob.game("duel").files)
    assert alice.game("duel").verifier.state.digest() == \
        bob.game("duel").verifier.state.digest()


def test_a_refused_file_leaves_the_save_and_its_transcript_as_they_were(table: Any) -> None:
    table.exchange(2)
    home, seq, data = table.play_file()
    receiver = table.other(home)
    game = table.game(receiver)
    folder = files_dir(game.path)

    def snapshot() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in [game.path, *folder.iterdir()]}

    before = snapshot()
    body = open_envelope(data).decode()
    # signed by the right key, but replaying to another position (a desync)
    forged = seal(home.identity(), "turn", {**body, "digest": b"\x01" * 32})
    with pytest.raises(Exception, match="desync"):
        receiver.receive(forged, "forged")
    assert snapshot() == before
    receiver.receive(data, "real")
    assert len(snapshot()) == len(before) + 1


def test_a_game_kept_loaded_reads_its_history_after_its_own_writes(table: Any) -> None:
    """A long-running caller (selfplay, the web board) holds one Game across writes: the
    transcript it appended is the one it later reads, checked against the new head."""
    table.exchange(2)
    game = table.game(table.alice)
    assert game.my_decision() is not None
    seq = play_file(game, Chooser("held"))
    game.files._held = {0: game.files[0]}  # as if only the invite had been read
    assert list(game.files)[seq] == table.game(table.alice).files[seq]
    assert len(list(game.files)) == seq + 1


def test_a_homes_saves_are_the_files_named_as_saves(tmp_path: Path) -> None:
    """The games a home lists are the entries of its games folder whose names end in the
    save suffix, sorted, as a glob of '*.pbsave' found them (issue 35: found without the
    glob's pattern); no folder, no games."""
    from pbem.session import SAVE_SUFFIX, Home

    home = Home(tmp_path / "home", clock=lambda: 0)
    assert home.save_paths() == []
    home.games_dir.mkdir(parents=True)
    for name in ("b" + SAVE_SUFFIX, "a" + SAVE_SUFFIX, ".hidden" + SAVE_SUFFIX,
                 "notes.txt", "c" + SAVE_SUFFIX + ".tmp"):
        (home.games_dir / name).write_bytes(b"")
    assert home.save_paths() == sorted(home.games_dir.glob(f"*{SAVE_SUFFIX}"))
    assert [p.name for p in home.save_paths()] == [".hidden" + SAVE_SUFFIX, "a" + SAVE_SUFFIX,
                                                   "b" + SAVE_SUFFIX]
