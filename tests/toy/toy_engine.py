"""A small game that lives in tests: it exercises every part of the engine contract.

"Skirmish": two sides, red and blue, each with a strength of 10 (scenario "short": 4
rounds; "long": 12).  Each round starts with a draw from the event cup.  The phasing side
may move its column once (``move a|b|c``), then ``attack N`` (N = 1..3) or ``pass``.  An
attack rolls 2d6; on 7 or more the defender must decide (``absorb`` or ``retreat``): this is
an opponent decision point inside the phasing side's turn, as in real wargames.  Absorbing
rolls 1d6 for the loss.  The sides alternate as phasing side; the game ends after the last
round, or when a side reaches strength 0.

Scenario "night" adds Skirmish 5, for sealed dice batching (pbem.steps, issue 21): instead of
moving, the phasing side may fire one or two flares (``flare N``); each rolls 1d6 and on 5
or 6 the enemy loses a point (never below 1).  Nothing the phasing side orders afterwards
reads a flare, so the flares' rolls may wait until its orders end: with sealed dice they
travel with the rest of its file and the opponent's next file resolves them.

Scenario "dusk" adds Skirmish 6, for sealed rules 2 (docs/protocol.md 6.2.1, issue 32): an
attack that misses leaves the attacker only ``regroup``, then the turn passes.  Under sealed
rules 1 that non-choice costs a rolls-only reply and a file of one action; under rules 2
the resolver's program takes it and plays on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pbem import dataclass_code
from pbem.engine import (
    Action,
    ChanceRequest,
    Decision,
    Engine,
    Event,
    OptionSpec,
    Outcome,
    Result,
    ScenarioInfo,
    State,
    package_files,
)
from pbem.errors import ActionSyntaxError
from pbem.steps import (
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
from pbem.view import BoardView, Cell, Layout, Piece, TerrainStyle

# an engine outside pbem's distribution keeps its dataclasses' generated code only if it
# asks (pbem/dataclass_code.py); the toy asks, as a third-party engine could
dataclass_code.keep(__name__)

SIDES = ("red", "blue")
COLUMNS = ("a", "b", "c")
ROUNDS = {"short": 4, "long": 12, "marathon": 520, "ultramarathon": 1100, "night": 4,
          "dusk": 4}
#: starting strength: the marathon must not end early, it exists to make long transcripts
STRENGTH = {"short": 10, "long": 10, "marathon": 100_000, "ultramarathon": 100_000,
            "night": 10, "dusk": 10}
#: the scenarios with flares (Skirmish 5)
FLARES = ("night",)
#: Skirmish 6: a missed attack is followed by the attacker's one option, regroup
REGROUP = ("dusk",)
CUP = ("calm", "calm", "fog", "rally", "storm")


@dataclass(frozen=True)
class Move(Action):
    column: str

    def notation(self) -> str:
        return f"move {self.column}"


@dataclass(frozen=True)
class Attack(Action):
    strength: int

    def notation(self) -> str:
        return f"attack {self.strength}"


@dataclass(frozen=True)
class Flare(Action):
    count: int

    def notation(self) -> str:
        return f"flare {self.count}"


@dataclass(frozen=True)
class Word(Action):
    word: str  # pass, absorb, retreat

    def notation(self) -> str:
        return self.word


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


class Weather(Enum):
    CALM = "calm"
    FOG = "fog"
    RALLY = "rally"
    STORM = "storm"


# -- the position: typed, its snapshot derived by pbem.codec ---------------------------------


@dataclass
class Force:
    column: str
    strength: int


@dataclass
class Position:
    round: int
    last_round: int
    phasing: str
    forces: dict[str, Force]
    weather: Weather
    cup: tuple[str, ...]
    moved: bool = False
    committed: int = 0


# -- the steps: one class per decision point, roll and piece of bookkeeping ------------------


class Game(Procedure["SkirmishState"]):
    """Rounds until the last (the runtime stops once ``over()`` says the game is over)."""

    name = "game"

    def run(self, s: SkirmishState, args: NoArgs, flow: Flow) -> list[Event]:
        flow.call("turn")
        return []


class Turn(Sequence["SkirmishState"]):
    """A side's turn, as the rules list it."""

    name = "turn"
    entries = (
        Entry("Skirmish 1", "event"),
        Entry("Skirmish 2", "orders"),
        Entry("Skirmish 2.3", "end-orders"),
    )


class DrawEvent(Roll["SkirmishState"]):
    name = "event"
    rule = "Skirmish 1"

    def request(self, s: SkirmishState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.draw(f"event for round {s.pos.round}", "events", s.pos.cup, 1,
                                  rule=self.rule)

    def resolve(self, s: SkirmishState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        s.pos.weather = Weather(str(outcome[0]))
        return [Event(f"round {s.pos.round}: {s.pos.weather.value}", "phase")]


class Orders(Choice["SkirmishState"]):
    """Move once, then attack or pass (Skirmish 2)."""

    name = "orders"
    kind = "orders"
    rule = "Skirmish 2"
    #: Skirmish 5: a flare's roll waits while the phasing side goes on giving orders
    lets_wait = frozenset({"flares"})
    prompt_template = "the {side} player gives orders for round {round}"
    default_action = Word("pass")

    def side(self, s: SkirmishState, args: NoArgs) -> str:
        return s.pos.phasing

    def prompt_fields(self, s: SkirmishState, args: NoArgs) -> dict[str, int]:
        return {"round": s.pos.round}

    def options(self, s: SkirmishState, args: NoArgs) -> list[Action]:
        pos, force = s.pos, s.pos.forces[s.pos.phasing]
        out: list[Action] = []
        if not pos.moved:  # Skirmish 2.1: one move a round
            out += [Move(c) for c in COLUMNS if c != force.column]
            if s.scenario in FLARES:  # Skirmish 5: flares instead of the move
                out += [Flare(1), Flare(2)]
        if pos.weather is not Weather.STORM:  # Skirmish 4: no attacks in a storm
            out += [Attack(n) for n in range(1, min(3, force.strength) + 1)]
        out.append(Word("pass"))
        return out

    def why_not(self, s: SkirmishState, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Move):
            if s.pos.moved:
                return Refusal("Skirmish 2.1", "a side moves at most once per round")
            return Refusal("Skirmish 2.1", f"cannot move to column {action.column}")
        if isinstance(action, Flare):
            return Refusal("Skirmish 5", "flares only at night, once a round, instead of "
                           "the move, one or two")
        if isinstance(action, Attack):
            if s.pos.weather is Weather.STORM:
                return Refusal("Skirmish 4", "no attacks in a storm")
            return Refusal("Skirmish 2.2", f"cannot commit {action.strength}")
        return f"{action.notation()!r} is not an order"

    def apply(self, s: SkirmishState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        side = s.pos.phasing
        if isinstance(action, Move):
            s.pos.forces[side].column = action.column
            s.pos.moved = True
            return [Event(f"{side} moves to column {action.column}", "move",
                          hexes=(s.hex(side),))]
        if isinstance(action, Flare):
            fire_flares(s, side, action.count)
            return []
        if isinstance(action, Attack):
            s.pos.committed = action.strength
            flow.goto("attack-roll")
            return [Event(f"{side} attacks with {action.strength}", "attack",
                          hexes=(s.hex(other(side)),))]
        flow.end()
        return [Event(f"{side} passes", "info")]


def fire_flares(s: SkirmishState, side: str, count: int) -> None:
    """Skirmish 5: flares instead of the move, each a roll (queued: this rule function
    has no flow) after the event it tells."""
    s.pos.moved = True
    for _ in range(count):
        s.queue("flare-roll")
    s.tell(Event(f"{side} fires {count} flare(s)", "attack", hexes=(s.hex(other(side)),)))


class FlareRoll(Roll["SkirmishState"]):
    name = "flare-roll"
    rule = "Skirmish 5"
    #: Skirmish 5: nothing the phasing side orders after a flare reads it, so its roll may
    #: wait while that side gives its orders (Orders.lets_wait); the end of the orders
    #: (Skirmish 2.3, which changes the phasing side) comes after it
    batch = "flares"

    def request(self, s: SkirmishState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"flare over {other(s.pos.phasing)}", 6, rule=self.rule)

    def resolve(self, s: SkirmishState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        enemy = other(s.pos.phasing)
        force = s.pos.forces[enemy]
        if int(outcome[0]) >= 5 and force.strength > 1:
            force.strength -= 1
            return [Event(f"flare roll {outcome[0]}: {enemy} caught in the light, loses 1",
                          "loss", units=(enemy,), rule=self.rule)]
        return [Event(f"flare roll {outcome[0]}: nothing seen", "roll", rule=self.rule)]


class AttackRoll(Roll["SkirmishState"]):
    name = "attack-roll"
    rule = "Skirmish 2.2"

    def request(self, s: SkirmishState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"attack by {s.pos.phasing} with {s.pos.committed}", 6, 6,
                                  rule=self.rule)

    def resolve(self, s: SkirmishState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        faces = [int(x) for x in outcome]
        # fog costs the attacker one (Skirmish 4)
        total = sum(faces) + s.pos.committed - (1 if s.pos.weather is Weather.FOG else 0)
        if total >= 7:
            flow.goto("defend")
            return [Event(f"attack roll {faces} total {total}: hit", "roll")]
        if s.scenario in REGROUP:
            flow.goto("regroup")
        return [Event(f"attack roll {faces} total {total}: miss", "roll")]


class Regroup(Choice["SkirmishState"]):
    """Skirmish 6 (dusk): after a missed attack the attacker regroups, its one option."""

    name = "regroup"
    kind = "regroup"
    rule = "Skirmish 6"
    prompt_template = "the {side} player regroups after the missed attack"

    def side(self, s: SkirmishState, args: NoArgs) -> str:
        return s.pos.phasing

    def options(self, s: SkirmishState, args: NoArgs) -> list[Action]:
        return [Word("regroup")]

    def apply(self, s: SkirmishState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        flow.end()
        return [Event(f"{s.pos.phasing} regroups", "info")]


class Defend(Choice["SkirmishState"]):
    """The defender's decision inside the attacker's turn (Skirmish 3)."""

    name = "defend"
    kind = "take-result"
    rule = "Skirmish 3"
    prompt_template = "the {side} player must absorb or retreat from an attack of {committed}"
    default_action = Word("absorb")
    order = "absorb the attack"
    order_policies = (("retreat", "retreat from the attack"),)

    def side(self, s: SkirmishState, args: NoArgs) -> str:
        return other(s.pos.phasing)

    def prompt_fields(self, s: SkirmishState, args: NoArgs) -> dict[str, int]:
        return {"committed": s.pos.committed}

    def options(self, s: SkirmishState, args: NoArgs) -> list[Action]:
        return [Word("absorb"), Word("retreat")]

    def why_not(self, s: SkirmishState, args: NoArgs, action: Action) -> str:
        return "the defender must absorb or retreat"

    def apply(self, s: SkirmishState, args: NoArgs, action: Action,
              flow: Flow) -> list[Event]:
        side = self.side(s, args)
        flow.end()  # the decision is taken ...
        if action == Word("retreat"):
            force = s.pos.forces[side]
            force.column = "b" if force.column != "b" else "a"
            return [Event(f"{side} retreats to column {force.column}", "retreat",
                          hexes=(s.hex(side),))]
        flow.goto("loss-roll", replace=True)  # ... and absorbing it goes on to the loss
        return [Event(f"{side} stands and absorbs the attack", "info")]


class LossRoll(Roll["SkirmishState"]):
    name = "loss-roll"
    rule = "Skirmish 3"

    def request(self, s: SkirmishState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"loss for {other(s.pos.phasing)}", 6, rule=self.rule)

    def resolve(self, s: SkirmishState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        defender = s.pos.forces[other(s.pos.phasing)]
        loss = min(defender.strength, (int(outcome[0]) + 1) // 2)
        defender.strength -= loss
        return [Event(f"{other(s.pos.phasing)} loses {loss}", "loss",
                      units=(other(s.pos.phasing),))]


class EndOrders(Procedure["SkirmishState"]):
    """The turn passes; after blue's, the round ends (a rally restores a point)."""

    name = "end-orders"
    rule = "Skirmish 2.3"

    def run(self, s: SkirmishState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.moved, pos.committed = False, 0
        if pos.phasing == "blue":
            pos.round += 1
            if pos.weather is Weather.RALLY:
                for force in pos.forces.values():
                    force.strength = min(STRENGTH[s.scenario], force.strength + 1)
        pos.phasing = other(pos.phasing)
        flow.end()
        return []


class SkirmishState(StepState[Position]):
    steps = step_table(Game(), Turn(), DrawEvent(), Orders(), FlareRoll(), AttackRoll(),
                       Defend(), LossRoll(), EndOrders(), Regroup())
    start = "game"
    Position = Position
    memo_options = True

    def over(self) -> bool:
        return (self.pos.round > self.pos.last_round
                or min(f.strength for f in self.pos.forces.values()) <= 0)

    def frames_for(self, step: str) -> list[Frame]:
        """Setup adapter: the frames above a step (the turn sequence past its entry)."""
        if step not in self.steps or step in ("game", "turn"):
            raise KeyError(step)
        entry = {"event": 1, "orders": 2, "end-orders": 3}.get(step, 2)
        return [Frame("game"), Frame("turn", pc=entry), Frame(step)]

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """Setup adapter: ``red = "b 7"`` places the red force in column b at strength 7."""
        for side in SIDES:
            if side in data:
                column, _, strength = str(data.pop(side)).partition(" ")
                force = data.setdefault("forces", {}).setdefault(side, {})
                force["column"] = column
                if strength:
                    force["strength"] = int(strength)
        return data

    def _result(self) -> Result | None:
        red, blue = self.pos.forces["red"].strength, self.pos.forces["blue"].strength
        if red == blue:
            return Result(None, "rules", f"drawn at {red} each")
        winner = "red" if red > blue else "blue"
        return Result(winner, "rules", f"{winner} wins {max(red, blue)} to {min(red, blue)}")

    def turn_number(self) -> int:
        return self.pos.round

    def hex(self, side: str) -> str:
        return f"0{COLUMNS.index(self.pos.forces[side].column) + 1}0{1 if side == 'red' else 2}"

    def _view(self, side: str | None) -> BoardView:
        cells = tuple(Cell(f"0{c}0{r}", c, r, "clear") for c in (1, 2, 3) for r in (1, 2))
        pieces = tuple(
            Piece(s, s, str(self.pos.forces[s].strength), self.hex(s), name=f"{s} force",
                  color="#c03030" if s == "red" else "#3050c0")
            for s in SIDES)
        step = self.stack[-1].step if self.stack else "over"
        return BoardView("Skirmish", side, Layout(cols=(1, 3), rows=(1, 2)),
                         (TerrainStyle("clear", "#d8d8a0", "."),), cells, pieces=pieces,
                         status=f"round {self.pos.round}/{self.pos.last_round}, "
                                f"{self.pos.phasing} phasing, {step}, "
                                f"weather {self.pos.weather.value}")

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        return Word("retreat") if (decision.kind, policy) == ("take-result", "retreat") \
            else None

    def parse_action(self, text: str) -> Action:
        parts = text.split()
        if len(parts) == 2 and parts[0] == "move" and parts[1] in COLUMNS:
            return Move(parts[1])
        if len(parts) == 2 and parts[0] == "attack" and parts[1].isdigit():
            return Attack(int(parts[1]))
        if len(parts) == 2 and parts[0] == "flare" and parts[1] in ("1", "2"):
            return Flare(int(parts[1]))
        if len(parts) == 1 and parts[0] in ("pass", "absorb", "retreat", "regroup"):
            return Word(parts[0])
        raise ActionSyntaxError(f"cannot read {text!r}: try 'move b', 'attack 2', 'pass'")


class SkirmishEngine(Engine):
    id = "skirmish"
    title = "Skirmish (test engine)"
    #: 2: the rules on pbem.steps (the same games; the snapshot's form changed)
    rules_version = "2"
    sides = SIDES
    # decision kinds, standing orders and restore derived from the steps (pbem.engine)
    state_class = SkirmishState

    def scenarios(self) -> list[ScenarioInfo]:
        data = package_files("toy_data")
        return [
            ScenarioInfo("short", "Short skirmish", "four rounds", (data / "short.toml",),
                         (1, 4)),
            ScenarioInfo("long", "Long skirmish", "twelve rounds", (data / "long.toml",),
                         (1, 12)),
            ScenarioInfo("marathon", "Marathon", "520 rounds, for benchmarks",
                         (data / "marathon.toml",), (1, 400)),
            # bench/bench_cli.py: long enough for a game of 2,000 files
            ScenarioInfo("ultramarathon", "Ultramarathon", "1,100 rounds, for benchmarks",
                         (data / "ultramarathon.toml",), (1, 1100)),
            # Skirmish 5: flares, whose rolls may wait (sealed dice batching, issue 21)
            ScenarioInfo("night", "Night skirmish", "four rounds with flares",
                         (data / "night.toml",), (1, 4)),
            # Skirmish 6: a missed attack leaves one option (sealed rules 2, issue 32)
            ScenarioInfo("dusk", "Dusk skirmish", "four rounds, regrouping after a miss",
                         (data / "dusk.toml",), (1, 4)),
        ]

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("fog", "fog of war (unused by the rules; tests option pinning)")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = SkirmishState(self, scenario, options)
        state.begin(Position(
            round=1, last_round=ROUNDS[scenario], phasing="red",
            forces={"red": Force("a", STRENGTH[scenario]),
                    "blue": Force("c", STRENGTH[scenario])},
            weather=Weather.CALM, cup=tuple(sorted(CUP))))
        return state


ENGINE = SkirmishEngine()
