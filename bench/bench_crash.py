"""Crash and race bench: kill -9 pbem at random points, run commands at once on one home.

Run: ``.venv/bin/python bench/bench_crash.py`` (``--kills 40 --races 30`` for more).

Each kill starts a real ``pbem`` process (the test engine, a fixed clock so files are
the same bytes every time), lets it run for a delay drawn between half and 110% of the
time the command normally takes, and kills it with SIGKILL.  Then the home must still be good:

* the save loads (never half written, never altered);
* it is the state before the command or the state after it (or, for ``act``, after a
  prefix of the actions), nothing in between, and nothing lost;
* running the command again finishes the job, and the file it seals is byte for byte
  the file an uninterrupted run seals (never a second, different file for a place: the
  sealed record outside the save, issue 20 item 4);
* a file written by ``send`` is either absent or whole.

Each race starts ``pbem receive`` and ``pbem say`` on the same home at once: each must
either succeed or refuse with the concurrency error (exit 13), and the effect of every
command that succeeded must be in the final save.

The counts are printed; any failure makes the exit status 1.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
os.environ["PBEM_ENGINES"] = "toy_engine:ENGINE"
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(TOY),
                                                       os.environ.get("PYTHONPATH")) if p)
os.environ["PBEM_CLOCK"] = "1800000000"

from pbem.errors import PbemError  # noqa: E402
from pbem.session import Home, read_save  # noqa: E402
from pbem.testing import Chooser  # noqa: E402

GAME = "duel"
PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]


def draw(seed: str, n: int) -> int:
    """A number below ``n`` from a seed (the bench is repeatable; no Python random)."""
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big") % max(n, 1)


def make_home(root: Path, name: str) -> Home:
    home = Home(root / name.lower(), clock=lambda: 1_800_000_000)
    home.keys.create(name, "", None, secret=hashlib.sha256(name.encode()).digest())
    return home


class Setup:
    """Alice and Bob a few files into a game; what each command is run on."""

    def __init__(self, root: Path) -> None:
        alice, bob = make_home(root, "Alice"), make_home(root, "Bob")
        game = alice.new_game("skirmish", "long", "red", name=GAME, nonce=b"\x01" * 32)
        alice.receive(bob.join(game.files[0], "inv", name=GAME).files[1], "acc")
        chooser = Chooser("crash bench")
        for _ in range(3):
            mover = alice if alice.game(GAME).my_decision() is not None else bob
            g = mover.game(GAME)
            sealed = None
            while sealed is None:
                _, _, sealed = g.act(chooser.pick(g.state.legal_actions()).notation())
            (bob if mover is alice else alice).receive(g.file(sealed)[1], "f")
        self.mover = alice if alice.game(GAME).my_decision() is not None else bob
        self.receiver = bob if self.mover is alice else alice
        # the mover's home before its next file, and the actions that make that file
        self.before_act = root / "before-act"
        shutil.copytree(self.mover.path, self.before_act)
        g = self.mover.game(GAME)
        self.actions: list[str] = []
        sealed = None
        while sealed is None:
            text = chooser.pick(g.state.legal_actions()).notation()
            self.actions.append(text)
            _, _, sealed = g.act(text)
        self.seq, self.file = g.file(sealed)
        self.incoming = root / "incoming.pbem"
        self.incoming.write_bytes(self.file)
        # the receiver's home before that file arrives
        self.before_receive = root / "before-receive"
        shutil.copytree(self.receiver.path, self.before_receive)
        self.after_act = root / "after-act"
        shutil.copytree(self.mover.path, self.after_act)


def pbem(home: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*PBEM, "--home", str(home), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def timed(home: Path, *args: str) -> float:
    start = time.monotonic()
    proc = pbem(home, *args)
    proc.wait()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else b""
    return time.monotonic() - start


def killed(home: Path, seed: str, span: float, *args: str) -> None:
    proc = pbem(home, *args)
    # between half and 110% of a normal run: the first half is mostly Python starting
    time.sleep(span * (500 + draw(seed, 600)) / 1000)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def loads(home: Path) -> Home:
    return Home(home)


def bench_receive(s: Setup, tmp: Path, n: int, counts: Counter[str]) -> None:
    work = tmp / "receive"
    shutil.copytree(s.before_receive, work)
    span = timed(work, "receive", str(s.incoming))
    for i in range(n):
        shutil.rmtree(work)
        shutil.copytree(s.before_receive, work)
        killed(work, f"receive {i}", span, "receive", str(s.incoming))
        game = loads(work).game(GAME)  # raises if the save were damaged
        counts["receive: killed before the save" if game.verifier.seq == s.seq - 1 else
               "receive: killed after the save"] += 1
        if game.verifier.seq not in (s.seq - 1, s.seq):
            counts["FAIL receive: an in-between state"] += 1
        proc = pbem(work, "receive", str(s.incoming))
        proc.wait()
        if loads(work).game(GAME).files[s.seq] != s.file or proc.returncode != 0:
            counts["FAIL receive: the re-run did not import the file"] += 1


def bench_act(s: Setup, tmp: Path, n: int, counts: Counter[str]) -> None:
    work = tmp / "act"
    shutil.copytree(s.before_act, work)
    span = timed(work, "act", GAME, *s.actions)
    for i in range(n):
        shutil.rmtree(work)
        shutil.copytree(s.before_act, work)
        killed(work, f"act {i}", span, "act", GAME, *s.actions)
        home = loads(work)
        body = read_save(home, work / "games" / f"{GAME}.pbsave")[1]
        # save format 3 counts its files; format 2 named them by hash; format 1 held them
        saved = body["file_count"] if "file_count" in body else \
            len(body["file_hashes"] if "file_hashes" in body else body["files"])
        game = home.game(GAME)
        if len(game.files) > s.seq:
            counts["act: killed after the seal was saved" if saved > s.seq else
                   "act: killed between the seal's record and the save (taken back on "
                   "load)"] += 1
            if game.files[s.seq] != s.file:
                counts["FAIL act: a different file sealed"] += 1
            continue
        played = game.pending_actions()
        done = len(played)
        if played != s.actions[:done]:
            counts["FAIL act: the unsealed actions are not a prefix of those given"] += 1
            continue
        counts[f"act: killed after {done} of {len(s.actions)} actions"] += 1
        proc = pbem(work, "act", GAME, *s.actions[done:])
        proc.wait()
        again = loads(work).game(GAME)
        if proc.returncode != 0 or len(again.files) <= s.seq or again.files[s.seq] != s.file:
            counts["FAIL act: the re-run sealed another file, or none"] += 1
        record = work / "sealed" / again.game_id.hex() / f"{s.seq:06d}.pbem"
        if record.read_bytes() != s.file:
            counts["FAIL act: the sealed record differs"] += 1


def bench_send(s: Setup, tmp: Path, n: int, counts: Counter[str]) -> None:
    work = tmp / "send"
    shutil.copytree(s.after_act, work)
    out = tmp / "out.pbem"
    span = timed(work, "send", GAME, "-o", str(out))
    for i in range(n):
        out.unlink(missing_ok=True)
        killed(work, f"send {i}", span, "send", GAME, "-o", str(out))
        if not out.exists():
            counts["send: killed before the file was written"] += 1
        elif out.read_bytes() == s.file:
            counts["send: killed after, the file whole"] += 1
        else:
            counts["FAIL send: a partial file"] += 1
        loads(work).game(GAME)


def bench_races(s: Setup, tmp: Path, n: int, counts: Counter[str]) -> None:
    work = tmp / "race"
    for i in range(n):
        if work.exists():
            shutil.rmtree(work)
        shutil.copytree(s.before_receive, work)
        text = f"race {i}"
        a = pbem(work, "receive", str(s.incoming))
        # the second command a little later each time, to cross the first at every point
        time.sleep(draw(f"race {i}", 300) / 1000)
        b = pbem(work, "say", GAME, text)
        a.wait()
        b.wait()
        codes = (a.returncode, b.returncode)
        if any(c not in (0, 13) for c in codes):
            counts[f"FAIL race: exit codes {codes}"] += 1
            continue
        try:
            game = loads(work).game(GAME)
        except PbemError as exc:
            counts[f"FAIL race: the save does not load ({exc})"] += 1
            continue
        lost = (a.returncode == 0 and game.verifier.seq != s.seq) or \
            (b.returncode == 0 and game.message != text)
        counts["FAIL race: a command's work was lost" if lost else
               "race: both succeeded" if codes == (0, 0) else
               "race: one refused (run again), nothing lost"] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20, help="per command (default 20)")
    parser.add_argument("--races", type=int, default=20, help="(default 20)")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pbem-crash-") as tmp:
        root = Path(tmp)
        s = Setup(root / "setup")
        bench_receive(s, root, args.kills, counts)
        bench_act(s, root, args.kills, counts)
        bench_send(s, root, args.kills, counts)
        bench_races(s, root, args.races, counts)
    for key in sorted(counts):
        print(f"{counts[key]:5}  {key}")
    kills = 3 * args.kills
    failures = sum(v for k, v in counts.items() if k.startswith("FAIL"))
    print(f"{kills} kills -9 and {args.races} races in {time.monotonic() - start:.0f} s: "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
