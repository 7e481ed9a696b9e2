"""Per-position overlays on movement costs: bridges built and blown, weather-dependent
terrain, a path-dependent step rule, all without recompiling the map."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.movement import Cost, MoveClass, MoveCosts, reachable
from engines.hexkit.overlay import Overlay, StepHook
from kit.helpers import make_map

# White Death's shape, in miniature: a river crossable at a bridge (Rule 20), lake
# hexsides that cost more, or bar tracks, in a thaw (Rule 13), frozen swamp (a weather)
TRACK = MoveClass(
    "track",
    enter={"clear": 1, "forest": 2, "rough": 3, "swamp": None, "lake": 2},
    hexside={"river": None, "lake": 1, "lake_thaw": None},
    negated_by={"river": ["bridge"]},
)


def test_a_bridge_built_and_blown_changes_only_its_hexside() -> None:
    m = make_map(4, 2, hexsides={"river": [("0101", "0201")]})
    costs = MoveCosts(m, TRACK)
    assert costs.cost("0101", "0201") is None  # Rule 20: no bridge, no crossing
    built = costs.overlaid(Overlay.make(sides_added={hexside("0101", "0201"): {"bridge"}}))
    assert built.cost("0101", "0201") == 1 and built.cost("0201", "0101") == 1
    assert "0201" in reachable(built, "0101", 1).ends
    # every other step's row is the compiled one, shared, not recomputed
    untouched = [i for i, h in enumerate(m.ids) if h not in ("0101", "0201")]
    assert all(built.steps[i] is costs.steps[i] for i in untouched)
    # the map itself did not change, and the same overlay is compiled once
    assert costs.cost("0101", "0201") is None
    again = costs.overlaid(Overlay.make(sides_added={hexside("0101", "0201"): {"bridge"}}))
    assert again is built
    # and a bridge on the printed map blown by the position
    bridged = make_map(4, 2, hexsides={"river": [("0101", "0201")],
                                       "bridge": [("0101", "0201")]})
    blown = MoveCosts(bridged, TRACK).overlaid(
        Overlay.make(sides_removed={hexside("0101", "0201"): {"bridge"}}))
    assert blown.cost("0101", "0201") is None


def test_weather_changes_terrain_and_hexsides() -> None:
    m = make_map(4, 2, {"0301": "swamp"}, hexsides={"lake": [("0301", "0401")]})
    costs = MoveCosts(m, TRACK)
    assert costs.cost("0201", "0301") is None  # swamp: prohibited
    frozen = costs.overlaid(Overlay.make(terrain={"0301": "clear"}))  # frozen hard
    assert frozen.cost("0201", "0301") == 1
    assert frozen.cost("0301", "0401") == 2  # clear 1 + lake hexside 1
    thaw = costs.overlaid(Overlay.rename_side_feature(m, "lake", "lake_thaw")
                          + Overlay.make(terrain={"0301": "clear"}))
    assert thaw.cost("0301", "0401") is None  # Rule 13.B: no full-lake crossing in a thaw
    assert thaw.cost("0201", "0301") == 1


def test_overlay_costs_with_a_finer_fraction_rescale_the_whole_table() -> None:
    mc = MoveClass("leg", enter={"clear": 1, "forest": Fraction(3, 2), "rough": 3,
                                 "swamp": None, "lake": None})
    m = make_map(3, 1)
    costs = MoveCosts(m, mc)
    assert costs.scale == 1
    wooded = costs.overlaid(Overlay.make(terrain={"0201": "forest"}))
    assert wooded.scale == 2
    assert wooded.cost("0101", "0201") == Fraction(3, 2) and wooded.cost("0201", "0301") == 1
    assert reachable(wooded, "0101", Fraction(5, 2)).ends == ("0201", "0301")


def test_bad_overlays_are_named() -> None:
    costs = MoveCosts(make_map(3, 1), TRACK)
    with pytest.raises(ValueError, match="terrain 'ice' for 0101 is not in the map's legend"):
        costs.overlaid(Overlay.make(terrain={"0101": "ice"}))
    with pytest.raises(KeyError, match="hex 0909 is not on the map"):
        costs.overlaid(Overlay.make(features_added={"0909": {"bridge"}}))
    with pytest.raises(ValueError, match="0101/0301 is not a hexside"):
        costs.overlaid(Overlay.make(sides_added={("0101", "0301"): {"bridge"}}))


def test_a_step_hook_sees_where_the_path_came_from() -> None:
    """White Death Rule 16.B in a thaw: a unit leaves a river hex on the side it
    entered.  Here: out of 0202, only to a hex beside the one it came from."""
    m = make_map(3, 3)
    costs = MoveCosts(m, TRACK)
    river = frozenset({"0202"})

    def same_side(came: HexId | None, here: HexId, to: HexId, cost: Cost) -> Cost | None:
        if came is None:
            return cost
        return cost if m.distance(to, came) <= 1 else None

    hook = StepHook(river, same_side)
    # entered 0202 from the west (0102): may not go on across to 0302 or 0303 (the only
    # way on here: 0102's other neighbours are blocked)
    blocked = {"0101", "0201", "0103"}
    assert set(reachable(costs, "0102", 3, blocked=blocked).cost) >= {"0302", "0303"}
    assert set(reachable(costs, "0102", 3, blocked=blocked, hook=hook).cost) == {
        "0102", "0202"}
    # a unit that starts in the river hex having entered from 0302 (kept in the position)
    east = StepHook(river, same_side, start_from="0302")
    assert reachable(costs, "0202", 1, hook=east).ends == ("0201", "0302", "0303")
    assert "0102" in reachable(costs, "0202", 1).ends  # without the rule


TERRAIN = ["clear", "forest", "rough", "swamp", "lake"]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_an_overlay_prices_every_step_as_a_recompiled_map_would(data: st.DataObject) -> None:
    """Overlaid costs equal costs compiled from scratch on a map with the same changes."""
    grid_terrain = {f"0{c}0{r}": data.draw(st.sampled_from(TERRAIN))
                    for c in range(1, 4) for r in range(1, 3)}
    base = make_map(3, 2, grid_terrain, hexsides={"river": [("0101", "0201")],
                                                   "lake": [("0201", "0301")]})
    ids = list(base.ids)
    changed = data.draw(st.dictionaries(st.sampled_from(ids), st.sampled_from(TERRAIN),
                                        max_size=3))
    bridge = data.draw(st.booleans())
    overlay = Overlay.make(terrain=changed, sides_added={hexside("0101", "0201"): {"bridge"}}
                           if bridge else None)
    redrawn = make_map(3, 2, {**grid_terrain, **changed},
                       hexsides={"river": [("0101", "0201")], "lake": [("0201", "0301")],
                                 **({"bridge": [("0101", "0201")]} if bridge else {})})
    got, want = MoveCosts(base, TRACK).overlaid(overlay), MoveCosts(redrawn, TRACK)
    for a in ids:
        for b in base.neighbors(a):
            assert got.cost(a, b) == want.cost(a, b), (a, b)


def test_a_bridge_built_joins_the_road_and_takes_the_river_out() -> None:
    """White Death Rule 20: a bridge lets units enter and leave the hex as if it were a
    road hex; the overlay removes the river feature and adds the road's links."""
    draft = MoveClass("draft", enter={"clear": 2, "forest": 3}, networks={"road": Fraction(1, 2)},
                      hex_features={"river": 2}, dearest=True, fills=frozenset({"clear"}),
                      overrides=("river", "road"), leave_features={"river": 3})
    m = make_map(4, 1, {"0301": "forest"}, features={"river": ["0201"]},
                 networks={"road": [("0101", "0201")]})
    costs = MoveCosts(m, draft)
    assert costs.cost("0101", "0201") == 2 and costs.cost("0201", "0301") == 3 + 3
    bridge = Overlay.make(features_removed={"0201": {"river"}},
                          links_added={"road": [("0301", "0201")]})
    built = costs.overlaid(bridge)
    assert built.cost("0101", "0201") == Fraction(1, 2)  # the map's road, no river now
    assert built.cost("0201", "0301") == Fraction(1, 2)  # the bridge's link, no leaving
    assert built.cost("0301", "0401") == 2  # untouched
    assert built.steps[3] is costs.steps[3]
    assert bridge.key() != Overlay.make(features_removed={"0201": {"river"}}).key()
    both = bridge + Overlay.make(links_added={"road": [("0301", "0401")]})
    assert both.links_added["road"] == {("0201", "0301"), ("0301", "0401")}
    with pytest.raises(ValueError, match="not a hexside"):
        Overlay.make(links_added={"road": [("0101", "0401")]}).check(m)
