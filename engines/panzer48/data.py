"""48th Panzer Korps: the scenario data read once (units, charts, map costs).

Everything here is shared and never copied with a state (``Shared``): positions refer to
units by id and to hexes by number.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import gcd
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from engines.hexkit import HexMap, ScenarioSet, load_scenario_dir
from engines.hexkit.shared import Shared

if TYPE_CHECKING:  # movement's modules load when a move is first priced (issue 35)
    from fractions import Fraction

    from engines.hexkit.pricedsteps import PricedSteps

ENGINE_ID = "48th-panzer-korps"
SIDES = ("soviet", "german")
TARGET_ORDER = ("A", "P", "W")  # 7.3: armor, personnel, weapons


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def frac(text: Any) -> Fraction:
    # fractions (with decimal and numbers) is imported where a value is made: a command
    # that prices no move and resolves no fire never needs one (issue 35)
    from fractions import Fraction

    return Fraction(str(text))


def ratio(text: Any) -> tuple[int, int]:
    """A chart's value (``"1/4"``, ``"2"``) as the ``(numerator, denominator)`` in lowest
    terms of :func:`frac`'s Fraction, made in integers where the text is plain digits: a
    fire (7.4) is resolved without importing fractions (issue 35)."""
    text = str(text)
    n, slash, d = text.partition("/")
    if n.isdecimal() and (not slash or (d.isdecimal() and int(d))):
        num, den = int(n), int(d) if slash else 1
        g = gcd(num, den)
        return num // g, den // g
    value = frac(text)
    return value.numerator, value.denominator


def halves(text: Any) -> int:
    """A movement cost of the chart (``"1/2"``, ``"2"``) in half movement points: every
    cost of the Terrain Effects Chart is a whole or half MP (4), and counted in halves a
    move is priced in integers (position.MPs)."""
    n, d = ratio(text)
    if 2 % d:
        raise ValueError(f"movement cost {text!r}: not a whole or half number of MPs (4)")
    return n * (2 // d)


@dataclass(frozen=True)
class UnitInfo(Shared):
    """A unit of the order of battle: formation, steps, target type (2.1), fire type,
    size, movement allowance, range and armor."""

    id: str
    side: str
    formation: str
    name: str
    steps: int
    target: str  # A, P, W (2.1)
    fire: str  # p, A, at, art
    size: int  # in thirds of a battalion (6)
    ma: int
    range: int = 0
    armor: int = 0

    @property
    def leg(self) -> bool:
        """4: personnel with a movement allowance of 7 or less are leg units."""
        return self.target == "P" and self.ma <= 7


@dataclass(frozen=True)
class Formation(Shared):
    """A formation: its setup area or hexes, assigned units, and when and where it
    enters as a reinforcement."""

    id: str
    side: str
    name: str
    area: str = ""
    hexes: tuple[str, ...] = ()
    assigned: tuple[str, ...] = ()
    enters_turn: int = 0
    enters_area: str = ""
    schedule: tuple[tuple[str, int], ...] = ()  # (area letter, earliest turn)


_T = TypeVar("_T")


def _made(cls: type[_T], **fields: Any) -> _T:
    """``cls(**fields)`` for a frozen dataclass of this module given every field: the
    frozen class's ``__init__`` sets each field through ``object.__setattr__``, 20 k
    instructions for a unit's eleven, and loading the data made 58 of them at every
    command (issue 35); this sets them at once.  tests/panzer48/test_data_load.py holds
    the records made so equal to the class's own."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


class Data(Shared):
    """The engine's data: map, units, formations, charts."""

    def __init__(self, scen: ScenarioSet) -> None:
        self.scen = scen
        self.map: HexMap = scen.map
        u = scen.doc("units.toml")
        sizes = {str(k): int(v) for k, v in scen.doc("tables.toml").get_table(
            "stacking", "sizes").items()}
        forms: dict[str, Formation] = {}
        for side in SIDES:
            for fid, spec in u.get_table("formations", side).items():
                enters = spec.get("enters", {})
                forms[fid] = _made(
                    Formation, id=fid, side=side, name=str(spec["name"]),
                    area=str(spec.get("area", "")), hexes=tuple(spec.get("hexes", ())),
                    assigned=tuple(spec.get("assigned", ())),
                    enters_turn=int(enters.get("turn", 0)),
                    enters_area=str(enters.get("area", "")),
                    schedule=tuple(sorted((str(k), int(v))
                                          for k, v in spec.get("schedule", {}).items())))
        self.formations: MappingProxyType[str, Formation] = MappingProxyType(forms)
        units: dict[str, UnitInfo] = {}
        for i, spec in enumerate(u.get_list("unit")):
            f = forms.get(str(spec["formation"]))
            if f is None:
                raise u.error(("unit", i, "formation"), "no such formation")
            units[str(spec["id"])] = _made(
                UnitInfo, id=str(spec["id"]), side=f.side, formation=f.id,
                name=str(spec["name"]), steps=int(spec["steps"]), target=str(spec["target"]),
                fire=str(spec["fire"]), size=sizes[str(spec["size"])], ma=int(spec["ma"]),
                range=int(spec.get("range", 0)), armor=int(spec.get("armor", 0)))
        self.units: MappingProxyType[str, UnitInfo] = MappingProxyType(dict(sorted(units.items())))
        self.entry: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
            str(k): tuple(v) for k, v in sorted(u.get_table("entry").items())
            if k != "stand_in"})
        t = scen.doc("tables.toml")
        #: 7.4: the Weapons Effectiveness Chart, fire class -> target class -> modifier
        #: as a :func:`ratio`
        self.weapons = {fc: {tc: ratio(v) for tc, v in row.items()}
                        for fc, row in t.get_table("weapons").items() if fc != "stand_in"}
        self.shifts = {k: int(v) for k, v in t.get_table("shifts").items() if k != "stand_in"}
        crt = t.get_table("crt")
        self.crt_columns: tuple[int, ...] = tuple(int(c) for c in crt["columns"])
        self.crt: dict[int, tuple[str, ...]] = {
            int(k): tuple(str(x) for x in v) for k, v in crt.items() if k.isdigit()}
        self.morale = {k: int(v) for k, v in t.get_table("morale").items() if k != "stand_in"}
        st = t.get_table("stacking")
        self.stack_limit = {s: 3 * int(st[s]) for s in SIDES}  # in thirds
        self.zoc_fail = tuple(int(x) for x in t.get_table("zoc_exit")["fail"])
        v = t.get_table("victory")
        self.levels = tuple((int(a), str(b)) for a, b in v["levels"])
        self.towns = {str(k): int(x) for k, x in v["towns"].items()}
        self.bridge_vp = int(v["bridge"])
        terr = t.get_table("terrain")
        self.don_bridges = tuple(sorted(self.map.sides_with("river_bridge")))
        self.enter = {mode: {k: int(x[mode]) for k, x in terr["enter"].items()}
                      for mode in ("leg", "mech")}

    @functools.cached_property
    def artillery(self) -> dict[str, tuple[str, ...]]:
        """Each side's artillery-class units (7.6), in id order: the few an attack's
        support is chosen from, found without a pass over every unit each listing."""
        out: dict[str, list[str]] = {}
        for u, info in self.units.items():
            if info.fire == "art":
                out.setdefault(info.side, []).append(u)
        return {side: tuple(us) for side, us in out.items()}

    @functools.cached_property
    def members(self) -> dict[str, tuple[str, ...]]:
        """Each formation's units, in id order: 9's release of the 7th Luftwaffe asks
        after every Soviet step where its units stand, not which of all units are its."""
        out: dict[str, list[str]] = {}
        for u, info in self.units.items():
            out.setdefault(info.formation, []).append(u)
        return {f: tuple(us) for f, us in out.items()}

    @functools.cached_property
    def areas(self) -> dict[str, frozenset[str]]:
        """The map's areas the rules name: each side's half (9.1's arrivals), the front
        lines' hexes (9's set-up) and the south edge's exits (10), made when first asked:
        a fire's turn reads none of them (issue 35: 1 M instructions, 1,319 hexes on the
        German side)."""
        return {k: frozenset(self.map.area(k)) for k in
                ("german_side", "front_german", "front_soviet", "south_exit")}

    # the movement costs of half an MP, read when first asked (:func:`halves`)

    @functools.cached_property
    def exit_halves(self) -> int:
        """10: the half movement points a Soviet unit spends to leave by the south edge."""
        return halves(self._terrain["exit"])

    @functools.cached_property
    def road_halves(self) -> int:
        """4: a road hex's cost in half MPs (9.1: an arrival's first hex on a road)."""
        return halves(self._terrain["road"])

    @property
    def _terrain(self) -> dict[str, Any]:
        return self.scen.doc("tables.toml").get_table("terrain")

    @functools.cached_property
    def costs(self) -> dict[str, PricedSteps]:
        """Each mode's movement costs (4, the Terrain Effects Chart) in half movement
        points (:func:`halves`: integers, the road's half MP one), each step priced
        when first asked: a move asks the costs around the hexes it passes, a few dozen
        steps, and compiling both modes' tables of the whole map (25,000 steps each) was
        a third of a short game's audit without a data cache, reading them back from
        the cache a tenth with one; a command that moves no unit (a legal listing of a
        combat decision) loads none of the kit's movement modules (issue 35)."""
        from engines.hexkit.movement import MoveClass
        from engines.hexkit.pricedsteps import PricedSteps

        terr = self._terrain
        return {
            mode: PricedSteps(self.map, MoveClass(
                mode,
                enter={k: 2 * int(x[mode]) for k, x in terr["enter"].items()},
                hexside={k: 2 * int(x[mode]) for k, x in terr["hexside"].items()
                         if k != "slope"},
                networks={"road": self.road_halves},
                negated_by={"river": ["river_bridge", "bridge"], "stream": ["bridge"]},
                network_crosses=True),
                adjust=functools.partial(self._slope,
                                         2 * int(terr["hexside"]["slope"][mode])))
            for mode in ("leg", "mech")}

    @functools.cached_property
    def edge(self) -> frozenset[str]:
        """The map's edge hexes (a retreat off the map, reinforcements' entry), found when
        first asked: a command that never reads them need not parse every hex's
        coordinates (issue 35)."""
        grid = self.map.grid
        edge = []
        for h in self.map.ids:
            c, r = grid.coords_of(h)
            if c in grid.cols or r in grid.rows:
                edge.append(h)
        return frozenset(edge)

    def _slope(self, extra: int, a: str, b: str, cost: Any) -> Any:
        """4: a slope hexside costs extra going up, unless the move follows a road."""
        if (a, b) in self._uphill:
            return cost + extra
        return cost

    @functools.cached_property
    def _uphill(self) -> frozenset[tuple[str, str]]:
        """The steps up a slope hexside off the road (4), found once from the map's few
        slopes, for every step :meth:`_slope` is asked of."""
        m = self.map
        out = set()
        for (feature, (a, b)), toward in m.facing.items():
            up = (b, a) if toward == a else (a, b)
            if feature == "slope" and toward in (a, b) and not m.connected("road", *up):
                out.add(up)
        return frozenset(out)

    def entry_halves(self, u: str, h: str) -> int:
        """9.1: the normal cost of the first hex entered (road cost at a road hex), in
        half MPs."""
        if self.map.network_neighbors("road", h):
            return self.road_halves
        return 2 * self.enter["leg" if self.units[u].leg else "mech"][self.map.terrain_of(h)]

    def side_of_hex(self, h: str) -> str:
        return "german" if h in self.areas["german_side"] else "soviet"


@functools.cache
def data() -> Data:
    return Data(load_scenario_dir(ENGINE_ID))
