"""Backhand Blow's position: what a snapshot saves (the units, markers and tracks, and
the arguments of the frames on the stack; the Combat Phase's are combat.py's and
retreat.py's)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Any

BOXES = ("box1", "box2")
OFF = ("pending", "cup", "elim", "out", "box1", "box2")


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


#: how many times a unit was put anywhere, in any position (a unit made, or its ``at``
#: set): a state keeps its board facts while this and its units stand as they were
#: (never part of a position: a cache's key)
PLACINGS = [0]
#: how many times a unit was made or its place, steps or supply set, in any position:
#: what a board view draws of a unit (engines.backhand.view), a cache's key as above
DRAWN = [0]
#: the fields of a unit :data:`DRAWN` counts
_DRAWN_FIELDS = frozenset(("at", "steps", "oos"))
#: the last units whose place, steps or supply was set, each with the count of
#: :data:`DRAWN` it made (a unit made is counted, not listed): a view of the same units
#: redraws only those (engines.backhand.view)
SET: deque[tuple[int, Unit]] = deque(maxlen=32)


@dataclass(init=False)
class Unit:
    """A unit's place (a hex or an off-map box), its steps and its marks for this turn."""

    def __init__(self, at: str, steps: int, oos: bool = False, oos_turns: int = 0,
                 moved: bool = False, fought: bool = False, admin: bool = False,
                 refit: bool = False, replaced: bool = False) -> None:
        # the fields stored at once, the unit's place counted once (a position restored
        # makes every unit: nine calls of __setattr__ each)
        PLACINGS[0] += 1
        DRAWN[0] += 1
        self.__dict__.update(at=at, steps=steps, oos=oos, oos_turns=oos_turns, moved=moved,
                             fought=fought, admin=admin, refit=refit, replaced=replaced)

    def __setattr__(self, name: str, value: object) -> None:
        # every rule that moves a unit sets ``at`` in place: counted here, the board
        # facts of the units need not read every unit's place each time a rule asks them
        # (issue 35: a tenth of an audit)
        if name in _DRAWN_FIELDS:
            if name == "at":
                PLACINGS[0] += 1
            DRAWN[0] += 1
            SET.append((DRAWN[0], self))
        self.__dict__[name] = value

    at: str  # a hex, or pending/cup/elim/out/box1/box2
    steps: int
    oos: bool = False
    oos_turns: int = 0
    moved: bool = False
    fought: bool = False
    admin: bool = False
    refit: bool = False  # 13.1: under Frontnahe Auffrischung this game turn
    replaced: bool = False


#: a saved unit's fields (:class:`Unit`'s), and those of them that are booleans
UNIT_FIELDS = frozenset(("at", "steps", "oos", "oos_turns", "moved", "fought", "admin",
                         "refit", "replaced"))


def units_from_data(data: object) -> dict[str, Unit] | None:
    """A snapshot's units, when every one is exactly what pbem.codec takes for a
    :class:`Unit` (a map of its nine fields: ``at`` a string, ``steps`` and
    ``oos_turns`` integers, the rest booleans; by an id that is a string); ``None``
    otherwise, and the codec reads them and names what is wrong.  A command restores
    its game's 124 units once, and the codec's per-field decoding, which writes each
    field's place for the error it might name, was most of a restore (issue 35)."""
    if type(data) is not dict:
        return None
    out = {}
    new = object.__new__
    for uid, u in data.items():
        if (type(uid) is not str or type(u) is not dict or u.keys() != UNIT_FIELDS
                or type(u["at"]) is not str or type(u["steps"]) is not int
                or type(u["oos_turns"]) is not int or type(u["oos"]) is not bool
                or type(u["moved"]) is not bool or type(u["fought"]) is not bool
                or type(u["admin"]) is not bool or type(u["refit"]) is not bool
                or type(u["replaced"]) is not bool):
            return None
        # the fields copied in one call (Unit(**u) bound nine keywords and built their
        # dict again: 1.1 M instructions of a restore's 124 units, issue 35); a copy,
        # as a snapshot's data may be restored again
        unit = out[uid] = new(Unit)
        unit.__dict__.update(u)
    PLACINGS[0] += len(out)  # each unit made is a placing, as Unit() counts it
    DRAWN[0] += len(out)
    return out


@dataclass
class Position:
    """The game's state between actions: turn and weather, units, fronts, the C3I,
    activity-point and replacement tracks, the chit cup and the segment under way."""

    turn: int
    last_turn: int
    victory: str
    weather: str
    prev_weather: str
    historical: bool
    units: dict[str, Unit]
    fronts: dict[str, str]
    c3i: dict[str, int]
    ap: dict[str, int]
    cup: list[str]
    chits: dict[str, list[str]]
    used_chits: list[str] = field(default_factory=list)
    replacements: dict[str, int] = field(default_factory=lambda: {"mot": 0, "non": 0})
    ever_soviet: list[str] = field(default_factory=list)
    uprising_tried: list[str] = field(default_factory=list)
    fronts_moved: list[str] = field(default_factory=list)
    rochade_used: bool = False
    rochade_now: bool = False
    rochade_segment: str = ""  # 15.12: the one segment with more than one placement
    refit_marks: dict[str, str] = field(default_factory=dict)  # marker -> formation@hex
    phasing: str = "soviet"
    segment: str = ""
    seg_over: bool = False
    admin_moves: int = 0
    sov_control: list[str] = field(default_factory=list)


#: the kinds of value a saved Position's fields hold besides its units (its annotations'
#: canonical data): a plain value of one type, a map of strings to strings or to ints,
#: a list of strings, a map of strings to lists of strings
_STR_MAP, _INT_MAP, _STR_LIST, _STR_LISTS = "str-map", "int-map", "str-list", "str-lists"
_POSITION_KINDS: dict[str, object] = {
    "turn": int, "last_turn": int, "victory": str, "weather": str, "prev_weather": str,
    "historical": bool, "units": None, "fronts": _STR_MAP, "c3i": _INT_MAP,
    "ap": _INT_MAP, "cup": _STR_LIST, "chits": _STR_LISTS, "used_chits": _STR_LIST,
    "replacements": _INT_MAP, "ever_soviet": _STR_LIST, "uprising_tried": _STR_LIST,
    "fronts_moved": _STR_LIST, "rochade_used": bool, "rochade_now": bool,
    "rochade_segment": str, "refit_marks": _STR_MAP, "phasing": str, "segment": str,
    "seg_over": bool, "admin_moves": int, "sov_control": _STR_LIST}
_POSITION_FIELDS = frozenset(_POSITION_KINDS)
_STR = frozenset((str,))
_INT = frozenset((int,))


def _fits(kind: object, v: object) -> bool:
    """Whether ``v`` is exactly what pbem.codec takes for a field of ``kind`` (any of the
    kinds above but the units): the reader, the writer and their checks are one."""
    if type(kind) is type:
        return type(v) is kind
    if kind is _STR_LIST:
        return type(v) is list and set(map(type, v)) <= _STR
    if type(v) is not dict or not set(map(type, v)) <= _STR:
        return False
    if kind is _STR_LISTS:
        return set(map(type, v.values())) <= {list} and set(
            map(type, chain.from_iterable(v.values()))) <= _STR
    return set(map(type, v.values())) <= (_STR if kind is _STR_MAP else _INT)


def _copied(kind: object, v: Any) -> Any:
    """A field's value of ``kind`` sharing no map or list with ``v``, as the codec reads
    one and typedcopy copies one (the ints, strings and booleans shared)."""
    if kind is _STR_LIST:
        return list(v)
    if kind is _STR_LISTS:
        return {k: list(x) for k, x in v.items()}
    if type(kind) is not type:
        return dict(v)
    return v


def position_from_data(data: object, units: dict[str, Unit]) -> Position | None:
    """A snapshot's position with ``units`` (:func:`units_from_data`'s), when every other
    field is exactly what pbem.codec takes for it (the field's one type: an int is not a
    bool, a map's keys and a list's items are strings, a map's values its one type);
    ``None`` otherwise, and the codec reads it and names what is wrong.  Every turn
    command restores one position, and the codec's reader of a Position, made for the
    first one a process reads, was 1 M instructions of each (issue 35).  Each map and
    list is copied, as the codec copies them (a snapshot may be restored again)."""
    if type(data) is not dict or data.keys() != _POSITION_FIELDS:
        return None
    values: dict[str, object] = {}
    for name, kind in _POSITION_KINDS.items():
        v = data[name]
        if kind is None:
            v = units
        elif not _fits(kind, v):
            return None
        else:
            v = _copied(kind, v)
        values[name] = v
    pos = object.__new__(Position)
    pos.__dict__.update(values)
    return pos


def copy_position(pos: Position) -> Position | None:
    """An exact copy of ``pos`` as pbem.typedcopy derives one from :class:`Position`'s
    field types (each map and list new, each unit a new :class:`Unit` of the same
    fields, the ints, strings and booleans shared), read off the kinds above: deriving
    typedcopy's was 1.2 M instructions of every act (its one clone, issue 35).  ``None``
    for a position or unit holding anything beyond its fields, or of a subclass: the
    clone then takes typedcopy's, which names what it cannot copy."""
    if type(pos) is not Position or pos.__dict__.keys() != _POSITION_FIELDS:
        return None
    values: dict[str, object] = {}
    new = object.__new__
    for name, v in pos.__dict__.items():
        kind = _POSITION_KINDS[name]
        if kind is None:
            units = {}
            for uid, u in v.items():
                if type(u) is not Unit or u.__dict__.keys() != UNIT_FIELDS:
                    return None
                unit = units[uid] = new(Unit)
                unit.__dict__.update(u.__dict__)
            v = units
        else:
            v = _copied(kind, v)
        values[name] = v
    out = new(Position)
    out.__dict__.update(values)
    return out


#: the fields in the order a canonical map writes them (code-point order of the names)
_POSITION_ORDER = tuple(sorted(_POSITION_KINDS))
_UNIT_ORDER = tuple(sorted(UNIT_FIELDS))
_UNIT_VALUES = itemgetter(*_UNIT_ORDER)
#: the type of each of a unit's fields, in key order (as units_from_data takes them)
_UNIT_TYPES = tuple(int if f in ("steps", "oos_turns") else str if f == "at" else bool
                    for f in _UNIT_ORDER)
_UNIT_CLASS = frozenset((Unit,))
_UNIT_SIZE = frozenset((len(_UNIT_ORDER),))
_FIELDS_OF = attrgetter("__dict__")


def _units_data(units: dict[Any, Any]) -> dict[str, object] | None:
    """:func:`position_data`'s units: each unit's nine fields in key order, by id in
    order, when every id is a string and every unit exactly a :class:`Unit` of its nine
    fields of their types; ``None`` otherwise.  Each check is one pass in C over all the
    units (the ids' types, the units' classes and sizes, every value's type against the
    fields' types repeated), and the maps are made by C's own loops: checked and made a
    unit at a time, the units were 1.9 M instructions of every receive's and act's
    digest, where this is 1.5 M (issue 35)."""
    if set(map(type, units)) - _STR:
        return None
    ids = sorted(units)
    made = list(map(units.__getitem__, ids))
    if set(map(type, made)) - _UNIT_CLASS:
        return None
    fields = list(map(_FIELDS_OF, made))
    if set(map(len, fields)) - _UNIT_SIZE:
        return None
    try:
        values = list(map(_UNIT_VALUES, fields))
    except KeyError:
        return None
    if tuple(map(type, chain.from_iterable(values))) != _UNIT_TYPES * len(values):
        return None
    return dict(zip(ids, map(dict, map(zip, repeat(_UNIT_ORDER), values)), strict=True))


def position_data(pos: Position) -> dict[str, object] | None:
    """``codec.to_data(pos)`` in canonical form (every map in key order, as
    ``canonical.normalize`` puts it), made here when every field holds exactly its one
    type (:func:`position_from_data`'s kinds, each unit exactly a :class:`Unit` of its
    nine fields); ``None`` otherwise, and the codec writes it, or names what is wrong.
    Every receive and act digests its position, and the codec's typed writer of a
    Position, made for the first digest of a process (the hints of the position's and
    the unit's fields read and a writer built for each), was most of it (issue 35)."""
    if type(pos) is not Position or pos.__dict__.keys() != _POSITION_FIELDS:
        return None
    fields = pos.__dict__
    out: dict[str, object] = {}
    for name in _POSITION_ORDER:
        v = fields[name]
        kind = _POSITION_KINDS[name]
        if kind is None:
            if type(v) is not dict:
                return None
            got = _units_data(v)
            if got is None:
                return None
            v = got
        elif not _fits(kind, v):
            return None
        elif type(v) is dict:  # a map written in key order, as canonical.normalize puts it
            v = {k: v[k] for k in sorted(v)}
        out[name] = v
    return out


@dataclass(frozen=True)
class SegSpec:
    """A segment of the turn (4.2): its side, its kind (a Special Phase ``sp`` or a
    General Phase) and its number."""

    side: str = "soviet"
    kind: str = "sp"  # sp or general
    no: int = 1


@dataclass
class SegState:
    """A segment under way (4.2 II): which one, the stage it is at and the phase the side
    declared first."""

    side: str = "soviet"
    kind: str = "sp"
    no: int = 1
    stage: int = 0
    first: str = "move"


@dataclass(frozen=True)
class PhaseCall:
    """A segment's Movement or Combat Phase (``phase``: ``move`` or ``combat``), in the
    order the phasing side declared (4.2 II.C)."""

    side: str = "soviet"
    kind: str = "sp"
    phase: str = "move"


@dataclass(frozen=True)
class PhaseArgs:
    """The side and the segment's kind a phase's step works for."""

    side: str = "soviet"
    kind: str = "sp"


@dataclass(frozen=True)
class MoveArgs:
    """A move under way: the side, the segment's kind, the units moving together and
    where they started."""

    side: str = "soviet"
    kind: str = "sp"
    units: tuple[str, ...] = ()
    origin: str = ""


@dataclass(frozen=True)
class UnitArg:
    """A step's one name: a unit, or the side a reinforcement step serves (11.1)."""

    unit: str = ""


@dataclass(frozen=True)
class Cities:
    """The names a step works through one at a time: the units out of supply (7.0), the
    hexes that may rise (17.0)."""

    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Count:
    """A step's count: the C3I spent on the Activity Table, the variable reinforcements
    to draw."""

    n: int = 0
