# ruff: noqa: E501, RUF017
# mypy: ignore-errors
"""A coarse stand-in map of the whole For the Motherland! area for tests and playouts.

Written while the real ``scenarios/for-the-motherland/map.toml`` was being built; it
uses the same feature names the engine reads (see engines/motherland/view.py) and
places the book's named hexes where the book puts them.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from engines.hexkit.geometry import HexGrid

COLS, ROWS = (1, 28), (1, 36)
GRID = HexGrid("even", COLS, ROWS)


def sea(c: int, r: int) -> bool:
    black = (4 <= c <= 8 and r >= 24 and not (c == 8 and r == 24)) or (
        9 <= c <= 13 and r >= 28) or (c == 4 and r >= 25)
    baltic = (c <= 3 and r <= 5) or (c <= 11 and r <= 3)
    return black or baltic


CITIES = {
    "Danzig": "0307", "Konigsberg": "0507", "Constanta": "0325", "Leningrad": "1705",
    "Moscow": "2113", "Voronezh": "1919", "Rostov": "1726", "Stalingrad": "2424",
    "Kiev": "1017", "Helsinki": "1402", "Riga": "1006", "Tallinn": "1303", "Minsk": "1011",
    "Smolensk": "1512", "Kharkov": "1620", "Odessa": "0722", "Sevastopol": "0926",
    "Novorossiysk": "1428", "Tuapse": "1529", "Grozny": "2234", "Bucharest": "0123",
    "Gorky": "2614", "Warsaw": "0311", "Tula": "2015", "Stalino": "1623", "Maikop": "1629",
    "Kerch": "1326", "Lvov": "0315", "Brest": "0512", "Vilnius": "0909",
}
PORTS = {"baltic": ["0307", "0507", "1006", "1303", "1705", "1402"],
         "black": ["0325", "0722", "0926", "1428", "1529", "1326"],
         "azov": ["1726"]}
FORTIFIED = ["1705", "2113", "0926"]
RAIL = [
    ["0311", "0512", "1011", "1512", "2113"], ["0507", "0909", "1011"],
    ["1006", "1705", "2113"], ["0315", "1017", "1620", "1726"], ["2113", "2015", "1620"],
    ["2113", "1919", "1726"], ["1726", "2424", "2822"], ["1726", "1629", "2234"],
    ["2113", "2614", "2814"], ["1705", "2807"], ["0722", "1017"], ["0123", "0325"],
    ["0123", "0722"], ["0926", "1025"], ["1125", "1322", "1620"], ["0307", "0507"],
    ["0307", "0311"], ["0101", "0307"], ["0112", "0311"], ["0115", "0315"], ["0122", "0123"],
    ["1402", "1602", "1705"], ["1301", "1402"], ["2234", "2434"], ["1428", "1726"],
    ["1529", "1428"], ["1623", "1726"], ["2424", "2830"],
]


def line(a: str, b: str) -> list[str]:
    out = []
    for step in GRID.line(a, b):
        h = step[0]
        if not out or out[-1] != h:
            out.append(h)
    return out


def main() -> None:
    rows = []
    for r in range(ROWS[0], ROWS[1] + 1):
        chars = "".join("~" if sea(c, r) else
                        ("f" if (c + 2 * r) % 11 == 0 else "s" if (c * 7 + r) % 23 == 0 else
                         "m" if r >= 31 and c >= 15 and (c + r) % 3 == 0 else ".")
                        for c in range(COLS[0], COLS[1] + 1))
        rows.append(f"{r:02d} {chars}")
    land = {GRID.hex_id(c, r) for c, r in GRID.coords() if not sea(c, r)}
    rail_paths = []
    for chain in RAIL:
        path: list[str] = []
        for a, b in itertools.pairwise(chain):
            seg = line(a, b)
            path += seg if not path else seg[1:]
        path = [h for h in path if h in land]
        clean = [path[0]]
        for h in path[1:]:
            if GRID.adjacent(clean[-1], h):
                clean.append(h)
        rail_paths.append(" ".join(clean))

    def area(pred) -> list[str]:  # type: ignore[no-untyped-def]
        return sorted(h for h in land if pred(*GRID.coords_of(h)))

    areas = {
        "germany": area(lambda c, r: (c <= 5 and r <= 8) or (c <= 3 and 8 <= r <= 14)),
        "finland": area(lambda c, r: r <= 2 and 12 <= c <= 18 and not (c == 17 and r == 3)),
        "hungary": area(lambda c, r: c <= 2 and 15 <= r <= 18),
        "romania": area(lambda c, r: (c <= 3 and r >= 19) or (c in (4, 5) and r >= 20 and r <= 22)),
        "turkey": ["1535", "1634", "1735", "1636", "1736", "1836", "1536"],
        "source_W": area(lambda c, r: c == 1 and r <= 14),
        "source_H": area(lambda c, r: c == 1 and 15 <= r <= 18),
        "source_R": area(lambda c, r: c == 1 and r >= 19),
        "source_F": area(lambda c, r: r == 1 and 12 <= c <= 18),
        "source_E": area(lambda c, r: c == 28 and r <= 33),
        "source_S": area(lambda c, r: r == 36 and 19 <= c <= 28),
        "coast_baltic": sorted(h for h in land if any(
            n not in land and not (GRID.coords_of(n)[1] >= 20) for n in GRID.neighbors(h))
            and GRID.coords_of(h)[1] < 12),
        "coast_black": sorted(h for h in land if any(
            n not in land and GRID.coords_of(n)[1] >= 20 for n in GRID.neighbors(h))),
    }
    areas["soviet_union"] = sorted(land - set().union(*(set(areas[k]) for k in (
        "germany", "finland", "hungary", "romania", "turkey"))))
    out = ["# Test stand-in map for the For the Motherland! engine (tests only).",
           "[map]", 'title = "For the Motherland! (test stand-in)"', 'offset = "even"',
           f"cols = [{COLS[0]}, {COLS[1]}]", f"rows = [{ROWS[0]}, {ROWS[1]}]",
           'stand_in = "coarse test map: real terrain comes with scenarios/for-the-motherland/map.toml"',
           "", "[map.legend]",
           '"." = { name = "clear", color = "#e8e0b0" }',
           '"f" = { name = "woods", color = "#70a060" }',
           '"s" = { name = "swamp", color = "#80b0a0" }',
           '"m" = { name = "mountain", color = "#a08060" }',
           '"~" = { off_map = true }', "", "[map.terrain]", 'grid = """']
    out += rows
    out += ['"""', "", "[map.hex_features]"]
    out.append(f"city = {sorted(CITIES.values())!r}".replace("'", '"'))
    out.append(f"fortified = {FORTIFIED!r}".replace("'", '"'))
    out.append(f"port = {sorted(sum(PORTS.values(), []))!r}".replace("'", '"'))
    for k, v in PORTS.items():
        out.append(f"port_{k} = {sorted(v)!r}".replace("'", '"'))
    out += ["", "[map.places]"]
    for name, h in CITIES.items():
        out.append(f'{name} = "{h}"')
    out += ["", "[map.areas]"]
    for k, v in areas.items():
        out.append(f"{k} = {v!r}".replace("'", '"'))
    out += ["", "[map.hexsides]",
            'minor_river = ["1016/1017", "1116/1117", "1015/1016", "1717/1718", "1818/1819"]',
            'major_river = ["1017/1117", "1017/1118", "1725/1726", "2324/2424", "2423/2424"]',
            'rail_bridge = ["1025/1125"]', 'strait = ["1227/1327"]',
            'frozen_access = ["1704/1705"]',
            "", "[map.networks]", f"railroad = {rail_paths!r}".replace("'", '"'),
            "", "[map.boxes]", 'baku = { title = "Baku", entry = ["2434"] }', ""]
    dest = Path(__file__).resolve().parents[1] / "data" / "testmap.toml"
    dest.write_text("\n".join(out), encoding="utf-8")


if __name__ == "__main__":
    main()
