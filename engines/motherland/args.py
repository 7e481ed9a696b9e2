"""The arguments of For the Motherland!'s step frames (kept in the snapshot through
pbem.codec): what a step and the rules it calls share about one piece of queued work."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


@dataclass
class GameArgs:
    started: bool = False


@dataclass(frozen=True)
class PhaseArgs:
    index: int = 0  # 3.1: the phase's place in the turn (MotherlandState.phases)


@dataclass
class SideArgs:
    side: str = AXIS


@dataclass
class MoveArgs:
    side: str = AXIS
    exploit: bool = False


@dataclass
class UnitsArgs:
    units: list[str] = field(default_factory=list)


@dataclass
class UnitArgs:
    unit: str = ""


@dataclass
class KeepArgs:
    unit: str = ""
    drawn: list[str] = field(default_factory=list)


@dataclass
class TakeArgs:
    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    role: str = ""
    code: str = ""


@dataclass
class LoseArgs:
    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    taken: dict[str, int] = field(default_factory=dict)
    why: str = "combat result (8.5)"


@dataclass
class RetreatArgs:
    side: str = AXIS
    center: str = ""
    role: str = ""
    left: dict[str, int] = field(default_factory=dict)


@dataclass
class AdvanceArgs:
    side: str = AXIS
    units: list[str] = field(default_factory=list)
    n: int = 0
    first: list[str] = field(default_factory=list)
    moved: dict[str, int] = field(default_factory=dict)


@dataclass
class HexArgs:
    side: str = AXIS
    hex: str = ""


@dataclass
class CountArgs:
    side: str = AXIS
    hex: str = ""
    n: int = 0


@dataclass
class PlaceArgs:
    moved: list[str] = field(default_factory=list)


@dataclass
class ReplaceArgs:
    i: int = 0
    p: int = 0
    fin: bool = False


@dataclass
class NArgs:
    n: int = 0


@dataclass
class ApplySideArgs:
    side: str = AXIS
    role: str = ""
    mand: int = 0
    n: int = 0
    elim: bool = False


@dataclass
class RoleArgs:
    role: str = ""


@dataclass
class StuckArgs:
    units: list[str] = field(default_factory=list)
    n: int = 0


@dataclass
class RollArgs:
    purpose: str = ""
    unit: str = ""
    hex: str = ""
    p: str = ""
    supplied: bool = False


@dataclass
class DrawArgs:
    unit: str = ""
    letter: str = ""
    count: int = 1
    rule: str = "11.1"
