"""The Administrative Segment's steps from game turn 7 on: the Rochade (8.2) and the
Frontnahe Auffrischung (13.1).  Their own module, made by the step table
(engines.backhand.sequence.STEPS) with the first of them asked for: a turn before the
7th never runs them, and every command of one loaded them with the rest of the
Administrative Segment, three step classes made for nothing (issue 35)."""

from __future__ import annotations

from engines.backhand.notation import w
from engines.backhand.reinforcements import apply_refits, refit_places
from engines.backhand.state import BBState
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal


class Rochade(Choice[BBState]):
    """8.2: from turn 7, once, on a Frozen turn."""

    name = "rochade"
    kind = "rochade"
    rule = "8.2"
    decider = "german"
    # after the weather roll: with sealed dice the Soviet resolves that roll in a file of
    # its own, which stops at this German decision
    order = "no Rochade"
    order_policies = (("declare", "declare the Rochade at the first turn it is allowed"),)

    prompt_template = "declare the Rochade this game turn?"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [w("rochade"), w("no-rochade")]

    default_action = w("no-rochade")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        flow.end()
        if action == w("rochade"):
            s.pos.rochade_used = s.pos.rochade_now = True
            return [Event("the German player declares the Rochade", "info", rule=self.rule)]
        return []


class RefitPay(Procedure[BBState]):
    """13.1: the markers placed in the last game turn's Administrative Segment give their
    steps now ("during the Administrative Segment of the next game turn"), before this
    turn's markers are placed (the markers are free again for them)."""

    name = "refit-pay"
    rule = "13.1"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        ev = apply_refits(s)
        flow.goto("refit")
        return ev


class Refit(Choice[BBState]):
    """13.1: place this turn's Frontnahe Auffrischung markers; their steps come next
    turn (RefitPay)."""

    name = "refit"
    kind = "refit"
    rule = "13.1"
    decider = "german"
    order = "place no Frontnahe Auffrischung marker"
    order_policies = (("first", "the markers on the first eligible formations, by id"),)

    prompt_template = "place the Frontnahe Auffrischung markers"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("refit", fid, h) for _, fid, h in refit_places(s)), w("done")]

    default_action = w("done")

    refusal = Refusal("13.1", "one Heer and one Waffen-SS marker a turn, on the units of a "
                      "motorized formation in one hex (or box), In Supply and not adjacent "
                      "to an enemy unit")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        fid, h = action.text("unit"), action.text("to")
        marker = "ss" if s.data.formations[fid].ss else "heer"
        s.pos.refit_marks[marker] = f"{fid}@{h}"
        here = [u for u in s.data.formations[fid].members if s.pos.units[u].at == h]
        for u in here:
            s.pos.units[u].refit = True  # neither moves nor attacks this turn
        return [Event(f"Frontnahe Auffrischung marker ({marker}) on {fid} in {h}: "
                      f"{', '.join(here)}; the steps come next game turn", "info",
                      rule=self.rule, units=tuple(here))]


#: this module's steps, which the step table (engines.backhand.sequence.STEPS) makes
#: when the first of them is asked for
STEPS = (Rochade(), RefitPay(), Refit())
