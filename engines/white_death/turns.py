"""The turn sequence's rules (Rule 5): what happens as a turn starts, the weather (Rule 16)
and the Velikiye Luki garrison release (Rule 22), impulses alternating, each opened by the
phasing player's decision, and the end of the game with its victory points.  The order
they come in is the sequence of play in :mod:`engines.white_death.sequence`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.data import SIDES
from engines.white_death.notation import act, amount
from engines.white_death.position import Final
from engines.white_death.supply import ezoc
from engines.white_death.terrain import river_at
from pbem.engine import Event
from pbem.errors import IllegalAction, ScenarioError
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


def _start_turn(s: WDState) -> list[Event]:
    s.pos.mps = {"soviet": 10, "german": 10}
    s.pos.impulses = {"soviet": 0, "german": 0}
    s.pos.rail_used = {"soviet": 0, "german": 0}
    s.pos.repaired = {"soviet": False, "german": False}
    s.pos.vl_avoid = False
    return [Event(f"Turn {s.pos.turn} begins", "phase", rule="Rule 5")]


def release_due(s: WDState) -> bool:
    """Rule 22: the Velikiye Luki garrison's release is rolled from turn 2 while held."""
    return s.sc.opening and not s.pos.vl_released and s.pos.turn >= 2


def _on_weather(s: WDState, roll: int) -> list[Event]:
    for a, b, row in s.cat.tables.weather:
        if a <= s.pos.turn <= b:
            s.pos.weather = row[roll - 1]
    return [Event(f"Weather for turn {s.pos.turn}: {s.pos.weather}", "info",
                  rule="Rule 16")]


def _on_release(s: WDState, roll: int) -> list[Event]:
    if rules.garrison_released(s.pos.turn, roll):
        s.pos.vl_released = True
        return [Event("The Velikiye Luki garrison is released (Rule 22)", "info",
                      rule="Rule 22")]
    return [Event("The Velikiye Luki garrison is not released this turn (Rule 22)", "info",
                  rule="Rule 22")]


def _impulse_candidates(s: WDState, side: str) -> list[Act]:
    return [act("impulse", n=k) for k in range(1, s.pos.mps[side] + 1)]


def _start_impulse(s: WDState) -> list[Event]:
    side = s.pos.phasing
    events = [Event(f"Turn {s.pos.turn}: the {side} player's impulse", "phase", rule="Rule 5")]
    for row in s.pos.schedule:
        turn, uid, area = row.turn, row.uid, row.area
        u = s.pos.units[uid]
        if u.loc == "pending" and (turn < s.pos.turn or (
                turn == s.pos.turn and s.pos.impulses[side] >= 1)) \
                and s.side_of(uid) == side:
            u.loc = "raster"
            u.entry = area
            s._relocated()
            events.append(Event(f"{uid} is ready to enter at {area}", "info",
                                visible_to=(side,), rule="Rule 17"))
    if (side == "german" and s.pos.turn == s.cat.flieger_turn and not s.pos.flieger
            and s.sc.turns[0] <= s.pos.turn <= s.sc.turns[1]
            and all(x in s.cat.units for x in s.cat.flieger_single)):
        s.pos.flieger = "rolled"
        s.queue("flieger", DieArgs("7th Flieger Division commitment", "Rule 17.F"))
    if side == "soviet" and s.pos.flieger == "answer-due":
        s.pos.flieger = "answered"
        for units, area, need in s.cat.soviet_answer:
            if need >= 6:
                # the rules of reinforcements load with the first that enters (issue 35:
                # a turn command in any other phase has no use for them)
                from engines.white_death.reinforcements import _reinforce

                _reinforce(s, units, area)
            else:
                s.queue("answer", DieArgs(f"Soviet reserve {units[0].split('/')[-1]} "
                                          f"(received on 1-{need})", "Rule 17.F",
                                          units=tuple(units), area=area, need=need))
    return events


def _end_impulse(s: WDState) -> None:
    """Rule 5: the impulse's marks come off; the other side moves next while it has
    movement points, else this side again; when neither has any the turn is over
    (the Soviet is phasing first in the next, if there is one)."""
    side = s.pos.phasing
    for uid in s.pos.units:
        u = s.pos.units[uid]
        u.assault = ""
        u.marks.clear()
        u.stopped = False
        u.entrained = False
    s.pos.assaults = {}
    s.pos.combat = None
    s.pos.combat_hexes = []
    s.pos.paid = set()
    s.pos.bar = None
    s.pos.advance = {}
    s.pos.counts = {}
    nxt = other(side)
    if s.pos.mps[nxt] > 0:
        s.pos.phasing = nxt
    elif s.pos.mps[side] > 0:
        s.pos.phasing = side
    elif s.pos.turn < s.last_turn:
        s.pos.phasing = "soviet"


def _finish(s: WDState) -> list[Event]:
    score = {"soviet": 0, "german": 0}
    held = {}
    for obj in s.sc.objectives:
        try:
            hexes = s.cat.resolve(obj.place)
        except ScenarioError:
            continue
        present = {s.side_of(x) for h in hexes for x in s.units_at(h)}
        holder = "german" if not present else (present.pop() if len(present) == 1 else "")
        held[obj.place] = holder
        if holder:
            score[holder] += obj.points[holder]
    per = s.cat.tables.points_per_sp
    for side in SIDES:
        score[side] += s.pos.losses[other(side)] // per
    s.pos.final = Final(score, held)
    held_text = ", ".join(f"{k}: {v or 'contested'}" for k, v in held.items())
    text = (f"Soviet {score['soviet']}, German {score['german']} "
            f"(objectives: {held_text};"
            f" strength points lost: Soviet {s.pos.losses['soviet']}, German "
            f"{s.pos.losses['german']})")
    return [Event(f"Game over after turn {s.pos.turn}: {text}", "phase", rule="Victory")]


# ------------------------------------------------------------------ the actions


def check_impulse(s: WDState, a: Act) -> None:
    s._need_phase("decision")
    k, whole = amount(a)
    if whole != 1 or not 1 <= k <= s.pos.mps[s.pos.phasing]:
        raise IllegalAction(f"the {s.pos.phasing} player may spend 1 to "
                            f"{s.pos.mps[s.pos.phasing]} movement points, not {a.text('n')}",
                            rule="Rule 5")


def do_impulse(st: WDState, a: Act) -> list[Event]:
    s = st.pos.phasing
    k = amount(a)[0]  # whole: check_impulse
    st.pos.impulse_left_before = st.pos.mps[s]
    st.pos.impulse_mp = k
    st.pos.mps[s] -= k
    st.pos.impulses[s] += 1
    ez = ezoc(st, s)
    for uid in st.side_units(s):
        u = st.pos.units[uid]
        u.spent = 0
        u.stopped = False
        u.zoc_start = u.loc in ez
        if river_at(st, u.loc) != "river":
            u.via = ""  # in the river it keeps the bank it came from (Rule 16.B)
    for uid in st.pos.units:
        if st.pos.units[uid].loc == "raster" and st.side_of(uid) == s:
            st.pos.units[uid].spent = 0
    return [Event(f"The {s} player spends {k} movement points in this impulse "
                  f"({st.pos.mps[s]} left this turn)", "phase", rule="Rule 5")]
