"""The action grammar expresses every engine's notation byte for byte (issue 34): draft
tables for the engines not yet ported, checked against the actions each engine lists in a
played game.  An engine's port lifts its table from here into its ``notation.py``."""

from __future__ import annotations

import pytest

from pbem.grammar import Form, Grammar, Type
from pbem.registry import get

UNIT = Type.token("a unit id", r"[A-Za-z0-9/._-]+")
HEX = Type.hex()
WORD = Type("word", r"[^\s]+", "a word")

#: White Death: FORMS (engines/white_death/actions.py), form by form, same names
WHITE_DEATH = Grammar(
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("auto-setup", "auto setup"),
    Form("impulse", "impulse {n:amount}"),
    Form("vl-supply", "spend vl supply"),
    Form("vl-keep", "keep vl supply"),
    Form("move", "move {unit:unit} {frm:hex} {hex:hex}"),
    Form("lead", "lead {unit:unit} {frm:hex} {hex:hex}"),
    Form("enter", "enter {unit:unit} {hex:hex}"),
    Form("deploy", "deploy {unit:unit}"),
    Form("entrain", "entrain {unit:unit}"),
    Form("rail", "rail {unit:unit} {hex:hex}"),
    Form("assault", "assault {hex:hex} with {unit:unit}"),
    Form("build", "build bridge {unit:unit}"),
    Form("demolish", "demolish bridge {unit:unit}"),
    Form("replace", "replace {unit:unit}"),
    Form("repair", "repair {unit:unit}"),
    Form("refit", "refit {unit:unit}"),
    Form("end-movement", "end movement"),
    Form("barrage", "barrage {hex:hex} with {unit:unit}"),
    Form("fire-barrage", "fire barrage"),
    Form("fire-barrage-half", "fire barrage rockets at half"),
    Form("end-barrage", "end barrage"),
    Form("hq", "hq {unit:unit}"),
    Form("high", "high intensity"),
    Form("support", "support with {unit:unit}"),
    Form("fire", "fire {n:amount} at {unit:unit}"),
    Form("fire-at", "fire antitank {n:amount} at {unit:unit}"),
    Form("done", "done firing"),
    Form("advance", "advance {unit:unit} {hex:hex}"),
    Form("end-advance", "end advance"),
    types={"unit": UNIT, "hex": HEX,
           "amount": Type("word", r"[0-9]+(?:/[0-9]+)?", "an amount (2, 3/2)")},
)

#: 48th Panzer Korps: VERBS (engines/panzer48/notation.py) with each argument typed
PANZER48 = Grammar(
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("setup-done", "setup-done"),
    Form("plan", "plan {force:word} {turn:int} {area:word}"),
    Form("commit", "commit {force:word} {turn:int} {digest:word}"),
    Form("reveal", "reveal {force:word}"),
    Form("open", "open {force:word} {area:word} {salt:word}"),
    Form("attack", "attack {hex:hex}"),
    Form("end-combat", "end-combat"),
    Form("with", "with {unit:unit}"),
    Form("support", "support {unit:unit}"),
    Form("go", "go"),
    Form("cancel", "cancel"),
    Form("fire", "fire {unit:unit} {target:unit}"),
    Form("add", "add {unit:unit}"),
    Form("roll", "roll"),
    Form("end-fire", "end-fire"),
    Form("retreat", "retreat"),
    Form("check", "check"),
    Form("path", "path {path:path}"),
    Form("off-map", "off-map"),
    Form("eliminate", "eliminate {unit:unit}"),
    Form("advance", "advance {unit:unit} {hex:hex}"),
    Form("end-advance", "end-advance"),
    # a stack moves by its hex, a unit by its id (a hex is four digits, no id is)
    Form("move-stack", "move {hex:hex}"),
    Form("move", "move {unit:unit}"),
    Form("enter", "enter {unit:unit} {hex:hex}"),
    Form("end-movement", "end-movement"),
    Form("to", "to {hex:hex}"),
    Form("pickup", "pickup {unit:unit}"),
    Form("drop", "drop {unit:unit}"),
    Form("hasty", "hasty {hex:hex}"),
    Form("exit", "exit"),
    Form("stop", "stop"),
    types={"unit": UNIT, "hex": HEX, "word": WORD, "int": Type.number("a turn"),
           "path": Type("word", r"none|[0-9]{4}(?:-(?:[0-9]{4}|off))*",
                        "a retreat path (3508-3509, 3508-off, none)")},
)

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
    ("for-the-motherland", MOTHERLAND)])
def test_a_table_writes_every_listed_action_byte_for_byte(engine_id: str,
                                                          grammar: Grammar) -> None:
    texts = played(engine_id, 200)
    assert len(texts) > 100
    for text in texts:
        assert grammar.canonical(text).notation() == text
