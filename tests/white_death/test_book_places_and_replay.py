"""The map holds what the manual names; a replay shows the opponent's moves anonymously."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import engines.white_death as wd_engine
from engines.white_death import ENGINE


def test_shipped_map_has_every_place_the_manual_names() -> None:
    assert ENGINE.check_scenarios() == []


def test_check_names_a_missing_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wd_engine, "BOOK_PLACES",
                        (*wd_engine.BOOK_PLACES, ("Kholm", "bridge", "Rule 20")))
    assert ENGINE.check_scenarios() == ["white-death: Rule 20: no place 'Kholm' on the map"]


def test_4_C_opponent_sees_a_unit_move_but_not_which() -> None:
    state = ENGINE.new_state("purkayev")
    while state.is_chance():
        state.apply_outcome((1,) * len(state.chance_request().dice))
    state.apply("impulse 4")
    move = next(a for a in state.legal_actions() if a.notation().startswith("move "))
    _, unit, frm, to = move.notation().split()
    events = state.apply(move)
    soviet = [e.text for e in events if e.visible("soviet")]
    german = [e.text for e in events if e.visible("german")]
    assert f"{unit} moves {frm} to {to}" in soviet
    assert f"a soviet unit moves {frm} to {to}" in german
    assert not any(unit in text for text in german)


def test_the_data_is_parsed_once_per_engine(record_calls: Callable[..., list[Any]]) -> None:
    """Issue 19: listing scenarios, hashing the data files and making a state each read
    the parsed data; one command used to parse every TOML file twice."""
    import engines.white_death as module

    calls = record_calls(module, "load_scenario_dir")
    engine = type(ENGINE)()
    first = engine.scenarios()[0].id
    engine.scenario_files(first)
    engine.new_state(first)
    assert calls == ["white-death"]
