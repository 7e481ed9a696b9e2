"""Shared-folder transport: two homes sharing one folder, real files, no mocks."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from transport_helpers import Pair, make_home, pbem_at, play_until_sealed

from pbem.envelope import peek
from pbem.session import Home
from pbem.transport.base import Router, TransportError
from pbem.transport.folder import (
    conflict_of,
    deliver_folder,
    is_candidate,
    scan_folder,
    watch_folder,
)
from pbem.transport.state import HandledState

NAME = re.compile(r"^[0-9a-f]{12}-\d{4}-(red|blue)\.pbem$")


def router(home: Home, yes: bool = True) -> Router:
    return Router.for_home(home, confirm=lambda info, card: yes)


def scan(home: Home, folder: Path, yes: bool = True) -> list:  # type: ignore[type-arg]
    return scan_folder(folder, router(home, yes), HandledState.of_home(home.path))


def start_game(pair: Pair, folder: Path, name: str = "duel", scenario: str = "short") -> str:
    """Invite and accept through the folder; returns the game name (same on both sides)."""
    game = pair.alice.new_game("skirmish", scenario, "red", name=name)
    invite = deliver_folder(game.files[0], folder, peek(game.files[0]))
    outcomes = scan(pair.bob, folder)
    [note] = [o for o in outcomes if o.source == str(invite)]
    assert note.status == "invite"
    assert pair.alice.card().fingerprint in note.note
    assert f"pbem join {invite}" in note.note
    joined = pair.bob.join(invite.read_bytes(), str(invite), name=name)
    deliver_folder(joined.files[1], folder, peek(joined.files[1]))
    outcomes = scan(pair.alice, folder)
    assert [o.status for o in outcomes if o.info and o.info.game_id == game.game_id] == \
        ["own", "imported"]
    return name


def take_turn(pair: Pair, folder: Path, name: str) -> tuple[Home, Path]:
    home = pair.mover(name)
    assert home is not None
    seq, data = play_until_sealed(home.game(name), pair.chooser)
    return home, deliver_folder(data, folder, peek(data))


def two_file_2s(pair: Pair, tmp_path: Path) -> tuple[Path, str, Path, bytes]:
    """A game in a shared folder where Alice's desktop delivered her file 2 while a copy
    of her home on a laptop sealed another file 2: the folder, the game, the desktop's
    file and the laptop's bytes (not delivered)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    laptop = Home(tmp_path / "alice-laptop")
    shutil.copytree(pair.alice.path, laptop.path)
    _, path = take_turn(pair, folder, name)
    laptop.game(name).say("sent from the laptop")  # the two versions surely differ
    _, other = play_until_sealed(laptop.game(name), pair.chooser)
    assert other != path.read_bytes()
    return folder, name, path, other


def test_two_homes_play_a_whole_game_through_one_folder(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "Dropbox" / "pbem"
    folder.mkdir(parents=True)
    name = start_game(pair, folder)
    turns = 0
    while pair.alice.game(name).result is None:
        home, path = take_turn(pair, folder, name)
        assert NAME.match(path.name), path.name
        other = pair.other(home)
        outcomes = [o for o in scan(other, folder) if o.status not in ("own", "duplicate")]
        assert [o.status for o in outcomes] == ["imported"], [o.note for o in outcomes]
        assert outcomes[0].source == str(path)
        # the writer's own scan leaves its file alone, and says so once
        assert {o.status for o in scan(home, folder)} <= {"own", "duplicate"}
        turns += 1
        assert turns < 100
    a, b = pair.alice.game(name), pair.bob.game(name)
    assert a.files == b.files and a.result == b.result
    names = sorted(p.name for p in folder.iterdir())
    assert all(NAME.match(n) for n in names), names
    assert len(names) == len(a.files)
    # nothing is taken twice: a later scan finds nothing new on either side
    assert scan(pair.alice, folder) == [] and scan(pair.bob, folder) == []


def test_first_contact_is_confirmed_then_pinned(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    game = pair.alice.new_game("skirmish", "short", "red", name="g")
    joined = pair.bob.join(game.files[0], "invite", name="g")
    accept = deliver_folder(joined.files[1], folder, peek(joined.files[1]))
    [held] = scan(pair.alice, folder, yes=False)
    assert held.status == "unconfirmed"
    assert pair.bob.card().fingerprint in held.note and "first contact" in held.note
    assert pair.alice.game("g").verifier.seq == 0  # nothing imported
    assert pair.alice.keys.contacts() == []
    [done] = scan(pair.alice, folder, yes=True)
    assert done.status == "imported" and done.source == str(accept)
    assert [c.key for c in pair.alice.keys.contacts()] == [pair.bob.card().key]
    # a second game with the same, now pinned, opponent needs no confirmation
    game2 = pair.alice.new_game("skirmish", "short", "red", name="g2")
    joined2 = pair.bob.join(game2.files[0], "invite", name="g2")
    deliver_folder(joined2.files[1], folder, peek(joined2.files[1]))
    [again] = scan(pair.alice, folder, yes=False)
    assert again.status == "imported"


def test_many_games_in_one_folder(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    names = [start_game(pair, folder, f"game{i}") for i in range(3)]
    for _round in range(2):
        delivered = [take_turn(pair, folder, n) for n in names]
        for home in (pair.alice, pair.bob):
            imported = [o for o in scan(home, folder) if o.status == "imported"]
            expected = {str(p) for h, p in delivered if h is not home}
            assert {o.source for o in imported} == expected
    for n in names:
        assert pair.alice.game(n).files == pair.bob.game(n).files


def test_unknown_games_and_strangers_files_are_left_alone(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    carol, dave = make_home(tmp_path, "Carol"), make_home(tmp_path, "Dave")
    other = carol.new_game("skirmish", "short", "blue", name="other")
    carol.receive(dave.join(other.files[0], "invite", name="other").files[1], "accept")
    _, data = carol.game("other").file()  # file 2, sealed at once: red acts first
    stranger = deliver_folder(data, folder, peek(data))
    (folder / "notes.txt").write_text("not a turn file", encoding="utf-8")
    (folder / "garbage.pbem").write_bytes(b"\x00" * 100)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    outcomes = {Path(o.source).name: o for o in scan(pair.bob, folder)}
    assert outcomes[stranger.name].status == "unknown-game"
    assert "not in this home" in outcomes[stranger.name].note
    assert outcomes["garbage.pbem"].status == "refused"
    assert "not a pbem file" in outcomes["garbage.pbem"].note
    assert "notes.txt" not in outcomes
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing touched
    assert pair.bob.game(name).verifier.seq == 1


def test_a_file_that_skips_ahead_waits_and_is_retried(pair: Pair, tmp_path: Path) -> None:
    folder, later = tmp_path / "shared", tmp_path / "later"
    folder.mkdir()
    later.mkdir()
    name = start_game(pair, folder)
    backup = tmp_path / "bob-backup"
    shutil.copytree(pair.bob.path, backup)  # Bob's home as it was at file 1
    files = {}
    for _ in range(3):  # files 2 (Alice), 3 (Bob), 4 (Alice)
        home, path = take_turn(pair, later, name)
        pair.other(home).receive(path.read_bytes(), str(path))
        files[peek(path.read_bytes()).seq] = path
    old = Home(backup)
    state = HandledState.of_home(old.path)
    r = router(old)
    shutil.copy(files[4], folder / files[4].name)
    [waiting] = [o for o in scan_folder(folder, r, state) if o.info and o.info.seq == 4]
    assert waiting.status == "pending" and "earlier file" in waiting.note
    [again] = [o for o in scan_folder(folder, r, state) if o.info and o.info.seq == 4]
    assert again.status == "pending"  # looked at again, never marked as handled
    shutil.copy(files[2], folder / files[2].name)
    statuses = {o.info.seq: o.status for o in scan_folder(folder, r, state) if o.info}
    assert statuses[2] == "imported"
    assert old.game(name).verifier.seq == 2


def test_writer_killed_mid_write_leaves_nothing_importable(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    home = pair.mover(name)
    assert home is pair.alice
    seq, data = play_until_sealed(home.game(name), pair.chooser)
    # A real writer process (pbem's own deliver_folder) is SIGKILLed after it wrote half
    # the bytes into its temporary file and before the rename.
    script = textwrap.dedent(f"""
        import os, sys, time
        from pathlib import Path
        import pbem.atomic as atomic
        from pbem.envelope import peek
        from pbem.transport.folder import deliver_folder
        data = Path({str(tmp_path / "turn.bin")!r}).read_bytes()
        real_fdopen = os.fdopen
        class Slow:
            def __init__(self, handle): self.h = handle
            def __enter__(self): return self
            def __exit__(self, *a): return self.h.__exit__(*a)
            def write(self, b):
                self.h.write(b[: len(b) // 2]); self.h.flush()
                print("half", flush=True); time.sleep(60)
            def flush(self): self.h.flush()
            def fileno(self): return self.h.fileno()
        atomic.os.fdopen = lambda fd, mode: Slow(real_fdopen(fd, mode))
        deliver_folder(data, Path({str(folder)!r}), peek(data))
    """)
    (tmp_path / "turn.bin").write_bytes(data)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "half"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    leftovers = [p for p in folder.iterdir() if p.name.startswith(".")]
    assert len(leftovers) == 1 and leftovers[0].name.endswith(".tmp")
    assert 0 < leftovers[0].stat().st_size < len(data)
    assert not is_candidate(leftovers[0].name)
    outcomes = scan(pair.bob, folder)
    assert all(o.source != str(leftovers[0]) for o in outcomes)
    assert pair.bob.game(name).verifier.seq == 1  # nothing imported
    # the writer runs again: the file appears whole, and is imported
    path = deliver_folder(data, folder, peek(data))
    [done] = [o for o in scan(pair.bob, folder) if o.status != "own"]
    assert done.status == "imported" and done.source == str(path)
    assert pair.bob.game(name).verifier.seq == seq


def test_a_torn_file_under_the_real_name_is_refused_until_complete(pair: Pair,
                                                                    tmp_path: Path) -> None:
    # a foreign tool (or a sync client) that writes in place, caught half way
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    _, staged = take_turn(pair, tmp_path, name)
    data = staged.read_bytes()
    target = folder / staged.name
    target.write_bytes(data[: len(data) // 2])
    [torn] = [o for o in scan(pair.bob, folder) if o.source == str(target)]
    assert torn.status == "refused" and "not a pbem file" in torn.note
    assert pair.bob.game(name).verifier.seq == 1
    target.write_bytes(data)
    [whole] = [o for o in scan(pair.bob, folder) if o.source == str(target)]
    assert whole.status == "imported"


@pytest.mark.parametrize(("name", "original", "tool"), [
    ("3f2a9c1d0b7e-0007-red (Bob's conflicted copy 2024-05-01).pbem",
     "3f2a9c1d0b7e-0007-red.pbem", "Dropbox"),
    ("3f2a9c1d0b7e-0007-red (conflicted copy 2024-05-01 101010).pbem",
     "3f2a9c1d0b7e-0007-red.pbem", "Dropbox"),
    ("3f2a9c1d0b7e-0007-red.sync-conflict-20240501-101010-ABCDEFG.pbem",
     "3f2a9c1d0b7e-0007-red.pbem", "Syncthing"),
    ("3f2a9c1d0b7e-0007-red (Case Conflict).pbem", "3f2a9c1d0b7e-0007-red.pbem", "Dropbox"),
])
def test_conflict_names(name: str, original: str, tool: str) -> None:
    assert conflict_of(name) == (original, tool)
    assert is_candidate(name)


@pytest.mark.parametrize("name", [
    ".3f2a9c1d0b7e-0007-red.pbem.abc123.tmp", ".syncthing.3f2a9c1d0b7e-0007-red.pbem.tmp",
    "~syncthing~3f2a9c1d0b7e-0007-red.pbem.tmp", "3f2a9c1d0b7e-0007-red.pbem.part",
    "3f2a9c1d0b7e-0007-red.pbem~", "notes.txt", ".dropbox.cache",
])
def test_temporary_and_foreign_names_are_not_read(name: str) -> None:
    assert not is_candidate(name)
    assert conflict_of(name) is None


def test_sync_conflict_copies(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    _, path = take_turn(pair, folder, name)
    data = path.read_bytes()
    same = folder / f"{path.stem} (Bob's conflicted copy 2024-05-01).pbem"
    same.write_bytes(data)
    different = folder / f"{path.stem}.sync-conflict-20240501-101010-ABCDEFG.pbem"
    different.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    outcomes = {o.source: o for o in scan(pair.bob, folder)}
    assert outcomes[str(path)].status == "imported"
    assert outcomes[str(same)].status == "duplicate"
    assert "Dropbox conflict copy" in outcomes[str(same)].note
    assert "same bytes" in outcomes[str(same)].note
    assert outcomes[str(different)].status == "refused"
    assert "Syncthing conflict copy" in outcomes[str(different)].note
    assert "different bytes" in outcomes[str(different)].note
    assert same.exists() and different.exists()  # the shared folder is never cleaned up
    # a conflict copy whose original is gone is an ordinary file
    _, nxt = take_turn(pair, tmp_path, name)
    lone = folder / f"{nxt.stem} (conflicted copy 2024-05-02).pbem"
    lone.write_bytes(nxt.read_bytes())
    [o] = [o for o in scan(pair.alice, folder) if o.source == str(lone)]
    assert o.status == "imported"


def test_deliver_is_idempotent_and_never_overwrites(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    game = pair.alice.new_game("skirmish", "short", "red", name="g")
    info = peek(game.files[0])
    path = deliver_folder(game.files[0], folder, info)
    assert deliver_folder(game.files[0], folder, info) == path
    other = pair.alice.new_game("skirmish", "short", "red", name="g2")
    with pytest.raises(TransportError, match="different file already has this name"):
        deliver_folder(other.files[0], folder, info)
    assert path.read_bytes() == game.files[0]
    with pytest.raises(TransportError, match="does not exist"):
        deliver_folder(game.files[0], tmp_path / "missing", info)
    assert oct(path.stat().st_mode & 0o777) == "0o644"


def test_watch_imports_as_files_arrive(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    home = pair.mover(name)
    assert home is pair.alice
    seq, data = play_until_sealed(home.game(name), pair.chooser)
    seen: list[str] = []
    polls = []

    def sleep(_: float) -> None:
        polls.append(1)
        if len(polls) == 2:  # the opponent's file lands while Bob is watching
            deliver_folder(data, folder, peek(data))

    imported = watch_folder(folder, router(pair.bob), HandledState.of_home(pair.bob.path),
                            lambda o: seen.append(o.status), interval=0.01,
                            stop=lambda: len(polls) >= 4, sleep=sleep)
    assert imported == 1 and seen.count("imported") == 1
    assert pair.bob.game(name).verifier.seq == seq


def test_cli_send_folder_inbox_and_watch(pair: Pair, tmp_path: Path) -> None:
    from pbem.cli import main

    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    runner = CliRunner()
    seq, _ = play_until_sealed(pair.alice.game(name), pair.chooser)
    res = runner.invoke(main, ["--home", str(pair.alice.path), "send", name, "--folder",
                               str(folder)])
    assert res.exit_code == 0, res.output
    assert f"file {seq} of {name} written to" in res.output
    res = runner.invoke(main, ["--home", str(pair.bob.path), "inbox", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    import json

    statuses = [o["status"] for o in json.loads(res.stdout)
                if o["status"] not in ("own", "duplicate")]
    assert statuses == ["imported"]
    seq, _ = play_until_sealed(pair.bob.game(name), pair.chooser)
    res = runner.invoke(main, ["--home", str(pair.bob.path), "send", name, "--folder",
                               str(folder)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["--home", str(pair.alice.path), "watch", str(folder),
                               "--interval", "0.05", "--for", "0.3"])
    assert res.exit_code == 0, res.output
    assert f"file {seq} from the blue player" in res.output
    assert pair.alice.game(name).verifier.seq == seq
    res = runner.invoke(main, ["--home", str(pair.alice.path), "inbox", str(folder)])
    assert res.exit_code == 0 and "nothing new" in res.output


def test_a_conflict_copy_that_forks_the_game_is_kept_as_evidence(pair: Pair,
                                                                 tmp_path: Path) -> None:
    # Alice's home is copied (a second machine); each copy seals its own file 2, so two
    # different signed files claim the same place and the sync tool keeps both
    folder, name, path, other = two_file_2s(pair, tmp_path)
    assert peek(other).seq == peek(path.read_bytes()).seq
    copy = folder / f"{path.stem}.sync-conflict-20240501-101010-LAPTOP1.pbem"
    copy.write_bytes(other)
    outcomes = {o.source: o for o in scan(pair.bob, folder)}
    assert outcomes[str(path)].status == "imported"
    forked = outcomes[str(copy)]
    assert forked.status == "refused"
    assert "Syncthing conflict copy" in forked.note and "different bytes" in forked.note
    save = pair.bob.game(name).path.read_bytes()
    evidence = list((pair.bob.path / "evidence").rglob("*.pbem"))
    assert sorted(p.read_bytes() for p in evidence) == sorted([path.read_bytes(), other])
    # looked at once: the next scan does not refuse it again, and the save is unchanged
    assert scan(pair.bob, folder) == []
    assert pair.bob.game(name).path.read_bytes() == save


def test_watch_survives_a_folder_that_goes_away(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "netdrive"
    folder.mkdir()
    name = start_game(pair, folder)
    seq, data = play_until_sealed(pair.alice.game(name), pair.chooser)
    moved = tmp_path / "netdrive-offline"
    seen: list[str] = []
    polls: list[int] = []

    def sleep(_: float) -> None:
        polls.append(1)
        if len(polls) == 1:
            folder.rename(moved)  # the drive disconnects
        elif len(polls) == 3:
            moved.rename(folder)  # and comes back, with the opponent's file
            deliver_folder(data, folder, peek(data))

    watch_folder(folder, router(pair.bob), HandledState.of_home(pair.bob.path),
                 lambda o: seen.append(o.status), interval=0.01,
                 stop=lambda: len(polls) >= 5, sleep=sleep)
    assert "unavailable" in seen and "imported" in seen
    assert pair.bob.game(name).verifier.seq == seq


def test_first_contact_prompt_in_a_terminal(pair: Pair, tmp_path: Path) -> None:
    import pexpect

    folder = tmp_path / "shared"
    folder.mkdir()
    game = pair.alice.new_game("skirmish", "short", "red", name="g")
    joined = pair.bob.join(game.files[0], "invite", name="g")
    deliver_folder(joined.files[1], folder, peek(joined.files[1]))
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    pbem = str(Path(sys.executable).parent / "pbem")
    # without a terminal, and without --yes: held, with the fingerprint shown
    res = subprocess.run([pbem, "--home", str(pair.alice.path), "inbox", str(folder)],
                         capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                         timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    assert "first contact" in res.stderr and pair.bob.card().fingerprint in res.stderr
    assert pair.alice.game("g").verifier.seq == 0
    # in a terminal: asked; "n" keeps it held, "y" imports and pins
    for answer, seq in (("n", 0), ("y", 1)):
        child = pexpect.spawn(pbem, ["--home", str(pair.alice.path), "inbox", str(folder)],
                              env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
        child.expect("Does it match what they told you")
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert pair.alice.game("g").verifier.seq == seq
    assert [c.key for c in pair.alice.keys.contacts()] == [pair.bob.card().key]


def test_links_and_folders_named_like_turn_files_are_not_followed(pair: Pair,
                                                                  tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    _, staged = take_turn(pair, tmp_path, name)  # a real file, outside the folder
    link = folder / staged.name
    link.symlink_to(staged)
    (folder / "dir.pbem").mkdir()
    outcomes = {Path(o.source).name: o for o in scan(pair.bob, folder)}
    assert outcomes[staged.name].status == "refused"
    assert "symbolic link" in outcomes[staged.name].note
    assert outcomes["dir.pbem"].status == "refused"
    assert "not a regular file" in outcomes["dir.pbem"].note
    assert pair.bob.game(name).verifier.seq == 1


def test_a_file_that_trips_a_bug_does_not_stop_the_others(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    names = [start_game(pair, folder, f"g{i}") for i in range(2)]
    for n in names:
        take_turn(pair, folder, n)
    calls: list[str] = []

    known = {g.game_id: g.side for g in pair.bob.games()}

    def importer(data: bytes, source: str) -> object:
        # bob's own files go to the importer too (a home behind them catches up)
        if known[peek(data).game_id] != peek(data).side:
            calls.append(source)
            if len(calls) == 1:
                raise KeyError("boom")
        return pair.bob.receive(data, source)

    r = Router(importer, lambda: known)
    outcomes = [o for o in scan_folder(folder, r, None) if o.info and o.info.seq == 2]
    assert sorted(o.status for o in outcomes) == ["imported", "refused"]
    [bad] = [o for o in outcomes if o.status == "refused"]
    assert "internal error" in bad.note and "KeyError" in bad.note


def test_cli_invite_and_accept_through_the_folder(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "Sync"
    folder.mkdir()
    run = pbem_at

    run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "club",
        "-o", str(tmp_path / "invite.pbem"))
    run(pair.alice, "send", "club", "--folder", str(folder))
    out = run(pair.bob, "inbox", str(folder))
    assert "an invitation from Alice" in out and pair.alice.card().fingerprint in out
    invite = re.search(r"pbem join (\S+)", out)
    assert invite is not None and Path(invite.group(1)).parent == folder
    run(pair.bob, "join", invite.group(1), "--name", "club", "-o", str(tmp_path / "acc.pbem"),
        "--yes")
    run(pair.bob, "send", "club", "--folder", str(folder))
    out = run(pair.alice, "inbox", str(folder), "--yes", "--reply")
    assert "accepted the invitation" in out
    assert pair.alice.game("club").verifier.seq == 1
    seq, _ = play_until_sealed(pair.alice.game("club"), pair.chooser)
    run(pair.alice, "send", "club", "--folder", str(folder))
    out = run(pair.bob, "inbox", str(folder))
    assert f"file {seq} from the red player" in out
    assert pair.bob.game("club").files == pair.alice.game("club").files
