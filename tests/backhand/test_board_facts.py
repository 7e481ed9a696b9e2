"""Backhand Blow's lookups, ZOC (6.0) and floods (7.0, 15.1 (1)) read from the kit's board
facts: the answers follow the units as they stand, and the floods are the rules' own."""

from __future__ import annotations

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
