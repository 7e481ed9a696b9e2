"""The rules census: random games counted by rule (issue 11; the counting is pbem.census).

    python bench/bench_census.py ENGINE [--games N] [--scenario S ...] [--seed K]
                                 [--option KEY=VALUE ...] [--max-turns T] [--max-steps N]
                                 [--probe-every N] [--jobs J] [--markdown] [--page FILE]
                                 [--save FILE] [--load FILE ...]

Plays N random games of each scenario (default: every scenario of the engine) through the
engine API: legal actions chosen and dice rolled by pbem.testing.Chooser from the seed
(SHA-256 of the seed and a counter), so a run is reproduced by its arguments.  Prints, per
rule, the events, chance requests and decisions that cite it and how often it refused an
unlisted action; then the engine page's "Rules coverage" rows with their counts, and the
flags:

(a) a coverage row (docs/engines/ENGINE.md, the rows not marked "not implemented") whose
    rules neither fired nor refused in the N games;
(b) a decision kind the engine declares (Engine.decision_kinds) that was never offered,
    or one offered but not declared;
(c) a collection of the snapshot that only grew over a game (in at least half the games
    it appears in): never smaller than before, at the end at least 8 larger and twice its
    size at the start;
(d) an action legal_actions listed that apply refused; a decision default that is not
    among the legal actions;
(e) an unlisted action that crashed the engine instead of being refused.

--markdown prints the tables for the engine page.  --save writes the counts to a JSON
file; --load (repeatable) reports the counts of saved files, added up, instead of playing,
so a long census is run in chunks (different --seed ranges, in parallel or one after the
other) and combined: ``--load a.json --load b.json`` or ``--load a.json b.json``.  Exit
status 1 if (d) or (e) was flagged.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.atomic import write_atomic  # noqa: E402
from pbem.census import CensusResult, Settings, coverage_rows, play, report  # noqa: E402
from pbem.registry import get  # noqa: E402


@dataclass(frozen=True)
class Job:
    """One game; all a worker process needs."""

    engine: str
    scenario: str
    seed: int
    settings: Settings
    options: tuple[tuple[str, str], ...] = ()


def one(job: Job) -> CensusResult:
    return play(get(job.engine), job.scenario, job.seed, job.settings, dict(job.options))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="bench_census.py", description=__doc__.split("\n\n")[0],
        epilog="Counts and flags are explained in the module docstring "
               "(python -m pydoc bench/bench_census.py) and in pbem/census.py.")
    p.add_argument("engine", help="engine id (white-death, for-the-motherland, ...)")
    p.add_argument("--games", type=int, default=10, help="games per scenario (default 10)")
    p.add_argument("--scenario", action="append", help="scenario id (repeatable; default all)")
    p.add_argument("--seed", type=int, default=1, help="first seed (games use seed..seed+N-1)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option for every game (repeatable), as pbem new --option")
    p.add_argument("--max-turns", type=int, help="game turns to play at most per game")
    p.add_argument("--max-steps", type=int, default=50_000,
                   help="actions plus rolls at most per game (default 50000)")
    p.add_argument("--probe-every", type=int, default=7,
                   help="probe unlisted actions at every Nth decision (0: never; default 7)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--page", type=Path,
                   help="engine page with the Rules coverage table "
                        "(default docs/engines/ENGINE.md)")
    p.add_argument("--markdown", action="store_true", help="print Markdown tables")
    p.add_argument("--save", type=Path, help="also write the counts to this JSON file")
    p.add_argument("--load", type=Path, action="extend", nargs="+", default=[],
                   metavar="FILE",
                   help="report the counts of --save files, added up, instead of playing "
                        "(repeatable; give chunks different --seed ranges)")
    args = p.parse_args(argv)
    engine = get(args.engine)
    scenarios = args.scenario or [s.id for s in engine.scenarios()]
    settings = Settings(max_steps=args.max_steps, max_turns=args.max_turns,
                        probe_every=args.probe_every)
    if any("=" not in o for o in args.option):
        p.error("--option takes KEY=VALUE")
    options = tuple(sorted(engine.resolve_options(
        dict(o.split("=", 1) for o in args.option)).items()))
    jobs = [Job(engine.id, s, seed, settings, options)
            for s in scenarios for seed in range(args.seed, args.seed + args.games)]
    total = CensusResult(engine.id)
    start = time.perf_counter()
    if args.load:
        for f in args.load:
            part = CensusResult.from_data(json.loads(f.read_text(encoding="utf-8")))
            if part.engine != engine.id:
                p.error(f"{f} holds a census of {part.engine}, not {engine.id}")
            total.merge(part)
        jobs = []
    elif args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for r in pool.map(one, jobs):
                total.merge(r)
    else:
        for job in jobs:
            total.merge(one(job))
    seconds = time.perf_counter() - start
    if args.save:
        write_atomic(args.save, json.dumps(total.to_data(), indent=1).encode(), 0o644)
    page = args.page or ROOT / "docs" / "engines" / f"{engine.id}.md"
    rows = coverage_rows(page.read_text(encoding="utf-8")) if page.exists() else []
    text, _ = report(total, rows, engine.decision_kinds(), markdown=args.markdown)
    print(text)
    if args.load:
        print(f"\n{total.games} games from {len(args.load)} saved file(s)")
    else:
        print(f"\n{len(jobs)} games in {seconds:.0f} s with {args.jobs} job(s), options "
              f"{', '.join(f'{k}={v}' for k, v in options) or 'none'}; "
              f"coverage rows from {page if rows else 'nowhere (no page)'}")
    return 1 if total.listed_refused or total.bad_defaults or total.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
