"""Build ``scenarios/48th-panzer-korps/map.toml``: the lower Chir at one mile per hex.

Offline, standard library only::

    python tools/maps/build_panzer48.py            # writes the map
    python tools/maps/build_panzer48.py --check    # prints the terrain grid only

The article (CounterAttack #3, 1991) names six places with their hex numbers but prints no
map.  The grid is laid over the real area: a similarity transform (rotation, scale,
shift) fitted to the two towns whose positions are sure, Surovikino (3508) and Nizhne
Chirskaya (4925), from a local equirectangular projection.  It comes out north up at
1.02 miles per hex, as the article's scale says (2.3: one mile per hex), which is the
check that the hex numbers and the real towns agree.  The Chir and the Don are traced
from approximate coordinates (a few points each, read off a 1:200,000 sheet by eye:
they are approximations, within a mile or two); a hexside is a river where the segment
between the two hex centres crosses the traced line.  The other four villages are small
and their coordinates unsure: they sit at the article's hexes, which is what the rules
need.  The Don floodplain (2.2 design note: broken terrain) is every hex within 1.6
miles of the Don plus the confluence triangle; the high ground and slopes, the streams
and the roads are stand-ins placed where the article's narrative puts them.
"""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hexgeo as H

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "scenarios" / "48th-panzer-korps" / "map.toml"
PARITY = "even"
COLS, ROWS = 60, 36
LAT0, LON0 = 48.5, 43.0
MILE_KM = 1.609

# (lat, lon) of the anchors and their hexes (the article's section 10)
ANCHORS = {
    "Surovikino": ((48.607, 42.850), "3508"),
    "Nizhne Chirskaya": ((48.365, 43.102), "4925"),
}
# the article's hexes, places without sure coordinates
PLACES = {
    "Surovikino": "3508",
    "Novomaksimovskiy": "5217",
    "Sovkhoz 79": "2623",
    "Verkhne Aksenovskiy": "2226",
    "Verkhne Solonovskiy": "3425",
    "Nizhne Chirskaya": "4925",
}
# the rivers, west/north to east/south, (lat, lon)
CHIR = [(48.560, 42.100), (48.575, 42.350), (48.600, 42.600), (48.622, 42.780),
        (48.622, 42.870), (48.590, 42.930), (48.545, 42.985), (48.500, 43.020),
        (48.450, 43.045), (48.405, 43.080), (48.375, 43.125), (48.368, 43.150)]
DON = [(48.760, 43.420), (48.680, 43.360), (48.600, 43.300), (48.520, 43.245),
       (48.450, 43.205), (48.395, 43.165), (48.368, 43.150), (48.330, 43.110),
       (48.290, 43.050), (48.250, 42.985), (48.200, 42.930)]
# streams (stand-ins: a creek at Verkhne Solonovskiy, one through Verkhne Aksenovskiy)
STREAMS = {
    "solonaya": [(48.330, 42.960), (48.380, 42.985), (48.440, 43.020)],
    "aksenovka": [(48.330, 42.700), (48.385, 42.740), (48.450, 42.790), (48.520, 42.820)],
}
# high ground (stand-in): hex centres and radius in hexes
HIGH = [("2830", 3), ("1616", 3), ("4011", 2)]
# roads as chains of hexes (place to place or edge); the builder lays the hexes between
ROADS = [
    ["0110", "1212", "2414", "3508"],            # Oblivskaya road from the west edge
    ["3508", "3501"],                            # north to the Soviet rear
    ["3508", "4414", "5217", "6020"],            # the railway road to Chir station, east
    ["3508", "3215", "3425", "4925"],            # along the Chir's right bank
    ["4925", "5227", "6030"],                    # over the Don to Rychkovsky
    ["4925", "4436"],                            # south across the Don (Tormosin road)
    ["3508", "2616", "2226", "2236"],            # Surovikino - Verkhne Aksenovskiy - south
    ["2226", "2623", "3425", "3436"],            # Sovkhoz 79 - Verkhne Solonovskiy - south
    ["1212", "1401", ],                          # north to the Soviet rear (west)
    ["2414", "2401"],
    ["2226", "1136"],
]


def fit() -> tuple[float, float, float, float]:
    """Similarity transform local km -> hex space: x' = a x - b y + tx, y' = b x + a y + ty."""
    (p1, h1), (p2, h2) = ANCHORS["Surovikino"], ANCHORS["Nizhne Chirskaya"]
    s1 = H.local_km(*p1, LAT0, LON0)
    s2 = H.local_km(*p2, LAT0, LON0)
    s1 = (s1[0], -s1[1])  # y grows south in hex space
    s2 = (s2[0], -s2[1])
    d1 = H.center(int(h1[:2]), int(h1[2:]), PARITY)
    d2 = H.center(int(h2[:2]), int(h2[2:]), PARITY)
    sx, sy = s2[0] - s1[0], s2[1] - s1[1]
    dx, dy = d2[0] - d1[0], d2[1] - d1[1]
    den = sx * sx + sy * sy
    a = (dx * sx + dy * sy) / den
    b = (dy * sx - dx * sy) / den
    return a, b, d1[0] - (a * s1[0] - b * s1[1]), d1[1] - (b * s1[0] + a * s1[1])


A, B, TX, TY = fit()


def to_hex(lat: float, lon: float) -> H.Point:
    x, y = H.local_km(lat, lon, LAT0, LON0)
    y = -y
    return (A * x - B * y + TX, B * x + A * y + TY)


def on_grid(c: int, r: int) -> bool:
    return 1 <= c <= COLS and 1 <= r <= ROWS


def neighbors(c: int, r: int) -> list[tuple[int, int]]:
    if c % 2 == 0:
        cand = [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
    else:
        cand = [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]
    return [x for x in cand if on_grid(*x)]


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def _cross(p: H.Point, q: H.Point, a: H.Point, b: H.Point) -> bool:
    def orient(u: H.Point, v: H.Point, w: H.Point) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    return (orient(p, q, a) * orient(p, q, b) < 0) and (orient(a, b, p) * orient(a, b, q) < 0)


def crossed_sides(line: list[tuple[float, float]]) -> list[tuple[str, str]]:
    pts = [to_hex(*p) for p in line]
    out = []
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            for n in neighbors(c, r):
                if (n[0], n[1]) <= (c, r):
                    continue
                p, q = H.center(c, r, PARITY), H.center(*n, PARITY)
                if any(_cross(p, q, a, b) for a, b in itertools.pairwise(pts)):
                    out.append((hid(c, r), hid(*n)))
    return sorted(out)


def dist_to_line(pt: H.Point, line: list[tuple[float, float]]) -> float:
    pts = [to_hex(*p) for p in line]
    return min(H.seg_dist(pt, a, b) for a, b in itertools.pairwise(pts))


def hex_chain(a: str, b: str) -> list[str]:
    path = H.hex_path(parse(a), parse(b), PARITY, lambda h: on_grid(*h), lambda h: neighbors(*h))
    return [hid(*h) for h in path]


def side_of_line(pt: H.Point, line: list[tuple[float, float]]) -> int:
    """+1 right of the line walking downstream (south/west bank of the Chir), -1 left."""
    pts = [to_hex(*p) for p in line]
    best = min(itertools.pairwise(pts), key=lambda s: H.seg_dist(pt, s[0], s[1]))
    (ax, ay), (bx, by) = best
    cross = (bx - ax) * (pt[1] - ay) - (by - ay) * (pt[0] - ax)
    return 1 if cross > 0 else -1


def build() -> str:
    cells = [(c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1)]
    terrain: dict[str, str] = {}
    for c, r in cells:
        pt = H.center(c, r, PARITY)
        t = "c"
        if dist_to_line(pt, DON) <= 1.6:
            t = "b"
        terrain[hid(c, r)] = t
    high: set[str] = set()
    for h, rad in HIGH:
        hc = H.center(*parse(h), PARITY)
        for c, r in cells:
            if math.dist(H.center(c, r, PARITY), hc) <= rad + 0.1 and terrain[hid(c, r)] == "c":
                high.add(hid(c, r))
    for h in high:
        terrain[h] = "h"
    chir = crossed_sides(CHIR)
    don = crossed_sides(DON)
    # the Chir below its junction with the Don is the Don
    chir = [s for s in chir if s not in don]
    streams = sorted({s for pts in STREAMS.values() for s in crossed_sides(pts)}
                     - set(chir) - set(don))
    # the German side of the starting front (9): south and west of the Chir, and west of
    # the Don; the Soviet bridgeheads (stand-in) are the Chir's bends at 3006-3207
    german: set[str] = set()
    for c, r in cells:
        pt = H.center(c, r, PARITY)
        west_of_don = side_of_line(pt, DON) > 0
        # the Chir's right bank, and the land between the Chir and the Don below
        # Novomaksimovskiy that the Germans held (the Chir station bridgehead)
        if west_of_don and (side_of_line(pt, CHIR) > 0 or r >= 15):
            german.add(hid(c, r))
    # the German bridgehead over the Don at Rychkovsky (its two bridge hexes, 10)
    roads: list[list[str]] = []
    for chain in ROADS:
        hexes: list[str] = [chain[0]]
        for a, b in itertools.pairwise(chain):
            hexes += hex_chain(a, b)[1:]
        roads.append(hexes)
    bridges, don_bridges = [], []
    chir_set, don_set, stream_set = set(chir), set(don), set(streams)
    for chain in roads:
        for a, b in itertools.pairwise(chain):
            s = tuple(sorted((a, b)))
            if s in chir_set or s in don_set:
                (don_bridges if s in don_set else bridges).append(s)
            elif s in stream_set:
                bridges.append(s)
    for a, b in don_bridges:
        german.add(a)
        german.add(b)
    front_g = sorted(h for h in german if any(hid(*n) not in german for n in neighbors(*parse(h))))
    front_s = sorted(h for h in terrain if h not in german
                     and any(hid(*n) in german for n in neighbors(*parse(h))))
    south_exits = sorted({ch[-1] for ch in roads if parse(ch[-1])[1] == ROWS
                          and ch[-1] in german})
    slope = []
    for h in sorted(high):
        for n in neighbors(*parse(h)):
            if hid(*n) not in high:
                slope.append(f"{hid(*n)}->{h}")

    def lst(xs: list[str]) -> str:
        out, line = [], "  "
        for x in xs:
            item = f'"{x}", '
            if len(line) + len(item) > 92:
                out.append(line.rstrip())
                line = "  "
            line += item
        out.append(line.rstrip())
        return "[\n" + "\n".join(out) + "\n]"

    rows = "\n".join(f"{r:02d} " + "".join(terrain[hid(c, r)] for c in range(1, COLS + 1))
                     for r in range(1, ROWS + 1))
    places = "\n".join(f'"{n}" = "{h}"' for n, h in PLACES.items())
    lines = [
        "# 48th Panzer Korps - the lower Chir and the Don, December 1942, one mile per hex.",
        "# GENERATED by tools/maps/build_panzer48.py; edit the tables there and rebuild.",
        "# How it was made: docs/engines/48th-panzer-korps.md (The map).",
        "",
        "[map]",
        'title = "48th Panzer Korps: the River Chir, December 1942"',
        'offset = "even"',
        f"cols = [1, {COLS}]",
        f"rows = [1, {ROWS}]",
        'stand_in = "The article prints no map. The grid is fitted to Surovikino (3508) and '
        'Nizhne Chirskaya (4925), north up at one mile per hex; the Chir and the Don follow '
        'approximate real courses; the floodplain, high ground, streams, roads, setup and '
        'entry areas are stand-ins placed where the article puts them."',
        "",
        "[map.legend]",
        '"c" = { name = "clear", color = "#e8e4d0", glyph = " " }',
        '"b" = { name = "broken", color = "#9fb89a", glyph = "%" }',
        '"h" = { name = "high", color = "#d8c8a0", glyph = "^" }',
        "",
        "[map.terrain]",
        'by = "row"',
        f'grid = """\n{rows}\n"""',
        "",
        "[map.hex_features]",
        f"village = {lst(sorted(PLACES.values()))}",
        "",
        "[map.places]",
        places,
        "",
        "[map.areas]",
        f"german_side = {lst(sorted(german))}",
        f"front_german = {lst(front_g)}",
        f"front_soviet = {lst(front_s)}",
        f"south_exit = {lst(south_exits)}",
        "",
        "[map.hexsides]",
        f"river = {lst([f'{a}/{b}' for a, b in sorted(set(chir) | set(don))])}",
        f"don = {lst([f'{a}/{b}' for a, b in don])}",
        f"stream = {lst([f'{a}/{b}' for a, b in streams])}",
        f"bridge = {lst([f'{a}/{b}' for a, b in sorted(set(bridges))])}",
        f"river_bridge = {lst([f'{a}/{b}' for a, b in sorted(set(don_bridges))])}",
        f"slope = {lst(slope)}",
        "",
        "[map.networks]",
        f"road = {lst([' '.join(ch) for ch in roads])}",
        "",
        "[map.styles]",
        'river = "#3a6fb0"',
        'stream = "#6a9fd0"',
        'road = "#8a5a2a"',
        "",
        "[map_info]",
        f"fit = [{A:.6f}, {B:.6f}, {TX:.4f}, {TY:.4f}]",
        f"miles_per_hex = {1 / (math.hypot(A, B) * MILE_KM):.3f}",
        f"don_bridges = {lst([f'{a}/{b}' for a, b in sorted(set(don_bridges))])}",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = build()
    if "--check" in sys.argv:
        print(text.split('grid = """')[1].split('"""')[0])
    else:
        OUT.write_text(text)
        print(f"wrote {OUT.relative_to(ROOT)}; fit {A:.4f} {B:.4f}, "
              f"{1 / (math.hypot(A, B) * MILE_KM):.3f} miles per hex")
