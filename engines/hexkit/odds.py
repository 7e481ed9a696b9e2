"""Odds ratios, differentials, column shifts and modified die rolls, in exact arithmetic.

Every rulebook here rounds odds "in favor of the defender": the column used is the
highest one whose ratio does not exceed the true ratio (15 to 4 is 3.75, so 3:1; 11
to 12 is below 1:1, so 1:2).  Doing this with :class:`fractions.Fraction` makes the
column the same on every machine, which the state digest requires.

Column shifts follow For the Motherland! 8.2: when the true odds are off the table,
shifting starts from the end column (9:1 with 2 left is 5:1 on a 7:1+ table; 1:5 with
2 right is 1:1 on a table starting at 1:3).  White Death's tables have no shifts but
use the same rounding (Rule 9: 29 against 10 is 2:1).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

# Fraction is imported where a value is made: importing fractions pulls decimal and costs a
# command 9 M instructions, and most commands of most games make no fraction (issue 35)
if TYPE_CHECKING:
    from fractions import Fraction

#: movement and combat quantities: whole numbers or exact fractions, never floats
Number: TypeAlias = "int | Fraction"

_FRACTION: list[type[Fraction]] = []


def fraction_type() -> type[Fraction]:
    """:class:`fractions.Fraction`, imported when first asked: a function that makes a
    fraction calls this rather than importing it, since an import statement run per
    call (a search unscales every hex it reaches) cost more than the import saved."""
    if not _FRACTION:
        from fractions import Fraction

        _FRACTION.append(Fraction)
    return _FRACTION[0]


# an odds column label's pattern, read by hand (:func:`_odds_terms`), not compiled: every
# command that resolves a combat reads its table's labels, and compiling this was 0.96 M
# instructions of it (issue 35); tests/kit/test_kit_odds.py holds the reading to re's
_ODDS = r"^\s*(?:<=|>=|≤|≥)?\s*(\d+)\s*:\s*(\d+)\s*([+-]?)\s*$"
# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_DIFF = r"^\s*(?:<=|>=|≤|≥)?\s*([+-]?\d+)\s*([+-]?)\s*$"


def _exact(x: Number, what: str) -> Fraction:
    Fraction = fraction_type()
    if isinstance(x, bool) or not isinstance(x, int | Fraction):
        raise TypeError(f"{what} must be an int or Fraction, not {type(x).__name__}")
    return Fraction(x)


def parse_odds(label: str) -> Fraction:
    """The ratio of a column label: ``"3:1"`` is 3, ``"1:2"`` is 1/2, ``"7:1+"`` is 7."""
    return fraction_type()(*_odds_terms(label))


def _odds_terms(label: str) -> tuple[int, int]:
    """A column label's two numbers: ``"1:2"`` is (1, 2)."""
    terms = _odds_read(label)
    if terms is None or terms[1] == 0:
        raise ValueError(f"{label!r} is not an odds column like '3:1' or '1:2'")
    return terms


def _odds_read(label: str) -> tuple[int, int] | None:
    """The two numbers :data:`_ODDS` matches in ``label``, or None where it does not:
    ``\\s`` is what ``str.strip`` takes away, ``\\d`` a character ``str.isdecimal``
    accepts (each Unicode's, as re's)."""
    text = label.strip()
    for lead in ("<=", ">=", "≤", "≥"):
        if text.startswith(lead):
            text = text[len(lead):].lstrip()
            break
    left, colon, right = text.partition(":")
    left, right = left.rstrip(), right.lstrip()
    if right[-1:] in ("+", "-"):
        right = right[:-1].rstrip()
    if not colon or not left.isdecimal() or not right.isdecimal():
        return None
    return int(left), int(right)


def parse_differential(label: str) -> int:
    """The value of a differential column label: ``"-3"``, ``"0"``, ``"+4"``, ``"+7+"``."""
    m = re.match(_DIFF, label)
    if not m:
        raise ValueError(f"{label!r} is not a differential column like '-2' or '+3'")
    return int(m.group(1))


def odds_ratio(attack: Number, defense: Number) -> Fraction | None:
    """Attack over defense exactly; ``None`` when the defense is zero (no ratio)."""
    a, d = _exact(attack, "attack"), _exact(defense, "defense")
    if a < 0 or d < 0:
        raise ValueError(f"negative strength {attack} to {defense}")
    return None if d == 0 else a / d


def simple_odds(attack: Number, defense: Number) -> str:
    """The ``a:1`` or ``1:d`` column of ``attack`` to ``defense``, rounded for the defender.

    For tables whose columns are only whole ratios (``1:4 ... 1:1 ... 6:1``):
    ``simple_odds(15, 4) == "3:1"``, ``simple_odds(11, 12) == "1:2"``.
    """
    ratio = odds_ratio(attack, defense)
    if ratio is None:
        raise ValueError("no odds against a defense of zero")
    if ratio >= 1:
        return f"{math.floor(ratio)}:1"
    if ratio == 0:
        raise ValueError("no odds for an attack of zero")
    return f"1:{math.ceil(1 / ratio)}"


@dataclass(frozen=True)
class Column:
    """A column picked on a table, with whether the true value ran off either end."""

    index: int
    label: str
    #: the true odds (or differential) were below the first column / above the last
    below: bool = False
    above: bool = False


def _pick(value: Fraction, keys: Sequence[Fraction], labels: Sequence[str]) -> Column:
    if not keys or list(keys) != sorted(keys) or len(set(keys)) != len(keys):
        raise ValueError(f"columns {list(labels)} must be strictly increasing")
    best = -1
    for i, k in enumerate(keys):
        if k <= value:
            best = i
    if best < 0:
        return Column(0, labels[0], below=True)
    return Column(best, labels[best], above=value > keys[-1])


def odds_column(attack: Number, defense: Number, labels: Sequence[str]) -> Column:
    """The odds column for ``attack`` to ``defense``: the highest not above the true ratio.

    Off the low end the first column comes back with ``below=True`` (a game decides
    what that means: For the Motherland! 7.2 makes an overrun below 1:3 an automatic
    A2).  Off the high end the last column comes back with ``above=True`` (a "7:1+"
    column covers it; a game whose last column does not may rule otherwise).  A
    defense of zero counts as above the table.
    """
    if type(attack) is int and type(defense) is int:
        return _whole_odds_column(attack, defense, labels)
    ratio = odds_ratio(attack, defense)
    keys = [parse_odds(lab) for lab in labels]
    if ratio is None:
        return Column(len(keys) - 1, labels[-1], above=True)
    return _pick(ratio, keys, labels)


def _whole_odds_column(attack: int, defense: int, labels: Sequence[str]) -> Column:
    """:func:`odds_column` of whole strengths (most games' always), comparing cross
    products: the same column as the exact ratio's, without making a Fraction (importing
    fractions was 9 M instructions of a command that resolves a combat; issue 35)."""
    if attack < 0 or defense < 0:
        raise ValueError(f"negative strength {attack} to {defense}")
    terms = [_odds_terms(lab) for lab in labels]
    if defense == 0:
        return Column(len(terms) - 1, labels[-1], above=True)
    # p/q < r/s exactly when p*s < r*q (every q, s > 0)
    if not terms or any(p * s >= r * q for (p, q), (r, s) in itertools.pairwise(terms)):
        raise ValueError(f"columns {list(labels)} must be strictly increasing")
    best = -1
    for i, (p, q) in enumerate(terms):
        if p * defense <= attack * q:  # p/q <= attack/defense
            best = i
    if best < 0:
        return Column(0, labels[0], below=True)
    p, q = terms[-1]
    return Column(best, labels[best], above=attack * q > p * defense)


def differential_column(attack: Number, defense: Number, labels: Sequence[str]) -> Column:
    """The differential column: ``attack - defense`` rounded down (for the defender)."""
    diff = _exact(attack, "attack") - _exact(defense, "defense")
    Fraction = fraction_type()
    keys = [Fraction(parse_differential(lab)) for lab in labels]
    return _pick(Fraction(math.floor(diff)), keys, labels)


def threshold_column(value: Number, bounds: Sequence[Number],
                     labels: Sequence[str] | None = None) -> Column:
    """The column whose lower bound is the highest not above ``value``.

    For tables indexed by a total rather than a ratio: White Death's Barrage Table by
    total barrage value (Rule 11.B.2.A: "the 20-29 column"), given by each column's
    lowest value (``[1, 3, 6, 10, 20, 30]``).
    """
    keys = [_exact(b, "bound") for b in bounds]
    names = list(labels) if labels is not None else [str(b) for b in bounds]
    if len(names) != len(keys):
        raise ValueError(f"{len(names)} labels for {len(keys)} columns")
    return _pick(_exact(value, "value"), keys, names)


def shift_column(column: Column, shift: int, labels: Sequence[str]) -> Column:
    """Move ``shift`` columns right (positive, toward the attacker) or left, clamped.

    The start is the column already clamped to the table, so odds off the table shift
    from the end column as For the Motherland! 8.2 requires.
    """
    i = min(max(column.index + shift, 0), len(labels) - 1)
    if shift == 0:
        return column
    return Column(i, labels[i])


def modified_roll(roll: int, modifiers: Iterable[int] = (), *, low: int | None = None,
                  high: int | None = None) -> int:
    """A die roll plus cumulative modifiers, capped at ``low``/``high`` where the rule says.

    For the Motherland! 8.2.1: "If a modified die roll is greater than 9, it is treated
    as 9" is ``modified_roll(r, mods, high=9)``.
    """
    value = roll + sum(modifiers)
    if high is not None and value > high:
        value = high
    if low is not None and value < low:
        value = low
    return value
