"""The For the Motherland! state machine.

The position is typed data (``self.pos``, ``position.py``; pbem.codec derives its
snapshot); the rules are methods.  Control
flow runs on the step runtime (pbem.steps; ``steps.py`` holds the game's steps): the
sequence of play is data, each decision a ``Choice`` step, each roll or draw a ``Roll``
step, the bookkeeping between them ``Procedure`` steps.  A phase queues its work when it
starts; a combat queues its chit draws, its die roll and each side's result, retreat and
advance.  Every decision of the non-phasing player inside the phasing player's turn
(results, retreats, advances, General chits, over-stacking eliminations, partisan
markers, isolation losses) is a step whose ``side`` is that player.

The rules are split by what they do into mixins over :class:`MotherlandCore`
(``core.py``: attributes, accessors, caches, queued frames), combined here:

* ``sequence.py`` setup, the start of each phase, the turn's end (3.0)
* ``supply.py`` supply (9.0), isolation, Air Supply range; ``partisans.py`` (10.0)
* ``movement.py`` movement (5.0, 5.4); ``strategic.py`` Strategic Movement and Sea
  Transport (5.3, 5.5)
* ``reinforcements.py`` reinforcements, conversions, replacements (15.0, 17.0)
* ``overrun.py`` (7.0); ``combat.py`` (8.0-8.5); ``retreat.py`` (8.6, 8.7)
* ``chits.py`` Strength Chits and Generals (11.0, 16.5); ``stacking.py`` (6.0)
* ``admin.py`` the Administrative Phase and production (12.0); ``optional.py`` (21.0)
* ``victory.py`` city control (19.1), Stalin (16.6), victory (19.0)
* ``decisions.py`` the engine contract's hooks the runtime leaves to the game

A mixin that calls another's rules inherits it, so each type-checks against what it
really has (no declarations of one mixin's methods in another):

* ``SupplyMixin(ChitMixin)``: a unit removed to the track returns its chit;
  ``VictoryMixin(SupplyMixin)``: a city counts with a line to a source (19.1.3);
  ``AdminMixin(SupplyMixin)``: the Administrative Phase reads the supply and rail nets
* ``CombatMixin(SupplyMixin, ChitMixin)``: German air range, Generals, chits lost
* ``OverrunMixin(CombatMixin, StackingMixin)``; ``RetreatMixin(CombatMixin, VictoryMixin)``
* ``StrategicMixin(VictoryMixin)``; ``OptionalRulesMixin(VictoryMixin)``;
  ``ReinforcementMixin(VictoryMixin, ChitMixin)``: units entering claim cities (19.1)
* ``MovementMixin(StrategicMixin, OverrunMixin, OptionalRulesMixin)``: the movement
  phase offers strategic moves, sea transport, overruns and the Baku option
* ``SequenceMixin(MovementMixin, AdminMixin)``: the phases queue their work

What several of them read (terrain cost, country limits, turn 1's frozen fronts, city
control) is in ``core.py``.

``const.py`` holds the shared names (re-exported here); ZOC extent, supply lines, rail
connection and movement are the hex kit's (``engines.hexkit.zoc.zoc_map``,
``engines.hexkit.movement.spread``, ``breadth_first``, ``reachable``).
"""

from __future__ import annotations

from typing import Any

from engines.motherland.actions import Take, parse
from engines.motherland.args import GameArgs, MoveArgs, PhaseArgs, SideArgs
from engines.motherland.const import (
    _NO_STRATEGIC,
    AXIS,
    BAKU_ENTRY,
    BLOCKING_SIDES,
    DANZIG,
    DONE,
    HELSINKI,
    KONIGSBERG,
    LENINGRAD,
    MOSCOW,
    NOVOROSSIYSK,
    ODESSA,
    SEVASTOPOL,
    SIDES,
    SOVIET,
    TUAPSE,
    TURKEY_ENTRY,
    other,
)
from engines.motherland.core import MotherlandCore
from engines.motherland.data import GameData
from engines.motherland.position import Position
from engines.motherland.sequence import phase_title, setup, turn_sequence
from engines.motherland.steps import STEPS, MotherlandChoice
from pbem import typedcopy
from pbem.engine import Action, Decision, Event, Outcome, Result, State
from pbem.steps import Frame, Misfit, Roll
from pbem.view import BoardView

# the shared names moved to const.py; importers of this module keep finding them here
__all__ = [
    "AXIS", "BAKU_ENTRY", "BLOCKING_SIDES", "DANZIG", "DONE", "HELSINKI", "KONIGSBERG",
    "LENINGRAD", "MOSCOW", "NOVOROSSIYSK", "ODESSA", "SEVASTOPOL", "SIDES", "SOVIET", "TUAPSE",
    "TURKEY_ENTRY", "_NO_STRATEGIC", "MotherlandCore", "MotherlandState", "other",
]


#: 3.1: the phases (MotherlandCore.phases' names) whose work holds each step, for the
#: setup API; a step not named may come in several (a retreat after an overrun or a
#: combat) and is set up in any
_SUPPLY = ("supply",)
_ADMIN = ("admin",)
_FIGHT = ("move", "combat", "exploit")
STEP_PHASES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("supply_start", "expend", "supply_status", "airsupply",
                     "partisan_effects", "partisan_oos", "roll-partisan", "partisan_place",
                     "isolation_rolls", "roll-isolation", "isolation", "remove_expended"),
                    _SUPPLY),
    **dict.fromkeys(("turkey", "roll-turkey", "convert", "combine", "replace",
                     "roll-production", "produce", "evacuate", "admin_chits", "recovery"),
                    _ADMIN),
    "arrivals": ("move",), "reinf": ("move",), "roll-returning": ("move",),
    "move": ("move", "exploit"),
    **dict.fromkeys(("combat", "combat_chits", "combat_resolve", "combat_end"),
                    ("combat",)),
    **dict.fromkeys(("take", "lose", "apply_side", "stuck_steps", "retreat", "advance_start",
                     "advance", "roll-crt"), _FIGHT),
}
PHASE_NAMES = {"supply": "Mutual Supply Phase", "move": "Movement Phase",
               "combat": "Combat Phase", "exploit": "Exploitation Movement Phase",
               "admin": "Administrative Phase"}


class MotherlandState(MotherlandCore):
    """One position of For the Motherland!."""

    steps = STEPS
    Position = Position
    #: the scenario's tables and the cache of pure functions of their keys: the same
    #: whatever the position (:meth:`clone`)
    clone_shares = ("sc", "_pcache")
    start = "game"

    def __init__(self, engine: Any, scenario: str, options: dict[str, str], data: GameData,
                 body: dict[str, Any] | None = None) -> None:
        super().__init__(engine, scenario, options)
        self.data = data
        self.sc = data.scenarios[scenario]
        self._events: list[Event] = []
        self._cache: dict[Any, Any] = {}
        #: results that are pure functions of their (full) keys, kept across changes
        self._pcache: dict[Any, Any] = {}
        self._pending: list[Frame] = []
        if body is not None:
            self.restore_body(body)
            return
        self.begin(setup(self))

    def frames_for(self, step: str) -> list[Frame]:
        """The setup API's ``step = "phase"``: the start of the position's phase (``turn``
        and ``phase`` as set up); any other step of the game on top of that phase, the
        phase's side its side.  A step that belongs to other phases (3.1: ``move`` in a
        Combat Phase) is refused, naming the field (issue 31)."""
        if step not in self.steps:
            raise KeyError(step)
        if not self.sc.first <= self.pos.turn <= self.sc.last:
            raise Misfit("turn", f"scenario {self.scenario} is played on turns "
                                 f"{self.sc.first}-{self.sc.last} (20.0)")
        phases = self.phases()
        index = self.pos.phase
        if not 0 <= index < len(phases):
            raise Misfit("phase", f"the turn has phases 0-{len(phases) - 1} (3.1 A-G)")
        frames = [Frame("game", GameArgs(True)), Frame(turn_sequence(self), pc=index + 1)]
        if step == "phase":
            return [*frames, Frame("phase", PhaseArgs(index))]
        name, side = phases[index]
        kinds = STEP_PHASES.get(step)
        if kinds is not None and name not in kinds:
            raise Misfit("phase", f"phase {index} of turn {self.pos.turn} is the "
                                  f"{phase_title(self)} (3.1); {step!r} is a step of the "
                                  f"{' or '.join(PHASE_NAMES[k] for k in kinds)}")
        args = self.steps[step].Args()
        if isinstance(args, MoveArgs):
            args.side, args.exploit = side, name == "exploit"
        elif isinstance(args, SideArgs) and step in ("arrivals", "reinf", "combat"):
            args.side = side
        return [*frames, Frame(step, args)]

    def start_phase(self) -> None:
        """Start the position's phase afresh (``turn`` and ``phase`` as they are now): for
        tests that set up a position by hand."""
        self.stack = self.frames_for("phase")
        self._pending = []
        self._touch()
        self._settle()

    def clone(self) -> State:
        """A copy for the session's working position: the data and the pure-function
        cache are shared (both hold only facts that never change), the body is copied."""
        twin = object.__new__(MotherlandState)
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin._events = list(self._events)
        twin.history = list(self.history)
        twin._cache = {}
        twin._pending = []
        twin.pos = self.pos.copy()
        # each frame's arguments copied by their step's Args type (pbem.typedcopy), not
        # deep-copied: a fifth of the clone
        steps = self.steps
        twin.stack = [Frame(f.step, typedcopy.copier(steps[f.step].Args)(f.args), f.pc)
                      for f in self.stack]
        return twin

    # ================================================================================
    # the engine contract's hooks the step runtime leaves to the game: the decision
    # shown to the player (its options computed once), events gathered from ``say``,
    # standing orders, the result
    # ================================================================================

    def over(self) -> bool:
        return self.pos.result is not None

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        # 8.5: of the ways to take a result, the one with the most step losses (the
        # options run from all losses to all retreats; ties keep the listed order)
        if (decision.kind, policy) != ("result-choice", "losses"):
            return None
        takes = [a for a in self._legal_actions() if isinstance(a, Take)]
        return max(takes, key=lambda a: a.steps, default=None)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def _apply_action(self, action: Action) -> list[Event]:
        self._events = []
        super()._apply_action(action)
        return self._events

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        self._events = []
        super()._apply_outcome(outcome)
        return self._events

    def _decision(self) -> Decision:
        step, frame = self._choice()
        assert isinstance(step, MotherlandChoice)
        args = frame.args
        opts = step.options(self, args)
        shown = tuple(opts) if len(opts) <= step.show_at_most else ()
        return Decision(step.side(self, args), step.kind, step.prompt(self, args), shown,
                        step.default_of(self, args, opts), step.rule)

    def _decision_head(self) -> tuple[str, str]:
        # side and prompt as _decision words them, without listing the options (a game's
        # summary, written by every act and receive, shows none: issue 19)
        step, frame = self._choice()
        return step.side(self, frame.args), step.prompt(self, frame.args)

    def _result(self) -> Result | None:
        r = self.pos.result
        if r is None:
            return None
        return Result(r.winner, "rules", r.text, r.level)

    # ================================================================================
    # the view
    # ================================================================================

    def status(self) -> str:
        waiting = ""
        if self.stack and not self.over():
            step = self.step()
            task = ("draw" if step.name == "draw" else "roll") if isinstance(step, Roll) \
                else step.name
            waiting = f"; awaiting {self._side()} ({task})"
        return (f"Turn {self.turn} {self.data.turns[self.turn].date} ({self.weather}), "
                f"{phase_title(self)}{waiting}")

    def turn_number(self) -> int:
        return int(self.turn)

    def status_line(self, side: str | None) -> str:
        """The same line for both sides; no need to build the board for it."""
        return self.status()

    def _view(self, side: str | None) -> BoardView:
        from engines.motherland.board import build_view

        return build_view(self, side)
