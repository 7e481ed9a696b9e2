"""Backhand Blow's data as every command loads it (issue 35): what the load derives of
the map and the order of battle is found without asking every hex or every unit again."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from engines.backhand.data import ENGINE_ID, Data, UnitType
from engines.backhand.data import load as load_data
from engines.hexkit import ScenarioSet, load_scenario_dir
from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import Doc


def test_the_load_finds_the_cities_and_formations_without_asking_each_hex(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cities (3.1, 6.0's ZOC into a city) are the map's hexes with the feature, read
    off the hexes that have features rather than asked of all 2,091 hexes; each German
    formation (15.2) has its units in unit order, found in one pass over the units."""
    data = load_scenario_dir(ENGINE_ID)
    asked: list[str] = []
    has_feature = HexMap.has_feature

    def counted(self: HexMap, h: str, feature: str) -> bool:
        asked.append(h)
        return has_feature(self, h, feature)

    monkeypatch.setattr(HexMap, "has_feature", counted)
    fresh = Data(data)
    assert asked == []
    m = fresh.map
    assert fresh.cities == tuple(h for h in m.ids if has_feature(m, h, "city"))
    assert fresh.city_hexes == frozenset(fresh.cities) and "2510" in fresh.cities  # Kharkov
    for fid, f in fresh.formations.items():
        assert f.members == tuple(u for u, t in fresh.units.items() if t.formation == fid)
    assert sum(len(f.members) for f in fresh.formations.values()) == sum(
        1 for t in fresh.units.values() if t.formation)
    assert all(len(f.members) > 1 for f in fresh.formations.values())


def test_each_printed_steps_factors_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counter's attack and defense per step (2.4) are parsed once for each printed
    text, not once a counter's step (most counters share theirs), and each unit's
    factors are its printed ones, full strength first."""
    from engines.backhand import data as module

    data = load_scenario_dir(ENGINE_ID)
    texts: list[str] = []
    parse = module._factors

    def counted(text: str) -> tuple[int, int]:
        texts.append(text)
        return parse(text)

    monkeypatch.setattr(module, "_factors", counted)
    fresh = Data(data)
    # the counters' texts, then the Uprising Forces' (17.0)
    assert texts[-1] == doc_uprising(data) and len(texts[:-1]) == len(set(texts[:-1])) > 10
    doc = data.doc("units.toml")
    for side in ("soviet", "german"):
        for uid, spec in doc.get_table(side).items():
            assert fresh.units[uid].factors == tuple(parse(t) for t in spec["s"])
    assert sum(len(t.factors) for t in fresh.units.values()) > 2 * len(set(texts))


def doc_uprising(data: ScenarioSet) -> str:
    return data.doc("units.toml").get_str("uprising", "factors")


def test_a_counter_holds_every_printed_value_and_stays_frozen() -> None:
    """A counter's values (2.4) are stored at once rather than field by field (issue
    35): each field holds what it was given, in the fields' order, and the counter is
    frozen, equal by value and hashable, shown by its fields and copied as itself."""
    values = ("LAH-1", "german", "pzgren", True, False, "LAH", ((5, 6), (3, 4)), 3, 8,
              False, "2510", 0, "", "", "", "")
    t = UnitType(*values)
    assert tuple(getattr(t, f) for f in UnitType.__match_args__) == values
    assert list(vars(t)) == list(UnitType.__match_args__)
    assert t == UnitType(*values) and hash(t) == hash(UnitType(*values))
    assert t != UnitType(*values[:-1], "Kharkov") and t.steps == 2
    assert repr(t).startswith("UnitType(id='LAH-1', side='german', kind='pzgren', ")
    assert copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) == t
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.ma = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del t.ma
    assert {u.id for u in load_data().units.values()} == set(load_data().units)


def test_a_hexs_cube_and_neighbours_need_no_table_of_the_whole_map() -> None:
    """A received move's check (15.0) weighs the hex distances of the hexes its search
    meets, the supply trace (7.0) those toward the sources, and control (3.1) the
    neighbours of eight hexes: each worked out from the hex's number, not from the
    grid's cube of every cell or the map's adjacency (issue 35: 6.9 M and 7.5 M
    instructions of a receive or an act), and the same as those give."""
    d = Data(load_scenario_dir(ENGINE_ID))
    m, grid = d.map, d.map.grid
    hexes = list(m.terrain)
    # as a map read back from the data cache stands: no table made yet (a map built
    # from its file made the grid's to check its hexes)
    for name in ("_cubes", "_ids", "_asked"):
        grid.__dict__.pop(name, None)
    for name in ("adjacency", "index"):
        m.__dict__.pop(name, None)
    axial = {h: d.axial(h) for h in hexes}
    near = {h: d.nbrs[h] for h in hexes}
    assert "_cubes" not in grid.__dict__
    assert "adjacency" not in m.__dict__ and "index" not in m.__dict__
    assert axial == {h: (grid._cubes[h].q, grid._cubes[h].r) for h in hexes}
    assert near == m.neighbor_table()
    assert "0000" not in d.nbrs and d.nbrs.get("0000") is None
    with pytest.raises(KeyError):
        d.nbrs["0000"]


def test_a_hexs_neighbours_are_read_off_the_maps_tables_once_they_are_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: once a search made the map's adjacency and index, a hex's neighbours
    are read off them without HexMap.neighbors' checks and list (the supply check of
    every unit, 7.0, reads some 300 hexes' after a received file's moves), the same
    neighbours in hex order; a hex off the map is a KeyError as before."""
    d = Data(load_scenario_dir(ENGINE_ID))
    m = d.map
    _ = m.adjacency, m.index
    table = m.neighbor_table()

    def asked(self: HexMap, h: str) -> list[str]:
        raise AssertionError(f"HexMap.neighbors asked of {h}")

    monkeypatch.setattr(HexMap, "neighbors", asked)
    assert {h: d.nbrs[h] for h in m.terrain} == table
    with pytest.raises(KeyError):
        d.nbrs["0000"]


def test_the_order_of_battle_is_read_back_from_the_data_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: with a data cache (a player's home), the counters (2.4), formations
    (15.2), the Uprising Forces' values (17.0) and the Front Markers' setup (14.0) are
    kept once derived, and a later command reads them back without decoding units.toml's
    tables: the same values, each counter still frozen and its fields in their order."""
    from engines.backhand import data as module
    from pbem import datacache

    monkeypatch.setattr(datacache, "_directory", tmp_path)
    doc = load_scenario_dir(ENGINE_ID).doc("units.toml")
    built = module._order_of_battle(doc)

    def fresh() -> Doc:  # as a new command reads it: its tables not decoded yet
        return Doc(doc.name, doc.text, doc.top, doc.packed)

    first = module._kept_order_of_battle(fresh())
    assert first == built and any(e.name.startswith("bb-oob-") for e in tmp_path.iterdir())
    again = fresh()
    made: list[str] = []
    init = UnitType.__init__

    def counted(self: UnitType, *values: Any) -> None:
        made.append(values[0])
        init(self, *values)

    # a kept counter is made by UnitType's own __init__ (its sixteen values in one call,
    # cheaper than copying them in by name: 0.5 M instructions of every command)
    monkeypatch.setattr(UnitType, "__init__", counted)
    kept = module._kept_order_of_battle(again)
    monkeypatch.setattr(UnitType, "__init__", init)
    assert made == list(built[0])
    assert "data" not in again.__dict__  # units.toml's tables never decoded
    assert kept == built and list(kept[0]) == list(built[0]) and kept[4] == built[4]
    for uid, t in kept[0].items():
        assert list(vars(t)) == list(UnitType.__match_args__)
        assert tuple(vars(t).values()) == tuple(vars(built[0][uid]).values())
        with pytest.raises(dataclasses.FrozenInstanceError):
            t.ma = 9  # type: ignore[misc]
    assert all(vars(f) == vars(built[1][fid]) for fid, f in kept[1].items())


@pytest.mark.parametrize("damage", ["a factor a string", "a tr a boolean", "a short row",
                                    "not msgpack"])
def test_a_damaged_kept_order_of_battle_is_read_from_the_file(
        damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept entry whose rows are not of their fields' types (or do not read back) is
    never taken: the counters are derived from units.toml again, the same as ever."""
    import msgpack

    from engines.backhand import data as module
    from pbem import datacache

    monkeypatch.setattr(datacache, "_directory", tmp_path)
    doc = load_scenario_dir(ENGINE_ID).doc("units.toml")
    built = module._order_of_battle(doc)
    stored: list[tuple[str, bytes, Any]] = []
    monkeypatch.setattr(datacache, "store", lambda *a: stored.append(a))
    module._kept_order_of_battle(doc)
    (kind, key, blob), = [s for s in stored if s[0] == "bb-oob"]
    rows, forms, upf, tr, fronts = msgpack.unpackb(blob)
    if damage == "a factor a string":
        rows[3][6][0][1] = "6"
    elif damage == "a tr a boolean":
        rows[5][7] = True
    elif damage == "a short row":
        rows[7] = rows[7][:-1]
    bad = (b"\xc1" if damage == "not msgpack"
           else msgpack.packb([rows, forms, upf, tr, fronts], use_bin_type=True))
    monkeypatch.setattr(datacache, "load", lambda k, key_: bad if k == kind else None)
    assert module._read_kept(bad) is None
    assert module._kept_order_of_battle(doc) == built


def test_the_hexes_west_of_the_donets_are_made_when_first_asked() -> None:
    """Issue 35: only the victory check at the game's end (18.2) reads the 1,833 hexes
    west of the Donets, so loading the data does not make their set; asked, it is the
    map's area, Kharkov in it and the Soviet supply edge not."""
    d = Data(load_scenario_dir(ENGINE_ID))
    assert "west_of_donets" not in vars(d)
    assert d.west_of_donets == frozenset(d.map.area("west_of_donets"))
    assert "2510" in d.west_of_donets and "4110" not in d.west_of_donets
    assert d.west_of_donets is d.west_of_donets


def test_the_cities_names_are_made_when_first_asked() -> None:
    """Issue 35: the cities' names (3.1's control events, 17.0's uprisings) read the
    map's places by hex, made for the whole map; loading the data does not make them, and
    asked, each city has its place's name (Kharkov's hex 2510)."""
    d = Data(load_scenario_dir(ENGINE_ID))
    assert "city_names" not in vars(d)
    assert d.city_names == {h: d.map.places_at(h)[0] for h in d.cities}
    assert d.city_names["2510"] == "Kharkov" and list(d.city_names) == list(d.cities)


@pytest.mark.parametrize("damage", [None, "a hex a number", "one list", "not a list"])
def test_the_supply_edges_are_read_back_from_the_data_cache(
        damage: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: with a data cache, the Soviet supply sources (7.0, 14.1) and the German
    supply edge are kept under the kept map's key, and a later command reads them back
    without decoding the map's every area (the hexes west of the Donets among them); an
    entry that is not two lists of hex ids is derived from the map again."""
    from engines.backhand import data as module
    from pbem import datacache

    monkeypatch.setattr(datacache, "_directory", tmp_path)
    scenarios = load_scenario_dir(ENGINE_ID)
    whole = (frozenset(scenarios.map.area("soviet_supply")),
             frozenset(scenarios.map.area("west_edge")))
    assert "4119" in whole[0] and whole[0].isdisjoint(whole[1])

    from engines.hexkit.scenario import parse_map

    map_doc = scenarios.doc(scenarios.map_doc or "")
    parse_map(map_doc)  # built once and kept, as a home's first command keeps it

    def fresh_map() -> HexMap:  # as a new command reads it back from the data cache
        got = parse_map(map_doc)
        assert "areas" not in vars(got)
        return got

    assert module._kept_supply_edges(fresh_map()) == whole
    (entry,) = [e for e in tmp_path.iterdir() if e.name.startswith("bb-edges-")]
    if damage is not None:
        load = datacache.load

        def damaged(kind: str, key: bytes) -> Any:
            got = load(kind, key)
            if kind != "bb-edges":
                return got
            return {"a hex a number": [[*got[0][:-1], 4119], got[1]],
                    "one list": [got[0] + got[1]], "not a list": "4119"}[damage]
        monkeypatch.setattr(datacache, "load", damaged)
    again = fresh_map()
    assert module._kept_supply_edges(again) == whole
    # read back, the map's areas are never decoded; a damaged entry asks the map
    assert ("areas" in vars(again)) == (damage is not None)
