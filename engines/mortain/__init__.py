"""Mortain Counterattack (August 1944): the exclusive rules 10.0-21.0 and the Integrated
Combat Results Table, on a stand-in series ruleset (docs/engines/mortain.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import engines.mortain.sequence  # noqa: F401  (defining the steps fills MortainState.steps)
from engines.hexkit.scenario import load_scenario_dir
from engines.mortain.data import ENGINE_ID, NAMED_HEXES, SIDES, rules
from engines.mortain.position import new_position
from engines.mortain.state import MortainState
from pbem.engine import Engine, ScenarioInfo, State
from pbem.engine import OrderSpec as OrderSpec
from pbem.engine import Snapshot as Snapshot


class MortainEngine(Engine):
    id = ENGINE_ID
    title = "Mortain Counterattack (August 1944)"
    rules_version = "2"
    sides = SIDES
    # its decision kinds, standing orders and restore come from the step table
    state_class = MortainState
    # a player's words for each first word of an action (pbem.engine.Engine.action_words)
    action_words = MappingProxyType({
        "place": "put a US unit in a hex of its set-up group's area, one unit a hex "
                 "(13.0, S5)",
        "enter": "bring a German unit onto the map at an east edge entry hex on or after "
                 "its turn of arrival; it may go on moving (11.1)",
        "move": "move a unit to a hex within its movement allowance, stopping on entering "
                "an enemy zone of control (S3)",
        "exit": "take a German mobile unit off the west edge, counting toward the German "
                "victory (19.1)",
        "replace": "return an eliminated unit, depleted, on its supply hex, or rebuild a "
                   "depleted one (11.2, 11.3)",
        "demolish": "a US engineer blows a See bridge beside it instead of moving (S9)",
        "repair": "a German engineer repairs a demolished See bridge instead of moving (S9)",
        "end": "end this phase: the rest of the units stay where they are",
        "attack": "declare an attack on the enemy hex; its attackers are chosen next (S7)",
        "bombard": "fire support markers alone at an enemy hex, with no unit attacking "
                   "(S8.3)",
        "with": "add an adjacent unit to the attack being declared (S7.2)",
        "resolve": "resolve the declared attack on the Integrated Combat Results Table (S7)",
        "support": "commit a support fire marker of that value to this combat (S8.2)",
        "no": "commit no support fire (S8.2), or do not advance after combat (S7.9)",
        "retreat": "retreat the unit the combat result hits (7.8)",
        "deplete": "deplete the unit instead of retreating it (7.8)",
        "advance": "move a victorious unit into the hex the defender left (S7.9)",
    })

    def scenarios(self) -> list[ScenarioInfo]:
        return load_scenario_dir(ENGINE_ID).infos()

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = MortainState(self, scenario, options)
        state.begin(new_position(scenario))
        return state

    def check_scenarios(self) -> list[str]:
        # only ``pbem scenario check`` asks (issue 35: not with every turn command)
        from engines.hexkit.checks import check_named_hexes

        problems = super().check_scenarios()
        problems += [f"{self.id}: {p}" for p in check_named_hexes(rules().map, NAMED_HEXES)]
        return problems


ENGINE = MortainEngine()
