"""The arguments of For the Motherland!'s step frames (kept in the snapshot through
pbem.codec): what a step and the rules it calls share about one piece of queued work."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

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


# A frame's arguments read and written by hand (a turn command's restore reads the eight
# or so frames of its stack, and its digests write them): pbem.codec resolved each Args
# class's annotations and built its reader and its writer at their first use, about
# 2 M instructions of every command that loads a game (issue 35).  Only fields of the
# types below, whose data is the value itself (a list and a map copied); any other class,
# or data not of exactly these types, goes the codec's way.

_STR = frozenset({str})
_INT = frozenset({int})


def _one(kind: type) -> Any:
    return lambda v: v if type(v) is kind else None


def _str_list(v: Any) -> list[str] | None:
    return list(v) if type(v) is list and set(map(type, v)) <= _STR else None


def _int_map(v: Any) -> dict[str, int] | None:
    if type(v) is not dict or not set(map(type, v)) <= _STR or \
            not set(map(type, v.values())) <= _INT:
        return None
    return dict(v)


#: per annotation as the Args modules write it (a string: they use postponed
#: annotations), the value a field's data stands for, or None for data not of its type
_READ = {"str": _one(str), "int": _one(int), "bool": _one(bool), "list[str]": _str_list,
         "dict[str, int]": _int_map}
#: per Args class, its fields' names and readers, or None for a class the codec reads
_SPECS: dict[type, tuple[frozenset[str], tuple[tuple[str, Any], ...]] | None] = {}


def _spec(cls: type) -> tuple[frozenset[str], tuple[tuple[str, Any], ...]] | None:
    if cls in _SPECS:
        return _SPECS[cls]
    spec = None
    try:
        made = fields(cls)
    except TypeError:  # not a dataclass: the codec says so
        made = None
    if made is not None and all(f.init and not f.name.startswith("_") and f.type in _READ
                                for f in made):
        spec = (frozenset(f.name for f in made),
                tuple((f.name, _READ[f.type]) for f in made))  # type: ignore[index]
    _SPECS[cls] = spec
    return spec


def args_from_data(cls: type, data: Any) -> Any:
    """The arguments of class ``cls`` that pbem.codec reads from ``data``, or None where
    ``cls`` or ``data`` is not of the plain kinds above (every field given, each of
    exactly its type): the codec then reads them, or names what is wrong."""
    spec = _spec(cls)
    if spec is None or type(data) is not dict or data.keys() != spec[0]:
        return None
    values = {}
    for name, read in spec[1]:
        value = read(data[name])
        if value is None:
            return None
        values[name] = value
    return cls(**values)


def args_data(cls: type, args: Any) -> dict[str, Any] | None:
    """The data pbem.codec writes for ``args`` as arguments of class ``cls`` (its fields
    in their order, a list and a map copied), or None where they are not of exactly the
    kinds above: the codec then writes them, or names what is wrong."""
    spec = _spec(cls)
    if spec is None or type(args) is not cls:
        return None
    out = {}
    for name, read in spec[1]:
        value = read(getattr(args, name))
        if value is None:
            return None
        out[name] = value
    return out


def args_copy(cls: type, args: Any) -> Any:
    """A copy of ``args`` as arguments of class ``cls`` sharing nothing that changes (a
    list and a map copied), as pbem.typedcopy copies them, or None where they are not of
    exactly the kinds above (typedcopy then copies them): a clone copied its frames'
    arguments by typedcopy, whose copiers, derived from each class's type hints by the
    codec, were 2.7 M instructions of every act (issue 35)."""
    spec = _spec(cls)
    if spec is None or type(args) is not cls:
        return None
    values = {}
    for name, read in spec[1]:
        value = read(getattr(args, name))
        if value is None:
            return None
        values[name] = value
    return cls(**values)
