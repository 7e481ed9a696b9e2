"""Mortain Counterattack's position: what a snapshot saves, typed."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engines.mortain.data import SIDES, rules


class Status(enum.Enum):
    OFF = "off"  # not yet set up (US) or not yet entered (German)
    MAP = "map"
    ELIMINATED = "eliminated"
    EXITED = "exited"  # 19.1


@dataclass
class Unit:
    """A unit's status (not yet on the map, on it, eliminated or exited), its hex, and
    whether it is depleted."""

    status: Status = Status.OFF
    hex: str = ""
    depleted: bool = False


@dataclass
class Combat:
    """One attack or bombardment in progress (S7, S8)."""

    target: str
    bombard: bool = False
    attackers: list[str] = field(default_factory=list)
    #: where each attacker stood (advance after combat comes from there)
    att_chits: list[int] = field(default_factory=list)
    def_chits: list[int] = field(default_factory=list)
    result: str = ""
    #: attackers still to retreat (A1-A3 when the attacker chose to retreat)
    retreating: list[str] = field(default_factory=list)


@dataclass
class Position:
    """The game's state between actions: turn and phase, units, this phase's moves and
    attacks, support fire markers, and the one combat under way."""

    turn: int
    last_turn: int
    phasing: str
    phase: str  # setup, movement, combat, mobile
    units: dict[str, Unit]
    #: units that have moved (or may not move again) in this phase
    moved: set[str] = field(default_factory=set)
    #: half movement points left to units that entered this phase (11.0)
    mp_left: dict[str, int] = field(default_factory=dict)
    #: the arrival standing where it may not end its move (11.0 stacked, 17.0 on turn 1),
    #: which moves on before anything else happens
    arriving: str = ""
    #: units that attacked and hexes attacked in this combat phase (S7.1)
    attacked: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)
    #: support fire markers held this turn (16.0), by side
    chits: dict[str, list[int]] = field(default_factory=dict)
    allotment: dict[str, int] = field(default_factory=dict)
    #: 15.0: a US unit began this game turn on Hill 317
    hill_317: bool = False
    #: 11.2 / 11.3: the sides that have used their one replacement
    replaced: set[str] = field(default_factory=set)
    #: 19.0: the side last to occupy each Mortain hex
    mortain: dict[str, str] = field(default_factory=dict)
    #: demolished bridges (14.2), as "A/B"
    demolished: set[str] = field(default_factory=set)
    combat: Combat | None = None
    winner: str = ""


@dataclass(frozen=True)
class Phase:
    """A movement step's argument: the mobile movement phase (S4) or not (S3)."""

    mobile: bool = False


@dataclass(frozen=True)
class Side:
    """The side a step of both player turns works for (10.1)."""

    side: str = "german"


def new_position(scenario: str) -> Position:
    r = rules()
    return Position(
        turn=1, last_turn=r.last_turn, phasing="us", phase="setup",
        units={u: Unit() for u in r.order},
        chits={side: [] for side in SIDES}, allotment={side: 0 for side in SIDES})
