"""Bridgehead: the engine guide's tutorial game (docs/engine-guide.md, part II).

A small hex game on the kit: three blue units force a river crossing against two red
ones on an 8 by 6 map, over four game turns.  Its rulebook is its engine page,
tests/tutorial/README.md; rule numbers here are that page's.  The guide quotes this file,
and tests/tutorial/test_guide_excerpts.py checks every quotation still matches it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engines.hexkit.board import board_view
from engines.hexkit.facts import BoardFacts, Placed, ZocRule, board_facts
from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.movement import MoveCosts, move_class_from_chart, reachable
from engines.hexkit.retreat import priority_ranker, retreat_options
from engines.hexkit.scenario import ScenarioSet, load_scenario_path
from engines.hexkit.shared import Shared
from engines.hexkit.zoc import ZocMap, ZocPolicy
from pbem import dataclass_code
from pbem.engine import (
    Action,
    ChanceRequest,
    Engine,
    Event,
    Outcome,
    Result,
    ScenarioInfo,
    State,
    package_files,
)
from pbem.errors import ActionSyntaxError
from pbem.steps import (
    PHASING,
    Choice,
    Entry,
    Flow,
    Frame,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    Sequence,
    StepState,
    step_table,
)
from pbem.view import BoardView, Piece

# an engine outside pbem's distribution keeps its dataclasses' generated code only if it
# asks (pbem/dataclass_code.py)
dataclass_code.keep(__name__)

SIDES = ("blue", "red")
COLORS = {"blue": "#3050c0", "red": "#c03030"}


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


# -- the data: read once, shared by every state ---------------------------------------------


@dataclass(frozen=True)
class UnitInfo(Shared):
    id: str
    side: str
    attack: int
    defense: int
    ma: int


class Rules(Shared):
    """The map, the charts and the order of battle (never copied with a state)."""

    def __init__(self, data: ScenarioSet) -> None:
        self.data = data
        self.map = data.map
        self.tec = data.chart("tec")
        self.crt = data.odds_crt("crt")
        # 3.1, 3.2: the chart's "move" column, the river crossed only at a bridge
        move_class = move_class_from_chart("all", self.tec, "move", self.map,
                                           negated_by={"river": ("bridge",)})
        self.costs = MoveCosts(self.map, move_class)
        doc = data.doc("units.toml")
        units: dict[str, UnitInfo] = {}
        for i, spec in enumerate(doc.get_list("units")):
            attack, defense, ma = (int(x) for x in str(spec["factors"]).split("-"))
            uid, side = str(spec["id"]), str(spec["side"])
            if uid in units or side not in SIDES:
                raise doc.error(("units", i), f"unit {uid!r}: a second unit of this id, "
                                "or a side that is not blue or red")
            units[uid] = UnitInfo(uid, side, attack, defense, ma)
        self.units: Mapping[str, UnitInfo] = units
        scenario = data.scenario("bridgehead")
        self.start = {uid: scenario.hex(self.map, "setup", uid) for uid in units}
        self.last_turn = data.infos()[0].turns[1]
        self.town = self.map.place("Millbrook")[0]

    def barred(self, a: HexId, b: HexId) -> bool:
        """3.2: a river hexside without a bridge (4.1, 5.1 and 6.2 refer to it)."""
        feats = self.map.hexsides.get(hexside(a, b), frozenset())
        return "river" in feats and "bridge" not in feats


@functools.cache
def rules() -> Rules:
    return Rules(load_scenario_path(package_files("tutorial_data"), label="tutorial_data"))


# -- the actions and their notation ---------------------------------------------------------


@dataclass(frozen=True)
class Move(Action):
    unit: str
    to: str

    def notation(self) -> str:
        return f"move {self.unit} {self.to}"


@dataclass(frozen=True)
class Attack(Action):
    target: str

    def notation(self) -> str:
        return f"attack {self.target}"


@dataclass(frozen=True)
class Retreat(Action):
    to: str

    def notation(self) -> str:
        return f"retreat {self.to}"


@dataclass(frozen=True)
class End(Action):
    def notation(self) -> str:
        return "end"


def parse(text: str) -> Action:
    """The one reader of Bridgehead's notation: ``move B1 0304``, ``attack 0603``,
    ``retreat 0604``, ``end``.  Shape only; whether it is legal is the step's question."""
    words = text.split()
    hexes, units = rules().map.index, rules().units
    if words[:1] == ["move"] and len(words) == 3 and words[1] in units and words[2] in hexes:
        return Move(words[1], words[2])
    if words[:1] == ["attack"] and len(words) == 2 and words[1] in hexes:
        return Attack(words[1])
    if words[:1] == ["retreat"] and len(words) == 2 and words[1] in hexes:
        return Retreat(words[1])
    if words == ["end"]:
        return End()
    raise ActionSyntaxError(f"cannot read {text!r}: try 'move B1 0304', 'attack 0603', "
                            "'retreat 0604' or 'end'")


# -- the position ---------------------------------------------------------------------------


@dataclass
class Position:
    turn: int
    last_turn: int
    phasing: str
    #: unit id -> its hex; "" once eliminated
    units: dict[str, str]
    #: 3.1: units that have moved this movement phase
    moved: set[str] = field(default_factory=set)
    #: 5.1: units that have attacked, and hexes attacked, this combat phase
    attacked: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Battle:
    """The frame arguments of one attack's die roll (5.3)."""

    target: str = ""
    attackers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retreating:
    """The frame arguments of a retreat (6.2)."""

    unit: str = ""


# -- the steps ------------------------------------------------------------------------------


class Game(Procedure["BridgeheadState"]):
    """Player turns until the game is over (the runtime stops when ``over()`` says so)."""

    name = "game"

    def run(self, s: BridgeheadState, args: NoArgs, flow: Flow) -> list[Event]:
        flow.call("player-turn")
        return []


class PlayerTurn(Sequence["BridgeheadState"]):
    name = "player-turn"
    entries = (
        Entry("1", "movement"),
        Entry("1", "combat"),
        Entry("1", "end-player-turn"),
    )


class Movement(Choice["BridgeheadState"]):
    name = "movement"
    kind = "move"
    rule = "3.1"
    prompt_template = "the {side} player moves (turn {turn}), or ends the phase"
    default_action = End()
    decider = PHASING  # the state's phasing_side()

    def prompt_fields(self, s: BridgeheadState, args: NoArgs) -> dict[str, int]:
        return {"turn": s.pos.turn}

    def options(self, s: BridgeheadState, args: NoArgs) -> list[Action]:
        out: list[Action] = []
        for uid in s.own(s.pos.phasing):
            if uid not in s.pos.moved:
                out += [Move(uid, h) for h in s.reach(uid)]
        return [*out, End()]

    def why_not(self, s: BridgeheadState, args: NoArgs, action: Action) -> str | Refusal:
        if not isinstance(action, Move):
            return f"{action.notation()!r} is not a move: move a unit or end the phase"
        if s.pos.units.get(action.unit) == "" or \
                rules().units[action.unit].side != s.pos.phasing:
            return Refusal("3.1", f"{action.unit} is not a {s.pos.phasing} unit on the map")
        if action.unit in s.pos.moved:
            return Refusal("3.1", f"{action.unit} has moved this phase")
        if action.to in {s.pos.units[u] for u in s.own(other(s.pos.phasing))}:
            return Refusal("3.3", f"{action.to} holds an enemy unit")
        if action.to in s.occupied():
            return Refusal("2", f"{action.to} is occupied: one unit a hex")
        start, zoc = s.pos.units[action.unit], s.zoc(other(s.pos.phasing))
        if rules().map.distance(start, action.to) == 1:
            if rules().barred(start, action.to):
                return Refusal("3.2", f"{action.unit} cannot cross the river from {start} "
                               f"to {action.to}: only at the bridge")
            if start in zoc and action.to in zoc:
                return Refusal("4.3", f"{action.unit} cannot move from one enemy zone of "
                               f"control hex ({start}) straight into another")
        return Refusal("3.1", f"{action.unit} cannot reach {action.to}: its movement "
                       "allowance, the river (3.2) and enemy zones of control (4.2, 4.3)")

    def apply(self, s: BridgeheadState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        if isinstance(action, Move):
            start = s.pos.units[action.unit]
            s.pos.units[action.unit] = action.to
            s.pos.moved.add(action.unit)
            stops = (" and stops in an enemy zone of control (4.1, 4.2)"
                     if action.to in s.zoc(other(s.pos.phasing)) else "")
            return [Event(f"{action.unit} moves {start} to {action.to}{stops}", "move",
                          hexes=(start, action.to), units=(action.unit,), rule="3.1")]
        flow.end()
        return [Event(f"{s.pos.phasing} ends its movement phase", "phase", rule="1")]


class Combat(Choice["BridgeheadState"]):
    name = "combat"
    kind = "attack"
    rule = "5.1"
    prompt_template = "the {side} player attacks a hex, or ends the phase"
    default_action = End()
    decider = PHASING  # the state's phasing_side()

    def options(self, s: BridgeheadState, args: NoArgs) -> list[Action]:
        out: list[Action] = []
        for uid in s.own(other(s.pos.phasing)):
            target = s.pos.units[uid]
            if target not in s.pos.targets and s.attackers(target):
                out.append(Attack(target))
        return [*sorted(out, key=lambda a: a.notation()), End()]

    def why_not(self, s: BridgeheadState, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Attack) and action.target in s.pos.targets:
            return Refusal("5.1", f"{action.target} has been attacked this phase")
        return Refusal("5.1", f"{action.notation()!r}: attack an enemy unit next to a unit "
                       "that has not attacked, not across the river (3.2), or end")

    def apply(self, s: BridgeheadState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        if isinstance(action, Attack):
            attack(s, action.target)
            return []
        flow.end()
        return [Event(f"{s.pos.phasing} ends its combat phase", "phase", rule="1")]


def attack(s: BridgeheadState, target: str) -> None:
    """5.1: every unit next to ``target`` that has not attacked attacks it; the die
    (5.3) is rolled next.  A rule function: it tells its event and queues the roll."""
    attackers = s.attackers(target)
    s.pos.attacked.update(attackers)
    s.pos.targets.add(target)
    s.queue("combat-roll", Battle(target, attackers))
    s.tell(Event(f"{', '.join(attackers)} attack {target}", "attack", hexes=(target,),
                 units=attackers, rule="5.1"))


class CombatRoll(Roll["BridgeheadState"]):
    name = "combat-roll"
    rule = "5.3"
    Args = Battle

    def request(self, s: BridgeheadState, args: Battle) -> ChanceRequest:
        assert args.target, "a combat roll is set up with its battle's frame"
        return ChanceRequest.roll(f"combat at {args.target}", 6, rule=self.rule)

    def resolve(self, s: BridgeheadState, args: Battle, outcome: Outcome,
                flow: Flow) -> list[Event]:
        R = rules()
        defender = s.unit_at(args.target)
        attack = sum(R.units[u].attack for u in args.attackers)
        defense = R.units[defender].defense
        shift = int(R.tec.value(R.map.terrain_of(args.target), "shift"))  # 5.2
        column = R.crt.column(attack, defense, shift)
        result = str(R.crt.result(column, int(outcome[0])))
        said = (f"{attack} to {defense} at {column.label}"
                f"{' (5.2: shifted for the terrain)' if shift else ''}, "
                f"roll {outcome[0]}: {result}")
        if result == "AE":
            eliminate(s, args.attackers, f"{said}, the attackers are eliminated", "6.1")
            return []
        if result == "DE":
            eliminate(s, (defender,), f"{said}, {defender} is eliminated", "6.1")
            return []
        if result == "DR":
            if not s.retreats(defender):
                eliminate(s, (defender,), f"{said}, {defender} cannot retreat and is "
                          "eliminated", "6.2")
                return []
            flow.goto("retreat", Retreating(defender))
            return [Event(f"{said}, {defender} must retreat", "roll", rule="6.1")]
        return [Event(f"{said}, no effect", "roll", rule="6.1")]


def eliminate(s: BridgeheadState, units: tuple[str, ...], said: str, rule: str) -> None:
    """6.1, 6.2: ``units`` leave the map; the game ends at once if a side has none left
    (7.1: told after the loss, by :func:`wiped_out`)."""
    for uid in units:
        s.pos.units[uid] = ""
    s.tell(Event(said, "loss", units=units, rule=rule))
    wiped_out(s)


def wiped_out(s: BridgeheadState) -> None:
    """7.1: the game ends at once when a side has no unit left."""
    for side in SIDES:
        if not s.own(side):
            s.tell(Event(f"the {side} side has no unit left and loses", "phase", rule="7.1"))


class RetreatChoice(Choice["BridgeheadState"]):
    """6.2: the owner picks the hex, inside the other side's turn."""

    name = "retreat"
    kind = "retreat"
    rule = "6.2"
    Args = Retreating
    auto = True  # one hex to go to is no decision
    prompt_template = "the {side} player retreats {unit} one hex"
    order = "retreat to the first hex listed"
    default_option = 0  # what the standing order answers
    decider_unit = "unit"  # the retreating unit's owner (BridgeheadState.owner)

    def options(self, s: BridgeheadState, args: Retreating) -> list[Action]:
        return [Retreat(h) for h in s.retreats(args.unit)]

    def why_not(self, s: BridgeheadState, args: Retreating, action: Action) -> Refusal:
        return Refusal("6.2", f"{args.unit} retreats to an adjacent empty hex out of "
                       "enemy zones of control, not across the river")

    def apply(self, s: BridgeheadState, args: Retreating, action: Action,
              flow: Flow) -> list[Event]:
        assert isinstance(action, Retreat)
        start = s.pos.units[args.unit]
        s.pos.units[args.unit] = action.to
        flow.end()
        return [Event(f"{args.unit} retreats {start} to {action.to}", "retreat",
                      hexes=(start, action.to), units=(args.unit,), rule="6.2")]


class EndPlayerTurn(Procedure["BridgeheadState"]):
    name = "end-player-turn"
    rule = "1"

    def run(self, s: BridgeheadState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.moved, pos.attacked, pos.targets = set(), set(), set()
        if pos.phasing == "red":
            pos.turn += 1
        pos.phasing = other(pos.phasing)
        flow.end()
        if pos.turn > pos.last_turn:
            result = s._result()
            assert result is not None
            return [Event(f"the last turn ends: {result.text}", "phase", rule="7.2")]
        return []


# -- the state: rules helpers, the adapters, the result and the view -------------------------

#: 4.2, 4.3: entering an enemy ZOC ends the move; no move from one enemy ZOC hex to another
POLICY = ZocPolicy(stop_on_entry=True, zoc_to_zoc=False)


@functools.cache
def zoc_rule() -> ZocRule:
    """4.1: every unit's ZOC, not across a river hexside without a bridge (built once:
    the board facts know a rule by identity)."""
    return ZocRule(blocks=rules().barred)
#: the frame above each step of the player turn (the setup API's ``step = "..."``)
ENTRY = {"movement": 1, "combat": 2, "end-player-turn": 3}


class BridgeheadState(StepState[Position]):
    steps = step_table(Game(), PlayerTurn(), Movement(), Combat(), CombatRoll(),
                       RetreatChoice(), EndPlayerTurn())
    start = "game"
    Position = Position
    memo_options = True  # a decision's options are listed once, not per ask

    def own(self, side: str) -> list[str]:
        """The side's units on the map, in id order."""
        return [u for u, h in sorted(self.pos.units.items())
                if h and rules().units[u].side == side]

    def phasing_side(self) -> str:
        return self.pos.phasing

    def owner(self, unit: str) -> str:
        return rules().units[unit].side

    def facts(self) -> BoardFacts:
        """The kit's facts of where the units stand, computed once per placement."""
        R = rules()
        return board_facts(R.map, [Placed(u, h, R.units[u].side)
                                   for u, h in self.pos.units.items() if h])

    def occupied(self) -> frozenset[str]:
        return self.facts().occupied()

    def unit_at(self, h: str) -> str:
        return self.facts().at(h)[0]

    def zoc(self, side: str) -> ZocMap:
        """4.1: the ZOC the side's units exert, not across the river but at the bridge."""
        return self.facts().zoc(side, zoc_rule())

    def reach(self, uid: str) -> tuple[str, ...]:
        """3.1-3.3, 4.2, 4.3, 2: where the unit may end its move."""
        R, side = rules(), rules().units[uid].side
        enemy = {self.pos.units[u] for u in self.own(other(side))}
        occupied = self.occupied()
        found = reachable(R.costs, self.pos.units[uid], R.units[uid].ma,
                          zoc=self.zoc(other(side)).hexes, policy=POLICY, blocked=enemy,
                          can_end=lambda h: h not in occupied)
        return found.ends

    def attackers(self, target: str) -> tuple[str, ...]:
        """5.1: the phasing units next to ``target`` that have not attacked this phase."""
        R = rules()
        return tuple(u for u in self.own(self.pos.phasing) if u not in self.pos.attacked
                     and R.map.distance(self.pos.units[u], target) == 1
                     and not R.barred(self.pos.units[u], target))

    def retreats(self, uid: str) -> tuple[str, ...]:
        """6.2: the empty adjacent hexes out of enemy ZOC, not across the river."""
        R, side = rules(), rules().units[uid].side
        occupied, zoc = self.occupied(), self.zoc(other(side))
        rank = priority_ranker([lambda h: h not in occupied and h not in zoc])
        found = retreat_options(R.map, self.pos.units[uid], 1, rank,
                                may_cross=lambda a, b: not R.barred(a, b))
        return found.hexes if found.complete else ()

    def over(self) -> bool:
        return self.pos.turn > self.pos.last_turn or not all(self.own(s) for s in SIDES)

    def frames_for(self, step: str) -> list[Frame]:
        if step in ENTRY:
            return [Frame("game"), Frame("player-turn", pc=ENTRY[step]), Frame(step)]
        if step in ("combat-roll", "retreat"):
            # above the combat phase, with empty arguments, which setup refuses: the
            # battle or the retreating unit comes with the frames (``stack = [...]``)
            return [*self.frames_for("combat"), Frame(step, self.steps[step].Args())]
        raise KeyError(step)

    def _result(self) -> Result | None:
        for side in SIDES:  # 7.1
            if not self.own(side):
                return Result(other(side), "rules", f"the {side} side has no unit left")
        town = rules().town  # 7.2
        held = any(self.pos.units[u] == town for u in self.own("blue"))
        if held:
            return Result("blue", "rules", f"blue holds Millbrook ({town})")
        return Result("red", "rules", f"blue does not hold Millbrook ({town})")

    def turn_number(self) -> int:
        return self.pos.turn

    def _view(self, side: str | None) -> BoardView:
        R = rules()
        pieces = [Piece(u, R.units[u].side, f"{R.units[u].attack}-{R.units[u].defense}-"
                        f"{R.units[u].ma}", h, name=f"{R.units[u].side} {u}",
                        color=COLORS[R.units[u].side])
                  for u, h in sorted(self.pos.units.items()) if h]
        step = self.stack[-1].step if self.stack else "over"
        return board_view(R.map, pieces, side=side, highlights=sorted(self.pos.targets),
                          status=f"turn {self.pos.turn}/{self.pos.last_turn}, "
                                 f"{self.pos.phasing} phasing, {step}")

    def parse_action(self, text: str) -> Action:
        return parse(text)


class BridgeheadEngine(Engine):
    id = "bridgehead"
    title = "Bridgehead (the engine guide's tutorial)"
    rules_version = "1"
    sides = SIDES
    # what play says the first time it offers each first word (pbem.engine.Engine)
    action_words = MappingProxyType({
        "move": "move a unit to a hex its movement points reach, stopping on entering an "
                "enemy zone of control (3.1, 4.1)",
        "attack": "attack an adjacent enemy hex with every unit next to it you name (5.1)",
        "retreat": "move the defeated defender to an adjacent empty hex not in an enemy zone "
                   "of control (6.2)",
        "end": "end this phase (1)",
    })

    # its decision kinds, standing orders and restore come from its steps (pbem.engine)
    state_class = BridgeheadState

    def scenarios(self) -> list[ScenarioInfo]:
        return rules().data.infos()

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        R = rules()
        state = BridgeheadState(self, scenario, options)
        state.begin(Position(turn=1, last_turn=R.last_turn, phasing="blue",
                             units=dict(sorted(R.start.items()))))
        return state


ENGINE = BridgeheadEngine()
