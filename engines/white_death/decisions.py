"""White Death's decisions (Rule 5's sequence of play): the steps at which a player acts.

Each decision is a :class:`~pbem.steps.Choice` with its rule, deciding side and default;
the actions it takes are checked and applied by the functions of their rule modules
(``check_move``/``do_move`` in ``movement``...), which its ``check_action`` and
``do_action`` name. The rest of the sequence (the turn and the impulse, the procedures
and the dice) is :mod:`engines.white_death.sequence`.  These are the decisions of an
impulse's combat (Rules 9-11.A); the others (the campaign's setup, Velikiye Luki's supply
point, the impulse's and movement's decisions, barrages) are
:mod:`engines.white_death.phases`', made with the first of them asked for (issue 35).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.white_death import assault
from engines.white_death.notation import act, typed
from pbem.engine import Action, Event
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.steps import NON_PHASING, PHASING, Choice, Flow

if TYPE_CHECKING:
    from engines.white_death.state import WDState

@dataclass(frozen=True)
class Stage:
    """Which fire an assault phase step is about: the defender's (``defense``) or the
    assaulting player's (``assault``)."""

    stage: str = "defense"


class _Foreign(Exception):
    """An action the decision at hand does not take (:meth:`WDChoice.not_now` names why)."""


class WDChoice(Choice["WDState"]):
    """A decision: its actions are the phase's candidates that pass their rule's check
    (moves are generated legal), computed once per decision by the runtime's options memo
    (``WDState.memo_options``).  The phasing side decides (Rule 5) unless a step
    declares another; the action that ends a task runs its own rule too (:meth:`end`)."""

    decider = PHASING

    def prompt_fields(self, s: WDState, args: Any) -> Mapping[str, Any]:
        # a prompt begins with the side that decides, capitalized, and reads the position
        # by its fields ("{pos.turn}", "{pos.supply[vl]}")
        return {"Side": self.side(s, args).capitalize(), "pos": s.pos}

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        raise NotImplementedError

    def options(self, s: WDState, args: Any) -> list[Action]:
        # asked through s.options_for: computed once per decision (WDState.memo_options)
        out: list[Action] = []
        for a in self.candidates(s, args):
            if s.pos.passing and a.units() != (s.pos.passing,):
                continue
            if a.kind != "move":
                try:
                    self.check_action(s, a)
                except IllegalAction:
                    continue
            out.append(a)
        return out

    def check(self, s: WDState, args: Any, action: Action) -> None:
        # every action is checked by its own rule, listed or not (a fire of any amount, a
        # setup of any waiting unit, a move along any legal path)
        a = typed(action)
        if s.pos.passing and not (a.kind == "move" and a.text("unit") == s.pos.passing):
            raise IllegalAction(f"{s.pos.passing} must first move on out of the full hex "
                                f"{s.pos.units[s.pos.passing].loc}", rule="Rule 4")
        try:
            self.check_action(s, a)
        except _Foreign:
            raise self.not_now(s, a) from None

    def check_action(self, s: WDState, a: Act) -> None:
        """``a``'s check by its rule (it raises :class:`IllegalAction` naming the rule)."""
        raise NotImplementedError

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        """``a``'s effect by its rule, once checked (where the sequence goes is ``after``)."""
        raise NotImplementedError

    def not_now(self, s: WDState, a: Act) -> IllegalAction:
        """The refusal of an action another decision takes: by that decision's check, so
        under the action's own rule (it names the phase the action belongs to)."""
        for step in s.steps.values():
            if isinstance(step, WDChoice) and step is not self:
                try:
                    step.check_action(s, a)
                except _Foreign:
                    continue
                except IllegalAction as e:
                    return e
        return IllegalAction(f"{a.notation()!r} is not done in the {s.phase} phase",
                             rule="Rule 5")

    def only_option(self, s: WDState, args: Any) -> Action | None:
        # check takes unlisted variants only of a fire's amount, a setup's unit and a
        # move's path: a lone listed action with no unit, hex or amount (end barrage,
        # done firing, end advance) is the only one there is (sealed rules 2, issue 32)
        options = s.options_for(self, args)
        if len(options) != 1:
            return None
        a = typed(options[0])
        return options[0] if not a.values else None

    def apply(self, s: WDState, args: Any, action: Action, flow: Flow) -> list[Event]:
        a = typed(action)
        events = self.do_action(s, a)
        s._changed()
        self.after(s, args, a, flow)
        return events

    def end(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        # ending is a rule's action as well: done firing allocates what is left by the
        # Default Actions (Rule 5)
        ending = self.ending_for(s, args)
        assert ending is not None
        events = self.do_action(s, typed(ending))
        s._changed()
        flow.end()
        return events

    def after(self, s: WDState, args: Any, a: Act, flow: Flow) -> None:
        """Where the sequence goes after ``a`` (by default the decision stays)."""


class Fire(WDChoice):
    """The allocation of fire at the combat's hex (Rules 9.C.3, 10, 11.A, 15.A.4), until
    ``done firing``; what is not allocated is by the Default Actions (stand-in)."""

    Args = Stage
    phase_arg = "stage"
    ending = act("done")

    def check_action(self, s: WDState, a: Act) -> None:
        match a.kind:
            case "hq":
                assault.check_hq(s, a)
            case "high":
                assault.check_high(s, a)
            case "support":
                assault.check_support(s, a)
            case "fire":
                assault.check_fire(s, a)
            case "fire-at":
                assault.check_fire_at(s, a)
            case "done":
                assault.check_done(s, a)
            case _:
                raise _Foreign

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        match a.kind:
            case "hq":
                return assault.do_hq(s, a)
            case "high":
                return assault.do_high(s, a)
            case "support":
                return assault.do_support(s, a)
            case "fire":
                return assault.do_fire(s, a)
            case "fire-at":
                return assault.do_fire_at(s, a)
            case "done":
                return assault.do_done(s, a)
        raise self.not_now(s, a)

    def prompt(self, s: WDState, args: Any) -> str:
        n = len(s.pos.assaults)
        what = "defensive fire" if args.stage == "defense" else "assault fire"
        at = s.pos.combat.hex if s.pos.combat is not None else ""
        return (f"the {self.side(s, args).capitalize()} player must allocate {what} against "
                f"{n} assault{'s' if n != 1 else ''} (now at {at})")

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        return assault._combat_candidates(s)

    def options(self, s: WDState, args: Any) -> list[Action]:
        # Rule 9.C.3's pools worked out once for the listing (assault.pools_kept)
        assault.pools_kept(s)
        try:
            return super().options(s, args)
        finally:
            s._cache.pop(assault.POOLS, None)



class DefensiveFire(Fire):
    name, rule, kind = "defensive-fire", "Rule 5", "defensive-fire"
    # the manual's "Default Actions": fire not allocated is allocated automatically (no
    # artillery); the defender's fire is the one decision inside the other side's impulse
    order = "defensive fire allocated automatically (the manual's Default Actions; no artillery)"
    decider = NON_PHASING


class AssaultFire(Fire):
    name, rule, kind = "assault-fire", "Rule 9", "assault-fire"


class Advance(WDChoice):
    name, rule, kind = "advance", "Rule 9.D", "advance"
    phase = "advance"
    ending = act("end-advance")

    def check_action(self, s: WDState, a: Act) -> None:
        match a.kind:
            case "advance":
                assault.check_advance(s, a)
            case "end-advance":
                assault.check_end_advance(s, a)
            case _:
                raise _Foreign

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        match a.kind:
            case "advance":
                return assault.do_advance(s, a)
            case "end-advance":
                return assault.do_end_advance(s, a)
        raise self.not_now(s, a)

    def prompt(self, s: WDState, args: Any) -> str:
        return (f"the {s.pos.phasing.capitalize()} player may advance into "
                f"{', '.join(sorted(s.pos.advance))}")

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        return assault._advance_candidates(s)

    def after(self, s: WDState, args: Any, a: Act, flow: Flow) -> None:
        if not s.pos.advance:
            flow.end()
