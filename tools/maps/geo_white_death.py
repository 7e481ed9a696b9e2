"""Real geography for the White Death map (Velikiye Luki, November 1942; one mile per hex).

The manual names no hex numbers, so the grid is laid over the real area: north up, one
mile (1.609 km) from hexside to hexside.  Coordinates are (lat, lon) in degrees.

Sources and confidence, feature by feature (also in docs/engines/white-death-map.md):

* real and fairly exact: Velikiye Luki, Novosokolniki (Nowossokoljniki), the course of
  the Lovat (Lowatj) from the WDB II river data (``data/white_death_wdb.json``, about
  5 km resolution) with hand points through the city, the directions of the railroads
  (Moscow-Riga through Velikiye Luki and Novosokolniki; Nevel-Novosokolniki-Leningrad;
  Bologoye-Velikiye Luki-Nevel), Velizh off the map to the south-east;
* real place, approximate position: Isotcha (Izocha station on the Velikiye Luki-Nevel
  line), the Citadel (the old fortress on the Lovat's left bank), the roads;
* stand-ins placed where the manual's text needs them: Guschtschino and Tschemosjom (the
  start line of the relief drive, south-west of the city), the frozen lakes (north flank of
  that drive), the northern swamps, forests, high ground and slopes, creeks.
"""

from __future__ import annotations

#: the map's frame: north edge latitude, west edge longitude, size in columns and rows
NORTH = 56.50
WEST = 29.98
COLS = 43
ROWS = 40
MILE_KM = 1.609

#: the Lovat (Lowatj), south to north; WDB II points, with the city reach drawn by hand
LOVAT: list[tuple[float, float]] = [
    (55.90, 30.5254), (55.907, 30.5119), (55.9414, 30.5242), (55.9644, 30.5019),
    (55.9978, 30.4569), (56.00, 30.3763), (56.0356, 30.3294), (56.0428, 30.2844),
    (56.0578, 30.2819), (56.1369, 30.3647), (56.1689, 30.4733), (56.2403, 30.5019),
    (56.300, 30.505), (56.335, 30.522), (56.370, 30.530), (56.4697, 30.5642),
    (56.4881, 30.618), (56.51, 30.60),
]

#: key -> (title, lat, lon, kind, how sure)
PLACES: dict[str, tuple[str, float, float, str, str]] = {
    "velikiye_luki": ("Velikiye Luki", 56.340, 30.525, "city", "real"),
    "citadel": ("Citadel", 56.334, 30.508, "fortress", "real place, approximate position"),
    "nowossokoljniki": ("Nowossokoljniki", 56.340, 30.150, "town", "real"),
    "isotcha": ("Isotcha", 56.195, 30.255, "town", "real place (Izocha station), approximate"),
    "guschtschino": ("Guschtschino", 56.150, 30.130, "village", "stand-in position"),
    "tschernosjom": ("Tschernosjom", 56.140, 30.300, "village",
                     "stand-in position; the manual's text prints Tschemosjom"),
}

#: the city's extent (hexes whose centre is within this many km of the centre are town)
CITY_RADIUS_KM = 2.7
#: the two halves of the city joined by the road bridge, hubs for the roads
CITY_WEST = (56.336, 30.506)
CITY_EAST = (56.342, 30.548)

#: the four standing bridges over the Lowatj (Rule 20), as latitudes where a road or the
#: railroad crosses: south of the city, the road and the rail bridge in it, north of it
BRIDGES: dict[str, float] = {
    "Lowatj bridge (south)": 56.215,
    "Lowatj road bridge": 56.338,
    "Lowatj rail bridge": 56.325,
    "Lowatj bridge (north)": 56.425,
}

#: railroads: (lat, lon) waypoints, place keys allowed; ends beyond the edge are clipped
RAILROADS: dict[str, list[str | tuple[float, float]]] = {
    "Moscow-Riga (Nelidovo-Velikiye Luki-Nowossokoljniki-Pustoshka)": [
        (56.30, 31.10), (56.325, 30.80), "city_e", "Lowatj rail bridge", "city_w",
        (56.34, 30.35),
        "nowossokoljniki", (56.33, 29.90)],
    "Bologoye-Velikiye Luki (to Toropets)": [
        (56.44, 31.10), (56.39, 30.75), "city_e"],
    "Velikiye Luki-Nevel": ["city_w", (56.28, 30.40), "isotcha", (56.08, 30.03),
                            (56.04, 29.95)],
    "Nevel-Nowossokoljniki-Leningrad": [(56.11, 29.95), (56.15, 30.05), (56.25, 30.13),
                                        "nowossokoljniki", (56.45, 30.17), (56.60, 30.17)],
}

#: roads
ROADS: dict[str, list[str | tuple[float, float]]] = {
    "Velikiye Luki-Nowossokoljniki": ["city_w", (56.345, 30.34), "nowossokoljniki"],
    "Nowossokoljniki-Pustoshka": ["nowossokoljniki", (56.31, 29.90)],
    "Nowossokoljniki-Loknya": ["nowossokoljniki", (56.45, 30.14), (56.60, 30.12)],
    "Nowossokoljniki-Nevel": ["nowossokoljniki", (56.20, 30.08), (56.05, 29.92)],
    "Velikiye Luki-Isotcha-Nevel": ["city_w", (56.27, 30.38), "isotcha", (56.10, 30.05),
                                    (56.06, 29.90)],
    "Velikiye Luki-Usvyaty": ["city_w", (56.27, 30.48), "Lowatj bridge (south)",
                              (56.10, 30.60), (55.85, 30.65)],
    "Velikiye Luki-Nelidovo": ["city_e", (56.31, 30.75), (56.27, 31.10)],
    "Velikiye Luki-Toropets": ["city_e", (56.40, 30.70), (56.46, 31.10)],
    "Velikiye Luki-Kholm": ["city_e", (56.39, 30.57), "Lowatj bridge (north)", (56.47, 30.50),
                            (56.60, 30.48)],
    "city bridge": ["city_w", "Lowatj road bridge", "city_e"],
}

#: frozen lakes as (lat, lon) axis lines: their hexsides are lake hexsides (Rule 13)
LAKES: dict[str, list[tuple[float, float]]] = {
    "lake_north_flank_1": [(56.265, 30.205), (56.280, 30.265)],
    "lake_north_flank_2": [(56.275, 30.305), (56.290, 30.350)],
    "lake_north_flank_3": [(56.305, 30.390), (56.318, 30.430)],
    "lake_northern_swamps": [(56.420, 30.290), (56.438, 30.345)],
    "lake_southeast": [(56.120, 30.620), (56.140, 30.680)],
}

#: northern swamps (passable for armour once frozen); (lat, lon) rings
SWAMPS: dict[str, list[tuple[float, float]]] = {
    "northern swamps west of the Lowatj": [(56.405, 30.02), (56.405, 30.46), (56.455, 30.50),
                                           (56.52, 30.50), (56.52, 30.02)],
    "northern swamps east of the Lowatj": [(56.425, 30.64), (56.415, 30.88), (56.47, 30.96),
                                           (56.52, 30.96), (56.52, 30.64)],
}

FORESTS: dict[str, list[tuple[float, float]]] = {
    "forest south-west": [(56.14, 29.97), (56.14, 30.11), (56.22, 30.11), (56.22, 29.97)],
    "forest south-east": [(55.98, 30.60), (55.98, 30.80), (56.08, 30.86), (56.10, 30.66)],
    "forest east": [(56.28, 30.72), (56.28, 30.86), (56.37, 30.90), (56.39, 30.73)],
    "forest between the towns": [(56.36, 30.21), (56.36, 30.31), (56.40, 30.31),
                                 (56.40, 30.21)],
    "forest south": [(55.92, 30.04), (55.92, 30.24), (56.01, 30.20), (56.00, 30.04)],
    "forest south of the city": [(56.18, 30.52), (56.18, 30.60), (56.22, 30.62),
                                 (56.22, 30.53)],
}

#: high ground: (lat, lon, radius km); its edge hexsides are slopes facing uphill
HIGH_GROUND: dict[str, tuple[float, float, float]] = {
    "heights south-west of the city": (56.295, 30.445, 1.9),
    "heights east of the city": (56.360, 30.625, 1.7),
    "heights south of the city": (56.205, 30.570, 1.5),
    "heights at Nowossokoljniki": (56.315, 30.205, 1.4),
}

#: creeks (hex terrain, Rule 7), stand-ins for the Lovat's small tributaries
CREEKS: dict[str, list[tuple[float, float]]] = {
    "creek north-east": [(56.46, 30.90), (56.43, 30.75), (56.415, 30.60), (56.41, 30.553)],
    "creek south-west": [(56.08, 30.12), (56.12, 30.22), (56.16, 30.37), (56.175, 30.47)],
    "creek east": [(56.24, 30.92), (56.26, 30.75), (56.27, 30.60), (56.28, 30.51)],
}

#: the historical front before 24 November 1942 (stand-in: roughly 12-15 miles east of
#: the city, the German outposts along it; the Soviet start area east of it)
FRONT_LON = (30.78, 30.83)
