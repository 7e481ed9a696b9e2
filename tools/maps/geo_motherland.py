"""Real geography for the For the Motherland! map (74 km per hex), as lat/lon tables.

Coordinates are (lat, lon) in degrees from general geographic knowledge, rounded to
about 0.05 degree (5 km), far finer than a 74 km hex.  Polylines (rivers, railroads,
crests) list real towns along the course.  Coastlines and lakes are not here: they come
from GSHHS through ``extract_geodata.py`` (``data/motherland_gshhs.json``).

Borders are those of 22 June 1941.  Every table is read by ``build_motherland.py``.
"""

from __future__ import annotations

# --- the nine anchors: hexes the rulebook prints -----------------------------------------

#: key -> (lat, lon, hex the book names)
ANCHORS: dict[str, tuple[float, float, str]] = {
    "danzig": (54.35, 18.65, "0307"),
    "konigsberg": (54.71, 20.51, "0507"),
    "constanta": (44.17, 28.63, "0325"),
    "leningrad": (59.94, 30.31, "1705"),
    "moscow": (55.75, 37.62, "2113"),
    "voronezh": (51.67, 39.20, "1919"),
    "rostov": (47.23, 39.70, "1726"),
    "stalingrad": (48.71, 44.51, "2424"),
    "kiev": (50.45, 30.52, "1017"),
}

# --- places ------------------------------------------------------------------------------
# key -> (title, lat, lon, kind, sea or "")
# kind: "city" or "port" (a port is also a city for control and victory purposes). 5.5:
# "the Axis player controls the ports of Danzig, Königsberg and Constanta. All other ports
# begin under Soviet control": so the only ports outside the Soviet Union are those three,
# and Helsinki, Memel, Varna and the Turkish coast towns are cities, not ports;
# sea: body of water for sea transport (5.5): baltic (Baltic Sea, Gulf of Riga and Gulf of
# Finland are one body), black (Black Sea), azov (Sea of Azov), caspian.

PLACES: dict[str, tuple[str, float, float, str, str]] = {
    # the book's anchors
    "danzig": ("Danzig", 54.35, 18.65, "port", "baltic"),
    "konigsberg": ("Königsberg", 54.71, 20.51, "port", "baltic"),
    "constanta": ("Constanta", 44.17, 28.63, "port", "black"),
    "leningrad": ("Leningrad", 59.94, 30.31, "port", "baltic"),
    "moscow": ("Moscow", 55.75, 37.62, "city", ""),
    "voronezh": ("Voronezh", 51.67, 39.20, "city", ""),
    "rostov": ("Rostov", 47.23, 39.70, "port", "azov"),
    "stalingrad": ("Stalingrad", 48.71, 44.51, "city", ""),
    "kiev": ("Kiev", 50.45, 30.52, "city", ""),
    # named in the book's text without a hex
    "helsinki": ("Helsinki", 60.17, 24.94, "city", ""),
    "odessa": ("Odessa", 46.48, 30.72, "port", "black"),
    "sevastopol": ("Sevastopol", 44.62, 33.52, "port", "black"),
    "novorossiysk": ("Novorossiysk", 44.72, 37.77, "port", "black"),
    "tuapse": ("Tuapse", 44.10, 39.07, "port", "black"),
    # other cities and ports of the theatre
    "memel": ("Memel", 55.71, 21.13, "city", ""),
    "libau": ("Libau", 56.51, 21.01, "port", "baltic"),
    "riga": ("Riga", 56.95, 24.11, "port", "baltic"),
    "tallinn": ("Tallinn", 59.44, 24.75, "port", "baltic"),
    "viipuri": ("Viipuri", 60.71, 28.75, "port", "baltic"),
    "warsaw": ("Warsaw", 52.23, 21.01, "city", ""),
    "lublin": ("Lublin", 51.25, 22.57, "city", ""),
    "brest": ("Brest-Litovsk", 52.10, 23.69, "city", ""),
    "bialystok": ("Bialystok", 53.13, 23.16, "city", ""),
    "kaunas": ("Kaunas", 54.90, 23.90, "city", ""),
    "vilnius": ("Vilnius", 54.69, 25.28, "city", ""),
    "daugavpils": ("Daugavpils", 55.87, 26.53, "city", ""),
    "pskov": ("Pskov", 57.82, 28.33, "city", ""),
    "novgorod": ("Novgorod", 58.52, 31.27, "city", ""),
    "tikhvin": ("Tikhvin", 59.64, 33.51, "city", ""),
    "petrozavodsk": ("Petrozavodsk", 61.78, 34.35, "city", ""),
    "vologda": ("Vologda", 59.22, 39.89, "city", ""),
    "yaroslavl": ("Yaroslavl", 57.63, 39.87, "city", ""),
    "kalinin": ("Kalinin", 56.86, 35.90, "city", ""),
    "rzhev": ("Rzhev", 56.26, 34.33, "city", ""),
    "velikiye_luki": ("Velikiye Luki", 56.34, 30.53, "city", ""),
    "vitebsk": ("Vitebsk", 55.19, 30.20, "city", ""),
    "minsk": ("Minsk", 53.90, 27.57, "city", ""),
    "smolensk": ("Smolensk", 54.78, 32.05, "city", ""),
    "vyazma": ("Vyazma", 55.21, 34.30, "city", ""),
    "mogilev": ("Mogilev", 53.90, 30.33, "city", ""),
    "gomel": ("Gomel", 52.43, 31.00, "city", ""),
    "bryansk": ("Bryansk", 53.25, 34.37, "city", ""),
    "tula": ("Tula", 54.20, 37.62, "city", ""),
    "ryazan": ("Ryazan", 54.63, 39.74, "city", ""),
    "gorky": ("Gorky", 56.33, 44.00, "city", ""),
    "orel": ("Orel", 52.97, 36.07, "city", ""),
    "kursk": ("Kursk", 51.73, 36.19, "city", ""),
    "kharkov": ("Kharkov", 49.99, 36.23, "city", ""),
    "poltava": ("Poltava", 49.59, 34.55, "city", ""),
    "chernigov": ("Chernigov", 51.49, 31.30, "city", ""),
    "zhitomir": ("Zhitomir", 50.25, 28.66, "city", ""),
    "vinnitsa": ("Vinnitsa", 49.23, 28.47, "city", ""),
    "lvov": ("Lvov", 49.84, 24.03, "city", ""),
    "rovno": ("Rovno", 50.62, 26.25, "city", ""),
    "chernovtsy": ("Chernovtsy", 48.29, 25.93, "city", ""),
    "kishinev": ("Kishinev", 47.01, 28.86, "city", ""),
    "iasi": ("Iasi", 47.16, 27.59, "city", ""),
    "galati": ("Galati", 45.44, 28.05, "city", ""),
    "bucharest": ("Bucharest", 44.43, 26.10, "city", ""),
    "ploesti": ("Ploesti", 44.94, 26.02, "city", ""),
    "varna": ("Varna", 43.21, 27.91, "city", ""),
    "istanbul": ("Istanbul", 41.01, 28.98, "city", ""),
    "nikolaev": ("Nikolaev", 46.97, 32.00, "city", ""),
    "kherson": ("Kherson", 46.64, 32.61, "port", "black"),
    "uman": ("Uman", 48.75, 30.22, "city", ""),
    "kremenchug": ("Kremenchug", 49.07, 33.42, "city", ""),
    "dnepropetrovsk": ("Dnepropetrovsk", 48.46, 35.05, "city", ""),
    "zaporozhye": ("Zaporozhye", 47.84, 35.14, "city", ""),
    "krivoi_rog": ("Krivoi Rog", 47.91, 33.39, "city", ""),
    "stalino": ("Stalino", 48.00, 37.80, "city", ""),
    "voroshilovgrad": ("Voroshilovgrad", 48.57, 39.31, "city", ""),
    "mariupol": ("Mariupol", 47.10, 37.55, "port", "azov"),
    "taganrog": ("Taganrog", 47.22, 38.90, "port", "azov"),
    "melitopol": ("Melitopol", 46.85, 35.37, "city", ""),
    "simferopol": ("Simferopol", 44.95, 34.10, "city", ""),
    "kerch": ("Kerch", 45.36, 36.47, "port", "black"),
    "feodosia": ("Feodosia", 45.03, 35.38, "port", "black"),
    "krasnodar": ("Krasnodar", 45.04, 38.98, "city", ""),
    "maikop": ("Maikop", 44.61, 40.10, "city", ""),
    "armavir": ("Armavir", 45.00, 41.12, "city", ""),
    "voroshilovsk": ("Voroshilovsk", 45.04, 41.97, "city", ""),
    "grozny": ("Grozny", 43.32, 45.69, "city", ""),
    "ordzhonikidze": ("Ordzhonikidze", 43.02, 44.68, "city", ""),
    "makhachkala": ("Makhachkala", 42.98, 47.50, "port", "caspian"),
    "astrakhan": ("Astrakhan", 46.35, 48.04, "port", "caspian"),
    "elista": ("Elista", 46.31, 44.26, "city", ""),
    "saratov": ("Saratov", 51.53, 46.03, "city", ""),
    "sukhumi": ("Sukhumi", 43.00, 41.02, "port", "black"),
    "trabzon": ("Trabzon", 41.00, 39.72, "city", ""),
    "samsun": ("Samsun", 41.29, 36.33, "city", ""),
    "kalach": ("Kalach", 48.69, 43.53, "city", ""),
    "millerovo": ("Millerovo", 48.92, 40.40, "city", ""),
    "tambov": ("Tambov", 52.72, 41.45, "city", ""),
    "penza": ("Penza", 53.20, 45.00, "city", ""),
    "kaluga": ("Kaluga", 54.53, 36.27, "city", ""),
    "staraya_russa": ("Staraya Russa", 57.99, 31.35, "city", ""),
    "kholm": ("Kholm", 57.15, 31.18, "city", ""),
    "belgorod": ("Belgorod", 50.60, 36.60, "city", ""),
}

#: the city named in the book with a victory point value (19.1 example: Moscow, 10 VP
#: held, 5 VP recaptured); the scenario tables with the others were lost in extraction
VICTORY: dict[str, tuple[int, int]] = {"moscow": (10, 5)}

#: Soviet fortress cities (designer's notes: Fortress units in Sevastopol, Leningrad and
#: Moscow); the map marks them "fortified" for the Railroad Gun (16.2)
FORTIFIED = ("leningrad", "moscow", "sevastopol")

# --- lakes kept from GSHHS (lat, lon inside each); reservoirs built after 1941 are not ----
LAKES: dict[str, tuple[float, float]] = {
    "Lake Ladoga": (60.80, 31.50),
    "Lake Onega": (61.70, 35.50),
    "Lake Peipus": (58.70, 27.50),
    "Lake Pskov": (57.95, 27.90),
    "Lake Ilmen": (58.27, 31.30),
    "Lake Beloye": (60.18, 37.65),
    "Lake Saimaa": (61.30, 28.40),
    "Lake Paijanne": (61.50, 25.50),
    "Caspian Sea": (42.00, 50.50),
}

# --- rivers: (lat, lon) from source (or map edge) to mouth ----------------------------------
# class: "major_river" or "minor_river" (8.4.1)
RIVERS: dict[str, tuple[str, str, list[tuple[float, float]]]] = {
    "dnieper": ("Dnieper", "major_river", [
        (55.87, 33.60), (54.92, 33.30), (54.78, 32.05), (54.51, 30.42), (54.21, 30.29),
        (53.90, 30.33), (53.52, 30.25), (53.09, 30.05), (52.89, 30.02), (52.36, 30.39),
        (51.94, 30.80), (51.30, 30.55), (50.45, 30.55), (49.75, 31.47), (49.44, 32.06),
        (49.07, 33.42), (48.46, 35.05), (47.84, 35.14), (47.57, 34.40), (46.81, 33.48),
        (46.64, 32.61), (46.50, 32.20)]),
    "don": ("Don", "major_river", [
        (54.00, 38.30), (53.30, 38.80), (53.00, 39.15), (52.39, 38.92), (51.60, 39.05),
        (50.98, 39.50), (50.45, 40.10), (50.17, 40.38), (49.93, 40.55), (49.80, 41.15),
        (49.58, 42.73), (49.00, 43.40), (48.69, 43.53), (47.65, 42.10), (47.58, 41.10),
        (47.50, 40.40), (47.20, 39.70), (47.10, 39.30)]),
    "volga_upper": ("Volga", "major_river", [
        (57.25, 32.50), (56.80, 33.60), (56.26, 34.33), (56.50, 34.93), (56.86, 35.90),
        (56.73, 37.17), (56.87, 37.35), (57.24, 37.85), (57.53, 38.33), (58.05, 38.83),
        (57.63, 39.87), (57.77, 40.93), (57.44, 42.15), (56.90, 43.40), (56.33, 44.00),
        (56.13, 47.25)]),
    "volga_lower": ("Volga", "major_river", [
        (53.16, 48.45), (52.05, 47.38), (51.53, 46.03), (50.08, 45.40), (49.20, 44.80),
        (48.71, 44.51), (48.20, 45.30), (47.50, 46.70), (46.35, 48.04), (45.90, 48.80)]),
    "western_dvina": ("Western Dvina", "major_river", [
        (56.87, 32.50), (56.65, 32.27), (56.26, 32.08), (55.60, 31.20), (55.40, 30.72),
        (55.19, 30.20), (55.49, 28.79), (55.78, 27.94), (55.90, 27.17), (55.87, 26.53),
        (56.50, 25.86), (56.60, 25.25), (56.95, 24.10), (57.05, 24.03)]),
    "dniester": ("Dniester", "major_river", [
        (49.20, 23.00), (49.12, 24.72), (48.64, 25.74), (48.50, 26.50), (48.45, 27.80),
        (48.15, 28.30), (47.77, 29.00), (47.27, 29.16), (46.83, 29.48), (46.50, 29.90),
        (46.10, 30.30)]),
    "danube": ("Danube", "major_river", [
        (44.63, 22.66), (43.99, 22.93), (43.70, 24.80), (43.90, 25.97), (44.12, 27.27),
        (44.34, 28.03), (45.27, 27.97), (45.44, 28.05), (45.35, 28.80), (45.16, 29.65)]),
    "vistula": ("Vistula", "major_river", [
        (50.05, 19.90), (50.68, 21.75), (51.40, 21.95), (51.56, 21.85), (52.23, 21.01),
        (52.43, 20.70), (52.55, 19.70), (53.01, 18.60), (53.48, 18.75), (54.09, 18.78),
        (54.36, 18.95)]),
    "svir": ("Svir", "major_river", [
        (61.00, 35.50), (60.73, 33.55), (60.55, 32.90)]),
    "neman": ("Neman", "minor_river", [
        (53.48, 26.74), (53.41, 24.54), (53.68, 23.83), (54.00, 23.97), (54.40, 24.05),
        (54.90, 23.90), (55.08, 22.77), (55.08, 21.88), (55.30, 21.30)]),
    "western_bug": ("Bug", "minor_river", [
        (49.97, 24.60), (50.48, 24.28), (50.86, 24.15), (51.50, 23.65), (52.08, 23.65),
        (52.40, 22.66), (52.60, 21.90), (52.50, 21.05)]),
    "san": ("San", "minor_river", [
        (49.00, 22.60), (49.56, 22.20), (49.78, 22.77), (50.02, 22.68), (50.40, 22.10),
        (50.70, 21.85)]),
    "narew": ("Narew", "minor_river", [
        (52.90, 23.60), (53.10, 22.60), (53.18, 22.06), (53.09, 21.57), (52.70, 21.09),
        (52.51, 21.06)]),
    "prut": ("Prut", "minor_river", [
        (48.35, 24.70), (48.29, 25.93), (48.20, 26.60), (47.70, 27.20), (47.21, 27.80),
        (46.48, 28.25), (45.90, 28.20), (45.47, 28.20)]),
    "southern_bug": ("Southern Bug", "minor_river", [
        (49.60, 26.90), (49.42, 27.00), (49.23, 28.47), (48.80, 29.30), (48.05, 30.85),
        (47.57, 31.33), (46.97, 32.00), (46.60, 31.90)]),
    "pripyat": ("Pripyat", "minor_river", [
        (51.75, 24.00), (52.11, 26.10), (52.07, 27.74), (52.05, 29.24), (51.27, 30.22),
        (51.15, 30.50)]),
    "berezina": ("Berezina", "minor_river", [
        (54.70, 28.30), (54.23, 28.50), (53.14, 29.22), (52.63, 29.75), (52.38, 30.38)]),
    "desna": ("Desna", "minor_river", [
        (54.60, 33.10), (53.90, 33.90), (53.25, 34.37), (52.58, 33.77), (52.00, 33.26),
        (51.50, 32.60), (51.49, 31.30), (50.52, 30.58)]),
    "sozh": ("Sozh", "minor_river", [
        (54.50, 31.90), (53.70, 31.70), (52.43, 31.00), (51.94, 30.80)]),
    "donets": ("Donets", "minor_river", [
        (51.20, 36.80), (50.60, 36.60), (49.84, 36.68), (49.20, 37.28), (48.90, 38.43),
        (48.65, 39.47), (48.32, 40.27), (48.17, 40.80), (47.65, 40.90)]),
    "oka": ("Oka", "minor_river", [
        (52.40, 36.50), (52.97, 36.07), (53.80, 36.13), (54.53, 36.27), (54.92, 37.40),
        (55.10, 38.77), (54.63, 39.74), (54.94, 41.39), (55.58, 42.05), (56.33, 44.00)]),
    "volkhov": ("Volkhov", "minor_river", [
        (58.52, 31.27), (59.45, 32.02), (59.92, 32.33), (60.12, 32.30)]),
    "lovat": ("Lovat", "minor_river", [
        (55.70, 30.10), (56.34, 30.53), (57.15, 31.18), (57.80, 31.40), (58.15, 31.45)]),
    "velikaya": ("Velikaya", "minor_river", [
        (56.50, 29.00), (56.71, 28.67), (57.34, 28.35), (57.82, 28.33), (58.00, 28.10)]),
    "kuban": ("Kuban", "minor_river", [
        (43.50, 41.90), (44.22, 42.06), (44.63, 41.94), (44.99, 41.12), (45.43, 40.57),
        (45.22, 39.70), (45.04, 38.98), (45.26, 38.12), (45.28, 37.38)]),
    "terek": ("Terek", "minor_river", [
        (42.70, 44.60), (43.02, 44.68), (43.50, 44.10), (43.74, 44.65), (43.65, 45.50),
        (43.85, 46.71), (44.00, 47.30)]),
    "mius": ("Mius", "minor_river", [
        (48.20, 38.60), (47.60, 38.90), (47.25, 38.75)]),
    "khoper": ("Khoper", "minor_river", [
        (52.90, 43.40), (51.55, 43.17), (50.80, 42.00), (49.55, 42.20)]),
    "seym": ("Seym", "minor_river", [
        (51.70, 37.00), (51.73, 36.19), (51.57, 34.68), (51.40, 33.00)]),
}

# --- terrain areas (lon, lat rings) ------------------------------------------------------

SWAMP: dict[str, list[tuple[float, float]]] = {
    "Pripet Marshes": [(23.8, 51.8), (24.5, 52.4), (26.0, 52.5), (27.5, 52.5), (28.8, 52.4),
                       (29.8, 52.2), (30.3, 51.8), (30.1, 51.3), (29.0, 51.3), (27.5, 51.2),
                       (26.0, 51.3), (24.5, 51.3)],
    "Volkhov swamps": [(31.0, 58.7), (32.0, 58.7), (32.8, 59.3), (32.0, 59.6), (31.0, 59.3),
                       (30.6, 58.9)],
    "Lovat swamps": [(31.2, 57.5), (32.8, 57.5), (33.0, 58.1), (31.6, 58.2)],
    "Kuban delta": [(37.6, 45.3), (38.3, 45.4), (38.6, 46.0), (38.0, 46.1), (37.6, 45.7)],
}

WOODS: dict[str, list[tuple[float, float]]] = {
    "northern forest": [(29.6, 59.1), (33.5, 58.5), (38.0, 58.6), (42.0, 58.3), (47.0, 58.0),
                        (47.0, 66.0), (29.6, 66.0)],
    "Karelian forest": [(20.0, 60.5), (27.8, 60.6), (28.8, 60.9), (30.0, 61.3), (30.0, 66.0),
                        (20.0, 66.0)],
    "Valdai and Toropets forests": [(29.8, 56.0), (33.5, 56.2), (34.8, 57.2), (33.5, 58.2),
                                    (31.0, 57.4), (29.8, 57.0)],
    "Bryansk forest": [(33.0, 52.6), (35.2, 52.8), (35.4, 53.8), (33.8, 54.2), (32.8, 53.6)],
    "Belorussian forests": [(25.8, 53.6), (27.0, 53.5), (28.2, 53.9), (29.0, 54.5),
                            (28.6, 54.9), (27.5, 54.6), (26.2, 54.2)],
    "Vyazma forests": [(32.5, 54.9), (35.0, 55.0), (35.5, 55.6), (33.0, 55.6)],
    "Meshchera": [(39.5, 55.0), (41.3, 55.0), (41.5, 55.9), (39.5, 55.8)],
}

#: mountain crests as (lat, lon) polylines with a half-width in km; "high_mountain" ranges
#: are the central Greater Caucasus (5.1.5: only German Mountain units enter)
MOUNTAINS: dict[str, tuple[str, float, list[tuple[float, float]]]] = {
    "Carpathians": ("mountain", 45.0, [
        (49.35, 21.00), (49.10, 22.50), (48.60, 23.50), (48.15, 24.40), (47.70, 25.00),
        (47.10, 25.50), (46.50, 25.90), (45.90, 26.20), (45.50, 25.60), (45.50, 24.50),
        (45.40, 23.50), (45.30, 22.60), (45.60, 22.20)]),
    "Crimean Mountains": ("mountain", 22.0, [
        (44.50, 33.70), (44.70, 34.30), (44.85, 35.00), (44.95, 35.40)]),
    "Western Caucasus": ("mountain", 45.0, [
        (44.80, 37.90), (44.45, 38.80), (44.10, 39.60), (43.70, 40.30), (43.45, 41.20),
        (43.30, 42.00)]),
    "Central Caucasus": ("high_mountain", 40.0, [
        (43.30, 42.00), (43.35, 42.45), (43.00, 43.40), (42.70, 44.50), (42.40, 45.50)]),
    "Eastern Caucasus": ("mountain", 45.0, [
        (42.40, 45.50), (42.00, 46.50), (41.60, 47.50), (41.20, 48.30)]),
    "Lesser Caucasus": ("mountain", 35.0, [
        (41.60, 41.80), (41.50, 42.80), (41.20, 43.80), (40.80, 45.00), (40.30, 46.00)]),
    "Pontic Mountains": ("mountain", 45.0, [
        (41.30, 33.00), (41.00, 35.00), (40.60, 37.00), (40.60, 39.00), (40.80, 40.50),
        (41.10, 41.50), (41.00, 42.30)]),
    "Balkan Mountains": ("mountain", 25.0, [
        (43.20, 23.00), (42.75, 24.50), (42.75, 26.00), (42.80, 27.20)]),
}

# --- borders of 22 June 1941 (lon, lat rings); land outside all of them is Soviet ----------

#: countries the book's list leaves out (2.2): their land is off the map
NOT_ON_MAP = ("sweden",)

COUNTRIES: dict[str, list[tuple[float, float]]] = {
    "sweden": [(10.0, 55.3), (19.2, 55.3), (19.2, 61.0), (17.5, 66.0), (10.0, 66.0)],
    "finland": [(19.0, 59.7), (23.0, 59.75), (25.0, 59.95), (27.0, 60.2), (27.8, 60.45),
                (27.8, 60.55), (28.65, 61.0), (29.3, 61.35),
                (29.9, 61.7), (30.7, 62.0), (31.3, 62.5), (30.6, 63.5), (30.0, 66.0),
                (19.0, 66.0)],
    "germany": [(10.0, 50.0), (18.5, 49.6), (18.5, 52.3), (19.5, 52.45), (20.5, 52.6),
                (21.7, 52.75), (21.85, 53.05), (22.0, 53.45), (22.6, 53.75), (23.4, 54.15),
                (22.8, 54.4), (22.7, 54.95), (22.5, 55.08), (21.8, 55.55), (21.06, 55.87),
                (20.5, 56.5), (10.0, 56.5)],
    "poland": [(18.5, 52.3), (19.5, 52.45), (20.5, 52.6), (21.7, 52.75), (22.0, 52.65),
               (23.2, 52.2), (23.6, 51.6), (23.9, 51.0), (24.1, 50.6), (23.4, 50.3),
               (22.8, 49.8), (22.5, 49.4), (22.6, 49.0), (22.0, 49.2), (21.0, 49.4),
               (20.0, 49.2), (19.0, 49.4), (18.5, 49.6)],
    "slovakia": [(17.0, 48.0), (17.0, 49.6), (18.5, 49.6), (19.0, 49.4), (20.0, 49.2),
                 (21.0, 49.4), (22.0, 49.2), (22.6, 49.0), (22.2, 48.9), (21.5, 48.6),
                 (20.5, 48.3), (19.0, 48.0)],
    "hungary": [(19.0, 48.0), (20.5, 48.3), (21.5, 48.6), (22.2, 48.9), (22.6, 49.0),
                (23.5, 48.6), (24.3, 48.2), (24.9, 47.9), (25.3, 47.3), (25.7, 47.0),
                (26.3, 46.6), (26.2, 46.1), (25.8, 45.8), (25.2, 46.0), (24.5, 46.35),
                (23.8, 46.6), (23.0, 46.75), (22.2, 46.8), (21.5, 46.6), (21.0, 46.3),
                (19.0, 46.0)],
    "romania": [(24.9, 47.9), (25.5, 47.95), (26.2, 48.0), (26.6, 48.25), (27.2, 47.8),
                (27.8, 47.2), (28.1, 46.5), (28.2, 45.9), (28.2, 45.45), (28.8, 45.3),
                (29.8, 45.2), (29.8, 44.5), (28.9, 43.74), (28.58, 43.74), (27.3, 44.12),
                (26.0, 43.9), (24.8, 43.7), (23.0, 43.8), (22.5, 44.2), (22.0, 44.6),
                (21.3, 45.0), (20.3, 46.1), (21.0, 46.3), (21.5, 46.6), (22.2, 46.8),
                (23.0, 46.75), (23.8, 46.6), (24.5, 46.35), (25.2, 46.0), (25.8, 45.8),
                (26.2, 46.1), (26.3, 46.6), (25.7, 47.0), (25.3, 47.3)],
    "bulgaria": [(22.3, 44.0), (22.7, 44.2), (23.0, 43.8), (24.8, 43.7), (26.0, 43.9),
                 (27.3, 44.12), (28.58, 43.74), (29.0, 43.7), (28.5, 42.0), (28.0, 41.98),
                 (27.0, 42.1), (26.3, 41.7), (26.0, 41.3), (23.0, 41.3), (22.4, 42.3)],
    "turkey": [(25.5, 36.5), (25.5, 41.7), (26.3, 41.75), (27.0, 42.1), (28.0, 41.98),
               (28.5, 42.0), (29.3, 41.4), (31.0, 41.6), (33.0, 42.2), (35.0, 42.3),
               (36.5, 41.6), (38.0, 41.3), (40.0, 41.25), (41.55, 41.53), (42.6, 41.45),
               (43.2, 41.25), (43.5, 41.1), (43.6, 40.9), (43.7, 40.1), (44.6, 39.7),
               (45.0, 36.5)],
}

# --- railroads: lines as waypoints (place keys or (lat, lon)) ------------------------------
# A line may start or end off the map: its waypoints beyond the edge are clipped away.

RAILROADS: dict[str, list[str | tuple[float, float]]] = {
    "Berlin-Warsaw-Minsk-Moscow": [(52.4, 16.9), "warsaw", "brest", (53.13, 26.0), "minsk",
                                    (54.51, 30.42), "smolensk", "vyazma", (55.5, 36.0),
                                    "moscow"],
    "Danzig-Konigsberg-Kaunas-Vilnius-Minsk": ["danzig", (54.03, 19.04), "konigsberg",
                                                (54.63, 21.81), (54.64, 22.57), "kaunas",
                                                "vilnius", (54.31, 26.85), "minsk"],
    "Danzig-Warsaw": ["danzig", (53.15, 20.38), "warsaw"],
    "Warsaw-Bialystok-Vilnius": ["warsaw", "bialystok", (53.68, 23.83), "vilnius"],
    "Konigsberg-Memel-Libau": ["konigsberg", (55.08, 21.88), "memel", "libau"],
    "Tilsit-Siauliai-Riga": [(55.08, 21.88), (55.93, 23.31), "riga"],
    "Riga-Daugavpils-Vitebsk-Smolensk-Bryansk-Orel": ["riga", "daugavpils", (55.49, 28.79),
                                                      "vitebsk", "smolensk", (53.9, 33.7),
                                                      "bryansk", "orel"],
    "Riga-Pskov-Leningrad": ["riga", (57.78, 26.05), "pskov", (58.74, 29.85), "leningrad"],
    "Tallinn-Narva-Leningrad": ["tallinn", (59.38, 28.2), "leningrad"],
    "Helsinki-Viipuri-Leningrad": ["helsinki", (60.87, 26.7), "viipuri", "leningrad"],
    "Leningrad-Moscow": ["leningrad", (59.12, 31.66), (57.88, 34.05), "kalinin", "moscow"],
    "Leningrad-Dno-Novosokolniki-Vitebsk": ["leningrad", (58.74, 29.85), (57.82, 29.97),
                                             (56.34, 30.15), (56.02, 29.93), "vitebsk"],
    "Leningrad-Tikhvin-Vologda": ["leningrad", (59.92, 32.33), "tikhvin", (59.5, 35.5),
                                  (59.4, 38.0), "vologda"],
    "Volkhov-Petrozavodsk-Murmansk": [(59.92, 32.33), (60.73, 33.55), "petrozavodsk",
                                      (62.90, 34.45), (64.52, 34.77)],
    "Vologda-Arkhangelsk": ["vologda", (60.97, 40.22), (64.54, 40.54)],
    "Moscow-Yaroslavl-Vologda": ["moscow", (56.3, 38.13), "yaroslavl", "vologda"],
    "Vologda-east": ["vologda", (59.1, 42.0), (58.9, 46.0)],
    "Moscow-Gorky": ["moscow", (56.13, 40.4), "gorky"],
    "Gorky-east": ["gorky", (56.3, 46.5), (56.13, 47.25)],
    "Moscow-Ryazan-Tambov-Saratov": ["moscow", "ryazan", (52.9, 40.5), "tambov",
                                     (51.99, 43.0), "saratov"],
    "Ryazan-Penza": [(53.5, 42.0), "penza", (53.2, 47.0)],
    "Moscow-Rzhev-Velikiye Luki-Riga": ["moscow", (55.99, 35.68), "rzhev", (56.22, 32.78),
                                        "velikiye_luki", (56.34, 30.15), (56.29, 28.5),
                                        (56.5, 27.3), "riga"],
    "Moscow-Tula-Orel-Kursk-Kharkov": ["moscow", "tula", "orel", "kursk", "belgorod",
                                       "kharkov"],
    "Moscow-Kaluga-Bryansk-Kiev": ["moscow", "kaluga", (54.05, 35.35), "bryansk",
                                   (51.2, 33.2), (51.05, 31.9), "kiev"],
    "Moscow-Voronezh-Rostov": ["ryazan", (52.9, 40.5), "voronezh", (50.98, 39.5),
                               "millerovo", (48.05, 40.25), "rostov"],
    "Kharkov-Lozovaya-Zaporozhye-Crimea": ["kharkov", (48.89, 36.3), "zaporozhye",
                                           "melitopol", (46.17, 34.8), (45.71, 34.39),
                                           "simferopol", "sevastopol"],
    "Dzhankoy-Kerch": [(45.71, 34.39), "feodosia", "kerch"],
    "Kiev-Poltava-Kharkov": ["kiev", (50.0, 32.0), "poltava", "kharkov"],
    "Kharkov-Stalino-Taganrog-Rostov": ["kharkov", (49.2, 37.28), (48.6, 37.7), "stalino",
                                        "taganrog", "rostov"],
    "Kharkov-Voronezh": ["kharkov", (50.2, 38.1), (50.98, 39.5), "voronezh"],
    "Kursk-Voronezh": ["kursk", (51.8, 38.0), "voronezh"],
    "Dnepropetrovsk-Stalino": ["krivoi_rog", "dnepropetrovsk", (48.28, 36.0),
                               (48.28, 37.18), "stalino"],
    "Stalino-Voroshilovgrad-Millerovo": ["stalino", (48.3, 38.3), "voroshilovgrad",
                                         "millerovo"],
    "Likhaya-Stalingrad": [(48.1, 40.2), (48.2, 42.0), "kalach", "stalingrad"],
    "Voronezh-Povorino-Stalingrad": ["voronezh", (51.2, 42.25), (50.0, 43.5), "stalingrad"],
    "Stalingrad-Saratov": ["stalingrad", (50.1, 45.3), "saratov"],
    "Stalingrad-Tikhoretsk": ["stalingrad", (47.6, 43.1), (46.47, 41.53), (45.85, 40.12)],
    "Rostov-Tikhoretsk-Armavir-Grozny-Makhachkala": ["rostov", (45.85, 40.12), "armavir",
                                                      (44.2, 43.1), (43.75, 44.03),
                                                      "ordzhonikidze", "grozny", (43.35, 46.1),
                                                      "makhachkala", (41.5, 48.7)],
    "Tikhoretsk-Krasnodar-Novorossiysk": [(45.85, 40.12), "krasnodar", "novorossiysk"],
    "Armavir-Tuapse": ["armavir", "maikop", "tuapse", (43.6, 39.73), "sukhumi"],
    "Armavir-Voroshilovsk": ["armavir", "voroshilovsk"],
    "Prokhladny-Mozdok-Gudermes": [(43.75, 44.03), (43.74, 44.65), (43.35, 46.1)],
    "Kiev-Kazatin-Vinnitsa-Odessa": ["kiev", (49.72, 28.83), "vinnitsa", (49.05, 28.1),
                                     (47.75, 29.5), "odessa"],
    "Kiev-Zhitomir-Rovno-Lvov": ["kiev", "zhitomir", (50.2, 27.0), "rovno", (50.1, 25.2),
                                 "lvov"],
    "Brest-Kovel-Rovno": ["brest", (51.21, 24.71), "rovno"],
    "Lvov-Przemysl-Krakow": ["lvov", (49.78, 22.77), (50.05, 19.9)],
    "Lvov-Lublin-Warsaw": ["lvov", (50.48, 24.28), "lublin", "warsaw"],
    "Lvov-Tarnopol-Zhmerinka": ["lvov", (49.55, 25.59), (49.42, 27.0), (49.05, 28.1)],
    "Lvov-Chernovtsy-Iasi-Bucharest": ["lvov", (49.0, 24.7), "chernovtsy", (47.6, 26.2),
                                       (47.3, 26.8), "iasi"],
    "Iasi-Kishinev-Odessa": ["iasi", "kishinev", (46.83, 29.48), "odessa"],
    "Pascani-Bucharest-Constanta": [(47.3, 26.8), (45.7, 27.2), (45.15, 26.8), "ploesti",
                                    "bucharest", (44.34, 28.03), "constanta"],
    "Buzau-Galati": [(45.15, 26.8), (45.27, 27.97), "galati"],
    "Odessa-Nikolaev-Kherson": ["odessa", (47.1, 31.0), "nikolaev", "kherson"],
    "Nikolaev-Krivoi Rog-Dnepropetrovsk": ["nikolaev", (47.6, 32.5), "krivoi_rog"],
    "Kiev-Uman-Pervomaisk": [(49.72, 28.83), "uman", (48.05, 30.85), "nikolaev"],
    "Poltava-Kremenchug-Krivoi Rog": ["poltava", "kremenchug", (48.65, 33.0), "krivoi_rog"],
    "Minsk-Bobruisk-Gomel-Bryansk": ["minsk", (53.14, 29.22), (52.89, 30.02), "gomel",
                                     (52.6, 32.8), "bryansk"],
    "Orsha-Mogilev-Zhlobin": [(54.51, 30.42), "mogilev", (52.89, 30.02)],
    "Gomel-Chernigov-Kiev": ["gomel", "chernigov", "kiev"],
    "Kalinin-Rzhev-Vyazma-Kaluga-Tula": ["kalinin", (56.7, 34.9), "rzhev", "vyazma",
                                         "kaluga", "tula"],
    "Novgorod-Chudovo": ["novgorod", (59.12, 31.66)],
    "Staraya Russa-Dno-Pskov": ["staraya_russa", (57.82, 29.97), "pskov"],
    "Bologoye-Velikiye Luki-Vitebsk": [(57.88, 34.05), (57.16, 33.1), (56.5, 31.64),
                                       "velikiye_luki", (56.02, 29.93)],
}
