"""The arguments of For the Motherland!'s combat steps that a turn command loads only when
one of their frames is read or made (strength chits kept and drawn, results taken, steps
lost, advances after combat): apart from :mod:`engines.motherland.args` so that a legal
listing at a retreat does not make five dataclasses it never uses (issue 35)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


@dataclass
class KeepArgs:
    """The strength chits drawn for an army, one to keep (16.5)."""

    unit: str = ""
    drawn: list[str] = field(default_factory=list)


@dataclass
class TakeArgs:
    """A combat result to take (8.5): the side, the steps, the units in the hex, those
    stuck, the side's role and the result's code."""

    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    role: str = ""
    code: str = ""


@dataclass
class LoseArgs:
    """Step losses to allocate (8.5.1): the side, how many, the units, what each has lost
    so far, and why."""

    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    taken: dict[str, int] = field(default_factory=dict)
    why: str = "combat result (8.5)"


@dataclass
class AdvanceArgs:
    """An advance after combat (8.7): the side, the units that may advance, how far, and
    who has moved."""

    side: str = AXIS
    units: list[str] = field(default_factory=list)
    n: int = 0
    first: list[str] = field(default_factory=list)
    moved: dict[str, int] = field(default_factory=dict)


@dataclass
class DrawArgs:
    """A draw of strength chits for a unit: its letter, how many, and the rule that calls
    for it (11.1)."""

    unit: str = ""
    letter: str = ""
    count: int = 1
    rule: str = "11.1"
