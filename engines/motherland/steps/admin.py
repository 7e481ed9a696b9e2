"""The steps of the Administrative Phase (3.1 G; 12.0, 15.0, 17.2, 21.2) and of the game's
end (16.6, 20.2): conversions, Kampfgruppen, replacements, production, evacuation,
Turkey, Stalin and the sudden-death rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.motherland.admin import evacuable, evacuate, on_production, produce, produce_hexes
from engines.motherland.args import RollArgs
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.notation import EVACUATE, PRODUCE, act
from engines.motherland.optional import on_turkey
from engines.motherland.phase_args import ReplaceArgs, UnitArgs
from engines.motherland.reinforcements import (
    combine,
    combine_options,
    convert,
    convert_options,
    replace,
    replace_options,
)
from engines.motherland.steps.base import EndedChoice, GameChoice, GameRoll
from engines.motherland.victory import on_stalin, on_sudden_death, on_surrender
from pbem.engine import Action, Event
from pbem.steps import Flow, NoArgs, Step

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


class TurkeyRoll(GameRoll):
    name, rule = "roll-turkey", "21.2.1"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_turkey(s, args, roll)


class Conversions(EndedChoice):
    """17.2: the Soviet player may convert armies to Guards or Shock armies."""

    name = "convert"
    kind = "conversion"
    rule = "17.2"
    done = DONE["convert"]
    Args = NoArgs
    default_option = 0
    when_empty, auto = "end", True
    #: 17.2.1: a converted unit's new B chit bears on no other conversion (17.2.2 asks for
    #: supply and ZOC only), so the draws may wait until the Soviet player is done
    lets_wait = frozenset({"chits"})
    prompt_template = "the Soviet player may convert armies"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*convert_options(s), self.ended()]

    def apply(self, s: MotherlandState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        convert(s, a.text("unit"), a.text("to"))
        return []


class Kampfgruppen(EndedChoice):
    """15.2: the Axis may combine two Kampfgruppen into a full corps."""

    name = "combine"
    kind = "kampfgruppe"
    rule = "15.2"
    done = DONE["combine"]
    Args = NoArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Axis player may combine Kampfgruppen"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*combine_options(s), self.ended()]

    def apply(self, s: MotherlandState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        combine(s, a.text("unit"), a.text("with"))
        return []


class Replacements(EndedChoice):
    """15.1: in a Mud turn the Axis spends its replacement points."""

    name = "replace"
    kind = "replacements"
    rule = "15.1"
    done = DONE["replace"]
    Args = ReplaceArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Axis player spends replacements (i{i}/p{p})"

    decider = AXIS

    def options(self, s: MotherlandState, args: ReplaceArgs) -> list[Action]:
        return [*replace_options(s, args), self.ended()]

    def apply(self, s: MotherlandState, args: ReplaceArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        replace(s, args, a.text("unit"))
        return []


class ProductionRoll(GameRoll):
    name, rule = "roll-production", "12.1"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_production(s, roll)


class Production(GameChoice):
    """12.1: the Soviet player places the Offensive Support unit produced."""

    name = "produce"
    kind = "production"
    rule = "12.1"
    Args = UnitArgs
    default_option = 0
    when_empty = "end"
    prompt_template = "the Soviet player places the produced unit"

    decider = SOVIET

    def options(self, s: MotherlandState, args: UnitArgs) -> list[Action]:
        return [PRODUCE(args.unit, h) for h in produce_hexes(s)]

    def apply(self, s: MotherlandState, args: UnitArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        flow.end()
        produce(s, a.text("unit"), a.text("hex"))
        return []


class Evacuation(EndedChoice):
    """12.2: the Soviet player may evacuate one factory."""

    name = "evacuate"
    kind = "evacuation"
    rule = "12.2"
    done = DONE["evacuate"]
    Args = NoArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Soviet player may evacuate one factory"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*(EVACUATE(x) for x in evacuable(s)), self.ended()]

    def apply(self, s: MotherlandState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        flow.end()
        evacuate(s, a.text("unit"))
        return []


class SuddenDeathRoll(GameRoll):
    name, rule = "roll-sudden-death", "20.2"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_sudden_death(s, roll)


class StalinRoll(GameRoll):
    name, rule = "roll-stalin", "16.6"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_stalin(s, roll)


class SurrenderRoll(GameRoll):
    name, rule = "roll-surrender", "20.2 rule 4"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_surrender(s, roll)


#: the steps this module makes (the table's, engines.motherland.steps.STEPS)
STEPS: tuple[Step[Any], ...] = (
    TurkeyRoll(), Conversions(), Kampfgruppen(), Replacements(), ProductionRoll(),
    Production(), Evacuation(), SuddenDeathRoll(), StalinRoll(), SurrenderRoll(),
)
