"""48th Panzer Korps: the position (what a snapshot saves) and the steps' arguments."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from math import gcd
from typing import Any, TypeVar

from engines.panzer48.data import data

_R = TypeVar("_R")

#: movement points as the save writes a Fraction, ``(numerator, denominator)`` in lowest
#: terms with a positive denominator: a position holds the pair, not the Fraction, and the
#: movement rules count in half movement points (every cost of the Terrain Effects Chart
#: is a whole or half MP, 4), so that a game is replayed without importing fractions (and
#: decimal and numbers with it, 8.4 M instructions of the first-day audit: issue 35).  The
#: codec writes a pair of ints as it writes a Fraction, so a save's bytes and digests are
#: unchanged; :meth:`engines.panzer48.state.P48State.restore_body` refuses a pair the
#: codec's Fraction refused.
MPs = tuple[int, int]
NO_MPS: MPs = (0, 1)


def halves_mps(halves: int) -> MPs:
    """``halves`` half movement points as the pair a position holds (:data:`MPs`)."""
    g = gcd(halves, 2)
    return halves // g, 2 // g


def add_halves(pair: MPs, halves: int) -> MPs:
    """``pair`` + ``halves`` / 2 as a pair, reduced as the Fraction's sum is: a step of a
    move adds its cost to each moving unit's (4)."""
    n, d = pair
    num, den = 2 * n + halves * d, 2 * d
    g = gcd(num, den)
    return num // g, den // g


def within(pair: MPs, halves: int, allowance: int) -> bool:
    """Whether ``pair`` + ``halves`` / 2 is at most ``allowance`` / 2 (4), exactly, in
    integers whatever the pair's denominator (positive)."""
    n, d = pair
    return 2 * n + halves * d <= allowance * d


@dataclass
class Unit:
    """A unit's place, its losses, and its marks for this turn and phase (rules 3.1, 3.2,
    4 and 5)."""

    #: "map", "setup" (not yet placed), "due" (reinforcement), "dead", "exited", "off" (8.3)
    where: str
    hex: str = ""
    losses: int = 0
    #: made a prepared attack this turn (3.1: flipped, half movement after)
    flipped: bool = False
    #: its move is finished this phase (3.2)
    moved: bool = False
    #: attacked this phase (one attack per unit per phase, 3.1/3.2)
    attacked: bool = False
    #: retreated this phase: no ZOC (5), no movement (4)
    retreated: bool = False
    #: tried to leave an enemy ZOC and failed, or failed a morale check (4, 5)
    failed: bool = False
    #: entered an enemy-controlled hex this phase: its move is over (5, stand-in), even
    #: if a hasty attack by its stack then removes the ZOC
    halted: bool = False
    #: the hex it began the Movement Phase in ("" if it was off the map): 4's "units
    #: which began the phase stacked together"
    began: str = ""
    #: movement points spent this phase (4), as :data:`MPs`
    spent: MPs = NO_MPS
    placed: bool = False

    def __setattr__(self, name: str, value: Any) -> None:
        # every write of what the board facts read of a unit is logged (PLACEMENT_LOG),
        # so that P48State.facts knows which units to read again, if any
        if name in PLACEMENT_FIELDS:
            log = PLACEMENT_LOG[0]
            if len(log) >= _LOG_LENGTH:
                log = PLACEMENT_LOG[0] = []
            log.append(self)
        object.__setattr__(self, name, value)


#: what the board facts read of a unit (engines.panzer48.state.P48State.facts): where it
#: is, its hex, its losses and whether it retreated (5)
PLACEMENT_FIELDS = frozenset(("where", "hex", "losses", "retreated"))
#: the units whose placement fields were written, in order, in this process (a log for
#: every position, since a unit does not know its position): board facts kept for a
#: position stand while the units written since are none of its own, and are changed
#: for those that are.  The log is begun anew, a new list, when long, so that it keeps
#: no unit alive for long: facts kept with an older list read every unit again.
PLACEMENT_LOG: list[list[Unit]] = [[]]
_LOG_LENGTH = 4096


@dataclass
class Fire:
    """One fire under way in a combat (7): its target and the units firing and
    supporting."""

    target: str
    units: list[str]
    support: list[str]


@dataclass
class Combat:
    """The attack under way (7, 8): its hex, side and kind (prepared or hasty), the units
    on both sides, and its fire, retreat and advance."""

    hex: str
    attacker: str
    prepared: bool
    attackers: list[str] = field(default_factory=list)
    support: list[str] = field(default_factory=list)
    defenders: list[str] = field(default_factory=list)
    stage: str = "declare"  # declare, defense, attack, advance
    fired: list[str] = field(default_factory=list)
    targeted: list[str] = field(default_factory=list)
    #: per stack hex: steps fired at its last target (7.3: non-increasing)
    caps: dict[str, int] = field(default_factory=dict)
    fire: Fire | None = None
    required: int = 0  # the retreat the defenders were required to make (8.4)
    largest: int = 0  # the largest morale result achieved in the attack (8.4)
    path: list[str] = field(default_factory=list)  # the defenders' retreat path
    advance: dict[str, int] = field(default_factory=dict)  # unit -> hexes of advance left
    #: advancing units that left the defenders' path (8.4: ZOCs stop them again)
    strayed: list[str] = field(default_factory=list)


@dataclass
class Position:
    """The game's state between actions: turn and phase, units, hex control, the Soviet's
    committed reinforcement plan (9.1), the move and combat under way, exits and kills."""

    turn: int
    last_turn: int
    phasing: str
    phase: str  # setup, plan, prepared, movement
    units: dict[str, Unit]
    control: dict[str, str]
    released: bool = False
    setup_side: str = "german"
    #: 9.1: per Soviet reinforcing formation, the announced turn and the commitment
    plan_turns: dict[str, int] = field(default_factory=dict)
    plan_digests: dict[str, str] = field(default_factory=dict)
    plan_areas: dict[str, str] = field(default_factory=dict)
    began_adjacent: list[str] = field(default_factory=list)
    moving: list[str] = field(default_factory=list)
    moved_hexes: int = 0
    combat: Combat | None = None
    exits: dict[str, int] = field(default_factory=dict)  # exit hex -> steps (10)
    kills: dict[str, int] = field(default_factory=dict)  # side -> points for enemy losses


@dataclass
class MoraleArgs:
    """A morale check after fire (8): the unit, its morale, the steps lost, the steps
    before, and whose unit it is."""

    unit: str
    morale: int
    loss: int
    steps_before: int
    attacker: bool


@dataclass
class RetreatArgs:
    """A retreat (8.3): the units retreating, where from, how far, and whether they
    defended."""

    units: list[str]
    start: str
    length: int
    defender: bool


@dataclass
class SideArgs:
    """The side a turn's step works for, and the stage the turn is at."""

    side: str = ""
    stage: int = 0


@dataclass
class ExitArgs:
    """The hex a unit leaves an enemy ZOC into (5)."""

    to: str = ""


def new_position(scenario_turns: tuple[int, int]) -> Position:
    d = data()
    units = {}
    for u, info in d.units.items():
        f = d.formations[info.formation]
        units[u] = Unit("setup" if (f.enters_turn or f.schedule) else "unplaced")
    control = {h: "german" for h in sorted(d.towns)}
    for a, b in d.don_bridges:
        control[a] = control[b] = "german"
    return Position(turn=scenario_turns[0], last_turn=scenario_turns[1], phasing="soviet",
                    phase="setup", units=units, control=dict(sorted(control.items())))




# -- the position's data, read and written by hand ---------------------------------------------
#
# pbem.codec reads and writes any dataclass from its type hints: resolving the hints and
# building a coder for each of the position's types, then a call, a type check and a path
# text (for a refusal) for each field of each unit, was 4.6 M instructions a restore and
# 3.2 M a digest in a turn command (issue 35).  These two do the same for a position whose
# every value is exactly of its declared type, and give way (None) on anything else: the
# codec then reads or writes it as it always did, naming any fault.
# tests/panzer48/test_position_data.py holds both to the codec along seeded games and on
# damaged data.

#: each class's fields in code-point order (the canonical map's), each with the one type
#: its value has: "str", "int", "bool", "strs" (list[str]), "ints"/"texts" (dict[str, int]
#: / dict[str, str]), "mps" (:data:`MPs`), or the class of a nested record
_UNIT = (("attacked", "bool"), ("began", "str"), ("failed", "bool"), ("flipped", "bool"),
         ("halted", "bool"), ("hex", "str"), ("losses", "int"), ("moved", "bool"),
         ("placed", "bool"), ("retreated", "bool"), ("spent", "mps"), ("where", "str"))
_FIRE = (("support", "strs"), ("target", "str"), ("units", "strs"))
_COMBAT = (("advance", "ints"), ("attacker", "str"), ("attackers", "strs"), ("caps", "ints"),
           ("defenders", "strs"), ("fire", "fire"), ("fired", "strs"), ("hex", "str"),
           ("largest", "int"), ("path", "strs"), ("prepared", "bool"), ("required", "int"),
           ("stage", "str"), ("strayed", "strs"), ("support", "strs"), ("targeted", "strs"))
_POSITION = (("began_adjacent", "strs"), ("combat", "combat"), ("control", "texts"),
             ("exits", "ints"), ("kills", "ints"), ("last_turn", "int"),
             ("moved_hexes", "int"), ("moving", "strs"), ("phase", "str"),
             ("phasing", "str"), ("plan_areas", "texts"), ("plan_digests", "texts"),
             ("plan_turns", "ints"), ("released", "bool"), ("setup_side", "str"),
             ("turn", "int"), ("units", "units"))
_SPECS: dict[type, tuple[tuple[str, str], ...]] = {
    Unit: _UNIT, Fire: _FIRE, Combat: _COMBAT, Position: _POSITION}
_KEYS = {spec: frozenset(name for name, _ in spec) for spec in _SPECS.values()}
_SCALAR = {"str": str, "int": int, "bool": bool}


class _Odd(Exception):
    """A value not exactly of its field's type: the codec's to read or write."""


def _strs(v: Any) -> list[str]:
    if type(v) is not list or not all(type(x) is str for x in v):
        raise _Odd
    return list(v)


def _map(v: Any, want: type, ordered: bool) -> dict[str, Any]:
    if type(v) is not dict or not all(type(k) is str and type(x) is want
                                      for k, x in v.items()):
        raise _Odd
    return {k: v[k] for k in sorted(v)} if ordered else dict(v)


def _read(cls: type[_R], d: Any) -> _R:
    """``cls`` from its data, as pbem.codec.from_data reads it."""
    spec = _SPECS[cls]
    if type(d) is not dict or d.keys() != _KEYS[spec]:
        raise _Odd
    got: dict[str, Any] = {}
    for name, kind in spec:
        v = d[name]
        scalar = _SCALAR.get(kind)
        if scalar is not None:
            if type(v) is not scalar:
                raise _Odd
            got[name] = v
        elif kind == "strs":
            got[name] = _strs(v)
        elif kind in ("ints", "texts"):
            got[name] = _map(v, int if kind == "ints" else str, False)
        elif kind == "mps":
            if type(v) is not list or len(v) != 2 or {type(v[0]), type(v[1])} != {int}:
                raise _Odd
            got[name] = (v[0], v[1])
        elif kind == "units":
            if type(v) is not dict or not all(type(k) is str for k in v):
                raise _Odd
            got[name] = {k: _read_unit(x) for k, x in v.items()}
        else:
            got[name] = None if v is None else _read(Fire if kind == "fire" else Combat, v)
    return cls(**got)


#: a unit's fields as one row, in the canonical map's order, and the type of each value in
#: its data (the pair a list) and in a Unit (a tuple): the units are most of a position,
#: and a row is checked in one comparison, not a call a field
_UNIT_NAMES = tuple(name for name, _ in _UNIT)
_UNIT_ROW = operator.itemgetter(*_UNIT_NAMES)


def _unit_fields(x: Unit) -> tuple[Any, ...]:
    """A unit's fields as one row in :data:`_UNIT_NAMES`' order, read by attribute: an
    attrgetter of the twelve cost three times as much (the interpreter specialises an
    attribute read in code, not in an attrgetter), and every state digest reads every
    unit (tests/panzer48/test_position_data.py holds the row to the names)."""
    return (x.attacked, x.began, x.failed, x.flipped, x.halted, x.hex, x.losses, x.moved,
            x.placed, x.retreated, x.spent, x.where)


#: a unit's fields in the class's order, as its __init__ sets them
_UNIT_DECLARED = tuple(f.name for f in fields(Unit))
_UNIT_DATA_TYPES = tuple(list if kind == "mps" else _SCALAR[kind] for _, kind in _UNIT)
_UNIT_TYPES = tuple(tuple if kind == "mps" else _SCALAR[kind] for _, kind in _UNIT)
_SPENT = _UNIT_NAMES.index("spent")


def _read_unit(d: Any) -> Unit:
    """``_read(Unit, d)`` in one row."""
    if type(d) is not dict or d.keys() != _KEYS[_UNIT]:
        raise _Odd
    row = _UNIT_ROW(d)
    spent = row[_SPENT]
    if (tuple(map(type, row)) != _UNIT_DATA_TYPES or len(spent) != 2
            or type(spent[0]) is not int or type(spent[1]) is not int):
        raise _Odd
    got = {name: d[name] for name in _UNIT_DECLARED}
    got["spent"] = (spent[0], spent[1])
    # made as pbem.typedcopy copies a unit, past the __init__ whose every field set would
    # go through Unit.__setattr__ and its log for nothing: a unit just made is in no
    # board facts kept, which know units by identity (46 units a restore, 1.3 M
    # instructions of each of 48th Panzer Korps' turn commands, issue 35)
    unit = object.__new__(Unit)
    unit.__dict__.update(got)
    return unit


def _write_unit(x: Any) -> dict[str, Any]:
    """``_write(x)`` of a Unit in one row."""
    if type(x) is not Unit:
        raise _Odd
    row = _unit_fields(x)
    spent = row[_SPENT]
    if (tuple(map(type, row)) != _UNIT_TYPES or len(spent) != 2
            or type(spent[0]) is not int or type(spent[1]) is not int):
        raise _Odd
    out = dict(zip(_UNIT_NAMES, row, strict=True))
    out["spent"] = [spent[0], spent[1]]
    return out


def _write(obj: Any) -> dict[str, Any]:
    """The canonical data of a record (pbem.codec.to_canonical): a map in key order."""
    spec = _SPECS[type(obj)]
    out: dict[str, Any] = {}
    for name, kind in spec:
        v = getattr(obj, name)
        scalar = _SCALAR.get(kind)
        if scalar is not None:
            if type(v) is not scalar:
                raise _Odd
            out[name] = v
        elif kind == "strs":
            out[name] = _strs(v)
        elif kind in ("ints", "texts"):
            out[name] = _map(v, int if kind == "ints" else str, True)
        elif kind == "mps":
            if type(v) is not tuple or len(v) != 2 or {type(v[0]), type(v[1])} != {int}:
                raise _Odd
            out[name] = [v[0], v[1]]
        elif kind == "units":
            if type(v) is not dict or not all(type(k) is str for k in v):
                raise _Odd
            out[name] = {k: _write_unit(v[k]) for k in sorted(v)}
        else:
            want = Fire if kind == "fire" else Combat
            if v is not None and type(v) is not want:
                raise _Odd
            out[name] = None if v is None else _write(v)
    return out


def read_position(data: Any) -> Position | None:
    """The position ``pbem.codec.from_data(Position, data)`` reads, or None where a value
    is not exactly of its field's type (the codec's to read or refuse)."""
    try:
        return _read(Position, data)
    except _Odd:
        return None


def position_data(pos: Position) -> dict[str, Any] | None:
    """``pbem.codec.to_canonical(pos, 2)``: what the state digest packs, or None where a
    value is not exactly of its field's type (the codec's to write or refuse)."""
    try:
        return _write(pos) if type(pos) is Position else None
    except _Odd:
        return None
