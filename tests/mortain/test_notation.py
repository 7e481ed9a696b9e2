"""Mortain Counterattack's notation is its grammar's table (engines/mortain/notation.py):
every action a game lists is typed, writes back to the text it is read from, and names
its units and hexes as arguments, not as words a tool guesses from."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE
from engines.mortain.data import rules
from engines.mortain.notation import GRAMMAR
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act


def test_every_listed_action_is_typed_and_reads_back_to_its_own_text() -> None:
    """Through the US set-up (13.0), German arrivals and movement (11.0, S3), combat (S7,
    S8) and its results: each listed action's text parses to the same action, in canonical
    notation, and its units and hexes are the game's."""
    s = ENGINE.new_state("counterattack")
    r = rules()
    kinds: set[str] = set()
    for step in range(400):
        if s.is_terminal():
            break
        if s.is_chance():
            req = s.chance_request()
            s.apply_outcome(tuple(req.contents[:req.count]) if req.kind == "draw"
                            else (1 + step % 6,))
            continue
        legal = s.legal_actions()
        for a in legal:
            assert isinstance(a, Act)
            assert s.parse_canonical(a.notation()) == a
            assert all(u in r.units for u in a.units()), a
            assert all(h in r.map for h in a.hexes()), a
            kinds.add(a.kind)
        # attack when it can, else spread the choices over the list
        pick = next((a for a in legal if a.kind in ("attack", "with", "support")), None)
        s.apply(pick or legal[(step * 7) % len(legal)])
    assert {"place", "enter", "move", "end-movement", "attack", "with", "resolve",
            "end-combat"} <= kinds


@pytest.mark.parametrize(("text", "says"), [
    ("move G01 31", "move: argument to wants a hex (four digits, 3110), not '31'"),
    ("support three", "support: argument value wants a support fire marker's value"),
    ("demolish Eng/CCB 2407", "argument bridge wants a See bridge"),
    ("end turn", "end: expected 'movement' or 'combat', not 'turn'"),
    ("charge G01", "no action begins with 'charge'"),
])
def test_a_misspelt_action_is_refused_naming_the_argument(text: str, says: str) -> None:
    s = ENGINE.new_state("counterattack")
    with pytest.raises(ActionSyntaxError) as info:
        s.parse_action(text)
    assert says in str(info.value)


def test_typed_arguments_of_the_see_bridges_and_retreats() -> None:
    bridge = GRAMMAR.parse("demolish Eng/CCB 2407/2408")
    assert bridge.units() == ("Eng/CCB",) and bridge.hexes() == ("2407", "2408")
    assert GRAMMAR.parse("retreat").kind == "retreat-attackers"
    back = GRAMMAR.parse("retreat 1/33 0708")
    assert back.kind == "retreat" and back.text("to") == "0708"
    assert GRAMMAR.parse("support 3").number("value") == 3
