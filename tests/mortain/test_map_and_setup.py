"""Mortain Counterattack: the map is pinned to the book's hexes and is what its builder
makes; 13.0's set-up areas."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from engines.mortain import ENGINE
from engines.mortain.data import NAMED_HEXES, rules
from pbem.errors import IllegalAction
from tests.mortain.test_rules import at, texts

ROOT = Path(__file__).resolve().parents[2]


def test_scenario_check_finds_every_named_hex_where_the_book_puts_it() -> None:
    assert ENGINE.check_scenarios() == []
    m = rules().map
    assert sorted(m.place("Mortain")) == ["2414", "2514", "2515"]
    assert m.terrain_of("2815") == "peak"
    assert len(NAMED_HEXES) > 40


def test_the_committed_map_is_what_the_builder_makes() -> None:
    sys.path.insert(0, str(ROOT / "tools" / "maps"))
    try:
        builder = importlib.import_module("build_mortain")
    finally:
        sys.path.pop(0)
    assert builder.build() == (ROOT / "scenarios" / "mortain" / "map.toml").read_text()


def test_14_2_the_see_has_bridges_where_roads_cross_it() -> None:
    m = rules().map
    assert len(m.sides_with("see")) > 40
    for a, b in m.sides_with("bridge"):
        assert "see" in m.side_features(a, b)
    assert ("1008", "1009") in m.sides_with("bridge")  # Cuves


def test_13_0_the_us_sets_up_first_each_group_in_its_area() -> None:
    state = ENGINE.new_state("counterattack")
    d = state.decision()
    assert d is not None and d.side == "us" and d.kind == "setup" and d.rule == "13.0"
    r = rules()
    cuves = r.map.place("Cuves")
    first = [a.split()[2] for a in texts(state)]  # 1/33, CCB
    assert first and all(min(r.map.distance(h, c) for c in cuves) <= 3 for h in first)
    assert "2815" not in first
    with pytest.raises(IllegalAction, match=r"13\.0"):
        state.apply("place 1/33 2815")


def test_13_0_the_9th_infantry_sets_up_north_of_the_see() -> None:
    r = rules()
    placed = {u: f"{2 + 2 * (i % 14):02d}{19 + 2 * (i // 14):02d}"
              for i, u in enumerate(u for u in r.order
                                    if r.units[u].side == "us" and r.units[u].group == "ccb")}
    lines = "\n".join(f'"{u}" = "{h}"' for u, h in placed.items())
    state = at(f'step = "us-setup"\n[units]\n{lines}\n')
    assert state.decision().prompt.startswith("the US player sets up 1/39")
    north = set(r.map.area("see_north"))
    assert {a.split()[2] for a in texts(state)} <= north
    assert "2514" not in north
