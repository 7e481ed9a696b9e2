"""What ``pbem.codec.from_data`` costs to read one engine's position, against another
checkout's codec and against the engine's own hand reader (issue 35).

    .venv/bin/python bench/bench_codec.py [--base DIR] [--steps 80] [--reps 20]
                                          [--no-valgrind] [ENGINE:SCENARIO ...]

Each engine's position after ``--steps`` steps of a seeded game (played by this checkout;
its data as a save holds it, canonical bytes decoded), read in a fresh process of each
tree (``--base DIR``: a ``git archive`` of another checkout) after one read that builds
the decoders, as every command that restores a game reads it:

- ``codec``: ``codec.from_data(Position, data)``, what the runtime's restore runs;
- ``hand``: the reader the engine's ``restore_body`` runs in its stead, where it has one
  (48th Panzer Korps ``position.read_position``; Backhand Blow and For the Motherland!
  ``position.units_from_data`` for the units and the codec for the rest, as their
  restore does; White Death ``position.position_from_data``).

Figures are the instructions one read executes (valgrind's cachegrind, ``--cache-sim=no``,
``PYTHONHASHSEED=0``: the count of a run of ``--reps`` reads less that of a run of none,
over ``--reps``), or with ``--no-valgrind`` the CPU time of one read (the median of five
runs of 200), which moves by a third on a loaded machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import bench_ir  # noqa: E402

DEFAULT = ("48th-panzer-korps:chir", "backhand-blow:high-water-mark",
           "for-the-motherland:4-uranus", "white-death:purkayev", "mortain:counterattack")

#: run in each tree: reads the position REPS times after one read (or times them)
CHILD = r"""
import sys, time
from pbem import canonical, codec
from pbem.registry import engines
spec, path, mode, reps, timed = sys.argv[1:6]
engine_id, scenario = spec.split(":")
engine = engines()[engine_id]
Position = engine.new_state(scenario, engine.resolve_options({})).Position
data = canonical.decode(open(path, "rb").read())
if mode == "codec":
    def read(d):
        return codec.from_data(Position, d)
elif engine_id == "48th-panzer-korps":
    from engines.panzer48.position import read_position as read
elif engine_id == "white-death":
    from engines.white_death.position import position_from_data as read
elif engine_id in ("backhand-blow", "for-the-motherland"):
    from importlib import import_module
    units_from_data = import_module({"backhand-blow": "engines.backhand.position",
                                     "for-the-motherland": "engines.motherland.position",
                                     }[engine_id]).units_from_data
    def read(d):
        units = units_from_data(d["units"])
        pos = codec.from_data(Position, {**d, "units": {}})
        pos.units = units
        return pos
else:
    raise SystemExit(f"{engine_id} has no hand reader")
first = read(data)
assert first is not None and codec.to_data(first) == data, "the read lost something"
if timed == "1":
    runs = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(200):
            read(data)
        runs.append((time.process_time() - start) / 200)
    print(sorted(runs)[2] * 1e6)
else:
    for _ in range(int(reps)):
        read(data)
"""

HAND = ("48th-panzer-korps", "backhand-blow", "for-the-motherland", "white-death")


def position_data(spec: str, steps: int, into: Path) -> Path:
    """The canonical bytes of ``spec``'s position after a seeded game of ``steps`` steps."""
    from pbem import canonical
    from pbem.registry import engines
    from pbem.testing import Chooser, decisions

    engine_id, scenario = spec.split(":")
    engine = engines()[engine_id]
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser(f"bench-codec/{spec}")
    for _ in decisions(state, choose, steps):
        pass  # played on: the chooser's rolls and picks, as every seeded test's
    path = into / f"{engine_id}.{scenario}.bin"
    path.write_bytes(canonical.encode(state.snapshot()["body"]["position"]))
    return path


def cost(tree: Path, spec: str, data: Path, mode: str, args: argparse.Namespace,
         work: Path) -> float:
    env = bench_ir.env_for(tree, real=True)
    argv = [sys.executable, "-c", CHILD, spec, str(data), mode]
    # once unmeasured: bytecode and dataclass records written, as a player's runs have them
    subprocess.run([*argv, "0", "0"], env=env, cwd=work, check=True)
    if args.no_valgrind:
        out = subprocess.run([*argv, "0", "1"], env=env, cwd=work, check=True,
                             capture_output=True, text=True)
        return float(out.stdout.strip())
    none = bench_ir.instructions([*argv, "0", "0"], env, work)
    many = bench_ir.instructions([*argv, str(args.reps), "0"], env, work)
    return (many - none) / args.reps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT),
                        help="ENGINE:SCENARIO (default: one of each engine)")
    parser.add_argument("--base", type=Path, help="a git archive of another checkout")
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--no-valgrind", action="store_true")
    args = parser.parse_args()
    unit = "us a read (CPU)" if args.no_valgrind else "M instructions a read"
    with tempfile.TemporaryDirectory(prefix="bench-codec-") as tmp:
        work = Path(tmp)
        print(f"{'engine:scenario':34} {'base codec':>11} {'codec':>8} {'base/now':>9} "
              f"{'hand':>8} {'codec/hand':>11}   ({unit})")
        for spec in args.specs:
            data = position_data(spec, args.steps, work)
            base = cost(args.base, spec, data, "codec", args, work) if args.base else None
            now = cost(ROOT, spec, data, "codec", args, work)
            hand = (cost(ROOT, spec, data, "hand", args, work)
                    if spec.split(":")[0] in HAND else None)
            print(f"{spec:34} {_f(base):>11} {_f(now):>8} "
                  f"{_f(base / now if base else None, 'x'):>9} {_f(hand):>8} "
                  f"{_f(now / hand if hand else None, 'x'):>11}", flush=True)


def _f(value: float | None, suffix: str = "") -> str:
    return "-" if value is None else f"{value:.3f}{suffix}"


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main()
