"""Pure rule helpers of For the Motherland!: odds, stacking, step structures.

Kept apart from the state machine so each can be tested with the book's examples on
its own (odds rounding 15:4 and 11:12, column shifts from the end columns, the capped
die roll, the D2 example's three ways, the advance examples).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.hexkit.odds import Column


def column(attack: int, defense: int, columns: tuple[str, ...], shift: int) -> Column:
    """8.1 step 2 odds rounded for the defender, then 8.2 shifts from the end columns."""
    # the kit's odds arithmetic loads with a combat's first odds, not with every command
    # (issue 35)
    from engines.hexkit.odds import odds_column, shift_column

    col = odds_column(attack, defense, columns)
    return shift_column(col, shift, columns)


def final_roll(die: int, modifiers: list[int]) -> int:
    """8.2.1: modifiers are cumulative; a modified roll above 9 is 9 (and never below 1)."""
    from engines.hexkit.odds import modified_roll

    return modified_roll(die, modifiers, low=1, high=9)


def half_up(n: int) -> int:
    """9.5 halving, rounded up."""
    return (n + 1) // 2


def split_options(n: int, can_retreat: bool, must_retreat: bool) -> list[tuple[int, int]]:
    """The ways (steps, retreats) to take a numeric result of ``n`` (8.5).

    A unit that cannot retreat takes it all as steps (8.5, 8.5.1); on a Snow Turn the
    Axis must retreat (18.2.3), steps only being taken where a retreat is impossible.
    """
    if not can_retreat:
        return [(n, 0)]
    if must_retreat:
        return [(0, n)]
    return [(s, n - s) for s in range(n, -1, -1)]


def advance_allowance(result_n: int, steps_taken: int, eliminated: bool) -> int:
    """8.7: the loser's result minus its step losses, at most 2; an AE/DE allows 2.

    ``eliminated`` means eliminated by an AE or DE result (8.7.1's "have been
    eliminated"); units that die of step losses give only what the formula gives.

    Example 1 (D3, one step, two hexes back) gives 2; Example 2 (mandatory 1/1 that
    eliminates the one-step attacker) gives the defender 0; Example 3 (D2, one step, one
    hex back) gives 1.
    """
    if eliminated:
        return 2
    return max(0, min(2, result_n - steps_taken))
