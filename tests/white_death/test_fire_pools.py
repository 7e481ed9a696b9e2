"""A fire decision's listing works out each kind's pool once (Rule 9.C.3: its candidates
and every fire's check read it, and a check changes nothing), with the same listing as
when every reading works it out again (issue 35)."""

from __future__ import annotations

import pytest

from engines.white_death import WhiteDeath, assault
from engines.white_death.decisions import Fire, WDChoice
from engines.white_death.state import WDState
from pbem.testing import Chooser, decisions


def _fire_decisions(engine: WhiteDeath, seed: str, steps: int) -> int:
    s = engine.new_state("purkayev")
    assert isinstance(s, WDState)
    seen = 0
    for at in decisions(s, Chooser(seed), steps):
        assert isinstance(at, WDState)
        step = at.step()
        if not isinstance(step, Fire):
            continue
        args = at.stack[-1].args
        kept = step.options(at, args)
        assert assault.POOLS not in at._cache  # taken out after the listing
        each = WDChoice.options(step, at, args)  # every reading works the pools out
        assert [a.notation() for a in kept] == [a.notation() for a in each]
        assert at.legal_actions() == kept
        seen += 1
    return seen


@pytest.mark.slow
def test_a_fire_listing_is_the_same_with_its_pools_kept(engine: WhiteDeath) -> None:
    seen = sum(_fire_decisions(engine, f"pools/{n}", 500) for n in range(3))
    assert seen >= 10


def test_a_fire_listing_works_each_pool_out_once(
        engine: WhiteDeath, monkeypatch: pytest.MonkeyPatch) -> None:
    s = engine.new_state("purkayev")
    assert isinstance(s, WDState)
    for at in decisions(s, Chooser("pools/once"), 2000):
        assert isinstance(at, WDState)
        step = at.step()
        if isinstance(step, Fire) and any(
                a.notation().startswith("fire ") for a in at.legal_actions()):
            break
    else:
        pytest.fail("no fire decision with a fire to allocate")
    worked: list[str] = []
    real = assault._pool_parts

    def counted(state: WDState, kind: str) -> object:
        worked.append(kind)
        return real(state, kind)

    monkeypatch.setattr(assault, "_pool_parts", counted)
    at.forget_options()
    listed = at.legal_actions()
    assert sum(a.notation().startswith("fire ") for a in listed) >= 2
    assert sorted(worked) == sorted(set(worked))  # each kind once
