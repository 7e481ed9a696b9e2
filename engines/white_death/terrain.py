"""Rule 7 and the Terrain Effects Chart: what a hex is, and what entering it costs.

Apart from movement because setup, retreats and advances ask what a move asks: may this
unit enter that hex, and at what cost.
"""

from __future__ import annotations

from fractions import Fraction

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

    def enter_cost_terrain(self, uid: str, h: str) -> Fraction | None:
        mob = self.utype(uid).mob
        mv = self.cat.tables.movement
        costs = [mv[x][mob].enter for x in sorted(self.terrain(h)) if x in mv]
        return None if any(c is None for c in costs) else Fraction(1)

    def lake_roll_due(self, uid: str, frm: str, to: str) -> bool:
        """Rule 13: an AFV crossing a lake hexside (frozen), or any lake (thaw), rolls."""
        if not self.utype(uid).afv:
            return False
        feats = self.map.side_features(frm, to)
        return bool(feats & {"lake", "partial_lake", "lake_partial"})
