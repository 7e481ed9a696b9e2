"""White Death's data: tables, unit types, order of battle, schedules and scenarios.

Everything here is read once from ``scenarios/white-death/*.toml`` (through the hex
kit's loader, so errors name the file, key and line) and then never changes; game state
refers to it by keys.  Numbers the manual does not print are stand-ins marked in the
files (``stand_in = "..."``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import Doc, ScenarioSet
from engines.hexkit.shared import Shared
from engines.white_death.position import MP_TICKS, Q, q
from pbem.errors import ScenarioError
from pbem.grammar import Frozen
from pbem.memo import Memo

SIDES = ("soviet", "german")
MOBILITIES = ("s", "l", "d", "w", "t", "m", "h")
#: terrain names the Terrain Effects Chart knows, best defense last is not implied
TEC_TERRAIN = ("clear", "road", "town", "forest", "swamp", "high", "creek", "river")
#: map terrain names the chart reads under another name
ALIASES = {"city": "town", "village": "town", "woods": "forest", "wood": "forest",
           "marsh": "swamp", "bog": "swamp", "hill": "high", "high ground": "high",
           "high_ground": "high", "minor_river": "creek", "stream": "creek",
           "rough": "high", "lake": "clear"}


#: each table number's pair by its text (the unit types write 80-odd factors with a
#: few texts; a pair never changes, so one serves every place that writes the same text)
_FRACS: dict[str, Q] = {}


def frac(text: Any) -> Q:
    """A table number: an integer or a string like ``"1/2"`` (never a float), as the
    exact pair :data:`~engines.white_death.position.Q`: read in ints, so that loading the
    catalog makes no Fraction (importing fractions was 9.6 M instructions of every
    command, issue 35).  ValueError for anything else, ZeroDivisionError for ``"1/0"``."""
    if type(text) is int:
        return (text, 1)
    if type(text) is not str:
        raise ValueError(f"{text!r} is not an integer or a fraction string")
    got = _FRACS.get(text)
    if got is None:
        got = _FRACS[text] = _read_frac(text)
    return got


def _read_frac(text: str) -> Q:
    top, slash, bottom = text.strip().partition("/")
    if not (top.isdigit() and top.isascii()) or (
            slash and not (bottom.isdigit() and bottom.isascii())):
        raise ValueError(f"{text!r} is not an integer or a fraction string")
    d = int(bottom) if slash else 1
    if d == 0:
        raise ZeroDivisionError(f"{text!r} divides by zero")
    return q(int(top), d)


def ticks(value: Q) -> int:
    """Movement points ``value`` in ticks (:data:`~engines.white_death.position.MP_TICKS`
    a movement point); ValueError for a cost finer than a tick."""
    t, r = divmod(value[0] * MP_TICKS, value[1])
    if r:
        raise ValueError(f"{value[0]}/{value[1]}")
    return t


class Cost(Frozen):
    """Movement cost of a terrain for one mobility: to enter, to leave (creek/river), in
    ticks (:data:`~engines.white_death.position.MP_TICKS` a movement point: the chart's
    1/2 MP is 3), so that a move adds and compares ints."""

    __match_args__ = ("enter", "leave")
    enter: int | None  # None: prohibited (P)
    leave: int

    def __init__(self, enter: int | None, leave: int = 0) -> None:
        self.__dict__.update(enter=enter, leave=leave)


#: a cost's leaving part when the chart gives none (``Cost.leave``'s default)
_NO_LEAVE = 0


class UnitType(Frozen):
    """A unit type as its counter and the Unit Identification Chart give it (Rule 2):
    class, combat and antitank factors, morale, mobility and size."""

    __match_args__ = ("key", "cls", "cf", "cf_defensive_only", "atf", "morale", "mob", "size",
               "defense", "range", "barrage", "support", "flags")
    key: str
    cls: str  # P, L, H, A
    #: the conventional fire factor (Rule 9.C.1): an exact pair, the chart's ``1/2`` is
    #: ``(1, 2)`` (:data:`~engines.white_death.position.Q`)
    cf: Q
    cf_defensive_only: bool
    #: the antitank factor (Rule 10.C.1), as ``cf``
    atf: Q
    morale: int
    mob: str
    size: str
    defense: int
    range: int
    barrage: int
    support: int
    flags: frozenset[str]

    def __init__(self, key: str, cls: str, cf: Q, cf_defensive_only: bool, atf: Q,
                 morale: int, mob: str, size: str, defense: int = 0, range: int = 0,
                 barrage: int = 0, support: int = 0,
                 flags: frozenset[str] = frozenset()) -> None:
        self.__dict__.update(key=key, cls=cls, cf=cf, cf_defensive_only=cf_defensive_only,
                             atf=atf, morale=morale, mob=mob, size=size, defense=defense,
                             range=range, barrage=barrage, support=support, flags=flags)

    @property
    def afv(self) -> bool:
        return self.cls == "A"

    @property
    def weapons(self) -> bool:
        return self.cls in ("L", "H")

    @property
    def personnel(self) -> bool:
        return self.cls == "P"

    @property
    def artillery(self) -> bool:
        return self.barrage > 0 or self.support > 0


#: Intrinsic Garrisons (manual): a personnel unit of one strength point, combat factor 4
GARRISON_TYPE = UnitType("intrinsic-garrison", "P", (4, 1), False, (0, 1), 3, "l", "I",
                         flags=frozenset({"intrinsic"}))


class UnitDef(Frozen):
    """One unit of the order of battle (Rule 2): its side, type, division and full
    strength."""

    __match_args__ = ("uid", "side", "type", "div", "strength", "battalion", "companies")
    uid: str
    side: str
    type: UnitType
    div: str
    strength: int
    #: a company's battalion, and how many companies that battalion has in the order of
    #: battle (Rule 4.A: all of them count as one battalion equivalent)
    battalion: str
    companies: int

    def __init__(self, uid: str, side: str, type: UnitType, div: str, strength: int,
                 battalion: str = "", companies: int = 0) -> None:
        self.__dict__.update(uid=uid, side=side, type=type, div=div, strength=strength,
                             battalion=battalion, companies=companies)


class Group(Frozen):
    """Units placed together near a place or area (a setup or an opening group)."""

    __match_args__ = ("side", "units", "near", "within", "garrison")
    side: str
    units: tuple[str, ...]
    near: str
    within: int
    garrison: str

    def __init__(self, side: str, units: tuple[str, ...], near: str, within: int,
                 garrison: str = "") -> None:
        self.__dict__.update(side=side, units=units, near=near, within=within,
                             garrison=garrison)


class Reinforcement(Frozen):
    """Units that enter on a turn through an area (Rule 17)."""

    __match_args__ = ("turn", "side", "units", "area")
    turn: int
    side: str
    units: tuple[str, ...]
    area: str

    def __init__(self, turn: int, side: str, units: tuple[str, ...], area: str) -> None:
        self.__dict__.update(turn=turn, side=side, units=units, area=area)


class Objective(Frozen):
    """A place and the victory points it scores for the side holding it, by side."""

    __match_args__ = ("place", "points")
    place: str
    points: Mapping[str, int]

    def __init__(self, place: str, points: Mapping[str, int]) -> None:
        self.__dict__.update(place=place, points=points)


class ScenarioDef(Frozen):
    """A scenario or the campaign: its turns, setup groups, reduced units, objectives,
    whether it has an opening and whether the players set up their own units."""

    __match_args__ = ("id", "title", "turns", "groups", "reduced", "objectives", "opening",
               "player_setup", "file")
    id: str
    title: str
    turns: tuple[int, int]
    groups: tuple[Group, ...]
    reduced: Mapping[str, int]
    objectives: tuple[Objective, ...]
    opening: bool
    player_setup: bool
    file: str

    def __init__(self, id: str, title: str, turns: tuple[int, int],
                 groups: tuple[Group, ...], reduced: Mapping[str, int],
                 objectives: tuple[Objective, ...], opening: bool, player_setup: bool,
                 file: str) -> None:
        self.__dict__.update(id=id, title=title, turns=turns, groups=groups,
                             reduced=reduced, objectives=objectives, opening=opening,
                             player_setup=player_setup, file=file)


class Tables(Shared):
    """The charts the rules read: movement (Rule 7), frozen lakes (Rule 13), terrain and
    combat (Rule 12), conventional fire (Rule 9), antitank fire (Rule 10), barrage
    (Rule 11) and weather (Rule 16).

    Each chart is read from the tables file when a rule first asks for it (issue 35): a
    command reads a few (a fire listing the odds columns and the defense chart), and
    making them all, the movement chart's 84 costs first, was about a third of loading
    the catalog.  A chart written wrong is refused when it is first read, naming its key;
    ``pbem scenario check`` reads them all (:meth:`read_all`)."""

    def __init__(self, doc: Doc) -> None:
        self._doc = doc

    def read_all(self) -> None:
        """Every chart read now (each refused here if written wrong)."""
        for name in _TABLE_FIELDS:
            getattr(self, name)

    @functools.cached_property
    def movement(self) -> Mapping[str, Mapping[str, Cost]]:
        doc = self._doc
        movement: dict[str, dict[str, Cost]] = {}
        for terr in TEC_TERRAIN:
            row = doc.get_table("movement", terr)
            movement[terr] = {m: _cost(doc, ("movement", terr, m), row.get(m))
                              for m in MOBILITIES}
        return movement

    @functools.cached_property
    def lake(self) -> Mapping[str, Mapping[str, int | None]]:
        """Rule 13's lake hexside costs, in ticks as :class:`Cost`'s (``None``:
        prohibited)."""
        doc = self._doc
        lake: dict[str, dict[str, int | None]] = {}
        for key in ("full_frozen", "partial_frozen", "full_thaw", "partial_thaw"):
            row = doc.get_table("lake_hexside", key)
            lake[key] = {m: _cost(doc, ("lake_hexside", key, m), row.get(m)).enter
                         for m in MOBILITIES}
        return lake

    @functools.cached_property
    def defense(self) -> Mapping[str, Mapping[str, int]]:
        return {terr: {k: int(v) for k, v in row.items()}
                for terr, row in self._doc.get_table("defense").items() if terr != "stand_in"}

    @functools.cached_property
    def columns(self) -> tuple[tuple[int, int], ...]:
        columns = []
        for c in self._doc.get_list("odds", "columns"):
            a, b = str(c).split(":")
            columns.append((int(a), int(b)))
        return tuple(columns)

    @functools.cached_property
    def conventional(self) -> tuple[tuple[int | None, ...], ...]:
        """Rows of results by odds column; ``None`` = MC with no number."""
        doc, width = self._doc, len(self.columns)
        conv: list[tuple[int | None, ...]] = []
        for row in doc.get_list("conventional_crt", "rows"):
            if len(row) != width:
                raise doc.error(("conventional_crt", "rows"), "one entry per odds column")
            conv.append(tuple(None if e == "MC" else int(str(e)[2:]) for e in row))
        return tuple(conv)

    @functools.cached_property
    def antitank(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(int(x) for x in row)
                     for row in self._doc.get_list("antitank_table", "rows"))

    @functools.cached_property
    def barrage_columns(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self._doc.get_list("barrage_table", "columns"))

    @functools.cached_property
    def barrage(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(int(x) for x in row)
                     for row in self._doc.get_list("barrage_table", "rows"))

    @functools.cached_property
    def barrage_terrain(self) -> Mapping[str, int]:
        mods = self._doc.get_table("barrage_modifiers")
        return {k: int(v) for k, v in mods["terrain"].items()}

    @functools.cached_property
    def barrage_bunker(self) -> int:
        return int(self._doc.get_table("barrage_modifiers")["bunker"])

    @functools.cached_property
    def barrage_afv(self) -> int:
        return int(self._doc.get_table("barrage_modifiers")["afv"])

    @functools.cached_property
    def weather(self) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
        weather = []
        for key, row in self._doc.get_table("weather").items():
            if key == "stand_in":
                continue
            _, a, b = key.split("_")
            weather.append((int(a), int(b), tuple(str(x) for x in row)))
        return tuple(weather)

    @functools.cached_property
    def points_per_sp(self) -> int:
        return self._doc.get_int("victory", "points_per_sp")


#: the charts of :class:`Tables`, in the order the manual's rules come
_TABLE_FIELDS = ("movement", "lake", "defense", "columns", "conventional", "antitank",
                 "barrage_columns", "barrage", "barrage_terrain", "barrage_bunker",
                 "barrage_afv", "weather", "points_per_sp")


class Catalog(Shared, Frozen):
    """All of White Death's data, checked; shared (not copied) by every state.  A record
    as the others (:class:`pbem.grammar.Frozen`): compared, hashed and printed by its fields but for
    ``static`` and ``memo``, which are what is worked out from it."""

    __match_args__ = ("data", "tables", "types", "units", "names", "supply", "replacements",
               "rail_sp", "bunkers", "reinforcements", "opening", "scenarios",
               "flieger_turn", "flieger_single", "flieger_division", "flieger_area",
               "soviet_answer", "extra")
    data: ScenarioSet
    tables: Tables
    types: Mapping[str, UnitType]
    units: Mapping[str, UnitDef]
    names: Mapping[str, tuple[str, ...]]
    supply: Mapping[str, tuple[int, ...]]
    replacements: Mapping[str, tuple[int, ...]]
    rail_sp: int
    bunkers: tuple[int, ...]
    reinforcements: tuple[Reinforcement, ...]
    opening: tuple[Group, ...]
    scenarios: Mapping[str, ScenarioDef]
    flieger_turn: int
    flieger_single: tuple[str, ...]
    flieger_division: tuple[str, ...]
    flieger_area: str
    soviet_answer: tuple[tuple[tuple[str, ...], str, int], ...]
    extra: Mapping[str, Any]
    #: facts derived from the map alone (neighbours, terrain names, banks, lines of sight,
    #: edges), filled as rules ask for them; shared by every state, never part of one
    static: dict[Any, Any]
    #: facts derived from one side's enemies' positions (their ZOCs, the supply and rail
    #: traces through them), keyed by those positions in full: a move of the phasing side
    #: leaves its own traces valid, and a clone or a replay finds them again
    memo: Memo[Any, Any]

    def __init__(self, data: ScenarioSet, tables: Tables, types: Mapping[str, UnitType],
                 units: Mapping[str, UnitDef], names: Mapping[str, tuple[str, ...]],
                 supply: Mapping[str, tuple[int, ...]],
                 replacements: Mapping[str, tuple[int, ...]], rail_sp: int,
                 bunkers: tuple[int, ...], reinforcements: tuple[Reinforcement, ...],
                 opening: tuple[Group, ...], scenarios: Mapping[str, ScenarioDef],
                 flieger_turn: int, flieger_single: tuple[str, ...],
                 flieger_division: tuple[str, ...], flieger_area: str,
                 soviet_answer: tuple[tuple[tuple[str, ...], str, int], ...],
                 extra: Mapping[str, Any] | None = None) -> None:
        self.__dict__.update(
            data=data, tables=tables, types=types, units=units, names=names,
            supply=supply, replacements=replacements, rail_sp=rail_sp, bunkers=bunkers,
            reinforcements=reinforcements, opening=opening, scenarios=scenarios,
            flieger_turn=flieger_turn, flieger_single=flieger_single,
            flieger_division=flieger_division, flieger_area=flieger_area,
            soviet_answer=soviet_answer, extra={} if extra is None else extra,
            static={}, memo=Memo(4096))

    @property
    def map(self) -> HexMap:
        return self.data.map

    def resolve(self, name: str) -> tuple[str, ...]:
        """Hexes of a place or area by this data's name, via the [names] aliases."""
        m = self.map
        for candidate in (name, *self.names.get(name, ())):
            if candidate in m.places:
                return m.places[candidate]
            if candidate in m.areas:
                return m.areas[candidate]
        raise ScenarioError(f"the map names no place or area {name!r} "
                            f"(tried {', '.join((name, *self.names.get(name, ())))})",
                            path=self.data.source)

    def has_name(self, name: str) -> bool:
        try:
            self.resolve(name)
        except ScenarioError:
            return False
        return True


def _find(data: ScenarioSet, key: str) -> Doc:
    # by the file's top-level keys (Doc.top, the keys of its tables), not its tables: a
    # file's tables are decoded when first read, and asking each file in turn decoded the
    # map file's and every scenario's before the one that has the key (issue 35)
    for doc in data.docs.values():
        if key in doc.top:
            return doc
    raise ScenarioError(f"no data file has [{key}]", path=data.source)


#: each cost the charts write, by its text: the charts write 84 costs with about 15
#: texts, and a Cost never changes, so one serves every place that writes the same text
#: (only a cost read without fault is kept: a faulty one is refused at each place, named)
_COSTS: dict[str, Cost] = {}


def _cost(doc: Doc, path: tuple[str, ...], text: Any) -> Cost:
    if type(text) is str:
        got = _COSTS.get(text)
        if got is None:
            got = _COSTS[text] = _read_cost(doc, path, text)
        return got
    return _read_cost(doc, path, text)


def _read_cost(doc: Doc, path: tuple[str, ...], text: Any) -> Cost:
    if not isinstance(text, str):
        raise doc.error(path, f"expected a cost string like \"1\", \"1/2\", \"1-2\" or \"P\", "
                              f"got {text!r}")
    if text == "P":
        return _made(Cost, enter=None, leave=_NO_LEAVE)
    try:
        if "-" in text:
            a, b = text.split("-", 1)
            enter, leave = frac(a), frac(b)
        else:
            enter, leave = frac(text), (_NO_LEAVE, 1)
    except (ValueError, ZeroDivisionError):
        raise doc.error(path, f"bad cost {text!r}") from None
    try:
        return _made(Cost, enter=ticks(enter), leave=ticks(leave))
    except ValueError as e:
        raise doc.error(path, f"a movement cost of {e} MP on the charts: the position "
                              f"counts movement points in 1/{MP_TICKS} MPs (Rule 7; "
                              "engines/white_death/position.py, MP_TICKS)") from None


def _group(doc: Doc, path: tuple[Any, ...], spec: Mapping[str, Any]) -> Group:
    side = spec.get("side")
    if side not in SIDES:
        raise doc.error((*path, "side"), f"side must be soviet or german, not {side!r}")
    return _made(Group, side=side, units=tuple(spec["units"]), near=str(spec["near"]),
                 within=int(spec.get("within", 0)), garrison=str(spec.get("garrison", "")))


_T = TypeVar("_T")


def _made(cls: type[_T], /, **fields: Any) -> _T:
    """``cls(**fields)`` for a record of this module given every field: a frozen
    dataclass's ``__init__`` set each field through ``object.__setattr__`` (about
    13 k instructions for a unit's seven), and every command that loads the catalog made
    all 108 units, then made the battalions' companies again (``replace``) to count
    them (issue 35); this sets them at once.  tests/white_death/test_catalog_records.py
    holds the records made so equal to the class's own."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


def load_catalog(data: ScenarioSet) -> Catalog:
    tables = Tables(_find(data, "conventional_crt"))
    udoc = _find(data, "types")
    types: dict[str, UnitType] = {}
    for key, spec in udoc.get_table("types").items():
        if key == "stand_in":
            continue
        cf_text = str(spec["cf"])
        types[key] = _made(
            UnitType, key=key, cls=spec["cls"], cf=frac(cf_text.lstrip("*")),
            cf_defensive_only=cf_text.startswith("*"), atf=frac(str(spec["atf"])),
            morale=int(spec["morale"]), mob=spec["mob"], size=spec["size"],
            defense=int(spec.get("def", 0)), range=int(spec.get("range", 0)),
            barrage=int(spec.get("barrage", 0)), support=int(spec.get("support", 0)),
            flags=frozenset(spec.get("flags", [])))
        if types[key].cls not in ("P", "L", "H", "A") or types[key].mob not in MOBILITIES:
            raise udoc.error(("types", key), "bad cls or mob")
    rows: dict[str, tuple[str, UnitType, str, int, str]] = {}
    for side in SIDES:
        for uid, spec in udoc.get_table(side).items():
            if uid == "stand_in":
                continue
            if not isinstance(spec, list) or len(spec) not in (3, 4):
                raise udoc.error((side, uid), "expected [type, division, strength] or "
                                              "[type, division, strength, battalion]")
            tkey, div, strength = spec[:3]
            battalion = str(spec[3]) if len(spec) == 4 else ""
            if tkey not in types:
                raise udoc.error((side, uid), f"unknown unit type {tkey!r}")
            if " " in uid or uid in rows:
                raise udoc.error((side, uid), "unit ids are unique and have no spaces")
            if battalion and types[tkey].size != "I":
                raise udoc.error((side, uid), "only a company (size I) names its battalion "
                                              "(Rule 4.A)")
            rows[uid] = (side, types[tkey], str(div), int(strength), battalion)
    sizes: dict[str, int] = {}
    for *_, battalion in rows.values():
        if battalion:
            sizes[battalion] = sizes.get(battalion, 0) + 1
    units = {uid: _made(UnitDef, uid=uid, side=side, type=t, div=div, strength=strength,
                        battalion=battalion, companies=sizes[battalion] if battalion else 0)
             for uid, (side, t, div, strength, battalion) in rows.items()}
    sdoc = _find(data, "common")
    common = sdoc.get_table("common")
    names = {k: tuple(v) for k, v in sdoc.get_table("names").items()}
    reinf = tuple(
        _made(Reinforcement, turn=int(r["turn"]), side=units[r["units"][0]].side,
              units=tuple(r["units"]), area=r["area"])
        for r in sdoc.get_list("reinforcement"))
    opening = tuple(_group(sdoc, ("opening", i), g)
                    for i, g in enumerate(sdoc.get_list("opening")))
    scenarios = _Scenarios(data, units, opening)
    answer = tuple((tuple(a["units"]), str(a["area"]), int(a["roll"]))
                   for a in common["soviet_answer"])
    cat = Catalog(
        data, tables, types, units, names,
        {s: tuple(int(x) for x in common["supply"][s]) for s in SIDES},
        {s: tuple(int(x) for x in common["replacements"][s]) for s in SIDES},
        int(common["rail_sp"]), tuple(int(x) for x in common["bunkers"]), reinf, opening,
        scenarios, int(common["flieger_turn"]), tuple(common["flieger_single"]),
        tuple(common["flieger_division"]), str(common["flieger_area"]), answer)
    _check(cat)
    return cat


class _Scenarios(Mapping[str, ScenarioDef]):
    """The catalog's scenarios by id, each read from its file and checked when first
    asked: a game reads its own alone, and every command decoded all six scenario files'
    tables and made their set-up groups and objectives (issue 35).  A scenario whose
    groups name a unit the order of battle does not have (or of the other side) is
    refused when it is asked, naming it, as a catalog that held it was refused before;
    ``pbem scenario check`` asks every one (pbem.engine.Engine.check_scenarios)."""

    __slots__ = ("_data", "_made", "_opening", "_units")

    def __init__(self, data: ScenarioSet, units: Mapping[str, UnitDef],
                 opening: tuple[Group, ...]) -> None:
        self._data = data
        self._units = units
        self._opening = opening
        self._made: dict[str, ScenarioDef] = {}

    def __getitem__(self, sid: str) -> ScenarioDef:
        got = self._made.get(sid)
        if got is None:
            got = self._made[sid] = self._read(sid, self._data.scenarios[sid])
        return got

    def __iter__(self) -> Iterator[str]:
        return iter(self._data.scenarios)

    def __len__(self) -> int:
        return len(self._data.scenarios)

    def __repr__(self) -> str:
        return repr(dict(self))

    def _read(self, sid: str, fname: str) -> ScenarioDef:
        doc = self._data.docs[fname]
        sc = doc.get_table("scenario")
        groups = tuple(_group(doc, ("setup", i), g)
                       for i, g in enumerate(doc.get_list("setup", default=[])))
        objectives = tuple(_made(Objective, place=o["place"],
                                 points={s: int(o.get(s, 0)) for s in SIDES})
                           for o in sc.get("objectives", []))
        t = sc["turns"]
        made = _made(
            ScenarioDef, id=sid, title=sc["title"], turns=(int(t[0]), int(t[1])),
            groups=groups,
            reduced={k: int(v) for k, v in doc.get_table("reduced", default={}).items()},
            objectives=objectives, opening=bool(sc.get("opening", False)),
            player_setup=bool(sc.get("player_setup", False)), file=fname)
        units = self._units
        for g in (*made.groups, *(self._opening if made.opening else ())):
            for uid in g.units:
                if uid not in units:
                    raise ScenarioError(f"scenario {sid}: unknown unit {uid!r}", path=fname)
                if units[uid].side != g.side:
                    raise ScenarioError(f"scenario {sid}: {uid} is not {g.side}", path=fname)
        return made


def _check(cat: Catalog) -> None:
    # each scenario's groups are checked as it is read (_Scenarios)
    for r in cat.reinforcements:
        for uid in r.units:
            if uid not in cat.units:
                raise ScenarioError(f"reinforcement: unknown unit {uid!r}",
                                    path=cat.data.source)
