"""Line of sight: blocking hexes, ends that never block, hexside lines, slopes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.hexkit.los import line_of_sight, terrain_blocks
from engines.hexkit.scenario import load_scenario_path
from kit.helpers import DATA, make_map

OPEN = make_map(9, 9)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(OPEN.ids), st.sampled_from(OPEN.ids),
       st.frozensets(st.sampled_from(OPEN.ids), max_size=25),
       st.sampled_from(["both", "either"]))
def test_sight_is_symmetric_without_slopes(a: str, b: str, woods: frozenset[str],
                                           rule: str) -> None:
    there = line_of_sight(OPEN, a, b, blocks=woods.__contains__, hexside_rule=rule)  # type: ignore[arg-type]
    back = line_of_sight(OPEN, b, a, blocks=woods.__contains__, hexside_rule=rule)  # type: ignore[arg-type]
    assert there.clear == back.clear
    # clear exactly when no hex strictly between blocks on some (every) way through
    inner = there.steps[1:-1]
    if rule == "either":
        assert there.clear == all(h not in woods for step in inner for h in step)
    else:
        assert there.clear == all(any(h not in woods for h in step) for step in inner)
    if not there.clear:
        assert there.blockers and set(there.blockers) <= woods


def test_towns_and_forests_block_but_not_at_the_ends() -> None:
    # White Death Rule 11C: "A line of sight may extend from a unit in a town or forest
    # hex and to a unit in a town or forest hex, but it may never pass through" one
    m = load_scenario_path(DATA / "tiny").map
    blocks = terrain_blocks(m)
    assert blocks("0301") and blocks("0303") and not blocks("0101")
    sight = line_of_sight(m, "0101", "0303")
    assert not sight.clear and sight.blockers == ("0202",)
    assert line_of_sight(m, "0201", "0301").clear  # adjacent: nothing between
    assert line_of_sight(m, "0202", "0303").clear  # forest to town, adjacent
    assert line_of_sight(m, "0105", "0505").clear  # along the open south row


def test_line_along_a_hexside_both_or_either() -> None:
    m = make_map(9, 5)
    one = {"0601"}.__contains__
    both = {"0601", "0602"}.__contains__
    assert line_of_sight(m, "0502", "0702", blocks=one, hexside_rule="both").clear
    assert not line_of_sight(m, "0502", "0702", blocks=one, hexside_rule="either").clear
    assert not line_of_sight(m, "0502", "0702", blocks=both, hexside_rule="both").clear


def test_slopes_block_looking_down_unless_adjacent() -> None:
    # column 5, rows 1-5; the slope between 0502 (high) and 0503 (low)
    m = make_map(9, 6, facing={"slope": [("0503", "0502")]})
    assert m.faces_toward("slope", "0502", "0503") == "0502"
    down = line_of_sight(m, "0501", "0505")
    assert not down.clear and down.blockers == ("slope 0502/0503",)
    assert line_of_sight(m, "0502", "0505").clear  # on the high side, adjacent to it
    assert line_of_sight(m, "0505", "0501").clear  # looking up is not restricted
    assert line_of_sight(m, "0501", "0505", slope=None).clear
