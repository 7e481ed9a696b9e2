"""Build scenarios/backhand-blow/map.toml from real geography (offline; floats allowed).

The rulebook pins one place: Kharkov is hex 2510 (2.2), at 8 km from hex side to hex side
(2.6).  Its other hex numbers are edges: the Soviet supply hexes 4100-4125 on the east edge
(7.0) and the entry hexes 3800, 4103 (north and east edge, Voronezh Front) and 4114, 4119
(east edge, Southwest Front) (11.1).  So the grid is laid north-up over the real area at
8 km per hex with Kharkov's centre in 2510: column 41 is then about 37.9 E, which puts the
Donets' bend at Izyum inside the map and its lower course on the east edge, as the
campaign's Donets line; the map runs from row 00 (about 50.7 N, Belgorod) to row 50
(about 47.1 N, the Sea of Azov's north coast) and from column 01 (about 33.9 E, the Dnepr
below Kremenchug) to 41.  The rivers, streams, roads, swamps and woods below are real
courses sampled by hand (lat, lon) from the 1:1,000,000 sheets; the game's printed map is
not available, so this is a stand-in map (docs/engines/backhand-blow.md says how to
replace it).

    python scenarios/backhand-blow/_build/make_map.py   # rewrites ../map.toml
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tools" / "maps"))

from hexgeo import center, hex_path, nearest  # noqa: E402

PARITY = "even"
COLS = (1, 41)
ROWS = (0, 50)
KM = 8.0
KHARKOV = (49.99, 36.23)
ANCHOR = (25, 10)


def to_hex_space(lat: float, lon: float) -> tuple[float, float]:
    x_km = (lon - KHARKOV[1]) * 111.32 * math.cos(math.radians((lat + KHARKOV[0]) / 2))
    y_km = (KHARKOV[0] - lat) * 110.57
    ax, ay = center(*ANCHOR, PARITY)
    return ax + x_km / KM, ay + y_km / KM


def hex_of(lat: float, lon: float) -> tuple[int, int]:
    c, r, _ = nearest(*to_hex_space(lat, lon), PARITY)
    return max(COLS[0], min(COLS[1], c)), max(ROWS[0], min(ROWS[1], r))


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def on_map(c: int, r: int) -> bool:
    return COLS[0] <= c <= COLS[1] and ROWS[0] <= r <= ROWS[1]


def neighbors(h: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = h
    shifted = c % 2 == 0
    if shifted:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [n for n in cand if on_map(*n)]


# --- real places (lat, lon) ------------------------------------------------------------

CITIES = {  # 2.42's city abbreviations: Bel, Cha, Dne, Polt, Sta, Zap
    "Kharkov": (49.99, 36.23),
    "Belgorod": (50.60, 36.59),
    "Poltava": (49.59, 34.55),
    "Dnepropetrovsk": (48.45, 35.05),
    "Zaporozhye": (47.84, 35.14),
    "Stalino": (48.00, 37.80),
}
TOWNS = {
    "Izyum": (49.21, 37.27), "Kupyansk": (49.71, 37.61), "Chuguev": (49.84, 36.69),
    "Balakleya": (49.46, 36.86), "Lozovaya": (48.89, 36.32), "Pavlograd": (48.53, 35.87),
    "Krasnograd": (49.37, 35.45), "Merefa": (49.82, 36.05), "Valki": (49.84, 35.62),
    "Bogodukhov": (50.16, 35.53), "Akhtyrka": (50.31, 34.90), "Slavyansk": (48.85, 37.60),
    "Kramatorsk": (48.73, 37.56), "Krasnoarmeiskoye": (48.28, 37.18),
    "Sinelnikovo": (48.32, 35.52), "Novomoskovsk": (48.63, 35.22),
    "Barvenkovo": (48.90, 37.02), "Volchansk": (50.29, 36.94), "Zmiev": (49.68, 36.35),
    "Kegichevka": (49.30, 35.77), "Karlovka": (49.46, 35.13), "Grishino": (48.30, 37.25),
    "Lyubotin": (49.95, 35.93),
}

RIVERS = {  # 16.722's River hexsides
    "Donets": [(50.80, 36.62), (50.60, 36.61), (50.30, 36.70), (50.08, 36.80), (49.84, 36.71),
               (49.68, 36.37), (49.53, 36.60), (49.46, 36.86), (49.40, 37.08), (49.21, 37.27),
               (49.04, 37.57), (48.97, 37.90), (48.93, 38.10)],
    "Dnepr": [(48.80, 33.75), (48.65, 34.33), (48.52, 34.80), (48.45, 35.05), (48.20, 35.15),
              (47.84, 35.14), (47.70, 34.80), (47.57, 34.40), (47.48, 34.00), (47.45, 33.70)],
    "Oskol": [(50.85, 37.85), (50.30, 37.75), (49.71, 37.61), (49.40, 37.55), (49.15, 37.35)],
}
STREAMS = {  # 16.721's Stream hexsides
    "Vorskla": [(50.80, 35.70), (50.50, 35.20), (50.30, 34.90), (49.90, 34.70), (49.59, 34.58),
                (49.30, 34.30), (49.05, 34.00), (48.95, 33.70)],
    "Orel": [(49.65, 36.45), (49.45, 35.80), (49.35, 35.30), (49.10, 34.90), (48.80, 34.70),
             (48.58, 34.75)],
    "Samara": [(48.55, 37.00), (48.60, 36.50), (48.53, 35.90), (48.55, 35.40),
               (48.52, 35.10)],
    "Volchya": [(48.05, 37.10), (48.20, 36.60), (48.40, 36.20), (48.52, 35.95)],
    "Berestovaya": [(49.55, 36.10), (49.30, 35.95), (49.00, 35.75), (48.70, 35.60),
                    (48.55, 35.45)],
    "Udy": [(50.40, 36.20), (50.05, 36.25), (49.80, 36.30), (49.70, 36.34)],
    "Mzha": [(49.90, 35.40), (49.80, 35.90), (49.72, 36.30)],
    "Kazenny Torets": [(48.10, 37.30), (48.50, 37.45), (48.73, 37.56), (48.95, 37.55)],
    "Krasnaya": [(50.10, 37.40), (49.60, 37.30), (49.22, 37.30)],
}
ROADS = [  # 15.32's roads: the main chaussées between the cities and towns
    ("Belgorod", "Kharkov"), ("Kharkov", "Lyubotin"), ("Lyubotin", "Valki"),
    ("Valki", "Poltava"), ("Kharkov", "Merefa"), ("Merefa", "Krasnograd"),
    ("Krasnograd", "Karlovka"), ("Karlovka", "Poltava"), ("Merefa", "Lozovaya"),
    ("Lozovaya", "Pavlograd"), ("Pavlograd", "Novomoskovsk"), ("Novomoskovsk", "Dnepropetrovsk"),
    ("Dnepropetrovsk", "Zaporozhye"), ("Pavlograd", "Sinelnikovo"), ("Sinelnikovo", "Zaporozhye"),
    ("Lozovaya", "Barvenkovo"), ("Barvenkovo", "Slavyansk"), ("Slavyansk", "Kramatorsk"),
    ("Kramatorsk", "Krasnoarmeiskoye"), ("Krasnoarmeiskoye", "Stalino"),
    ("Kharkov", "Chuguev"), ("Chuguev", "Balakleya"), ("Balakleya", "Izyum"),
    ("Kharkov", "Volchansk"), ("Chuguev", "Kupyansk"), ("Kharkov", "Bogodukhov"),
    ("Bogodukhov", "Akhtyrka"), ("Krasnoarmeiskoye", "Grishino"),
]
SWAMPS = [  # floodplain swamps of the Donets, the Samara and the Dnepr
    (49.60, 36.45), (49.30, 37.15), (49.08, 37.45), (48.58, 35.30), (47.70, 34.90),
    (49.00, 37.75),
]
WOODS = [
    (49.70, 36.50), (49.15, 37.45), (50.20, 36.40), (49.95, 36.70), (49.35, 36.95),
    (50.45, 36.30), (48.70, 35.30),
]
SEA = [(47.10, 36.00), (47.05, 37.60), (47.20, 38.20)]  # the Sea of Azov's north shore


def crosses(p1: tuple[float, float], p2: tuple[float, float], q1: tuple[float, float],
            q2: tuple[float, float]) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def all_pairs() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    out = []
    for c in range(COLS[0], COLS[1] + 1):
        for r in range(ROWS[0], ROWS[1] + 1):
            for n in neighbors((c, r)):
                if (c, r) < n:
                    out.append(((c, r), n))
    return out


def sides_of(course: list[tuple[float, float]]) -> list[str]:
    pts = [to_hex_space(*p) for p in course]
    out = []
    for a, b in all_pairs():
        ca, cb = center(*a, PARITY), center(*b, PARITY)
        if any(crosses(ca, cb, pts[i], pts[i + 1]) for i in range(len(pts) - 1)):
            out.append(f"{hid(*a)}/{hid(*b)}")
    return sorted(out)


def build() -> str:
    """The text of map.toml."""
    cities = {name: hex_of(*ll) for name, ll in CITIES.items()}
    assert cities["Kharkov"] == ANCHOR, cities["Kharkov"]
    towns = {}
    for name, ll in TOWNS.items():
        h = hex_of(*ll)
        if h not in cities.values() and h not in towns.values():
            towns[name] = h
    terrain = {(c, r): "." for c in range(COLS[0], COLS[1] + 1)
               for r in range(ROWS[0], ROWS[1] + 1)}
    # the sea: south of the shore line through SEA
    shore = [to_hex_space(*p) for p in SEA]
    for (c, r) in terrain:
        x, y = center(c, r, PARITY)
        for i in range(len(shore) - 1):
            (x0, y0), (x1, y1) = shore[i], shore[i + 1]
            if x0 <= x <= x1 and y > y0 + (y1 - y0) * (x - x0) / (x1 - x0):
                terrain[(c, r)] = "~"
    for ll in SWAMPS:
        terrain[hex_of(*ll)] = "s"
    for ll in WOODS:
        terrain[hex_of(*ll)] = "f"
    for h in cities.values():
        terrain[h] = "C"
    rivers = sorted({s for course in RIVERS.values() for s in sides_of(course)})
    streams = sorted({s for course in STREAMS.values() for s in sides_of(course)} - set(rivers))
    road_links: set[str] = set()
    chains = []
    named = {**cities, **towns}
    for a, b in ROADS:
        path = hex_path(named[a], named[b], PARITY, lambda h: terrain[h] != "~", neighbors)
        chains.append(" ".join(hid(*h) for h in path))
        for i in range(len(path) - 1):
            x, y = sorted((hid(*path[i]), hid(*path[i + 1])))
            road_links.add(f"{x}/{y}")
    bridges = sorted(s for s in road_links if s in set(rivers))
    # west of the Donets (18.1, 18.2): every hex reachable from the west edge without
    # crossing the Donets
    donets = set(sides_of(RIVERS["Donets"]))
    seen = {(1, r) for r in range(ROWS[0], ROWS[1] + 1)}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in neighbors(h):
            key = "/".join(sorted((hid(*h), hid(*n))))
            if n not in seen and key not in donets:
                seen.add(n)
                todo.append(n)
    west = sorted(hid(*h) for h in seen if terrain[h] != "~")
    lines = ['# generated by scenarios/backhand-blow/_build/make_map.py: edit the builder',
             '[map]', 'title = "Von Manstein\'s Backhand Blow (southern Russia, 8 km per hex)"',
             f'offset = "{PARITY}"', f"cols = [{COLS[0]}, {COLS[1]}]",
             f"rows = [{ROWS[0]}, {ROWS[1]}]",
             'stand_in = "the printed map is not in the rulebook text: built from real '
             'geography at 8 km per hex with Kharkov in 2510 (2.2)"', "",
             "[map.legend]",
             '"." = { name = "clear", color = "#e8e0c0" }',
             '"f" = { name = "woods", color = "#6a9a5a", glyph = "f" }',
             '"s" = { name = "swamp", color = "#8fb0a0", glyph = "s" }',
             '"C" = { name = "city", color = "#b08070", glyph = "C" }',
             '"~" = { name = "sea", color = "#6090d0", glyph = "~" }', "",
             "[map.terrain]", 'by = "row"', 'grid = """']
    for r in range(ROWS[0], ROWS[1] + 1):
        lines.append(f"{r:02d} " + "".join(terrain[(c, r)] for c in range(COLS[0], COLS[1] + 1)))
    lines += ['"""', "", "[map.places]"]
    for name, h in sorted(named.items()):
        lines.append(f'"{name}" = "{hid(*h)}"')
    lines.append('"Voronezh Front entry" = ["3800", "4103"]')
    lines.append('"Southwest Front entry" = ["4114", "4119"]')
    lines += ["", "[map.hex_features]",
              "city = [" + ", ".join(f'"{hid(*h)}"' for _, h in sorted(cities.items())) + "]",
              "", "[map.areas]", 'soviet_supply = ["4100-4125"]',
              'west_edge = ["0100-0150"]', "west_of_donets = ["]
    for i in range(0, len(west), 12):
        lines.append("    " + ", ".join(f'"{h}"' for h in west[i:i + 12]) + ",")
    lines += ["]", "", "[map.hexsides]", "river = ["]
    lines += [f'    "{s}",' for s in rivers]
    lines += ["]", "stream = ["]
    lines += [f'    "{s}",' for s in streams]
    lines += ["]", "bridge = ["]
    lines += [f'    "{s}",' for s in bridges]
    lines += ["]", "", "[map.networks]", "road = ["]
    lines += [f'    "{c}",' for c in chains]
    lines += ["]", "", "[map.styles]", 'river = "#2050c0"', 'stream = "#70a0e0"',
              'bridge = "#404040"', 'road = "#a06030"', ""]
    return "\n".join(lines)


def main() -> None:
    (HERE.parent / "map.toml").write_text(build(), encoding="utf-8")


if __name__ == "__main__":
    main()
