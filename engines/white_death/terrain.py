"""Rule 7 and the Terrain Effects Chart: what a hex is, and what entering it costs.

Apart from movement because setup, retreats and advances ask what a move asks: may this
unit enter that hex, and at what cost.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engines.hexkit.movement import region
from engines.white_death.base import BaseState
from engines.white_death.data import ALIASES
from pbem.errors import ScenarioError


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
        if h in self.bridges:
            return ""
        return "river" if "river" in t else "creek" if "creek" in t else ""

    def road_hex(self, h: str) -> bool:
        """A hex a road or railroad runs through, or a bridge (Rule 20)."""
        if h in self.bridges:
            return True
        key = ("roadhex", h)
        got = self._static.get(key)
        if got is None:
            m = self.map
            got = self._static[key] = bool(m.network_neighbors("road", h) or self.rail_hex(h))
        return bool(got)

    def along_road(self, a: str, b: str) -> bool:
        """Rule 7 with Rule 20: a move from ``a`` to ``b`` along a road.

        A bridge "allows units to enter and leave the hex as if it were a road hex": a
        bridge built in the game is on no road of the map, so a move between it and a road
        hex next to it (or another bridge) is taken as along the road.
        """
        if self.road(a, b):
            return True
        return (a in self.bridges or b in self.bridges) and self.road_hex(a) and self.road_hex(b)

    def road(self, a: str, b: str) -> bool:
        key = ("road", a, b)
        got = self._static.get(key)
        if got is None:
            m = self.map
            got = self._static[key] = any(m.connected(n, a, b)
                                          for n in ("road", "railroad", "rail"))
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
        u = self.units.get(uid)
        return u is not None and u.garrison == "vl" and not self.vl_released

    def garrison_fixed(self, uid: str) -> bool:
        """Rule 22: the opening garrisons "may not be moved the first turn"."""
        u = self.units.get(uid)
        return u is not None and bool(u.garrison) and self.sc.opening and self.turn == 1

    def frozen(self) -> bool:
        return self.weather != "thaw"

    # ------------------------------------------------------------------ movement costs

    def enter_cost(self, uid: str, frm: str | None, to: str) -> Fraction | None:
        """Rule 7 cost to enter ``to`` (from ``frm``, or from off the map); None if P."""
        mob = self.utype(uid).mob
        # everything but Rule 16.B is a function of the mobility class, the two hexes, the
        # weather and which of the two carry a bridge (Rule 20): priced once per catalog
        key = ("enter", mob, frm, to, self.frozen(), frm in self.bridges, to in self.bridges)
        static = self._static
        if key in static:
            cost: Fraction | None = static[key]
        else:
            cost = static[key] = self._enter_cost(mob, frm, to)
        if cost is not None and frm is not None and self.wrong_bank(uid, frm, to):
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
        scaled = Fraction(mp) * self.ticks()
        if scaled.denominator != 1:
            raise ValueError(f"{mp} MP is finer than a tick (1/{self.ticks()} MP)")
        return scaled.numerator

    def enter_ticks(self, uid: str, frm: str | None, to: str) -> int | None:
        """:meth:`enter_cost` in ticks."""
        mob = self.utype(uid).mob
        key = ("enter-ticks", mob, frm, to, self.frozen(), frm in self.bridges,
               to in self.bridges)
        static = self._static
        if key in static:
            t: int | None = static[key]
        else:
            ckey = ("enter", *key[1:])
            c: Fraction | None
            if ckey in static:
                c = static[ckey]
            else:
                c = static[ckey] = self._enter_cost(mob, frm, to)
            t = static[key] = None if c is None else self.to_ticks(c)
        if t is not None and frm is not None and self.wrong_bank(uid, frm, to):
            return None  # Rule 16.B
        return t

    def _enter_cost(self, mob: str, frm: str | None, to: str) -> Fraction | None:
        mv = self.cat.tables.movement
        terr = self.terrain(to)
        river = self.river_at(to)
        along = frm is not None and self.along_road(frm, to)
        if frm is None and self.road_hex(to):
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
        return cost

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
        u = self.units.get(uid)
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
