"""White Death: the places and areas the manual names, the Lowatj, lakes, rails and roads."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from typing import Any

from engines.hexkit.checks import check_named_hexes
from engines.hexkit.hexmap import HexMap
from engines.hexkit.movement import trace
from engines.hexkit.scenario import load_scenario_path

from .conftest import WD_MAP

Map = tuple[HexMap, dict[str, Any]]


def test_loads_with_the_kit_loader(tmp_path: Path) -> None:
    shutil.copy(WD_MAP, tmp_path / "map.toml")
    sset = load_scenario_path(tmp_path)
    m = sset.map
    assert m.grid.cols == (1, 43) and m.grid.rows == (1, 40)
    assert len(m.ids) == 43 * 40
    reasons = " ".join(s.reason for s in sset.stand_ins)
    assert "Rule 17 A promises three Soviet entry areas" in reasons


def test_every_place_the_manual_names(wd: Map) -> None:
    m, _ = wd
    vl = m.place("Velikiye Luki")
    expectations = [(h, "terrain:town", "Rule 19") for h in vl]
    expectations += [(h, "terrain:town", "Rule 22") for h in m.place("Nowossokoljniki")]
    expectations += [(h, "terrain:town", "Rule 22") for h in m.place("Isotcha")]
    expectations += [
        (m.place("Citadel")[0], "feature:citadel", "Scenario IV"),
        (m.place("Citadel")[0], "area:velikiye_luki", "Scenario IV"),
        (m.place("Guschtschino")[0], "area:guschtschino_tschernosjom_line", "Scenario II"),
        (m.place("Tschernosjom")[0], "area:guschtschino_tschernosjom_line", "Scenario II"),
    ]
    expectations += [(h, "feature:intrinsic_garrison", "Intrinsic Garrisons")
                     for h in m.place("Nowossokoljniki") + m.place("Isotcha")]
    assert check_named_hexes(m, expectations) == []
    assert 7 <= len(vl) <= 16


def test_the_lowatj_runs_north_through_the_city(wd: Map) -> None:
    m, raw = wd
    chain = raw["rivers"]["lowatj"]["hexes"]
    assert chain == sorted(m.area("lowatj"), key=chain.index)
    for a, b in itertools.pairwise(chain):
        assert m.grid.adjacent(a, b), (a, b)
    assert m.grid.coords_of(chain[0])[1] == m.grid.rows[1]  # enters from the south edge
    assert m.grid.coords_of(chain[-1])[1] == m.grid.rows[0]  # leaves by the north edge
    assert set(chain) & set(m.place("Velikiye Luki"))
    for h in chain:
        assert m.has_feature(h, "river")
    # the city straddles it: hexes on both banks
    assert m.area("velikiye_luki_west_bank") and m.area("velikiye_luki_east_bank")
    assert m.place("Citadel")[0] in m.area("velikiye_luki_west_bank")  # the left bank


def test_four_standing_bridges_carry_roads_across_the_lowatj(wd: Map) -> None:
    m, _ = wd
    bridges = [h for h in m.ids if m.has_feature(h, "bridge")]
    assert len(bridges) == 4  # Rule 20
    for h in bridges:
        assert m.has_feature(h, "river")
        west = [n for n in m.neighbors(h) if n in m.area("west_of_lowatj")
                and (m.connected("road", h, n) or m.connected("railroad", h, n))]
        east = [n for n in m.neighbors(h) if n in m.area("east_of_lowatj")
                and (m.connected("road", h, n) or m.connected("railroad", h, n))]
        assert west and east, h
    named = {n for n in m.places if n.startswith("Lowatj")}
    assert {m.place(n)[0] for n in named} == set(bridges)
    # no road or railroad enters a river hex that has no bridge
    for net in ("road", "railroad"):
        for h in m.network_hexes(net):
            if m.has_feature(h, "river"):
                assert m.has_feature(h, "bridge"), (net, h)


def test_banks_split_the_map(wd: Map) -> None:
    m, _ = wd
    west, east, river = (set(m.area(k)) for k in ("west_of_lowatj", "east_of_lowatj", "lowatj"))
    assert west | east | river == set(m.ids)
    assert not (west & east)
    for a in west:
        for b in m.neighbors(a):
            assert b not in east, (a, b)
    for name in ("Nowossokoljniki", "Isotcha", "Guschtschino", "Tschernosjom"):
        assert set(m.place(name)) <= west, name


def test_intrinsic_garrisons_are_the_rail_towns_west_of_the_lowatj(wd: Map) -> None:
    m, _ = wd
    vl = set(m.place("Velikiye Luki"))
    rail = set(m.network_hexes("railroad"))
    towns = {h for h in m.area("west_of_lowatj") if m.terrain[h] == "town" and h not in vl}
    rail_towns = {h for h in towns if h in rail}
    assert rail_towns
    garrisoned = {h for h in m.ids if m.has_feature(h, "intrinsic_garrison")}
    assert garrisoned == towns  # every town west of the river outside the city
    assert set(m.place("Isotcha")) & rail and set(m.place("Nowossokoljniki")) & rail


def test_entry_areas_follow_rule_17(wd: Map) -> None:
    m, _ = wd
    c0, c1 = m.grid.cols
    r0, r1 = m.grid.rows
    lowatj = set(m.area("lowatj"))
    north = [h for h in m.ids if m.grid.coords_of(h)[1] == r0]
    south = sorted(h for h in m.ids if m.grid.coords_of(h)[1] == r1)
    west = sorted((h for h in m.ids if m.grid.coords_of(h)[0] == c0),
                  key=lambda h: m.grid.coords_of(h)[1])
    east = [h for h in m.ids if m.grid.coords_of(h)[0] == c1]
    river_n = max(m.grid.coords_of(h)[0] for h in north if h in lowatj)
    river_s = max(m.grid.coords_of(h)[0] for h in south if h in lowatj)
    # A: Soviet
    assert set(m.area("soviet-northeast")) == {h for h in north
                                                if m.grid.coords_of(h)[0] > river_n}
    assert set(m.area("soviet-east")) == set(east)
    assert m.area("soviet-southeast")  # the stand-in third area
    # B: German southern: the ten south-edge hexes just east of the river
    assert [m.grid.coords_of(h)[0] for h in m.area("german-south")] == list(
        range(river_s + 1, river_s + 11))
    # western: the railroad due west of Nowossokoljniki, four edge hexes either side
    (wx,) = m.area("rail_exit_western")
    assert m.connected("railroad", wx, m.neighbors(wx)[0]) or m.network_neighbors("railroad", wx)
    nowo_row = m.grid.coords_of(m.place("Nowossokoljniki")[0])[1]
    assert abs(m.grid.coords_of(wx)[1] - nowo_row) <= 1
    i = west.index(wx)
    assert list(m.area("german-west")) == sorted(west[i - 4: i + 5])
    # southwestern: the southernmost railroads leaving the west edge and the hexes between
    exits = list(m.area("rail_exits_southwestern"))
    assert len(exits) == 2
    for h in exits:
        assert h in west and m.network_neighbors("railroad", h)
    rows = sorted(m.grid.coords_of(h)[1] for h in exits)
    assert [m.grid.coords_of(h)[1] for h in m.area("german-southwest")] == list(
        range(rows[0], rows[1] + 1))
    rail_west = [h for h in west if m.network_neighbors("railroad", h)]
    assert set(rail_west) == {wx, *exits}
    # north-western: the railroad leaving by the north-west corner and four hexes each side
    (nx,) = m.area("rail_exit_northwestern")
    assert nx in north and m.grid.coords_of(nx)[0] <= 12
    assert nx in m.area("german-northwest") and len(m.area("german-northwest")) == 9


def test_friendly_edges(wd: Map) -> None:
    m, _ = wd
    soviet, german = set(m.area("soviet_friendly_edge")), set(m.area("german_friendly_edge"))
    assert set(m.area("soviet-east")) <= soviet
    assert not (soviet & german)
    for h in m.area("german-south") + m.area("german-southwest") + m.area("german-west"):
        assert h in german


def test_railroads_connect_their_ends(wd: Map) -> None:
    m, raw = wd
    assert len(raw["railroad_lines"]) == 4
    for key, line in raw["railroad_lines"].items():
        assert trace(m, line["from"], [line["to"]], network="railroad") is not None, key
    vl = [h for h in m.place("Velikiye Luki") if m.network_neighbors("railroad", h)]
    assert vl
    for town in ("Nowossokoljniki", "Isotcha"):
        assert trace(m, vl[0], set(m.place(town)), network="railroad") is not None
    # every rail exit is reachable from the city: the whole net is one piece
    for h in [*m.area("rail_exit_western"), *m.area("rail_exits_southwestern"),
              *m.area("rail_exit_northwestern")]:
        assert trace(m, vl[0], [h], network="railroad") is not None, h
    # the Nevel-Leningrad line runs through Nowossokoljniki from the south-west to the north
    nevel = raw["railroad_lines"]["nevel_nowossokoljniki_leningrad"]
    path = trace(m, nevel["from"], [nevel["to"]], network="railroad")
    assert path is not None and set(path) & set(m.place("Nowossokoljniki"))
    objective = set(m.area("nevel_leningrad_railroad"))
    assert {nevel["from"], nevel["to"]} <= objective
    assert objective & set(m.place("Nowossokoljniki"))


def test_roads_connect_their_ends(wd: Map) -> None:
    m, raw = wd
    for key, line in raw["road_lines"].items():
        assert trace(m, line["from"], [line["to"]], network="road") is not None, key
    # Usvyaty road leaves by the German Southern Entry Area
    usv = raw["road_lines"]["velikiye_luki_usvyaty"]
    assert usv["to"] in m.area("german-south")


def test_lakes_are_hexside_chains(wd: Map) -> None:
    m, raw = wd
    assert m.sides_with("lake")
    for key, lake in raw["lakes"].items():
        full = lake["full"]
        assert full, key
        for s in full:
            a, b = s.split("/")
            assert m.has_side(a, b, "lake"), (key, s)
        for s, t in itertools.pairwise(full):
            hexes = set(s.split("/")) | set(t.split("/"))
            assert len(hexes) == 3, (key, s, t)
            assert all(m.grid.adjacent(x, y) for x, y in itertools.combinations(sorted(hexes), 2))
    lakes = set(m.sides_with("lake")) | set(m.sides_with("partial_lake"))
    for net in ("road", "railroad"):
        assert not (set(m.networks[net]) & lakes), net


def test_creeks_flow_into_the_lowatj(wd: Map) -> None:
    m, raw = wd
    river = set(m.area("lowatj"))
    for key, creek in raw["creeks"].items():
        hexes = creek["hexes"]
        assert hexes, key
        for a, b in itertools.pairwise(hexes):
            assert m.grid.adjacent(a, b), (key, a, b)
        assert set(m.neighbors(hexes[-1])) & river, key
        for h in hexes:
            assert m.has_feature(h, "creek")


def test_slopes_face_high_ground(wd: Map) -> None:
    m, _ = wd
    high = {h for h in m.ids if m.has_feature(h, "high_ground")}
    assert high
    slopes = m.sides_with("slope")
    assert slopes
    for a, b in slopes:
        up = m.faces_toward("slope", a, b)
        assert up in high
        assert ({a, b} - {up}).pop() not in high


def test_bunker_sites_are_in_the_city(wd: Map) -> None:
    m, _ = wd
    sites = [h for h in m.ids if m.has_feature(h, "bunker_site")]
    assert len(sites) == 7  # Rule 19: seven bunker hexes
    assert set(sites) <= set(m.place("Velikiye Luki"))
    assert m.place("Citadel")[0] in sites


def test_terrain_classes_have_colors(wd: Map) -> None:
    m, _ = wd
    names = {t.name for t in m.legend}
    assert {"clear", "forest", "swamp", "town"} <= names
    assert all(t.color.startswith("#") for t in m.legend)
    # the northern swamps: most of the top rows are swamp
    top = [h for h in m.ids if m.grid.coords_of(h)[1] <= 5]
    assert sum(m.terrain[h] == "swamp" for h in top) > len(top) / 2
