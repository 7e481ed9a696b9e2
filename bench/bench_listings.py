"""Where an engine's slowest decision listings come from, and its listings' 99th
percentile measured so that a shared machine's noise does not decide it (issue 35 item 5).

    .venv/bin/python bench/bench_listings.py [ENGINE ...] [--runs 3] [--base DIR]
                                            [--max-steps 600] [--first-seed 1]

Plays the census's games as ``bench_engines.py`` does (every scenario, the seed's
choices and dice from pbem.testing.Chooser, ``legal_actions()`` timed at every decision
with the collector off), ``--runs`` times in fresh processes, and takes each listing's
least time over the runs (the same game lists the same options: a listing that ran while
another process had the core is not charged for it).  With ``--base DIR`` (a ``git
archive`` of another checkout) the runs alternate between it and this checkout.  Prints,
per engine and checkout, the mean, 95th and 99th percentile and max of those least
times and how many listings take over 10 ms; then, for this checkout, the listings above
the 95th percentile by decision step, whether each is the first of a run of decisions of
its step (a movement phase's first listing) and their options.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(engine_id: str, max_steps: int, first_seed: int) -> list[dict[str, object]]:
    """Every listing of the engine's census games: its time (ms), scenario, step, the
    decision's step name, whether it is the first of its run and its options."""
    from pbem.registry import get
    from pbem.testing import Chooser

    engine = get(engine_id)
    rows: list[dict[str, object]] = []
    clock = time.process_time
    for info in engine.scenarios():
        state = engine.new_state(info.id, engine.resolve_options({}))
        choose = Chooser(f"census/{engine.id}/{info.id}/{first_seed}")
        last = ""
        for step in range(max_steps):
            if state.is_terminal():
                break
            if step % 10 == 0:
                state.clone()  # as bench_engines does: a clone may share caches
            if state.is_chance():
                state.apply_outcome(choose.outcome(state.chance_request()))
                continue
            side = state.current_player()
            gc.disable()
            t = clock()
            legal = state.legal_actions()
            took = (clock() - t) * 1000
            gc.enable()
            stack = getattr(state, "stack", None)
            name = stack[-1].step if stack else "?"
            rows.append({"ms": took, "scenario": info.id, "step": step, "name": name,
                         "first": name != last, "options": len(legal)})
            last = name
            state.apply(legal[choose.below(len(legal))], side=side)
    return rows


def _p(ordered: list[float], pct: int) -> float:
    return ordered[min(len(ordered) - 1, (len(ordered) * pct) // 100)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="*", default=["for-the-motherland"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", type=Path, help="another checkout, measured alternately")
    parser.add_argument("--max-steps", type=int, default=600)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:  # one run in this process, from that checkout
        sys.path.insert(0, str(args.worker.resolve()))
        json.dump({e: play(e, args.max_steps, args.first_seed) for e in args.engines},
                  sys.stdout)
        return 0
    trees = [("base", args.base), ("this", ROOT)] if args.base else [("this", ROOT)]
    runs: dict[str, list[dict[str, list[dict[str, object]]]]] = {n: [] for n, _ in trees}
    for _ in range(args.runs):
        for name, tree in trees:
            out = subprocess.run(
                [sys.executable, __file__, *args.engines, "--worker", str(tree),
                 "--max-steps", str(args.max_steps), "--first-seed", str(args.first_seed)],
                check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out))
    print(f"{args.runs} run(s) a checkout, alternated; each listing's least CPU time "
          f"over them (ms); census games, seed {args.first_seed}, at most "
          f"{args.max_steps} steps")
    for engine_id in args.engines:
        print(f"{engine_id:20} {'tree':5} {'listings':>8} {'mean':>7} {'p95':>7} "
              f"{'p99':>7} {'max':>7} {'>10ms':>6}")
        least: dict[str, list[float]] = {}
        for name, _ in trees:
            games = [r[engine_id] for r in runs[name]]
            times = least[name] = [min(float(str(g[i]["ms"])) for g in games)
                                   for i in range(len(games[0]))]
            ordered = sorted(times)
            print(f"{'':20} {name:5} {len(times):8} {statistics.fmean(times):7.3f} "
                  f"{_p(ordered, 95):7.2f} {_p(ordered, 99):7.2f} {ordered[-1]:7.2f} "
                  f"{sum(t > 10 for t in times):6}")
        rows = runs["this"][0][engine_id]
        times = least["this"]
        p95 = _p(sorted(times), 95)
        groups: dict[tuple[str, bool], list[tuple[float, int]]] = collections.defaultdict(list)
        for row, t in zip(rows, times, strict=True):
            if t > p95:
                groups[(str(row["name"]), bool(row["first"]))].append(
                    (t, int(str(row["options"]))))
        print(f"  above the 95th percentile ({p95:.2f} ms), this tree: step, first of "
              "its run, listings, mean ms, mean and most options")
        for (name, first), got in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"    {name:16} {'first' if first else 'later':5} {len(got):5} "
                  f"{statistics.fmean(t for t, _ in got):7.2f} "
                  f"{statistics.fmean(n for _, n in got):7.0f} {max(n for _, n in got):6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
