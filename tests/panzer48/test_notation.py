"""48th Panzer Korps' notation is its grammar's table (engines/panzer48/notation.py):
every action a game lists is typed, writes back to the text it is read from, and names
its units and hexes as arguments, not as words a tool guesses from."""

from __future__ import annotations

import json

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.notation import GRAMMAR, route
from engines.panzer48.reinforcements import digest_of
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act, hexes_of, names
from pbem.testing import fresh_run


@pytest.mark.parametrize("scenario", ["first-day", "chir"])
def test_every_listed_action_is_typed_and_reads_back_to_its_own_text(scenario: str) -> None:
    """Through the set-up (9), the plan (9.1), movement (3.2, 4), attacks and fires (7),
    morale (8.1), retreats (8.3) and advances (8.4): each listed action's text parses to
    the same action, in canonical notation, and its units and hexes are the game's."""
    s = ENGINE.new_state(scenario)
    kinds: set[str] = set()
    for step in range(1500):
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply_outcome((1 + step % 6,))
            continue
        legal = s.legal_actions()
        for a in legal:
            assert isinstance(a, Act)
            assert s.parse_canonical(a.notation()) == a
            assert all(u in s.d.units for u in a.units()), a
            hexes = route(a)[0] if a.kind == "path-off" else list(a.hexes())
            assert all(h in s.d.map for h in hexes), a
            kinds.add(a.kind)
        # attack and fire when it can, else spread the choices over the list
        pick = next((a for a in legal if a.kind in ("attack", "hasty", "with", "fire")), None)
        s.apply(pick or legal[(step * 7) % len(legal)])
    assert {"place", "setup-done", "move", "to", "stop", "end-movement", "attack", "with",
            "go", "fire", "roll", "end-fire"} <= kinds
    assert kinds & {"path", "path-none", "path-off", "off-map"}


@pytest.mark.parametrize(("text", "says"), [
    ("attack 35O8", "attack: argument hex wants a hex (four digits, 3508), not '35O8'"),
    ("plan 321 two B", "plan: argument turn wants a turn, not 'two'"),
    ("move 685/I 3508", "move: too many words: nothing follows 'move 685/I'"),
    ("path 3508-", "argument path wants a retreat path"),
    ("charge 685/I", "no action begins with 'charge'"),
    ("to  3508", "words are separated by one space"),
])
def test_a_misspelt_action_is_refused_naming_the_argument(text: str, says: str) -> None:
    s = ENGINE.new_state("first-day")
    with pytest.raises(ActionSyntaxError) as info:
        s.parse_action(text)
    assert says in str(info.value)


def test_a_stack_moves_by_its_hex_a_unit_by_its_id() -> None:
    """3.2: ``move 3508`` moves the stack in 3508, ``move 110PG/I`` one unit: the form is
    told by the word, so no unit id may read as a hex."""
    s = ENGINE.new_state("first-day")
    assert not [u for u in s.d.units if GRAMMAR.types["hex"].read(u) is not None]
    stack = GRAMMAR.parse("move 3508")
    assert stack.kind == "move-stack" and stack.hexes() == ("3508",) and not stack.units()
    unit = GRAMMAR.parse("move 110PG/I")
    assert unit.kind == "move" and unit.units() == ("110PG/I",) and not unit.hexes()


def test_a_retreat_path_names_its_hexes_and_whether_it_leaves_the_map() -> None:
    """8.3: a path hex by hex, one off the map at its edge, none at all."""
    assert route(GRAMMAR.parse("path 3508-3509")) == (["3508", "3509"], False)
    assert route(GRAMMAR.parse("path 3508-3509-off")) == (["3508", "3509"], True)
    assert GRAMMAR.parse("path none").kind == "path-none"
    assert GRAMMAR.parse("path 3508").hexes() == ("3508",)


def test_a_retreat_path_is_picked_by_any_hex_it_passes() -> None:
    """``pbem legal GAME 3509`` and the board's clicks pick actions by what they name: a
    path names each hex on it (its text is one word); the map edge is no cell, which
    they drop as they drop any word that is none."""
    s = ENGINE.new_state("first-day")
    path = GRAMMAR.parse("path 3508-3509-off")
    assert "3509" in names(path)
    assert [h for h in hexes_of(path, s.d.map.__contains__) if h in s.d.map] == [
        "3508", "3509"]


def test_a_session_signs_the_plan_as_a_commitment_and_reveals_it_with_its_salt() -> None:
    """9.1: ``plan F TURN AREA`` leaves as ``commit F TURN DIGEST``; ``reveal F`` as
    ``open F AREA SALT`` (State.conceal), typed like any other action."""
    s = ENGINE.new_state("first-day")
    salt = bytes(range(32))
    sealed = s.conceal(s.parse_action("plan 321 2 B"), lambda f: salt)
    assert sealed.notation() == f"commit 321 2 {digest_of('321', 'B', salt)}"
    assert isinstance(sealed, Act) and sealed.number("turn") == 2
    s.pos.plan_digests["321"] = digest_of("321", "B", salt)
    opened = s.conceal(s.parse_action("reveal 321"), lambda f: salt)
    assert opened.notation() == f"open 321 B {salt.hex()}"


VERB_ALONE = ("SETUP_DONE", "END_COMBAT", "GO", "CANCEL", "ROLL", "END_FIRE", "RETREAT",
              "CHECK", "PATH_NONE", "OFF_MAP", "END_ADVANCE", "END_MOVEMENT", "EXIT", "STOP")


def test_the_verb_alone_actions_are_the_grammar_s_own_written_when_first_asked() -> None:
    """Each action of a verb alone is the one the grammar makes and parses (the very
    object), and importing the engine writes none of their texts (issue 35)."""
    from engines.panzer48 import notation

    for name in VERB_ALONE:
        a = getattr(notation, name)
        assert notation.GRAMMAR[a.kind]() is a
        assert notation.parse(a.notation()) is a
        assert a.notation() == a.kind.replace("path-none", "path none")
    probe = ("import json\nfrom engines.panzer48 import notation\n"
             f"print(json.dumps([getattr(notation, n)._text for n in {VERB_ALONE!r}]))\n")
    assert json.loads("\n".join(fresh_run(probe))) == [None] * len(VERB_ALONE)
