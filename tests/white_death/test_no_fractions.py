"""White Death's numbers without ``fractions`` (issue 35): importing it pulls decimal and
numbers, about 9.6 M instructions of every command. The charts' costs are held in ticks,
the factors and every fire amount as exact ``(numerator, denominator)`` pairs
(``position.Q``), added, compared and divided in ints. These tests hold the int
arithmetic to Fraction's on every value the tables give, and hold a fire decision's
listing, its default and a save of it to making no Fraction at all."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from engines.white_death import ENGINE, WhiteDeath, rules
from engines.white_death.notation import _amount, fmt_amount, parse
from engines.white_death.position import q, q_add, q_cmp, q_div, q_mul, q_sub, q_sum
from pbem.errors import ActionSyntaxError, FormatError
from pbem.testing import fresh_run

#: values the fire rules meet: whole, halves, quarters, eighths (a 1/4 factor halved),
#: thirds (a column 1:3's need), and a player's odd split
_VALUES = sorted({Fraction(n, d) for d in (1, 2, 3, 4, 7, 8, 12) for n in range(0, 50, 3)})


def _pair(f: Fraction) -> tuple[int, int]:
    return (f.numerator, f.denominator)


def test_pairs_add_subtract_multiply_divide_and_compare_as_fractions() -> None:
    for a, b in itertools.product(_VALUES, repeat=2):
        pa, pb = _pair(a), _pair(b)
        assert q_add(pa, pb) == _pair(a + b)
        assert q_sub(pa, pb) == _pair(a - b)
        assert q_mul(pa, pb) == _pair(a * b)
        if b:
            assert q_div(pa, pb) == _pair(a / b)
        assert q_cmp(pa, pb) == (a > b) - (a < b)
    assert q_sum(_pair(v) for v in _VALUES) == _pair(sum(_VALUES, Fraction(0)))
    for n, d in itertools.product(range(-12, 13), (-6, -4, -1, 1, 3, 4, 6, 12)):
        assert q(n, d) == _pair(Fraction(n, d))


def test_an_amount_reads_and_writes_as_fractions_do() -> None:
    for text in ("3", "04", "6/2", "7/3", "0/5", "12/8", "100/1"):
        f = Fraction(text)
        assert _amount(text) == _pair(f)
        assert fmt_amount(_amount(text)) == str(f)
    with pytest.raises(ZeroDivisionError):
        _amount("1/0")
    with pytest.raises(ActionSyntaxError, match="bad amount '3/0'"):
        parse("fire 3/0 at I/277")


def test_every_ratio_the_tables_give_is_fractions(engine: WhiteDeath) -> None:
    """Rule 9.C.3's need for each column against every defense the chart gives, and
    the odds column of each value against each defense: Fraction's arithmetic."""
    t = engine.catalog().tables
    defenses = sorted({d for row in t.defense.values() for d in row.values()} | {1, 2, 5})
    for col, (a, b) in enumerate(t.columns):
        for d in defenses:
            need = Fraction(d) * a / b
            assert rules.needed_for(t, col, d) == _pair(need)
            assert rules.odds_column(t, _pair(need), d) == col  # the least reaching it
    keys = [Fraction(a, b) for a, b in t.columns]
    for v in _VALUES:
        for d in defenses:
            want = max((i for i, k in enumerate(keys) if k <= v / d), default=-1)
            assert rules.odds_column(t, _pair(v), d) == want, (v, d)


def _split_as_before(bounds: tuple[int, ...], value: Fraction) -> list[int]:
    top = bounds[-1]
    out: list[int] = []
    rest = value
    while rest >= top * 2 or (rest >= top and rest - top >= bounds[0]):
        out.append(len(bounds) - 1)
        rest -= top
    col = max((i for i, b in enumerate(bounds) if b <= rest), default=-1)
    return [*out, col] if col >= 0 else out


def test_a_barrage_splits_as_fractions_did(engine: WhiteDeath) -> None:
    """Rule 11.B.2.A over barrage values in halves and quarters (a value halved for its
    range, then for the rockets' unpaid supply) up to three top columns."""
    t = engine.catalog().tables
    for quarters in range(0, 4 * 200):
        v = Fraction(quarters, 4)
        assert rules.split_barrage(t, _pair(v)) == _split_as_before(t.barrage_columns, v), v


def test_battalion_equivalents_count_halves_as_fractions_did(engine: WhiteDeath) -> None:
    """Rule 4.A over every pair and triple of a stack's German units."""
    units = [u for u in engine.catalog().units.values() if u.side == "german"][:40]

    def before(stack: list) -> Fraction:  # type: ignore[type-arg]
        total = Fraction(0)
        by: dict[str, int] = {}
        whole = {u.battalion: u.companies for u in stack if u.battalion}
        for u in stack:
            if u.type.size == "I" and u.battalion:
                by[u.battalion] = by.get(u.battalion, 0) + 1
                continue
            total += {"I": Fraction(1, 2), "II": Fraction(1), "III": Fraction(3),
                      "X": Fraction(3)}.get(u.type.size, Fraction(1))
        for bn, n in by.items():
            total += Fraction(1) if 0 < whole[bn] <= n else Fraction(n, 2)
        return total

    sizes = set()
    for k in (1, 2, 3):
        for stack in itertools.combinations(units, k):
            got = rules._battalion_equivalents(list(stack))
            assert Fraction(got, 2) == before(list(stack)), [u.uid for u in stack]
            sizes.add(got % 2)
    assert sizes == {0, 1}  # whole and half equivalents both met


_FIRE_NEW = """
import json
from engines.white_death import ENGINE
from engines.white_death.decisions import Fire
from pbem.testing import Chooser, decisions
state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
for at in decisions(state, Chooser("imports/fire"), 3000):
    if isinstance(at.step(), Fire) and any(
            a.notation().startswith("fire ") and "/" in a.notation()
            for a in at.legal_actions()):
        break
print(json.dumps(state.snapshot()))
"""

_FIRE = """
import json, sys
from engines.white_death import ENGINE
from pbem import codec
state = ENGINE.restore(json.loads(sys.stdin.read()))
legal = [a.notation() for a in state.legal_actions()]
split = next(a for a in legal if a.startswith("fire ") and "/" in a)
{act}
state.legal_actions()
saved = json.dumps(state.snapshot())
print(json.dumps([legal, split, "fractions" in sys.modules]))
print(saved)
"""


def test_a_fire_decision_lists_acts_and_saves_without_fractions() -> None:
    """A purkayev fire decision whose listing offers a split of the pool ("fire 8/3 at
    ..."): listed, its default (``done firing``: the Default Actions' shares) applied,
    and saved, in a fresh process that never imports fractions; then a listed split
    allocated, saved, and read back by a process that has Fraction loaded (the
    save's [numerator, denominator] is a Fraction's form), alike."""
    snapshot = fresh_run(_FIRE_NEW, "")[-1]
    legal, split, loaded = json.loads(fresh_run(
        _FIRE.format(act="state.apply(state.parse_action('done firing'))"), snapshot)[-2])
    assert "done firing" in legal and "/" in split
    assert loaded is False
    out = fresh_run(_FIRE.format(act="state.apply(state.parse_action(split))"), snapshot)
    (_, split, loaded), saved = json.loads(out[-2]), out[-1]
    assert loaded is False
    n, d = (int(x) for x in split.split()[1].split("/"))
    alloc = json.loads(saved)["body"]["position"]["combat"]["alloc"]
    assert alloc[-1]["amount"] == [n, d]
    again = fresh_run("""
import json, sys
from fractions import Fraction
from engines.white_death import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
print(json.dumps([state.pos.combat.alloc[-1].amount, state.snapshot()]))
""", saved)[-1]
    amount, resaved = json.loads(again)
    assert amount == [n, d] and json.dumps(resaved) == saved


def test_an_allocation_not_in_lowest_terms_is_refused_as_the_codecs_fraction_was() -> None:
    snapshot = json.loads(fresh_run(_FIRE_NEW, "")[-1])
    state = ENGINE.restore(snapshot)
    split = next(a.notation() for a in state.legal_actions()
                 if a.notation().startswith("fire ") and "/" in a.notation())
    state.apply(state.parse_action(split))
    saved = state.snapshot()
    n, d = saved["body"]["position"]["combat"]["alloc"][-1]["amount"]
    for bad, why in (([2 * n, 2 * d], f"fraction {2 * n}/{2 * d} is not in lowest terms"),
                     ([n, 0], r"expected \[numerator, denominator\]"),
                     ([n, -d], r"expected \[numerator, denominator\]")):
        damaged = json.loads(json.dumps(saved))
        damaged["body"]["position"]["combat"]["alloc"][-1]["amount"] = bad
        with pytest.raises(FormatError, match=r"position\.combat\.alloc\[\d+\]\.amount: "
                           + why):
            ENGINE.restore(damaged)
