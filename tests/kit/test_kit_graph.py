"""The kit's hex-by-hex search with a rule on the hex entered and only some paths
written (engines/hexkit/graph.py ``breadth_first``'s ``within`` and ``ends``): the same
paths as the search that asks a step rule and writes every path (For the Motherland!
5.3: a Strategic Movement's listing wants the paths to cities alone)."""

from __future__ import annotations

from engines.hexkit.graph import breadth_first

GRID = {"a": ("c", "b"), "b": ("a", "d"), "c": ("a", "d"), "d": ("c", "b", "e"),
        "e": ("d", "f"), "f": ("e",)}


def test_within_is_the_step_rule_that_asks_the_hex_entered_alone() -> None:
    # c is enemy-held: d is reached through b, as a step rule on the hex entered finds
    assert breadth_first(GRID, "a", within=set(GRID) - {"c"}) == breadth_first(
        GRID, "a", step_ok=lambda _a, b: b != "c") == {
        "b": ("a", "b"), "d": ("a", "b", "d"), "e": ("a", "b", "d", "e"),
        "f": ("a", "b", "d", "e", "f")}


def test_ends_writes_only_their_paths_as_the_whole_search_finds_them() -> None:
    whole = breadth_first(GRID, "a", max_steps=3)
    some = breadth_first(GRID, "a", max_steps=3, ends={"a", "d", "f", "e"})
    # the start is no end; f is 4 hexes away; the others' paths are the whole search's
    assert some == {"d": ("a", "c", "d"), "e": ("a", "c", "d", "e")}
    assert list(some) == [h for h in whole if h in some]  # in the order reached
    assert breadth_first(GRID, "a", ends=set()) == {}
