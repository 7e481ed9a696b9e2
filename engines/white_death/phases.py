"""White Death's steps outside an impulse's combat (Rule 5's sequence of play): the turn's
start (Rules 15, 16, 22), an impulse's start and its decision, movement (Rules 3-8, 13,
17, 18, 20, 21.B), barrages (Rule 11.B) and the campaign's setup (Rule 22).

Made with the first of them a command asks for (:class:`pbem.steps.LazyStepTable`, the
table :mod:`engines.white_death.sequence` keeps): a command at a combat step (a fire, an
advance) makes none of these classes (issue 35: importing the engine was 2.1 M
instructions dearer with them).  The turn, the impulse and the combat's steps are
:mod:`engines.white_death.sequence`'s; the combat's decisions
:mod:`engines.white_death.decisions`'.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engines.white_death import supply
from engines.white_death.base import MoveArgs
from engines.white_death.decisions import WDChoice, _Foreign
from engines.white_death.notation import act
from engines.white_death.sequence import WDProcedure, WDRoll
from engines.white_death.supply import _on_airdrop, _supply_points
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Flow, NoArgs

if TYPE_CHECKING:
    from types import ModuleType

    from engines.white_death.state import WDState

#: an action's check by its rule, and its effect
Check = Callable[["WDState", Act], None]
Effect = Callable[["WDState", Act], list[Event]]


# The rules of movement and reinforcements and of barrages (``artillery``) load with the
# first action or listing of their decision, not with the engine: a command in a combat
# phase (a fire, an advance) reads none of them (issue 35: ~4 M instructions of every
# such command). Each decision's kinds of action map to their rule's check and effect,
# made once.

def _rules_of(kinds: Mapping[str, ModuleType]) -> tuple[dict[str, Check], dict[str, Effect]]:
    """Each kind of action's check and effect, ``check_KIND`` and ``do_KIND`` of the rule
    module it names (a hyphen in the kind is an underscore in the function's name)."""
    checks: dict[str, Check] = {}
    effects: dict[str, Effect] = {}
    for kind, module in kinds.items():
        name = kind.replace("-", "_")
        checks[kind] = getattr(module, f"check_{name}")
        effects[kind] = getattr(module, f"do_{name}")
    return checks, effects


@functools.cache
def _movement_rules() -> tuple[dict[str, Check], dict[str, Effect]]:
    from engines.white_death import movement, reinforcements

    return _rules_of({
        "move": movement, "lead": movement, "enter": reinforcements, "deploy": movement,
        "entrain": movement, "rail": movement, "assault": movement, "build": movement,
        "demolish": movement, "replace": reinforcements, "repair": reinforcements,
        "refit": reinforcements, "end-movement": movement})


@functools.cache
def _barrage_rules() -> tuple[dict[str, Check], dict[str, Effect]]:
    from engines.white_death import artillery

    return _rules_of(dict.fromkeys(
        ("barrage", "fire-barrage", "fire-barrage-half", "end-barrage"), artillery))



class Setup(WDChoice):
    """Campaign setup (Rule 22): the German player sets up, then the Soviet, one unit of
    the raster at a time (any unit still waiting is accepted), or all at once."""

    name, rule, kind = "setup", "Campaign setup", "setup"
    phase = "setup"
    default_action = act("auto-setup")

    def check_action(self, s: WDState, a: Act) -> None:
        # the set-up's module loads with the Campaign's set-up alone: no other step of
        # any scenario reads it (issue 35: a turn command's import)
        from engines.white_death import placement

        match a.kind:
            case "place":
                placement.check_place(s, a)
            case "auto-setup":
                placement.check_auto_setup(s, a)
            case _:
                raise _Foreign

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        from engines.white_death import placement

        match a.kind:
            case "place":
                return placement.do_place(s, a)
            case "auto-setup":
                return placement.do_auto_setup(s, a)
        raise self.not_now(s, a)

    def side(self, s: WDState, args: Any) -> str:
        return s.pos.setup_side

    def prompt(self, s: WDState, args: Any) -> str:
        nxt = s.pos.setup_raster[0] if s.pos.setup_raster else ""
        return (f"the {s.pos.setup_side.capitalize()} player must set up {nxt} "
                f"({len(s.pos.setup_raster)} units left to place)")

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        from engines.white_death import placement

        return placement._setup_candidates(s)

    def after(self, s: WDState, args: Any, a: Act, flow: Flow) -> None:
        if not s.pos.setup_raster:
            flow.goto("turn")


class VLSupply(WDChoice):
    """Rule 15.D.2: the German may spend a Velikiye Luki point against isolation."""

    name, rule, kind = "vl-supply", "Rule 15.D.2", "vl-supply"
    phase = "vl-supply"
    decider = "german"
    default_action = act("vl-keep")
    prompt_template = ("the German player may spend one of Velikiye Luki's {pos.supply[vl]} "
                       "supply points to keep the cut-off city out of isolation this turn "
                       "(turn {pos.turn})")

    def check_action(self, s: WDState, a: Act) -> None:
        match a.kind:
            case "vl-supply":
                supply.check_vl_supply(s, a)
            case "vl-keep":
                supply.check_vl_keep(s, a)
            case _:
                raise _Foreign

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        match a.kind:
            case "vl-supply":
                return supply.do_vl_supply(s, a)
            case "vl-keep":
                return supply.do_vl_keep(s, a)
        raise self.not_now(s, a)

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        return [act("vl-supply"), act("vl-keep")]

    def after(self, s: WDState, args: Any, a: Act, flow: Flow) -> None:
        flow.end()


class ImpulseDecision(WDChoice):
    name, rule, kind = "impulse-decision", "Rule 5", "impulse-mps"
    phase = "decision"

    def check_action(self, s: WDState, a: Act) -> None:
        match a.kind:
            case "impulse":
                from engines.white_death import turns  # here: a combat phase never asks

                turns.check_impulse(s, a)
            case _:
                raise _Foreign

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        match a.kind:
            case "impulse":
                from engines.white_death import turns

                return turns.do_impulse(s, a)
        raise self.not_now(s, a)

    def prompt(self, s: WDState, args: Any) -> str:
        side = s.pos.phasing
        return (f"the {side.capitalize()} player must decide how many of his {s.pos.mps[side]} "
                f"movement points to spend in this impulse (turn {s.pos.turn})")

    def default(self, s: WDState, args: Any) -> Action | None:
        return act("impulse", n=s.pos.mps[s.pos.phasing])

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        from engines.white_death import turns

        return turns._impulse_candidates(s, s.pos.phasing)

    def after(self, s: WDState, args: Any, a: Act, flow: Flow) -> None:
        flow.end()


class Movement(WDChoice):
    """Rules 3-8, 13, 17, 18, 20, 21.B: moves, assault declarations and the rest, until
    ``end movement``."""

    name, rule, kind = "movement", "Rule 6", "movement"
    phase = "movement"
    prompt_template = ("the {Side} player moves and declares assaults "
                       "({pos.impulse_mp} MPs this impulse)")
    # Rule 4: while a unit must first move on out of a full hex, ending movement is not
    # listed, so the decision has no default (a default must be legal)
    ending = act("end-movement")

    def check_action(self, s: WDState, a: Act) -> None:
        check = _movement_rules()[0].get(a.kind)
        if check is None:
            raise _Foreign
        check(s, a)

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        effect = _movement_rules()[1].get(a.kind)
        if effect is None:
            raise self.not_now(s, a)
        return effect(s, a)

    def options(self, s: WDState, args: Any) -> list[Action]:
        from engines.white_death.listing import movement_legal

        return movement_legal(s)



class BarrageChoice(WDChoice):
    """Rule 11.B: one barrage at a time (assign artillery, fire it), until ``end
    barrage``; played only when the phasing player has deployed barrage artillery."""

    name, rule, kind = "barrage", "Rule 11.B", "barrage"
    phase = "barrage"
    ending = act("end-barrage")
    prompt_template = "the {Side} player may fire barrages"

    def check_action(self, s: WDState, a: Act) -> None:
        check = _barrage_rules()[0].get(a.kind)
        if check is None:
            raise _Foreign
        check(s, a)

    def do_action(self, s: WDState, a: Act) -> list[Event]:
        effect = _barrage_rules()[1].get(a.kind)
        if effect is None:
            raise self.not_now(s, a)
        return effect(s, a)

    def candidates(self, s: WDState, args: Any) -> list[Act]:
        from engines.white_death.artillery import _barrage_candidates

        return _barrage_candidates(s)



class TurnBegins(WDProcedure):
    name, rule = "turn-begins", "Rule 5"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.turns import _start_turn

        flow.end()
        return _start_turn(s)


class Weather(WDRoll):
    name, rule = "weather", "Rule 16"
    Args = NoArgs
    purpose_template = "weather for turn {turn}"
    rule_field = hex_field = ""  # a roll of the turn's: the step's rule, no hex

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.turns import _on_weather

        return _on_weather(s, roll)


class Release(WDRoll):
    name, rule = "release", "Rule 22"
    Args = NoArgs
    purpose_template = "Velikiye Luki garrison release on turn {turn}"
    rule_field = hex_field = ""  # a roll of the turn's: the step's rule, no hex

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.turns import _on_release

        return _on_release(s, roll)


class Supply(WDProcedure):
    """Rule 15: the turn's supply and replacement points; air drops into a cut-off
    Velikiye Luki (15.D.1); the refitted tank brigade ready to return (Rule 18)."""

    name, rule = "supply", "Rule 15"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        flow.end()
        return _supply_points(s)


class Airdrop(WDRoll):
    name, rule = "airdrop", "Rule 15.D.1"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        return _on_airdrop(s, roll)


class StartImpulse(WDProcedure):
    """Rule 17: reinforcements due come ready to enter; the 7th Flieger Division roll
    and the Soviet answer (17.F)."""

    name, rule = "start-impulse", "Rule 17"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.turns import _start_impulse

        flow.end()
        return _start_impulse(s)


class Flieger(WDRoll):
    name, rule = "flieger", "Rule 17.F"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.reinforcements import _on_flieger

        return _on_flieger(s, roll)


class Answer(WDRoll):
    name, rule = "answer", "Rule 17.F"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.reinforcements import _on_answer

        return _on_answer(s, args, roll)


class FinishMove(WDProcedure):
    name, rule = "finish-move", "Rule 3.A"
    Args = MoveArgs

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.movement import _finish_move_after_fire

        flow.end()
        return _finish_move_after_fire(s, args)


class Ice(WDRoll):
    name, rule = "ice", "Rule 13"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.movement import _on_ice

        return _on_ice(s, args, roll)


class Brandenburg(WDRoll):
    name, rule = "brandenburg", "Rule 21.B"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.movement import _on_brandenburg

        return _on_brandenburg(s, args, roll)


class BarrageRoll(WDRoll):
    name, rule = "barrage-roll", "Rule 11.B.2"
    phase = "barrage"

    def then(self, s: WDState, args: Any, roll: int) -> list[Event]:
        from engines.white_death.artillery import _on_barrage

        return _on_barrage(s, args, roll)


class BarrageDone(WDProcedure):
    """Rule 11.B.2.B: a barrage's losses are taken at once."""

    name, rule = "barrage-done", "Rule 11.B.2.B"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.artillery import _barrage_done

        flow.end()
        return _barrage_done(s)


class BarrageEnd(WDProcedure):
    """Rule 11.B.2.B: one morale check per unit on the barrage phase's total loss."""

    name, rule = "barrage-end", "Rule 11.B.2.B"
    phase = "barrage"

    def act(self, s: WDState, args: Any, flow: Flow) -> list[Event]:
        from engines.white_death.artillery import _barrage_morale

        flow.end()
        _barrage_morale(s)
        return []


#: the steps this module makes, in the step table's order (sequence.ELSEWHERE)
STEPS = (
    Setup(), TurnBegins(), Weather(), Release(), Supply(), Airdrop(), VLSupply(),
    StartImpulse(), Flieger(), Answer(), ImpulseDecision(), Movement(), FinishMove(), Ice(),
    Brandenburg(), BarrageChoice(), BarrageRoll(), BarrageDone(), BarrageEnd())


def _made_whole() -> None:
    """Every step is made now: the state's table becomes a plain dict of them, in the
    lazy table's order, whose lookup the runtime makes for every frame it runs (the lazy
    table's own lookup, a Python call, was 10 M instructions of an 800-step replay:
    issue 35)."""
    from engines.white_death import sequence
    from engines.white_death.state import WDState

    ours = {step.name: step for step in STEPS}
    WDState.steps = {name: ours.get(name) or sequence.HERE[name] for name in sequence.STEPS}


_made_whole()
