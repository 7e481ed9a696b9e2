"""For the Motherland! (Compass Games, 2025): the ``for-the-motherland`` engine.

Register with ``PBEM_ENGINES=engines.motherland:ENGINE``.  The rules-coverage table is
``docs/engines/for-the-motherland.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path

from engines.motherland.data import ENGINE_ID, GameData, load
from engines.motherland.state import MotherlandState
from pbem.engine import Engine, OptionSpec, ScenarioInfo, Snapshot, State


class MotherlandEngine(Engine):
    """Six scenarios of For the Motherland!, Eastern Front 1941-44."""

    id = ENGINE_ID
    title = "For the Motherland! Eastern Front 1941-44"
    rules_version = "1"
    sides = ("axis", "soviet")

    def __init__(self, root: Path | None = None, map_file: Path | None = None) -> None:
        self._root = root
        self._map_file = map_file

    @cached_property
    def data(self) -> GameData:
        return load(self._root, self._map_file)

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for sid, sc in sorted(self.data.scenarios.items()):
            out.append(ScenarioInfo(sid, sc.title, f"Turns {sc.first}-{sc.last} (20.0)",
                                    self.data.files, (sc.first, sc.last)))
        return out

    def options(self) -> list[OptionSpec]:
        return [OptionSpec("baku", "21.1 Baku: German Panzers may raid the Baku box"),
                OptionSpec("turkey", "21.2 Turkish Front: Turkey may join the Axis")]

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        return MotherlandState(self, scenario, dict(options), self.data)

    def _restore(self, snapshot: Snapshot) -> State:
        return MotherlandState(self, snapshot["scenario"], dict(snapshot["options"]), self.data,
                               body=copy.deepcopy(snapshot["body"]))


ENGINE = MotherlandEngine()

__all__ = ["ENGINE", "MotherlandEngine"]
