"""The wall time sealed dice add when both players run ``pbem watch`` (issue 32, item 8).

    python bench/bench_sealed_wall.py [--transport syncthing mail] [--game ENGINE/SCENARIO]
                                      [--max-files 40] [--max-seconds 300]
                                      [--interval 0.2] [--st-delay 1] [--mail-interval 1]

Two homes, each running one ``pbem watch`` (a subprocess, no folder named: it follows the
game's route), play a game with open dice and then with sealed dice.  The scripted player
answers each decision as soon as it is asked: it picks a legal action with
``pbem.testing.Chooser`` and runs ``pbem act GAME ACTION``, which delivers the file it
seals by the game's route.  Nobody sends or receives by hand; the rolls-only replies of
sealed dice (docs/protocol.md 6.2) are sealed and sent by the opponent's watcher.

Routes: (a) ``--folder``, each home on its own folder of two private Syncthing instances
on loopback (tests/transport/syncthing.py, ``fsWatcherDelayS`` = ``--st-delay``); (b)
``--email`` through the test Postfix and Dovecot on loopback (tests/transport/mailserver.py,
needs root), each watcher reading its mailbox every ``--mail-interval`` seconds.

A *wait* is the time from the file a player's ``act`` sealed to the moment one of the two
homes holds a decision again (or the game's end): the file travels, the other watcher
imports it, and with sealed dice may reply.  A wait that ends with the decision back
with the same player is a *round trip*: its file was answered by a rolls-only reply that
nobody typed.  Open dice never have one, so the round trips' sum is the wall time sealed
dice add per game.  Bounded: a game stops after ``--max-files`` turn files or
``--max-seconds``; everything listens on 127.0.0.1 only.  The figures count the waits, not
the scripted player's own acts (a human's turn).  The machine's load shows in them.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
sys.path.insert(0, str(ROOT / "tests" / "transport"))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(TOY), os.environ.get("PYTHONPATH", "")) if p)
if "toy_engine:ENGINE" not in os.environ.get("PBEM_ENGINES", ""):
    os.environ["PBEM_ENGINES"] = ",".join(
        filter(None, [os.environ.get("PBEM_ENGINES", ""), "toy_engine:ENGINE"]))

from click.testing import CliRunner  # noqa: E402

from pbem.cli import main as pbem_main  # noqa: E402
from pbem.registry import get  # noqa: E402
from pbem.session import Home  # noqa: E402
from pbem.testing import Chooser  # noqa: E402

PBEM = str(Path(sys.executable).parent / "pbem")
NAME = "duel"


def cli(home: Home, *args: str, input: str | None = None) -> str:
    res = CliRunner().invoke(pbem_main, ["--home", str(home.path), *args], input=input)
    if res.exit_code != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed at {home.path}:\n{res.output}")
    return res.output


def wait_until(pred: Callable[[], bool], timeout: float, what: str,
               step: float = 0.02) -> float:
    start = time.monotonic()
    while not pred():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"not within {timeout:g} s: {what}")
        time.sleep(step)
    return time.monotonic() - start


@contextmanager
def watching(homes: list[Home], logs: Path, args: list[str]) -> Iterator[list[Path]]:
    procs: list[subprocess.Popen[bytes]] = []
    paths = []
    try:
        for home in homes:
            path = logs / f"{home.path.name}-watch.log"
            paths.append(path)
            with path.open("wb") as log:
                procs.append(subprocess.Popen(
                    [PBEM, "--home", str(home.path), "watch", "--yes", *args],
                    stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    start_new_session=True))
        yield paths
    finally:
        for proc in procs:  # by their own ids, never by name
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@dataclass
class Run:
    transport: str
    game: str
    dice: str
    files: int = 0
    acts: int = 0
    sealed_by_act: int = 0
    one_way: list[float] = field(default_factory=list)
    round_trip: list[float] = field(default_factory=list)
    acting: float = 0.0
    wall: float = 0.0
    ended: str = ""


def make_home(root: Path, name: str) -> Home:
    home = Home(root / name.lower())
    home.keys.create(name, f"{name.lower()}@pbem.test", None)
    return home


def mover_of(homes: list[Home]) -> Home | None:
    for home in homes:
        if home.game(NAME).my_decision() is not None:
            return home
    return None


def play(run: Run, homes: list[Home], chooser: Chooser, max_files: int,
         max_seconds: float) -> None:
    """Answer every decision at once with ``pbem act``; time what happens in between."""
    start = time.monotonic()
    alice = homes[0]
    wait_until(lambda: len(alice.game(NAME).files) >= 2 or mover_of(homes) is not None, 120,
               "the accept reached the inviter")
    mover = None

    def someone() -> bool:
        nonlocal mover
        mover = mover_of(homes)
        return mover is not None or alice.game(NAME).result is not None

    wait_until(someone, 120, "a first decision")
    while mover is not None:
        game = mover.game(NAME)
        before = len(game.files)
        t0 = time.monotonic()
        action = chooser.pick(game.state.legal_actions())
        out = cli(mover, "act", NAME, action.notation())
        run.acts += 1
        run.acting += time.monotonic() - t0
        if len(mover.game(NAME).files) == before:
            continue  # the same player decides again within the same file
        run.sealed_by_act += 1
        if "not sent" in out or "held" in out:
            raise SystemExit(f"the route did not send the file:\n{out}")
        last = mover
        try:
            waited = wait_until(someone, 120, "a watcher imported the last file")
        except TimeoutError as exc:
            run.ended = str(exc)
            break
        (run.round_trip if mover is last else run.one_way).append(waited)
        files = len(alice.game(NAME).files)
        if files - 2 >= max_files:
            run.ended = f"capped at {max_files} files"
            break
        if time.monotonic() - start > max_seconds:
            run.ended = f"capped at {max_seconds:g} s"
            break
    else:
        run.ended = "game over"
    wait_until(lambda: homes[0].game(NAME).files == homes[1].game(NAME).files, 120,
               "both homes hold the same files")
    run.files = len(alice.game(NAME).files) - 2
    run.wall = time.monotonic() - start


def folder_run(game_ref: str, dice: str, args: argparse.Namespace, seed: str) -> Run:
    from syncthing import start_pair

    engine_id, scenario = game_ref.split("/")
    run = Run("syncthing", game_ref, dice)
    root = Path(tempfile.mkdtemp(prefix="pbem-sealwall-"))
    pair = start_pair(root / "st", delay=args.st_delay)
    try:
        alice, bob = make_home(root, "Alice"), make_home(root, "Bob")
        fa, fb = pair.a.folder, pair.b.folder
        cli(alice, "new", engine_id, scenario, "--side", get(engine_id).sides[0],
            "--name", NAME, "--dice", dice, "--folder", str(fa))
        inv = next(fa.glob("*-0000-*.pbem"))
        wait_until(lambda: (fb / inv.name).exists(), 120, "the invite reached bob's folder")
        cli(bob, "join", str(fb / inv.name), "--name", NAME, "--folder", str(fb), "--yes")
        with watching([alice, bob], root, ["--interval", str(args.interval)]) as logs:
            play(run, [alice, bob], Chooser(seed), args.max_files, args.max_seconds)
        check_logs(logs)
    finally:
        pair.stop()
        shutil.rmtree(root, ignore_errors=True)
    return run


def mail_run(servers: object, game_ref: str, dice: str, args: argparse.Namespace,
             seed: str) -> Run:
    engine_id, scenario = game_ref.split("/")
    run = Run("mail", game_ref, dice)
    root = Path(tempfile.mkdtemp(prefix="pbem-sealwall-"))
    try:
        alice, bob = make_home(root, "Alice"), make_home(root, "Bob")
        for home, user in ((alice, "alice"), (bob, "bob")):
            a = servers.accounts[user]  # type: ignore[attr-defined]
            cli(home, "mail", "setup", "--address", a.address,
                "--smtp-host", servers.host,  # type: ignore[attr-defined]
                "--smtp-port", str(servers.submission_port),  # type: ignore[attr-defined]
                "--smtp-security", "starttls",
                "--imap-host", servers.host,  # type: ignore[attr-defined]
                "--imap-port", str(servers.imaps_port),  # type: ignore[attr-defined]
                "--imap-security", "tls",
                "--ca-file", str(servers.ca_file),  # type: ignore[attr-defined]
                "--password-stdin", input=a.password + "\n")
        wargs = ["--interval", str(args.interval), "--mail-interval", str(args.mail_interval)]
        with watching([alice, bob], root, wargs) as logs:
            cli(alice, "new", engine_id, scenario, "--side", get(engine_id).sides[0],
                "--name", NAME, "--dice", dice, "--email", "--to", "bob@pbem.test")
            found: list[str] = []

            def invited() -> bool:
                found[:] = re.findall(r"run: pbem join (\S+)", logs[1].read_text())
                return bool(found)

            wait_until(invited, 120, "bob's watch showed the invitation", step=0.1)
            cli(bob, "join", found[0], "--name", NAME, "--yes")
            play(run, [alice, bob], Chooser(seed), args.max_files, args.max_seconds)
        check_logs(logs)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return run


def check_logs(logs: list[Path]) -> None:
    text = "".join(p.read_text(errors="replace") for p in logs)
    if "Traceback" in text:
        raise SystemExit(f"a watcher failed:\n{text[-3000:]}")


def _ms(xs: list[float]) -> str:
    return f"{statistics.median(xs):6.2f}" if xs else "     -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transport", nargs="+", choices=["syncthing", "mail"],
                        default=["syncthing", "mail"])
    parser.add_argument("--game", nargs="+", default=["skirmish/short",
                                                      "white-death/final-relief"],
                        help="ENGINE/SCENARIO to play (default: the test engine and White "
                             "Death's shortest)")
    parser.add_argument("--max-files", type=int, default=40,
                        help="turn files per game at most (default 40)")
    parser.add_argument("--max-seconds", type=float, default=300.0,
                        help="wall seconds per game at most (default 300)")
    parser.add_argument("--interval", type=float, default=0.2,
                        help="watch --interval, seconds between looks at the folder")
    parser.add_argument("--st-delay", type=int, default=1,
                        help="Syncthing's fsWatcherDelayS (default 1; Syncthing's own is 10)")
    parser.add_argument("--mail-interval", type=float, default=1.0,
                        help="watch --mail-interval (default 1; pbem's own is 60)")
    parser.add_argument("--seed", default="sealwall")
    args = parser.parse_args()

    runs: list[Run] = []
    servers = None
    try:
        if "mail" in args.transport:
            from mailserver import start_servers

            servers = start_servers()
        for transport in args.transport:
            for game_ref in args.game:
                for dice in ("open", "sealed"):
                    if transport == "syncthing":
                        run = folder_run(game_ref, dice, args, args.seed)
                    else:
                        run = mail_run(servers, game_ref, dice, args, args.seed)
                    runs.append(run)
                    print(f"  ... {transport} {game_ref} {dice}: {run.files} files, "
                          f"{run.wall:.0f} s ({run.ended})", flush=True)
    finally:
        if servers is not None:
            servers.stop()  # type: ignore[attr-defined]
            shutil.rmtree(servers.root, ignore_errors=True)  # type: ignore[attr-defined]

    print(f"\nsealed dice under two `pbem watch`: watch --interval {args.interval:g} s, "
          f"Syncthing fsWatcherDelayS {args.st_delay}, watch --mail-interval "
          f"{args.mail_interval:g} s; loopback; cap {args.max_files} files / "
          f"{args.max_seconds:g} s per game")
    print(f"{'transport':<10} {'game':<26} {'dice':<6} {'files':>5} {'acts':>5} "
          f"{'1-way':>5} {'med s':>6} {'rt':>4} {'med s':>6} {'rt sum s':>8} "
          f"{'wait s':>7} {'wall s':>7}  ended")
    for r in runs:
        waits = sum(r.one_way) + sum(r.round_trip)
        print(f"{r.transport:<10} {r.game:<26} {r.dice:<6} {r.files:>5} {r.acts:>5} "
              f"{len(r.one_way):>5} {_ms(r.one_way)} {len(r.round_trip):>4} "
              f"{_ms(r.round_trip)} {sum(r.round_trip):>8.1f} {waits:>7.1f} "
              f"{r.wall:>7.1f}  {r.ended}")
    print("1-way: waits that passed the turn (the file went, the other player decides); "
          "rt: round trips (a watcher's rolls-only reply, nobody typed it), 'rt sum' the "
          "wall time they added to the game; wait: all waits; wall: the game, acts included.")


if __name__ == "__main__":
    main()
