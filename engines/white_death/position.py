"""The White Death position as typed data: everything the rules read and write that a save
holds, apart from the frames of the sequence of play (the step runtime's ``stack``).

Each field says what it holds in the book's terms, with the rule that reads it. What the
map and the catalog say (terrain, the order of battle, the scenario) is not here: it never
changes in play. Nor are the state's caches (``_cache``, ``_pcache``, ``_static`` ...):
they are worked out again from these fields.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engines.white_death.data import UnitDef


@dataclass(slots=True)
class U:
    """A unit's changing state (its fixed data is in the catalog)."""

    #: the unit's id (the catalog's key; an intrinsic garrison's is its hex, Rule 19)
    uid: str
    #: the hex it stands in, or the box it is in off the map: "pending" (not yet entered,
    #: Rule 17), "raster" (a Soviet reserve, Rule 17.C), "dead", "refit" (Rule 18),
    #: "setup" (still to be placed, Rule 22)
    loc: str
    #: strength points left (Rules 9, 10: losses are taken in SPs)
    strength: int
    #: a German unit deployed for defense (Rule 6.D: it does not move this turn)
    deployed: bool = False
    #: movement points spent in this impulse (Rule 6; Rule 7's half-MP costs make it a
    #: fraction)
    spent: Fraction = Fraction(0)
    #: it may not move again this impulse (entered an enemy ZOC, Rule 3; used rail, Rule 8)
    stopped: bool = False
    #: it began the impulse in an enemy ZOC (Rule 3.A: it may leave it only so)
    zoc_start: bool = False
    #: on a train (Rule 8: 25 SP a turn per side)
    entrained: bool = False
    #: the hexside it last entered by (Rule 16.B's entry side on the lakes), "" none
    via: str = ""
    #: the garrison it is (Rule 19: "town" or "" for none)
    garrison: str = ""
    #: when it entered its hex: its place in the hex's stacking order (Rule 4)
    seq: int = 0
    #: the hex it declared an assault on this impulse (Rule 9), "" none
    assault: str = ""
    #: the hex it entered this impulse from (Rule 11.A's advance, Rule 16.B), "" none
    entry: str = ""
    #: the rule markers it carries this turn (disrupted, fired, moved ...: Rules 9-12)
    marks: set[str] = field(default_factory=set)

    def copy(self) -> U:
        return U(self.uid, self.loc, self.strength, self.deployed, self.spent, self.stopped,
                 self.zoc_start, self.entrained, self.via, self.garrison, self.seq,
                 self.assault, self.entry, set(self.marks))


_IMMUTABLE = (str, int, bool, Fraction, bytes, type(None))


def _copy(v: Any) -> Any:
    """A deep copy of free-form position data (dicts and lists of strings and numbers)."""
    if isinstance(v, _IMMUTABLE):
        return v
    kind = type(v)
    if kind is dict:
        return {k: _copy(x) for k, x in v.items()}
    if kind is list:
        return [_copy(x) for x in v]
    if kind is tuple:
        return tuple(_copy(x) for x in v)
    if kind is set:
        return set(v)
    return copy.deepcopy(v)


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
    #: the phasing side's MPs before this impulse (Rule 5's consecutive impulses)
    impulse_left_before: int = 0
    #: impulses each side has had this turn (Rule 5)
    impulses: dict[str, int] = field(default_factory=_side_ints)
    #: this turn's weather (Rule 16: "clear", "thaw" ...)
    weather: str = "clear"
    #: supply points: each side's and Velikiye Luki's own ("vl", Rule 15)
    supply: dict[str, int] = field(default_factory=lambda: {"soviet": 0, "german": 0,
                                                            "vl": 0})
    #: replacement points each side holds (Rule 18)
    repl: dict[str, int] = field(default_factory=_side_ints)
    #: rail capacity used this turn, in SPs (Rule 8: 25 a turn)
    rail_used: dict[str, int] = field(default_factory=_side_ints)
    #: each side has repaired rail this turn (Rule 8)
    repaired: dict[str, bool] = field(default_factory=lambda: {"soviet": False,
                                                               "german": False})
    #: the Velikiye Luki garrison is released (Rule 22's opening: held until rolled for)
    vl_released: bool = False
    #: the German player spent a VL supply point against isolation this turn (Rule 15)
    vl_avoid: bool = False
    #: the bunkers: ``[hex, strength]`` each (Rule 19)
    bunkers: list[list[Any]] = field(default_factory=list)
    #: hexes whose bridge is built (Rule 20)
    bridges: set[str] = field(default_factory=set)
    #: the hexes an engineer is building a bridge in (Rule 20)
    builders: set[str] = field(default_factory=set)
    #: every unit's changing state, by id (Rule 2)
    units: dict[str, U] = field(default_factory=dict)
    #: the intrinsic garrisons (Rule 19), by hex: each is a unit made in play
    garrison_types: dict[str, UnitDef] = field(default_factory=dict)
    #: reinforcements still to come: ``[turn, uid, area]`` each (Rule 17)
    schedule: list[list[Any]] = field(default_factory=list)
    #: the assaults declared this impulse: the hex assaulted -> the assaulting units
    #: (Rule 9)
    assaults: dict[str, list[str]] = field(default_factory=dict)
    #: the assault being resolved (Rules 9-11.A), {} none
    combat: dict[str, Any] = field(default_factory=dict)
    #: the assaulted hexes still to resolve, in order (Rule 9)
    combat_hexes: list[str] = field(default_factory=list)
    #: the assault plans made and not yet resolved (the manual's RESOLVE), in hex order
    plans: list[dict[str, Any]] = field(default_factory=list)
    #: hexes whose supply cost was paid this impulse (Rule 15)
    paid: set[str] = field(default_factory=set)
    #: the barrage being resolved (Rule 11.B), {} none
    bar: dict[str, Any] = field(default_factory=dict)
    #: units barraged this phase: uid -> [strength at first, lost] (Rule 11.B)
    barrage_phase: dict[str, list[int]] = field(default_factory=dict)
    #: the hexes the phasing side may advance into -> the units that may (Rule 11.A)
    advance: dict[str, list[str]] = field(default_factory=dict)
    #: per-hex counters of the fire being resolved (Rules 9, 10)
    counts: dict[str, int] = field(default_factory=dict)
    #: the SPs each side has lost (Rule 22's victory)
    losses: dict[str, int] = field(default_factory=_side_ints)
    #: the side setting up (Rule 22's campaign setup), "" none
    setup_side: str = ""
    #: the units it has still to place (Rule 22)
    setup_raster: list[str] = field(default_factory=list)
    #: the Flieger die (Rule 17): "", "rolled", "answer-due"
    flieger: str = ""
    #: a unit moving through a full hex (Rule 4), "" none
    passing: str = ""
    #: the last stacking-order number given (Rule 4: a unit entering goes on top)
    seq: int = 0
    #: the result once the game has ended (Rule 22), {} while it goes on
    final: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Position:
        """A copy sharing nothing mutable (a clone's position)."""
        return Position(
            self.turn, self.phasing, dict(self.mps), self.impulse_mp,
            self.impulse_left_before, dict(self.impulses), self.weather, dict(self.supply),
            dict(self.repl), dict(self.rail_used), dict(self.repaired), self.vl_released,
            self.vl_avoid, [list(b) for b in self.bunkers], set(self.bridges),
            set(self.builders), {k: u.copy() for k, u in self.units.items()},
            dict(self.garrison_types), [list(r) for r in self.schedule],
            {k: list(v) for k, v in self.assaults.items()}, _copy(self.combat),
            list(self.combat_hexes), _copy(self.plans), set(self.paid), _copy(self.bar),
            {k: list(v) for k, v in self.barrage_phase.items()},
            {k: list(v) for k, v in self.advance.items()}, dict(self.counts),
            dict(self.losses), self.setup_side, list(self.setup_raster), self.flieger,
            self.passing, self.seq, _copy(self.final))
