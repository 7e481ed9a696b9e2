"""Board facts of a placement: occupancy, stacks, ZOC per side and floods, each once."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.hexkit.facts import (
    BoardFacts,
    Placed,
    RegionFlood,
    SpreadFlood,
    ZocRule,
    board_facts,
)
from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.movement import region, spread
from engines.hexkit.zoc import zoc_map
from kit.helpers import make_map

M = make_map(6, 5, hexsides={"river": [hexside("0303", "0304")]})

PLACEMENT = (
    Placed("r2", "0303", "red", 1),
    Placed("b1", "0202", "blue", 2),
    Placed("b2", "0202", "blue", 1),
    Placed("r1", "0505", "red", 2),
    Placed("b3", "0101", "blue", 1),
)


def test_occupancy_and_stacks_per_side_in_order() -> None:
    f = BoardFacts(M, PLACEMENT)
    assert [p.unit for p in f.units()] == ["b1", "b2", "b3", "r1", "r2"]
    assert [p.unit for p in f.units("red")] == ["r1", "r2"]
    assert list(f.stacks().items()) == [("0101", ("b3",)), ("0202", ("b1", "b2")),
                                        ("0303", ("r2",)), ("0505", ("r1",))]
    assert f.at("0202") == ("b1", "b2")
    assert f.at("0202", "red") == ()
    assert f.occupied("blue") == {"0101", "0202"}
    assert f.occupied() == {"0101", "0202", "0303", "0505"}
    assert f.sides_at("0303") == ("red",)
    assert f.placed("r1") == Placed("r1", "0505", "red", 2)
    assert f.placed("x") is None


def test_a_bad_placement_names_the_unit_and_the_hex() -> None:
    with pytest.raises(ValueError, match=r"'b1' is placed twice: at 0202 and at 0303"):
        BoardFacts(M, [*PLACEMENT, Placed("b1", "0303", "blue")])
    with pytest.raises(ValueError, match=r"'b9' is placed at '0909', which is not on the map"):
        BoardFacts(M, [Placed("b9", "0909", "blue")])


def test_zoc_is_the_kits_zoc_map_of_the_units_that_exert_one() -> None:
    f = BoardFacts(M, PLACEMENT)
    assert f.zoc("red") == zoc_map(M, {"r1": "0505", "r2": "0303"})
    across = ZocRule(blocking_sides=frozenset({"river"}))
    assert "0304" in f.zoc("red") and "0304" not in f.zoc("red", across)
    assert f.zoc("red", across) == zoc_map(M, {"r1": "0505", "r2": "0303"},
                                           blocking_sides=["river"])
    # Backhand Blow 6.0's "no ZOC into a city" as a blocks test
    city = ZocRule(blocks=lambda a, b: b == "0404")
    assert "0404" in f.zoc("red") and "0404" not in f.zoc("red", city)
    # only the units the rule picks (White Death 3.B: the ski units)
    ski = ZocRule(exerts=lambda p: p.mark == 1)
    assert f.zoc("red", ski).hexes == zoc_map(M, {"r2": "0303"}).hexes


def _steps(p: Placed) -> int:
    return int(str(p.mark).rstrip("r"))


def _three_steps(ps: tuple[Placed, ...]) -> tuple[Placed, ...]:
    """48th Panzer Korps 5: the units not retreated (an "r" mark), when they make three
    steps or more."""
    staying = tuple(p for p in ps if not str(p.mark).endswith("r"))
    return staying if sum(_steps(p) for p in staying) >= 3 else ()


THREE = ZocRule(stack=_three_steps)


def test_a_stack_exerts_only_when_it_qualifies() -> None:
    f = BoardFacts(M, PLACEMENT)
    z = f.zoc("blue", THREE)
    assert z.hexes == zoc_map(M, {"b1": "0202"}).hexes  # b3 alone has one step
    assert z.exerted_by("0302") == ("b1", "b2")  # every unit of the stack, for 8.3
    lost = BoardFacts(M, [p._replace(mark=0) if p.unit == "b1" else p for p in PLACEMENT])
    assert lost.zoc("blue", THREE).hexes == frozenset()
    joined = BoardFacts(M, [*PLACEMENT, Placed("b4", "0202", "blue", "1r")])
    assert joined.zoc("blue", THREE).exerted_by("0302") == ("b1", "b2")  # b4 retreated


def test_a_unit_alone_may_exert_no_zoc_where_stacked_it_does() -> None:
    # White Death Rule 3: a German weapons company (mark "w") alone exerts none
    def not_alone(ps: tuple[Placed, ...]) -> tuple[Placed, ...]:
        return tuple(p for p in ps if p.mark != "w" or len(ps) > 1)

    rule = ZocRule(stack=not_alone)
    alone = BoardFacts(M, [Placed("w1", "0303", "german", "w")])
    assert alone.zoc("german", rule).hexes == frozenset()
    stacked = BoardFacts(M, [Placed("w1", "0303", "german", "w"),
                             Placed("i1", "0303", "german", "i")])
    assert stacked.zoc("german", rule).exerted_by("0304") == ("i1", "w1")
    # with exerts too, a unit must pass both
    only_w = ZocRule(stack=not_alone, exerts=lambda p: p.mark == "w")
    assert stacked.zoc("german", only_w).exerted_by("0304") == ("w1",)
    with pytest.raises(ValueError, match="gave 'x' at 0101, not one of the units in 0303"):
        alone.zoc("german", ZocRule(stack=lambda ps: [Placed("x", "0101", "german")]))


def _counting(calls: list[str]) -> Callable[[Placed], bool]:
    """Every unit exerts a ZOC, and each one asked is noted in ``calls``."""
    def exerts(p: Placed) -> bool:
        calls.append(p.unit)
        return True

    return exerts


def test_each_fact_is_computed_once_per_placement() -> None:
    calls: list[HexId] = []

    def exerts(p: Placed) -> bool:
        calls.append(p.unit)
        return True

    rule = ZocRule(exerts=exerts)
    f = BoardFacts(M, PLACEMENT)
    first = f.zoc("red", rule)
    assert f.zoc("red", rule) is first
    assert calls == ["r1", "r2"]
    f.zoc("blue", rule)
    assert calls == ["r1", "r2", "b1", "b2", "b3"]


def test_board_facts_reuses_a_placement_met_again_and_not_a_changed_one() -> None:
    calls: list[str] = []
    rule = ZocRule(exerts=_counting(calls))
    a = board_facts(M, PLACEMENT)
    a.zoc("red", rule)
    again = board_facts(M, reversed(PLACEMENT))  # the same placement, listed otherwise
    assert again is a
    assert again.zoc("red", rule) is a.zoc("red", rule) and calls == ["r1", "r2"]
    moved = board_facts(M, [p._replace(hex="0404") if p.unit == "r1" else p
                            for p in PLACEMENT])
    assert moved is not a
    assert "0505" not in moved.occupied() and "0505" in moved.zoc("red", rule)
    assert calls == ["r1", "r2", "r1", "r2"]
    other_map = make_map(6, 5)
    assert board_facts(other_map, PLACEMENT).map is other_map


def _free(f: BoardFacts, side: str, h: HexId) -> bool:
    enemy = "red" if side == "blue" else "blue"
    return h not in f.occupied(enemy) and h not in f.zoc(enemy)


# White Death 15.C: from the friendly map edge through hexes free of enemy units and ZOC
EDGE_SUPPLY = RegionFlood(sources=lambda f, side: [h for h in M.ids if h.endswith("01")],
                          passable=_free)


def test_a_region_flood_is_the_kits_region_through_the_sides_free_hexes() -> None:
    f = BoardFacts(M, PLACEMENT)
    flood = f.flood("blue", EDGE_SUPPLY)
    blocked = f.occupied("red") | f.zoc("red").hexes
    assert dict(flood) == region(M, [h for h in M.ids if h.endswith("01")],
                                 passable=lambda h: h not in blocked)
    assert "0303" not in flood and "0404" not in flood and list(flood) == sorted(flood)
    assert f.flood("blue", EDGE_SUPPLY) is flood


def test_a_region_flood_may_take_the_hexes_it_enters_as_one_set() -> None:
    """The same flood as :data:`EDGE_SUPPLY`, its free hexes made once as a set (a flood
    of a big map asks thousands of them, Backhand Blow 7.0): the same hexes and
    distances, the set made once, and no hex asked one by one."""
    made: list[str] = []

    def free_hexes(f: BoardFacts, side: str) -> frozenset[HexId]:
        made.append(side)
        return frozenset(h for h in M.ids if _free(f, side, h))

    def asked(f: BoardFacts, side: str, h: HexId) -> bool:
        raise AssertionError("a hex asked alone")

    as_set = RegionFlood(sources=EDGE_SUPPLY.sources, passable=asked, enterable=free_hexes)
    f = BoardFacts(M, PLACEMENT)
    flood = f.flood("blue", as_set)
    assert dict(flood) == dict(BoardFacts(M, PLACEMENT).flood("blue", EDGE_SUPPLY))
    assert "0303" not in flood and made == ["blue"]


def test_a_spread_flood_is_the_kits_spread_from_the_sides_sources() -> None:
    table = {h: tuple(M.neighbors(h)) for h in M.ids}
    # For the Motherland! 9.2: four hexes from each unit of the side here, not into enemy
    lines = SpreadFlood(budgets=lambda f, side: dict.fromkeys(f.occupied(side), 4),
                        neighbors=table,
                        blocked=lambda f, side: f.occupied("red") | f.zoc("red").hexes)
    f = BoardFacts(M, PLACEMENT)
    got = f.flood("blue", lines)
    blocked = f.occupied("red") | f.zoc("red").hexes
    assert dict(got) == dict(sorted(spread(table, {"0101": 4, "0202": 4},
                                           blocked=blocked).items()))
    assert got["0101"] == 4 and "0303" not in got
    assert "0202" not in got  # a source in the enemy ZOC (0303 is next to it) is cut off


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(M.ids), st.sampled_from(["blue", "red"])),
                max_size=12),
       st.randoms(use_true_random=False))
def test_facts_do_not_depend_on_the_order_units_are_listed(
        spots: list[tuple[HexId, str]], rnd: object) -> None:
    units = [Placed(f"u{i:02d}", h, side, i % 3) for i, (h, side) in enumerate(spots)]
    shuffled = list(units)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a, b = BoardFacts(M, units), BoardFacts(M, shuffled)
    for side in ("blue", "red"):
        assert list(a.stacks(side).items()) == list(b.stacks(side).items())
        for rule in (ZocRule(), THREE):
            assert list(a.zoc(side, rule).sources.items()) == \
                list(b.zoc(side, rule).sources.items())
        assert list(a.flood(side, EDGE_SUPPLY).items()) == \
            list(b.flood(side, EDGE_SUPPLY).items())


def test_a_sides_zoc_is_kept_while_only_the_other_side_moves() -> None:
    calls: list[str] = []
    rule = ZocRule(exerts=_counting(calls))
    BoardFacts(M, PLACEMENT).zoc("red", rule)
    blue_moved = [p._replace(hex="0102") if p.unit == "b3" else p for p in PLACEMENT]
    assert BoardFacts(M, blue_moved).zoc("red", rule) == BoardFacts(M, PLACEMENT).zoc(
        "red", rule)
    assert calls == ["r1", "r2"]  # computed once: blue's move changed nothing of red's
    red_moved = [p._replace(hex="0404") if p.unit == "r1" else p for p in PLACEMENT]
    assert "0505" in BoardFacts(M, red_moved).zoc("red", rule)
    assert calls == ["r1", "r2", "r1", "r2"]
    # a mark the rule reads is part of the side's placement
    marked = [p._replace(mark=3) if p.unit == "r2" else p for p in PLACEMENT]
    BoardFacts(M, marked).zoc("red", rule)
    assert calls == ["r1", "r2", "r1", "r2", "r1", "r2"]


#: units anywhere on M, of either side, with marks the rules below read
SPOTS = st.lists(st.tuples(st.sampled_from(sorted(M.ids)), st.sampled_from(["blue", "red"]),
                           st.sampled_from(["1", "2", "1r", "2r"])), max_size=12)


def _every_rule(spots: list[tuple[HexId, str, str]]
                ) -> Iterator[tuple[list[Placed], ZocRule, str]]:
    """The units of ``spots``, with each kind of rule (by stack, by unit, the own hex,
    blocked hexsides) and each side."""
    units = [Placed(f"u{i:02d}", h, side, mark) for i, (h, side, mark) in enumerate(spots)]
    rules = (ZocRule(), THREE, ZocRule(exerts=lambda p: str(p.mark).startswith("1")),
             ZocRule(stack=_three_steps, include_own_hex=True),
             ZocRule(blocking_sides=frozenset({"river"})))
    for rule in rules:
        for side in ("blue", "red"):
            yield units, rule, side


@settings(max_examples=60, deadline=None)
@given(SPOTS)
def test_in_zoc_is_membership_of_the_zoc_map_for_every_rule(
        spots: list[tuple[HexId, str, str]]) -> None:
    """Asked of one hex, a side's ZOC holds it exactly when the whole map does, under
    every kind of rule (by stack, by unit, the own hex, blocked hexsides), and a hex off
    the map is in no ZOC."""
    for units, rule, side in _every_rule(spots):
        asked = BoardFacts(M, units)  # asked first: no map made yet to read from
        whole = BoardFacts(M, units).zoc(side, rule)
        assert {h for h in M.ids if asked.in_zoc(side, h, rule)} == whole.hexes
        assert not asked.in_zoc(side, "9999", rule)


@settings(max_examples=60, deadline=None)
@given(SPOTS)
def test_zoc_hexes_are_the_zoc_map_s_hexes_for_every_rule(
        spots: list[tuple[HexId, str, str]]) -> None:
    """A side's ZOC as a set of hexes (what 48th Panzer Korps 10 reads after every step
    of a move) is exactly the whole map's hexes, under every kind of rule, asked before
    the map is made and after it; for a rule that nothing blocks, no map is made for
    it."""
    for units, rule, side in _every_rule(spots):
        asked = BoardFacts(M, units)
        whole = BoardFacts(M, units).zoc(side, rule)
        assert asked.zoc_hexes(side, rule) == whole.hexes
        if not rule.blocking_sides:
            assert ("zoc", side, rule) not in asked._found
        asked.zoc(side, rule)
        assert asked.zoc_hexes(side, rule) == whole.hexes


def test_in_zoc_makes_no_map_of_the_sides_zoc() -> None:
    """48th Panzer Korps 10 asks a few hexes after every step of a move: the moving
    side's ZOC map, new at each step, is not made for them."""
    f = BoardFacts(M, PLACEMENT)
    assert f.in_zoc("blue", "0302", THREE) and not f.in_zoc("blue", "0505", THREE)
    assert ("zoc", "blue", THREE) not in f._found


#: changes to a placement: which unit (an index into it, or past its end for a unit new
#: to the map), and whether it leaves the map or where it goes, with which side and mark
CHANGES = st.lists(st.tuples(st.integers(0, 14), st.booleans(), st.sampled_from(sorted(M.ids)),
                             st.sampled_from(["blue", "red"]),
                             st.sampled_from(["1", "2", "1r", "2r"])), max_size=6)


def _answers(f: BoardFacts, rules: tuple[ZocRule, ...]) -> list[object]:
    """Every answer a caller reads of ``f`` but floods: units, stacks and occupied hexes
    per side and of everyone (in their order), and each side's ZOC by each rule."""
    got: list[object] = [f.placement, dict(f._by_unit)]
    for side in ("blue", "red", None):
        got += [f.units(side), list(f.stacks(side).items()), f.occupied(side)]
    for side in ("blue", "red"):
        for rule in rules:
            z = f.zoc(side, rule)
            got += [list(z.sources.items()), z.hexes, f.zoc_hexes(side, rule),
                    sorted(h for h in M.ids if f.in_zoc(side, h, rule))]
    return got


@settings(max_examples=80, deadline=None)
@given(SPOTS, CHANGES, st.booleans())
def test_the_facts_after_a_change_are_those_of_the_new_placement(
        spots: list[tuple[HexId, str, str]], edits: list[tuple[int, bool, HexId, str, str]],
        asked_first: bool) -> None:
    """Units moved, marked anew, of another side, new to the map or taken off it: the
    changed facts, with whatever they carried over from the facts asked before (stacks,
    units, a side's ZOC), answer every question as the facts of the new placement made
    from scratch, and every fact carried over is the one found anew."""
    units = [Placed(f"u{i:02d}", h, side, mark) for i, (h, side, mark) in enumerate(spots)]
    rules = (ZocRule(), THREE, ZocRule(stack=_three_steps, include_own_hex=True),
             ZocRule(blocking_sides=frozenset({"river"})))
    before = BoardFacts(M, units)
    if asked_first:
        _answers(before, rules)
        for side in ("blue", "red"):
            for rule in rules:  # the sets asked before the map, as 48th Panzer Korps 10 does
                BoardFacts(M, units).zoc_hexes(side, rule)
    now = {p.unit: p for p in units}
    placed: dict[str, Placed] = {}
    gone: set[str] = set()
    for i, off, h, side, mark in edits:
        u = f"u{i:02d}"
        if u in placed or u in gone:
            continue
        if off:
            gone.add(u)
            now.pop(u, None)
        else:
            placed[u] = now[u] = Placed(u, h, side, mark)
    after = before.changed(list(placed.values()), sorted(gone))
    fresh = BoardFacts(M, now.values())
    # nothing changed is the same facts, with all they found; else only what is carried
    kept_facts = {} if after is before else after._found
    for key, kept in kept_facts.items():
        kind, side = key[0], key[1]
        if kind == "units":
            assert kept == fresh.units(side), key
        elif kind == "stacks":
            assert list(kept.items()) == list(fresh.stacks(side).items()), key
        elif kind == "zoc":
            assert kept == fresh.zoc(side, key[2]), key
        elif kind in ("zoc-hexes", "zoc-set"):
            assert kept == {"zoc-hexes": fresh._side_zoc_hexes,
                            "zoc-set": fresh._side_zoc_set}[kind](side, key[2]), key
        else:
            raise AssertionError(f"{key} carried over: not checked here")
    assert _answers(after, rules) == _answers(BoardFacts(M, now.values()), rules)
