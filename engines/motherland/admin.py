"""The Administrative Phase: its tasks in order, Soviet production and factory evacuation
(12.0) and the end-of-turn recovery (14.0, 16.3, 16.4, 16.5, 21.1.3, the 20.2 check).

The phase's other choices live with their rules: conversions, combining and replacements
in ``reinforcements.py``, Strength Chits in ``chits.py``, Turkey in ``optional.py``.
"""

from __future__ import annotations

from engines.motherland.const import AXIS, BAKU_ENTRY, SOVIET
from engines.motherland.steps import ReplaceArgs, RollArgs, UnitArgs
from engines.motherland.supply import SupplyMixin
from pbem.steps import Frame


class AdminMixin(SupplyMixin):
    """The Administrative Phase's tasks and the Soviet economy (12.0)."""

    # ================================================================================
    # administrative phase
    # ================================================================================

    def _admin_tasks(self) -> list[Frame]:
        """3.1 G, the Administrative Phase in order (12.0)."""
        info = self.data.turns[self.turn]
        tasks = [Frame("turkey"), Frame("convert"), Frame("combine")]
        if self.mud and info.replacements != (0, 0):
            i, p = info.replacements
            tasks.append(Frame("replace", ReplaceArgs(i, p, False)))
        if info.production:
            tasks.append(Frame("roll-production", RollArgs(
                f"Soviet production (number {self.production_number()})")))
            tasks.append(Frame("evacuate"))
        tasks.append(Frame("admin_chits"))
        tasks.append(Frame("recovery"))
        return tasks

    def production_number(self) -> int:
        table = self.data.production
        n = len(self.pos.eliminated_assets)
        return table[min(n, len(table) - 1)]

    def _on_production(self, roll: int) -> None:
        num = self.production_number()
        on_map = sum(1 for x in self.on_map(SOVIET) if self.c(x).type == "offensive_support")
        waiting = [x for x in sorted(self.pos.units) if self.u(x).box == "osm"]
        if roll <= num and waiting and on_map < self.data.max_os:
            self.say(f"Production succeeds (rolled {roll} against {num}): one Offensive "
                     "Support unit (12.1)", rule="12.1")
            self._push(Frame("produce", UnitArgs(waiting[0])))
        else:
            self.say(f"No production (rolled {roll} against {num}, 12.1)", rule="12.1")

    def _produce_hexes(self) -> list[str]:
        """12.1: any hex in supply and not in an enemy ZOC ("even if a friendly unit is in
        the hex" qualifies the ZOC), empty or not; not where an Offensive Support unit
        already stands, which would overstack it (6.3, 6.4)."""
        near = self.supply_net(SOVIET)[0]  # 9.6: Offensive Support has no sea supply
        ez = self.zoc(AXIS)
        occ = self.occ()
        tec = self.data.tec

        def open_to_leg(h: str) -> bool:  # not High Mountain (5.1.5)
            ter = tec.get(self.data.hexmap.terrain.get(h, "clear"))
            return ter is None or not ter.prohibited_except

        return sorted(h for h in near if h not in ez and h in self.data.land
                      and open_to_leg(h)
                      and not any(self.c(x).type == "offensive_support"
                                  for x in occ.get(h, ())))

    def _produce(self, uid: str, h: str) -> None:
        unit = self.u(uid)
        unit.hex = h
        unit.box = ""
        unit.supply = ""
        self._touch()
        self.say(f"{uid} is produced at {h} (12.1)", "move", [h], [uid], rule="12.1")

    def _evacuate(self, uid: str) -> None:
        unit = self.u(uid)
        unit.hex = ""
        unit.box = "evac"
        self._touch()
        self.say(f"{uid} is evacuated (12.2)", rule="12.2")

    def _evacuable(self) -> list[str]:
        sources = self.data.area("source_E") | self.data.area("source_S")
        rail_ok = self._rail_from(sources, self._blocked(SOVIET))
        ez = self.zoc(AXIS)
        return [x for x in sorted(self.on_map(SOVIET)) if self.c(x).asset == "factory"
                and self.u(x).hex in rail_ok and self.u(x).hex not in ez]

    def _recovery(self) -> None:
        self.pos.air.used = 0  # 14.0
        for g in self.pos.generals:
            self.pos.generals[g] = "ready"  # 16.5
        if self.turn == 4:
            self._mech_groups_go()
        if self.turn == 17 and self.u("Ita8").hex:
            unit = self.u("Ita8")
            unit.hex = ""
            unit.box = "removed"
            self.say("Italy surrenders: the Italian 8th Army leaves the map (16.3)", rule="16.3")
        for uid in sorted(self.pos.units):
            if self.u(uid).box == "baku":
                unit = self.u(uid)
                unit.box = ""
                unit.hex = BAKU_ENTRY
                self.say(f"{uid} returns from Baku to {BAKU_ENTRY} (21.1.3)", rule="21.1.3")
        self._touch()
        if self.turn in self.sc.rules.get("sudden_death_turns", []):
            cities = self.sc.rules.get("sudden_death_cities", [])
            if all(self.controls(SOVIET, h) for h in cities):
                self._push(Frame("roll-sudden-death",
                                 RollArgs("Soviet Strategic Victory check: 1-2 wins")))

    def _mech_groups_go(self) -> None:
        """16.4: at the end of turn 4 Mechanized Groups give way to eliminated armies."""
        for mg in sorted(x for x in self.on_map(SOVIET) if self.c(x).type == "mech_group"):
            h = self.u(mg).hex
            self._drop_chit(mg)
            unit = self.u(mg)
            unit.hex = ""
            unit.box = "removed"
            for due in (7, 6, 5):
                cands = [x for x in sorted(self.pos.units) if self.u(x).box == "track"
                         and self.u(x).return_turn == due and self.c(x).type == "combined_arms"]
                if cands:
                    unit = self.u(cands[0])
                    unit.hex = h
                    unit.box = ""
                    unit.return_turn = 0
                    unit.returning = False
                    unit.steps = 2
                    self.say(f"{mg} is replaced by {cands[0]} at {h} (16.4)", rule="16.4")
                    break
            else:
                self.say(f"{mg} is removed (16.4)", rule="16.4")
        self._touch()
