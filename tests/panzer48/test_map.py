"""48th Panzer Korps: the map is what tools/maps/build_panzer48.py builds, pinned to the
article's hexes (10) and fitted to real geography at the article's scale (2.3)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from engines.panzer48 import ENGINE
from engines.panzer48.data import data

ROOT = Path(__file__).resolve().parents[2]


def test_builder_reproduces_the_committed_map() -> None:
    sys.path.insert(0, str(ROOT / "tools" / "maps"))
    try:
        builder = importlib.import_module("build_panzer48")
    finally:
        sys.path.remove(str(ROOT / "tools" / "maps"))
    text = (ROOT / "scenarios" / "48th-panzer-korps" / "map.toml").read_text(encoding="utf-8")
    assert builder.build() == text


def test_10_the_six_towns_at_the_articles_hexes_and_scenario_check_passes() -> None:
    m = data().map
    for name, h in (("Surovikino", "3508"), ("Novomaksimovskiy", "5217"),
                    ("Sovkhoz 79", "2623"), ("Verkhne Aksenovskiy", "2226"),
                    ("Verkhne Solonovskiy", "3425"), ("Nizhne Chirskaya", "4925")):
        assert m.place(name) == (h,)
        assert h in data().areas["german_side"]  # 10: the German controls all at start
    assert ENGINE.check_scenarios() == []


def test_2_2_the_chir_and_the_don_and_the_don_bridges() -> None:
    m = data().map
    assert len(m.sides_with("river")) > 80
    assert len(data().don_bridges) == 3
    for a, b in data().don_bridges:
        assert m.has_side(a, b, "river") and m.has_side(a, b, "don")
        assert m.connected("road", a, b)


def test_2_3_the_fit_recovers_one_mile_per_hex() -> None:
    import tomllib
    info = tomllib.loads((ROOT / "scenarios" / "48th-panzer-korps" / "map.toml").read_text())
    assert 0.9 < info["map_info"]["miles_per_hex"] < 1.1
