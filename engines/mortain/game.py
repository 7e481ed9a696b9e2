"""Mortain Counterattack: the position, the steps and the state.

The exclusive rules (10.0-21.0) are implemented as the text gives them; the series rules
they lean on (sequence of play, movement, ZOC, stacking, combat 7.x with the 7.8 choice,
support fire 8.x) are a stand-in ruleset written around them, numbered "S<n>" in events
and refusals and listed on docs/engines/mortain.md.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.hexkit.board import board_view
from engines.hexkit.hexid import HexId
from engines.hexkit.movement import Reach, reachable
from engines.hexkit.overlay import Overlay
from engines.hexkit.retreat import retreat_options
from engines.hexkit.zoc import STOP_ON_ENTRY
from engines.mortain.notation import (
    ADVANCE,
    ATTACK,
    BOMBARD,
    DEMOLISH,
    DEPLETE,
    END_COMBAT,
    END_MOVEMENT,
    ENTER,
    EXIT,
    MOVE,
    NO_ADVANCE,
    NO_SUPPORT,
    PLACE,
    REPAIR,
    REPLACE,
    RESOLVE,
    RETREAT,
    RETREAT_ATTACKERS,
    SUPPORT,
    WITH,
    act,
    parse,
)
from engines.mortain.rules import HILL_317, MORTAIN, SIDES, SUPPLY, Rules, other, rules
from pbem.engine import (
    Action,
    ChanceRequest,
    Decision,
    Event,
    Outcome,
    Result,
    counter_text,
)
from pbem.memo import Memo
from pbem.steps import (
    Choice,
    Entry,
    Flow,
    Frame,
    Misfit,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    Sequence,
    Step,
    StepState,
    step_table,
)
from pbem.view import BoardView, Piece

#: movement searches by everything they depend on (a pure function's results: sharing them
#: between states and games cannot change a game)
_REACH: Memo[tuple[Any, ...], Reach] = Memo(20_001)
#: movement options by everything they depend on (State.memo_key): a file's receiver
#: replays the moves its sender listed
_OPTIONS: Memo[tuple[Any, ...], tuple[Action, ...]] = Memo(2_001)


class Status(enum.Enum):
    OFF = "off"  # not yet set up (US) or not yet entered (German)
    MAP = "map"
    ELIMINATED = "eliminated"
    EXITED = "exited"  # 19.1


@dataclass
class Unit:
    status: Status = Status.OFF
    hex: str = ""
    depleted: bool = False


@dataclass
class Combat:
    """One attack or bombardment in progress (S7, S8)."""

    target: str
    bombard: bool = False
    attackers: list[str] = field(default_factory=list)
    #: where each attacker stood (advance after combat comes from there)
    att_chits: list[int] = field(default_factory=list)
    def_chits: list[int] = field(default_factory=list)
    result: str = ""
    #: attackers still to retreat (A1-A3 when the attacker chose to retreat)
    retreating: list[str] = field(default_factory=list)


@dataclass
class Position:
    turn: int
    last_turn: int
    phasing: str
    phase: str  # setup, movement, combat, mobile
    units: dict[str, Unit]
    #: units that have moved (or may not move again) in this phase
    moved: set[str] = field(default_factory=set)
    #: half movement points left to units that entered this phase (11.0)
    mp_left: dict[str, int] = field(default_factory=dict)
    #: the arrival standing where it may not end its move (11.0 stacked, 17.0 on turn 1),
    #: which moves on before anything else happens
    arriving: str = ""
    #: units that attacked and hexes attacked in this combat phase (S7.1)
    attacked: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)
    #: support fire markers held this turn (16.0), by side
    chits: dict[str, list[int]] = field(default_factory=dict)
    allotment: dict[str, int] = field(default_factory=dict)
    #: 15.0: a US unit began this game turn on Hill 317
    hill_317: bool = False
    #: 11.2 / 11.3: the sides that have used their one replacement
    replaced: set[str] = field(default_factory=set)
    #: 19.0: the side last to occupy each Mortain hex
    mortain: dict[str, str] = field(default_factory=dict)
    #: demolished bridges (14.2), as "A/B"
    demolished: set[str] = field(default_factory=set)
    combat: Combat | None = None
    winner: str = ""


@dataclass(frozen=True)
class Phase:
    mobile: bool = False


@dataclass(frozen=True)
class Side:
    side: str = "german"


# -- helpers on the state --------------------------------------------------------------------


#: the steps of an attack, called by the combat phase (S7, S8)
COMBAT_STEPS = frozenset({"combat", "attackers", "support", "def-support", "combat-roll",
                          "def-result", "att-loss", "att-result", "att-retreat", "advance",
                          "end-combat"})
#: the player turn's phases (S2) as the ``phase`` field names them
PHASE_TITLES = {"movement": "movement", "combat": "combat", "mobile": "mobile movement"}


class MortainState(StepState[Position]):
    steps: ClassVar[Mapping[str, Step[Any]]]
    start = "game"
    Position = Position

    @functools.cached_property
    def r(self) -> Rules:
        return rules()

    def fight(self) -> Combat:
        """The combat in progress: the steps of S7 run only while there is one."""
        c = self.pos.combat
        assert c is not None
        return c

    # occupancy and zones

    def on_map(self, side: str | None = None) -> dict[str, HexId]:
        info = self.r.units
        return {u: x.hex for u, x in sorted(self.pos.units.items())
                if x.status is Status.MAP and (side is None or info[u].side == side)}

    def occupant(self) -> dict[HexId, str]:
        return {h: u for u, h in self.on_map().items()}

    def side_of(self, unit: str) -> str:
        return self.r.units[unit].side

    def zoc_of(self, side: str) -> frozenset[HexId]:
        return self.r.zoc(self.on_map(side), self.pos.demolished).hexes

    def overlay(self) -> Overlay:
        if not self.pos.demolished:
            return Overlay()
        sides = {tuple(s.split("/")): {"bridge"} for s in sorted(self.pos.demolished)}
        return Overlay.make(sides_removed=sides)  # type: ignore[arg-type]

    def allowance(self, unit: str, mobile: bool) -> int:
        """Half movement points: the whole MA in the movement phase, half of it in the mobile
        movement phase (S4); what is left after entering (11.0)."""
        if unit in self.pos.mp_left:
            return self.pos.mp_left[unit]
        ma = self.r.units[unit].ma
        return ma if mobile else 2 * ma

    def reach(self, unit: str, start: HexId, allowance: int,
              occ: dict[HexId, str] | None = None,
              ezoc: frozenset[HexId] | None = None) -> Reach:
        occ = self.occupant() if occ is None else occ
        found = self._search(unit, start, allowance, occ, ezoc)
        ends = tuple(h for h in found.ends if self.may_end(unit, h, occ))
        if self.shares_hex(unit):  # 11.0: an arrival on an occupied hex never ends there
            ends = tuple(h for h in ends if h != start)
        return dataclasses.replace(found, ends=ends)

    def may_end(self, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
        if self.pos.turn == 1 and self.side_of(unit) == "german":
            return self.can_end(unit, h, occ)
        return h not in occ or occ[h] == unit  # S5 only

    def _search(self, unit: str, start: HexId, allowance: int, occ: dict[HexId, str],
                ezoc: frozenset[HexId] | None) -> Reach:
        side = self.side_of(unit)
        ezoc = self.zoc_of(other(side)) if ezoc is None else ezoc
        enemy = frozenset(h for h, u in occ.items() if self.side_of(u) != side)
        # the search depends only on these (the enemy stands still while a side moves, so
        # every unit of a phase reuses it); where it may end is checked against the hexes
        # occupied now
        key = (start, allowance, enemy, ezoc, frozenset(self.pos.demolished))

        def search() -> Reach:
            costs = (self.r.costs.overlaid(self.overlay()) if self.pos.demolished
                     else self.r.costs)
            return reachable(costs, start, allowance, zoc=ezoc, policy=STOP_ON_ENTRY,
                             blocked=enemy)
        return _REACH.get(key, search)

    def shares_hex(self, unit: str) -> bool:
        h = self.pos.units[unit].hex
        return any(v != unit and x.status is Status.MAP and x.hex == h
                   for v, x in self.pos.units.items())

    def others(self, unit: str) -> dict[HexId, str]:
        """The hexes occupied by units other than ``unit`` (one an arrival stands stacked
        with is the other's, 11.0)."""
        return {h: v for v, h in self.on_map().items() if v != unit}

    def can_move_on(self, unit: str, h: HexId, allowance: int,
                    ezoc: frozenset[HexId]) -> bool:
        """11.0: whether ``unit``, arriving in ``h`` where it may not end its move (stacked,
        or 17.0), could move on to a hex where it may: not out of an enemy ZOC (S3: the
        arrival entered it, so it stops there)."""
        if h in ezoc:
            return False
        occ = self.others(unit)
        found = self._search(unit, h, allowance, occ, ezoc)
        return any(e != h and self.may_end(unit, e, occ) for e in found.ends)

    def stranded(self) -> tuple[str, str] | None:
        """11.0 (and 17.0 on turn 1): the arrival standing where it may not end its move,
        which moves on before anything else happens; with the rule it would break."""
        u = self.pos.arriving
        if not u:
            return None
        return u, "11.0" if self.shares_hex(u) else "17.0"

    def must_move_on(self, unit: str) -> bool:
        """Whether ``unit``, just arrived, stands where it may not end its move."""
        h = self.pos.units[unit].hex
        return self.shares_hex(unit) or self.no_116th(unit, h, self.others(unit))

    def entries_open(self) -> bool:
        """11.0: reinforcements enter "at the beginning of" the phase: until a unit that
        was on the map when it began has moved (an arrival moving on does not count)."""
        pos = self.pos
        return not any(u not in pos.mp_left for u in pos.moved)

    def can_end(self, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
        """S5 stacking (one unit a hex; 11.0 says it again for arrivals) and 17.0."""
        if h in occ and occ[h] != unit:
            return False
        return not self.no_116th(unit, h, occ)

    def no_116th(self, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
        """17.0: on turn 1 no German unit ends its move adjacent to another German unit."""
        if self.pos.turn != 1 or self.side_of(unit) != "german":
            return False
        return any(n in occ and occ[n] != unit and self.side_of(occ[n]) == "german"
                   for n in self.r.map.neighbors(h))

    def memo_key(self, mobile: bool) -> tuple[Any, ...]:
        """Everything movement options depend on (they are listed, then checked again when
        an action applies: one search serves both)."""
        pos = self.pos
        return (mobile, pos.turn, pos.phasing,
                tuple((u, x.status, x.hex, x.depleted) for u, x in sorted(pos.units.items())),
                frozenset(pos.moved), tuple(sorted(pos.mp_left.items())), pos.arriving,
                frozenset(pos.demolished), frozenset(pos.replaced))

    def may_move(self, unit: str, mobile: bool, ezoc: frozenset[HexId] | None = None) -> bool:
        pos, info = self.pos, self.r.units[unit]
        if pos.units[unit].status is not Status.MAP or unit in pos.moved:
            return False
        if pos.turn == 1 and info.side == "us":
            return False  # 18.0
        if mobile:
            # S4: mobile units (printed MA 10+, as 19.0 defines them) not in an enemy ZOC
            if not info.mobile:
                return False
            if ezoc is None:
                ezoc = self.zoc_of(other(info.side))
            if unit not in pos.mp_left and pos.units[unit].hex in ezoc:
                return False
        return True

    def note_mortain(self) -> None:
        """19.0: who last occupied each Mortain hex."""
        occ = self.occupant()
        for h in MORTAIN:
            if h in occ:
                self.pos.mortain[h] = self.side_of(occ[h])

    def german_exits(self) -> int:
        """19.0: full-strength mobile German units exited off the west edge."""
        return sum(1 for u, x in self.pos.units.items()
                   if x.status is Status.EXITED and not x.depleted and self.r.units[u].mobile)

    def mortain_captured(self) -> bool:
        """19.0: each Mortain hex German-held or last German-occupied, none in a US ZOC."""
        us_zoc = self.zoc_of("us")
        return all(self.pos.mortain.get(h) == "german" and h not in us_zoc for h in MORTAIN)

    def deplete(self, unit: str) -> str:
        x = self.pos.units[unit]
        if x.depleted:
            x.status, x.hex, x.depleted = Status.ELIMINATED, "", False
            return f"{unit} is eliminated"
        x.depleted = True
        return f"{unit} is depleted"

    def eliminate(self, unit: str) -> str:
        x = self.pos.units[unit]
        x.status, x.hex, x.depleted = Status.ELIMINATED, "", False
        return f"{unit} is eliminated"

    def retreat_ends(self, unit: str, length: int) -> list[HexId]:
        """S7.7: where ``unit`` can end a retreat of ``length`` hexes: each hex farther from
        where it began, never into an enemy unit or ZOC, an occupied hex or across an
        unbridged See hexside (14.2); only complete retreats count."""
        side = self.side_of(unit)
        start = self.pos.units[unit].hex
        occ = self.occupant()
        ezoc = self.zoc_of(other(side))
        costs = self.r.costs.overlaid(self.overlay()) if self.pos.demolished else self.r.costs

        def rank(_path: tuple[HexId, ...], h: HexId) -> int | None:
            return None if h in occ or h in ezoc else 0

        opts = retreat_options(self.r.map, start, length, rank,
                               may_cross=lambda a, b: costs.cost(a, b) is not None)
        return list(opts.hexes) if opts.complete else []

    # -- StepState hooks ----------------------------------------------------------------------

    def over(self) -> bool:
        return bool(self.pos.winner)

    def frames_for(self, step: str) -> list[Frame]:
        """Setup adapter: the frames above a step of the turn sequence.  ``move``,
        ``mobile-move``, ``combat``, the combat's steps, ``draw`` and ``begin-player`` are
        the German player's unless prefixed ``us:`` (``step = "us:mobile-move"``).

        A step the position set up does not fit is refused (:class:`Misfit`, issue 31):
        a turn outside 1 to ``last_turn``; the US set-up (13.0) after turn 1, in a phase
        other than ``setup`` or with every US unit placed; a turn's step while a US unit
        is still to set up; a player's phase step whose ``phasing`` is the other side
        (10.1: the German player turn, then the US) or whose ``phase`` is another of the
        player turn's (S2: movement, combat, mobile movement); a combat step after the
        attack is chosen with no combat open, or the combat phase's choice of an attack
        with one open (S7)."""
        side, _, name = step.rpartition(":")
        side = side or "german"
        mobile = name == "mobile-move"
        name = "move" if mobile else name
        if name not in self.steps or name in ("game", "turn") or side not in SIDES:
            raise KeyError(step)
        sided = name in ("move", "draw", "begin-player") or name in COMBAT_STEPS
        if side != "german" and not sided:
            raise KeyError(step)  # a step of both players has no "us:" form
        pos = self.pos
        if name == "us-setup":
            if pos.turn != 1:
                raise Misfit("turn", "the US player sets up before the first game turn "
                                     "(13.0, 20.0): turn = 1")
            if pos.phase != "setup":
                raise Misfit("phase", "the US set-up comes before the first player turn "
                                      "(13.0): phase = \"setup\"")
            if not any(x.status is Status.OFF for u, x in pos.units.items()
                       if self.side_of(u) == "us"):
                raise Misfit("units", "every US unit is set up already (13.0): leave one "
                                      "\"off\"")
            return [Frame("game"), Frame("us-setup")]
        if not 1 <= pos.turn <= pos.last_turn:
            raise Misfit("turn", f"the game turns are 1 to {pos.last_turn} (20.0)")
        waiting = [u for u, x in sorted(pos.units.items())
                   if x.status is Status.OFF and self.side_of(u) == "us"]
        if waiting:
            raise Misfit("units", f"{waiting[0]} is still to set up (\"off\"): the US "
                                  "player sets up every unit before turn 1 (13.0, 20.0)")
        pc = {"hill-check": 1, "allot": 2, "end-turn": 13}.get(name)
        if pc is not None:
            return [Frame("game"), Frame("turn", pc=pc), Frame(name)]
        if name == "draw":
            return [Frame("game"), Frame("turn", pc=3 if side == "german" else 4),
                    Frame("draw", Side(side))]
        base = 6 if side == "german" else 10
        if name == "begin-player":
            return [Frame("game"), Frame("turn", pc=base - 1), Frame(name, Side(side))]
        if pos.phasing != side:
            raise Misfit("phasing", f"{step!r} is a step of the {side} player turn (10.1: "
                                    f"the German player turn, then the US): phasing = "
                                    f"\"{side}\", or the step \"{other(side)}:...\"")
        phase = "mobile" if mobile else "movement" if name == "move" else "combat"
        if pos.phase != phase:
            raise Misfit("phase", f"{step!r} is a step of the {PHASE_TITLES[phase]} phase "
                                  f"(S2): phase = \"{phase}\"")
        frames = [Frame("game")]
        if name == "move":
            return [*frames, Frame("turn", pc=base + (2 if mobile else 0)),
                    Frame("move", Phase(mobile))]
        frames += [Frame("turn", pc=base + 1), Frame("combat")]
        if name == "combat":
            if pos.combat is not None:
                raise Misfit("combat", "the combat phase chooses the next attack when the "
                                       "last is over (S7), and one is open: set up its step")
            return frames
        if pos.combat is None:
            raise Misfit("combat", f"{name!r} works on the attack chosen in the combat "
                                   "phase (S7) and none is open")
        return [*frames, Frame(name)]

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """Setup adapter: ``units = {G01 = "2514", "1/33" = "2815 depleted", G02 =
        "eliminated", G03 = "exited depleted"}``; tables pass as they are."""
        units = data.get("units")
        if isinstance(units, dict):
            for uid, spec in list(units.items()):
                if not isinstance(spec, str):
                    continue
                words = spec.split()
                status = "map"
                if words and words[0] in ("off", "eliminated", "exited"):
                    status = words.pop(0)
                hx = words.pop(0) if words and words[0].isdigit() else ""
                units[uid] = {"status": status, "hex": hx, "depleted": "depleted" in words}
        return data

    def _result(self) -> Result | None:
        if self.pos.winner == "german":
            return Result("german", "rules", "German victory (19.0): five full-strength mobile "
                          "units exited west and Mortain captured", "")
        if self.pos.winner == "us":
            return Result("us", "rules", "US victory (19.2): the German player did not meet "
                          f"19.0 ({self.german_exits()} mobile units exited, Mortain "
                          f"{'captured' if self.mortain_captured() else 'not captured'})")
        return None

    def turn_number(self) -> int:
        return self.pos.turn

    def status_line(self, side: str | None) -> str:
        pos = self.pos
        date = self.r.dates[min(pos.turn, pos.last_turn) - 1]
        # the phase is the rulebook's; the runtime's step name ('us-setup', 'att-loss') is
        # no word of it, and the decision's prompt already says what is awaited
        return (f"turn {pos.turn}/{pos.last_turn} ({date}), {pos.phasing} {pos.phase}; "
                f"support US {len(pos.chits.get('us', []))} German "
                f"{len(pos.chits.get('german', []))}; exited {self.german_exits()}/5")

    def _view(self, side: str | None) -> BoardView:
        pieces = []
        for u, x in sorted(self.pos.units.items()):
            if x.status is not Status.MAP:
                continue
            info = self.r.units[u]
            a, d = info.factors(x.depleted)
            pieces.append(Piece(u, info.side, f"{a}-{d}-{info.ma}", x.hex, name=info.name,
                                markers=("depleted",) if x.depleted else (),
                                color="#4060a0" if info.side == "us" else "#606060"))
        return board_view(self.r.map, pieces, side=side, status=self.status_line(side),
                          highlights=[self.pos.combat.target] if self.pos.combat else ())

    def counters(self, side: str | None) -> dict[str, str]:
        # no hidden units in this game: a reinforcement still to enter (11.1) or a US unit
        # still to set up (13.0) reads as its counter does, not as the bare id G01
        out = {}
        for u in self.r.order:  # the book's order (11.1, 13.0)
            info, x = self.r.units[u], self.pos.units[u]
            if side is not None and info.side != side and x.status is not Status.MAP:
                continue  # the enemy's units off the map are none of ours to name
            a, d = info.factors(x.depleted)
            out[u] = counter_text(u, info.name, f"{a}-{d}-{info.ma}")
        return out

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        options = [act(a) for a in list(decision.options) or self.legal_actions()]
        if decision.kind == "retreat-or-deplete" and policy == "deplete":
            for a in options:
                if a.kind == "deplete":
                    return a
        if decision.kind == "defensive-support" and policy == "strongest":
            chits = [a for a in options if a.kind == "support"]
            if chits:
                return max(chits, key=lambda a: a.number("value"))
        return None

    def parse_action(self, text: str) -> Action:
        return parse(text)


# -- the steps -------------------------------------------------------------------------------


class Game(Procedure[MortainState]):
    """20.0: the US sets up, then game turns until the last (or the German victory)."""

    name = "game"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        if any(x.status is Status.OFF and s.side_of(u) == "us" for u, x in pos.units.items()):
            flow.call("us-setup")
        elif pos.turn > pos.last_turn:
            pos.winner = "us"
            flow.end()
        else:
            flow.call("turn")
        return []


class UsSetup(Choice[MortainState]):
    """13.0 / 20.0: each US unit in its group's area, northwest of the start line."""

    name = "us-setup"
    kind = "setup"
    rule = "13.0"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return "us"

    def _next(self, s: MortainState) -> str:
        return next(u for u in s.r.order
                    if s.side_of(u) == "us" and s.pos.units[u].status is Status.OFF)

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        u = self._next(s)
        return f"the US player sets up {u} ({s.r.units[u].group} area, 13.0)"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        u = self._next(s)
        occ = s.occupant()
        return [PLACE(u, h) for h in sorted(s.r.areas[s.r.units[u].group])
                if h not in occ]

    def default(self, s: MortainState, args: NoArgs) -> Action | None:
        opts = self.options(s, args)
        return opts[0] if opts else None

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "place":
            u = a.text("unit")
            group = s.r.units[u].group if u in s.r.units else ""
            if u != self._next(s):
                return Refusal("13.0", f"the US units set up in order: {self._next(s)} next")
            return Refusal("13.0", f"{u} sets up in its {group} area (13.0), and "
                           "one unit a hex (S5)")
        return f"{action.notation()!r}: the US player is setting up (13.0)"

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        u, h = a.text("unit"), a.text("to")
        s.pos.units[u] = Unit(Status.MAP, h, False)
        s.note_mortain()
        events = [Event(f"US {u} sets up in {h}", "move", hexes=(h,), units=(u,),
                        rule="13.0")]
        if all(x.status is not Status.OFF for v, x in s.pos.units.items()
               if s.side_of(v) == "us"):
            flow.end()
            events.append(Event("the US set-up is complete; no German unit sets up: all enter "
                                "from the east edge", "phase", rule="20.0"))
        return events


class Turn(Sequence[MortainState]):
    """A game turn: 10.1 the German player first, then the US."""

    name = "turn"
    entries = (
        Entry("15.0", "hill-check"),
        Entry("12.0", "allot"),
        Entry("16.0", "draw", when=lambda s: s.pos.allotment["german"] > 0,
              args=Side("german")),
        Entry("16.0", "draw", when=lambda s: s.pos.allotment["us"] > 0, args=Side("us")),
        Entry("10.1", "begin-player", args=Side("german")),
        Entry("S2 movement", "move", args=Phase(False)),
        Entry("S2 combat", "combat"),
        Entry("S2 mobile movement", "move", args=Phase(True)),
        Entry("10.1", "begin-player", args=Side("us")),
        Entry("S2 movement", "move", args=Phase(False)),
        Entry("S2 combat", "combat"),
        Entry("S2 mobile movement", "move", args=Phase(True)),
        Entry("19.0", "end-turn"),
    )


class HillCheck(Procedure[MortainState]):
    name = "hill-check"
    rule = "15.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        occ = s.occupant()
        s.pos.hill_317 = HILL_317 in occ and s.side_of(occ[HILL_317]) == "us"
        flow.end()
        if s.pos.hill_317:
            return [Event(f"a US unit begins turn {s.pos.turn} on Hill 317: the US support "
                          "fire allotment is doubled", "info", hexes=(HILL_317,), rule="15.0")]
        return []


def allotment(s: MortainState, side: str) -> tuple[int, list[str]]:
    """12.0 halving (the half lost is rounded down) while the enemy holds the supply symbol
    hex, then 15.0 doubling for the US (a halved allotment is doubled normally)."""
    base = s.r.allotment[side][min(s.pos.turn, len(s.r.allotment[side])) - 1]
    why: list[str] = []
    occ = s.occupant()
    held = SUPPLY[side] in occ and s.side_of(occ[SUPPLY[side]]) != side
    n = base
    if held:  # "will lose half (rounded down)": 5 loses 2, keeps 3
        n -= n // 2
        why.append("12.0")
    if side == "us" and s.pos.hill_317:
        n *= 2
        why.append("15.0")
    return n, why


class Allot(Procedure[MortainState]):
    name = "allot"
    rule = "12.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        events = []
        for side in ("german", "us"):
            n, why = allotment(s, side)
            s.pos.allotment[side] = n
            s.pos.chits[side] = []
            for rule in why:
                text = "halved: the enemy holds its supply symbol" if rule == "12.0" else \
                    "doubled for Hill 317"
                events.append(Event(f"{side} support fire allotment {text}: {n}", "info",
                                    rule=rule))
        flow.end()
        return events


class Draw(Roll[MortainState]):
    """16.0: the allotment drawn at random from the side's chit pool."""

    name = "draw"
    rule = "16.0"
    Args = Side

    def request(self, s: MortainState, args: Side) -> ChanceRequest:
        pool = s.r.pool[args.side]
        n = min(s.pos.allotment[args.side], len(pool))
        return ChanceRequest.draw(f"{args.side} support fire for turn {s.pos.turn}",
                                  f"{args.side}-support", pool, n, rule=self.rule)

    def resolve(self, s: MortainState, args: Side, outcome: Outcome,
                flow: Flow) -> list[Event]:
        s.pos.chits[args.side] = sorted(int(x) for x in outcome)
        return [Event(f"{args.side} draws support fire {s.pos.chits[args.side]}", "roll",
                      visible_to=(args.side,), rule=self.rule)]


class BeginPlayer(Procedure[MortainState]):
    name = "begin-player"
    rule = "10.1"
    Args = Side

    def run(self, s: MortainState, args: Side, flow: Flow) -> list[Event]:
        s.pos.phasing = args.side
        s.pos.phase = "movement"
        flow.end()
        events = [Event(f"turn {s.pos.turn}: the {args.side} player turn", "phase",
                        rule=self.rule)]
        if args.side == "us" and s.pos.turn == 1:
            events.append(Event("surprise: no US unit may move from its set-up hex on "
                                "Aug. 6th", "info", rule="18.0"))
        return events


class Move(Choice[MortainState]):
    """S3/S4 movement and mobile movement, with 11.0 arrivals, 11.2/11.3 replacements,
    19.1 exits, 17.0 and 18.0."""

    name = "move"
    kind = "movement"
    rule = "S3"
    Args = Phase
    show = False

    def side(self, s: MortainState, args: Phase) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: Phase) -> str:
        what = "mobile movement" if args.mobile else "movement"
        return f"the {s.pos.phasing} player's {what} phase, turn {s.pos.turn}"

    def _arrivals(self, s: MortainState, args: Phase) -> list[str]:
        pos = s.pos
        if pos.phasing != "german":
            return []
        return [u for u in s.r.order
                if s.side_of(u) == "german" and pos.units[u].status is Status.OFF
                and s.r.units[u].turn <= pos.turn and (not args.mobile or s.r.units[u].mobile)]

    def options(self, s: MortainState, args: Phase) -> list[Action]:
        return list(_OPTIONS.get(s.memo_key(args.mobile),
                                 lambda: tuple(self._options(s, args))))

    def _options(self, s: MortainState, args: Phase) -> list[Action]:
        pos, r = s.pos, s.r
        out: list[Action] = []
        ezoc = s.zoc_of(other(pos.phasing))
        stuck = s.stranded()
        if stuck is not None:
            u = stuck[0]
            reach = s.reach(u, pos.units[u].hex, pos.mp_left[u], s.others(u), ezoc)
            return [MOVE(u, e) for e in reach.ends]
        occ = s.occupant()
        # whether an arrival may enter a hex depends on the allowance it has left there,
        # not on which German unit it is
        may: dict[tuple[int, HexId], bool] = {}
        for u in self._arrivals(s, args) if s.entries_open() else ():
            for h in r.entry:
                key = (s.allowance(u, args.mobile) - r.entry_cost(h), h)
                if key not in may:
                    may[key] = self._may_enter(s, u, h, args, occ, ezoc)
                if may[key]:
                    out.append(ENTER(u, h))
        for u, h in s.on_map(pos.phasing).items():
            if not s.may_move(u, args.mobile, ezoc):
                continue
            allowance = s.allowance(u, args.mobile)
            reach = s.reach(u, h, allowance, occ, ezoc)
            out += [MOVE(u, e) for e in reach.ends]
            if pos.phasing == "german" and self._can_exit(s, u, h, reach, allowance):
                out.append(EXIT(u))
        if not args.mobile and pos.phasing not in pos.replaced:
            out += [REPLACE(u) for u in self._replaceable(s)]
        if not args.mobile:
            out += [(DEMOLISH if verb == "demolish" else REPAIR)(u, b)
                    for verb, u, b in self._bridge_work(s)]
        out.append(END_MOVEMENT)
        return out

    def _may_enter(self, s: MortainState, u: str, h: HexId, args: Phase,
                   occ: dict[HexId, str], ezoc: frozenset[HexId]) -> bool:
        """11.0: into an empty entry hex; through one where the arrival may not end (a
        German unit there, or on turn 1 one next to it, 17.0) if it can move on."""
        if h in occ and s.side_of(occ[h]) != "german":
            return False
        if h not in occ and not s.no_116th(u, h, occ):
            return True
        left = s.allowance(u, args.mobile) - s.r.entry_cost(h)
        return s.can_move_on(u, h, left, ezoc)

    def _can_exit(self, s: MortainState, u: str, h: HexId, reach: Reach,
                  allowance: int) -> bool:
        """19.1: reach a west edge hex and pay for the imaginary hex beyond it."""
        for w in sorted(s.r.west_edge):
            if w in reach.cost and (w == h or w not in reach.stops) and \
                    reach.cost[w] + s.r.exit_cost(w) <= allowance:
                return True
        return False

    def _arrival_barred(self, s: MortainState, u: str) -> Refusal | None:
        """11.2 / 11.3: why an eliminated ``u`` may not return on its supply symbol hex now:
        an enemy unit on it or its ZOC over it; or (11.0) a friendly unit on it and no way
        for the arrival to move on."""
        side = s.pos.phasing
        supply = SUPPLY[side]
        rule, enemy = ("11.2", "German") if side == "us" else ("11.3", "US")
        occ = s.occupant()
        ezoc = s.zoc_of(other(side))
        if supply in occ and s.side_of(occ[supply]) != side:
            return Refusal(rule, f"a {enemy} unit occupies {supply}: no replacement arrives")
        if supply in ezoc:
            return Refusal(rule, f"{supply} is in a {enemy} unit's ZOC: no replacement arrives")
        stacked, beside = supply in occ, s.no_116th(u, supply, occ)
        if not (stacked or beside):
            return None
        # 18.0: on Aug. 6th a US arrival could not move on
        surprise = s.pos.turn == 1 and side == "us"
        if not surprise and s.can_move_on(u, supply, 2 * s.r.units[u].ma, ezoc):
            return None
        if stacked:
            return Refusal("11.0", f"{occ[supply]} stands on {supply} and {u} could not move "
                           "on from it: no unit arrives and ends its move stacked")
        return Refusal("17.0", f"{u} could not move on from {supply}, next to another "
                       "German unit on turn 1")

    def _replaceable(self, s: MortainState) -> list[str]:
        """11.2 / 11.3: an eliminated unit returns depleted on the supply symbol hex, or a
        depleted unit on the map is rebuilt."""
        side = s.pos.phasing
        out = []
        for u in s.r.order:
            x = s.pos.units[u]
            if s.side_of(u) != side:
                continue
            if (x.status is Status.ELIMINATED and self._arrival_barred(s, u) is None) or (
                    x.status is Status.MAP and x.depleted):
                out.append(u)
        return out

    def _bridge_work(self, s: MortainState) -> list[tuple[str, str, str]]:
        """S9 (stand-in for the series' bridge rules 14.2 refers to): instead of moving, a US
        engineer on one side of a See bridge demolishes it; a German engineer repairs a
        demolished one.  Neither on turn 1 for the US (18.0: it may not move, nor work)."""
        pos = s.pos
        out = []
        verb = "demolish" if pos.phasing == "us" else "repair"
        if pos.phasing == "us" and pos.turn == 1:
            return []
        for u, h in s.on_map(pos.phasing).items():
            if not s.r.units[u].engineer or u in pos.moved or u in pos.mp_left:
                continue
            for b in s.r.bridges():
                if h in b.split("/") and (b in pos.demolished) == (verb == "repair"):
                    out.append((verb, u, b))
        return out

    def default(self, s: MortainState, args: Phase) -> Action:
        if s.stranded() is not None:
            return self.options(s, args)[0]
        # ending movement with German units still to enter throws away their turn of
        # arrival (11.1): the default enters the first of them (the book's order) at the
        # free entry hex nearest Mortain (19.0), what a German player does first
        enters = [a for a in map(act, self.options(s, args)) if a.kind == "enter"]
        if enters:
            unit = enters[0].text("unit")
            return min((a for a in enters if a.text("unit") == unit),
                       key=lambda a: (s.r.map.distance(a.text("at"), MORTAIN[0]),
                                      a.text("at")))
        return END_MOVEMENT

    def why_not(self, s: MortainState, args: Phase, action: Action) -> str | Refusal:
        a = act(action)
        verb = a.kind
        u = a.units()[0] if a.units() else ""
        to = a.text("to") if verb == "move" else a.text("at") if verb == "enter" else ""
        info = s.r.units.get(u)
        stuck = s.stranded()
        if stuck is not None and (verb != "move" or u != stuck[0]):
            v, rule = stuck
            why = "stacked" if rule == "11.0" else "next to another German unit on turn 1"
            return Refusal(rule, f"{v} arrived in {s.pos.units[v].hex}, where it may not end "
                           f"its move ({why}): it moves on first")
        if verb == "move" and info is not None:
            if s.pos.turn == 1 and info.side == "us":
                return Refusal("18.0", "surprise: no US unit moves on turn 1")
            if info.side != s.pos.phasing:
                return Refusal("S3", f"{u} is not the {s.pos.phasing} player's")
            if args.mobile and not info.mobile:
                return Refusal("S4", f"only mobile units (movement 10+) move in the mobile "
                               f"movement phase; {u} has {info.ma}")
            if s.pos.units[u].status is Status.MAP and s.no_116th(u, to, s.occupant()):
                return Refusal("17.0", "on turn 1 no German unit may end its move adjacent "
                               "to another German unit")
            if u in s.pos.moved:
                return Refusal("S3", f"{u} has already moved this phase (an arrival that "
                               "enters an enemy ZOC stops there)")
            if s.pos.units[u].status is Status.MAP:
                occ = s.others(u)
                if to in occ and occ[to] != u:
                    return Refusal("S5", f"{to} is occupied: one unit a hex")
                start = s.pos.units[u].hex
                if to in s.r.map and s.r.map.distance(start, to) == 1 and \
                        s.r.see_between(start, to, s.pos.demolished):
                    return Refusal("14.2", "no movement across an unbridged See hexside")
            return Refusal("S3", f"{u} cannot move to {to} now")
        if verb == "enter" and info is not None:
            if info.side != "german":
                return Refusal("11.0", "only German units enter as reinforcements")
            if info.turn > s.pos.turn:
                return Refusal("11.1", f"{u} arrives on turn {info.turn}")
            if to not in s.r.entry:
                return Refusal("11.1", "German units enter in 3201-3221")
            if s.pos.units[u].status is not Status.OFF:
                return Refusal("11.0", f"{u} is not waiting to enter")
            if not s.entries_open():
                return Refusal("11.0", "reinforcements enter at the beginning of the phase, "
                               "before any unit already on the map moves")
            if s.no_116th(u, to, s.occupant()):
                return Refusal("17.0", "on turn 1 no German unit may end its move adjacent "
                               f"to another German unit, and {u} could not move on from "
                               f"{to}")
            return Refusal("11.0", f"{u} cannot enter there now: no unit arrives and ends its "
                           "move stacked, and an arrival entering a US ZOC stops there")
        if verb == "exit":
            if info is not None and info.side != "german":
                return Refusal("19.1", "only German units exit the map")
            return Refusal("19.1", "a unit exits from a west edge hex, paying for the "
                           "imaginary hex beyond it, in a movement phase")
        if verb in ("demolish", "repair"):
            return Refusal("S9", "an engineer that has not moved, on one side of a See "
                           "bridge, demolishes it (US) or repairs it (German), in the "
                           "movement phase")
        if verb == "replace":
            if s.pos.phasing in s.pos.replaced:
                return Refusal("11.2" if s.pos.phasing == "us" else "11.3",
                               "one replacement per game")
            if args.mobile:
                return Refusal("11.2", "replacements arrive in the movement phase")
            x = s.pos.units.get(u)
            if x is not None and x.status is Status.ELIMINATED and info is not None and \
                    info.side == s.pos.phasing:
                barred = self._arrival_barred(s, u)
                if barred is not None:
                    return barred
            return Refusal("11.2" if s.pos.phasing == "us" else "11.3",
                           f"{u} is neither eliminated nor depleted on the map")
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MortainState, args: Phase, action: Action, flow: Flow) -> list[Event]:
        pos = s.pos
        a = act(action)
        verb = a.kind
        if verb == "end-movement":
            pos.moved = set()
            pos.mp_left = {}
            pos.phase = "movement" if args.mobile else "combat"
            flow.end()
            return [Event(f"{pos.phasing} ends {'mobile ' if args.mobile else ''}movement",
                          "phase", rule="S3")]
        u = a.text("unit")
        x = pos.units[u]
        if verb == "enter":
            h = a.text("at")
            left = s.allowance(u, args.mobile) - s.r.entry_cost(h)
            stops = h in s.zoc_of("us")
            x.status, x.hex = Status.MAP, h
            pos.mp_left[u] = left
            if stops:  # S3: entering an enemy ZOC ends the move, an arrival's too
                pos.moved.add(u)
            elif s.must_move_on(u):
                pos.arriving = u
            s.note_mortain()
            # 11.1's list says who and where; 11.0 how (the 11.0 row covers both)
            return [Event(f"{u} ({s.r.units[u].name}) enters at {h}"
                          f"{' and stops in a US ZOC' if stops else ''}", "move", hexes=(h,),
                          units=(u,), rule="11.1")]
        if verb == "move":
            h = a.text("to")
            frm = x.hex
            x.hex = h
            # an arrival stays in mp_left: entries stay open after it moves on (11.0)
            pos.moved.add(u)
            pos.arriving = ""
            s.note_mortain()
            rule = "S4" if args.mobile else "S3"
            return [Event(f"{u} moves {frm} to {h}", "move", hexes=(frm, h), units=(u,),
                          rule=rule)]
        if verb == "exit":
            frm = x.hex
            x.status, x.hex = Status.EXITED, ""
            pos.moved.add(u)
            pos.mp_left.pop(u, None)
            return [Event(f"{u} exits the map west from {frm}"
                          f"{' (depleted: does not count for 19.0)' if x.depleted else ''}",
                          "move", hexes=(frm,), units=(u,), rule="19.1")]
        if verb in ("demolish", "repair"):
            b = a.text("bridge")
            pos.moved.add(u)
            if verb == "demolish":
                pos.demolished.add(b)
            else:
                pos.demolished.discard(b)
            return [Event(f"{u} {'demolishes' if verb == 'demolish' else 'repairs'} the See "
                          f"bridge {b}", "info", hexes=tuple(b.split("/")), units=(u,),
                          rule="S9")]
        # replace
        pos.replaced.add(pos.phasing)
        rule = "11.2" if pos.phasing == "us" else "11.3"
        if x.status is Status.ELIMINATED:
            x.status, x.hex, x.depleted = Status.MAP, SUPPLY[pos.phasing], True
            # an arrival (11.0): it moves on if a friendly unit stands on the hex
            pos.mp_left[u] = s.allowance(u, False)
            if s.must_move_on(u):
                pos.arriving = u
            s.note_mortain()
            return [Event(f"replacement: {u} returns depleted at {x.hex}", "move",
                          hexes=(x.hex,), units=(u,), rule=rule)]
        x.depleted = False
        return [Event(f"replacement: {u} is rebuilt in {x.hex}", "info", units=(u,),
                      rule=rule)]


class CombatPhase(Choice[MortainState]):
    """S7: attacks (each defending hex once, each unit once), S8.3 bombardments."""

    name = "combat"
    kind = "combat"
    rule = "S7"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        return f"the {s.pos.phasing} player's combat phase, turn {s.pos.turn}"

    def eligible(self, s: MortainState, target: HexId) -> list[str]:
        """Own units adjacent to ``target``, not yet attacking, not across an unbridged See
        hexside (14.2)."""
        pos = s.pos
        occ = s.occupant()
        out = []
        for n in s.r.map.neighbors(target):
            u = occ.get(n)
            if u is None or s.side_of(u) != pos.phasing or u in pos.attacked:
                continue
            if s.r.see_between(n, target, pos.demolished):
                continue
            out.append(u)
        return sorted(out)

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        pos = s.pos
        out: list[Action] = []
        occ = s.occupant()
        for h, u in sorted(occ.items()):
            if s.side_of(u) == pos.phasing or h in pos.targets:
                continue
            if self.eligible(s, h):
                out.append(ATTACK(h))
            if pos.chits.get(pos.phasing) and any(
                    n in occ and s.side_of(occ[n]) == pos.phasing
                    for n in s.r.map.neighbors(h)):
                out.append(BOMBARD(h))
        out.append(END_COMBAT)
        return out

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return END_COMBAT

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "attack":
            h = a.text("target")
            if h in s.pos.targets:
                return Refusal("S7.1", f"{h} has already been attacked this phase")
            occ = s.occupant()
            if h in occ and s.side_of(occ[h]) != s.pos.phasing and any(
                    s.side_of(occ[n]) == s.pos.phasing for n in s.r.map.neighbors(h)
                    if n in occ):
                return Refusal("14.2", "no attack across an unbridged See hexside")
            return Refusal("S7.1", f"no enemy unit in {h} adjacent to a unit that may attack")
        if a.kind == "bombard":
            return Refusal("S8.3", "a bombardment needs a support fire marker and a friendly "
                           "unit adjacent to the target")
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        pos = s.pos
        a = act(action)
        if a.kind == "end-combat":
            pos.attacked, pos.targets = set(), set()
            pos.phase = "mobile"
            flow.end()
            return [Event(f"{pos.phasing} ends combat", "phase", rule="S7")]
        h = a.text("target")
        bombard = a.kind == "bombard"
        pos.targets.add(h)
        pos.combat = Combat(h, bombard=bombard)
        flow.call("support" if bombard else "attackers")
        what = "bombards" if bombard else "attacks"
        return [Event(f"{pos.phasing} {what} {h}", "attack", hexes=(h,),
                      rule="S8.3" if bombard else "S7")]


class Attackers(Choice[MortainState]):
    """S7.2: the attacking units, one at a time."""

    name = "attackers"
    kind = "attackers"
    rule = "S7.2"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return f"attackers against {c.target}: {', '.join(c.attackers) or 'none yet'}"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        cands = [u for u in CombatPhase().eligible(s, c.target) if u not in c.attackers]
        out: list[Action] = [WITH(u) for u in cands]
        if c.attackers:
            out.append(RESOLVE)
        return out

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[-1]

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("S7.2", "an attacker is a unit adjacent to the target, not across an "
                       "unbridged See hexside (14.2), that has not attacked this phase")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        if a.kind == "with":
            c.attackers.append(a.text("unit"))
            s.pos.attacked.add(a.text("unit"))
            return []
        flow.goto("support")
        return [Event(f"{', '.join(c.attackers)} attack {c.target}", "attack",
                      hexes=(c.target,), units=tuple(c.attackers), rule="S7.2")]


class Support(Choice[MortainState]):
    """S8.2: the attacker adds support fire markers (a bombardment needs one, S8.3)."""

    name = "support"
    kind = "support"
    rule = "S8.2"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def mine(self, s: MortainState) -> list[int]:
        c = s.fight()
        return c.att_chits

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return (f"the {self.side(s, args)} player may add support fire against {c.target} "
                f"(holds {s.pos.chits.get(self.side(s, args), [])})")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        side = self.side(s, args)
        held = s.pos.chits.get(side, [])
        mine = self.mine(s)
        out: list[Action] = []
        if len(mine) < s.r.per_combat:
            out = [SUPPORT(v) for v in sorted(set(held))]
        c = s.fight()
        if mine or not (c.bombard and self.name == "support"):
            out.append(NO_SUPPORT)
        return out

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[-1]

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        if act(action) == NO_SUPPORT:
            return Refusal("S8.3", "a bombardment is made with support fire only")
        return Refusal("S8.2", f"at most {s.r.per_combat} support fire markers a side in one "
                       "combat, from those drawn this turn (16.0)")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        side = self.side(s, args)
        if a.kind == "support":
            v = a.number("value")
            s.pos.chits[side].remove(v)
            self.mine(s).append(v)
            return [Event(f"{side} commits support fire {v}", "info", rule="S8.2")]
        flow.goto("def-support" if self.name == "support" else "combat-roll")
        return []


class DefSupport(Support):
    """S8.2: the defender adds support fire markers (standing order: none, or strongest)."""

    name = "def-support"
    kind = "defensive-support"
    rule = "S8.2"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return other(s.pos.phasing)

    def mine(self, s: MortainState) -> list[int]:
        c = s.fight()
        return c.def_chits


def combat_strengths(s: MortainState) -> tuple[int, int, str]:
    c = s.fight()
    occ = s.occupant()
    defender = occ[c.target]
    attack = sum(s.r.units[u].factors(s.pos.units[u].depleted)[0] for u in c.attackers)
    defense = s.r.units[defender].factors(s.pos.units[defender].depleted)[1]
    across = bool(c.attackers) and all(
        "see" in s.r.map.side_features(s.pos.units[u].hex, c.target) for u in c.attackers)
    return (attack + sum(c.att_chits), defense + sum(c.def_chits),
            s.r.crt_row(c.target, across_see=across))


class CombatRoll(Roll[MortainState]):
    """The Integrated CRT: attack minus defense on the defender's terrain row, one die."""

    name = "combat-roll"
    rule = "ICRT"

    def request(self, s: MortainState, args: NoArgs) -> ChanceRequest:
        c = s.fight()
        a, d, row = combat_strengths(s)
        return ChanceRequest.roll(f"combat at {c.target}: {a} - {d} = {a - d:+d} on the "
                                  f"{row} row", 6, rule=self.rule)

    def resolve(self, s: MortainState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        c = s.fight()
        a, d, row = combat_strengths(s)
        roll = int(outcome[0])
        res = s.r.icrt.result(row, a - d, roll)
        if c.bombard and res in ("A1", "A2", "A3", "(A)", "Ae"):
            res = "-"  # S8.3: no attacking units to suffer
        c.result = res
        defender = s.occupant()[c.target]
        events = [Event(f"combat at {c.target}: {a} - {d} = {a - d:+d}, {row} row, die {roll}:"
                        f" {res}", "roll", hexes=(c.target,), rule=f"ICRT {res}")]
        if s.r.map.terrain_of(c.target) == "hedgerow":
            events.append(Event(f"{c.target} is a hedgerow hex: the Hedgerow row, whatever the "
                                "direction of the attack", "info", hexes=(c.target,),
                                rule="14.1"))
        elif row == "hill" and s.r.map.terrain_of(c.target) != "hill":
            events.append(Event("an attack wholly across bridged See hexsides: the See River "
                                "(bridged) row", "info", hexes=(c.target,), rule="14.2"))
        if res == "De":
            events.append(Event(s.eliminate(defender), "loss", units=(defender,),
                                rule="ICRT De"))
            flow.goto("advance")
        elif res in ("D2", "D3"):
            flow.goto("def-result")
        elif res == "Ex":
            events.append(Event(s.deplete(defender), "loss", units=(defender,),
                                rule="ICRT Ex"))
            if c.bombard:
                flow.goto("end-combat")
            else:
                flow.goto("att-loss")
        elif res == "(A)":
            flow.goto("att-loss")
        elif res in ("A1", "A2", "A3"):
            flow.goto("att-result")
        elif res == "Ae":
            for u in list(c.attackers):
                events.append(Event(s.eliminate(u), "loss", units=(u,), rule="ICRT Ae"))
            flow.goto("end-combat")
        else:
            flow.goto("end-combat")
        return events


class DefResult(Choice[MortainState]):
    """D2/D3 (7.8): the defender retreats two (three) hexes or depletes instead."""

    name = "def-result"
    kind = "retreat-or-deplete"
    rule = "7.8"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return other(s.pos.phasing)

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return (f"{c.result} at {c.target}: the {self.side(s, args)} player retreats "
                f"{c.result[1]} hexes or depletes the unit (7.8)")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        u = s.occupant()[c.target]
        out: list[Action] = [RETREAT(u, h) for h in s.retreat_ends(u, int(c.result[1]))]
        out.append(DEPLETE(u))
        return out

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("S7.7", "a retreat goes its whole length, each hex farther away, never "
                       "into an enemy unit or ZOC, an occupied hex or across the See (14.2)")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        u = a.text("unit")
        flow.goto("advance")
        if a.kind == "deplete":
            return [Event(f"{s.deplete(u)} instead of retreating", "loss", units=(u,),
                          rule="7.8")]
        frm, to = s.pos.units[u].hex, a.text("to")
        s.pos.units[u].hex = to
        s.note_mortain()
        return [Event(f"{u} retreats {frm} to {to}", "retreat", hexes=(frm, to),
                      units=(u,), rule="S7.7")]


class AttLoss(Choice[MortainState]):
    """(A) and Ex: one attacking unit of the attacker's choice is depleted."""

    name = "att-loss"
    kind = "attacker-loss"
    rule = "ICRT"
    auto = True

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return f"{c.result}: the {s.pos.phasing} player depletes one attacking unit"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        return [DEPLETE(u) for u in c.attackers]

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[0]

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        u = act(action).text("unit")
        ev = Event(s.deplete(u), "loss", units=(u,), rule=f"ICRT {c.result}")
        if s.pos.units[u].status is Status.ELIMINATED:
            c.attackers.remove(u)
        flow.goto("advance" if c.result == "Ex" else "end-combat")
        return [ev]


class AttResult(Choice[MortainState]):
    """A1-A3 (7.8): the attacking units retreat, or one of them is depleted instead."""

    name = "att-result"
    kind = "attacker-retreat"
    rule = "7.8"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return (f"{c.result}: the attackers retreat {c.result[1]} hexes, or one is depleted "
                "(7.8)")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        n = int(c.result[1])
        out: list[Action] = []
        if all(s.retreat_ends(u, n) for u in c.attackers):
            out.append(RETREAT_ATTACKERS)
        out += [DEPLETE(u) for u in c.attackers]
        return out

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("S7.7", "every attacking unit must be able to retreat the whole "
                       "length, else one is depleted (7.8)")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        if a.kind == "deplete":
            u = a.text("unit")
            flow.goto("end-combat")
            return [Event(f"{s.deplete(u)} instead of retreating", "loss", units=(u,),
                          rule="7.8")]
        c.retreating = list(c.attackers)
        flow.goto("att-retreat")
        return []


class AttRetreat(Choice[MortainState]):
    """S7.7: each attacking unit in turn retreats its hexes."""

    name = "att-retreat"
    kind = "attacker-retreat-path"
    rule = "S7.7"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return f"retreat {c.retreating[0]} {c.result[1]} hexes"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        u = c.retreating[0]
        ends = s.retreat_ends(u, int(c.result[1]))
        if not ends:  # an earlier retreat closed the way: the unit depletes (S7.7)
            return [DEPLETE(u)]
        return [RETREAT(u, h) for h in ends]

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return self.options(s, args)[0]

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("S7.7", "a retreat goes its whole length, each hex farther away, never "
                       "into an enemy unit or ZOC, an occupied hex or across the See (14.2)")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        u = c.retreating.pop(0)
        if a.kind == "deplete":
            ev = Event(f"{s.deplete(u)}: no retreat left", "loss", units=(u,), rule="S7.7")
        else:
            frm, to = s.pos.units[u].hex, a.text("to")
            s.pos.units[u].hex = to
            s.note_mortain()
            ev = Event(f"{u} retreats {frm} to {to}", "retreat", hexes=(frm, to), units=(u,),
                       rule="S7.7")
        if not c.retreating:
            flow.goto("end-combat")
        return [ev]


class Advance(Choice[MortainState]):
    """S7.9: when the defender's hex is left empty, one attacking unit may advance into it."""

    name = "advance"
    kind = "advance"
    rule = "S7.9"

    def side(self, s: MortainState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return f"advance after combat into {c.target}?"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        out: list[Action] = []
        surprise = s.pos.turn == 1 and s.pos.phasing == "us"  # 18.0
        if c.target not in s.occupant() and not surprise:
            out = [ADVANCE(u) for u in c.attackers if s.pos.units[u].status is Status.MAP]
        out.append(NO_ADVANCE)
        return out

    auto = True

    def default(self, s: MortainState, args: NoArgs) -> Action:
        return NO_ADVANCE

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        if s.pos.turn == 1 and s.pos.phasing == "us":
            return Refusal("18.0", "surprise: on Aug. 6th no US unit may move from its "
                           "set-up hex, nor advance after combat")
        return Refusal("S7.9", "only an attacking unit advances, into the defender's hex "
                       "once it is empty")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        flow.goto("end-combat")
        if a.kind == "no-advance":
            return []
        u = a.text("unit")
        frm = s.pos.units[u].hex
        s.pos.units[u].hex = c.target
        s.note_mortain()
        return [Event(f"{u} advances {frm} to {c.target}", "move", hexes=(frm, c.target),
                      units=(u,), rule="S7.9")]


class EndCombat(Procedure[MortainState]):
    name = "end-combat"
    rule = "S7"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        s.pos.combat = None
        flow.end()
        return []


class EndTurn(Procedure[MortainState]):
    """19.0 at the end of each game turn; 19.2 after the last; unused markers go back."""

    name = "end-turn"
    rule = "19.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        flow.end()
        exits, captured = s.german_exits(), s.mortain_captured()
        if exits >= 5 and captured:
            pos.winner = "german"
            return [Event(f"German victory: {exits} mobile units exited and Mortain captured",
                          "info", rule="19.0")]
        pos.chits = {side: [] for side in SIDES}
        pos.turn += 1
        pos.phasing, pos.phase = "german", "movement"
        if pos.turn > pos.last_turn:
            pos.winner = "us"
            return [Event(f"US victory: {exits} of 5 mobile units exited, Mortain "
                          f"{'captured' if captured else 'not captured'}", "info",
                          rule="19.2")]
        return []


MortainState.steps = step_table(
    Game(), UsSetup(), Turn(), HillCheck(), Allot(), Draw(), BeginPlayer(), Move(),
    CombatPhase(), Attackers(), Support(), DefSupport(), CombatRoll(), DefResult(),
    AttLoss(), AttResult(), AttRetreat(), Advance(), EndCombat(), EndTurn())


def new_position(scenario: str) -> Position:
    r = rules()
    return Position(
        turn=1, last_turn=r.last_turn, phasing="us", phase="setup",
        units={u: Unit() for u in r.order},
        chits={side: [] for side in SIDES}, allotment={side: 0 for side in SIDES})
