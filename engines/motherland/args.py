"""The arguments of For the Motherland!'s step frames (kept in the snapshot through
pbem.codec): what a step and the rules it calls share about one piece of queued work."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


@dataclass
class GameArgs:
    """The game frame's argument: whether the first turn has begun."""

    started: bool = False


@dataclass(frozen=True)
class PhaseArgs:
    """The phase's place in the turn (3.1)."""

    index: int = 0  # 3.1: the phase's place in the turn (MotherlandState.phases)


@dataclass
class SideArgs:
    """The side a step works for (arrivals, reinforcements, combat)."""

    side: str = AXIS


@dataclass
class MoveArgs:
    """The moving side, and whether this is exploitation movement."""

    side: str = AXIS
    exploit: bool = False


@dataclass
class UnitsArgs:
    """The units a step works through (generals, chit draws)."""

    units: list[str] = field(default_factory=list)


@dataclass
class RetreatArgs:
    """A retreat (8.6.1): the side, the hex it leaves, its role in the combat, and the
    hexes still to go by unit."""

    side: str = AXIS
    center: str = ""
    role: str = ""
    left: dict[str, int] = field(default_factory=dict)


@dataclass
class ApplySideArgs:
    """One side's combat result to apply (8.5): its role, the mandatory and further
    losses, and whether it is eliminated."""

    side: str = AXIS
    role: str = ""
    mand: int = 0
    n: int = 0
    elim: bool = False


@dataclass
class RoleArgs:
    """The side's role in the combat (attacker or defender) whose advance begins (8.7)."""

    role: str = ""


@dataclass
class StuckArgs:
    """Units that cannot retreat and the steps they lose instead (8.5.1)."""

    units: list[str] = field(default_factory=list)
    n: int = 0


@dataclass
class RollArgs:
    """What a roll is for: its purpose, and the unit, hex and side it concerns."""

    purpose: str = ""
    unit: str = ""
    hex: str = ""
    p: str = ""
    supplied: bool = False
