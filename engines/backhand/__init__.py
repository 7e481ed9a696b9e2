"""Von Manstein's Backhand Blow (GMT, Schwerpunkt series): the engine ``backhand-blow``.

docs/engines/backhand-blow.md has the rules coverage and the stand-ins.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engines.backhand.data import SIDES, load
from engines.backhand.position import OFF, Position, Unit
from engines.backhand.sequence import BackhandState
from pbem.engine import Engine, OptionSpec, ScenarioInfo, State


class BackhandEngine(Engine):
    id = "backhand-blow"
    title = "Von Manstein's Backhand Blow (Schwerpunkt series)"
    rules_version = "2"
    sides = SIDES
    # its decision kinds, standing orders (declared on their steps) and restore come from
    # the step table
    state_class = BackhandState
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

    def check_scenarios(self) -> list[str]:
        # 'pbem scenario check' alone checks hex numbers: a turn does not load the checks
        from engines.hexkit.checks import check_named_hexes

        problems = super().check_scenarios()
        m = load().map
        expect = [("2510", "place:Kharkov", "2.2")]
        expect += [(h, "area:soviet_supply", "7.0") for h in ("4100", "4112", "4125")]
        expect += [(h, "place:Voronezh Front entry", "11.1") for h in ("3800", "4103")]
        expect += [(h, "place:Southwest Front entry", "11.1") for h in ("4114", "4119")]
        return problems + check_named_hexes(m, expect)

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        # control (3.1) and the rules it leans on load with a game made or a unit put:
        # a command that lists or names moves nothing (issue 35)
        from engines.backhand.control import update_control

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
        pos = Position(
            turn=1, last_turn=int(spec["last_turn"]), victory=str(spec["victory"]),
            weather="frozen", prev_weather="frozen",
            historical=options.get("historical-weather", "off") == "on",
            units=units, fronts=dict(data.front_setup),
            c3i={"soviet": 5, "german": 2},  # 18.0
            ap={"german": 0, "southwest": 0, "voronezh": 0},
            cup=sorted(cup), chits={"german": [], "soviet": []})
        state.pos = pos
        update_control(state)
        state.begin(pos)
        return state


ENGINE = BackhandEngine()
__all__ = ["ENGINE", "OFF"]
