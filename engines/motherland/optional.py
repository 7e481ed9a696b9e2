"""The optional rules (21.0): the Baku raid (21.1) and the Turkish Front (21.2).
"""

from __future__ import annotations

from engines.motherland.actions import Word
from engines.motherland.const import AXIS, BAKU_ENTRY, TURKEY_ENTRY
from engines.motherland.steps import MoveArgs, RollArgs
from engines.motherland.victory import VictoryMixin
from pbem.errors import IllegalAction
from pbem.steps import Frame


class OptionalRulesMixin(VictoryMixin):
    """Baku (21.1) and the Turkish Front (21.2), each on only with its option."""

    # -- Baku (21.1) -----------------------------------------------------------------------

    def _baku_options(self, t: MoveArgs) -> list[Word]:
        if self.options.get("baku") != "on" or self.pos.baku_done or t.side != AXIS:
            return []
        out = []
        for uid in self.units_at(BAKU_ENTRY, AXIS):
            if self.c(uid).type in ("panzer", "ss_panzer") and self.u(uid).mp >= 5 and \
                    self.u(uid).mode not in ("strat", "sea", "done", "one"):
                out.append(Word(f"baku {uid}"))
        return out

    def _apply_baku(self, t: MoveArgs, text: str) -> None:
        legal = {w.text for w in self._baku_options(t)}
        if text not in legal:
            raise IllegalAction("only a German Panzer unit in 2434 with 5 MP left may enter "
                                "Baku, once per game, with the Baku option", rule="21.1.1")
        uid = text.split()[1]
        unit = self.u(uid)
        unit.hex = ""
        unit.box = "baku"
        unit.mp = 0
        unit.mode = "done"
        self.pos.baku_done = True
        self._touch()
        self.say(f"{uid} enters the Baku box (21.1)", rule="21.1")
        self._push(Frame("roll-baku", RollArgs("Soviet surrender at Baku: 1-4 surrenders")))

    def _on_baku(self, roll: int) -> None:
        if roll <= 4:
            self._finish(AXIS, f"German Panzers in Baku: the Soviet Union surrenders "
                               f"(rolled {roll})", "Axis Strategic Victory")
        else:
            self.say(f"Baku: no surrender (rolled {roll}); factories will be destroyed",
                     rule="21.1.2")
            self._push(Frame("roll-baku-factories",
                             RollArgs("factories destroyed by the Baku raid")))

    # -- the Turkish Front (21.2) ----------------------------------------------------------

    def _turkey(self) -> None:
        if self.options.get("turkey") != "on" or self.pos.turkey:
            return
        rolls = []
        for uid in sorted(self.on_map(AXIS)):
            if not self.german(uid) or not self.c(uid).is_combat:
                continue
            h = self.u(uid).hex
            south = self.data.area("south_of_turkey_trigger_line")
            if h in south:  # 21.2.1: south of the trigger line 1632-2034
                rolls.append(Frame("roll-turkey", RollArgs(
                    f"Turkish entry ({uid})", unit=uid, supplied=self.in_supply(uid))))
        self._push(*rolls)

    def _on_turkey(self, t: RollArgs, roll: int) -> None:
        if self.pos.turkey:
            return
        if roll <= (3 if t.supplied else 1):
            self.pos.turkey = True
            for uid in ("Tur1", "Tur2"):
                unit = self.u(uid)
                unit.hex = TURKEY_ENTRY
                unit.box = ""
            self._touch()
            self.say(f"Turkey enters the war (21.2, rolled {roll})", rule="21.2.1")
