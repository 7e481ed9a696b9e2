"""Play every White Death scenario to its end with random legal choices; or time the engine.

    python bench/bench_white_death.py [--seeds 1] [--scenario ID] [--test-map]
    python bench/bench_white_death.py --time [--steps 1500] [--tree DIR] [--dump FILE]

Each playout goes through pbem.testing.random_playout: snapshots are checked (canonical,
restore to the same digest and legal actions) every 200 steps, and the whole history is
replayed at the end and must give the same digest.  Prints one line per playout:
scenario, seed, steps, actions, rolls, seconds, result.

``--time`` measures what issue 13 sets targets for, on the campaign (seed 1):

* legal/apply: at each decision of a random playout (``--steps`` steps), the time of the
  first (uncached) ``legal_actions()`` and of the ``apply`` that follows; medians over
  every decision and over movement decisions, and their ratio;
* clone: the median ``State.clone()`` at every 50th step of that playout;
* selfplay: the whole playout loop (legal actions, choice, apply, rolls, those clones);
* files: ``pbem selfplay`` through signed files for ``--turns`` turns, then
  ``pbem audit`` of those files (every file replayed on a clone, as a player's audit does).

``--tree DIR`` runs the same measurement in a child process on another checkout (for
example ``git archive baab4ba | tar -x -C /tmp/wd-base``), so both columns come from one
run on one machine; the child imports DIR's ``pbem`` and ``engines``, this script's code.
``--dump FILE`` writes the figures as JSON. Every figure is CPU time of the process
(``time.process_time``), not wall time: on a shared machine the wall clock counts the
other jobs too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("WD_BENCH_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from engines.white_death import ENGINE, WhiteDeath  # noqa: E402
from pbem.testing import Chooser, random_playout  # noqa: E402


def clock() -> float:
    """CPU seconds of this process: the machine is shared, and other jobs' load would
    otherwise be counted as ours (wall clock under a load of 10 triples every figure)."""
    return time.process_time()


def _ms(xs: list[float]) -> float:
    return round(statistics.median(xs) * 1000, 3) if xs else 0.0


def measure(steps: int, turns: int) -> dict[str, Any]:
    """The figures of one checkout (the one ``ROOT`` names)."""
    import engines.white_death as pkg
    from pbem.audit import audit, collect
    from pbem.selfplay import selfplay

    out: dict[str, Any] = {"tree": str(Path(pkg.__file__).resolve().parent.parent.parent)}
    engine = ENGINE
    state = engine.new_state("campaign", engine.resolve_options({}))
    choose = Chooser("white-death/campaign/1")
    legal_t: list[float] = []
    apply_t: list[float] = []
    move_legal: list[float] = []
    move_apply: list[float] = []
    clones: list[float] = []
    t_start = clock()
    n = 0
    while not state.is_terminal() and n < steps:
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            t0 = clock()
            legal = state.legal_actions()
            t_legal = clock() - t0
            kind = state.decision().kind
            action = choose.pick(legal)
            t1 = clock()
            state.apply(action)
            t2 = clock()
            legal_t.append(t_legal)
            apply_t.append(t2 - t1)
            if kind == "movement":
                move_legal.append(t_legal)
                move_apply.append(t2 - t1)
            if n % 50 == 0:
                t0 = clock()
                state.clone()
                clones.append(clock() - t0)
        n += 1
    out["selfplay_s"] = round(clock() - t_start, 2)
    out["steps"] = n
    out["clone_ms"] = _ms(clones)
    out["legal_ms"], out["apply_ms"] = _ms(legal_t), _ms(apply_t)
    out["move_legal_ms"], out["move_apply_ms"] = _ms(move_legal), _ms(move_apply)
    out["legal_per_apply"] = round(out["legal_ms"] / out["apply_ms"], 2) if apply_t else 0
    out["move_legal_per_apply"] = (round(out["move_legal_ms"] / out["move_apply_ms"], 2)
                                   if move_apply else 0)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = clock()
        r = selfplay("white-death", "campaign", 1, Path(tmp), max_turns=turns)
        out["files_selfplay_s"] = round(clock() - t0, 2)
        out["files"] = r.files
        datas = collect([Path(tmp) / "files"])
        t0 = clock()
        report = audit(datas)
        out["audit_s"] = round(clock() - t0, 2)
        out["audit_problems"] = len(report.problems)
    return out


def run_time(args: argparse.Namespace) -> int:
    if args.child:
        print(json.dumps(measure(args.steps, args.turns)))
        return 0
    cols: list[dict[str, Any]] = []
    if args.tree:
        env = dict(os.environ, WD_BENCH_ROOT=str(Path(args.tree).resolve()),
                   PYTHONPATH=str(Path(args.tree).resolve()))
        got = subprocess.run([sys.executable, __file__, "--time", "--child", "--steps",
                              str(args.steps), "--turns", str(args.turns)], env=env,
                             check=True, capture_output=True, text=True)
        cols.append(json.loads(got.stdout.strip().splitlines()[-1]))
    cols.append(measure(args.steps, args.turns))
    keys = [k for k in cols[-1] if k != "tree"]
    print(f"{'':22s}" + "".join(f"{Path(c['tree']).name[:14]:>16s}" for c in cols))
    for k in keys:
        print(f"{k:22s}" + "".join(f"{c.get(k, ''):>16}" for c in cols))
    if args.dump:
        Path(args.dump).write_text(json.dumps(cols, indent=1) + "\n", encoding="utf-8")
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", type=int, default=1)
    p.add_argument("--scenario", action="append")
    p.add_argument("--test-map", action="store_true",
                   help="use tests/white_death/test_map.toml instead of the shipped map")
    p.add_argument("--max-steps", type=int, default=100_000)
    p.add_argument("--time", action="store_true", help="time the engine (see above)")
    p.add_argument("--steps", type=int, default=1500, help="--time: playout steps")
    p.add_argument("--turns", type=int, default=2, help="--time: turns played through files")
    p.add_argument("--tree", help="--time: also measure this other checkout, side by side")
    p.add_argument("--dump", help="--time: write the figures to this JSON file")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.time:
        return run_time(args)
    engine: WhiteDeath = ENGINE
    if args.test_map:
        sys.path.insert(0, str(ROOT / "tests"))
        from white_death.conftest import make_data_dir

        engine = WhiteDeath(make_data_dir(Path(tempfile.mkdtemp()) / "white-death"))
    scenarios = args.scenario or [s.id for s in engine.scenarios()]
    failures = 0
    for sc in scenarios:
        for seed in range(1, args.seeds + 1):
            t0 = clock()
            r = random_playout(engine, sc, seed, max_steps=args.max_steps, check_every=200)
            dt = clock() - t0
            print(f"{sc:14s} seed {seed}: {r.steps} steps, {r.actions} actions, {r.rolls} rolls,"
                  f" {dt:.1f} s, {'ended' if r.terminal else 'NOT ENDED'}: {r.result}",
                  flush=True)
            failures += not r.terminal
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
