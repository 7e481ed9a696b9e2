"""Build ``scenarios/for-the-motherland/map.toml`` from real geography.

Offline, standard library only::

    python tools/maps/build_motherland.py            # writes the map and prints a preview
    python tools/maps/build_motherland.py --check    # only prints fit, residuals, preview

Method (see docs/engines/for-the-motherland-map.md):

1. Fit an affine transform from a local equirectangular projection (km east/north of
   52N 30E) to hex space, by least squares on the nine hexes the book prints.
2. Classify every hex from GSHHS land/lake polygons (37 sample points per hex), then
   swamp/woods polygons and mountain crests from ``geo_motherland``.
3. Snap every place to its nearest hex (anchors to the printed hex), then apply the
   hand adjustments listed in ``ADJUST`` (each with its reason).
4. Rivers: a walk along hex corners that hugs the real course, kept where it separates
   two land hexes; railroads: least-cost chains of land hexes through real junctions.
5. Apply the rulebook's special hexes and hexsides, areas and supply edges.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import itertools

import geo_motherland as G
import hexgeo as H

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "scenarios" / "for-the-motherland" / "map.toml"
PARITY = "even"
COLS = (1, 28)
ROWS = (1, 35)
LAT0, LON0 = 52.0, 30.0
SIGMA = 2.0  # width of the rubber-sheet correction around the anchors, in hexes
#: a hex at least this much lake (by area) is a lake hex even when half of it is land
#: (Lake Peipus, Lake Onega)
LAKE_SHARE = 0.42
#: lakes smaller than a hex, drawn as a lake hexside between the two shores
LAKE_SIDES = {"1707/1708": "Lake Ilmen, between Novgorod and Staraya Russa"}

# --- hand adjustments: place key -> (hex, reason) ----------------------------------------
ADJUST: dict[str, tuple[str, str]] = {
    "sevastopol": ("0926", "fitted hex; a third land (the Chersonese tip), made land for the port"),
    "odessa": ("0722", "the fitted hex 0723 is three-quarters sea: the coastal hex beside it"),
    "memel": ("0606", "fitted hex; a third land (the Memel coast), made land for the port"),
    "kerch": ("1227", "the book's Kerch Strait is 1227/1327: Kerch is on the Crimean side"),
}

# --- water and terrain ---------------------------------------------------------------------


def fit() -> tuple[list[float], list[float], dict[str, float]]:
    src, dst, names = [], [], []
    for key, (lat, lon, h) in G.ANCHORS.items():
        src.append(H.local_km(lat, lon, LAT0, LON0))
        dst.append(H.center(int(h[:2]), int(h[2:]), PARITY))
        names.append(key)
    ax, ay = H.fit_affine(src, dst)
    res = {}
    for key, s, d in zip(names, src, dst, strict=True):
        p = H.apply_affine(ax, ay, s)
        res[key] = math.hypot(p[0] - d[0], p[1] - d[1])
    return ax, ay, res


class World:
    def __init__(self) -> None:
        self.ax, self.ay, self.residuals = fit()
        self.ix, self.iy = H.invert_affine(self.ax, self.ay)
        fitted = [H.apply_affine(self.ax, self.ay, H.local_km(lat, lon, LAT0, LON0))
                  for lat, lon, _h in G.ANCHORS.values()]
        target = [H.center(int(h[:2]), int(h[2:]), PARITY) for _a, _b, h in G.ANCHORS.values()]
        self.sheet = H.RubberSheet(fitted, target, SIGMA)
        data = json.loads((Path(__file__).parent / "data" / "motherland_gshhs.json").read_text())
        self.raster = H.Raster(12.0, 37.0, 56.0, 66.0, 0.04)
        for ring in data["land"]:
            self.raster.fill(ring, 1)
        self.lake_names = list(G.LAKES)
        for ring in data["lake"]:
            for i, (name, (lat, lon)) in enumerate(G.LAKES.items()):
                if H.point_in_ring(lat, lon, ring):
                    self.raster.fill(ring, 2 + i)
                    del name
                    break

    def affine(self, lat: float, lon: float) -> H.Point:
        """The plain fitted transform (what the residuals are measured against)."""
        return H.apply_affine(self.ax, self.ay, H.local_km(lat, lon, LAT0, LON0))

    def to_hex(self, lat: float, lon: float) -> H.Point:
        return self.sheet.forward(self.affine(lat, lon))

    def to_latlon(self, p: H.Point) -> tuple[float, float]:
        x, y = H.apply_affine(self.ix, self.iy, self.sheet.inverse(p))
        return H.local_km_inverse(x, y, LAT0, LON0)


#: land hexes of countries the printed map leaves out (Sweden): off the map
OFF_MAP: set[tuple[int, int]] = set()


def on_grid(col: int, row: int) -> bool:
    if not (COLS[0] <= col <= COLS[1] and ROWS[0] <= row <= ROWS[1]):
        return False
    if (col, row) in OFF_MAP:
        return False
    # the printed map's bottom edge: pushed-down (even) columns end a row early
    return not (col % 2 == 0 and row == ROWS[1])


def neighbors(c: int, r: int) -> list[tuple[int, int]]:
    if c % 2 == 0:  # even-q: even columns pushed down
        cand = [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
    else:
        cand = [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]
    return [x for x in cand if on_grid(*x)]


def hid(c: int, r: int) -> str:
    return H.hex_id(c, r)


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def polyline_dist_km(lat: float, lon: float, line: list[tuple[float, float]]) -> float:
    p = H.local_km(lat, lon, LAT0, LON0)
    pts = [H.local_km(a, b, LAT0, LON0) for a, b in line]
    return min(H.seg_dist(p, a, b) for a, b in itertools.pairwise(pts))


def build() -> dict:
    w = World()
    cells = [(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)
             if on_grid(c, r)]
    terrain: dict[str, str] = {}
    water: dict[str, str] = {}  # hex -> body name
    country: dict[str, str] = {}
    for c, r in cells:
        h = hid(c, r)
        counts: dict[int, int] = {}
        pts = H.sample_points(c, r, PARITY)
        for p in pts:
            lat, lon = w.to_latlon(p)
            v = w.raster.at(lat, lon)
            counts[v] = counts.get(v, 0) + 1
        land = counts.get(1, 0) / len(pts)
        lat, lon = w.to_latlon(H.center(c, r, PARITY))
        lake = max((k for k in counts if k >= 2), key=lambda k: counts[k], default=0)
        if land >= 0.5 and lake and counts[lake] / len(pts) >= LAKE_SHARE:
            # a named lake covering most of what is not land keeps its hex
            terrain[h] = "lake"
            water[h] = w.lake_names[lake - 2]
            continue
        if land < 0.5:
            v = max((k for k in counts if k != 1), key=lambda k: counts[k])
            if v >= 2:
                name = w.lake_names[v - 2]
                terrain[h] = "sea" if name == "Caspian Sea" else "lake"
                water[h] = name
            else:
                terrain[h] = "sea"
                water[h] = sea_name(lat, lon)
            continue
        ctry = country_of(lat, lon)
        if ctry in G.NOT_ON_MAP:
            OFF_MAP.add((c, r))
            continue
        terrain[h] = land_terrain(lat, lon)
        country[h] = ctry
    result = {"terrain": terrain, "water": water, "country": country, "world": w}
    apply_special_terrain(result)
    place_places(result)
    result["rivers"] = rivers(result)
    result["rails"] = rails(result)
    return result


def sea_name(lat: float, lon: float) -> str:
    if lat > 53.5 and lon < 31:
        return "Baltic Sea"
    if lat > 45.25 and lon > 34.9 and not (lat < 45.45 and lon < 36.55):
        return "Sea of Azov"
    if lon > 46.5:
        return "Caspian Sea"
    return "Black Sea"


def land_terrain(lat: float, lon: float) -> str:
    for _name, (kind, half, crest) in G.MOUNTAINS.items():
        if kind == "high_mountain" and polyline_dist_km(lat, lon, crest) <= half:
            return "high_mountain"
    for _name, (kind, half, crest) in G.MOUNTAINS.items():
        if kind == "mountain" and polyline_dist_km(lat, lon, crest) <= half:
            return "mountain"
    for ring in G.SWAMP.values():
        if H.point_in_ring(lat, lon, ring):
            return "swamp"
    for ring in G.WOODS.values():
        if H.point_in_ring(lat, lon, ring):
            return "woods"
    return "clear"


def country_of(lat: float, lon: float) -> str:
    for name, ring in G.COUNTRIES.items():
        if H.point_in_ring(lat, lon, ring):
            return name
    return "soviet_union"


# --- the rulebook's special hexes ----------------------------------------------------------

#: hexes whose land/water the book fixes, with the reason
FORCE_LAND = {
    "0926": "Sevastopol's fitted hex, a third land: made land for the port",
    "0606": "Memel's fitted hex, a third land: made land for the port",
    "1227": "Kerch Strait hexside 1227/1327 (8.4.2): Kerch peninsula",
    "1327": "Kerch Strait hexside 1227/1327 (8.4.2): Taman peninsula",
    "1125": "Chongar railroad bridge 1125-1025 (16.7): Chongar peninsula",
    "1025": "Chongar railroad bridge 1125-1025 (16.7): northern Crimea",
    "1535": "Turkish supply hex (21.2.2)",
    "1634": "Turkish supply hex (21.2.2)",
    "1735": "Turkish supply hex (21.2.2); Turkish units set up here",
    "2434": "the Baku box is entered from 2434 (21.1.1)",
    "1625": "hexsides 1526/1625, 1625/1626, 1625/1726 are all-sea (5.1.9): 1625 is land",
    "1726": "Rostov",
}
#: out-of-play hexsides (5.1.9): the book's three ("for example")
OUT_OF_PLAY = ["1526/1625", "1625/1626", "1625/1726"]
#: water hexsides between two land hexes: the Karkinit Bay west of Perekop, the Sivash east
#: of it, and the Sea of Azov north of the Kerch Strait
WATER_SIDES = ["0925/1024", "1125/1126", "1226/1327"]


def sea_sides(res: dict, kind: str) -> list[str]:
    """Land/water hexsides of ``kind`` (sea or lake), plus the hand-set water hexsides."""
    terrain, water = res["terrain"], res["water"]
    out = set(WATER_SIDES) if kind == "sea" else set(LAKE_SIDES)
    for h in terrain:
        if h in water:
            continue
        for n in neighbors(*parse(h)):
            m = hid(*n)
            if m in water and terrain[m] == kind:
                out.add("/".join(sorted((h, m))))
    return sorted(out)
FORCE_COUNTRY = {"1535": "turkey", "1634": "turkey", "1735": "turkey"}


def apply_special_terrain(res: dict) -> None:
    w: World = res["world"]
    for h in FORCE_LAND:
        if h in res["water"]:
            del res["water"][h]
            lat, lon = w.to_latlon(H.center(*parse(h), PARITY))
            res["terrain"][h] = land_terrain(lat, lon)
            res["country"][h] = country_of(lat, lon)
    for h, ctry in FORCE_COUNTRY.items():
        res["country"][h] = ctry
    # every named city hex is land
    for key, (lat, lon, h) in G.ANCHORS.items():
        if h in res["water"]:
            del res["water"][h]
            res["terrain"][h] = "clear"
            res["country"][h] = country_of(lat, lon)
        del key


def place_places(res: dict) -> None:
    w: World = res["world"]
    taken: dict[str, str] = {}
    places: dict[str, dict] = {}
    fitted: dict[str, dict] = {}
    order = list(G.ANCHORS) + [k for k in G.PLACES if k not in G.ANCHORS]
    for key in order:
        title, lat, lon, kind, sea = G.PLACES[key]
        x, y = w.to_hex(lat, lon)
        c, r, _d = H.nearest(x, y, PARITY)
        snapped = hid(c, r)
        note = ""
        if key in G.ANCHORS:
            h = G.ANCHORS[key][2]
            note = "printed in the rulebook"
        elif key in ADJUST:
            h, note = ADJUST[key]
        else:
            h = snapped
            if not on_grid(c, r):
                continue
            if h in res["water"]:
                # nearest land hex to the true position
                cands = [hid(*n) for n in neighbors(c, r) if hid(*n) not in res["water"]]
                if not cands:
                    continue
                h = min(cands, key=lambda k: math.dist(H.center(*parse(k), PARITY), (x, y)))
                note = f"fitted position {snapped} is sea: nearest land hex"
            if h in taken:
                cands = [hid(*n) for n in neighbors(*parse(h))
                         if hid(*n) not in res["water"] and hid(*n) not in taken]
                if not cands:
                    continue
                h2 = min(cands, key=lambda k: math.dist(H.center(*parse(k), PARITY), (x, y)))
                note = f"{h} is {places[taken[h]]['title']}: next nearest free hex"
                h = h2
        if h in res["water"]:
            raise SystemExit(f"{key} lands on water hex {h}")
        taken[h] = key
        # a city hex belongs to the city's own country, whatever its centre falls in
        res["country"][h] = country_of(lat, lon)
        cx, cy = H.center(*parse(h), PARITY)
        places[key] = {"title": title, "hex": h, "kind": kind, "sea": sea, "lat": lat,
                       "lon": lon, "country": res["country"].get(h, ""), "note": note,
                       "fit_error": round(math.hypot(cx - x, cy - y), 2), "fitted": snapped}
        fitted[key] = {"x": x, "y": y}
    res["places"] = places


# --- rivers --------------------------------------------------------------------------------


def rivers(res: dict) -> dict[str, dict]:
    w: World = res["world"]
    cells = [(c, r) for c in range(COLS[0] - 1, COLS[1] + 2)
             for r in range(ROWS[0] - 1, ROWS[1] + 2)]
    g = H.VertexGraph(cells, PARITY)
    water = res["water"]
    out: dict[str, dict] = {}
    for key, (title, cls, pts) in G.RIVERS.items():
        path = [w.to_hex(lat, lon) for lat, lon in pts]
        walk = g.chain(path)
        segments: list[list[str]] = []
        cur: list[str] = []
        for a, b in itertools.pairwise(walk):
            hexes = g.side_hexes.get(frozenset((a, b)), [])
            ok = (len(hexes) == 2 and all(on_grid(*x) for x in hexes)
                  and not any(hid(*x) in water for x in hexes))
            if ok:
                h1, h2 = sorted(hid(*x) for x in hexes)
                cur.append(f"{h1}/{h2}")
            elif cur:
                segments.append(cur)
                cur = []
        if cur:
            segments.append(cur)
        segments = [s for s in segments if len(s) >= 2]
        if segments:
            out[key] = {"title": title, "class": cls, "segments": segments}
    return out


# --- railroads -----------------------------------------------------------------------------


def rails(res: dict) -> dict[str, dict]:
    w: World = res["world"]
    water = res["water"]
    places = res["places"]
    out: dict[str, dict] = {}

    def land(x: tuple[int, int]) -> bool:
        return on_grid(*x) and hid(*x) not in water

    def pen(x: tuple[int, int]) -> float:
        t = res["terrain"].get(hid(*x), "clear")
        return {"high_mountain": 3.0, "mountain": 1.0, "swamp": 0.5}.get(t, 0.0)

    blocked = set(OUT_OF_PLAY) | set(WATER_SIDES) | set(LAKE_SIDES) | {"1227/1327"}

    def rail_neighbors(x: tuple[int, int]) -> list[tuple[int, int]]:
        h = hid(*x)
        return [n for n in neighbors(*x) if "/".join(sorted((h, hid(*n)))) not in blocked]

    for name, wps in G.RAILROADS.items():
        pts: list[H.Point] = []
        fixed: list[str | None] = []
        for wp in wps:
            if isinstance(wp, str) and wp not in places:
                wp = (G.PLACES[wp][1], G.PLACES[wp][2])
            if isinstance(wp, str):
                p = places[wp]
                pts.append(H.center(*parse(p["hex"]), PARITY))
                fixed.append(p["hex"])
            else:
                pts.append(w.to_hex(*wp))
                fixed.append(None)
        # hex of each waypoint (clipped to the map along the line)
        hexes: list[str] = []
        for i, (p, f) in enumerate(zip(pts, fixed, strict=True)):
            if f is not None:
                hexes.append(f)
                continue
            c, r, _ = H.nearest(p[0], p[1], PARITY)
            if land((c, r)):
                hexes.append(hid(c, r))
                continue
            # off the map or at sea: walk toward the neighbouring waypoint to the last land hex
            other = pts[i - 1] if i > 0 else pts[i + 1]
            found = None
            for k in range(1, 101):
                t = k / 100
                q = (p[0] + (other[0] - p[0]) * t, p[1] + (other[1] - p[1]) * t)
                c2, r2, _ = H.nearest(q[0], q[1], PARITY)
                if land((c2, r2)):
                    found = hid(c2, r2)
                    break
            if found is not None:
                hexes.append(found)
        chain: list[str] = []
        for a, b in itertools.pairwise(hexes):
            if a == b:
                continue
            seg = H.hex_path(parse(a), parse(b), PARITY, land, rail_neighbors, pen)
            ids = [hid(*x) for x in seg]
            if chain and chain[-1] == ids[0]:
                ids = ids[1:]
            chain.extend(ids)
        # drop immediate back-and-forth
        clean: list[str] = []
        for h in chain:
            if len(clean) >= 2 and clean[-2] == h:
                clean.pop()
                continue
            if clean and clean[-1] == h:
                continue
            clean.append(h)
        if len(clean) >= 2:
            ends = [wps[0] if isinstance(wps[0], str) else None,
                    wps[-1] if isinstance(wps[-1], str) else None]
            out[name] = {"path": clean, "from": ends[0], "to": ends[1]}
    return out


# --- areas ---------------------------------------------------------------------------------


def areas(res: dict) -> dict[str, list[str]]:
    terrain, water, country = res["terrain"], res["water"], res["country"]
    land = sorted(h for h in terrain if h not in water)
    out: dict[str, list[str]] = {}
    for ctry in ("soviet_union", "finland", "germany", "poland", "slovakia", "hungary",
                 "romania", "bulgaria", "turkey"):
        hs = [h for h in land if country[h] == ctry]
        if hs:
            out[ctry] = hs

    def edge(h: str) -> set[str]:
        c, r = parse(h)
        e = set()
        if c == COLS[0]:
            e.add("west")
        if c == COLS[1]:
            e.add("east")
        if r == ROWS[0]:
            e.add("north")
        if r == ROWS[1] or (c % 2 == 0 and r == ROWS[1] - 1):
            e.add("south")
        return e

    out["edge_west"] = [h for h in land if "west" in edge(h)]
    out["edge_east"] = [h for h in land if "east" in edge(h)]
    out["edge_north"] = [h for h in land if "north" in edge(h)]
    out["edge_south"] = [h for h in land if "south" in edge(h)]
    out["source_W"] = [h for h in out["edge_west"]
                       if country[h] in ("germany", "poland", "slovakia")]
    out["source_H"] = [h for h in out["edge_west"] if country[h] == "hungary"]
    out["source_R"] = [h for h in out["edge_west"] if country[h] == "romania"]
    out["source_F"] = sorted({h for h in out["edge_north"] + out["edge_west"]
                              if country[h] == "finland"})
    out["source_E"] = sorted({h for h in out["edge_east"] if country[h] == "soviet_union"}
                             | {h for h in out["edge_north"]
                                if country[h] == "soviet_union" and parse(h)[0] >= 23})
    out["source_S"] = [h for h in out["edge_south"]
                       if country[h] == "soviet_union" and parse(h)[0] >= 17]
    out["turkey_source"] = ["1535", "1634", "1735"]
    # the German-ruled General Government and Slovakia count as Germany for the rules
    # (5.2.1, 20.6); they are also listed under their own names
    out["germany"] = sorted(set(out.get("germany", [])) | set(out.get("poland", []))
                            | set(out.get("slovakia", [])))
    line = ["1632", "1733", "1833", "1934", "2034"]
    out["turkey_trigger_line"] = line
    south = []
    for h in land:
        c, r = parse(h)
        for lh in line:
            lc, lr = parse(lh)
            if c == lc and r > lr:
                south.append(h)
    out["south_of_turkey_trigger_line"] = sorted(south)
    # seas and their coasts
    bodies: dict[str, list[str]] = {}
    for h, name in water.items():
        bodies.setdefault(name, []).append(h)
    short = {"Baltic Sea": "baltic", "Black Sea": "black", "Sea of Azov": "azov",
             "Caspian Sea": "caspian"}
    for name, hs in sorted(bodies.items()):
        key = name.lower().replace(" ", "_")
        out[key] = sorted(hs)
        coast = sorted({hid(*n) for h in hs for n in neighbors(*parse(h)) if hid(*n) not in water})
        if name in short:
            out["coast_" + short[name]] = coast
    # hand-set water hexsides make coasts too (Rostov's on Taganrog Bay, 5.1.9)
    w: World = res["world"]
    for side in OUT_OF_PLAY + WATER_SIDES:
        a, b = side.split("/")
        pa, pb = H.center(*parse(a), PARITY), H.center(*parse(b), PARITY)
        lat, lon = w.to_latlon(((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2))
        key = "coast_" + short[sea_name(lat, lon)]
        out[key] = sorted(set(out.get(key, [])) | {a, b})
    # 19.2: "any coastal hex of the Black Sea (including the Sea of Azov)"
    out["coast_black"] = sorted(set(out.get("coast_black", [])) | set(out.get("coast_azov", [])))
    return out


# --- output ----------------------------------------------------------------------------------

LEGEND = [
    ("c", "clear", "#e8e0b8", " ", {}),
    ("w", "woods", "#7fa86a", "^", {}),
    ("s", "swamp", "#8fb8a8", "~", {}),
    ("m", "mountain", "#b09070", "M", {}),
    ("h", "high_mountain", "#8a6a50", "A", {"prohibited_except": "german_mountain"}),
    ("~", "sea", "#6f9fd8", "~", {"water": True}),
    ("l", "lake", "#8cb8e8", "~", {"water": True}),
    (".", "", "", "", {"off_map": True}),
]
CHAR = {name: ch for ch, name, *_ in LEGEND}


def toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def toml_list(items: list[str], per_line: int = 10, indent: str = "  ") -> str:
    if len(items) <= per_line:
        return "[" + ", ".join(toml_str(x) for x in items) + "]"
    lines = []
    for i in range(0, len(items), per_line):
        lines.append(indent + ", ".join(toml_str(x) for x in items[i:i + per_line]) + ",")
    return "[\n" + "\n".join(lines) + "\n]"


def compress(hexes: list[str]) -> list[str]:
    """Runs along a column as ranges ("0301-0310"), the rest as single ids."""
    by_col: dict[int, list[int]] = {}
    for h in sorted(set(hexes)):
        c, r = parse(h)
        by_col.setdefault(c, []).append(r)
    out = []
    for c, rows in sorted(by_col.items()):
        start = prev = rows[0]
        for r in [*rows[1:], None]:  # type: ignore[list-item]
            if r is not None and r == prev + 1:
                prev = r
                continue
            out.append(hid(c, start) if start == prev else f"{hid(c, start)}-{hid(c, prev)}")
            if r is not None:
                start = prev = r
    return out


def write_toml(res: dict) -> str:
    w: World = res["world"]
    terrain, _water = res["terrain"], res["water"]
    places, rvs, rls = res["places"], res["rivers"], res["rails"]
    ar = areas(res)
    L: list[str] = []
    a = L.append
    a("# For the Motherland! - the map, built from real geography.")
    a("# GENERATED by tools/maps/build_motherland.py from tools/maps/geo_motherland.py and")
    a("# GSHHS coastlines; edit the tables there and rebuild rather than editing by hand.")
    a("# How it was made: docs/engines/for-the-motherland-map.md.")
    a("# The rulebook ships no map: every hex the book prints is where the book says; the rest")
    a("# follows a transform fitted to those hexes (residual up to 1.3 hex).")
    a("")
    a("[map]")
    a('title = "For the Motherland! Eastern Front 1941-44"')
    a('offset = "even"   # even columns are pushed half a hex down (1632-2034 is a straight line)')
    a(f"cols = [{COLS[0]}, {COLS[1]}]")
    a(f"rows = [{ROWS[0]}, {ROWS[1]}]")
    a('stand_in = "No map ships with the rulebook: terrain, rivers, railroads and borders are '
      'approximations built from real geography (74 km per hex), pinned to every hex the '
      'rulebook prints."')
    a("")
    a("[map.legend]")
    for ch, name, color, glyph, attrs in LEGEND:
        if attrs.get("off_map"):
            a(f'"{ch}" = {{ off_map = true }}')
            continue
        extra = "".join(f", {k} = {json.dumps(v)}" for k, v in attrs.items())
        a(f'"{ch}" = {{ name = "{name}", color = "{color}", glyph = "{glyph}"{extra} }}')
    a("")
    a("[map.terrain]")
    a('by = "row"')
    a('grid = """')
    for r in range(ROWS[0], ROWS[1] + 1):
        row = ""
        for c in range(COLS[0], COLS[1] + 1):
            h = hid(c, r)
            row += CHAR[terrain[h]] if h in terrain else "."
        a(f"{r:02d} {row}")
    a('"""')
    a("")
    # hex features
    a("[map.hex_features]")
    feats: dict[str, list[str]] = {"city": [], "port": [], "port_baltic": [], "port_black": [],
                                   "port_azov": [], "port_caspian": [], "fortified": [],
                                   "objective": []}
    for key, p in places.items():
        feats["city"].append(p["hex"])
        if p["kind"] == "port":
            feats["port"].append(p["hex"])
            feats["port_" + p["sea"]].append(p["hex"])
        if key in G.FORTIFIED:
            feats["fortified"].append(p["hex"])
        if key in ("leningrad", "moscow", "voronezh", "rostov", "stalingrad"):
            feats["objective"].append(p["hex"])
    a("# every named place is a city hex (control, 19.1); ports also take sea transport (5.5)")
    for name, hs in feats.items():
        a(f"{name} = {toml_list(sorted(hs))}")
    a("")
    a("[map.places]")
    for key in sorted(places, key=lambda k: places[k]["title"]):
        a(f'{toml_str(places[key]["title"])} = "{places[key]["hex"]}"')
    a("")
    a("[map.areas]")
    a("# countries (borders of 22 June 1941); supply sources: the land hexes along the map edge")
    a("# areas the book marks W, H, R (Axis), F (Finnish), E, S (Soviet) and T (Turkish,")
    a("# 21.2.2: exactly 1535, 1634, 1735); seas, lakes and their coastal hexes")
    for name, hs in ar.items():
        a(f"{name} = {toml_list(compress(hs), 8)}")
    a("")
    a("[map.hexsides]")
    major = sorted({s for r in rvs.values() if r["class"] == "major_river"
                    for seg in r["segments"] for s in seg})
    minor = sorted({s for r in rvs.values() if r["class"] == "minor_river"
                    for seg in r["segments"] for s in seg} - set(major))
    a(f"major_river = {toml_list(major, 8)}")
    a(f"minor_river = {toml_list(minor, 8)}")
    a("# 8.4.2: the Kerch Strait, a Major River for combat; tanks and mechanized may not attack")
    a('strait = ["1227/1327"]')
    a("# 16.7: the Chongar railroad bridge: strategic movement and supply only")
    a('rail_bridge = ["1025/1125"]')
    a("# 5.1.9: brown out-of-play portions, treated as all-sea hexsides")
    a(f"out_of_play = {toml_list(OUT_OF_PLAY, 8)}")
    a("# water between two land hexes and every land/sea hexside: the Karkinit Bay west of")
    a("# Perekop, the Sivash east of it and the water north of the Kerch Strait keep the")
    a("# Crimea's land link at Perekop (1024/1025) and Taman's at the strait (1227/1327)")
    a(f"sea = {toml_list(sea_sides(res, 'sea'), 8)}")
    a(f"lake = {toml_list(sea_sides(res, 'lake'), 8)}")
    a("# 5.1.7 / 18.2.2: red arrows (Frozen Access) across sea and lake hexsides")
    fa = frozen_access(res)
    a(f"frozen_access = {toml_list(fa, 8)}")
    a("")
    a("[map.networks]")
    a("railroad = [")
    for name in sorted(rls):
        a(f"  # {name}")
        a(f'  "{" ".join(rls[name]["path"])}",')
    a("]")
    a("")
    a("[map.boxes]")
    a('baku = { title = "Baku", entry = ["2434"] }  # 21.1.1: German Panzer units, 5 MP')
    a("")
    a("[map.styles]")
    a('major_river = "#2050c0"')
    a('minor_river = "#5080e0"')
    a('strait = "#2050c0"')
    a('rail_bridge = "#303030"')
    a('out_of_play = "#8a6a40"')
    a('sea = "#6f9fd8"')
    a('lake = "#8cb8e8"')
    a('frozen_access = "#d02020"')
    a('railroad = "#404040"')
    a("")
    # extra tables
    a("# --- beyond the kit's [map]: details the engines and tests read ---------------------")
    a("")
    a("[map_info]")
    a("scale_km = 74")
    a(f"transform = {toml_str(transform_text(w))}")
    a('supply_sources = { W = "source_W", H = "source_H", R = "source_R", F = "source_F", '
      'E = "source_E", S = "source_S", T = "turkey_source" }')
    a('sea_bodies = { baltic = ["baltic_sea"], black = ["black_sea"], azov = ["sea_of_azov"], '
      'caspian = ["caspian_sea"] }')
    a("")
    for key in sorted(places, key=lambda k: places[k]["title"]):
        p = places[key]
        a(f"[place_info.{toml_str(p['title'])}]")
        a(f'id = "{key}"')
        a(f'kind = "{p["kind"]}"')
        if p["sea"]:
            a(f'sea = "{p["sea"]}"')
        a(f'country = "{p["country"]}"')
        if key in G.FORTIFIED:
            a("fortified = true")
        if key in G.VICTORY:
            a(f"vp = {G.VICTORY[key][0]}")
            a(f"vp_recaptured = {G.VICTORY[key][1]}")
        a(f"lat = {p['lat']}")
        a(f"lon = {p['lon']}")
        a(f'fitted = "{p["fitted"]}"')
        a(f"fit_error = {p['fit_error']}")
        if p["note"]:
            a(f"note = {toml_str(p['note'])}")
        a("")
    for key in sorted(rvs):
        r = rvs[key]
        a(f"[rivers.{key}]")
        a(f"title = {toml_str(r['title'])}")
        a(f'class = "{r["class"]}"')
        a("segments = [")
        for seg in r["segments"]:
            a("  " + toml_list(seg, 6, "    ") + ",")
        a("]")
        a("")
    for name in sorted(rls):
        r = rls[name]
        key = name.lower().replace(" ", "_").replace("-", "_")
        a(f"[railroad_lines.{key}]")
        a(f"title = {toml_str(name)}")
        a(f'from = "{r["path"][0]}"')
        a(f'to = "{r["path"][-1]}"')
        if r["from"]:
            a(f'from_place = "{r["from"]}"')
        if r["to"]:
            a(f'to_place = "{r["to"]}"')
        a("")
    return "\n".join(L) + "\n"


def frozen_access(res: dict) -> list[str]:
    """Stand-in red arrows (the rulebook's map prints them; the text does not list them):
    the Ladoga ice road from Leningrad to the east shore, Lake Ilmen between Novgorod and
    Staraya Russa, and the Sivash, where the Red Army crossed the ice in the war's winters."""
    water = res["water"]
    places = res["places"]
    out = set(LAKE_SIDES) | {"1125/1126"}
    h = places["leningrad"]["hex"]
    for n in neighbors(*parse(h)):
        if water.get(hid(*n)) == "Lake Ladoga":
            out.add("/".join(sorted((h, hid(*n)))))
            for m in neighbors(*n):
                if hid(*m) not in water and hid(*m) != h:
                    out.add("/".join(sorted((hid(*n), hid(*m)))))
    return sorted(out)


def transform_text(w: World) -> str:
    ax, ay = w.ax, w.ay
    return (f"hex x = {ax[0]:.7f}*E + {ax[1]:.7f}*N + {ax[2]:.5f}; "
            f"hex y = {ay[0]:.7f}*E + {ay[1]:.7f}*N + {ay[2]:.5f}; "
            "E, N = km east and north of 52N 30E (E = dlon*111.32*cos(lat), N = dlat*110.57); "
            "hex x = col*sqrt(3)/2, hex y = row (+0.5 in even columns)")


def preview(res: dict) -> str:
    terrain = res["terrain"]
    marks = {p["hex"]: ("P" if p["kind"] == "port" else "C") for p in res["places"].values()}
    lines = []
    for r in range(ROWS[0], ROWS[1] + 1):
        row = ""
        for c in range(COLS[0], COLS[1] + 1):
            h = hid(c, r)
            row += marks.get(h, CHAR.get(terrain.get(h, ""), "."))
        lines.append(f"{r:02d} {row}")
    return "\n".join(lines)


def main() -> None:
    res = build()
    w: World = res["world"]
    print("transform:", transform_text(w))
    for k, v in w.residuals.items():
        print(f"  residual {k:12s} {v:.2f} hex")
    print(preview(res))
    bad = [k for k, p in res["places"].items() if p["note"] and "printed" not in p["note"]]
    for k in bad:
        print("  adjusted", k, res["places"][k]["hex"], res["places"][k]["note"])
    if "--check" in sys.argv:
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(write_toml(res))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
