"""For the Motherland! (Compass Games, 2025): the ``for-the-motherland`` engine.

Register with ``PBEM_ENGINES=engines.motherland:ENGINE``.  The rules-coverage table is
``docs/engines/for-the-motherland.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from engines.motherland.data import ENGINE_ID, GameData, load
from engines.motherland.sequence import setup
from engines.motherland.state import MotherlandState
from pbem.engine import (
    Engine,
    OptionSpec,
    ScenarioInfo,
    State,
)

#: (hex or hexside, what the book says is there, rule) for every hex number in the book
BOOK_HEXES = [
    ("0307", "place:Danzig", "5.5"), ("0507", "place:Königsberg", "5.5"),
    ("0325", "place:Constanta", "5.5"), ("1705", "place:Leningrad", "20.2"),
    ("2113", "place:Moscow", "19.1"), ("1919", "place:Voronezh", "20.2"),
    ("1726", "place:Rostov", "20.2"), ("2424", "place:Stalingrad", "20.3"),
    ("1017", "place:Kiev", "19.1.1"), ("1025/1125", "feature:rail_bridge", "16.7"),
    ("1227/1327", "feature:strait", "8.4.2"), ("2434", "box:baku", "21.1.1"),
    ("1535", "area:turkey_source", "21.2.2"), ("1634", "area:turkey_source", "21.2.2"),
    ("1735", "area:turkey_source", "21.2.2"), ("1526/1625", "feature:out_of_play", "5.1.9"),
    ("1625/1626", "feature:out_of_play", "5.1.9"), ("1625/1726", "feature:out_of_play", "5.1.9"),
]
#: hexes the engine's rules refer to that the book does not number: the map's places must
#: sit there (the sea-supply ports of 9.6, Sevastopol of 5.5.4, Helsinki of 9.3.2)
ENGINE_HEXES = [
    ("0926", "place:Sevastopol", "5.5.4"), ("0722", "place:Odessa", "9.6.1"),
    ("1428", "place:Novorossiysk", "9.6.3"), ("1530", "place:Tuapse", "9.6.3"),
    ("1402", "place:Helsinki", "9.3.2"),
]


class MotherlandEngine(Engine):
    """Six scenarios of For the Motherland!, Eastern Front 1941-44."""

    id = ENGINE_ID
    title = "For the Motherland! Eastern Front 1941-44"
    # its decision kinds, standing orders and restore come from its steps (pbem.engine)
    state_class = MotherlandState
    rules_version = "7"  # 7: moves found by the kit's reachable: equal-cost paths tie otherwise
    sides = ("axis", "soviet")
    # a player's words for each first word of an action (pbem.engine.Engine.action_words)
    action_words = MappingProxyType({
        "expend": "spend a Supply Base to put the units it supplies in supply (9.3.4)",
        "move": "move a unit along the hexes given, paying each hex's cost (5.1)",
        "strategic": "strategic movement: far along the hexes given, never within two "
                     "hexes of an enemy unit (5.3)",
        "ship": "sea transport from one port to another (5.5)",
        "overrun": "overrun the enemy hex with the units named, during movement (7.0)",
        "attack": "attack the enemy hex with the units named (8.0)",
        "take": "take the combat result as the steps and the retreat named (8.5)",
        "lose": "take a step loss on that unit (8.5.1)",
        "retreat": "retreat the unit into that hex (8.6.1)",
        "advance": "advance after combat into the hex the defender left (8.7)",
        "eliminate": "remove a unit from an overstacked hex (6.0)",
        "place": "place a reinforcement in that hex (17.0)",
        "replace": "restore a step to a unit from the replacements (15.1)",
        "convert": "convert a Soviet unit into the unit named (17.2)",
        "produce": "produce the unit named at that city (12.1)",
        "evacuate": "evacuate a factory off the map (12.2)",
        "air": "air supply: an air unit brings an out-of-supply German unit to lack of "
               "supply (14.2)",
        "out": "mark a unit out of supply: a partisan result (10.1)",
        "partisan": "place a Soviet partisan (10.2)",
        "general": "assign a general to an army (16.5)",
        "keep": "keep the strength chit drawn for that army (16.5)",
        "end": "end this step",
    })

    def __init__(self, root: Path | None = None, map_file: Path | None = None) -> None:
        self._root = root
        self._map_file = map_file

    @cached_property
    def data(self) -> GameData:
        return load(self._root, self._map_file)

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        scenarios = self.data.scenarios
        for sid in sorted(scenarios):
            title, first, last = scenarios.head(sid)
            out.append(ScenarioInfo(sid, title, f"Turns {first}-{last} (20.0)",
                                    self.data.files, (first, last)))
        return out

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("baku", "21.1 Baku: German Panzers may raid the Baku box"),
                OptionSpec("turkey", "21.2 Turkish Front: Turkey may join the Axis")]

    def check_scenarios(self) -> list[str]:
        """Every hex the book names where the book says, and legal setups (``pbem scenario
        check``)."""
        from engines.hexkit.checks import check_named_hexes
        from engines.motherland.stacking import over_limit

        problems = check_named_hexes(self.data.hexmap, BOOK_HEXES + ENGINE_HEXES)
        problems += super().check_scenarios()
        for info in self.scenarios():
            st = self.new_state(info.id)
            assert isinstance(st, MotherlandState)
            for h in st.stacks():
                if over_limit(st, h):
                    problems.append(f"{info.id}: the setup overstacks {h} (6.0)")
                if h in self.data.water:
                    problems.append(f"{info.id}: a unit starts in the water at {h}")
        return problems

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        st = MotherlandState(self, scenario, dict(options))
        st.begin(setup(st))
        return st


ENGINE = MotherlandEngine()

__all__ = ["ENGINE", "MotherlandEngine"]
