"""Strategic Movement (5.3) and Sea Transport (5.5).
"""

from __future__ import annotations

import itertools

from engines.hexkit.movement import breadth_first
from engines.motherland.actions import Strategic, Word
from engines.motherland.const import (
    _NO_STRATEGIC,
    AXIS,
    KONIGSBERG,
    LENINGRAD,
    SEVASTOPOL,
    SOVIET,
    other,
)
from engines.motherland.victory import VictoryMixin
from pbem.errors import IllegalAction


class StrategicMixin(VictoryMixin):
    """Strategic Movement (5.3) and Sea Transport (5.5)."""

    # -- strategic movement (5.3) and sea transport (5.5) ---------------------------------

    def _strategic_ok_unit(self, uid: str) -> str:
        """Why ``uid`` may not use Strategic Movement now ("" when it may)."""
        c, u = self.c(uid), self.u(uid)
        if self.turn == 1 and self.sc.rules.get("turn1_rules"):
            return "20.1 rule 3: no strategic movement on turn 1"
        if u.moves or u.mode:
            return "5.3: the unit has already moved this phase"
        if c.type in ("air_base", "fortress", "economic"):
            return f"5.3.2: {c.type.replace('_', ' ')} units cannot use Strategic Movement"
        if c.type == "offensive_support":
            return ("5.2.3: Offensive Support moves only after all the other units (3.1 step "
                    "4), not in step 2's Strategic Movement")
        if c.type == "railroad_gun":
            return ("5.1.6: the Railroad Gun moves only along connected Railroad hexes (any "
                    "number of them, in its regular movement)")
        if c.type == "supply_base" and not self.mud:
            return "5.3.2: Supply Bases use Strategic Movement on Mud Turns only"
        if u.supply:
            return "5.3.2: Lack of Supply and Out of Supply units cannot use Strategic Movement"
        if self._turn1_frozen(uid):
            return "20.1 rule 2: units in Romania and Finland cannot move on turn 1"
        if self.pos.late or self.pos.regular:
            return ("3.1: Strategic Movement is step 2 of the Movement Phase, before regular "
                    "movement (step 3) and step 4")
        return ""

    def _strategic_free(self, side: str) -> frozenset[str]:
        """Hexes at least three hexes from every enemy unit (5.3.1; partisans count)."""
        key = ("stratfree", side)
        hit = self._cache.get(key)
        if hit is None:
            # depends on the enemy's units (and partisans) only: kept across own moves
            partisans = tuple(sorted(self.pos.partisans.values())) if side == AXIS else ()
            lasting = ("stratfree", side, self.sig(other(side)), partisans)
            hit = self._pcache.get(lasting)
            if hit is None:
                near: set[str] = set()
                spots = {self.u(x).hex for x in self.on_map(other(side))}
                spots.update(h for h in partisans if h)
                for h in sorted(spots):
                    near.update(y for y, _ in self.data.near(h, 2))
                hit = frozenset(h for h in self.data.land if h not in near)
                self._pcache[lasting] = hit
            self._cache[key] = hit
        return hit

    def _strategic_reach(self, uid: str) -> dict[str, tuple[str, ...]]:
        side = self.c(uid).side
        start = self.u(uid).hex
        marks = self._cache.get("marks")
        if marks is None:
            marks = (tuple(sorted(self.pos.control.items())),
                     tuple(sorted(self.pos.partisans.items())), self.pos.turkey)
            self._cache["marks"] = marks
        c = self.c(uid)
        # the search reads the unit's side, nation (5.2.1) and, for the terrain a type
        # alone may enter, its type: the units of a stack mostly share it
        kind = (side, c.nation, c.type if c.type in self._costed_types() else "")
        key = ("sreach", kind, start, self.sig(other(side)), marks)
        hit = self._pcache.get(key)
        if hit is None:
            hit = self._strategic_bfs(uid, start)
            self._pcache[key] = hit
        # 5.3.1: the move ends where the unit is in supply by any supply rule
        ends = self.supplied_hexes(uid)
        return hit if ends is None else {h: p for h, p in hit.items() if h in ends}

    def _strategic_bfs(self, uid: str, start: str) -> dict[str, tuple[str, ...]]:
        side = self.c(uid).side
        free = self._strategic_free(side)
        if start not in free:
            return {}
        # _strategic_step_ok's tests, the sets gathered once for the search
        cities = self.data.cities
        enterable = free - frozenset(h for h, mark in self.pos.control.items()
                                  if mark == other(side) and h in cities)
        enterable -= self.barred_countries(uid)
        c = self.c(uid)
        kind = c.type if c.type in self._costed_types() else ""
        lasting = ("terrain_ok", kind, self.snow)
        passable: frozenset[str] | None = self._pcache.get(lasting)
        if passable is None:
            # where the Terrain Effects Chart lets a unit of this kind in at all (5.1.5):
            # a fact of the map, the weather and the type
            passable = frozenset(h for h in {b for ns in self.data.neighbors.values()
                                             for b in ns}
                                 if self._terrain_cost(uid, h) is not None)
            self._pcache[lasting] = passable

        shut = self._pcache.get("strategic_shut")
        if shut is None:
            # the hexsides no Strategic Movement crosses (5.3.3), both ways: of the map
            shut = self._pcache["strategic_shut"] = frozenset(
                ab for ab, f in self.data.hexsides_both_ways().items() if f & _NO_STRATEGIC)
        usable = enterable & passable

        def step_ok(a: str, b: str) -> bool:
            return b in usable and (a, b) not in shut
        # 5.3: up to 15 hexes, each step clear of the enemy (5.3.1) and open (5.3.3)
        return breadth_first(self.data.neighbors, start, max_steps=15, step_ok=step_ok)

    def _strategic_step_ok(self, uid: str, a: str, b: str, free: frozenset[str]) -> bool:
        if b not in free:
            return False
        if self.pos.control.get(b) == other(self.c(uid).side) and b in self.data.cities:
            return False
        if self.data.side_features(a, b) & _NO_STRATEGIC:
            return False  # 5.3.3: the Chongar bridge is open
        return self._may_enter_country(uid, b) and self._terrain_cost(uid, b) is not None

    def _apply_strategic(self, a: Strategic) -> None:
        uid = a.unit
        if uid not in self.pos.units or self.c(uid).side != self._side():
            raise IllegalAction(f"{uid} is not one of your units", rule="5.3")
        u = self.u(uid)
        if u.hex != a.path[0]:
            raise IllegalAction(f"{uid} is at {u.hex or 'no hex'}, not {a.path[0]}",
                                rule="5.3")
        why = self._strategic_ok_unit(uid)
        if why:
            raise IllegalAction(why.split(": ", 1)[1], rule=why.split(":")[0])
        if len(a.path) - 1 > 15:
            raise IllegalAction("Strategic Movement is at most 15 hexes", rule="5.3")
        free = self._strategic_free(self.c(uid).side)
        if a.path[0] not in free:
            raise IllegalAction(f"{uid} starts within two hexes of an enemy unit", rule="5.3.1")
        for x, y in itertools.pairwise(a.path):
            if y not in self.data.neighbors.get(x, ()):
                raise IllegalAction(f"{x} and {y} are not adjacent", rule="5.3")
            if not self._strategic_step_ok(uid, x, y, free):
                raise IllegalAction(f"{uid} cannot pass {x}->{y} by Strategic Movement (within "
                                    "two hexes of an enemy, enemy city, prohibited or sea)",
                                    rule="5.3.1")
        if not self.supplied_at(uid, a.path[-1]):
            raise IllegalAction(f"{uid} must end Strategic Movement in supply", rule="5.3.1")
        u.hex = a.path[-1]
        u.mp = 0
        u.moves = 1
        u.mode = "strat"
        self._touch()
        self._enter(uid, a.path[1:])
        self.say(f"{self.label(uid)} moves strategically {a.path[0]} -> {a.path[-1]}", "move",
                 (a.path[0], a.path[-1]), [uid], rule="5.3")

    def _sea_body(self, h: str) -> str:
        body = self.data.ports.get(h, "")
        return "black" if body == "azov" else body

    def _sea_ok(self, side: str, body: str) -> bool:
        if body == "black":
            return self.controls(side, SEVASTOPOL)  # 5.5.4
        if side == SOVIET:
            return self.controls(SOVIET, LENINGRAD)  # 5.5.5
        return self.controls(AXIS, KONIGSBERG)  # 5.5.6

    def _shippable(self, uid: str) -> bool:
        c = self.c(uid)
        return (c.type in ("infantry", "supply_base") and c.nation == "german") or \
            c.nation == "romanian" or c.type in ("combined_arms", "guards", "shock")

    def _ship_options(self) -> list[Word]:
        side = self._side()
        if self.pos.sea_used or self.phase()[0] != "move" or self.pos.late or \
                self.pos.regular:
            return []  # 3.1: Sea Transport is step 2, before regular movement
        out = []
        ports = self.data.ports
        for uid in sorted(self.on_map(side)):
            u = self.u(uid)
            h = u.hex
            if h not in ports or u.moves or u.mode or not self._shippable(uid):
                continue
            if not self.controls(side, h) or self._turn1_frozen(uid):
                continue
            body = self._sea_body(h)
            if not self._sea_ok(side, body):
                continue
            for dest in sorted(ports):
                if dest == h or self._sea_body(dest) != body or not self.controls(side, dest):
                    continue
                if self.has_enemy(dest, side) or not self._may_enter_country(uid, dest):
                    continue
                if self.c(uid).type == "supply_base" and dest not in (KONIGSBERG, LENINGRAD):
                    continue  # 5.5.1
                out.append(Word(f"ship {uid} to {dest}"))
        return out

    def _apply_ship(self, text: str) -> None:
        parts = text.split()
        units, dest = parts[1:-2], parts[-1]
        if self.pos.late or self.pos.regular:
            raise IllegalAction("Sea Transport is step 2 of the Movement Phase, before regular "
                                "movement (step 3)", rule="3.1")
        legal = {w.text for w in self._ship_options()}
        if len(units) == 2:
            kgs = all(self.c(x).type == "infantry" and self.steps_of(x) == 1 for x in units)
            if not kgs:
                raise IllegalAction("only two German Infantry Kampfgruppen may share one sea "
                                    "transport", rule="5.5.2")
            if not all(f"ship {x} to {dest}" in legal for x in units):
                raise IllegalAction(f"{text} is not allowed", rule="5.5")
        elif text not in legal:
            raise IllegalAction(f"{text} is not allowed (ports, control, body of water, unit "
                                "type or the phase's one transport)", rule="5.5")
        for x in units:
            unit = self.u(x)
            unit.hex = dest
            unit.mp = 0
            unit.moves = 1
            unit.mode = "sea"
        self.pos.sea_used = True
        self._touch()
        for x in units:
            self._claim(x, dest)
        self.say(f"{' '.join(units)} shipped to {self.data.hex_name(dest)} (5.5)", "move",
                 [dest], units, rule="5.5")
