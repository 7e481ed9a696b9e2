"""Scenario loading: the map as written, tables, stand-ins, and errors that point."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engines.hexkit.scenario import load_scenario_dir, load_scenario_path
from kit.helpers import DATA
from pbem.errors import ScenarioError

TINY = DATA / "tiny"


def test_tiny_map_as_written() -> None:
    s = load_scenario_path(TINY)
    m = s.map
    # 6x5 grid with one off-map hex ("x" at column 6, row 4)
    assert len(m.ids) == 29 and "0604" not in m
    assert m.terrain_of("0301") == "forest"
    assert m.terrain_of("0303") == "town"
    assert m.terrain_of("0605") == "forest"  # the override
    assert m.terrain_of("0104") == "lake"
    assert m.terrain_class("0301").flag("blocks_los")
    assert m.terrain_class("0502").attrs["high"] is True
    assert m.has_feature("0303", "bunker")
    assert m.features_of("0503") == frozenset({"high_ground"})
    assert m.side_features("0402", "0302") == frozenset({"river", "bridge"})
    assert m.has_side("0401", "0301", "river")
    assert m.faces_toward("slope", "0502", "0402") == "0502"
    assert m.faces_toward("slope", "0402", "0502") == "0502"
    assert m.connected("road", "0305", "0205") and not m.connected("road", "0305", "0306")
    assert m.network_neighbors("road", "0305") == ["0404", "0205"]
    assert m.network_hexes("railroad") == ["0101", "0201", "0301", "0401"]
    assert m.place("Twin Farms") == ("0201", "0202")
    assert m.places_at("0303") == ("Tinyburg",)
    assert m.area("east edge") == ("0601", "0602", "0603", "0605")
    assert m.in_area("south edge", "0305")
    assert m.box("depot").entry == ("0101",)
    assert m.styles["river"] == "#3060c0"


def test_tables_and_scenarios() -> None:
    s = load_scenario_path(TINY)
    crt = s.odds_crt("crt")
    assert crt.result(crt.column(15, 4), 1) == "D1"  # 3:1
    assert crt.result("1:3", 5) == "A1"  # the "4+" row
    assert crt.lowest_roll == 1 and crt.highest_roll is None
    tec = s.chart("tec")
    assert tec.cost("forest", "mech") == 3
    assert tec.cost("lake", "leg") is None
    assert str(tec.cost("town", "mech")) == "1/2"
    assert tec.value("town", "defense") == 2
    assert list(s.scenarios) == ["basic"]
    doc = s.scenario("basic")
    assert doc.get_str("scenario", "title") == "Basic test scenario"
    assert doc.hex(s.map, "oob", "units", 1, "hex") == "0505"
    with pytest.raises(ScenarioError, match="kind 'odds', expected 'chart'"):
        s.chart("crt")


def test_stand_in_markers_are_listed() -> None:
    s = load_scenario_path(TINY)
    found = {(Path(x.file).name, x.key): x.reason for x in s.stand_ins}
    assert found == {
        ("tables.toml", "tables.crt"): "test table: made up for the tests",
        ("basic.toml", "victory"): "no victory table in the rules text",
    }
    assert s.table("crt").stand_in == "test table: made up for the tests"
    assert s.table("tec").stand_in is None


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "tiny"
    shutil.copytree(TINY, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line(path: Path, needle: str) -> int:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def _error(root: Path) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario_path(root).map  # noqa: B018
    return str(info.value)


def test_error_unknown_grid_character_names_file_key_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", "03 ..t.hh", "03 ..t.hQ")
    msg = _error(root)
    line = _line(root / "map.toml", "03 ..t.hQ")
    assert f"map.toml:{line}:" in msg
    assert "map.terrain.grid" in msg and "'Q'" in msg and "row 3" in msg


def test_error_short_grid_row(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", "05 ......", "05 .....")
    msg = _error(root)
    assert f"map.toml:{_line(root / 'map.toml', '05 .....')}:" in msg
    assert "row 5 has 5 hexes, the map needs 6" in msg


def test_error_non_adjacent_hexside(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", '"0302/0402"]', '"0302/0404"]')
    msg = _error(root)
    assert f"map.toml:{_line(root / 'map.toml', 'river = [')}:" in msg
    assert "map.hexsides.river[2]" in msg and "0302 and 0404 are not adjacent" in msg


def test_error_unknown_override_terrain(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", '"0605" = "forest"', '"0605" = "jungle"')
    msg = _error(root)
    assert f"map.toml:{_line(root / 'map.toml', 'jungle')}:" in msg
    assert 'map.terrain.overrides."0605"' in msg or "map.terrain.overrides.0605" in msg
    assert "'jungle' is not in the legend" in msg


def test_error_place_off_map(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", '"Tinyburg" = "0303"', '"Tinyburg" = "0604"')
    msg = _error(root)
    assert f"map.toml:{_line(root / 'map.toml', 'Tinyburg')}:" in msg
    assert "Tinyburg" in msg and "0604 is off the map" in msg


def test_error_missing_required_key(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", 'offset = "even"\n', "")
    msg = _error(root)
    assert "map.toml" in msg and "missing key 'map.offset'" in msg


def test_error_toml_syntax_gives_parser_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "tables.toml", 'kind = "chart"', 'kind = "chart')
    msg = _error(root)
    assert f"tables.toml:{_line(root / 'tables.toml', 'kind = ' + chr(34) + 'chart')}:" in msg
    assert "TOML syntax" in msg


def test_error_table_row_wrong_length(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "tables.toml", 'forest = [2, 3, 1]', 'forest = [2, 3]')
    msg = _error(root)
    assert f"tables.toml:{_line(root / 'tables.toml', 'forest = [2, 3]')}:" in msg
    assert "tables.tec.rows.forest" in msg and "3 values" in msg


def test_error_float_in_table(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "tables.toml", 'forest = [2, 3, 1]', 'forest = [2, 1.5, 1]')
    msg = _error(root)
    assert "tables.tec.rows.forest[1]" in msg and "float" in msg


def test_error_overlapping_roll_rows(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "tables.toml", '"4+" = [', '"3+" = [')
    msg = _error(root)
    assert f"tables.toml:{_line(root / 'tables.toml', '[tables.crt]')}:" in msg
    assert "overlap" in msg


def test_error_duplicate_table_and_bad_stand_in(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "zz_more.toml").write_text('[tables.crt]\nkind = "lookup"\n', encoding="utf-8")
    msg = _error(root)
    assert "zz_more.toml:1:" in msg and "already defined" in msg and "tables.toml" in msg
    (root / "zz_more.toml").write_text('[oob]\nstand_in = ""\n', encoding="utf-8")
    msg = _error(root)
    assert "zz_more.toml:2:" in msg and "oob.stand_in" in msg


def test_doc_line_of_array_of_tables(tmp_path: Path) -> None:
    s = load_scenario_path(TINY)
    doc = s.doc("basic.toml")
    path = TINY / "basic.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    second_hex = [i for i, line in enumerate(lines, 1) if line.startswith("hex =")][1]
    assert doc.line_of(("oob", "units", 1, "hex")) == second_hex
    with pytest.raises(ScenarioError) as info:
        doc.get_int("oob", "units", 1, "hex")
    assert f"basic.toml:{second_hex}:" in str(info.value)
    assert "oob.units[1].hex: expected int" in str(info.value)


def test_shipped_scenarios_load_or_name_the_engine() -> None:
    with pytest.raises(ScenarioError, match="scenarios/no-such-engine"):
        load_scenario_dir("no-such-engine")


def test_loads_are_cached_per_engine() -> None:
    root = Path(__file__).parents[2] / "scenarios"
    engines = sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.toml")))
    for engine in engines:
        try:
            first = load_scenario_dir(engine)
        except ScenarioError:
            continue  # another engine's data in progress; not this kit's to judge
        assert load_scenario_dir(engine) is first


MINIMAL_MAP = """
[map]
offset = "odd"
cols = [1, 4]
rows = [1, 3]

[map.legend]
"." = { name = "clear" }

[map.terrain]
by = "column"
grid = \"\"\"
01 ...
02 ...
03 ...
04 ...
\"\"\"
"""


def test_stand_in_round_trip(tmp_path: Path) -> None:
    root = tmp_path / "game"
    root.mkdir()
    (root / "map.toml").write_text(MINIMAL_MAP, encoding="utf-8")
    table = ('[tables.weather]\nkind = "lookup"\n{}\n'
             'turns = {{ "1" = "clear", "2" = "snow" }}\n')
    reason = "weather by turn is not in the rules text; taken from the history"
    (root / "tables.toml").write_text(table.format(f'stand_in = "{reason}"'), encoding="utf-8")
    s = load_scenario_path(root)
    assert [(Path(x.file).name, x.key, x.reason) for x in s.stand_ins] == [
        ("tables.toml", "tables.weather", reason)]
    assert s.table("weather").stand_in == reason
    assert s.table("weather").extra["turns"] == {"1": "clear", "2": "snow"}
    # the player replaces the stand-in with the printed chart and deletes the marker
    (root / "tables.toml").write_text(table.format(""), encoding="utf-8")
    s = load_scenario_path(root)
    assert s.stand_ins == () and s.table("weather").stand_in is None


def test_columns_grid_odd_offset_and_hexside_fans(tmp_path: Path) -> None:
    root = tmp_path / "game"
    root.mkdir()
    (root / "map.toml").write_text(MINIMAL_MAP + """
[map.hexsides]
river = ["0202/0201,0102,0302"]
slope = ["0103->0203,0102"]
""", encoding="utf-8")
    m = load_scenario_path(root).map
    assert m.grid.parity == "odd" and len(m.ids) == 12
    # odd columns shifted down: 0202's neighbors include 0102 and 0302 (its SW and SE)
    assert sorted(m.sides_with("river")) == [("0102", "0202"), ("0201", "0202"),
                                             ("0202", "0302")]
    assert m.faces_toward("slope", "0103", "0203") == "0203"
    assert m.faces_toward("slope", "0102", "0103") == "0102"


def test_error_line_points_into_a_long_list(tmp_path: Path) -> None:
    root = tmp_path / "game"
    root.mkdir()
    (root / "map.toml").write_text(MINIMAL_MAP + """
[map.hexsides]
river = [
    "0101/0102",
    "0102/0103",  # "quoted" comment
    "0103/0303",
]
""", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario_path(root)
    msg = str(info.value)
    assert f"map.toml:{_line(root / 'map.toml', '0103/0303')}:" in msg
    assert "map.hexsides.river[2]: 0103 and 0303 are not adjacent" in msg


def test_error_float_in_map_data(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root / "map.toml", '"h" = { name = "hill", color = "#b09060", high = true }',
          '"h" = { name = "hill", color = "#b09060", height = 1.5 }')
    msg = _error(root)
    assert f"map.toml:{_line(root / 'map.toml', 'height = 1.5')}:" in msg
    assert "map.legend.h.height" in msg and "float" in msg


def test_kit_objects_are_shared_not_copied_by_state_clones() -> None:
    import copy

    from engines.hexkit.movement import MoveClass, MoveCosts

    s = load_scenario_path(TINY)
    costs = MoveCosts(s.map, MoveClass("leg", {"clear": 1}))
    state = {"map": s.map, "data": s, "costs": costs, "units": {"u1": "0101"}}
    clone = copy.deepcopy(state)
    assert clone["map"] is s.map and clone["data"] is s and clone["costs"] is costs
    assert clone["units"] == state["units"] and clone["units"] is not state["units"]


def test_scenario_infos_pin_shared_files_and_their_own(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "other.toml").write_text(
        '[scenario]\nid = "other"\ntitle = "Other"\ndescription = "A second one"\n',
        encoding="utf-8")
    s = load_scenario_path(root)
    infos = s.infos()
    assert [i.id for i in infos] == ["basic", "other"]
    basic, other = infos
    assert basic.title == "Basic test scenario" and basic.turns == (1, 4)
    assert other.description == "A second one" and other.turns == (1, 1)
    assert sorted(f.name for f in basic.files) == ["basic.toml", "map.toml", "tables.toml"]
    assert sorted(f.name for f in other.files) == ["map.toml", "other.toml", "tables.toml"]


def test_doc_hexes_expand_ranges_areas_and_places(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    with (root / "basic.toml").open("a", encoding="utf-8") as f:
        f.write('\n[setup]\nblue = ["0101", "0102-0103", "east edge", "Twin Farms"]\n'
                'red = "south edge"\nbad = ["0101", "nowhere"]\noff = ["0604"]\n')
    s = load_scenario_path(root)
    doc = s.scenario("basic")
    assert doc.hexes(s.map, "setup", "blue") == [
        "0101", "0102", "0103", "0601", "0602", "0603", "0605", "0201", "0202"]
    assert doc.hexes(s.map, "setup", "red")[0] == "0105"
    with pytest.raises(ScenarioError) as info:
        doc.hexes(s.map, "setup", "bad")
    assert "setup.bad[1]: 'nowhere' is not a hex number" in str(info.value)
    assert f"basic.toml:{_line(root / 'basic.toml', 'bad = [')}:" in str(info.value)
    with pytest.raises(ScenarioError, match=r"setup.off\[0\]: hex 0604 is not on the map"):
        doc.hexes(s.map, "setup", "off")


def test_parse_table_at_an_engines_own_key() -> None:
    from engines.hexkit.scenario import parse_doc, parse_table
    from engines.hexkit.tables import OddsCRT

    doc = parse_doc("crt.toml", b"""
[crt]
kind = "odds"
stand_in = "made up"
columns = ["1:2", "1:1", "2:1"]
notes = "anything else is kept"
[crt.rows]
"1-3" = ["A1", "D1", "D2"]
"4-6" = ["A2", "A1", "D1"]
""")
    table = parse_table(doc, "crt", ("crt",))
    assert table.stand_in == "made up" and table.extra["notes"] == "anything else is kept"
    assert table.where == "crt.toml [crt]"
    crt = OddsCRT(table)
    assert crt.result(crt.column(5, 2), 2) == "D2"
    with pytest.raises(ScenarioError, match=r"crt.toml:\d+: crt.kind: unknown kind"):
        parse_table(parse_doc("crt.toml", b'[crt]\nkind = "magic"\n'), "crt", ("crt",))


def _by(by: str, lines: list[str]) -> str:
    grid = "\n".join(lines)
    return f"""
[map]
offset = "even"
cols = [3, 6]
rows = [2, 4]

[map.legend]
"." = {{ name = "clear" }}
"f" = {{ name = "forest" }}
"x" = {{ off_map = true }}

[map.terrain]
by = "{by}"
grid = \"\"\"
{grid}
\"\"\"
"""


def test_terrain_by_row_and_by_column_places_each_hex_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the terrain grid takes each hex's id from the grid's cells (written
    once a column and a row) instead of formatting it again; a map written by rows and
    the same map by columns place every hex alike, and no id is formatted per hex."""
    from engines.hexkit.hexid import Numbering

    # column c, row r: forest where (c + r) % 3 == 0, off the map at 0603
    def char(c: int, r: int) -> str:
        return "x" if (c, r) == (6, 3) else "f" if (c + r) % 3 == 0 else "."

    rows = [f"{r:02d} " + "".join(char(c, r) for c in range(3, 7)) for r in range(2, 5)]
    cols = [f"{c:02d} " + "".join(char(c, r) for r in range(2, 5)) for c in range(3, 7)]
    expected = {f"{c:02d}{r:02d}": "forest" if char(c, r) == "f" else "clear"
                for c in range(3, 7) for r in range(2, 5) if char(c, r) != "x"}
    formatted: list[tuple[int, int]] = []
    real = Numbering.format

    def counted(self: Numbering, col: int, row: int) -> str:
        formatted.append((col, row))
        return real(self, col, row)

    monkeypatch.setattr(Numbering, "format", counted)
    for by, lines in (("row", rows), ("column", cols)):
        root = tmp_path / by
        root.mkdir()
        (root / "map.toml").write_text(_by(by, lines), encoding="utf-8")
        terrain = load_scenario_path(root).map.terrain
        assert list(terrain.items()) == sorted(expected.items()), by
    assert len(formatted) <= 4  # the two grids' corners


def test_float_in_map_named_first_in_key_order_and_looked_for_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a map is searched for floats without building a path a value; only a
    map that has one is walked again to name it, the first in key order as before."""
    from engines.hexkit import scenario_parse

    root = _copy(tmp_path)
    with monkeypatch.context() as m:
        m.setattr(scenario_parse, "_name_float", lambda *a: pytest.fail("walked with paths"))
        assert load_scenario_path(root).map is not None
    _edit(root / "map.toml", '"h" = { name = "hill", color = "#b09060", high = true }',
          '"h" = { name = "hill", color = "#b09060", height = 1.5, depth = 2.5 }')
    msg = _error(root)
    assert "map.legend.h.depth" in msg and "float" in msg


@pytest.mark.parametrize("path", [("units", "a-1", "hex"), ("x y", 3, "ok_key"),
                                  ("", "é", "A9"), (), (0,), ("with.dot",)])
def test_a_key_path_is_written_as_toml_writes_its_keys(path: tuple[str | int, ...]) -> None:
    """An error names the key where a scenario file went wrong, a bare key as it is and
    any other in quotes: the kit tells them by a set of characters, not a pattern compiled
    by every command (issue 35), with the same words the pattern gave."""
    import re

    from engines.hexkit.scenario import _fmt_key

    out = ""
    for k in path:
        if isinstance(k, int):
            out += f"[{k}]"
        elif re.fullmatch(r"[A-Za-z0-9_-]+", k):
            out += ("." if out else "") + k
        else:
            out += ("." if out else "") + f'"{k}"'
    assert _fmt_key(path) == (out or "(top level)")
