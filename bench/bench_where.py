"""Where a pbem command's instructions go: per module imported, or inside named functions.

    .venv/bin/python bench/bench_where.py modules -- --home HOME legal GAME
    .venv/bin/python bench/bench_where.py region pbem.engine:Engine.restore \\
        engines.white_death:load_catalog -- --home HOME legal GAME

Callgrind counts a C function's instructions, and a CPython process runs every Python
function through the same few C ones, so its report cannot say which module's import or
which rule a command's instructions went to.  This runs the command (``pbem ARGS...``,
in this checkout, as bench_ir.py runs it: bytecode kept, ``PYTHONHASHSEED=0``) under
callgrind with marks it can see: a call of :func:`functools.reduce`, a C function
nothing on a command's path calls.

``modules``: a mark before and after each module's ``exec_module`` and a dump of the
counts at each (``--dump-before=functools_reduce``): every interval between two marks
is charged to the module then executing (its code read from ``__pycache__``, its body
run, its classes made), the rest to ``<main>`` (the interpreter's start, the command's
own work between imports) and ``<exit>``.  Prints the modules by their own
instructions, largest first (``--top``).

``region MODULE:ATTR ...``: each named function (a dotted attribute of the module, e.g.
``pbem.match:Match.act`` or a ``cached_property``'s ``.func``) called inside
``functools.reduce``, and only the instructions inside counted
(``--toggle-collect=functools_reduce``): one valgrind run per name, each printing the
instructions of every outermost call of it, summed.  The module is imported before the
command runs (a name bound by ``from ... import`` elsewhere before that is not wrapped:
name the module that binds it, as ``engines.white_death:load_catalog``).

The marks and the wrappers are not free: a ``modules`` total reads some 7 M over the
bare command (bench_ir.py's figure), most of it in ``<main>`` and ``<exit>``; a region's
figure holds its wrapper's few thousand instructions a call.  Compare two checkouts
with the same tool, one run after the other.

Run the command once first, unmeasured, so its bytecode and dataclass records are
written (a first run reads high).  A home a command changes (``act``, ``receive``) must
be copied fresh for each run: ``--fresh SRC`` copies SRC to the ``--home`` given before
each run.  Needs valgrind; a run takes about as long as bench_ir.py's.
"""

from __future__ import annotations

# the measured process imports only what pbem itself would (the parent's tools are
# imported inside its functions): a module imported here before the marks would be
# charged to no one, and every later importer would get it for nothing
import functools
import importlib
import os
import sys
from importlib import _bootstrap_external
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _mark() -> None:
    functools.reduce(_first, (0, 0))


def _first(a: object, _: object) -> object:
    return a


def child_modules(log_path: str, argv: list[str]) -> None:
    """In the measured process: mark every module's exec, then run pbem."""
    log: list[str] = []
    stack = ["<main>"]

    def wrap(orig: Any) -> Any:
        def exec_module(self: Any, module: Any) -> Any:
            _mark()
            log.append(stack[-1])
            stack.append(module.__name__)
            try:
                return orig(self, module)
            finally:
                _mark()
                log.append(stack.pop())
        return exec_module

    loaders = (_bootstrap_external._LoaderBasics, _bootstrap_external.ExtensionFileLoader)
    for cls in loaders:
        cls.exec_module = wrap(cls.exec_module)  # type: ignore[method-assign]

    def done() -> None:
        _mark()
        log.append("<exit>")
        with open(log_path, "w", encoding="utf-8") as out:
            out.write("\n".join(log))

    import atexit
    atexit.register(done)
    run_pbem(argv)


def child_region(specs: list[str], argv: list[str]) -> None:
    """In the measured process: each named function's outermost calls inside reduce."""
    depth = [0]

    def wrap(orig: Any) -> Any:
        def inside(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                return orig(*args, **kwargs)
            depth[0] += 1
            box: list[Any] = []
            try:
                functools.reduce(lambda _a, _b: box.append(orig(*args, **kwargs)), (0, 0))
            finally:
                depth[0] -= 1
            return box[0]
        return inside

    for spec in specs:
        module, _, attr = spec.partition(":")
        obj: Any = importlib.import_module(module)
        *path, last = attr.split(".")
        for part in path:
            obj = getattr(obj, part)
        setattr(obj, last, wrap(getattr(obj, last)))
    run_pbem(argv)


def run_pbem(argv: list[str]) -> None:
    sys.argv = ["pbem", *argv]
    from pbem.cli import main
    main()


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode
    env.pop("PBEM_ENGINES", None)
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPATH"] = ROOT
    return env


def fresh_home(args: argparse.Namespace) -> None:
    import shutil

    if args.fresh is None:
        return
    home = args.argv[args.argv.index("--home") + 1]
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(args.fresh, home)


def summary(path: Path) -> int:
    import re

    found = re.search(r"^summary:\s*(\d+)", path.read_text(encoding="utf-8"), re.M)
    return int(found.group(1)) if found else 0


def modules(args: argparse.Namespace) -> None:
    import collections
    import subprocess
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="pbem-where-") as tmp:
        log, out = Path(tmp) / "log", Path(tmp) / "cg"
        fresh_home(args)
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=functools_reduce",
                        f"--callgrind-out-file={out}", sys.executable, __file__,
                        "--child-modules", str(log), "--", *args.argv],
                       env=environment(), capture_output=True, check=True)
        dumps = sorted(Path(tmp).glob("cg.*"), key=lambda p: int(p.suffix[1:]))
        names = log.read_text(encoding="utf-8").split("\n")
        own: collections.Counter[str] = collections.Counter()
        for name, dump in zip(names, dumps, strict=False):
            own[name] += summary(dump)
        own["<exit>"] += summary(out)  # the last dump, at the end of the process
    total = sum(own.values())
    print(f"{total / 1e6:9.2f} M  pbem {' '.join(args.argv)}")
    for name, count in own.most_common(args.top):
        print(f"{count / 1e6:9.2f} M  {name}")


def regions(args: argparse.Namespace) -> None:
    import re
    import subprocess

    for spec in args.specs:
        fresh_home(args)
        got = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce",
                              "--callgrind-out-file=/dev/null", sys.executable, __file__,
                              "--child-region", spec, "--", *args.argv],
                             env=environment(), capture_output=True, text=True)
        found = re.findall(r"Collected\s*:\s*(\d+)", got.stderr)
        if not found:
            raise SystemExit(f"valgrind gave no count for {spec}: {got.stderr[-2000:]}")
        print(f"{int(found[-1]) / 1e6:9.2f} M  {spec}", flush=True)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] in ("--child-modules", "--child-region"):
        cut = sys.argv.index("--")
        what, rest = sys.argv[2:cut], sys.argv[cut + 1:]
        if sys.argv[1] == "--child-modules":
            child_modules(what[0], rest)
        else:
            child_region(what, rest)
        return
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("modules", "region"))
    parser.add_argument("specs", nargs="*", metavar="MODULE:ATTR")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--fresh", type=Path, help="a home copied to --home before each run")
    if "--" not in sys.argv:
        parser.error("give the pbem command after --")
    cut = sys.argv.index("--")
    args = parser.parse_args(sys.argv[1:cut])
    args.argv = sys.argv[cut + 1:]
    if args.fresh is not None and "--home" not in args.argv:
        parser.error("--fresh needs the command's --home")
    if args.what == "modules":
        modules(args)
    else:
        if not args.specs:
            parser.error("region needs MODULE:ATTR")
        regions(args)


if __name__ == "__main__":
    main()
