"""The steps of the Combat Phase (3.1 C, F; 8.0) once an attack is declared: Generals and
Strength Chits (16.5, 11.1), the die roll (8.2), and results taken as steps (8.5).  Attacks
declared, retreats and advances after combat are ``steps/attack.py``'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.motherland.args import RollArgs
from engines.motherland.const import DONE, SOVIET
from engines.motherland.notation import KEEP, act
from engines.motherland.steps.base import (
    FIRST_LISTED,
    CombatArgs,
    EndedChoice,
    GameChoice,
    GameRoll,
)
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.steps import Flow, Refusal, Step

# the combat rules (engines.motherland.combat) load where a step first uses them: a
# restored retreat's listing (8.6.1) uses none of them (issue 35: 1 M instructions)

if TYPE_CHECKING:
    from engines.motherland.chits import DrawArgs, KeepArgs, UnitsArgs
    from engines.motherland.combat import LoseArgs, TakeArgs
    from engines.motherland.state import MotherlandState


class Generals(EndedChoice):
    """16.5: before chits are drawn the Soviet player may use a General."""

    name = "generals"
    kind = "generals"
    rule = "16.5"
    order = "use no General when chits are drawn in the other side's file"
    done = DONE["generals"]
    Args = CombatArgs("UnitsArgs", "chits")
    default_option = 0
    when_empty, auto = "end", True
    #: 16.5: the Soviet player declares a General "when drawing" a unit's chit, before the
    #: draw; a General's draw tells nothing about the other units, so the draws of the
    #: Generals declared may wait until the Soviet player has declared them all
    lets_wait = frozenset({"chits"})
    prompt_template = "the Soviet player may use a General before the chits are drawn"

    decider = SOVIET

    def may_wait(self, s: MotherlandState, args: UnitsArgs, batches: frozenset[str]) -> bool:
        # only while every cup holds more than the waiting draws take: the options (a
        # General only where the cup has a chit) are then those of the cups as drawn
        taken: dict[str, int] = {}
        for f in s.parked:
            taken[f.args.letter] = taken.get(f.args.letter, 0) + f.args.count
        return batches <= self.lets_wait and all(
            len(s.pos.cups[letter]) > n for letter, n in taken.items())

    def options(self, s: MotherlandState, args: UnitsArgs) -> list[Action]:
        from engines.motherland.chits import generals_options

        return [*generals_options(s, args), self.ended()]

    def apply(self, s: MotherlandState, args: UnitsArgs, action: Action,
              flow: Flow) -> list[Event]:
        from engines.motherland.chits import apply_general

        apply_general(s, args, act(action))
        return []


class KeepChit(GameChoice):
    """16.5: of a General's two chits the Soviet player keeps one."""

    name = "keep"
    kind = "chit-choice"
    rule = "16.5"
    order = f"which of a General's two chits to keep: {FIRST_LISTED}"
    Args = CombatArgs("KeepArgs", "chits")
    default_option = 0
    when_empty = "end"
    prompt_template = "the Soviet player keeps one of two chits for {unit}"

    decider = SOVIET

    def options(self, s: MotherlandState, args: KeepArgs) -> list[Action]:
        return [KEEP(cid, args.unit) for cid in sorted(set(args.drawn))]

    def apply(self, s: MotherlandState, args: KeepArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        flow.end()
        from engines.motherland.chits import keep_chit

        keep_chit(s, a.text("unit"), a.text("chit"), args.drawn)
        return []


class DrawChits(GameRoll):
    """11.1, 16.5: Strength Chits drawn from a cup as it is when the draw comes up
    (earlier draws may have emptied it; an empty cup gives the stand-in chit)."""

    name = "draw"
    rule = "11.1"
    Args = CombatArgs("DrawArgs", "chits")
    #: sealed dice (issue 21): a draw may wait where the steps below say the rules let it
    #: (Conversions 17.2.1, Generals 16.5); anywhere else it is drawn before play goes on
    batch = "chits"

    def request(self, s: MotherlandState, args: DrawArgs) -> ChanceRequest:
        return ChanceRequest.draw(
            f"strength chit for {args.unit} at {s.u(args.unit).hex}", cup=args.letter,
            contents=tuple(s.pos.cups[args.letter]), count=args.count, rule=args.rule)

    def resolve(self, s: MotherlandState, args: DrawArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        from engines.motherland.chits import on_chits

        on_chits(s, args, tuple(str(x) for x in outcome))
        return []

    def settle(self, s: MotherlandState, args: DrawArgs, flow: Flow) -> list[Event] | None:
        uid, cup = args.unit, s.pos.cups[args.letter]
        if not s.u(uid).hex or (s.u(uid).chit and args.rule != "16.5"):
            flow.end()
            return []
        if not cup:
            flow.end()
            fallback = s.data.empty_cup[args.letter]
            unit = s.u(uid)
            unit.chit = fallback
            unit.steps = 2
            s.tell(Event(f"Cup {args.letter} is empty: {uid} takes the stand-in chit {fallback}",
                         rule="11.1"))
            return []
        args.count = min(args.count, len(cup))
        return None


class CrtRoll(GameRoll):
    name, rule = "roll-crt", "8.2"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        from engines.motherland.combat import on_crt

        on_crt(s, roll)


class TakeResult(GameChoice):
    """8.5: the side hit takes a result as step losses and hexes of retreat (by default
    retreating where possible)."""

    name = "take"
    kind = "result-choice"
    rule = "8.5"
    order = ("take a combat result as retreats where possible, step losses for the "
             "rest")
    order_policies = (("losses", "as step losses where possible, retreats for the rest "
                                 "(holding the ground)"),)
    Args = CombatArgs("TakeArgs", "combat")
    #: retreats where possible (8.5): the options run from all losses to all retreats
    default_option = -1
    #: a sole way to take the result is no decision
    auto = True
    decider_field = "side"
    prompt_template = ("the {side} player takes {code} on {units} as step losses and hexes "
                       "of retreat")

    def prompt_fields(self, s: MotherlandState, args: TakeArgs) -> dict[str, str]:
        return {"units": " ".join(args.units)}

    def options(self, s: MotherlandState, args: TakeArgs) -> list[Action]:
        from engines.motherland.combat import take_options

        return take_options(s, args)

    def why_not(self, s: MotherlandState, args: TakeArgs, action: Action) -> Refusal:
        from engines.motherland.combat import take_refusal

        return take_refusal(s, args, action)

    def apply(self, s: MotherlandState, args: TakeArgs, action: Action, flow: Flow) -> list[Event]:
        from engines.motherland.combat import apply_take

        apply_take(s, args, act(action), flow)
        return []


class LoseSteps(GameChoice):
    """8.5.1: the owner allocates step losses, each unit losing one before any loses two."""

    name = "lose"
    kind = "step-loss"
    rule = "8.5.1"
    order = f"allocate step losses: {FIRST_LISTED}"
    Args = CombatArgs("LoseArgs", "combat")
    default_option = 0
    when_empty, auto = "end", True
    decider_field = "side"
    prompt_template = "the {side} player allocates {n} step loss(es) among {units}"

    def prompt_fields(self, s: MotherlandState, args: LoseArgs) -> dict[str, str]:
        return {"units": " ".join(args.units)}

    def options(self, s: MotherlandState, args: LoseArgs) -> list[Action]:
        from engines.motherland.combat import lose_options

        return list(lose_options(s, args))

    def apply(self, s: MotherlandState, args: LoseArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        uid = a.text("unit")
        args.taken[uid] = args.taken.get(uid, 0) + 1
        args.n -= 1
        from engines.motherland.combat import lose_step

        lose_step(s, uid, args.why)
        if args.n <= 0:
            flow.end()
        return []


#: the steps this module makes (the table's, engines.motherland.steps.STEPS)
STEPS: tuple[Step[Any], ...] = (
    Generals(), KeepChit(), DrawChits(), CrtRoll(), TakeResult(), LoseSteps(),
)
