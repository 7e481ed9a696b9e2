"""The state digest of a mid-game position, per engine: what an audit pays at every file.

    .venv/bin/python bench/bench_digest.py [--steps 400] [--reps 300] [--base DIR]
                                           [--engines E:S,...]

For each engine, one seeded game (pbem.testing.Chooser: no Python ``random``) is played
``--steps`` steps (or to its end), then ``State.digest()`` is taken ``--reps`` times from
scratch (the kept encoding dropped before each, as a new position has none): CPU
microseconds a digest, digests a second, and the encoding's size.  ``--base DIR`` (a
``git archive`` of another checkout) measures that tree the same way, one after the
other in the same run (each tree in a child process of its own), with the ratio.  The
playout is the same in both trees when they replay the same (the golden games say so).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("for-the-motherland:4-uranus,white-death:purkayev,48th-panzer-korps:first-day,"
           "mortain:counterattack,backhand-blow:high-water-mark")


def measure(pairs: list[tuple[str, str]], steps: int, reps: int) -> dict[str, dict[str, float]]:
    from pbem.registry import get
    from pbem.testing import Chooser

    out: dict[str, dict[str, float]] = {}
    for engine_id, scenario in pairs:
        engine = get(engine_id)
        state = engine.new_state(scenario, engine.resolve_options({}))
        choose = Chooser(f"bench-digest/{engine_id}/{scenario}/1")
        played = 0
        while played < steps and not state.is_terminal():
            if state.is_chance():
                state.apply_outcome(choose.outcome(state.chance_request()))
            else:
                legal = state.legal_actions()
                state.apply(legal[choose.below(len(legal))])
            played += 1
        state._encoded = None
        size = len(state.encoded())  # the first also derives the coders (once a process)
        clock = time.process_time
        t = clock()
        for _ in range(reps):
            state._encoded = None
            state.digest()
        per = (clock() - t) / reps
        out[f"{engine_id}:{scenario}"] = {"steps": played, "bytes": size, "us": per * 1e6}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400, help="steps played first (400)")
    parser.add_argument("--reps", type=int, default=300, help="digests timed (300)")
    parser.add_argument("--engines", default=DEFAULT, help="ENGINE:SCENARIO,... (one each)")
    parser.add_argument("--base", type=Path, help="another checkout (a git archive)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    pairs = [(e, s) for e, _, s in (p.partition(":") for p in args.engines.split(","))]
    if args.child:
        json.dump(measure(pairs, args.steps, args.reps), sys.stdout)
        return 0
    trees = {"this": ROOT} | ({"base": args.base.resolve()} if args.base else {})
    got: dict[str, dict[str, dict[str, float]]] = {}
    for name, tree in trees.items():
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", "--steps",
             str(args.steps), "--reps", str(args.reps), "--engines", args.engines],
            env=env, cwd=tree, capture_output=True, text=True, check=True)
        got[name] = json.loads(done.stdout)
    print(f"digest of a position after up to {args.steps} steps, {args.reps} reps, CPU")
    for key in got["this"]:
        row = got["this"][key]
        line = (f"{key:40} steps {row['steps']:4.0f} {row['bytes']:7.0f} B  "
                f"{row['us']:7.1f} us ({1e6 / row['us']:6.0f}/s)")
        if "base" in got:
            base = got["base"][key]
            line += (f"  base {base['us']:7.1f} us ({1e6 / base['us']:6.0f}/s)  "
                     f"{base['us'] / row['us']:.2f}x")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
