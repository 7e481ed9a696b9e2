"""Play every White Death scenario to its end with random legal choices.

    python bench/bench_white_death.py [--seeds 1] [--scenario ID] [--test-map]

Each playout goes through pbem.testing.random_playout: snapshots are checked (canonical,
restore to the same digest and legal actions) every 200 steps, and the whole history is
replayed at the end and must give the same digest.  Prints one line per playout:
scenario, seed, steps, actions, rolls, seconds, result.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines.white_death import ENGINE, WhiteDeath  # noqa: E402
from pbem.testing import random_playout  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=1)
    p.add_argument("--scenario", action="append")
    p.add_argument("--test-map", action="store_true",
                   help="use tests/white_death/test_map.toml instead of the shipped map")
    p.add_argument("--max-steps", type=int, default=100_000)
    args = p.parse_args()
    engine: WhiteDeath = ENGINE
    if args.test_map:
        sys.path.insert(0, str(ROOT / "tests"))
        from white_death.conftest import make_data_dir

        engine = WhiteDeath(make_data_dir(Path(tempfile.mkdtemp()) / "white-death"))
    scenarios = args.scenario or [s.id for s in engine.scenarios()]
    failures = 0
    for sc in scenarios:
        for seed in range(1, args.seeds + 1):
            t0 = time.perf_counter()
            r = random_playout(engine, sc, seed, max_steps=args.max_steps, check_every=200)
            dt = time.perf_counter() - t0
            print(f"{sc:14s} seed {seed}: {r.steps} steps, {r.actions} actions, {r.rolls} rolls,"
                  f" {dt:.1f} s, {'ended' if r.terminal else 'NOT ENDED'}: {r.result}",
                  flush=True)
            failures += not r.terminal
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
