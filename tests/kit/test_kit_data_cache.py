"""Scenario data kept between commands (pbem.datacache): the same data, and a damaged
cache only costs the time to parse again."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engines.hexkit import scenario, scenario_parse
from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import load_scenario_path, parse_doc, parse_map
from kit.helpers import DATA
from pbem import datacache
from pbem.errors import ScenarioError

TINY = DATA / "tiny"
FIELDS = ("terrain", "hex_features", "hexsides", "facing", "networks", "places", "areas",
          "boxes", "styles")


def _same_map(a: HexMap, b: HexMap) -> None:
    assert a == b
    for name in FIELDS:  # and in the same order: engines iterate these
        assert list(getattr(a, name).items()) == list(getattr(b, name).items()), name
    assert list(a.grid._cubes.items()) == list(b.grid._cubes.items())
    assert a.legend == b.legend and a.adjacency == b.adjacency and a.ids == b.ids
    assert a.grid.ids() == b.grid.ids()


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_every_shipped_map_comes_back_the_same(engine_id: str) -> None:
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    assert sset.map_doc is not None
    built = scenario._build_map(sset.docs[sset.map_doc])
    _same_map(scenario._map_from_data(scenario_parse.map_data(built)), built)


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_a_kept_grid_makes_its_cubes_when_first_asked(engine_id: str) -> None:
    """Issue 35: a map read back from the data cache makes its grid's table of cubes
    (2,160 on 48th Panzer Korps' map) only when a question needs it; the first few
    cubes asked are worked out from their ids, and are the table's own."""
    from engines.hexkit.geometry import WORKED_OUT, Cube

    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    built = scenario._build_map(sset.docs[sset.map_doc or ""])
    table = built.grid._cubes
    grid = scenario._map_from_data(scenario_parse.map_data(built)).grid
    assert "_cubes" not in grid.__dict__
    ids = list(table)
    first = [grid.to_cube(h) for h in ids[:WORKED_OUT]]
    assert "_cubes" not in grid.__dict__
    assert first == [table[h] for h in ids[:WORKED_OUT]]
    assert all(type(c) is Cube for c in first)
    grid.to_cube(ids[-1])
    assert list(grid.__dict__["_cubes"].items()) == list(table.items())
    # every cell's cube worked out from its id is the table's
    other = scenario._map_from_data(scenario_parse.map_data(built)).grid
    for h in ids:
        other.__dict__.pop("_few", None)
        assert other.to_cube(h) == table[h], h
    assert "_cubes" not in other.__dict__
    # the hexes near a few cells, written from their columns and rows with no table
    # made, are those the table finds (the map's corners, edges and inner hexes)
    third = scenario._map_from_data(scenario_parse.map_data(built)).grid
    for h in ids[::len(ids) // 50]:
        for radius in (0, 1, 3):
            near = third.within(h, radius)
            assert near == sorted(n for n in ids if grid.distance(h, n) <= radius), (h, radius)
    assert "_cubes" not in third.__dict__ and "_ids" not in third.__dict__


def test_kept_map_is_columns_and_a_bad_code_is_a_miss(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a kept map holds its per-hex data as columns (a list per value), not a
    record per hex, so reading it back makes no Python call a hex; an entry whose
    columns do not fit (a terrain code the legend lacks, columns of unequal length) is
    not a map this code wrote, and the map is built again, the same."""
    sset = load_scenario_path(files("scenarios") / "48th-panzer-korps", label="48pk")
    built = scenario._build_map(sset.docs[sset.map_doc or ""])
    data = scenario_parse.map_data(built)
    cells, qs, rs, ss = msgpack.unpackb(data["cells"])
    assert len(cells) == len(qs) == len(rs) == len(ss) == 2160
    assert all(type(q) is int for q in qs)
    hexes, codes = data["terrain"]
    assert len(hexes) == len(codes) == len(built.terrain)
    for bad in ({"terrain": [hexes, [len(built.legend)] * len(codes)]},
                {"cells": [cells, qs, rs, ss]}):
        with pytest.raises(ValueError):
            scenario._map_from_data({**data, **bad})
    before = set(data_cache.iterdir())
    first = load_scenario_path(TINY).map
    entry, = (p for p in set(data_cache.iterdir()) - before if p.name.startswith("hexmap"))
    kept = datacache.load("hexmap", _key_of(entry))
    assert kept is not None
    kept["terrain"][1][0] = 99
    datacache.store("hexmap", _key_of(entry), kept)
    built_again: list[HexMap] = []
    real_build = scenario._build_map

    def counting(doc: Any) -> HexMap:
        built_again.append(real_build(doc))
        return built_again[-1]

    monkeypatch.setattr(scenario, "_build_map", counting)
    _same_map(load_scenario_path(TINY).map, first)
    assert len(built_again) == 1


def test_a_kept_map_reads_its_cells_and_neighbors_when_first_asked(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a kept map's cells and neighbor table stay packed until a question
    needs them (48th Panzer Korps' ``legal`` asks neither: decoding them was 7 M
    instructions of its 320); a packed table that does not read back as this code wrote
    it is made again from the map, the values a built map has."""
    sset = load_scenario_path(files("scenarios") / "48th-panzer-korps", label="48pk")
    built = scenario._build_map(sset.docs[sset.map_doc or ""])
    data = scenario_parse.map_data(built)
    assert type(data["cells"]) is bytes and type(data["adjacency"]) is bytes
    unpacked: list[bytes] = []
    real_unpack = msgpack.unpackb

    def counting(blob: bytes, **kwargs: Any) -> Any:
        unpacked.append(blob)
        return real_unpack(blob, **kwargs)

    monkeypatch.setattr(msgpack, "unpackb", counting)
    kept = scenario._map_from_data(data)
    assert kept.terrain == built.terrain
    assert kept.grid.to_cube("0101") == built.grid.to_cube("0101")
    assert unpacked == []
    assert "adjacency" not in kept.__dict__
    assert kept.adjacency == built.adjacency and unpacked == []
    assert list(kept.grid._cubes.items()) == list(built.grid._cubes.items())
    assert unpacked == [data["cells"]]
    cells, qs, rs, ss = real_unpack(data["cells"])
    near = data["adjacency"]
    for bad_cells, bad_near in ((b"\xc1", b"\xc1"),  # not msgpack, not rows at all
                                (msgpack.packb([cells, qs, rs, ss[:-1]]), near[:-1]),
                                (msgpack.packb([cells, qs, rs]), near + near[:13])):
        again = scenario._map_from_data({**data, "cells": bad_cells, "adjacency": bad_near})
        _same_map(again, built)


def test_a_damaged_kept_neighbor_table_is_made_again() -> None:
    """Issue 35: the kept neighbour table (each hex's count of neighbours, then six
    slots a hex: scenario_parse._packed_rows) is the built map's, read whole or a hex's
    row at a time; one that is not the map's count of rows, or names a count of
    neighbours no hex has (a damaged entry), is made again from the map, whole and by
    the row."""
    sset = load_scenario_path(files("scenarios") / "white-death", label="wd")
    built = scenario._build_map(sset.docs[sset.map_doc or ""])
    data = scenario_parse.map_data(built)
    kept = scenario._map_from_data(data)
    assert kept.adjacency == built.adjacency
    near, count = data["adjacency"], len(built.ids)
    for bad in (near[:-1], near + b"\x00", b"\x07" + near[1:], b""):
        again = scenario._map_from_data({**data, "adjacency": bad})
        assert [again.neighbor_rows[i] for i in range(count)] == list(built.adjacency)
        assert again.adjacency == built.adjacency


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_a_kept_map_makes_its_hexside_and_area_tables_when_first_asked(engine_id: str) -> None:
    """Issue 35: a kept map's hexside features, facings, networks and areas stay packed
    until first asked (For the Motherland!'s and White Death's ``legal`` ask none of
    them), each then the built map's, in its order; one that does not read back is taken
    from the map built again from its file, built once for all of them."""
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    doc = sset.docs[sset.map_doc or ""]
    built = scenario._build_map(doc)
    data = scenario_parse.map_data(built)
    lazy = ("hexsides", "facing", "networks", "areas")
    assert all(type(data[name]) is bytes for name in lazy)
    kept = scenario._map_from_data(data)
    assert not any(name in kept.__dict__ for name in lazy)
    assert list(kept.hexsides.items()) == list(built.hexsides.items())
    assert "hexsides" in kept.__dict__ and "areas" not in kept.__dict__
    _same_map(kept, built)
    with pytest.raises(AttributeError):
        _ = kept.no_such_field  # type: ignore[attr-defined]
    builds: list[HexMap] = []

    def rebuild() -> HexMap:
        builds.append(scenario._build_map(doc))
        return builds[-1]

    damaged = {**data, "hexsides": b"\xc1", "facing": msgpack.packb({"a": 1}),
               "networks": msgpack.packb([[1]]), "areas": msgpack.packb([1, 2])}
    again = scenario._map_from_data(damaged, rebuild)
    assert builds == []
    _same_map(again, built)
    assert len(builds) == 1


def test_a_kept_hexside_table_that_does_not_add_up_is_the_built_one() -> None:
    """Issue 35: the hexside table is kept as its kinds of hexside, the pairs and each
    pair's kind; one whose pairs and kinds do not match (a pair short, a kind it does
    not have) is the map's built again, a river never read off the wrong hexside."""
    engine_id = "backhand-blow"
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    doc = sset.docs[sset.map_doc or ""]
    built = scenario._build_map(doc)
    data = scenario_parse.map_data(built)
    kinds, ends, codes = msgpack.unpackb(data["hexsides"])
    assert len(kinds) < len(codes) == len(built.hexsides) == len(ends) // 2
    for bad in ([kinds, ends[:-2], codes], [kinds, ends, [*codes[:-1], len(kinds)]],
                [kinds, ends[:-1], codes]):
        again = scenario._map_from_data({**data, "hexsides": msgpack.packb(bad)},
                                        lambda: scenario._build_map(doc))
        assert list(again.hexsides.items()) == list(built.hexsides.items())


def test_second_load_parses_nothing(data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_scenario_path(TINY)
    kinds = {p.name.rsplit("-", 1)[0] for p in data_cache.iterdir()}
    # "toml-set": every file's digest, tables and stand-ins under the files' stamps;
    # "code", the kit's digest, is kept when this process first took it (with or without
    # a cache before this test); a file's stand-ins are kept in its "toml" entry, one
    # entry a file (issue 35)
    assert kinds - {"code"} == {"toml", "toml-set", "hexmap"}
    assert sum(p.name.rsplit("-", 1)[0] == "toml" for p in data_cache.iterdir()) == \
        len(first.docs)

    def no_parse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed again")

    monkeypatch.setattr(scenario_parse, "parse_toml", no_parse)
    monkeypatch.setattr(scenario_parse, "build_map", no_parse)
    monkeypatch.setattr(scenario_parse, "find_stand_ins", no_parse)
    again = load_scenario_path(TINY)
    assert again.stand_ins == first.stand_ins and again.stand_ins
    assert {n: dict(d.data) for n, d in again.docs.items()} == \
        {n: dict(d.data) for n, d in first.docs.items()}
    _same_map(again.map, first.map)


def test_a_kept_file_decodes_its_tables_when_first_asked(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a file read back from the data cache decodes its tables only when a
    command first reads them; loading the set asks each file only its top-level keys,
    so the map file's tables (its map is kept built) are never decoded.  Kept tables
    that do not read back, or read back to other keys, are parsed again from the
    file's text: the same tables."""
    first = load_scenario_path(TINY)
    parsed = {n: dict(d.data) for n, d in first.docs.items()}
    again = load_scenario_path(TINY)
    assert again.map_doc is not None
    kept = again.docs[again.map_doc]
    assert "data" not in kept.__dict__ and kept.packed
    assert {n: d.top for n, d in again.docs.items()} == {n: tuple(d) for n, d in parsed.items()}
    real_parse = scenario_parse.parse_toml
    monkeypatch.setattr(scenario_parse, "parse_toml", lambda *a, **k: pytest.fail("parsed again"))
    assert dict(kept.data) == parsed[again.map_doc]
    monkeypatch.setattr(scenario_parse, "parse_toml", real_parse)
    for bad in (kept.packed[: len(kept.packed) // 2], msgpack.packb({"other": 1}), b"",
                msgpack.packb([1, 2])):
        damaged = kept.replace(packed=bad)
        assert "data" not in damaged.__dict__
        assert dict(damaged.data) == parsed[again.map_doc]


def test_a_warm_load_reads_one_entry_for_its_files(
        data_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a set of files loaded before is read back from one data-cache entry
    (every file's digest, top-level keys, tables and stand-ins), not two a file; the
    files' digests are the bytes' own.  An edited file is parsed again, and the set's
    entry does not serve it."""
    from pbem.sha import sha256

    copy = tmp_path / "tiny"
    shutil.copytree(TINY, copy)
    first = load_scenario_path(copy)
    loaded: list[str] = []
    real_load = datacache.load

    def counting(kind: str, key: bytes) -> Any:
        loaded.append(kind)
        return real_load(kind, key)

    monkeypatch.setattr(datacache, "load", counting)
    monkeypatch.setattr(scenario_parse, "parse_toml", lambda *a, **k: pytest.fail("parsed again"))
    again = load_scenario_path(copy)
    assert [k for k in loaded if k != "code"] == ["toml-set", "hexmap"]
    assert again.stand_ins == first.stand_ins
    assert {n: dict(d.data) for n, d in again.docs.items()} == \
        {n: dict(d.data) for n, d in first.docs.items()}
    from pbem.sha import content_digest
    for t in again.files:
        raw = t.read_bytes()
        assert content_digest(raw) == sha256(raw).digest()
    monkeypatch.undo()
    monkeypatch.setattr(datacache, "load", counting)
    units = copy / "basic.toml"
    units.write_text(units.read_text() + "\n# edited\n")
    loaded.clear()
    edited = load_scenario_path(copy)
    assert loaded.count("toml") == 3 and edited.docs["basic.toml"].text.endswith("# edited\n")


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_damaged_cache_is_rebuilt(data_cache: Path, damage: str) -> None:
    first = load_scenario_path(TINY)
    for path in data_cache.iterdir():
        data = bytearray(path.read_bytes())
        if damage == "flip":
            data[len(data) * 2 // 3] ^= 0x04
        else:
            del data[len(data) // 3:]
        path.write_bytes(bytes(data))
    again = load_scenario_path(TINY)
    _same_map(again.map, first.map)
    assert {n: dict(d.data) for n, d in again.docs.items()} == \
        {n: dict(d.data) for n, d in first.docs.items()}
    # written anew: every entry reads back whole
    entries = list(data_cache.iterdir())
    assert entries and all(datacache.load(p.name.rsplit("-", 1)[0], _key_of(p)) is not None
                           for p in entries)


def _key_of(path: Path) -> bytes:
    import msgpack

    key = msgpack.unpackb(path.read_bytes())[3]
    assert isinstance(key, bytes)
    return key


def test_edited_file_is_parsed_again(data_cache: Path, tmp_path: Path) -> None:
    copy = tmp_path / "tiny"
    shutil.copytree(TINY, copy)
    first = load_scenario_path(copy)
    map_file = copy / (first.map_doc or "")
    map_file.write_text(map_file.read_text().replace('"Tinyburg"', '"Smallville"'))
    again = load_scenario_path(copy)
    assert again.map.places_at("0303") == ("Smallville",)
    assert first.map.places_at("0303") == ("Tinyburg",)


def test_bad_toml_refused_the_same_with_a_cache(data_cache: Path) -> None:
    with pytest.raises(ScenarioError) as plain:
        datacache.configure(None)
        parse_doc("x.toml", b"a = \n")
    datacache.configure(data_cache)
    with pytest.raises(ScenarioError) as cached:
        parse_doc("x.toml", b"a = \n")
    assert str(cached.value) == str(plain.value)
    assert not data_cache.exists() or list(data_cache.iterdir()) == []


def test_bad_map_refused_the_same_with_a_cache(data_cache: Path) -> None:
    doc = parse_doc("m.toml", b'[map]\noffset = "sideways"\n')
    with pytest.raises(ScenarioError) as first:
        parse_map(doc)
    with pytest.raises(ScenarioError) as second:
        parse_map(doc)
    assert str(first.value) == str(second.value)
    assert not any(p.name.startswith("hexmap") for p in data_cache.iterdir())


def test_bad_stand_in_refused_the_same_with_a_cache(data_cache: Path) -> None:
    doc = parse_doc("s.toml", b'[units.a]\nstand_in = ""\n')
    with pytest.raises(ScenarioError) as first:
        scenario._stand_ins_of(doc)
    with pytest.raises(ScenarioError) as second:
        scenario._stand_ins_of(doc)
    assert str(first.value) == str(second.value) and "must say why" in str(first.value)
    assert not data_cache.exists() or not any(p.name.startswith(("stand-ins", "toml"))
                                              for p in data_cache.iterdir())


def _tiny_class(**extra: Any) -> Any:
    from fractions import Fraction

    from engines.hexkit.movement import MoveClass

    return MoveClass("leg", enter={"clear": 1, "forest": 2, "rough": 3, "swamp": None},
                     hexside={"river": 2}, networks={"road": Fraction(1, 2)},
                     negated_by={"river": ["bridge"]}, fills=frozenset({"clear", "rough"}),
                     **extra)


def test_compiled_movement_costs_are_kept_and_read_back(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 3: compiling a chart against a map was most of loading Backhand
    Blow's data (six tables, 73,080 step prices, every command).  A second compilation
    of the same class for a map built from the same text prices nothing and answers the
    same; a damaged entry is compiled again."""
    from engines.hexkit.movement import MoveClass, MoveCosts

    hexmap = load_scenario_path(TINY).map
    assert hexmap is not None and hexmap.source is not None
    first = MoveCosts(hexmap, _tiny_class())
    entries = [p for p in data_cache.iterdir() if p.name.startswith("movecosts")]
    assert len(entries) == 1

    def no_pricing(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("priced again")

    with monkeypatch.context() as m:
        m.setattr(MoveClass, "step_cost", no_pricing)
        again = MoveCosts(hexmap, _tiny_class())
    assert again.steps == first.steps and again.scale == first.scale
    # another class is another entry, never the first's answer
    dearer = MoveCosts(hexmap, _tiny_class(hex_features={"town": 1}))
    assert len([p for p in data_cache.iterdir() if p.name.startswith("movecosts")]) == 2
    assert dearer.steps == scenario_free_compile(hexmap, _tiny_class(hex_features={"town": 1}))
    data = bytearray(entries[0].read_bytes())
    del data[len(data) // 2:]
    entries[0].write_bytes(bytes(data))
    assert MoveCosts(hexmap, _tiny_class()).steps == first.steps


def test_kept_costs_make_a_row_only_when_a_search_reads_it(data_cache: Path) -> None:
    """Issue 35: making every row of a kept table was most of loading 48th Panzer Korps'
    data (two tables of 2,160 rows, each command), where a command reads a few rows.  A
    table read back from the cache makes none until asked, and answers as the compiled
    one: a cost, a search, every row."""
    from engines.hexkit.movement import KeptRows, MoveCosts, reachable

    hexmap = load_scenario_path(TINY).map
    assert hexmap is not None
    first = MoveCosts(hexmap, _tiny_class())
    again = MoveCosts(hexmap, _tiny_class())
    assert isinstance(again.steps, KeptRows) and again.steps.rows_made() == 0
    start = hexmap.ids[0]
    near = reachable(again, start, 1)
    assert 0 < again.steps.rows_made() < len(hexmap.ids)
    assert near.cost == reachable(first, start, 1).cost
    a, b = start, hexmap.neighbors(start)[0]
    assert again.cost(a, b) == first.cost(a, b)
    assert again.steps == first.steps and first.steps == again.steps
    assert list(again.steps) == list(first.steps) and again.steps[1:3] == first.steps[1:3]


def scenario_free_compile(hexmap: HexMap, move_class: Any) -> Any:
    """The costs compiled with no cache at all."""
    from engines.hexkit.movement import MoveCosts

    configured = datacache.directory()
    datacache.configure(None)
    try:
        return MoveCosts(hexmap, move_class).steps
    finally:
        datacache.configure(configured)


def test_costs_with_an_adjustment_are_kept_only_under_the_callers_key(data_cache: Path) -> None:
    """A callable cannot be hashed: with ``adjust`` the costs are kept only when the
    caller names what the adjustment depends on, and each key is its own entry."""
    from engines.hexkit.movement import MoveCosts

    hexmap = load_scenario_path(TINY).map
    assert hexmap is not None

    def dearer(a: str, b: str, cost: Any) -> Any:
        return cost + 1

    def movecosts() -> int:
        return len([p for p in data_cache.iterdir() if p.name.startswith("movecosts")])

    plain = MoveCosts(hexmap, _tiny_class())
    assert movecosts() == 1
    adjusted = MoveCosts(hexmap, _tiny_class(), adjust=dearer)
    assert movecosts() == 1 and adjusted.steps != plain.steps
    kept = MoveCosts(hexmap, _tiny_class(), adjust=dearer, adjust_key=b"plus one")
    assert movecosts() == 2 and kept.steps == adjusted.steps


def test_the_key_does_not_follow_string_hashing(tmp_path: Path) -> None:
    """A frozenset's order follows string hashing, which differs per process: the key
    must not, or every command would miss."""
    import subprocess
    import sys

    code = ("import sys; sys.path[:0] = sys.argv[1:]\n"
            "from pbem import datacache; from pathlib import Path\n"
            f"datacache.configure(Path({str(tmp_path / 'c')!r}))\n"
            "from engines.hexkit.scenario import load_scenario_path\n"
            "from engines.hexkit import movement\n"
            "from kit.test_kit_data_cache import _tiny_class\n"
            f"m = load_scenario_path(Path({str(TINY)!r})).map\n"
            "print(movement._cache_key(m, _tiny_class(), None, None).hex())\n")
    root = Path(__file__).resolve().parents[2]
    keys = {subprocess.run([sys.executable, "-c", code, str(root), str(root / "tests")],
                           capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"}
                           ).stdout for seed in (1, 2, 3)}
    assert len(keys) == 1 and len(keys.pop().strip()) == 64


def test_a_map_not_kept_makes_no_neighbor_table_until_asked() -> None:
    """Issue 35: with no cache (a referee's first audit, a library caller) the map is
    not written out as kept data, so its neighbor table is made when a rule first asks
    for it, not at load (a hex's own neighbours need none: tests/kit/test_kit_neighbors.py);
    it is then the table a kept map carries."""
    assert datacache.directory() is None
    hexmap = load_scenario_path(TINY).map
    assert "adjacency" not in hexmap.__dict__
    assert hexmap.neighbors("0303") and "adjacency" not in hexmap.__dict__
    assert hexmap.adjacency and "adjacency" in hexmap.__dict__
    assert scenario._map_from_data(scenario_parse.map_data(hexmap)).adjacency == hexmap.adjacency


def test_map_build_names_the_first_bad_hex() -> None:
    """The terrain is checked against the grid and the legend as sets (issue 35); a bad
    one is still named, the first in the terrain's order."""
    from engines.hexkit.geometry import HexGrid
    from engines.hexkit.hexmap import TerrainClass

    grid = HexGrid("odd", (1, 3), (1, 3))
    legend = [TerrainClass("clear", ".")]
    good = {"0101": "clear", "0102": "clear"}
    assert list(HexMap.build(grid=grid, terrain=good, legend=legend).terrain) == list(good)
    with pytest.raises(ValueError, match="hex 0104 is outside the map grid"):
        HexMap.build(grid=grid, terrain={**good, "0104": "clear", "0105": "clear"},
                     legend=legend)
    with pytest.raises(ValueError, match="hex 0201 has terrain 'bog', which the legend"):
        HexMap.build(grid=grid, terrain={**good, "0201": "bog", "0202": "fen"},
                     legend=legend)
    # a feature's, a place's and an area's hexes too: the first off the map, by name
    # in order (a feature's hexes as given, a place's and an area's sorted)
    with pytest.raises(ValueError, match=r"^town: hex 0303 is not on the map$"):
        HexMap.build(grid=grid, terrain=good, legend=legend,
                     hex_features={"bridge": ["0101"], "town": ["0102", "0303", "0203"]})
    with pytest.raises(ValueError, match=r"^place 'Y': hex 0203 is not on the map$"):
        HexMap.build(grid=grid, terrain=good, legend=legend,
                     places={"X": ["0101"], "Y": ["0303", "0101", "0203"]})
    with pytest.raises(ValueError, match=r"^area 'e': hex 0103 is not on the map$"):
        HexMap.build(grid=grid, terrain=good, legend=legend,
                     areas={"e": ["0201", "0103", "0102"]})
    built = HexMap.build(grid=grid, terrain=good, legend=legend,
                         hex_features={"town": iter(["0102", "0101"])},
                         places={"X": ["0102", "0101", "0102"]})
    assert built.features_of("0101") == {"town"} and built.place("X") == ("0101", "0102")


def test_a_map_not_kept_hashes_no_kit_code() -> None:
    """Issue 35: the kit's source is hashed only for the key of a kept map or stand-ins
    list; with no cache (a referee's first audit) nothing is kept, so loading the data
    reads and hashes none of it (11 M instructions of a White Death audit)."""
    assert datacache.directory() is None
    scenario._kit_code.cache_clear()
    sset = load_scenario_path(TINY)
    assert sset.map is not None and sset.map.source is None
    assert scenario._kit_code.cache_info().misses == 0


def test_a_load_with_no_cache_keeps_no_file_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: with no cache each data file is read as it is, not stamped, keyed and
    hashed for a digest nothing keeps; the digest the invite pins is taken of the files
    the scenario names, when asked (pbem.engine.Engine.scenario_files)."""
    assert datacache.directory() is None

    def kept(*_: Any) -> bytes:
        raise AssertionError("a file's digest kept with no cache")

    monkeypatch.setattr(datacache, "read_known", kept)
    sset = load_scenario_path(TINY)
    assert sset.map is not None and sset.docs and all(d.data for d in sset.docs.values())


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_the_neighbor_table_is_the_grids_neighbors(engine_id: str) -> None:
    """The neighbor table by index (made from each cube's coordinates as one number) is
    the grid's own neighbors on the map, in its N..NW order, for every shipped map."""
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    hexmap = scenario._build_map(sset.docs[sset.map_doc or ""])
    index = hexmap.index
    # each hex's place among the map's hexes, in their order (made from the terrain's
    # own table, issue 35)
    assert list(index.items()) == list(zip(hexmap.ids, range(len(hexmap.ids)), strict=True))
    want = tuple(tuple(index[n] for n in hexmap.grid.neighbors(h) if n in index)
                 for h in hexmap.ids)
    assert hexmap.adjacency == want
    assert any(len(row) < 6 for row in want) and any(len(row) == 6 for row in want)


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_a_zoc_asked_before_the_neighbor_table_is_the_same_zoc(engine_id: str) -> None:
    """Issue 35: a ZOC asked of a map with no neighbor table yet reads its units' hexes'
    neighbours alone (48th Panzer Korps' audit never makes the table): the same hexes
    and units exerting each as with the table, hexsides blocking it included, for every
    shipped map; edge hexes and a hex given twice too."""
    from engines.hexkit.zoc import zoc_map

    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    doc = sset.docs[sset.map_doc or ""]
    ids = scenario._build_map(doc).ids
    units = [(f"u{i}", h) for i, h in enumerate(ids[::7])] + [("twice", ids[0]),
                                                              ("again", ids[0])]
    blocking = sorted({f for fs in scenario._build_map(doc).hexsides.values() for f in fs})
    for sides, own in (([], False), (blocking[:1], True)):
        fresh = scenario._build_map(doc)
        before = zoc_map(fresh, units, blocking_sides=sides, include_own_hex=own)
        assert "adjacency" not in fresh.__dict__
        assert fresh.adjacency
        after = zoc_map(fresh, units, blocking_sides=sides, include_own_hex=own)
        assert before.sources == after.sources and len(before.sources) > len(units)


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_hexes_with_a_feature_are_the_ones_has_feature_names(engine_id: str) -> None:
    """HexMap.hexes_with reads the features' own table (issue 35: a set-up asked
    has_feature of every hex, three times): the same hexes, in the map's order, for
    every feature of every shipped map, and none for a feature no hex has."""
    hexmap = load_scenario_path(files("scenarios") / engine_id, label=engine_id).map
    names = sorted({f for fs in hexmap.hex_features.values() for f in fs})
    assert names or engine_id == "mortain"  # Mortain's map marks no hex feature
    for name in [*names, "no-such-feature"]:
        assert hexmap.hexes_with(name) == [h for h in hexmap.ids
                                           if hexmap.has_feature(h, name)], name


def test_a_kept_set_reads_each_scenarios_head_without_its_whole_file(
        data_cache: Path) -> None:
    """Issue 35: loading a set checks every scenario's id, title and turns, and an
    engine's list of scenarios reads them; read back from the data cache, each comes from
    the file's ``[scenario]`` table kept on its own, so the scenarios a game does not
    play never decode their setups (For the Motherland!'s five others: 1 M instructions
    of every command).  The same values as the whole file's; a kept table that does not
    read back leaves them to the whole file."""
    root = files("scenarios") / "for-the-motherland"
    first = load_scenario_path(root, label="ftm")
    again = load_scenario_path(root, label="ftm")
    assert again.scenarios == first.scenarios and len(again.scenarios) == 6
    heads = {sid: (d.get_str("scenario", "title"), d.get_list("scenario", "turns"),
                   d.has("scenario", "nothing"), d.get("scenario", "id"))
             for sid, d in ((sid, again.scenario(sid)) for sid in again.scenarios)}
    assert not any("data" in again.scenario(sid).__dict__ for sid in again.scenarios)
    assert heads == {sid: (d.get_str("scenario", "title"), d.get_list("scenario", "turns"),
                           d.has("scenario", "nothing"), d.get("scenario", "id"))
                     for sid, d in ((sid, first.scenario(sid)) for sid in first.scenarios)}
    doc = again.scenario("4-uranus")
    assert doc.get_list("setup", "axis") and "data" in doc.__dict__  # the rest: the file
    for sid in again.scenarios:
        kept = again.scenario(sid)
        for bad in (b"\xc1", msgpack.packb({"other": 1}), msgpack.packb([1])):
            damaged = kept.replace()
            scenario._with_head(damaged, bad)
            assert damaged.get_str("scenario", "title") == heads[sid][0]
            assert "data" in damaged.__dict__


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tables whose typed view (the check a table passes) is made, in
    order, while the test runs."""
    names: list[str] = []
    real_typed = scenario.typed

    def counting(table: Any) -> Any:
        names.append(table.name)
        return real_typed(table)

    monkeypatch.setattr(scenario, "typed", counting)
    return names


def test_a_set_whose_tables_were_checked_makes_no_typed_view_again(
        data_cache: Path, tmp_path: Path, made: list[str]) -> None:
    """Issue 35: a load checks every table by making its typed view (a CRT's odds
    columns); the set's kept entry then says so, and a later load of the same files by
    the same kit makes none (Backhand Blow made its CRT, and loaded the odds module, at
    every command, where only an attack reads it).  The tables are the same; a table
    edited into a bad one is refused again, load after load, and never said checked."""
    copy = tmp_path / "tiny"
    shutil.copytree(TINY, copy)
    first = load_scenario_path(copy)
    assert made and first.tables
    made.clear()
    again = load_scenario_path(copy)
    assert made == []
    assert dict(again.tables) == dict(first.tables)
    assert again.odds_crt("crt").table == first.odds_crt("crt").table
    tables = copy / "tables.toml"
    tables.write_text(tables.read_text().replace('"1:3"', '"x:y"', 1))  # no odds
    for _ in range(2):
        made.clear()
        with pytest.raises(ScenarioError):
            load_scenario_path(copy)
        assert "crt" in made


@pytest.mark.parametrize("engine_id", ["white-death", "for-the-motherland", "backhand-blow",
                                       "48th-panzer-korps", "mortain"])
def test_a_checked_set_makes_every_table_as_its_first_load(
        engine_id: str, data_cache: Path, made: list[str]) -> None:
    """Issue 35: a load whose kept entry says its tables were checked makes each one
    without the checks it passed (scenario.parse_table); every table of every shipped
    game, its columns, rows in order, stand-in, place and extra keys, is the one the
    first load made and checked."""
    root = files("scenarios") / engine_id
    first = load_scenario_path(root, label=engine_id)
    checked = len(made)
    again = load_scenario_path(root, label=engine_id)
    assert len(made) == checked  # the second load's tables were made unchecked
    assert list(again.tables) == list(first.tables)
    for name, table in first.tables.items():
        kept = again.tables[name]
        assert kept == table and kept.rows == table.rows, name
        assert dict(kept.extra) == dict(table.extra) and kept.where == table.where


@pytest.mark.parametrize("engine_id", ["backhand-blow", "white-death"])
def test_a_kept_neighbour_table_is_the_table_read_back(engine_id: str) -> None:
    """Issue 35: a map read back from the data cache reads a hex's neighbours off its
    kept rows, without the whole table (Backhand Blow's receive reads some 330 of its
    2,091 hexes'), and the whole table when asked; both are the built map's, in its
    order, and a hex index off the map is no hex's."""
    sset = load_scenario_path(files("scenarios") / engine_id, label=engine_id)
    built = scenario._build_map(sset.docs[sset.map_doc or ""])
    kept = scenario._map_from_data(scenario_parse.map_data(built))
    rows = kept.neighbor_rows
    assert [rows[i] for i in range(len(built.ids))] == list(built.adjacency)
    assert "adjacency" not in kept.__dict__
    for off in (-1, len(built.ids)):
        with pytest.raises(KeyError):
            rows[off]
    table = kept.adjacency
    assert table == built.adjacency
    assert all(type(row) is tuple for row in table)
