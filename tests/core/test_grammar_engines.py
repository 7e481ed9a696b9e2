"""Every engine's grammar table (its ``notation.py``) writes each action the engine lists
in a played game back byte for byte: actions are text in signed files, so a table that
wrote one differently would make old files unreadable."""

from __future__ import annotations

import pytest

from engines.backhand.notation import GRAMMAR as BACKHAND
from engines.mortain.notation import GRAMMAR as MORTAIN
from engines.motherland.notation import GRAMMAR as MOTHERLAND
from engines.panzer48.notation import GRAMMAR as PANZER48
from engines.white_death.notation import GRAMMAR as WHITE_DEATH
from pbem.grammar import Grammar
from pbem.registry import get


def played(engine_id: str, steps: int) -> list[str]:
    """Every action an engine lists over ``steps`` decisions of its first scenario, the
    choices spread over each list, dice and draws from the step number."""
    engine = get(engine_id)
    s = engine.new_state(engine.scenarios()[0].id)
    seen: dict[str, None] = {}
    for step in range(steps * 3):
        if s.is_terminal() or len(seen) > 20_000:
            break
        if s.is_chance():
            req = s.chance_request()
            s.apply_outcome(tuple(req.contents[:req.count]) if req.kind == "draw"
                            else tuple(1 + (step + i) % d for i, d in enumerate(req.dice)))
            continue
        legal = s.legal_actions()
        if not legal:
            break
        seen.update((a.notation(), None) for a in legal)
        s.apply(legal[(step * 7) % len(legal)])
    return list(seen)


@pytest.mark.parametrize(("engine_id", "grammar"), [
    ("white-death", WHITE_DEATH), ("48th-panzer-korps", PANZER48),
    ("backhand-blow", BACKHAND), ("for-the-motherland", MOTHERLAND), ("mortain", MORTAIN)])
def test_a_table_writes_every_listed_action_byte_for_byte(engine_id: str,
                                                          grammar: Grammar) -> None:
    texts = played(engine_id, 200)
    assert len(texts) > 100
    for text in texts:
        assert grammar.canonical(text).notation() == text
