"""Backhand Blow's lookups, ZOC (6.0) and floods (7.0, 15.1 (1)) read from the kit's board
facts: the answers follow the units as they stand, and the floods are the rules' own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

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


def test_6_0_the_zoc_hexes_alone_are_those_of_the_zoc_map() -> None:
    """Issue 35: 3.1's control and 14.1's markers read a side's ZOC after every move as
    the set of its hexes (BBState.zoc_hexes: around the side's units, but no city);
    over seeded playouts of both scenarios it is exactly the hexes of the kit's whole
    ZOC map (6.0), a city next to a unit of the side among them."""
    for scenario, seed in (("high-water-mark", "bbzoc/1"), ("backhand-blow", "bbzoc/2")):
        asked = beside_city = 0
        for s in _sampled(scenario, seed, 1500, 25):
            m = s.data.map
            for side in ("soviet", "german"):
                assert s.zoc_hexes(side) == frozenset(s.zoc(side))
                beside_city += sum(1 for h in s.data.cities for x in m.neighbors(h)
                                   if x in s.occupied(side))
                asked += 1
        assert asked > 40 and beside_city > 0, (asked, beside_city)


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
