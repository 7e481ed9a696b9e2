"""A game through a real Syncthing folder: two instances on loopback, 'pbem watch --reply'
on both sides, then a pause and a deletion, and a conflict copy (one player on two
computers) (issue 23).

Never skipped: without Syncthing the test fails and names .ci/install-syncthing.sh.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from syncthing import SyncthingError, start_pair, wait_for
from transport_helpers import Pair, pbem_at, play_until_sealed

from pbem.envelope import file_name, peek
from pbem.session import Home
from pbem.transport.folder import deliver_folder


def _files(home: Home) -> list[bytes]:
    return list(home.game("duel").files)


def test_a_game_through_syncthing(pair: Pair, tmp_path: Path) -> None:
    try:
        st = start_pair(tmp_path / "syncthing", delay=1)
    except SyncthingError as exc:
        pytest.fail(str(exc), pytrace=False)
    watchers: list[subprocess.Popen[bytes]] = []
    logs = {"alice": tmp_path / "alice-watch.log", "bob": tmp_path / "bob-watch.log"}
    run = pbem_at

    try:
        fa, fb = st.a.folder, st.b.folder
        game = pair.alice.new_game("skirmish", "short", "red", name="duel", dice_mode="sealed")
        invite = deliver_folder(game.files[0], fa, peek(game.files[0]))
        wait_for(lambda: (fb / invite.name).exists(), 60, "the invite reached bob")
        joined = pair.bob.join((fb / invite.name).read_bytes(), "invite", name="duel")
        accept = deliver_folder(joined.files[1], fb, peek(joined.files[1]))
        wait_for(lambda: (fa / accept.name).exists(), 60, "the accept reached alice")
        pair.alice.receive((fa / accept.name).read_bytes(), "accept")
        pbem = str(Path(sys.executable).parent / "pbem")
        for home, folder in ((pair.alice, fa), (pair.bob, fb)):
            with logs["alice" if home is pair.alice else "bob"].open("wb") as log:
                watchers.append(subprocess.Popen(
                    [pbem, "--home", str(home.path), "watch", str(folder), "--reply", "--yes",
                     "--interval", "0.2"], stdout=log, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, start_new_session=True))

        def in_step() -> bool:
            return _files(pair.alice) == _files(pair.bob)

        # play until a watcher has sent a file by itself, and a little more
        for _ in range(14):
            wait_for(in_step, 60, "both homes hold the same files")
            if "written to" in logs["alice"].read_text() + logs["bob"].read_text() \
                    and len(_files(pair.alice)) >= 6:
                break
            mover = pair.mover("duel")
            assert mover is not None
            play_until_sealed(mover.game("duel"), pair.chooser)
            out = run(mover, "send", "duel", "--folder", str(fa if mover is pair.alice else fb))
            assert "written to" in out and "delivered" not in out
        wait_for(in_step, 60, "both homes hold the same files")
        assert "written to" in logs["alice"].read_text() + logs["bob"].read_text(), \
            "no watcher sent a file by itself"

        # a deletion: the file is taken out of the folder before the other side has it
        mover = pair.mover("duel")
        assert mover is not None
        mine, theirs = (st.a, st.b) if mover is pair.alice else (st.b, st.a)
        theirs.pause(True)                             # a pause: the other side is away
        seq, data = play_until_sealed(mover.game("duel"), pair.chooser)
        side = mover.game("duel").side
        name = file_name(peek(data).game_id, seq, side)
        out = run(mover, "send", "duel", "--folder", str(mine.folder))
        assert f"written to {mine.folder / name}" in out
        time.sleep(2)
        assert not (theirs.folder / name).exists()     # paused: nothing arrived
        (mine.folder / name).unlink()                  # tidied away before import
        status = run(mover, "status", "duel")
        assert f"file {seq} was written to {mine.folder / name} and is no longer there" \
            in status and f"pbem send duel --seq {seq} --folder {mine.folder}" in status
        theirs.pause(False)
        run(mover, "send", "duel", "--seq", str(seq), "--folder", str(mine.folder))
        wait_for(in_step, 60, "the file sent again was imported")

        # no save lost: both homes hold the same files, the one sent again included
        assert _files(pair.alice)[seq] == data

        # a conflict copy: the player to move plays on from two computers at once
        mover = pair.mover("duel")
        assert mover is not None
        other = pair.other(mover)
        mine, theirs = (st.a, st.b) if mover is pair.alice else (st.b, st.a)
        laptop = Home(tmp_path / "laptop")
        # the home's watcher may be writing as it is copied: its atomic writes' temp
        # files come and go (a copy that met one vanishing failed under load)
        shutil.copytree(mover.path, laptop.path, ignore=shutil.ignore_patterns(".*.tmp"))
        mine.pause(True)
        theirs.pause(True)
        seq, desk = play_until_sealed(mover.game("duel"), pair.chooser)
        laptop.game("duel").say("from the laptop")
        _, lap = play_until_sealed(laptop.game("duel"), pair.chooser)
        assert desk != lap
        deliver_folder(desk, mine.folder, peek(desk))
        time.sleep(1.1)  # the laptop's version is the newer: it keeps the real name
        deliver_folder(lap, theirs.folder, peek(lap))
        mine.pause(False)
        theirs.pause(False)

        last_scan = [time.monotonic()]

        def conflicts() -> bool:
            # Under a loaded CI machine a resumed folder's watcher can miss the conflict
            # copy its own pull made; a rescan every few seconds is what a user's
            # hourly rescan would do, sooner.
            if time.monotonic() - last_scan[0] > 3:
                last_scan[0] = time.monotonic()
                for inst in (mine, theirs):
                    inst.scan()
            return all(any(".sync-conflict-" in p.name for p in f.iterdir())
                       for f in (mine.folder, theirs.folder))

        def listing() -> str:
            return "; ".join(f"{inst.name}: {sorted(p.name for p in inst.folder.iterdir())}"
                             for inst in (mine, theirs))

        try:
            wait_for(conflicts, 90, "Syncthing made a conflict copy on both sides")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; {listing()}") from None
        mover_log = logs["alice" if mover is pair.alice else "bob"]
        other_log = logs["alice" if other is pair.alice else "bob"]
        wait_for(lambda: f"two versions of your own file {seq}" in mover_log.read_text(), 60,
                 f"the player on two computers was told: {mover_log.read_text()[-800:]}")
        wait_for(lambda: "Syncthing conflict copy" in other_log.read_text()
                 and f"two different files claim place {seq}" in other_log.read_text(), 60,
                 f"the opponent was told: {other_log.read_text()[-800:]}")
        evidence = sorted(p.read_bytes() for p in (other.path / "evidence").rglob("*.pbem"))
        assert evidence == sorted([desk, lap])
        # no save lost: each home still loads its game, both agree up to the fork
        assert _files(pair.alice)[:seq] == _files(pair.bob)[:seq]
    finally:
        for proc in watchers:
            proc.terminate()  # by its own id
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        st.stop()
    assert st.a.proc is not None and st.a.proc.poll() is not None
    assert st.b.proc is not None and st.b.proc.poll() is not None
