"""Instructions each pbem command executes (valgrind), for another checkout and this one.

    .venv/bin/python bench/bench_ir.py --fixtures DIR [--base DIR] [--length 10]
                                       [--games 50] [COMMAND ...]

On a machine shared with other work a command's CPU time moves by a third from run to
run; the count of instructions it executes (valgrind's cachegrind, ``I refs``) moves by
a fraction of a percent, so a change of a few percent shows.  Commands: deps (importing
click, rich, msgpack and Ed25519: bench_cli's baseline), help, status, list, legal, act,
receive (default: all), on a copy of the bench_cli fixture home (``--fixtures``: a folder
``bench_cli.py --fixtures`` built) whose cache a first ``status`` filled; legal and act
run after the home received its file.  ``act-kept``: act in a home whose dice-chain links
an earlier command kept (pbem.chainkeep: a game begun by ``pbem new``/``join``, or any game
after its first act); ``act``: as the fixture's home stands (a fixtures folder that
bench_cli.py used gives its homes their kept links; one built before has none: its act
is a home's first, walking the whole chain and keeping it).  ``--base DIR``: a ``git
archive`` of another checkout, measured the same way beside this one; ``--base-fixtures
DIR``: fixtures that checkout's own ``bench_cli.py`` built, when it cannot read this
one's saves (save format 3 is unreadable to pbem before it).  Needs valgrind; slow
(about 20 s a command).

``--engine ENGINE:SCENARIO`` (repeatable, e.g. ``white-death:purkayev``): instead of the
test engine's home, a real engine's game of 12 files (bench_cli's ``eng-ENGINE-SCENARIO``
fixture under ``--fixtures``, built there when missing): the receiving home, its data
cache warm (every entry derived from the installed data that the game's receive and
legal use, as a home that played the scenario before has them), ``receive`` of the 12th
file, then ``legal`` and ``act`` (the act's dice-chain links kept, as a player's are
after a first act) in the home that received it; deps and help as above, for the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
# its fixtures' layout; importing it sets PYTHONPATH and PBEM_ENGINES in os.environ, which
# env_for sets or drops for every command measured anyway
import bench_cli  # noqa: E402

DEPS = ("import click, rich, msgpack; "
        "from cryptography.hazmat.primitives.asymmetric import ed25519")
GAME = "selfplay-3"  # bench_cli's measured game


def env_for(tree: Path, real: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPATH"] = os.pathsep.join((str(tree), str(tree / "tests" / "toy")))
    env["PBEM_ENGINES"] = "toy_engine:ENGINE"
    if real:  # the installed engines (resolved from ``tree``, first on the path)
        del env["PBEM_ENGINES"]
    return env


def pbem(*args: str) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli import main; main()", *args]


def home(fixtures: Path, length: int, games: int, into: Path, tree: Path) -> Path:
    """bench_cli's fresh copy of the receiving home, its status asked once by ``tree``'s
    code (the summaries it keeps are that code's); the file it is about to receive."""
    _, incoming = bench_cli.home_copy(fixtures, length, games, into)
    subprocess.run(pbem("--home", str(into), "status"), env=env_for(tree),
                   capture_output=True, cwd=into.parent)
    return incoming


def instructions(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", *argv],
                         capture_output=True, text=True, env=env, cwd=cwd)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if not found:
        raise SystemExit(f"valgrind gave no count: {out.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")) / 1e6


def measure(tree: Path, command: str, args: argparse.Namespace, work: Path,
            fixtures: Path) -> float:
    env = env_for(tree)
    where = work / f"home-{command}"
    incoming = home(fixtures, args.length, args.games, where, tree)
    at = ["--home", str(where)]
    if command == "deps":
        return instructions([sys.executable, "-c", DEPS], env, work)
    if command == "help":
        return instructions(pbem("--help"), env, work)
    if command in ("status", "list"):
        return instructions(pbem(*at, command), env, work)
    return turn_command(command, where, GAME, incoming, env, work,
                        keep_links=command == "act-kept")


def turn_command(command: str, where: Path, game: str, incoming: Path,
                 env: dict[str, str], work: Path, keep_links: bool) -> float:
    """``receive``, or ``legal`` / ``act`` after receiving ``incoming`` in the home at
    ``where``; with ``keep_links`` the act is first made in a scratch copy, so that the
    home keeps the chain links a home that has acted before keeps."""
    at = ["--home", str(where)]
    if command == "receive":
        return instructions(pbem(*at, "receive", str(incoming)), env, work)
    subprocess.run(pbem(*at, "receive", str(incoming)), env=env, capture_output=True,
                   cwd=work, check=True)
    if command == "legal":
        return instructions(pbem(*at, "legal", game), env, work)
    legal = json.loads(subprocess.run(pbem(*at, "legal", game, "--json"), env=env,
                                      capture_output=True, text=True, cwd=work,
                                      check=True).stdout)
    if not legal["your_move"]:
        raise SystemExit(f"no move after receiving: {legal['prompt']}")
    action = legal["default"] or legal["actions"][0]
    if keep_links:
        scratch = work / f"scratch-{where.name}"
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(where, scratch)
        subprocess.run(pbem("--home", str(scratch), "act", game, action), env=env,
                       capture_output=True, cwd=work, check=True)
        for entry in (scratch / "cache").glob("chain-*"):
            shutil.copy2(entry, where / "cache" / entry.name)
    return instructions(pbem(*at, "act", game, action), env, work)


def engine_fixture(fixtures: Path, spec: str) -> Path:
    """bench_cli's fixture for a real engine's game, built by its code when missing."""
    engine, scenario = spec.split(":", 1)
    target = fixtures / f"eng-{engine}-{scenario}"
    if not (target / "meta.json").is_file():
        bench_cli.build_engine(fixtures, engine, scenario)
    return target


def measure_engine(tree: Path, command: str, target: Path, work: Path) -> float:
    """One command of a real engine's game, in a fresh copy of its receiving home."""
    env = env_for(tree, real=True)
    if command == "deps":
        return instructions([sys.executable, "-c", DEPS], env, work)
    if command == "help":  # once first: the tree's bytecode written, as a player's is
        subprocess.run(pbem("--help"), env=env, capture_output=True, cwd=work)
        return instructions(pbem("--help"), env, work)
    meta = json.loads((target / "meta.json").read_text())
    where = work / f"engine-{command}"
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(target / meta["home"], where)
    at = ["--home", str(where)]
    game = "selfplay-1"
    incoming = target / "files" / meta["file"]
    # the data cache filled by the code measured (its entries are keyed by that code)
    subprocess.run(pbem(*at, "legal", game), env=env, capture_output=True, cwd=work)
    warm_data(where, game, incoming, env, work)
    return turn_command(command, where, game, incoming, env, work, keep_links=True)


#: the data cache's kinds derived from the installed scenario files alone (pbem.datacache:
#: the parsed TOML, the map, stand-ins, move-cost tables, the files' and the kit's digests,
#: Backhand Blow's order of battle and supply edges) or from the home's own identity files
#: (its card, its contacts: any earlier command read them), not from a save or a chain
DATA_KINDS = ("toml-", "hexmap-", "stand-", "movecosts-", "code-", "digest-", "bb-oob-",
              "bb-edges-", "card-", "contacts-")


def warm_data(where: Path, game: str, incoming: Path, env: dict[str, str],
              work: Path) -> None:
    """Give the home at ``where`` the data-cache entries its game's receive and legal
    derive, as a home that has played its scenario before has them: the entries are keyed
    by the installed files and the kit's code, not by the game, so a player's home keeps
    them from any earlier command that needed them.  A first ``legal`` alone leaves out
    what only a later step derives (Backhand Blow's move-cost tables, built for the
    first move listing: about a third of its first receive)."""
    scratch = work / f"warm-{where.name}"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(where, scratch)
    subprocess.run(pbem("--home", str(scratch), "receive", str(incoming)), env=env,
                   capture_output=True, cwd=work)
    subprocess.run(pbem("--home", str(scratch), "legal", game), env=env,
                   capture_output=True, cwd=work)
    for entry in sorted((scratch / "cache").glob("*.msgpack")):
        if entry.name.startswith(DATA_KINDS) and not (where / "cache" / entry.name).exists():
            shutil.copy2(entry, where / "cache" / entry.name)
    shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="*", default=parser_default())
    parser.add_argument("--fixtures", type=Path, required=True,
                        help="the fixtures folder bench_cli.py --fixtures built")
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--base-fixtures", type=Path,
                        help="fixtures the other checkout's bench_cli.py built (default: "
                             "--fixtures)")
    parser.add_argument("--length", type=int, default=10, help="game length in files")
    parser.add_argument("--games", type=int, default=50, help="games in the home (1 or 50)")
    parser.add_argument("--engine", action="append", default=[], metavar="ENGINE:SCENARIO",
                        help="a real engine's game of 12 files instead of the test "
                             "engine's home (repeatable)")
    args = parser.parse_args()
    args.fixtures = args.fixtures.resolve()
    if args.engine:
        run_engines(args)
        return
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    fixtures = {"this": args.fixtures,
                "base": (args.base_fixtures or args.fixtures).resolve()}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-ir-") as tmp:
        counts: dict[tuple[str, str], float] = {}
        for command in args.commands:
            for name, tree in trees.items():
                work = Path(tmp) / name
                work.mkdir(exist_ok=True)
                counts[(name, command)] = measure(tree, command, args, work,
                                                  fixtures[name])
            line = f"{command:9} " + "  ".join(f"{n} {counts[(n, command)]:7.1f} M"
                                              for n in trees)
            print(line, flush=True)
        for name in trees:
            got = {c: counts[(name, c)] for c in args.commands if (name, c) in counts}
            ratios = []
            for command, base in (("status", "deps"), ("list", "deps"), ("help", "deps"),
                                  ("legal", "help"), ("act", "help"), ("act-kept", "help"),
                                  ("receive", "help")):
                if command in got and base in got:
                    ratios.append(f"{command} {got[command] / got[base]:.2f}x {base}")
            if ratios:
                print(f"{name}: " + ", ".join(ratios))


def run_engines(args: argparse.Namespace) -> None:
    commands = [c for c in args.commands if c in ("deps", "help", "legal", "act", "receive")]
    if args.commands == parser_default():
        commands = ["deps", "help", "legal", "act", "receive"]
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    fixtures = {"this": args.fixtures,
                "base": (args.base_fixtures or args.fixtures).resolve()}
    targets = {(name, spec): engine_fixture(fixtures[name], spec)
               for spec in args.engine for name in trees}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-ir-") as tmp:
        counts: dict[tuple[str, str], float] = {}
        for command in [c for c in commands if c in ("deps", "help")]:
            for name, tree in trees.items():
                work = Path(tmp) / name
                work.mkdir(exist_ok=True)
                counts[(name, command)] = measure_engine(tree, command, Path(), work)
            print(f"{command:9} " + "  ".join(f"{n} {counts[(n, command)]:7.1f} M"
                                              for n in trees), flush=True)
        for spec in args.engine:
            for command in [c for c in commands if c not in ("deps", "help")]:
                for name, tree in trees.items():
                    work = Path(tmp) / name
                    work.mkdir(exist_ok=True)
                    counts[(name, f"{spec} {command}")] = measure_engine(
                        tree, command, targets[(name, spec)], work)
                print(f"{spec} {command:8} " + "  ".join(
                    f"{n} {counts[(n, f'{spec} {command}')]:7.1f} M" for n in trees),
                    flush=True)
        for name in trees:
            help_ = counts.get((name, "help"))
            if not help_:
                continue
            for spec in args.engine:
                got = [f"{c} {counts[(name, f'{spec} {c}')] / help_:.2f}x help"
                       for c in ("legal", "act", "receive") if (name, f"{spec} {c}") in counts]
                print(f"{name} {spec}: " + ", ".join(got))


def parser_default() -> list[str]:
    return ["deps", "help", "status", "list", "legal", "act", "act-kept", "receive"]


if __name__ == "__main__":
    main()
