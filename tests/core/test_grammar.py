"""The action grammar (pbem.grammar): round trips, refusals naming the argument,
completion, and the typed arguments the tools pick actions by."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine import TextAction
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act, Form, Grammar, Type, hexes_of, names, units_of

G = Grammar(
    Form("place", "place {unit:unit} {to:hex}"),
    Form("move", "move {unit:unit} {path:hex+}"),
    Form("attack", "attack {target:hex} with {units:unit+} [and air]"),
    Form("retreat", "retreat [{unit:unit} {to:hex}]"),
    Form("support", "support {value:int}"),
    Form("demolish", "demolish {unit:unit} {bridge:bridge}"),
    Form("take", "take {loss:loss} loss"),
    Form("end-movement", "end movement"),
    Form("end-combat", "end combat"),
    types={"unit": Type.token("a unit id", r"[A-Z0-9][A-Za-z0-9/]*"), "hex": Type.hex(),
           "int": Type.number("a support value"),
           "bridge": Type.hex("a bridge (two hexes, 2914/3014)", r"\d{4}/\d{4}", "/"),
           "loss": Type.one_of("step", "retreat")},
)

TEXTS = [
    "place G01 3110", "move 1/33 3110", "move G01 3110 3111 3112",
    "attack 2514 with G01 G02", "attack 2514 with G01 and air", "retreat",
    "retreat 1/33 2815", "support 0", "support 12", "demolish Eng/CCB 2407/2408",
    "take step loss", "take retreat loss", "end movement", "end combat",
]


@pytest.mark.parametrize("text", TEXTS)
def test_every_form_reads_and_writes_back_the_same_text(text: str) -> None:
    act = G.canonical(text)
    assert act.notation() == text
    assert G.parse(act.notation()) == act
    assert hash(G.parse(text)) == hash(act)


def test_built_actions_are_the_parsed_ones() -> None:
    assert G["move"]("G01", ("3110", "3111")) == G.parse("move G01 3110 3111")
    assert G["attack"]("2514", ("G01",), True).notation() == "attack 2514 with G01 and air"
    assert G["attack"](target="2514", units=("G01",)).notation() == "attack 2514 with G01"
    assert G["retreat"]().notation() == "retreat"
    assert G["support"](3) != G["support"](4)
    assert G["end-movement"]() != G["end-combat"]()


def test_typed_arguments() -> None:
    act = G.parse("attack 2514 with G01 G02 and air")
    assert act.kind == "attack" and act.verb == "attack"
    assert act.text("target") == "2514"
    assert act.words("units") == ("G01", "G02")
    assert act.flag("and air")
    assert G.parse("support 12").number("value") == 12
    assert act.units() == ("G01", "G02") and act.hexes() == ("2514",)
    # a bridge is one word naming two hexes: the board lights both
    assert G.parse("demolish Eng/CCB 2407/2408").hexes() == ("2407", "2408")
    assert G.parse("retreat").units() == ()
    with pytest.raises(KeyError, match="move has no argument 'to'"):
        G.parse("move G01 3110")["to"]
    with pytest.raises(TypeError, match="not a number"):
        G.parse("move G01 3110").number("unit")


@pytest.mark.parametrize(("text", "says"), [
    ("move G01 31x0", "move: argument path wants one or more of a hex (four digits), "
                      "not '31x0'"),
    ("place G01", "place: to (a hex (four digits)) is missing"),
    ("support 03", "support: argument value wants a support value, not '03'"),
    ("support three", "argument value wants a support value, not 'three'"),
    ("take some loss", "take: argument loss wants one of step, retreat, not 'some'"),
    ("end game", "end: expected 'movement' or 'combat', not 'game'"),
    ("retreat G01", "retreat: to (a hex (four digits)) is missing"),
    ("fly G01 3110", "no action begins with 'fly' (the verbs are place, move"),
    ("move  G01 3110", "words are separated by one space"),
    ("end movement now", "too many words: nothing follows 'end movement', so 'now' is left over"),
    ("demolish Eng/CCB 2407", "argument bridge wants a bridge (two hexes, 2914/3014)"),
])
def test_refusals_name_the_verb_and_the_argument(text: str, says: str) -> None:
    with pytest.raises(ActionSyntaxError) as info:
        G.parse(text)
    assert says in str(info.value)
    assert repr(text) in str(info.value)


def test_building_refuses_what_it_could_not_write() -> None:
    with pytest.raises(ValueError, match="is not a hex"):
        G["place"]("G01", "31")
    with pytest.raises(TypeError, match=r"'to' .* is missing"):
        G["place"]("G01")
    with pytest.raises(ValueError, match="not a support value"):
        G["support"]("3")  # a number argument takes an int, not its text
    with pytest.raises(TypeError, match="non-empty tuple"):
        G["move"]("G01", ())
    with pytest.raises(AttributeError, match="frozen"):
        G["support"](3).values = ()  # type: ignore[misc]


def test_a_bad_table_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match="no type 'hx'"):
        Grammar(Form("x", "x {a:hx}"), types={})
    with pytest.raises(ValueError, match="begins with its verb"):
        Grammar(Form("x", "{a:hex} x"), types={"hex": Type.hex()})
    with pytest.raises(ValueError, match="two forms named"):
        Grammar(Form("x", "x"), Form("x", "x y"), types={})
    # each refused by the grammar's declaration, not at the form's first use
    hexes = {"hex": Type.hex()}
    for template, why in (("x {a:hex} {a:hex}", "two arguments named alike"),
                          ("x  {a:hex}", "separated by one space"),
                          ("x {a:hex} ", "separated by one space"),
                          ("x {a:hex]", "cannot read"),
                          ("x a}", "cannot read"),
                          ("x {a:hex} b{", "cannot read"),
                          ("x{ {a:hex}", "cannot read"),
                          ("x {a:hex}}", "cannot read"),
                          ("x {a}b:hex}", "cannot read"),
                          ("x [{a:hex}", "'\\[' without '\\]'"),
                          ("x {a:hex}]", "'\\]' without '\\['"),
                          ("x {a:hx+}", "no type 'hx'")):
        with pytest.raises(ValueError, match=why):
            Grammar(Form("y", "y {b:hex}"), Form("x", template), types=hexes)


def test_completion_a_word_at_a_time_from_the_legal_actions() -> None:
    legal = [G.parse(t) for t in ("move G01 3110", "move G01 3111", "move G02 3110",
                                  "end movement")]
    assert G.complete("", legal) == ["move ", "end "]
    assert G.complete("mo", legal) == ["move "]
    assert G.complete("move", legal) == ["move "]
    assert G.complete("move G0", legal) == ["move G01 ", "move G02 "]
    assert G.complete("move G01 ", legal) == ["move G01 3110", "move G01 3111"]
    assert G.complete("attack", legal) == []


def test_completion_offers_a_whole_action_that_goes_on_once() -> None:
    """A path that may stop at 3110 or go on: 'move G01 3110' and 'move G01 3110 ' were
    two offers readline shows as the same word twice."""
    legal = [G.parse(t) for t in ("move G01 3110", "move G01 3110 3111", "move G01 3210")]
    assert G.complete("move G01 ", legal) == ["move G01 3110", "move G01 3210"]
    assert G.complete("move G01 3110 ", legal) == ["move G01 3110 3111"]


def test_what_the_table_expects_next() -> None:
    assert G.expects("move G01 ") == ["<path: a hex (four digits)>"]
    # after one hex of a path: another, or the end
    assert G.expects("move G01 3110 ") == ["<path: a hex (four digits)>", ""]
    assert G.expects("retreat ") == ["<unit: a unit id>", ""]
    assert G.expects("end ") == ["movement", "combat"]
    assert G.expects("attack 2514 with G01 ") == ["<units: a unit id>", "and", ""]


def test_units_and_hexes_of_an_engine_not_yet_on_the_grammar() -> None:
    act = G.parse("move G01 3110")
    assert units_of(act, lambda w: False) == ("G01",)
    plain = TextAction("move G01 3110")
    assert units_of(plain, lambda w: w.startswith("G")) == ("G01",)
    assert hexes_of(plain, str.isdigit) == ("3110",)
    assert isinstance(G.parse("end combat"), Act)


def test_names_are_the_typed_units_and_hexes_or_the_words() -> None:
    assert names(G.parse("demolish Eng/CCB 2407/2408")) == ("Eng/CCB", "2407", "2408")
    assert names(G.parse("end movement")) == ()
    assert names(TextAction("end movement")) == ("end", "movement")


def test_the_action_a_text_parses_to_is_the_one_listed() -> None:
    """A step lists thousands of moves position after position: a form keeps the actions
    it made, so a file's text parses to the very object listed."""
    listed = G["move"]("G01", ("3110", "3111"))
    assert G.parse("move G01 3110 3111") is listed
    assert G["move"]("G01", ("3110", "3111")) is listed
    assert G["support"](1).notation() == "support 1"
    with pytest.raises(TypeError, match="not a support value"):
        G["support"](True)  # equal to 1 as a key, but no number


def test_a_list_stops_at_a_word_that_opens_the_optional_part_after_it() -> None:
    """A unit type that reads any token (``and``, ``air``) must not swallow ``and air``:
    the list ends where the optional part's first word stands, so the flag is read."""
    loose = Grammar(Form("attack", "attack {target:hex} with {units:unit+} [and air]"),
                    types={"unit": Type.token(), "hex": Type.hex()})
    act = loose.parse("attack 2514 with G01 G02 and air")
    assert act.words("units") == ("G01", "G02") and act.flag("and air")
    assert act.notation() == "attack 2514 with G01 G02 and air"
    plain = loose.parse("attack 2514 with G01")
    assert plain.words("units") == ("G01",) and not plain.flag("and air")



def test_a_type_compiles_its_pattern_only_when_a_word_of_it_is_read() -> None:
    """Making an engine's grammar at import compiles no pattern (issue 35: a command that
    parses only literal words, 'end combat', compiles none); the first word of a type
    read compiles its pattern, which still refuses a word it does not match; a pattern
    the grammar answers itself (a hex's four digits) is never compiled."""
    grammar = Grammar(Form("end", "end combat"), Form("move", "move {unit:unit} {to:hex}"),
                      types={"unit": Type.token("a unit", r"[A-Z]\d\d"), "hex": Type.hex()})
    units, hexes = grammar.types["unit"], grammar.types["hex"]
    assert grammar.parse("end combat").notation() == "end combat"
    assert "_regex" not in vars(units)
    assert grammar.parse("move G01 2514").notation() == "move G01 2514"
    assert "_regex" in vars(units) and "_regex" not in vars(hexes)
    with pytest.raises(ActionSyntaxError, match="wants a hex"):
        grammar.parse("move G01 25x4")
    with pytest.raises(ActionSyntaxError, match="wants a unit"):
        grammar.parse("move G1 2514")


@given(st.text(alphabet="{}:+_aZz09-[] ", max_size=12))
def test_a_template_word_is_read_as_a_slot_as_the_pattern_read_it(word: str) -> None:
    """The hand-read slot (issue 35: no pattern compiled at every engine import) takes
    exactly the words ``\\{([a-z_][a-z0-9_]*):([a-z_][a-z0-9_]*)(\\+?)\\}`` matched."""
    import re

    from pbem.grammar import _slot

    m = re.fullmatch(r"\{([a-z_][a-z0-9_]*):([a-z_][a-z0-9_]*)(\+?)\}", word)
    assert _slot(word) == (None if m is None else (m[1], m[2], bool(m[3])))


@pytest.mark.parametrize("word", ["{u:unit}", "{units:unit+}", "{_a1:b_2}", "{a:b++}",
                                  "{A:unit}", "{1a:b}", "{a:b:c}", "{a:}", "{:b}", "{ab}",
                                  "a:b", "{a:b}x", "x{a:b}", "{a:b+c}"])
def test_the_slot_words_the_pattern_named(word: str) -> None:
    import re

    from pbem.grammar import _slot

    m = re.fullmatch(r"\{([a-z_][a-z0-9_]*):([a-z_][a-z0-9_]*)(\+?)\}", word)
    assert _slot(word) == (None if m is None else (m[1], m[2], bool(m[3])))
