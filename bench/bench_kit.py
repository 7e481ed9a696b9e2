"""Time the hex kit on a 1,500-hex map: loading, a unit's reachable set, full-map ZOC,
the hex-counting floods and searches supply rules make.

Run: ``/work/venv/bin/python bench/bench_kit.py``.  The map (50 x 30, mixed terrain,
rivers, roads, a railroad) is generated deterministically, written as scenario TOML
in a temporary folder and loaded through the same loader the games use, so the load
time is that of a real map file.  Each figure is the median of several runs.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from engines.hexkit.facts import BoardFacts, Placed, ZocRule, board_facts
from engines.hexkit.geometry import HexGrid, hexside
from engines.hexkit.movement import (
    MoveClass,
    MoveCosts,
    breadth_first,
    reachable,
    region,
    trace,
)
from engines.hexkit.scenario import load_scenario_path
from engines.hexkit.zoc import ZocPolicy, zoc_map

COLS, ROWS = 50, 30


def _lcg(seed: int) -> Callable[[int], int]:
    """A tiny deterministic generator, so the bench map is the same on every run."""
    state = [seed]

    def draw(n: int) -> int:
        state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) % 2**64
        return (state[0] >> 33) % n

    return draw


def map_toml() -> str:
    draw = _lcg(1942)
    chars = ".....ffrs"
    lines = []
    for row in range(1, ROWS + 1):
        lines.append(f"{row:02d} " + "".join(chars[draw(len(chars))] for _ in range(COLS)))
    grid = HexGrid("even", (1, COLS), (1, ROWS))
    sides = sorted({hexside(a, b) for a in grid.ids() for b in grid.neighbors(a)})
    rivers = [f'"{a}/{b}"' for a, b in sides if draw(12) == 0]
    # east-west roads along every sixth row (a row zigzags through adjacent hexes) and
    # north-south roads down every tenth column
    roads = ['"' + " ".join(f"{c:02d}{row:02d}" for c in range(1, COLS + 1)) + '"'
             for row in range(3, ROWS, 6)]
    roads += ['"' + " ".join(f"{c:02d}{row:02d}" for row in range(1, ROWS + 1)) + '"'
              for c in range(5, COLS, 10)]
    return f"""
[map]
title = "Bench"
offset = "even"
cols = [1, {COLS}]
rows = [1, {ROWS}]

[map.legend]
"." = {{ name = "clear", color = "#e8e0c0" }}
"f" = {{ name = "forest", color = "#3a7a3a", blocks_los = true }}
"r" = {{ name = "rough", color = "#a09070" }}
"s" = {{ name = "swamp", color = "#708060" }}

[map.terrain]
by = "row"
grid = \"\"\"
{chr(10).join(lines)}
\"\"\"

[map.hexsides]
river = [{", ".join(rivers)}]

[map.networks]
road = [{", ".join(roads)}]
railroad = ["{" ".join(f"{c:02d}15" for c in range(1, COLS + 1))}"]
"""


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    text = map_toml()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "map.toml").write_text(text, encoding="utf-8")
        load_ms = median_ms(lambda: load_scenario_path(tmp).map, 5)
        hexmap = load_scenario_path(tmp).map
    n_sides = len(hexmap.hexsides)
    n_road = len(hexmap.networks["road"])
    print(f"map: {len(hexmap.ids)} hexes, {n_sides} river hexsides, {n_road} road links, "
          f"{len(text.splitlines())} lines of TOML")
    print(f"load + check the map file:          {load_ms:8.2f} ms")

    leg = MoveClass("leg", {"clear": 1, "forest": 2, "rough": 2, "swamp": 3},
                    hexside={"river": 2}, networks={"road": Fraction(1, 2)})
    compile_ms = median_ms(lambda: MoveCosts(hexmap, leg), 5)
    costs = MoveCosts(hexmap, leg)
    print(f"compile one move class (once):      {compile_ms:8.2f} ms")

    enemies = {f"u{i}": h for i, h in enumerate(hexmap.ids[::10])}  # 150 units
    zoc_ms = median_ms(lambda: zoc_map(hexmap, enemies, blocking_sides=["river"]), 20)
    zoc = zoc_map(hexmap, enemies).hexes
    print(f"full-map ZOC, {len(enemies)} units:            {zoc_ms:8.2f} ms")

    # board facts: a placement's occupancy and ZOC computed, then asked again (every
    # unit's listed moves reads the same enemy ZOC)
    placed = [Placed(u, h, "red") for u, h in enemies.items()]
    river = ZocRule(blocking_sides=frozenset({"river"}))
    fresh = itertools.count()  # a mark never seen: a placement of red never met
    ms = median_ms(lambda: BoardFacts(hexmap, [*placed[1:], placed[0]._replace(
        mark=next(fresh))]).zoc("red", river), 20)
    print(f"board facts: red's ZOC, red moved:   {ms:8.2f} ms")
    blue = [Placed("b", hexmap.ids[1], "blue")]
    ms = median_ms(lambda: BoardFacts(hexmap, [*placed, blue[0]._replace(
        hex=hexmap.ids[next(fresh) % 100])]).zoc("red", river), 20)
    print(f"board facts: red's ZOC, blue moved:  {ms:8.2f} ms")
    board_facts(hexmap, placed).zoc("red", river)
    ms = median_ms(lambda: board_facts(hexmap, placed).zoc("red", river), 20)
    print(f"board facts: red's ZOC, asked again: {ms:8.2f} ms")

    start = "2515"
    for mp in (6, 10):
        ms = median_ms(lambda mp=mp: reachable(costs, start, mp), 20)  # type: ignore[misc]
        n = len(reachable(costs, start, mp).ends)
        print(f"reachable set, {mp:2d} MP, no ZOC:       {ms:8.2f} ms  ({n} hexes)")
    ftm = ZocPolicy(stop_on_entry=False, exit_cost=2, zoc_to_zoc=False)
    blocked = frozenset(enemies.values())
    ms = median_ms(lambda: reachable(costs, start, 10, zoc=zoc, policy=ftm,
                                     blocked=blocked, min_one_hex=True), 20)
    n = len(reachable(costs, start, 10, zoc=zoc, policy=ftm, blocked=blocked).ends)
    print(f"reachable set, 10 MP, ZOC + enemies: {ms:8.2f} ms  ({n} hexes)")
    ms = median_ms(lambda: reachable(costs, start, 1000), 10)
    print(f"reachable set, whole map:           {ms:8.2f} ms  ({len(hexmap.ids)} hexes)")
    ms = median_ms(lambda: reachable(costs, "0101", 1000, goal="5030").path_to("5030"), 10)
    print(f"least-cost path corner to corner:   {ms:8.2f} ms")

    # supply: White Death 15.C from the west edge through hexes free of enemy units and ZOC,
    # 15.B seven hexes from the roads, a trace to the east edge along the railroad
    free = frozenset(h for h in hexmap.ids if h not in zoc and h not in blocked)
    west = [h for h in hexmap.ids if h.startswith("01")]
    ms = median_ms(lambda: region(hexmap, west, passable=free), 20)
    n = len(region(hexmap, west, passable=free))
    print(f"region from an edge, free hexes:     {ms:8.2f} ms  ({n} hexes)")
    roads = region(hexmap, west, passable=free, networks=["road"])
    ms = median_ms(lambda: region(hexmap, west, passable=free, networks=["road"]), 20)
    print(f"region from an edge along roads:     {ms:8.2f} ms  ({len(roads)} hexes)")
    ms = median_ms(lambda: region(hexmap, roads, passable=free, max_steps=7), 20)
    print(f"region 7 hexes from those roads:     {ms:8.2f} ms")
    east = frozenset(h for h in hexmap.ids if h.startswith("50"))
    ms = median_ms(lambda: trace(hexmap, "0115", east, network="railroad"), 20)
    print(f"trace along the railroad:            {ms:8.2f} ms")
    origin = next(h for h in west if h in free)
    ms = median_ms(lambda: trace(hexmap, origin, east, passable=free.__contains__), 20)
    n = len(trace(hexmap, origin, east, passable=free.__contains__) or ())
    print(f"trace overland to the other edge:    {ms:8.2f} ms  ({n} hexes)")
    table = {h: tuple(hexmap.neighbors(h)) for h in hexmap.ids}
    ms = median_ms(lambda: breadth_first(table, start, max_steps=15), 20)
    n = len(breadth_first(table, start, max_steps=15))
    print(f"breadth-first paths, 15 hexes:       {ms:8.2f} ms  ({n} hexes)")


if __name__ == "__main__":
    main()
