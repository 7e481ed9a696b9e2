"""The For the Motherland! state: the position and its lookups, and the engine hooks.

The position is typed data (``self.pos``, ``position.py``; pbem.codec derives its
snapshot).  :class:`MotherlandState` holds what every rule reads (who is where and whose,
stacks and ZOCs as the hex kit's board facts of the placement, a unit's factors and
name, city control, with a per-position cache ``_cache`` forgotten by ``_touch`` after
every change, as the runtime's ``position_changed`` after every step that acted) and
the hooks of the engine contract the step runtime leaves to the game.  It holds no
rules.  The rules tell their events to the runtime's log (``s.tell(Event(...))``) and
queue the frames they lead to with ``s.queue_frames(..., first=True)``: the last queued
runs first.

The rules are modules of plain functions taking the state first, one per rule area, in
the book's order: ``supply.py`` supply (9.0), isolation, Air Supply range;
``partisans.py`` (10.0); ``terrain.py`` who may enter where at what cost (5.1, 5.2.1,
20.1); ``movement.py`` movement (5.0, 5.4); ``strategic.py`` Strategic Movement and Sea
Transport (5.3, 5.5); ``stacking.py`` (6.0); ``overrun.py`` (7.0); ``combat.py``
(8.0-8.5); ``retreat.py`` retreats and advances (8.6, 8.7); ``chits.py`` Strength Chits
and Generals (11.0, 16.5); ``admin.py`` the Administrative Phase and production (12.0);
``reinforcements.py`` (15.0, 17.0); ``victory.py`` city control (19.1), Stalin (16.6),
victory (19.0); ``optional.py`` (21.0).  A rule module imports the state only for its
type and never imports the steps; the steps (``steps/``, one module per phase) and the
sequence of play (``sequence.py``: setup, each phase's work, the turn's end) call them.

``const.py`` holds the shared names (re-exported here); occupancy, stacks, ZOC extent,
supply lines, rail connection and movement are the hex kit's
(``engines.hexkit.facts.BoardFacts``, ``engines.hexkit.movement.spread``,
``breadth_first``, ``reachable``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engines.motherland import rules
from engines.motherland.args import (
    GameArgs,
    PhaseArgs,
    SideArgs,
)
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
from engines.motherland.data import (
    ALLIED_NATIONS,
    CHIT_TYPES,
    CORPS_TYPES,
    Chit,
    Counter,
    GameData,
    ScenarioData,
)
from engines.motherland.notation import of_kind, parse
from engines.motherland.position import (
    Combat,
    Position,
    Unit,
    position_bytes,
    position_from_data,
)
from engines.motherland.sequence import phase_title, turn_sequence
from engines.motherland.steps import STEPS
from pbem.engine import CHANCE, Action, Decision, Result, State, counter_text
from pbem.steps import Choice, Frame, Misfit, Roll, StepState

if TYPE_CHECKING:  # the picture loads when a board is drawn (issue 35)
    from engines.hexkit.facts import BoardFacts
    from pbem.view import BoardView

#: a rule number in a reason's words (:meth:`MotherlandState.cited`): the pattern's text,
#: compiled (and kept) by ``re`` when first searched, not by every command's import
#: (issue 35)
_CITED = r"\b\d+\.\d+(?:\.\d+)*"

# the shared names moved to const.py; importers of this module keep finding them here
__all__ = [
    "AXIS", "BAKU_ENTRY", "BLOCKING_SIDES", "DANZIG", "DONE", "HELSINKI", "KONIGSBERG",
    "LENINGRAD", "MOSCOW", "NOVOROSSIYSK", "ODESSA", "SEVASTOPOL", "SIDES", "SOVIET", "TUAPSE",
    "TURKEY_ENTRY", "_NO_STRATEGIC", "MotherlandState", "other",
]


#: 3.1: the phases (MotherlandState.phases' names) whose work holds each step, for the
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


#: the key in :attr:`MotherlandState._pcache` of the last few placements' board facts
_FACTS_KEPT = ("facts", "kept")


if TYPE_CHECKING:
    #: the runtime's state of this game's position
    GameStepState = StepState[Position]
else:
    # not subscripted at run time, where the alias is made for nothing (steps.base.GameChoice)
    GameStepState = StepState


class MotherlandState(GameStepState):
    """One position of For the Motherland!."""

    #: its counters are its view's (State.counters): no unit off the map is named
    counters_off_map = False
    data: GameData
    sc: ScenarioData
    #: facts about the position as it stands, cleared by ``_touch`` after any change
    _cache: dict[Any, Any]
    #: results that are pure functions of their (full) keys, kept across changes
    _pcache: dict[Any, Any]

    # ================================================================================
    # small accessors
    # ================================================================================

    def c(self, uid: str) -> Counter:
        return self.data.counters[uid]

    def u(self, uid: str) -> Unit:
        return self.pos.units[uid]

    def fight(self) -> Combat:
        """The combat being resolved (the steps that read it run only inside one)."""
        assert self.pos.combat is not None, "no combat in progress"
        return self.pos.combat

    def alive_in_combat(self, role: str) -> list[str]:
        """The attackers (``role`` "att") or defenders ("def") of the combat still in the
        hex each stood in as it began: neither eliminated nor retreated (8.5-8.7).  Here,
        not with the combat rules: an advance after a retreat asks it, and loading those
        rules for it was 0.85 M instructions of a retreat's act (issue 35)."""
        cb = self.fight()
        return [x for x in cb.units(role) if self.u(x).hex and self.u(x).hex == cb.orig[x]]

    @property
    def turn(self) -> int:
        return self.pos.turn

    @property
    def weather(self) -> str:
        return self.data.turns[self.turn].weather

    @property
    def snow(self) -> bool:
        return self.weather == "snow"

    @property
    def mud(self) -> bool:
        return self.weather == "mud"

    def first_side(self) -> str:
        """3.0: the Axis moves first on turns 1-11, the Soviets on turns 12-22."""
        if self.turn in self.sc.rules.get("axis_first_turns", ()):
            return AXIS  # 20.5 rule 2 (a stand-in, see the scenario file)
        return AXIS if self.turn <= 11 else SOVIET

    def phases(self) -> list[tuple[str, str]]:
        a = self.first_side()
        b = other(a)
        return [("supply", ""), ("move", a), ("combat", a), ("exploit", a), ("move", b),
                ("combat", b), ("admin", "")]

    def phase(self) -> tuple[str, str]:
        phases = self.phases()
        index = self.pos.phase
        # past the last phase of the last turn the game is over (the view still works)
        return phases[index] if index < len(phases) else ("over", "")

    # on_map, units_at, stacks, occupied and zoc are asked thousands of times per file
    # (each unit's listed moves reads the enemy's ZOC and occupancy): they are the kit's
    # board facts of the placement (engines/hexkit/facts.py).  The facts are found once
    # per change, kept in ``_cache`` with the engine's other facts of the position, which
    # ``_touch`` forgets after every change: every rule here already calls it, and
    # building the placement per question (as 48th Panzer Korps does) would walk every
    # counter of the game, most of them off the map, each time.  ``board_facts`` hands a
    # placement met again (a clone, a take-back) the facts already computed, and a side's
    # ZOC is kept across the other side's moves.

    def facts(self) -> BoardFacts:
        """The board facts of where the units stand: occupancy, stacks and ZOCs (4.1)."""
        found: BoardFacts | None = self._cache.get("facts")
        if found is None:
            # most changes move no unit (a supply status, a chit, movement points): the
            # units' hexes, compared with the last facts', are a tenth of the placement's
            # cost of building and hashing
            units = self.pos.units
            key = self.placed()
            kept = self._facts
            if kept is not None and kept[0] == key:
                found = kept[1]
            else:
                # the last few facts any state of this game found (they share _pcache),
                # by the units' hexes: an act's move is made on the player's state and
                # then on its verifier's, each before and after it, and making the
                # placement again for the kit's memo was 0.46 M instructions each time
                recent: dict[Any, BoardFacts] = self._pcache.setdefault(_FACTS_KEPT, {})
                found = recent.get(key)
                if found is None:
                    # the kit's facts load with the first position that needs them, not
                    # with a retreat's listing, which reads the units (:meth:`occupied`)
                    from engines.hexkit.facts import Placed, board_facts

                    counters = self.data.counters
                    # ZOC is by type (4.1), read from the counter by the rule: no mark
                    found = board_facts(self.data.hexmap, [
                        Placed(uid, u.hex, counters[uid].side)
                        for uid, u in units.items() if u.hex])
                    if len(recent) >= 4:
                        recent.clear()
                    recent[key] = found
                self._facts = (key, found)
            self._cache["facts"] = found
        return found

    def placed(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The units' ids and the hex each stands in ("" off the map), for the change: the
        key of what depends on where the units stand alone (the board facts, a retreat's
        hexes)."""
        hit: tuple[tuple[str, ...], tuple[str, ...]] | None = self._cache.get("placed")
        if hit is None:
            units = self.pos.units
            hit = self._cache["placed"] = (tuple(units), tuple([u.hex for u in units.values()]))
        return hit

    def on_map(self, side: str | None = None) -> list[str]:
        key = ("on_map", side)
        hit: tuple[str, ...] | None = self._cache.get(key)
        if hit is None:
            if self._no_facts():
                counters = self.data.counters
                hit = tuple(sorted([uid for uid, u in self.pos.units.items() if u.hex and (
                    side is None or counters[uid].side == side)]))
            else:
                hit = tuple(p.unit for p in self.facts().units(side))
            self._cache[key] = hit
        return list(hit)

    def stacks(self, side: str | None = None) -> Mapping[str, tuple[str, ...]]:
        """Every hex holding units (of ``side``, else of anyone), in hex order, with its
        units in id order."""
        key = ("stacks", side)
        hit: Mapping[str, tuple[str, ...]] | None = self._cache.get(key)
        if hit is None:
            hit = self._stacks_read(side) if self._no_facts() else self.facts().stacks(side)
            self._cache[key] = hit
        return hit

    def _no_facts(self) -> bool:
        """Whether no state of this game has made the board facts (a restored position):
        the few questions a combat's rules ask of it (8.0-8.7: who stands in the target
        hex and around it) are then read off the units, as :meth:`occupied` reads them.
        Placing the 171 units for the kit's facts, and loading the kit's facts for it,
        was 4 M instructions of the receive that brings an attack (issue 35)."""
        return self._facts is None and "facts" not in self._cache

    def _stacks_read(self, side: str | None) -> Mapping[str, tuple[str, ...]]:
        """:meth:`stacks` read off the units: what the kit's facts give (hexes in order,
        each with its units in id order)."""
        counters = self.data.counters
        found: dict[str, list[str]] = {}
        for uid, u in self.pos.units.items():
            if u.hex and (side is None or counters[uid].side == side):
                found.setdefault(u.hex, []).append(uid)
        return MappingProxyType({h: tuple(sorted(here)) for h, here in sorted(found.items())})

    def _touch(self) -> None:
        """Forget every cached fact about the position (call after any change), the
        decision's options memo too (a test's position changed by hand)."""
        self._cache.clear()
        self.forget_options()
        if len(self._pcache) > 20_000:
            self._pcache.clear()

    def position_changed(self) -> None:
        # the runtime's call after every step that acted: the cached facts go
        self._touch()

    def sig(self, side: str) -> str:
        """Where ``side``'s units are: the key of caches that depend on them only."""
        # a string, not the facts' tuple of Placed: each unit's reach is looked up by it
        # (movement.py), and a string keeps its hash where a tuple hashes every unit again
        key = ("sig", side)
        hit: str | None = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = "|".join(f"{p.unit}@{p.hex}"
                                              for p in self.facts().units(side))
        return hit

    # on_map, stacks, occupied and zoc are asked once per hex of every search
    # (move_step_cost): their answers are kept for the change beside the facts, since
    # asking the facts again builds a key (and hashes the ZOC rule's fields) each time

    def occupied(self, side: str) -> frozenset[str]:
        """Hexes holding at least one of ``side``'s units."""
        key = ("occupied", side)
        hit: frozenset[str] | None = self._cache.get(key)
        if hit is None:
            if self._no_facts():
                # a position no state of this game has made the facts of (a restore): a
                # retreat's listing (8.6.1) asks a few hexes whether units stand there,
                # and placing the 171 units for the kit's facts was a quarter of a
                # legal's listing of it (issue 35); the same hexes, read off the units
                counters = self.data.counters
                hit = frozenset([u.hex for uid, u in self.pos.units.items()
                                 if u.hex and counters[uid].side == side])
            else:
                hit = self.facts().occupied(side)
            self._cache[key] = hit
        return hit

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        return list(self.stacks(side).get(h, ()))

    def has_enemy(self, h: str, side: str) -> bool:
        return h in self.occupied(SOVIET if side == AXIS else AXIS)

    def has_friend(self, h: str, side: str) -> bool:
        return h in self.occupied(side)

    def zoc(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of ``side``'s units (4.1): not across sea, lake, out-of-play
        hexsides or the Chongar rail bridge (16.7) (``GameData.zoc_rule``)."""
        key = ("zoc", side)
        hit: frozenset[str] | None = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.facts().zoc(side, self.data.zoc_rule).hexes
        return hit

    def in_zoc(self, side: str, h: str) -> bool:
        """Whether ``h`` is in :meth:`zoc` of ``side``, asked of that hex alone: a retreat
        (8.6.1, 8.6.2) reads the enemy ZOC of the two or three hexes around the units,
        and mapping every hex the enemy's units reach was a quarter of listing it (issue
        35).  The map's reading, turned round (adjacency is symmetric): a land hex
        next to one of ``side``'s units that exerts a ZOC, not across a blocking
        hexside (4.1, 16.7)."""
        known: frozenset[str] | None = self._cache.get(("zoc", side))
        if known is not None:
            return h in known
        data = self.data
        if data.is_water(h):
            return False  # a ZOC covers land only (GameData.zoc_rule)
        exerting = self._exerting(side)
        for n in data.map_neighbors(h):
            if n in exerting and not data.side_features(n, h) & BLOCKING_SIDES:
                return True
        return False

    def _exerting(self, side: str) -> frozenset[str]:
        """The hexes holding one of ``side``'s units that exerts a ZOC (4.1), kept for
        the change; read off the units while no state of the game has made the facts
        (as :meth:`occupied`), else off the facts' stacks."""
        key = ("exerting", side)
        hit: frozenset[str] | None = self._cache.get(key)
        if hit is None:
            counters = self.data.counters
            if self._no_facts():
                hit = frozenset([u.hex for uid, u in self.pos.units.items()
                                 if u.hex and counters[uid].side == side
                                 and counters[uid].exerts_zoc])
            else:
                hit = frozenset([h for h, here in self.stacks(side).items()
                                 if any(counters[u].exerts_zoc for u in here)])
            self._cache[key] = hit
        return hit

    def ezoc(self, side: str, h: str) -> bool:
        return self.in_zoc(other(side), h)

    def steps_of(self, uid: str) -> int:
        return int(self.u(uid).steps)

    def factors(self, uid: str) -> tuple[int, int, int]:
        """Attack, defense, movement after supply effects (9.5) and chits (11.0)."""
        return _factors(self.data.counters[uid], self.pos.units[uid], self.data.chits)

    def label(self, uid: str) -> str:
        return _label(uid, self.c(uid), self.u(uid))

    @staticmethod
    def cited(text: str) -> str:
        """The first rule number a reason cites ("cannot trace a Supply Line (9.1.1)"), for
        events whose reason comes from the caller."""
        found = re.search(_CITED, text)
        return found.group(0) if found else ""

    def is_allied(self, uid: str) -> bool:
        return self.c(uid).nation in ALLIED_NATIONS

    def german(self, uid: str) -> bool:
        return self.c(uid).nation == "german"

    # ================================================================================
    # whose a city is (19.1): the control marks read as the rules read them
    # ================================================================================

    def controls(self, side: str, h: str) -> bool:
        """Whether ``side`` controls the city or port ``h`` (19.1)."""
        mark: str | None = self.pos.control.get(h)
        if self.data.country_of(h) == "soviet_union":
            return (mark == AXIS) if side == AXIS else (mark != AXIS)
        return (mark != SOVIET) if side == AXIS else (mark == SOVIET)

    def _side(self) -> str:
        """Who the current step waits for ("" between steps)."""
        if not self.stack:
            return ""
        step, frame = self.step(), self.stack[-1]
        if isinstance(step, Roll):
            return CHANCE
        return step.side(self, frame.args) if isinstance(step, Choice) else ""

    steps = STEPS
    Position = Position
    #: the scenario's tables and the cache of pure functions of their keys: the same
    #: whatever the position (:meth:`clone`)
    clone_shares = ("sc", "_pcache", "_facts")
    #: the units' ids and hexes and the board facts of them: a pure function of the key
    #: kept with them, replaced (never changed in place) when the units move, so a clone
    #: shares it
    _facts: tuple[tuple[tuple[str, ...], tuple[str, ...]], BoardFacts] | None = None
    #: a decision's options (a movement phase's thousands of moves) listed once for the
    #: settling, the decision shown, the default and the refusal check
    memo_options = True
    #: a decision's options listed with it up to this many (a movement phase offers
    #: thousands, a retreat a handful)
    show_at_most = 40
    start = "game"

    def __init__(self, engine: Any, scenario: str, options: dict[str, str]) -> None:
        # no position yet: a new game's comes from setup (MotherlandEngine._new_state), a
        # restored one's from its snapshot (StepState.restored)
        super().__init__(engine, scenario, options)
        self.data = engine.data
        self.sc = self.data.scenarios[scenario]
        self._cache: dict[Any, Any] = {}
        #: results that are pure functions of their (full) keys, kept across changes
        self._pcache: dict[Any, Any] = {}

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
        if step == "move":  # phase_args.MoveArgs
            args.side, args.exploit = side, name == "exploit"
        elif isinstance(args, SideArgs) and step in ("arrivals", "reinf", "combat"):
            args.side = side
        return [*frames, Frame(step, args)]

    def start_phase(self) -> None:
        """Start the position's phase afresh (``turn`` and ``phase`` as they are now): for
        tests that set up a position by hand."""
        self.stack = self.frames_for("phase")
        self._touch()
        self._settle()

    def clone(self) -> State:
        """A copy for the session's working position: the data and the pure-function
        cache are shared (both hold only facts that never change), the body is copied."""
        twin = object.__new__(MotherlandState)
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin.history = list(self.history)
        # the board facts are of the placement, which the copy shares until its first
        # change (whose _touch forgets them): kept, not found again
        facts = self._cache.get("facts")
        twin._cache = {} if facts is None else {"facts": facts}
        # as the runtime's clone: its options memo is the original's, for one decision
        twin.forget_options()
        twin.pos = self.pos.copy()
        # each frame's arguments copied by their step's Args type, not deep-copied (a
        # fifth of the clone): the runtime's copy (by hand where they are plain)
        twin.stack = self.copy_stack()
        return twin

    # ================================================================================
    # the engine contract's hooks the step runtime leaves to the game: the decision
    # shown to the player (its options computed once), standing orders, the result
    # ================================================================================

    def over(self) -> bool:
        return self.pos.result is not None

    def restore_body(self, body: Mapping[str, Any]) -> None:
        # the position read at once where its data is in the plain form
        # (position.position_from_data), then the frames as the runtime reads them;
        # anything else goes the runtime's way whole, which names the fault
        pos = position_from_data(body["position"]) if (
            isinstance(body, Mapping) and "position" in body and "stack" in body) else None
        if pos is None:
            super().restore_body(body)
        else:
            self.pos = pos
            self.restore_stack(body["stack"])

    def normal_body(self) -> bytes | None:
        # every position this engine writes is written by hand (position_bytes): the
        # codec's typed writer built its writers of the position's five classes at a
        # process's first digest (about 5 M instructions of an act or a receive), and
        # even with each unit's bytes kept from the digest before, read and checked the
        # 171 units one by one (issue 35)
        try:
            position = position_bytes(self.pos)
            if position is None:
                return super().normal_body()
            return self.packed_body(position)
        except Exception:  # as the codec's: the generic way names what is wrong
            return super().normal_body()

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        # 8.5: of the ways to take a result, the one with the most step losses (the
        # options run from all losses to all retreats; ties keep the listed order)
        if (decision.kind, policy) != ("result-choice", "losses"):
            return None
        takes = [t for a in self._legal_actions() if (t := of_kind(a, "take")) is not None]
        return max(takes, key=lambda a: a.number("steps"), default=None)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def _decision_head(self) -> tuple[str, str]:
        # side and prompt as _decision words them, without listing the options (a game's
        # summary, written by every act and receive, shows none: issue 19)
        return self._step_head()

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
        from engines.motherland.view import build_view

        return build_view(self, side)

    def printed(self, uid: str) -> str:
        """What the counter prints: its factors, a chit army's letter until a chit is
        drawn for it (11.0)."""
        return _printed(self.c(uid), self.u(uid), self.factors(uid))

    def counters(self, side: str | None) -> Mapping[str, str]:
        """What the view's pieces print, by id (nothing is hidden: 6.6), without drawing
        the board or loading the view's module: ``act`` and ``legal`` name their units
        by them (issue 35: the module was 1 M instructions of each).  Each counter is
        worked out when it is asked (:class:`_Counters`): an act names the two or three
        units its events name, and printing all 171 counters for them was 1.5 M
        instructions of every act."""
        return _Counters(self)

    def _all_counters(self) -> dict[str, str]:
        """Every counter of :meth:`counters`, in its order: the units by id, then the
        partisans, then Stalin.  Kept with the position (``_cache``, forgotten at every
        change): a listing asks twice."""
        kept: dict[str, str] | None = self._cache.get("counters")
        if kept is not None:
            return kept
        out: dict[str, str] = {}
        for uid in sorted(self.pos.units):
            text = self._unit_counter(uid)
            if text is not None:
                out[uid] = text
        for p, h in sorted(self.pos.partisans.items()):
            if h:
                out[f"partisan:{p}"] = counter_text(f"partisan:{p}", p, "P")
        if self.pos.stalin == "moscow":
            out["stalin"] = counter_text("stalin", "Stalin", "Stalin")
        self._cache["counters"] = out
        return out

    def _unit_counter(self, uid: str) -> str | None:
        """The counter of unit ``uid`` as :meth:`counters` prints it, or None for a unit
        not in play (still "out") or no unit."""
        u = self.pos.units.get(uid)
        if u is None or (u.hex or u.box) == "out":
            return None
        # counter_text(uid, label, printed) without its word splitting: the printed
        # factors are one word and never the id, and the label is the id (dropped) or the
        # id marked (8.5.2: a Kampfgruppe, an allied * army) (issue 35: label(), printed()
        # and counter_text a unit were half the cost; factors() looking the unit and its
        # counter up again, a third of the rest)
        c = self.data.counters[uid]
        label = _label(uid, c, u)
        printed = _printed(c, u, _factors(c, u, self.data.chits))
        return printed if label == uid else f"{label} {printed}"

    def _one_counter(self, key: str) -> str | None:
        """The counter ``key`` of :meth:`counters` alone, or None where it has none."""
        if key in self.pos.units:
            return self._unit_counter(key)
        if key.startswith("partisan:"):
            p = key[len("partisan:"):]
            return counter_text(key, p, "P") if self.pos.partisans.get(p) else None
        if key == "stalin" and self.pos.stalin == "moscow":
            return counter_text("stalin", "Stalin", "Stalin")
        return None


def _factors(c: Counter, u: Unit, chits: Mapping[str, Chit]) -> tuple[int, int, int]:
    """:meth:`MotherlandState.factors` of the unit ``u`` of counter ``c``."""
    if c.type in CHIT_TYPES:
        mf = c.factors[0][2]
        chit = chits.get(u.chit)
        if chit is None:
            a, d = 0, 0
        else:
            a, d = chit.front if u.steps >= 2 else chit.back
        if c.type == "fortress":
            a = 0  # 8.3.6, 11.3.1
    else:
        idx = max(0, len(c.factors) - u.steps)
        a, d, mf = c.factors[min(idx, len(c.factors) - 1)]
    if u.supply in ("lack", "out"):
        a, mf = rules.half_up(a), rules.half_up(mf)
    if u.supply == "out":
        d = rules.half_up(d)
    return a, d, mf


def _label(uid: str, c: Counter, u: Unit) -> str:
    """How a unit is named: a corps on its last step as a Kampfgruppe, an allied army on
    its last step as its * army (8.5.2)."""
    if c.type in CORPS_TYPES and u.steps == 1:
        return f"{uid}(KG)"
    if c.type == "allied_army" and u.steps == 1:
        return f"{uid}*"
    return uid


def _printed(c: Counter, u: Unit, factors: tuple[int, int, int]) -> str:
    """What a counter prints given its current factors: a chit army's letter until a
    chit is drawn for it (11.0)."""
    a, d, m = factors
    return f"{a}-{d}-{m}" if c.type not in CHIT_TYPES or u.chit else f"{c.letter}-{m}"


class _Counters(Mapping[str, str]):
    """:meth:`MotherlandState.counters` as a mapping that works out a counter when it is
    asked (``get``, ``[]``, ``in``), and all of them only when they are gone through:
    the same counters, in the same order, as the position stands when they are asked."""

    __slots__ = ("_state",)

    def __init__(self, state: MotherlandState) -> None:
        self._state = state

    def get(self, key: str, default: Any = None) -> Any:
        kept: dict[str, str] | None = self._state._cache.get("counters")
        got = kept.get(key) if kept is not None else self._state._one_counter(key)
        return default if got is None else got

    def __getitem__(self, key: str) -> str:
        got: str | None = self.get(key)
        if got is None:
            raise KeyError(key)
        return got

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._state._all_counters())

    def __len__(self) -> int:
        return len(self._state._all_counters())
