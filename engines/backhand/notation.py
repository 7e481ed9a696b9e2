"""Backhand Blow's actions: its verbs and their typed arguments (pbem.grammar).

The text is what turn files sign: every form writes exactly what the engine wrote before
it had a grammar (``move LAH-1``, ``move LAH 2510``, ``to 2510``, ``spend 2``, ``end``).
"""

from __future__ import annotations

from pbem.grammar import Act, Form, Grammar, Type, Value

GRAMMAR = Grammar(
    # 4.2 I: the Rochade (8.2), reinforcements (11.1), replacements (12.0), refits (13.1)
    Form("rochade", "rochade"),
    Form("no-rochade", "no-rochade"),
    Form("arrive", "arrive {where:where}"),
    Form("none", "none"),
    Form("replace", "replace {unit:unit}"),
    Form("refit", "refit {unit:unit} {to:refit}"),
    # 4.2 II.A-D: Front Markers (14.2), administrative movement (15.1), the phase order,
    # C3I points and the extra activity point (9.0)
    Form("front", "front {front:front} {hex:hex}"),
    Form("admin", "admin {unit:unit}"),
    Form("place", "place {hex:hex}"),
    Form("admin-out", "admin-out {unit:unit} [{hex:hex}]"),
    Form("order", "order {order:order}"),
    Form("spend", "spend {n:int}"),
    Form("extra", "extra {front:front}"),
    # 15.0 movement: a unit, or a formation with the hex it moves from
    Form("move", "move {unit:unit} [{hex:hex}]"),
    Form("to", "to {hex:hex}"),
    Form("stay", "stay"),
    # 16.0 combat, 16.73 chits, hits (16.0, 16.72), 16.722 advance
    Form("attack", "attack {hex:hex}"),
    Form("with", "with {unit:unit}"),
    Form("resolve", "resolve"),
    Form("cancel", "cancel"),
    Form("chit", "chit {chit:word}"),
    Form("no-chit", "no-chit"),
    Form("lose", "lose {unit:unit}"),
    Form("retreat", "retreat {hex:hex}"),
    Form("advance", "advance {unit:unit} [{to:hex}]"),
    # 13.2 Personalersatz
    Form("ersatz", "ersatz {unit:unit} {value:word}"),
    Form("done", "done"),
    Form("end", "end"),
    types={"unit": Type.token("a unit id (LAH-1, 12T)", r"[\w/.-]+"),
           "hex": Type.hex("a hex (four digits, 2510)"),
           "word": Type("word", r"[^\s]+", "a word"),
           "int": Type.number("a number of C3I points"),
           "front": Type.one_of("southwest", "voronezh", what="a Soviet front"),
           # 13.1: a formation refits in a hex or in a box off the map
           "refit": Type.hex("a hex or a refit box (box1, box2)", r"[0-9]{4}|box1|box2"),
           "where": Type.one_of("box", "map"),
           "order": Type.one_of("combat-first", "move-first")},
)


def w(kind: str, *values: Value) -> Act:
    """The action of the form named ``kind``, its arguments in its template's order (an
    optional one left out)."""
    return GRAMMAR[kind](*values)


def moved(act: Act) -> tuple[str, ...]:
    """What a ``move`` or ``admin-out`` names: the unit, or a formation and the hex its
    units move from (15.2)."""
    where = act["hex"]
    return (act.text("unit"),) if where is None else (act.text("unit"), act.text("hex"))


def parse_action(text: str) -> Act:
    return GRAMMAR.parse(text)
