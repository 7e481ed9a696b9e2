"""What a player waits for per command, as ratios to baselines measured in the same run.

    .venv/bin/python bench/bench_cli.py [--quick] [--fixtures DIR] [--reps N]
                                        [--lengths 10,500,2000]

Issue 19's targets, each printed as a ratio to its baseline:

- ``pbem status``, ``pbem list``, ``pbem --help``: within 1.3x of importing their
  dependencies (``python -c "import click, rich, msgpack; from cryptography...ed25519"``);
- ``pbem legal``, ``act``, ``receive``: within 1.5x of ``pbem --help``;
- receive, act (seal) and status the same at 10 and at 2,000 files of history: each is
  also printed as a ratio to the same command on the 10-file game.

Homes of 1 game and of 50 games, games of 10, 500 and 2,000 files of the test engine's
``ultramarathon`` (two selfplay bots).  In the 50-game home the measured game is one of
50 real games of the same two identities and sorts among them in the middle (a game
sorted first is found by the first save read, which flattered ``receive``).

Every command is a fresh process (``python -c "from pbem.cli import main; main()"``),
timed by its own CPU time (user + system: the steadier figure on a shared machine) and
by the wall clock (which alone sees fsync).
Each repetition runs the baselines and every target once, interleaved, so that load
from other processes on the machine weighs on baseline and target alike; the figures
are medians over the repetitions.  A command that changes the home (receive, act) runs
on a fresh copy made outside the timing.

``--engines white-death:purkayev,for-the-motherland:4-uranus``: also a real engine's game
of 12 files each (seed 1), whose ``legal``, ``act`` and ``receive`` are printed as ratios
to ``pbem --help``, with the home's scenario-data cache (``HOME/cache``) warm, as a
player's is after the first command, and, for comparison, cold (the cache folder
removed before each command: the TOML parsed and the map built as before the cache).

Building the fixtures plays a 2,000-file game (a few minutes); ``--fixtures DIR`` keeps
them in DIR and reuses them on the next run.  ``--quick``: 3 repetitions, 10 and 500
files.  Each fixture home's cache is warmed first by a ``status`` (the save summaries
it keeps, as a player's home has them after a first command).  To compare with another
checkout, run this file with ``PYTHONPATH`` naming that
checkout (and its tests/toy) first: every command runs in the temp folder, since
``python -c`` puts its working folder ahead of ``PYTHONPATH`` (run from a checkout, the
commands would import that checkout whatever ``PYTHONPATH`` says).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (os.environ.get("PYTHONPATH", ""), str(TOY)) if p)
os.environ["PBEM_ENGINES"] = "toy_engine:ENGINE"
os.environ.pop("PBEM_HOME", None)
# a player's Python keeps compiled bytecode; where this is set (some CI and sandboxes) every
# command would compile pbem and its engines from source again, about half a second
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

#: the measured game's seed: its name, selfplay-3, sorts in the middle of selfplay-1..50
SEED = 3
FILLERS = [s for s in range(1, 51) if s != SEED]
SCENARIO = "ultramarathon"
PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]
DEPS = [sys.executable, "-c",
        "import click, rich, msgpack; from cryptography.hazmat.primitives.asymmetric "
        "import ed25519"]
#: where the commands run: not a checkout (see the end of the module's docstring)
NEUTRAL = tempfile.gettempdir()
#: the fixture layout this file writes (a change of layout rebuilds them)
LAYOUT = 1


class _Enough(Exception):
    pass


def build(fixtures: Path, lengths: list[int]) -> None:
    """``len-N/``: both homes of a game of N files, the N-th file written but not yet
    received by the other home; ``fill/``: the same two identities with 49 other games."""
    from pbem.selfplay import selfplay

    work = fixtures / "build"
    shutil.rmtree(work, ignore_errors=True)
    todo = sorted(n for n in lengths if not (fixtures / f"len-{n}" / "meta.json").is_file())

    def on_file(count: int) -> None:
        if count in todo:
            target = fixtures / f"len-{count}"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(work / "long", target)
            last = sorted((target / "files").iterdir())[-1]
            # the sender's side is in the file's name; the other home receives it
            receiver = "home-b" if last.name.endswith("-red.pbem") else "home-a"
            (target / "meta.json").write_text(json.dumps(
                {"layout": LAYOUT, "file": last.name, "home": receiver}))
            print(f"  fixture: a game of {count} files", file=sys.stderr)
            if count == todo[-1]:
                raise _Enough

    if todo:
        t0 = time.perf_counter()
        try:
            selfplay("skirmish", SCENARIO, SEED, work / "long", on_file=on_file)
        except _Enough:
            pass
        else:
            raise SystemExit(f"{SCENARIO} ended before {todo[-1]} files")
        print(f"  played in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if not (fixtures / "fill" / "done").is_file():
        fill = fixtures / "fill"
        shutil.rmtree(fill, ignore_errors=True)
        source = fixtures / f"len-{min(lengths)}"
        for home in ("home-a", "home-b"):
            # the same two identities (the keys come from the first seed of a folder)
            shutil.copytree(source / home / "identity", fill / home / "identity")
            shutil.copy(source / home / "contacts.json", fill / home / "contacts.json")
        for seed in FILLERS:
            selfplay("skirmish", SCENARIO, seed, fill, max_actions=16)
        (fill / "done").write_text("")
        print(f"  fixture: {len(FILLERS)} other games", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)


#: a real engine's game: the receiving home takes the 12th file
ENGINE_FILES = 12
#: the installed engines, not the test engine PBEM_ENGINES names for the rest
REAL_ENV = {k: v for k, v in os.environ.items() if k != "PBEM_ENGINES"}


def build_engine(fixtures: Path, engine: str, scenario: str) -> Path:
    """``eng-ENGINE-SCENARIO/``: both homes when file 12 is written, not yet received,
    each home's data cache filled by a first command."""
    from pbem.selfplay import selfplay

    target = fixtures / f"eng-{engine}-{scenario}"
    if (target / "meta.json").is_file():
        return target
    work = fixtures / "build-engine"
    shutil.rmtree(work, ignore_errors=True)

    def on_file(count: int) -> None:
        if count == ENGINE_FILES:
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(work, target)
            raise _Enough

    try:
        selfplay(engine, scenario, 1, work, on_file=on_file)
    except _Enough:
        pass
    else:
        raise SystemExit(f"{engine} {scenario} ended before {ENGINE_FILES} files")
    shutil.rmtree(work, ignore_errors=True)
    last = sorted((target / "files").iterdir())[-1]
    from pbem.registry import get

    # the creator (home-a) plays the engine's first side; the other home receives
    sender = last.stem.split("-", 1)[1]
    receiver = "home-b" if sender == get(engine).sides[0] else "home-a"
    for home in ("home-a", "home-b"):
        subprocess.run([*PBEM, "--home", str(target / home), "legal", "selfplay-1"],
                       capture_output=True, env=REAL_ENV, cwd=NEUTRAL)  # fills the cache
    (target / "meta.json").write_text(json.dumps(
        {"layout": LAYOUT, "file": last.name, "home": receiver}))
    print(f"  fixture: {engine} {scenario}, {ENGINE_FILES} files", file=sys.stderr)
    return target


def home_copy(fixtures: Path, length: int, games: int, into: Path) -> tuple[Path, Path]:
    """A fresh copy of the receiving home (and the file it is about to receive)."""
    meta = json.loads((fixtures / f"len-{length}" / "meta.json").read_text())
    shutil.rmtree(into, ignore_errors=True)
    source = fixtures / f"len-{length}" / meta["home"]
    if games == 1:
        shutil.copytree(source, into)
    else:
        shutil.copytree(fixtures / "fill" / meta["home"], into)
        shutil.copytree(source / "games", into / "games", dirs_exist_ok=True)
        shutil.copytree(source / "sealed", into / "sealed", dirs_exist_ok=True)
        if (source / "cache").is_dir():
            shutil.copytree(source / "cache", into / "cache", dirs_exist_ok=True)
    return into, fixtures / f"len-{length}" / "files" / meta["file"]


def keep_chain(home: Path, game: str, action: str, fixtures: Path, length: int) -> None:
    """Act once in ``home`` (a scratch copy) and give the fixture's home the dice-chain
    links that act kept (pbem.chainkeep), as a game begun by 'pbem new'/'join' has them:
    the selfplay library that played the fixtures keeps none, and without them every
    measured act is a home's first since, walking the whole chain (4,096 hashes)."""
    meta = json.loads((fixtures / f"len-{length}" / "meta.json").read_text())
    subprocess.run([*PBEM, "--home", str(home), "act", game, action], capture_output=True,
                   check=True, cwd=NEUTRAL)
    cache = fixtures / f"len-{length}" / meta["home"] / "cache"
    cache.mkdir(exist_ok=True)
    for entry in (home / "cache").glob("chain-*"):
        shutil.copy2(entry, cache / entry.name)


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one command in a fresh process.

    On a machine shared with other work the wall clock mostly measures the others: the
    CPU time of the child itself is the steadier figure, the wall clock is printed too
    (it alone sees fsync and other waits)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=err, env=env, cwd=NEUTRAL)
        _, status, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(argv[3:])} failed ({child.returncode}): "
                             f"{err.read().decode(errors='replace')[-2000:]}")
    return took, usage.ru_utime + usage.ru_stime


def first_action(home: Path, game: str = f"selfplay-{SEED}",
                 env: dict[str, str] | None = None) -> str:
    out = subprocess.run([*PBEM, "--home", str(home), "legal", game, "--json"],
                         capture_output=True, check=True, env=env, cwd=NEUTRAL)
    legal = json.loads(out.stdout)
    if not legal["your_move"]:
        raise SystemExit(f"the receiving home has no move after receiving: {legal['prompt']}")
    action: str = legal["default"] or legal["actions"][0]
    return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="3 repetitions, games of 10 and 500 files")
    parser.add_argument("--fixtures", type=Path,
                        help="keep the fixtures here and reuse them (default: a temp folder)")
    parser.add_argument("--reps", type=int, help="repetitions (default 7, --quick 3)")
    parser.add_argument("--lengths", help="game lengths in files (default 10,500,2000)")
    parser.add_argument("--engines", default="",
                        help="ENGINE:SCENARIO,...: also a real engine's game of 12 files")
    args = parser.parse_args()
    real = [tuple(x.split(":", 1)) for x in args.engines.split(",") if x]
    reps = args.reps or (3 if args.quick else 7)
    lengths = [int(x) for x in (args.lengths or ("10,500" if args.quick else "10,500,2000"))
               .split(",")]
    import compileall

    import engines
    import pbem

    for folder in (Path(pbem.__file__).parent, Path(engines.__file__).parent, TOY):
        compileall.compile_dir(folder, quiet=1)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-cli-") as tmp:
        fixtures = args.fixtures.resolve() if args.fixtures else Path(tmp) / "fixtures"
        fixtures.mkdir(parents=True, exist_ok=True)
        build(fixtures, sorted({10, *lengths}))
        # each home's cache warm, as a player's is after a first command: the kept save
        # summaries (and the data of real engines' games, below)
        for home in sorted(fixtures.glob("*/home-*")):
            subprocess.run([*PBEM, "--home", str(home), "status"], capture_output=True,
                           cwd=NEUTRAL)
        scratch = Path(tmp) / "home"
        game = f"selfplay-{SEED}"
        cases = [(games, n) for games in (1, 50) for n in lengths]
        actions: dict[tuple[int, int], str] = {}
        for case in cases:
            home, incoming = home_copy(fixtures, case[1], case[0], scratch)
            subprocess.run([*PBEM, "--home", str(home), "receive", str(incoming)],
                           capture_output=True, check=True, cwd=NEUTRAL)
            actions[case] = first_action(home)
            keep_chain(home, game, actions[case], fixtures, case[1])
        engine_cases: list[tuple[str, Path, Path, str]] = []
        for engine, scenario in real:
            target = build_engine(fixtures, engine, scenario)
            meta = json.loads((target / "meta.json").read_text())
            # the data cache filled by the code measured now: its entries are keyed by the
            # kit's code, so the fixture's, from an older checkout, would all be misses
            subprocess.run([*PBEM, "--home", str(target / meta["home"]), "legal",
                            "selfplay-1"], capture_output=True, env=REAL_ENV, cwd=NEUTRAL)
            home = Path(tmp) / "engine-home"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(target / meta["home"], home)
            subprocess.run([*PBEM, "--home", str(home), "receive",
                            str(target / "files" / meta["file"])],
                           capture_output=True, check=True, env=REAL_ENV, cwd=NEUTRAL)
            action = first_action(home, "selfplay-1", REAL_ENV)
            subprocess.run([*PBEM, "--home", str(home), "act", "selfplay-1", action],
                           capture_output=True, check=True, env=REAL_ENV, cwd=NEUTRAL)
            (target / meta["home"] / "cache").mkdir(exist_ok=True)
            for entry in (home / "cache").glob("chain-*"):
                shutil.copy2(entry, target / meta["home"] / "cache" / entry.name)
            engine_cases.append((f"{engine}/{scenario}", target / meta["home"],
                                 target / "files" / meta["file"], action))
        times: dict[str, list[tuple[float, float]]] = {}

        def timed(key: str, argv: list[str]) -> None:
            times.setdefault(key, []).append(run(argv))

        for rep in range(reps):
            print(f"  repetition {rep + 1} of {reps}", file=sys.stderr)
            for games, n in cases:
                # the baselines between every block, so both see the same load
                timed("deps", DEPS)
                timed("help", [*PBEM, "--help"])
                home, incoming = home_copy(fixtures, n, games, scratch)
                at = ["--home", str(home)]
                tag = f"{games}x{n}"
                timed(f"status {tag}", [*PBEM, *at, "status"])
                timed(f"list {tag}", [*PBEM, *at, "list"])
                timed(f"receive {tag}", [*PBEM, *at, "receive", str(incoming)])
                timed(f"legal {tag}", [*PBEM, *at, "legal", game])
                timed(f"act {tag}", [*PBEM, *at, "act", game, actions[(games, n)]])
            for label, source, incoming, action in engine_cases:
                for cache in ("warm", "cold"):
                    timed("help", [*PBEM, "--help"])
                    home = Path(tmp) / "engine-home"
                    shutil.rmtree(home, ignore_errors=True)
                    shutil.copytree(source, home)
                    at = ["--home", str(home)]
                    for command in (["receive", str(incoming)], ["legal", "selfplay-1"],
                                    ["act", "selfplay-1", action]):
                        if cache == "cold":
                            shutil.rmtree(home / "cache", ignore_errors=True)
                        times.setdefault(f"{label} {cache} {command[0]}", []).append(
                            run([*PBEM, *at, *command], REAL_ENV))
        for which, label in ((1, "CPU time (user + system) of the command"),
                             (0, "wall clock")):
            med = {key: statistics.median(t[which] for t in v) for key, v in times.items()}
            report(med, label, len(times["deps"]), cases, min(lengths))
            if engine_cases:
                print(f"{'engine game of ' + str(ENGINE_FILES) + ' files':44} | legal   act "
                      "receive x --help (1.5) | ms: legal act receive")
                for name, *_ in engine_cases:
                    for cache in ("warm", "cold"):
                        got = [med[f"{name} {cache} {c}"] for c in ("legal", "act", "receive")]
                        print(f"{name + ', cache ' + cache:44} | "
                              f"{got[0] / med['help']:5.2f} {got[1] / med['help']:5.2f} "
                              f"{got[2] / med['help']:7.2f}{'':15}| "
                              f"{' '.join(f'{1000 * g:.0f}' for g in got)}")


def report(med: dict[str, float], label: str, samples: int, cases: list[tuple[int, int]],
           shortest: int) -> None:
    deps, help_ = med["deps"], med["help"]
    print(f"\n{label}, medians; baselines of {samples} runs each: import of the "
          f"dependencies {1000 * deps:.0f} ms, pbem --help {1000 * help_:.0f} ms")
    print(f"pbem --help: {help_ / deps:.2f}x the dependencies (target 1.3)")
    print(f"{'home':>5} {'files':>5} | {'status':>6} {'list':>6} x deps (1.3) | "
          f"{'legal':>5} {'act':>5} {'receive':>7} x --help (1.5) | "
          f"status act receive x {shortest} files | ms: status act receive")
    for games, n in cases:
        tag = f"{games}x{n}"
        short = f"{games}x{shortest}"

        def r(cmd: str, base: float, tag: str = tag) -> str:
            return f"{med[f'{cmd} {tag}'] / base:.2f}"

        print(f"{games:>5} {n:>5} | {r('status', deps):>6} {r('list', deps):>6}"
              f"{'':13}| {r('legal', help_):>5} {r('act', help_):>5} "
              f"{r('receive', help_):>7}{'':15}| "
              f"{r('status', med[f'status {short}']):>6} "
              f"{r('act', med[f'act {short}']):>4} "
              f"{r('receive', med[f'receive {short}']):>7}{'':10}| "
              f"{1000 * med[f'status {tag}']:.0f} {1000 * med[f'act {tag}']:.0f} "
              f"{1000 * med[f'receive {tag}']:.0f}")

if __name__ == "__main__":
    main()
