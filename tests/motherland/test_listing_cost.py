"""For the Motherland!'s movement listings (5.0, 5.3): what a phase's first listing does
not do again or at all (issue 35 item 5: no decision listing over 10 ms at the 99th
percentile).  Each test asserts the work skipped and that the listing reads as before."""

from __future__ import annotations

from typing import Any

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.notation import STRATEGIC, parse
from engines.motherland.state import MotherlandState
from pbem.grammar import Form


def first_movement(engine: MotherlandEngine, scenario: str) -> MotherlandState:
    """The scenario's first Movement Phase decision, every earlier decision taking its
    last option and every die rolling 6."""
    st = engine.new_state(scenario, engine.resolve_options({}))
    assert isinstance(st, MotherlandState)
    while st.is_chance() or st.stack[-1].step != "move":
        if st.is_chance():
            st.apply_outcome(tuple(6 for _ in st.chance_request().dice))
            continue
        st.apply(st.legal_actions()[-1])
    return st


def test_5_3_strategic_moves_are_listed_without_checking_each_hex(
        engine: MotherlandEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Strategic Movement is listed as a move is: its hexes come from the map, so the
    form does not check each against its type nor write its text until asked (a first
    listing made thousands); the text then reads back to the very action."""
    st = first_movement(engine, "3-fall-blau")
    monkeypatch.setattr(STRATEGIC, "_made", {})  # none made by an earlier test
    built: list[str] = []
    build = Form._build

    def counted(form: Form, values: tuple[Any, ...], named: dict[str, Any]) -> Any:
        built.append(form.name)
        return build(form, values, named)

    monkeypatch.setattr(Form, "_build", counted)
    listed = [a for a in st.legal_actions() if a.kind == "strategic"]
    assert len(listed) >= 10 and "strategic" not in built
    assert all(a._text is None for a in listed)  # written when asked
    for a in listed:
        assert parse(a.notation()) == a and a.notation().startswith(f"strategic {a['unit']} ")
