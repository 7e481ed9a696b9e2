"""The engines' share of the board's redraw after a click (issue 35 item 4): the view of
the new position and its "now" frame, per position along a seeded random game.

    python bench/bench_redraw.py [--steps N] [--base TREE] [--engine ENGINE:SCENARIO:SIDE ...]

For each engine (default: the five of ``bench/bench_issue35.py``, each on its scenario)
a seeded random game of N decisions (default 200) is played; at each decision the view
for SIDE and its now frame (``pbem.web.replay.frame_data``, as ``/api/state`` makes it)
are made, and their mean CPU time per position printed (``time.process_time``).
``--base TREE`` measures another checkout (a ``git archive main`` of the base) in a fresh
process first, then this one, one after the other in the same run.  For a steadier
before/after on a busy machine count instructions instead: valgrind's cachegrind
(``--cache-sim=no``, ``PYTHONHASHSEED=0``) of a run with ``--steps N`` against one with
``--steps N --no-redraw`` (the same game, nothing drawn), the difference over N.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv:  # the checkout measured (--base runs this script on the base)
    ROOT = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))

ENGINES = ("white-death:purkayev:soviet", "for-the-motherland:4-uranus:soviet",
           "48th-panzer-korps:first-day:soviet", "mortain:counterattack:us",
           "backhand-blow:high-water-mark:soviet")


def measure(spec: str, steps: int, redraw: bool) -> str:
    from pbem.session import get_engine
    from pbem.testing import Chooser
    from pbem.web.replay import PieceTable, frame_data

    engine_id, scenario, side = spec.split(":")
    engine = get_engine(engine_id)
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser("bench-redraw")
    table = PieceTable()
    viewing = framing = 0.0
    n = 0
    while n < steps and not state.is_terminal():
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
            continue
        if redraw:
            start = time.process_time()
            view = state.view(side)
            middle = time.process_time()
            frame_data(view, [], side, table, file=None, now=True)
            viewing += middle - start
            framing += time.process_time() - middle
        n += 1
        state.apply(choose.pick(state.legal_actions()))
    return (f"{engine_id:20} {scenario:16} {n:4} positions: view {viewing / n * 1e6:6.0f} us, "
            f"now frame {framing / n * 1e6:6.0f} us CPU a position")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append",
                        help="ENGINE:SCENARIO:SIDE (repeatable; default the five)")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--no-redraw", action="store_true",
                        help="play the same game drawing nothing (for instruction counts)")
    parser.add_argument("--base", type=Path,
                        help="another checkout, measured first in a fresh process")
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.base is not None:
        argv = [a for a in sys.argv[1:] if a not in ("--base", str(args.base))]
        print(f"-- base {args.base}", flush=True)
        rc = subprocess.call([sys.executable, __file__, *argv, "--tree", str(args.base)])
        if rc:
            return rc
        print(f"-- this checkout {ROOT}", flush=True)
    for spec in args.engine or ENGINES:
        print(measure(spec, args.steps, not args.no_redraw), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
