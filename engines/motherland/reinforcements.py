"""Reinforcements (17.0), the return of eliminated units (17.1), Guards and Shock
conversions (17.2) and Axis replacements and Kampfgruppen (15.0).
"""

from __future__ import annotations

from engines.motherland.actions import Word
from engines.motherland.chits import ChitMixin
from engines.motherland.const import AXIS, SOVIET, other
from engines.motherland.data import CORPS_TYPES
from engines.motherland.steps import ReplaceArgs, RollArgs, SideArgs
from engines.motherland.victory import VictoryMixin
from pbem.steps import Frame


class ReinforcementMixin(VictoryMixin, ChitMixin):
    """Arrivals and placement of reinforcements (17.0) and rebuilding units (15.0, 17.2)."""

    # -- reinforcements (17.0) ------------------------------------------------------------

    def _arrivals(self, t: SideArgs) -> None:
        side = t.side
        rolls = []
        for uid in sorted(self.pos.units):
            u = self.u(uid)
            if self.c(uid).side != side or u.box != "track" or u.return_turn > self.turn:
                continue
            if u.returning and side == SOVIET:
                rolls.append(Frame("roll-returning",
                                   RollArgs(f"return of {uid} (17.1.4)", unit=uid)))
            else:
                self._arrive(uid)
        self._push(*rolls)

    def _arrive(self, uid: str) -> None:
        c = self.c(uid)
        u = self.u(uid)
        if c.type in ("guards", "shock"):
            u.box = "conv"
            u.return_turn = 0
            u.returning = False  # 17.2
            self.say(f"{uid} enters the Conversion Holding Box (17.2)", rule="17.2")
        elif c.type == "offensive_support" and u.returning:
            u.box = "pool"
            u.return_turn = 0
            u.returning = False
        else:
            u.box = "pool"
            u.return_turn = 0
            u.returning = False

    def _on_returning(self, t: RollArgs, roll: int) -> None:
        uid = t.unit
        u = self.u(uid)
        if roll <= 3:
            self._arrive(uid)
            self.say(f"{uid} returns as a reinforcement (17.1.4, rolled {roll})", rule="17.1.4")
        elif roll <= 5:
            u.return_turn = self.turn + 1
            self.say(f"{uid} is delayed to turn {self.turn + 1} (17.1.4, rolled {roll})",
                     rule="17.1.4")
        else:
            u.box = "removed"
            u.return_turn = 0
            self.say(f"{uid} is removed permanently (17.1.4, rolled {roll})", rule="17.1.4")

    def _reinf_hexes(self, uid: str) -> list[str]:
        side = self.c(uid).side
        key = ("rhex", side, self.c(uid).nation if side == AXIS else "")
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        ez = self.zoc(other(side))
        rail_ok = self.supply_net(side)[2]
        cands: set[str] = set()
        if side == AXIS:
            bases = [self.u(x).hex for x in sorted(self.on_map(AXIS))
                     if self.c(x).type == "supply_base"]
            partisans = set(self.pos.partisans.values())
            for h in bases:
                if h in rail_ok and h not in partisans:  # 10.4
                    cands.add(h)
                    cands.update(self.data.neighbors[h])
            if not cands:  # stand-in: with no qualifying base, the supply-source hexes
                src = "source_F" if self.c(uid).nation == "finnish" else "source_W"
                cands.update(self.data.area(src))
        else:
            for h in rail_ok:  # 17.0: on or adjacent to a connected Railroad hex
                cands.add(h)
                cands.update(self.data.open_neighbors[h])
        out = sorted(h for h in cands if h not in ez and not self.has_enemy(h, side)
                     and self.pos.control.get(h) != other(side)
                     and self._may_enter_country(uid, h)
                     and self._terrain_cost(uid, h) is not None)
        self._cache[key] = out
        return out

    def _reinf_pool(self, side: str) -> list[str]:
        return [x for x in sorted(self.pos.units) if self.c(x).side == side
                and self.u(x).box == "pool"]

    def _reinf_leftover(self, side: str) -> None:
        for uid in self._reinf_pool(side):
            unit = self.u(uid)
            unit.box = "track"
            unit.return_turn = self.turn + 1

    def _place_reinforcement(self, uid: str, h: str) -> None:
        mp = self.factors(uid)[2]  # as it stood before it came onto the map
        unit = self.u(uid)
        unit.hex = h
        unit.box = ""
        unit.supply = ""
        unit.mp = mp
        unit.moves = 0
        unit.mode = ""
        unit.start = h
        unit.steps = self.c(uid).max_steps
        self._touch()
        self._claim(uid, h)
        self.say(f"{uid} arrives at {self.data.hex_name(h)} (17.0)", "move", [h], [uid],
                 rule="17.0")

    # -- conversions (17.2), Kampfgruppen (15.2), replacements (15.1) ----------------------

    def _convert_options(self) -> list[Word]:
        pool = [x for x in sorted(self.pos.units) if self.u(x).box == "conv"]
        if not pool:
            return []
        ez = self.zoc(AXIS)
        out = []
        for uid in sorted(self.on_map(SOVIET)):
            u = self.u(uid)
            if self.c(uid).type != "combined_arms" or u.supply:
                continue  # 17.2.2, 9.5.1
            if u.hex in ez and not self.mud:
                continue
            for g in pool:
                out.append(Word(f"convert {uid} to {g}"))
        return out

    def _combine_options(self) -> list[Word]:
        ez = self.zoc(SOVIET)
        out = []
        units = [x for x in sorted(self.on_map(AXIS)) if self.c(x).type in CORPS_TYPES
                 and self.steps_of(x) == 1 and not self.u(x).supply
                 and (self.mud or self.u(x).hex not in ez)]
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if self.u(a).hex == self.u(b).hex and self.c(a).type == self.c(b).type:
                    out.append(Word(f"combine {a} {b}"))
        return out

    def _replace_options(self, t: ReplaceArgs) -> list[Word]:
        out = []
        for uid in sorted(self.on_map(AXIS)):
            c, u = self.c(uid), self.u(uid)
            if u.supply or u.steps >= c.max_steps:
                continue  # 15.1.1
            if (c.type in ("infantry", "mountain") and t.i > 0) or \
                    (c.type in ("panzer", "ss_panzer") and t.p > 0) or \
                    (c.nation == "finnish" and t.i > 0 and not t.fin):
                out.append(Word(f"replace {uid}"))
        return out

    def _replace(self, t: ReplaceArgs, uid: str) -> None:
        c = self.c(uid)
        if c.type in ("panzer", "ss_panzer"):
            t.p -= 1
        else:
            t.i -= 1
            if c.nation == "finnish":
                t.fin = True
        self.u(uid).steps += 1
        self._touch()
        self.say(f"{uid} recovers a step (15.1)", rule="15.1")

    def _convert(self, ca: str, g: str) -> None:
        h = self.u(ca).hex
        self._drop_chit(ca)
        unit = self.u(ca)
        unit.hex = ""
        unit.box = "removed"
        unit = self.u(g)
        unit.hex = h
        unit.box = ""
        unit.steps = 2
        unit.chit = ""
        unit.supply = ""
        self._touch()
        self.say(f"{ca} becomes {g} at {h} (17.2)", "info", [h], [g], rule="17.2")
        d = self._draw_task(g, 1, "17.2.1")
        if d:
            self._push(d)

    def _combine(self, a: str, b: str) -> None:
        self.u(a).steps = self.c(a).max_steps
        unit = self.u(b)
        unit.hex = ""
        unit.box = "elim"
        self._touch()
        self.say(f"Kampfgruppen {a} and {b} combine into {a} (15.2)", rule="15.2")
