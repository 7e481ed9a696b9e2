"""Soviet Strength Chits (11.0) and Generals (16.5): drawing, keeping and returning chits.
"""

from __future__ import annotations

from engines.motherland.actions import Word
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.core import MotherlandCore
from engines.motherland.data import CHIT_TYPES
from engines.motherland.steps import DrawArgs, KeepArgs, UnitsArgs
from pbem.steps import Frame


class ChitMixin(MotherlandCore):
    """Strength Chit draws (11.0) and General chits (16.5)."""

    # -- chits in combat (11.1.1), returned to the cups (11.2) -----------------------------

    def _combat_chits(self, t: UnitsArgs) -> None:
        tasks = []
        for uid in t.units:
            u = self.u(uid)
            if u.hex and not u.chit:
                tasks.append(self._draw_task(uid, 1, "11.1.1"))
        self._push(*[x for x in tasks if x])

    def _draw_task(self, uid: str, count: int, rule: str) -> Frame | None:
        letter = self.c(uid).letter
        cup = self.pos.cups[letter]
        if not cup:
            fallback = self.data.empty_cup[letter]
            unit = self.u(uid)
            unit.chit = fallback
            unit.steps = 2
            self.say(f"Cup {letter} is empty: {uid} takes the stand-in chit {fallback}",
                     rule="11.1")
            return None
        return Frame("draw", DrawArgs(uid, letter, min(count, len(cup)), rule))

    def _on_chits(self, t: DrawArgs, drawn: tuple[str, ...]) -> None:
        uid = t.unit
        cup = self.pos.cups[t.letter]
        for cid in drawn:
            cup.remove(cid)
        if len(drawn) == 1:
            self._give_chit(uid, drawn[0])
            return
        self._push(Frame("keep", KeepArgs(uid, list(drawn))))

    def _keep_chit(self, uid: str, cid: str, drawn: list[str]) -> None:
        """16.5: the chit kept goes to the unit, the other back (or out if starred)."""
        rest = list(drawn)
        rest.remove(cid)
        self._give_chit(uid, cid)
        for other_cid in rest:
            chit = self.data.chits[other_cid]
            if chit.starred:
                self.pos.removed_chits = sorted([*self.pos.removed_chits, other_cid])
            else:
                self.pos.cups[chit.letter] = sorted([*self.pos.cups[chit.letter],
                                                      other_cid])

    def _give_chit(self, uid: str, cid: str) -> None:
        unit = self.u(uid)
        unit.chit = cid
        unit.steps = 2  # 11.3: always the full-strength side
        a, d = self.data.chits[cid].front
        self.say(f"{uid} draws Strength Chit {cid} ({a}-{d})", "info",
                 [self.u(uid).hex], [uid], rule="11.1")
        self._touch()

    def _drop_chit(self, uid: str) -> None:
        """Return a unit's chit to its cup, or out of the game if starred (11.2)."""
        u = self.u(uid)
        cid = u.chit
        if not cid:
            return
        u.chit = ""
        chit = self.data.chits.get(cid)
        if chit is None:
            return
        if chit.starred:
            self.pos.removed_chits = sorted([*self.pos.removed_chits, cid])
        else:
            self.pos.cups[chit.letter] = sorted([*self.pos.cups[chit.letter], cid])

    # -- generals (16.5) and chits ----------------------------------------------------------

    def _generals_ready(self) -> list[str]:
        no_turn = self.sc.rules.get("no_generals_axis_combat_turn")
        if no_turn == self.turn and self.phase() == ("combat", AXIS):
            return []  # 20.5 rule 1
        return [g for g, st in sorted(self.pos.generals.items()) if st == "ready"]

    def _generals_options(self, t: UnitsArgs) -> list[Word]:
        out = []
        for g in self._generals_ready():
            for uid in t.units:
                if not self.u(uid).hex:
                    continue
                if self.u(uid).chit:
                    out.append(Word(f"general {g} replaces chit of {uid}"))
                elif self.pos.cups[self.c(uid).letter]:
                    out.append(Word(f"general {g} for {uid}"))
        return out

    def _apply_general(self, t: UnitsArgs, text: str) -> None:
        parts = text.split()
        g, uid = parts[1], parts[-1]
        self.pos.generals[g] = "used"
        t.units = [x for x in t.units if x != uid]
        if "replaces" in parts:
            self._drop_chit(uid)
            task = self._draw_task(uid, 1, "16.5")
            self.say(f"General {g} replaces the chit of {uid} (16.5)", rule="16.5")
        else:
            task = self._draw_task(uid, 2, "16.5")
            self.say(f"General {g} draws two chits for {uid} (16.5)", rule="16.5")
        if task:
            self._push(task)

    # -- chits in the Administrative Phase (11.1.2, 11.2.1) --------------------------------

    def _admin_chits(self) -> None:
        axis_hexes = {self.u(x).hex for x in self.on_map(AXIS)}
        need = []
        for uid in sorted(self.on_map(SOVIET)):
            if self.c(uid).type not in CHIT_TYPES:
                continue
            near = any(n in axis_hexes for n in self.data.neighbors[self.u(uid).hex])
            if near and not self.u(uid).chit:
                need.append(uid)  # 11.1.2
            elif not near and self.u(uid).chit:
                self._drop_chit(uid)  # 11.2.1
                self.u(uid).steps = 2
        tasks: list[Frame] = []
        if need and self._generals_ready():
            tasks.append(Frame("generals", UnitsArgs(list(need))))  # 16.5
        tasks.append(Frame("admin_draws", UnitsArgs(need)))
        self._push(*tasks)

    def _admin_draws(self, t: UnitsArgs) -> None:
        draws = [self._draw_task(uid, 1, "11.1.2") for uid in t.units
                 if self.u(uid).hex and not self.u(uid).chit]
        self._push(*[d for d in draws if d])
