"""A small game that lives in tests: it exercises every part of the engine contract.

"Skirmish": two sides, red and blue, each with a strength of 10 (scenario "short": 4
rounds; "long": 12).  Each round starts with a draw from the event cup.  The phasing side
may move its column once (``move a|b|c``), then ``attack N`` (N = 1..3) or ``pass``.  An
attack rolls 2d6; on 7 or more the defender must decide (``absorb`` or ``retreat``): this is
an opponent decision point inside the phasing side's turn, as in real wargames.  Absorbing
rolls 1d6 for the loss.  The sides alternate as phasing side; the game ends after the last
round, or when a side reaches strength 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from pbem.engine import (
    CHANCE,
    Action,
    ChanceRequest,
    Decision,
    Engine,
    Event,
    OptionSpec,
    OrderSpec,
    Outcome,
    Result,
    ScenarioInfo,
    Snapshot,
    State,
)
from pbem.errors import ActionSyntaxError, IllegalAction
from pbem.view import BoardView, Cell, Layout, Piece, TerrainStyle

SIDES = ("red", "blue")
COLUMNS = ("a", "b", "c")
ROUNDS = {"short": 4, "long": 12, "marathon": 520}
#: starting strength: the marathon must not end early, it exists to make long transcripts
STRENGTH = {"short": 10, "long": 10, "marathon": 100_000}
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
class Word(Action):
    word: str  # pass, absorb, retreat

    def notation(self) -> str:
        return self.word


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


class SkirmishState(State):
    def __init__(self, engine: Engine, scenario: str, options: Mapping[str, str]) -> None:
        super().__init__(engine, scenario, options)
        self.round = 1
        self.last_round = ROUNDS[scenario]
        self.phasing = "red"
        # step: event (chance draw), orders, attack-roll (chance), defend, loss-roll (chance)
        self.step = "event"
        self.strength = {"red": STRENGTH[scenario], "blue": STRENGTH[scenario]}
        self.column = {"red": "a", "blue": "c"}
        self.moved = False
        self.committed = 0
        self.weather = "calm"
        self.cup = sorted(CUP)

    # -- the rules ------------------------------------------------------------------------

    def _current_player(self) -> str | None:
        if self.round > self.last_round or min(self.strength.values()) <= 0:
            return None
        if self.step in ("event", "attack-roll", "loss-roll"):
            return CHANCE
        if self.step == "defend":
            return other(self.phasing)
        return self.phasing

    def _legal_actions(self) -> list[Action]:
        if self.step == "defend":
            return [Word("absorb"), Word("retreat")]
        out: list[Action] = []
        if not self.moved:
            out += [Move(c) for c in COLUMNS if c != self.column[self.phasing]]
        if self.weather != "storm":
            out += [Attack(n) for n in range(1, min(3, self.strength[self.phasing]) + 1)]
        out.append(Word("pass"))
        return out

    def _decision(self) -> Decision:
        side = self._current_player()
        assert side is not None
        if self.step == "defend":
            return Decision(side, "take-result",
                            f"the {side} player must absorb or retreat from an attack of "
                            f"{self.committed}", tuple(self._legal_actions()), Word("absorb"),
                            rule="Skirmish 3")
        return Decision(side, "orders", f"the {side} player gives orders for round {self.round}",
                        tuple(self._legal_actions()), Word("pass"), rule="Skirmish 2")

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        return Word("retreat") if (decision.kind, policy) == ("take-result", "retreat") \
            else None

    def _apply_action(self, action: Action) -> list[Event]:
        side = self.phasing if self.step == "orders" else other(self.phasing)
        if self.step == "defend":
            if not isinstance(action, Word) or action.word not in ("absorb", "retreat"):
                raise IllegalAction("the defender must absorb or retreat", rule="Skirmish 3")
            if action.word == "retreat":
                self.column[side] = "b" if self.column[side] != "b" else "a"
                self._end_orders()
                return [Event(f"{side} retreats to column {self.column[side]}", "retreat",
                              hexes=(self._hex(side),))]
            self.step = "loss-roll"
            return [Event(f"{side} stands and absorbs the attack", "info")]
        if isinstance(action, Move):
            if self.moved:
                raise IllegalAction("a side moves at most once per round", rule="Skirmish 2.1")
            if action.column not in COLUMNS or action.column == self.column[side]:
                raise IllegalAction(f"cannot move to column {action.column}", rule="Skirmish 2.1")
            self.column[side] = action.column
            self.moved = True
            return [Event(f"{side} moves to column {action.column}", "move",
                          hexes=(self._hex(side),))]
        if isinstance(action, Attack):
            if self.weather == "storm":
                raise IllegalAction("no attacks in a storm", rule="Skirmish 4")
            if not 1 <= action.strength <= min(3, self.strength[side]):
                raise IllegalAction(f"cannot commit {action.strength}", rule="Skirmish 2.2")
            self.committed = action.strength
            self.step = "attack-roll"
            return [Event(f"{side} attacks with {action.strength}", "attack",
                          hexes=(self._hex(other(side)),))]
        if isinstance(action, Word) and action.word == "pass":
            self._end_orders()
            return [Event(f"{side} passes", "info")]
        raise IllegalAction(f"{action.notation()!r} is not an order", rule="Skirmish 2")

    def _chance_request(self) -> ChanceRequest:
        if self.step == "event":
            return ChanceRequest.draw(f"event for round {self.round}", "events", self.cup, 1,
                                      rule="Skirmish 1")
        if self.step == "attack-roll":
            return ChanceRequest.roll(f"attack by {self.phasing} with {self.committed}", 6, 6,
                                      rule="Skirmish 2.2")
        return ChanceRequest.roll(f"loss for {other(self.phasing)}", 6, rule="Skirmish 3")

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        if self.step == "event":
            (self.weather,) = (str(x) for x in outcome)
            self.step = "orders"
            return [Event(f"round {self.round}: {self.weather}", "phase")]
        faces = [int(x) for x in outcome]
        if self.step == "attack-roll":
            total = sum(faces) + self.committed - (1 if self.weather == "fog" else 0)
            if total >= 7:
                self.step = "defend"
                return [Event(f"attack roll {faces} total {total}: hit", "roll")]
            self._end_orders()
            return [Event(f"attack roll {faces} total {total}: miss", "roll")]
        defender = other(self.phasing)
        loss = min(self.strength[defender], (faces[0] + 1) // 2)
        self.strength[defender] -= loss
        self._end_orders()
        return [Event(f"{defender} loses {loss}", "loss", units=(defender,))]

    def _end_orders(self) -> None:
        self.moved = False
        self.committed = 0
        if self.phasing == "blue":
            self.round += 1
            if self.weather == "rally":
                for s in SIDES:
                    self.strength[s] = min(STRENGTH[self.scenario], self.strength[s] + 1)
        self.phasing = other(self.phasing)
        self.step = "event"

    def _result(self) -> Result | None:
        red, blue = self.strength["red"], self.strength["blue"]
        if red == blue:
            return Result(None, "rules", f"drawn at {red} each")
        winner = "red" if red > blue else "blue"
        return Result(winner, "rules", f"{winner} wins {max(red, blue)} to {min(red, blue)}")

    def turn_number(self) -> int:
        return self.round

    def _hex(self, side: str) -> str:
        return f"0{COLUMNS.index(self.column[side]) + 1}0{1 if side == 'red' else 2}"

    def _view(self, side: str | None) -> BoardView:
        cells = tuple(Cell(f"0{c}0{r}", c, r, "clear") for c in (1, 2, 3) for r in (1, 2))
        pieces = tuple(
            Piece(s, s, str(self.strength[s]), self._hex(s), name=f"{s} force",
                  color="#c03030" if s == "red" else "#3050c0")
            for s in SIDES)
        return BoardView("Skirmish", side, Layout(cols=(1, 3), rows=(1, 2)),
                         (TerrainStyle("clear", "#d8d8a0", "."),), cells, pieces=pieces,
                         status=f"round {self.round}/{self.last_round}, {self.phasing} phasing, "
                                f"{self.step}, weather {self.weather}")

    def _snapshot(self) -> Snapshot:
        return {"round": self.round, "last": self.last_round, "phasing": self.phasing,
                "step": self.step, "strength": dict(self.strength), "column": dict(self.column),
                "moved": self.moved, "committed": self.committed, "weather": self.weather,
                "cup": list(self.cup)}

    def parse_action(self, text: str) -> Action:
        parts = text.split()
        if len(parts) == 2 and parts[0] == "move" and parts[1] in COLUMNS:
            return Move(parts[1])
        if len(parts) == 2 and parts[0] == "attack" and parts[1].isdigit():
            return Attack(int(parts[1]))
        if len(parts) == 1 and parts[0] in ("pass", "absorb", "retreat"):
            return Word(parts[0])
        raise ActionSyntaxError(f"cannot read {text!r}: try 'move b', 'attack 2', 'pass'")


class SkirmishEngine(Engine):
    id = "skirmish"
    title = "Skirmish (test engine)"
    rules_version = "1"
    sides = SIDES

    def scenarios(self) -> list[ScenarioInfo]:
        data = files("toy_data")
        return [
            ScenarioInfo("short", "Short skirmish", "four rounds", (data / "short.toml",),
                         (1, 4)),
            ScenarioInfo("long", "Long skirmish", "twelve rounds", (data / "long.toml",),
                         (1, 12)),
            ScenarioInfo("marathon", "Marathon", "520 rounds, for benchmarks",
                         (data / "marathon.toml",), (1, 400)),
        ]

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("fog", "fog of war (unused by the rules; tests option pinning)")]

    def standing_orders(self) -> list[OrderSpec]:
        return [OrderSpec("take-result", "Skirmish 3", "absorb the attack",
                          (("retreat", "retreat from the attack"),))]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        return SkirmishState(self, scenario, options)

    def _restore(self, snapshot: Snapshot) -> State:
        state = SkirmishState(self, snapshot["scenario"], snapshot["options"])
        body: dict[str, Any] = snapshot["body"]
        state.round, state.last_round = body["round"], body["last"]
        state.phasing, state.step = body["phasing"], body["step"]
        state.strength, state.column = dict(body["strength"]), dict(body["column"])
        state.moved, state.committed = body["moved"], body["committed"]
        state.weather, state.cup = body["weather"], list(body["cup"])
        return state


ENGINE = SkirmishEngine()
