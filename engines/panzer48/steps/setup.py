"""48th Panzer Korps: the set-up (9) and the Soviet reinforcement plan (9.1)."""

from __future__ import annotations

from engines.panzer48.notation import COMMIT, PLACE, PLAN, SETUP_DONE, act
from engines.panzer48.reinforcements import (
    digest_of,
    may_set_up,
    open_salt,
    place_defaults,
    plan_formations,
    setup_hexes,
)
from engines.panzer48.state import P48State
from engines.panzer48.victory import update_control
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Refusal


class Setup(Choice[P48State]):
    """9: the German player sets up first, then the Soviet player; each unit may be
    placed anywhere its set-up rule allows (its scenario hex is kept otherwise)."""

    name = "setup"
    kind = "setup"
    rule = "9"
    show = False
    prompt_template = "the {side} player sets up (place units, then setup-done)"
    default_action = SETUP_DONE

    def side(self, s: P48State, args: NoArgs) -> str:
        return s.pos.setup_side

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        out: list[Action] = []
        for u in sorted(s.pos.units):
            x = s.pos.units[u]
            if s.d.units[u].side == s.pos.setup_side and x.where == "map" and not x.placed:
                out += [PLACE(u, h) for h in setup_hexes(s, u)]
        return [*out, SETUP_DONE]

    def check(self, s: P48State, args: NoArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the one unit and hex placed (a received
        file's every placement is checked, and listing every unit's set-up hexes to find
        one cost most of a set-up's replay, issue 35): 'setup-done', or ``place U H``
        for a unit of the side setting up, on the map and not yet placed, and ``H``
        one of its set-up hexes (9)."""
        if isinstance(action, Act) and (action == SETUP_DONE or (
                action.form is PLACE and self._may_place(s, action))):
            return
        super().check(s, args, action)

    def _may_place(self, s: P48State, action: Act) -> bool:
        u, h = action.text("unit"), action.text("hex")
        x = s.pos.units.get(u)
        return (x is not None and action == PLACE(u, h)
                and s.d.units[u].side == s.pos.setup_side and x.where == "map"
                and not x.placed and may_set_up(s, u, h))

    def only_option(self, s: P48State, args: NoArgs) -> Action | None:
        # the runtime's default for a step that takes only what it lists, as this one
        # does (its check above takes nothing more): 'setup-done' when nothing is left
        # to place (sealed rules 2)
        options = s.options_for(self, args)
        return options[0] if len(options) == 1 else None


    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "place":
            return Refusal("9", f"{a.text('unit')} may not set up in {a.text('hex')} "
                           "(personnel on the "
                           "starting front, others within three hexes of their area on "
                           "their own side, weapons never in an enemy ZOC, stacking 6)")
        return f"{action.notation()!r} is not a set-up action"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        if a.kind == "place":
            u, h = a.text("unit"), a.text("hex")
            x = s.pos.units[u]
            x.hex, x.placed = h, True
            return [Event(f"{u} sets up in {h}", "move", hexes=(h,), rule="9")]
        if s.pos.setup_side == "german":
            s.pos.setup_side = "soviet"
            # 9: the Soviet units default to their hexes only now, clear of the German ZOC
            place_defaults(s, "soviet")
            return [Event("the German set-up is done", "phase", rule="9")]
        s.pos.phase = "plan" if plan_formations(s) else "turns"
        update_control(s)
        flow.end()
        return [Event("the Soviet set-up is done", "phase", rule="9")]


class Plan(Choice[P48State]):
    """9.1: the Soviet player writes down a turn and an area for each reinforcing
    formation before play; the turn is announced, the area committed (Commitment)."""

    name = "plan"
    kind = "reinforcement-plan"
    rule = "9.1"
    decider = "soviet"
    default_option = 0

    def next(self, s: P48State) -> str:
        return next(f for f in plan_formations(s) if f not in s.pos.plan_turns)

    def prompt(self, s: P48State, args: NoArgs) -> str:
        f = self.next(s)
        return (f"the Soviet player plans the {s.d.formations[f].name}: a turn and an "
                "area (the area stays secret until that turn)")

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        f = self.next(s)
        return [PLAN(f, t, area)
                for area, earliest in s.d.formations[f].schedule
                for t in range(earliest, s.pos.last_turn + 1)]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind in ("plan", "commit"):
            if a.text("force") in s.pos.plan_turns:
                return Refusal("9.1", f"the {a.text('force')} plan is already committed: a "
                               "plan may not be changed")
            return Refusal("9.1", f"{action.notation()!r}: plan the formations in order, "
                           "each for an area on the schedule, no earlier than its turn")
        return "plan the reinforcements"

    def accepts(self, s: P48State, args: NoArgs, action: Action) -> bool:
        """The committed form (what a session writes): ``commit F TURN DIGEST``."""
        a = act(action)
        if a.form is not COMMIT:
            return False
        f, digest = a.text("force"), a.text("digest")
        if f in s.pos.plan_turns or f != self.next(s):
            return False
        turns = {t for _, e in s.d.formations[f].schedule
                 for t in range(e, s.pos.last_turn + 1)}
        return a.number("turn") in turns and len(digest) == 64 and all(
            ch in "0123456789abcdef" for ch in digest)

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        f, turn = a.text("force"), a.number("turn")
        dig = (a.text("digest") if a.kind == "commit"
               else digest_of(f, a.text("area"), open_salt(f)))
        s.pos.plan_turns[f] = turn
        s.pos.plan_digests[f] = dig
        if set(s.pos.plan_turns) >= set(plan_formations(s)):
            s.pos.phase = "turns"
            flow.end()
        return [Event(f"the {s.d.formations[f].name} will arrive on turn {turn} "
                      f"(area committed: {dig[:16]}...)", "commit", rule="9.1")]


#: this module's steps, which the step table (engines.panzer48.sequence.STEPS) makes
#: when one of them is first asked for
STEPS = (Setup(), Plan())
