"""The ``white-death`` engine: White Death, Battle for Velikiye Luki, November 1942."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from engines.hexkit.scenario import ScenarioSet, load_scenario_dir, load_scenario_path
from engines.white_death.data import Catalog, load_catalog
from engines.white_death.sequence import STEPS
from engines.white_death.state import WDState
from pbem.engine import Engine, OrderSpec, ScenarioInfo, Snapshot, State
from pbem.steps import Choice

#: the order the manual presents them in
ORDER = ("purkayev", "woehler", "first-relief", "second-relief", "final-relief", "campaign")


class WhiteDeath(Engine):
    """Rules 1-22 of the White Death manual over the data in ``scenarios/white-death``.

    ``root`` points at another directory of data files (tests use a small map; a player
    may keep a copy with the printed charts in place of the stand-ins).
    """

    id = "white-death"
    title = "White Death: Battle for Velikiye Luki, November 1942"
    rules_version = "0.8"
    sides = ("soviet", "german")

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = None if root is None else str(root)

    def _data(self) -> ScenarioSet:
        # parsed once per engine object (issue 19): the list of scenarios, the hash of the
        # data files and every state restored read it, and every command did all three;
        # the installed data cannot change under a running command without changing the
        # game it belongs to (pbem.engine.Engine.scenario_files says the same)
        parsed: ScenarioSet | None = self.__dict__.get("_parsed")
        if parsed is None:
            parsed = load_scenario_dir("white-death") if self.root is None \
                else _load_path(self.root)
            self.__dict__["_parsed"] = parsed
        return parsed

    def catalog(self) -> Catalog:
        return _catalog(self._data())

    def standing_orders(self) -> list[OrderSpec]:
        # the manual's "Default Actions": fire not allocated is allocated automatically
        # (no artillery); the defender's fire is the one decision inside the other
        # side's impulse
        return [OrderSpec("defensive-fire", "Rule 5",
                          "defensive fire allocated automatically (the manual's Default "
                          "Actions; no artillery)")]

    def decision_kinds(self) -> tuple[str, ...]:
        # one per Choice step of the sequence of play, in the order the table lists them
        return tuple(step.kind for step in STEPS.values() if isinstance(step, Choice))

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

    def check_scenarios(self) -> list[str]:
        """Every scenario loads, and the places and areas the manual names are on the map.

        The manual prints no hex numbers, so the check is by name and feature: the four
        Lowatj bridges (Rule 20), the city's bunker hexes (Rule 19), the towns west of the
        Lowatj with a railroad and their intrinsic garrisons ("Intrinsic Garrisons"), and
        the entry areas of Rule 17.
        """
        problems = super().check_scenarios()
        m = self._data().map
        for name, feature, rule in BOOK_PLACES:
            if name not in m.places:
                problems.append(f"{self.id}: {rule}: no place {name!r} on the map")
            elif feature and not any(m.has_feature(h, feature) for h in m.place(name)):
                problems.append(f"{self.id}: {rule}: {name} ({', '.join(m.place(name))}) "
                                f"has no {feature}")
        for area, rule in BOOK_AREAS:
            if not m.areas.get(area):
                problems.append(f"{self.id}: {rule}: no area {area!r} on the map")
        if len(m.place("Velikiye Luki")) < 2:
            problems.append(f"{self.id}: Rule 19: Velikiye Luki should span several hexes")
        bridges = [h for h in m.area("lowatj") if m.has_feature(h, "bridge")]
        if len(bridges) < 4:
            problems.append(f"{self.id}: Rule 20: {len(bridges)} bridges over the Lowatj, "
                            "the manual says four")
        return problems

    def _new_state(self, scenario: str, options: Mapping[str, str]) -> State:
        state = WDState(self, scenario, dict(options), self.catalog())
        state.setup_initial()
        return state

    def _restore(self, snapshot: Snapshot) -> State:
        state = WDState(self, snapshot["scenario"], dict(snapshot["options"]), self.catalog())
        state.restore_body(snapshot["body"])
        state._moved()  # nothing cached belongs to the position restored
        return state


#: places the manual names, with the feature each must carry, and the rule that needs it
BOOK_PLACES = (
    ("Velikiye Luki", "bunker_site", "Rule 19"),
    ("Citadel", "citadel", "Rule 19"),
    ("Lowatj bridge (south)", "bridge", "Rule 20"),
    ("Lowatj road bridge", "bridge", "Rule 20"),
    ("Lowatj rail bridge", "bridge", "Rule 20"),
    ("Lowatj bridge (north)", "bridge", "Rule 20"),
    ("Nowossokoljniki", "intrinsic_garrison", "Intrinsic Garrisons"),
    ("Isotcha", "intrinsic_garrison", "Intrinsic Garrisons"),
)
#: areas the rules refer to (Rule 17's entry areas: three Soviet, the third a stand-in)
BOOK_AREAS = (
    ("soviet-northeast", "Rule 17.A"),
    ("soviet-east", "Rule 17.A"),
    ("soviet-southeast", "Rule 17.A (stand-in third area)"),
    ("german-south", "Rule 17.B"),
    ("german-southwest", "Rule 17.B"),
    ("german-west", "Rule 17.B"),
    ("german-northwest", "Rule 17.B"),
    ("lowatj", "Rule 7"),
    ("west_of_lowatj", "Intrinsic Garrisons"),
    ("nevel_leningrad_railroad", "Rule 8"),
)


@functools.cache
def _load_path(root: str) -> ScenarioSet:
    return load_scenario_path(root)


_CATALOGS: dict[int, Catalog] = {}


def _catalog(data: ScenarioSet) -> Catalog:
    key = id(data)
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(data)
    return _CATALOGS[key]
