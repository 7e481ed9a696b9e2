"""Issue 17 item 15: a morale check announced '(+0)' whose result adds the hex's own
modifiers says where the difference comes from (Rule 14.C)."""

from __future__ import annotations

import pytest

from engines.white_death import combat
from engines.white_death.base import DieArgs
from engines.white_death.combat import _on_mc
from engines.white_death.state import WDState
from pbem.registry import get


def test_the_morale_line_explains_a_modifier_added_at_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get("white-death")
    state = engine.new_state("purkayev", engine.resolve_options({}))
    uid = "1188/357"
    job = DieArgs("morale check", "Rule 14", uid=uid, mod=0, stage="defense",
                  hex=state.pos.units[uid].loc)
    plain = state.clone()
    assert isinstance(plain, WDState) and isinstance(state, WDState)
    with plain.telling() as (told, _):
        _on_mc(plain, job, 2)
    text = told[0].text
    assert text.startswith(f"{uid} morale ") and "roll 2 + modifier 0 = 2" in text
    assert "Rule 14.C" not in text
    # the unit is isolated when the roll comes: +1 that the announcement did not have
    monkeypatch.setattr(combat, "isolated", lambda s, u: True)  # as combat reads it
    with state.telling() as (told, _):
        _on_mc(state, job, 2)
    text = told[0].text
    assert "roll 2 + modifier 1 = 3" in text
    assert "+0 from the fire, +1 for isolation" in text and "Rule 14.C" in text
