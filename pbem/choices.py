"""A decision's options as a player thinks of them: units, then what each unit may do.

Mortain's German turn 1 offers 526 actions and the US movement some 2,500; listed one a
line they are a wall no player reads.  Grouped here by the unit each names (as its
counter prints it: designation and factors), a decision is a screen of units with counts,
and one unit's options fold the hexes it may go to into one wrapped line per verb.
Engine-agnostic: the unit of an action is the first of its words that
:meth:`pbem.engine.State.counters` knows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine import State


@dataclass(frozen=True)
class UnitChoices:
    """One unit's options in a decision."""

    unit: str
    #: what its counter prints ("I/2 3-3-10"), '' when the engine names none
    counter: str
    #: the hex it stands in, '' when it is not on the map (to enter, to set up)
    at: str
    actions: tuple[str, ...]

    def verbs(self) -> str:
        """``"move 14, exit 1"``: each kind of action and how many, in first-seen order."""
        counts: dict[str, int] = {}
        for text in self.actions:
            verb = text.split()[0]
            counts[verb] = counts.get(verb, 0) + 1
        return ", ".join(f"{verb} {n}" for verb, n in counts.items())

    def title(self) -> str:
        """``"G01 I/2 3-3-10 at 3201"``: the unit as its counter reads, and where."""
        named = self.counter.split()[:1] == [self.unit]
        words = ["" if named else self.unit, self.counter, f"at {self.at}" if self.at else ""]
        return " ".join(w for w in words if w)


@dataclass(frozen=True)
class Grouped:
    """A decision's actions: those naming a unit of ours by unit, then the rest."""

    units: tuple[UnitChoices, ...]
    others: tuple[str, ...]

    def find(self, token: str) -> UnitChoices | None:
        return next((u for u in self.units if u.unit == token), None)


def group(state: State, side: str, actions: Sequence[str]) -> Grouped:
    """``actions`` (notations) grouped by the first unit each names, units in the order
    the engine lists its counters."""
    counters = state.counters(side)
    view = state.view(side)
    at = {p.id: p.location for p in view.pieces if not p.hidden}
    cells = {c.hex for c in view.cells}
    by_unit: dict[str, list[str]] = {}
    others: list[str] = []
    for text in actions:
        unit = next((w for w in text.split() if w in counters), None)
        if unit is None:
            others.append(text)
        else:
            by_unit.setdefault(unit, []).append(text)
    # in the engine's order of its units, not the actions': a unit's number in the list
    # stays the same while it enters, moves and attacks
    units = tuple(UnitChoices(u, counters[u], at[u] if at.get(u) in cells else "",
                              tuple(by_unit[u])) for u in counters if u in by_unit)
    return Grouped(units, tuple(others))


def unit_table(grouped: Grouped) -> list[str]:
    """One line a unit, aligned: ``G01  I/2 3-3-10      enter 21``."""
    if not grouped.units:
        return []
    width = max(len(u.title()) for u in grouped.units)
    return [f"{u.title():<{width}}  {u.verbs()}" for u in grouped.units]


def folded(actions: Sequence[str], width: int = 96, cells: frozenset[str] = frozenset()
           ) -> list[str]:
    """Actions that differ only in one hex folded into one wrapped line each:
    ``move G01 HEX: 3201 3202 ...``.  An action no other shares a shape with stays as it
    is.  ``cells`` are the map's hexes (a word that is one is the varying part)."""
    shapes: dict[str, list[str]] = {}
    order: list[str] = []
    for text in actions:
        words = text.split()
        spot = next((i for i in range(len(words) - 1, 0, -1) if words[i] in cells), None)
        if spot is None:
            key, value = text, ""
        else:
            key = " ".join([*words[:spot], "HEX", *words[spot + 1:]])
            value = words[spot]
        if key not in shapes:
            shapes[key] = []
            order.append(key)
        shapes[key].append(value or text)
    lines: list[str] = []
    for key in order:
        values = shapes[key]
        if "HEX" not in key.split() or len(values) < 3:
            lines += [key.replace("HEX", v) if "HEX" in key.split() else v for v in values]
            continue
        lines += textwrap.wrap(f"{key} ({len(values)} hexes): {' '.join(values)}",
                               width=width, subsequent_indent="    ")
    return lines


def count_words(n: int, one: str, many: str | None = None) -> str:
    """``"1 hex"``, ``"2 hexes"``: a count with its noun agreeing."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
