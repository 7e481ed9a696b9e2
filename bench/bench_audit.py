"""What a referee waits for: the audit and the replay page, against the crypto floor.

    .venv/bin/python bench/bench_audit.py [--fixtures DIR] [--engines E:S,...] [--quick]
                                          [--skip-linear] [--base DIR] [--valgrind]

Issue 35's figures for ``pbem audit`` and ``pbem audit --html`` (the replay page a referee
writes from the files alone; ``pbem replay --html`` builds the same page from a save),
each beside the floor measured in the same run on the same files: per file, one SHA-256,
the envelope's msgpack decode and one Ed25519 verify (``open_envelope``), and the body's
decode (about 0.15-0.2 ms; nothing that checks a file can do less).

1. **Linear in the game**: the test engine's ``ultramarathon`` (two selfplay bots, about
   2,200 files, built once into ``--fixtures``), audited in this process over its first
   200 files and its first 2,000 (a prefix of a game is an unfinished game): CPU ms per
   file and their ratio (target: within 1.2x).
2. **Every engine, in a fresh process** (``python -c "from pbem.cli import main; main()"``,
   as a referee runs it): ``audit --json`` and ``audit --html`` of one selfplay game per
   engine (seed 1; ``--engines`` picks the scenarios, the default the short ones): CPU
   seconds (user + system of the child), per file and as a multiple of the floor, the
   page's size, the replay's own cost (``--html`` less the audit: target
   at most 2x the audit) and the peak resident memory of the ``--html`` run (target:
   200 MB whatever the length).  Beside them, the start-up of the same kind of process
   (``pbem --version``: Python, click and pbem's command line) and the audit's cost per
   file beyond it, as a multiple of the floor: with no home (no data cache), in a new
   empty home (cold: the audit fills its data cache) and again in that home (warm), since
   a fresh process pays its start-up however few the files.  The target (within 20x) is
   read on the warm figure beyond start-up: a short game's start-up alone can exceed 20x
   the floor of all its files (8 files: 20 floors are ~300 M instructions; Python, click
   and pbem's command line start in ~190 M).  ``--base DIR`` (a ``git
   archive`` of another checkout) measures that tree's rows beside this one's, one after
   the other on the same files.  ``--valgrind``: every child's figure is its count of
   instructions (cachegrind, ``PYTHONHASHSEED=0``, one run each), the floor a child that
   checks the files less one that only reads them: a before/after that CPU time on a
   shared machine (a third up or down from run to run) cannot show.

Every command is timed by its own CPU time, the steadier figure on a shared machine; the
figures are medians of ``--reps`` runs (3; ``--quick``: 1).  Building the fixtures plays
the games (minutes for the ultramarathon); ``--fixtures DIR`` keeps them for the next run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path[:0] = [str(ROOT), str(TOY)]
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), str(TOY), os.environ.get("PYTHONPATH", "")) if p)
os.environ["PBEM_ENGINES"] = ",".join(
    [e for e in os.environ.get("PBEM_ENGINES", "").split(",") if e and e != "toy_engine:ENGINE"]
    + ["toy_engine:ENGINE"])

#: one short scenario per engine (the default), and the longest (``--long``)
SHORT = ("white-death:purkayev,for-the-motherland:4-uranus,48th-panzer-korps:first-day,"
         "mortain:counterattack,backhand-blow:high-water-mark")
LONG = ("white-death:campaign,for-the-motherland:6-for-the-motherland,48th-panzer-korps:chir,"
        "mortain:counterattack,backhand-blow:backhand-blow")

#: the child reports its own resource use here: the children's maximum resident size
#: from this side is the largest child's so far, not this command's
_REPORTER = """
import json, os, resource, sys
from pbem.cli import main
try:
    main()
finally:
    u = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["BENCH_RUSAGE"], "w", encoding="utf-8") as out:
        json.dump({"cpu": u.ru_utime + u.ru_stime, "maxrss_kb": u.ru_maxrss}, out)
"""


#: the floor counted in instructions: the same files read and the first checked (the
#: crypto library's first use loads it), then (argument "1") every file checked
_FLOOR = """
import sys
from pathlib import Path
from pbem.envelope import open_envelope
from pbem.sha import sha256
datas = [Path(p).read_bytes() for p in sys.argv[2:]]
open_envelope(datas[0]).decode()
from pbem import identity
identity._verified.clear()
if sys.argv[1] == "1":
    for data in datas:
        sha256(data).digest()
        open_envelope(data).decode()
"""

#: ``--valgrind``: every child's figure is its instruction count (millions), not CPU time
VALGRIND = False


def game_files(fixtures: Path, engine: str, scenario: str, seed: int = 1) -> list[Path]:
    """The turn files of one selfplay game, played into ``fixtures`` the first time."""
    from pbem.registry import get
    from pbem.selfplay import selfplay

    # a game of other rules is refused by the audit: the rules version names the fixture
    where = fixtures / f"{engine}-{scenario}-{seed}-rules{get(engine).rules_version}"
    if not (where / "done").exists():
        started = time.monotonic()
        print(f"  playing {engine} {scenario} seed {seed} ...", flush=True)
        result = selfplay(engine, scenario, seed, where)
        (where / "done").write_text(result.line(), encoding="utf-8")
        print(f"  {result.line()} ({time.monotonic() - started:.0f} s)", flush=True)
    return sorted((where / "files").iterdir())


def forget_verified() -> None:
    """Empty the process's memo of verified signatures (``pbem.identity``), as a fresh
    process has it: the second repetition of a floor or an audit in this process hit it
    for every file, and measured no Ed25519 verify at all."""
    from pbem import identity

    identity._verified.clear()


def floor_ms(datas: list[bytes]) -> float:
    """CPU ms per file of what checking a file cannot skip."""
    from pbem.envelope import open_envelope
    from pbem.sha import sha256

    forget_verified()
    started = time.process_time()
    for data in datas:
        sha256(data).digest()
        open_envelope(data).decode()
    return (time.process_time() - started) * 1000 / len(datas)


def audit_ms(paths: list[Path]) -> float:
    from pbem.audit import audit, collect

    datas = collect(paths)
    forget_verified()
    started = time.process_time()
    report = audit(datas)
    spent = time.process_time() - started
    if not report.clean:
        raise SystemExit(f"the audit of {len(paths)} files is not clean: {report.problems}")
    return spent * 1000 / len(paths)


def env_for(tree: Path) -> dict[str, str]:
    """The environment of a child running ``tree``'s pbem (its checkout first on the path)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a referee's Python keeps its bytecode
    env["PYTHONPATH"] = os.pathsep.join((str(tree), str(tree / "tests" / "toy")))
    return env


def child(argv: list[str], home: Path | None = None, tree: Path = ROOT,
          script: str = _REPORTER) -> dict[str, float]:
    """Run ``pbem ARGV`` in a fresh process: its CPU seconds (with ``--valgrind``: its
    instructions, millions) and peak resident KB.

    ``home``: the ``PBEM_HOME`` (default: one that does not exist, so no data cache)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rusage.json"
        env = {**env_for(tree), "BENCH_RUSAGE": str(report),
               "PBEM_HOME": str(home or Path(tmp) / "h")}
        command = [sys.executable, "-c", script, *argv]
        if VALGRIND:
            env["PYTHONHASHSEED"] = "0"  # the same dict and set orders in every run
            command = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                       "--cachegrind-out-file=/dev/null", *command]
        done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"pbem {' '.join(argv[:2])} failed ({done.returncode}):\n"
                             f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
        if script != _REPORTER:
            result: dict[str, float] = {}
        else:
            result = json.loads(report.read_text(encoding="utf-8"))
        if VALGRIND:
            found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
            if not found:
                raise SystemExit(f"valgrind gave no count: {done.stderr[-2000:]}")
            result["cpu"] = int(found.group(1).replace(",", "")) / 1e6
        return result


def floor_of(paths: list[Path], reps: int) -> float:
    """The floor per file: CPU ms in this process, or (``--valgrind``) millions of
    instructions, a child that checks the files less one that only reads them."""
    if not VALGRIND:
        return median([floor_ms([p.read_bytes() for p in paths]) for _ in range(reps)])
    names = [str(p) for p in paths]
    # unmeasured first: a tree's first child compiles the modules it imports and writes
    # their dataclass records, and counted that into "checked" alone (a White Death floor
    # read 2.406 M a file in a fresh tree, 2.065 M once compiled; 5.8 M from a new archive)
    child(["1", *names], script=_FLOOR)
    checked = child(["1", *names], script=_FLOOR)["cpu"]
    read = child(["0", *names], script=_FLOOR)["cpu"]
    return (checked - read) / len(paths)


def median(values: list[float]) -> float:
    return statistics.median(values)


def linear(fixtures: Path, reps: int) -> None:
    files = game_files(fixtures, "skirmish", "ultramarathon")
    print(f"\n1. audit in process, test engine ultramarathon ({len(files)} files)")
    datas = [p.read_bytes() for p in files[:2000]]
    floor = median([floor_ms(datas) for _ in range(reps)])
    rows = []
    for n in (200, 2000):
        if len(files) < n:
            raise SystemExit(f"the game has {len(files)} files, fewer than {n}")
        rows.append((n, median([audit_ms(files[:n]) for _ in range(reps)])))
    print(f"   floor                 {floor:7.3f} ms/file")
    for n, ms in rows:
        print(f"   audit of {n:5d} files  {ms:7.3f} ms/file  {ms / floor:6.1f}x floor")
    print(f"   2,000 / 200           {rows[1][1] / rows[0][1]:7.2f}x   (target: 1.2x at most)")


def warm_up(tree: Path, names: list[str]) -> None:
    """An audit and a replay page of ``tree``, not measured: a checkout's first run of a
    module writes its bytecode and the record of each of its dataclasses
    (pbem.dataclass_code), and the first measured run ('none') would count that writing,
    about 3 M instructions a dataclass, instead of the audit (issue 35)."""
    global VALGRIND
    was, VALGRIND = VALGRIND, False
    try:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            home.mkdir()
            child(["audit", "--json", *names], home, tree)
            child(["audit", *names, "--html", str(Path(tmp) / "replay.html")], home, tree)
    finally:
        VALGRIND = was


def engine_rows(tree: Path, names: list[str], reps: int) -> dict[str, float]:
    """Median CPU seconds of one tree's start-up, cold and warm audits and replay page."""
    got: dict[str, list[float]] = {k: [] for k in ("start", "none", "cold", "warm", "html",
                                                    "peak", "page")}
    warm_up(tree, names)
    for _ in range(reps):
        with tempfile.TemporaryDirectory() as tmp:
            # a referee's home: made, empty (cold), then as the first audit left it (warm)
            home = Path(tmp) / "home"
            home.mkdir()
            page = Path(tmp) / "replay.html"
            got["start"].append(child(["--version"], home, tree)["cpu"])
            got["none"].append(child(["audit", "--json", *names], None, tree)["cpu"])
            got["cold"].append(child(["audit", "--json", *names], home, tree)["cpu"])
            got["warm"].append(child(["audit", "--json", *names], home, tree)["cpu"])
            html = child(["audit", *names, "--html", str(page)], home, tree)
            got["html"].append(html["cpu"])
            got["peak"].append(html["maxrss_kb"] / 1024)
            got["page"].append(page.stat().st_size / 1024)
    return {k: max(v) if k == "peak" else median(v) for k, v in got.items()}


def engines(fixtures: Path, pairs: list[tuple[str, str]], reps: int,
            trees: dict[str, Path]) -> None:
    print("\n2. fresh process per command: pbem --version, audit --json, audit --html "
          + ("(millions of instructions, valgrind)" if VALGRIND else "(CPU s)"))
    print(f"   {'engine:scenario':36} {'tree':>4} {'files':>5} {'floor':>6} {'start':>6} "
          f"{'none':>6} {'cold':>6} {'warm':>6} {'/file':>6} {'x floor':>7} {'+cold':>6} "
          f"{'+warm':>6} {'html':>6} {'replay':>6} {'x audit':>7} {'peak MB':>7} "
          f"{'page KB':>7}")
    for engine, scenario in pairs:
        files = game_files(fixtures, engine, scenario)
        floor = floor_of(files, reps)
        names = [str(p) for p in files]
        for label, tree in trees.items():
            row = engine_rows(tree, names, reps)
            n = len(files)
            scale = 1 if VALGRIND else 1000  # per file: M instructions, or ms
            per_file = row["none"] * scale / n
            # what the audit costs beyond the same process's start-up, per file
            beyond = {k: (row[k] - row["start"]) * scale / n / floor for k in ("cold", "warm")}
            replay_s = row["html"] - row["warm"]
            print(f"   {engine + ':' + scenario:36} {label:>4} {n:5d} {floor:6.3f} "
                  f"{row['start']:6.2f} {row['none']:6.2f} {row['cold']:6.2f} "
                  f"{row['warm']:6.2f} {per_file:6.2f} {per_file / floor:7.1f} "
                  f"{beyond['cold']:6.1f} {beyond['warm']:6.1f} "
                  f"{row['html']:6.2f} {replay_s:6.2f} {replay_s / row['warm']:7.2f} "
                  f"{row['peak']:7.0f} {row['page']:7.0f}", flush=True)
    if VALGRIND:
        print("   every figure in millions of instructions (floor, /file: per file); peak MB "
              "is valgrind's, not pbem's")
    print("   floor, /file: ms per file; start: 'pbem --version' (Python's and pbem's "
          "start-up), seconds;\n"
          "   none: 'audit --json' with no home (no data cache: a referee who has none); "
          "cold: the same in a\n"
          "   new empty home; warm: again in that home (its data cache as the cold audit "
          "left it);\n"
          "   /file, x floor: the no-home audit per file, start-up included, and as a "
          "multiple of the floor;\n"
          "   +cold, +warm: the audit's cost beyond start-up ((audit - start) / files) as a "
          "multiple of the floor;\n"
          "   +warm is the target's reading (20x at most): start-up is one process's fixed "
          "cost, not a file's\n"
          "   (the turn commands' 1.5x --help bounds it), and the cold fill of the data "
          "cache is paid once an\n"
          "   installation, as Python's bytecode is (docs/engine-guide.md, 'How the speed "
          "targets are read')\n"
          "   html: 'audit --html' in the warm home; replay: html less the warm audit; "
          "x audit: replay / warm audit\n"
          "   (target: 2x at most); peak MB: the html run's peak resident memory "
          "(target: 200)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, help="keep the played games here")
    parser.add_argument("--engines", default=SHORT,
                        help=f"ENGINE:SCENARIO,... (default: {SHORT}; the longest: {LONG})")
    parser.add_argument("--long", action="store_true", help="the engines' longest scenarios")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one repetition")
    parser.add_argument("--base", type=Path,
                        help="another checkout (a git archive), its engines table measured "
                             "beside this one's, one after the other")
    parser.add_argument("--valgrind", action="store_true",
                        help="the engines table in instructions (valgrind's cachegrind), "
                             "one run each: steady on a busy machine, slow")
    parser.add_argument("--skip-linear", action="store_true",
                        help="only the engines (no ultramarathon)")
    args = parser.parse_args()
    reps = 1 if args.quick or args.valgrind else args.reps
    global VALGRIND
    VALGRIND = args.valgrind
    fixtures = args.fixtures or Path(tempfile.mkdtemp(prefix="bench-audit-"))
    fixtures.mkdir(parents=True, exist_ok=True)
    spec = LONG if args.long else args.engines
    pairs = [tuple(item.split(":", 1)) for item in spec.split(",") if item]
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not args.skip_linear:
        linear(fixtures, reps)
    trees = ({"base": args.base.resolve()} if args.base else {}) | {"this": ROOT}
    engines(fixtures, [(e, s) for e, s in pairs], reps, trees)


if __name__ == "__main__":
    main()
