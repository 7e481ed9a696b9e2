"""Rule 7 and the Terrain Effects Chart: what a hex is, and what entering it costs.

Apart from movement because setup, retreats and advances ask what a move asks: may this
unit enter that hex, and at what cost.
"""

from __future__ import annotations

import math
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engines.hexkit.hexmap import HexMap
from engines.hexkit.movement import MoveClass, region
from engines.hexkit.overlay import OverlaidMap, Overlay
from engines.white_death.base import BaseState
from engines.white_death.data import ALIASES
from pbem.errors import ScenarioError

#: the networks a move runs along at the road's rate (Rule 7; Rule 8's railroads too)
RAILS_AND_ROADS = ("road", "railroad", "rail")
#: hex features the Terrain Effects Chart prices (by their chart names)
_TEC_FEATURES = ("town", "forest", "swamp", "high", "creek", "river")


class TerrainState(BaseState):
    """Terrain of hexes and the cost to enter them (Rule 7)."""

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
        got = {t for t in out if t in known}
        if got - {"clear"}:
            # Rule 7: clear is the absence of other terrain. A creek hex drawn on clear
            # ground is a creek hex, not clear as well: otherwise the highest cost would
            # make a draft-mobile unit pay clear's 2 where the book says 1 (enter) and 1
            # (along the creek)
            got.discard("clear")
        return got or {"clear"}

    def is_town(self, h: str) -> bool:
        return "town" in self.terrain(h)

    def is_town_or_forest(self, h: str) -> bool:
        return bool(self.terrain(h) & {"town", "forest"})

    def river_at(self, h: str) -> str:
        t = self.terrain(h)
        if h in self.pos.bridges:
            return ""
        return "river" if "river" in t else "creek" if "creek" in t else ""

    def road_hex(self, h: str) -> bool:
        """A hex a road or railroad runs through, or a bridge (Rule 20)."""
        if h in self.pos.bridges:
            return True
        key = ("roadhex", h)
        got = self._static.get(key)
        if got is None:
            m = self.map
            got = self._static[key] = bool(m.network_neighbors("road", h) or self.rail_hex(h))
        return bool(got)

    def road(self, a: str, b: str) -> bool:
        """A road or railroad of the printed map runs from ``a`` to ``b`` (Rule 7)."""
        key = ("road", a, b)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = any(self.map.connected(n, a, b) for n in RAILS_AND_ROADS)
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

    def city_bound(self, uid: str) -> bool:
        """Rule 22: an unreleased Velikiye Luki garrison unit may not leave the city, by
        any means (moving, rail, advancing after combat)."""
        u = self.pos.units.get(uid)
        return u is not None and u.garrison == "vl" and not self.pos.vl_released

    def garrison_fixed(self, uid: str) -> bool:
        """Rule 22: the opening garrisons "may not be moved the first turn"."""
        u = self.pos.units.get(uid)
        return u is not None and bool(u.garrison) and self.sc.opening and self.pos.turn == 1

    def frozen(self) -> bool:
        return self.pos.weather != "thaw"

    # ------------------------------------------------------------------ movement costs

    def enter_cost(self, uid: str, frm: str | None, to: str) -> Fraction | None:
        """Rule 7 cost to enter ``to`` (from ``frm``, or from off the map); None if P."""
        mob = self.utype(uid).mob
        # everything but Rule 16.B is a function of the mobility class, the two hexes, the
        # weather and which of the two carry a bridge (Rule 20): priced once per catalog
        bridges = self.pos.bridges
        key = ("enter", mob, frm, to, self.frozen(), frm in bridges, to in bridges)
        static = self._static
        if key in static:
            cost: Fraction | None = static[key]
        else:
            cost = static[key] = self._enter_cost(mob, frm, to)
        if (cost is not None and frm is not None and self.pos.weather == "thaw"
                and self.wrong_bank(uid, frm, to)):
            return None  # Rule 16.B: leave on the side it entered
        return cost

    def ticks(self) -> int:
        """Ticks in a movement point: the least common denominator of every cost on the
        charts (a road costs 1/2 or 1/3 of an MP: 6 ticks), so that searches over many
        moves add and compare ints, exactly, instead of Fractions."""
        got = self._static.get("ticks")
        if got is None:
            tables = self.cat.tables
            values = [v for row in tables.movement.values() for c in row.values()
                      for v in (c.enter, c.leave)]
            values += [v for row in tables.lake.values() for v in row.values()]
            got = self._static["ticks"] = math.lcm(
                1, *(Fraction(v).denominator for v in values if v is not None))
        out: int = got
        return out

    def to_ticks(self, mp: Fraction | int) -> int:
        # integer arithmetic: no Fraction is built (a unit's MPs left, per decision)
        t = self.ticks()
        if isinstance(mp, int):
            return mp * t
        q, r = divmod(mp.numerator * t, mp.denominator)
        if r:
            raise ValueError(f"{mp} MP is finer than a tick (1/{t} MP)")
        return q

    def enter_ticks(self, uid: str, frm: str | None, to: str) -> int | None:
        """:meth:`enter_cost` in ticks."""
        mob = self.utype(uid).mob
        key = ("enter-ticks", mob, frm, to, self.frozen(), frm in self.pos.bridges,
               to in self.pos.bridges)
        t = self._static_ticks(key)
        if (t is not None and frm is not None and self.pos.weather == "thaw"
                and self.wrong_bank(uid, frm, to)):
            return None  # Rule 16.B
        return t

    def _static_ticks(self, key: tuple[Any, ...]) -> int | None:
        """:meth:`enter_ticks` but Rule 16.B, under its key (kept in the catalog)."""
        static = self._static
        if key in static:
            t: int | None = static[key]
        else:
            mob, frm, to = key[1:4]
            ckey = ("enter", *key[1:])
            c: Fraction | None
            if ckey in static:
                c = static[ckey]
            else:
                c = static[ckey] = self._enter_cost(mob, frm, to)
            t = static[key] = None if c is None else self.to_ticks(c)
        return t

    def enter_row(self, mob: str, frm: str) -> tuple[int | None, ...]:
        """:meth:`enter_ticks` from ``frm`` into each of its neighbours (in
        :meth:`nbrs` order) for a unit of mobility class ``mob``, Rule 16.B aside (the
        caller asks :meth:`wrong_bank` in a thaw): one lookup per unit, not one per
        neighbour. Kept in the catalog under the class, the hex, the weather and which
        of the seven hexes carry a bridge (Rule 20)."""
        bridges = self.pos.bridges
        nbrs = self.nbrs(frm)
        frozen = self.frozen()
        near = tuple(n for n in nbrs if n in bridges) if bridges else ()
        key = ("enter-row", mob, frm, frozen, frm in bridges, near)
        static = self._static
        got: tuple[int | None, ...] | None = static.get(key)
        if got is None:
            got = static[key] = tuple(
                self._static_ticks(("enter-ticks", mob, frm, n, frozen, frm in bridges,
                                    n in bridges)) for n in nbrs)
        return got

    def _enter_cost(self, mob: str, frm: str | None, to: str) -> Fraction | None:
        """Rule 7's cost through the hex kit: the mobility class's chart column
        (:meth:`move_class`) read on the map as the weather and the bridges make it
        (:meth:`move_view`)."""
        cls = self.move_class(mob)
        # the overlay touches only bridged hexes and, in a thaw, lake hexsides: a step
        # clear of both reads the printed map directly (the same answer, faster)
        view: HexMap | OverlaidMap = self.map
        bridges = self.pos.bridges
        if not self.frozen() or to in bridges or (frm is not None and frm in bridges):
            view = self.move_view()
        if frm is None:  # from off the map (Rule 17): along the road onto a road hex
            cost = cls.entry_cost(view, to, ("road",) if self.road_hex(to) else ())
        else:
            cost = cls.step_cost(view, frm, to)
        return None if cost is None else Fraction(cost)

    def move_class(self, mob: str) -> MoveClass:
        """The Terrain Effects Chart's column for one mobility class, as the kit's
        :class:`MoveClass` for this map (kept in the catalog)."""
        key = ("move-class", mob)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = self._move_class(mob)
        out: MoveClass = got
        return out

    def _move_class(self, mob: str) -> MoveClass:
        """Rule 7 as data: a hex costs the highest of its terrains (``dearest``), clear
        being the absence of other terrain (``fills``); a river hex, then a move along a
        road or railroad (Rule 7: "only hex to hex along the road"), then a town set the
        cost outright (``overrides``); leaving a creek or river hex for one without it
        costs the chart's second number (``leave_features``); Rule 13's lake hexsides add
        their weather's cost or prohibit (``hexside``, thaw names from :meth:`move_view`).
        """
        m = self.map
        tables = self.cat.tables
        mv = tables.movement
        known = set(tables.defense)
        enter: dict[str, Fraction | None] = {}
        fills: set[str] = set()
        towns: list[str] = []
        for t, tc in sorted(m.terrain_classes.items()):
            alias = ALIASES.get(t, t)
            if alias in ("river", "creek"):
                raise ScenarioError(f"map terrain {t!r}: White Death draws rivers and creeks "
                                    "as hex features (Rule 7)")
            names = {x for x in (alias, "high" if tc.flag("high") else "") if x in known}
            if "town" in names:
                towns.append(t)
                enter[t] = mv["town"][mob].enter
                continue
            costs = [mv[x][mob].enter for x in sorted(names) if x in mv and x != "clear"]
            if not costs:
                fills.add(t)
                enter[t] = mv["clear"][mob].enter
            elif any(c is None for c in costs):
                enter[t] = None
            else:
                enter[t] = max(c for c in costs if c is not None)
        feats: dict[str, Fraction | None] = {}
        leave: dict[str, Fraction] = {}
        rivers: list[str] = []
        for f in sorted({f for fs in m.hex_features.values() for f in fs}):
            alias = ALIASES.get(f, f)
            if alias not in _TEC_FEATURES or alias not in known:
                continue
            feats[f] = mv[alias][mob].enter
            if alias in ("river", "creek"):
                leave[f] = mv[alias][mob].leave
            if alias == "river":
                rivers.append(f)
            elif alias == "town":
                towns.append(f)
        if len({ALIASES.get(f, f) for f in leave}) != len(leave) or any(
                {"river", "creek"} <= {ALIASES.get(f, f) for f in fs}
                for fs in m.hex_features.values()):
            raise ScenarioError("White Death's map names each of river and creek once, and "
                                "no hex is both (Rule 7 charges one of them to leave a hex)")
        road = mv["road"][mob].enter
        if road is None:
            raise ScenarioError("the Terrain Effects Chart prohibits the road (Rule 7)")
        sides: dict[str, Fraction | None] = {}
        lakes = (("full", ("lake",)), ("partial", ("partial_lake", "lake_partial")))
        for kind, kind_names in lakes:
            for n in kind_names:
                sides[n] = tables.lake[f"{kind}_frozen"][mob]
                sides[f"{n}_thaw"] = tables.lake[f"{kind}_thaw"][mob]
        return MoveClass(
            f"white-death-{mob}", enter=MappingProxyType(enter),
            hexside=MappingProxyType(sides),
            networks=MappingProxyType({n: road for n in RAILS_AND_ROADS}),
            hex_features=MappingProxyType(feats), dearest=True, fills=frozenset(fills),
            overrides=(*rivers, *RAILS_AND_ROADS, *towns),
            leave_features=MappingProxyType(leave))

    def move_view(self) -> OverlaidMap:
        """The map as the position makes it for movement: a bridge (Rule 20) takes the
        river out of its hex and joins the road ("as if it were a road hex": to every
        road, railroad or bridge hex next to it); a thaw (Rules 13, 16) turns each lake
        hexside into its thaw kind. One per weather and set of bridges, in the catalog."""
        key = ("move-view", self.frozen(), tuple(sorted(self.pos.bridges)))
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = OverlaidMap(self.map, self._move_overlay())
        out: OverlaidMap = got
        return out

    def _move_overlay(self) -> Overlay:
        m = self.map
        removed: dict[str, set[str]] = {}
        links: set[tuple[str, str]] = set()
        for h in sorted(self.pos.bridges):
            removed[h] = {f for f in m.features_of(h) if ALIASES.get(f, f) == "river"}
            links.update((h, n) for n in self.nbrs(h) if self.road_hex(n))
        out = Overlay.make(features_removed=removed, links_added={"road": links})
        if not self.frozen():
            for n in ("lake", "partial_lake", "lake_partial"):
                out = out + Overlay.rename_side_feature(m, n, f"{n}_thaw")
        return out

    def bank(self, h: str) -> str:
        """Which side of the river a hex is on: the lowest hex id of its part of the map
        once the river hexes are taken out ("" for a river hex)."""
        key = ("bank", h)
        got = self._static.get(key)
        if got is None:
            river = {x for x in self.map.ids if "river" in self.terrain(x)}
            land = frozenset(x for x in self.map.ids if x not in river)
            for start in sorted(self.map.ids):
                if start in river or ("bank", start) in self._static:
                    continue
                for x in region(self.map, [start], passable=land):
                    self._static[("bank", x)] = start
            for x in river:
                self._static[("bank", x)] = ""
            got = self._static[key]
        return str(got)

    def wrong_bank(self, uid: str, frm: str, to: str) -> bool:
        """Rule 16.B: in a thaw a track-, wheel- or draft-mobile unit leaves a river hex only
        on the bank it entered from, however far it moved along the river."""
        if self.frozen() or self.utype(uid).mob not in ("t", "w", "d"):
            return False
        if self.river_at(frm) != "river" or self.river_at(to) == "river":
            return False
        u = self.pos.units.get(uid)
        came = self.bank(u.via) if u is not None and u.via else ""
        goes = self.bank(to)
        return bool(came and goes and came != goes)

    def prohibited_why(self, uid: str, frm: str, to: str) -> tuple[str, str]:
        """The rule that makes ``to`` prohibited from ``frm`` (enter_cost gave None)."""
        if self.wrong_bank(uid, frm, to):
            return ("Rule 16.B", f"in a thaw {uid} must leave the river on the bank it "
                    "entered from (bridges aside)")
        feats = self.map.side_features(frm, to)
        if not self.frozen() and "lake" in feats:
            mob = self.utype(uid).mob
            if self.cat.tables.lake["full_thaw"][mob] is None:
                return ("Rule 13.B", f"in a thaw {uid} may not cross the full lake hexside "
                        f"{frm}/{to}")
        return ("Rule 7", f"{to} is prohibited terrain for {uid} from {frm}")

    def enter_cost_terrain(self, uid: str, h: str) -> Fraction | None:
        mob = self.utype(uid).mob
        mv = self.cat.tables.movement
        costs = [mv[x][mob].enter for x in sorted(self.terrain(h)) if x in mv]
        return None if any(c is None for c in costs) else Fraction(1)

    def lake_roll_due(self, uid: str, frm: str, to: str) -> bool:
        """Rule 13: an AFV crossing a lake hexside (13.A, frozen), or a hexside containing
        any lake at all (13.B, thaw), rolls for the ice.

        13.B's "in addition ... a hexside containing any lake at all" sets thaw against
        frozen weather, so in frozen weather a half-lake hexside does not roll (the
        engine page's reading of the text).
        """
        if not self.utype(uid).afv:
            return False
        feats = self.map.side_features(frm, to)
        if self.frozen():
            return "lake" in feats
        return bool(feats & {"lake", "partial_lake", "lake_partial"})
