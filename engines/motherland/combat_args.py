"""The arguments of For the Motherland!'s combat steps that a turn command loads only when
one of their frames is read or made (results taken, steps lost, advances after combat):
apart from :mod:`engines.motherland.args` so that a legal listing at a retreat does not
make dataclasses it never uses (issue 35).  The strength chits' (kept, drawn) are kept
with the chit rules (:mod:`engines.motherland.chits`), which a retreat's act, loading
this module for its advance, never loads."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


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
