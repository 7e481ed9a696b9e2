"""Time compiling every move-cost table of each engine on its real map (issue 35).

    .venv/bin/python bench/bench_movecost.py [--tree DIR] [--repeat 5]

For each engine, every table it can build from its terrain chart, compiled afresh
(``MoveCosts``, no data cache): White Death's seven mobility classes on the printed map
and under a thaw, Backhand Blow's six weather and motor columns, 48th Panzer Korps' leg
and mech (with its slope rule), Mortain's one.  Prints the steps priced and the median
CPU time (``time.process_time``) of building them all, over ``--repeat`` runs.

These are the kit's whole-map compile (``MoveCosts``), which 48th Panzer Korps, Mortain
and the data cache use; White Death and Backhand Blow now price rows as their searches
read them (``StepCosts``, the same pricer a row at a time), which
``bench/bench_engines.py`` shows in their listings.

``--tree DIR`` measures another checkout (a ``git archive`` of main) in a child process
beside this one, the two interleaved run by run, so both columns come from one run on
one machine; the child imports DIR's ``engines``, this script's code.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def builders() -> dict[str, tuple[int, Callable[[], object]]]:
    """Per engine: the steps its tables price, and a function building them all anew."""
    from engines.backhand.data import WEATHERS
    from engines.backhand.data import load as backhand_data
    from engines.hexkit.movement import MoveCosts
    from engines.mortain.data import rules as mortain_rules
    from engines.panzer48.data import data as panzer48_data
    from engines.white_death.data import MOBILITIES
    from engines.white_death.terrain import Terrain

    out: dict[str, tuple[int, Callable[[], object]]] = {}

    wd = Terrain.of(_wd_catalog())
    wd_classes = [wd.move_class(m) for m in MOBILITIES]
    thaw = wd._move_overlay(False, ())
    steps = sum(len(r) for r in wd.map.adjacency)

    def white_death() -> object:
        made = [MoveCosts(wd.map, c) for c in wd_classes]
        return [m.overlaid(thaw) for m in made]

    out["white-death"] = (steps * len(wd_classes), white_death)

    d = backhand_data()
    bb_classes = [d.costs[(w, mot)].move_class for w in WEATHERS for mot in (False, True)]

    def backhand() -> object:
        return [MoveCosts(d.map, c) for c in bb_classes]

    out["backhand-blow"] = (sum(len(r) for r in d.map.adjacency) * len(bb_classes), backhand)

    pd = panzer48_data()
    p48_made = list(pd.costs.values())

    def panzer48() -> object:
        return [MoveCosts(m.map, m.move_class, m.adjust) for m in p48_made]

    out["48th-panzer-korps"] = (
        sum(len(r) for r in pd.map.adjacency) * len(p48_made), panzer48)

    mr = mortain_rules()

    def mortain() -> object:
        return MoveCosts(mr.map, mr.move_class)

    out["mortain"] = (sum(len(r) for r in mr.map.adjacency), mortain)
    # the maps' own tables (ids, adjacency) are the map's, made by any first use: not timed
    for hexmap in (wd.map, d.map, pd.map, mr.map):
        _ = hexmap.ids, hexmap.index, hexmap.adjacency
    return out


def _wd_catalog() -> Any:
    from engines.white_death import WhiteDeath

    return WhiteDeath().catalog()


def child(repeat: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for name, (_, build) in builders().items():
        runs = []
        for _ in range(repeat):
            t = time.process_time()
            build()
            runs.append((time.process_time() - t) * 1000)
        out[name] = runs
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, help="another checkout, measured beside this one")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.repeat)))
        return
    trees = {"this": ROOT} | ({"base": args.tree.resolve()} if args.tree else {})
    runs: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    for _ in range(args.repeat):
        for label, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
            got = json.loads(subprocess.run(
                [sys.executable, __file__, "--child", "--repeat", "1"], env=env, cwd=tree,
                check=True, capture_output=True, text=True).stdout)
            for name, ms in got.items():
                runs[label].setdefault(name, []).extend(ms)
    steps = {name: n for name, (n, _) in builders().items()}
    head = f"{'engine':20} {'steps':>8}" + "".join(f" {t + ' ms':>10}" for t in trees)
    print(head)
    for name, n in steps.items():
        cols = "".join(f" {statistics.median(runs[t][name]):10.1f}" for t in trees)
        print(f"{name:20} {n:8d}{cols}")


if __name__ == "__main__":
    main()
