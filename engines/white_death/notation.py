"""White Death's actions: its forms and their typed arguments (pbem.grammar).

The text is what turn files sign: every form writes exactly what the engine wrote before
it had a grammar (``move 1188/357 2405 2404``, ``impulse 4``, ``assault 1305 with
1188/357``, ``fire 12 at I/277``, ``done firing``...).  A step reads an action's
arguments by name from the typed :class:`~pbem.grammar.Act` (``a.text("unit")``,
:func:`amount`), never from its words.
"""

from __future__ import annotations

from engines.white_death.position import Q, q
from pbem.engine import Action
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act, Form, Grammar, Type

GRAMMAR = Grammar(
    # Campaign setup (Rule 22)
    Form("place", "place {unit:unit} {hex:hex}"),
    Form("auto-setup", "auto setup"),
    # Rule 5: the impulse's movement points; Rule 15.D.2: Velikiye Luki's supply
    Form("impulse", "impulse {n:amount}"),
    Form("vl-supply", "spend vl supply"),
    Form("vl-keep", "keep vl supply"),
    # Rules 6, 8, 17, 18, 20, 21.B: movement and the rest of the movement phase
    Form("move", "move {unit:unit} {frm:hex} {hex:hex}",
         hint="a move is one hex at a time (Rule 6.A): 'move UNIT FROM TO', then the "
               "next hex from TO"),
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
    # Rule 11.B: barrages
    Form("barrage", "barrage {hex:hex} with {unit:unit}"),
    Form("fire-barrage", "fire barrage"),
    Form("fire-barrage-half", "fire barrage rockets at half"),
    Form("end-barrage", "end barrage"),
    # Rules 9-11.A, 15.A.4: the fire at an assaulted hex; Rule 9.D: the advance
    Form("hq", "hq {unit:unit}"),
    Form("high", "high intensity"),
    Form("support", "support with {unit:unit}"),
    Form("fire", "fire {n:amount} at {unit:unit}"),
    Form("fire-at", "fire antitank {n:amount} at {unit:unit}"),
    Form("done", "done firing"),
    Form("advance", "advance {unit:unit} {hex:hex}"),
    Form("end-advance", "end advance"),
    types={
        "unit": Type.token("a unit id (1188/357, I/277)", r"[A-Za-z0-9/._-]+"),
        "hex": Type.hex("a hex (four digits, 2405)"),
        # written in lowest terms (fmt_amount); parse reduces any other spelling
        "amount": Type("word", r"[0-9]+(?:/[0-9]+)?", "an amount (2, 3/2)"),
    },
)


#: the form of the actions listed most (a unit's moves, Rule 6)
MOVE = GRAMMAR["move"]


def fmt_amount(x: Q) -> str:
    """An amount as ``str(Fraction)`` writes it: ``3``, ``7/2``."""
    n, d = x
    return str(n) if d == 1 else f"{n}/{d}"


def amount(a: Act) -> Q:
    """The amount an ``impulse`` or a fire names (movement points, fire points), in
    lowest terms: :func:`parse` wrote it so."""
    return _amount(a.text("n"))


def _amount(text: str) -> Q:
    """The grammar's amount (digits, or digits/digits) as ``Fraction(text)`` reads it,
    in ints; ZeroDivisionError for a denominator of 0, as Fraction's."""
    top, _, bottom = text.partition("/")
    d = int(bottom) if bottom else 1
    if d == 0:
        raise ZeroDivisionError(f"the amount {text!r} divides by zero")
    return q(int(top), d)


def act(kind: str, unit: str = "", hex: str = "", frm: str = "",
        n: int | Q | str = "") -> Act:
    """The action of form ``kind`` with these arguments (those its form has)."""
    form = GRAMMAR[kind]
    given = {"unit": unit, "hex": hex, "frm": frm,
             "n": fmt_amount(n) if isinstance(n, tuple) else str(n)}
    # positional, in the form's order: the form keeps the actions it made by their values
    return form(*(given[name] for name in form.args))


def typed(action: Action) -> Act:
    """``action`` as the grammar's typed action: every action a White Death state meets is
    one (it lists them, and parses the rest with :func:`parse`)."""
    return action if isinstance(action, Act) else parse(action.notation())


def parse(text: str) -> Act:
    a = GRAMMAR.parse(text)
    if "n" not in a.form.args:
        return a
    n = a.text("n")
    try:
        value = _amount(n)
    except (ValueError, ZeroDivisionError):
        raise ActionSyntaxError(f"bad amount {n!r} in {text!r}") from None
    if value[0] <= 0:
        raise ActionSyntaxError(f"the amount in {text!r} must be positive")
    # one action per amount: "fire 6/2 at X" is "fire 3 at X"
    return act(a.kind, unit=a.text("unit") if "unit" in a.form.args else "", n=value)
