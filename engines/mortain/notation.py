"""Mortain Counterattack's actions: its verbs and their typed arguments (pbem.grammar).

The text is what turn files sign: every form writes exactly what the engine wrote before
it had a grammar (``move G01 3110``, ``support 3``, ``demolish 703/CCB 2407/2408``).
"""

from __future__ import annotations

from pbem.engine import Action
from pbem.grammar import Act, Form, Grammar, Type

GRAMMAR = Grammar(
    # 13.0: the US set-up, one unit at a time
    Form("place", "place {unit:unit} {to:hex}"),
    # S3 / S4 movement, 11.0 arrivals, 19.1 exits, 11.2 / 11.3 replacements, S9 bridges
    Form("move", "move {unit:unit} {to:hex}"),
    Form("enter", "enter {unit:unit} {at:hex}"),
    Form("exit", "exit {unit:unit}"),
    Form("replace", "replace {unit:unit}"),
    Form("demolish", "demolish {unit:unit} {bridge:bridge}"),
    Form("repair", "repair {unit:unit} {bridge:bridge}"),
    Form("end-movement", "end movement"),
    # S7 attacks, S8.3 bombardments, S7.2 attackers, S8.2 support fire
    Form("attack", "attack {target:hex}"),
    Form("bombard", "bombard {target:hex}"),
    Form("end-combat", "end combat"),
    Form("with", "with {unit:unit}"),
    Form("resolve", "resolve"),
    Form("support", "support {value:value}"),
    Form("no-support", "no support"),
    # 7.8 / S7.7 results, S7.9 advance
    Form("retreat-attackers", "retreat"),
    Form("retreat", "retreat {unit:unit} {to:hex}"),
    Form("deplete", "deplete {unit:unit}"),
    Form("advance", "advance {unit:unit}"),
    Form("no-advance", "no advance"),
    types={
        "unit": Type.token("a unit id (G01, 1/33, 703/CCB)", r"[A-Za-z0-9][A-Za-z0-9/]*"),
        "hex": Type.hex("a hex (four digits, 3110)"),
        "bridge": Type.hex("a See bridge (its two hexes, 2407/2408)", r"\d{4}/\d{4}", "/"),
        "value": Type.number("a support fire marker's value"),
    },
)

PLACE, MOVE, ENTER, EXIT, REPLACE = (GRAMMAR[n] for n in ("place", "move", "enter", "exit",
                                                          "replace"))
DEMOLISH, REPAIR, ATTACK, BOMBARD, WITH = (GRAMMAR[n] for n in ("demolish", "repair",
                                                                "attack", "bombard", "with"))
SUPPORT, RETREAT, DEPLETE, ADVANCE = (GRAMMAR[n] for n in ("support", "retreat", "deplete",
                                                           "advance"))
END_MOVEMENT = GRAMMAR["end-movement"]()
END_COMBAT = GRAMMAR["end-combat"]()
RESOLVE = GRAMMAR["resolve"]()
NO_SUPPORT = GRAMMAR["no-support"]()
RETREAT_ATTACKERS = GRAMMAR["retreat-attackers"]()
NO_ADVANCE = GRAMMAR["no-advance"]()


def act(action: Action) -> Act:
    """``action`` as the grammar's typed action: every action a Mortain state meets is one
    (it lists them, and parses the rest with :data:`GRAMMAR`)."""
    if isinstance(action, Act):
        return action
    return GRAMMAR.parse(action.notation())


def parse(text: str) -> Act:
    return GRAMMAR.parse(text)
