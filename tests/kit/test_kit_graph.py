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


def test_a_trace_walks_the_table_it_is_given_or_the_maps_own() -> None:
    """``trace`` over a game's own table (Backhand Blow's neighbours, made per hex as
    read) finds what the map's table finds, and walks only that table: the map's whole
    table is not made (issue 35: 20 M instructions of a receive with a move)."""
    from engines.hexkit.graph import trace
    from kit.helpers import make_map

    m = make_map(5, 3)
    own = m.neighbor_table()
    m2 = make_map(5, 3)
    start, goal = "0101", "0503"
    assert trace(m2, start, {goal}, neighbors=own) == trace(m, start, {goal})
    assert len(trace(m, start, {goal}) or ()) == m.distance(start, goal) + 1
    assert not vars(m2).get("_tables")
    # a table without the links into the goal: no trace, whatever the map says
    cut = {h: tuple(n for n in near if n != goal) for h, near in own.items()}
    assert trace(m2, start, {goal}, neighbors=cut) is None
    assert trace(m2, start, {goal}) is not None


def test_within_alone_finds_the_step_rules_paths_in_its_order_and_range() -> None:
    # a 7x7 board's rows and columns, ties everywhere: each hex's first path and the order
    # reached are those of the step rule's search, to the same number of steps
    board = {(x, y): tuple((x + dx, y + dy) for dx, dy in ((0, 1), (1, 0), (-1, 0), (0, -1))
                           if 0 <= x + dx < 7 and 0 <= y + dy < 7)
             for x in range(7) for y in range(7)}
    table = {f"{x}{y}": tuple(f"{a}{b}" for a, b in ns) for (x, y), ns in board.items()}
    shut = {"11", "12", "32", "43", "44", "25"}
    for steps in (None, 0, 1, 4):
        got = breadth_first(table, "00", max_steps=steps, within=set(table) - shut)
        want = breadth_first(table, "00", max_steps=steps, step_ok=lambda _a, b: b not in shut)
        assert list(got.items()) == list(want.items())
        assert len(got) == {None: 42, 0: 0, 1: 2, 4: 12}[steps]
