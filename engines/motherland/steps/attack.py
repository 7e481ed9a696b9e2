"""The steps of the Combat Phase (3.1 C, F) a side waits at most: attacks declared (8.0),
retreats (8.6.1) and the advances that follow them (8.7).  Apart from the rest of the
phase's steps (``steps/combat.py``): a turn command restores every frame of its stack,
the phase's ``combat`` among them, and loading all nine of the phase's steps for a
listing of attacks or of retreat hexes was 2.1 M instructions of it (issue 35)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.motherland.args import RetreatArgs, SideArgs
from engines.motherland.const import DONE
from engines.motherland.notation import act
from engines.motherland.retreat import (
    advance_options,
    advance_refusal,
    apply_advance,
    retreat,
    retreat_forced,
    retreat_left,
    retreat_options,
    retreat_refusal,
)
from engines.motherland.steps.base import FIRST_LISTED, CombatArgs, EndedChoice, GameChoice
from pbem.engine import Action, Event
from pbem.errors import IllegalAction
from pbem.steps import Flow, Refusal, Step

# the combat rules (engines.motherland.combat) load where a step first uses them: a
# restored retreat's listing (8.6.1) uses none of them (issue 35: 1 M instructions)

if TYPE_CHECKING:
    from engines.motherland.combat_args import AdvanceArgs
    from engines.motherland.state import MotherlandState


class CombatChoice(EndedChoice):
    """8.0: the phasing side declares attacks, one at a time, until it ends the phase."""

    name = "combat"
    kind = "combat"
    rule = "8.0"
    done = DONE["combat"]
    Args = SideArgs
    default_option = 0
    decider_field = "side"
    prompt_template = "the {side} player declares attacks"

    def options(self, s: MotherlandState, args: SideArgs) -> list[Action]:
        from engines.motherland.combat import attack_options

        return [*attack_options(s), self.ended()]

    def check(self, s: MotherlandState, args: SideArgs, action: Action) -> None:
        pass  # an attack is checked rule by rule as it is applied

    def only_option(self, s: MotherlandState, args: SideArgs) -> Action | None:
        # the attacks listed leave out only other groupings of units that can attack a
        # hex (8.0); with none listed no hex can be attacked, and ending the phase is the
        # one option (sealed rules 2, issue 32)
        options = s.options_for(self, args)
        return options[0] if options == [self.ended()] else None

    def apply(self, s: MotherlandState, args: SideArgs, action: Action, flow: Flow) -> list[Event]:
        if act(action).kind == "attack":
            from engines.motherland.combat import apply_attack

            apply_attack(s, act(action))
        else:
            raise IllegalAction(f"{action.notation()!r} is not a combat-phase action",
                                rule="8.0")
        return []


class RetreatChoice(GameChoice):
    """8.6.1: among retreat hexes of equal priority the owner chooses; a unit with none
    takes its retreat as steps (8.5.1), a sole hex is taken without asking.  The rules are
    ``retreat.py``'s: a move is checked once, by the runtime's refusal of what is neither
    listed nor accepted (:func:`retreat_refusal`), and then made."""

    name = "retreat"
    kind = "retreat-choice"
    rule = "8.6.1"
    order = f"among equal-priority retreat hexes: {FIRST_LISTED}"
    Args = RetreatArgs
    default_option = 0
    decider_field = "side"

    def prompt(self, s: MotherlandState, args: RetreatArgs) -> str:
        return (f"the {args.side} player retreats {retreat_left(args)} away from "
                f"{args.center} (equal-priority hexes only)")

    def options(self, s: MotherlandState, args: RetreatArgs) -> list[Action]:
        return retreat_options(s, args)

    def accepts(self, s: MotherlandState, args: RetreatArgs, action: Action) -> bool:
        # a part of a group moving together, which the options leave out (8.6)
        return retreat_refusal(s, args, action) is None

    def check(self, s: MotherlandState, args: RetreatArgs, action: Action) -> None:
        # what the runtime's check does (refuse what is neither listed nor accepted, in
        # the words of why_not), without listing every group's and unit's hexes to look
        # one move up: retreat_refusal accepts each listed move too (the test walks
        # seeded games comparing the two), and an act listed them twice, for its own
        # state and its verifier's (issue 35)
        refusal = retreat_refusal(s, args, action)
        if refusal is not None:
            raise IllegalAction(refusal.text, rule=refusal.rule)

    def why_not(self, s: MotherlandState, args: RetreatArgs, action: Action) -> Refusal:
        refusal = retreat_refusal(s, args, action)
        assert refusal is not None, "a retreat accepted is not refused"
        return refusal

    def apply(self, s: MotherlandState, args: RetreatArgs, action: Action,
              flow: Flow) -> list[Event]:
        retreat(s, args, act(action))
        return []

    def settle(self, s: MotherlandState, args: RetreatArgs,
               flow: Flow) -> list[Event] | None:
        if not retreat_forced(s, args, flow):
            return None
        return []


class AdvanceChoice(EndedChoice):
    """8.7: the winner may advance into the vacated hex (armor a second hex, 8.7.1)."""

    name = "advance"
    kind = "advance"
    rule = "8.7"
    order = ("no advance after combat (8.1 step 5: the defender's own advance when the "
             "attacker retreats or dies)")
    done = DONE["advance"]
    Args = CombatArgs("AdvanceArgs")
    default_option = 0
    when_empty, auto = "end", True
    decider_field = "side"
    prompt_template = "the {side} player may advance up to {n} hex(es) into {first}"

    def prompt_fields(self, s: MotherlandState, args: AdvanceArgs) -> dict[str, str]:
        return {"first": " ".join(args.first)}

    def options(self, s: MotherlandState, args: AdvanceArgs) -> list[Action]:
        return [*advance_options(s, args), self.ended()]

    def why_not(self, s: MotherlandState, args: AdvanceArgs, action: Action) -> Refusal:
        return advance_refusal(action)

    def apply(self, s: MotherlandState, args: AdvanceArgs, action: Action,
              flow: Flow) -> list[Event]:
        assert act(action).kind == "advance"  # the ending word goes to end()
        apply_advance(s, args, act(action))
        return []


STEPS: tuple[Step[Any], ...] = (CombatChoice(), RetreatChoice(), AdvanceChoice())
