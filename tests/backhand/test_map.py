"""The committed map is what its builder makes, and the rulebook's hexes are where it says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engines.backhand import ENGINE
from engines.backhand.data import load

ROOT = Path(__file__).resolve().parents[2]
BUILDER = ROOT / "scenarios" / "backhand-blow" / "_build" / "make_map.py"


def test_builder_reproduces_the_committed_map() -> None:
    spec = importlib.util.spec_from_file_location("bb_make_map", BUILDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (BUILDER.parent.parent / "map.toml").read_text(encoding="utf-8")
    assert module.build() == committed


def test_2_2_kharkov_in_2510_and_the_rulebook_hexes() -> None:
    m = load().map
    assert m.places_at("2510") == ("Kharkov",)
    assert ENGINE.check_scenarios() == []


def test_18_1_donets_line_splits_the_map() -> None:
    d = load()
    assert "2510" in d.west_of_donets  # Kharkov
    assert "4110" not in d.west_of_donets  # the Soviet supply edge
    # the Donets reaches the east edge between rows 23 and 24: the last two supply hexes
    # lie south of its lower course (the map page says so)
    assert sorted(d.soviet_supply & d.west_of_donets) == ["4124", "4125"]
