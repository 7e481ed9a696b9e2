"""48th Panzer Korps: the sequence of play (3) and the table of every step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.panzer48.data import other
from engines.panzer48.position import NO_MPS, SideArgs
from engines.panzer48.state import P48State
from pbem.engine import Event
from pbem.steps import (
    Entry,
    Flow,
    LazyStepTable,
    NoArgs,
    Procedure,
    Sequence,
    Step,
    step_table,
)


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


def _own_side(s: P48State, args: SideArgs) -> SideArgs:
    """A phase's arguments: the side of the player turn it belongs to (3)."""
    return SideArgs(args.side)


class Turn(Sequence[P48State]):
    """3, the Sequence Outline: I. the Soviet player turn, II. the German player turn,
    III. the Game Turn marker advances.

    The count of player turns begun is ``SideArgs.stage`` (the count a procedure kept by
    hand before this was a sequence, so games saved in a turn restore), and III is the
    sequence's tail: it ends the turn's frame, as that procedure did."""

    name = "turn"
    rule = "3"
    Args = SideArgs
    counter = "stage"
    tail = True
    entries = (
        Entry("3.I", "player-turn", args=SideArgs("soviet")),
        Entry("3.II", "player-turn", args=SideArgs("german")),
        Entry("3.III", "turn-end"),
    )


class PlayerTurn(Sequence[P48State]):
    """A player turn (3): A. the Prepared Combat Phase (3.1), B. the Movement Phase (3.2),
    each of the side whose turn it is; counted in ``SideArgs.stage`` as :class:`Turn`."""

    name = "player-turn"
    rule = "3"
    Args = SideArgs
    counter = "stage"
    tail = True
    entries = (
        Entry("3.1", "prepared-phase", args=_own_side),
        Entry("3.2", "movement-phase", args=_own_side),
        Entry("3", "player-turn-end"),
    )


class PreparedPhase(Procedure[P48State]):
    """3.1: the Prepared Combat Phase begins: the side is phasing, its units' marks of the
    last phase are cleared, and the units that may make prepared attacks (those that begin
    the phase adjacent to enemy units) are noted; then its attacks are chosen."""

    name = "prepared-phase"
    rule = "3.1"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.phasing, pos.phase = args.side, "prepared"
        for x in pos.units.values():
            # only a unit with a mark set is written: each write is a call of
            # Unit.__setattr__ (which logs what the board facts read), and most units
            # have none after a phase (issue 35)
            if x.moved or x.attacked or x.retreated or x.failed or x.halted or x.spent != NO_MPS:
                x.moved = x.attacked = x.retreated = x.failed = x.halted = False
                x.spent = NO_MPS
        # adjacent: a neighbour on the map (both hexes are), asked of each unit's six
        enemy = {pos.units[u].hex for u in s.on_map(other(args.side))}
        pos.began_adjacent = sorted(
            u for u in s.on_map(args.side)
            if any(n in enemy for n in s.d.map.neighbors(pos.units[u].hex)))
        flow.goto("prepared")
        return [Event(f"turn {pos.turn}: {args.side} prepared combat phase", "phase",
                      rule="3.1")]


class MovementPhase(Procedure[P48State]):
    """3.2: the Movement Phase begins (reinforcements arrive, 9.1); then the side moves."""

    name = "movement-phase"
    rule = "3.2"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.phase = "movement"
        for x in pos.units.values():
            # 4: units that retreated in the Prepared Combat Phase do not move; 5:
            # their ZOC returns with the new phase (a field written only where it
            # changes, as the Prepared Combat Phase's marks are cleared)
            if x.retreated:
                x.failed, x.retreated = True, False
            if x.attacked:
                x.attacked = False
            began = x.hex if x.where == "map" else ""
            if x.began != began:
                x.began = began
        arrivals(s, args.side)
        flow.goto("movement")
        return [Event(f"turn {pos.turn}: {args.side} movement phase", "phase", rule="3.2")]


def arrivals(s: P48State, side: str) -> None:
    """9.1: the reinforcements due this turn become able to enter: here, with the phase
    that runs it, not with the reinforcements' other rules (their entry, plan and set-up),
    which a command that enters a Movement Phase need not import (issue 35)."""
    for u, x in s.pos.units.items():
        info = s.d.units[u]
        if info.side != side or x.where != "setup":
            continue
        f = s.d.formations[info.formation]
        if side == "german" and f.enters_turn and f.enters_turn <= s.pos.turn:
            x.where = "due"
        if (side == "soviet" and f.id in s.pos.plan_areas
                and s.pos.plan_turns.get(f.id, 0) == s.pos.turn):
            x.where = "due"


class PlayerTurnEnd(Procedure[P48State]):
    """5: a unit that retreated exerts no ZOC for the rest of the phase only."""

    name = "player-turn-end"
    rule = "5"
    Args = SideArgs

    def run(self, s: P48State, args: SideArgs, flow: Flow) -> list[Event]:
        for x in s.pos.units.values():
            if x.retreated:  # written only where set, as a phase's marks are cleared
                x.retreated = False
        flow.end()
        return []


class TurnEnd(Procedure[P48State]):
    """3.III: the Game Turn marker advances; prepared attackers are flipped back (3.1);
    then the release of the 7th Luftwaffe Field Division (9) or, after the last turn, the
    victory points (10)."""

    name = "turn-end"
    rule = "3.III"

    def run(self, s: P48State, args: NoArgs, flow: Flow) -> list[Event]:
        from engines.panzer48.reinforcements import check_release
        from engines.panzer48.victory import score

        s.pos.turn += 1
        for x in s.pos.units.values():
            if x.flipped:  # written only where set, as a phase's marks are cleared
                x.flipped = False
        flow.end()
        s.tell(Event(f"turn {s.pos.turn}", "phase", rule="3.III"))
        if not s.over():
            check_release(s)
            return []
        pts = score(s)
        return [Event(f"the game ends: Soviet {pts['soviet']}, German {pts['german']} "
                      "victory points", "phase", rule="10")]


#: the steps each phase's module of :mod:`engines.panzer48.steps` makes (its ``STEPS``),
#: by name, in the table's order (the order ``Engine.standing_orders`` lists them in)
ELSEWHERE: dict[str, str] = {
    "setup": "setup", "plan": "setup",
    "prepared": "combat", "declare": "combat", "fire": "combat", "attack-fire": "combat",
    "fire-roll": "combat", "morale-option": "combat", "morale-roll": "combat",
    "retreat-start": "retreat", "retreat": "retreat", "overstacked": "retreat",
    "advance": "retreat", "advance-start": "retreat",
    "movement": "movement", "moving": "movement", "zoc-exit": "movement",
}


#: a turn in the Prepared Combat Phase never imports the set-up's, the movement's or
#: (until a retreat) the retreat's steps, and one in the Movement Phase not the combat's
#: until a hasty attack
STEPS: Mapping[str, Step[Any]] = LazyStepTable(step_table(
    Game(), Turn(), PlayerTurn(), PreparedPhase(), MovementPhase(), PlayerTurnEnd(),
    TurnEnd()), ELSEWHERE, "engines.panzer48.steps")


P48State.steps = STEPS


P48State.start = "game"

