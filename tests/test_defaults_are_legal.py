"""Issue 17 item 5: the default a decision shows (and Enter takes at the play prompt) is
always one of the legal actions, at the decisions where it used to be refused."""

from __future__ import annotations

import pytest

from pbem.registry import get
from pbem.testing import Chooser


@pytest.mark.parametrize(("engine_id", "scenario", "kind", "usual"), [
    # For the Motherland! 10.2: markers that can reach a Supply Base must be placed, so
    # 'end partisans' is refused while one can
    ("for-the-motherland", "1-barbarossa", "partisan-placement", "end partisans"),
    # White Death Rule 4: a unit passing through a full hex must move on first
    ("white-death", "purkayev", "movement", "end movement"),
])
def test_the_default_is_legal_where_the_usual_one_is_not(engine_id: str, scenario: str,
                                                         kind: str, usual: str) -> None:
    engine = get(engine_id)
    state = engine.new_state(scenario, engine.resolve_options({}))
    chooser = Chooser(f"w/{scenario}")
    checked = 0
    for _ in range(1500):
        if state.is_terminal() or checked >= 1:
            break
        if state.is_chance():
            state.apply_outcome(chooser.outcome(state.chance_request()))
            continue
        legal = [a.notation() for a in state.legal_actions()]
        decision = state.decision()
        assert decision is not None
        if decision.default is not None:
            assert decision.default.notation() in legal, (decision.kind, decision.default)
        if decision.kind == kind and usual not in legal:
            checked += 1
        state.apply(chooser.pick(state.legal_actions()))
    assert checked, f"the playout never reached a {kind} decision without {usual!r}"
