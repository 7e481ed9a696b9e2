"""The turn sequence's rules (Rule 5): what happens as a turn starts, the weather (Rule 16)
and the Velikiye Luki garrison release (Rule 22), impulses alternating, each opened by the
phasing player's decision, and the end of the game with its victory points.  The order
they come in is the sequence of play in :mod:`engines.white_death.sequence`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.actions import WDAction, act
from engines.white_death.base import other
from engines.white_death.data import SIDES
from engines.white_death.position import Final
from engines.white_death.reinforcements import ReinforcementState
from pbem.engine import Event, Result
from pbem.errors import IllegalAction, ScenarioError

if TYPE_CHECKING:
    from engines.white_death.state import WDState


class TurnState(ReinforcementState):
    """Turns, impulses and the end of the game (Rule 5)."""

    # ------------------------------------------------------------------ turn

    def _start_turn(self) -> list[Event]:
        self.pos.mps = {"soviet": 10, "german": 10}
        self.pos.impulses = {"soviet": 0, "german": 0}
        self.pos.rail_used = {"soviet": 0, "german": 0}
        self.pos.repaired = {"soviet": False, "german": False}
        self.pos.vl_avoid = False
        return [Event(f"Turn {self.pos.turn} begins", "phase", rule="Rule 5")]

    def release_due(self) -> bool:
        """Rule 22: the Velikiye Luki garrison's release is rolled from turn 2 while held."""
        return self.sc.opening and not self.pos.vl_released and self.pos.turn >= 2

    def _on_weather(self, roll: int) -> list[Event]:
        for a, b, row in self.cat.tables.weather:
            if a <= self.pos.turn <= b:
                self.pos.weather = row[roll - 1]
        return [Event(f"Weather for turn {self.pos.turn}: {self.pos.weather}", "info",
                      rule="Rule 16")]

    def _on_release(self, roll: int) -> list[Event]:
        if rules.garrison_released(self.pos.turn, roll):
            self.pos.vl_released = True
            return [Event("The Velikiye Luki garrison is released (Rule 22)", "info",
                          rule="Rule 22")]
        return [Event("The Velikiye Luki garrison is not released this turn (Rule 22)", "info",
                      rule="Rule 22")]

    # ------------------------------------------------------------------ impulses

    def _impulse_candidates(self, side: str) -> list[WDAction]:
        return [act("impulse", n=k) for k in range(1, self.pos.mps[side] + 1)]

    def _start_impulse(self) -> list[Event]:
        s = self.pos.phasing
        events = [Event(f"Turn {self.pos.turn}: the {s} player's impulse", "phase", rule="Rule 5")]
        for row in self.pos.schedule:
            turn, uid, area = row.turn, row.uid, row.area
            u = self.pos.units[uid]
            if u.loc == "pending" and (turn < self.pos.turn or (
                    turn == self.pos.turn and self.pos.impulses[s] >= 1)) \
                    and self.side_of(uid) == s:
                u.loc = "raster"
                u.entry = area
                self._relocated()
                events.append(Event(f"{uid} is ready to enter at {area}", "info",
                                    visible_to=(s,), rule="Rule 17"))
        if (s == "german" and self.pos.turn == self.cat.flieger_turn and not self.pos.flieger
                and self.sc.turns[0] <= self.pos.turn <= self.sc.turns[1]
                and all(x in self.cat.units for x in self.cat.flieger_single)):
            self.pos.flieger = "rolled"
            self._die("flieger", "7th Flieger Division commitment", "Rule 17.F")
        if s == "soviet" and self.pos.flieger == "answer-due":
            self.pos.flieger = "answered"
            for units, area, need in self.cat.soviet_answer:
                if need >= 6:
                    self._reinforce(units, area)
                else:
                    self._die("answer", f"Soviet reserve {units[0].split('/')[-1]} "
                              f"(received on 1-{need})", "Rule 17.F", units=tuple(units),
                              area=area, need=need)
        return events

    def _end_impulse(self) -> None:
        """Rule 5: the impulse's marks come off; the other side moves next while it has
        movement points, else this side again; when neither has any the turn is over
        (the Soviet is phasing first in the next, if there is one)."""
        s = self.pos.phasing
        for uid in self.pos.units:
            u = self.pos.units[uid]
            u.assault = ""
            u.marks.clear()
            u.stopped = False
            u.entrained = False
        self.pos.assaults = {}
        self.pos.combat = None
        self.pos.combat_hexes = []
        self.pos.paid = set()
        self.pos.bar = None
        self.pos.advance = {}
        self.pos.counts = {}
        nxt = other(s)
        if self.pos.mps[nxt] > 0:
            self.pos.phasing = nxt
        elif self.pos.mps[s] > 0:
            self.pos.phasing = s
        elif self.pos.turn < self.last_turn:
            self.pos.phasing = "soviet"

    # ------------------------------------------------------------------ end of the game

    def _finish(self) -> list[Event]:
        score = {"soviet": 0, "german": 0}
        held = {}
        for obj in self.sc.objectives:
            try:
                hexes = self.cat.resolve(obj.place)
            except ScenarioError:
                continue
            present = {self.side_of(x) for h in hexes for x in self.units_at(h)}
            holder = "german" if not present else (present.pop() if len(present) == 1 else "")
            held[obj.place] = holder
            if holder:
                score[holder] += obj.points[holder]
        per = self.cat.tables.points_per_sp
        for s in SIDES:
            score[s] += self.pos.losses[other(s)] // per
        self.pos.final = Final(score, held)
        held_text = ", ".join(f"{k}: {v or 'contested'}" for k, v in held.items())
        text = (f"Soviet {score['soviet']}, German {score['german']} "
                f"(objectives: {held_text};"
                f" strength points lost: Soviet {self.pos.losses['soviet']}, German "
                f"{self.pos.losses['german']})")
        return [Event(f"Game over after turn {self.pos.turn}: {text}", "phase", rule="Victory")]

    def _result(self) -> Result | None:
        if self.pos.final is None:
            return None
        score = self.pos.final.score
        s, g = score["soviet"], score["german"]
        text = f"Soviet {s}, German {g} (stand-in victory points)"
        if s == g:
            return Result(None, "rules", "Draw: " + text, f"{s}-{g}")
        winner = "soviet" if s > g else "german"
        return Result(winner, "rules", f"{winner.capitalize()} victory: " + text, f"{s}-{g}")


# ------------------------------------------------------------------ the actions


def check_impulse(s: WDState, a: WDAction) -> None:
    s._need_phase("decision")
    k = int(a.amount)
    if a.amount.denominator != 1 or not 1 <= k <= s.pos.mps[s.pos.phasing]:
        raise IllegalAction(f"the {s.pos.phasing} player may spend 1 to "
                            f"{s.pos.mps[s.pos.phasing]} movement points, not {a.n}",
                            rule="Rule 5")


def do_impulse(st: WDState, a: WDAction) -> list[Event]:
    s = st.pos.phasing
    k = int(a.amount)
    st.pos.impulse_left_before = st.pos.mps[s]
    st.pos.impulse_mp = k
    st.pos.mps[s] -= k
    st.pos.impulses[s] += 1
    ez = st.ezoc(s)
    for uid in st.side_units(s):
        u = st.pos.units[uid]
        u.spent = 0
        u.stopped = False
        u.zoc_start = u.loc in ez
        if st.river_at(u.loc) != "river":
            u.via = ""  # in the river it keeps the bank it came from (Rule 16.B)
    for uid in st.pos.units:
        if st.pos.units[uid].loc == "raster" and st.side_of(uid) == s:
            st.pos.units[uid].spent = 0
    return [Event(f"The {s} player spends {k} movement points in this impulse "
                  f"({st.pos.mps[s]} left this turn)", "phase", rule="Rule 5")]
