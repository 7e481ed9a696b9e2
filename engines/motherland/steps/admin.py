"""The steps of the Administrative Phase (3.1 G; 12.0, 15.0, 17.2, 21.2) and of the game's
end (16.6, 20.2): conversions, Kampfgruppen, replacements, production, evacuation,
Turkey, Stalin and the sudden-death rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.admin import evacuable, evacuate, on_production, produce, produce_hexes
from engines.motherland.args import ReplaceArgs, RollArgs, UnitArgs
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.notation import EVACUATE, PRODUCE, ending
from engines.motherland.optional import on_turkey
from engines.motherland.reinforcements import (
    combine,
    combine_options,
    convert,
    convert_options,
    replace,
    replace_options,
)
from engines.motherland.steps.base import MotherlandChoice, MotherlandRoll
from engines.motherland.victory import on_stalin, on_sudden_death, on_surrender
from pbem.engine import Action
from pbem.grammar import Act
from pbem.steps import Flow, NoArgs

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


class TurkeyRoll(MotherlandRoll):
    name, rule = "roll-turkey", "21.2.1"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_turkey(s, args, roll)


class Conversions(MotherlandChoice):
    """17.2: the Soviet player may convert armies to Guards or Shock armies."""

    name = "convert"
    kind = "conversion"
    rule = "17.2"
    done = DONE["convert"]
    forced = "once"
    Args = NoArgs
    #: 17.2.1: a converted unit's new B chit bears on no other conversion (17.2.2 asks for
    #: supply and ZOC only), so the draws may wait until the Soviet player is done
    lets_wait = frozenset({"chits"})
    prompt_template = "the Soviet player may convert armies"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*convert_options(s), ending(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, a: Act, flow: Flow) -> None:
        convert(s, a.text("unit"), a.text("to"))


class Kampfgruppen(MotherlandChoice):
    """15.2: the Axis may combine two Kampfgruppen into a full corps."""

    name = "combine"
    kind = "kampfgruppe"
    rule = "15.2"
    done = DONE["combine"]
    forced = "once"
    Args = NoArgs
    prompt_template = "the Axis player may combine Kampfgruppen"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*combine_options(s), ending(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, a: Act, flow: Flow) -> None:
        combine(s, a.text("unit"), a.text("with"))


class Replacements(MotherlandChoice):
    """15.1: in a Mud turn the Axis spends its replacement points."""

    name = "replace"
    kind = "replacements"
    rule = "15.1"
    done = DONE["replace"]
    forced = "once"
    Args = ReplaceArgs
    prompt_template = "the Axis player spends replacements (i{i}/p{p})"

    decider = AXIS

    def options(self, s: MotherlandState, args: ReplaceArgs) -> list[Action]:
        return [*replace_options(s, args), ending(self.done)]

    def word(self, s: MotherlandState, args: ReplaceArgs, a: Act, flow: Flow) -> None:
        replace(s, args, a.text("unit"))


class ProductionRoll(MotherlandRoll):
    name, rule = "roll-production", "12.1"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_production(s, roll)


class Production(MotherlandChoice):
    """12.1: the Soviet player places the Offensive Support unit produced."""

    name = "produce"
    kind = "production"
    rule = "12.1"
    forced = "drop"
    Args = UnitArgs
    prompt_template = "the Soviet player places the produced unit"

    decider = SOVIET

    def options(self, s: MotherlandState, args: UnitArgs) -> list[Action]:
        return [PRODUCE(args.unit, h) for h in produce_hexes(s)]

    def word(self, s: MotherlandState, args: UnitArgs, a: Act, flow: Flow) -> None:
        flow.end()
        produce(s, a.text("unit"), a.text("hex"))


class Evacuation(MotherlandChoice):
    """12.2: the Soviet player may evacuate one factory."""

    name = "evacuate"
    kind = "evacuation"
    rule = "12.2"
    done = DONE["evacuate"]
    forced = "once"
    Args = NoArgs
    prompt_template = "the Soviet player may evacuate one factory"

    decider = SOVIET

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*(EVACUATE(x) for x in evacuable(s)), ending(self.done)]

    def word(self, s: MotherlandState, args: NoArgs, a: Act, flow: Flow) -> None:
        flow.end()
        evacuate(s, a.text("unit"))


class SuddenDeathRoll(MotherlandRoll):
    name, rule = "roll-sudden-death", "20.2"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_sudden_death(s, roll)


class StalinRoll(MotherlandRoll):
    name, rule = "roll-stalin", "16.6"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_stalin(s, roll)


class SurrenderRoll(MotherlandRoll):
    name, rule = "roll-surrender", "20.2 rule 4"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_surrender(s, roll)
