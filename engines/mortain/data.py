"""Mortain Counterattack's data, read once from ``scenarios/mortain/``: the map, the units,
the Integrated CRT, the movement chart, the support-fire pools, and the hex facts the
rules ask about (ZOC extent 14.1, See hexsides 14.2, the book's named hexes)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.hexkit.facts import Placed, ZocRule
from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import ScenarioSet, load_scenario_dir
from engines.hexkit.shared import Shared

if TYPE_CHECKING:  # the kit's movement and ZOC searches load when first used (issue 35)
    from engines.hexkit.movement import MoveClass, MoveCosts
    from engines.hexkit.zoc import ZocMap

ENGINE_ID = "mortain"
SIDES = ("us", "german")
MORTAIN = ("2514", "2515", "2414")  # 19.0
HILL_317 = "2815"  # 15.0
SUPPLY = {"us": "0102", "german": "3212"}  # 12.0, 11.2, 11.3
#: 19.0: a mobile unit has a printed movement allowance of 10 or more
MOBILE_MA = 10
#: the ICRT's terrain rows, most defensive first
ROW_ORDER = ("peak", "hill", "town", "hedgerow", "road")
RESULTS = ("De", "D3", "D2", "Ex", "A1", "A2", "A3", "(A)", "Ae", "-")


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass(frozen=True)
class UnitInfo(Shared):
    """A unit: its attack, defense and movement factors, entry turn (11.1) and set-up
    group (13.0)."""

    id: str
    name: str
    side: str
    attack: int
    defense: int
    ma: int
    #: German: the game turn it may enter (11.1); US: 0
    turn: int
    #: US set-up group (13.0): "ccb", "9th", "30th"; German: ""
    group: str
    #: S9: demolishes (US) or repairs (German) See bridges
    engineer: bool = False

    @property
    def mobile(self) -> bool:
        return self.ma >= MOBILE_MA

    def factors(self, depleted: bool) -> tuple[int, int]:
        """Attack and defense; a depleted unit's are halved, rounded up (series stand-in)."""
        if depleted:
            return (self.attack + 1) // 2, (self.defense + 1) // 2
        return self.attack, self.defense


def _diff_range(label: str) -> tuple[int, int]:
    if ".." in label:
        a, b = label.split("..")
        return int(a), int(b)
    return int(label), int(label)


@dataclass(frozen=True)
class Icrt(Shared):
    """The Integrated Combat Results Table (reconstructed, see the engine page)."""

    results: tuple[tuple[str, ...], ...]
    rows: Mapping[str, tuple[tuple[int, int], ...]]
    terrain_row: Mapping[str, str]

    def column(self, row: str, differential: int) -> int:
        """The result column (0-based) of ``differential`` on terrain row ``row``: below the
        first column is the first, above the last the last."""
        cols = self.rows[row]
        if differential < cols[0][0]:
            return 0
        for i, (lo, hi) in enumerate(cols):
            if lo <= differential <= hi:
                return i
        return len(cols) - 1

    def result(self, row: str, differential: int, roll: int) -> str:
        return self.results[roll - 1][self.column(row, differential)]


class Rules(Shared):
    """Everything read from the data, shared by every state (never copied)."""

    def __init__(self, data: ScenarioSet) -> None:
        self.data = data
        self.map: HexMap = data.map
        units: dict[str, UnitInfo] = {}
        doc = data.doc("units.toml")
        for side, key in (("german", "german"), ("us", "us")):
            for i, spec in enumerate(doc.get_list(key, "units")):
                a, d, m = (int(x) for x in str(spec["factors"]).split("-"))
                uid = str(spec["id"])
                if uid in units:
                    raise doc.error((key, "units", i, "id"), f"unit {uid} twice")
                units[uid] = UnitInfo(uid, str(spec["name"]), side, a, d, m,
                                      int(spec.get("turn", 0)), str(spec.get("group", "")),
                                      bool(spec.get("engineer", False)))
        self.units: Mapping[str, UnitInfo] = units
        self.order = tuple(units)
        icrt = data.table("icrt").extra
        self.icrt = Icrt(
            tuple(tuple(str(c) for c in row) for row in icrt["results"]),
            {k: tuple(_diff_range(str(x)) for x in v)
             for k, v in icrt["rows_by_terrain"].items()},
            dict(icrt["terrain_row"]))
        tec = data.table("tec").extra
        self.enter_cost: Mapping[str, int] = {k: int(v) for k, v in tec["half_mp"].items()}
        self.road_cost, self.trail_cost = int(tec["road"]), int(tec["trail"])
        support = data.table("support").extra
        self.pool: Mapping[str, tuple[str, ...]] = {
            s: tuple(sorted(str(x) for x in support["pool"][s])) for s in SIDES}
        self.allotment: Mapping[str, tuple[int, ...]] = {
            s: tuple(int(x) for x in support["allotment"][s]) for s in SIDES}
        self.per_combat = int(support["per_combat"])
        scen = data.scenario("counterattack")
        self.dates = tuple(str(d) for d in scen.get_list("track", "dates"))
        self.last_turn = len(self.dates)
        self.entry = tuple(self.map.area("german_entry"))
        self.west_edge = frozenset(self.map.area("west_edge"))
        #: the ZOC rule of each set of demolished bridges met (at most one a set: 2^S9's
        #: bridges)
        self._zoc_rules: dict[frozenset[str], ZocRule] = {}
        #: each unit's Placed in each hex it has stood in (at most the map's hexes a unit)
        self._placed: dict[str, dict[HexId, Placed]] = {u: {} for u in units}

    # -- derived from the map when first asked: a command that moves no unit (a combat
    # decision's legal, act or receive) reads none of them (issue 35) ------------------

    @functools.cached_property
    def move_class(self) -> MoveClass:
        from engines.hexkit.movement import MoveClass

        return MoveClass(
            "all", enter=dict(self.enter_cost),
            networks={"road": self.road_cost, "trail": self.trail_cost},
            hexside={"see": None}, negated_by={"see": ("bridge",)})

    @functools.cached_property
    def costs(self) -> MoveCosts:
        from engines.hexkit.movement import MoveCosts

        return MoveCosts(self.map, self.move_class)

    @functools.cached_property
    def areas(self) -> Mapping[str, frozenset[HexId]]:
        """13.0: each US set-up group's area."""
        return {"ccb": self._near_cuves(), "9th": frozenset(self.map.area("see_north")),
                "30th": frozenset(self.map.area("us_setup"))}

    @functools.cached_property
    def on_network(self) -> frozenset[HexId]:
        return frozenset(self.map.network_hexes("road")) | frozenset(
            self.map.network_hexes("trail"))

    @functools.cached_property
    def hedgerow_no_zoc(self) -> frozenset[HexId]:
        """14.1: hedgerow hexes without road or trail, into which no ZOC extends."""
        return frozenset(h for h in self.map.ids
                         if self.map.terrain_of(h) == "hedgerow" and h not in self.on_network)

    @functools.cached_property
    def see_unbridged(self) -> frozenset[tuple[HexId, HexId]]:
        """14.2: the See hexsides without a bridge, both ways."""
        return frozenset(pair for side, feats in self.map.hexsides.items()
                         if "see" in feats and "bridge" not in feats
                         for pair in (side, side[::-1]))

    @functools.cached_property
    def _off_map(self) -> tuple[frozenset[HexId], frozenset[HexId]]:
        #: 19.1: the edge hexes where a road (trail) leads off the map: it ends there.  A
        #: road running along the edge (0103, the trail's 0109 and 0110) does not leave it
        m = self.map
        edge = [h for h, near in zip(m.ids, m.adjacency, strict=True) if len(near) < 6]
        road, trail = (frozenset(h for h in edge if len(m.network_neighbors(net, h)) == 1)
                       for net in ("road", "trail"))
        return road, trail

    @property
    def road_off(self) -> frozenset[HexId]:
        return self._off_map[0]

    @property
    def trail_off(self) -> frozenset[HexId]:
        return self._off_map[1]

    def _near_cuves(self) -> frozenset[HexId]:
        """13.0: CCB within three hexes of any Cuves town hex (and northwest of the start
        line, as every US unit)."""
        line = frozenset(self.map.area("us_setup"))
        return frozenset(h for c in self.map.place("Cuves") for h in self.map.within(c, 3)
                         if h in line)

    # -- hex facts ------------------------------------------------------------------------

    def see_between(self, a: HexId, b: HexId, demolished: Iterable[str] = ()) -> bool:
        """14.2: a See hexside that is not bridged (or whose bridge is demolished)."""
        feats = self.map.hexsides.get(hexside(a, b), frozenset())
        if "see" not in feats:
            return False
        return "bridge" not in feats or f"{min(a, b)}/{max(a, b)}" in set(demolished)

    def placed(self, unit: str, h: HexId) -> Placed:
        """``unit`` in ``h`` as the kit's facts take it, made once (a placement is built
        for every lookup of who is where)."""
        at = self._placed[unit]
        p = at.get(h)
        if p is None:
            p = at[h] = Placed(unit, h, self.units[unit].side)
        return p

    def zoc_rule(self, demolished: Iterable[str] = ()) -> ZocRule:
        """14.1 and the See: a unit's ZOC reaches the six hexes around, except a hedgerow
        hex without road or trail, and (stand-in) across an unbridged See hexside; one
        rule per set of demolished bridges (the kit's facts key a rule by identity)."""
        gone = frozenset(demolished)
        rule = self._zoc_rules.get(gone)
        if rule is None:
            hedge, see = self.hedgerow_no_zoc, self.see_unbridged
            if gone:
                rule = ZocRule(blocks=lambda a, b: b in hedge or self.see_between(a, b, gone))
            else:
                rule = ZocRule(blocks=lambda a, b: b in hedge or (a, b) in see)
            self._zoc_rules[gone] = rule
        return rule

    def zoc(self, hexes: Mapping[str, HexId], demolished: Iterable[str] = ()) -> ZocMap:
        """The ZOC of units at ``hexes`` (:meth:`zoc_rule`), once."""
        from engines.hexkit.zoc import zoc_map

        return zoc_map(self.map, sorted(hexes.items()), blocks=self.zoc_rule(demolished).blocks)

    def crt_row(self, target: HexId, across_see: bool = False) -> str:
        """The ICRT row: the defender's hex terrain (14.1: a hedgerow hex is always fought
        on the Hedgerow row); an attack made wholly across bridged See hexsides uses the
        "See River (bridged)" row (Hill) when that favours the defender more."""
        row = self.icrt.terrain_row[self.map.terrain_of(target)]
        if across_see and row != "hedgerow" and ROW_ORDER.index("hill") < ROW_ORDER.index(row):
            return "hill"
        return row

    def bridges(self) -> tuple[str, ...]:
        """Every See bridge, as "A/B" (S9)."""
        return tuple(f"{a}/{b}" for a, b in sorted(self.map.sides_with("bridge")))

    def exit_cost(self, h: HexId) -> int:
        """19.1: the imaginary hex beyond ``h`` costs what ``h`` does, or the road (trail)
        cost where a road (trail) leads off the map there."""
        if h in self.road_off:
            return self.road_cost
        if h in self.trail_off:
            return self.trail_cost
        return self.enter_cost[self.map.terrain_of(h)]

    def entry_cost(self, h: HexId) -> int:
        """11.0: entering from off the map costs the hex, as 19.1 prices the hex beyond."""
        return self.exit_cost(h)


@functools.cache
def rules() -> Rules:
    return Rules(load_scenario_dir(ENGINE_ID))


#: where the book puts the hexes it names (pbem scenario check)
NAMED_HEXES = (
    ("2514", "place:Mortain", "19.0"),
    ("2515", "place:Mortain", "19.0"),
    ("2414", "place:Mortain", "19.0"),
    ("2815", "place:Hill 317", "15.0"),
    ("2815", "terrain:peak", "15.0"),
    ("0102", "place:US supply", "11.2, 12.0"),
    ("3212", "place:German supply", "11.3, 12.0"),
    *((f"32{r:02d}", "area:german_entry", "11.1") for r in range(1, 22)),
    *((f"01{r:02d}", "area:west_edge", "19.0") for r in range(1, 22)),
)
