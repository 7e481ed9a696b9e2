# ruff: noqa: E501
# mypy: ignore-errors
"""Offline generator of the For the Motherland! counter mix, turn track and setups.

Run once; its output (scenarios/for-the-motherland/*.toml) is the committed data.  The
placements are hex ids taken from the MAPS.md fitted transform (cities and towns snapped
to the nearest hex); the book's named hexes are used as printed.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parents[3] / "scenarios" / "for-the-motherland"

# --- counters -------------------------------------------------------------------------

PANZER = ["3", "14", "24", "39", "40", "41", "46", "47", "48", "56", "57"]
INFANTRY = ["1", "2", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "17", "20",
            "23", "26", "28", "29", "30", "38", "43", "44", "53", "55", "3", "35", "42", "51", "52"]
MOUNTAIN = ["49", "54"]


def axis_counters() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for n in PANZER:
        out.append({"id": f"{n}Pz", "name": f"{n}th Panzer Corps", "type": "panzer",
                    "nation": "german"})
    for n in INFANTRY:
        out.append({"id": f"{n}K", "name": f"{n}th Corps", "type": "infantry",
                    "nation": "german"})
    for n in MOUNTAIN:
        out.append({"id": f"{n}Mt", "name": f"{n}th Mountain Corps", "type": "mountain",
                    "nation": "german"})
    out.append({"id": "SSPz", "name": "SS Panzer Corps", "type": "ss_panzer",
                "nation": "german"})
    for i in range(1, 4):
        out.append({"id": f"AB{i}", "name": f"Air Base {i}", "type": "air_base",
                    "nation": "german"})
    for i in range(1, 6):
        out.append({"id": f"SB{i}", "name": f"Supply Base {i}", "type": "supply_base",
                    "nation": "german"})
    out.append({"id": "RRGun", "name": "Railroad Gun", "type": "railroad_gun",
                "nation": "german"})
    for uid, name, nation in [("Rom3", "Romanian 3rd Army", "romanian"),
                              ("Rom4", "Romanian 4th Army", "romanian"),
                              ("Hun2", "Hungarian 2nd Army", "hungarian"),
                              ("Ita8", "Italian 8th Army", "italian"),
                              ("FinKar", "Finnish Karelian Army", "finnish"),
                              ("FinSE", "Finnish South East Army", "finnish")]:
        out.append({"id": uid, "name": name, "type": "allied_army", "nation": nation})
    for i in (1, 2):
        out.append({"id": f"Tur{i}", "name": f"Turkish {i}st Corps" if i == 1 else
                    f"Turkish {i}nd Corps", "type": "turkish", "nation": "turkish"})
    return out


CA_A = ["5", "16", "19", "20"]
CA_B = ["3", "6", "8", "10", "11", "12", "13", "21", "22", "26", "24", "28", "29", "30",
        "33", "38", "40", "43", "49", "50", "56", "60", "62", "64", "65", "69", "70"]
CA_C = ["4", "7", "9", "18", "23", "27", "31", "32", "34", "37", "44", "47", "48", "51",
        "52", "54", "55", "57", "58", "59", "61", "63", "66", "67"]


def soviet_counters() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for letters, names in (("A", CA_A), ("B", CA_B), ("C", CA_C)):
        for n in names:
            out.append({"id": f"{n}A", "name": f"{n}th Army", "type": "combined_arms",
                        "letter": letters})
    for n in range(1, 9):
        out.append({"id": f"{n}Gd", "name": f"{n}st Guards Army", "type": "guards",
                    "letter": "B"})
    for n in range(1, 6):
        out.append({"id": f"{n}Sh", "name": f"{n}st Shock Army", "type": "shock",
                    "letter": "B"})
    for n in range(1, 7):
        out.append({"id": f"{n}T", "name": f"{n}st Tank Army", "type": "tank", "letter": "A"})
    for n in range(1, 5):
        out.append({"id": f"MG{n}", "name": f"Mechanized Group {n}", "type": "mech_group",
                    "letter": "C"})
    for code, name in (("LNG", "Leningrad"), ("MOS", "Moscow"), ("SEV", "Sevastopol")):
        out.append({"id": f"F{code}", "name": f"{name} Fortress", "type": "fortress",
                    "letter": "C"})
    for n in range(1, 15):
        out.append({"id": f"OS{n}", "name": f"Offensive Support {n}",
                    "type": "offensive_support"})
    for uid, name, kind in ECONOMY:
        out.append({"id": uid, "name": name, "type": "economic", "asset": kind})
    return out


ECONOMY = [("FacLNG", "Leningrad factories", "factory"), ("FacMOS", "Moscow factories", "factory"),
           ("FacKEV", "Kiev factories", "factory"), ("FacKHA", "Kharkov factories", "factory"),
           ("FacSLN", "Stalino factories", "factory"), ("FacSTG", "Stalingrad factories", "factory"),
           ("FacTUL", "Tula factories", "factory"), ("FacVOR", "Voronezh factories", "factory"),
           ("FacGOR", "Gorky factories", "factory"), ("OilMAI", "Maikop oil field", "oil_field"),
           ("OilGRO", "Grozny oil field", "oil_field"), ("PipeMOZ", "Mozdok oil pipeline", "pipeline"),
           ("CoalDON", "Donbass coal mines", "coal_mine"), ("OreKRI", "Krivoi Rog ore", "ore"),
           ("OreNIK", "Nikopol manganese", "ore"), ("FacTBL", "Tbilisi factories", "factory")]

# --- setups (hex ids; the book's named hexes as printed) ---------------------------------

SETUP_1941_AXIS = {
    "0608": ["41Pz", "56Pz", "1K"], "0607": ["26K", "38K"], "0507": ["10K", "28K"],
    "0609": ["39Pz", "57Pz", "5K"], "0410": ["6K", "8K", "20K"], "0412": ["47Pz", "46Pz", "12K"],
    "0411": ["24Pz", "9K", "7K"], "0311": ["13K", "43K", "53K"], "0414": ["3Pz", "48Pz", "29K"],
    "0214": ["14Pz", "44K", "55K"], "0313": ["17K", "4K", "49Mt"], "0421": ["11K", "30K", "54Mt"],
    "0520": ["Rom3"], "0423": ["Rom4"], "1702": ["FinSE"], "1602": ["FinKar"],
    "0307": ["AB1"], "0310": ["AB2"], "0213": ["AB3"],
}
SETUP_1941_AXIS_BASES = {"0508": "SB1", "0409": "SB2", "0312": "SB3", "0314": "SB4", "0422": "SB5"}
SETUP_1941_SOVIET = {
    "0807": ["8A"], "0809": ["11A"], "1108": ["27A"], "0710": ["3A"], "0611": ["10A"],
    "0512": ["4A"], "0812": ["13A"], "0514": ["5A"], "0315": ["6A"], "0516": ["26A"],
    "0418": ["12A"], "0621": ["9A"], "0617": ["18A"], "1703": ["23A"], "1903": ["7A"],
    "1017": ["19A", "FacKEV"], "1312": ["20A"], "1215": ["21A"], "1310": ["22A"],
    "0615": ["16A"], "0909": ["MG1"], "0713": ["MG2"], "0415": ["MG3"], "0519": ["MG4"],
    "1705": ["FLNG", "FacLNG"], "2113": ["FMOS", "FacMOS"], "0926": ["FSEV"],
    "1520": ["FacKHA"], "1623": ["FacSLN"], "2424": ["FacSTG"], "2015": ["FacTUL"],
    "1919": ["FacVOR"], "2614": ["FacGOR"], "1629": ["OilMAI"], "2233": ["OilGRO"],
    "2132": ["PipeMOZ"], "1724": ["CoalDON"], "1122": ["OreKRI"], "1223": ["OreNIK"],
    "1011": ["OS1"], "1017 ": [],
}

SETUP_1942 = {  # Fall Blau, turn 8 (May-June 1942)
    "axis": {
        "1706": ["1K", "26K", "28K"], "1707": ["10K", "2K"], "1609": ["38K", "AB1"],
        "1811": ["6K", "23K", "9K"], "1712": ["20K", "43K", "12K"], "1714": ["53K", "13K"],
        "1615": ["47Pz", "46Pz"], "1716": ["55K", "7K"], "1617": ["48Pz", "24Pz", "29K"],
        "1618": ["8K", "17K", "AB2"], "1520": ["3Pz", "14Pz", "44K"], "1521": ["40Pz", "4K"],
        "1522": ["11K", "49Mt"], "1623": ["30K", "54Mt"], "1624": ["41Pz", "57Pz"],
        "1625": ["39Pz", "5K"], "1225": ["56Pz", "AB3"], "1126": ["RRGun"],
        "1521 ": [], "1420": ["Hun2"], "1319": ["Ita8"], "1324": ["Rom3"], "1226": ["Rom4"],
        "1702": ["FinSE"], "1902": ["FinKar"],
    },
    "bases": {"1507": "SB1", "1510": "SB2", "1414": "SB3", "1418": "SB4", "1322": "SB5"},
    "soviet": {
        "1705": ["FLNG", "FacLNG", "55A"], "1805": ["54A"], "1807": ["52A"], "1808": ["34A"],
        "1810": ["22A"], "1911": ["30A"], "1812": ["5A"], "1813": ["43A"], "1814": ["49A"],
        "1715": ["50A"], "1816": ["3A"], "1817": ["13A"], "1718": ["40A"], "1719": ["21A"],
        "1720": ["28A"], "1721": ["38A"], "1722": ["6A"], "1723": ["9A"], "1724": ["37A", "CoalDON"],
        "1726": ["56A"], "1327": ["51A"], "0926": ["FSEV", "44A"], "2113": ["FMOS", "FacMOS"],
        "1919": ["FacVOR", "60A"], "2424": ["FacSTG"], "2015": ["FacTUL"], "2614": ["FacGOR"],
        "1629": ["OilMAI"], "2233": ["OilGRO"], "2132": ["PipeMOZ"], "1903": ["23A"], "2004": ["7A"],
        "1915": ["OS1"], "1821": ["OS2"],
    },
    "eliminated_assets": ["FacKEV", "FacKHA", "FacSLN", "OreKRI", "OreNIK"],
}

SETUP_1942_URANUS = {  # Operation Uranus, turn 12 (November-December 1942)
    "axis": {
        "1706": ["1K", "26K"], "1707": ["10K", "2K"], "1609": ["38K", "AB1"],
        "1811": ["6K", "23K", "9K"], "1712": ["20K", "43K"], "1714": ["53K", "13K"],
        "1615": ["47Pz", "46Pz"], "1716": ["55K", "7K"], "1817": ["29K"], "1919 ": [],
        "1819": ["Hun2"], "1921": ["Ita8"], "2223": ["Rom3"], "2324": ["11K", "8K"],
        "2424": ["14Pz", "51K"], "2325": ["4K", "48Pz"], "2226": ["Rom4"], "1829": ["AB2"],
        "1931": ["3Pz", "40Pz"], "2032": ["52K", "44K"], "1829 ": [], "1726": ["17K", "AB3"],
        "1523": ["57Pz", "30K"], "1124": ["Rom4 "], "1126": ["RRGun"],
        "1702": ["FinSE"], "1902": ["FinKar"],
    },
    "bases": {"1510": "SB1", "1618": "SB2", "2124": "SB3", "1827": "SB4", "1824": "SB5"},
    "soviet": {
        "1705": ["FLNG", "FacLNG", "55A"], "1805": ["54A"], "1807": ["52A"], "1808": ["34A"],
        "1810": ["22A"], "1911": ["30A", "OS1"], "1812": ["5A"], "1813": ["43A"], "1814": ["49A"],
        "1715": ["50A"], "1816": ["3A"], "1818": ["13A"], "1919": ["FacVOR", "60A"],
        "1920": ["40A"], "2022": ["6A"], "2123": ["63A", "OS2"], "2224": ["21A", "5T"],
        "2323": ["65A"], "2423": ["24A"], "2524": ["66A"], "2425": ["62A"], "2525": ["64A", "OS3"],
        "2426": ["57A"], "2427": ["51A"], "2113": ["FMOS", "FacMOS"], "2015": ["FacTUL"],
        "2614": ["FacGOR"], "2233": ["OilGRO", "44A"], "2133": ["9A"], "1930": ["37A"],
        "1830": ["56A"], "1629": ["47A"], "1903": ["23A"], "2004": ["7A"], "2424 ": [],
    },
    "eliminated_assets": ["FacKEV", "FacKHA", "FacSLN", "OreKRI", "OreNIK", "OilMAI", "CoalDON", "FacSTG"],
}

SETUP_1943 = {  # Zitadelle, turn 16 (July 1943)
    "axis": {
        "1706": ["1K", "26K"], "1707": ["10K", "2K"], "1609": ["38K", "AB1"],
        "1612": ["6K", "23K", "9K"], "1613": ["20K", "43K"], "1714": ["53K", "13K"],
        "1715": ["47Pz", "46Pz", "41Pz"], "1716": ["55K", "7K", "35K"], "1617": ["29K", "13K "],
        "1618": ["48Pz", "SSPz", "3Pz"], "1619": ["11K", "42K"], "1620": ["24Pz", "8K"],
        "1621": ["17K", "AB2"], "1622": ["30K", "40Pz"], "1623": ["57Pz", "4K"],
        "1724": ["29K ", "44K"], "1725": ["3K"], "1326": ["49Mt", "5K"], "1227": ["Rom3"],
        "1126": ["Rom4"], "1521": ["AB3"], "1702": ["FinSE"], "1902": ["FinKar"],
    },
    "bases": {"1510": "SB1", "1614": "SB2", "1519": "SB3", "1523": "SB4", "1225": "SB5"},
    "soviet": {
        "1705": ["FLNG", "FacLNG", "67A"], "1805": ["54A"], "1807": ["52A"], "1808": ["34A"],
        "1709": ["22A"], "1711": ["30A"], "1713": ["5A"], "1814": ["49A"], "1815": ["50A"],
        "1816": ["11A", "OS1"], "1817": ["3A", "4T"], "1818": ["13A", "2T"], "1819": ["70A"],
        "1719": ["65A"], "1720": ["60A"], "1721": ["38A", "OS2"], "1722": ["40A", "1T"],
        "1723": ["6Gd", "OS3"], "1724": ["7Gd"], "1725": ["57A"], "1826": ["2Gd"],
        "1827": ["28A"], "1727": ["44A"], "1428": ["56A"], "1327": ["18A"], "1919": ["FacVOR", "5Gd"],
        "1920": ["27A", "5T"], "2113": ["FMOS", "FacMOS"], "2015": ["FacTUL"], "2614": ["FacGOR"],
        "2424": ["FacSTG"], "2233": ["OilGRO"], "1629": ["OilMAI"], "1903": ["23A"], "2004": ["7A"],
        "1925": ["47A"], "1620 ": [],
    },
    "eliminated_assets": ["FacKEV", "FacKHA", "FacSLN", "OreKRI", "OreNIK", "CoalDON"],
}

# --- turn track -----------------------------------------------------------------------

DATES = ["May-June 1941", "July 1941", "August 1941", "September-October 1941",
         "November-December 1941", "January-February 1942", "March-April 1942",
         "May-June 1942", "July 1942", "August 1942", "September-October 1942",
         "November-December 1942", "January-February 1943", "March-April 1943",
         "May-June 1943", "July 1943", "August 1943", "September-October 1943",
         "November-December 1943", "January-February 1944", "March-April 1944",
         "May-June 1944"]
MUD = {4, 7, 11, 14, 18, 21}  # 18.1
SNOW = {5, 6, 12, 13, 19, 20}  # 18.2
FIRST_WINTER = {5, 6}
REPLACEMENTS = {4: (4, 2), 7: (7, 3), 11: (6, 3), 14: (6, 3), 18: (5, 2), 21: (4, 2)}
PRODUCTION = {3, 6, 9, 12, 15, 18, 21}
AIR_WITHDRAWAL = {6, 13, 16, 20}  # 3.1, 14.0
SOVIET_REINF = {
    2: ["29A", "30A", "31A", "32A", "24A", "28A"], 3: ["33A", "34A", "43A", "49A", "50A"],
    4: ["37A", "38A", "40A", "52A"], 5: ["54A", "55A", "56A", "1Sh"], 6: ["57A", "60A", "61A", "2Sh"],
    7: ["58A", "59A", "1Gd"], 8: ["62A", "63A", "3Sh"], 9: ["64A", "3T", "5T", "2Gd"],
    10: ["65A", "66A", "4Sh"], 11: ["44A", "47A", "3Gd"], 12: ["1T", "51A", "4Gd"],
    13: ["67A", "48A", "5Gd"], 14: ["2T", "69A", "6Gd"], 15: ["70A", "5Sh"], 16: ["4T", "7Gd"],
    17: ["8Gd"], 19: ["6T"],
}
AXIS_REINF = {3: ["2K"], 4: ["35K"], 7: ["42K"], 8: ["Hun2", "Ita8", "RRGun", "51K"],
              9: ["52K", "3K"], 13: ["SSPz"]}
CHIT_REINF = {5: ["C3-4", "C3-4", "C3-4", "C3-4"], 7: ["B4-4", "B4-4", "B4-4"],
              8: ["A6-5", "A6-5"], 9: ["C4-4", "C4-4", "C4-4", "C4-4"],
              10: ["B5-4", "B5-4", "B5-4"], 12: ["A7-5", "A7-5"], 13: ["C4-5"] * 4,
              14: ["B5-5"] * 3, 16: ["A8-6", "A8-6"], 17: ["B6-5"] * 3, 18: ["C5-5"] * 4}
GENERALS = {5: "Zhukov", 12: "Vasilevsky", 14: "Konev"}
PARTISANS = {3: "Kovpak", 7: "Prokopyuk", 10: "Partisans"}

CHITS = {  # id: (attack, defense, reduced attack, reduced defense, count at setup)
    "A4-3*": (4, 3, 2, 2, 4), "A5-4*": (5, 4, 3, 2, 4), "A6-5": (6, 5, 3, 3, 0),
    "A7-5": (7, 5, 4, 3, 0), "A8-6": (8, 6, 4, 3, 0),
    "B2-3*": (2, 3, 1, 2, 8), "B3-3*": (3, 3, 2, 1, 8), "B4-3*": (4, 3, 2, 2, 4),
    "B4-4": (4, 4, 2, 2, 0), "B5-4": (5, 4, 3, 2, 0), "B5-5": (5, 5, 3, 3, 0),
    "B6-5": (6, 5, 3, 3, 0),
    "C1-2*": (1, 2, 1, 1, 10), "C2-2*": (2, 2, 1, 1, 10), "C2-3*": (2, 3, 1, 2, 8),
    "C3-3*": (3, 3, 2, 1, 6), "C3-4": (3, 4, 2, 2, 0), "C4-4": (4, 4, 2, 2, 0),
    "C4-5": (4, 5, 2, 3, 0), "C5-5": (5, 5, 3, 3, 0),
}


def q(v: object) -> str:
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(q(x) for x in v) + "]"
    raise TypeError(v)


def table(d: dict[str, object]) -> str:
    return "{ " + ", ".join(f"{k} = {q(v)}" for k, v in d.items()) + " }"


def emit_counters() -> None:
    lines = ["# The counter mix of For the Motherland! (2.3, 8.5.2-8.5.3, 16.x).",
             "# The book names the unit types, their step structures and a few factors",
             "# (Panzer Corps 9-8-7, Panzer KG 4-3-8, Infantry Corps 5-7-4, Infantry KG 2-3-5,",
             "# SS Panzer Corps 9-9-9, SS KG 4-4-9, Mechanized Group C/5); everything else is a",
             "# stand-in.", "",
             "[factors]",
             'stand_in = "only the factors quoted in 15.2.1 and 16.1/16.4 are from the book"',
             "# [attack, defense, movement] per remaining step count, highest first",
             "panzer = [[9, 8, 7], [6, 5, 7], [4, 3, 8]]",
             "infantry = [[5, 7, 4], [3, 5, 4], [2, 3, 5]]",
             "mountain = [[5, 7, 4], [3, 5, 4], [2, 3, 5]]",
             "ss_panzer = [[9, 9, 9], [6, 6, 9], [4, 4, 9]]",
             "allied_army = [[6, 8, 4], [4, 6, 4], [2, 3, 4]]",
             "turkish = [[2, 4, 3], [1, 2, 3]]",
             "supply_base = [[0, 1, 6]]",
             "air_base = [[0, 1, 4]]",
             "railroad_gun = [[0, 1, 0]]",
             "# Soviet lettered units: movement only; factors come from Strength Chits (11.0)",
             "combined_arms = [[0, 0, 4]]", "guards = [[0, 0, 4]]", "shock = [[0, 0, 4]]",
             "tank = [[0, 0, 6]]", "mech_group = [[0, 0, 5]]", "fortress = [[0, 0, 0]]",
             "offensive_support = [[0, 0, 4]]", "economic = [[0, 1, 0]]", ""]
    for c in axis_counters():
        lines.append("[[axis]]")
        lines += [f"{k} = {q(v)}" for k, v in c.items()]
        lines.append("")
    for c in soviet_counters():
        lines.append("[[soviet]]")
        lines += [f"{k} = {q(v)}" for k, v in c.items()]
        lines.append("")
    (OUT / "counters.toml").write_text("\n".join(lines), encoding="utf-8")


def emit_turns() -> None:
    lines = ["# Turn Record Track (18.0 weather turns and 15.1's turn-7 i7/p3 are from the",
             "# book; reinforcement, production and other replacement entries are stand-ins).",
             'stand_in = "the printed Turn Record Track is not in the extracted rulebook"', ""]
    for t, date in enumerate(DATES, start=1):
        weather = "mud" if t in MUD else "snow" if t in SNOW else "clear"
        d: dict[str, object] = {"turn": t, "date": date, "weather": weather}
        if t in FIRST_WINTER:
            d["first_winter"] = True
        if t in REPLACEMENTS:
            d["replacements"] = list(REPLACEMENTS[t])
        if t in PRODUCTION:
            d["production"] = True
        if t in AIR_WITHDRAWAL:
            d["air_withdrawal"] = True
        if t in SOVIET_REINF:
            d["soviet"] = SOVIET_REINF[t]
        if t in AXIS_REINF:
            d["axis"] = AXIS_REINF[t]
        if t in CHIT_REINF:
            d["chits"] = CHIT_REINF[t]
        if t in GENERALS:
            d["general"] = GENERALS[t]
        if t in PARTISANS:
            d["partisan"] = PARTISANS[t]
        lines.append("[[turn]]")
        lines += [f"{k} = {q(v)}" for k, v in d.items()]
        lines.append("")
    (OUT / "turns.toml").write_text("\n".join(lines), encoding="utf-8")


def emit_chits() -> None:
    lines = ["# Soviet Strength Chits (11.0): cups A, B, C; starred chits are in the cups at",
             "# setup and leave the game when returned; unstarred ones arrive by the turn track.",
             'stand_in = "chit values and counts are not in the extracted rulebook"',
             "# when a cup is empty the unit uses this chit's values (stand-in rule)",
             'empty_cup = { A = "A4-3*", B = "B2-3*", C = "C1-2*" }', ""]
    for cid, (a, d, ra, rd, n) in CHITS.items():
        lines.append(f'[chit."{cid}"]')
        lines.append(f"front = [{a}, {d}]")
        lines.append(f"back = [{ra}, {rd}]")
        lines.append(f"setup = {n}")
        lines.append("")
    (OUT / "chits.toml").write_text("\n".join(lines), encoding="utf-8")


MAP = Path(__file__).resolve().parents[3] / "scenarios" / "for-the-motherland" / "map.toml"


def _map() -> tuple[object, dict[str, str], set[str]]:
    from engines.hexkit.scenario import parse_doc, parse_map

    hm = parse_map(parse_doc("map.toml", MAP.read_bytes()))
    country: dict[str, str] = {}
    for name in ("soviet_union", "bulgaria", "germany", "finland", "hungary", "romania",
                 "turkey"):
        for h in hm.areas.get(name, ()):
            country[h] = name
    wet = {t.name for t in hm.legend if t.flag("water")}
    land = {h for h, t in hm.terrain.items() if t not in wet}
    return hm, country, land


HM, COUNTRY, LAND = _map()
FIXES: list[str] = []


def snap(u: str, h: str, side: str, start_1941: bool) -> str:
    """The hex itself when valid, else the nearest valid land hex (logged)."""
    def ok(x: str) -> bool:
        if x not in LAND:
            return False
        if not start_1941:
            return True
        c = COUNTRY.get(x, "")
        if side == "soviet":
            return c == "soviet_union"
        if u.startswith("Fin"):
            return c == "finland"
        if u.startswith("Rom"):
            return c == "romania"
        return c in ("germany", "romania")
    if ok(h):
        return h
    grid = HM.grid  # type: ignore[attr-defined]
    for r in range(1, 8):
        ring = sorted(x for x in grid.within(h, r) if ok(x))
        if ring:
            FIXES.append(f"{u}: {h} -> {ring[0]}")
            return ring[0]
    raise SystemExit(f"no valid hex near {h} for {u}")


def placements(d: dict[str, list[str]], side: str = "", start_1941: bool = False
               ) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for h, units in d.items():
        for u in units:
            u = u.strip()
            if u and u not in seen:
                seen.add(u)
                out.append((u, snap(u, h.strip(), side, start_1941)))
    return out


SCENARIOS = [
    ("1-barbarossa", "Operation Barbarossa", 1, 7, "1941"),
    ("2-road-to-stalingrad", "Road to Stalingrad", 1, 12, "1941"),
    ("3-fall-blau", "Fall Blau", 8, 17, "1942"),
    ("4-uranus", "Operation Uranus", 12, 14, "uranus"),
    ("5-zitadelle", "Operation Zitadelle", 16, 22, "1943"),
    ("6-for-the-motherland", "For the Motherland!", 1, 22, "1941"),
]

CITY_VP = {  # city hex: (name, VP held by the Axis at the end, VP if recaptured by the Soviets)
    "2113": ("Moscow", 10, 5), "1705": ("Leningrad", 8, 4), "2424": ("Stalingrad", 6, 3),
    "1017": ("Kiev", 4, 2), "1726": ("Rostov", 4, 2), "1919": ("Voronezh", 3, 1),
    "1520": ("Kharkov", 3, 1), "0926": ("Sevastopol", 3, 1), "1512": ("Smolensk", 2, 1),
    "1011": ("Minsk", 2, 1), "0722": ("Odessa", 2, 1), "1006": ("Riga", 1, 0),
    "2015": ("Tula", 3, 1), "2614": ("Gorky", 6, 3), "1629": ("Maikop", 3, 1),
    "2233": ("Grozny", 4, 2), "1623": ("Stalino", 2, 1),
}
AXIS_CITIES = {"0307": "Danzig", "0507": "Konigsberg", "0325": "Constanta",
               "1402": "Helsinki", "0311": "Warsaw", "0123": "Bucharest"}
LEVELS_AXIS = [[20, "Soviet Strategic Victory"], [25, "Soviet Tactical Victory"], [30, "Draw"],
               [35, "Axis Tactical Victory"], [40, "Axis Operational Victory"],
               [9999, "Axis Strategic Victory"]]
LEVELS_SOVIET = [[5, "Axis Strategic Victory"], [9, "Axis Operational Victory"],
                 [13, "Axis Tactical Victory"], [18, "Draw"], [24, "Soviet Tactical Victory"],
                 [29, "Soviet Operational Victory"], [9999, "Soviet Strategic Victory"]]


AXIS_CONTROL = {"1941": [], "1942": ["1017", "1011", "1512", "1006", "0722", "1520", "1623"],
                "uranus": ["1017", "1011", "1512", "1006", "0722", "1520", "1623", "1726",
                           "0926", "1629", "2424"],
                "1943": ["1017", "1011", "1512", "1006", "0722", "1520", "1623", "0926"]}
SOVIET_RECAPTURED = {"1941": [], "1942": [], "uranus": [], "1943": ["1726", "1629", "2424"]}


SOVIET_SCORED_CITIES = {
    "uranus": ["2424", "1726", "1520", "1623", "1629", "1919", "1017", "1512"],
    "1943": ["1520", "1623", "1017", "1512", "1011", "0722", "0926", "1006"],
}


def emit_scenarios() -> None:
    setups = {"1941": (SETUP_1941_AXIS, SETUP_1941_AXIS_BASES, SETUP_1941_SOVIET, []),
              "1942": (SETUP_1942["axis"], SETUP_1942["bases"], SETUP_1942["soviet"],
                       SETUP_1942["eliminated_assets"]),
              "uranus": (SETUP_1942_URANUS["axis"], SETUP_1942_URANUS["bases"],
                         SETUP_1942_URANUS["soviet"], SETUP_1942_URANUS["eliminated_assets"]),
              "1943": (SETUP_1943["axis"], SETUP_1943["bases"], SETUP_1943["soviet"],
                       SETUP_1943["eliminated_assets"])}
    for sid, title, first, last, setup in SCENARIOS:
        axis, bases, soviet, elim = setups[setup]
        n = int(sid[0])
        lines = [f"# Scenario {n}: {title} (20.{n}).", "[scenario]", f'id = "{sid}"',
                 f'title = "{title}"', f"turns = [{first}, {last}]", "", "[rules]"]
        if setup == "1941":
            lines.append("# 20.1/20.2/20.6 special rules 1-3 (German units ignore Minor Rivers on the")
            lines.append("# Axis Movement Phase of turn 1; Romania and Finland frozen on turn 1; no")
            lines.append("# strategic movement on turn 1)")
            lines.append("turn1_rules = true")
        if n in (2, 3, 6):
            lines.append("stalin_surrender_roll = true")
        checks = {2: [5], 3: [12], 6: [5, 12]}.get(n, [])
        if checks:
            cities = ["1705", "2113", "1919", "2424" if n == 3 else "1726"]
            lines.append(f"sudden_death_turns = {q(checks)}")
            lines.append(f"sudden_death_cities = {q(cities)}")
        if n == 5:
            lines.append("# 20.5 rule 1: no Soviet Generals in the Axis Combat Phase of turn 16")
            lines.append("no_generals_axis_combat_turn = 16")
        lines.append("")
        lines.append("[victory]")
        vp_side = "soviet" if n in (4, 5) else "axis"
        lines.append(f'scores = "{vp_side}"')
        lines.append('stand_in = "VP values and levels lost in extraction except Moscow 10/5 (19.1),'
                     ' scenario 2 levels and scenario 5 levels (20.2, 20.5), the -2 per Axis front '
                     'line hex and the Soviet-army deductions (20.6)"')
        lines.append("economic_asset_vp = 1" if vp_side == "axis" else "economic_asset_vp = 0")
        lines.append("front_line_missing_soviet = 1")
        lines.append("front_line_missing_axis = -2")
        if n == 6:
            lines.append("axis_city_vp = 2")
            lines.append("soviet_army_in_germany = -3")
            lines.append("soviet_army_in_minor_ally = -2")
            lines.append("soviet_army_minor_ally_cap = -4")
        levels = LEVELS_SOVIET if vp_side == "soviet" else LEVELS_AXIS
        lines.append(f"levels = {q(levels)}")
        lines.append("")
        cities = CITY_VP if vp_side == "axis" else {
            h: CITY_VP[h] for h in SOVIET_SCORED_CITIES[setup]}
        if vp_side == "soviet":
            lines.append("# the Soviet player scores `held` for each listed city the Axis does not control")
        for h, (name, held, recap) in cities.items():
            lines.append(f'[victory.city."{h}"]')
            lines.append(f'name = "{name}"')
            lines.append(f"held = {held}")
            lines.append(f"recaptured = {recap}")
        if n == 6:
            for h, name in AXIS_CITIES.items():
                lines.append(f'[victory.axis_city."{h}"]')
                lines.append(f'name = "{name}"')
        lines.append("")
        lines.append("[setup]")
        if setup != "1941":
            lines.append('stand_in = "the setup cards are not in the extracted rulebook; this start '
                         'line follows the historical front of the date"')
        else:
            lines.append('stand_in = "the setup card is not in the extracted rulebook; units stand at '
                         'their historical June 1941 positions"')
        lines.append(f"eliminated_assets = {q(elim)}")
        lines.append(f"axis_control = {q(AXIS_CONTROL[setup])}")
        lines.append(f"soviet_recaptured = {q(SOVIET_RECAPTURED[setup])}")
        lines.append("axis = [")
        first = setup == "1941"
        for u, h in placements(axis, "axis", first):
            lines.append(f'  ["{u}", "{h}"],')
        for u, h in placements({h: [u] for h, u in bases.items()}, "axis", first):
            lines.append(f'  ["{u}", "{h}"],')
        lines.append("]")
        lines.append("soviet = [")
        for u, h in placements(soviet, "soviet", first):
            lines.append(f'  ["{u}", "{h}"],')
        lines.append("]")
        lines.append("")
        (OUT / f"scenario-{sid}.toml").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    emit_counters()
    emit_turns()
    emit_chits()
    emit_scenarios()
    print("\n".join(sorted(set(FIXES))))
