"""Pure rule arithmetic: odds, table lookups, morale bands, losses, stacking, releases.

Kept free of game state so the manual's own numbers can be tested directly (29 against
10 is 2:1; MC 3 on a strength-3 unit loses one point and checks at +3).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import pairwise

from engines.white_death.data import Tables, UnitDef, UnitType
from engines.white_death.position import Q, q, q_cmp, q_sub


def odds_column(tables: Tables, value: Q, defense: int) -> int:
    """Index of the odds column, rounded in the defender's favor; -1 below the first.

    Rule 9.C.3: "fractions always rounded in favor of the defender. Thus 29 conventional
    fire factors firing against a unit with a defense value of 10 would become 2:1".
    """
    if defense <= 0:
        return len(tables.columns) - 1
    n, d = value
    if n < 0:
        return -1
    # the kit's odds_column, its columns' ratios read once per table rather than parsed
    # from their labels at every combat and fire plan (a listing's fire options ask it
    # per target and amount); a column a:b is reached when a/b <= n/(d * defense), in
    # ints (tests/white_death/test_rules_tables.py: the kit's column for every value)
    best = -1
    for i, (a, b) in enumerate(_keys(tables.columns)):
        if a * d * defense <= b * n:
            best = i
    return best


@functools.cache
def _labels(columns: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    return tuple(f"{a}:{b}" for a, b in columns)


@functools.cache
def _keys(columns: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The columns' ratios ``(a, b)`` as the kit reads their labels
    (``hexkit.odds.parse_odds`` of ``"a:b"``: ``a`` and ``b`` whole numbers, ``b`` not 0),
    checked as it checks them: read from the pairs themselves, so that a fire command does
    not load the kit's odds and compile its label pattern (1.9 M instructions, issue 35)."""
    labels = _labels(columns)
    for (a, b), lab in zip(columns, labels, strict=True):
        if a < 0 or b <= 0:
            raise ValueError(f"{lab!r} is not an odds column like '3:1' or '1:2'")
    # strictly increasing ratios, compared in ints (a1/b1 < a2/b2)
    if not columns or any(a1 * b2 >= a2 * b1
                          for (a1, b1), (a2, b2) in pairwise(columns)):
        raise ValueError(f"columns {list(labels)} must be strictly increasing")
    return columns


def column_label(tables: Tables, col: int) -> str:
    if col < 0:
        return "below 1:4"
    a, b = tables.columns[col]
    return f"{a}:{b}"


def needed_for(tables: Tables, col: int, defense: int) -> Q:
    """The least fire value reaching column ``col`` against ``defense``."""
    a, b = tables.columns[col]
    return q(defense * a, b)


def conventional_result(tables: Tables, col: int, roll: int) -> int:
    """The number after MC (0 for a bare MC), Rule 9.C.4."""
    n = tables.conventional[roll - 1][col]
    return 0 if n is None else n


def antitank_result(tables: Tables, col: int, roll: int) -> int:
    return tables.antitank[roll - 1][col]


def conventional_loss(n: int, strength: int) -> int:
    """Strength points lost to an MC n result (Rule 9.C.4).

    "A unit is never required to lose more than half its remaining strength due to a
    conventional fire attack unless its remaining strength is 1."  Half is rounded down.
    """
    if strength <= 1:
        return min(n, strength)
    return min(n, strength // 2)


def barrage_column(tables: Tables, value: Q) -> int:
    """Rule 11.B.2.A: the column whose lowest value is the highest not above the total;
    -1 below the first (the kit's ``odds.threshold_column``, in ints)."""
    bounds = tables.barrage_columns
    if not bounds or any(x >= y for x, y in pairwise(bounds)):
        raise ValueError(f"columns {[str(b) for b in bounds]} must be strictly increasing")
    n, d = value
    best = -1
    for i, bound in enumerate(bounds):
        if bound * d <= n:
            best = i
    return best


def split_barrage(tables: Tables, value: Q) -> list[int]:
    """Column indices of the attacks a barrage value is run as (Rule 11.B.2.A).

    Whole attacks at the top column, then one attack with the rest: 80 is one attack at
    60+ and one at 20-29, as the manual's example has it.
    """
    top = tables.barrage_columns[-1]
    out: list[int] = []
    rest = value
    while q_cmp(rest, (top * 2, 1)) >= 0 or (
            q_cmp(rest, (top, 1)) >= 0
            and q_cmp(q_sub(rest, (top, 1)), (tables.barrage_columns[0], 1)) >= 0):
        out.append(len(tables.barrage_columns) - 1)
        rest = q_sub(rest, (top, 1))
    col = barrage_column(tables, rest)
    if col >= 0:
        out.append(col)
    return out


def barrage_result(tables: Tables, col: int, modified_roll: int) -> int:
    if modified_roll > 6:
        return 0
    return tables.barrage[max(modified_roll, 1) - 1][col]


def morale_band(modified_roll: int, morale: int) -> str:
    """Rule 14: pass if <= morale, fail if 1 or 2 higher, rout if 3 or more higher."""
    over = modified_roll - morale
    if over <= 0:
        return "pass"
    if over <= 2:
        return "fail"
    return "rout"


def garrison_released(turn: int, roll: int) -> bool:
    """Rule 22: turn 2 on a 1, turn 3 on 1-2, turn 4 on 1-3, and so on."""
    return turn >= 2 and roll <= turn - 1


def airdrop_received(weather: str, roll: int) -> bool:
    """Rule 15.D.1: received on 1-4 in clear/frost and thaw, on 1-2 in snow."""
    return roll <= (2 if weather == "snow" else 4)


#: Rule 4.A's battalion equivalents of a counter by its size, in halves (a company is
#: half of one): counted in ints
_HALVES = {"I": 1, "II": 2, "III": 6, "X": 6}


def _battalion_equivalents(units: Sequence[UnitDef]) -> int:
    """Rule 4.A, in halves of a battalion equivalent: "any one battalion counter, any two
    companies, or all of the companies of a single battalion" is one battalion
    equivalent; all the companies of a battalion (as many as the order of battle gives
    it) are one, not half a point each."""
    total = 0
    by_battalion: dict[str, int] = {}
    whole = {u.battalion: u.companies for u in units if u.battalion}
    for u in units:
        if u.type.size == "I" and u.battalion:
            by_battalion[u.battalion] = by_battalion.get(u.battalion, 0) + 1
            continue
        total += _HALVES.get(u.type.size, 2)
    for bn in sorted(by_battalion):
        n = by_battalion[bn]
        total += 2 if 0 < whole[bn] <= n else n
    return total


def german_stack_ok(units: Sequence[UnitDef]) -> bool:
    """Rule 4.A: three battalion equivalents (four if all of one division), plus a company."""
    units = [u for u in units if "intrinsic" not in u.type.flags]
    if len(units) <= 1:
        return True
    options: list[list[UnitDef]] = [list(units)]
    for i, u in enumerate(units):
        if u.type.size == "I":
            options.append(units[:i] + units[i + 1:])
    for rest in options:
        halves = _battalion_equivalents(rest)
        if halves <= 6:
            return True
        if halves <= 8 and len({u.div for u in rest}) == 1:
            return True
    return False


def soviet_stack_ok(units: Sequence[UnitDef]) -> bool:
    """Rule 4.B: one brigade's units, or two non-divisional artillery units, or one
    regiment and one battalion; plus any one engineer brigade."""
    units = list(units)
    if len(units) <= 1:
        return True
    options: list[list[UnitDef]] = [units]
    for i, u in enumerate(units):
        if "engineer" in u.type.flags and u.type.size == "X":
            options.append(units[:i] + units[i + 1:])
    for rest in options:
        if len(rest) <= 1:
            return True
        divs = {u.div for u in rest}
        if len(divs) == 1 and all(u.type.size in ("II", "I") for u in rest):
            return True  # the units of a single brigade
        if len(rest) <= 2 and all("nondiv" in u.type.flags for u in rest):
            return True
        regiments = [u for u in rest if u.type.size in ("III", "X")]
        battalions = [u for u in rest if u.type.size in ("II", "I")]
        if len(rest) == 2 and len(regiments) <= 1 and len(battalions) <= 1:
            return True
    return False


def stack_ok(side: str, units: Sequence[UnitDef]) -> bool:
    return german_stack_ok(units) if side == "german" else soviet_stack_ok(units)


def fright_immune_type(t: UnitType, side: str) -> bool:
    """Rule 14.C.2: German AFV, antitank and heavy antiaircraft units."""
    return side == "german" and (t.afv or "fright-immune" in t.flags)
