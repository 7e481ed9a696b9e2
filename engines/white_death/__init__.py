"""White Death (Velikiye Luki, November 1942) as the ``white-death`` engine: its metadata,
scenarios, new states and restore; the game is :mod:`engines.white_death.state`.

Register with ``PBEM_ENGINES=engines.white_death:ENGINE`` (or the ``pbem.engines`` entry
point ``white-death = "engines.white_death:ENGINE"``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from engines.hexkit.scenario import ScenarioSet, load_scenario_dir, load_scenario_path
from engines.white_death.data import Catalog, load_catalog
from engines.white_death.sequence import STEPS
from engines.white_death.state import WDState, writing_many
from pbem.engine import Engine, OrderSpec, ScenarioInfo, Snapshot, State
from pbem.errors import ScenarioError
from pbem.steps import Choice

#: the rule modules a turn command imports when its phase comes (decisions, sequence)
PHASE_RULES = ("engines.white_death.movement", "engines.white_death.listing",
               "engines.white_death.reinforcements", "engines.white_death.artillery",
               "engines.white_death.turns", "engines.white_death.phases")
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
    #: its decision kinds, standing orders and restore come from the steps (issue 34)
    state_class = WDState
    # a player's words for each first word of an action (pbem.engine.Engine.action_words)
    action_words = MappingProxyType({
        "impulse": "spend that many of the side's movement points left this turn in this "
                   "impulse; every unit may move that far (Rule 5)",
        "move": "move a unit one hex, paying the terrain's cost from the impulse's points "
                "(Rules 6, 7)",
        "lead": "move a stack's leading unit one hex; the others follow (Rule 6)",
        "enter": "bring a reinforcement onto the map at its entry hex (Rule 17)",
        "deploy": "deploy an artillery unit so it may fire support or barrage (Rules 6, 11)",
        "entrain": "put a unit on the railroad for rail movement, one movement point "
                   "(Rule 8)",
        "rail": "move an entrained unit along the railroad, up to 25 strength points a "
                "turn (Rule 8)",
        "assault": "declare that the unit assaults the enemy hex; the fire comes after "
                   "the defensive fire (Rules 5, 9)",
        "build": "an engineer builds a bridge over the river hex it stands in, one each "
                 "(Rule 20.B)",
        "demolish": "an engineer on a bridge demolishes it (Rule 20.A)",
        "replace": "bring a personnel unit below its strength back up from the side's "
                   "replacements, in its first impulse (Rule 18)",
        "repair": "repair an AFV unit below its strength, from turn 5 (Rule 18)",
        "refit": "refit a Soviet division on turn 10 (Rule 18)",
        "end": "end this phase: units not moved stay where they are",
        "barrage": "declare a barrage on the enemy hex with a deployed artillery unit in "
                   "range (Rule 11.B)",
        "fire": "'fire N at UNIT': put N of the stack's conventional fire on that unit "
                "(Rule 9), 'fire antitank N at UNIT' its antitank fire (Rule 10); 'fire "
                "barrage' resolves the barrages declared (Rule 11.B)",
        "hq": "name the controlling headquarters for artillery support (Rule 11.A.1)",
        "high": "the defender's high intensity support: more support fire for one supply "
                "point, once an impulse (Rule 15.A.4)",
        "support": "add a deployed artillery unit's support value to the fire "
                   "(Rule 11.A)",
        "done": "fire as allocated so far; fire not allocated goes by the default "
                "allocation (Rule 9.C.3)",
        "advance": "move a unit into the hex the assault cleared (Rule 9.D)",
        "spend": "spend one of Velikiye Luki's supply points to keep the cut-off city "
                 "out of isolation this turn (Rule 15.D.2)",
        "keep": "keep Velikiye Luki's supply points; the city is isolated this turn "
                "(Rule 15.D.2)",
        "auto": "set up every unit where the scenario places it",
        "place": "set up a unit in a hex the scenario allows",
    })

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

    def scenarios(self) -> list[ScenarioInfo]:
        data = self._data()
        return [self._info(data, sid) for sid in sorted(
            data.scenarios, key=lambda s: (ORDER.index(s) if s in ORDER else 99, s))]

    def scenario(self, scenario_id: str) -> ScenarioInfo:
        # the one asked for alone: every game load asks its own (the invite's files,
        # pbem.engine.Engine.scenario_files), not the other five (issue 35)
        data = self._data()
        if scenario_id in data.scenarios:
            return self._info(data, scenario_id)
        return super().scenario(scenario_id)  # its refusal, naming the scenarios there are

    @staticmethod
    def _info(data: ScenarioSet, sid: str) -> ScenarioInfo:
        doc = data.scenario(sid)
        sc = doc.get_table("scenario")
        files = tuple(t for t in data.files if t.name in (
            "map.toml", "tables.toml", "units.toml", "schedule.toml")) + tuple(
            t for t in data.files if t.name == doc.name.rsplit("/", 1)[-1])
        t = sc.get("turns", [1, 1])
        return ScenarioInfo(sid, sc["title"], f"turns {t[0]}-{t[1]}", files,
                            (int(t[0]), int(t[1])))

    def check_scenarios(self) -> list[str]:
        """Every scenario loads, and the places and areas the manual names are on the map.

        The manual prints no hex numbers, so the check is by name and feature: the four
        Lowatj bridges (Rule 20), the city's bunker hexes (Rule 19), the towns west of the
        Lowatj with a railroad and their intrinsic garrisons ("Intrinsic Garrisons"), and
        the entry areas of Rule 17.
        """
        problems = super().check_scenarios()
        try:  # the charts are read when a rule first asks for them: all of them here
            self.catalog().tables.read_all()
        except ScenarioError as e:
            problems.append(f"{self.id}: {e}")
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
        # the set-up's module loads for a new game alone (issue 35: a turn command's import)
        from engines.white_death.placement import setup_initial

        # a game made here is played or replayed from its start (a new game, an audit, a
        # replay, selfplay): it will run every phase, so the rules a turn command loads
        # only when its phase comes (movement, barrages: decisions, sequence) load now,
        # before the game's own objects, as they did with the engine (loaded in the
        # middle of an audit they moved its collector's full passes: +8 M instructions)
        for module in PHASE_RULES:
            importlib.import_module(module)
        writing_many()  # and it writes position after position: the codec's writers
        state = WDState(self, scenario, dict(options))
        setup_initial(state)
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


ENGINE = WhiteDeath()

__all__ = ["ENGINE", "STEPS", "Choice", "OrderSpec", "Snapshot", "WhiteDeath"]
