"""Overrun (7.0): which stacks may overrun which hexes, during movement and exploitation.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.motherland import rules
from engines.motherland.actions import Overrun
from engines.motherland.combat import CombatMixin
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.data import ARMOR_TYPES, CHIT_TYPES
from engines.motherland.stacking import StackingMixin
from pbem.engine import Action
from pbem.errors import IllegalAction


class OverrunMixin(CombatMixin, StackingMixin):
    """Overruns declared during movement (7.0)."""

    def _overrun_cost(self, side: str) -> int:
        return 2 if side == SOVIET and self.snow else 3  # 7.1, 7.2.5

    def _late_rule(self, side: str) -> str:
        """The rule that ended step 3: 5.2.3 after an Air Base or Offensive Support moved,
        3.1 (step 4) after a Supply Base did."""
        movers = {self.c(x).type for x in self.on_map(side) if self.u(x).moves}
        return "5.2.3" if movers & {"air_base", "offensive_support"} else "3.1"

    def _overrun_why(self, target: str, units: list[str], exploit: bool) -> tuple[str, str]:
        """(rule, reason) forbidding this overrun, or ("", "")."""
        side = self._side()
        if not units:
            return "7.1", "no units"
        hexes = {self.u(x).hex for x in units}
        if len(hexes) != 1:
            return "7.1", "overrunning units must stand together in one hex"
        h = hexes.pop()
        if target not in self.data.neighbors.get(h, ()):
            return "7.1", f"{target} is not adjacent to {h}"
        if not self.has_enemy(target, side):
            return "7.1", f"{target} holds no enemy unit"
        cost = self._overrun_cost(side)
        if self.pos.late:
            return self._late_rule(side), ("step 4 (Air Bases and Supply Bases, or "
                                           "Offensive Support) has begun: no more "
                                           "movement or overruns")
        for uid in units:
            c, u = self.c(uid), self.u(uid)
            if c.side != side:
                return "7.1", f"{uid} is not yours"
            if not c.is_combat or c.type == "fortress" or (
                    c.type not in CHIT_TYPES and self.factors(uid)[0] <= 0):
                return "8.3.8", f"{uid} cannot attack"
            if u.mode in ("strat", "sea", "done", "one") or self._turn1_frozen(uid):
                return "7.1", f"{uid} cannot move now"
            if u.mp < cost:
                return "7.1", f"{uid} has {u.mp} MP, an overrun costs {cost}"
            if u.supply:
                return "7.2.1", f"{uid} is {u.supply} of supply"
            if exploit and c.type not in ARMOR_TYPES:
                return "7.2.4", "only Panzer and Tank units overrun in exploitation"
        if len({self.c(x).mech for x in units}) > 1:
            return "7.2.6", "leg and mechanized units cannot overrun together"
        if len({self.u(x).start for x in units}) > 1:
            return "7.1", "units overrun together only as a stack that began the phase in one " \
                          "hex (5.1)"
        why = self._attack_group_ok(units)
        if why:
            return why, "allied units attack only beside German units"
        f = self.data.side_features(h, target)
        if "rail_bridge" in f:
            return "16.7", f"no overrun across the Chongar rail bridge ({h}/{target})"
        if f & {"major_river", "sea", "lake", "frozen_access", "out_of_play", "strait"}:
            return "7.2", f"no overrun across the {h}/{target} hexside"
        ter = self.data.hexmap.terrain.get(target, "clear")
        if ter in ("mountain", "high_mountain") or target in self.data.cities:
            what = ter if ter in ("mountain", "high_mountain") else "city"
            return "7.2", f"no overrun into a {what} hex"
        if ter == "swamp" and not self.snow:
            return "7.2", "no overrun into a Swamp hex except on Snow Turns"
        if any(self.c(x).type == "fortress" for x in self.units_at(target)):
            return "7.2", "no overrun into a hex holding a Fortress"
        if self._over_limit(h):
            return "7.2.1", f"{h} is over the stacking limit"
        return "", ""

    def _overrun_hopeless(self, target: str, units: Iterable[str]) -> bool:
        """7.1: whether the odds are known to be below 1:3 (an automatic A2, which Air
        Support cannot change).  Unknown while a Soviet defender still has to draw its
        Strength Chit; the Air Unit is then kept if the draw makes the odds hopeless."""
        defenders = self.units_at(target)
        if any(self.c(x).type in CHIT_TYPES and not self.u(x).chit for x in defenders):
            return False
        attack = sum(self.factors(x)[0] for x in units)
        defense = sum(self.factors(x)[1] for x in defenders)
        h = self.u(next(iter(units))).hex
        if self.data.side_features(h, target) & {"minor_river"}:
            defense += 2  # 8.4.1 (7.2: no overrun across a Major River)
        if defense <= 0:
            return False
        return rules.column(attack, defense, self.data.crt_columns, 0).below

    def _overrun_options(self, exploit: bool) -> list[Action]:
        side = self._side()
        out: list[Action] = []
        cost = self._overrun_cost(side)
        by_hex: dict[str, list[str]] = {}
        for uid in sorted(self.on_map(side)):
            u, c = self.u(uid), self.c(uid)
            if u.mp >= cost and c.is_combat and u.mode not in ("strat", "sea", "done"):
                by_hex.setdefault(u.hex, []).append(uid)
        for h, units in sorted(by_hex.items()):
            keys = sorted({(self.c(x).mech, self.u(x).start) for x in units})
            for mech, start in keys:
                group = [x for x in units if self.c(x).mech == mech
                         and self.u(x).start == start]
                for target in self.data.neighbors[h]:
                    if not self.has_enemy(target, side):
                        continue
                    g = [x for x in group if not self._overrun_why(target, [x], exploit)[0]]
                    if not g or self._overrun_why(target, g, exploit)[0]:
                        continue
                    out.append(Overrun(target, tuple(g)))
                    if side == AXIS and self._air_ok(target, g) and \
                            not self._overrun_hopeless(target, g):
                        out.append(Overrun(target, tuple(g), air=True))
        return out

    def _apply_overrun(self, a: Overrun, exploit: bool) -> None:
        for uid in a.units:
            if uid not in self.pos.units or not self.u(uid).hex:
                raise IllegalAction(f"{uid} is not a unit on the map", rule="7.1")
        rule, why = self._overrun_why(a.target, list(a.units), exploit)
        if rule:
            raise IllegalAction(why, rule=rule)
        if a.air and not self._air_ok(a.target, a.units):
            raise IllegalAction("no Air Support available for this overrun", rule="7.2.3")
        if a.air and self._overrun_hopeless(a.target, list(a.units)):
            raise IllegalAction("the odds are below 1:3, an automatic A2: Air Support cannot "
                                "change that", rule="7.1")
        cost = self._overrun_cost(self._side())
        for uid in a.units:
            self.u(uid).mp -= cost
        if not exploit:
            self.pos.regular = True  # 3.1 step 3: no Strategic Movement or Sea Transport now
        self._start_combat("overrun", a.target, list(a.units), a.air, False)
