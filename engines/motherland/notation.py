"""For the Motherland!'s actions: its verbs and their typed arguments (pbem.grammar).

The text is what turn files sign: every form writes exactly what the engine wrote before
it had a grammar (``move 41Pz 0812 0912``, ``attack 1011 with 3Pz 41Pz and air``,
``take D2 as 1 step 1 retreat``, ``keep C3-3* for 12A``).  The steps and rules read an
action's arguments by name (``a.text("unit")``, ``a.words("units")``), never its words.
"""

from __future__ import annotations

from pbem.engine import Action
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act, Form, Grammar, Type

#: an id as the counter sheet spells it (a unit ``41Pz``, a chit ``C3-3*``)
_ID = r"[A-Za-z0-9][A-Za-z0-9*_.-]*"
#: a unit id is never ``and``: a list of units reads as many words as it can before the
#: supports (``attack 1011 with 3Pz 41Pz and air``), and would take ``and air`` in
_UNIT = r"(?!and$)" + _ID

GRAMMAR = Grammar(
    # 5.0-5.4 movement, 5.3 Strategic Movement: the unit's hex, then each hex it enters
    Form("move", "move {unit:unit} {start:hex} {path:hex+}",
         hint="a unit moves from hex to hex (5.0): 'move UNIT START HEX...', the hex it "
              "is in, then each hex it enters (move 41Pz 0812 0912)"),
    Form("strategic", "strategic {unit:unit} {start:hex} {path:hex+}",
         hint="a Strategic Movement names the unit's hex, then each hex it enters (5.3): "
              "'strategic UNIT START HEX...'"),
    # 8.1 an attack with its supports declared (14.1 air, 16.2 the Railroad Gun), 7.1
    # an overrun (16.2.1: the Railroad Gun never supports one)
    Form("attack", "attack {hex:hex} with {units:unit+} [and air] [and railroad gun]"),
    Form("overrun", "overrun {hex:hex} with {units:unit+} [and air]"),
    # 8.5 a result as step losses and hexes of retreat, 8.6 retreat, 8.7 advance
    Form("take", "take {result:result} as {steps:int} step {hexes:int} retreat"),
    Form("retreat", "retreat {units:unit+} to {hex:hex}"),
    Form("advance", "advance {unit:unit} {hex:hex}"),
    # the words that end a waiting task (const.DONE)
    Form("end-air-supply", "end air supply"),
    Form("end", "end {phase:phase}"),
    # 17.0 reinforcements, 5.5 Sea Transport, 8.5.1 step losses, 6.0 / 21.1.2 eliminations
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("ship", "ship {units:unit+} to {hex:hex}"),
    Form("lose", "lose {unit:unit}"),
    Form("eliminate", "eliminate {unit:unit}"),
    # 16.5 Generals and the chit kept
    Form("general-for", "general {general:name} for {unit:unit}"),
    Form("general-replaces", "general {general:name} replaces chit of {unit:unit}"),
    Form("keep", "keep {chit:chit} for {unit:unit}"),
    # 9.3.4 Supply Bases, 14.2 Air Supply, 10.1 / 10.2 partisans
    Form("expend", "expend {unit:unit}"),
    Form("air-supply", "air supply {unit:unit}"),
    Form("out-of-supply", "out of supply {unit:unit}"),
    Form("partisan", "partisan {partisan:name} to {unit:unit}"),
    # 17.2 conversions, 15.2 Kampfgruppen, 15.1 replacements, 12.1 production, 12.2
    # evacuation, 21.1 Baku, 9.1.3 isolation
    Form("convert", "convert {unit:unit} to {to:unit}"),
    Form("combine", "combine {unit:unit} {with:unit}"),
    Form("replace", "replace {unit:unit}"),
    Form("produce", "produce {unit:unit} at {hex:hex}"),
    Form("evacuate", "evacuate {unit:unit}"),
    Form("baku-factory", "baku factory {unit:unit}"),
    Form("baku", "baku {unit:unit}"),
    Form("isolation-loss", "isolation loss {unit:unit}"),
    types={
        "unit": Type.token("a unit id (41Pz, 12A)", _UNIT),
        "hex": Type.hex("a hex (four digits, 0812)"),
        "int": Type.number("a number"),
        # a result names no unit: 'legal GAME D2' finds no take
        "result": Type("word", r"[A-Z0-9/]+", "a combat result (A1, D2, EX)"),
        "chit": Type("word", _ID, "a Strength Chit (C3-3*)"),
        "name": Type("word", r"[A-Za-z]+", "a name"),
        "phase": Type.one_of("movement", "combat", "exploitation", "advance",
                             "reinforcements", "expending", "partisans", "conversions",
                             "combining", "replacements", "evacuation", "generals",
                             "setup"),
    },
)

MOVE, STRATEGIC, ATTACK, OVERRUN, TAKE, RETREAT, ADVANCE = (
    GRAMMAR[n] for n in ("move", "strategic", "attack", "overrun", "take", "retreat",
                         "advance"))
PLACE, SHIP, LOSE, ELIMINATE, GENERAL_FOR, GENERAL_REPLACES, KEEP = (
    GRAMMAR[n] for n in ("place", "ship", "lose", "eliminate", "general-for",
                         "general-replaces", "keep"))
EXPEND, AIR_SUPPLY, OUT_OF_SUPPLY, PARTISAN, CONVERT, COMBINE, REPLACE = (
    GRAMMAR[n] for n in ("expend", "air-supply", "out-of-supply", "partisan", "convert",
                         "combine", "replace"))
PRODUCE, EVACUATE, BAKU_FACTORY, BAKU, ISOLATION_LOSS = (
    GRAMMAR[n] for n in ("produce", "evacuate", "baku-factory", "baku", "isolation-loss"))

#: the forms with structure of their own (a path, a group of units, a result's split);
#: every other answer is a word from its decision's list
STRUCTURED = frozenset({"move", "strategic", "attack", "overrun", "take", "retreat",
                        "advance"})
_ENDS = frozenset({"end", "end-air-supply"})


def parse(text: str) -> Act:
    """Parse one action in the engine's notation (the engine page lists the forms)."""
    try:
        return GRAMMAR.parse(text)
    except ActionSyntaxError:
        if text.startswith("overrun ") and text.endswith(" and railroad gun"):
            raise ActionSyntaxError(f"{text!r}: the Railroad Gun never supports an overrun "
                                    "(16.2.1)") from None
        raise


def act(action: Action) -> Act:
    """``action`` as the grammar's typed action: every action a state lists is one, and
    every text it is given is parsed with :data:`GRAMMAR`."""
    if isinstance(action, Act):
        return action
    return GRAMMAR.parse(action.notation())


def ending(text: str) -> Act:
    """The action of a word that ends a waiting task (``end movement``: const.DONE), parsed
    once a process, when first asked: a command that lists no ending (a retreat's
    listing) never parses one (issue 35)."""
    found = _ENDINGS.get(text)
    if found is None:
        found = GRAMMAR.parse(text)
        if found.kind not in _ENDS:
            raise ValueError(f"{text!r} ends no task")
        _ENDINGS[text] = found
    return found


_ENDINGS: dict[str, Act] = {}


def is_end(action: Action) -> bool:
    """Whether ``action`` ends its task (``end combat``, ``end air supply``)."""
    return act(action).kind in _ENDS


def path_of(a: Act) -> tuple[str, ...]:
    """A move's hexes, the unit's own first (5.1: the path it moves along)."""
    return (a.text("start"), *a.words("path"))



def of_kind(action: Action, kind: str) -> Act | None:
    """``action`` as a typed action of form ``kind`` (``"retreat"``), else None."""
    return action if isinstance(action, Act) and action.kind == kind else None

