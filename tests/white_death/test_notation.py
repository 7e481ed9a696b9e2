"""White Death's actions on the action grammar (issue 34): the text turn files sign is
unchanged, and the typed action names its units and hexes for the tools that pick
actions by them."""

from __future__ import annotations

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.notation import GRAMMAR, act, amount, parse
from pbem.errors import ActionSyntaxError

from .positions import position


def test_an_action_names_its_units_and_hexes_by_its_form() -> None:
    a = parse("assault 1305 with 1188/357")
    assert (a.kind, a.units(), a.hexes()) == ("assault", ("1188/357",), ("1305",))
    move = parse("move 1188/357 2405 2404")
    assert move.hexes() == ("2405", "2404") and move.text("frm") == "2405"
    assert move == act("move", "1188/357", hex="2404", frm="2405")
    assert parse("done firing").values == ()


def test_an_amount_is_written_one_way() -> None:
    # Rules 9, 10: fire points may be fractions; "6/2" is the action "fire 3"
    assert parse("fire 6/2 at I/277").notation() == "fire 3 at I/277"
    assert amount(parse("fire antitank 3/2 at I/277")) == (3, 2)
    assert parse("impulse 04") == act("impulse", n=4)


@pytest.mark.parametrize(("text", "why"), [
    ("fire 0 at I/277", "must be positive"),
    ("fire 1/0 at I/277", "bad amount '1/0'"),
    ("impulse 0", "must be positive"),
    ("move 1188/357 2405", "hex"),
    ("advance", "unit"),
])
def test_a_bad_action_is_refused_naming_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(ActionSyntaxError, match=why):
        parse(text)


def test_every_form_reads_back_what_it_writes() -> None:
    values = {"unit": "1188/357", "hex": "2404", "frm": "2405", "n": "3/2"}
    for form in GRAMMAR.forms.values():
        a = form(*(values[name] for name in form.args))
        assert GRAMMAR.canonical(a.notation()) == a == parse(a.notation())


def test_6_a_a_move_of_several_hexes_is_refused_saying_one_hex_at_a_time(
        engine: WhiteDeath) -> None:
    # QA: "move 1190/357 3911 3910 3909" (a path) was refused only "nothing follows ..."
    s = position(engine, """
        [units]
        "1188/357" = "1810"
    """)
    s.apply("impulse 5")
    with pytest.raises(ActionSyntaxError) as e:
        s.apply("move 1188/357 1810 1710 1610")
    assert ("too many words: nothing follows 'move 1188/357 1810 1710', so '1610' is left "
            "over: a move is one hex at a time (Rule 6.A): 'move UNIT FROM TO', then the "
            "next hex from TO") in str(e.value)
    s.apply("move 1188/357 1810 1710")
    s.apply("move 1188/357 1710 1610")
    assert s.pos.units["1188/357"].loc == "1610"
