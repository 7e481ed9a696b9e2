"""Movement: path costs, reachable sets, brute-force agreement, ZOC policies, networks."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.hexkit.geometry import HexGrid, Hexside, hexside
from engines.hexkit.hexmap import HexMap
from engines.hexkit.movement import (
    Cost,
    MoveClass,
    MoveCosts,
    breadth_first,
    lightest_chain,
    reachable,
    reaches,
    region,
    spread,
    trace,
)
from engines.hexkit.zoc import IGNORE_ZOC, STOP_ON_ENTRY, ZocPolicy, zoc_map
from kit.helpers import make_map

LEG = MoveClass(
    "leg",
    enter={"clear": 1, "forest": 2, "rough": 3, "swamp": None},
    hexside={"river": 2, "lake_edge": None},
    networks={"road": Fraction(1, 2)},
    negated_by={"river": ["bridge"]},
)

TERRAINS = ["clear", "clear", "forest", "rough", "swamp"]
SMALL = HexGrid("even", (1, 4), (1, 3))
SIDES: list[Hexside] = sorted({hexside(a, b) for a in SMALL.ids() for b in SMALL.neighbors(a)})


@st.composite
def small_worlds(draw: st.DrawFn) -> tuple[HexMap, str, Cost, frozenset[str], ZocPolicy]:
    parity = draw(st.sampled_from(["odd", "even"]))
    grid = HexGrid(parity, (1, 4), (1, 3))
    ids = grid.ids()
    sides = sorted({hexside(a, b) for a in ids for b in grid.neighbors(a)})
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in ids}
    rivers = draw(st.lists(st.sampled_from(sides), max_size=5, unique=True))
    roads = draw(st.lists(st.sampled_from(sides), max_size=5, unique=True))
    m = make_map(4, 3, terrain, parity=parity, hexsides={"river": rivers},
                 networks={"road": roads})
    start = draw(st.sampled_from(ids))
    allowance = draw(st.sampled_from([1, 2, 3, 4, Fraction(7, 2), 5]))
    zoc = frozenset(draw(st.lists(st.sampled_from(ids), max_size=4)))
    policy = ZocPolicy(
        stop_on_entry=draw(st.booleans()),
        exit_cost=draw(st.sampled_from([0, 1, 2])),
        zoc_to_zoc=draw(st.booleans()),
        may_enter=draw(st.booleans()),
    )
    return m, start, allowance, zoc, policy


def brute_force(m: HexMap, start: str, allowance: Cost, zoc: frozenset[str],
                policy: ZocPolicy) -> dict[str, Cost]:
    """Every simple path, enumerated, with the rules applied step by step from scratch."""
    best: dict[str, Cost] = {start: 0}

    def go(path: list[str], spent: Cost) -> None:
        here = path[-1]
        if len(path) > 1 and here in zoc and policy.stop_on_entry:
            return
        for n in m.grid.neighbors(here):
            if n in path or n not in m:
                continue
            step = LEG.step_cost(m, here, n)
            if step is None:
                continue
            if n in zoc and not policy.may_enter:
                continue
            if here in zoc and n in zoc and not policy.zoc_to_zoc:
                continue
            total = spent + step + (policy.exit_cost if here in zoc else 0)
            if total > allowance:
                continue
            if n not in best or total < best[n]:
                best[n] = total
            go([*path, n], total)

    go([start], 0)
    return best


@settings(max_examples=60, deadline=None)
@given(small_worlds())
def test_dijkstra_equals_brute_force(world: tuple[HexMap, str, Cost, frozenset[str],
                                                  ZocPolicy]) -> None:
    m, start, allowance, zoc, policy = world
    reach = reachable(MoveCosts(m, LEG), start, allowance, zoc=zoc, policy=policy)
    assert dict(reach.cost) == brute_force(m, start, allowance, zoc, policy)


def path_cost(costs: MoveCosts, path: list[str], zoc: frozenset[str], policy: ZocPolicy) -> Cost:
    """A path's cost counted step by step: each step, and the policy's cost to leave an
    enemy ZOC hex for each step out of one."""
    total: Cost = 0
    for a, b in itertools.pairwise(path):
        step = costs.cost(a, b)
        assert step is not None
        total += step + (policy.exit_cost if a in zoc else 0)
    return total


@settings(max_examples=60, deadline=None)
@given(small_worlds())
def test_path_cost_is_sum_of_steps_and_prefixes_are_reachable(
        world: tuple[HexMap, str, Cost, frozenset[str], ZocPolicy]) -> None:
    m, start, allowance, zoc, policy = world
    costs = MoveCosts(m, LEG)
    reach = reachable(costs, start, allowance, zoc=zoc, policy=policy)
    for h, c in reach.cost.items():
        path = reach.path_to(h)
        assert path[0] == start and path[-1] == h
        # the cost is exactly the sum of the steps, counted one by one
        assert path_cost(costs, path, zoc, policy) == c
        assert c <= allowance
        # closed under prefixes: every hex on the way is reachable, no dearer, and its
        # own cost is that of the prefix (a least-cost path's prefix is least-cost)
        for i, p in enumerate(path):
            assert p in reach.cost and reach.cost[p] <= c
            assert path_cost(costs, path[: i + 1], zoc, policy) == reach.cost[p]
    assert set(reach.ends) == set(reach.cost) - {start}
    assert list(reach.ends) == sorted(reach.ends)


@settings(max_examples=30, deadline=None)
@given(small_worlds())
def test_a_search_for_one_goal_agrees_with_the_whole_search(
        world: tuple[HexMap, str, Cost, frozenset[str], ZocPolicy]) -> None:
    m, start, allowance, zoc, policy = world
    costs = MoveCosts(m, LEG)
    reach = reachable(costs, start, allowance, zoc=zoc, policy=policy)
    for goal in m.ids:
        found = reachable(costs, start, allowance, zoc=zoc, policy=policy, goal=goal)
        if goal in reach.cost:
            assert found.cost[goal] == reach.cost[goal]
            assert found.path_to(goal) == reach.path_to(goal)
        else:
            assert goal not in found.cost


@settings(max_examples=30, deadline=None)
@given(small_worlds(), st.data())
def test_a_search_asks_a_blocking_test_once_a_hex_within_the_allowance(
        world: tuple[HexMap, str, Cost, frozenset[str], ZocPolicy], data: st.DataObject) -> None:
    """``blocked`` given as a test is asked of a hex the search can afford to enter, once
    (issue 35: Backhand Blow's check of a received move asks a closure, which was asked
    for every step into a hex, from up to six sides, and for steps over the allowance),
    and the search finds what it finds with the same hexes blocked as a set."""
    m, start, allowance, zoc, policy = world
    blocked = frozenset(data.draw(st.lists(st.sampled_from(m.ids), max_size=3)))
    costs = MoveCosts(m, LEG)
    asked: list[str] = []

    def test(h: str) -> bool:
        asked.append(h)
        return h in blocked

    for goal in (None, *m.ids):
        asked.clear()
        by_test = reachable(costs, start, allowance, zoc=zoc, policy=policy, blocked=test,
                            goal=goal)
        by_set = reachable(costs, start, allowance, zoc=zoc, policy=policy, blocked=blocked,
                           goal=goal)
        assert by_test == by_set
        free = [h for h in asked if h not in blocked]
        assert len(free) == len(set(free)), asked  # a free hex is entered once asked
        if goal is None:  # every hex met within the allowance is in the whole reach
            assert set(free) <= set(by_set.cost)


@settings(max_examples=30, deadline=None)
@given(small_worlds())
def test_a_search_for_a_goal_gives_the_hexes_it_finished(
        world: tuple[HexMap, str, Cost, frozenset[str], ZocPolicy]) -> None:
    """With a goal, the costs, the predecessors and the stops are those of the hexes
    whose cost is final, each the whole search's: not of every hex met on the way."""
    m, start, allowance, zoc, policy = world
    costs = MoveCosts(m, LEG)
    reach = reachable(costs, start, allowance, zoc=zoc, policy=policy)
    for goal in m.ids:
        found = reachable(costs, start, allowance, zoc=zoc, policy=policy, goal=goal)
        assert set(found.prev) <= set(found.cost) and found.stops <= set(found.cost)
        assert all(reach.cost[h] == c for h, c in found.cost.items())
        assert found.stops == reach.stops & set(found.cost)
        assert list(found.cost) == sorted(found.cost)


@settings(max_examples=60, deadline=None)
@given(small_worlds(), st.data())
def test_the_steered_search_reaches_a_goal_exactly_when_the_whole_search_does(
        world: tuple[HexMap, str, Cost, frozenset[str], ZocPolicy], data: st.DataObject) -> None:
    """reaches(): the one answer a check of one move needs (issue 35), for every hex of
    the map, with hexes blocked by enemy units, under every ZOC policy; never the start
    (no move)."""
    m, start, allowance, zoc, policy = world
    blocked = frozenset(data.draw(st.lists(st.sampled_from(m.ids), max_size=3)))
    costs = MoveCosts(m, LEG)
    reach = reachable(costs, start, allowance, zoc=zoc, policy=policy, blocked=blocked)
    for goal in [*m.ids, "9999"]:
        got = reaches(costs, start, allowance, goal, zoc=zoc, policy=policy, blocked=blocked)
        assert got == (goal in reach.cost and goal != start), goal


class CountedRows(tuple):  # type: ignore[type-arg]
    """A costs table's rows, counting the hexes a search steps out of."""

    read = 0

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        CountedRows.read += 1
        return super().__getitem__(i)


def test_the_steered_search_steps_out_of_few_hexes_beyond_the_way_to_its_goal() -> None:
    """A goal four hexes east on an open map with a long allowance: the whole search for
    that goal (reachable's goal) steps out of every hex cheaper than it, in every
    direction; reaches() out of the hexes towards it."""
    m = make_map(15, 15)
    costs = MoveCosts(m, LEG)
    whole = object.__new__(MoveCosts)
    whole.__dict__.update(costs.__dict__)
    whole.steps = CountedRows(costs.steps)
    CountedRows.read = 0
    assert "1108" in reachable(whole, "0708", 8, goal="1108").cost
    searched = CountedRows.read
    CountedRows.read = 0
    assert reaches(whole, "0708", 8, "1108")
    assert CountedRows.read <= 8 and searched >= 40, (CountedRows.read, searched)


def line_map(terrain: str = "....", **kw: object) -> HexMap:
    names = {".": "clear", "f": "forest", "r": "rough", "s": "swamp"}
    # a 4x1 strip plus a second row, even parity: 0101 0201 0301 0401 / 0102 ...
    t = {f"0{i + 1}01": names[c] for i, c in enumerate(terrain)}
    return make_map(4, 2, t, **kw)  # type: ignore[arg-type]


def test_road_rate_only_along_the_road() -> None:
    # White Death Rule 7: a unit entering a forest/road hex from a non-road hex pays
    # forest; moving road hex to road hex pays the road rate
    m = line_map(".ff.", networks={"road": [("0201", "0301")]})
    costs = MoveCosts(m, LEG)
    assert costs.cost("0101", "0201") == 2  # onto the road from off it: forest
    assert costs.cost("0201", "0301") == Fraction(1, 2)  # along the road
    assert costs.cost("0301", "0401") == 1
    r = reachable(costs, "0101", 9, goal="0401")
    assert r.path_to("0401") == ["0101", "0201", "0301", "0401"]
    assert r.cost["0401"] == Fraction(7, 2)


def test_river_bridge_and_prohibited_hexsides() -> None:
    m = line_map(hexsides={"river": [("0101", "0201"), ("0201", "0301")],
                           "bridge": [("0201", "0301")],
                           "lake_edge": [("0301", "0401")]})
    costs = MoveCosts(m, LEG)
    assert costs.cost("0101", "0201") == 3  # clear 1 + river 2
    assert costs.cost("0201", "0301") == 1  # bridged
    assert costs.cost("0301", "0401") is None
    assert "0401" not in reachable(costs, "0301", 1).cost


def test_leave_costs_are_paid_only_when_leaving_the_terrain() -> None:
    # White Death Rule 7: creek "1-2": 1 to enter, 1 along the creek, +2 to leave it
    mc = MoveClass("draft", enter={"clear": 1, "swamp": 1}, leave={"swamp": 2})
    m = line_map(".ss.")
    costs = MoveCosts(m, mc)
    assert costs.cost("0101", "0201") == 1
    assert costs.cost("0201", "0301") == 1
    assert costs.cost("0301", "0401") == 3


def test_prohibited_terrain_and_may_always_move_one_hex() -> None:
    m = line_map(".r.s")
    costs = MoveCosts(m, LEG)
    assert "0201" not in reachable(costs, "0101", 2).cost
    one = reachable(costs, "0101", 2, min_one_hex=True)
    assert one.cost["0201"] == 2 and "0201" in one.stops
    assert "0301" not in one.cost  # the one-hex move ends the move
    assert "0401" not in reachable(costs, "0301", 5, min_one_hex=True).cost


def test_zoc_stop_on_entry_and_exit_cost() -> None:
    m = line_map()
    costs = MoveCosts(m, LEG)
    # an enemy in 0402 (even columns shifted down) controls 0401 and 0302
    assert zoc_map(m, {"enemy": "0402"}).hexes == {"0401", "0302"}
    zoc = frozenset({"0301", "0302"})
    stop = reachable(costs, "0101", 6, zoc=zoc, policy=STOP_ON_ENTRY)
    assert "0301" in stop.stops and "0401" not in stop.cost
    # starting in a ZOC: leaving costs extra (White Death 1 MP, Motherland 2)
    wd = ZocPolicy(stop_on_entry=True, exit_cost=1)
    r = reachable(costs, "0301", 3, zoc=zoc, policy=wd)
    assert r.cost["0201"] == 2
    ftm = ZocPolicy(stop_on_entry=False, exit_cost=2, zoc_to_zoc=False)
    r = reachable(costs, "0301", 4, zoc=zoc, policy=ftm)
    assert r.cost["0201"] == 3
    # not straight from ZOC 0301 into ZOC 0302: only around, through 0201 or 0401 (both
    # cost 4; the lower id wins the tie)
    assert r.path_to("0302") == ["0301", "0201", "0302"] and r.cost["0302"] == 4
    assert "0302" not in reachable(costs, "0301", 3, zoc=zoc, policy=ftm).cost
    panzer = ZocPolicy(stop_on_entry=False, exit_cost=2, zoc_to_zoc=True)
    assert reachable(costs, "0301", 4, zoc=zoc, policy=panzer).cost["0401"] == 3
    barred = ZocPolicy(may_enter=False)
    assert not (set(reachable(costs, "0101", 6, zoc=zoc, policy=barred).cost) & zoc)


def test_blocked_hexes_and_stacking_callback() -> None:
    m = line_map()
    costs = MoveCosts(m, LEG)
    r = reachable(costs, "0101", 4, blocked={"0201"})
    assert "0201" not in r.cost and r.path_to("0301") == ["0101", "0102", "0202", "0302", "0301"]
    # full stack in 0201: may pass through, may not stop there
    r = reachable(costs, "0101", 3, can_end=lambda h: h != "0201")
    assert "0201" in r.cost and "0201" not in r.ends and "0301" in r.ends


def test_ties_break_toward_lower_hex_ids() -> None:
    # 0101 to 0301 on a clear map: via 0201 or 0202? (even parity: 0201 and 0202 both
    # touch 0101 and 0301) equal cost; the lower id wins, every time
    m = make_map(3, 3)
    costs = MoveCosts(m, LEG)
    r = reachable(costs, "0101", 9, goal="0302")
    assert r.cost["0302"] == 2
    assert r.path_to("0302") == ["0101", "0201", "0302"]
    assert reachable(costs, "0101", 9).path_to("0303") == ["0101", "0102", "0202", "0303"]


def test_fractions_and_ints_mix_exactly() -> None:
    m = line_map(networks={"road": [("0101", "0201"), ("0201", "0301")]})
    costs = MoveCosts(m, LEG)
    r = reachable(costs, "0101", Fraction(3, 2))
    assert r.cost["0301"] == 1 and isinstance(r.cost["0301"], int)
    assert r.cost["0201"] == Fraction(1, 2)
    assert "0401" not in r.cost


def test_networks_and_traces() -> None:
    m = make_map(5, 3, networks={"railroad": [("0101", "0201"), ("0201", "0301"),
                                              ("0301", "0401"), ("0401", "0501")]})
    assert region(m, ["0101"], networks=["railroad"]) == {
        "0101": 0, "0201": 1, "0301": 2, "0401": 3, "0501": 4}
    assert region(m, ["0101"], networks=["railroad"], passable=lambda h: h != "0301") == {
        "0101": 0, "0201": 1}
    assert region(m, ["0101"], networks=["railroad"], max_steps=2) == {
        "0101": 0, "0201": 1, "0301": 2}
    assert trace(m, "0101", {"0501"}, network="railroad") == [
        "0101", "0201", "0301", "0401", "0501"]
    assert trace(m, "0101", {"0501"}, network="railroad", passable=lambda h: h != "0401") is None
    overland = trace(m, "0101", lambda h: h == "0503")
    assert overland is not None and len(overland) == m.distance("0101", "0503") + 1
    assert trace(m, "0101", {"0503"}, max_steps=2) is None


def test_region_is_breadth_first_from_every_start_at_once() -> None:
    rail = [("0101", "0201"), ("0201", "0301"), ("0301", "0401"), ("0401", "0501")]
    m = make_map(5, 3, networks={"railroad": rail[:2], "rail": rail[2:]})
    # two networks joined into one line
    assert region(m, ["0101"], networks=["railroad", "rail"]) == {
        "0101": 0, "0201": 1, "0301": 2, "0401": 3, "0501": 4}
    assert region(m, ["0101"], networks=["railroad"]) == {"0101": 0, "0201": 1, "0301": 2}
    # several starts: the distance to the nearest, whatever order they come in
    both = region(m, ["0501", "0101"], networks=["railroad", "rail"])
    assert both == {"0101": 0, "0201": 1, "0301": 2, "0401": 1, "0501": 0}
    assert region(m, ["0101", "0501"], networks=["railroad", "rail"]) == both
    # passable as a set or a test; a start is in even where it is not passable
    blocked = {"0201", "0202"}
    as_set = region(m, ["0201"], passable={h for h in m.ids if h not in blocked})
    assert as_set == region(m, ["0201"], passable=lambda h: h not in blocked)
    assert as_set["0201"] == 0 and "0202" not in as_set
    assert as_set["0101"] == 1
    # overland with a limit: the hexes within that many steps
    near = region(m, ["0303"], max_steps=1)
    assert set(near) == set(m.within("0303", 1))
    assert list(near) == sorted(near)


def test_negative_costs_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        MoveCosts(line_map(), MoveClass("odd", {"clear": -1}))
    assert IGNORE_ZOC.stop_on_entry is False


def test_move_class_from_the_terrain_chart() -> None:
    from engines.hexkit.movement import move_class_from_chart
    from engines.hexkit.scenario import load_scenario_path
    from kit.helpers import DATA

    s = load_scenario_path(DATA / "tiny")
    m = s.map
    mech = move_class_from_chart("mech", s.chart("tec"), "mech", m)
    assert mech.enter["forest"] == 3 and mech.enter["town"] == Fraction(1, 2)
    assert mech.enter["lake"] is None and mech.enter["hill"] == 3
    assert mech.hexside == {"river": 2}
    costs = MoveCosts(m, mech, adjust=None)
    assert costs.cost("0401", "0301") == 3 + 2  # forest, across the river
    assert costs.cost("0302", "0401") == 1 + 2  # clear + river
    assert costs.cost("0104", "0105") == 1  # the lake edge has no chart row: free


def test_overland_hex_counts() -> None:
    m = make_map(7, 7)
    counts = region(m, ["0404"], max_steps=2)
    assert set(counts) == set(m.within("0404", 2))
    assert all(counts[h] == m.distance("0404", h) for h in counts)
    enemy_near = set(m.within("0407", 2))
    safe = region(m, ["0401"], passable=lambda h: h not in enemy_near)
    assert not set(safe) & enemy_near


def test_a_stack_moves_at_its_slowest_members_cost() -> None:
    m = line_map(".fs.", networks={"road": [("0101", "0201")]})
    mech = MoveClass("mech", {"clear": 1, "forest": 3, "swamp": 2},
                     networks={"road": Fraction(1, 3)})
    leg_costs, mech_costs = MoveCosts(m, LEG), MoveCosts(m, mech)
    stack = MoveCosts.slowest([leg_costs, mech_costs])
    assert stack.cost("0101", "0201") == Fraction(1, 2)  # road: leg 1/2, mech 1/3
    assert stack.cost("0201", "0101") == Fraction(1, 2)
    assert stack.cost("0102", "0201") == 3  # forest: leg 2, mech 3
    assert stack.cost("0201", "0301") is None  # swamp barred to leg units
    for a in m.ids:
        for b in m.neighbors(a):
            costs = [leg_costs.cost(a, b), mech_costs.cost(a, b)]
            expect = None if None in costs else max(c for c in costs if c is not None)
            assert stack.cost(a, b) == expect


def test_crossings_along_a_path() -> None:
    from engines.hexkit.movement import crossings

    m = line_map(hexsides={"river": [("0101", "0201")], "lake_edge": [("0301", "0401")]})
    path = ["0101", "0201", "0301", "0401"]
    assert crossings(m, path, ["river"]) == [("0101", "0201")]
    assert crossings(m, path, ["river", "lake_edge"]) == [("0101", "0201"), ("0301", "0401")]
    assert crossings(m, path[1:3], ["river"]) == []


def test_spread_keeps_the_most_budget_left_from_several_sources() -> None:
    """Supply lines counted in hexes from many sources (For the Motherland! 9.2): a hex
    keeps the best budget any source leaves it; blocked hexes are neither entered nor
    passed through; a blocked source gives nothing; the result is the same in any order."""
    line = {str(i): tuple(str(j) for j in (i - 1, i + 1) if 0 <= j <= 9) for i in range(10)}
    assert spread(line, {"0": 3}) == {"0": 3, "1": 2, "2": 1, "3": 0}
    assert spread(line, {"0": 3, "5": 1}) == {"0": 3, "1": 2, "2": 1, "3": 0, "5": 1,
                                              "4": 0, "6": 0}
    assert spread(line, {"0": 3}, blocked={"2"}) == {"0": 3, "1": 2}
    assert spread(line, {"2": 5}, blocked={"2"}) == {}
    flipped = {h: tuple(reversed(ns)) for h, ns in reversed(list(line.items()))}
    assert spread(flipped, {"5": 1, "0": 3}) == spread(line, {"0": 3, "5": 1})
    # a network's connected part: a budget larger than the network
    rail = {"a": ("b",), "b": ("a", "c"), "c": ("b",), "x": ("y",), "y": ("x",)}
    assert set(spread(rail, {"a": len(rail)})) == {"a", "b", "c"}


def test_breadth_first_paths_follow_the_table_and_the_step_rule() -> None:
    """Moves counted in hexes over a game's own table (For the Motherland! 5.3, 16.2):
    the first path found to each hex, in the table's order; a step rule that sees the
    hexside; a limit in hexes."""
    grid = {"a": ("c", "b"), "b": ("a", "d"), "c": ("a", "d"), "d": ("c", "b", "e"),
            "e": ("d",)}
    paths = breadth_first(grid, "a")
    assert paths == {"c": ("a", "c"), "b": ("a", "b"), "d": ("a", "c", "d"),
                     "e": ("a", "c", "d", "e")}
    assert list(paths) == ["c", "b", "d", "e"]  # in the order reached
    # the c-d hexside is closed (a bridge blown): d is reached through b instead
    closed = breadth_first(grid, "a", step_ok=lambda x, y: {x, y} != {"c", "d"})
    assert closed["d"] == ("a", "b", "d") and closed["e"] == ("a", "b", "d", "e")
    assert set(breadth_first(grid, "a", max_steps=1)) == {"b", "c"}
    assert breadth_first(grid, "z") == {}  # a start off the table reaches nothing


def test_lightest_chain_counts_the_hexes_a_line_lacks() -> None:
    """For the Motherland! 19.2: the fewest hexes missing from a line joining two coasts;
    both ends count; no chain at all is None."""
    # a 3x3 block, rows 1-3 from the Baltic (row 1) to the Black Sea (row 3)
    cells = [f"{c}{r}" for r in (1, 2, 3) for c in "abc"]

    def near(h: str) -> tuple[str, ...]:
        c, r = "abc".index(h[0]), int(h[1])
        return tuple(f"{'abc'[x]}{y}" for x, y in ((c - 1, r), (c + 1, r), (c, r - 1),
                                                     (c, r + 1)) if 0 <= x < 3 and 1 <= y <= 3)

    table = {h: near(h) for h in cells}
    held = {"a1", "a2", "b2", "c3"}

    def weight(h: str) -> int:
        return 0 if h in held else 1

    # a1-a2-b2 held, then b3 or c2 is missing before c3: one hex
    assert lightest_chain(table, ["a1", "b1", "c1"], {"a3", "b3", "c3"}, weight) == 1
    assert lightest_chain(table, ["c1"], {"c3"}, weight) == 2  # c1 and c2 (c3 held)
    assert lightest_chain(table, ["a1"], {"a1"}, weight) == 0
    cut = {h: tuple(n for n in ns if n[1] != "2") for h, ns in table.items()}
    assert lightest_chain(cut, ["a1"], {"a3"}, weight) is None


# White Death's Terrain Effects Chart in miniature (draft-mobile column): a hex costs the
# highest of its terrains, clear being the absence of terrain; a river hex, a move along
# the road and a town set the cost outright; "1-2" is 1 to enter a creek hex, 2 to leave
DRAFT = MoveClass(
    "draft",
    enter={"clear": 2, "forest": 3, "town": 1, "swamp": None},
    networks={"road": Fraction(1, 2)},
    hex_features={"creek": 1, "river": 2},
    dearest=True,
    fills=frozenset({"clear"}),
    overrides=("river", "road", "town"),
    leave_features={"creek": 2, "river": 3},
)


def _strip() -> HexMap:
    """0101 clear | 0201 clear+creek | 0301 forest+creek | 0401 clear+river | 0501 town,
    joined to 0401 by a road | 0601 swamp+creek."""
    return make_map(6, 1, {"0301": "forest", "0501": "town", "0601": "swamp"},
                    features={"creek": ["0201", "0301", "0601"], "river": ["0401"]},
                    networks={"road": [("0401", "0501")]})


def test_dearest_terrain_fills_overrides_and_leaving_costs() -> None:
    m = _strip()
    c = DRAFT.step_cost
    assert c(m, "0101", "0201") == 1  # clear+creek is a creek hex: 1, not clear's 2
    assert c(m, "0201", "0101") == 2 + 2  # clear, and leaving the creek for no creek
    assert c(m, "0201", "0301") == 3  # forest+creek: the dearer, no leaving along it
    assert c(m, "0301", "0401") == 2 + 2  # the river's cost outright, leaving the creek
    assert c(m, "0401", "0501") == Fraction(1, 2) + 3  # along the road, leaving the river
    assert c(m, "0501", "0401") == 2  # the river before the road
    assert c(m, "0501", "0601") is None  # swamp prohibits the hex, creek or not
    # from off the map: the hex's own cost, along the road if it arrives by one
    assert DRAFT.entry_cost(m, "0501") == 1
    assert DRAFT.entry_cost(m, "0501", ("road",)) == Fraction(1, 2)
    assert DRAFT.entry_cost(m, "0401", ("road",)) == 2
    assert DRAFT.entry_cost(m, "0201") == 1
    compiled = MoveCosts(m, DRAFT)
    assert compiled.cost("0401", "0501") == Fraction(7, 2)
    assert reachable(compiled, "0101", 9, goal="0301").cost["0301"] == 4  # via 0201


def test_without_the_new_parameters_features_still_add() -> None:
    m = _strip()
    adding = MoveClass("adding", enter=DRAFT.enter, networks=DRAFT.networks,
                       hex_features=DRAFT.hex_features)
    assert adding.step_cost(m, "0101", "0201") == 2 + 1  # clear plus the creek's extra
    assert adding.step_cost(m, "0201", "0301") == 3 + 1
    assert adding.step_cost(m, "0501", "0401") == Fraction(1, 2)  # the road first
    assert adding.entry_cost(m, "0301") == 4


def test_the_neighbor_table_is_the_one_graph_the_hex_counting_searches_walk() -> None:
    m = make_map(3, 3, networks={"road": [("0101", "0201"), ("0201", "0302")],
                                 "railroad": [("0302", "0303")]})
    table = m.neighbor_table()
    assert table["0202"] == ("0102", "0103", "0201", "0203", "0302", "0303")  # id order
    assert all(list(ns) == sorted(m.neighbors(h)) for h, ns in table.items())
    assert dict(m.neighbor_table(["road"])) == {
        "0101": ("0201",), "0201": ("0101", "0302"), "0302": ("0201",)}
    both = m.neighbor_table(["railroad", "road"])
    assert both["0302"] == ("0201", "0303")
    assert m.neighbor_table(["road", "railroad", "road"]) is both  # made once
    # a trace over it: among equally short paths, the one through the lower ids
    assert trace(m, "0101", {"0303"}) == ["0101", "0102", "0202", "0303"]
    assert trace(m, "0101", {"0303"}, network="road") is None
    # breadth_first over the map's own table finds what region counts
    paths = breadth_first(table, "0101", max_steps=2)
    assert {h: len(p) - 1 for h, p in paths.items()} == {  # a path holds its start
        h: d for h, d in region(m, ["0101"], max_steps=2).items() if h != "0101"}
