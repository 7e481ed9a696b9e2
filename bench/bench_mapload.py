"""Instructions loading each engine's scenario data costs (issue 35), under valgrind.

    .venv/bin/python bench/bench_mapload.py [--base DIR] [--engines a,b,...]

For each engine: a process that imports the kit and loads ``scenarios/<engine>/``
(:func:`engines.hexkit.scenario.load_scenario_path`: every file's TOML, its stand-ins,
its tables and its map) less one that only imports, in millions of instructions
(cachegrind, ``PYTHONHASHSEED=0``, the collector off), three ways: ``none`` with no data
cache (a referee's first audit, a library caller), ``cold`` with an empty one (the first
command after an install or an upgrade of the kit: everything parsed, then written), and
``warm`` with the one a run before filled (every turn command).  ``--base DIR`` (a ``git
archive`` of another checkout, its bytecode compiled): the same for it, beside.  Each
tree's bytecode is compiled by a run before the counted ones.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("white-death", "for-the-motherland", "48th-panzer-korps", "mortain",
           "backhand-blow")
SCRIPT = """
import gc, sys
gc.disable()
from pathlib import Path
from pbem import datacache
from engines.hexkit import scenario
import msgpack, tomllib
if sys.argv[2] != "-":
    datacache.configure(Path(sys.argv[2]))
if sys.argv[3] == "load":
    scenario.load_scenario_path(Path("scenarios") / sys.argv[1])
"""


def count(tree: Path, engine: str, cache: str, what: str) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    argv = [sys.executable, "-c", SCRIPT, engine, cache, what]
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", *argv],
                          cwd=tree, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if not found:
        raise SystemExit(f"valgrind gave no count: {done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def load_cost(tree: Path, engine: str, cache: str) -> float:
    return (count(tree, engine, cache, "load") - count(tree, engine, cache, "import")) / 1e6


def row(tree: Path, engine: str) -> tuple[float, float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # bytecode compiled first: a counted run that compiled would count the compiling
    subprocess.run([sys.executable, "-c", SCRIPT, engine, "-", "load"], cwd=tree, env=env,
                   check=True)
    with tempfile.TemporaryDirectory() as tmp:
        none = load_cost(tree, engine, "-")
        cold_dir = Path(tmp) / "cold"
        cold_count = count(tree, engine, str(cold_dir), "load")
        cold = (cold_count - count(tree, engine, str(Path(tmp) / "unused"), "import")) / 1e6
        warm = load_cost(tree, engine, str(cold_dir))
    return none, cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    print("loading an engine's scenario data (millions of instructions, valgrind)")
    print(f"   {'engine':22} {'tree':5} {'none':>8} {'cold':>8} {'warm':>8}")
    for engine in args.engines.split(","):
        for name, tree in trees.items():
            none, cold, warm = row(tree, engine)
            print(f"   {engine:22} {name:5} {none:8.2f} {cold:8.2f} {warm:8.2f}", flush=True)


if __name__ == "__main__":
    main()
