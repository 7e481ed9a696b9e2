"""The arguments of For the Motherland!'s step frames (kept in the snapshot through
pbem.codec): what a step and the rules it calls share about one piece of queued work.

The classes only one phase's steps or one rule module make are kept with them instead
(``phase_args.py``, ``chits.py``, ``combat.py``, ``combat_args.py``): a command that reads
no frame of theirs does not make them (issue 35: about 0.2 M instructions a dataclass)."""

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
class RetreatArgs:
    """A retreat (8.6.1): the side, the hex it leaves, its role in the combat, and the
    hexes still to go by unit."""

    side: str = AXIS
    center: str = ""
    role: str = ""
    left: dict[str, int] = field(default_factory=dict)


@dataclass
class RoleArgs:
    """The side's role in the combat (attacker or defender) whose advance begins (8.7)."""

    role: str = ""


@dataclass
class RollArgs:
    """What a roll is for: its purpose, and the unit, hex and side it concerns."""

    purpose: str = ""
    unit: str = ""
    hex: str = ""
    p: str = ""
    supplied: bool = False
