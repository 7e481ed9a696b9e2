"""The arguments of For the Motherland!'s advance after combat (8.7), loaded only when one
of its frames is read or made: apart from :mod:`engines.motherland.args` so that a legal
listing at a retreat does not make a dataclass it never uses (issue 35).  The strength
chits' (kept, drawn) are kept with the chit rules (:mod:`engines.motherland.chits`), a
result's to take and the step losses' with the combat rules
(:mod:`engines.motherland.combat`), which make their frames: a retreat's act, loading
this module for its advance, loads neither."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.motherland.const import AXIS


@dataclass
class AdvanceArgs:
    """An advance after combat (8.7): the side, the units that may advance, how far, and
    who has moved."""

    side: str = AXIS
    units: list[str] = field(default_factory=list)
    n: int = 0
    first: list[str] = field(default_factory=list)
    moved: dict[str, int] = field(default_factory=dict)
