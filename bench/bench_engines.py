"""Every engine's clone, legal listing and apply side by side, in one run (issue 35 item 5).

    python bench/bench_engines.py [ENGINE ...] [--games 1] [--first-seed 1]
                                  [--max-steps 600] [--scenarios 2] [--tree DIR]

Plays random games as the rules census does (pbem.census: the legal actions listed at
every decision, one chosen and the dice rolled by pbem.testing.Chooser from the seed
``census/ENGINE/SCENARIO/SEED``), in process, and times:

- ``clone``: ``State.clone()`` at every 10th step but the first (mean and max ms, and
  the mean against White Death's in the same run: the target is within 2x);
- ``legal``: ``legal_actions()`` at every decision (mean, 99th percentile and max ms: the
  target is no listing over 10 ms at the 99th percentile);
- ``apply``: ``apply`` of the chosen action (mean ms).

``--tree DIR``: import pbem and the engines from another checkout (e.g. ``git archive
main | tar -x -C /tmp/base``) to measure before and after in the same conditions.
CPU times (``time.process_time``) in one process, the garbage collector off while an
operation is timed; compare runs of the same command.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Timings:
    clone: list[float] = field(default_factory=list)
    legal: list[float] = field(default_factory=list)
    apply: list[float] = field(default_factory=list)
    games: int = 0
    worst: tuple[float, str] = (0.0, "")


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, (len(ordered) * 99) // 100)]


def play(engine_id: str, scenario: str, seed: int, max_steps: int, out: Timings) -> None:
    from pbem.registry import get
    from pbem.testing import Chooser

    engine = get(engine_id)
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser(f"census/{engine.id}/{scenario}/{seed}")
    clock = time.process_time  # CPU: the machine's other work does not count
    # the collector runs when allocations since the last run pass a threshold, wherever
    # that happens: off while an operation is timed, so one clone is not charged for a
    # whole game's garbage (it runs between the timed calls as usual)
    for step in range(max_steps):
        if state.is_terminal():
            break
        if step % 10 == 0:
            gc.disable()
            t = clock()
            state.clone()
            took = (clock() - t) * 1000
            gc.enable()
            if step:  # the first derives the copiers (once per type and process)
                out.clone.append(took)
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
            continue
        side = state.current_player()
        gc.disable()
        t = clock()
        legal = state.legal_actions()
        took = (clock() - t) * 1000
        gc.enable()
        out.legal.append(took)
        if took > out.worst[0]:
            out.worst = (took, f"{scenario} seed {seed} step {step} "
                               f"({state.decision_head() or ('', '')}"[:100])
        action = legal[choose.below(len(legal))]
        gc.disable()
        t = clock()
        state.apply(action, side=side)
        out.apply.append((clock() - t) * 1000)
        gc.enable()
    out.games += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="*", help="engine ids (default: every installed one)")
    parser.add_argument("--games", type=int, default=1, help="games per scenario")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=600,
                        help="steps (actions and rolls) per game at most")
    parser.add_argument("--scenarios", type=int, default=2,
                        help="the first N scenarios of each engine (0: all)")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout whose pbem and engines are measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    from pbem.registry import engines

    installed = engines()
    ids = args.engines or sorted(installed)
    if "white-death" not in ids:
        ids = ["white-death", *ids]
    results: dict[str, Timings] = {}
    for engine_id in ids:
        timings = results[engine_id] = Timings()
        infos = installed[engine_id].scenarios()
        for info in infos[:args.scenarios] if args.scenarios else infos:
            for seed in range(args.first_seed, args.first_seed + args.games):
                play(engine_id, info.id, seed, args.max_steps, timings)
    base = statistics.fmean(results["white-death"].clone)
    import pbem

    print(f"pbem from {Path(pbem.__file__).parent}; {args.games} game(s) of "
          f"{args.scenarios or 'every'} scenario(s) per engine, "
          f"at most {args.max_steps} steps; times in ms")
    print(f"{'engine':20} {'clone mean':>10} {'max':>7} {'x WD':>6} "
          f"{'legal mean':>10} {'p99':>7} {'max':>7} {'apply mean':>10} {'decisions':>9}")
    for engine_id, t in results.items():
        clone = statistics.fmean(t.clone)
        print(f"{engine_id:20} {clone:10.3f} {max(t.clone):7.2f} {clone / base:6.2f} "
              f"{statistics.fmean(t.legal):10.3f} {_p99(t.legal):7.2f} {max(t.legal):7.2f} "
              f"{statistics.fmean(t.apply):10.3f} {len(t.legal):9}")
    for engine_id, t in results.items():
        print(f"slowest listing, {engine_id}: {t.worst[0]:.1f} ms at {t.worst[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
