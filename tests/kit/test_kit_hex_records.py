"""A hex's own hexsides and areas without the map's whole tables (issue 35): a map read
back from the data cache keeps, beside its packed hexside and area tables, each hex's
part of them, so ``HexMap.few_side_features`` and ``HexMap.areas_of`` answer a few hexes
(For the Motherland!'s retreat, 8.6, asks a handful: decoding every hexside for them
was 2.6 M instructions of its act) from those records.  Each answers as the whole table
does, for every hex and hexside of every shipped map; a record that does not read back,
or too many asked, leaves it to the whole tables."""

from __future__ import annotations

from importlib.resources import files

import msgpack
import pytest

from engines.hexkit import scenario, scenario_parse
from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import load_scenario_path

ENGINES = ["48th-panzer-korps", "backhand-blow", "for-the-motherland", "mortain",
           "white-death"]


def _built(engine_id: str) -> HexMap:
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    return scenario._build_map(sset.docs[sset.map_doc or ""])


def _kept(built: HexMap) -> HexMap:
    """The map as a command reads it back from the data cache (through msgpack)."""
    data = msgpack.unpackb(msgpack.packb(scenario_parse.map_data(built), use_bin_type=True),
                           raw=False, strict_map_key=True)
    return scenario._map_from_data(data)


def _whole_areas(m: HexMap, h: str) -> tuple[str, ...]:
    return tuple(name for name, hexes in m.areas.items() if h in hexes)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_hexside_and_hex_of_every_map_as_the_whole_tables(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scenario, "_RECORDS_READ", 10**6)
    built = _built(engine)
    kept = _kept(built)
    pairs = [(h, n) for h in built.terrain for n in built.neighbors(h)]
    sides = {(a, b): kept.few_side_features(a, b) for a, b in pairs}
    areas = {h: kept.areas_of(h) for h in (*built.terrain, "9999", "0000")}
    assert "hexsides" not in kept.__dict__ and "areas" not in kept.__dict__
    assert sides == {(a, b): built.side_features(a, b) for a, b in pairs}
    assert sum(bool(f) for f in sides.values()) == 2 * len(built.hexsides)
    assert areas == {h: _whole_areas(built, h) for h in areas}
    assert areas == {h: built.areas_of(h) for h in areas}  # a built map: its tables
    if built.areas:
        assert any(areas.values())


def test_a_few_hexes_asked_decode_neither_table_and_many_decode_them() -> None:
    built = _built("for-the-motherland")
    kept = _kept(built)
    ids = list(built.terrain)
    for h in ids[:20]:
        for n in built.neighbors(h):
            assert kept.few_side_features(h, n) == built.side_features(h, n)
        assert kept.areas_of(h) == _whole_areas(built, h)
    assert "hexsides" not in kept.__dict__ and "areas" not in kept.__dict__
    # past so many hexes the whole tables are cheaper: made once, then read
    for h in ids:
        for n in built.neighbors(h):
            assert kept.few_side_features(h, n) == built.side_features(h, n)
        assert kept.areas_of(h) == _whole_areas(built, h)
    assert "hexsides" in kept.__dict__ and "areas" in kept.__dict__
    # a game that asks hundreds (White Death's movement) reads the whole table at once
    many = _kept(built)
    a, b = next(iter(built.hexsides))
    assert many.side_features(b, a) == built.hexsides[(a, b)]
    assert "hexsides" in many.__dict__


def test_a_record_that_does_not_read_back_leaves_it_to_the_tables() -> None:
    built = _built("for-the-motherland")
    data = scenario_parse.map_data(built)
    starts, blob = data["by_hex"]
    for bad in ([starts, b"\xc1" * len(blob)],           # not msgpack
                [starts, msgpack.packb([1]) * len(blob)],  # msgpack, not a record
                [starts[:-4], blob]):                      # starts of another grid
        kept = scenario._map_from_data({**data, "by_hex": bad})
        got = {(a, b): kept.few_side_features(a, b) for a, b in built.hexsides}
        assert got == dict(built.hexsides)
        assert {x: kept.areas_of(x) for x in built.terrain} == {
            x: _whole_areas(built, x) for x in built.terrain}


def test_a_map_built_here_has_no_records_and_answers_from_its_tables() -> None:
    built = _built("for-the-motherland")
    assert "_kept_by_hex" not in built.__dict__
    (a, b), features = next(iter(built.hexsides.items()))
    assert built.side_features(b, a) == features
    with pytest.raises(ValueError, match="two different hexes"):
        built.few_side_features(a, a)
    kept = _kept(built)
    with pytest.raises(ValueError, match="two different hexes"):
        kept.few_side_features(a, a)
