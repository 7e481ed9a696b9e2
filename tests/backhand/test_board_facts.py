"""Backhand Blow's lookups, ZOC (6.0) and floods (7.0, 15.1 (1)) read from the kit's board
facts: the answers follow the units as they stand, and the floods are the rules' own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engines.backhand import ENGINE
from engines.backhand.position import other
from engines.backhand.state import BBState
from engines.backhand.supply import clear_region, supply_net
from pbem.setup import setup


def at(text: str) -> BBState:
    s = setup(ENGINE, "high-water-mark", text)
    assert isinstance(s, BBState)
    return s


def test_a_unit_moved_in_place_is_answered_where_it_stands_now() -> None:
    s = at('clear = true\nplace = { "12T" = "2610" }')
    assert "2609" in s.zoc("soviet") and s.units_at("2610") == ["12T"]
    # a rule moving a unit in the middle of an action asks again before anything else
    # has run: the answer is the new place's, not the one asked of before
    s.pos.units["12T"].at = "3010"
    assert "2609" not in s.zoc("soviet") and "3009" in s.zoc("soviet")
    assert s.units_at("2610") == [] and s.units_at("3010") == ["12T"]
    assert s.occupied("soviet") == {"3010": ("12T",)}


def test_the_facts_of_units_standing_still_are_kept_without_reading_every_place(
        monkeypatch: object) -> None:
    """Issue 35: rules ask the board facts thousands of times an audit; while no unit is
    put anywhere they are the facts kept, without reading each unit's place to key
    them (a tenth of an audit); a unit moved in place (its place alone read again), a
    new unit and a unit taken out of the mapping (every place read again) are each
    answered where they stand now."""
    import pytest

    from engines.backhand import state
    from engines.backhand.position import Unit

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    s = at('clear = true\nplace = { "12T" = "2610" }')
    first = s.facts()
    read: list[object] = []
    monkeypatch.setattr(state, "_AT", lambda x: read.append(x) or x.at)
    assert s.facts() is first and s.occupied("soviet") == {"2610": ("12T",)}
    assert read == []
    s.pos.units["12T"].at = "3010"
    assert s.occupied("soviet") == {"3010": ("12T",)} and read == []
    s.pos.units["UP-1"] = Unit(at="2510", steps=1)
    assert s.occupied("soviet") == {"2510": ("UP-1",), "3010": ("12T",)} and read
    del s.pos.units["UP-1"]
    assert s.occupied("soviet") == {"3010": ("12T",)}
    twin = s.clone()
    assert isinstance(twin, BBState)
    twin.pos.units["12T"].at = "2610"
    assert twin.units_at("2610") == ["12T"] and s.units_at("3010") == ["12T"]


def test_the_units_set_since_are_answered_where_they_stand_as_if_all_were_read() -> None:
    """Issue 35: after a unit is put somewhere only the units set since are read again;
    whatever is set (a move, a unit eliminated or placed, a step lost, a copy's unit,
    more units than the list of sets keeps), the stacks are those of every unit read."""
    from engines.hexkit.facts import BoardFacts

    s = at('clear = true\nplace = { "12T" = "2610", "LAH-1" = "3010", "LAH-2" = "3012" }')
    units = s.pos.units

    def read_all() -> dict[str, Any]:
        fresh = BoardFacts(s.data.map, [s.data.placed(u, x.at) for u, x in units.items()
                                        if s.on_map(u)])
        return {side: dict(fresh.stacks(side)) for side in ("soviet", "german")}

    def answered() -> dict[str, Any]:
        return {side: dict(s.occupied(side)) for side in ("soviet", "german")}

    assert answered() == read_all()
    units["LAH-1"].at = "3011"
    units["12T"].steps = 1
    assert answered() == read_all() == {"soviet": {"2610": ("12T",)},
                                        "german": {"3011": ("LAH-1",), "3012": ("LAH-2",)}}
    twin = s.clone()
    twin.pos.units["12T"].at = "2611"  # another position's unit: this one's stands
    units["LAH-2"].at = "elim"
    assert answered() == read_all() and "3012" not in s.occupied("german")
    units["LAH-2"].at = "3013"
    assert answered() == read_all() and s.occupied("german")["3013"] == ("LAH-2",)
    for i in range(40):  # more units set than the list keeps: every place read again
        units["LAH-1"].at = "3011" if i % 2 else "3111"
    assert answered() == read_all() and s.occupied("german")["3011"] == ("LAH-1",)


def test_a_unit_is_made_with_its_fields_and_counted_placed_once() -> None:
    """Issue 35: a unit stores its fields at once (a restore makes every unit) and
    counts its place once: its __init__ takes exactly the dataclass's fields, in their
    order and with their defaults, and a unit made or moved is a placing."""
    import dataclasses
    import inspect

    from engines.backhand import position

    params = list(inspect.signature(position.Unit.__init__).parameters.values())[1:]
    fields = dataclasses.fields(position.Unit)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        for f in fields]
    before = position.PLACINGS[0]
    u = position.Unit("2510", 2, moved=True)
    assert position.PLACINGS[0] == before + 1 and u.moved and not u.fought
    u.fought = True
    assert position.PLACINGS[0] == before + 1
    u.at = "2511"
    assert position.PLACINGS[0] == before + 2 and u == position.Unit("2511", 2, moved=True,
                                                                     fought=True)


def test_6_0_a_sides_zoc_set_is_kept_while_its_units_stand() -> None:
    """Issue 35: a move's search reads the enemy's ZOC as a set (6.0): the same set
    while the enemy's units stand (a set made anew for every search was hashed anew),
    a new one once they move, each the hexes of the ZOC map."""
    from engines.backhand.control import put

    s = at('clear = true\nplace = { "12T" = "2610", "LAH-1" = "1516" }')
    first = s.zoc_set("soviet")
    assert first == frozenset(s.zoc("soviet"))
    put(s, ["LAH-1"], "1517")  # the other side moves: the Soviet ZOC stands
    assert s.zoc_set("soviet") is first
    put(s, ["12T"], "3010")
    assert s.zoc_set("soviet") == frozenset(s.zoc("soviet")) != first


def test_the_facts_of_a_placement_met_again_are_the_ones_made_before(
        monkeypatch: object) -> None:
    """Issue 35: two states with the units in the same places (a listing's probe, a
    position restored) share the board facts made for the first, found by the units'
    ids and places, without the kit's memo, which hashes every unit's Placed."""
    import pytest

    from engines.hexkit import facts

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    s = at('clear = true\nplace = { "12T" = "2610", "LAH-1" = "1516" }')
    made = s.facts()

    def kit(*args: object) -> object:
        raise AssertionError("the kit's memo of placements asked")

    monkeypatch.setattr(facts, "board_facts", kit)
    twin = at('clear = true\nplace = { "12T" = "2610", "LAH-1" = "1516" }')
    assert twin.facts() is made and twin.units_at("2610") == ["12T"]
    other = at('clear = true\nplace = { "12T" = "2611", "LAH-1" = "1516" }')
    assert other.facts() is not made and other.units_at("2611") == ["12T"]


def _sampled(scenario: str, seed: str, steps: int, every: int) -> Iterator[BBState]:
    """Every ``every``-th decision of a seeded playout of ``scenario`` (at most ``steps``
    steps): the state is the one playout's, looked at, then played on."""
    from pbem.testing import Chooser, decisions

    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    for n, s in enumerate(decisions(st, Chooser(seed), steps)):
        if n % every:
            continue
        assert isinstance(s, BBState)
        yield s


def _floods_made(record_calls: Callable[..., list[Any]]) -> list[Any]:
    """The side (or region) of each flood of the kit's facts from now on: each calls
    graph.region, which the facts import with their first flood."""
    from engines.hexkit import graph

    return record_calls(graph, "region", lambda *args, **kwargs: args[1])


def _flood(s: BBState, side: str, friendly_negates: bool) -> set[str]:
    # the rules read plainly: from the side's sources, through hexes free of enemy units
    # and of EZOC (7.0: unless a friendly unit is there; 15.1 (1): even then)
    enemy, friends = s.occupied(other(side)), s.occupied(side)
    ez = s.zoc(other(side))

    def free(h: str) -> bool:
        return h not in enemy and (h not in ez or (friendly_negates and h in friends))
    edge = s.data.soviet_supply if side == "soviet" else s.data.german_supply
    seen = {h for h in edge if free(h)}
    todo = sorted(seen)
    while todo:
        h = todo.pop()
        for n in s.data.map.neighbors(h):
            if n not in seen and free(n):
                seen.add(n)
                todo.append(n)
    return seen


def test_7_0_and_15_1_floods_are_the_rules_traces() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "3815" }')
    cities = set(s.data.cities)
    n = next(h for h in sorted(s.data.map.neighbors("3815")) if h not in cities)
    s = at(f'clear = true\nplace = {{ "LAH-1" = "3815", "12T" = "{n}" }}')
    assert n in s.zoc("german")
    assert n in supply_net(s, "soviet")  # 7.0: 12T negates LAH-1's ZOC for supply
    assert n not in clear_region(s, "soviet")  # 15.1 (1): not for the clear region
    assert "3815" not in supply_net(s, "soviet")
    for side in ("soviet", "german"):
        assert set(supply_net(s, side)) == _flood(s, side, True)
        assert set(clear_region(s, side)) == _flood(s, side, False)


def test_6_0_a_hex_in_zoc_is_one_of_the_zoc_map() -> None:
    """Issue 35: 3.1's control and 14.1's markers ask a few hexes after every move
    whether a side's ZOC reaches them (BBState.in_zoc: next to one of the side's units,
    no city), reading no ZOC map; over seeded playouts of both scenarios it answers for
    every hex of the map what the kit's whole ZOC map (6.0) says, a city next to a
    unit of the side among them."""
    for scenario, seed in (("high-water-mark", "bbzoc/1"), ("backhand-blow", "bbzoc/2")):
        asked = beside_city = 0
        for s in _sampled(scenario, seed, 1500, 25):
            m = s.data.map
            for side in ("soviet", "german"):
                occupied, zoc = s.occupied(side), s.zoc(side)
                assert {h for h in m.ids if s.in_zoc(h, occupied)} == set(zoc)
                beside_city += sum(1 for h in s.data.cities for x in m.neighbors(h)
                                   if x in occupied)
                asked += 1
        assert asked > 40 and beside_city > 0, (asked, beside_city)


def test_14_1_a_marker_traces_to_a_source_exactly_when_a_search_finds_a_path() -> None:
    """Issue 35: whether a Front Marker is still joined to a Soviet source (14.1, asked
    for both markers after every move) is mostly answered by the path its hex last
    traced by, when every hex of it is still passable; over seeded playouts of both
    scenarios, for the markers' hexes, the hexes around them and hexes across the map,
    with the paths kept from every earlier answer, it says what a search from the hex
    says: the hex free of German units and of German ZOC unless a Soviet unit is there,
    and a path of such hexes to a Soviet source."""
    from engines.backhand import fronts
    from engines.hexkit.graph import trace

    kept = 0
    for scenario, seed in (("high-water-mark", "bbfront/1"), ("backhand-blow", "bbfront/2")):
        asked = cut = 0
        for s in _sampled(scenario, seed, 1500, 15):
            m = s.data.map
            germans, sov, gz = s.occupied("german"), s.occupied("soviet"), s.zoc("german")

            def ok(x: str) -> bool:
                return x not in germans and (x not in gz or x in sov)  # noqa: B023
            hexes = set(s.pos.fronts.values())
            hexes |= {y for h in sorted(hexes) for y in m.neighbors(h)}
            hexes |= set(m.ids[::97]) | {y for h in germans for y in m.neighbors(h)}
            for h in sorted(hexes):
                plain = ok(h) and trace(m, h, s.data.soviet_supply, passable=ok) is not None
                kept += h in fronts._PATHS
                assert fronts.traces(s, h, ok) == plain, (scenario, h)
                asked += 1
                cut += not plain
        assert asked > 3000 and cut > 300, (asked, cut)
    assert kept > 1000, kept
    # a kept path closed: another path is searched for, and none found is none
    s = at("clear = true")
    h = "2510"
    assert fronts.traces(s, h, lambda x: True)
    path = fronts._PATHS[h]
    assert fronts.traces(s, h, lambda x: x not in path[1:-1])
    assert fronts._PATHS[h] != path
    ring = set(s.data.map.neighbors(h))
    assert not fronts.traces(s, h, lambda x: x not in ring)


def test_15_1_a_hex_is_in_the_clear_region_exactly_when_the_flood_says() -> None:
    """Issue 35: a received administrative placement (15.1 (1)) asks the clear region
    of a hex or two by a search from the hex, not a flood of the map; over seeded
    playouts of both scenarios it answers what the flood does for the hexes in and
    around every unit's hex and across the map, enemy hexes and EZOCs among them."""
    from engines.backhand.supply import in_clear_region

    for scenario, seed in (("high-water-mark", "bbclear/1"), ("backhand-blow", "bbclear/2")):
        asked = outside = 0
        for s in _sampled(scenario, seed, 1200, 30):
            m = s.data.map
            hexes = {x.at for x in s.pos.units.values() if x.at in m.index}
            hexes |= {y for h in sorted(hexes) for y in m.neighbors(h)} | set(m.ids[::41])
            for side in ("soviet", "german"):
                region = clear_region(s, side)
                for h in sorted(hexes):
                    assert in_clear_region(s, side, h) == (h in region), (scenario, side, h)
                    asked += 1
                    outside += h not in region
        assert asked > 5000 and outside > 1000, (asked, outside)


def test_7_0_every_supply_check_answers_what_a_plain_trace_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a turn's supply check (4.2 I.D, 7.0) answers every unit from one flood
    of the map's bits a side, not a search from each unit; at every supply check of
    seeded playouts of both scenarios, every unit on the map, and every hex next to
    one (blocked or not), is in supply for each side exactly when a plain breadth-first
    trace from it through hexes free of enemy units and of EZOCs no friendly unit is in
    reaches a free source."""
    from engines.backhand import supply
    from pbem.testing import Chooser, decisions

    def traced(s: BBState, h: str, side: str) -> bool:
        enemy = other(side)
        f = s.facts()
        blocked = f.occupied(enemy) | (frozenset(s.zoc(enemy)) - f.occupied(side))
        sources = supply.supply_sources(s, side)
        if h in f.occupied(enemy):
            return False
        if h in sources:
            return True
        seen, todo = {h}, [h]
        while todo:
            for n in s.data.map.neighbors(todo.pop()):
                if n in seen or n in blocked:
                    continue
                if n in sources:
                    return True
                seen.add(n)
                todo.append(n)
        return False

    checked: list[tuple[int, int]] = []
    check = supply.check_supply

    def compared(s: BBState) -> tuple[str, ...]:
        m = s.data.map
        hexes = {x.at for x in s.pos.units.values() if x.at in m.index}
        hexes |= {y for h in sorted(hexes) for y in m.neighbors(h)}
        out = 0
        for side in ("soviet", "german"):
            for h in sorted(hexes):
                want = traced(s, h, side)
                assert supply.in_supply(s, h, side) == want, (side, h)
                out += not want
        checked.append((len(hexes), out))
        return check(s)

    monkeypatch.setattr(supply, "check_supply", compared)
    for scenario, seed in (("high-water-mark", "bbtrace/1"), ("backhand-blow", "bbtrace/2")):
        st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
        assert isinstance(st, BBState)
        before = len(checked)
        for _ in decisions(st, Chooser(seed), 3000):
            pass
        assert len(checked) - before >= 3, (scenario, len(checked) - before)
    assert sum(out for _, out in checked) > 100, checked


def test_7_0_the_supply_flood_steps_only_to_a_hexs_neighbours() -> None:
    """Issue 35: the supply net's flood of the map's bits (7.0) steps from a hex to
    exactly its neighbours on the map, at the map's edges and the columns' heads and
    feet too: with only the hex and one other hex open, it reaches the other exactly
    when the map has them adjacent."""
    from engines.backhand import supply

    s = at("clear = true")
    m = s.data.map
    grid = supply._grid(s.data)
    tall = grid.tall
    for i in range(len(m.ids)):
        near = range(max(0, i - 2 * tall), min(len(m.ids), i + 2 * tall))
        got = [j for j in near if j != i and grid.flood(1 << i, 1 << i | 1 << j) >> j & 1]
        assert got == sorted(m.adjacency[i]), (m.ids[i], got)


def test_14_0_a_hex_in_range_of_a_marker_is_one_within_twelve_hexes(
        monkeypatch: object) -> None:
    """14.0 (issue 35): a hex's range to a Front Marker is its hex distance, asked of
    the hex, not the set of every hex within twelve of the marker made for it; over
    seeded playouts of both scenarios, for every hex of the map, it is exactly the
    hexes the map has within twelve of either marker, or of the one named."""
    import pytest

    from engines.backhand.fronts import in_range

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    for scenario, seed in (("high-water-mark", "bbrange/1"), ("backhand-blow", "bbrange/2")):
        markers: set[tuple[str, str]] = set()
        for s in _sampled(scenario, seed, 1200, 150):
            m = s.data.map
            near = {f: set(m.within(h, 12)) for f, h in s.pos.fronts.items()}
            with monkeypatch.context() as patched:
                patched.setattr(type(m), "within", None)  # not asked: the distance is
                for h in m.ids:
                    assert in_range(s, h) == any(h in n for n in near.values()), h
                    for f, n in near.items():
                        assert in_range(s, h, f) == (h in n), (f, h)
                assert in_range(s, "box1") and not in_range(s, "elim")
            markers |= set(s.pos.fronts.items())
        assert len(markers) > 4, markers


def test_3_1_control_after_a_move_reads_no_zoc_map(monkeypatch: object) -> None:
    """Issue 35: a unit put in a hex updates the control of the watched hexes (3.1) and
    the Front Markers (14.1) without mapping either side's ZOC: after a German move the
    German ZOC was mapped anew, only to read some forty hexes of it."""
    import pytest

    from engines.backhand.control import put, update_control

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    # 1719 holds variable reinforcements (11.2): watched, and no city
    s = at('clear = true\nplace = { "12T" = "1618", "LAH-1" = "1516" }')
    update_control(s)
    assert "1719" in s.pos.sov_control and "2510" not in s.pos.sov_control

    def mapped(*args: object) -> object:
        raise AssertionError("a side's whole ZOC mapped to read a few hexes of it")

    monkeypatch.setattr(BBState, "zoc", mapped)
    put(s, ["LAH-1"], "1720")  # both ZOCs reach 1719 now: nobody controls it
    assert "1719" not in s.pos.sov_control
    put(s, ["12T"], "2510")  # into Kharkov: a city is controlled by its occupant alone
    assert s.pos.sov_control == ["2510"]
    monkeypatch.undo()
    assert "1719" in s.zoc("german") and "1719" not in s.zoc("soviet")


def test_7_0_a_move_that_blocks_no_hex_floods_nothing_anew(
        record_calls: Callable[..., list[Any]]) -> None:
    """Issue 35: the supply net (7.0) and the clear region (15.1 (1)) are kept by the
    hexes they may not enter: a German unit moving behind its lines changes neither
    German flood, which is not made again; a move next to the enemy is, and every
    answer is the plain trace of the rules."""
    from engines.backhand.control import put

    s = at('clear = true\nplace = { "LAH-1" = "1516", "LAH-2" = "1210", "12T" = "3019" }')
    before = dict(supply_net(s, "german")), dict(clear_region(s, "german"))
    made = _floods_made(record_calls)
    put(s, ["LAH-2"], "1211")  # far from any Soviet unit or ZOC
    assert (dict(supply_net(s, "german")), dict(clear_region(s, "german"))) == before
    assert made == []
    assert set(supply_net(s, "german")) == _flood(s, "german", True)
    put(s, ["LAH-2"], "2919")  # beside 12T: its ZOC there is negated for supply now
    assert "2919" in supply_net(s, "german") and "2919" not in before[0]
    assert set(supply_net(s, "german")) == _flood(s, "german", True)
    # 15.1 (1): not for the clear region, which blocks the same hexes as before
    assert dict(clear_region(s, "german")) == before[1]
    assert len(made) == 1


def test_7_0_a_unit_is_in_supply_exactly_when_the_net_says(
        record_calls: Callable[..., list[Any]]) -> None:
    """Issue 35: a unit's supply (7.0) is searched from its hex, stopping at a source or
    at a hex a search already decided, not by flooding the net of the whole map; over
    seeded playouts of both scenarios it answers for every unit's hex, and for hexes
    of every kind around them (enemy units, EZOCs, cut off, sources), what the net does:
    in it, a source, or next to it."""
    from engines.backhand.supply import in_supply, supply_sources

    flooded = _floods_made(record_calls)
    for scenario, seed in (("high-water-mark", "bbsupply/1"), ("backhand-blow", "bbsupply/2")):
        asked = out = 0
        for s in _sampled(scenario, seed, 1200, 20):
            m = s.data.map
            for side in ("soviet", "german"):
                hexes = {x.at for x in s.pos.units.values() if x.at in m.index}
                hexes |= {y for h in sorted(hexes) for y in m.neighbors(h)}
                hexes |= set(sorted(supply_sources(s, side))[:3])
                before = len(flooded)
                got = {h: in_supply(s, h, side) for h in sorted(hexes)}
                assert len(flooded) == before  # no flood of the map for it
                net, enemy = supply_net(s, side), s.occupied(other(side))
                assert got == {h: h not in enemy and (
                    h in net or h in supply_sources(s, side)
                    or any(y in net for y in m.neighbors(h))) for h in sorted(hexes)}
                asked += len(got)
                out += sum(1 for h, ok in got.items() if not ok and h not in enemy)
        assert asked > 5000 and out > 0, (asked, out)


def test_7_0_a_supply_search_reads_a_hexs_column_off_its_number(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a unit's supply search (7.0) weighs each hex it meets by its distance
    from the sources' column (a map edge, both sides' here), read off the hex's number
    in the loop, not by asking the hex's cube coordinates of the data; each unit's
    answer is the net's, at sampled decisions of a seeded playout."""
    from engines.backhand import supply
    from engines.backhand.data import Data

    for s in _sampled("high-water-mark", "bbsupply/3", 600, 40):
        m = s.data.map
        for side in ("soviet", "german"):
            assert len(supply._source_columns(s.data, side)) == 1
        supply._NET_BITS.clear()
        supply._LAST_TRACE.clear()
        with monkeypatch.context() as patch:
            patch.setattr(Data, "axial", lambda self, h: pytest.fail(f"axial({h})"))
            got = {(u, x.at): supply.in_supply(s, x.at, s.side_of(u))
                   for u, x in sorted(s.pos.units.items()) if x.at in m.terrain}
        for (u, h), ok in got.items():
            side = s.side_of(u)
            net = supply_net(s, side)
            assert ok == (h not in s.occupied(other(side)) and (
                h in net or h in supply.supply_sources(s, side)
                or any(y in net for y in m.neighbors(h)))), (u, h)


def test_7_0_a_supply_search_reads_neighbours_off_the_maps_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a unit's supply search (7.0) reads each hex's neighbours off the map's
    index and neighbour table (made for the ZOC it is blocked by), not from the data's
    table of sorted neighbours made a hex at a time (a Python call for each of some 800
    hexes a turn's supply check meets); each unit's answer is the net's, at sampled
    decisions of seeded playouts of both scenarios."""
    from engines.backhand import supply
    from engines.backhand.data import Data

    for scenario, seed in (("high-water-mark", "bbsupply/4"), ("backhand-blow", "bbsupply/5")):
        for s in _sampled(scenario, seed, 600, 40):
            m = s.data.map
            supply._NET_BITS.clear()
            supply._LAST_TRACE.clear()
            with monkeypatch.context() as patch:
                patch.setattr(Data, "nbrs", property(lambda self: pytest.fail("Data.nbrs")))
                got = {(u, x.at): supply.in_supply(s, x.at, s.side_of(u))
                       for u, x in sorted(s.pos.units.items()) if x.at in m.terrain}
            for (u, h), ok in got.items():
                side = s.side_of(u)
                net = supply_net(s, side)
                assert ok == (h not in s.occupied(other(side)) and (
                    h in net or h in supply.supply_sources(s, side)
                    or any(y in net for y in m.neighbors(h)))), (u, h)


def test_14_1_a_trace_is_searched_toward_the_sources_not_round_the_marker() -> None:
    """Issue 35: a marker's first trace in a command (14.1: only whether one exists) is
    searched from the marker, the hex nearest the sources' columns first, not breadth
    first round it: from Kharkov on an open map it asks a handful of hexes where the
    breadth-first trace asks hundreds, and its path is a trace (each hex next to the
    one before, every hex passable, from the marker to a Soviet source)."""
    from itertools import pairwise
    from types import SimpleNamespace

    from engines.backhand import fronts
    from engines.backhand.data import load
    from engines.hexkit.graph import trace

    d = load()
    m = d.map
    for h, closed in (("2510", frozenset()), ("2510", frozenset(m.neighbors("2611")))):
        ours: list[str] = []
        kits: list[str] = []
        fronts._PATHS.pop(h, None)
        assert fronts.traces(SimpleNamespace(data=d), h,  # type: ignore[arg-type]
                             lambda x: ours.append(x) or x not in closed)  # noqa: B023
        path = fronts._PATHS[h]
        assert trace(m, h, d.soviet_supply,
                     passable=lambda x: kits.append(x) or x not in closed) is not None  # noqa: B023
        assert path[0] == h and path[-1] in d.soviet_supply
        assert all(b in d.nbrs[a] for a, b in pairwise(path))
        assert not closed & set(path)
        assert 3 * len(ours) < len(kits), (len(ours), len(kits))


def test_the_facts_of_a_move_read_each_units_kept_placement(monkeypatch: Any) -> None:
    """Issue 35: the board facts made after a move (a receive makes them after every
    move it replays) read each unit's Placed from the data's table of those made before,
    and make one only for a unit in a hex it had not stood in; the facts are those of a
    Placed made for every unit."""
    from engines.backhand.data import Data
    from engines.hexkit.facts import BoardFacts, Placed

    s = at('clear = true\nplace = { "12T" = "2610" }')
    s.facts()  # every unit's place read once
    s.data._placed["12T"].pop("3010", None)  # a hex 12T has not stood in (the data is shared)
    made: list[tuple[str, str]] = []
    placed = Data.placed

    def counted(self: Data, unit: str, h: str) -> Placed:
        made.append((unit, h))
        return placed(self, unit, h)

    monkeypatch.setattr(Data, "placed", counted)
    s.pos.units["12T"].at = "3010"
    facts = s.facts()
    assert made == [("12T", "3010")]
    units = [(u, x.at) for u, x in s.pos.units.items() if x.at not in ("elim", "box", "")]
    fresh = BoardFacts(s.data.map, [Placed(u, h, s.data.units[u].side) for u, h in units
                                    if h in s.data.map])
    assert facts.placement == fresh.placement


def test_the_facts_after_a_change_are_the_facts_of_the_new_placement(
        monkeypatch: Any) -> None:
    """Issue 35: after a move (or a unit placed or eliminated) the facts are the kept
    facts with the changed units changed, each side's units and stacks carried over
    (BoardFacts.changed): along seeded playouts of both scenarios, at every decision,
    they are what facts made from every unit's place give, and each carried side's
    units and stacks are those found from every unit."""
    from engines.backhand.state import _BOARDS
    from engines.hexkit.facts import BoardFacts
    from pbem.testing import returns_of

    made: list[BoardFacts] = returns_of(monkeypatch, BoardFacts, "changed")
    carried = 0
    for scenario, seed in (("high-water-mark", "bbfacts/1"), ("backhand-blow", "bbfacts/2")):
        for s in _sampled(scenario, seed, 1200, 1):
            _BOARDS.clear()  # no facts met before: made from the facts kept on the state
            f = s.facts()
            fresh = BoardFacts(s.data.map, f.placement)
            assert f.placement == fresh.placement
            assert f._by_unit == fresh._by_unit and list(f._by_unit) == list(fresh._by_unit)
            for side in ("soviet", "german"):
                carried += ("stacks", side) in f._found and any(f is m for m in made[-3:])
                assert f.units(side) == fresh.units(side)
                assert list(f.stacks(side).items()) == list(fresh.stacks(side).items())
    assert carried > 100 and len(made) > 500, (carried, len(made))


def test_a_change_is_refused_as_a_placement_is() -> None:
    import pytest

    from engines.hexkit.facts import Placed

    s = at('clear = true\nplace = { "12T" = "2610" }')
    f = s.facts()
    with pytest.raises(ValueError, match="'12T' is placed at '9999', which is not on the map"):
        f.changed([Placed("12T", "9999", "soviet")])
    with pytest.raises(ValueError, match="'12T' is placed twice: at 3010 and at 3011"):
        f.changed([Placed("12T", "3010", "soviet"), Placed("12T", "3011", "soviet")])
    assert f.changed([f.placed("12T")]) is f  # nothing changed
    moved = f.changed([Placed("12T", "3010", "soviet")])
    assert moved.at("3010") == ("12T",) and moved.at("2610") == ()
    gone = moved.changed([], ["12T"])
    assert gone.placed("12T") is None and "3010" not in gone.occupied("soviet")


def test_the_distance_toward_the_sources_of_a_map_edge_is_one_column_away() -> None:
    """Issue 35: the supply trace (7.0) and the Front Markers' (14.1) search toward the
    sources' columns, asked of every hex they meet; both sides' sources are a map edge
    (one column), whose distance is read without a generator a hex: the same as the
    nearest of the columns for every hex of the map."""
    from types import SimpleNamespace

    from engines.backhand import fronts, supply
    from engines.backhand.data import load

    d = load()
    for side, toward in (("soviet", supply._toward_sources(d, "soviet")),
                         ("german", supply._toward_sources(d, "german")),
                         ("soviet", fronts._toward_sources(SimpleNamespace(data=d)))):  # type: ignore[arg-type]
        columns = supply._source_columns(d, side)
        assert len(columns) == 1 and toward.__name__ == "toward_edge"
        assert all(toward(h) == min(abs(d.axial(h)[0] - c) for c in columns)
                   for h in d.map.terrain)
