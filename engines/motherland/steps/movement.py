"""The steps of the Movement and Exploitation Movement Phases (3.1 B, D, E): moves,
overruns, Strategic Movement and Sea Transport (5.0-5.5, 7.0), reinforcements (17.0),
over-stacking (6.0) and the Baku raid (21.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.motherland.args import RollArgs, SideArgs
from engines.motherland.combat import eliminate
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.movement import apply_move, move_options
from engines.motherland.notation import BAKU_FACTORY, ELIMINATE, PLACE, act
from engines.motherland.notation import ending as end_word
from engines.motherland.optional import apply_baku, on_baku
from engines.motherland.overrun import apply_overrun
from engines.motherland.phase_args import HexArgs, MoveArgs, NArgs
from engines.motherland.reinforcements import (
    on_returning,
    place_reinforcement,
    reinf_hexes,
    reinf_leftover,
    reinf_pool,
)
from engines.motherland.stacking import over_limit
from engines.motherland.steps.base import FIRST_LISTED, EndedChoice, GameChoice, GameRoll
from engines.motherland.strategic import apply_ship, apply_strategic
from pbem.engine import Action, Event
from pbem.errors import IllegalAction
from pbem.steps import Flow, Step

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


class MoveChoice(GameChoice):
    """5.0, 5.4: the phasing side moves (its units, overruns, Strategic Movement, Sea
    Transport, the Baku raid) until it ends the phase.  Each kind of move is checked by its
    own rule, so a move along any legal path is taken, not only the one listed."""

    name = "move"
    kind = "movement"
    rule = "5.0"
    Args = MoveArgs
    default_option = 0
    decider_field = "side"
    prompt_template = "the {side} player moves (or ends the phase)"

    def ending_for(self, s: MotherlandState, args: MoveArgs) -> Action | None:
        return end_word(DONE["exploit" if args.exploit else "move"])

    def options(self, s: MotherlandState, args: MoveArgs) -> list[Action]:
        return move_options(s, args)

    def check(self, s: MotherlandState, args: MoveArgs, action: Action) -> None:
        pass  # each kind of move refuses with its own rule (apply)

    def apply(self, s: MotherlandState, args: MoveArgs, action: Action,
              flow: Flow) -> list[Event]:
        exploit, a = args.exploit, act(action)
        if a.kind == "move":
            apply_move(s, a, exploit)
        elif a.kind == "strategic":
            if exploit:
                raise IllegalAction("no Strategic Movement in the Exploitation Movement "
                                    "Phase", rule="5.4.3")
            apply_strategic(s, a)
        elif a.kind == "overrun":
            apply_overrun(s, a, exploit)
        elif a.kind == "ship":
            if exploit:
                raise IllegalAction("no Sea Transport in the Exploitation Movement Phase",
                                    rule="5.4.3")
            apply_ship(s, a)
        elif a.kind == "baku":
            apply_baku(s, args, a)
        else:
            raise IllegalAction(f"{action.notation()!r} is not a movement-phase action",
                                rule="5.0")
        return []


class Reinforcements(EndedChoice):
    """17.0: the phasing side places its reinforcements; those left wait a turn."""

    name = "reinf"
    kind = "reinforcements"
    rule = "17.0"
    done = DONE["reinf"]
    Args = SideArgs
    default_option = 0
    when_empty, auto = "end", True
    decider_field = "side"
    prompt_template = "the {side} player places reinforcements"

    def options(self, s: MotherlandState, args: SideArgs) -> list[Action]:
        opts: list[Action] = []
        for uid in reinf_pool(s, args.side):
            opts += [PLACE(uid, h) for h in reinf_hexes(s, uid)]
        return [*opts, self.ended()]

    def end(self, s: MotherlandState, args: SideArgs, flow: Flow) -> list[Event]:
        flow.end()
        reinf_leftover(s, args.side)
        return []

    def apply(self, s: MotherlandState, args: SideArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        place_reinforcement(s, a.text("unit"), a.text("hex"))
        return []


class ReturningRoll(GameRoll):
    name, rule = "roll-returning", "17.1.4"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_returning(s, args, roll)


class Overstacked(GameChoice):
    """6.0: the opponent eliminates the units over the stacking limit."""

    name = "stack"
    kind = "stacking"
    rule = "6.0"
    order = f"eliminate the opponent's excess units: {FIRST_LISTED}"
    Args = HexArgs
    default_option = 0
    when_empty, auto = "end", True
    decider_field = "side"
    prompt_template = "the {side} player eliminates the opponent's excess units at {hex}"

    def options(self, s: MotherlandState, args: HexArgs) -> list[Action]:
        return [ELIMINATE(x) for x in over_limit(s, args.hex)]

    def apply(self, s: MotherlandState, args: HexArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        eliminate(s, a.text("unit"), "over the stacking limit, chosen by the opponent (6.0)")
        if not over_limit(s, args.hex):
            flow.end()
        return []


class BakuRoll(GameRoll):
    name, rule = "roll-baku", "21.1.2"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_baku(s, roll)


class BakuFactoriesRoll(GameRoll):
    name, rule = "roll-baku-factories", "21.1.2"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        s.queue("baku_factories", NArgs(roll), first=True)


class BakuFactories(GameChoice):
    """21.1.2: the Axis picks the factories the Baku raid destroys."""

    name = "baku_factories"
    kind = "baku-factories"
    rule = "21.1.2"
    Args = NArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Axis player picks factories destroyed"

    decider = AXIS

    def options(self, s: MotherlandState, args: NArgs) -> list[Action]:
        return [BAKU_FACTORY(x) for x in sorted(s.on_map(SOVIET))
                if s.c(x).asset == "factory"]

    def apply(self, s: MotherlandState, args: NArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        eliminate(s, a.text("unit"), "destroyed by the Baku raid (21.1.2)")
        args.n -= 1
        if args.n <= 0:
            flow.end()
        return []


#: the steps this module makes (the table's, engines.motherland.steps.STEPS)
STEPS: tuple[Step[Any], ...] = (
    MoveChoice(), Reinforcements(), ReturningRoll(), Overstacked(), BakuRoll(),
    BakuFactoriesRoll(), BakuFactories(),
)
