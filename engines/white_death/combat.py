"""What every kind of fire shares: fire and defense values (Rules 9.C, 10.C, 12),
losses, morale checks (Rule 14) and retreats.

Antitank fire at an AFV leaving a ZOC (Rule 3.A), barrages (Rule 11.B) and the fire at an
assaulted hex (Rules 9, 10) all end here, so movement, artillery and assault build on it.
"""

from __future__ import annotations

from fractions import Fraction

from engines.hexkit.retreat import retreat_options
from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.supply import SupplyState
from pbem.engine import Event

#: the rule behind each cause of loss ``_lose`` is given (for the event's ``rule``)
_LOSS_RULE = {
    "barrage": "Rule 11.B.2", "conventional fire": "Rule 9", "antitank fire": "Rule 10",
    "garrison broken": "Intrinsic garrisons", "rout": "Rule 14", "no retreat route": "Rule 14.B",
    "retreat through an enemy ZOC": "Rule 14.C.1", "the ice gives way": "Rule 13",
}


class CombatState(SupplyState):
    """Fire and defense values, losses, morale and retreats (Rules 9, 10, 12, 14)."""

    # ------------------------------------------------------------------ combat values

    def is_close(self, uid: str) -> bool:
        return "close" in self.utype(uid).flags

    def fire_value(self, uid: str, kind: str, target_hex: str, attacking: bool) -> Fraction:
        """Rules 9.C.1 / 10.C.1: factor x remaining strength, with Rules 12.B, 15.C, 21.A."""
        t = self.utype(uid)
        u = self.pos.units[uid]
        factor = t.cf if kind == "conv" else t.atf
        if factor <= 0:
            return Fraction(0)
        if kind == "conv" and attacking and t.cf_defensive_only:
            return Fraction(0)
        v = factor * u.strength
        place = target_hex if attacking else u.loc
        if self.is_close(uid) and self.ter.is_town_or_forest(place):
            v *= 2
        if attacking and self.map.faces_toward("slope", u.loc, target_hex) == u.loc:
            v *= 2  # Rule 12.B: firing down a slope hexside
        if self.isolated(uid):
            v /= 2
        return v

    def defense(self, uid: str, against: str, at_hex: str | None = None) -> int:
        """Rule 9.C.2 / 10.C.2 / 12: defense of a unit in (or assaulting into) a hex."""
        t = self.utype(uid)
        h = self.pos.units[uid].loc
        if against == "at" or t.afv:
            d = t.defense
            if self.ter.is_town_or_forest(h) or (
                    at_hex is not None and self.ter.is_town_or_forest(at_hex)):
                d -= 1  # Rule 12.C
            return max(d, 1)
        table = self.cat.tables.defense
        best = 0
        for terr in self.ter.terrain(h):
            best = max(best, table[terr][t.cls])
        if self.bunker(h) > 0 and self.side_of(uid) == "german" and at_hex is None:
            best = max(best, table["bunker"][t.cls])
        return best

    # ------------------------------------------------------------------ who fights

    def attackers(self, h: str) -> list[str]:
        return [x for x in self.pos.assaults.get(h, []) if self.on_map(x)
                and self.pos.units[x].assault == h and "no-assault" not in self.pos.units[x].marks
                and self.map.grid.adjacent(self.pos.units[x].loc, h)]

    def defenders(self, h: str) -> list[str]:
        return self.units_at(h, other(self.pos.phasing))

    # ------------------------------------------------------------------ losses and morale

    def _lose(self, uid: str, n: int, why: str) -> list[Event]:
        if n <= 0 or not self.on_map(uid):
            return []
        u = self.pos.units[uid]
        h = u.loc
        n = min(n, u.strength)
        u.strength -= n
        side = self.side_of(uid)
        self.pos.losses[side] += n
        if u.strength <= 0 or "intrinsic" in self.utype(uid).flags:
            u.loc = "dead"
            self.pos.counts[f"elim:{h}"] = self.pos.counts.get(f"elim:{h}", 0) + 1
            self._relocated()
            return [Event(f"{uid} is eliminated at {h} ({why})", "loss", hexes=(h,),
                          units=(uid,), rule=_LOSS_RULE.get(why, "Rule 14"))]
        return [Event(f"{uid} loses {n} strength point{'s' if n > 1 else ''} at {h} ({why})",
                      "loss", hexes=(h,), units=(uid,), rule=_LOSS_RULE.get(why, "Rule 14"))]

    def morale_exempt(self, uid: str, stage: str) -> bool:
        """Rule 14.C.6 / 19: a bunker of 3 or more shields non-AFVs not assaulting out."""
        t = self.utype(uid)
        h = self.pos.units[uid].loc
        if t.afv or self.side_of(uid) != "german":
            return False
        return self.bunker(h) >= 3 and not (stage == "df" and self.pos.units[uid].assault)

    def fright(self, uid: str, h: str) -> bool:
        """Rule 14.C.2: is this defender frightened by enemy AFVs assaulting it?"""
        if not any(self.utype(x).afv for x in self.attackers(h)):
            return False
        side = self.side_of(uid)
        if self.ter.is_town(self.pos.units[uid].loc):
            return False
        return not any(rules.fright_immune_type(self.utype(x), side)
                       for x in self.units_at(h, side))

    def _morale(self, uid: str, mod: int, stage: str, h: str) -> None:
        if self.morale_exempt(uid, stage):
            return
        if stage == "assault":
            if self.fright(uid, h):
                mod += 1
            if self.pos.combat is not None:
                self.pos.combat.checked.append(uid)
        # the check comes before any die queued earlier: it follows the fire that caused it
        self._die("mc", f"morale check for {uid} at {h} (+{mod})", "Rule 14", front=True,
                  uid=uid, mod=mod, stage=stage, hex=h)

    def morale_modifiers(self, uid: str, base: int) -> int:
        h = self.pos.units[uid].loc
        t = self.utype(uid)
        mod = base
        if self.isolated(uid):
            mod += 1  # Rule 14.C.3 / 15.C
        if self.pos.weather == "snow" and not t.afv and not self.ter.is_town(h):
            mod += 1  # Rule 14.C.5
        mod += self.pos.counts.get(f"rout:{h}", 0)  # Rule 14.C.4
        mod += self.pos.counts.get(f"elim:{h}", 0)  # Rule 14.C.7
        return mod

    def _on_mc(self, job: DieArgs, roll: int) -> list[Event]:
        uid = job.uid
        if not self.on_map(uid):
            return []
        mod = self.morale_modifiers(uid, job.mod)
        t = self.utype(uid)
        band = rules.morale_band(roll + mod, t.morale)
        h = self.pos.units[uid].loc
        # the check was announced with the modifier of the fire alone; the hex adds its own
        # now (Rule 14.C), and the line says so rather than contradict the announcement
        extra = mod - job.mod
        why = (f" (+{job.mod} from the fire, {extra:+d} for isolation, snow, routs or "
               f"eliminations in the hex: Rule 14.C)" if extra else "")
        events = [Event(f"{uid} morale {t.morale}: roll {roll} + modifier {mod} = "
                        f"{roll + mod}, {band}{why}", "morale", hexes=(h,), units=(uid,),
                        rule=job.rule)]
        stage = job.stage
        u = self.pos.units[uid]
        if band == "pass":
            return events
        if "intrinsic" in t.flags:  # a garrison cannot leave its town
            return events + self._lose(uid, u.strength, "garrison broken")
        if band == "rout":
            self.pos.counts[f"rout:{h}"] = self.pos.counts.get(f"rout:{h}", 0) + 1
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

    def _fright_checks(self, h: str) -> None:
        """Rule 14.C.2: after the assault fire, the defenders frightened by the assaulting
        AFVs that no fire made check morale take their tank fright check."""
        c = self.pos.combat
        checked = set(c.checked) if c is not None else set()
        for uid in self.defenders(h):
            if uid not in checked and self.fright(uid, h) and not self.morale_exempt(
                    uid, "assault"):
                self._die("mc", f"tank fright check for {uid} at {h}", "Rule 14.C.2",
                          uid=uid, mod=0, stage="assault", hex=h)

    # ------------------------------------------------------------------ retreat

    def _retreat(self, uid: str) -> list[Event]:
        """Rule 14.B/C.1: two hexes generally away from the enemy, through ZOCs at the cost
        of one strength point, farther while it would end in an enemy ZOC or overstack."""
        s = self.side_of(uid)
        u = self.pos.units[uid]
        start = u.loc
        path = self.retreat_path(uid)
        if path is None:
            events = self._lose(uid, u.strength, "no retreat route")
            return [Event(f"{uid} cannot retreat from {start}", "retreat", hexes=(start,),
                          rule="Rule 14.B"), *events]
        events = []
        if any(x in self.ezoc(s) for x in path):
            events += self._lose(uid, 1, "retreat through an enemy ZOC")
        if self.on_map(uid):
            self._put(uid, path[-1])
            u.assault = ""
            u.deployed = False
            u.stopped = True
            events.append(Event(f"{uid} retreats {' '.join((start, *path))}", "retreat",
                                hexes=(start, *path), units=(uid,), rule="Rule 14.B"))
        return events

    def retreat_path(self, uid: str) -> tuple[str, ...] | None:
        """Rule 14.B's route for ``uid`` (the hexes after its own), ``None`` if it has none.

        The hex kit's retreat search with the rule's terms: two hexes, ending two hexes
        from the unit's hex (``farther=False``: the steps themselves need not each be
        farther); where the end would be in an enemy ZOC (14.C.1) or over the stacking
        limit (Rule 4) it goes on, up to five hexes, the shortest route winning; enemy
        units and prohibited terrain are never entered. Among routes of that length: not
        through an enemy ZOC first (14.C.1 costs a strength point), then the end farthest
        from the nearest enemy unit ("generally away from enemy units"), then the lowest
        end hex and route, so both players' programs move the unit alike."""
        s = self.side_of(uid)
        start = self.pos.units[uid].loc
        enemies = sorted(self.enemy_hexes(s))
        ez = self.ezoc(s)
        bad = set(enemies)
        mob = self.utype(uid).mob

        def rank(_path: tuple[str, ...], h: str) -> int | None:
            return 0 if h not in bad and self.ter.enter_cost_terrain(mob, h) is not None \
                else None

        def away(h: str) -> int:
            return min((self.map.distance(h, e) for e in enemies), default=99)

        opts = retreat_options(
            self.map, start, 2, rank, farther=False, max_length=5,
            may_end=lambda h: h not in ez and self.stack_ok_with(h, uid),
            path_rank=lambda p: (int(any(x in ez for x in p)), -away(p[-1])))
        if not opts.complete:
            return None
        return min(opts.paths, key=lambda p: (p[-1], p))

