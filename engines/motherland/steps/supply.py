"""The steps of the Mutual Supply Phase (3.1 A; 9.0, 10.0, 14.2): Supply Bases expended,
Air Supply, Partisans and isolation attrition."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.motherland.args import RollArgs
from engines.motherland.combat import lose_step
from engines.motherland.const import AXIS, DONE, SOVIET
from engines.motherland.notation import (
    AIR_SUPPLY,
    EXPEND,
    ISOLATION_LOSS,
    OUT_OF_SUPPLY,
    PARTISAN,
    act,
)
from engines.motherland.partisans import (
    base_hexes,
    on_partisan,
    partisan_moves,
    partisan_targets,
)
from engines.motherland.phase_args import CountArgs, PlaceArgs
from engines.motherland.steps.base import FIRST_LISTED, EndedChoice, GameChoice, GameRoll
from engines.motherland.supply import (
    air_available,
    air_supply,
    expend,
    expendable,
    in_air_range,
    isolated,
    on_isolation,
)
from pbem.engine import Action, Event
from pbem.steps import Flow, NoArgs, Step

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


class ExpendBases(EndedChoice):
    """9.3.4: the Axis may expend Supply Bases off the railroad net."""

    name = "expend"
    kind = "expend-base"
    rule = "9.3.4"
    done = DONE["expend"]
    Args = NoArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Axis player may expend Supply Bases"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        return [*(EXPEND(x) for x in expendable(s)), self.ended()]

    def apply(self, s: MotherlandState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        expend(s, a.text("unit"))
        return []


class AirSupply(EndedChoice):
    """14.2: the Axis may fly Air Supply to German units Out of Supply in range."""

    name = "airsupply"
    kind = "air-supply"
    rule = "14.2"
    done = DONE["airsupply"]
    Args = NoArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Axis player may fly Air Supply"

    decider = AXIS

    def options(self, s: MotherlandState, args: NoArgs) -> list[Action]:
        done = [self.ended()]
        if s.mud or air_available(s) <= 0:
            return list(done)
        return [*(AIR_SUPPLY(x) for x in sorted(s.on_map(AXIS))
                  if s.german(x) and s.u(x).supply == "out"
                  and in_air_range(s, s.u(x).hex)), *done]

    def apply(self, s: MotherlandState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        air_supply(s, a.text("unit"))
        return []


class PartisanMarkers(GameChoice):
    """10.1: the Soviet player marks German units Out of Supply, nearest first."""

    name = "partisan_oos"
    kind = "partisan-markers"
    rule = "10.1"
    order = f"Out of Supply markers from partisans, nearest units first: {FIRST_LISTED}"
    Args = CountArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Soviet player marks German units Out of Supply, nearest first"

    decider = SOVIET

    def options(self, s: MotherlandState, args: CountArgs) -> list[Action]:
        return [OUT_OF_SUPPLY(x) for x in partisan_targets(s, args.hex)]

    def apply(self, s: MotherlandState, args: CountArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        uid = a.text("unit")
        s.u(uid).supply = "out"
        args.n -= 1
        s.tell(Event(f"Partisans: {uid} is Out of Supply (10.1)", rule="10.1"))
        if args.n <= 0:
            flow.end()
        return []


class PartisanPlacement(EndedChoice):
    """10.2: the Soviet player places Partisan markers on Supply Bases (those not on one
    must be placed when they can)."""

    name = "partisan_place"
    kind = "partisan-placement"
    rule = "10.2"
    done = DONE["partisan_place"]
    Args = PlaceArgs
    default_option = 0
    when_empty, auto = "end", True
    prompt_template = "the Soviet player places Partisan markers"

    decider = SOVIET

    def options(self, s: MotherlandState, args: PlaceArgs) -> list[Action]:
        moves = partisan_moves(s, args)
        bases = base_hexes(s)
        loose = {p for p, h in s.pos.partisans.items() if h not in bases}
        must = any(p in loose for p, _ in moves)
        return [*(PARTISAN(p, b) for p, b in moves),
                *([] if must else [self.ended()])]

    def apply(self, s: MotherlandState, args: PlaceArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        p, base = a.text("partisan"), a.text("unit")
        s.pos.partisans[p] = s.u(base).hex
        args.moved = sorted([*args.moved, p])
        s.tell(Event(f"Partisan marker {p} goes to {base} at {s.u(base).hex} (10.2)", rule="10.2"))
        return []


class PartisanRoll(GameRoll):
    name, rule = "roll-partisan", "10.1"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_partisan(s, args, roll)


class IsolationRoll(GameRoll):
    name, rule = "roll-isolation", "9.1.3"
    Args = RollArgs
    dice = (6,)  # every roll of the game is 1d6
    purpose_template = "{purpose}"

    def then(self, s: MotherlandState, args: RollArgs, roll: int) -> None:
        on_isolation(s, args, roll)


class IsolationLosses(GameChoice):
    """9.1.3: the owner takes isolation attrition among the isolated units of a hex."""

    name = "isolation"
    kind = "isolation-losses"
    rule = "9.1.3"
    order = f"isolation losses: {FIRST_LISTED}"
    Args = CountArgs
    default_option = 0
    when_empty, auto = "end", True
    decider_field = "side"
    prompt_template = "the {side} player takes {n} isolation loss(es) at {hex}"

    def options(self, s: MotherlandState, args: CountArgs) -> list[Action]:
        return [ISOLATION_LOSS(x) for x in sorted(s.units_at(args.hex, args.side))
                if isolated(s, x)]

    def apply(self, s: MotherlandState, args: CountArgs, action: Action,
              flow: Flow) -> list[Event]:
        a = act(action)
        args.n -= 1
        lose_step(s, a.text("unit"), "isolation attrition (9.1.3)")
        if args.n <= 0:
            flow.end()
        return []


#: the steps this module makes (the table's, engines.motherland.steps.STEPS)
STEPS: tuple[Step[Any], ...] = (
    ExpendBases(), AirSupply(), PartisanMarkers(), PartisanPlacement(), PartisanRoll(),
    IsolationRoll(), IsolationLosses(),
)
