"""The White Death position as typed data (pbem.codec derives its snapshot).

Everything the rules read and write that a save holds, apart from the frames of the
sequence of play (the step runtime's ``stack``). Each field says what it holds in the
book's terms, with the rule that reads it. What the map and the catalog say (terrain, the
order of battle, the scenario) is not here: it never changes in play. Nor are the state's
caches (``_cache``, ``_pcache``, ``_static`` ...): they are worked out again from these
fields.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from math import gcd
from typing import Any

from pbem import canonical
from pbem.errors import FormatError

#: ticks in a movement point: the unit every movement point in the position is counted
#: in (rules_version 0.8; 0.7 kept a Fraction). Rule 7's Terrain Effects Chart prices a
#: move along a road at 1/2 MP for most mobility classes and 1/3 for wheeled and
#: motorcycle units (the stand-in chart, scenarios/white-death/tables.toml); every other
#: cost on it, and Rules 3, 6.B, 8 and 20's, is whole MPs. The least common multiple of 2
#: and 3 is 6: a sixth of an MP is the smallest fraction the rules need, so MPs add and
#: compare as ints, exactly. A chart with a finer cost is refused when the catalog's
#: :class:`~engines.white_death.terrain.Terrain` is made (ScenarioError).
MP_TICKS = 6

#: an exact amount (fire points, Rules 9.C.3 and 10; a barrage value, 11.B.2) as the save
#: writes a Fraction, ``(numerator, denominator)`` in lowest terms with a positive
#: denominator: the rules add, compare and divide these pairs in ints, so a command makes
#: no Fraction (importing fractions pulls decimal and numbers: about 9.6 M instructions of
#: every White Death command, issue 35), as 48th Panzer Korps' position holds its MPs.
#: The codec writes a pair of ints as it writes a Fraction: a save's bytes are unchanged.
Q = tuple[int, int]
ZERO: Q = (0, 1)


def q(n: int, d: int = 1) -> Q:
    """``n/d`` in lowest terms, its denominator positive (``Fraction(n, d)``'s terms)."""
    if d < 0:
        n, d = -n, -d
    g = gcd(n, d)
    return (n // g, d // g) if g > 1 else (n, d)


def q_add(a: Q, b: Q) -> Q:
    return q(a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def q_sub(a: Q, b: Q) -> Q:
    return q(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def q_mul(a: Q, b: Q) -> Q:
    return q(a[0] * b[0], a[1] * b[1])


def q_div(a: Q, b: Q) -> Q:
    """``a / b`` (``b`` not 0)."""
    return q(a[0] * b[1], a[1] * b[0])


def q_cmp(a: Q, b: Q) -> int:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (never the pairs' tuple
    order: (1, 2) is more than (1, 3))."""
    x, y = a[0] * b[1], b[0] * a[1]
    return (x > y) - (x < y)


def q_sum(values: Any) -> Q:
    total = ZERO
    for v in values:
        total = q_add(total, v)
    return total


@dataclass(slots=True)
class U:
    """A unit's changing state (its fixed data is in the catalog)."""

    #: the unit's id: the catalog's, or ``garrison/HEX`` for an intrinsic garrison (made in
    #: play: "Intrinsic Garrisons")
    uid: str
    #: the hex it stands in, or the box it is in off the map (base.BOXES): "pending" (a
    #: reinforcement not yet due, Rule 17), "raster" (due: it may enter, Rule 17), "dead",
    #: "refit" (Rule 18), "setup" (still to be placed, Rule 22's campaign setup)
    loc: str
    #: strength points left (losses are taken in SPs: Rules 9.C, 10.C, 11.B.2.B)
    strength: int
    #: deployed artillery (Rule 6.B.2: it may fire, barrage and support)
    deployed: bool = False
    #: movement points spent this impulse (Rule 6), in ticks (:data:`MP_TICKS` a movement
    #: point: Rule 7's road costs of 1/2 and 1/3 MP are 3 and 2 ticks)
    spent: int = 0
    #: it may not move again this impulse: it entered an enemy ZOC (Rule 3), retreated
    #: (Rule 14.B), failed a morale check while moving (Rule 14), or a Brandenburg unit
    #: was found out (Rule 21.B)
    stopped: bool = False
    #: it began the impulse in an enemy ZOC (Rule 3.A)
    zoc_start: bool = False
    #: on a train (Rule 8)
    entrained: bool = False
    #: the hex it entered the river hex it stands in from (Rule 16.B: which bank it is on),
    #: "" none
    via: str = ""
    #: the garrison it belongs to (Rule 22, "Intrinsic Garrisons"): "vl", "line", "town",
    #: "intrinsic", "" none
    garrison: str = ""
    #: when it entered its hex: its place in the hex's stacking order (Rule 4)
    seq: int = 0
    #: the hex it has declared an assault on this impulse (Rule 6.B.3), "" none
    assault: str = ""
    #: the entry area it arrives in (Rule 17), "" none
    entry: str = ""
    #: what it did or suffered this impulse: "barraged" (Rule 11.B), "entered" (came on
    #: the map this impulse, Rule 17: it may entrain where it enters, Rule 8), "left-zoc"
    #: (Rule 3), "no-assault" and "no-df" (Rule 14.B), "support:defense" /
    #: "support:assault" (Rule 11.A.1)
    marks: set[str] = field(default_factory=set)

    def copy(self) -> U:
        return U(self.uid, self.loc, self.strength, self.deployed, self.spent, self.stopped,
                 self.zoc_start, self.entrained, self.via, self.garrison, self.seq,
                 self.assault, self.entry, set(self.marks))


#: U's fields in the two orders its data comes in, each with the one type pbem.codec takes
#: for it (``marks``, a set of str, comes as a list): a canonical map's (sorted by name: a
#: save's bytes decoded) and the class's own (``snapshot()``, not yet encoded)
_U_TYPES: dict[Any, type] = {"str": str, "int": int, "bool": bool, "set[str]": list}
_U_FORMS = {
    tuple(f.name for f in order): tuple(_U_TYPES[f.type] for f in order)
    for order in (sorted(fields(U), key=lambda f: f.name), fields(U))}


def units_from_data(data: Any) -> dict[str, U] | None:
    """The units of a position's data as pbem.codec reads them, or None for anything but
    the plain form (a map of unit maps, every field there in one of the two orders, each
    of its exact type, ``marks`` empty or a list of str the codec reads): the codec then
    reads them and names what is wrong.  A purkayev game's 300-odd units of 14 fields,
    field by field through the codec, were most of restoring a position at every command
    that loads a game (issue 35)."""
    if type(data) is not dict:
        return None
    out: dict[str, U] = {}
    forms = _U_FORMS
    for uid, d in data.items():
        if type(d) is not dict or tuple(map(type, d.values())) != forms.get(tuple(d)):
            return None
        marks = d["marks"]
        if marks:
            kept = _set_from_data(marks)
            if kept is None:
                return None
            out[uid] = U(*_U_FIRST(d), kept)
        else:
            out[uid] = U(*_U_FIRST(d), set())
    return out


def _set_from_data(v: Any) -> set[str] | None:
    """A set of str as the codec writes it, a list of each element once in canonical
    order (by each one's canonical bytes), or None for anything else, which the codec
    then reads and names.  Read by hand: the codec's reader of ``set[str]``, built at a
    process's first read of one, was about 0.3 M instructions of every command that
    loads a game (issue 35)."""
    if type(v) is not list or not _strs(v):
        return None
    if len(v) > 1:
        keys = [canonical.pack_normal(x) for x in v]
        if any(map(operator.ge, keys, keys[1:])):
            return None
    return set(v)


#: a unit's fields before ``marks``, its last, in the class's order: each unit made with
#: them by position, not from a dict merged with its marks and passed by name
_U_FIRST: Callable[[Any], tuple[str, str, int, bool, int, bool, bool, bool, str, str, int,
                                 str, str]] = operator.itemgetter(
    *[f.name for f in fields(U)][:-1])


@dataclass(slots=True)
class Bunker:
    """A bunker of Velikiye Luki (Rule 19)."""

    hex: str
    #: its strength: it fires defensively with it (Rule 19) and loses it to barrages
    #: (Rule 11.B.2.B)
    strength: int

    def copy(self) -> Bunker:
        return Bunker(self.hex, self.strength)


@dataclass(frozen=True, slots=True)
class Arrival:
    """A reinforcement still to come (Rule 17; the scenario's schedule)."""

    turn: int
    uid: str
    #: the entry area (Rule 17.A, 17.B)
    area: str


@dataclass(slots=True)
class Allocation:
    """Fire allocated at a target (Rule 9.C.3 conventional, Rule 10 antitank)."""

    target: str
    #: "conv" or "at"
    kind: str
    #: the fire points (Rule 9.C.3: any part of the pool, so a Fraction). Not counted in
    #: a fixed unit like the MPs: no rule bounds the fraction. The pool sums fire values
    #: (a counter's factor, a fraction on the order of battle, times its strength, halved
    #: when isolated: Rules 9.C.1, 15.C), the player may allot any part of it ("fire 7/3
    #: at ..."), and the default allocation gives a target what its odds column needs, its
    #: defense times the column's ratio (rules.needed_for). Held as the pair the save
    #: writes (:data:`Q`); the state refuses a pair the codec's Fraction refused
    amount: Q


@dataclass(slots=True)
class Combat:
    """The fire at one assaulted hex (Rule 5: defensive fire, then the assault plan that
    RESOLVE fires)."""

    hex: str
    #: the controlling headquarters chosen (Rule 11.A.1), "" the default one
    hq: str = ""
    #: the artillery supporting (Rule 11.A)
    support: list[str] = field(default_factory=list)
    #: the fire allocated so far (Rules 9.C.3, 10)
    alloc: list[Allocation] = field(default_factory=list)
    #: the defenders that took a morale check in the assault (Rule 14.C.2: no tank fright
    #: check for them)
    checked: list[str] = field(default_factory=list)

    def copy(self) -> Combat:
        return Combat(self.hex, self.hq, list(self.support),
                      [Allocation(a.target, a.kind, a.amount) for a in self.alloc],
                      list(self.checked))


@dataclass(slots=True)
class Barrage:
    """The barrage being assigned or resolved (Rule 11.B)."""

    #: the hex barraged
    hex: str
    #: the artillery assigned to it, not yet fired
    units: list[str] = field(default_factory=list)
    #: once fired: the SPs each target has lost to its rolls, before the half-strength cap
    #: (Rule 11.B.2.B)
    loss: dict[str, int] = field(default_factory=dict)

    def copy(self) -> Barrage:
        return Barrage(self.hex, list(self.units), dict(self.loss))


@dataclass(slots=True)
class PhaseLoss:
    """A unit's barrage losses this phase (Rule 11.B.2.B: capped at half its strength at
    the first barrage of the phase; one morale check on the total at the phase's end)."""

    start: int
    lost: int


@dataclass(slots=True)
class Final:
    """The result once the game is over (the scenario card's victory points)."""

    #: victory points by side
    score: dict[str, int]
    #: each objective's holder by name ("" contested)
    held: dict[str, str]

    def copy(self) -> Final:
        return Final(dict(self.score), dict(self.held))


def _side_ints() -> dict[str, int]:
    return {"soviet": 0, "german": 0}


@dataclass(slots=True)
class Position:
    """The whole changing position of a White Death game."""

    #: the game turn (Rule 5; the scenario's first turn to start with)
    turn: int = 0
    #: the side whose impulse it is (Rule 5)
    phasing: str = "soviet"
    #: each side's movement points left this turn (Rule 5: 10 a turn)
    mps: dict[str, int] = field(default_factory=lambda: {"soviet": 10, "german": 10})
    #: the movement points the phasing side spends in this impulse (Rule 5)
    impulse_mp: int = 0
    #: the phasing side's MPs before this impulse (Rule 5: a Soviet assault needs 3 MPs in
    #: the impulse, or all that were left)
    impulse_left_before: int = 0
    #: impulses each side has had this turn (Rules 5, 17)
    impulses: dict[str, int] = field(default_factory=_side_ints)
    #: this turn's weather (Rule 16)
    weather: str = "clear"
    #: supply points: each side's pool and Velikiye Luki's own ("vl", Rules 15.A, 15.D)
    supply: dict[str, int] = field(default_factory=lambda: {"soviet": 0, "german": 0,
                                                            "vl": 0})
    #: replacement points each side holds, for damaged personnel units (Rule 18)
    repl: dict[str, int] = field(default_factory=_side_ints)
    #: rail capacity used this turn, in SPs (Rule 8: 25 a turn)
    rail_used: dict[str, int] = field(default_factory=_side_ints)
    #: each side has repaired an AFV strength point this turn (Rule 18: one a turn, from
    #: turn 5)
    repaired: dict[str, bool] = field(default_factory=lambda: {"soviet": False,
                                                               "german": False})
    #: the Velikiye Luki garrison is released (Rule 22: held until its release roll)
    vl_released: bool = False
    #: the German player spent a Velikiye Luki supply point this turn to keep the city out
    #: of isolation (Rule 15.D.2)
    vl_avoid: bool = False
    #: the bunkers (Rule 19)
    bunkers: list[Bunker] = field(default_factory=list)
    #: hexes with a bridge standing (Rule 20: built, 20.B, or blown, 20.A)
    bridges: set[str] = field(default_factory=set)
    #: the engineers that have built their bridge (Rule 20.B: one each)
    builders: set[str] = field(default_factory=set)
    #: every unit's changing state, by id (Rule 2)
    units: dict[str, U] = field(default_factory=dict)
    #: the intrinsic garrisons made in play ("Intrinsic Garrisons"): their ids (the catalog
    #: knows every other unit)
    garrisons: set[str] = field(default_factory=set)
    #: reinforcements still to come (Rule 17)
    schedule: list[Arrival] = field(default_factory=list)
    #: the assaults declared this impulse: the hex assaulted -> the assaulting units
    #: (Rule 6.B.3)
    assaults: dict[str, list[str]] = field(default_factory=dict)
    #: the fire being allocated or resolved at one hex (Rules 9-11.A), None none
    combat: Combat | None = None
    #: the assaulted hexes still to open a combat at, in order (Rule 5)
    combat_hexes: list[str] = field(default_factory=list)
    #: the assault plans made and not yet resolved (the manual's RESOLVE), in hex order
    plans: list[Combat] = field(default_factory=list)
    #: the supply costs paid this impulse, "KIND:POOL" (KIND: "assault", "barrage",
    #: "rocket", "high"; Rules 15.A.1-15.A.4)
    paid: set[str] = field(default_factory=set)
    #: the barrage being assigned or resolved (Rule 11.B), None none
    bar: Barrage | None = None
    #: the units barraged this phase (Rule 11.B.2.B)
    barrage_phase: dict[str, PhaseLoss] = field(default_factory=dict)
    #: the hexes the phasing side may advance into -> the units that may (Rule 9.D)
    advance: dict[str, list[str]] = field(default_factory=dict)
    #: routs and eliminations this phase, "rout:HEX" and "elim:HEX" (Rules 14.C.4, 14.C.7)
    counts: dict[str, int] = field(default_factory=dict)
    #: the SPs each side has lost (victory points: the tables' points_per_sp)
    losses: dict[str, int] = field(default_factory=_side_ints)
    #: the side setting up (Rule 22's campaign setup), "" none
    setup_side: str = ""
    #: the units it has still to place (Rule 22)
    setup_raster: list[str] = field(default_factory=list)
    #: the 7th Flieger Division (Rule 17.F): "", "rolled", "answer-due"
    flieger: str = ""
    #: a unit moving through a full hex (Rule 4), "" none
    passing: str = ""
    #: the last stacking-order number given (Rule 4: a unit entering goes on top)
    seq: int = 0
    #: the result once the game has ended, None while it goes on
    final: Final | None = None

    def copy(self) -> Position:
        """A copy sharing nothing mutable (a clone's position)."""
        return Position(
            self.turn, self.phasing, dict(self.mps), self.impulse_mp,
            self.impulse_left_before, dict(self.impulses), self.weather, dict(self.supply),
            dict(self.repl), dict(self.rail_used), dict(self.repaired), self.vl_released,
            self.vl_avoid, [b.copy() for b in self.bunkers], set(self.bridges),
            set(self.builders), {k: u.copy() for k, u in self.units.items()},
            set(self.garrisons), list(self.schedule),
            {k: list(v) for k, v in self.assaults.items()},
            None if self.combat is None else self.combat.copy(), list(self.combat_hexes),
            [c.copy() for c in self.plans], set(self.paid),
            None if self.bar is None else self.bar.copy(),
            {k: PhaseLoss(v.start, v.lost) for k, v in self.barrage_phase.items()},
            {k: list(v) for k, v in self.advance.items()}, dict(self.counts),
            dict(self.losses), self.setup_side, list(self.setup_raster), self.flieger,
            self.passing, self.seq, None if self.final is None else self.final.copy())


# How each field of a position's data is read by :func:`position_from_data`: a scalar of
# exactly its type, a map of str to ints or bools, a list or a set of str, a map of str to
# lists of str; the records inside (bunkers, arrivals, combats, the barrage, the phase's
# losses, the final score) by the codec, field by field, as their own types
_MAP_INT, _MAP_BOOL, _LIST_STR, _SET_STR, _MAP_LISTS = (
    "map-int", "map-bool", "list-str", "set-str", "map-lists")
#: the plain records of a position's lists read at once: each record's fields with their
#: one type (the bunkers' and the schedule's: a codec decoder resolved for each class and
#: a frozen class's __init__ were 0.9 M instructions of every command, issue 35)
_RECORDS: dict[str, tuple[type, dict[str, type]]] = {
    "bunkers": (Bunker, {"hex": str, "strength": int}),
    "schedule": (Arrival, {"turn": int, "uid": str, "area": str}),
}
_COMBAT, _PLANS = "combat", "plans"
_PHASE_LOSS = dict[str, PhaseLoss]
#: the records whose absence (None) is read without the codec
_NONE_OK = (Barrage | None, Final | None)
_READ: dict[str, Any] = {
    "turn": int, "phasing": str, "mps": _MAP_INT, "impulse_mp": int,
    "impulse_left_before": int, "impulses": _MAP_INT, "weather": str, "supply": _MAP_INT,
    "repl": _MAP_INT, "rail_used": _MAP_INT, "repaired": _MAP_BOOL, "vl_released": bool,
    "vl_avoid": bool, "bunkers": _RECORDS, "bridges": _SET_STR, "builders": _SET_STR,
    "garrisons": _SET_STR, "schedule": _RECORDS, "assaults": _MAP_LISTS,
    "combat": _COMBAT, "combat_hexes": _LIST_STR, "plans": _PLANS,
    "paid": _SET_STR, "bar": Barrage | None, "barrage_phase": _PHASE_LOSS,
    "advance": _MAP_LISTS, "counts": _MAP_INT, "losses": _MAP_INT, "setup_side": str,
    "setup_raster": _LIST_STR, "flieger": str, "passing": str, "seq": int,
    "final": Final | None}
_FIELDS = frozenset((*_READ, "units"))
_COMBAT_KEYS = frozenset(("hex", "hq", "support", "alloc", "checked"))
_ALLOC_KEYS = frozenset(("target", "kind", "amount"))
_STR = frozenset({str})


def _strs(values: Any) -> bool:
    return set(map(type, values)) <= _STR


def _combat_from_data(d: Any) -> Combat | None:
    """A :class:`Combat`'s data as the codec reads it, or None for anything but its plain
    form: the codec then reads it and :func:`check_amounts` names what is wrong.  An
    allocation's amount is its pair (:data:`Q`) written ``[numerator, denominator]``, the
    denominator positive and the pair in lowest terms, as a save writes a Fraction."""
    if type(d) is not dict or d.keys() != _COMBAT_KEYS:
        return None
    hex_, hq, support, alloc, checked = (d["hex"], d["hq"], d["support"], d["alloc"],
                                         d["checked"])
    if (type(hex_) is not str or type(hq) is not str or type(support) is not list
            or not _strs(support) or type(checked) is not list or not _strs(checked)
            or type(alloc) is not list):
        return None
    allocations = []
    for a in alloc:
        if type(a) is not dict or a.keys() != _ALLOC_KEYS:
            return None
        target, kind, amount = a["target"], a["kind"], a["amount"]
        if (type(target) is not str or type(kind) is not str or type(amount) is not list
                or len(amount) != 2 or type(amount[0]) is not int
                or type(amount[1]) is not int or amount[1] <= 0):
            return None
        if gcd(amount[0], amount[1]) != 1:
            return None
        allocations.append(Allocation(target, kind, (amount[0], amount[1])))
    return Combat(hex_, hq, list(support), allocations, list(checked))


def position_from_data(data: Any) -> Position | None:
    """A position's data as pbem.codec reads it (``codec.from_data(Position, data)``), or
    None for anything but the plain form: every field there, each of exactly its type,
    the records inside as the codec reads them.  The codec then reads the whole and names
    what is wrong.  Reading the position through the codec began by resolving its 36
    fields' type hints, about 3 M instructions of every command that loads a game
    (issue 35)."""
    if type(data) is not dict or data.keys() != _FIELDS:
        return None
    out: dict[str, Any] = {}
    for name, how in _READ.items():
        v = data[name]
        if how is int or how is str or how is bool:
            if type(v) is not how:
                return None
        elif how in (_MAP_INT, _MAP_BOOL):
            want = int if how == _MAP_INT else bool
            if type(v) is not dict or not _strs(v) or \
                    not set(map(type, v.values())) <= {want}:
                return None
            v = dict(v)
        elif how == _LIST_STR:
            if type(v) is not list or not _strs(v):
                return None
            v = list(v)
        elif how is _RECORDS:
            cls, types = _RECORDS[name]
            if type(v) is not list or any(
                    type(r) is not dict or r.keys() != types.keys()
                    or any(type(r[k]) is not t for k, t in types.items()) for r in v):
                return None
            v = [cls(**r) for r in v]
        elif how == _MAP_LISTS:
            if type(v) is not dict or not _strs(v) or any(
                    type(x) is not list or not _strs(x) for x in v.values()):
                return None
            v = {k: list(x) for k, x in v.items()}
        elif how is _COMBAT or how is _PLANS:
            # a combat's fire at one hex (Rules 9-11.A), read here: resolving Combat's
            # and Allocation's type hints for the codec cost every command at a combat
            # step about 3.5 M instructions (issue 35)
            if how is _COMBAT:
                if v is not None:
                    v = _combat_from_data(v)
                    if v is None:
                        return None
            else:
                if type(v) is not list:
                    return None
                plans = [_combat_from_data(c) for c in v]
                if None in plans:
                    return None
                v = plans
        elif v is None and how in _NONE_OK:
            pass  # an absent record (no barrage, no result yet): the codec's None
        elif type(v) is dict and not v and how is _PHASE_LOSS:
            v = {}
        elif how == _SET_STR and (read := _set_from_data(v)) is not None:
            v = read
        else:  # the records, and a set not in the codec's form: the codec's own reading
            # imported here: no command's plain position comes this way, and importing
            # the codec was 1.5 M instructions of every act and receive (issue 35)
            from pbem import codec

            try:
                v = codec.from_data(set[str] if how == _SET_STR else how, v,
                                    f"position.{name}")
            except FormatError:
                return None
        out[name] = v
    units = units_from_data(data["units"])
    if units is None:
        return None
    return Position(units=units, **out)


def check_amounts(pos: Position) -> None:
    """Each allocation's amount refused unless it is a fraction in lowest terms with a
    positive denominator, as the codec's Fraction refused it before the position held the
    pair (:data:`Q`): one value, one encoding, so a save's digest names one position."""
    combats = ([("position.combat", pos.combat)] if pos.combat is not None else [])
    combats += [(f"position.plans[{i}]", c) for i, c in enumerate(pos.plans)]
    for where, c in combats:
        for i, al in enumerate(c.alloc):
            n, d = al.amount
            w = f"{where}.alloc[{i}].amount"
            if d <= 0:
                raise FormatError(f"{w}: expected [numerator, denominator], got list "
                                  f"{[n, d]!r}")
            if gcd(n, d) != 1:
                raise FormatError(f"{w}: fraction {n}/{d} is not in lowest terms")


# The position's canonical form written by hand (:func:`position_normal`), for the first
# position a process writes: the codec's typed writer (pbem.codec.to_canonical_bytes)
# builds its writers of the position and its nine record classes at its first use, about
# 8.8 M instructions, the most of a ``receive``'s one digest (issue 35).

#: the type each of U's fields holds (``marks`` a set), the fields in canonical
#: (code-point) order, a unit's map's in :func:`position_normal`
_U_KINDS = tuple({**_U_TYPES, "set[str]": set}[f.type] for f in sorted(
    fields(U), key=lambda f: f.name))


def _int_map(d: Any) -> dict[str, Any] | None:
    if type(d) is not dict or not set(map(type, d)) <= _STR or \
            not set(map(type, d.values())) <= {int}:
        return None
    return {k: d[k] for k in sorted(d)}


def _bool_map(d: Any) -> dict[str, Any] | None:
    if type(d) is not dict or not set(map(type, d)) <= _STR or \
            not set(map(type, d.values())) <= {bool}:
        return None
    return {k: d[k] for k in sorted(d)}


def _str_list(v: Any) -> list[str] | None:
    return list(v) if type(v) is list and _strs(v) else None


def _str_set(v: Any) -> list[str] | None:
    """A set of str in the codec's order: by each element's canonical bytes."""
    if type(v) is not set or not _strs(v):
        return None
    return sorted(v, key=canonical.pack_normal)


def _lists_map(d: Any) -> dict[str, list[str]] | None:
    if type(d) is not dict or not _strs(d) or any(
            type(x) is not list or not _strs(x) for x in d.values()):
        return None
    return {k: list(d[k]) for k in sorted(d)}


def _combat_normal(c: Any) -> dict[str, Any] | None:
    if type(c) is not Combat:
        return None
    alloc = []
    for a in c.alloc:
        if (type(a) is not Allocation or type(a.target) is not str or type(a.kind) is not str
                or type(a.amount) is not tuple or len(a.amount) != 2
                or type(a.amount[0]) is not int or type(a.amount[1]) is not int):
            return None
        alloc.append({"amount": [a.amount[0], a.amount[1]],
                      "kind": a.kind, "target": a.target})
    checked, support = _str_list(c.checked), _str_list(c.support)
    if (type(c.alloc) is not list or checked is None or support is None
            or type(c.hex) is not str or type(c.hq) is not str):
        return None
    return {"alloc": alloc, "checked": checked, "hex": c.hex, "hq": c.hq, "support": support}


def position_normal(pos: Position) -> dict[str, Any] | None:
    """The position's canonical form (``canonical.normalize(codec.to_data(pos))``: maps in
    key order, sets in the order of their elements' canonical bytes, an amount pair as
    ``[numerator, denominator]``), made here where every field holds exactly its declared
    type; None for anything else, which the codec then writes, or refuses, as before."""
    if type(pos) is not Position:
        return None
    out: dict[str, Any] = {}
    for name in ("turn", "impulse_mp", "impulse_left_before", "seq"):
        if type(getattr(pos, name)) is not int:
            return None
    for name in ("phasing", "weather", "setup_side", "flieger", "passing"):
        if type(getattr(pos, name)) is not str:
            return None
    if type(pos.vl_released) is not bool or type(pos.vl_avoid) is not bool:
        return None
    units: dict[str, Any] = {}
    if type(pos.units) is not dict or not _strs(pos.units):
        return None
    for uid in sorted(pos.units):
        u = pos.units[uid]
        if type(u) is not U:
            return None
        # the unit's map made in one step, U's fields as keys in canonical order (tests/
        # white_death/test_position_written.py holds them to the codec's writing of every
        # position): a dict made from the names and the values zipped was 9 K
        # instructions of a unit's 21 K, 0.7 M of the one digest of every act and
        # receive (issue 35)
        one = {"assault": u.assault, "deployed": u.deployed, "entrained": u.entrained,
               "entry": u.entry, "garrison": u.garrison, "loc": u.loc, "marks": u.marks,
               "seq": u.seq, "spent": u.spent, "stopped": u.stopped,
               "strength": u.strength, "uid": u.uid, "via": u.via,
               "zoc_start": u.zoc_start}
        if tuple(map(type, one.values())) != _U_KINDS:
            return None
        if u.marks:  # most units' are empty
            marks = _str_set(u.marks)
            if marks is None:
                return None
            one["marks"] = marks
        else:
            one["marks"] = []
        units[uid] = one
    bunkers, schedule = pos.bunkers, pos.schedule
    if type(bunkers) is not list or any(
            type(b) is not Bunker or type(b.hex) is not str or type(b.strength) is not int
            for b in bunkers):
        return None
    if type(schedule) is not list or any(
            type(a) is not Arrival or type(a.turn) is not int or type(a.uid) is not str
            or type(a.area) is not str for a in schedule):
        return None
    combat = None if pos.combat is None else _combat_normal(pos.combat)
    plans = [_combat_normal(c) for c in pos.plans] if type(pos.plans) is list else [None]
    if (pos.combat is not None and combat is None) or None in plans:
        return None
    bar: dict[str, Any] | None = None
    if pos.bar is not None:
        b = pos.bar
        loss, bunits = _int_map(b.loss) if type(b) is Barrage else None, _str_list(b.units)
        if loss is None or bunits is None or type(b.hex) is not str:
            return None
        bar = {"hex": b.hex, "loss": loss, "units": bunits}
    phase: dict[str, Any] = {}
    if type(pos.barrage_phase) is not dict or not _strs(pos.barrage_phase):
        return None
    for k in sorted(pos.barrage_phase):
        p = pos.barrage_phase[k]
        if type(p) is not PhaseLoss or type(p.lost) is not int or type(p.start) is not int:
            return None
        phase[k] = {"lost": p.lost, "start": p.start}
    final: dict[str, Any] | None = None
    if pos.final is not None:
        f = pos.final
        score = _int_map(f.score) if type(f) is Final else None
        held = f.held if score is not None else None
        if held is None or type(held) is not dict or not _strs(held) or not _strs(
                held.values()):
            return None
        final = {"held": {k: held[k] for k in sorted(held)}, "score": score}
    maps = {name: _int_map(getattr(pos, name)) for name in (
        "mps", "impulses", "supply", "repl", "rail_used", "counts", "losses")}
    sets = {name: _str_set(getattr(pos, name)) for name in (
        "bridges", "builders", "garrisons", "paid")}
    lists = {name: _str_list(getattr(pos, name)) for name in (
        "combat_hexes", "setup_raster")}
    repaired = _bool_map(pos.repaired)
    assaults, advance = _lists_map(pos.assaults), _lists_map(pos.advance)
    if (None in maps.values() or None in sets.values() or None in lists.values()
            or repaired is None or assaults is None or advance is None):
        return None
    out.update(maps)
    out.update(sets)
    out.update(lists)
    out.update(
        turn=pos.turn, phasing=pos.phasing, impulse_mp=pos.impulse_mp,
        impulse_left_before=pos.impulse_left_before, weather=pos.weather,
        repaired=repaired, vl_released=pos.vl_released, vl_avoid=pos.vl_avoid,
        bunkers=[{"hex": b.hex, "strength": b.strength} for b in bunkers],
        units=units, schedule=[{"area": a.area, "turn": a.turn, "uid": a.uid}
                               for a in schedule],
        assaults=assaults, combat=combat, plans=plans, bar=bar, barrage_phase=phase,
        advance=advance, setup_side=pos.setup_side, flieger=pos.flieger,
        passing=pos.passing, seq=pos.seq, final=final)
    return {k: out[k] for k in sorted(out)}
