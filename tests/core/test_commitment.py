"""pbem.engine.Commitment: a secret plan committed now and revealed later (protocol 6.3)."""

from __future__ import annotations

import pytest

from pbem.engine import Commitment
from pbem.errors import IllegalAction

SECRET = bytes(range(32))
NONCE = bytes(32)


def test_a_reveal_checks_against_the_commitment_and_a_changed_plan_is_refused() -> None:
    salt = Commitment.salt(SECRET, NONCE, "soviet", "4mc")
    c = Commitment("soviet", "4mc", Commitment.make("soviet", "4mc", ["4mc", "A"], salt))
    c.check(["4mc", "A"], salt, rule="9.1")
    with pytest.raises(IllegalAction, match=r"9\.1") as err:
        c.check(["4mc", "B"], salt, rule="9.1")
    assert "does not match" in str(err.value)
    with pytest.raises(IllegalAction):
        c.check(["4mc", "A"], bytes(32), rule="9.1")  # the wrong salt


def test_the_salt_is_the_sides_own_for_each_label_and_game() -> None:
    a = Commitment.salt(SECRET, NONCE, "soviet", "4mc")
    assert a == Commitment.salt(SECRET, NONCE, "soviet", "4mc")  # rebuilt from the key
    assert len(a) == 32
    assert a != Commitment.salt(SECRET, NONCE, "soviet", "5mc")
    assert a != Commitment.salt(SECRET, NONCE, "german", "4mc")
    assert a != Commitment.salt(SECRET, bytes([1]) * 32, "soviet", "4mc")
    assert a != Commitment.salt(bytes(32), NONCE, "soviet", "4mc")


def test_the_default_conceal_is_the_action_itself() -> None:
    from toy_engine import ENGINE, Word

    state = ENGINE.new_state("short")
    assert state.conceal(Word("pass"), lambda label: b"") == Word("pass")
