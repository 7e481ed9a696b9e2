"""The catalog's charts (movement, lakes, terrain and combat, fire, barrage, weather) are
read from the tables file when a rule first asks for each (issue 35): a command reads a
few, and making them all was about a third of loading the catalog.  A chart written
wrong is still refused, naming its key: when first read, and by ``pbem scenario check``,
which reads every one."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from engines.hexkit.scenario import Doc
from engines.white_death import WhiteDeath
from engines.white_death.data import _TABLE_FIELDS, Cost, load_catalog
from pbem.errors import ScenarioError

DATA = Path(__file__).parent.parent.parent / "scenarios" / "white-death"


def test_a_catalog_reads_no_chart_until_a_rule_asks_for_it() -> None:
    data = WhiteDeath()._data()
    # the files as a new command has them: their tables not decoded yet
    fresh = {name: Doc(d.name, d.text, d.top, d.packed) for name, d in data.docs.items()}
    cat = load_catalog(data.replace(docs=fresh))
    charts = fresh["tables.toml"]
    assert "data" not in vars(charts)  # the tables file not even decoded
    assert not set(_TABLE_FIELDS) & set(vars(cat.tables))
    assert cat.tables.defense["forest"]  # a fire listing's (Rule 12)
    assert set(_TABLE_FIELDS) & set(vars(cat.tables)) == {"defense"}
    cat.tables.read_all()
    assert set(_TABLE_FIELDS) <= set(vars(cat.tables))


def test_the_charts_read_one_by_one_are_the_files() -> None:
    tables = WhiteDeath().catalog().tables
    raw = tomllib.loads((DATA / "tables.toml").read_text())
    assert tables.movement["road"]["w"] == Cost(2, 0)  # 1/3 MP in ticks (Rule 7)
    assert tables.columns == tuple(tuple(map(int, c.split(":")))
                                   for c in raw["odds"]["columns"])
    assert len(tables.conventional) == len(raw["conventional_crt"]["rows"])
    assert tables.antitank == tuple(tuple(r) for r in raw["antitank_table"]["rows"])
    assert tables.barrage_columns == tuple(raw["barrage_table"]["columns"])
    assert tables.barrage_bunker == raw["barrage_modifiers"]["bunker"]
    assert tables.points_per_sp == raw["victory"]["points_per_sp"]
    assert [w[:2] for w in tables.weather] == [
        tuple(int(x) for x in k.split("_")[1:]) for k in raw["weather"] if k != "stand_in"]


def test_a_chart_written_wrong_is_refused_when_read_and_by_the_check(
        tmp_path: Path) -> None:
    root = tmp_path / "white-death"
    shutil.copytree(DATA, root)
    path = root / "tables.toml"
    text = path.read_text()
    assert 'road   = { s = "1/2", l = "1/2",' in text
    path.write_text(text.replace('road   = { s = "1/2", l = "1/2",',
                                 'road   = { s = "1/2", l = "1/4",'))
    engine = WhiteDeath(root)
    cat = engine.catalog()  # the order of battle and the scenarios load
    assert cat.tables.defense
    with pytest.raises(ScenarioError, match=r"movement\.road\.l: .*1/4 MP"):
        _ = cat.tables.movement
    # the scenarios whose set-up reads the chart name it too: the check's own line
    # reads every chart, whichever a set-up asks for
    problems = [p for p in engine.check_scenarios() if "movement.road.l: " in p]
    assert [p for p in problems if p.startswith("white-death: ")]
