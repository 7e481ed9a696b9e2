"""The dataclasses each turn command makes before it works, and what one costs (issue 35).

    .venv/bin/python bench/bench_dataclasses.py --fixtures DIR [--engine ENGINE:SCENARIO]
                                                [--base DIR] [--no-valgrind]

Python 3.11 makes a dataclass at every start of the process that imports its module:
its fields read from the annotations, its ``__init__``, ``__repr__``, ``__eq__`` (and, when
frozen, ``__setattr__``, ``__delattr__``, ``__hash__``) written out and run
(pbem.dataclass_code keeps their compiled code and, for pbem's and the engines' classes,
a record of what dataclasses derived for each class's shape, so that a class is made
without writing its methods out again), and, for a class without a docstring, a
docstring made from ``inspect.signature`` of the class.

1. **Counted**: ``receive``, ``legal`` and ``act`` of each engine's 12-file game, set up
   as bench_ir.py sets them up (``--fixtures``: the folder bench_ir.py and bench_cli.py
   use; ``eng-ENGINE-SCENARIO`` built there when missing): the dataclasses the command
   made, by package, how many of them had no docstring of their own and how many
   pbem.dataclass_code made from a kept record; with ``--base DIR`` (a ``git archive``
   of another checkout) that checkout's count beside this one's.
2. **Costed** (valgrind, ``PYTHONHASHSEED=0``, a warm start: bytecode and kept files
   written): importing a module of 50 dataclasses of six fields (half of them frozen)
   against the same module's 50 plain classes, made three ways: from the kept record of
   each class's shape (pbem.dataclass_code's ``_process_class``, what pbem's and the
   engines' modules get), by Python's dataclasses with only the methods' compiled code
   kept (that path turned off), and by Python's dataclasses alone (a module not kept);
   and what a missing docstring adds.  ``--no-valgrind`` leaves this part out.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import bench_ir  # noqa: E402

#: run ahead of the command: records each class dataclasses made (module, whether it had
#: a docstring of its own) into the file BENCH_DATACLASSES names; pbem imported first, as
#: it puts its own _process_class in place (pbem/__init__.py makes no dataclass)
PROBE = """
import atexit, dataclasses, json, os
import pbem
_made = []
_process = dataclasses._process_class
def _counted(cls, *args, **kwargs):
    _made.append([cls.__module__, bool(cls.__dict__.get("__doc__"))])
    return _process(cls, *args, **kwargs)
dataclasses._process_class = _counted
_how = getattr(pbem.dataclass_code, "made", None)  # a checkout before records: None
if os.environ.get("BENCH_DATACLASSES"):
    atexit.register(lambda: open(os.environ["BENCH_DATACLASSES"], "w").write(
        json.dumps({"made": _made, "how": _how})))
"""

ENGINES = ["white-death:purkayev", "for-the-motherland:4-uranus", "48th-panzer-korps:chir",
           "mortain:counterattack", "backhand-blow:high-water-mark"]


def probed(*args: str) -> list[str]:
    return [sys.executable, "-c", PROBE + "from pbem.cli import main; main()", *args]


def count(spec: str, fixtures: Path, work: Path, tree: Path = ROOT
          ) -> dict[str, dict[str, Any]]:
    """The classes each of receive, legal and act made in the engine's game, and how
    pbem.dataclass_code made them (from a kept record, new, or by dataclasses alone)."""
    made: dict[str, dict[str, Any]] = {}
    target = bench_ir.engine_fixture(fixtures, spec)

    def record(argv: list[str], env: dict[str, str], cwd: Path) -> float:
        out = cwd / "made.json"
        subprocess.run(argv, env={**env, "BENCH_DATACLASSES": str(out)}, cwd=cwd,
                       capture_output=True, check=True)
        command = next(a for a in ("receive", "legal", "act") if a in argv)
        made[command] = json.loads(out.read_text(encoding="utf-8"))
        return 0.0

    # bench_ir's set-up, with its one measured command run under the probe instead
    real_pbem, real_instructions = bench_ir.pbem, bench_ir.instructions
    bench_ir.pbem, bench_ir.instructions = probed, record
    try:
        for command in ("receive", "legal", "act"):
            bench_ir.measure_engine(tree, command, target, work)
    finally:
        bench_ir.pbem, bench_ir.instructions = real_pbem, real_instructions
    return made


def module_text(decorated: bool, documented: bool) -> str:
    lines = ["from __future__ import annotations", "from dataclasses import dataclass, field", ""]
    for i in range(50):
        if decorated:
            lines.append("@dataclass(frozen=True)" if i % 2 else "@dataclass")
        lines.append(f"class C{i}:")
        if documented:
            lines += [f'    """Class {i}: the arguments of a step."""', ""]
        lines += ["    side: str = 'german'", "    n: int = 0",
                  "    units: tuple[str, ...] = ()", "    done: bool = False",
                  "    left: dict[str, int] = field(default_factory=dict)" if decorated
                  else "    left: object = None", "    why: str = ''", ""]
    return "\n".join(lines) + "\n"


def cost(tmp: Path) -> tuple[float, float, float, float]:
    """Instructions per dataclass (documented): made from kept records, by dataclasses
    with its methods' code kept, by dataclasses alone; what a missing docstring adds."""
    folder = tmp / "synthetic"
    folder.mkdir()
    for name, decorated, documented in (("bench_dc_plain", False, True),
                                        ("bench_dc_doc", True, True),
                                        ("bench_dc_nodoc", True, False)):
        (folder / f"{name}.py").write_text(module_text(decorated, documented),
                                           encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONHASHSEED": "0", "PYTHONPATH": os.pathsep.join((str(ROOT), str(folder)))}
    start = ("import gc, atexit; gc.disable(); atexit.register(gc.freeze); import pbem.cli; "
             "from pbem import dataclass_code; ")

    def counted(module: str, how: str = "record") -> float:
        code = start + {
            "record": f"dataclass_code.keep({module!r}); ",
            "code": f"dataclass_code.keep({module!r}); import dataclasses; "
                    "dataclasses._process_class = dataclass_code._plain_process; ",
            "alone": ""}[how] + f"import {module}"
        for _ in range(2):  # the bytecode and the kept methods' code written first
            subprocess.run([sys.executable, "-c", code], env=env, cwd=folder,
                           capture_output=True, check=True)
        out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                              "--cachegrind-out-file=/dev/null", sys.executable, "-c", code],
                             env=env, cwd=folder, capture_output=True, text=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if not found:
            raise SystemExit(f"valgrind gave no count: {out.stderr[-2000:]}")
        return int(found.group(1).replace(",", "")) / 1e6

    plain, doc, nodoc = (counted(m) for m in ("bench_dc_plain", "bench_dc_doc",
                                              "bench_dc_nodoc"))
    code_only, alone = (counted("bench_dc_doc", how) for how in ("code", "alone"))
    return (doc - plain) / 50, (code_only - plain) / 50, (alone - plain) / 50, (
        nodoc - doc) / 50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fixtures", type=Path, required=True,
                        help="the fixtures folder of bench_ir.py / bench_cli.py")
    parser.add_argument("--engine", action="append", metavar="ENGINE:SCENARIO",
                        help=f"repeatable (default: {', '.join(ENGINES)})")
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--no-valgrind", action="store_true",
                        help="count only; leave out the cost per dataclass")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-dc-") as tmp:
        print("1. dataclasses made by each turn command (pbem / engines; without a "
              "docstring of their own)")
        trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
        for spec in args.engine or ENGINES:
            for label, tree in trees.items():
                work = Path(tmp) / f"{label}-{spec.replace(':', '-')}"
                work.mkdir()
                made = count(spec, args.fixtures.resolve(), work, tree)
                cells = []
                for command in ("receive", "legal", "act"):
                    classes, how = made[command]["made"], made[command]["how"]
                    by = collections.Counter(str(m).split(".")[0] for m, _ in classes)
                    bare = sum(1 for _, documented in classes if not documented)
                    records = (f", {how['kept']:2d} from records" if how else "")
                    cells.append(f"{command} {len(classes):3d} ({by['pbem']:2d} / "
                                 f"{by['engines']:2d}; {bare:2d} bare{records})")
                print(f"   {spec:30} {label:4} " + "   ".join(cells), flush=True)
        if not args.no_valgrind:
            each, code_only, alone, bare = cost(Path(tmp))
            print("2. one dataclass of six fields, made from its kept record: "
                  f"{each:.3f} M instructions (by dataclasses with its methods' code kept "
                  f"{code_only:.3f} M, by dataclasses alone {alone:.3f} M); without a "
                  f"docstring {bare:+.3f} M more")


if __name__ == "__main__":
    main()
