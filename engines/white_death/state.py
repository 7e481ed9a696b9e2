"""The White Death game state: Rules 3-22 as a state machine with explicit dice.

Flow (Rule 5 and "Play By Telephone"): at the start of a turn the weather, the Velikiye
Luki garrison release and air drops are rolled; then impulses alternate, Soviet first.
An impulse is the phasing player's decision (``impulse N``), movement with assault
declarations (``end movement``), barrage (``end barrage``); then the non-phasing player's
defensive fire, hex by hex (``done firing``); then the phasing player's assault fire,
hex by hex, and advances.  Every die is a :class:`ChanceRequest` taken from ``queue``;
what happens after the dice is kept in ``todo`` so a snapshot can stop anywhere.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from engines.hexkit.board import board_view
from engines.hexkit.hexmap import HexMap
from engines.hexkit.los import line_of_sight
from engines.hexkit.scenario import ScenarioSet
from engines.white_death import rules
from engines.white_death.actions import WDAction, act, fmt_amount, parse
from engines.white_death.data import (
    ALIASES,
    GARRISON_TYPE,
    SIDES,
    Catalog,
    Group,
    ScenarioDef,
    UnitDef,
    UnitType,
)
from pbem import canonical
from pbem.engine import CHANCE, Action, ChanceRequest, Decision, Engine, Event, Result, State
from pbem.errors import IllegalAction, ScenarioError
from pbem.view import BoardView, Line, Piece

BOXES = ("pending", "raster", "dead", "refit", "setup")
SIDE_COLOR = {"soviet": "#c03030", "german": "#303030"}


_RIVERS: dict[int, tuple[Line, ...]] = {}


def river_lines(data: ScenarioSet) -> tuple[Line, ...]:
    """Each river's course from the map file's ``[rivers]`` table, for drawing."""
    if id(data) not in _RIVERS:
        rivers = data.doc(data.map_doc).get_table("rivers", default={}) \
            if data.map_doc is not None else {}
        _RIVERS[id(data)] = tuple(
            Line("river", tuple(str(h) for h in river["hexes"]), "#3a6fd0")
            for _, river in sorted(rivers.items()) if river.get("hexes"))
    return _RIVERS[id(data)]


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


@dataclass
class U:
    """A unit's changing state (its fixed data is in the catalog)."""

    uid: str
    loc: str
    strength: int
    deployed: bool = False
    spent: Fraction = Fraction(0)
    stopped: bool = False
    zoc_start: bool = False
    entrained: bool = False
    via: str = ""
    garrison: str = ""
    seq: int = 0
    assault: str = ""
    entry: str = ""
    marks: set[str] = field(default_factory=set)

    def to_data(self) -> dict[str, Any]:
        return {"uid": self.uid, "loc": self.loc, "strength": self.strength,
                "deployed": self.deployed, "spent": canonical.frac(self.spent),
                "stopped": self.stopped, "zoc_start": self.zoc_start,
                "entrained": self.entrained, "via": self.via, "garrison": self.garrison,
                "seq": self.seq, "assault": self.assault, "entry": self.entry,
                "marks": sorted(self.marks)}

    @staticmethod
    def from_data(d: dict[str, Any]) -> U:
        return U(d["uid"], d["loc"], d["strength"], d["deployed"], canonical.unfrac(d["spent"]),
                 d["stopped"], d["zoc_start"], d["entrained"], d["via"], d["garrison"],
                 d["seq"], d["assault"], d["entry"], set(d["marks"]))


class WDState(State):
    cat: Catalog

    def __init__(self, engine: Engine, scenario: str, options: dict[str, str],
                 cat: Catalog) -> None:
        super().__init__(engine, scenario, options)
        self.cat = cat
        self.sc: ScenarioDef = cat.scenarios[scenario]
        self.turn = self.sc.turns[0]
        self.last_turn = self.sc.turns[1]
        self.phase = "start"
        self.phasing = "soviet"
        self.mps = {"soviet": 10, "german": 10}
        self.impulse_mp = 0
        self.impulse_left_before = 0
        self.impulses = {"soviet": 0, "german": 0}
        self.weather = "clear"
        self.supply = {"soviet": 0, "german": 0, "vl": 0}
        self.repl = {"soviet": 0, "german": 0}
        self.rail_used = {"soviet": 0, "german": 0}
        self.repaired = {"soviet": False, "german": False}
        self.vl_released = not self.sc.opening
        self.vl_avoid = False
        self.bunkers: list[list[Any]] = []
        self.bridges: set[str] = set()
        self.builders: set[str] = set()
        self.units: dict[str, U] = {}
        self.garrison_types: dict[str, UnitDef] = {}
        self.schedule: list[list[Any]] = []  # [turn, uid, area] still to come
        self.assaults: dict[str, list[str]] = {}
        self.combat: dict[str, Any] = {}
        self.combat_hexes: list[str] = []
        self.paid: set[str] = set()
        self.bar: dict[str, Any] = {}
        self.advance: dict[str, list[str]] = {}
        self.queue: list[dict[str, Any]] = []
        self.todo: list[str] = []
        self.counts: dict[str, int] = {}
        self.losses = {"soviet": 0, "german": 0}
        self.setup_side = ""
        self.setup_raster: list[str] = []
        self.flieger = ""  # "", "rolled", "answer-due"
        self.passing = ""  # a unit moving through a full hex (Rule 4)
        self.seq = 0
        self.over = False
        self.final: dict[str, Any] = {}
        self._cache: dict[Any, Any] = {}
        self._static: dict[Any, Any] = {}

    # ------------------------------------------------------------------ catalog access

    @property
    def map(self) -> HexMap:
        m = self._static.get("map")
        if m is None:
            m = self._static["map"] = self.cat.map
        out: HexMap = m
        return out

    def nbrs(self, h: str) -> list[str]:
        key = ("nbrs", h)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = self.map.neighbors(h)
        out: list[str] = got
        return out

    def udef(self, uid: str) -> UnitDef:
        d = self.cat.units.get(uid)
        return d if d is not None else self.garrison_types[uid]

    def utype(self, uid: str) -> UnitType:
        d = self.cat.units.get(uid)
        return (d if d is not None else self.garrison_types[uid]).type

    def side_of(self, uid: str) -> str:
        d = self.cat.units.get(uid)
        return (d if d is not None else self.garrison_types[uid]).side

    def on_map(self, uid: str) -> bool:
        u = self.units.get(uid)
        return u is not None and u.loc not in BOXES

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        if side is None:
            return self._by_hex().get(h, [])
        key = ("at", h, side)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = [x for x in self._by_hex().get(h, [])
                                      if self.side_of(x) == side]
        out: list[str] = got
        return out

    def _by_hex(self) -> dict[str, list[str]]:
        key = "byhex"
        if key not in self._cache:
            d: dict[str, list[str]] = {}
            for uid in sorted(self.units):
                u = self.units[uid]
                if u.loc not in BOXES:
                    d.setdefault(u.loc, []).append(uid)
            for h in d:
                d[h].sort(key=lambda x: (self.units[x].seq, x))
            self._cache[key] = d
        by: dict[str, list[str]] = self._cache[key]
        return by

    def _moved(self) -> None:
        self._cache.clear()

    def side_units(self, side: str) -> list[str]:
        return [uid for uid in sorted(self.units)
                if self.side_of(uid) == side and self.on_map(uid)]

    # ------------------------------------------------------------------ terrain

    def terrain(self, h: str) -> set[str]:
        """The Terrain Effects Chart names of a hex: its terrain and hex features."""
        key = ("terrain", h)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = self._terrain(h)
        out: set[str] = got
        return out

    def _terrain(self, h: str) -> set[str]:
        m = self.map
        base = m.terrain_of(h)
        out = {ALIASES.get(base, base)}
        for f in m.features_of(h):
            f2 = ALIASES.get(f, f)
            if f2 in ("town", "forest", "swamp", "high", "creek", "river"):
                out.add(f2)
        cls = m.terrain_class(h)
        if cls.flag("high"):
            out.add("high")
        known = set(self.cat.tables.defense)
        return {t for t in out if t in known} or {"clear"}

    def is_town(self, h: str) -> bool:
        return "town" in self.terrain(h)

    def is_town_or_forest(self, h: str) -> bool:
        return bool(self.terrain(h) & {"town", "forest"})

    def river_at(self, h: str) -> str:
        t = self.terrain(h)
        if h in self.bridges:
            return ""
        return "river" if "river" in t else "creek" if "creek" in t else ""

    def road(self, a: str, b: str) -> bool:
        key = ("road", a, b)
        got = self._static.get(key)
        if got is None:
            m = self.map
            got = self._static[key] = any(m.connected(n, a, b)
                                          for n in ("road", "railroad", "rail"))
        return bool(got)

    def rail(self, a: str, b: str) -> bool:
        key = ("rail", a, b)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = (self.map.connected("railroad", a, b)
                                       or self.map.connected("rail", a, b))
        return bool(got)

    def rail_hex(self, h: str) -> bool:
        key = ("railhex", h)
        got = self._static.get(key)
        if got is None:
            m = self.map
            got = self._static[key] = bool(m.network_neighbors("railroad", h)
                                           or m.network_neighbors("rail", h))
        return bool(got)

    def vl_hexes(self) -> tuple[str, ...]:
        if "vl" not in self._cache:
            try:
                self._cache["vl"] = self.cat.resolve("Velikiye Luki")
            except ScenarioError:
                self._cache["vl"] = ()
        vl: tuple[str, ...] = self._cache["vl"]
        return vl

    def frozen(self) -> bool:
        return self.weather != "thaw"

    # ------------------------------------------------------------------ edges

    def edge_hexes(self, side: str) -> set[str]:
        """Friendly board edges (Rules 8, 15): east and extreme southeast for the Soviets,
        every other edge for the Germans."""
        key = f"edge:{side}"
        named = f"{side}_friendly_edge"
        if key not in self._static and named in self.map.areas:
            self._static[key] = set(self.map.areas[named])
        if key not in self._static:
            g = self.map.grid
            (c0, c1), (r0, r1) = g.cols, g.rows
            out = set()
            for h in self.map.ids:
                c, r = g.coords_of(h)
                east = c == c1 or (r == r1 and c >= c1 - 3)
                edge = c in (c0, c1) or r in (r0, r1)
                if not edge:
                    continue
                if (side == "soviet") == east:
                    out.add(h)
            self._static[key] = out
        edges: set[str] = self._static[key]
        return edges

    # ------------------------------------------------------------------ ZOC, isolation

    def has_zoc(self, uid: str) -> bool:
        """Rule 3: every unit but unstacked German weapons companies (and the intrinsic
        garrisons, which are not counters)."""
        t = self.utype(uid)
        if "intrinsic" in t.flags:
            return False
        if self.side_of(uid) == "german" and t.weapons and t.size == "I":
            return len(self.units_at(self.units[uid].loc, "german")) > 1
        return True

    def ezoc(self, side: str, ski_only: bool = False) -> set[str]:
        """Hexes in the ZOC of ``side``'s enemies (ski_only: of enemy ski units)."""
        key = f"ezoc:{side}:{ski_only}"
        if key not in self._cache:
            out: set[str] = set()
            for uid in self.side_units(other(side)):
                if not self.has_zoc(uid):
                    continue
                if ski_only and self.utype(uid).mob != "s":
                    continue
                out.update(self.nbrs(self.units[uid].loc))
            self._cache[key] = out
        z: set[str] = self._cache[key]
        return z

    def enemy_hexes(self, side: str) -> set[str]:
        key = f"enemy:{side}"
        if key not in self._cache:
            self._cache[key] = {self.units[u].loc for u in self.side_units(other(side))}
        got: set[str] = self._cache[key]
        return got

    def _free(self, side: str) -> set[str]:
        key = f"free:{side}"
        if key not in self._cache:
            bad = self.enemy_hexes(side) | self.ezoc(side)
            self._cache[key] = {h for h in self.map.ids if h not in bad}
        free: set[str] = self._cache[key]
        return free

    def _reach(self, side: str) -> set[str]:
        """Hexes joined to a friendly edge through hexes free of enemies and their ZOCs."""
        key = f"reach:{side}"
        if key not in self._cache:
            free = self._free(side)
            seen = {h for h in self.edge_hexes(side) if h in free}
            todo = deque(sorted(seen))
            while todo:
                h = todo.popleft()
                for n in self.nbrs(h):
                    if n in free and n not in seen:
                        seen.add(n)
                        todo.append(n)
            self._cache[key] = seen
        reach: set[str] = self._cache[key]
        return reach

    def traced(self, side: str, h: str) -> bool:
        reach = self._reach(side)
        return h in reach or any(n in reach for n in self.nbrs(h)) or (
            h in self.edge_hexes(side))

    def isolated(self, uid: str) -> bool:
        """Rule 15.C (and 15.D.2: Velikiye Luki troops may avoid it with a supply point)."""
        if not self.on_map(uid):
            return False
        side = self.side_of(uid)
        h = self.units[uid].loc
        if side == "german" and self.vl_avoid and h in self.vl_hexes():
            return False
        return not self.traced(side, h)

    def art_supplied(self, uid: str) -> bool:
        """Rule 15.B: seven hexes or less to a road or railroad running back to a friendly
        edge, all free of enemy units and ZOCs."""
        side = self.side_of(uid)
        key = f"artsup:{side}"
        if key not in self._cache:
            free = self._free(side)
            roads = {h for h in self.edge_hexes(side) if h in free and (
                self.map.network_neighbors("road", h) or self.rail_hex(h))}
            todo = deque(sorted(roads))
            while todo:
                h = todo.popleft()
                for n in self.nbrs(h):
                    if n in free and n not in roads and self.road(h, n):
                        roads.add(n)
                        todo.append(n)
            dist = {h: 0 for h in roads}
            todo = deque(sorted(roads))
            while todo:
                h = todo.popleft()
                if dist[h] >= 7:
                    continue
                for n in self.nbrs(h):
                    if n in free and n not in dist:
                        dist[n] = dist[h] + 1
                        todo.append(n)
            self._cache[key] = dist
        d: dict[str, int] = self._cache[key]
        h = self.units[uid].loc
        return h in d or any(d.get(n, 99) <= 6 for n in self.nbrs(h))

    def pool_of(self, uid: str) -> str:
        """Rule 15.D.2: troops in Velikiye Luki draw on the city's own supply."""
        if self.side_of(uid) == "german" and self.units[uid].loc in self.vl_hexes():
            return "vl"
        return self.side_of(uid)

    # ------------------------------------------------------------------ stacking

    def stack_ok_with(self, h: str, uid: str, leaving: Iterable[str] = ()) -> bool:
        gone = tuple(sorted(leaving))
        key = ("stack", h, uid, gone)
        got = self._cache.get(key)
        if got is None:
            side = self.side_of(uid)
            here = [self.udef(x) for x in self.units_at(h, side) if x != uid and x not in gone]
            got = self._cache[key] = rules.stack_ok(side, [*here, self.udef(uid)])
        return bool(got)

    # ------------------------------------------------------------------ movement costs

    def enter_cost(self, uid: str, frm: str | None, to: str) -> Fraction | None:
        """Rule 7 cost to enter ``to`` (from ``frm``, or from off the map); None if P."""
        t = self.utype(uid)
        mob = t.mob
        mv = self.cat.tables.movement
        terr = self.terrain(to)
        river = self.river_at(to)
        along = frm is not None and self.road(frm, to)
        if frm is None and (self.map.network_neighbors("road", to) or self.rail_hex(to)):
            along = True
        cost: Fraction | None
        if river == "river":
            cost = mv["river"][mob].enter
        elif along:
            cost = mv["road"][mob].enter
        elif "town" in terr:
            cost = mv["town"][mob].enter
        else:
            costs = [mv[x][mob].enter for x in sorted(terr) if x in mv and x != "river"]
            if any(c is None for c in costs):
                return None
            cost = max((c for c in costs if c is not None), default=mv["clear"][mob].enter)
        if cost is None:
            return None
        if frm is not None:
            left = self.river_at(frm)
            if left and left not in terr - ({"river"} if to in self.bridges else set()):
                cost += mv[left][mob].leave
            feats = self.map.side_features(frm, to)
            kind = "full" if "lake" in feats else "partial" if (
                "partial_lake" in feats or "lake_partial" in feats) else ""
            if kind:
                extra = self.cat.tables.lake[f"{kind}_{'frozen' if self.frozen() else 'thaw'}"][mob]
                if extra is None:
                    return None
                cost += extra
            if (not self.frozen() and mob in ("t", "w", "d") and self.river_at(frm) == "river"
                    and self.river_at(to) != "river"):
                via = self.units[uid].via
                if via and to != via and not self.map.grid.adjacent(to, via):
                    return None  # Rule 16.B: leave on the side it entered
        return cost

    def lake_roll_due(self, uid: str, frm: str, to: str) -> bool:
        """Rule 13: an AFV crossing a lake hexside (frozen), or any lake (thaw), rolls."""
        if not self.utype(uid).afv:
            return False
        feats = self.map.side_features(frm, to)
        return bool(feats & {"lake", "partial_lake", "lake_partial"})

    def left(self, uid: str) -> Fraction:
        spent = self.units[uid].spent
        if not spent:
            return Fraction(self.impulse_mp)
        return Fraction(self.impulse_mp) - spent

    # ------------------------------------------------------------------ combat values

    def is_close(self, uid: str) -> bool:
        return "close" in self.utype(uid).flags

    def fire_value(self, uid: str, kind: str, target_hex: str, attacking: bool) -> Fraction:
        """Rules 9.C.1 / 10.C.1: factor x remaining strength, with Rules 12.B, 15.C, 21.A."""
        t = self.utype(uid)
        u = self.units[uid]
        factor = t.cf if kind == "conv" else t.atf
        if factor <= 0:
            return Fraction(0)
        if kind == "conv" and attacking and t.cf_defensive_only:
            return Fraction(0)
        v = factor * u.strength
        place = target_hex if attacking else u.loc
        if self.is_close(uid) and self.is_town_or_forest(place):
            v *= 2
        if attacking and self.map.faces_toward("slope", u.loc, target_hex) == u.loc:
            v *= 2  # Rule 12.B: firing down a slope hexside
        if self.isolated(uid):
            v /= 2
        return v

    def defense(self, uid: str, against: str, at_hex: str | None = None) -> int:
        """Rule 9.C.2 / 10.C.2 / 12: defense of a unit in (or assaulting into) a hex."""
        t = self.utype(uid)
        h = self.units[uid].loc
        if against == "at" or t.afv:
            d = t.defense
            if self.is_town_or_forest(h) or (at_hex is not None and self.is_town_or_forest(at_hex)):
                d -= 1  # Rule 12.C
            return max(d, 1)
        table = self.cat.tables.defense
        best = 0
        for terr in self.terrain(h):
            best = max(best, table[terr][t.cls])
        if self.bunker(h) > 0 and self.side_of(uid) == "german" and at_hex is None:
            best = max(best, table["bunker"][t.cls])
        return best

    def bunker(self, h: str) -> int:
        return max((b[1] for b in self.bunkers if b[0] == h), default=0)

    # ------------------------------------------------------------------ contract hooks

    def _current_player(self) -> str | None:
        if self.over:
            return None
        if self.queue:
            return CHANCE
        if self.phase == "setup":
            return self.setup_side
        if self.phase == "defense":
            return other(self.phasing)
        return self.phasing

    def _chance_request(self) -> ChanceRequest:
        job = self.queue[0]
        return ChanceRequest.roll(job["purpose"], 6, rule=job["rule"])

    def _apply_outcome(self, outcome: Any) -> list[Event]:
        job = self.queue.pop(0)
        roll = int(outcome[0])
        events = [Event(f"{job['purpose']}: rolled {roll}", "roll",
                        hexes=tuple(x for x in [job.get("hex", "")] if x))]
        events += getattr(self, "_job_" + job["t"].replace("-", "_"))(job, roll)
        events += self._settle()
        self._moved()
        return events

    def _push(self, t: str, purpose: str, rule: str, front: bool = False,
              **kw: Any) -> None:
        job = {"t": t, "purpose": purpose, "rule": rule, **kw}
        if front:
            self.queue.insert(0, job)
        else:
            self.queue.append(job)

    def _settle(self) -> list[Event]:
        """Run what waits for no one until a die or a player is needed."""
        events: list[Event] = []
        while not self.queue and self.todo and not self.over:
            token = self.todo.pop(0)
            name, _, arg = token.partition(":")
            self._moved()
            events += getattr(self, "_do_" + name.replace("-", "_"))(arg)
        self._moved()
        return events

    # ------------------------------------------------------------------ setup

    def setup_initial(self) -> list[Event]:
        cat = self.cat
        events: list[Event] = []
        groups = list(self.sc.groups)
        if self.sc.opening:
            groups = list(cat.opening) + groups
        placed: set[str] = set()
        for g in groups:
            for uid in g.units:
                self.units[uid] = U(uid, "setup", cat.units[uid].strength, garrison=g.garrison)
                if uid in self.sc.reduced:
                    self.units[uid].strength = self.sc.reduced[uid]
                placed.add(uid)
        for r in cat.reinforcements:
            for uid in r.units:
                if uid not in placed and self.sc.turns[0] <= r.turn <= self.sc.turns[1]:
                    self.units[uid] = U(uid, "pending", cat.units[uid].strength, entry=r.area)
                    self.schedule.append([r.turn, uid, r.area])
        self.bridges = set(self.map.hex_features.get("bridge", ()) if hasattr(
            self.map, "hex_features") else ())
        self.bridges = {h for h in self.map.ids if self.map.has_feature(h, "bridge")}
        vl = self.vl_hexes()
        sites = [h for h in self.map.ids if self.map.has_feature(h, "bunker_site")]
        if sites:
            vl = tuple(sites)
        if vl and self.sc.turns[0] < 12:
            strengths = cat.bunkers if self.sc.opening else cat.bunkers[:max(
                1, len(cat.bunkers) - (self.sc.turns[0] // 3))]
            for i, s in enumerate(strengths):
                self.bunkers.append([vl[i % len(vl)], s])
        if self.sc.opening:
            self._intrinsic_garrisons()
        if self.sc.player_setup:
            self.phase = "setup"
            self.setup_side = "german"
            self.setup_raster = [u for g in groups if g.side == "german" for u in g.units]
            events.append(Event("Campaign setup: the German player sets up first", "phase"))
        else:
            for g in groups:
                if g.side == "german":
                    self._auto_place(g)
            for g in groups:
                if g.side == "soviet":
                    self._auto_place(g)
            self.todo.append("start-turn:first")
            events += self._settle()
        self._moved()
        return events

    def _intrinsic_garrisons(self) -> None:
        """Intrinsic Garrisons: towns west of the Lowatj with a railroad."""
        marked = [h for h in self.map.ids if self.map.has_feature(h, "intrinsic_garrison")]
        if marked:
            for h in marked:
                self._add_garrison(h)
            return
        try:
            lowatj = self.cat.resolve("Lowatj")
        except ScenarioError:
            lowatj = tuple(h for h in self.map.ids if "river" in self.terrain(h))
        if not lowatj:
            return
        g = self.map.grid
        vl = set(self.vl_hexes())
        for h in self.map.ids:
            if not self.is_town(h) or not self.rail_hex(h) or h in vl:
                continue
            c, r = g.coords_of(h)
            near = [g.coords_of(x)[0] for x in lowatj if abs(g.coords_of(x)[1] - r) <= 2]
            if near and c < min(near):
                self._add_garrison(h)

    def garrison_type(self) -> UnitType:
        """The intrinsic garrison's type: from units.toml, else the manual's 1 SP, factor 4."""
        return self.cat.types.get("intrinsic-garrison", GARRISON_TYPE)

    def _add_garrison(self, h: str) -> None:
        uid = f"garrison/{h}"
        self.garrison_types[uid] = UnitDef(uid, "german", self.garrison_type(), "garrison", 1)
        self.units[uid] = U(uid, h, 1, garrison="intrinsic")

    def group_hexes(self, g: Group, extra: int = 0) -> list[str]:
        base = self.cat.resolve(g.near)
        radius = g.within + extra
        seen: dict[str, int] = {}
        for b in base:
            for h in self.map.within(b, radius):
                d = min(self.map.distance(h, x) for x in base)
                if h not in seen or d < seen[h]:
                    seen[h] = d
        return sorted(seen, key=lambda h: (seen[h], h))

    def placeable(self, uid: str, h: str) -> bool:
        side = self.side_of(uid)
        if self.units_at(h, other(side)):
            return False
        if self.enter_cost(uid, None, h) is None and self.enter_cost_terrain(uid, h) is None:
            return False
        return self.stack_ok_with(h, uid)

    def enter_cost_terrain(self, uid: str, h: str) -> Fraction | None:
        mob = self.utype(uid).mob
        mv = self.cat.tables.movement
        costs = [mv[x][mob].enter for x in sorted(self.terrain(h)) if x in mv]
        return None if any(c is None for c in costs) else Fraction(1)

    def _auto_place(self, g: Group) -> None:
        rings: dict[int, list[str]] = {}
        todo = [u for u in g.units if self.units[u].loc == "setup"]
        for i, uid in enumerate(todo):
            for extra in range(0, 12):
                if extra not in rings:
                    rings[extra] = self.group_hexes(g, extra)
                ring = rings[extra]
                # spread the group along its area: the i-th unit tries the i-th share first
                start = (i * len(ring)) // max(len(todo), 1) if extra == 0 else 0
                order = ring[start:] + ring[:start]
                spot = next((h for h in order if self.placeable(uid, h)), None)
                if spot is not None:
                    self._put(uid, spot)
                    break
            else:
                raise ScenarioError(f"no room to place {uid} near {g.near}", path=self.sc.file)

    def _put(self, uid: str, h: str) -> None:
        self.seq += 1
        self.units[uid].loc = h
        self.units[uid].seq = self.seq
        self._moved()

    def group_of(self, uid: str) -> Group:
        groups = list(self.sc.groups) + (list(self.cat.opening) if self.sc.opening else [])
        for g in groups:
            if uid in g.units:
                return g
        raise KeyError(uid)

    # ------------------------------------------------------------------ turn flow

    def _do_start_turn(self, arg: str) -> list[Event]:
        if arg != "first":
            self.turn += 1
        self.mps = {"soviet": 10, "german": 10}
        self.impulses = {"soviet": 0, "german": 0}
        self.rail_used = {"soviet": 0, "german": 0}
        self.repaired = {"soviet": False, "german": False}
        self.vl_avoid = False
        self.phase = "start"
        events = [Event(f"Turn {self.turn} begins", "phase")]
        self._push("weather", f"weather for turn {self.turn}", "Rule 16")
        if self.sc.opening and not self.vl_released and self.turn >= 2:
            self._push("release", f"Velikiye Luki garrison release on turn {self.turn}",
                       "Rule 22")
        self.todo += ["supply", "start-impulse"]
        return events

    def _job_weather(self, job: dict[str, Any], roll: int) -> list[Event]:
        for a, b, row in self.cat.tables.weather:
            if a <= self.turn <= b:
                self.weather = row[roll - 1]
        return [Event(f"Weather for turn {self.turn}: {self.weather}", "info")]

    def _job_release(self, job: dict[str, Any], roll: int) -> list[Event]:
        if rules.garrison_released(self.turn, roll):
            self.vl_released = True
            return [Event("The Velikiye Luki garrison is released (Rule 22)", "info")]
        return [Event("The Velikiye Luki garrison is not released this turn (Rule 22)", "info")]

    def _do_supply(self, arg: str) -> list[Event]:
        i = self.turn - 1
        events = []
        for s in SIDES:
            got = self.cat.supply[s][min(i, len(self.cat.supply[s]) - 1)]
            self.supply[s] += got
            self.repl[s] += self.cat.replacements[s][min(i, len(self.cat.replacements[s]) - 1)]
            events.append(Event(f"The {s} player receives {got} supply points", "info"))
        vl = self.vl_hexes()
        got = self.cat.supply["german"][min(i, len(self.cat.supply["german"]) - 1)]
        if vl and any(self.units_at(h, "german") for h in vl):
            if any(self.traced("german", h) for h in vl):
                self.supply["vl"] += got
                events.append(Event(f"Velikiye Luki receives {got} supply points", "info"))
            else:
                for k in range(got):
                    self._push("airdrop", f"air drop {k + 1} of {got} into Velikiye Luki",
                               "Rule 15.D.1")
        for uid in sorted(self.units):
            u = self.units[uid]
            if u.loc == "refit" and self.turn >= 11:
                u.loc = "raster"
                u.entry = "soviet-east"
        return events

    def _job_airdrop(self, job: dict[str, Any], roll: int) -> list[Event]:
        if rules.airdrop_received(self.weather, roll):
            self.supply["vl"] += 1
            return [Event("A supply point is dropped into Velikiye Luki", "info")]
        return [Event("The air drop is lost", "info")]

    def _do_start_impulse(self, arg: str) -> list[Event]:
        s = self.phasing
        events = [Event(f"Turn {self.turn}: the {s} player's impulse", "phase")]
        for row in self.schedule:
            turn, uid, area = row
            u = self.units[uid]
            if u.loc == "pending" and (turn < self.turn or (
                    turn == self.turn and self.impulses[s] >= 1)) and self.side_of(uid) == s:
                u.loc = "raster"
                u.entry = area
                events.append(Event(f"{uid} is ready to enter at {area}", "info",
                                    visible_to=(s,)))
        if (s == "german" and self.turn == self.cat.flieger_turn and not self.flieger
                and self.sc.turns[0] <= self.turn <= self.sc.turns[1]
                and all(x in self.cat.units for x in self.cat.flieger_single)):
            self.flieger = "rolled"
            self._push("flieger", "7th Flieger Division commitment", "Rule 17.F")
        if s == "soviet" and self.flieger == "answer-due":
            self.flieger = "answered"
            for units, area, need in self.cat.soviet_answer:
                if need >= 6:
                    self._reinforce(units, area)
                else:
                    self._push("answer", f"Soviet reserve {units[0].split('/')[-1]} "
                               f"(received on 1-{need})", "Rule 17.F", units=list(units),
                               area=area, need=need)
        self.phase = "decision"
        return events

    def _reinforce(self, units: Iterable[str], area: str) -> None:
        for uid in units:
            if uid not in self.units:
                self.units[uid] = U(uid, "raster", self.cat.units[uid].strength, entry=area)

    def _job_flieger(self, job: dict[str, Any], roll: int) -> list[Event]:
        self._reinforce(self.cat.flieger_single, self.cat.flieger_area)
        if roll == 6:
            self._reinforce(self.cat.flieger_division, self.cat.flieger_area)
            self.flieger = "answer-due"
            return [Event("The whole 7th Flieger Division is committed (Rule 17.F)", "info")]
        return [Event("Only the parachute battalion is committed (Rule 17.F)", "info")]

    def _job_answer(self, job: dict[str, Any], roll: int) -> list[Event]:
        if roll <= job["need"]:
            self._reinforce(job["units"], job["area"])
            return [Event(f"Soviet reserves received: {', '.join(job['units'])}", "info")]
        return [Event("The Soviet reserve is not released", "info")]

    def _do_end_impulse(self, arg: str) -> list[Event]:
        s = self.phasing
        for uid in self.units:
            u = self.units[uid]
            u.assault = ""
            u.marks.clear()
            u.stopped = False
            u.entrained = False
        self.assaults = {}
        self.combat = {}
        self.combat_hexes = []
        self.paid = set()
        self.bar = {}
        self.advance = {}
        self.counts = {}
        nxt = other(s)
        if self.mps[nxt] > 0:
            self.phasing = nxt
        elif self.mps[s] > 0:
            self.phasing = s
        else:
            if self.turn >= self.last_turn:
                return self._finish()
            self.phasing = "soviet"
            self.todo += ["start-turn:", ]
            return []
        self.todo.append("start-impulse")
        return []

    def _finish(self) -> list[Event]:
        score = {"soviet": 0, "german": 0}
        held = {}
        for obj in self.sc.objectives:
            try:
                hexes = self.cat.resolve(obj.place)
            except ScenarioError:
                continue
            present = {self.side_of(x) for h in hexes for x in self.units_at(h)}
            holder = "german" if not present else (present.pop() if len(present) == 1 else "")
            held[obj.place] = holder
            if holder:
                score[holder] += obj.points[holder]
        per = self.cat.tables.points_per_sp
        for s in SIDES:
            score[s] += self.losses[other(s)] // per
        self.over = True
        self.final = {"score": score, "held": held}
        held_text = ", ".join(f"{k}: {v or 'contested'}" for k, v in held.items())
        text = (f"Soviet {score['soviet']}, German {score['german']} "
                f"(objectives: {held_text};"
                f" strength points lost: Soviet {self.losses['soviet']}, German "
                f"{self.losses['german']})")
        return [Event(f"Game over after turn {self.turn}: {text}", "phase")]

    def _result(self) -> Result | None:
        if not self.over:
            return None
        score = self.final["score"]
        s, g = score["soviet"], score["german"]
        text = f"Soviet {s}, German {g} (stand-in victory points)"
        if s == g:
            return Result(None, "rules", "Draw: " + text, f"{s}-{g}")
        winner = "soviet" if s > g else "german"
        return Result(winner, "rules", f"{winner.capitalize()} victory: " + text, f"{s}-{g}")

    # ------------------------------------------------------------------ decisions

    def _decision(self) -> Decision:
        side = self._current_player()
        assert side is not None and side != CHANCE
        who = side.capitalize()
        legal = self._legal_actions()
        opts = tuple(legal) if len(legal) <= 12 else ()
        ph = self.phase
        if ph == "setup":
            nxt = self.setup_raster[0] if self.setup_raster else ""
            return Decision(side, "setup", f"the {who} player must set up {nxt} "
                            f"({len(self.setup_raster)} units left to place)", opts,
                            act("auto-setup"), "Campaign setup")
        if ph == "decision":
            return Decision(side, "impulse-mps",
                            f"the {who} player must decide how many of his {self.mps[side]} "
                            f"movement points to spend in this impulse (turn {self.turn})",
                            opts, act("impulse", n=self.mps[side]), "Rule 5")
        if ph == "movement":
            return Decision(side, "movement", f"the {who} player moves and declares assaults "
                            f"({self.impulse_mp} MPs this impulse)", opts,
                            act("end-movement"), "Rule 6")
        if ph == "barrage":
            return Decision(side, "barrage", f"the {who} player may fire barrages", opts,
                            act("end-barrage"), "Rule 11.B")
        if ph in ("defense", "assault"):
            h = self.combat.get("hex", "")
            n = len(self.assaults)
            what = "defensive fire" if ph == "defense" else "assault fire"
            return Decision(side, "defensive-fire" if ph == "defense" else "assault-fire",
                            f"the {who} player must allocate {what} against "
                            f"{n} assault{'s' if n != 1 else ''} (now at {h})", opts,
                            act("done"), "Rule 9" if ph == "assault" else "Rule 5")
        if ph == "advance":
            return Decision(side, "advance", f"the {who} player may advance into "
                            f"{', '.join(sorted(self.advance))}", opts, act("end-advance"),
                            "Rule 9.D")
        raise AssertionError(ph)

    # ------------------------------------------------------------------ legal actions

    def _candidates(self) -> list[WDAction]:
        ph = self.phase
        side = self._current_player()
        out: list[WDAction] = []
        if ph == "setup":
            out.append(act("auto-setup"))
            if self.setup_raster:
                uid = self.setup_raster[0]
                for h in self.setup_hexes(uid):
                    out.append(act("place", uid, h))
            return out
        if ph == "decision":
            assert side is not None
            if self._vl_avoid_possible():
                out.append(act("vl-supply"))
            out += [act("impulse", n=k) for k in range(1, self.mps[side] + 1)]
            return out
        if ph == "movement":
            return self._movement_candidates()
        if ph == "barrage":
            out = [act("end-barrage")]
            if self.bar.get("units"):
                out.append(act("fire-barrage"))
            for uid in self.side_units(self.phasing):
                t = self.utype(uid)
                if t.barrage <= 0 or not self.units[uid].deployed:
                    continue
                for h in sorted(self.enemy_hexes(self.phasing)):
                    if self.map.distance(h, self.units[uid].loc) <= t.range:
                        out.append(act("barrage", uid, h))
            return out
        if ph in ("defense", "assault"):
            return self._combat_candidates()
        if ph == "advance":
            out = [act("end-advance")]
            for h, uids in sorted(self.advance.items()):
                out += [act("advance", uid, h) for uid in uids]
            return out
        return out

    def _legal_actions(self) -> list[Action]:
        if "legal" in self._cache:
            cached: list[Action] = self._cache["legal"]
            return list(cached)
        out: list[Action] = []
        movable: dict[str, U | None] = {}
        for a in self._candidates():
            try:
                if self.passing and a.unit != self.passing:
                    continue
                if a.kind == "move":  # the per-unit checks once per unit
                    if a.unit not in movable:
                        try:
                            movable[a.unit] = self._movable(a.unit)
                        except IllegalAction:
                            movable[a.unit] = None
                    u = movable[a.unit]
                    if u is None:
                        continue
                    self._move_checks(a, u)
                else:
                    self._validate(a)
            except IllegalAction:
                continue
            out.append(a)
        self._cache["legal"] = out
        return list(out)

    def _movement_candidates(self) -> list[WDAction]:
        s = self.phasing
        out = [act("end-movement")]
        for uid in self.side_units(s):
            u = self.units[uid]
            t = self.utype(uid)
            if u.entrained:
                for h in self.rail_destinations(uid):
                    out.append(act("rail", uid, h))
                continue
            if not u.stopped and u.assault == "" and self.left(uid) > 0:
                enemy = self.enemy_hexes(s)
                for n in self.nbrs(u.loc):
                    if n not in enemy:
                        out.append(act("move", uid, n, u.loc))
            if ("brandenburg" in t.flags and not u.stopped and not u.assault
                    and len(self.units_at(u.loc, s)) > 1):
                for n in self.nbrs(u.loc):
                    out.append(act("lead", uid, n, u.loc))
            if t.artillery and not u.deployed:
                out.append(act("deploy", uid))
            if self.rail_hex(u.loc) and self.turn_rail_left(s) >= u.strength:
                out.append(act("entrain", uid))
            if not u.assault:
                for n in self.nbrs(u.loc):
                    if self.units_at(n, other(s)):
                        out.append(act("assault", uid, n))
            if "bridge" in t.flags:
                out.append(act("build", uid))
            if "engineer" in t.flags:
                out.append(act("demolish", uid))
            full = self.cat.units[uid].strength if uid in self.cat.units else 0
            if u.strength < full:
                if t.personnel and self.repl[s] > 0 and self.impulses[s] == 1:
                    out.append(act("replace", uid))
                if t.afv and self.turn >= 5 and not self.repaired[s]:
                    out.append(act("repair", uid))
        for uid in sorted(self.units):
            if self.units[uid].loc == "raster" and self.side_of(uid) == s:
                for h in self.entry_hexes(uid):
                    out.append(act("enter", uid, h))
        if s == "soviet" and self.turn == 10:
            for div in sorted({self.udef(x).div for x in self.side_units(s)}):
                out.append(act("refit", div))
        return out

    def _combat_candidates(self) -> list[WDAction]:
        out = [act("done")]
        c = self.combat
        if not c:
            return out
        side = self._current_player()
        assert side is not None
        h = c["hex"]
        for div in self.involved_divisions():
            out.append(act("hq", div))
        if self.phase == "defense":
            out.append(act("high"))
        for uid in self.side_units(side):
            if self.utype(uid).support > 0:
                out.append(act("support", uid))
        for kind in ("conv", "at"):
            pool = self.pool(kind)
            if pool <= 0:
                continue
            for tgt in self.targets(kind):
                d = self.target_defense(tgt, kind)
                amounts = {pool}
                for col in range(len(self.cat.tables.columns)):
                    need = rules.needed_for(self.cat.tables, col, d)
                    if need <= pool:
                        amounts.add(need)
                for amt in sorted(amounts):
                    out.append(act("fire" if kind == "conv" else "fire-at", tgt, n=amt))
        del h
        return out

    # ------------------------------------------------------------------ validation

    def _validate(self, a: WDAction) -> None:
        if self.passing and not (a.kind == "move" and a.unit == self.passing):
            raise IllegalAction(f"{self.passing} must first move on out of the full hex "
                                f"{self.units[self.passing].loc}", rule="Rule 4")
        fn: Callable[[WDAction], None] | None = getattr(
            self, "_check_" + a.kind.replace("-", "_"), None)
        if fn is None:
            raise IllegalAction(f"{a.notation()!r} is not possible now")
        fn(a)

    def _need_phase(self, *phases: str, rule: str = "Rule 5") -> None:
        if self.phase not in phases:
            raise IllegalAction(f"that is done in the {' or '.join(phases)} phase, and this is "
                                f"the {self.phase} phase", rule=rule)

    def _need_unit(self, uid: str, side: str | None = None) -> U:
        if uid not in self.units:
            raise IllegalAction(f"there is no unit {uid!r}", rule="Rule 2")
        if side is not None and self.side_of(uid) != side:
            raise IllegalAction(f"{uid} is not a {side} unit", rule="Rule 6.A")
        return self.units[uid]

    def _need_map(self, uid: str) -> U:
        u = self._need_unit(uid, self.phasing)
        if not self.on_map(uid):
            raise IllegalAction(f"{uid} is not on the map", rule="Rule 6.A")
        return u

    # setup
    def setup_hexes(self, uid: str) -> list[str]:
        key = ("setup", uid)
        if key not in self._cache:
            g = self.group_of(uid)
            gkey = ("group", g.near, g.within)
            if gkey not in self._static:
                self._static[gkey] = self.group_hexes(g)
            self._cache[key] = [h for h in self._static[gkey] if self.placeable(uid, h)]
        out: list[str] = self._cache[key]
        return out

    def _check_place(self, a: WDAction) -> None:
        self._need_phase("setup", rule="Rule 22")
        if a.unit not in self.setup_raster:
            raise IllegalAction(f"{a.unit} is not waiting to be set up", rule="Rule 22")
        if a.hex not in self.setup_hexes(a.unit):
            raise IllegalAction(f"{a.unit} may not set up in {a.hex}: outside its setup area or "
                                "over the stacking limit", rule="Rule 4")

    def _check_auto_setup(self, a: WDAction) -> None:
        self._need_phase("setup", rule="Rule 22")

    # decision
    def _check_impulse(self, a: WDAction) -> None:
        self._need_phase("decision")
        k = int(a.amount)
        if a.amount.denominator != 1 or not 1 <= k <= self.mps[self.phasing]:
            raise IllegalAction(f"the {self.phasing} player may spend 1 to "
                                f"{self.mps[self.phasing]} movement points, not {a.n}",
                                rule="Rule 5")

    def _vl_avoid_possible(self) -> bool:
        return (self.phase == "decision" and self.phasing == "german"
                and self.impulses["german"] == 0 and not self.vl_avoid
                and self.supply["vl"] >= 1
                and any(self.units_at(h, "german") for h in self.vl_hexes())
                and not any(self.traced("german", h) for h in self.vl_hexes()))

    def _check_vl_supply(self, a: WDAction) -> None:
        if not self._vl_avoid_possible():
            raise IllegalAction("Velikiye Luki may spend a supply point against isolation only "
                                "at the start of the German player's first impulse of a turn, "
                                "while the city is cut off and has a point", rule="Rule 15.D.2")

    # movement
    def _movable(self, uid: str, moving: bool = True) -> U:
        self._need_phase("movement", rule="Rule 6")
        u = self._need_map(uid)
        if "intrinsic" in self.utype(uid).flags:
            raise IllegalAction("an intrinsic garrison never moves", rule="Intrinsic Garrisons")
        if moving and self.sc.opening and self.turn == 1 and u.garrison:
            raise IllegalAction(f"{uid} is a garrison unit and may not move on the first turn",
                                rule="Rule 22")
        return u

    def _check_move(self, a: WDAction) -> None:
        self._move_checks(a, self._movable(a.unit))

    def _move_checks(self, a: WDAction, u: U) -> None:
        uid = a.unit
        s = self.phasing
        t = self.utype(uid)
        if u.loc != a.frm:
            raise IllegalAction(f"{uid} is in {u.loc}, not {a.frm}", rule="Rule 6.A")
        if a.hex not in self.map or not self.map.grid.adjacent(a.frm, a.hex):
            raise IllegalAction(f"{a.hex} is not next to {a.frm}", rule="Rule 6.A")
        if u.entrained:
            raise IllegalAction(f"{uid} is entrained: use rail", rule="Rule 8")
        if u.stopped:
            raise IllegalAction(f"{uid} entered an enemy ZOC and may not move farther this "
                                "movement phase", rule="Rule 3")
        if u.assault:
            raise IllegalAction(f"{uid} has declared an assault on {u.assault}", rule="Rule 6.B.3")
        if self.units_at(a.hex, other(s)):
            raise IllegalAction(f"{a.hex} is occupied by the enemy", rule="Rule 6.A")
        if (u.garrison == "vl" and not self.vl_released and a.hex not in self.vl_hexes()):
            raise IllegalAction("the Velikiye Luki garrison may not leave the city until released",
                                rule="Rule 22")
        cost = self.move_cost(uid, a.frm, a.hex)
        if cost is None:
            raise IllegalAction(f"{a.hex} is prohibited terrain for {uid} from {a.frm}",
                                rule="Rule 7")
        if cost > self.left(uid):
            raise IllegalAction(f"{uid} needs {fmt_amount(cost)} MPs to enter {a.hex} and has "
                                f"{fmt_amount(self.left(uid))}", rule="Rule 6.A")
        if t.weapons and a.hex in self.ezoc(s) and not any(
                self.utype(x).personnel or self.utype(x).afv
                for x in self.units_at(a.hex, s)):
            raise IllegalAction(f"{uid} is a weapons unit and may not enter an enemy ZOC unless "
                                "a personnel or AFV unit is there", rule="Rule 3.C")
        if not self.stack_ok_with(a.hex, uid) and not self.can_pass(uid, a.frm, a.hex, cost):
            raise IllegalAction(f"{uid} may not end its move in {a.hex} (stacking) and could not "
                                "move on from it", rule="Rule 4")

    def can_pass(self, uid: str, frm: str, to: str, cost: Fraction) -> bool:
        """Rule 4: a unit may move through a full hex, though not end its move there.

        Allowed when nothing can stop it there (no enemy ZOC, no die to roll) and it can
        still move on to a hex where it may stop; it must then move on at once.
        """
        s = self.side_of(uid)
        t = self.utype(uid)
        if to in self.ezoc(s) or (t.afv and frm in self.ezoc(s)) or self.lake_roll_due(
                uid, frm, to):
            return False
        rest = self.left(uid) - cost
        enemy = self.enemy_hexes(s)
        for n in self.nbrs(to):
            if n in enemy or n == to:
                continue
            c = self.enter_cost(uid, to, n)
            if c is None or c > rest:
                continue
            if not self.stack_ok_with(n, uid):
                continue  # it must be able to stop there
            if t.weapons and n in self.ezoc(s):
                continue
            if self.units[uid].garrison == "vl" and not self.vl_released and (
                    n not in self.vl_hexes()):
                continue
            return True
        return False

    def escorts(self, leader: str) -> list[str]:
        """Rule 21.B: the units stacked with a Brandenburg unit, which move with it."""
        h = self.units[leader].loc
        return [x for x in self.units_at(h, "german") if x != leader
                and "intrinsic" not in self.utype(x).flags]

    def _check_lead(self, a: WDAction) -> None:
        u = self._movable(a.unit)
        if "brandenburg" not in self.utype(a.unit).flags:
            raise IllegalAction(f"{a.unit} is not a Brandenburg commando unit", rule="Rule 21.B")
        group = self.escorts(a.unit)
        if not group:
            raise IllegalAction(f"no unit is stacked with {a.unit} to lead", rule="Rule 21.B")
        self._move_checks(a, u)
        for x in group:
            ux = self._movable(x)
            if ux.stopped or ux.assault or ux.entrained:
                raise IllegalAction(f"{x} may not move with {a.unit} now", rule="Rule 21.B")
            cost = self.move_cost(x, a.frm, a.hex)
            if cost is None or cost > self.left(x):
                raise IllegalAction(f"{x} cannot pay to enter {a.hex}", rule="Rule 21.B")
            if ux.garrison == "vl" and not self.vl_released and a.hex not in self.vl_hexes():
                raise IllegalAction("the Velikiye Luki garrison may not leave the city until "
                                    "released", rule="Rule 22")
        here = [self.udef(x) for x in self.units_at(a.hex, "german")]
        if not rules.stack_ok("german", [*here, *(self.udef(x) for x in [a.unit, *group])]):
            raise IllegalAction(f"the stack may not enter {a.hex} over the stacking limit",
                                rule="Rule 4")

    def _do_act_lead(self, a: WDAction) -> list[Event]:
        group = [a.unit, *self.escorts(a.unit)]
        in_zoc = a.frm in self.ezoc("german")
        for x in group:
            cost = self.move_cost(x, a.frm, a.hex)
            assert cost is not None
            u = self.units[x]
            if in_zoc:
                u.marks.add("left-zoc")
            u.spent += cost
            u.deployed = False
            self._put(x, a.hex)
        events = [Event(f"{a.unit} leads {len(group) - 1} units from {a.frm} to {a.hex}", "move",
                        visible_to=("german",), hexes=(a.frm, a.hex), units=tuple(group)),
                  Event(f"a german stack moves {a.frm} to {a.hex}", "move",
                        visible_to=("soviet",), hexes=(a.frm, a.hex))]
        if a.hex in self.ezoc("german"):
            n = len([x for x in group if "brandenburg" not in self.utype(x).flags])
            self._push("brandenburg", f"Brandenburg detection for {a.unit} and {n} escorted "
                       f"units at {a.hex} (-{n})", "Rule 21.B", uid=a.unit, hex=a.hex,
                       group=group, mod=n)
        return events

    def move_cost(self, uid: str, frm: str, to: str) -> Fraction | None:
        """Terrain cost plus Rule 3 / 6.B.1 ZOC costs."""
        cost = self.enter_cost(uid, frm, to)
        if cost is None:
            return None
        u = self.units[uid]
        t = self.utype(uid)
        s = self.side_of(uid)
        if frm in self.ezoc(s):
            if t.mob == "s" and not u.zoc_start:
                cost += 1  # Rule 3.B: ski units pay for each enemy ZOC exited
            elif u.zoc_start and "left-zoc" not in u.marks:
                cost += 1  # Rule 3 / 6.B.1
            elif not u.zoc_start and t.afv:
                pass
        return cost

    def _check_enter(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 17")
        u = self._need_unit(a.unit, self.phasing)
        if u.loc != "raster":
            raise IllegalAction(f"{a.unit} is not waiting to enter", rule="Rule 17")
        if a.hex not in self.entry_hexes(a.unit):
            raise IllegalAction(f"{a.hex} is not in an open entry area of {a.unit}",
                                rule="Rule 17")
        cost = self.enter_cost(a.unit, None, a.hex)
        if cost is None or cost > self.impulse_mp:
            raise IllegalAction(f"{a.unit} cannot pay to enter {a.hex}", rule="Rule 17.C")

    def entry_hexes(self, uid: str) -> list[str]:
        key = ("entry", uid)
        if key not in self._cache:
            self._cache[key] = self._entry_hexes(uid)
        out: list[str] = self._cache[key]
        return out

    def _entry_hexes(self, uid: str) -> list[str]:
        u = self.units[uid]
        side = self.side_of(uid)
        areas = [u.entry] if u.entry else []
        if u.entry == "german-south":
            areas.append("german-southwest")
        if u.entry in ("german-south", "german-southwest"):
            sched = [r[0] for r in self.schedule if r[1] == uid]
            if sched and sched[0] < self.turn:
                areas.append("german-west")
        out: list[str] = []
        for area in areas:
            if not self._entry_open(area):
                continue
            try:
                hexes = self.cat.resolve(area)
            except ScenarioError:
                continue
            for h in hexes:
                if h in out or self.units_at(h, other(side)):
                    continue
                c = self.enter_cost(uid, None, h)
                if c is None or c > self.impulse_mp or not self.stack_ok_with(h, uid):
                    continue
                out.append(h)
        return sorted(out)

    def _entry_open(self, area: str) -> bool:
        """Rule 17.E: closed German entry zones."""
        g = self.map.grid
        r1 = g.rows[1]
        if area == "german-south":
            vl = self.vl_hexes()
            if not vl:
                return True
            vrow = max(g.coords_of(h)[1] for h in vl)
            east = self.map.areas.get("east_of_lowatj")
            if east is not None:
                east_set = set(east)
                return any(self.units[x].loc in east_set
                           and g.coords_of(self.units[x].loc)[1] > vrow
                           for x in self.side_units("german"))
            try:
                lcol = min(g.coords_of(h)[0] for h in self.cat.resolve("Lowatj"))
            except ScenarioError:
                lcol = 0
            return any(g.coords_of(self.units[x].loc)[1] > vrow
                       and g.coords_of(self.units[x].loc)[0] > lcol
                       for x in self.side_units("german"))
        if area == "german-southwest":
            return any(g.coords_of(self.units[x].loc)[1] > r1 - 10
                       for x in self.side_units("german"))
        return True

    def _check_deploy(self, a: WDAction) -> None:
        u = self._movable(a.unit, moving=False)  # deploying is not moving (Rule 22)
        if not self.utype(a.unit).artillery:
            raise IllegalAction(f"{a.unit} is not artillery", rule="Rule 6.B.2")
        if u.deployed:
            raise IllegalAction(f"{a.unit} is already deployed", rule="Rule 6.B.2")
        if self.left(a.unit) < 1:
            raise IllegalAction("deploying costs one movement point", rule="Rule 6.B.2")

    def turn_rail_left(self, side: str) -> int:
        return self.cat.rail_sp - self.rail_used[side]

    def _check_entrain(self, a: WDAction) -> None:
        u = self._movable(a.unit)
        t = self.utype(a.unit)
        if u.entrained or u.stopped or u.assault:
            raise IllegalAction(f"{a.unit} may not entrain now", rule="Rule 8")
        if not self.rail_hex(u.loc):
            raise IllegalAction(f"{u.loc} has no railroad", rule="Rule 8")
        if not t.personnel and not self.is_town(u.loc) and "entered" not in u.marks:
            raise IllegalAction("weapons and AFV units entrain only in a town on a railroad "
                                "(except reinforcements as they enter)", rule="Rule 8")
        if self.left(a.unit) < 1:
            raise IllegalAction("entraining costs one movement point", rule="Rule 8")
        if u.strength > self.turn_rail_left(self.phasing):
            raise IllegalAction(f"only {self.turn_rail_left(self.phasing)} strength points of "
                                "rail movement are left this turn", rule="Rule 8")
        if u.loc in self.ezoc(self.phasing):
            raise IllegalAction("rail movement may not start in an enemy ZOC", rule="Rule 8")
        if not self.rail_destinations(a.unit, check_only=True):
            raise IllegalAction("the railroad cannot be traced to a friendly edge from here",
                                rule="Rule 8")

    def rail_destinations(self, uid: str, check_only: bool = False) -> list[str]:
        key = ("rail", uid, check_only)
        if key not in self._cache:
            self._cache[key] = self._rail_destinations(uid, check_only)
        out: list[str] = self._cache[key]
        return out

    def _rail_destinations(self, uid: str, check_only: bool = False) -> list[str]:
        s = self.side_of(uid)
        start = self.units[uid].loc
        bad = self.enemy_hexes(s) | self.ezoc(s)
        seen = {start}
        todo = deque([start])
        while todo:
            h = todo.popleft()
            for n in self.nbrs(h):
                if n not in seen and n not in bad and self.rail(h, n):
                    seen.add(n)
                    todo.append(n)
        if not seen & self.edge_hexes(s):
            return []
        if check_only:
            return [start]
        t = self.utype(uid)
        return sorted(h for h in seen if h != start and (t.personnel or self.is_town(h))
                      and self.stack_ok_with(h, uid))

    def _check_rail(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 8")
        u = self._need_map(a.unit)
        if not u.entrained:
            raise IllegalAction(f"{a.unit} is not entrained", rule="Rule 8")
        if a.hex not in self.rail_destinations(a.unit):
            raise IllegalAction(f"{a.unit} cannot reach {a.hex} by rail", rule="Rule 8")

    def _check_assault(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 5")
        u = self._need_map(a.unit)
        s = self.phasing
        t = self.utype(a.unit)
        if u.assault:
            raise IllegalAction(f"{a.unit} already assaults {u.assault}", rule="Rule 6.B.3")
        if u.entrained:
            raise IllegalAction(f"{a.unit} is entrained", rule="Rule 8")
        if not self.units_at(a.hex, other(s)) or not self.map.grid.adjacent(u.loc, a.hex):
            raise IllegalAction(f"{a.hex} is not an adjacent enemy hex", rule="Rule 6.B.3")
        if self.left(a.unit) < 1:
            raise IllegalAction("assaulting costs one movement point", rule="Rule 6.B.3")
        if not t.afv and (t.cf <= 0 or t.cf_defensive_only):
            raise IllegalAction(f"{a.unit} may only fire defensively", rule="Rule 9.A")
        if "no-assault" in u.marks:
            raise IllegalAction(f"{a.unit} may not assault this impulse", rule="Rule 14.B.2")
        if s == "soviet" and self.impulse_mp < min(3, self.impulse_left_before):
            raise IllegalAction("the Soviet player must spend 3 MPs (or all remaining) in an "
                                "impulse to assault", rule="Rule 5")
        if self.enter_cost(a.unit, u.loc, a.hex) is None:
            raise IllegalAction(f"{a.unit} may not assault across a prohibited hexside or into "
                                "a prohibited hex", rule="Rule 12.A")
        pool = self.pool_of(a.unit)
        if f"assault:{pool}" not in self.paid and self.supply[pool] < 1:
            raise IllegalAction(f"no supply point is left in the {pool} pool to assault",
                                rule="Rule 15.A.1")

    def _check_build(self, a: WDAction) -> None:
        u = self._movable(a.unit)
        if "bridge" not in self.utype(a.unit).flags or a.unit in self.builders:
            raise IllegalAction(f"{a.unit} cannot build a bridge (one each)", rule="Rule 20.B")
        if "river" not in self.terrain(u.loc) or u.loc in self.bridges:
            raise IllegalAction(f"{u.loc} is not an unbridged river hex", rule="Rule 20.B")
        if self.left(a.unit) < 1:
            raise IllegalAction("building costs one movement point", rule="Rule 20.B")

    def _check_demolish(self, a: WDAction) -> None:
        u = self._movable(a.unit)
        if "engineer" not in self.utype(a.unit).flags or u.loc not in self.bridges:
            raise IllegalAction(f"{a.unit} is not an engineer on a bridge", rule="Rule 20.A")
        if self.left(a.unit) < 1:
            raise IllegalAction("demolishing costs one movement point", rule="Rule 20.A")

    def _check_replace(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 18")
        u = self._need_map(a.unit)
        t = self.utype(a.unit)
        if self.impulses[self.phasing] != 1:
            raise IllegalAction("replacements are added in the player's first impulse of a turn",
                                rule="Rule 18")
        if not t.personnel or u.strength >= self.cat.units[a.unit].strength:
            raise IllegalAction(f"{a.unit} is not a damaged personnel unit", rule="Rule 18")
        if self.repl[self.phasing] < 1:
            raise IllegalAction("no replacement points left", rule="Rule 18")
        if self.isolated(a.unit):
            raise IllegalAction(f"{a.unit} is isolated", rule="Rule 18")
        if self.vl_avoid and u.loc in self.vl_hexes():
            raise IllegalAction("Velikiye Luki troops kept in supply by a supply point may not "
                                "receive replacements", rule="Rule 18")

    def _check_repair(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 18")
        u = self._need_map(a.unit)
        if not self.utype(a.unit).afv or u.strength >= self.cat.units[a.unit].strength:
            raise IllegalAction(f"{a.unit} is not a damaged AFV", rule="Rule 18")
        if self.turn < 5 or self.repaired[self.phasing]:
            raise IllegalAction("one AFV strength point a turn, from turn 5", rule="Rule 18")

    def _check_refit(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 18")
        if self.phasing != "soviet" or self.turn != 10 or self.impulses["soviet"] != 1:
            raise IllegalAction("the tank brigade refit is taken in the first Soviet impulse of "
                                "turn 10", rule="Rule 18")
        members = [x for x in self.side_units("soviet") if self.udef(x).div == a.unit]
        brigade = all(self.utype(x).size in ("I", "II") for x in members)
        if not members or not brigade or not any(self.utype(x).afv for x in members):
            raise IllegalAction(f"{a.unit} is not a brigade with tanks in play", rule="Rule 18")
        if any(self.units[x].spent or self.units[x].assault for x in members):
            raise IllegalAction("the brigade has already acted this turn", rule="Rule 18")
        if any(self.units[x].loc == "refit" for x in self.units):
            raise IllegalAction("only one tank brigade may be refitted", rule="Rule 18")

    def _check_end_movement(self, a: WDAction) -> None:
        self._need_phase("movement", rule="Rule 5")

    # barrage
    def _check_barrage(self, a: WDAction) -> None:
        self._need_phase("barrage", rule="Rule 11.B")
        u = self._need_map(a.unit)
        t = self.utype(a.unit)
        if t.barrage <= 0 or not u.deployed:
            raise IllegalAction(f"{a.unit} is not deployed artillery with a barrage factor",
                                rule="Rule 11.B")
        if "barraged" in u.marks or a.unit in self.bar.get("units", []):
            raise IllegalAction(f"{a.unit} has already barraged this impulse", rule="Rule 11.B")
        if self.bar and self.bar.get("hex") not in ("", a.hex) and self.bar.get("units"):
            raise IllegalAction(f"fire the barrage on {self.bar['hex']} first", rule="Rule 11.B")
        if not self.units_at(a.hex, other(self.phasing)):
            raise IllegalAction(f"{a.hex} holds no enemy unit", rule="Rule 11.B")
        if self.map.distance(u.loc, a.hex) > t.range:
            raise IllegalAction(f"{a.hex} is beyond {a.unit}'s range of {t.range}",
                                rule="Rule 11.B.2.A")
        if not self.art_supplied(a.unit):
            raise IllegalAction(f"{a.unit} cannot trace artillery supply", rule="Rule 15.B")
        pool = self.pool_of(a.unit)
        pools = {self.pool_of(x) for x in self.bar.get("units", [])}
        if pools and pool not in pools:
            raise IllegalAction("one barrage draws on one supply pool", rule="Rule 15.D.2")
        already = 1 if f"assault:{pool}" in self.paid else 0
        if f"barrage:{pool}" not in self.paid and self.supply[pool] < 2 - already:
            raise IllegalAction(f"a barrage costs 2 supply points (the assault point counts); "
                                f"the {pool} pool has {self.supply[pool]}", rule="Rule 15.A.2")

    def _check_fire_barrage(self, a: WDAction) -> None:
        self._need_phase("barrage", rule="Rule 11.B")
        if not self.bar.get("units"):
            raise IllegalAction("no artillery is assigned to a barrage", rule="Rule 11.B")

    def _check_end_barrage(self, a: WDAction) -> None:
        self._need_phase("barrage", rule="Rule 11.B")

    # combat
    def involved_divisions(self) -> list[str]:
        h = self.combat.get("hex", "")
        if self.phase == "defense":
            uids = self.units_at(h, other(self.phasing))
        else:
            uids = self.attackers(h)
        return sorted({self.udef(x).div for x in uids if "intrinsic" not in self.utype(x).flags})

    def attackers(self, h: str) -> list[str]:
        return [x for x in self.assaults.get(h, []) if self.on_map(x)
                and self.units[x].assault == h and "no-assault" not in self.units[x].marks
                and self.map.grid.adjacent(self.units[x].loc, h)]

    def defenders(self, h: str) -> list[str]:
        return self.units_at(h, other(self.phasing))

    def hq(self) -> str:
        c = self.combat
        if c.get("hq"):
            hq: str = c["hq"]
            return hq
        divs = self.involved_divisions()
        if not divs:
            return ""
        h = c["hex"]
        uids = self.defenders(h) if self.phase == "defense" else self.attackers(h)
        return max(divs, key=lambda d: (sum(1 for x in uids if self.udef(x).div == d),
                                        [-ord(ch) for ch in d]))

    def support_value(self, uid: str) -> Fraction:
        """Rule 11.A.2 with Rules 15.A.4 and 15.B."""
        t = self.utype(uid)
        u = self.units[uid]
        h = self.combat["hex"]
        factor = t.support
        if not self.art_supplied(uid):
            factor = 1
        if self.phase == "defense" and f"high:{self.pool_of(uid)}" not in self.paid:
            factor = 1
        v = Fraction(factor * u.strength)
        if self.phase == "defense":
            dist = self.map.distance(u.loc, h)
        else:
            dist = min((self.map.distance(u.loc, self.units[x].loc) for x in self.attackers(h)),
                       default=99)
        if dist * 2 > t.range:
            v /= 2
        return v

    def firers(self, kind: str) -> list[str]:
        h = self.combat["hex"]
        if self.phase == "defense":
            out = []
            afv_targets = any(self.utype(x).afv for x in self.attackers(h))
            for x in self.defenders(h):
                u = self.units[x]
                t = self.utype(x)
                if "no-df" in u.marks or "support:defense" in u.marks:  # Rules 14.B.1, 11.A.1
                    continue
                if t.weapons and t.atf > 0 and t.cf > 0:  # Rule 10.D: one or the other
                    use = "at" if afv_targets else "conv"
                    if use != kind:
                        continue
                out.append(x)
            return out
        if kind == "at":
            return [x for x in self.attackers(h) if self.utype(x).afv]
        return self.attackers(h)

    def pool(self, kind: str) -> Fraction:
        """The fire value still to allocate at the current combat hex."""
        c = self.combat
        if not c:
            return Fraction(0)
        h = c["hex"]
        attacking = self.phase == "assault"
        total = sum((self.fire_value(x, kind, h, attacking) for x in self.firers(kind)),
                    Fraction(0))
        if self.phase == "defense" and self.phasing == "soviet":
            total += self.bunker(h)  # Rule 19: German bunkers fire defensively, factor 1
        if kind == "conv":
            total += sum((self.support_value(x) for x in c.get("support", [])), Fraction(0))
        used = sum((canonical.unfrac(al[2]) for al in c.get("alloc", []) if al[1] == kind),
                   Fraction(0))
        return total - used

    def targets(self, kind: str) -> list[str]:
        h = self.combat["hex"]
        cand = self.attackers(h) if self.phase == "defense" else self.defenders(h)
        return [x for x in cand if self.utype(x).afv == (kind == "at")]

    def target_defense(self, uid: str, kind: str) -> int:
        h = self.combat["hex"]
        if self.phase == "defense":
            return self.defense(uid, kind, at_hex=h)
        return self.defense(uid, kind)

    def _combat_turn(self) -> None:
        self._need_phase("defense", "assault", rule="Rule 5")
        if not self.combat:
            raise IllegalAction("no combat is open", rule="Rule 5")

    def _check_hq(self, a: WDAction) -> None:
        self._combat_turn()
        if a.unit not in self.involved_divisions() or len(self.involved_divisions()) < 2:
            raise IllegalAction(f"{a.unit} is not one of two or more divisions or brigades in "
                                "this combat", rule="Rule 11.A.1")
        if self.combat.get("hq") == a.unit:
            raise IllegalAction(f"{a.unit} is already the headquarters", rule="Rule 11.A.1")
        if self.combat.get("support"):
            raise IllegalAction("choose the headquarters before adding support",
                                rule="Rule 11.A.1")

    def _check_high(self, a: WDAction) -> None:
        self._combat_turn()
        if self.phase != "defense":
            raise IllegalAction("high intensity support is the defender's", rule="Rule 15.A.4")
        defenders = self.defenders(self.combat["hex"])
        pool = self.pool_of(defenders[0]) if defenders else other(self.phasing)
        if f"high:{pool}" in self.paid or self.supply[pool] < 1:
            raise IllegalAction("high intensity support needs one supply point (once an impulse)",
                                rule="Rule 15.A.4")

    def _check_support(self, a: WDAction) -> None:
        self._combat_turn()
        side = self._current_player()
        u = self._need_unit(a.unit, side)
        t = self.utype(a.unit)
        h = self.combat["hex"]
        if not self.on_map(a.unit) or t.support <= 0 or not u.deployed:
            raise IllegalAction(f"{a.unit} is not deployed artillery with a support factor",
                                rule="Rule 11.A")
        if "barraged" in u.marks or f"support:{self.phase}" in u.marks:
            raise IllegalAction(f"{a.unit} has already fired this phase", rule="Rule 11.A.1")
        if u.loc == h or u.assault:
            raise IllegalAction(f"{a.unit} is in the combat itself", rule="Rule 11.A.1")
        if self.phase == "defense" and "no-df" in u.marks:
            raise IllegalAction(f"{a.unit} failed a barrage morale check", rule="Rule 14.B.1")
        if side == "soviet" and self.udef(a.unit).div != self.hq():
            raise IllegalAction(f"{a.unit} may support only its own division or brigade "
                                f"(headquarters: {self.hq()})", rule="Rule 11.A.1")
        if self.phase == "defense":
            dist = self.map.distance(u.loc, h)
        else:
            dist = min((self.map.distance(u.loc, self.units[x].loc) for x in self.attackers(h)),
                       default=99)
        if dist > t.range:
            raise IllegalAction(f"{a.unit} is out of range", rule="Rule 11.A.2")

    def _check_fire(self, a: WDAction, kind: str = "conv") -> None:
        self._combat_turn()
        tgt = a.unit
        if tgt not in self.targets(kind):
            raise IllegalAction(f"{tgt} may not be fired at with "
                                f"{'conventional' if kind == 'conv' else 'antitank'} fire here",
                                rule="Rule 9.B" if kind == "conv" else "Rule 10.B")
        alloc = self.combat.get("alloc", [])
        if any(al[0] == tgt for al in alloc):
            raise IllegalAction(f"{tgt} has already been fired at this phase", rule="Rule 9.C.3")
        if a.amount > self.pool(kind):
            raise IllegalAction(f"only {fmt_amount(self.pool(kind))} fire points are left",
                                rule="Rule 9.C.3")
        if kind == "conv":
            self._weapons_limit(tgt, a.amount)

    def _weapons_limit(self, tgt: str, amount: Fraction) -> None:
        """Rule 9.C.3: weapons units never at better odds than any personnel unit, and
        only once every personnel unit is fired at."""
        alloc = {al[0]: canonical.unfrac(al[2]) for al in self.combat.get("alloc", [])
                 if al[1] == "conv"}
        targets = self.targets("conv")
        personnel = [x for x in targets if self.utype(x).personnel]
        weapons = [x for x in targets if self.utype(x).weapons]

        def ratio(x: str, v: Fraction) -> Fraction:
            return v / self.target_defense(x, "conv")

        if self.utype(tgt).weapons:
            if any(p not in alloc for p in personnel):
                raise IllegalAction("a weapons unit may be fired at only once every personnel "
                                    "unit is", rule="Rule 9.C.3")
            if personnel:
                floor_ = min(ratio(p, alloc[p]) for p in personnel)
                tables = self.cat.tables
                if rules.odds_column(tables, amount, self.target_defense(tgt, "conv")) > \
                        rules.odds_column(tables, floor_, 1):
                    raise IllegalAction("a weapons unit may not be fired at with higher odds "
                                        "than a personnel unit", rule="Rule 9.C.3")
        else:
            tables = self.cat.tables
            col = rules.odds_column(tables, amount, self.target_defense(tgt, "conv"))
            for w in weapons:
                if w in alloc and rules.odds_column(
                        tables, alloc[w], self.target_defense(w, "conv")) > col:
                    raise IllegalAction("a personnel unit may not be fired at with lower odds "
                                        "than a weapons unit", rule="Rule 9.C.3")

    def _check_fire_at(self, a: WDAction) -> None:
        self._check_fire(a, "at")

    def _check_done(self, a: WDAction) -> None:
        self._need_phase("defense", "assault", rule="Rule 5")

    def _check_advance(self, a: WDAction) -> None:
        self._need_phase("advance", rule="Rule 9.D")
        if a.unit not in self.advance.get(a.hex, []):
            raise IllegalAction(f"{a.unit} did not assault {a.hex} or may not advance",
                                rule="Rule 9.D")
        if self.units_at(a.hex, other(self.phasing)):
            raise IllegalAction(f"{a.hex} is not vacated", rule="Rule 9.D")
        if not self.stack_ok_with(a.hex, a.unit):
            raise IllegalAction(f"advancing {a.unit} would break the stacking limit",
                                rule="Rule 14.B.3")

    def _check_end_advance(self, a: WDAction) -> None:
        self._need_phase("advance", rule="Rule 9.D")

    # ------------------------------------------------------------------ apply

    def _apply_action(self, action: Action) -> list[Event]:
        if not isinstance(action, WDAction):
            action = parse(action.notation())
        self._validate(action)
        fn = getattr(self, "_do_act_" + action.kind.replace("-", "_"))
        events: list[Event] = fn(action)
        self._moved()
        events += self._settle()
        return events

    def _do_act_place(self, a: WDAction) -> list[Event]:
        self._put(a.unit, a.hex)
        self.setup_raster.remove(a.unit)
        return [Event(f"{a.unit} sets up in {a.hex}", "move", visible_to=(self.setup_side,),
                      hexes=(a.hex,)), *self._setup_next()]

    def _do_act_auto_setup(self, a: WDAction) -> list[Event]:
        for uid in list(self.setup_raster):
            self._auto_place(self.group_of(uid))
        self.setup_raster = []
        return [Event(f"The {self.setup_side} setup is completed automatically", "info"),
                *self._setup_next()]

    def _setup_next(self) -> list[Event]:
        if self.setup_raster:
            return []
        if self.setup_side == "german":
            self.setup_side = "soviet"
            groups = list(self.cat.opening) + list(self.sc.groups)
            self.setup_raster = [u for g in groups if g.side == "soviet" for u in g.units]
            return [Event("The Soviet player sets up", "phase")]
        self.phase = "start"
        self.todo.append("start-turn:first")
        return []

    def _do_act_vl_supply(self, a: WDAction) -> list[Event]:
        self.supply["vl"] -= 1
        self.vl_avoid = True
        return [Event("Velikiye Luki spends a supply point to avoid isolation this turn",
                      "info", visible_to=("german",))]

    def _do_act_impulse(self, a: WDAction) -> list[Event]:
        s = self.phasing
        k = int(a.amount)
        self.impulse_left_before = self.mps[s]
        self.impulse_mp = k
        self.mps[s] -= k
        self.impulses[s] += 1
        ez = self.ezoc(s)
        for uid in self.side_units(s):
            u = self.units[uid]
            u.spent = Fraction(0)
            u.stopped = False
            u.zoc_start = u.loc in ez
            u.via = ""
        for uid in self.units:
            if self.units[uid].loc == "raster" and self.side_of(uid) == s:
                self.units[uid].spent = Fraction(0)
        self.phase = "movement"
        return [Event(f"The {s} player spends {k} movement points in this impulse "
                      f"({self.mps[s]} left this turn)", "phase")]

    def _do_act_move(self, a: WDAction) -> list[Event]:
        uid = a.unit
        self.units[uid]
        s = self.phasing
        cost = self.move_cost(uid, a.frm, a.hex)
        assert cost is not None
        t = self.utype(uid)
        # Rule 3.A: an AFV leaving an enemy ZOC draws antitank fire first
        if t.afv and a.frm in self.ezoc(s):
            firers = [x for n in self.nbrs(a.frm) for x in self.units_at(n, other(s))
                      if self.has_zoc(x) and self.utype(x).atf > 0]
            value = sum((self.fire_value(x, "at", a.frm, False) for x in sorted(set(firers))),
                        Fraction(0))
            col = rules.odds_column(self.cat.tables, value, self.defense(uid, "at"))
            if col >= 0:
                self._push("crt", f"antitank fire at {uid} leaving {a.frm} "
                           f"({fmt_amount(value)} at {rules.column_label(self.cat.tables, col)})",
                           "Rule 3.A", kind="at", uid=uid, col=col, stage="move", hex=a.frm)
                self.todo.insert(0, f"finish-move:{uid} {a.frm} {a.hex} "
                                 f"{fmt_amount(cost)}")
                return [Event(f"{uid} tries to leave the enemy ZOC at {a.frm}", "move",
                              hexes=(a.frm,), units=(uid,))]
        return self._finish_move(uid, a.frm, a.hex, cost)

    def _do_finish_move(self, arg: str) -> list[Event]:
        uid, frm, to, cost = arg.split(" ")
        u = self.units[uid]
        if not self.on_map(uid) or u.loc != frm or u.stopped:
            return [Event(f"{uid} ends its movement at {u.loc}", "move", units=(uid,))]
        if self.units_at(to, other(self.side_of(uid))) or not self.stack_ok_with(to, uid):
            return []
        return self._finish_move(uid, frm, to, Fraction(cost))

    def _finish_move(self, uid: str, frm: str, to: str, cost: Fraction) -> list[Event]:
        u = self.units[uid]
        s = self.side_of(uid)
        t = self.utype(uid)
        if frm in self.ezoc(s):
            u.marks.add("left-zoc")
        if self.river_at(to) == "river" and self.river_at(frm) != "river":
            u.via = frm
        u.spent += cost
        u.deployed = False
        u.marks.discard("entered")
        self._put(uid, to)
        self.passing = "" if self.stack_ok_with(to, uid) else uid
        # Rule 4.C: the opponent sees a counter move, not which unit it is
        events = [Event(f"{uid} moves {frm} to {to}", "move", visible_to=(s,),
                        hexes=(frm, to), units=(uid,)),
                  Event(f"a {s} unit moves {frm} to {to}", "move",
                        visible_to=(other(s),), hexes=(frm, to))]
        if to in self.ezoc(s):
            if "brandenburg" in t.flags and s == "german":
                self._push("brandenburg", f"Brandenburg detection for {uid} at {to}",
                           "Rule 21.B", uid=uid, hex=to)
            elif t.afv:
                pass  # Rule 3.A: AFVs need not stop
            elif t.mob == "s" and to not in self.ezoc(s, ski_only=True):
                pass  # Rule 3.B
            else:
                u.stopped = True
        if self.lake_roll_due(uid, frm, to):
            self._push("ice", f"ice collapse under {uid} crossing {frm}/{to}", "Rule 13",
                       uid=uid, hex=to)
        return events

    def _job_brandenburg(self, job: dict[str, Any], roll: int) -> list[Event]:
        if roll - job.get("mod", 0) <= 1:
            for x in job.get("group", [job["uid"]]):
                if self.on_map(x):
                    self.units[x].stopped = True
            return [Event(f"{job['uid']} is found out and stops at {job['hex']}", "info",
                          hexes=(job["hex"],))]
        return [Event(f"{job['uid']} slips through", "info", visible_to=("german",))]

    def _job_ice(self, job: dict[str, Any], roll: int) -> list[Event]:
        if roll == 1:
            return self._lose(job["uid"], 1, "the ice gives way")
        return []

    def _do_act_enter(self, a: WDAction) -> list[Event]:
        cost = self.enter_cost(a.unit, None, a.hex)
        assert cost is not None
        u = self.units[a.unit]
        u.spent = cost
        u.zoc_start = False
        u.marks.add("entered")
        self._put(a.unit, a.hex)
        if a.hex in self.ezoc(self.phasing) and not self.utype(a.unit).afv:
            u.stopped = True
        return [Event(f"{a.unit} enters the map at {a.hex}", "move", hexes=(a.hex,),
                      visible_to=(self.phasing,))]

    def _do_act_deploy(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        u.spent += 1
        u.deployed = True
        return [Event(f"{a.unit} deploys", "info", visible_to=(self.phasing,))]

    def _do_act_entrain(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        u.spent += 1
        u.entrained = True
        u.deployed = False
        self.rail_used[self.phasing] += u.strength
        return [Event(f"{a.unit} entrains at {u.loc}", "move", visible_to=(self.phasing,))]

    def _do_act_rail(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        frm = u.loc
        u.entrained = False
        u.marks.discard("entered")
        self._put(a.unit, a.hex)
        return [Event(f"{a.unit} moves by rail from {frm} to {a.hex}", "move",
                      visible_to=(self.phasing,), hexes=(frm, a.hex))]

    def _do_act_assault(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        pool = self.pool_of(a.unit)
        events = []
        if f"assault:{pool}" not in self.paid:
            self.paid.add(f"assault:{pool}")
            self.supply[pool] -= 1
            events.append(Event(f"One supply point ({pool}) is spent to assault", "info",
                                visible_to=(self.phasing,)))
        u.spent += 1
        u.assault = a.hex
        self.assaults.setdefault(a.hex, []).append(a.unit)
        events.append(Event(f"{a.unit} will assault {a.hex}", "attack", hexes=(a.hex,),
                            units=(a.unit,)))
        return events

    def _do_act_build(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        u.spent += 1
        self.bridges.add(u.loc)
        self.builders.add(a.unit)
        return [Event(f"{a.unit} builds a bridge at {u.loc}", "info", hexes=(u.loc,))]

    def _do_act_demolish(self, a: WDAction) -> list[Event]:
        u = self.units[a.unit]
        u.spent += 1
        self.bridges.discard(u.loc)
        return [Event(f"{a.unit} destroys the bridge at {u.loc}", "info", hexes=(u.loc,))]

    def _do_act_replace(self, a: WDAction) -> list[Event]:
        self.units[a.unit].strength += 1
        self.repl[self.phasing] -= 1
        return [Event(f"{a.unit} receives a replacement point", "info",
                      visible_to=(self.phasing,))]

    def _do_act_repair(self, a: WDAction) -> list[Event]:
        self.units[a.unit].strength += 1
        self.repaired[self.phasing] = True
        return [Event(f"{a.unit} repairs one strength point", "info", visible_to=(self.phasing,))]

    def _do_act_refit(self, a: WDAction) -> list[Event]:
        for x in self.side_units("soviet"):
            if self.udef(x).div == a.unit:
                self.units[x].loc = "refit"
                self.units[x].strength = self.cat.units[x].strength
        return [Event(f"Tank brigade {a.unit} leaves the line to refit (Rule 18)", "info")]

    def _do_act_end_movement(self, a: WDAction) -> list[Event]:
        self.phase = "barrage"
        events = [Event(f"The {self.phasing} movement phase ends; "
                        f"{len(self.assaults)} hexes to be assaulted", "phase")]
        if not any(self.utype(x).barrage > 0 and self.units[x].deployed
                   for x in self.side_units(self.phasing)):
            events += self._do_act_end_barrage(act("end-barrage"))
        return events

    def _do_act_barrage(self, a: WDAction) -> list[Event]:
        if not self.bar.get("units"):
            self.bar = {"hex": a.hex, "units": []}
        self.bar["units"].append(a.unit)
        return [Event(f"{a.unit} is assigned to barrage {a.hex}", "info",
                      visible_to=(self.phasing,))]

    def observed_for(self, art: str, target: str) -> bool:
        """Rule 11.B.3: is the target hex observed by or for this artillery unit?"""
        s = self.side_of(art)
        if s == "german":
            observers = self.side_units("german")
        else:
            t = self.utype(art)
            observers = [x for x in self.side_units("soviet") if x == art or "nondiv" in t.flags
                         or self.udef(x).div == self.udef(art).div]
        return any(self.sees(o, target) for o in observers)

    def sees(self, obs: str, target: str) -> bool:
        h = self.units[obs].loc
        d = self.map.distance(h, target)
        if self.weather == "snow":
            return d <= 1
        rng = 2
        high_obs = "high" in self.terrain(h)
        if high_obs and "high" not in self.terrain(target):
            rng = 3
        line = self.map.grid.line(h, target)
        if len(line) > 1 and len(line[1]) == 1 and self.map.faces_toward(
                "slope", h, line[1][0]) == h:
            rng = 3  # on the high side of a slope hexside the line crosses
        if any("guards-rocket" in self.utype(x).flags and self.units[x].deployed
               for x in self.units_at(target)):
            rng += 1
        if "obs" in self.utype(obs).flags and any(
                self.utype(x).artillery and self.units[x].deployed
                for x in self.units_at(target, other(self.side_of(obs)))) and d <= 7:
            return True  # Rule 11.B.3.D: sound and flash ranging need no line of sight
        return d <= rng and self.los(h, target)

    def los(self, a: str, b: str) -> bool:
        """Rule 11.B.3.C through the kit: towns and forests block between the ends, never at
        them; a line may go down across a slope hexside only from a unit adjacent to it.
        A line along a hexside is blocked only if blocked on both sides."""
        key = ("los", a, b)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = line_of_sight(
                self.map, a, b, blocks=self.is_town_or_forest, hexside_rule="both",
                slope="slope").clear
        return bool(got)

    def _do_act_fire_barrage(self, a: WDAction) -> list[Event]:
        h = self.bar["hex"]
        arts = list(self.bar["units"])
        pool = self.pool_of(arts[0])
        events = []
        if f"barrage:{pool}" not in self.paid:
            # Rule 15.A.2-3: 2 points (3 for full German rockets) cover assaults and
            # barrages alike, so an assault point already spent counts toward them
            already = 1 if f"assault:{pool}" in self.paid else 0
            rocket = any("rocket" in self.utype(x).flags for x in arts)
            total = 3 if (rocket and self.phasing == "german"
                          and self.supply[pool] >= 3 - already) else 2
            cost = total - already
            self.supply[pool] -= cost
            self.paid.add(f"barrage:{pool}")
            self.paid.add(f"assault:{pool}")
            if total == 3:
                self.paid.add(f"rocket:{pool}")
            events.append(Event(f"{cost} more supply point{'s' if cost != 1 else ''} ({pool}) "
                                f"spent: {total} this impulse for barrages and assaults", "info",
                                visible_to=(self.phasing,)))
        value = Fraction(0)
        farthest = 0
        unobserved = False
        for x in arts:
            t = self.utype(x)
            u = self.units[x]
            u.marks.add("barraged")
            v = Fraction(t.barrage * u.strength)
            d = self.map.distance(u.loc, h)
            if d * 2 > t.range:
                v /= 2
            if "rocket" in t.flags and f"rocket:{pool}" not in self.paid:
                v /= 2
            value += v
            farthest = max(farthest, d)
            if not self.observed_for(x, h):
                unobserved = True
        obs_mod = (farthest + 1) // 2 if unobserved else 0
        attacks = rules.split_barrage(self.cat.tables, value)
        events.append(Event(f"Barrage of {fmt_amount(value)} on {h} "
                            f"({len(attacks)} attack{'s' if len(attacks) != 1 else ''}"
                            f"{', unobserved +' + str(obs_mod) if obs_mod else ''})", "attack",
                            hexes=(h,)))
        targets = self.units_at(h, other(self.phasing))
        self.bar = {"hex": h, "units": [], "loss": {}, "start": {
            x: self.units[x].strength for x in targets}}
        tables = self.cat.tables
        for col in attacks:
            for x in targets:
                t = self.utype(x)
                mod = obs_mod
                if t.afv:
                    mod += tables.barrage_afv
                elif self.bunker(h) > 0 and self.side_of(x) == "german":
                    mod += tables.barrage_bunker
                # cumulative, except that AFVs never get the bunker's modifier and the
                # bunkers themselves get only theirs (Rule 11.B.2.B)
                mod += max((tables.barrage_terrain.get(tt, 0) for tt in self.terrain(h)),
                           default=0)
                self._push("barrage", f"barrage on {x} at {h}", "Rule 11.B.2",
                           uid=x, col=col, mod=mod, hex=h)
            for i, b in enumerate(self.bunkers):
                if b[0] == h and b[1] > 0:
                    self._push("barrage", f"barrage on the bunker at {h}", "Rule 19",
                               uid=f"bunker:{i}", col=col, mod=obs_mod + tables.barrage_bunker,
                               hex=h)
        self.todo.insert(0, f"barrage-done:{h}")
        return events

    def _job_barrage(self, job: dict[str, Any], roll: int) -> list[Event]:
        n = rules.barrage_result(self.cat.tables, job["col"], roll + job["mod"])
        uid = job["uid"]
        if uid.startswith("bunker:"):
            i = int(uid.split(":")[1])
            self.bunkers[i][1] = max(0, self.bunkers[i][1] - n)
            return [Event(f"The bunker at {job['hex']} loses {n} (now {self.bunkers[i][1]})",
                          "loss", hexes=(job["hex"],))] if n else []
        loss = self.bar.setdefault("loss", {})
        loss[uid] = loss.get(uid, 0) + n
        return []

    def _do_barrage_done(self, h: str) -> list[Event]:
        events: list[Event] = []
        self.counts = {}
        for uid in sorted(self.bar.get("loss", {})):
            n = self.bar["loss"][uid]
            if n <= 0 or not self.on_map(uid):
                continue
            start = self.bar["start"].get(uid, self.units[uid].strength)
            lost = rules.conventional_loss(n, start)
            events += self._lose(uid, lost, "barrage")
            if self.on_map(uid):
                self._morale(uid, lost, "barrage", h)  # the actual loss (Rule 11.B.2.B)
        self.bar = {}
        return events

    def _do_act_end_barrage(self, a: WDAction) -> list[Event]:
        self.bar = {}
        self.combat_hexes = sorted(self.assaults)
        self.counts = {}
        if self.combat_hexes:
            self.phase = "defense"
            self.todo.append("next-combat")
            return [Event(f"Defensive fire against {len(self.combat_hexes)} assaulted hexes",
                          "phase")]
        self.phase = "end"
        self.todo.append("end-impulse")
        return []

    def _do_next_combat(self, arg: str) -> list[Event]:
        while self.combat_hexes:
            h = self.combat_hexes.pop(0)
            if self.attackers(h) and self.defenders(h):
                self.combat = {"hex": h, "hq": "", "support": [], "alloc": []}
                return [Event(f"{'Defensive' if self.phase == 'defense' else 'Assault'} fire at "
                              f"{h}", "phase", hexes=(h,))]
        self.combat = {}
        if self.phase == "defense":
            self.phase = "assault"
            self.combat_hexes = sorted(self.assaults)
            self.counts = {}
            self.todo.append("next-combat")
            return [Event("The assault phase begins", "phase")]
        if self.advance:
            self.phase = "advance"
            return []
        self.phase = "end"
        self.todo.append("end-impulse")
        return []

    def _do_act_hq(self, a: WDAction) -> list[Event]:
        self.combat["hq"] = a.unit
        return [Event(f"{a.unit} is the controlling headquarters at {self.combat['hex']}",
                      "info")]

    def _do_act_high(self, a: WDAction) -> list[Event]:
        defenders = self.defenders(self.combat["hex"])
        pool = self.pool_of(defenders[0]) if defenders else other(self.phasing)
        self.supply[pool] -= 1
        self.paid.add(f"high:{pool}")
        return [Event("One supply point is spent for high intensity defensive support", "info")]

    def _do_act_support(self, a: WDAction) -> list[Event]:
        self.combat["support"].append(a.unit)
        self.units[a.unit].marks.add(f"support:{self.phase}")
        return [Event(f"{a.unit} supports at {self.combat['hex']} "
                      f"(+{fmt_amount(self.support_value(a.unit))})", "info")]

    def _do_act_fire(self, a: WDAction, kind: str = "conv") -> list[Event]:
        self.combat["alloc"].append([a.unit, kind, canonical.frac(a.amount)])
        return [Event(f"{a.n} {'conventional' if kind == 'conv' else 'antitank'} fire points at "
                      f"{a.unit}", "attack", visible_to=(self._current_player() or "",))]

    def _do_act_fire_at(self, a: WDAction) -> list[Event]:
        return self._do_act_fire(a, "at")

    def default_allocation(self) -> list[tuple[str, str, Fraction]]:
        """Default Actions (stand-in): unallocated fire is shared equally among the targets
        not yet fired at: antitank among AFVs; conventional among personnel units first,
        weapons units only when no personnel unit is left, never at better odds."""
        out: list[tuple[str, str, Fraction]] = []
        fired = {al[0] for al in self.combat.get("alloc", [])}
        for kind in ("at", "conv"):
            pool = self.pool(kind)
            if pool <= 0:
                continue
            free = [x for x in self.targets(kind) if x not in fired]
            if kind == "conv":
                pers = [x for x in free if not self.utype(x).weapons]
                personnel_all = [x for x in self.targets(kind) if not self.utype(x).weapons]
                if pers or personnel_all:
                    free = pers
            if not free:
                continue
            share = pool / len(free)
            for x in free:
                out.append((x, kind, share))
        return out

    def _do_act_done(self, a: WDAction) -> list[Event]:
        c = self.combat
        events: list[Event] = []
        if not c:
            self.todo.append("next-combat")
            return events
        h = c["hex"]
        for tgt, kind, amt in self.default_allocation():
            try:
                if kind == "conv":
                    self._weapons_limit(tgt, amt)
                c["alloc"].append([tgt, kind, canonical.frac(amt)])
                events.append(Event(f"Default allocation: {fmt_amount(amt)} at {tgt}", "attack"))
            except IllegalAction:
                continue
        tables = self.cat.tables
        stage = "df" if self.phase == "defense" else "assault"
        for tgt, kind, amt in sorted(c["alloc"], key=lambda al: (al[1], al[0])):
            value = canonical.unfrac(amt)
            if stage == "df" and self.map.faces_toward("slope", h, self.units[tgt].loc) == h:
                value *= 2  # Rule 12.B: the defenders fire down a slope hexside
            d = self.target_defense(tgt, kind)
            col = rules.odds_column(tables, value, d)
            label = rules.column_label(tables, col)
            if col < 0:
                events.append(Event(f"{fmt_amount(value)} against {tgt} (defense {d}) is below "
                                    "the table: no effect", "attack", hexes=(h,)))
                continue
            self._push("crt", f"{'conventional' if kind == 'conv' else 'antitank'} fire "
                       f"{label} against {tgt} at {self.units[tgt].loc}",
                       "Rule 9" if kind == "conv" else "Rule 10", kind=kind, uid=tgt, col=col,
                       stage=stage, hex=self.units[tgt].loc)
        if stage == "assault":
            self.todo.insert(0, f"fright:{h}")
            self.todo.insert(1, f"assault-done:{h}")
        self.todo.append("next-combat")
        c["checked"] = []
        return events

    def _job_crt(self, job: dict[str, Any], roll: int) -> list[Event]:
        uid = job["uid"]
        if not self.on_map(uid):
            return []
        tables = self.cat.tables
        if job["kind"] == "conv":
            n = rules.conventional_result(tables, job["col"], roll)
            lost = rules.conventional_loss(n, self.units[uid].strength)
            events = [Event(f"{uid}: MC{n if n else ''}", "attack", units=(uid,))]
            events += self._lose(uid, lost, "conventional fire")
            if self.on_map(uid):
                self._morale(uid, n, job["stage"], self.units[uid].loc)
            return events
        n = rules.antitank_result(tables, job["col"], roll)
        if n <= 0:
            return [Event(f"antitank fire at {uid}: miss", "attack", units=(uid,))]
        lost = min(n, self.units[uid].strength)
        events = self._lose(uid, lost, "antitank fire")
        if self.on_map(uid):
            self._morale(uid, lost, job["stage"], self.units[uid].loc)
        return events

    def _lose(self, uid: str, n: int, why: str) -> list[Event]:
        if n <= 0 or not self.on_map(uid):
            return []
        u = self.units[uid]
        h = u.loc
        n = min(n, u.strength)
        u.strength -= n
        side = self.side_of(uid)
        self.losses[side] += n
        if u.strength <= 0 or "intrinsic" in self.utype(uid).flags:
            u.loc = "dead"
            self.counts[f"elim:{h}"] = self.counts.get(f"elim:{h}", 0) + 1
            self._moved()
            return [Event(f"{uid} is eliminated at {h} ({why})", "loss", hexes=(h,),
                          units=(uid,))]
        return [Event(f"{uid} loses {n} strength point{'s' if n > 1 else ''} at {h} ({why})",
                      "loss", hexes=(h,), units=(uid,))]

    def morale_exempt(self, uid: str, stage: str) -> bool:
        """Rule 14.C.6 / 19: a bunker of 3 or more shields non-AFVs not assaulting out."""
        t = self.utype(uid)
        h = self.units[uid].loc
        if t.afv or self.side_of(uid) != "german":
            return False
        return self.bunker(h) >= 3 and not (stage == "df" and self.units[uid].assault)

    def fright(self, uid: str, h: str) -> bool:
        """Rule 14.C.2: is this defender frightened by enemy AFVs assaulting it?"""
        if not any(self.utype(x).afv for x in self.attackers(h)):
            return False
        side = self.side_of(uid)
        if self.is_town(self.units[uid].loc):
            return False
        return not any(rules.fright_immune_type(self.utype(x), side)
                       for x in self.units_at(h, side))

    def _morale(self, uid: str, mod: int, stage: str, h: str) -> None:
        if self.morale_exempt(uid, stage):
            return
        if stage == "assault":
            if self.fright(uid, h):
                mod += 1
            if self.combat:
                self.combat.setdefault("checked", []).append(uid)
        self._push("mc", f"morale check for {uid} at {h} (+{mod})", "Rule 14", front=True,
                   uid=uid, mod=mod, stage=stage, hex=h)

    def morale_modifiers(self, uid: str, base: int) -> int:
        h = self.units[uid].loc
        t = self.utype(uid)
        mod = base
        if self.isolated(uid):
            mod += 1  # Rule 14.C.3 / 15.C
        if self.weather == "snow" and not t.afv and not self.is_town(h):
            mod += 1  # Rule 14.C.5
        mod += self.counts.get(f"rout:{h}", 0)  # Rule 14.C.4
        mod += self.counts.get(f"elim:{h}", 0)  # Rule 14.C.7
        return mod

    def _job_mc(self, job: dict[str, Any], roll: int) -> list[Event]:
        uid = job["uid"]
        if not self.on_map(uid):
            return []
        mod = self.morale_modifiers(uid, job["mod"])
        t = self.utype(uid)
        band = rules.morale_band(roll + mod, t.morale)
        h = self.units[uid].loc
        events = [Event(f"{uid} morale {t.morale}: {roll}+{mod} = {roll + mod}, {band}",
                        "morale", hexes=(h,), units=(uid,))]
        stage = job["stage"]
        u = self.units[uid]
        if band == "pass":
            return events
        if "intrinsic" in t.flags:  # a garrison cannot leave its town
            return events + self._lose(uid, u.strength, "garrison broken")
        if band == "rout":
            self.counts[f"rout:{h}"] = self.counts.get(f"rout:{h}", 0) + 1
            if not t.afv:
                events += self._lose(uid, 1, "rout")
            if self.on_map(uid):
                events += self._retreat(uid)
            if stage == "df":
                u.marks.add("no-assault")
            if stage == "move":
                u.stopped = True
            return events
        if stage == "barrage":
            u.marks.add("no-df")
        elif stage == "df":
            u.marks.add("no-assault")
        elif stage == "assault":
            events += self._retreat(uid)
        elif stage == "move":
            u.stopped = True
        return events

    def _do_fright(self, h: str) -> list[Event]:
        checked = set(self.combat.get("checked", []))
        for uid in self.defenders(h):
            if uid not in checked and self.fright(uid, h) and not self.morale_exempt(
                    uid, "assault"):
                self._push("mc", f"tank fright check for {uid} at {h}", "Rule 14.C.2",
                           uid=uid, mod=0, stage="assault", hex=h)
        return []

    def _do_assault_done(self, h: str) -> list[Event]:
        if self.defenders(h):
            return []
        movers = [x for x in self.attackers(h)
                  if self.enter_cost(x, self.units[x].loc, h) is not None]
        if movers:
            self.advance[h] = movers
        return [Event(f"{h} is cleared of defenders", "info", hexes=(h,))]

    def _do_act_advance(self, a: WDAction) -> list[Event]:
        frm = self.units[a.unit].loc
        self._put(a.unit, a.hex)
        self.advance[a.hex] = [x for x in self.advance[a.hex] if x != a.unit]
        if not self.advance[a.hex]:
            del self.advance[a.hex]
        if not self.advance:
            self.phase = "end"
            self.todo.append("end-impulse")
        return [Event(f"{a.unit} advances from {frm} into {a.hex}", "move",
                      hexes=(frm, a.hex), units=(a.unit,))]

    def _do_act_end_advance(self, a: WDAction) -> list[Event]:
        self.advance = {}
        self.phase = "end"
        self.todo.append("end-impulse")
        return []

    # ------------------------------------------------------------------ retreat

    def _retreat(self, uid: str) -> list[Event]:
        """Rule 14.B/C.1: two hexes generally away from the enemy, through ZOCs at the cost
        of one strength point, farther while it would end in an enemy ZOC or overstack."""
        s = self.side_of(uid)
        u = self.units[uid]
        start = u.loc
        enemies = sorted(self.enemy_hexes(s))
        ez = self.ezoc(s)
        bad = set(enemies)

        def passable(h: str) -> bool:
            return h not in bad and self.enter_cost_terrain(uid, h) is not None

        def away(h: str) -> int:
            return min((self.map.distance(h, e) for e in enemies), default=99)

        best: tuple[Any, ...] | None = None
        frontier: list[list[str]] = [[start]]
        for depth in range(1, 6):
            nxt: list[list[str]] = []
            for p in frontier:
                for n in self.nbrs(p[-1]):
                    if n in p or not passable(n):
                        continue
                    nxt.append([*p, n])
            frontier = nxt
            if depth < 2:
                continue
            for p in frontier:
                end = p[-1]
                if self.map.distance(start, end) < 2:
                    continue
                if end in ez or not self.stack_ok_with(end, uid):
                    continue
                through = any(x in ez for x in p[1:])
                key = (depth, through, -away(end), end, p)
                if best is None or key < best:
                    best = key
            if best is not None:
                break
            frontier = frontier[:400]
        if best is None:
            events = self._lose(uid, u.strength, "no retreat route")
            return [Event(f"{uid} cannot retreat from {start}", "retreat", hexes=(start,)), *events]
        path = best[-1]
        events = []
        if best[1]:
            events += self._lose(uid, 1, "retreat through an enemy ZOC")
        if self.on_map(uid):
            self._put(uid, path[-1])
            u.assault = ""
            u.deployed = False
            u.stopped = True
            events.append(Event(f"{uid} retreats {' '.join(path)}", "retreat",
                                hexes=tuple(path), units=(uid,)))
        return events

    # ------------------------------------------------------------------ snapshot

    def _snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "phasing": self.phasing,
            "mps": dict(self.mps), "impulse_mp": self.impulse_mp,
            "impulse_left_before": self.impulse_left_before, "impulses": dict(self.impulses),
            "weather": self.weather, "supply": dict(self.supply), "repl": dict(self.repl),
            "rail_used": dict(self.rail_used), "repaired": dict(self.repaired),
            "vl_released": self.vl_released, "vl_avoid": self.vl_avoid,
            "bunkers": [list(b) for b in self.bunkers], "bridges": sorted(self.bridges),
            "builders": sorted(self.builders),
            "units": [self.units[k].to_data() for k in sorted(self.units)],
            "garrisons": sorted(self.garrison_types),
            "schedule": [list(r) for r in self.schedule],
            "assaults": {k: list(v) for k, v in sorted(self.assaults.items())},
            "combat": _canon(self.combat), "combat_hexes": list(self.combat_hexes),
            "paid": sorted(self.paid), "bar": _canon(self.bar),
            "advance": {k: list(v) for k, v in sorted(self.advance.items())},
            "queue": [_canon(j) for j in self.queue], "todo": list(self.todo),
            "counts": dict(sorted(self.counts.items())), "losses": dict(self.losses),
            "setup_side": self.setup_side, "setup_raster": list(self.setup_raster),
            "flieger": self.flieger, "passing": self.passing, "seq": self.seq,
            "over": self.over,
            "final": _canon(self.final),
        }

    def restore_from(self, b: dict[str, Any]) -> None:
        self.turn = b["turn"]
        self.phase = b["phase"]
        self.phasing = b["phasing"]
        self.mps = dict(b["mps"])
        self.impulse_mp = b["impulse_mp"]
        self.impulse_left_before = b["impulse_left_before"]
        self.impulses = dict(b["impulses"])
        self.weather = b["weather"]
        self.supply = dict(b["supply"])
        self.repl = dict(b["repl"])
        self.rail_used = dict(b["rail_used"])
        self.repaired = dict(b["repaired"])
        self.vl_released = b["vl_released"]
        self.vl_avoid = b["vl_avoid"]
        self.bunkers = [list(x) for x in b["bunkers"]]
        self.bridges = set(b["bridges"])
        self.builders = set(b["builders"])
        for h in b["garrisons"]:
            self.garrison_types[h] = UnitDef(h, "german", self.garrison_type(), "garrison", 1)
        self.units = {d["uid"]: U.from_data(d) for d in b["units"]}
        self.schedule = [list(r) for r in b["schedule"]]
        self.assaults = {k: list(v) for k, v in b["assaults"].items()}
        self.combat = _uncanon(b["combat"])
        self.combat_hexes = list(b["combat_hexes"])
        self.paid = set(b["paid"])
        self.bar = _uncanon(b["bar"])
        self.advance = {k: list(v) for k, v in b["advance"].items()}
        self.queue = [_uncanon(j) for j in b["queue"]]
        self.todo = list(b["todo"])
        self.counts = dict(b["counts"])
        self.losses = dict(b["losses"])
        self.setup_side = b["setup_side"]
        self.setup_raster = list(b["setup_raster"])
        self.flieger = b["flieger"]
        self.passing = b["passing"]
        self.seq = b["seq"]
        self.over = b["over"]
        self.final = _uncanon(b["final"])
        self._moved()

    # ------------------------------------------------------------------ view

    def turn_number(self) -> int:
        return int(self.turn)

    def status_line(self, side: str | None) -> str:
        """Turn, weather, phase, MPs left, and the supply points ``side`` may know."""
        # MPs left are public (the impulse screen); supply points are each side's own
        supply = {"soviet": f"Soviet {self.supply['soviet']}",
                  "german": f"German {self.supply['german']}, Velikiye Luki "
                            f"{self.supply['vl']}"}
        own = " ".join(supply[x] for x in SIDES if side is None or x == side)
        return (f"Turn {self.turn}/{self.last_turn}, {self.weather}; {self.phasing} "
                f"{self.phase}; MPs left Soviet {self.mps['soviet']}, German "
                f"{self.mps['german']}; supply {own}")

    def _view(self, side: str | None) -> BoardView:
        """The board as ``side`` may see it (Rule 4.C), drawn by the kit's builder."""
        pieces: list[Piece] = []
        revealed = set(self.assaults) if (side == self.phasing and self.phase in (
            "barrage", "defense", "assault", "advance")) else set()
        for h, uids in sorted(self._by_hex().items()):
            stack = list(reversed(uids))  # the last unit in is on top
            for s in SIDES:
                mine = [x for x in stack if self.side_of(x) == s]
                if side is None or side == s or h in revealed:
                    shown = mine
                else:
                    shown = [x for x in mine if "intrinsic" not in self.utype(x).flags][:1]
                for i, x in enumerate(mine):
                    u = self.units[x]
                    t = self.utype(x)
                    visible = x in shown
                    marks = tuple(sorted(
                        (["deployed"] if u.deployed else []) + ([f"bunker {self.bunker(h)}"]
                                                                if self.bunker(h) and i == 0
                                                                and s == "german" else [])))
                    if visible:
                        pieces.append(Piece(x, s, f"{x} {u.strength}", h,
                                            f"{t.key} ({self.udef(x).div})",
                                            marks if (side is None or side == s) else (),
                                            False, SIDE_COLOR[s]))
                    elif "intrinsic" not in t.flags:
                        pieces.append(Piece(f"{s}-{h}-{i}", s, "?", h, "", (), True,
                                            SIDE_COLOR[s]))
        status = self.status_line(side)
        overlays = {}
        if side is not None:
            overlays[f"zoc:{other(side)}"] = sorted(self.ezoc(side))
        view = board_view(self.map, pieces, side=side, title=f"White Death: {self.sc.title}",
                          status=status, highlights=sorted(self.assaults), overlays=overlays)
        # the Lowatj is hex terrain (Rule 7), so the display gets its course as a line
        return replace(view, lines=(*view.lines, *river_lines(self.cat.data)))

    def parse_action(self, text: str) -> Action:
        return parse(text)


def _canon(x: Any) -> Any:
    if isinstance(x, Fraction):
        return canonical.frac(x)
    if isinstance(x, dict):
        return {k: _canon(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    return x


def _uncanon(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _uncanon(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_uncanon(v) for v in x]
    return x
