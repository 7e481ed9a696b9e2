"""Build ``scenarios/white-death/map.toml``: the Velikiye Luki area at one mile per hex.

Offline, standard library only::

    python tools/maps/build_white_death.py            # writes the map, prints a preview
    python tools/maps/build_white_death.py --check    # preview only

The grid: flat-top hexes one mile across the flats, north up, columns numbered from the
west edge (01) east, rows from the north edge (01) south; even columns are pushed half a
hex down (even-q, as on the For the Motherland! map).  Hex 0101's centre is at
``geo_white_death.NORTH``/``WEST``.  Positions use a local equirectangular projection
(61.83 km per degree of longitude at 56.25N, 110.57 km per degree of latitude).
"""

from __future__ import annotations

import json
import math
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import itertools

import geo_white_death as G
import hexgeo as H

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "scenarios" / "white-death" / "map.toml"
PARITY = "even"
KM_PER_LON = 111.32 * math.cos(math.radians(56.25))
KM_PER_LAT = 110.57

# --- projection ------------------------------------------------------------------------


def to_hex(lat: float, lon: float) -> H.Point:
    """Hex space (one unit = one mile) with column 0 / row 0 one hex beyond 0101."""
    x_km = (lon - G.WEST) * KM_PER_LON
    y_km = (G.NORTH - lat) * KM_PER_LAT
    return (H.SQ3 / 2 * 1 + x_km / G.MILE_KM, 1 + y_km / G.MILE_KM)


def to_latlon(p: H.Point) -> tuple[float, float]:
    x_km = (p[0] - H.SQ3 / 2) * G.MILE_KM
    y_km = (p[1] - 1) * G.MILE_KM
    return G.NORTH - y_km / KM_PER_LAT, G.WEST + x_km / KM_PER_LON


def on_grid(c: int, r: int) -> bool:
    return 1 <= c <= G.COLS and 1 <= r <= G.ROWS


def neighbors(c: int, r: int) -> list[tuple[int, int]]:
    if c % 2 == 0:
        cand = [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
    else:
        cand = [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]
    return [x for x in cand if on_grid(*x)]


def hid(c: int, r: int) -> str:
    return H.hex_id(c, r)


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def hex_of(lat: float, lon: float) -> tuple[int, int]:
    x, y = to_hex(lat, lon)
    c, r, _ = H.nearest(x, y, PARITY)
    return c, r


def center_ll(c: int, r: int) -> tuple[float, float]:
    return to_latlon(H.center(c, r, PARITY))


def km_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot((a[0] - b[0]) * KM_PER_LAT, (a[1] - b[1]) * KM_PER_LON)


# --- build ---------------------------------------------------------------------------------


def line_hexes(points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """Adjacent hexes along a (lat, lon) polyline, clipped to the map."""
    out: list[tuple[int, int]] = []
    pts = [to_hex(*p) for p in points]
    for a, b in itertools.pairwise(pts):
        n = max(2, int(math.dist(a, b) * 8))
        for k in range(n + 1):
            t = k / n
            c, r, _ = H.nearest(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, PARITY)
            if not on_grid(c, r):
                continue
            if out and out[-1] == (c, r):
                continue
            if out and (c, r) not in neighbors(*out[-1]):
                # bridge a corner-skip with the hex adjacent to both
                common = [x for x in neighbors(*out[-1]) if (c, r) in neighbors(*x)]
                if common:
                    out.append(common[0])
            out.append((c, r))
    # remove loops
    clean: list[tuple[int, int]] = []
    for h in out:
        if h in clean:
            clean = clean[: clean.index(h) + 1]
        else:
            clean.append(h)
    return clean


def build() -> dict:
    cells = [(c, r) for c in range(1, G.COLS + 1) for r in range(1, G.ROWS + 1)]
    terrain: dict[str, str] = {}
    for c, r in cells:
        lat, lon = center_ll(c, r)
        t = "clear"
        for ring in G.FORESTS.values():
            if H.point_in_ring(lat, lon, [(b, a) for a, b in ring]):
                t = "forest"
        for ring in G.SWAMPS.values():
            if H.point_in_ring(lat, lon, [(b, a) for a, b in ring]):
                t = "swamp"
        terrain[hid(c, r)] = t
    # the city
    vl = (G.PLACES["velikiye_luki"][1], G.PLACES["velikiye_luki"][2])
    city = sorted(hid(c, r) for c, r in cells if km_between(center_ll(c, r), vl)
                  <= G.CITY_RADIUS_KM)
    # the Lovat
    lovat = [hid(*x) for x in line_hexes(G.LOVAT)]
    river = set(lovat)
    creeks: dict[str, list[str]] = {}
    for name, pts in G.CREEKS.items():
        hs = [hid(*x) for x in line_hexes(pts)]
        # a creek ends where it meets the river
        cut = []
        for h in hs:
            if h in river:
                break
            cut.append(h)
        creeks[name] = cut
    places: dict[str, dict] = {}
    for key, (title, lat, lon, kind, sure) in G.PLACES.items():
        c, r = hex_of(lat, lon)
        places[key] = {"title": title, "hex": hid(c, r), "kind": kind, "sure": sure,
                       "lat": lat, "lon": lon}
    hubs = {"city_w": hid(*hex_of(*G.CITY_WEST)), "city_e": hid(*hex_of(*G.CITY_EAST))}
    for k in ("city_w", "city_e"):
        if hubs[k] in river:
            raise SystemExit(f"{k} hub {hubs[k]} is a river hex")
    if places["citadel"]["hex"] in river:
        raise SystemExit("the Citadel is on a river hex")
    for h in city:
        terrain[h] = "town"
    towns = {"nowossokoljniki": [], "isotcha": []}
    for key in towns:
        h = places[key]["hex"]
        terrain[h] = "town"
        towns[key] = [h]
    # Nowossokoljniki is a railway junction town of two hexes: add its neighbour toward VL
    c, r = parse(places["nowossokoljniki"]["hex"])
    east = [x for x in neighbors(c, r) if x[0] == c + 1]
    if east:
        h2 = hid(*min(east, key=lambda x: abs(H.center(*x, PARITY)[1] - H.center(c, r, PARITY)[1])))
        terrain[h2] = "town"
        towns["nowossokoljniki"].append(h2)

    # the four bridges: the river hex nearest each given latitude
    bridge_hex: dict[str, str] = {}
    for key, lat in G.BRIDGES.items():
        bridge_hex[key] = min(lovat, key=lambda h: abs(center_ll(*parse(h))[0] - lat))
    if len(set(bridge_hex.values())) != len(bridge_hex):
        raise SystemExit(f"two bridges share a hex: {bridge_hex}")

    def resolve(wp: str | tuple[float, float]) -> tuple[int, int]:
        if isinstance(wp, str):
            if wp in hubs:
                return parse(hubs[wp])
            if wp in bridge_hex:
                return parse(bridge_hex[wp])
            return parse(places[wp]["hex"])
        x, y = to_hex(*wp)
        c, r, _ = H.nearest(x, y, PARITY)
        if on_grid(c, r):
            return (c, r)
        # beyond the edge: the last hex on the map along the way in
        return (min(max(c, 1), G.COLS), min(max(r, 1), G.ROWS))

    def network(lines: dict[str, list]) -> dict[str, list[str]]:
        out = {}
        for name, wps in lines.items():
            hexes = [resolve(wp) for wp in wps]
            chain: list[tuple[int, int]] = [hexes[0]]
            for a, b in itertools.pairwise(hexes):
                if a == b:
                    continue
                seg = H.hex_path(a, b, PARITY, lambda x: hid(*x) not in river,
                                 lambda x: neighbors(*x))
                chain.extend(seg[1:])
            clean: list[tuple[int, int]] = []
            for h in chain:
                if h in clean:
                    clean = clean[: clean.index(h) + 1]
                else:
                    clean.append(h)
            out[name] = [hid(*x) for x in clean]
        return out

    rails = network(G.RAILROADS)
    roads = network(G.ROADS)
    bridges = sorted({h for p in list(rails.values()) + list(roads.values()) for h in p
                      if h in river})
    # lakes: hexside chains along each lake's axis
    g = H.VertexGraph([(c, r) for c in range(0, G.COLS + 2) for r in range(0, G.ROWS + 2)],
                      PARITY)
    lakes: dict[str, dict[str, list[str]]] = {}
    for name, pts in G.LAKES.items():
        walk = g.chain([to_hex(*p) for p in pts])
        full, partial = [], []
        for a, b in itertools.pairwise(walk):
            hs = g.side_hexes.get(frozenset((a, b)), [])
            if len(hs) == 2 and all(on_grid(*x) for x in hs):
                full.append("/".join(sorted(hid(*x) for x in hs)))
        for end in (walk[0], walk[-1]):
            for v in g.adj[end]:
                hs = g.side_hexes.get(frozenset((end, v)), [])
                if len(hs) == 2 and all(on_grid(*x) for x in hs):
                    s = "/".join(sorted(hid(*x) for x in hs))
                    if s not in full:
                        partial.append(s)
        lakes[name] = {"full": full, "partial": sorted(set(partial))}
    # high ground and slopes
    high: dict[str, list[str]] = {}
    for name, (lat, lon, rad) in G.HIGH_GROUND.items():
        high[name] = sorted(hid(c, r) for c, r in cells
                            if km_between(center_ll(c, r), (lat, lon)) <= rad)
    high_set = {h for hs in high.values() for h in hs}
    slopes = sorted({(hid(*n), h) for h in high_set for n in neighbors(*parse(h))
                     if hid(*n) not in high_set})
    return {"bridge_hex": bridge_hex, "terrain": terrain, "city": city, "lovat": lovat,
            "creeks": creeks,
            "places": places, "hubs": hubs, "towns": towns, "rails": rails, "roads": roads,
            "bridges": bridges, "lakes": lakes, "high": high, "slopes": slopes}


# --- areas -------------------------------------------------------------------------------


def banks(res: dict) -> tuple[list[str], list[str]]:
    """Land hexes west and east of the Lowatj (river hexes belong to neither)."""
    river = set(res["lovat"])
    west_seed = parse(res["places"]["nowossokoljniki"]["hex"])
    seen = {west_seed}
    q = deque([west_seed])
    while q:
        x = q.popleft()
        for n in neighbors(*x):
            if n not in seen and hid(*n) not in river:
                seen.add(n)
                q.append(n)
    west = sorted(hid(*x) for x in seen)
    east = sorted(h for h in res["terrain"] if h not in river and h not in set(west))
    return west, east


def edge_run(edge: list[str], center: str, k: int) -> list[str]:
    i = edge.index(center)
    return edge[max(0, i - k): i + k + 1]


def areas(res: dict) -> dict[str, list[str]]:
    river = set(res["lovat"])
    west, east = banks(res)
    out: dict[str, list[str]] = {}
    north = [hid(c, 1) for c in range(1, G.COLS + 1)]
    south = [hid(c, G.ROWS) for c in range(1, G.COLS + 1)]
    west_edge = [hid(1, r) for r in range(1, G.ROWS + 1)]
    east_edge = [hid(G.COLS, r) for r in range(1, G.ROWS + 1)]
    out["edge_north"], out["edge_south"] = north, south
    out["edge_west"], out["edge_east"] = west_edge, east_edge
    lovat_south = max(parse(h)[0] for h in south if h in river)
    lovat_north = max(parse(h)[0] for h in north if h in river)
    # Rule 17 A: Soviet entry areas
    out["soviet-northeast"] = [h for h in north if parse(h)[0] > lovat_north]
    out["soviet-east"] = east_edge
    ger_south = [hid(c, G.ROWS) for c in range(lovat_south + 1, lovat_south + 11)]
    # the third area the rule promises but does not define: the "extreme southeastern
    # edge" that Rule 15 B makes friendly to the Soviets (stand-in)
    out["soviet-southeast"] = [hid(c, G.ROWS) for c in
                                        range(lovat_south + 11, G.COLS + 1)]
    # Rule 17 B: German entry areas
    out["german-south"] = ger_south
    rails = res["rails"]
    exits_w = sorted({p[-1] for p in rails.values() if p[-1] in west_edge}
                     | {p[0] for p in rails.values() if p[0] in west_edge})
    nowo_row = parse(res["places"]["nowossokoljniki"]["hex"])[1]
    western = min(exits_w, key=lambda h: abs(parse(h)[1] - nowo_row))
    southern_exits = sorted(h for h in exits_w if parse(h)[1] > parse(western)[1])
    rows = [parse(h)[1] for h in southern_exits]
    out["german-southwest"] = [hid(1, r) for r in range(min(rows), max(rows) + 1)]
    out["german-west"] = edge_run(west_edge, western, 4)
    nw_exit = sorted({p[-1] for p in rails.values() if p[-1] in north})
    corner_ring = list(reversed(west_edge)) + north[1:]  # up the west edge, along the north
    out["german-northwest"] = edge_run(corner_ring, nw_exit[0], 4)
    out["rail_exit_western"] = [western]
    out["rail_exits_southwestern"] = southern_exits
    out["rail_exit_northwestern"] = nw_exit
    # friendly edges (Rules 8 and 15 B)
    soviet_edge = sorted(set(east_edge) | set(out["soviet-southeast"]))
    out["soviet_friendly_edge"] = soviet_edge
    out["german_friendly_edge"] = sorted(set(north + south + west_edge) - set(soviet_edge))
    # banks and the river
    out["lowatj"] = sorted(river)
    out["west_of_lowatj"] = west
    out["east_of_lowatj"] = east
    # the city and the garrisons
    out["velikiye_luki"] = res["city"]
    out["velikiye_luki_west_bank"] = [h for h in res["city"] if h in set(west)]
    out["velikiye_luki_east_bank"] = [h for h in res["city"] if h in set(east)]
    out["nowossokoljniki"] = sorted(res["towns"]["nowossokoljniki"])
    out["isotcha"] = sorted(res["towns"]["isotcha"])
    out["intrinsic_garrison"] = sorted(res["towns"]["nowossokoljniki"]
                                       + res["towns"]["isotcha"])
    out["bunker_sites"] = bunker_sites(res)
    out["high_ground"] = sorted({h for hs in res["high"].values() for h in hs})
    # setup (stand-ins): the German outpost line and the Soviet start area
    front, soviet = [], []
    for h in res["terrain"]:
        _lat, lon = center_ll(*parse(h))
        if G.FRONT_LON[0] <= lon < G.FRONT_LON[1] and h in set(east):
            front.append(h)
        elif lon >= G.FRONT_LON[1] and h in set(east):
            soviet.append(h)
    out["german_setup_front"] = sorted(front)
    out["soviet_setup"] = sorted(soviet)
    out["guschtschino_tschernosjom_line"] = relief_line(res)
    # the 3rd Shock Army's objective: the Nevel-Leningrad (Vitebsk-Leningrad) railroad
    out["nevel_leningrad_railroad"] = sorted(res["rails"]["Nevel-Nowossokoljniki-Leningrad"])
    return out


def bunker_sites(res: dict) -> list[str]:
    """Seven city hexes for the seven bunkers (Rule 19): the Citadel and the six hexes of
    the city nearest to it (stand-in; the scenario's setup decides)."""
    cit = res["places"]["citadel"]["hex"]
    river = set(res["lovat"])
    cands = [h for h in res["city"] if h != cit and h not in river]
    cc = H.center(*parse(cit), PARITY)
    cands.sort(key=lambda h: (math.dist(H.center(*parse(h), PARITY), cc), h))
    return sorted([cit, *cands[:6]])


def relief_line(res: dict) -> list[str]:
    a = parse(res["places"]["guschtschino"]["hex"])
    b = parse(res["places"]["tschernosjom"]["hex"])
    seg = H.hex_path(a, b, PARITY, lambda x: on_grid(*x), lambda x: neighbors(*x))
    return [hid(*x) for x in seg]


# --- output ------------------------------------------------------------------------------

LEGEND = [
    ("c", "clear", "#e8e4d8", " ", {}),
    ("f", "forest", "#6f9a5e", "^", {"blocks_los": True}),
    ("s", "swamp", "#9ab8a8", "~", {}),
    ("t", "town", "#b0a090", "#", {"blocks_los": True}),
]
CHAR = {name: ch for ch, name, *_ in LEGEND}


def tl(items: list[str], per: int = 10) -> str:
    if len(items) <= per:
        return "[" + ", ".join(json.dumps(x) for x in items) + "]"
    rows = ["  " + ", ".join(json.dumps(x) for x in items[i:i + per]) + ","
            for i in range(0, len(items), per)]
    return "[\n" + "\n".join(rows) + "\n]"


def write_toml(res: dict) -> str:
    ar = areas(res)
    L: list[str] = []
    a = L.append
    a("# White Death - the Velikiye Luki map, November 1942, one mile per hex.")
    a("# GENERATED by tools/maps/build_white_death.py from tools/maps/geo_white_death.py;")
    a("# edit the tables there and rebuild.  How it was made: docs/engines/white-death-map.md.")
    a("# The manual prints no hex numbers: the grid is laid over the real area, north up,")
    a("# column 01 on the west edge, row 01 on the north edge.")
    a("")
    a("[map]")
    a('title = "White Death: Velikiye Luki, November 1942"')
    a('offset = "even"   # even columns are pushed half a hex down')
    a(f"cols = [1, {G.COLS}]")
    a(f"rows = [1, {G.ROWS}]")
    a('stand_in = "The manual\'s map is not in the text: the grid is laid over the real area '
      'around Velikiye Luki at one mile per hex; the Lowatj, the towns and the railroads follow '
      'real geography, lakes, swamps, forests, high ground, slopes and creeks are stand-ins '
      'placed where the manual\'s text puts them."')
    a("")
    a("[map.legend]")
    for ch, name, color, glyph, attrs in LEGEND:
        extra = "".join(f", {k} = {json.dumps(v)}" for k, v in attrs.items())
        a(f'"{ch}" = {{ name = "{name}", color = "{color}", glyph = "{glyph}"{extra} }}')
    a("")
    a("[map.terrain]")
    a('by = "row"')
    a('grid = """')
    for r in range(1, G.ROWS + 1):
        a(f"{r:02d} " + "".join(CHAR[res["terrain"][hid(c, r)]] for c in range(1, G.COLS + 1)))
    a('"""')
    a("")
    a("[map.hex_features]")
    a("# the Lowatj is a river hex terrain (Rules 7, 16 B, 20); creeks likewise (Rule 7)")
    a(f"river = {tl(sorted(res['lovat']))}")
    creek = sorted({h for hs in res["creeks"].values() for h in hs})
    a(f"creek = {tl(creek)}")
    a("# Rule 20: the four standing bridges across the Lowatj (roads across the river)")
    a(f"bridge = {tl(res['bridges'])}")
    a(f"high_ground = {tl(ar['high_ground'])}")
    a("# Rule 19: where the seven bunkers may be deployed (stand-in: the Citadel and the six")
    a("# city hexes nearest it; the scenario's setup places them)")
    a(f"bunker_site = {tl(ar['bunker_sites'])}")
    a(f"citadel = [\"{res['places']['citadel']['hex']}\"]")
    a("# towns west of the Lowatj on a railroad: an intrinsic garrison (1 SP, factor 4)")
    a(f"intrinsic_garrison = {tl(ar['intrinsic_garrison'])}")
    a("")
    a("[map.places]")
    a("# the manual's spellings; the Velikiye Luki garrison's city, the towns with garrisons,")
    a("# the relief drive's start line, the Citadel and the four standing bridges")
    a(f'"Velikiye Luki" = {tl(res["city"])}')
    a(f'"Citadel" = "{res["places"]["citadel"]["hex"]}"')
    a(f'"Nowossokoljniki" = {tl(sorted(res["towns"]["nowossokoljniki"]))}')
    a(f'"Isotcha" = {tl(res["towns"]["isotcha"])}')
    a(f'"Guschtschino" = "{res["places"]["guschtschino"]["hex"]}"')
    a(f'"Tschernosjom" = "{res["places"]["tschernosjom"]["hex"]}"')
    names = bridge_names(res)
    for key, h in names.items():
        a(f'"{key}" = "{h}"')
    a("")
    a("[map.areas]")
    for name, hs in ar.items():
        if name in ("high_ground", "bunker_sites"):
            continue
        a(f"{json.dumps(name)} = {tl(compress(hs), 8)}")
    a("")
    a("[map.hexsides]")
    full = sorted({s for lk in res["lakes"].values() for s in lk["full"]})
    part = sorted({s for lk in res["lakes"].values() for s in lk["partial"]} - set(full))
    a("# Rule 13: frozen lakes; a full lake hexside is closed to AFVs in thaw, any lake at all")
    a("# risks the ice (stand-in lakes: see the map page)")
    a(f"lake = {tl(full, 8)}")
    a(f"partial_lake = {tl(part, 8)}")
    a("# Rule 11 B, 12 B: slope hexsides, written low->high (the hex they rise toward)")
    a(f"slope = {tl([f'{lo}->{hi}' for lo, hi in res['slopes']], 8)}")
    a("")
    a("[map.networks]")
    a("railroad = [")
    for name in sorted(res["rails"]):
        a(f"  # {name}")
        a(f'  "{" ".join(res["rails"][name])}",')
    a("]")
    a("road = [")
    for name in sorted(res["roads"]):
        a(f"  # {name}")
        a(f'  "{" ".join(res["roads"][name])}",')
    a("]")
    a("")
    a("[map.styles]")
    a('river = "#3060d0"')
    a('creek = "#70a0e0"')
    a('lake = "#80b0f0"')
    a('partial_lake = "#a8c8f0"')
    a('slope = "#8a6a40"')
    a('railroad = "#c03030"   # the manual: railroads are red lines')
    a('road = "#808080"       # roads are grey lines')
    a("")
    a("# --- beyond the kit's [map]: details the engine and the tests read ------------------")
    a("")
    a("[map_info]")
    a("scale_miles = 1")
    a(f'frame = "hex 0101 centre at {G.NORTH}N {G.WEST}E; one mile across the flats; north up"')
    a('entry_areas = { soviet = ["soviet-northeast", "soviet-east", '
      '"soviet-southeast"], german = ["german-south", '
      '"german-southwest", "german-west", "german-northwest"] }')
    a('soviet_southeast = { stand_in = "Rule 17 A promises three Soviet entry areas '
      'and defines two; the third is the extreme south-eastern edge, which Rule 15 B makes '
      'friendly to the Soviets: the southern edge east of the German Southern Entry Area" }')
    a('setup = { stand_in = "german_setup_front and soviet_setup follow the front of 24 '
      'November 1942 roughly; bunker_site lists the Citadel and the six city hexes nearest it" }')
    a("")
    for key, p in res["places"].items():
        a(f"[place_info.{json.dumps(p['title'])}]")
        a(f'id = "{key}"')
        a(f'kind = "{p["kind"]}"')
        a(f"lat = {p['lat']}")
        a(f"lon = {p['lon']}")
        a(f'position = "{p["sure"]}"')
        a("")
    for key in names:
        a(f"[place_info.{json.dumps(key)}]")
        a('kind = "bridge"')
        a("")
    for name in sorted(res["rails"]):
        p = res["rails"][name]
        key = slug(name)
        a(f"[railroad_lines.{key}]")
        a(f"title = {json.dumps(name)}")
        a(f'from = "{p[0]}"')
        a(f'to = "{p[-1]}"')
        a("")
    for name in sorted(res["roads"]):
        p = res["roads"][name]
        a(f"[road_lines.{slug(name)}]")
        a(f"title = {json.dumps(name)}")
        a(f'from = "{p[0]}"')
        a(f'to = "{p[-1]}"')
        a("")
    a("[rivers.lowatj]")
    a('title = "Lowatj (Lovat)"')
    a(f"hexes = {tl(res['lovat'])}  # south to north")
    a("")
    for name, hs in res["creeks"].items():
        a(f"[creeks.{slug(name)}]")
        a(f"hexes = {tl(hs)}")
        a("")
    for name, lk in res["lakes"].items():
        a(f"[lakes.{name}]")
        a(f"full = {tl(lk['full'], 8)}")
        a(f"partial = {tl(lk['partial'], 8)}")
        a("")
    return "\n".join(L) + "\n"


def slug(name: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "_" for ch in name)
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")


def bridge_names(res: dict) -> dict[str, str]:
    """The four bridges by name (from ``geo_white_death.BRIDGES``)."""
    return dict(res["bridge_hex"])


def compress(hexes: list[str]) -> list[str]:
    by_col: dict[int, list[int]] = {}
    for h in sorted(set(hexes)):
        c, r = parse(h)
        by_col.setdefault(c, []).append(r)
    out = []
    for c, rows in sorted(by_col.items()):
        start = prev = rows[0]
        for r in [*rows[1:], None]:
            if r is not None and r == prev + 1:
                prev = r
                continue
            out.append(hid(c, start) if start == prev else f"{hid(c, start)}-{hid(c, prev)}")
            if r is not None:
                start = prev = r
    return out


def preview(res: dict) -> str:
    marks: dict[str, str] = {}
    for p in res["rails"].values():
        for h in p:
            marks[h] = "="
    for p in res["roads"].values():
        for h in p:
            marks.setdefault(h, "+")
    for h in res["lovat"]:
        marks[h] = "R"
    for hs in res["creeks"].values():
        for h in hs:
            marks.setdefault(h, "r")
    for h in res["bridges"]:
        marks[h] = "B"
    for h in res["city"]:
        marks.setdefault(h, "T")
    for k in ("citadel",):
        marks[res["places"][k]["hex"]] = "C"
    for k in ("nowossokoljniki", "isotcha"):
        for h in res["towns"][k]:
            marks[h] = "N" if k.startswith("n") else "I"
    lines = []
    for r in range(1, G.ROWS + 1):
        row = ""
        for c in range(1, G.COLS + 1):
            h = hid(c, r)
            row += marks.get(h, CHAR[res["terrain"][h]] if res["terrain"][h] != "clear" else ".")
        lines.append(f"{r:02d} {row}")
    return "\n".join(lines)


def main() -> None:
    res = build()
    print(preview(res))
    print("bridges", res["bridges"], "city", res["city"], "places",
          {k: v["hex"] for k, v in res["places"].items()}, "hubs", res["hubs"])
    if "--check" in sys.argv:
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(write_toml(res))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
