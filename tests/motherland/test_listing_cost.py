"""For the Motherland!'s movement listings (5.0, 5.3): what a phase's first listing does
not do again or at all (issue 35 item 5: no decision listing over 10 ms at the 99th
percentile).  Each test asserts the work skipped and that the listing reads as before."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.notation import STRATEGIC, parse
from engines.motherland.state import MotherlandState
from engines.motherland.strategic import _strategic_free, strategic_ok_unit, strategic_reach
from pbem.testing import Chooser


def first_movement(engine: MotherlandEngine, scenario: str) -> MotherlandState:
    """The scenario's first Movement Phase decision, every earlier decision taking its
    last option and every die rolling 6."""
    st = engine.new_state(scenario, engine.resolve_options({}))
    assert isinstance(st, MotherlandState)
    while st.is_chance() or st.stack[-1].step != "move":
        if st.is_chance():
            st.apply_outcome(tuple(6 for _ in st.chance_request().dice))
            continue
        st.apply(st.legal_actions()[-1])
    return st


def test_5_3_strategic_moves_are_listed_without_checking_each_hex(
        engine: MotherlandEngine, monkeypatch: pytest.MonkeyPatch,
        count_forms_built: Callable[[], list[str]]) -> None:
    """A Strategic Movement is listed as a move is: its hexes come from the map, so the
    form does not check each against its type nor write its text until asked (a first
    listing made thousands); the text then reads back to the very action."""
    st = first_movement(engine, "3-fall-blau")
    monkeypatch.setattr(STRATEGIC, "_made", {})  # none made by an earlier test
    built = count_forms_built()
    listed = [a for a in st.legal_actions() if a.kind == "strategic"]
    assert len(listed) >= 10 and "strategic" not in built
    assert all(a._text is None for a in listed)  # written when asked
    for a in listed:
        assert parse(a.notation()) == a and a.notation().startswith(f"strategic {a['unit']} ")



def test_5_3_the_listing_searches_once_per_kind_and_writes_paths_to_cities_alone(
        engine: MotherlandEngine) -> None:
    """The hexes a Strategic Movement may pass (5.3.1, 5.3.3, 5.1.5) are gathered once for
    the position and every unit of a side, nation and kind, not once per unit searched;
    the listing's paths are those of the whole search to the cities in it."""
    st = engine.new_state("6-for-the-motherland", engine.resolve_options({}))
    assert isinstance(st, MotherlandState)
    choose = Chooser(f"census/{engine.id}/6-for-the-motherland/1")
    searched: list[str] = []
    for _ in range(300):  # the census game's first Movement Phase with 10 searches
        if st.is_chance():
            st.apply_outcome(choose.outcome(st.chance_request()))
            continue
        legal = st.legal_actions()
        frame = st.stack[-1]
        if frame.step == "move" and not frame.args.exploit:
            free = _strategic_free(st, frame.args.side)
            searched = [uid for uid in sorted(st.on_map(frame.args.side))
                        if not strategic_ok_unit(st, uid) and st.u(uid).hex in free]
            if len(searched) >= 10:
                break
        st.apply(legal[choose.below(len(legal))])
    gathered = [k for k in st._cache if k[0] == "strategic-usable"]
    assert len(searched) >= 10 and 1 <= len(gathered) <= len(searched) / 5
    cities = st.data.cities
    for uid in searched:
        whole = strategic_reach(st, uid)
        assert strategic_reach(st, uid, cities=True) == {
            h: p for h, p in whole.items() if h in cities}


@pytest.mark.parametrize("snow", [False, True])
def test_5_1_a_keys_step_costs_are_priced_per_hex_and_hexside_as_step_by_step(
        engine: MotherlandEngine, monkeypatch: pytest.MonkeyPatch, snow: bool) -> None:
    """The table a new cost key compiles reads each hex's terrain cost and each set of
    hexside features' cost once, and prices every step of the map as the step-by-step
    rule does (5.1, 5.1.5 mountains, 5.1.7 the ice, 5.1.8 snow, 20.1 rule 1's Minor
    Rivers), in the map's order."""
    from engines.motherland import movement

    st = engine.new_state("3-fall-blau", engine.resolve_options({}))
    assert isinstance(st, MotherlandState)
    monkeypatch.setattr(MotherlandState, "snow", property(lambda _s: snow))
    seen: set[tuple[object, ...]] = set()
    for uid in sorted(st.pos.units):
        key = movement._cost_key(st, uid)
        if key in seen:
            continue
        seen.add(key)
        rows = movement._price_rows(st, uid)
        ids = st.data.hexmap.ids
        assert [(ids[i], ids[j], None if c < 0 else c)
                for i, row in enumerate(rows) for j, c in row] == [
            (a, b, movement._board_cost(st, uid, a, b))
            for a, ns in st.data.all_neighbors.items() for b in ns], key
    assert len(seen) >= 3


def test_5_3_1_and_9_3_3_the_hexes_near_units_are_unions_of_sets_kept_per_hex(
        engine: MotherlandEngine) -> None:
    """The hexes within two of an enemy unit or partisan (5.3.1) and within five of a Soviet unit
    (9.3.3) are the union of each unit's hexes, kept per hex with the map: a second
    position asks the map nothing again, and the sets are those the distances give."""
    from engines.motherland.supply import _soviet_close

    st = first_movement(engine, "3-fall-blau")
    st.legal_actions()
    grid, data = st.data.hexmap.grid, st.data
    spots = {st.u(uid).hex for uid in st.on_map("soviet")
             if st.u(uid).supply != "out" and st.c(uid).type != "economic"}
    kept = {h: data.around(h, 5) for h in spots}
    assert all(data.around(h, 5) is kept[h] for h in spots)  # asked once per hex
    close = _soviet_close(st)
    assert close == {y for h in spots for y in grid.within(h, 5)}
    assert all(min(grid.distance(h, y) for h in spots) <= 5 for y in close)
    free = _strategic_free(st, "axis")
    enemy = set(st.occupied("soviet")) | {h for h in st.pos.partisans.values() if h}
    assert free == {h for h in data.land if all(grid.distance(h, e) >= 3 for e in enemy)}


def test_7_1_an_overrun_listed_again_is_found_not_checked_again(
        engine: MotherlandEngine, count_forms_built: Callable[[], list[str]]) -> None:
    """An overrun listed at every listing of the phase (7.1) is made once: listed again,
    it is the action made before, found by its values ("and air" given too), not checked
    and written again."""
    from engines.motherland.overrun import overrun_options

    st = first_movement(engine, "5-zitadelle")
    first = overrun_options(st, False)
    assert len(first) >= 10
    built = count_forms_built()
    again = overrun_options(st, False)
    assert again == first and all(a is b for a, b in zip(again, first, strict=True))
    assert built == []


def test_5_1_7_the_land_neighbours_are_read_off_the_maps_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hex's neighbours (and its land neighbours, 5.1.7: no sea or lake hex) are
    read off the map's neighbour table in one pass, not asked of the map hex by hex (an
    act or receive that reaches an advance (8.7) built them so: 16 M instructions, now 9), and
    read as the map's own neighbours() in its order."""
    from engines.hexkit.hexmap import HexMap
    from engines.motherland.data import load

    data = load()
    asked: list[str] = []
    real = HexMap.neighbors

    def counted(self: HexMap, h: str) -> list[str]:
        asked.append(h)
        return real(self, h)

    monkeypatch.setattr(HexMap, "neighbors", counted)
    every, land = data.all_neighbors, data.neighbors
    assert asked == []
    m = data.hexmap
    assert every == {h: tuple(real(m, h)) for h in m.ids}
    assert land == {h: tuple(n for n in real(m, h) if n not in data.water) for h in m.ids}
    assert any(len(land[h]) < len(every[h]) for h in m.ids)  # some hexes border water
