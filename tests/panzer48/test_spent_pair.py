"""48th Panzer Korps: a unit's movement points spent (4) are held as the pair a save
writes for a Fraction, so that a turn command that prices no move imports no fractions
(issue 35: fractions with decimal and numbers, 10 M instructions of every ``legal``,
``act`` and ``receive``); the save's bytes, and what it refuses, are as before."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.state import P48State
from pbem import canonical, codec
from pbem.errors import FormatError
from pbem.setup import setup
from pbem.testing import fresh_run


def state(text: str) -> P48State:
    s = setup(ENGINE, "chir", "only = true\nphase = \"turns\"\n" + text)
    assert isinstance(s, P48State)
    return s


def moved() -> P48State:
    """A German stack two road hexes into its move (4: 1/2 MP a road hex), then a unit
    moved on one more hex by itself."""
    s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
              'at = { "61K" = "4014", "349R" = "1124" }')
    s.apply("move 61K")
    s.apply("to 3914")
    return s


def test_the_pair_is_written_as_the_fraction_was() -> None:
    """A position's spent MPs encode as ``[numerator, denominator]``, the bytes the
    codec wrote for a Fraction: a save's digest is unchanged by the pair."""
    s = moved()
    spent = s.pos.units["61K"].spent
    assert spent[1] in (1, 2) and spent != (0, 1)
    fraction = Fraction(*spent)
    data = codec.to_data(s.pos)
    assert data["units"]["61K"]["spent"] == [fraction.numerator, fraction.denominator]
    assert data["units"]["349R"]["spent"] == [0, 1]  # Fraction(0) was [0, 1]
    # and reads back to the same position and bytes
    again = ENGINE.restore(canonical.decode(canonical.encode(s.snapshot())))
    assert again.digest() == s.digest()
    assert isinstance(again, P48State) and again.pos.units["61K"].spent == spent


@pytest.mark.parametrize(("pair", "message"), [
    ([2, 4], "fraction 2/4 is not in lowest terms"),
    ([0, 2], "fraction 0/2 is not in lowest terms"),
    ([1, 0], "expected [numerator, denominator], got list [1, 0]"),
    ([1, -2], "expected [numerator, denominator], got list [1, -2]"),
])
def test_a_save_whose_spent_mps_the_fraction_refused_is_refused(
        pair: list[int], message: str) -> None:
    """One value, one encoding: a pair not in lowest terms, or with no positive
    denominator, is refused as the codec's Fraction refused it, naming the unit."""
    s = moved()
    snap = canonical.decode(canonical.encode(s.snapshot()))
    snap["body"]["position"]["units"]["61K"]["spent"] = pair
    with pytest.raises(FormatError, match=r"position\.units\['61K'\]\.spent: ") as exc:
        ENGINE.restore(snap)
    assert message in str(exc.value)


def test_a_pair_that_is_not_two_ints_is_refused() -> None:
    s = moved()
    snap = canonical.decode(canonical.encode(s.snapshot()))
    snap["body"]["position"]["units"]["61K"]["spent"] = [1, 2, 3]
    with pytest.raises(FormatError, match=r"units\['61K'\]\.spent"):
        ENGINE.restore(snap)


_TURN = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
side = state.current_player()
legal = state.legal_actions()
state.status_line(side)
state.counters(side)
state.apply("fire 44MR Adam")
state.apply("roll")
told = state.apply_outcome((6,))
state.legal_actions()
print(json.dumps(['fractions' in sys.modules, [a.notation() for a in legal],
                  [e.text for e in told]]))
"""


def test_a_fire_is_listed_and_resolved_without_fractions() -> None:
    """A game restored at a fire (7.2) is listed, shown, and its fire resolved on the
    Combat Results Table (7.4's weapons modifier, rounded) without importing fractions:
    no move is priced."""
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "2036", attacker = "soviet", prepared = false, '
              'stage = "attack", attackers = ["44MR", "14MR"], defenders = ["Adam"] }\n'
              'at = { "Adam" = "2036", "44MR" = "2035", "14MR" = "2035" }')
    out_lines = fresh_run(_TURN, json.dumps(s.snapshot()))
    loaded, legal, told = json.loads("\n".join(out_lines))
    assert "fire 44MR Adam" in legal
    assert any("value" in t for t in told), told
    assert loaded is False


@pytest.mark.parametrize("text", ["1", "1/4", "2", "1/2", "3/6", "0", "0/5", "10/4", 2,
                                  "1.5", "-1/2", " 1/4", "3e-1"])
def test_a_chart_ratio_is_the_fractions_value(text: object) -> None:
    """7.4's modifiers read as integer pairs are exactly the Fraction of the same text,
    for plain digits and for every other form Fraction reads."""
    from engines.panzer48.data import frac, ratio

    value = frac(text)
    assert ratio(text) == (value.numerator, value.denominator)


def test_a_bad_chart_ratio_is_refused_as_fraction_refuses_it() -> None:
    from engines.panzer48.data import ratio

    with pytest.raises(ZeroDivisionError):
        ratio("1/0")
    with pytest.raises(ValueError):
        ratio("a quarter")


def test_rounding_in_integers_is_rounding_the_fraction() -> None:
    """7.4: nearest, one half down, the same in integers as of the Fraction, reduced or
    not."""
    from engines.panzer48.combat import _round_half_down, round_half_down

    for num in range(0, 60):
        for den in (1, 2, 3, 4, 6, 8):
            want = round_half_down(Fraction(num, den))
            assert _round_half_down(num, den) == want
            assert _round_half_down(3 * num, 3 * den) == want
    assert [round_half_down(Fraction(n, 4)) for n in range(9)] == [0, 0, 0, 1, 1, 1, 1, 2, 2]


def test_adding_to_the_pair_is_adding_to_the_fraction() -> None:
    """4: a step's cost in half MPs added to the MPs spent, and compared with an
    allowance, in integers, is the Fraction's sum and comparison."""
    from engines.panzer48.position import add_halves, halves_mps, within

    pairs = [(0, 1), (1, 2), (1, 1), (3, 2), (2, 3), (2, 1), (7, 3)]
    for n, d in pairs:
        for h in range(0, 8):
            total = Fraction(n, d) + Fraction(h, 2)
            assert add_halves((n, d), h) == (total.numerator, total.denominator)
            for allowance in range(0, 12):
                assert within((n, d), h, allowance) is (total <= Fraction(allowance, 2))
        value = Fraction(n, 2)
        assert halves_mps(n) == (value.numerator, value.denominator)


_MOVE = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
legal = [a.notation() for a in state.legal_actions()]
state.apply("to 2230")
print(json.dumps(['fractions' in sys.modules, legal, state.pos.units["61K"].spent]))
"""


def test_a_move_along_a_road_is_priced_without_fractions() -> None:
    """4: a road hex costs 1/2 MP; a stack moving along the road is listed its next
    hexes and moved, its half MPs added up, in a fresh process that never imports
    fractions (the costs counted in half MPs: 8.4 M instructions of a game's replay)."""
    s = state('phasing = "german"\nstep = "movement"\nat = { "61K" = "2228" }')
    s.apply("move 61K")
    s.apply("to 2229")
    assert s.pos.units["61K"].spent == (1, 2)
    out_lines = fresh_run(_MOVE, json.dumps(s.snapshot()))
    loaded, legal, spent = json.loads("\n".join(out_lines))
    assert "to 2230" in legal
    assert spent == [1, 1]  # two road hexes
    assert loaded is False
