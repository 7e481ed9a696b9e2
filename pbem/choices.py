"""A decision's options as a player thinks of them: units, then what each unit may do.

Mortain's German turn 1 offers 526 actions and the US movement some 2,500; listed one a
line they are a wall no player reads.  Grouped here by the unit each names (as its
counter prints it: designation and factors), a decision is a screen of units with counts,
and one unit's options fold the hexes it may go to into one wrapped line per verb.
Engine-agnostic: the unit of an action is the first unit its typed arguments name, where
the engine parses its actions with the grammar (:func:`pbem.grammar.units_of`); else the
first of its words that :meth:`pbem.engine.State.counters` knows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.engine import Action, State, TextAction
from pbem.errors import ActionSyntaxError, IllegalAction, UsageError
from pbem.grammar import Act, hexes_of, units_of
from pbem.text import safe

if TYPE_CHECKING:
    from pbem.match import Match


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


def parsed(state: State, text: str) -> Action:
    """``text`` as the engine reads it (a grammar's typed :class:`~pbem.grammar.Act`, whose
    units and hexes are its typed arguments), or as plain words when it does not parse."""
    try:
        return state.parse_action(text)
    except ActionSyntaxError:
        return TextAction(text)


def group(state: State, side: str, actions: Sequence[str]) -> Grouped:
    """``actions`` (notations) grouped by the first unit of ours each names, units in the
    order the engine lists its counters."""
    counters = state.counters(side)
    view = state.view(side)
    at = {p.id: p.location for p in view.pieces if not p.hidden}
    cells = view.hexes()  # not view.cells: the kit's view makes them only when read
    by_unit: dict[str, list[str]] = {}
    others: list[str] = []
    for text in actions:
        unit = next((u for u in units_of(parsed(state, text), counters.__contains__)
                     if u in counters), None)
        if unit is None:
            others.append(text)
        else:
            by_unit.setdefault(unit, []).append(text)
    # in the engine's order of its units, not the actions': a unit's number in the list
    # stays the same while it enters, moves and attacks
    units = tuple(UnitChoices(u, counters[u], at[u] if at.get(u) in cells else "",
                              tuple(by_unit[u])) for u in reading_order(counters)
                  if u in by_unit)
    return Grouped(units, tuple(others))


def reading_order(ids: Sequence[str] | Mapping[str, str]) -> list[str]:
    """The engine's order of its units, except an order by the ids' text (For the
    Motherland!'s 10K, 12K, 1K), which no player reads as one: the numbers in it then go
    in number order (1K, 10K, 12K).  An engine's own order (White Death's order of
    battle) stays.  For display only: the engine's lists are game data."""
    order = list(ids)
    if order == sorted(order):
        order.sort(key=natural_key)
    return order


def natural_key(name: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key reading the digits in an id as a number: 1K, 7K, 10K, 12K; 11-15Pz
    before 11-110.  The text breaks ties (07K and 7K)."""
    parts = re.split(r"(\d+)", name)
    return (*((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p),
            (2, 0, name))


def unit_table(grouped: Grouped) -> list[str]:
    """One line a unit, aligned: ``G01  I/2 3-3-10      enter 21``."""
    if not grouped.units:
        return []
    width = max(len(u.title()) for u in grouped.units)
    return [f"{u.title():<{width}}  {u.verbs()}" for u in grouped.units]


def columns(lines: Sequence[str], width: int, most: int) -> list[str]:
    """``lines`` in as many columns (down, then across) as keep them to ``most`` lines,
    when the terminal is wide enough; else as they are.  For Motherland's 38 units."""
    if len(lines) <= most or not lines:
        return list(lines)
    cell = max(len(line) for line in lines) + 3
    count = -(-len(lines) // most)
    if count * cell > width:
        count = max(1, width // cell)
    if count == 1:
        return list(lines)
    rows = -(-len(lines) // count)
    out = []
    for r in range(rows):
        row = [lines[c * rows + r] for c in range(count) if c * rows + r < len(lines)]
        out.append("".join(f"{text:<{cell}}" for text in row[:-1]) + row[-1])
    return out


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
        # imported here: a listing with no run of hexes to fold (most of them) does not
        # compile textwrap's patterns (4.1 M instructions of 'pbem legal', issue 35)
        import textwrap

        lines += textwrap.wrap(f"{key} ({len(values)} hexes): {' '.join(values)}",
                               width=width, subsequent_indent="    ")
    return lines


def count_words(n: int, one: str, many: str | None = None) -> str:
    """``"1 hex"``, ``"2 hexes"``: a count with its noun agreeing."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


# --- a whole set-up as one text ------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """One line of a set-up text: ``UNIT HEX``."""

    line: int
    unit: str
    hex: str


def read_placements(text: str, source: str) -> list[Placement]:
    """``UNIT HEX`` a line (``#`` starts a comment): the whole set-up a player writes, or
    :func:`describe_placements` printed.  A line of another shape is refused, naming
    ``source`` and the line."""
    out: list[Placement] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise UsageError(f"{source}, line {number}: {safe(raw.strip())!r} is not "
                             "'UNIT HEX' (one unit and its hex a line)")
        unit, where = words
        if unit in seen:
            raise UsageError(f"{source}, line {number}: {safe(unit)} is placed again "
                             f"(first on line {seen[unit]})")
        seen[unit] = number
        out.append(Placement(number, unit, where))
    if not out:
        raise UsageError(f"{source}: no 'UNIT HEX' line in it")
    return out


def describe_placements(state: State, side: str) -> str:
    """Where ``side``'s units stand now, as a set-up text :func:`read_placements` reads
    back: a player edits it rather than typing every unit."""
    counters = state.counters(side)
    view = state.view(side)
    cells = view.hexes()
    lines = [f"# {view.title}: the {side} units, 'UNIT HEX' a line"]
    placed = set()
    for piece in view.pieces:
        if piece.side == side and not piece.hidden and piece.location in cells:
            placed.add(piece.id)
            lines.append(f"{piece.id} {piece.location}  # {counters.get(piece.id, '')}"
                         .rstrip(" #"))
    theirs = {p.id for p in view.pieces if p.side != side}
    for unit, counter in counters.items():
        if unit not in placed and unit not in theirs:
            lines.append(f"# {unit} HEX  # {counter}: not on the map yet")
    return "\n".join(lines) + "\n"


def placement_action(state: State, place: Placement, source: str) -> str | None:
    """The legal action that puts ``place.unit`` in ``place.hex`` now, in the engine's
    notation (``None``: it stands there already); else the rules' refusal of the nearest
    such action (the rule it breaks), or a plain refusal when no action places that unit
    now."""
    side = state.current_player()
    if any(p.id == place.unit and p.location == place.hex and p.side == side
           for p in state.view(side).pieces):
        return None
    cells = state.view(side).hexes()
    mine = [a for a in state.legal_actions()
            if place.unit in units_of(a, place.unit.__eq__)]
    for action in mine:
        if place.hex in hexes_of(action, cells.__contains__):
            return action.notation()
    where = f"{source}, line {place.line}"
    if not mine:
        raise UsageError(f"{where}: no set-up action places {safe(place.unit)} now (none "
                         "applied)")
    words = mine[0].notation().split()
    # the hex to change: the last the action names (its typed argument, where the engine
    # has a grammar), else its last word that is a hex of the map
    named = mine[0].hexes() if isinstance(mine[0], Act) else ()
    spot = next((i for i in range(len(words) - 1, 0, -1)
                 if (words[i] == named[-1] if named else words[i] in cells)), None)
    if spot is None:
        raise UsageError(f"{where}: {safe(place.unit)} is not placed on a hex now")
    words[spot] = place.hex
    trial = state.clone()
    try:
        trial.apply(" ".join(words), side=state.current_player())
    except (IllegalAction, ActionSyntaxError) as exc:
        raise type(exc)(f"{where}: {safe(place.unit)} {safe(place.hex)}: {exc} (none "
                        "applied)") from None
    return " ".join(words)


def placement_order(state: State, pending: Sequence[Placement]) -> Placement | None:
    """The placement the rules let come next: the first whose unit a legal action names
    (an engine that sets up in a fixed order, Mortain 13.0, names one unit at a time)."""
    named = [set(units_of(a, lambda w: True)) for a in state.legal_actions()]
    return next((p for p in pending if any(p.unit in w for w in named)), None)


def plan_setup(trial: Match, places: Sequence[Placement], source: str) -> list[str]:
    """The actions that make the set-up ``places`` gives, applied on ``trial`` (a match
    no store holds, so nothing is saved): every line checked against the rules before
    any is kept, so a refused line leaves the real game as it was.  Lines go in the
    order the rules take them, whatever order the text has."""
    decision = trial.my_decision()
    if decision is None or "setup" not in decision.kind:
        now = decision.prompt if decision is not None else trial.awaiting()
        raise UsageError(f"{source}: there is no set-up to make now ({now})")
    pending = list(places)
    texts: list[str] = []
    while pending:
        decision = trial.my_decision()
        if decision is None or "setup" not in decision.kind:
            raise UsageError(f"{source}, line {pending[0].line}: the set-up is over after "
                             f"{len(texts)} placements, before {safe(pending[0].unit)} "
                             "(is it a unit that sets up now?): none applied")
        place = placement_order(trial.state, pending) or pending[0]
        text = placement_action(trial.state, place, source)
        pending.remove(place)
        if text is None:
            continue
        _, _, end = trial.act(text)
        texts.append(text)
        if end is not None and pending:
            raise UsageError(f"{source}, line {pending[0].line}: the file seals after "
                             f"{len(texts)} placements (the opponent decides next): none "
                             "applied")
    return texts
