"""48th Panzer Korps (CounterAttack #3, 1991): fire combat on the River Chir, Dec 1942.

The data is in :mod:`engines.panzer48.data`, the position in :mod:`~engines.panzer48.position`,
the state in :mod:`~engines.panzer48.state`, the steps in :mod:`~engines.panzer48.sequence` (the
sequence of play) and :mod:`engines.panzer48.steps` (each phase's), the rules they call in
modules named by rule area (``movement``, ``combat``, ``retreat``, ``reinforcements``); the
rules coverage is on docs/engines/48th-panzer-korps.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import engines.panzer48.sequence  # noqa: F401  (gives P48State its steps)
from engines.panzer48.data import ENGINE_ID, SIDES, data
from engines.panzer48.position import new_position
from engines.panzer48.state import P48State
from pbem.engine import Engine, ScenarioInfo, State


class Panzer48Engine(Engine):
    id = ENGINE_ID
    title = "48th Panzer Korps: battles on the River Chir, December 1942"
    rules_version = "3"
    # the decision kinds, standing orders and restore come from its step table
    state_class = P48State
    sides = SIDES
    # a player's words for each first word of an action (pbem.engine.Engine.action_words)
    action_words = MappingProxyType({
        "place": "set a unit up in a hex of its set-up area (9)",
        "setup-done": "end the set-up: every unit stays where it stands (9)",
        "plan": "write down a reinforcing formation's turn and area; the area stays "
                "secret until it arrives (9.1)",
        "reveal": "show the area a reinforcement was planned for, as it arrives (9.1)",
        "move": "pick a unit (and the units stacked with it) to move; its steps follow "
                "(3.2, 4)",
        "enter": "bring a reinforcement onto the map at its area's edge (9.1)",
        "to": "move the moving units one hex on (4)",
        "pickup": "take a unit in this hex along with the moving stack (4)",
        "drop": "leave a unit of the moving stack in this hex (4)",
        "hasty": "end the move with a hasty attack on the adjacent enemy hex (4)",
        "stop": "end this unit's move here (4)",
        "end-movement": "end the movement phase: units not moved stay where they are (3.2)",
        "attack": "declare a prepared attack on the enemy hex (3.1)",
        "with": "add a unit to the attack being declared (7.1)",
        "go": "resolve the attack declared, with the units added (7.1)",
        "cancel": "call the attack off (7.1)",
        "end-combat": "end the combat phase (3.1)",
        "fire": "defensive fire at an attacking unit (7.2)",
        "end-fire": "end the defensive fire (7.2)",
        "check": "take a morale check instead of retreating (8.1)",
        "retreat": "retreat instead of taking a morale check (8.1)",
        "path": "the hexes the retreat goes through (8.3)",
        "off-map": "retreat off the map where the retreat would otherwise eliminate the "
                   "units (8.3)",
        "support": "add an artillery-class unit's fire to the fire, at a distance (7.6)",
        "add": "add another adjacent unit's fire to this fire at the same target (7.2)",
        "roll": "resolve this fire on the Combat Results Table (7.2)",
        "advance": "advance a unit into the hex the defender left (7.1.D)",
        "end-advance": "end the advance after combat (7.1.D)",
        "exit": "move the moving Soviet units off the south edge (10)",
        "commit": "the reinforcement plan as its commitment: the area stays secret (9.1)",
        "open": "open a committed plan: its area and the salt that proves it (9.1)",
    })

    def scenarios(self) -> list[ScenarioInfo]:
        return data().scen.infos()

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        # 9's set-up rules imported for a new game only, not by every turn's command
        from engines.panzer48.reinforcements import place_defaults

        state = P48State(self, scenario, options)
        info = self.scenario(scenario)
        pos = new_position(info.turns)
        state.pos = pos
        state.stack = []
        place_defaults(state, "german")
        state.begin(pos)
        return state

    def check_scenarios(self) -> list[str]:
        # the kit's checks load with 'pbem scenario check', not with every turn command
        # (issue 35: 0.47 M instructions)
        from engines.hexkit.checks import check_named_hexes

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
