"""Whole random games dumped as text records, for a refactor's proof that no game changed.

    python bench/dump_whole_games.py ENGINE DIR [--seeds N] [--max-steps S] [--jobs J]

Each scenario of ENGINE is played ``--seeds`` times to its end (or ``--max-steps`` steps)
through the engine API, actions and dice chosen by pbem.testing.Chooser from the seed, and
its whole text record (pbem.golden.text_record: every decision with its sorted legal
actions, action, roll and event) written as ``DIR/ENGINE.SCENARIO.wSEED.txt``.  The golden
games are capped after 60 actions; these reach every turn.  Check them after a change with
``bench/record_golden.py --check DIR``.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.atomic import write_atomic  # noqa: E402
from pbem.golden import text_record  # noqa: E402
from pbem.history import Acted, Rolled, wire  # noqa: E402
from pbem.registry import get  # noqa: E402
from pbem.testing import Chooser  # noqa: E402


def one(job: tuple[str, str, int, int, str]) -> str:
    engine_id, scenario, seed, max_steps, folder = job
    engine = get(engine_id)
    options = engine.resolve_options({})
    state = engine.new_state(scenario, options)
    choose = Chooser(f"whole/{engine_id}/{scenario}/{seed}")
    records: list[list[object]] = []
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance():
            outcome = choose.outcome(state.chance_request())
            state.apply_outcome(outcome)
            records.append(wire(Rolled(0, tuple(outcome))))
            continue
        action = choose.pick(state.legal_actions())
        state.apply(action.notation())
        records.append(wire(Acted(action.notation())))
    lines = text_record(engine, scenario, options, records)
    path = Path(folder) / f"{engine_id}.{scenario}.w{seed}.txt"
    write_atomic(path, ("\n".join(lines) + "\n").encode(), 0o644)
    return f"{path.name}: {len(records)} records, {lines[-1]}"


def main() -> int:
    parser = argparse.ArgumentParser(prog="dump_whole_games")
    parser.add_argument("engine")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--max-steps", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    jobs = [(args.engine, s.id, seed, args.max_steps, str(args.dir))
            for s in get(args.engine).scenarios() for seed in range(1, args.seeds + 1)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(one, jobs):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
