"""The For the Motherland! position as typed data (pbem.codec derives its snapshot).

Each field says what it holds in the book's terms, with the rule that reads it.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from pbem import canonical
from pbem.engine import copy_data


@dataclass(slots=True)
class Unit:
    """One counter of the game: where it is and what it has done this phase."""

    #: the hex it stands in; "" off the map (then ``box`` says where)
    hex: str = ""
    #: where an off-map counter is: "out" (not yet in play), "track" (the Turn Record
    #: Track, arriving on turn ``return_turn``: 17.0, 17.1.2), "elim", "pool" (replacements,
    #: 17.4), "conv" (awaiting conversion, 15.0), "osm" (the OSM Waiting Box, 13.0),
    #: "assets" (an eliminated Economic Asset, 12.0), "baku" (21.2), "evac", "removed"
    #: (out of the game); "" on the map
    box: str = "out"
    #: steps left (a corps' second step is its Kampfgruppe side: 6.0, 8.5)
    steps: int = 1
    #: the Strength Chit it carries (11.0), "" none
    chit: str = ""
    #: supply status (9.0): "" in supply, "lack" (9.5.1), "out" (9.5.2)
    supply: str = ""
    #: movement points left this phase (5.0; exploitation's own allowance, 5.4)
    mp: int = 0
    #: how many moves it has made this phase (one-hex moves and strategic moves count)
    moves: int = 0
    #: how it moves this phase: "" normally, "one" (a one-hex move only, 5.1.5),
    #: "ovr" (advancing out of an overrun hex, 7.1), "strat" (Strategic Movement, 5.3),
    #: "sea" (Sea Transport, 5.5), "done" (may not move again)
    mode: str = ""
    #: it attacked in this Combat Phase (8.3.1)
    attacked: bool = False
    #: it was attacked in this Combat Phase (8.3.4)
    defended: bool = False
    #: 8.6.5: it retreated into a friendly hex this Combat Phase, or was attacked before
    #: and retreated or advanced here: it does not defend, and a result eliminates it
    displaced: bool = False
    #: the turn it arrives on from the Turn Record Track (17.0, 17.1), 0 none
    return_turn: int = 0
    #: on the track as an eliminated unit coming back (17.1.2-17.1.4; a returning Soviet
    #: unit rolls, 17.1.4), not as a scheduled reinforcement
    returning: bool = False
    #: the hex it began the phase in (5.0)
    start: str = ""

    def copy(self) -> Unit:
        return Unit(self.hex, self.box, self.steps, self.chit, self.supply, self.mp,
                    self.moves, self.mode, self.attacked, self.defended, self.displaced,
                    self.return_turn, self.returning, self.start)


#: Unit's fields in the two orders its data comes in, each with the one type pbem.codec
#: takes for each field (a str, an int or a bool): a canonical map's (sorted by name: a
#: save's bytes decoded) and the class's own (``snapshot()``, not yet encoded)
_UNIT_FORMS = {
    tuple(f.name for f in order): tuple({"str": str, "int": int, "bool": bool}[str(f.type)]
                                        for f in order)
    for order in (sorted(fields(Unit), key=lambda f: f.name), fields(Unit))}


#: Unit's fields in key order (a save's decoded maps), a getter of their values in the
#: class's order (its __init__'s), and the one type each of those holds
_KEY_ORDER = tuple(sorted(f.name for f in fields(Unit)))
_IN_CLASS_ORDER = operator.itemgetter(*(f.name for f in fields(Unit)))
_CLASS_KINDS = _UNIT_FORMS[tuple(f.name for f in fields(Unit))]


def units_from_data(data: Any) -> dict[str, Unit] | None:
    """The units of a position's data as pbem.codec reads them, or None for anything but
    the plain form (a map of unit maps, each holding every field once, in any order, each
    of its exact type): the codec then reads them and names what is wrong.  The game's
    179 units of 14 fields were half of restoring a position, field by field through the
    codec, at every command that loads a game (issue 35)."""
    if type(data) is not dict:
        return None
    maps = list(data.values())
    # every map has each field (the getter finds them all) and, all maps together holding
    # no more keys than that, nothing else: counted, not each map's keys made a tuple
    # and looked up (a fifth of this)
    if not set(map(type, maps)) <= {dict} or sum(map(len, maps)) != len(_KEY_ORDER) * len(maps):
        return None
    try:
        # the values in the class's order (its __init__'s), whatever the map's order (a
        # save's bytes decode in key order, ``snapshot()`` gives the class's)
        rows = list(map(_IN_CLASS_ORDER, maps))
    except KeyError:
        return None
    # all units' types checked as one sequence compared in C (not turned into columns and
    # a set made of each: a third of this), each unit made from its values by position (a
    # third less than checking and making each by keyword)
    if tuple(map(type, itertools.chain.from_iterable(rows))) != _CLASS_KINDS * len(rows):
        return None
    return dict(zip(data, itertools.starmap(Unit, rows), strict=True))


@dataclass(slots=True)
class Combat:
    """The attack (8.0) or overrun (7.0) being resolved."""

    #: "attack" or "overrun"
    kind: str
    #: the defenders' hex
    target: str
    #: the attacking side
    side: str
    attackers: list[str]
    defenders: list[str]
    #: a German Air Unit supports the attack (14.1)
    air: bool
    #: the Railroad Gun fires (16.2)
    rrgun: bool
    #: where each unit of either side stood as the combat began (8.6, 8.7 read it)
    orig: dict[str, str]
    #: the CRT result (8.2), "" before the roll
    result: str = ""
    #: the odds as resolved (8.2): the totals, the column shift and the column
    attack: int = 0
    defense: int = 0
    shift: int = 0
    column: str = ""
    #: the roles ("att", "def") whose units the result eliminated outright (8.7)
    eliminated: set[str] = field(default_factory=set)
    #: per role, the result in hexes and the part of it taken as step losses (8.5, 8.7)
    took: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: per role, the retreat hexes a unit could not make, taken as steps instead (8.5.1)
    cut: dict[str, int] = field(default_factory=dict)

    def units(self, role: str) -> list[str]:
        """The attackers (role "att") or the defenders ("def")."""
        return self.attackers if role == "att" else self.defenders


@dataclass(slots=True)
class Air:
    """The German Air Units (14.0)."""

    #: in the game (5 less those withdrawn by the Turn Record Track)
    total: int
    #: flipped to their Used side this turn (14.1)
    used: int = 0


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the game ended (19.0, 20.2, 16.6, 21.1.4)."""

    #: "axis", "soviet", or None for a draw
    winner: str | None
    text: str
    level: str


@dataclass(slots=True)
class Position:
    """One position of For the Motherland!: everything the rules read and write."""

    turn: int
    #: the phase of the turn, an index into ``MotherlandState.phases()`` (3.0)
    phase: int
    units: dict[str, Unit]
    #: Strength Chit cups A, B and C (11.0), each sorted
    cups: dict[str, list[str]]
    #: chits out of the game (a starred chit discarded, 11.2 note)
    removed_chits: list[str]
    #: who controls each hex that carries a control marker (19.1), by hex
    control: dict[str, str]
    #: Soviet Generals in the game (16.5): "ready" or "used" this turn
    generals: dict[str, str]
    #: Partisan markers in the game (10.0): the hex each is in, "" not placed
    partisans: dict[str, str]
    air: Air
    #: Stalin (16.6): "moscow", "evacuated" or "dead"
    stalin: str
    #: the Axis has made its Stalin roll (16.6)
    stalin_rolled: bool
    #: the Axis has made its surrender roll (16.6)
    surrender_rolled: bool
    #: Economic Assets eliminated (12.0, 19.0), in the order they fell
    eliminated_assets: list[str]
    #: German Panzers have entered Baku (21.1, optional)
    baku_done: bool
    #: Turkey has entered the war (21.2, optional)
    turkey: bool
    #: the attack or overrun being resolved (8.0, 7.0)
    combat: Combat | None
    result: GameEnd | None
    #: Sea Transport used this phase (5.5: one per phase)
    sea_used: bool
    #: 3.1 step 4 (the units that move after the others) has begun this phase
    late: bool
    #: 3.1 step 3 (regular movement) has begun: no Strategic Movement or Sea Transport
    regular: bool
    #: hexes attacked this phase (8.3.1)
    hit: list[str]
    #: Supply Bases expended this Supply Phase (9.3.4)
    expended: list[str] = field(default_factory=list)
    #: Sevastopol was Axis-held as the Supply Phase began: no sea supply through Odessa
    #: (9.6.1 note)
    odessa_closed: bool = False

    def copy(self) -> Position:
        """A copy sharing nothing that changes (for ``clone``; faster than deepcopy)."""
        out = replace(self, units={uid: u.copy() for uid, u in self.units.items()},
                      air=replace(self.air), combat=self.combat and replace(
                          self.combat, attackers=list(self.combat.attackers),
                          defenders=list(self.combat.defenders), orig=dict(self.combat.orig),
                          eliminated=set(self.combat.eliminated), took=dict(self.combat.took),
                          cut=dict(self.combat.cut)))
        for f in fields(self):
            if f.name not in ("units", "air", "combat"):
                setattr(out, f.name, copy_data(getattr(out, f.name)))
        return out


# The whole position read and written by hand, for a turn command's one restore and its
# digests: the codec builds its readers of the position and its four record classes at
# its first read (about 3 M instructions of every command that loads a game), and its
# writers at its first digest (about 5 M of an act's or a receive's), issue 35.  Each
# takes only data (or a position) whose every field holds exactly its declared type and
# gives exactly what the codec gives; anything else (None) goes the codec's way, which
# reads it or names the fault in its words.

_STR = frozenset({str})
_INT = frozenset({int})

#: the position's fields by kind, as the data holds them (every one of them is required:
#: data from before a field had a default is read by the codec)
_POS_INTS = ("phase", "turn")
_POS_STRS = ("stalin",)
_POS_BOOLS = ("baku_done", "late", "odessa_closed", "regular", "sea_used", "stalin_rolled",
              "surrender_rolled", "turkey")
_POS_LISTS = ("eliminated_assets", "expended", "hit", "removed_chits")
_POS_STR_MAPS = ("control", "generals", "partisans")
_POS_KEYS = frozenset(f.name for f in fields(Position))
_COMBAT_KEYS = frozenset(f.name for f in fields(Combat))
_COMBAT_STRS = ("column", "kind", "result", "side", "target")
_COMBAT_INTS = ("attack", "defense", "shift")
_COMBAT_BOOLS = ("air", "rrgun")
_AIR_KEYS = frozenset(f.name for f in fields(Air))
_END_KEYS = frozenset(f.name for f in fields(GameEnd))


def _strs(v: Any) -> bool:
    return set(map(type, v)) <= _STR


def _str_list(v: Any) -> list[str] | None:
    return list(v) if type(v) is list and _strs(v) else None


def _str_map(v: Any) -> dict[str, str] | None:
    if type(v) is not dict or not _strs(v) or not _strs(v.values()):
        return None
    return dict(v)


def _all(d: dict[str, Any], names: tuple[str, ...], kind: type) -> bool:
    return all(type(d[n]) is kind for n in names)


def _combat_from_data(d: Any) -> Combat | None:
    if type(d) is not dict or d.keys() != _COMBAT_KEYS:
        return None
    if not (_all(d, _COMBAT_STRS, str) and _all(d, _COMBAT_INTS, int)
            and _all(d, _COMBAT_BOOLS, bool)):
        return None
    attackers, defenders = _str_list(d["attackers"]), _str_list(d["defenders"])
    orig, cut, took, gone = _str_map(d["orig"]), d["cut"], d["took"], d["eliminated"]
    if attackers is None or defenders is None or orig is None:
        return None
    if type(cut) is not dict or not _strs(cut) or not set(map(type, cut.values())) <= _INT:
        return None
    if type(took) is not dict or not _strs(took) or any(
            type(p) is not list or len(p) != 2 or type(p[0]) is not int
            or type(p[1]) is not int for p in took.values()):
        return None
    # a set's data: its elements once each, in the order of their canonical bytes
    if type(gone) is not list or not _strs(gone) or len(set(gone)) != len(gone) or (
            len(gone) > 1 and sorted(gone, key=canonical.pack_normal) != gone):
        return None
    return Combat(kind=d["kind"], target=d["target"], side=d["side"], attackers=attackers,
                  defenders=defenders, air=d["air"], rrgun=d["rrgun"], orig=orig,
                  result=d["result"], attack=d["attack"], defense=d["defense"],
                  shift=d["shift"], column=d["column"], eliminated=set(gone),
                  took={k: (p[0], p[1]) for k, p in took.items()}, cut=dict(cut))


def position_from_data(data: Any) -> Position | None:
    """The position pbem.codec reads from ``data`` (a snapshot's ``position``), or None for
    anything but the plain form, every field there of its exact type: the codec then reads
    it, or names what is wrong."""
    if type(data) is not dict or data.keys() != _POS_KEYS:
        return None
    d: dict[str, Any] = data
    if not (_all(d, _POS_INTS, int) and _all(d, _POS_STRS, str)
            and _all(d, _POS_BOOLS, bool)):
        return None
    units = units_from_data(d["units"])
    lists = [_str_list(d[n]) for n in _POS_LISTS]
    maps = [_str_map(d[n]) for n in _POS_STR_MAPS]
    cups, air = d["cups"], d["air"]
    if units is None or None in lists or None in maps:
        return None
    if type(cups) is not dict or not _strs(cups) or any(
            type(c) is not list or not _strs(c) for c in cups.values()):
        return None
    if (type(air) is not dict or air.keys() != _AIR_KEYS or type(air["total"]) is not int
            or type(air["used"]) is not int):
        return None
    combat = None if d["combat"] is None else _combat_from_data(d["combat"])
    if combat is None and d["combat"] is not None:
        return None
    end, result = d["result"], None
    if end is not None:
        if (type(end) is not dict or end.keys() != _END_KEYS or type(end["text"]) is not str
                or type(end["level"]) is not str
                or (end["winner"] is not None and type(end["winner"]) is not str)):
            return None
        result = GameEnd(winner=end["winner"], text=end["text"], level=end["level"])
    return Position(
        turn=d["turn"], phase=d["phase"], units=units,
        cups={k: list(c) for k, c in cups.items()}, removed_chits=lists[3],  # type: ignore[arg-type]
        control=maps[0], generals=maps[1], partisans=maps[2],  # type: ignore[arg-type]
        air=Air(total=air["total"], used=air["used"]), stalin=d["stalin"],
        stalin_rolled=d["stalin_rolled"], surrender_rolled=d["surrender_rolled"],
        eliminated_assets=lists[0], baku_done=d["baku_done"],  # type: ignore[arg-type]
        turkey=d["turkey"], combat=combat, result=result, sea_used=d["sea_used"],
        late=d["late"], regular=d["regular"], hit=lists[2],  # type: ignore[arg-type]
        expended=lists[1], odessa_closed=d["odessa_closed"])  # type: ignore[arg-type]


#: Unit's fields in canonical (code-point) order, and the one type each holds
_U_NAMES = tuple(sorted(f.name for f in fields(Unit)))
_U_KINDS = _UNIT_FORMS[_U_NAMES]


def _in_key_order(units: list[Unit]) -> list[tuple[Any, ...]]:
    """Each unit's values in canonical order (:data:`_U_NAMES`), each field named: the
    interpreter's own reading of a slot, a third of the cost of an
    ``operator.attrgetter`` of the names over 171 units at every digest (issue 35).  A
    field of Unit not named here fails the types' check (:data:`_U_KINDS`): the codec's
    way."""
    return [(u.attacked, u.box, u.chit, u.defended, u.displaced, u.hex, u.mode, u.moves,
             u.mp, u.return_turn, u.returning, u.start, u.steps, u.supply) for u in units]


def _sorted_map(d: Any, kinds: frozenset[type]) -> dict[str, Any] | None:
    if type(d) is not dict or not _strs(d) or not set(map(type, d.values())) <= kinds:
        return None
    return {k: d[k] for k in sorted(d)}


def _scalars_typed(obj: Any, ints: tuple[str, ...], strs: tuple[str, ...],
                   bools: tuple[str, ...]) -> bool:
    """Whether each named field holds exactly an int, a str or a bool (a bool is not an
    int here, as the codec's writer has it)."""
    v = obj.__getattribute__
    return (all(type(v(n)) is int for n in ints) and all(type(v(n)) is str for n in strs)
            and all(type(v(n)) is bool for n in bools))


def _combat_normal(c: Any) -> dict[str, Any] | None:
    if type(c) is not Combat:
        return None
    if not _scalars_typed(c, _COMBAT_INTS, _COMBAT_STRS, _COMBAT_BOOLS):
        return None
    attackers, defenders = _str_list(c.attackers), _str_list(c.defenders)
    orig, cut = _sorted_map(c.orig, _STR), _sorted_map(c.cut, _INT)
    took, gone = c.took, c.eliminated
    if attackers is None or defenders is None or orig is None or cut is None:
        return None
    if type(took) is not dict or not _strs(took) or any(
            type(p) is not tuple or len(p) != 2 or type(p[0]) is not int
            or type(p[1]) is not int for p in took.values()):
        return None
    if type(gone) is not set or not _strs(gone):
        return None
    return {"air": c.air, "attack": c.attack, "attackers": attackers, "column": c.column,
            "cut": cut, "defenders": defenders, "defense": c.defense,
            "eliminated": sorted(gone, key=canonical.pack_normal), "kind": c.kind,
            "orig": orig, "result": c.result, "rrgun": c.rrgun, "shift": c.shift,
            "side": c.side, "target": c.target,
            "took": {k: list(took[k]) for k in sorted(took)}}


#: each unit's canonical bytes by its field values (checked of their exact types first:
#: True == 1 would find a number's bytes), kept from one digest to the next: most units do
#: not change from one file to the next (a digest's writer read and packed all 171)
_UNIT_BYTES: dict[tuple[Any, ...], bytes] = {}
#: how many units' bytes are kept, at most, before starting again
UNITS_KEPT = 8192
#: the key of the units in the position's map, written once a process
_UNITS_KEY = canonical.pack_normal("units")
_UNIT_TYPE = frozenset({Unit})
#: a unit's field names, each followed by a place for its value; the head of a unit's map
#: and the length of the head of that list's array, which the map's replaces
_U_PAIRS: list[Any] = [x for name in _U_NAMES for x in (name, None)]
_U_HEAD = canonical.map_header(len(_U_NAMES))
_PAIRS_HEAD = len(canonical.pack_normal([None] * len(_U_PAIRS))) - len(_U_PAIRS)


def _units_packed(units: Any) -> bytes | None:
    """The canonical bytes of a position's units (a map of unit maps, in key order), or
    None where a unit's field does not hold exactly its declared type."""
    if type(units) is not dict or not _strs(units):
        return None
    order = sorted(units)
    records = list(map(units.__getitem__, order))
    if not set(map(type, records)) <= _UNIT_TYPE:
        return None
    values = _in_key_order(records)
    # every value's type against its field's, all units' in one sequence compared in C
    if tuple(map(type, itertools.chain.from_iterable(values))) != _U_KINDS * len(values):
        return None
    kept = _UNIT_BYTES
    try:
        packed = list(map(kept.__getitem__, values))
    except KeyError:
        if len(kept) + len(values) > UNITS_KEPT:
            kept.clear()
        new = [row for row in dict.fromkeys(values) if row not in kept]
        # each unit's keys and values in turn as a list, packed as an array whose head
        # is then the map's: the same bytes, without making a map of each unit (a sixth
        # of a first digest)
        pairs = []
        for row in new:
            one = _U_PAIRS.copy()
            one[1::2] = row
            pairs.append(one)
        kept.update(zip(new, [_U_HEAD + b[_PAIRS_HEAD:] for b in canonical.pack_each(pairs)],
                        strict=True))
        packed = list(map(kept.__getitem__, values))
    keys = canonical.pack_each(order)
    parts = [canonical.map_header(len(order))] * (2 * len(order) + 1)
    parts[1::2] = keys
    parts[2::2] = packed
    return b"".join(parts)


def position_bytes(pos: Position) -> bytes | None:
    """The position's canonical bytes (``canonical.encode(codec.to_data(pos))``: maps in
    key order, a set in the order of its elements' canonical bytes, a pair as a list),
    written here where every field holds exactly its declared type; None for anything
    else, which the codec then writes, or refuses, as before."""
    if type(pos) is not Position:
        return None
    if not _scalars_typed(pos, _POS_INTS, _POS_STRS, _POS_BOOLS):
        return None
    v = pos.__getattribute__
    units = _units_packed(pos.units)
    if units is None:
        return None
    lists = {n: _str_list(v(n)) for n in _POS_LISTS}
    maps = {n: _sorted_map(v(n), _STR) for n in _POS_STR_MAPS}
    cups, air = pos.cups, pos.air
    if None in lists.values() or None in maps.values():
        return None
    if type(cups) is not dict or not _strs(cups) or any(
            type(c) is not list or not _strs(c) for c in cups.values()):
        return None
    if type(air) is not Air or type(air.total) is not int or type(air.used) is not int:
        return None
    combat = None if pos.combat is None else _combat_normal(pos.combat)
    if combat is None and pos.combat is not None:
        return None
    result: dict[str, Any] | None = None
    if pos.result is not None:
        end = pos.result
        if (type(end) is not GameEnd or type(end.text) is not str
                or type(end.level) is not str
                or (end.winner is not None and type(end.winner) is not str)):
            return None
        result = {"level": end.level, "text": end.text, "winner": end.winner}
    out: dict[str, Any] = {n: v(n) for n in (*_POS_INTS, *_POS_STRS, *_POS_BOOLS)}
    out.update(lists)
    out.update(maps)
    out.update(cups={k: list(cups[k]) for k in sorted(cups)},
               air={"total": air.total, "used": air.used}, combat=combat, result=result)
    # the map's bytes are its head, then each key's and value's in key order: the fields
    # either side of the units each packed as a map, cut off its head, the units between
    before = {k: out[k] for k in sorted(out) if k < "units"}
    after = {k: out[k] for k in sorted(out) if k > "units"}
    return b"".join((canonical.map_header(len(out) + 1),
                     canonical.pack_normal(before)[len(canonical.map_header(len(before))):],
                     _UNITS_KEY, units,
                     canonical.pack_normal(after)[len(canonical.map_header(len(after))):]))
