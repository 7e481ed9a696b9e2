"""The arguments of the step frames only the Movement, Supply and Administrative Phases
make (5.0 movement and 5.4 exploitation, 6.0 overstacking, 9.1.3 isolation, 10.0
partisans, 12.0 production and evacuation, 15.1 replacements, 21.1.2 Baku), kept in the
snapshot through pbem.codec as ``args.py``'s are: apart from them, so that a Combat Phase
turn loads none of these classes (issue 35: a dataclass is about 0.2 M instructions to
make)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


@dataclass
class MoveArgs:
    """The moving side, and whether this is exploitation movement."""

    side: str = AXIS
    exploit: bool = False


@dataclass
class UnitArgs:
    """The unit a step is about (the unit produced, 12.1)."""

    unit: str = ""


@dataclass
class HexArgs:
    """The side and the hex a step is about (overstacking, 6.0)."""

    side: str = AXIS
    hex: str = ""


@dataclass
class CountArgs:
    """The side, the hex and the count a step works to (isolation, 9.1.3; partisans out
    of supply, 10.1)."""

    side: str = AXIS
    hex: str = ""
    n: int = 0


@dataclass
class PlaceArgs:
    """The partisans placed so far this phase."""

    moved: list[str] = field(default_factory=list)


@dataclass
class ReplaceArgs:
    """Replacements (15.1): where the step is in the list, the points left, and whether
    it is finishing."""

    i: int = 0
    p: int = 0
    fin: bool = False


@dataclass
class NArgs:
    """A roll's number, for the step it sets (Baku's factories, 21.1.2)."""

    n: int = 0
