"""The For the Motherland! data: counters, tables, turn track, scenarios, and the map.

Everything is read once from ``scenarios/for-the-motherland/`` through the hex kit's
loader (so errors name the file, key and line) and frozen here.  The state refers to
counters by id and looks their fixed properties up in :class:`GameData`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import Doc, ScenarioSet, load_scenario_path, parse_doc, parse_map
from engines.hexkit.shared import Shared
from engines.motherland.const import BLOCKING_SIDES
from pbem.engine import package_files
from pbem.errors import ScenarioError
from pbem.grammar import Frozen

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable  # a type only (issue 19)

    from engines.hexkit.facts import ZocRule

ENGINE_ID = "for-the-motherland"
_NONE: frozenset[str] = frozenset()
_INT = frozenset({int})

#: unit types that are Mechanized for movement (5.1.2)
MECH_TYPES = frozenset({"panzer", "ss_panzer", "tank", "mech_group", "supply_base"})
#: German three-step corps types (8.5.2): front, back, Kampfgruppe
CORPS_TYPES = frozenset({"panzer", "infantry", "mountain", "ss_panzer"})
#: Soviet units whose factors come from a Strength Chit (11.0)
CHIT_TYPES = frozenset({"combined_arms", "guards", "shock", "tank", "mech_group", "fortress"})
#: units that exert no ZOC (4.1)
NO_ZOC_TYPES = frozenset({"supply_base", "air_base", "railroad_gun", "offensive_support",
                          "economic"})
#: "Panzer" for 5.1.4, 5.4.1, 7.2.4, 8.6.3, 8.7.1 (Panzer Corps, SS Panzer Corps, their KGs)
ARMOR_TYPES = frozenset({"panzer", "ss_panzer", "tank", "mech_group"})
#: Soviet armies for 6.3/6.4 stacking and 20.6 deductions
SOVIET_ARMY_TYPES = frozenset({"combined_arms", "guards", "shock", "tank", "mech_group"})
ALLIED_NATIONS = frozenset({"romanian", "hungarian", "italian", "finnish"})


# the data records are frozen records (pbem.grammar.Frozen), not dataclasses:
# every command's load makes them, and made as dataclasses the five classes were about
# 1 M instructions of each (issue 35)


class Counter(Frozen):
    """A unit counter: side, nation, type and its factors by remaining step (a chit
    unit's come from its strength chit)."""

    __match_args__ = ("id", "side", "name", "type", "nation", "letter", "asset", "factors")
    id: str
    side: str
    name: str
    type: str
    nation: str
    letter: str
    asset: str
    #: [attack, defense, movement] by remaining steps, highest step first
    factors: tuple[tuple[int, int, int], ...]

    def __init__(self, id: str, side: str, name: str, type: str, nation: str = "soviet",
                 letter: str = "", asset: str = "",
                 factors: tuple[tuple[int, int, int], ...] = ()) -> None:
        super().__init__(id, side, name, type, nation, letter, asset, factors)

    @property
    def max_steps(self) -> int:
        if self.type in CHIT_TYPES:
            return 2
        return len(self.factors)

    @property
    def mech(self) -> bool:
        return self.type in MECH_TYPES

    @property
    def exerts_zoc(self) -> bool:
        return self.type not in NO_ZOC_TYPES

    @property
    def is_combat(self) -> bool:
        """Combat units for stacking, supply effects, partisans and the like."""
        return self.type not in NO_ZOC_TYPES


class Chit(Frozen):
    """A Soviet strength chit: its letter, its front and back factors and the setup
    number the chits file gives it."""

    __match_args__ = ("id", "letter", "front", "back", "setup")
    id: str
    letter: str
    front: tuple[int, int]
    back: tuple[int, int]
    setup: int

    def __init__(self, id: str, letter: str, front: tuple[int, int], back: tuple[int, int],
                 setup: int) -> None:
        super().__init__(id, letter, front, back, setup)

    @property
    def starred(self) -> bool:
        return self.id.endswith("*")


class TurnInfo(Frozen):
    """One turn of the Turn Record Track: date, weather, replacements, production and
    what arrives or is withdrawn."""

    __match_args__ = ("turn", "date", "weather", "first_winter", "replacements",
                      "production", "air_withdrawal", "soviet", "axis", "chits", "general",
                      "partisan")
    turn: int
    date: str
    weather: str
    first_winter: bool
    replacements: tuple[int, int]
    production: bool
    air_withdrawal: bool
    soviet: tuple[str, ...]
    axis: tuple[str, ...]
    chits: tuple[str, ...]
    general: str
    partisan: str

    def __init__(self, turn: int, date: str, weather: str, first_winter: bool = False,
                 replacements: tuple[int, int] = (0, 0), production: bool = False,
                 air_withdrawal: bool = False, soviet: tuple[str, ...] = (),
                 axis: tuple[str, ...] = (), chits: tuple[str, ...] = (),
                 general: str = "", partisan: str = "") -> None:
        super().__init__(turn, date, weather, first_winter, replacements, production,
                         air_withdrawal, soviet, axis, chits, general, partisan)


class ScenarioData(Frozen):
    """A scenario: its turns, special rules, victory conditions, setup and the
    control and eliminated assets it starts with."""

    __match_args__ = ("id", "title", "first", "last", "doc", "rules", "victory", "axis",
                      "soviet", "eliminated_assets", "axis_control", "soviet_recaptured")
    id: str
    title: str
    first: int
    last: int
    doc: Doc
    rules: Mapping[str, Any]
    victory: Mapping[str, Any]
    axis: tuple[tuple[str, str], ...]
    soviet: tuple[tuple[str, str], ...]
    eliminated_assets: tuple[str, ...]
    axis_control: tuple[str, ...]
    soviet_recaptured: tuple[str, ...]

    def __init__(self, id: str, title: str, first: int, last: int, doc: Doc,
                 rules: Mapping[str, Any], victory: Mapping[str, Any],
                 axis: tuple[tuple[str, str], ...], soviet: tuple[tuple[str, str], ...],
                 eliminated_assets: tuple[str, ...], axis_control: tuple[str, ...],
                 soviet_recaptured: tuple[str, ...]) -> None:
        super().__init__(id, title, first, last, doc, rules, victory, axis, soviet,
                         eliminated_assets, axis_control, soviet_recaptured)


class Terrain(Frozen):
    """A Terrain Effects Chart row: the cost for leg and mechanized units to enter, the
    combat column shift, and the units excepted where it is prohibited to the others
    (High Mountain, 5.1.5)."""

    __match_args__ = ("leg", "mech", "shift", "prohibited_except")
    leg: int
    mech: int
    shift: int
    prohibited_except: str

    def __init__(self, leg: int, mech: int, shift: int, prohibited_except: str = "") -> None:
        super().__init__(leg, mech, shift, prohibited_except)


#: the countries other than the Soviet Union (5.2.1), in the order :attr:`GameData.abroad`
#: lays them down (a hex in two is the later's)
_ABROAD = ("bulgaria", "germany", "finland", "hungary", "romania", "turkey")


@dataclass
class GameData(Shared):
    """The loaded data set: one per engine instance, shared (not copied) by every state."""

    files: tuple[Traversable, ...]
    hexmap: HexMap
    counters: dict[str, Counter]
    chits: dict[str, Chit]
    empty_cup: dict[str, str]
    turns: dict[int, TurnInfo]
    scenarios: Scenarios
    crt_columns: tuple[str, ...]
    crt_rows: tuple[tuple[str, ...], ...]
    tec: dict[str, Terrain]
    minor_river_mp: int
    major_river_mp: int
    isolation: tuple[int, ...]
    partisan_table: tuple[int, ...]
    production: tuple[int, ...]
    max_os: int
    stand_ins: tuple[str, ...] = field(default=())

    # -- derived map facts, computed once ---------------------------------------------

    @cached_property
    def water(self) -> frozenset[str]:
        """Sea and lake hexes (terrain classes marked ``water``): no unit stands there."""
        wet = self._wet
        # read in C, not hex by hex in Python: every act and receive that reaches a
        # combat asks it once (issue 35)
        terrain = self.hexmap.terrain
        return frozenset(compress(terrain, map(wet.__contains__, terrain.values())))

    @cached_property
    def _wet(self) -> frozenset[str]:
        """The terrain classes marked ``water``."""
        return frozenset(t.name for t in self.hexmap.legend if t.flag("water"))

    def is_water(self, h: str) -> bool:
        """``h in water``, asked of that hex alone until the set is made: a retreat and
        its ZOC (8.6, 4.1) ask it of a few hexes, and making the set of the map's 951
        was 0.37 M instructions of every legal, act and receive that reaches one (issue
        35).  False for a hex not on the map, as the set."""
        built = self.__dict__.get("water")
        if built is not None:
            return h in built
        return self.hexmap.terrain.get(h) in self._wet

    @cached_property
    def zoc_rule(self) -> ZocRule:
        """4.1 as the kit's board facts take it: the units that exert a ZOC by type, not
        across sea, lake, out-of-play hexsides or the Chongar rail bridge (16.7), nor into
        sea or lake hexes (a ZOC covers land only).  Built once per data set: the facts
        know a rule by identity, and it reads only the counters, fixed for the game."""
        from engines.hexkit.facts import ZocRule  # loaded with the first facts made

        counters, water = self.counters, self.water
        return ZocRule(exerts=lambda p: counters[p.unit].exerts_zoc,
                       blocking_sides=BLOCKING_SIDES, blocks=lambda _h, n: n in water)

    @cached_property
    def all_neighbors(self) -> dict[str, tuple[str, ...]]:
        # read off the map's neighbour table in one pass (each hex's neighbors() in the
        # same order): asking the map hex by hex was half of building these two, which
        # every act and receive that reaches an advance (8.7) does (issue 35)
        ids = self.hexmap.ids
        return {h: tuple([ids[j] for j in near])
                for h, near in zip(ids, self.hexmap.adjacency, strict=True)}

    @cached_property
    def neighbors(self) -> dict[str, tuple[str, ...]]:
        """Land neighbors of every hex (water hexes are entered only by Frozen Access)."""
        wet = self.water
        return {h: ns if wet.isdisjoint(ns) else tuple([n for n in ns if n not in wet])
                for h, ns in self.all_neighbors.items()}

    @cached_property
    def _land_of(self) -> dict[str, tuple[str, ...]]:
        return {}

    def neighbors_of(self, h: str) -> tuple[str, ...]:
        """``neighbors[h]``, found for that hex alone until something builds the whole
        table: a combat, a retreat or an advance (8.0, 8.6, 8.7) reads a few hexes', and
        building the 951 hexes' for them was about a tenth of an act's own work (issue
        35).  KeyError for a hex not on the map, as the table."""
        built = self.__dict__.get("neighbors")
        if built is not None:
            return built[h]  # type: ignore[no-any-return]
        hit = self._land_of.get(h)
        if hit is None:
            # as all_neighbors and neighbors make each entry, in the same order
            ns = self.map_neighbors(h)
            wet = [self.is_water(n) for n in ns]
            hit = self._land_of[h] = (
                tuple([n for n, w in zip(ns, wet, strict=True) if not w]) if any(wet)
                else ns)
        return hit

    @cached_property
    def _map_near(self) -> dict[str, tuple[str, ...]]:
        return {}

    def map_neighbors(self, h: str) -> tuple[str, ...]:
        """``hexmap.neighbors(h)``, kept: the hexes of the map next to ``h``, water too, in
        the map's order (N, NE, SE, S, SW, NW).  The map works a few hexes' out from their
        numbers without its whole table (a retreat and its ZOC read a few, 8.6, 4.1);
        kept, since a retreat asks the same hexes for each of its units.  KeyError for a
        hex not on the map, as the map's."""
        hit = self._map_near.get(h)
        if hit is None:
            hit = self._map_near[h] = tuple(self.hexmap.neighbors(h))
        return hit

    @cached_property
    def land(self) -> tuple[str, ...]:
        return tuple(h for h in self.hexmap.ids if h not in self.water)

    @cached_property
    def open_neighbors(self) -> dict[str, tuple[str, ...]]:
        """Neighbors not across a sea, lake or out-of-play hexside (supply lines, 9.2)."""
        closed = {"sea", "lake", "out_of_play"}
        return {h: tuple(n for n in ns if not (self.side_features(h, n) & closed))
                for h, ns in self.neighbors.items()}

    @cached_property
    def ice_neighbors(self) -> dict[str, tuple[str, ...]]:
        """Supply neighbors for Soviet infantry on Snow Turns (9.2.1): also across Frozen
        Access hexsides, into and out of the sea or lake hexes they border."""
        out: dict[str, tuple[str, ...]] = {}
        for h, ns in self.all_neighbors.items():
            base = () if h in self.water else self.open_neighbors[h]
            ice = tuple(n for n in ns if "frozen_access" in self.side_features(h, n)
                        and n not in base)
            out[h] = base + ice
        return out

    def area(self, name: str) -> frozenset[str]:
        return frozenset(self.hexmap.areas.get(name, ()))

    @cached_property
    def country(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name in ("soviet_union", "bulgaria", "germany", "finland", "hungary", "romania",
                     "turkey"):
            out.update(dict.fromkeys(self.hexmap.areas.get(name, ()), name))
        return out

    @cached_property
    def abroad(self) -> dict[str, str]:
        """:attr:`country` less the Soviet Union's hexes: the other countries' (5.2.1),
        each the one :attr:`country` gives.  The Soviet Union comes first there, so any
        other country a hex is in wins, and a hex in none is the Soviet Union's: its 639
        hexes need no entry, and making them was half of asking the first hex's country
        (a retreat's, 8.6: issue 35)."""
        out: dict[str, str] = {}
        for name in _ABROAD:
            out.update(dict.fromkeys(self.hexmap.areas.get(name, ()), name))
        return out

    def country_of(self, h: str) -> str:
        """The country of a hex (5.2.1); a map without a Soviet Union area means it.
        Asked of the hex's areas while nothing has made :attr:`abroad` and the map has
        not decoded its areas (a retreat's few hexes, 8.6: 0.65 M instructions): the
        last of the other countries in :attr:`abroad`'s order that holds it wins."""
        built = self.__dict__.get("abroad")
        if built is None and "areas" not in self.hexmap.__dict__:
            names = self.hexmap.areas_of(h)
            return next((c for c in reversed(_ABROAD) if c in names), "soviet_union")
        return self.abroad.get(h, "soviet_union")

    @cached_property
    def coast_black(self) -> frozenset[str]:
        """19.2: the Black Sea coast including the Sea of Azov."""
        return self.area("coast_black") | self.area("coast_azov")

    @cached_property
    def cities(self) -> frozenset[str]:
        fm = self.hexmap.hex_features
        return frozenset(h for h, f in fm.items() if "city" in f or "port" in f)

    @cached_property
    def fortified(self) -> frozenset[str]:
        return frozenset(h for h, f in self.hexmap.hex_features.items() if "fortified" in f)

    @cached_property
    def ports(self) -> dict[str, str]:
        """Port hex -> body of water (baltic, black, azov)."""
        out: dict[str, str] = {}
        for h, f in sorted(self.hexmap.hex_features.items()):
            for body in ("baltic", "black", "azov"):
                if f"port_{body}" in f:
                    out[h] = body
        return out

    @cached_property
    def rail(self) -> dict[str, tuple[str, ...]]:
        links = self.hexmap.networks.get("railroad", frozenset())
        out: dict[str, list[str]] = {}
        for a, b in sorted(links):
            out.setdefault(a, []).append(b)
            out.setdefault(b, []).append(a)
        return {h: tuple(sorted(v)) for h, v in sorted(out.items())}

    @cached_property
    def _one_way(self) -> Mapping[tuple[str, str], frozenset[str]]:
        return self.hexmap.hexsides

    @cached_property
    def _sides(self) -> dict[tuple[str, str], frozenset[str]]:
        # each hexside as the map keeps it, then turned round, both in C (a retreat's
        # first hexside asks it: issue 35); a look-up table, never iterated in order
        sides = self.hexmap.hexsides
        out = dict(sides)
        out.update(zip(zip(map(itemgetter(1), sides), map(itemgetter(0), sides), strict=True),
                       sides.values(), strict=True))
        return out

    def side_features(self, a: str, b: str) -> frozenset[str]:
        # the map keeps a hexside once, lower hex first (hexkit.geometry.hexside): asked
        # so, not of a table both ways round, which a retreat's few hexsides (8.6.4) made
        # whole: 1.3 M instructions of every legal and act that lists one (issue 35);
        # and asked of the map itself while it has not decoded its table, which it
        # answers from the two hexes' kept records (a retreat's, 2.6 M)
        one_way = self.__dict__.get("_one_way")
        if one_way is None:
            if a != b and "hexsides" not in self.hexmap.__dict__:
                return self.hexmap.few_side_features(a, b)
            one_way = self._one_way
        return one_way.get((a, b) if a < b else (b, a), _NONE)

    def hexsides_both_ways(self) -> Mapping[tuple[str, str], frozenset[str]]:
        """Every hexside with features, as ``(a, b)`` and ``(b, a)``: what
        :meth:`side_features` reads."""
        return self._sides

    @cached_property
    def _near(self) -> dict[tuple[str, int], tuple[tuple[str, int], ...]]:
        return {}

    def near(self, h: str, radius: int) -> tuple[tuple[str, int], ...]:
        """The hexes within ``radius`` of ``h`` (sorted) with their distances: a fact of
        the map, kept (the supply and Strategic Movement rules ask it of every unit in
        every listing, 5.3.1, 9.3.3)."""
        key = (h, radius)
        hit = self._near.get(key)
        if hit is None:
            grid = self.hexmap.grid
            hit = self._near[key] = tuple((y, grid.distance(h, y))
                                          for y in grid.within(h, radius))
        return hit

    @cached_property
    def _around(self) -> dict[tuple[str, int], frozenset[str]]:
        return {}

    def around(self, h: str, radius: int) -> frozenset[str]:
        """The hexes of :meth:`near` as a set, ``h`` among them: the hexes within so
        many of a side's units are their union (5.3.1, 9.3.3), taken at C speed where
        a loop over each unit's hexes was a tenth of a movement phase's first listing
        (issue 35 item 5)."""
        key = (h, radius)
        hit = self._around.get(key)
        if hit is None:
            # no distances: a unit's hexes within five were most of the first ask
            hit = self._around[key] = frozenset(self.hexmap.grid.within(h, radius))
        return hit

    @cached_property
    def land_set(self) -> frozenset[str]:
        """:attr:`land` as a set."""
        return frozenset(self.land)

    @cached_property
    def place_names(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, hexes in sorted(self.hexmap.places.items()):
            for h in hexes:
                out.setdefault(h, name)
        return out

    def hex_name(self, h: str) -> str:
        name = self.place_names.get(h)
        return f"{h} ({name})" if name else h


# --- loading -----------------------------------------------------------------------------


def _ints(doc: Doc, value: Any, path: tuple[str | int, ...], n: int) -> tuple[int, ...]:
    # each an int and no bool, the types taken in C (a generator's step each was most of
    # reading the 28 factor tables)
    if not isinstance(value, list) or len(value) != n or not set(map(type, value)) <= _INT:
        raise doc.error(path, f"expected a list of {n} integers, got {value!r}")
    return tuple(value)


_T = TypeVar("_T")


def _made(cls: type[_T], values: dict[str, Any]) -> _T:
    """``cls(**values)`` for a frozen record of this module given every field, in order:
    its fields put in at once.  A frozen record's ``__init__`` sets each through
    ``object.__setattr__``, 17 K instructions a counter, and every command's load makes
    the 171 counters (issue 35); the fields come as one map, not as a call's keywords,
    which were a third of reading them."""
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made


def _counters(doc: Doc) -> dict[str, Counter]:
    factors: dict[str, tuple[tuple[int, int, int], ...]] = {}
    for kind, rows in doc.get_table("factors").items():
        if kind == "stand_in":
            continue
        factors[kind] = tuple([
            _ints(doc, r, ("factors", kind, i), 3)  # type: ignore[misc]
            for i, r in enumerate(rows)])
    out: dict[str, Counter] = {}
    new = object.__new__
    for side in ("axis", "soviet"):
        for i, spec in enumerate(doc.get_list(side)):
            get = spec.get
            t = get("type", "")
            if t not in factors:
                raise doc.error((side, i, "type"), f"unknown unit type {t!r}")
            uid = spec["id"]
            if uid in out:
                raise doc.error((side, i, "id"), f"counter {uid} is listed twice")
            # as _made makes one, without a call a counter
            c = out[uid] = new(Counter)
            c.__dict__.update({"id": uid, "side": side, "name": get("name", uid), "type": t,
                               "nation": get("nation", "soviet"), "letter": get("letter", ""),
                               "asset": get("asset", ""), "factors": factors[t]})
    return out


def _scenario(doc: Doc, counters: Mapping[str, Counter], hexmap: HexMap) -> ScenarioData:
    turns = doc.get_list("scenario", "turns")
    setup = doc.get_table("setup")

    # the map's hexes asked directly, not through the map's ``in`` (a call each of a
    # scenario's 171 placements, read by every command's load: issue 35)
    on_map = hexmap.terrain

    def places(side: str) -> tuple[tuple[str, str], ...]:
        out = []
        for i, pair in enumerate(setup.get(side, [])):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise doc.error(("setup", side, i), "expected [unit, hex]")
            uid, h = pair
            c = counters.get(uid)
            if c is None or c.side != side:
                raise doc.error(("setup", side, i), f"{uid!r} is not a {side} counter")
            if h not in on_map:
                raise doc.error(("setup", side, i), f"hex {h} is not on the map")
            out.append((uid, h))
        return tuple(out)

    return ScenarioData(
        id=doc.get_str("scenario", "id"), title=doc.get_str("scenario", "title"),
        first=int(turns[0]), last=int(turns[1]), doc=doc,
        rules=doc.get_table("rules", default={}), victory=doc.get_table("victory"),
        axis=places("axis"), soviet=places("soviet"),
        eliminated_assets=tuple(setup.get("eliminated_assets", [])),
        axis_control=tuple(setup.get("axis_control", [])),
        soviet_recaptured=tuple(setup.get("soviet_recaptured", [])))


class Scenarios(Mapping[str, ScenarioData]):
    """The scenarios by id, each built (its setup checked against the counters and the
    map) when first asked for: a game reads one of the six (issue 35: building all six was
    2.2 M instructions of every command's load).  ``pbem scenario check`` builds each."""

    def __init__(self, docs: Mapping[str, Doc], counters: Mapping[str, Counter],
                 hexmap: HexMap) -> None:
        self._docs = dict(sorted(docs.items()))
        self._counters = counters
        self._hexmap = hexmap
        self._built: dict[str, ScenarioData] = {}

    def __getitem__(self, sid: str) -> ScenarioData:
        built = self._built.get(sid)
        if built is None:
            built = self._built[sid] = _scenario(self._docs[sid], self._counters,
                                                 self._hexmap)
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._docs)

    def __len__(self) -> int:
        return len(self._docs)

    def head(self, sid: str) -> tuple[str, int, int]:
        """The scenario's title and its first and last turns (20.0), its setup unread."""
        doc = self._docs[sid]
        turns = doc.get_list("scenario", "turns")
        return doc.get_str("scenario", "title"), int(turns[0]), int(turns[1])


def load(root: Traversable | Path | None = None, map_file: Path | None = None) -> GameData:
    """Load the shipped data (or ``root``); ``map_file`` replaces the map (tests)."""
    if root is None:
        root = package_files("scenarios") / ENGINE_ID
    sset: ScenarioSet = load_scenario_path(root, label=f"scenarios/{ENGINE_ID}")
    files_t = sset.files
    if map_file is not None:
        hexmap = parse_map(parse_doc(str(map_file), map_file.read_bytes()))
        files_t = (*files_t, map_file)
    else:
        hexmap = sset.map
    d = sset.doc
    counters = _counters(d("counters.toml"))
    cdoc = d("chits.toml")
    chits = {}
    for cid, spec in cdoc.get_table("chit").items():
        chits[cid] = _made(Chit, {"id": cid, "letter": cid[0], "front": tuple(spec["front"]),
                                  "back": tuple(spec["back"]), "setup": int(spec["setup"])})
    tdoc = d("turns.toml")
    turns = {}
    for spec in tdoc.get_list("turn"):
        get = spec.get
        t = _made(TurnInfo, {"turn": spec["turn"], "date": spec["date"],
                             "weather": spec["weather"],
                             "first_winter": get("first_winter", False),
                             "replacements": tuple(get("replacements", (0, 0))),
                             "production": get("production", False),
                             "air_withdrawal": get("air_withdrawal", False),
                             "soviet": tuple(get("soviet", ())), "axis": tuple(get("axis", ())),
                             "chits": tuple(get("chits", ())), "general": get("general", ""),
                             "partisan": get("partisan", "")})
        for uid in (*t.soviet, *t.axis):
            if uid not in counters:
                raise tdoc.error(("turn",), f"turn {t.turn}: unknown counter {uid}")
        turns[t.turn] = t
    tables = d("tables.toml")
    tec = {}
    for name, spec in tables.get_table("tec").items():
        if isinstance(spec, dict):
            tec[name] = _made(Terrain, {"leg": spec["leg"], "mech": spec["mech"],
                                        "shift": spec["shift"],
                                        "prohibited_except": spec.get("prohibited_except", "")})
    scenarios = Scenarios({sid: sset.scenario(sid) for sid in sset.scenarios}, counters,
                          hexmap)
    if not scenarios:
        raise ScenarioError("no scenario files", path=str(root))
    return GameData(
        files=tuple(files_t), hexmap=hexmap, counters=counters, chits=chits,
        empty_cup=dict(cdoc.get_table("empty_cup")), turns=turns, scenarios=scenarios,
        crt_columns=tuple(tables.get_list("crt", "columns")),
        crt_rows=tuple(tuple(r) for r in tables.get_list("crt", "rows")),
        tec=tec, minor_river_mp=tables.get_int("tec", "minor_river_mp"),
        major_river_mp=tables.get_int("tec", "major_river_mp"),
        isolation=tuple(tables.get_list("isolation", "steps")),
        partisan_table=tuple(tables.get_list("partisans", "markers")),
        production=tuple(tables.get_list("production", "numbers")),
        max_os=tables.get_int("production", "max_offensive_support_on_map"),
        stand_ins=tuple(f"{s.file}: {s.key}: {s.reason}" for s in sset.stand_ins))
