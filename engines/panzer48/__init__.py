"""48th Panzer Korps (CounterAttack #3, 1991): fire combat on the River Chir, Dec 1942.

The position and steps are in :mod:`engines.panzer48.game`, the data in
:mod:`engines.panzer48.data`; the rules coverage is on docs/engines/48th-panzer-korps.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.hexkit.checks import check_named_hexes
from engines.panzer48.data import ENGINE_ID, SIDES, data
from engines.panzer48.game import (
    P48State,
    new_position,
    place_defaults,
)
from pbem.engine import Engine, OrderSpec, ScenarioInfo, Snapshot, State


class Panzer48Engine(Engine):
    id = ENGINE_ID
    title = "48th Panzer Korps: battles on the River Chir, December 1942"
    rules_version = "3"
    sides = SIDES

    def scenarios(self) -> list[ScenarioInfo]:
        return data().scen.infos()

    def standing_orders(self) -> list[OrderSpec]:
        return [
            OrderSpec("defensive-fire", "7.1", "fire each unit in turn at the first target "
                      "the priorities allow, then roll each fire"),
            OrderSpec("morale-option", "8.1", "retreat rather than take morale checks",
                      (("check", "take the morale check whenever 8.1 allows it"),)),
            OrderSpec("retreat-path", "8.3", "retreat along the first best path"),
        ]

    def decision_kinds(self) -> tuple[str, ...]:
        return ("setup", "reinforcement-plan", "prepared-combat", "declare-attack",
                "defensive-fire", "attack-fire", "morale-option", "retreat-path", "advance",
                "movement", "move")

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = P48State(self, scenario, options)
        info = self.scenario(scenario)
        pos = new_position(info.turns)
        state.pos = pos
        state.stack = []
        place_defaults(state, "german")
        state.begin(pos)
        return state

    def _restore(self, snapshot: Snapshot) -> State:
        state = P48State(self, snapshot["scenario"], snapshot["options"])
        state.restore_body(snapshot["body"])
        return state

    def check_scenarios(self) -> list[str]:
        problems = super().check_scenarios()
        expect = [
            ("3508", "place:Surovikino", "10"),
            ("5217", "place:Novomaksimovskiy", "10"),
            ("2623", "place:Sovkhoz 79", "10"),
            ("2226", "place:Verkhne Aksenovskiy", "10"),
            ("3425", "place:Verkhne Solonovskiy", "10"),
            ("4925", "place:Nizhne Chirskaya", "10"),
        ]
        problems += [f"{self.id}: {p}" for p in check_named_hexes(data().map, expect)]
        for h in ("2226", "3522", "4925"):
            if h not in data().formations["7lw"].hexes:
                problems.append(f"{self.id}: 9: the 7th Luftwaffe Field Division sets up "
                                f"in {h}")
        return problems


__all__ = ["ENGINE", "Panzer48Engine"]

ENGINE = Panzer48Engine()
