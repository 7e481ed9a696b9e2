"""The action grammar expresses every engine's notation byte for byte (issue 34): draft
tables for the engines not yet ported, checked against the actions each engine lists in a
played game.  An engine's port lifts its table from here into its ``notation.py``."""

from __future__ import annotations

import pytest

from engines.backhand.notation import GRAMMAR as BACKHAND
from engines.panzer48.notation import GRAMMAR as PANZER48
from engines.white_death.notation import GRAMMAR as WHITE_DEATH
from pbem.grammar import Form, Grammar, Type
from pbem.registry import get

UNIT = Type.token("a unit id", r"[A-Za-z0-9/._-]+")
HEX = Type.hex()
WORD = Type("word", r"[^\s]+", "a word")

#: For the Motherland!: its dataclasses and ``Word`` texts (engines/motherland/notation.py)
_MID = Type.token("a unit id", r"[A-Za-z0-9][A-Za-z0-9*_.-]*")
MOTHERLAND = Grammar(
    # a move names its start and at least one hex more
    Form("move", "move {unit:unit} {start:hex} {path:hex+}"),
    Form("strategic", "strategic {unit:unit} {start:hex} {path:hex+}"),
    Form("attack", "attack {hex:hex} with {units:unit+} [and air] [and railroad gun]"),
    Form("overrun", "overrun {hex:hex} with {units:unit+} [and air]"),
    Form("take", "take {unit:steploss} as {steps:int} step {hexes:int} retreat"),
    Form("retreat", "retreat {units:unit+} to {hex:hex}"),
    Form("advance", "advance {unit:unit} {hex:hex}"),
    Form("end-air-supply", "end air supply"),
    Form("end", "end {phase:phase}"),
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("ship", "ship {units:unit+} to {hex:hex}"),
    Form("lose", "lose {unit:unit}"),
    Form("eliminate", "eliminate {unit:unit}"),
    Form("general-for", "general {general:name} for {unit:unit}"),
    Form("general-replaces", "general {general:name} replaces chit of {unit:unit}"),
    Form("keep", "keep {unit:unit} for {for:unit}"),
    Form("expend", "expend {unit:unit}"),
    Form("air-supply", "air supply {unit:unit}"),
    Form("out-of-supply", "out of supply {unit:unit}"),
    Form("partisan", "partisan {partisan:name} to {unit:unit}"),
    Form("convert", "convert {unit:unit} to {to:unit}"),
    Form("combine", "combine {unit:unit} {with:unit}"),
    Form("replace", "replace {unit:unit}"),
    Form("produce", "produce {unit:unit} at {hex:hex}"),
    Form("evacuate", "evacuate {unit:unit}"),
    Form("baku-factory", "baku factory {unit:unit}"),
    Form("baku", "baku {unit:unit}"),
    Form("isolation-loss", "isolation loss {unit:unit}"),
    types={"unit": _MID, "hex": HEX, "int": Type.number("a number"),
           "steploss": Type.token("a unit id", r"[A-Z0-9/]+"),
           "name": Type("word", r"[A-Za-z]+", "a name"),
           "phase": Type.one_of("movement", "combat", "exploitation", "advance",
                                "reinforcements", "expending", "partisans", "conversions",
                                "combining", "replacements", "evacuation", "generals",
                                "setup")},
)


def played(engine_id: str, steps: int) -> list[str]:
    """Every action an engine lists over ``steps`` decisions of its first scenario, the
    choices spread over each list, dice and draws from the step number."""
    engine = get(engine_id)
    s = engine.new_state(engine.scenarios()[0].id)
    seen: dict[str, None] = {}
    for step in range(steps * 3):
        if s.is_terminal() or len(seen) > 20_000:
            break
        if s.is_chance():
            req = s.chance_request()
            s.apply_outcome(tuple(req.contents[:req.count]) if req.kind == "draw"
                            else tuple(1 + (step + i) % d for i, d in enumerate(req.dice)))
            continue
        legal = s.legal_actions()
        if not legal:
            break
        seen.update((a.notation(), None) for a in legal)
        s.apply(legal[(step * 7) % len(legal)])
    return list(seen)


@pytest.mark.parametrize(("engine_id", "grammar"), [
    ("white-death", WHITE_DEATH), ("48th-panzer-korps", PANZER48),
    ("backhand-blow", BACKHAND), ("for-the-motherland", MOTHERLAND)])
def test_a_table_writes_every_listed_action_byte_for_byte(engine_id: str,
                                                          grammar: Grammar) -> None:
    texts = played(engine_id, 200)
    assert len(texts) > 100
    for text in texts:
        assert grammar.canonical(text).notation() == text
