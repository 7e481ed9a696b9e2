"""The ``white-death`` engine: White Death, Battle for Velikiye Luki, November 1942."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engines.hexkit.scenario import ScenarioSet, load_scenario_dir, load_scenario_path
from engines.white_death.data import Catalog, load_catalog
from engines.white_death.state import WDState
from pbem.engine import Engine, ScenarioInfo, Snapshot, State

#: the order the manual presents them in
ORDER = ("purkayev", "woehler", "first-relief", "second-relief", "final-relief", "campaign")


class WhiteDeath(Engine):
    """Rules 1-22 of the White Death manual over the data in ``scenarios/white-death``.

    ``root`` points at another directory of data files (tests use a small map; a player
    may keep a copy with the printed charts in place of the stand-ins).
    """

    id = "white-death"
    title = "White Death: Battle for Velikiye Luki, November 1942"
    rules_version = "0.1"
    sides = ("soviet", "german")

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = None if root is None else str(root)

    def _data(self) -> ScenarioSet:
        if self.root is None:
            return load_scenario_dir("white-death")
        return _load_path(self.root)

    def catalog(self) -> Catalog:
        return _catalog(self._data())

    def scenarios(self) -> list[ScenarioInfo]:
        data = self._data()
        out = []
        common = [t for t in data.files if t.name in (
            "map.toml", "tables.toml", "units.toml", "schedule.toml")]
        for sid in sorted(data.scenarios, key=lambda s: (ORDER.index(s) if s in ORDER else 99, s)):
            doc = data.scenario(sid)
            sc = doc.get_table("scenario")
            files = tuple(common) + tuple(t for t in data.files if t.name == doc.name.rsplit(
                "/", 1)[-1])
            t = sc.get("turns", [1, 1])
            out.append(ScenarioInfo(sid, sc["title"], f"turns {t[0]}-{t[1]}", files,
                                    (int(t[0]), int(t[1]))))
        return out

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = WDState(self, scenario, dict(options), self.catalog())
        state.setup_initial()
        return state

    def _restore(self, snapshot: Snapshot) -> State:
        state = WDState(self, snapshot["scenario"], dict(snapshot["options"]), self.catalog())
        body: dict[str, Any] = snapshot["body"]
        state.restore_from(body)
        return state


@functools.cache
def _load_path(root: str) -> ScenarioSet:
    return load_scenario_path(root)


_CATALOGS: dict[int, Catalog] = {}


def _catalog(data: ScenarioSet) -> Catalog:
    key = id(data)
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(data)
    return _CATALOGS[key]
