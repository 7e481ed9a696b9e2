"""Rules 3 and 15: zones of control, and the supply lines they cut; supply points.

ZOCs live here, below movement, because isolation (15.C), artillery supply (15.B), rail
movement (Rule 8) and retreats all trace through hexes free of enemy units and their ZOCs.
The supply points each side receives, the air drops into a cut-off Velikiye Luki (15.D.1)
and the city's point spent against isolation (15.D.2) are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engines.hexkit.zoc import zoc_map
from engines.white_death import rules
from engines.white_death.actions import WDAction
from engines.white_death.base import other
from engines.white_death.data import SIDES
from engines.white_death.terrain import TerrainState
from pbem.engine import Event
from pbem.errors import IllegalAction

if TYPE_CHECKING:
    from engines.white_death.state import WDState


class SupplyState(TerrainState):
    """ZOCs, supply lines and supply points (Rules 3, 15)."""

    # ------------------------------------------------------------------ ZOC, isolation

    def has_zoc(self, uid: str) -> bool:
        """Rule 3: every unit but unstacked German weapons companies (and the intrinsic
        garrisons, which are not counters)."""
        t = self.utype(uid)
        if "intrinsic" in t.flags:
            return False
        if self.side_of(uid) == "german" and t.weapons and t.size == "I":
            return len(self.units_at(self.pos.units[uid].loc, "german")) > 1
        return True

    def enemy_key(self, side: str) -> tuple[Any, ...]:
        """Where ``side``'s enemies stand, in full: the key of every fact traced through
        them (Rules 3, 8, 15). A unit's type is fixed by its id, and a German weapons
        company's ZOC (its stacking) by German positions, so this is all they depend on."""
        key = ("ekey", side)
        got = self._pcache.get(key)
        if got is None:
            got = self._pcache[key] = (side, tuple(
                (uid, self.pos.units[uid].loc) for uid in self.side_units(other(side))))
        out: tuple[Any, ...] = got
        return out

    def by_enemies(self, what: str, side: str, build: Callable[[], Any]) -> Any:
        """``build()`` once per position of ``side``'s enemies (kept in the catalog)."""
        ckey = ("by-enemies", what, side)
        got = self._pcache.get(ckey)
        if got is None:
            got = self._pcache[ckey] = self.cat.memo.get((what, self.enemy_key(side)), build)
        return got

    def ezoc(self, side: str, ski_only: bool = False) -> frozenset[str]:
        """Hexes in the ZOC of ``side``'s enemies (ski_only: of enemy ski units; Rule 3.B).
        Rule 3's ZOC is the six hexes around a unit, whatever the hexsides: the kit's
        zone with nothing blocking it."""

        def build() -> frozenset[str]:
            return zoc_map(self.map, [
                (uid, self.pos.units[uid].loc) for uid in self.side_units(other(side))
                if self.has_zoc(uid) and (not ski_only or self.utype(uid).mob == "s")]).hexes

        z: frozenset[str] = self.by_enemies(f"ezoc:{ski_only}", side, build)
        return z

    def weapons_barred(self, uid: str, h: str) -> bool:
        """Rule 3.C: a weapons unit may not enter an enemy ZOC in a movement phase (from the
        map or from off it as a reinforcement) unless a personnel or AFV unit is there."""
        s = self.side_of(uid)
        return self.utype(uid).weapons and h in self.ezoc(s) and not any(
            self.utype(x).personnel or self.utype(x).afv for x in self.units_at(h, s))

    def enemy_hexes(self, side: str) -> frozenset[str]:
        got: frozenset[str] = self.by_enemies("enemy", side, lambda: frozenset(
            self.pos.units[u].loc for u in self.side_units(other(side))))
        return got

    def _free(self, side: str) -> frozenset[str]:
        def build() -> frozenset[str]:
            bad = self.enemy_hexes(side) | self.ezoc(side)
            return frozenset(h for h in self.map.ids if h not in bad)

        free: frozenset[str] = self.by_enemies("free", side, build)
        return free

    def _reach(self, side: str) -> frozenset[str]:
        """Hexes joined to a friendly edge through hexes free of enemies and their ZOCs."""
        reach: frozenset[str] = self.by_enemies(
            "reach", side, lambda: self.ter.edge_reach(side, self._free(side)))
        return reach

    def traced(self, side: str, h: str) -> bool:
        reach = self._reach(side)
        return h in reach or any(n in reach for n in self.ter.nbrs(h)) or (
            h in self.ter.edge_hexes(side))

    def isolated(self, uid: str) -> bool:
        """Rule 15.C (and 15.D.2: Velikiye Luki troops may avoid it with a supply point)."""
        if not self.on_map(uid):
            return False
        side = self.side_of(uid)
        h = self.pos.units[uid].loc
        if side == "german" and self.pos.vl_avoid and h in self.ter.vl_hexes():
            return False
        return not self.traced(side, h)

    def art_supplied(self, uid: str) -> bool:
        """Rule 15.B: seven hexes or less to a road or railroad running back to a friendly
        edge, all free of enemy units and ZOCs."""
        side = self.side_of(uid)
        d: dict[str, int] = self.by_enemies(
            "artsup", side, lambda: self.ter.road_reach(side, self._free(side)))
        h = self.pos.units[uid].loc
        return h in d or any(d.get(n, 99) <= 6 for n in self.ter.nbrs(h))

    def pool_of(self, uid: str) -> str:
        """Rule 15.D.2: troops in Velikiye Luki draw on the city's own supply."""
        if self.side_of(uid) == "german" and self.pos.units[uid].loc in self.ter.vl_hexes():
            return "vl"
        return self.side_of(uid)

    # ------------------------------------------------------------------ supply points

    def _supply_points(self) -> list[Event]:
        i = self.pos.turn - 1
        events = []
        for s in SIDES:
            got = self.cat.supply[s][min(i, len(self.cat.supply[s]) - 1)]
            self.pos.supply[s] += got
            self.pos.repl[s] += self.cat.replacements[s][min(i, len(self.cat.replacements[s]) - 1)]
            events.append(Event(f"The {s} player receives {got} supply points", "info",
                                rule="Rule 15"))
        vl = self.ter.vl_hexes()
        got = self.cat.supply["german"][min(i, len(self.cat.supply["german"]) - 1)]
        if vl and any(self.units_at(h, "german") for h in vl):
            if any(self.traced("german", h) for h in vl):
                self.pos.supply["vl"] += got
                events.append(Event(f"Velikiye Luki receives {got} supply points", "info",
                                    rule="Rule 15.D"))
            else:
                for k in range(got):
                    self._die("airdrop", f"air drop {k + 1} of {got} into Velikiye Luki",
                              "Rule 15.D.1")
        for uid in sorted(self.pos.units):
            u = self.pos.units[uid]
            if u.loc == "refit" and self.pos.turn >= 11:
                u.loc = "raster"
                u.entry = "soviet-east"
                self._relocated()
        return events

    def _on_airdrop(self, roll: int) -> list[Event]:
        if rules.airdrop_received(self.pos.weather, roll):
            self.pos.supply["vl"] += 1
            return [Event("A supply point is dropped into Velikiye Luki", "info",
                          rule="Rule 15.D.1")]
        return [Event("The air drop is lost", "info", rule="Rule 15.D.1")]

    def _vl_avoid_possible(self) -> bool:
        """Rule 15.D.2: "at the beginning of a turn", after the turn's supply points and
        air drops and before the Soviet's first impulse, the German may spend a Velikiye
        Luki point against isolation: his decision, only when it is possible."""
        return (not self.pos.vl_avoid and self.pos.supply["vl"] >= 1
                and any(self.units_at(h, "german") for h in self.ter.vl_hexes())
                and not any(self.traced("german", h) for h in self.ter.vl_hexes()))


# ------------------------------------------------------------------ the actions


def check_vl_supply(s: WDState, a: WDAction) -> None:
    if s.phase != "vl-supply" or not s._vl_avoid_possible():
        raise IllegalAction("Velikiye Luki may spend a supply point against isolation only "
                            "at the beginning of a turn, while the city is cut off and has "
                            "a point", rule="Rule 15.D.2")


def check_vl_keep(s: WDState, a: WDAction) -> None:
    s._need_phase("vl-supply", rule="Rule 15.D.2")


def do_vl_supply(s: WDState, a: WDAction) -> list[Event]:
    s.pos.supply["vl"] -= 1
    s.pos.vl_avoid = True
    return [Event("Velikiye Luki spends a supply point to avoid isolation this turn",
                  "info", visible_to=("german",), rule="Rule 15.D.2")]


def do_vl_keep(s: WDState, a: WDAction) -> list[Event]:
    return [Event("Velikiye Luki keeps its supply points this turn", "info",
                  visible_to=("german",), rule="Rule 15.D.2")]
