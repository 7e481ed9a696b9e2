"""Instructions each module of pbem, its hex kit and its engines costs to import, in the
order one turn command imports them (issue 35), under valgrind.

    .venv/bin/python bench/bench_imports.py --fixtures DIR [--engine ENGINE:SCENARIO]
                                            [--command legal] [--base DIR] [--top 30]

The command (``legal``, ``act`` or ``receive``) runs once as bench_ir.py sets it up (a
copy of the ``eng-ENGINE-SCENARIO`` home under ``--fixtures``, its data cache warm) with
``-X importtime``, which gives the order the modules finished loading.  Then a process
imports the first k of them, for each k that ends at a module of pbem or ``engines``,
and the difference of two such counts is that module's own cost: its bytecode, its
classes (dataclasses above all), whatever it runs at import, and the modules of other
packages it was first to import (named beside it).  A package whose ``__init__`` imports
its modules (``engines.hexkit``, an engine's) is counted at its own turn: until then it
is an empty module with its path, so its modules load one by one.

Every count is made with the collector off (a collection falls wherever its threshold
does: 3 M instructions that move between modules) and with the bytecode and the
dataclass code pbem.dataclass_code keeps written by one run before and only read after
(``PYTHONDONTWRITEBYTECODE``): a measured run that wrote them would change the next.
``--base DIR`` (a ``git archive`` of another checkout): the same for it, beside.
Slow: one valgrind run per module (about 60 for a command, 3-5 s each).
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
import bench_ir  # noqa: E402

OURS = ("pbem", "engines")
_LINE = re.compile(r"import time:\s+\d+ \|\s+\d+ \|(\s*)(\S+)")


def ours(name: str) -> bool:
    return name.partition(".")[0] in OURS


def import_order(tree: Path, spec: str, command: str, fixtures: Path,
                 work: Path) -> list[str]:
    """The modules the command imported, in the order each finished loading."""
    target = bench_ir.engine_fixture(fixtures, spec)
    env = bench_ir.env_for(tree, real=True)
    meta = json.loads((target / "meta.json").read_text())
    where = work / "home"
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(target / meta["home"], where)
    game = "selfplay-1"
    incoming = target / "files" / meta["file"]
    subprocess.run(bench_ir.pbem("--home", str(where), "legal", game), env=env,
                   capture_output=True, cwd=work)
    bench_ir.warm_data(where, game, incoming, env, work)
    argv = ["--home", str(where)]
    if command == "receive":
        argv += ["receive", str(incoming)]
    else:
        subprocess.run(bench_ir.pbem("--home", str(where), "receive", str(incoming)),
                       env=env, capture_output=True, cwd=work, check=True)
        argv += ["legal", game]
        if command == "act":
            legal = json.loads(subprocess.run(
                bench_ir.pbem("--home", str(where), "legal", game, "--json"), env=env,
                capture_output=True, text=True, cwd=work, check=True).stdout)
            argv = ["--home", str(where), "act", game,
                    legal["default"] or legal["actions"][0]]
    run = bench_ir.pbem(*argv)
    out = subprocess.run([run[0], "-X", "importtime", *run[1:]], env=env,
                         capture_output=True, text=True, cwd=work)
    names = [m.group(2) for m in map(_LINE.match, out.stderr.splitlines()) if m]
    # -X importtime leaves out what importlib.import_module loads (the registry's engine
    # package): each package of ours it left out goes after the last of its modules
    for name in list(names):
        parts = name.split(".")
        for depth in range(len(parts) - 1, 0, -1):
            package = ".".join(parts[:depth])
            if package in names:
                continue
            last = max(i for i, n in enumerate(names) if n.startswith(package + "."))
            names.insert(last + 1, package)
    if not any(ours(n) for n in names):
        raise SystemExit(f"{command}: no module of pbem imported: {out.stderr[-2000:]}")
    return names


#: imports the modules named, in order, each on its own: a package whose turn has not come
#: yet (its modules finish loading before it) is made as an empty module with its path,
#: so that importing one of its modules does not run its ``__init__``, which runs into
#: that module at the package's own turn
_PROGRAM = """
import gc
gc.disable()
import importlib, importlib.util, sys
waiting = {}
def parent_of(name):
    head, _, last = name.rpartition(".")
    if not head or head in sys.modules:
        return
    parent_of(head)
    above = sys.modules[head.rpartition(".")[0]].__path__ if "." in head else None
    spec = importlib.machinery.PathFinder.find_spec(head.rpartition(".")[2], above)
    if spec is None:  # not on the path (a frozen or built-in package): as it is
        importlib.import_module(head)
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[head] = waiting[head] = module
for name in NAMES:
    try:
        if name in waiting:
            module = waiting.pop(name)
            module.__spec__.loader.exec_module(module)
            if "." in name:
                setattr(sys.modules[name.rpartition(".")[0]], name.rpartition(".")[2],
                        module)
        else:
            parent_of(name)
            importlib.import_module(name)
    except ImportError:  # a platform's module (nt, winreg): left out, as it was
        pass
"""


def _program(names: list[str]) -> str:
    return _PROGRAM.replace("NAMES", repr(names))


def costs(tree: Path, names: list[str], work: Path) -> list[tuple[str, float, list[str]]]:
    """Each of our modules, its own instructions (M), and the others it brought first."""
    env = bench_ir.env_for(tree, real=True)
    subprocess.run([sys.executable, "-c", _program(names)], env=env, cwd=work,
                   capture_output=True)  # bytecode and dataclass code written once
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    before = bench_ir.instructions([sys.executable, "-c", _program([])], env, work)
    out: list[tuple[str, float, list[str]]] = []
    start = 0
    for end, name in enumerate(names, 1):
        if not ours(name):
            continue
        count = bench_ir.instructions([sys.executable, "-c", _program(names[:end])], env,
                                      work)
        out.append((name, count - before, names[start:end - 1]))
        before, start = count, end
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", type=Path, required=True,
                        help="the fixtures folder bench_ir.py uses")
    parser.add_argument("--engine", default="white-death:purkayev",
                        metavar="ENGINE:SCENARIO")
    parser.add_argument("--command", default="legal", choices=("legal", "act", "receive"))
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--top", type=int, default=30, help="modules listed (dearest first)")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    found: dict[str, dict[str, tuple[float, list[str]]]] = {}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-imports-") as tmp:
        for label, tree in trees.items():
            work = Path(tmp) / label
            work.mkdir()
            names = import_order(tree, args.engine, args.command, args.fixtures.resolve(),
                                 work)
            found[label] = {n: (c, others) for n, c, others in costs(tree, names, work)}
    this = found["this"]
    base = found.get("base", {})
    print(f"{args.engine} {args.command}: instructions (M) of each module's own import")
    every = sorted(set(this) | set(base), key=lambda n: -max(this.get(n, (0.0, []))[0],
                                                             base.get(n, (0.0, []))[0]))
    for name in every[:args.top]:
        cost, others = this.get(name, (0.0, []))
        line = f"{name:40} this {cost:6.2f}"
        if base:
            line += f"  base {base.get(name, (0.0, []))[0]:6.2f}"
        brought = [o for o in others if not o.startswith("_")]
        if brought:
            line += f"  (with {len(others)}: {', '.join(brought[:4])}"
            line += ", ...)" if len(brought) > 4 else ")"
        print(line)
    for label, table in found.items():
        groups: dict[str, float] = {}
        for name, (cost, _) in table.items():
            group = ("kit" if name.startswith("engines.hexkit") else
                     "engine" if name.startswith("engines") else "pbem")
            groups[group] = groups.get(group, 0.0) + cost
        print(f"{label}: " + ", ".join(f"{g} {groups[g]:.1f} M"
                                       for g in ("pbem", "kit", "engine") if g in groups))


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
