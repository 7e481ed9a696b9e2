"""For the Motherland! actions and their text notation (both ways).

The structured actions (movement, combat, results, retreat, advance) are frozen
dataclasses; every other choice (a step loss, a chit to keep, a base to expend, the end
of a phase...) is a :class:`Word`, whose text the state checks against its list of
legal choices.  ``parse_action(a.notation()) == a`` holds for every action.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pbem.engine import Action
from pbem.errors import ActionSyntaxError

_HEX = r"\d{4}"
_ID = r"[A-Za-z0-9][A-Za-z0-9*_.-]*"


@dataclass(frozen=True)
class Move(Action):
    """Regular or exploitation movement of one unit along ``path`` (start hex first)."""

    unit: str
    path: tuple[str, ...]

    def notation(self) -> str:
        return f"move {self.unit} {' '.join(self.path)}"


@dataclass(frozen=True)
class Strategic(Action):
    """Strategic movement (5.3) along ``path`` (start hex first), up to 15 hexes."""

    unit: str
    path: tuple[str, ...]

    def notation(self) -> str:
        return f"strategic {self.unit} {' '.join(self.path)}"


@dataclass(frozen=True)
class Attack(Action):
    """A regular attack (8.1) on ``target`` by ``units``, with the supports declared (step 3)."""

    target: str
    units: tuple[str, ...]
    air: bool = False
    rrgun: bool = False

    def notation(self) -> str:
        s = f"attack {self.target} with {' '.join(self.units)}"
        if self.air:
            s += " and air"
        if self.rrgun:
            s += " and railroad gun"
        return s


@dataclass(frozen=True)
class Overrun(Action):
    """An overrun (7.1) of ``target`` by ``units`` standing together in one adjacent hex."""

    target: str
    units: tuple[str, ...]
    air: bool = False

    def notation(self) -> str:
        return f"overrun {self.target} with {' '.join(self.units)}" + (" and air" if self.air
                                                                        else "")


@dataclass(frozen=True)
class Take(Action):
    """How a numeric result is taken (8.5): ``steps`` step losses and ``retreats`` hexes."""

    result: str
    steps: int
    retreats: int

    def notation(self) -> str:
        return f"take {self.result} as {self.steps} step {self.retreats} retreat"


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat ``units`` (standing together) one hex, into ``dest`` (8.6)."""

    units: tuple[str, ...]
    dest: str

    def notation(self) -> str:
        return f"retreat {' '.join(self.units)} to {self.dest}"


@dataclass(frozen=True)
class Advance(Action):
    """Advance after combat of one unit by one hex (8.7)."""

    unit: str
    dest: str

    def notation(self) -> str:
        return f"advance {self.unit} {self.dest}"


@dataclass(frozen=True)
class Word(Action):
    """Any other choice, in words: ``lose 41Pz``, ``end movement``, ``keep C3-3* for 12A``."""

    text: str

    def notation(self) -> str:
        return self.text


#: each notation's pattern, by the first word a text of it begins with (no two kinds share
#: one: the patterns are anchored on these words), compiled the first time a text needs it:
#: compiling all six at import was a tenth of the engine's import, paid by every command
#: (issue 19) though ``legal`` parses none and a file's actions need two or three kinds
_SOURCES = {
    "move": rf"^(move|strategic) ({_ID})((?: {_HEX})+)$",
    "attack": rf"^(attack|overrun) ({_HEX}) with((?: (?!and\b){_ID})+)( and air)?"
              rf"( and railroad gun)?$",
    "take": r"^take ([A-Z0-9/]+) as (\d+) step (\d+) retreat$",
    "retreat": rf"^retreat((?: {_ID})+) to ({_HEX})$",
    "advance": rf"^advance ({_ID}) ({_HEX})$",
    "words": (
        r"^(end (movement|combat|exploitation|advance|reinforcements|expending|air supply|"
        r"partisans|conversions|combining|replacements|evacuation|generals|setup)|"
        rf"place {_ID} {_HEX}|ship(?: {_ID})+ to {_HEX}|lose {_ID}|eliminate {_ID}|"
        rf"general [A-Za-z]+ for {_ID}|general [A-Za-z]+ replaces chit of {_ID}|"
        rf"keep {_ID} for {_ID}|expend {_ID}|air supply {_ID}|out of supply {_ID}|"
        rf"partisan [A-Za-z]+ to {_ID}|convert {_ID} to {_ID}|combine {_ID} {_ID}|"
        rf"replace {_ID}|produce {_ID} at {_HEX}|evacuate {_ID}|baku factory {_ID}|"
        rf"baku {_ID}|isolation loss {_ID})$"),
}
_KIND = {"move": "move", "strategic": "move", "attack": "attack", "overrun": "attack",
         "take": "take", "retreat": "retreat", "advance": "advance"}


@functools.cache
def _pattern(kind: str) -> re.Pattern[str]:
    return re.compile(_SOURCES[kind])


def parse(text: str) -> Action:
    """Parse one action in the engine's notation (see the engine page for the grammar)."""
    if text != text.strip() or "  " in text:
        raise ActionSyntaxError(f"{text!r}: extra spaces")
    kind = _KIND.get(text.split(" ", 1)[0], "words")
    m = _pattern(kind).match(text)
    if m is None:
        pass
    elif kind == "move":
        path = tuple(m.group(3).split())
        if len(path) < 2:
            raise ActionSyntaxError(f"{text!r}: a move needs a start hex and a destination")
        cls = Move if m.group(1) == "move" else Strategic
        return cls(m.group(2), path)
    elif kind == "attack":
        units = tuple(m.group(3).split())
        if m.group(1) == "attack":
            return Attack(m.group(2), units, bool(m.group(4)), bool(m.group(5)))
        if m.group(5):
            raise ActionSyntaxError(f"{text!r}: 16.2.1 the Railroad Gun never supports an overrun")
        return Overrun(m.group(2), units, bool(m.group(4)))
    elif kind == "take":
        return Take(m.group(1), int(m.group(2)), int(m.group(3)))
    elif kind == "retreat":
        return Retreat(tuple(m.group(1).split()), m.group(2))
    elif kind == "advance":
        return Advance(m.group(1), m.group(2))
    else:
        return Word(text)
    raise ActionSyntaxError(f"{text!r} is not a For the Motherland! action")
