"""Units named as their counters read, and counts that agree with their nouns, in any
line pbem prints of an engine's words (an event, a prompt).

Kept out of :mod:`pbem.render` (rich, the board) so that 'act' and 'receive', which tell
events without drawing a board, name units without loading it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _word(ch: str) -> bool:
    """Whether ``ch`` is a word character, as a regular expression's ``\\w`` reads it."""
    return ch.isalnum() or ch == "_"


def agree(text: str) -> str:
    """An engine's sentence with its count and noun agreeing: ``"retreat 1 hexes"`` ->
    ``"retreat 1 hex"``, ``"against 1 assaulted hexes"`` -> ``"against 1 assaulted
    hex"``.  Said on the screen only: the engine's words stay as the golden games record
    them."""
    # most lines name no hexes; for the rest, what ``re.sub(r"\b1 ((?:[a-z]+ )?)hexes\b",
    # r"1 \1hex", text)`` does, found by hand: compiling that pattern was 0.45 M
    # instructions, an eighth of a board's first click that tells a retreat (issue 35)
    if "1 " not in text or "hexes" not in text:
        return text
    parts: list[str] = []
    done = 0
    at = text.find("1 ")
    while at >= 0:
        after = at + 1
        if not (at and _word(text[at - 1])):
            word = end = at + 2
            while end < len(text) and "a" <= text[end] <= "z":
                end += 1
            # one lower-case word and a space before "hexes", or none
            for noun in ((end + 1, word) if end > word and text[end:end + 1] == " "
                         else (word,)):
                tail = noun + len("hexes")
                if text.startswith("hexes", noun) and not (tail < len(text)
                                                          and _word(text[tail])):
                    parts.append(text[done:noun] + "hex")
                    done = after = tail
                    break
        at = text.find("1 ", after)
    return "".join(parts) + text[done:] if parts else text


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless one: ``counted(1, "roll")`` -> ``"1 roll"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _joins(ch: str) -> bool:
    """Whether ``ch`` beside a unit's id makes it part of a longer word (``\\w`` or ``/``)."""
    return ch.isalnum() or ch in "_/"


def _token(text: str, unit: str) -> int:
    """Where ``unit`` first stands in ``text`` as a word of its own (not inside ``11/33``
    or ``1/33A``), or -1: what ``(?<![\\w/])UNIT(?![\\w/])`` finds, without compiling a
    pattern for each unit (a board's first move of each unit, every terminal 'act')."""
    at = text.find(unit)
    while at >= 0:
        end = at + len(unit)
        if not (at and _joins(text[at - 1])) and not (end < len(text) and _joins(text[end])):
            return at
        at = text.find(unit, at + 1)
    return -1


def named(text: str, counters: Mapping[str, str], units: Iterable[str] | None = None) -> str:
    """``text`` with each unit (``units``, else every unit of ``counters`` it names) named
    as its counter reads, once: ``"G01 enters 3201"`` -> ``"G01 I/2 3-3-10 enters 3201"``,
    ``"US 1/33 sets up"`` -> ``"US 1/33 Armd 4-3-10 sets up"``.  A unit whose counter (or
    designation) the text already gives, or that ``counters`` does not know, stays as
    it is."""
    for unit in units if units is not None else counters:
        counter = counters.get(unit, "")
        designation = " ".join(counter.split()[:-1])
        if not counter or counter in text or (designation and designation in text):
            continue  # the engine's sentence names it already
        head = counter if counter.split()[:1] == [unit] else f"{unit} {counter}"
        at = _token(text, unit)
        if at >= 0:
            text = text[:at] + head + text[at + len(unit):]
    return agree(text)


def prompt_named(prompt: str, counters: Mapping[str, str], sides: Iterable[str]) -> str:
    """A decision's prompt with the units it names as their counters read ("sets up 1/33
    Armd 4-3-10").  A word that is also a side's name is the side ("the red player gives
    orders"), never a unit: an engine may key a side's force by the side's name."""
    taken = set(sides)
    return named(prompt, counters, [w for w in (w.strip("(),:;") for w in prompt.split())
                                    if w not in taken])


def cites(prompt: str, rule: str) -> bool:
    """Whether ``prompt`` already names ``rule`` in its own parentheses ("sets up 1/33
    (ccb area, 13.0)"): a listing that adds "(13.0)" after it says the rule twice."""
    # what ``re.search(r"[(,] ?" + re.escape(rule) + r"[),]", prompt)`` finds, by hand: that
    # compiled a pattern for each rule a board's redraw showed first (issue 35)
    if not rule:
        return False
    at = prompt.find(rule)
    while at >= 0:
        end = at + len(rule)
        # "(" or "," before the rule, a space between them or none, and ")" or "," after
        opened = prompt[at - 1:at] in ("(", ",") or \
            (prompt[at - 1:at] == " " and prompt[at - 2:at - 1] in ("(", ","))
        if opened and prompt[end:end + 1] in (")", ","):
            return True
        at = prompt.find(rule, at + 1)
    return False


def told(events: Iterable[Any], rolls: Iterable[Any], side: str | None,
         counters: Mapping[str, str]) -> list[tuple[str, str]]:
    """What ``side`` reads of an act or a received file, as (kind, line): each event it
    may see with its units named as their counters read, then each roll not told yet.

    A roll the engine tells itself (its events of kind roll, ``RollRecord.told``) is told
    once, in the engine's words under the roll's name the audit knows it by, as the replay
    tells it (pbem.render.narrate.frames_from_records); matched by identity, so that equal
    texts of two rolls stay two rolls, and a roll whose events are not among ``events``
    is still told, by its purpose and outcome.  The terminal (pbem.cli.print_events) and
    the board (pbem.web.server) say the same lines."""
    rolls = list(rolls)
    names = {id(e): roll.name for roll in rolls for e in getattr(roll, "told", ())}
    out: list[tuple[str, str]] = []
    shown: set[str] = set()
    for event in events:
        if not event.visible(side):
            continue
        text = named(event.text, counters, event.units)
        name = names.get(id(event))
        if name:
            shown.add(name)
            text = f"roll {name}: {text}"
        out.append((event.kind, text))
    for roll in rolls:
        if roll.name not in shown:
            outcome = ", ".join(str(o) for o in roll.outcome)
            out.append(("roll", f"roll {roll.name}: {roll.purpose}: {roll.request} -> "
                                f"{outcome}"))
    return out
