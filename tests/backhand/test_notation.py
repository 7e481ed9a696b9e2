"""Backhand Blow's notation is its grammar's table (engines/backhand/notation.py): every
action a game lists is typed, writes back to the text it is read from, and names its
units and hexes as arguments."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.data import load
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act


def test_every_listed_action_is_typed_and_reads_back_to_its_own_text() -> None:
    """From turn 1's Front Markers (14.2) through movement (15.0), combat (16.0) and its
    hits, and turn 2's Administrative Segment (4.2 I) and administrative movement
    (15.1): each listed action parses to the same action, in canonical notation, and
    its units and hexes are the game's (a formation, a Front, or a refit box apart)."""
    s = ENGINE.new_state("backhand-blow")
    data = load()
    kinds: set[str] = set()
    for step in range(600):
        if s.is_terminal():
            break
        if s.is_chance():
            req = s.chance_request()
            s.apply_outcome(tuple(req.contents[:req.count]) if req.kind == "draw"
                            else tuple(1 + (step + i) % d for i, d in enumerate(req.dice)))
            continue
        legal = s.legal_actions()
        for a in legal:
            assert isinstance(a, Act)
            assert s.parse_canonical(a.notation()) == a
            assert all(u in data.units or u in data.formations or u.startswith("UP-")
                       for u in a.units()), a
            assert all(h in data.map or h in ("box1", "box2") for h in a.hexes()), a
            kinds.add(a.kind)
        pick = next((a for a in legal if a.kind in ("attack", "with", "resolve")), None)
        s.apply(pick or legal[(step * 7) % len(legal)])
    assert {"front", "move", "to", "end", "attack", "with", "resolve", "spend",
            "order"} <= kinds


@pytest.mark.parametrize(("text", "says"), [
    ("to 25", "to: argument hex wants a hex (four digits, 2510), not '25'"),
    ("spend two", "spend: argument n wants a number of C3I points"),
    ("order combat", "order: argument order wants one of combat-first, move-first"),
    ("charge LAH-1", "no action begins with 'charge'"),
])
def test_a_misspelt_action_is_refused_naming_the_argument(text: str, says: str) -> None:
    s = ENGINE.new_state("backhand-blow")
    with pytest.raises(ActionSyntaxError) as info:
        s.parse_action(text)
    assert says in str(info.value)
