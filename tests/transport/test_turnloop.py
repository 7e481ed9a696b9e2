"""Issue 32: the turn takes care of itself.  Each player answers decisions (a scripted
``pbem play``) and runs one ``pbem watch``; after ``new`` and ``join`` nobody types
``send``, ``receive`` or a file name, and ``status`` agrees with the shared folder at
every step."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner
from syncthing import wait_for
from transport_helpers import Pair

from pbem.cli import main
from pbem.envelope import file_name
from pbem.session import Home

PBEM = str(Path(sys.executable).parent / "pbem")
#: a scripted player: Enter takes the default, '1' the first action of a short list
ANSWERS = "\n1\n" * 60


def cli(home: Home, *args: str, input: str | None = None) -> str:
    res = CliRunner().invoke(main, ["--home", str(home.path), *args], input=input,
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


@contextmanager
def watching(*homes: Home, logs: Path, args: tuple[str, ...] = ()) -> Iterator[list[Path]]:
    """One ``pbem watch`` per home, no folder named: each follows its games' routes."""
    procs: list[subprocess.Popen[bytes]] = []
    paths = []
    try:
        for home in homes:
            path = logs / f"{home.path.name}-watch.log"
            paths.append(path)
            with path.open("wb") as log:
                procs.append(subprocess.Popen(
                    [PBEM, "--home", str(home.path), "watch", "--yes", "--interval", "0.1",
                     *args], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    start_new_session=True))
        yield paths
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def folder_seqs(folder: Path, game_id: bytes) -> list[int]:
    prefix = game_id.hex()[:12]
    return sorted(int(p.name.split("-")[1]) for p in folder.glob(f"{prefix}-*.pbem"))


def agrees_with_folder(home: Home, folder: Path) -> None:
    """``status`` says exactly what the folder holds of this home's files."""
    status = json.loads(cli(home, "status", "duel", "--json"))
    game = home.game("duel")
    sealed = status["last_sealed"]
    path = folder / file_name(game.game_id, sealed, game.side)
    assert path.read_bytes() == game.files[sealed], "the folder holds another file"
    assert status["sent"].startswith(f"file {sealed} sent: written to {path}, still there"), \
        status["sent"]
    assert "not sent" not in cli(home, "list")


def test_a_whole_game_through_a_folder_with_play_and_one_watch_each(pair: Pair,
                                                                      tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    out = cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              "--folder", str(folder))
    game_id = pair.alice.game("duel").game_id
    invite = folder / file_name(game_id, 0, "red")
    assert f"invite sent: file 0 of duel written to {invite}" in out, out
    out = cli(pair.bob, "join", str(invite), "--name", "duel", "--folder", str(folder),
              "--yes")
    assert "reply sent: file 1 of duel written to" in out, out
    with watching(pair.alice, pair.bob, logs=tmp_path) as logs:
        wait_for(lambda: pair.alice.game("duel").verifier.seq == 1, 60,
                 "alice's watch imported the reply")
        plays = 0
        while pair.alice.game("duel").result is None:
            mover = None

            def someone_moves() -> bool:
                nonlocal mover
                mover = pair.mover("duel")
                return mover is not None or pair.alice.game("duel").result is not None
            wait_for(someone_moves, 60, "a watch imported the last file")
            if mover is None:
                break
            # the one who waits is told it is not his turn, and from whom the file comes
            waiter = pair.other(mover)
            said = cli(waiter, "play", "duel", "--fast")
            assert "it is not your turn: file" in said and "is awaited from" in said, said
            arrived = len(mover.game("duel").files) - 1
            out = cli(mover, "play", "duel", "--fast", input=ANSWERS)
            if arrived > 1:  # what the watch imported is replayed before the prompt
                assert f"file {arrived}: the {pair.other(mover).game('duel').side} player" \
                    in out, out
            seq = mover.game("duel").times["last_sealed"]
            assert f"sent: file {seq} of duel written to" in out, out
            agrees_with_folder(mover, folder)
            plays += 1
            assert plays < 60
        wait_for(lambda: pair.bob.game("duel").result is not None, 60, "bob saw the end")
    a, b = pair.alice.game("duel"), pair.bob.game("duel")
    assert a.files == b.files and a.result == b.result and plays >= 4
    # every file of the game is in the folder, each once, and nothing else of it
    assert folder_seqs(folder, game_id) == list(range(len(a.files)))
    for home in (pair.alice, pair.bob):
        agrees_with_folder(home, folder)
    text = "".join(p.read_text() for p in logs)
    assert "Traceback" not in text, text


def test_no_desktop_no_notifier_and_the_watch_goes_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Without a desktop session (a server, this test) no notifier is made, installed or
    not: the watch's terminal line is the whole message, and nothing is logged."""
    from pbem.transport.watcher import desktop_notifier

    for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert desktop_notifier() is None
