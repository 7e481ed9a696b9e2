"""The turn sequence of For the Motherland!: the setup, the start of each phase and the
turn's end.

A scenario's position is built once (``setup``); from then on the step runtime runs the
sequence of play, the steps at the end of this module: :class:`Game` turn after turn,
:class:`AxisFirstTurn` (turns 1-11) or :class:`SovietFirstTurn` (12-22), each entry a
phase of 3.1.  Each phase (3.0) queues its work when it starts (``push_phase``, which
:class:`PhaseStart` runs); past the last turn the game ends (19.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.args import GameArgs, PhaseArgs, SideArgs
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.position import Air, Position, Unit
from pbem.engine import Event
from pbem.steps import Entry, Flow, Frame, Procedure, Sequence

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState

    #: the runtime's procedure and sequence as this game's (steps.base.GameProcedure)
    GameProcedure = Procedure[MotherlandState]
    GameSequence = Sequence[MotherlandState]
else:
    # not subscripted at run time, where the alias is made for nothing (issue 35)
    GameProcedure, GameSequence = Procedure, Sequence


# Setup, the task loop and the sequence of phases (3.0).


# ================================================================================
# setup
# ================================================================================


def setup(s: MotherlandState) -> Position:
    from engines.motherland.victory import claim
    d, sc = s.data, s.sc
    units = {uid: Unit(steps=d.counters[uid].max_steps) for uid in sorted(d.counters)}
    for uid, h in (*sc.axis, *sc.soviet):
        unit = units[uid]
        unit.hex = h
        unit.box = ""
    eliminated_assets = list(sc.eliminated_assets)
    for uid in eliminated_assets:
        units[uid].box = "assets"
    # Scheduled reinforcements from the scenario's first turn on (17.0, 17.2).
    for t in range(sc.first, sc.last + 1):
        info = d.turns[t]
        for uid in (*info.axis, *info.soviet):
            if units[uid].box == "out" and units[uid].hex == "":
                unit = units[uid]
                unit.box = "track"
                unit.return_turn = t
    # Offensive Support units not set up wait in the OSM Waiting Box (13.0).
    for uid, c in d.counters.items():
        if c.type == "offensive_support" and units[uid].box == "out":
            units[uid].box = "osm"
    # Cups (11.0): starred chits at setup, unstarred ones as they arrive.
    cups: dict[str, list[str]] = {"A": [], "B": [], "C": []}
    for cid, chit in sorted(d.chits.items()):
        cups[chit.letter] += [cid] * chit.setup
    for t in range(1, sc.first):
        for cid in d.turns[t].chits:
            cups[cid[0]].append(cid)
    for k in cups:
        cups[k].sort()
    generals = {g: "ready" for t, info in sorted(d.turns.items())
                if t < sc.first and (g := info.general)}
    partisans = {p: "" for t, info in sorted(d.turns.items())
                 if t < sc.first and (p := info.partisan)}
    air_total = 5 - sum(1 for t in range(1, sc.first) if d.turns[t].air_withdrawal)
    control: dict[str, str] = {h: AXIS for h in sc.axis_control}
    control.update({h: SOVIET for h in sc.soviet_recaptured})
    # Cities the Soviets hold outside the Soviet Union at the start carry no marker;
    # Axis-held Soviet cities are marked (19.1).
    pos = Position(
        turn=sc.first, phase=0, units=units, cups=cups, removed_chits=[],
        control=dict(sorted(control.items())), generals=generals,
        partisans=partisans, air=Air(air_total), stalin="moscow", stalin_rolled=False,
        surrender_rolled=False, eliminated_assets=eliminated_assets, baku_done=False,
        turkey=False, combat=None, result=None, sea_used=False, late=False,
        regular=False, hit=[])
    s.pos = pos
    for uid, u in sorted(units.items()):
        if u.hex:
            claim(s, uid, u.hex, quiet=True)
    return pos


# ================================================================================
# phases
# ================================================================================


def push_phase(s: MotherlandState) -> None:
    name, side = s.phase()
    s.tell(Event(f"Turn {s.turn} ({s.data.turns[s.turn].date}, {s.weather}): "
                 f"{phase_title(s)}", "phase", rule="3.1"))
    # 8.3.1, 8.3.4, 8.6.5 last one Combat Phase: which hexes were attacked, which units
    # attacked, defended or retreated into a friendly hex.  Overruns in the movement and
    # exploitation phases are not bound by them (7.0), so every phase starts clean.
    for uid in s.on_map():
        unit = s.u(uid)
        unit.attacked = False
        unit.defended = False
        unit.displaced = False
    s.pos.hit = []
    # each phase's rules load with the first phase of their kind (issue 35)
    if name == "supply":
        from engines.motherland.supply import supply_tasks
        s.queue_frames(supply_tasks(s), first=True)
    elif name == "move":
        from engines.motherland.phase_args import MoveArgs
        for uid in s.on_map(side):
            u = s.u(uid)
            u.moves = 0
            u.mode = ""
            u.mp = s.factors(uid)[2]
            u.start = u.hex
        s.pos.sea_used = False
        s.pos.late = False
        s.pos.regular = False  # 3.1 step 3 not begun
        s.queue_frames([Frame("arrivals", SideArgs(side)), Frame("reinf", SideArgs(side)),
                        Frame("move", MoveArgs(side, False))], first=True)
    elif name == "combat":
        s.queue_frames([Frame("combat", SideArgs(side))], first=True)
    elif name == "exploit":
        from engines.motherland.movement import exploit_mp
        from engines.motherland.phase_args import MoveArgs
        s.pos.late = False
        for uid in s.on_map(side):
            u = s.u(uid)
            u.moves = 0
            u.mode = ""
            u.start = u.hex
            u.mp = exploit_mp(s, uid)  # may set mode "one" or "done" (5.4)
        s.queue_frames([Frame("move", MoveArgs(side, True))], first=True)
    else:
        from engines.motherland.admin import admin_tasks
        s.queue_frames(admin_tasks(s), first=True)
    s.queue_frames([Frame("stacking")])


def phase_title(s: MotherlandState) -> str:
    name, side = s.phase()
    titles = {"supply": "Mutual Supply Phase", "admin": "Administrative Phase",
              "move": f"{side.title()} Movement Phase",
              "combat": f"{side.title()} Combat Phase",
              "exploit": f"{side.title()} Exploitation Movement Phase",
              "over": "game over"}
    return titles[name]


def turn_sequence(s: MotherlandState) -> str:
    """3.0: the Axis moves first on turns 1-11, the Soviets on turns 12-22."""
    return "axis-first-turn" if s.first_side() == AXIS else "soviet-first-turn"


def next_turn(s: MotherlandState) -> bool:
    """The turn is over: on to the next, or past the last the game ends (19.0)."""
    from engines.motherland.victory import end_game

    s.pos.phase = len(s.phases())
    if s.turn >= s.sc.last:
        end_game(s)
        return False
    s.pos.turn += 1
    s.pos.phase = 0
    return True


# ================================================================================
# the sequence of play as steps (3.0, 3.1)
# ================================================================================


class Game(GameProcedure):
    """Turn after turn from the scenario's first to its last (20.0), then victory (19.0)."""

    name = "game"
    rule = "3.0"
    Args = GameArgs

    def run(self, s: MotherlandState, args: GameArgs, flow: Flow) -> list[Event]:
        if args.started and not next_turn(s):
            flow.end()
            return []
        args.started = True
        flow.call(turn_sequence(s))
        return []


class PhaseStart(GameProcedure):
    """A phase begins (3.1): its marks cleared and its work queued, stacking checked last."""

    name = "phase"
    rule = "3.1"
    Args = PhaseArgs

    def run(self, s: MotherlandState, args: PhaseArgs, flow: Flow) -> list[Event]:
        s.pos.phase = args.index
        push_phase(s)
        flow.end()
        return []


class AxisFirstTurn(GameSequence):
    """3.0: on turns 1-11 the Axis moves first."""

    name = "axis-first-turn"
    entries = (
        Entry("3.1 A", "phase", args=PhaseArgs(0)),  # Mutual Supply Phase (9.0, 10.0)
        Entry("3.1 B", "phase", args=PhaseArgs(1)),  # Axis Movement Phase (5.0, 17.0)
        Entry("3.1 C", "phase", args=PhaseArgs(2)),  # Axis Combat Phase (8.0)
        Entry("3.1 D", "phase", args=PhaseArgs(3)),  # Axis Exploitation Movement (5.4)
        Entry("3.1 E", "phase", args=PhaseArgs(4)),  # Soviet Movement Phase
        Entry("3.1 F", "phase", args=PhaseArgs(5)),  # Soviet Combat Phase
        Entry("3.1 G", "phase", args=PhaseArgs(6)),  # Administrative Phase (12.0)
    )


class SovietFirstTurn(GameSequence):
    """3.0: on turns 12-22 the Soviets move first (and take no Exploitation Phase)."""

    name = "soviet-first-turn"
    entries = (
        Entry("3.1 A", "phase", args=PhaseArgs(0)),  # Mutual Supply Phase
        Entry("3.1 B", "phase", args=PhaseArgs(1)),  # Soviet Movement Phase
        Entry("3.1 C", "phase", args=PhaseArgs(2)),  # Soviet Combat Phase
        Entry("3.1 D", "phase", args=PhaseArgs(3)),  # Soviet Exploitation (none, 5.4)
        Entry("3.1 E", "phase", args=PhaseArgs(4)),  # Axis Movement Phase
        Entry("3.1 F", "phase", args=PhaseArgs(5)),  # Axis Combat Phase
        Entry("3.1 G", "phase", args=PhaseArgs(6)),  # Administrative Phase
    )
