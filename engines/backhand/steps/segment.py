"""A player segment's phases: the order of the phases and C3I and activity points (4.2
II.C-D), the phases called in that order (4.2 II.E) and the segment's close (13.2).  Its
opening (the Front Markers, administrative movement: 4.2 II.A-B) is steps/opening.py."""

from __future__ import annotations

from engines.backhand.control import update_control
from engines.backhand.data import FRONTS
from engines.backhand.notation import w
from engines.backhand.position import Count, PhaseArgs, PhaseCall, SegState
from engines.backhand.reinforcements import ersatz_pairs
from engines.backhand.state import BBState
from engines.backhand.steps import SideChoice
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal, Roll


class SegC3I(Procedure[BBState]):
    """4.2 II.D: a Schwerpunkt Segment's C3I points buy its activity; the German's after
    a Rochade is declared buys none (8.2: the activity roll with no points); a General
    Segment has neither."""

    name = "seg-c3i"
    rule = "4.2 II.D"
    Args = PhaseArgs

    def run(self, s: BBState, a: PhaseArgs, flow: Flow) -> list[Event]:
        if a.kind != "sp":
            flow.end()
        elif a.side == "german" and s.pos.rochade_now:
            flow.goto("activity", Count(0))
        else:
            flow.goto("c3i", a)
        return []


class Phase(Procedure[BBState]):
    """4.2 II.E: the Movement or the Combat Phase, in the order declared (4.2 II.C)."""

    name = "phase"
    rule = "4.2 II.E"
    Args = PhaseCall

    def run(self, s: BBState, a: PhaseCall, flow: Flow) -> list[Event]:
        flow.goto(a.phase, PhaseArgs(a.side, a.kind))
        return []


class SegClose(Procedure[BBState]):
    """The segment's end."""

    name = "seg-close"
    rule = "4.2"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        for k in s.pos.ap:
            s.pos.ap[k] = 0  # unspent activity points do not carry over (stand-in)
        flow.end()
        return []


class Order(SideChoice):
    """4.2 II.C: declare the order of the Combat and Movement Phases."""

    name = "order"
    kind = "phase-order"
    rule = "4.2 II.C"
    Args = PhaseArgs
    # a Schwerpunkt segment's opening (4.2 II.C-D): inside the side's own file after its
    # administrative movement, but where a segment opens at a handover (turn 1, or a
    # segment with no administrative movement) it ends the other side's file; with both
    # kinds ordered that file runs on to the Activity roll
    order = "Movement Phase first"
    order_policies = (("combat-first", "Combat Phase first"),)

    prompt_template = "declare the order of the phases"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [w("order", "move-first"), w("order", "combat-first")]

    default_action = w("order", "move-first")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        segment_frame(s).first = "move" if action.text("order") == "move-first" else "combat"
        flow.end()
        return [Event(f"phases: {action.text('order')}", "info", rule=self.rule)]


class SpendC3I(SideChoice):
    """4.2 II.D: spend C3I points (zero ends the segment)."""

    name = "c3i"
    kind = "c3i"
    rule = "4.2 II.D"
    Args = PhaseArgs
    # opens the segment with the phase order (4.2 II.C): the same files it ends
    order = "spend two C3I points (all held if fewer)"
    order_policies = (("max", "spend as many as the Activity Table allows (four, or all "
                       "held if fewer)"),)

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"spend C3I points ({s.pos.c3i[a.side]} held)"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        top = min(4, s.pos.c3i[a.side])
        return [w("spend", n) for n in range(top + 1)]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("spend", min(2, s.pos.c3i[a.side]))

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        return Refusal("8.0", f"{s.pos.c3i[a.side]} C3I points held; at most 4 a segment "
                       "(the stand-in Activity Table's columns)")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        n = action.number("n")
        if n == 0:
            s.pos.seg_over = True
            flow.end()
            return [Event("zero C3I points spent: the segment ends", "info", rule=self.rule)]
        s.pos.c3i[a.side] -= n
        flow.goto("activity", Count(n))
        return [Event(f"{a.side} spends {n} C3I", "info", rule=self.rule)]


class Activity(Roll[BBState]):
    """The Activity Table (stand-in): activity points by C3I spent, or the Rochade (8.2)."""

    name = "activity"
    rule = "4.2 II.D"
    Args = Count

    def request(self, s: BBState, a: Count) -> ChanceRequest:
        col = str(a.n) if a.n else "rochade"
        return ChanceRequest.roll(f"Activity Table, column {col}", 6, rule=self.rule)

    def resolve(self, s: BBState, a: Count, outcome: Outcome, flow: Flow) -> list[Event]:
        col = str(a.n) if a.n else "rochade"
        ap = s.data.activity_points(col, int(outcome[0]))
        ev = [Event(f"activity roll {outcome[0]} on column {col}: {ap} activity points",
                    "roll", rule=self.rule)]
        if s.pos.phasing == "german":
            s.pos.ap["german"] = ap
        elif ap % 2 == 0:
            s.pos.ap["southwest"] = s.pos.ap["voronezh"] = ap // 2  # 9.0
        else:
            flow.goto("split", Count(ap))
        return ev


class Split(Choice[BBState]):
    """9.0: an odd number of activity points: the Soviet player picks the front with one
    more."""

    name = "split"
    kind = "split"
    rule = "9.0"
    Args = Count
    decider = "soviet"

    prompt_template = "{n} activity points: which front receives the extra point?"

    def options(self, s: BBState, a: Count) -> list[Action]:
        return [w("extra", f) for f in FRONTS]

    default_action = w("extra", "southwest")

    def apply(self, s: BBState, a: Count, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        f = action.text("front")
        for g in FRONTS:
            s.pos.ap[g] = a.n // 2 + (1 if g == f else 0)
        flow.end()
        return [Event(f"activity points: Southwest {s.pos.ap['southwest']}, Voronezh "
                      f"{s.pos.ap['voronezh']}", "info", rule=self.rule)]


class Ersatz(Choice[BBState]):
    """13.2 Personalersatz: a reduced non-motorized unit flips back by disbanding a
    Variable Reinforcement stacked with it (or both in the boxes)."""

    name = "ersatz"
    kind = "ersatz"
    rule = "13.2"
    decider = "german"

    prompt_template = "Personalersatz: disband a Variable Reinforcement to restore a step"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("ersatz", u, v) for u, v in ersatz_pairs(s)), w("done")]

    default_action = w("done")

    refusal = Refusal("13.2", "a reduced German non-motorized unit (not eliminated) and a "
                      "Variable Reinforcement in the same hex, or both in the boxes")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        u, v = action.text("unit"), action.text("value")
        s.pos.units[u].steps += 1
        s.pos.units[v].at = "out"
        update_control(s)
        return [Event(f"{v} disbanded: {u} regains a step", "reinforce", rule=self.rule)]


def segment_frame(s: BBState) -> SegState:
    """The segment in progress (the innermost ``seg-run`` frame): the phase order declared
    at 4.2 II.C is kept in it, where the games saved so far hold it."""
    for frame in reversed(s.stack):
        if frame.step == "seg-run":
            assert isinstance(frame.args, SegState)
            return frame.args
    raise RuntimeError("no segment in progress (4.2 II.C is declared in one)")


#: this module's steps, which the step table (engines.backhand.sequence.STEPS) makes
#: when the first of them is asked for
STEPS = (SegC3I(), Phase(), SegClose(), Order(), SpendC3I(), Activity(), Split(), Ersatz())
