"""Retreat (8.6) and advance after combat (8.7).
"""

from __future__ import annotations

from engines.hexkit.retreat import retreat_options
from engines.motherland import rules
from engines.motherland.actions import Advance, Retreat
from engines.motherland.combat import CombatMixin
from engines.motherland.const import BLOCKING_SIDES, other
from engines.motherland.data import ARMOR_TYPES
from engines.motherland.steps import AdvanceArgs, LoseArgs, RetreatArgs, RoleArgs
from engines.motherland.victory import VictoryMixin
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.steps import Flow, Frame


class RetreatMixin(CombatMixin, VictoryMixin):
    """Retreats (8.6) and advances after combat (8.7)."""

    # -- retreat (8.6) ----------------------------------------------------------------------

    def _retreat_targets(self, units: list[str], center: str) -> list[str]:
        """Hexes the group may retreat into now, best 8.6.1 priority class only.

        One hex at a time through the kit's :func:`retreat_options`: farther from the
        combat hex, the hexside allowed (8.6.4), ranked by 8.6.1.
        """
        if not units:
            return []
        side = self.c(units[0]).side
        a = self.u(units[0]).hex
        ez = self.zoc(other(side))
        oos = any(self.u(x).supply == "out" for x in units)
        gun = any(self.c(x).type == "railroad_gun" for x in units)

        def rank(_path: tuple[str, ...], n: str) -> int | None:
            if self.has_enemy(n, side):
                return None  # 8.6.4
            if any(self._terrain_cost(x, n) is None or not self._may_enter_country(x, n)
                   for x in units):
                return None
            friend = self.has_friend(n, side)
            z = n in ez
            if oos and z and not friend:
                return None  # 8.6.2, 4.2.2
            return 0 if not z and not friend else 1 if not z else 2 if friend else 3

        def may_cross(x: str, y: str) -> bool:
            if self.data.side_features(x, y) & (BLOCKING_SIDES | {"frozen_access"}):
                return False  # 8.6.4, 16.7
            return not gun or y in self.data.rail.get(x, ())  # 8.6.4 Railroad Gun

        found = retreat_options(self.data.hexmap, a, 1, rank, away_from=center,
                                may_cross=may_cross)
        return list(found.hexes) if found.complete else []

    def _retreat_groups(self, t: RetreatArgs) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for uid, left in sorted(t.left.items()):
            if left > 0 and self.u(uid).hex:
                groups.setdefault(self.u(uid).hex, []).append(uid)
        return groups

    def _retreat_left(self, t: RetreatArgs) -> str:
        left = t.left
        return ", ".join(f"{x} {n} hex(es)" for x, n in sorted(left.items()) if n > 0)

    def _retreat_options(self, t: RetreatArgs) -> list[Action]:
        out: list[Action] = []
        for _, units in sorted(self._retreat_groups(t).items()):
            for dest in self._retreat_targets(units, t.center):
                out.append(Retreat(tuple(units), dest))
            if len(units) > 1:
                for uid in units:
                    for dest in self._retreat_targets([uid], t.center):
                        out.append(Retreat((uid,), dest))
        return out

    def _retreat_auto(self, t: RetreatArgs, flow: Flow) -> bool:
        """Whether the retreat went on without asking: over, a unit with nowhere to go
        taking its retreat as steps (8.5.1), or only one hex to go to."""
        groups = self._retreat_groups(t)
        if not groups:
            flow.end()
            return True
        for _, units in sorted(groups.items()):
            for uid in units:
                if not self._retreat_targets([uid], t.center):
                    left = t.left[uid]
                    t.left[uid] = 0
                    if t.role:  # 8.7: a retreat cut short shortens the advance
                        cut = self.fight().cut
                        cut[t.role] = max(cut.get(t.role, 0), left)
                    self.say(f"{uid} cannot retreat: {left} step loss(es) instead (8.5.1)",
                             "loss", [self.u(uid).hex], [uid], rule="8.5.1")
                    for _ in range(left):
                        if self.u(uid).hex:
                            self._lose_step(uid, "unable to retreat (8.5.1)")
                    return True
        opts = self._retreat_options(t)
        if len(opts) == 1:
            r = opts[0]
            assert isinstance(r, Retreat)
            self._apply_retreat(t, r)
            return True
        return False

    def _apply_retreat(self, t: RetreatArgs, a: Retreat) -> None:
        units = list(a.units)
        if any(t.left.get(x, 0) <= 0 or not self.u(x).hex for x in units):
            raise IllegalAction("those units have no retreat left to make", rule="8.6")
        if len({self.u(x).hex for x in units}) != 1:
            raise IllegalAction("units retreating together must start in one hex", rule="8.6")
        targets = self._retreat_targets(units, t.center)
        if a.dest not in targets:
            raise IllegalAction(f"{a.dest} is not a retreat hex of the best priority available "
                                f"({', '.join(targets) or 'none'})", rule="8.6.1")
        side = self.c(units[0]).side
        src = self.u(units[0]).hex
        friend = self.has_friend(a.dest, side)
        zoc_loss = a.dest in self.zoc(other(side)) and not friend
        river = self.data.side_features(src, a.dest) & {"minor_river", "major_river", "strait"}
        for uid in units:
            self.u(uid).hex = a.dest
            t.left[uid] -= 1
            if friend:
                self.u(uid).displaced = True  # 8.6.5
        self._touch()
        self.say(f"{' '.join(self.label(x) for x in units)} retreat {src} -> {a.dest}", "retreat",
                 [src, a.dest], units, rule="8.6")
        for uid in units:
            self._claim(uid, a.dest)
        if zoc_loss:  # one step for the stack, the owner choosing the unit
            self._push(Frame("lose", LoseArgs(side, 1, list(units), {},
                                              "retreated into an enemy ZOC (4.2.1, 8.6.2)")))
        if river:
            for uid in units:
                if self.c(uid).type in ARMOR_TYPES and self.u(uid).hex:
                    self._lose_step(uid, "armor retreating across a river (8.6.3)")

    # -- advance after combat (8.7) ---------------------------------------------------------

    def _advance_start(self, t: RoleArgs) -> None:
        cb = self.fight()
        role = t.role
        loser = "def" if role == "att" else "att"
        side = cb.side if role == "att" else other(cb.side)
        if loser == "def":
            vacated = [cb.target] if not self.has_enemy(cb.target, side) else []
        else:
            hexes = sorted({cb.orig[x] for x in cb.attackers})
            still = [h for h in hexes if self.has_enemy(h, side)]
            vacated = hexes if not still else []
        lost_all = not any(self.u(x).hex == cb.orig[x] for x in cb.units(loser))
        if cb.kind == "overrun" and role == "att":
            movers = self._alive_in_combat("att")
            if vacated and lost_all:
                for uid in movers:
                    unit = self.u(uid)
                    unit.hex = cb.target
                    unit.mode = "ovr"  # 7.1, 7.2.2
                self._touch()
                for uid in movers:
                    self._claim(uid, cb.target)
                if movers:
                    self.say(f"The overrun succeeds: {' '.join(movers)} enter {cb.target}",
                             "move", [cb.target], movers, rule="7.1")
            else:
                for uid in cb.attackers:
                    unit = self.u(uid)
                    unit.mp = 0
                    unit.mode = "done"
                self.say("The overrun fails: the attackers end their movement (7.1)", "info",
                         rule="7.1")
            return
        if not vacated or not lost_all:
            return
        took = cb.took.get(loser)
        if loser in cb.eliminated:
            allow = 2
        elif took:
            # 8.7: the result less what was taken as steps, a retreat cut short (its hexes
            # taken as steps, 8.5.1) included; 8.7.1 then needs two hexes for a second
            allow = rules.advance_allowance(took[0],
                                            took[1] + cb.cut.get(loser, 0), False)
        else:
            allow = 0
        if allow <= 0:
            return
        movers = [x for x in self._alive_in_combat(role) if self.c(x).is_combat
                  and self.c(x).factors[0][2] > 0 and self.c(x).type != "fortress"]
        if movers:
            self._push(Frame("advance", AdvanceArgs(side, movers, allow, vacated, {})))

    def _advance_options(self, t: AdvanceArgs) -> list[Action]:
        out: list[Action] = []
        for uid in t.units:
            u = self.u(uid)
            if not u.hex:
                continue
            m = t.moved.get(uid, 0)
            cap = min(t.n, 2 if self.c(uid).type in ARMOR_TYPES else 1)  # 8.7.1
            if m >= cap:
                continue
            for n in self.data.neighbors[u.hex]:
                if m == 0 and n not in t.first:
                    continue  # 8.7.2 first hex: the vacated hex
                if self._advance_step_ok(uid, u.hex, n, second=m > 0):
                    out.append(Advance(uid, n))
        return out

    def _advance_step_ok(self, uid: str, a: str, b: str, second: bool) -> bool:
        side = self.c(uid).side
        if self.has_enemy(b, side) or self._terrain_cost(uid, b) is None:
            return False
        if not self._may_enter_country(uid, b):
            return False
        f = self.data.side_features(a, b)
        if f & (BLOCKING_SIDES | {"frozen_access"}):
            return False
        return not (second and f & {"minor_river", "major_river", "strait"})

    def _apply_advance(self, t: AdvanceArgs, a: Advance) -> None:
        if a not in self._advance_options(t):
            raise IllegalAction(f"{a.unit} cannot advance into {a.dest} (first into the vacated "
                                "hex; second hex only for Panzer/Tank/Mech Group units after a "
                                "retreat of two or more, never across a river)", rule="8.7")
        src = self.u(a.unit).hex
        self.u(a.unit).hex = a.dest
        t.moved[a.unit] = t.moved.get(a.unit, 0) + 1
        self._touch()
        self._claim(a.unit, a.dest)
        self.say(f"{self.label(a.unit)} advances {src} -> {a.dest}", "move", [src, a.dest],
                 [a.unit], rule="8.7")
