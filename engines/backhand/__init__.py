"""Von Manstein's Backhand Blow (GMT, Schwerpunkt series): the engine ``backhand-blow``.

docs/engines/backhand-blow.md has the rules coverage and the stand-ins.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engines.backhand.data import FRONTS, SIDES, load
from engines.backhand.game import (
    OFF,
    STEPS,
    BBState,
    Position,
    Unit,
    Word,
    frames_for,
    victory,
)
from engines.hexkit.board import board_view
from engines.hexkit.checks import check_named_hexes
from pbem.engine import (
    Action,
    Decision,
    Engine,
    OptionSpec,
    OrderSpec,
    Result,
    ScenarioInfo,
    Snapshot,
    State,
)
from pbem.errors import ActionSyntaxError
from pbem.steps import Frame, step_table
from pbem.view import BoardView, Piece

WORDS = ("move", "to", "stay", "end", "attack", "with", "resolve", "cancel", "chit",
         "no-chit", "lose", "retreat", "done", "advance", "spend", "extra", "order", "front",
         "admin", "place", "admin-out", "replace", "refit", "ersatz", "rochade", "no-rochade",
         "arrive", "none")


class BackhandState(BBState):
    steps = step_table(*STEPS)
    start = "game"
    Position = Position

    def over(self) -> bool:
        return self.pos.turn > self.pos.last_turn

    def frames_for(self, step: str) -> list[Frame]:
        return frames_for(self, step)

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """``units = {"LAH-1" = "2510"}`` or ``"2510 1"`` (hex and steps) as shorthand;
        ``clear = true`` takes every unit off the map first."""
        units = data.pop("place", None)
        if data.pop("clear", False):
            base = {u: {"at": "out"} for u in self.pos.units}
            data["units"] = {**base, **data.get("units", {})}
        if units:
            table = data.setdefault("units", {})
            for u, spec in units.items():
                at, _, steps = str(spec).partition(" ")
                entry = dict(table.get(u, {}))
                entry["at"] = at
                entry["steps"] = int(steps) if steps else self.data.units[u].steps \
                    if not u.startswith("UP-") else 1
                table[u] = entry
        return data

    def _result(self) -> Result | None:
        if not self.over():
            return None
        winner, text = victory(self)
        return Result(winner, "rules", text)

    def turn_number(self) -> int:
        return self.pos.turn

    def status_line(self, side: str | None) -> str:
        p = self.pos
        return (f"turn {p.turn}/{p.last_turn} {p.weather}, {p.segment}; C3I S{p.c3i['soviet']} "
                f"G{p.c3i['german']}; AP SW{p.ap['southwest']} VO{p.ap['voronezh']} "
                f"G{p.ap['german']}")

    def _view(self, side: str | None) -> BoardView:
        pieces = []
        for u, x in sorted(self.pos.units.items()):
            if x.at in ("pending", "cup", "elim", "out"):
                continue
            sd = self.side_of(u)
            a, d = self.factors(u)
            label = f"({a}-{d})" if (not u.startswith("UP-") and self.data.units[u].bracket) \
                else f"{a}-{d}"
            pieces.append(Piece(u, sd, label, x.at, name=u,
                                color="#c03030" if sd == "soviet" else "#8090a0",
                                markers=("OOS",) if x.oos else ()))
        for f in FRONTS:
            pieces.append(Piece(f"front-{f}", "soviet", f"{f[:2].upper()} Front",
                                self.pos.fronts[f], name=f"{f} Front Marker", color="#ffd040"))
        return board_view(self.data.map, pieces, side=side, status=self.status_line(side))

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        opts = decision.options
        if decision.kind == "take-loss" and policy == "losses":
            for o in opts:
                if isinstance(o, Word) and o.word == "lose":
                    return o
        if decision.kind == "take-loss" and policy == "stand":
            for o in opts:
                if isinstance(o, Word) and o.word in ("lose", "done"):
                    return o
        if decision.kind == "chit" and policy == "play":
            for o in opts:
                if isinstance(o, Word) and o.word == "chit":
                    return o
        if decision.kind == "reinforce" and policy == "box":
            for o in opts:
                if o in (Word("arrive", ("box",)), Word("none")):
                    return o
        if decision.kind == "rochade" and policy == "declare":
            return Word("rochade")
        if decision.kind == "phase-order" and policy == "combat-first":
            return Word("order", ("combat-first",))
        if decision.kind == "c3i" and policy == "max":
            return opts[-1]  # "spend 0" to "spend N": N is four or all held
        if (decision.kind, policy) in (("replace", "all"), ("refit", "first")):
            return opts[0]  # the first unit or formation listed; "done" when none is left
        return None

    def parse_action(self, text: str) -> Action:
        parts = text.split()
        if not parts or parts[0] not in WORDS:
            raise ActionSyntaxError(f"cannot read {text!r}: try 'move LAH-1', 'to 2510', "
                                    "'attack 2611', 'with 12T', 'resolve', 'lose 12T', 'end'")
        return Word(parts[0], tuple(parts[1:]))


class BackhandEngine(Engine):
    id = "backhand-blow"
    title = "Von Manstein's Backhand Blow (Schwerpunkt series)"
    rules_version = "2"
    sides = SIDES
    # a player's words for each first word of an action (pbem.engine.Engine.action_words)
    action_words = MappingProxyType({
        "front": "move a Soviet Front Marker exactly one hex (14.2)",
        "done": "end this step: the markers or units not moved stay where they are",
        "order": "declare which phase comes first this turn, movement or combat "
                 "(4.2 II.C)",
        "spend": "spend that many C3I points this turn (4.2 II.D)",
        "extra": "give the extra activity point to that Soviet front (9.0)",
        "arrive": "bring the reinforcements on the map, or into Box #1 (11.1)",
        "admin": "administrative movement between the map and the boxes, at no cost "
                 "(15.1)",
        "admin-out": "take a unit off the map into Box #1 by administrative movement "
                     "(15.1)",
        "place": "put a unit arriving by administrative movement in a map hex (15.1)",
        "move": "pick a unit or stack to move; its hexes follow (15.0)",
        "to": "move the picked units into that hex (15.0)",
        "stay": "end the picked units' move where they stand (15.0)",
        "attack": "attack the enemy hex; the attacking units are chosen next (16.0)",
        "with": "add a unit to the attack (16.0)",
        "resolve": "resolve the attack on the combat results table (16.0)",
        "cancel": "call the attack off (16.0)",
        "end": "end this phase",
        "chit": "play that combat chit in the attack (16.73)",
        "no-chit": "play no combat chit in the attack (16.73)",
        "lose": "take a hit as a step lost by that unit (16.0)",
        "retreat": "take a hit as a retreat into that hex (16.0)",
        "advance": "advance a unit into the hex the defender left (16.722)",
    })

    def scenarios(self) -> list[ScenarioInfo]:
        return load().set.infos()

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("historical-weather", "5.5: the historical weather of the Game "
                           "Turn Record Track instead of the roll")]

    def standing_orders(self) -> list[OrderSpec]:
        return [
            OrderSpec("take-loss", "16.0", "retreat first where it cancels a hit",
                      (("losses", "take hits as step losses"),
                       ("stand", "never retreat when not forced"))),
            OrderSpec("chit", "16.73", "play no chit", (("play", "play the first chit held"),)),
            # the administrative segment's decisions: each side's in turn (4.2 I.F-I), so
            # every one stops the other side's file (docs/engines/backhand-blow.md)
            OrderSpec("reinforce", "11.1", "the turn's reinforcements enter on the map",
                      (("box", "the turn's reinforcements go to Box #1"),)),
            OrderSpec("replace", "12.0", "spend no replacements (they accumulate)",
                      (("all", "a replacement step to each eligible unit, by unit id, "
                        "while replacements of its kind last"),)),
            OrderSpec("refit", "13.1", "place no Frontnahe Auffrischung marker",
                      (("first", "the markers on the first eligible formations, by id"),)),
            # after the weather roll: with sealed dice the Soviet resolves that roll in a
            # file of its own, which stops at this German decision
            OrderSpec("rochade", "8.2", "no Rochade",
                      (("declare", "declare the Rochade at the first turn it is allowed"),)),
            # a Schwerpunkt segment's opening (4.2 II.C-D): inside the side's own file
            # after its administrative movement, but where a segment opens at a handover
            # (turn 1, or a segment with no administrative movement) it ends the other
            # side's file; with both kinds ordered that file runs on to the Activity roll
            OrderSpec("phase-order", "4.2 II.C", "Movement Phase first",
                      (("combat-first", "Combat Phase first"),)),
            OrderSpec("c3i", "4.2 II.D", "spend two C3I points (all held if fewer)",
                      (("max", "spend as many as the Activity Table allows (four, or all "
                        "held if fewer)"),)),
        ]

    def decision_kinds(self) -> tuple[str, ...]:
        return ("rochade", "reinforce", "replace", "refit", "fronts", "admin", "phase-order",
                "c3i", "split", "move", "combat", "chit", "take-loss", "advance", "ersatz")

    def check_scenarios(self) -> list[str]:
        problems = super().check_scenarios()
        m = load().map
        expect = [("2510", "place:Kharkov", "2.2")]
        expect += [(h, "area:soviet_supply", "7.0") for h in ("4100", "4112", "4125")]
        expect += [(h, "place:Voronezh Front entry", "11.1") for h in ("3800", "4103")]
        expect += [(h, "place:Southwest Front entry", "11.1") for h in ("4114", "4119")]
        return problems + check_named_hexes(m, expect)

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        data = load()
        spec = data.scenario(scenario)
        units: dict[str, Unit] = {}
        cup = []
        for u, t in data.units.items():
            if t.at:
                units[u] = Unit(t.at, t.steps)
            elif t.variable:
                units[u] = Unit("cup", t.steps)
                cup.append(u)
            else:
                units[u] = Unit("pending", t.steps)
        state = BackhandState(self, scenario, options)
        state.data = data
        pos = Position(
            turn=1, last_turn=int(spec["last_turn"]), victory=str(spec["victory"]),
            weather="frozen", prev_weather="frozen",
            historical=options.get("historical-weather", "off") == "on",
            units=units, fronts=dict(data.front_setup),
            c3i={"soviet": 5, "german": 2},  # 18.0
            ap={"german": 0, "southwest": 0, "voronezh": 0},
            cup=sorted(cup), chits={"german": [], "soviet": []})
        state.pos = pos
        state.update_control()
        state.begin(pos)
        return state

    def _restore(self, snapshot: Snapshot) -> State:
        state = BackhandState(self, snapshot["scenario"], snapshot["options"])
        state.data = load()
        state.restore_body(snapshot["body"])
        return state


ENGINE = BackhandEngine()
__all__ = ["ENGINE", "OFF"]
