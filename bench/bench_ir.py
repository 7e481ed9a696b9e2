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
DEPS = ("import click, rich, msgpack; "
        "from cryptography.hazmat.primitives.asymmetric import ed25519")
GAME = "selfplay-3"  # bench_cli's measured game


def env_for(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPATH"] = os.pathsep.join((str(tree), str(tree / "tests" / "toy")))
    env["PBEM_ENGINES"] = "toy_engine:ENGINE"
    return env


def pbem(*args: str) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli import main; main()", *args]


def home(fixtures: Path, length: int, games: int, into: Path, tree: Path) -> Path:
    meta = json.loads((fixtures / f"len-{length}" / "meta.json").read_text())
    shutil.rmtree(into, ignore_errors=True)
    source = fixtures / f"len-{length}" / meta["home"]
    if games == 1:
        shutil.copytree(source, into)
    else:
        shutil.copytree(fixtures / "fill" / meta["home"], into)
        for part in ("games", "sealed", "cache"):
            if (source / part).is_dir():
                shutil.copytree(source / part, into / part, dirs_exist_ok=True)
    subprocess.run(pbem("--home", str(into), "status"), env=env_for(tree),
                   capture_output=True, cwd=into.parent)
    return fixtures / f"len-{length}" / "files" / meta["file"]


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
    if command == "receive":
        return instructions(pbem(*at, "receive", str(incoming)), env, work)
    subprocess.run(pbem(*at, "receive", str(incoming)), env=env, capture_output=True,
                   cwd=work, check=True)
    if command == "legal":
        return instructions(pbem(*at, "legal", GAME), env, work)
    legal = json.loads(subprocess.run(pbem(*at, "legal", GAME, "--json"), env=env,
                                      capture_output=True, text=True, cwd=work,
                                      check=True).stdout)
    action = legal["default"] or legal["actions"][0]
    if command == "act-kept":
        # the same act once in a scratch copy: its chain entries are what the home keeps
        scratch = work / f"scratch-{command}"
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(where, scratch)
        subprocess.run(pbem("--home", str(scratch), "act", GAME, action), env=env,
                       capture_output=True, cwd=work, check=True)
        for entry in (scratch / "cache").glob("chain-*"):
            shutil.copy2(entry, where / "cache" / entry.name)
    return instructions(pbem(*at, "act", GAME, action), env, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="*",
                        default=["deps", "help", "status", "list", "legal", "act", "act-kept",
                                 "receive"])
    parser.add_argument("--fixtures", type=Path, required=True,
                        help="the fixtures folder bench_cli.py --fixtures built")
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--base-fixtures", type=Path,
                        help="fixtures the other checkout's bench_cli.py built (default: "
                             "--fixtures)")
    parser.add_argument("--length", type=int, default=10, help="game length in files")
    parser.add_argument("--games", type=int, default=50, help="games in the home (1 or 50)")
    args = parser.parse_args()
    args.fixtures = args.fixtures.resolve()
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


if __name__ == "__main__":
    main()
