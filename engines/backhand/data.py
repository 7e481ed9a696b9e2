"""The game's data (scenarios/backhand-blow/), read once: map, order of battle, charts."""

from __future__ import annotations

import functools
import sys
from itertools import chain
from operator import itemgetter
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgpack

from engines.hexkit import HexMap, ScenarioSet, load_scenario_dir
from engines.hexkit.facts import BoardFacts, Placed, ZocRule
from engines.hexkit.shared import Shared
from engines.hexkit.tables import Table, parse_roll_key
from pbem import datacache
from pbem.history import Frozen
from pbem.sha import content_digest

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engines.hexkit.crt import OddsCRT
    from engines.hexkit.scenario import Doc
    from engines.hexkit.stepcosts import StepCosts

    #: what units.toml gives the rules: the counters (2.4), the German formations
    #: (15.2), the Uprising Forces' factors and rating (17.0) and the Front Markers'
    #: setup hexes (14.0)
    OrderOfBattle = tuple[MappingProxyType[str, "UnitType"], MappingProxyType[str, "Formation"],
                          tuple[int, int], int, tuple[tuple[str, str], ...]]

ENGINE_ID = "backhand-blow"
SIDES = ("soviet", "german")
FRONTS = ("southwest", "voronezh")
WEATHERS = ("frozen", "mud", "deep")
COLUMN = {"frozen": "frozen", "mud": "mud", "deep": "deep"}


class UnitType(Shared, Frozen):
    """One counter: its printed values (2.4), from units.toml.  A frozen record, equal,
    hashed and shown by its fields (pbem's Frozen), copied as itself (Shared): a frozen
    dataclass was 0.2 M instructions to make at every turn command (issue 35)."""

    __match_args__ = ("id", "side", "kind", "motorized", "stationary", "formation",
                      "factors", "tr", "ma", "bracket", "at", "arrive", "entry", "variable",
                      "front", "city")

    def __init__(self, id: str, side: str, kind: str, motorized: bool, stationary: bool,
                 formation: str, factors: tuple[tuple[int, int], ...], tr: int, ma: int,
                 bracket: bool, at: str, arrive: int, entry: str, variable: str,
                 front: str, city: str) -> None:
        # the fields stored at once, not one by one through object.__setattr__: every
        # command makes the 124 counters, and that was most of loading the data (issue 35)
        self.__dict__.update(
            id=id, side=side, kind=kind, motorized=motorized, stationary=stationary,
            formation=formation, factors=factors, tr=tr, ma=ma, bracket=bracket, at=at,
            arrive=arrive, entry=entry, variable=variable, front=front, city=city)

    id: str
    side: str
    kind: str
    motorized: bool
    stationary: bool
    formation: str
    factors: tuple[tuple[int, int], ...]  # attack, defense per step, full strength first
    tr: int
    ma: int
    bracket: bool
    at: str
    arrive: int
    entry: str
    variable: str
    front: str
    city: str

    @property
    def steps(self) -> int:
        return len(self.factors)


class Formation(Shared, Frozen):
    """A German formation, whose units may move as one stack (15.2), SS or not and
    motorized or not.  A frozen record as :class:`UnitType` is."""

    __match_args__ = ("id", "name", "ss", "motorized", "members")
    id: str
    name: str
    ss: bool
    motorized: bool
    members: tuple[str, ...]

    def __init__(self, id: str, name: str, ss: bool, motorized: bool,
                 members: tuple[str, ...]) -> None:
        self.__dict__.update(id=id, name=name, ss=ss, motorized=motorized, members=members)


def _factors(text: str) -> tuple[int, int]:
    a, _, d = text.partition("-")
    return int(a), int(d)


def roll_lookup(table: Table, roll: int) -> tuple[Any, ...]:
    for key, values in table.rows:
        lo, hi = parse_roll_key(key)
        if (lo is None or roll >= lo) and (hi is None or roll <= hi):
            return values
    raise KeyError(f"{table.where}: no row for {roll}")


def _order_of_battle(units: Doc) -> OrderOfBattle:
    types = units.get_table("types")
    out: dict[str, UnitType] = {}
    # each printed step's factors parsed once: most counters share theirs
    steps: dict[str, tuple[int, int]] = {}
    for side in SIDES:
        for uid, spec in units.get_table(side).items():
            kind = spec["t"]
            mot, stat = types[kind]
            out[uid] = UnitType(
                uid, side, kind, bool(mot), bool(stat), str(spec.get("f", "")),
                tuple([steps[t] if t in steps else steps.setdefault(t, _factors(t))
                       for t in spec["s"]]), int(spec["tr"]), int(spec["ma"]),
                bool(spec.get("bracket", False)), str(spec.get("at", "")),
                int(spec.get("arrive", 0)), str(spec.get("entry", "")),
                str(spec.get("variable", "")), str(spec.get("front", "")),
                str(spec.get("city", "")))
    ordered = MappingProxyType(dict(sorted(out.items())))
    # each formation's units in unit order, found in one pass over the units
    members: dict[str, list[str]] = {}
    for uid, t in ordered.items():
        if t.formation:
            members.setdefault(t.formation, []).append(uid)
    forms = {}
    for fid, spec in units.get_table("formations").items():
        forms[fid] = Formation(fid, spec["name"], bool(spec["ss"]), bool(spec["motorized"]),
                               tuple(members.get(fid, ())))
    return (
        ordered, MappingProxyType(dict(sorted(forms.items()))),
        _factors(units.get_str("uprising", "factors")), units.get_int("uprising", "tr"),
        tuple((f, units.get_str("fronts", f)) for f in FRONTS))


#: UnitType's fields, in its order (a kept counter's row), and their types (its factors
#: checked apart)
_UNIT_FIELDS = UnitType.__match_args__
_ROW_TYPES = (str, str, str, bool, bool, str, tuple, int, int, bool, str, int, str, str,
              str, str)
#: Formation's, and their types
_FORMATION_FIELDS = Formation.__match_args__
_FORMATION_TYPES = (str, str, bool, bool, tuple)


@functools.cache
def _code() -> bytes:
    """This module's code, as the data cache names it (part of the key of each entry
    derived by it): asked once a process, not once an entry (a stat and a read)."""
    return datacache.files_digest([Path(__file__)])


def _kept_order_of_battle(units: Doc) -> OrderOfBattle:
    """:func:`_order_of_battle`, kept in the data cache (pbem.datacache) under the
    file's content and this module's code: every command makes the 124 counters, and
    decoding units.toml's tables and reading each counter's sixteen values from them
    was 3.8 M instructions of each (issue 35).  The kept rows are read back in one
    msgpack call, as tuples, and checked to be of their fields' types, each check one
    pass in C over all the rows (one that is not, or an entry that does not read back,
    is derived from the file again: a damaged entry never changes a counter)."""
    if datacache.directory() is None:
        return _order_of_battle(units)
    # the file's digest, which the kit took when it read the file (a lookup, not a hash)
    key = datacache.make_key("bb-oob", sys.version, units.name, content_digest(units.text),
                             _code())
    kept = datacache.load("bb-oob", key)
    if type(kept) is bytes:
        got = _read_kept(kept)
        if got is not None:
            return got
    oob = _order_of_battle(units)
    datacache.store("bb-oob", key, msgpack.packb(
        [[[getattr(t, f) for f in _UNIT_FIELDS] for t in oob[0].values()],
         [[getattr(f, n) for n in _FORMATION_FIELDS] for f in oob[1].values()],
         oob[2], oob[3], oob[4]], use_bin_type=True))
    return oob


def _kept_supply_edges(m: HexMap) -> tuple[frozenset[str], frozenset[str]]:
    """The Soviet supply sources (7.0, 14.1: the map's area ``soviet_supply``) and the
    German supply edge (``west_edge``), kept in the data cache under the kept map's own
    key (its file's text and the kit's code) and this module's code: asking a kept map
    for one area decodes its every area, the 1,833 hexes west of the Donets (18.2) among
    them, 0.66 M instructions of an act placing reinforcements (issue 35).  An entry
    that is not two lists of hex ids is derived from the map again."""
    source = m.__dict__.get("source")
    if datacache.directory() is None or type(source) is not bytes:
        return frozenset(m.area("soviet_supply")), frozenset(m.area("west_edge"))
    key = datacache.make_key("bb-edges", source, _code())
    kept = datacache.load("bb-edges", key)
    if (type(kept) is list and len(kept) == 2 and all(
            type(edge) is list and set(map(type, edge)) <= {str} for edge in kept)):
        return frozenset(kept[0]), frozenset(kept[1])
    sources, west = list(m.area("soviet_supply")), list(m.area("west_edge"))
    datacache.store("bb-edges", key, [sources, west])
    return frozenset(sources), frozenset(west)


def _read_kept(blob: bytes) -> OrderOfBattle | None:
    try:
        value = msgpack.unpackb(blob, raw=False, use_list=False, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
        rows, forms, (a, d), tr, fronts = value
        factors = tuple(chain.from_iterable(map(itemgetter(6), rows)))
        members = tuple(chain.from_iterable(map(itemgetter(4), forms)))
    except Exception:  # whatever the bytes are, the counters are read from the file
        return None
    if (type(rows) is not tuple or type(forms) is not tuple or type(fronts) is not tuple
            or set(map(len, rows)) != {len(_ROW_TYPES)}
            or tuple(map(type, chain.from_iterable(rows))) != _ROW_TYPES * len(rows)
            or set(map(len, forms)) - {len(_FORMATION_TYPES)}
            or tuple(map(type, chain.from_iterable(forms))) != _FORMATION_TYPES * len(forms)
            or set(map(len, factors)) - {2}
            or set(map(type, chain.from_iterable(factors))) - {int}
            or set(map(type, members)) - {str}
            or type(a) is not int or type(d) is not int or type(tr) is not int
            or set(map(type, fronts)) - {tuple} or set(map(len, fronts)) - {2}
            or set(map(type, chain.from_iterable(fronts))) - {str}):
        return None
    return (MappingProxyType({r[0]: UnitType(*r) for r in rows}),
            MappingProxyType({f[0]: Formation(*f) for f in forms}),
            (a, d), tr, fronts)


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not counters")


class Data(Shared):
    """Everything the rules read and never change."""

    def __init__(self, data: ScenarioSet) -> None:
        self.set = data
        self.map: HexMap = data.map
        oob = _kept_order_of_battle(data.doc("units.toml"))
        self.units: MappingProxyType[str, UnitType]
        self.formations: MappingProxyType[str, Formation]
        self.units, self.formations, self.uprising_factors, self.uprising_tr, fronts = oob
        self.front_setup = dict(fronts)
        self.tec = data.chart("tec")
        self.activity = data.table("activity")
        self.weather = data.table("weather")
        self.attrition = data.table("attrition")
        self.variable = data.table("variable")
        self.replacements = data.table("replacements")
        self.uprising = data.table("uprising")
        self.events = data.table("events")
        chits = data.doc("tables.toml").get_table("chits")
        self.chit_drm: dict[str, dict[str, int]] = {s: dict(sorted(chits[s].items()))
                                                     for s in SIDES}
        self.chit_front = frozenset(chits["soviet_front"])
        turns = data.doc("turns.toml")
        self.track = {int(k): v for k, v in turns.get_table("track").items() if k != "stand_in"}
        self.chit_schedule = {int(k): list(v) for k, v in
                              turns.get_table("chit_schedule").items() if k != "stand_in"}
        m = self.map
        # the hexes with features, not every hex of the map asked for one: asking 2,091
        # hexes was a third of a load's cost of this data (issue 35)
        self.cities = tuple(sorted(h for h, features in m.hex_features.items()
                                   if "city" in features and h in m))
        cities = self.city_hexes = frozenset(self.cities)
        #: 6.0: a unit's ZOC reaches the six hexes around it but not into a city (its own
        #: hex is never in it, so a unit in a city still has the city out of its ZOC); one
        #: rule, as the kit's board facts key a rule by identity
        self.zoc_rule = ZocRule(blocks=lambda a, b: b in cities)
        self.soviet_supply, self.german_supply = _kept_supply_edges(m)
        #: (weather, motorized) -> the compiled chart column, made when first asked for:
        #: a command meets one weather, and compiling all six was most of a load
        self.costs = _Costs(self)
        #: each unit's Placed in each hex it has stood in, made once (a placement is
        #: built for every position asked who is where)
        self._placed: dict[str, dict[str, Placed]] = {}
        self._axial: dict[str, tuple[int, int]] = {}

    @functools.cached_property
    def crt(self) -> OddsCRT:
        """The Combat Results Table (16.1), made with the first attack resolved: a
        command that resolves none reads no odds (issue 35)."""
        from engines.hexkit.crt import OddsCRT

        return OddsCRT(self.set.table("crt"))

    @functools.cached_property
    def city_names(self) -> dict[str, str]:
        """Each city's name (3.1's and 17.0's events name the city), made when first
        asked: the map's places by hex, which it reads, are made for the whole map, and
        a command whose control changes nowhere names none (issue 35)."""
        m = self.map
        return {h: m.places_at(h)[0] for h in self.cities}

    @functools.cached_property
    def west_of_donets(self) -> frozenset[str]:
        """The map's hexes west of the Donets (18.2), made when first asked: only the
        victory check at the game's end reads them, and the set of 1,833 hexes was made
        by every command (issue 35)."""
        return frozenset(self.map.area("west_of_donets"))

    @functools.cached_property
    def watched(self) -> tuple[str, ...]:
        """The hexes whose control the game records (3.1, 11.2, 18.2): the cities and
        the variable reinforcements' hexes, in hex order; a fact of the data, asked after
        every move."""
        return tuple(sorted(set(self.cities) | {t.variable for t in self.units.values()
                                                if t.variable}))

    @functools.cached_property
    def nbrs(self) -> Mapping[str, tuple[str, ...]]:
        """Every hex's neighbours, in hex order (the clear region's search, 15.1 (1),
        the Front Markers' traces, 14.1, and the attacks, 16.0, read it per hex; none
        reads their order; a unit's supply search, 7.0, reads the map's own tables),
        each hex's made when first read: a receive with a move reads a few hundred
        hexes', and the kit's whole table of 2,091 hexes was 20 M instructions of it
        (issue 35)."""
        return _Neighbours(self.map)

    def axial(self, h: str) -> tuple[int, int]:
        """Hex ``h``'s cube coordinates q and r (s is -q - r) as plain ints, kept once
        asked: the hex distances a search weighs at every step it takes (15.0's check
        of a move, 7.0's and 15.1's searches toward a source) read a few hexes of the
        map, not all of them."""
        got = self._axial.get(h)
        if got is None:
            # worked out from the hex's number, as the grid's table of every cell's cube
            # has it (the same conversion): asked of more than a few hexes, the grid
            # makes that table, 6.9 M instructions of a receive that checks a move
            # (issue 35)
            grid = self.map.grid
            if h not in self.map.terrain:  # not a hex of the map: the grid's own answer
                c = grid.to_cube(h)
                got = self._axial[h] = (c.q, c.r)
                return got
            # a hex of the map is its column's digits and then its row's (HexGrid's
            # numbering); geometry's evenq/oddq conversion, written out (a call for
            # each, and the Cube made, cost as much as the table it saves)
            cd = grid.numbering.col_digits
            col, row = int(h[:cd]), int(h[cd:])
            shift = (col - (col & 1)) >> 1 if grid.parity == "odd" else (col + (col & 1)) >> 1
            got = self._axial[h] = (col, row - shift)
        return got

    def placed(self, unit: str, h: str) -> Placed:
        """``unit`` in ``h`` as the kit's board facts take it (an Uprising Force, 17.0, is
        Soviet)."""
        at = self._placed.get(unit)
        if at is None:
            at = self._placed[unit] = {}
        p = at.get(h)
        if p is None:
            side = "soviet" if unit.startswith("UP-") else self.units[unit].side
            p = at[h] = Placed(unit, h, side)
        return p

    def scenario(self, sid: str) -> dict[str, Any]:
        return dict(self.set.scenario(sid).get_table("scenario"))

    def factors(self, uid: str, steps: int) -> tuple[int, int]:
        t = self.units[uid]
        return t.factors[t.steps - steps]

    def activity_points(self, column: str, roll: int) -> int:
        return int(roll_lookup(self.activity, roll)[self.activity.columns.index(column)])

    def c3i(self, turn: int, side: str, weather: str) -> int:
        row = self.track[turn]
        if weather == "deep":  # 5.4, 8.1
            return 0
        base = 0 if side == "soviet" else 2
        return int(row[base + (0 if weather == "frozen" else 1)])

    def weather_drm(self, turn: int) -> int:
        return int(self.track[turn][4])

    def historical_weather(self, turn: int) -> str:
        return str(self.track[turn][5])

    def variable_column(self, turn: int) -> str:
        for col in self.variable.columns:
            lo, _, hi = col.partition("-")
            if int(lo) <= turn <= int(hi):
                return col
        return self.variable.columns[-1]


class _Neighbours(dict[str, tuple[str, ...]]):
    """The kit's neighbour table (:meth:`HexMap.neighbor_table`: a hex's on-map
    neighbours, sorted), read by hex and made one hex at a time (:meth:`HexMap.neighbors`);
    a hex off the map is a ``KeyError`` as there.  Only read by hex: ``in`` and ``get``
    answer for the whole map, not the hexes made so far."""

    def __init__(self, hexmap: HexMap) -> None:
        super().__init__()
        self._map = hexmap

    def __missing__(self, h: str) -> tuple[str, ...]:
        built = self._map.__dict__
        rows, index = built.get("neighbor_rows"), built.get("index")
        if rows is not None and index is not None:
            # the map's tables made (a move's search made them): the hex's neighbours
            # read off them in C's own calls, HexMap.neighbors' answer without its checks
            # and its list, a call a hex (the supply check of every unit at 4.2 I.D reads
            # some 300 hexes' after a file's moves: issue 35)
            i = index.get(h)
            if i is None:
                raise KeyError(h)
            near = self[h] = tuple(sorted(map(self._map.ids.__getitem__, rows[i])))
            return near
        if h not in self._map.terrain:
            raise KeyError(h)
        # the map's neighbours of the one hex, made without the whole map's tables until
        # something else makes them (an act that places three units reads a few dozen
        # hexes: issue 35)
        near = self[h] = tuple(sorted(self._map.neighbors(h)))
        return near

    def __contains__(self, h: object) -> bool:
        return h in self._map.terrain

    def get(self, h: str, default: Any = None) -> Any:
        return self[h] if h in self._map.terrain else default


class _Costs(dict[tuple[str, bool], "StepCosts"]):
    """The Terrain Effects Chart's columns on the map, each made on first use and each
    row priced when a search first reads it (a move reaches a few hexes of the map)."""

    def __init__(self, data: Data) -> None:
        super().__init__()
        self._data = data

    def __missing__(self, key: tuple[str, bool]) -> StepCosts:
        weather, mot = key
        if weather not in WEATHERS:
            raise KeyError(key)
        # the kit's movement modules load with the first move priced: a command of
        # another phase (combat, the administrative segment) moves nothing (issue 35)
        from engines.hexkit.stepcosts import StepCosts, move_class_from_chart

        col = f"{COLUMN[weather]}_{'mot' if mot else 'non'}"
        d = self._data
        made = StepCosts(d.map, move_class_from_chart(col, d.tec, col, d.map,
                                                      negated_by={"river": ["bridge"]}))
        self[key] = made
        return made


#: each side's last ZOC (zoc_hexes): the map and the hexes the side held, and its hexes
_ZOCS: dict[str, tuple[HexMap, frozenset[str], frozenset[str]]] = {}


def zoc_hexes(d: Data, f: BoardFacts, side: str) -> frozenset[str]:
    """The hexes of ``side``'s ZOC in the placement ``f`` (6.0: every unit exerts one
    into the six hexes around it, but not into a city): :attr:`Data.zoc_rule`'s ZOC,
    the kit's ``f.zoc(side, d.zoc_rule).hexes``, as one set.  What a move's search
    (6.0), the supply trace (7.0) and the clear region (15.1 (1)) read of it is
    membership alone, and the kit's map of the units exerting each hex, sorted, was
    most of the ZOC's cost of a receive (issue 35); a function of the hexes the side
    holds, so kept while they are the same (the other side's moves)."""
    occupied = f.occupied(side)
    m = d.map
    kept = _ZOCS.get(side)
    if kept is None or kept[0] is not m or kept[1] != occupied:
        ids, index, rows = m.ids, m.index, m.neighbor_rows
        around = frozenset([ids[j] for h in occupied for j in rows[index[h]]])
        kept = _ZOCS[side] = (m, occupied, around - d.city_hexes)
    return kept[2]


@functools.cache
def load() -> Data:
    return Data(load_scenario_dir(ENGINE_ID))
