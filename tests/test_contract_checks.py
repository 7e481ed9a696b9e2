"""The contract suite's checks can fail: each is shown catching the bug it is for, on the
test engine with one rule broken."""

from __future__ import annotations

from typing import Any

import pytest
import toy_engine
from toy_engine import ENGINE

from pbem.engine import Action
from pbem.steps import Refusal
from pbem.testing import random_playout


def playout() -> None:
    random_playout(ENGINE, "long", 1, max_steps=300, check_every=1, check_replay=False)


def test_the_toy_engine_passes() -> None:
    playout()


def test_a_default_that_is_not_legal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toy_engine.Orders, "default",
                        lambda self, s, args: toy_engine.Word("absorb"))
    with pytest.raises(AssertionError, match="default 'absorb' of orders is not among"):
        playout()


def test_an_action_listed_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = toy_engine.Orders.options

    def twice(self: Any, s: Any, args: Any) -> list[Action]:
        return [*real(self, s, args), toy_engine.Word("pass")]
    monkeypatch.setattr(toy_engine.Orders, "options", twice)
    with pytest.raises(AssertionError, match=r"an action is listed twice: \['pass', 'pass'\]"):
        playout()


def test_a_refusal_that_changes_the_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def careless(self: Any, s: Any, args: Any, action: Action) -> Refusal:
        s.pos.committed += 1  # the bug: a change before the refusal
        return Refusal("Skirmish 2", "no")
    monkeypatch.setattr(toy_engine.Orders, "why_not", careless)
    with pytest.raises(AssertionError, match=r"refusing '.*' changed the state"):
        playout()


def test_a_refusal_without_a_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toy_engine.Orders, "why_not",
                        lambda self, s, args, action: Refusal("", "no"))
    with pytest.raises(AssertionError, match="names no rule"):
        playout()
