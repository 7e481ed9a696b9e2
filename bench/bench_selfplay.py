"""Selfplay through real files: every scenario of an engine, many seeds, desyncs must be 0.

    python bench/bench_selfplay.py ENGINE [--seeds 20] [--first-seed 1]
                                   [--scenario ID ...] [--max-turns T] [--jobs 2]
                                   [--split | --profile] [--standing-orders]
                                   [--dice open|sealed]

Each game is `pbem selfplay`: two bots with their own homes and keys write, sign, read,
verify and replay every file.  Prints one line per game and, per scenario, the totals and
means of files, actions, rolls and seconds, and the number of desyncs (must be 0).
``--split`` times the engine's hooks in each game (engine time against everything else:
signing, verifying, encoding, files); ``--profile`` runs cProfile and lists where the
engine and the protocol spend their time (slower: the profiler's own cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.registry import get  # noqa: E402
from pbem.selfplay import SelfplayResult, selfplay  # noqa: E402


@dataclass(frozen=True)
class Job:
    """One game to play; everything a worker process needs, whatever its start method."""

    engine: str
    scenario: str
    seed: int
    max_turns: int | None = None
    standing_orders: bool = False
    dice_mode: str = "open"


def one(job: Job) -> SelfplayResult:
    with tempfile.TemporaryDirectory() as tmp:
        return selfplay(job.engine, job.scenario, job.seed, Path(tmp), max_turns=job.max_turns,
                        standing_orders=job.standing_orders, dice_mode=job.dice_mode)


#: the engine's side of the contract: every hook the core calls (pbem.engine)
STATE_HOOKS = ("_current_player", "_legal_actions", "_apply_action", "_chance_request",
               "_apply_outcome", "_decision", "_result", "_snapshot", "_view", "status_line",
               "turn_number", "parse_action", "clone")
ENGINE_HOOKS = ("_new_state", "_restore")
_clock = {"depth": 0, "engine": 0.0}


def _timed(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _clock["depth"]:
            return fn(*args, **kwargs)  # an engine hook calling another: counted once
        _clock["depth"] = 1
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _clock["engine"] += time.perf_counter() - start
            _clock["depth"] = 0
    wrapper.timed = True  # type: ignore[attr-defined]
    return wrapper


def split(job: Job) -> SelfplayResult:
    """One game with the engine's hooks timed (no profiler): engine against protocol."""
    eng = get(job.engine)
    for cls, names in ((type(eng.new_state(job.scenario)), STATE_HOOKS),
                       (type(eng), ENGINE_HOOKS)):
        for name in names:
            fn = getattr(cls, name)
            if not getattr(fn, "timed", False):
                setattr(cls, name, _timed(fn))
    _clock["engine"] = 0.0
    result = one(job)
    engine_s = float(_clock["engine"])
    print(f"split seed {job.seed}: {result.seconds:.1f} s, engine {engine_s:.1f} s "
          f"({100 * engine_s / result.seconds:.0f}%), protocol and files "
          f"{result.seconds - engine_s:.1f} s", flush=True)
    return result


def profiled(job: Job) -> SelfplayResult:
    """One game under cProfile: where the engine (code under engines/) spends its time."""
    import cProfile
    import io
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    result = one(job)
    prof.disable()
    stats = pstats.Stats(prof)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = \
        stats.stats  # type: ignore[attr-defined]
    engine_time = sum(tt for (fn, _, _), (_, _, tt, _, _) in raw.items() if "/engines/" in fn)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"profile seed {job.seed}: {total:.1f} s profiled, engine (engines/) {engine_time:.1f} s "
          f"= {100 * engine_time / total:.0f}%, protocol and the rest "
          f"{total - engine_time:.1f} s")
    for label, pattern in (("engine", "/engines/"), ("protocol", "/pbem/")):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(pattern, 12)
        print(f"-- top {label} functions by own time --")
        print(out.getvalue().split("\n\n", 2)[-1].strip())
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("engine")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--scenario", action="append")
    p.add_argument("--max-turns", type=int)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--profile", action="store_true",
                   help="profile each game in this process: where the engine spends its time")
    p.add_argument("--split", action="store_true",
                   help="time the engine's hooks (no profiler): engine time against protocol")
    p.add_argument("--standing-orders", action="store_true",
                   help="both bots answer in advance every decision the engine allows")
    p.add_argument("--dice", choices=("open", "sealed"), default="open")
    args = p.parse_args()
    scenarios = args.scenario or [s.id for s in get(args.engine).scenarios()]
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [Job(args.engine, s, seed, args.max_turns, args.standing_orders, args.dice)
            for s in scenarios for seed in seeds]
    results: dict[str, list[SelfplayResult]] = {s: [] for s in scenarios}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        # lines as games finish (in job order), so a long run shows its progress
        if args.profile:
            done: Iterable[SelfplayResult] = (profiled(job) for job in jobs)
        else:
            done = pool.map(split if args.split else one, jobs)
        for job, result in zip(jobs, done, strict=True):
            print(f"seed {job.seed}: {result.line()}", flush=True)
            results[job.scenario].append(result)
    print("\nscenario                  games desyncs  files(mean) actions(mean) rolls(mean) "
          "seconds(mean)")
    bad = 0
    for scenario, rs in results.items():
        bad += sum(r.desyncs for r in rs)
        print(f"{scenario:25} {len(rs):5} {sum(r.desyncs for r in rs):7} "
              f"{statistics.mean(r.files for r in rs):12.1f} "
              f"{statistics.mean(r.actions for r in rs):13.1f} "
              f"{statistics.mean(r.rolls for r in rs):11.1f} "
              f"{statistics.mean(r.seconds for r in rs):13.1f}")
    games = sum(len(rs) for rs in results.values())
    print(f"\n{games} games, desyncs={bad}, wall {time.perf_counter() - start:.0f} s "
          f"with {args.jobs} job(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
