"""Build ``scenarios/mortain/map.toml``: the Mortain area, August 1944.

Offline, standard library only::

    python tools/maps/build_mortain.py            # writes the map, prints a preview
    python tools/maps/build_mortain.py --check    # preview only, exit 1 if the file differs

The grid: 32 columns by 21 rows of flat-top hexes, north up, column 01 on the west edge
(toward Avranches), row 01 on the north edge; even columns are pushed half a hex down
(even-q).  Places are projected from their real latitude and longitude (local
equirectangular projection, 73.55 km per degree of longitude at 48.65N, 110.57 km per
degree of latitude) at one kilometre across the flats per hex, with Mortain's centre put
at the middle of the book's three town hexes (2514, 2515, 2414, rule 19.0).  The book
names only Mortain and Hill 317 (2815, rule 15.0) among real places: both are pinned, and
the real Hill 314 (1.3 km east of Mortain, 2 hexes on this grid) is moved one hex east
to 2815.  The supply symbols (0102, 3212, rule 12.0) and the entry range 3201-3221
(rule 11.1) are on the edges where the book puts them.  Everything else is a stand-in
placed from real geography: the Sée from its source near Sourdeval west past
Chérencé-le-Roussel, Cuves and Brécey; the roads between the towns; bocage (hedgerow)
everywhere but the open valley floor of the Sée; the Forêt de Mortain and the woods of
La Lande-Pourrie; the Mortain ridge and the heights south of Sourdeval.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "scenarios" / "mortain" / "map.toml"
COLS, ROWS = 32, 21
KM_PER_LON, KM_PER_LAT, KM_PER_HEX = 73.55, 110.57, 1.0
MORTAIN = (48.6486, -0.9406)
#: the centre of 2414/2514/2515 in hex space (columns 0.866 km apart, rows 1 km)
MORTAIN_HEX = (24.67, 14.67)

#: real places (lat, lon); pinned ones carry the book's hex instead of a projection
PLACES: dict[str, tuple[float, float] | str] = {
    "Mortain": "2514 2515 2414",           # 19.0
    "Hill 317": "2815",                    # 15.0
    "Cuves": (48.700, -1.109),
    "Brecey": (48.724, -1.166),
    "Saint-Pois": (48.752, -1.063),
    "Sourdeval": (48.723, -0.922),
    "Saint-Barthelemy": (48.673, -0.965),
    "Le Mesnil-Tove": (48.688, -1.028),
    "Cherence-le-Roussel": (48.708, -1.026),
    "Juvigny-le-Tertre": (48.676, -1.077),
    "Reffuveille": (48.667, -1.118),
    "Romagny": (48.635, -0.963),
    "Le Neufbourg": (48.658, -0.945),
}

#: the Sée, east to west (its source inside the map near Sourdeval)
SEE = [(48.716, -0.86), (48.712, -0.92), (48.705, -0.98), (48.708, -1.026),
       (48.700, -1.109), (48.724, -1.166), (48.731, -1.22)]

#: roads and trails as chains of places or hexes (straight hex lines between them)
ROADS = [
    ["US supply", "0304", "Brecey", "Cuves", "Cherence-le-Roussel", "Sourdeval", "2601"],
    ["Saint-Pois", "Cuves", "Reffuveille", "0921"],
    ["Sourdeval", "Le Neufbourg", "2514"],
    ["0113", "Juvigny-le-Tertre", "Saint-Barthelemy", "2414"],
    ["2515", "Romagny", "2221"],
    ["2514", "2713", "German supply"],
    ["Sourdeval", "3206"],
]
TRAILS = [
    ["Saint-Barthelemy", "Le Mesnil-Tove", "Cherence-le-Roussel"],
    ["Juvigny-le-Tertre", "Le Mesnil-Tove"],
    ["Romagny", "Juvigny-le-Tertre"],
    ["Saint-Barthelemy", "Sourdeval"],
    ["2515", "Hill 317", "3217"],
    ["Brecey", "0111"],
]
SUPPLY = {"US supply": "0102", "German supply": "3212"}  # 12.0

#: woods, heights (both: woods-hill), as (col0, row0, col1, row1) boxes of hexes
WOODS = [(27, 16, 32, 20), (29, 8, 32, 11), (18, 17, 20, 19), (6, 14, 8, 16)]
HEIGHTS = [(24, 13, 30, 18), (25, 3, 29, 5), (20, 11, 22, 12), (4, 1, 6, 3)]


def hex_id(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def project(lat: float, lon: float) -> tuple[int, int]:
    x = (lon - MORTAIN[1]) * KM_PER_LON / KM_PER_HEX / 0.866
    y = (MORTAIN[0] - lat) * KM_PER_LAT / KM_PER_HEX
    c = round(MORTAIN_HEX[0] + x)
    r = round(MORTAIN_HEX[1] + y - (0.5 if c % 2 == 0 else 0))
    return max(1, min(COLS, c)), max(1, min(ROWS, r))


def neighbors(c: int, r: int) -> list[tuple[int, int]]:
    if c % 2 == 0:
        cand = [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
    else:
        cand = [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]
    return [(a, b) for a, b in cand if 1 <= a <= COLS and 1 <= b <= ROWS]


def to_cube(c: int, r: int) -> tuple[int, int, int]:
    q = c
    rr = r - (c + (c & 1)) // 2
    return q, rr, -q - rr


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    x, y = to_cube(*a), to_cube(*b)
    return max(abs(x[i] - y[i]) for i in range(3))


def line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """A chain of adjacent hexes from a to b: greedy steps toward b, ties to the lowest id."""
    out = [a]
    while out[-1] != b:
        here = out[-1]
        best = min(neighbors(*here), key=lambda n: (distance(n, b), hex_id(*n)))
        out.append(best)
    return out


def place_hexes() -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for name, where in PLACES.items():
        if isinstance(where, str):
            out[name] = [(int(h[:2]), int(h[2:])) for h in where.split()]
        else:
            out[name] = [project(*where)]
    for name, h in SUPPLY.items():
        out[name] = [(int(h[:2]), int(h[2:]))]
    return out


def river_rows() -> dict[int, int]:
    """Per column west of the source, the last row north of the Sée."""
    pts = [(MORTAIN_HEX[0] + (lon - MORTAIN[1]) * KM_PER_LON / 0.866,
            MORTAIN_HEX[1] + (MORTAIN[0] - lat) * KM_PER_LAT) for lat, lon in SEE]
    pts.sort()
    rows: dict[int, int] = {}
    for c in range(1, COLS + 1):
        if c > pts[-1][0]:
            break
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            if x0 <= c <= x1 or (c < x0 and (x0, y0) == pts[0]):
                t = 0 if x1 == x0 else (c - x0) / (x1 - x0)
                y = y0 + max(0.0, min(1.0, t)) * (y1 - y0)
                rows[c] = int(y - (0.5 if c % 2 == 0 else 0))
                break
    return rows


def build() -> str:
    places = place_hexes()
    north = river_rows()
    river_sides: set[tuple[str, str]] = set()
    for c, last in north.items():
        for r in range(1, last + 1):
            for n in neighbors(c, r):
                if n[0] in north and n[1] > north[n[0]]:
                    a, b = sorted((hex_id(c, r), hex_id(*n)))
                    river_sides.add((a, b))

    def chains(specs: list[list[str]]) -> list[list[tuple[int, int]]]:
        out = []
        for spec in specs:
            pts = [places[s][0] if s in places else (int(s[:2]), int(s[2:])) for s in spec]
            chain = [pts[0]]
            for p in pts[1:]:
                chain += line(chain[-1], p)[1:]
            out.append(chain)
        return out

    roads, trails = chains(ROADS), chains(TRAILS)
    on_net = {h for ch in roads + trails for h in ch}
    bridges = set()
    for ch in roads + trails:
        for a, b in itertools.pairwise(ch):
            side = tuple(sorted((hex_id(*a), hex_id(*b))))
            if side in river_sides:
                bridges.add(side)
    near_river = {h for side in river_sides for h in side}

    def in_box(c: int, r: int, boxes: list[tuple[int, int, int, int]]) -> bool:
        return any(c0 <= c <= c1 and r0 <= r <= r1 for c0, r0, c1, r1 in boxes)

    town = {h for name, hs in places.items() if "supply" not in name and name != "Hill 317"
            for h in hs}
    grid_lines = []
    for r in range(1, ROWS + 1):
        row = ""
        for c in range(1, COLS + 1):
            h = hex_id(c, r)
            if (c, r) == places["Hill 317"][0]:
                ch = "p"
            elif (c, r) in town:
                ch = "t"
            elif in_box(c, r, WOODS) and in_box(c, r, HEIGHTS):
                ch = "W"
            elif in_box(c, r, WOODS):
                ch = "w"
            elif in_box(c, r, HEIGHTS):
                ch = "h"
            elif h in near_river and (c, r) not in on_net:
                ch = "c"
            else:
                ch = "g"
            row += ch
        grid_lines.append(f"{r:02d} {row}")

    def fmt_chain(ch: list[tuple[int, int]]) -> str:
        return '"' + " ".join(hex_id(*h) for h in ch) + '"'

    us_area, see_north = [], []
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            if c <= start_line_col(r):
                us_area.append(hex_id(c, r))
                if c in north and r <= north[c]:
                    see_north.append(hex_id(c, r))
    out = [
        "# Mortain Counterattack - the Mortain area, 6-12 August 1944, about 1 km per hex.",
        "# GENERATED by tools/maps/build_mortain.py; edit the tables there and rebuild.",
        "# Hexes the book names: Mortain 2514 2515 2414 (19.0), Hill 317 2815 (15.0),",
        "# supply symbols 0102 (US) and 3212 (German) (12.0), German entry 3201-3221 (11.1).",
        "",
        "[map]",
        'title = "Mortain Counterattack: Mortain, August 1944"',
        'offset = "even"   # even columns are pushed half a hex down',
        "cols = [1, 32]",
        "rows = [1, 21]",
        'stand_in = "The map is not in the text: the grid is laid over the real area at about '
        "1 km per hex, pinned to the hexes the book names (Mortain 2514/2515/2414, Hill 317 2815, "
        "supply 0102 and 3212, entry 3201-3221); the See, towns and roads follow real geography, "
        'woods, heights and hedgerows are stand-ins placed by hand in the builder."',
        "",
        "[map.legend]",
        '"g" = { name = "hedgerow", color = "#b8c890", glyph = "%" }',
        '"c" = { name = "clear", color = "#e8e4c8", glyph = " " }',
        '"w" = { name = "woods", color = "#6f9a5e", glyph = "^" }',
        '"h" = { name = "hill", color = "#c8a878", glyph = "n" }',
        '"W" = { name = "woods-hill", color = "#4f7a4e", glyph = "A" }',
        '"p" = { name = "peak", color = "#a07040", glyph = "P" }',
        '"t" = { name = "town", color = "#b0a090", glyph = "#" }',
        "",
        "[map.terrain]",
        'by = "row"',
        'grid = """',
        *grid_lines,
        '"""',
        "",
        "[map.places]",
        *[f'"{name}" = [{", ".join(chr(34) + hex_id(*h) + chr(34) for h in hs)}]'
          for name, hs in sorted(places.items())],
        "",
        "[map.areas]",
        "# 13.0: the hexes northwest of the start line (the red line, a stand-in here)",
        f"us_setup = [{', '.join(chr(34) + h + chr(34) for h in us_area)}]",
        "# 13.0: north of the See River and west of the set-up line (the 9th Infantry)",
        f"see_north = [{', '.join(chr(34) + h + chr(34) for h in see_north)}]",
        '# 11.1: the German entry range on the east edge; 19.0: the west edge',
        'german_entry = ["3201-3221"]',
        'west_edge = ["0101-0121"]',
        "",
        "[map.hexsides]",
        "# 14.2: the See River, and its bridges where a road or trail crosses",
        "see = [" + ", ".join(f'"{a}/{b}"' for a, b in sorted(river_sides)) + "]",
        "bridge = [" + ", ".join(f'"{a}/{b}"' for a, b in sorted(bridges)) + "]",
        "",
        "[map.networks]",
        "road = [" + ", ".join(fmt_chain(ch) for ch in roads) + "]",
        "trail = [" + ", ".join(fmt_chain(ch) for ch in trails) + "]",
        "",
        "[map.styles]",
        'see = "#3060c0"',
        'bridge = "#202020"',
        'road = "#a03020"',
        'trail = "#806040"',
        "",
    ]
    return "\n".join(out)


def start_line_col(r: int) -> int:
    """13.0's start line (stand-in): the easternmost US column on each row.  It runs from
    the north edge east of Sourdeval's heights, bends east round Hill 317 (2815, which the
    30th Infantry held on Aug. 6th) and back south-west below Mortain."""
    if r <= 12:
        return 27
    if r <= 16:
        return 29
    return 29 - 2 * (r - 16)


def main() -> int:
    text = build()
    if "--check" in sys.argv:
        same = OUT.exists() and OUT.read_text() == text
        print("map.toml is up to date" if same else "map.toml differs from the builder")
        return 0 if same else 1
    OUT.write_text(text)
    for line_ in text.split('grid = """\n')[1].split('"""')[0].splitlines():
        print(line_)
    return 0


if __name__ == "__main__":
    sys.exit(main())
