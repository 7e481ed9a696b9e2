"""The catalog reads a scenario's file when that scenario is asked (issue 35): a game
reads its own, and every command decoded all six scenario files' tables and made their
set-up groups and objectives.  The scenarios read so are the ones the whole catalog held,
and a scenario whose set-up names a unit the order of battle does not have, or one of
the other side, is still refused, naming it, when it is asked (and by ``pbem scenario
check``)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engines.hexkit.scenario import Doc
from engines.white_death import WhiteDeath
from engines.white_death.data import load_catalog
from pbem.engine import Engine
from pbem.errors import ScenarioError
from tests.white_death.conftest import make_data_dir


def test_a_catalog_decodes_no_scenario_file_until_its_scenario_is_asked() -> None:
    data = WhiteDeath()._data()
    # the files as a new command has them: their tables not decoded yet
    fresh = {name: Doc(d.name, d.text, d.top, d.packed) for name, d in data.docs.items()}
    scenario_docs = {fresh[f].name for f in data.scenarios.values()}
    decoded: set[str] = set()
    plain = Doc.data.func  # type: ignore[attr-defined]

    def watched(self: Doc) -> object:
        if self.name in scenario_docs:
            decoded.add(self.name)
        return plain(self)

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(Doc, "data", property(watched))
        cat = load_catalog(data.replace(docs=fresh))
        assert decoded == set()
        sc = cat.scenarios["purkayev"]
        assert decoded == {fresh[data.scenarios["purkayev"]].name}
        assert cat.scenarios["purkayev"] is sc
    finally:
        mp.undo()
    assert list(cat.scenarios) == list(data.scenarios) and len(cat.scenarios) == 6


def test_the_scenarios_read_one_by_one_are_the_ones_the_catalog_held() -> None:
    """Each scenario as its file says, read apart with tomllib."""
    cat = WhiteDeath().catalog()
    assert len(cat.scenarios) == 6
    for sid, sc in cat.scenarios.items():
        doc = tomllib.loads(cat.data.docs[cat.data.scenarios[sid]].text)
        head = doc["scenario"]
        assert (sc.id, sc.title, sc.turns, sc.file) == (
            sid, head["title"], tuple(head["turns"]), cat.data.scenarios[sid])
        assert (sc.opening, sc.player_setup) == (head.get("opening", False),
                                                  head.get("player_setup", False))
        assert [(g.side, g.units, g.near, g.within, g.garrison) for g in sc.groups] == [
            (g["side"], tuple(g["units"]), g["near"], g.get("within", 0),
             g.get("garrison", "")) for g in doc.get("setup", [])]
        assert sc.reduced == doc.get("reduced", {})
        assert [(o.place, dict(o.points)) for o in sc.objectives] == [
            (o["place"], {s: o.get(s, 0) for s in ("soviet", "german")})
            for o in head.get("objectives", [])]
    assert cat.scenarios["purkayev"] is cat.scenarios["purkayev"]
    with pytest.raises(KeyError):
        cat.scenarios["no-such-scenario"]


@pytest.mark.parametrize(("unit", "refusal"), [
    ("NoSuch/999", "scenario woehler: unknown unit 'NoSuch/999'"),
    ("SOVIET", "scenario woehler: {unit} is not german"),
])
def test_a_scenario_naming_a_wrong_unit_is_refused_when_asked(
        tmp_path: Path, unit: str, refusal: str) -> None:
    root = make_data_dir(tmp_path / "data")
    soviet = next(u for u, d in WhiteDeath().catalog().units.items() if d.side == "soviet")
    unit = soviet if unit == "SOVIET" else unit
    path = root / "woehler.toml"
    text = path.read_text()
    first = re.search(r'units = \[\s*"([^"]+)"', text)
    assert first is not None, "woehler's set-up names its units"
    path.write_text(text[:first.start(1)] + unit + text[first.end(1):])
    engine = WhiteDeath(root)
    cat = engine.catalog()  # the other scenarios are sound: the catalog loads
    assert cat.scenarios["purkayev"].id == "purkayev"
    with pytest.raises(ScenarioError, match=re.escape(refusal.format(unit=unit))):
        cat.scenarios["woehler"]
    # what ``pbem scenario check`` asks first of every scenario (the rest of White
    # Death's check reads the real map's places, which the small test map lacks)
    problems = Engine.check_scenarios(engine)
    assert [p for p in problems if refusal.format(unit=unit) in p] == [
        f"white-death/woehler: woehler.toml: {refusal.format(unit=unit)}"]
