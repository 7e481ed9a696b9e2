"""48th Panzer Korps: the sequence of play (3) and the table of every step."""

from __future__ import annotations

from fractions import Fraction

from engines.panzer48.data import other
from engines.panzer48.position import SideArgs
from engines.panzer48.reinforcements import arrivals, check_release
from engines.panzer48.state import P48State
from engines.panzer48.steps.combat import (
    AttackFire,
    Declare,
    FireRoll,
    FireStep,
    MoraleOption,
    MoraleRoll,
    Prepared,
)
from engines.panzer48.steps.movement import Movement, Moving, ZocExit
from engines.panzer48.steps.retreat import Advance, AdvanceStart, Overstacked, Retreat, RetreatStart
from engines.panzer48.steps.setup import Plan, Setup
from engines.panzer48.victory import score
from pbem.engine import Event
from pbem.steps import Flow, NoArgs, Procedure, step_table


class Game(Procedure[P48State]):
    name = "game"
    rule = "3"

    def run(self, s: P48State, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.phase == "setup":
            flow.call("setup")
        elif s.pos.phase == "plan":
            flow.call("plan")
        else:
            flow.call("turn")
        return []


class Turn(Procedure[P48State]):
    """3: I. Soviet player turn, II. German player turn, III. advance the turn marker."""

    name = "turn"
    rule = "3"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        if args.stage == 0:
            args.stage = 1
            flow.call("player-turn", SideArgs("soviet"))
        elif args.stage == 1:
            args.stage = 2
            flow.call("player-turn", SideArgs("german"))
        else:
            s.pos.turn += 1
            for x in s.pos.units.values():
                x.flipped = False
            flow.end()
            ev = [Event(f"turn {s.pos.turn}", "phase", rule="3.III")]
            if not s.over():
                ev += check_release(s)
            else:
                pts = score(s)
                ev.append(Event(f"the game ends: Soviet {pts['soviet']}, German "
                                f"{pts['german']} victory points", "phase", rule="10"))
            return ev
        return []


class PlayerTurn(Procedure[P48State]):
    """A player turn: A. Prepared Combat Phase, B. Movement Phase (3)."""

    name = "player-turn"
    rule = "3"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        if args.stage == 0:
            args.stage = 1
            pos.phasing, pos.phase = args.side, "prepared"
            for x in pos.units.values():
                x.moved = x.attacked = x.retreated = x.failed = x.halted = False
                x.spent = Fraction(0)
            enemy = [pos.units[u].hex for u in s.on_map(other(args.side))]
            pos.began_adjacent = sorted(
                u for u in s.on_map(args.side)
                if any(s.d.map.distance(pos.units[u].hex, h) == 1 for h in enemy))
            flow.call("prepared")
            return [Event(f"turn {pos.turn}: {args.side} prepared combat phase", "phase",
                          rule="3.1")]
        if args.stage == 1:
            args.stage = 2
            pos.phase = "movement"
            for x in pos.units.values():
                # 4: units that retreated in the Prepared Combat Phase do not move; 5:
                # their ZOC returns with the new phase
                x.failed = x.failed or x.retreated
                x.retreated = x.attacked = False
                x.began = x.hex if x.where == "map" else ""
            arrivals(s, args.side)
            flow.call("movement")
            return [Event(f"turn {pos.turn}: {args.side} movement phase", "phase", rule="3.2")]
        for x in pos.units.values():
            x.retreated = False
        flow.end()
        return []



STEPS = step_table(Game(), Turn(), PlayerTurn(), Setup(), Plan(), Prepared(), Declare(),
                   FireStep(), AttackFire(), FireRoll(), MoraleOption(), MoraleRoll(),
                   RetreatStart(), Retreat(), Overstacked(), Advance(), AdvanceStart(),
                   Movement(), Moving(), ZocExit())


P48State.steps = STEPS


P48State.start = "game"

