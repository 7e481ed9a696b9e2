"""Backhand Blow's sequence of play (4.0, 4.2): the game turn's outline as ``Sequence``
entries, a player segment stage by stage, the table of every step, and where a set-up
position's step sits in it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.backhand.data import SIDES
from engines.backhand.position import PhaseArgs, PhaseCall, Position, SegSpec, SegState, UnitArg
from engines.backhand.state import BBState
from engines.backhand.steps.turn import (
    Advance,
    Attrition,
    EndTurn,
    Reinforce,
    Replace,
    ReplacementRoll,
    Supply,
    Track,
    VariableDraw,
    VariableRoll,
    WeatherRoll,
)
from pbem.engine import Event
from pbem.steps import (
    Entry,
    Flow,
    Frame,
    LazyStepTable,
    Misfit,
    NoArgs,
    Procedure,
    Sequence,
    Step,
    step_table,
)


class GameStep(Procedure[BBState]):
    """4.0: game turns until the scenario's last (18.1, 18.2)."""

    name = "game"
    rule = "4.0"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.turn > s.pos.last_turn:
            flow.end()
        else:
            flow.call("turn")
        return []


def _admin(s: BBState) -> bool:
    return s.pos.turn > 1  # 18.0: turn 1 starts with the 1st Soviet Schwerpunkt Segment


class Turn(Sequence[BBState]):
    name = "turn"
    entries = (
        Entry("4.2 I.A", "new-turn"),
        Entry("5.1", "weather", lambda s: _admin(s) and not s.pos.historical),
        Entry("8.2", "rochade", lambda s: (s.pos.turn >= 7 and s.pos.weather == "frozen"
                                            and not s.pos.rochade_used)),
        Entry("4.2 I.D", "supply", _admin),
        Entry("11.2", "vr-roll", lambda s: _admin(s) and bool(s.pos.cup)),
        Entry("11.1", "reinforce", _admin, UnitArg("soviet")),
        Entry("11.1", "reinforce", _admin, UnitArg("german")),
        Entry("12.0", "repl-roll", _admin),
        Entry("12.0", "replace", _admin),
        Entry("13.1", "refit-pay", lambda s: s.pos.turn >= 7),
        Entry("4.2 I.J", "track"),
        Entry("4.2 II", "segment", lambda s: s.pos.weather != "deep", SegSpec("soviet", "sp", 1)),
        Entry("4.2 III", "segment", lambda s: s.pos.weather != "deep", SegSpec("german", "sp", 1)),
        Entry("4.2 IV", "segment", lambda s: s.pos.weather == "frozen",
              SegSpec("soviet", "sp", 2)),
        Entry("4.2 V", "segment", lambda s: s.pos.weather == "frozen",
              SegSpec("german", "sp", 2)),
        Entry("4.2 VI", "segment", None, SegSpec("soviet", "general", 0)),
        Entry("4.2 VII", "segment", None, SegSpec("german", "general", 0)),
        Entry("4.2", "end-turn"),
    )


class Segment(Procedure[BBState]):
    name = "segment"
    rule = "4.2"
    Args = SegSpec

    def run(self, s: BBState, args: SegSpec, flow: Flow) -> list[Event]:
        flow.goto("seg-run", SegState(args.side, args.kind, args.no))
        return []


def _phase_args(s: BBState, a: SegState) -> PhaseArgs:
    return PhaseArgs(a.side, a.kind)


def _admin_moves(s: BBState) -> bool:
    return s.pos.turn > 1  # 15.1: no administrative movement on turn 1


def _playing(s: BBState) -> bool:
    return not s.pos.seg_over  # zero C3I points spent end the segment (4.2 II.D)


class SegRun(Sequence[BBState]):
    """A Schwerpunkt (4.2 II-V) or General (VI, VII) segment.  Its frames are those the
    procedure that counted these entries by hand saved (a game in progress restores and
    plays on): the count in ``SegState.stage`` (``counter``), the phase order declared at
    4.2 II.C in ``SegState.first``, and the close replaces the segment's frame (``tail``)."""

    name = "seg-run"
    rule = "4.2"
    Args = SegState
    counter = "stage"
    tail = True
    entries = (
        Entry("4.2 II.A", "seg-open", args=lambda s, a: SegSpec(a.side, a.kind, a.no)),
        Entry("15.1", "admin-in", _admin_moves, _phase_args),
        Entry("15.1", "box-shift", _admin_moves, _phase_args),
        Entry("4.2 II.C", "order", args=_phase_args),
        Entry("4.2 II.D", "seg-c3i", args=_phase_args),
        Entry("4.2 II.E", "phase", _playing, lambda s, a: PhaseCall(a.side, a.kind, a.first)),
        Entry("4.2 II.E", "phase", _playing, lambda s, a: PhaseCall(
            a.side, a.kind, "combat" if a.first == "move" else "move")),
        Entry("13.2", "ersatz", lambda s: _playing(s) and s.pos.phasing == "german"),
        Entry("4.2", "seg-close"),
    )


HERE = step_table(
    GameStep(), Turn(), Advance(), WeatherRoll(), Supply(), Attrition(), VariableRoll(),
    VariableDraw(), Reinforce(), ReplacementRoll(), Replace(), Track(), EndTurn(), Segment(),
    SegRun())

#: the steps of the Game Turn in the book's order, those of turn 7 on (steps/late.py)
#: among them: the order of the table's names
TURN_ORDER = ("game", "turn", "new-turn", "weather", "rochade", "supply", "attrition",
              "vr-roll", "vr-draw", "reinforce", "repl-roll", "replace", "refit-pay",
              "refit", "track", "end-turn", "segment", "seg-run")

#: the steps of a player segment, made by their module of steps/ with the first of them
#: asked for: a command in the Administrative Segment (4.2 I) imports neither the
#: segment's opening (steps/opening.py: the Front Markers, administrative movement), its
#: phases (steps/segment.py: their order, C3I, the close) nor the Movement Phase
#: (steps/move.py) with their rules; one past the opening (a file of a segment's moves
#: received, 4.2 II.C onward) imports no opening, and one that fights no battle
#: (a movement phase, the phase order and C3I points) neither the Combat Phase's steps
#: (steps/fight.py; a phase ended without an attack makes only its declaration, in
#: steps/declare.py) nor the combat and retreat rules (issue 35)
ELSEWHERE = {
    "seg-open": "opening", "box-shift": "opening",
    **dict.fromkeys(("seg-c3i", "phase", "seg-close"), "segment"),
    **dict.fromkeys(("fronts", "admin-in", "admin-place", "admin-out"), "opening"),
    **dict.fromkeys(("order", "c3i", "activity", "split"), "segment"),
    **dict.fromkeys(("move", "move-to", "uprising"), "move"),
    "combat": "declare",
    **dict.fromkeys(("attackers", "chit", "crt", "event", "hits", "advance"), "fight"),
    "ersatz": "segment",
    **dict.fromkeys(("rochade", "refit-pay", "refit"), "late")}

#: every step, named in the order the table had when all were made at once (the game
#: turn's, TURN_ORDER, then the segments' of ELSEWHERE as listed): the standing orders
#: list them in it
STEPS: Mapping[str, Step[Any]] = LazyStepTable(HERE, ELSEWHERE, "engines.backhand.steps",
                                               before=TURN_ORDER)


class BackhandState(BBState):
    steps = STEPS
    start = "game"
    Position = Position

    def frames_for(self, step: str) -> list[Frame]:
        return frames_for(self, step)


def frames_for(state: BBState, step: str) -> list[Any]:
    """Setup adapter: the frames above a step.  A step of the segments sits in the
    phasing side's first Schwerpunkt Segment (4.2 II or III) at its stage (II.A the Front
    Markers, II.B administrative movement, II.C the order of the phases, II.D C3I, then
    movement and combat); a step of the Administrative Segment at its entry of the turn
    (4.2 I), so the entry's condition is checked (pbem.setup) and the turn goes on from
    there.  A step the position does not fit is refused (:class:`~pbem.steps.Misfit`,
    issue 31): a turn outside the scenario's, a phasing side that is neither, a
    Schwerpunkt Segment's step in Deep Mud (4.2 II-V are not played), the Front Markers
    in a German segment (14.2), administrative movement on turn 1 (15.1)."""
    if step not in state.steps or step in ("game", "turn"):
        raise KeyError(step)
    pos = state.pos
    first = state.engine.scenario(state.scenario).turns[0]
    if not first <= pos.turn <= pos.last_turn:
        raise Misfit("turn", f"the scenario is played on turns {first}-{pos.last_turn} "
                             "(4.2)")
    side = pos.phasing
    if side not in SIDES:
        raise Misfit("phasing", f"the side whose segment it is: {' or '.join(SIDES)} (4.2)")
    names = [e.step for e in Turn.entries]
    segment = names.index("segment")
    if step in names[:segment]:
        # the Administrative Segment (4.2 I): the entry of this side where there are two
        index = names.index(step) + (1 if step == "reinforce" and side == "german" else 0)
        entry = Turn.entries[index]
        args = entry.args if entry.args is not None else state.steps[step].Args()
        return [Frame("game"), Frame("turn", pc=index + 1), Frame(step, args)]
    stages = {"fronts": 1, "admin-in": 2, "admin-out": 3, "order": 4, "c3i": 5, "move": 6,
              "combat": 7}
    if step not in stages and step not in ("segment", "seg-run"):
        return [Frame("game"), Frame("turn", pc=segment + 1),
                Frame(step, state.steps[step].Args())]
    if pos.weather == "deep":
        raise Misfit("weather", "no Schwerpunkt Segment is played in Deep Mud, only the "
                                "General Segments (4.2 II-V): give their frames with "
                                "stack = [...]")
    if step == "fronts" and side != "soviet":
        raise Misfit("phasing", "the Front Markers move in a Soviet segment (14.2)")
    if step in ("admin-in", "admin-out") and pos.turn == 1:
        raise Misfit("turn", "no administrative movement on turn 1 (15.1)")
    turn = Frame("turn", pc=segment + (2 if side == "german" else 1))
    if step == "segment":
        return [Frame("game"), turn, Frame(step, SegSpec(side, "sp", 1))]
    if step == "seg-run":
        return [Frame("game"), turn, Frame(step, SegState(side, "sp", 1))]
    seg = SegState(side, "sp", 1, stage=stages[step], first="move")
    return [Frame("game"), turn, Frame("seg-run", seg),
            Frame(step, PhaseArgs(side, "sp") if step != "fronts" else NoArgs())]
