"""The test engine's own rules (the contract suite, tests/test_contract.py, plays it)."""

from __future__ import annotations

import pytest
from toy_engine import ENGINE

from pbem.errors import IllegalAction, NotYourTurn


def test_illegal_move_names_rule() -> None:
    state = ENGINE.new_state("short")
    state.apply_outcome(("calm",))
    state.apply("move b")
    with pytest.raises(IllegalAction, match=r"Skirmish 2\.1"):
        state.apply("move c")


def test_wrong_side_refused() -> None:
    state = ENGINE.new_state("short")
    state.apply_outcome(("calm",))
    with pytest.raises(NotYourTurn, match="red player's decision"):
        state.apply("pass", side="blue")


def test_outcome_out_of_range_refused() -> None:
    state = ENGINE.new_state("short")
    with pytest.raises(IllegalAction, match="not in cup"):
        state.apply_outcome(("hail",))
    state.apply_outcome(("calm",))
    state.apply("attack 2")
    with pytest.raises(IllegalAction, match="not a roll of 2d6"):
        state.apply_outcome((7, 1))
