"""Backhand Blow's movement costs (6.0, the Terrain Effects Chart) are priced a row at a
time as its move searches read them (issue 35: six tables of the whole map's 12,000
steps were built before the first move could be listed)."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.data import load
from engines.backhand.notation import w
from engines.backhand.state import BBState
from engines.hexkit.movement import StepCosts
from pbem.errors import IllegalAction
from pbem.setup import setup
from pbem.testing import Chooser, decisions


def test_a_move_listing_prices_only_the_rows_its_searches_read() -> None:
    state = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    choose = Chooser("backhand/move-costs/1")
    costs = load().costs
    # the tables made fresh: an earlier test's playouts in this process priced rows of
    # their own, which the first listing here would not price again
    costs.clear()
    for _ in range(200):
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
            continue
        before = {k: c.rows_priced() for k, c in costs.items()}
        legal = state.legal_actions()
        priced = {k: c.rows_priced() - before.get(k, 0) for k, c in costs.items()}
        if any(priced.values()):
            break
        state.apply(legal[choose.below(len(legal))], side=state.current_player())
    else:
        raise AssertionError("no move listed in 200 steps")
    assert all(isinstance(c, StepCosts) for c in costs.values())
    # the units that may move reach a part of the map, not all of its 2,091 hexes
    assert 0 < sum(priced.values()) < len(load().map.ids) // 2, priced


def test_a_move_is_checked_against_its_destinations_not_a_listing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """15.0: replaying a received file checks each 'move UNIT' against the units that may
    move and each 'to HEX' against the hexes in reach, without making the listing's
    action for every one of them (issue 35); a hex out of reach is refused as before."""
    from engines.backhand.steps.move import MovePhase, MoveTo

    def listed(*args: object) -> object:
        raise AssertionError("the whole listing was made to check one move")

    s = setup(ENGINE, "high-water-mark",
              'clear = true\nplace = { "LAH-1" = "3616" }\nphasing = "german"\n'
              'ap = { german = 1 }\nstack = [["game", 0, {}], ["turn", 13, {}], '
              '["seg-run", 6, { side = "german", kind = "sp", no = 1, stage = 6, '
              'first = "move" }], ["move", 0, { side = "german", kind = "sp" }]]')
    with monkeypatch.context() as m:
        m.setattr(MovePhase, "options", listed)
        m.setattr(MoveTo, "options", listed)
        s.apply("move LAH-1")
        far = s.clone()
        s.apply("to 3716")
    with pytest.raises(IllegalAction, match="out of reach"):
        far.apply("to 0101")
    assert s.pos.units["LAH-1"].at == "3716"  # type: ignore[attr-defined]
    assert "to 3716" in {a.notation() for a in far.legal_actions()}


def test_a_checked_move_searches_only_until_its_hex_and_agrees_with_the_listing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """15.0: the check of 'to HEX' searches toward HEX and stops once its cost is final,
    never running the listing's search of the whole reach (issue 35: the whole reach
    searched to find one hex was 36 M instructions of a receive, every hex cheaper than
    the goal 10 M more), and takes exactly the hexes the listing offers, in mud (15.31's
    river crossings) and frozen weather alike."""
    from engines.backhand import movement

    for weather in ("frozen", "mud"):
        s = setup(ENGINE, "high-water-mark",
                  f'clear = true\nweather = "{weather}"\nplace = {{ "LAH-1" = "3616", '
                  '"12T" = "3917", "3-3" = "3618" }\nphasing = "german"\n'
                  'ap = { german = 1 }\nstack = [["game", 0, {}], ["turn", 13, {}], '
                  '["seg-run", 6, { side = "german", kind = "sp", no = 1, stage = 6, '
                  'first = "move" }], ["move", 0, { side = "german", kind = "sp" }]]')
        units = ("LAH-1",)
        listed = set(movement.destinations(s, units, "3616"))
        assert listed
        near = [h for h in s.data.map.ids if s.data.map.distance(h, "3616") <= 9]
        assert {h for h in near if movement.reaches(s, units, "3616", h)} == listed
    goals: list[object] = []
    within = movement._within

    def spy(*args: object) -> bool:
        goals.append(args[3])
        return within(*args)  # type: ignore[arg-type]

    def whole(*args: object, **kwargs: object) -> object:
        raise AssertionError("the listing's search of the whole reach ran for a check")

    monkeypatch.setattr(movement, "_within", spy)
    monkeypatch.setattr(movement, "reachable", whole)
    s.apply("move LAH-1")
    s.apply(f"to {sorted(listed)[0]}")
    assert goals == [sorted(listed)[0]]


def test_a_checked_move_asks_the_stacking_of_its_own_hex_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """10.2, 15.0: the check of 'to HEX' asks whether the units may stack in HEX and in
    no other hex the search finished (issue 35: a stacking check for every hex of the
    search, each reading the placement, was 7% of an audit); a hex a full stack holds
    is refused and one with room taken, exactly as the listing offers them."""
    from engines.backhand import movement

    s = setup(ENGINE, "high-water-mark",
              'clear = true\nplace = { "LAH-1" = "3616", "3-3" = "3716", "3-394" = "3716", '
              '"6-114" = "3716", "6-11Pz" = "3716", "7-6" = "3615" }\nphasing = "german"\n'
              'ap = { german = 1 }')
    assert isinstance(s, BBState)
    units = ("LAH-1",)
    listed = set(movement.destinations(s, units, "3616"))
    assert "3716" not in listed and "3615" in listed  # 10.2: full; room for one more
    asked: list[str] = []
    stack_ok = BBState.stack_ok

    def spy(self: BBState, h: str, side: str, adding: object) -> bool:
        asked.append(h)
        return stack_ok(self, h, side, adding)  # type: ignore[arg-type]

    monkeypatch.setattr(BBState, "stack_ok", spy)
    for h in ("3716", "3615", "3617"):
        asked.clear()
        assert movement.reaches(s, units, "3616", h) == (h in listed)
        assert asked == ([h] if h in ("3716", "3615") else []), asked


@pytest.mark.parametrize(("scenario", "seed"), [
    ("high-water-mark", "bbmove/1"), ("backhand-blow", "bbmove/2")])
def test_15_0_a_checked_move_takes_exactly_the_hexes_the_listing_offers(
        scenario: str, seed: str) -> None:
    """15.0, 15.31, 10.1, 10.2: the check of a received 'to HEX' searches only the hexes
    a move of the unit's MPs from its hex to HEX can pass (issue 35); over seeded
    playouts of both scenarios, at moves of every weather met, it takes every hex the
    listing offers and refuses every other hex within reach and beyond, in the
    listing's own words and rule."""
    from engines.backhand import movement
    from engines.backhand.steps.move import MoveTo
    from pbem.steps import Choice

    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    moves = taken = refused = 0
    weathers: set[str] = set()
    for at in decisions(st, Chooser(seed), 4000):
        assert isinstance(at, BBState)
        if at.stack[-1].step != "move-to":
            continue
        moves += 1
        if moves % 3:
            continue
        a = at.stack[-1].args
        step = at.steps["move-to"]
        assert isinstance(step, MoveTo)
        listed = set(movement.destinations(at, a.units, a.origin))
        ma = max(at.data.units[u].ma for u in a.units)
        weathers.add(at.pos.weather)
        for h in sorted(at.data.map.within(a.origin, ma + 1)):
            action = w("to", h)
            assert movement.reaches(at, a.units, a.origin, h) == (h in listed), (h, a)
            got = []
            for check in (MoveTo.check, Choice.check):
                try:
                    check(step, at, a, action)
                    got.append(None)
                except IllegalAction as exc:
                    got.append((str(exc), exc.rule))
            assert got[0] == got[1], (h, a, got)
            taken += h in listed
            refused += h not in listed
    assert moves > 60 and taken > 300 and refused > 2000, (moves, taken, refused)
    assert "frozen" in weathers and (scenario != "backhand-blow" or "mud" in weathers), weathers


def test_the_adjacency_table_is_made_when_a_rule_first_reads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a load made every hex's neighbours as tuples (2,091 hexes) that only the
    supply floods (7.0), the Front Markers' traces (14.1) and the attacks (16.0) read,
    and then a receive with a move made them all (20 M instructions) for the few hundred
    hexes it reads: each hex's are made when first read, and are the kit's neighbour
    table's for every hex of the map; a marker's trace walks them, not the kit's whole
    table, and finds the path the kit's table finds."""
    from types import SimpleNamespace

    from engines.backhand import fronts
    from engines.backhand.data import ENGINE_ID, Data
    from engines.hexkit import load_scenario_dir
    from engines.hexkit.graph import trace
    from engines.hexkit.hexmap import HexMap

    fresh = Data(load_scenario_dir(ENGINE_ID))
    assert "nbrs" not in vars(fresh)
    m = fresh.map
    assert fresh.nbrs["3616"] == tuple(sorted(m.neighbors("3616")))
    assert dict(fresh.nbrs) == {"3616": fresh.nbrs["3616"]}  # one hex read, one made
    assert "3616" in fresh.nbrs and "0101" in fresh.nbrs and "9999" not in fresh.nbrs
    assert fresh.nbrs.get("9999", ()) == () and fresh.nbrs.get("3616") == fresh.nbrs["3616"]
    with pytest.raises(KeyError):
        fresh.nbrs["9999"]
    monkeypatch.setattr(fronts, "_PATHS", {})
    marker = fresh.front_setup["voronezh"]
    whole: list[object] = []
    kits = HexMap.neighbor_table
    monkeypatch.setattr(HexMap, "neighbor_table", lambda *a: whole.append(a) or kits(*a))
    assert fronts.traces(SimpleNamespace(data=fresh), marker, lambda h: True)  # type: ignore[arg-type]
    assert whole == []  # the kit's whole table not asked for
    assert 0 < len(dict(fresh.nbrs)) < len(m.ids)
    assert list(fronts._PATHS[marker]) == trace(m, marker, fresh.soviet_supply)
    table = m.neighbor_table()
    assert all(fresh.nbrs[h] == table[h] for h in m.ids)


def test_a_unit_that_moves_alone_is_not_looked_for_among_the_movers_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """15.0: 'move UNIT' is checked against that unit alone and moves it, without
    listing every unit that may move, twice (issue 35: 13 M instructions of a 12-file
    game's receive); nor is a formation's stack (15.2), checked against that formation's
    stacks and moving its members free to move (test_15_2_... below)."""
    from engines.backhand.steps import move

    asked: list[object] = []
    listing = move.movers

    def spy(*args: object) -> object:
        asked.append(args[1])
        return listing(*args)  # type: ignore[arg-type]

    s = setup(ENGINE, "high-water-mark",
              'clear = true\nplace = { "LAH-1" = "3616", "LAH-2" = "2912", '
              '"LAH-Pz" = "2912" }\nphasing = "german"\nap = { german = 2 }\n'
              'stack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 6, { side = "german", '
              'kind = "sp", no = 1, stage = 6, first = "move" }], ["move", 0, '
              '{ side = "german", kind = "sp" }]]')
    monkeypatch.setattr(move, "movers", spy)
    s.apply("move LAH-1")
    assert asked == []  # checked and moved as one unit (movement.may_move)
    s.apply("to 3716")
    asked.clear()
    s.apply("move LAH 2912")
    assert asked == []  # the formation's own stacks (movement.formation_movers)
    assert s.frame().args.units == ("LAH-2", "LAH-Pz")  # type: ignore[attr-defined]


@pytest.mark.parametrize(("scenario", "seed"), [
    ("high-water-mark", "bbform/1"), ("backhand-blow", "bbform/2")])
def test_15_2_a_checked_formation_move_takes_exactly_the_stacks_the_listing_offers(
        scenario: str, seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """15.2: a received 'move FORMATION HEX' is checked against that formation's stacks
    alone, not the listing of every unit's move (issue 35: two formation moves of a file
    asked 500 units whether they may move); over seeded playouts of both scenarios, at
    every movement decision, it takes every formation stack the listing offers and
    refuses, in the listing's own words and rule, every other hex of every formation
    (its units' hexes, a hex of no unit) and names that are no formation, and
    moves the same units."""
    from engines.backhand import movement
    from engines.backhand.steps.move import MovePhase
    from pbem.steps import Choice

    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    phases = taken = refused = 0
    asked: list[str] = []
    may_move = movement.may_move

    def counted(s: BBState, a: object, u: str) -> bool:
        asked.append(u)
        return may_move(s, a, u)  # type: ignore[arg-type]
    for at in decisions(st, Chooser(seed), 3000):
        assert isinstance(at, BBState)
        if at.stack[-1].step != "move":
            continue
        phases += 1
        a = at.stack[-1].args
        step = at.steps["move"]
        assert isinstance(step, MovePhase)
        listed = {n: m for n, m in movement.movers(at, a) if len(n) > 1}
        # a stack's hex, a box's units (no hex to name), a hex of no unit, no formation
        names = {(fid, h) for fid, f in at.data.formations.items()
                 for h in {at.pos.units[u].at for u in f.members} | {"3616"} if h.isdigit()}
        names |= {("3-3", "3618"), ("NOPE", "3616")}
        for fid, h in sorted(names):
            action = w("move", fid, h)
            got = []
            for check in (MovePhase.check, Choice.check):
                asked.clear()
                with monkeypatch.context() as patch:
                    patch.setattr(movement, "may_move", counted)
                    try:
                        check(step, at, a, action)
                        got.append(None)
                    except IllegalAction as exc:
                        got.append((str(exc), exc.rule))
                if check is MovePhase.check and got[-1] is None:
                    assert asked == [], (fid, h)  # no unit's own move asked
            assert got[0] == got[1], (fid, h, got)
            assert (got[0] is None) == ((fid, h) in listed), (fid, h)
            taken += got[0] is None
            refused += got[0] is not None
            if got[0] is None:  # the stack's units free to move go on to their hex
                moved_on = at.clone()
                moved_on.apply(action)
                frame = moved_on.stack[-1]
                assert frame.step == "move-to" and frame.args.units == listed[(fid, h)]
    assert phases > 20 and taken > 10 and refused > 200, (phases, taken, refused)
