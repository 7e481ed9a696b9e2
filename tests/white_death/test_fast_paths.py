"""The fast paths of issue 13 answer what the slow ones answer.

Legal moves are listed per unit (``move_dests``) while an action is checked one by one
(``_check_move``); traces through the enemy are kept per enemy position in the catalog;
a clone shares the catalog. Each is compared here with the plain computation along
random games on the shipped map, so a key left incomplete shows up as a difference.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import Any

import pytest

from engines.hexkit.facts import BoardFacts
from engines.hexkit.graph import region
from engines.hexkit.movement import MoveCosts
from engines.white_death import ENGINE, movement
from engines.white_death.artillery import sees
from engines.white_death.data import MOBILITIES
from engines.white_death.movement import rail_destinations, stacks_near
from engines.white_death.notation import act
from engines.white_death.state import WDState
from engines.white_death.supply import (
    _Traces,
    _traces,
    art_supplied_at,
    enemy_facts,
    enemy_hexes,
    ezoc,
    supply_roads,
    traced,
)
from engines.white_death.terrain import SUPPLY_ROADS, Terrain
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.testing import Chooser, fresh_run

from .conftest import decisions


def _walk(scenario: str, seed: int, steps: int) -> list[WDState]:
    """Positions of a random game, each taken at a decision (clones)."""
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"fast-paths/{scenario}/{seed}")
    out: list[WDState] = []
    for n in decisions(state, choose, steps):
        if n % 3 == 0:
            c = state.clone()
            assert isinstance(c, WDState)
            out.append(c)
        state.apply(choose.pick(state.legal_actions()))
    return out


def test_listed_moves_are_the_checked_moves() -> None:
    seen = 0
    for state in _walk("first-relief", 1, 400) + _walk("campaign", 2, 300):
        if state.phase != "movement" or state.pos.passing:
            continue
        listed = {a.notation() for a in state.legal_actions() if a.kind == "move"}
        checked = set()
        for uid in state.side_units(state.pos.phasing):
            u = state.pos.units[uid]
            for n in state.ter.nbrs(u.loc):
                a = act("move", uid, n, u.loc)
                try:
                    movement.check_move(state, a)
                except IllegalAction:
                    continue
                checked.add(a.notation())
        assert listed == checked
        seen += 1
    assert seen > 10


def _supply_answers(state: WDState, side: str) -> tuple[tuple[bool, bool], ...]:
    """Rule 15.C's and 15.B's answers for every third hex of the map."""
    return tuple((traced(state, side, h), art_supplied_at(state, side, h))
                 for h in state.map.ids[::3])


def test_traces_kept_per_enemy_position_match_fresh_ones() -> None:
    for state in _walk("second-relief", 3, 300)[::4]:
        kept = {s: (ezoc(state, s), _supply_answers(state, s), enemy_hexes(state, s))
                for s in ("soviet", "german")}
        rails = {uid: rail_destinations(state, uid) for uid in sorted(state.pos.units)
                 if state.on_map(uid)}
        state.cat.memo.clear()
        state._moved()
        for s, (z, r, e) in kept.items():
            assert (ezoc(state, s), _supply_answers(state, s), enemy_hexes(state, s)) == (
                z, r, e)
        for uid, dests in rails.items():
            assert rail_destinations(state, uid) == dests


def _plain_has_zoc(state: WDState, uid: str) -> bool:
    """Rule 3 as the book says it: every unit but the intrinsic garrisons and a German
    weapons company alone in its hex."""
    t = state.utype(uid)
    if "intrinsic" in t.flags:
        return False
    if state.side_of(uid) == "german" and t.weapons and t.size == "I":
        loc = state.pos.units[uid].loc
        return sum(state.pos.units[x].loc == loc for x in state.side_units("german")) > 1
    return True


def test_supply_traces_are_the_plain_floods() -> None:
    """Rule 3's ZOC and Rule 15's traces, asked hex by hex (each search stopping at the
    first edge or known hex, its answers kept for the next), are the plain breadth-first
    floods over the whole map through the hexes free of enemy units and their Rule 3
    ZOCs: 15.C from the friendly edge, 15.B along roads and railroads from it and then
    seven hexes on. Every hex of the map is asked, in an order that meets the kept
    answers (joined and cut off) from every side."""
    compared = cut_off = 0
    for scenario, seed in (("second-relief", 5), ("campaign", 6)):
        for state in _walk(scenario, seed, 240)[::5]:
            facts = BoardFacts(state.map, state.facts().placement)
            for side in ("soviet", "german"):
                foe = "german" if side == "soviet" else "soviet"
                enemy = {state.pos.units[u].loc for u in state.side_units(foe)}
                zone = {n for u in state.side_units(foe) if _plain_has_zoc(state, u)
                        for n in state.map.neighbors(state.pos.units[u].loc)}
                assert zone == set(ezoc(state, side))
                free = frozenset(h for h in state.map.ids if h not in enemy | zone)
                edges = state.ter.edge_hexes(side)
                edge = [h for h in edges if h in free]
                plain = region(state.map, edge, passable=free)
                ends = [h for h in edge if state.map.network_neighbors("road", h)
                        or state.ter.rail_hex(h)]
                roads = region(state.map, ends, passable=free, networks=SUPPLY_ROADS)
                assert dict(facts.flood(side, supply_roads(state))) == roads
                art = region(state.map, roads, passable=free, max_steps=7)
                ids = state.map.ids
                for h in ids[len(ids) // 2:] + ids[:len(ids) // 2][::-1]:
                    near = state.map.neighbors(h)
                    want = h in plain or any(n in plain for n in near) or h in edges
                    assert traced(state, side, h) == want, (scenario, side, h)
                    cut_off += h in free and h not in plain
                    want = h in art or any(art.get(n, 99) <= 6 for n in near)
                    assert art_supplied_at(state, side, h) == want, (scenario, side, h)
                compared += 1
    assert compared > 20 and cut_off > 20


def test_a_trace_searches_from_the_hex_asked() -> None:
    """Rule 15.C asked of one unit meets the hexes between it and the nearest friendly
    edge, not the whole map: the traces of a whole game's isolation checks (the combat
    and morale of an assault) used to flood some 1,500 of the map's 1,700 hexes per
    enemy position; and a second unit next to the first is answered from what the
    first search met."""
    state = _walk("second-relief", 5, 120)[-1]
    state.cat.memo.clear()
    state._moved()
    side = state.pos.phasing
    uid = next(u for u in state.side_units(side)
               if state.pos.units[u].loc not in state.ter.edge_hexes(side)
               and traced(state, side, state.pos.units[u].loc))
    state.cat.memo.clear()
    state._moved()
    h = state.pos.units[uid].loc
    assert traced(state, side, h)
    t = _traces(state, side)
    met = len(t._joined) + len(t._cut)
    assert 0 < met < len(state.map.ids) // 4
    for n in state.map.neighbors(h):
        traced(state, side, n)
    assert len(t._joined) + len(t._cut) < met + 7 * 6


def _reaches_by_heap(t: _Traces, h: str) -> bool:
    """Rule 15.C's search as it was written with heapq."""
    if h in t._blocked:
        return False
    if h in t._joined:
        return True
    if h in t._cut:
        return False
    met, todo = {h}, [(t._guide(h), h)]
    while todo:
        _, j = heapq.heappop(todo)
        if j in t._edge or j in t._joined:
            t._joined.update(met)
            return True
        if j in t._cut:
            t._cut.update(met)
            return False
        for k in t._nbrs(j):
            if k not in met and k not in t._blocked:
                met.add(k)
                heapq.heappush(todo, (t._guide(k), k))
    t._cut.update(met)
    return False


def test_a_trace_meets_the_hexes_a_heap_would_without_loading_heapq() -> None:
    """Rule 15.C's search takes the hexes nearest a friendly border first, the least id
    of those first, as a heap of (distance, hex) did: the same answers and the same
    hexes known joined or cut off after every search, along seeded games, every hex
    asked; and a fresh process's trace loads no heapq (issue 35: 0.7 M instructions of
    an act or receive whose fire checks a unit's isolation)."""
    asked = cut_off = 0
    for state in _walk("second-relief", 5, 240)[::10]:
        for side in ("soviet", "german"):
            mine, theirs = _Traces(state, side), _Traces(state, side)
            ids = state.map.ids
            for h in ids[len(ids) // 3:] + ids[:len(ids) // 3][::-1]:
                want = _reaches_by_heap(theirs, h)
                assert mine.reaches(h) == want, (side, h)
                assert (mine._joined, mine._cut) == (theirs._joined, theirs._cut), h
                asked += 1
                cut_off += not want and h not in mine._blocked
    assert asked > 1000 and cut_off > 0
    probe = ("import sys\nfrom engines.white_death import ENGINE\n"
             "from engines.white_death.supply import _traces, traced\n"
             "s = ENGINE.new_state('purkayev', ENGINE.resolve_options({}))\n"
             "for h in ('2010', '3902'):\n    traced(s, 'german', h)\n"
             "t = _traces(s, 'german')\n"
             "print(len(t._joined) + len(t._cut) > 0, 'heapq' in sys.modules)\n")
    assert fresh_run(probe) == ["True False"]


def _moves() -> Iterator[tuple[WDState, Action, WDState]]:
    """Up to three listed moves of each movement-phase position of seeded walks of two
    scenarios: the position, the move, and a clone of the position to make it on."""
    for state in _walk("second-relief", 9, 300) + _walk("campaign", 10, 200):
        if state.phase != "movement" or state.pos.passing:
            continue
        for a in [a for a in state.legal_actions() if a.kind == "move"][:3]:
            c = state.clone()
            assert isinstance(c, WDState)
            yield state, a, c


def test_units_by_hex_kept_across_a_move_are_the_fresh_ones() -> None:
    """Each side's units by hex (``units_at``) are kept across a move but for the two
    hexes it changes: after every move, each hex asked before answers what a fresh
    state (a clone keeps no cache) answers, and a hex the move did not touch answers
    from what was kept."""
    moved = 0
    for state, a, c in _moves():
        hexes = sorted({n for u in c.pos.units if c.on_map(u)
                        for n in (c.pos.units[u].loc, *c.map.neighbors(c.pos.units[u].loc))})
        before = {(h, side): c.units_at(h, side) for h in hexes
                  for side in ("soviet", "german")}
        c.apply(a)
        fresh = c.clone()
        assert isinstance(fresh, WDState)
        touched = {a.text("hex"), state.pos.units[a.text("unit")].loc}
        for (h, side), was in before.items():
            now = c.units_at(h, side)
            assert now == fresh.units_at(h, side), (a.notation(), h, side)
            if h not in touched and c.pos.phasing == state.pos.phasing:
                assert now is was, (a.notation(), h, side)
        moved += 1
    assert moved > 20


def test_a_move_brings_the_units_by_hex_up_to_date_in_place() -> None:
    """A move changes the units by hex and its side's occupied hexes in the two hexes it
    touches, in the dicts kept before it (copying both every move was 23 M instructions
    of the purkayev audit): they are the dicts read before the move, and they equal a
    fresh state's (a clone keeps no cache), for both sides."""
    moved = 0
    for _state, a, c in _moves():
        side = c.pos.phasing
        by, occ = c._by_hex(), c.occupied(side)
        c.apply(a)
        fresh = c.clone()
        assert isinstance(fresh, WDState)
        assert c._by_hex() == fresh._by_hex(), a.notation()
        for s in ("soviet", "german"):
            assert c.occupied(s) == fresh.occupied(s), (a.notation(), s)
        if c.pos.units[a.text("unit")].loc == a.text("hex"):
            assert c._by_hex() is by and c.occupied(side) is occ, a.notation()
            moved += 1
    assert moved > 20


def test_banks_read_the_chart_names_of_river_hexes_alone() -> None:
    """Rule 16.B's banks take the river hexes out of the map: only a hex whose printed
    terrain or a feature names a river has its chart names read for it (reading every
    hex's built 1,720 sets); the banks themselves are checked hex by hex in
    test_terrain_object."""
    state = ENGINE.new_state("campaign", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    ter = Terrain(state.cat)
    assert ter.bank(state.map.ids[0]) != ""
    read = set(ter._terrain)
    rivers = {x for x in state.map.ids if "river" in state.map.features_of(x)}
    assert rivers and read == rivers


def _plain_sees(state: WDState, obs: str, target: str) -> bool:
    """Rule 11.B.3 as it was written before the far observers were skipped: the range
    traced for every observer."""
    h = state.pos.units[obs].loc
    d = state.map.distance(h, target)
    if state.pos.weather == "snow":
        return d <= 1
    rng = state.ter.sight_range(h, target)
    if any("guards-rocket" in state.utype(x).flags and state.pos.units[x].deployed
           for x in state.units_at(target)):
        rng += 1
    if "obs" in state.utype(obs).flags and any(
            state.utype(x).artillery and state.pos.units[x].deployed
            for x in state.units_at(target, "german" if state.side_of(obs) == "soviet"
                                    else "soviet")) and d <= 7:
        return True
    return d <= rng and state.ter.los(h, target)


def test_an_observer_out_of_range_traces_no_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 11.B.3: whether a unit observes a hex is what the whole rule says (the
    map's range, the Guards rockets' hex more, sound and flash ranging, the line of
    sight), for every unit and every hex holding an enemy unit along seeded games; an
    observer more than four hexes off is refused without tracing its range's line."""
    traced: list[tuple[str, str]] = []
    plain = Terrain.sight_range
    monkeypatch.setattr(Terrain, "sight_range", lambda self, h, t: (
        traced.append((h, t)), plain(self, h, t))[1])
    compared = far = 0
    for state in _walk("first-relief", 15, 300)[::6] + _walk("campaign", 16, 200)[::6]:
        for obs in [u for u in sorted(state.pos.units) if state.on_map(u)]:
            side = state.side_of(obs)
            for target in sorted(state.occupied("german" if side == "soviet" else "soviet")):
                traced.clear()
                assert sees(state, obs, target) == _plain_sees(state, obs, target), (
                    obs, target)
                compared += 1
                if state.map.distance(state.pos.units[obs].loc, target) > 4 and \
                        state.pos.weather != "snow":
                    assert traced == [(state.pos.units[obs].loc, target)]  # the plain one's
                    far += 1
    assert compared > 1000 and far > 100


def test_a_move_replayed_prices_its_step_alone() -> None:
    """A move checked and made without a listing (a file received, an audit) prices the
    one step it takes, not the six of the hex it leaves (Rule 7's costs, the same as
    the row's): a game played on one state is replayed on another with a terrain of its
    own (nothing priced) action by action, and no row is priced for its moves."""
    state = ENGINE.new_state("first-relief", ENGINE.resolve_options({}))
    twin = ENGINE.new_state("first-relief", ENGINE.resolve_options({}))
    assert isinstance(state, WDState) and isinstance(twin, WDState)
    twin.ter = Terrain(twin.cat)  # its own, nothing priced (the catalog's is shared)
    choose = Chooser("fast-paths/steps/1")
    moved = 0
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance():
            outcome = choose.outcome(state.chance_request())
            state.apply_outcome(outcome)
            twin.apply_outcome(outcome)
            continue
        a = choose.pick(state.legal_actions())
        state.apply(a)
        priced = sum(c.costs.rows_priced() for c in twin.ter._compiled.values())
        twin.apply(a.notation())
        if a.kind == "move":
            assert sum(c.costs.rows_priced() for c in twin.ter._compiled.values()) == priced
            moved += 1
    assert twin.digest() == state.digest() and moved > 20


def test_clone_is_independent_and_shares_the_catalog() -> None:
    state = _walk("campaign", 4, 120)[-1]
    digest = state.digest()
    c = state.clone()
    assert isinstance(c, WDState)
    assert c.cat is state.cat and c._static is state._static
    assert c.digest() == digest
    for u in c.pos.units.values():
        u.marks.add("probe")
        u.strength += 1
    c.pos.bridges.add("0101")
    c.pos.supply["soviet"] += 5
    c._moved()
    c._encoded = None  # changed by hand, not by apply: the digest is worked out again
    assert state.digest() == digest
    assert c.digest() != digest


def test_kept_legal_actions_match_fresh_ones() -> None:
    """Each unit's movement-phase actions are kept under a key (``_unit_key``): a key
    missing something they read would list last position's actions here."""
    seen = 0
    for state in _walk("campaign", 5, 900) + _walk("final-relief", 6, 600):
        if state.phase != "movement":
            continue
        kept = [a.notation() for a in state.legal_actions()]
        for name in ("unit-memo", "reach-memo", "stack-memo"):
            state._static.pop(name, None)
        state.cat.memo.clear()
        state._moved()
        assert [a.notation() for a in state.legal_actions()] == kept
        seen += 1
    assert seen > 50


def test_stacks_near_kept_across_moves_match_fresh_ones() -> None:
    """Each side's stacks near a hex survive a unit's move but for the hexes within two of
    where it left and arrived, Rule 4's answers but for those two hexes: along a game
    (the same state, not clones, so the kept answers are the ones carried across moves)
    every kept one equals a fresh one."""
    state = ENGINE.new_state("first-relief", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser("fast-paths/near/7")
    carried = 0
    for _ in decisions(state, choose, 1500):
        kept = dict(state._near)
        stack = {h: dict(d) for h, d in state._stack.items()}
        carried += len(kept) + len(stack)
        fresh = state.clone()
        assert isinstance(fresh, WDState)
        for (side, h), near in kept.items():
            assert stacks_near(fresh, side, h) == near, (side, h)
        for h, answers in stack.items():
            for (uid, gone), ok in answers.items():
                assert fresh.stack_ok_with(h, uid, gone) == ok, (h, uid, gone)
        state.apply(choose.pick(state.legal_actions()))
    assert carried > 1000


def test_move_costs_price_the_rows_read_as_the_whole_map_table_prices_them() -> None:
    """Rule 7's costs, frozen, in a thaw and across bridges (Rules 13, 20), row by row
    as a search reads them, are the kit's table of the whole map (``MoveCosts``, and
    its overlay), for every mobility class; an advance after combat (Rule 15) that
    prices one step prices that step alone, not its row, nor the map's 10,000 steps
    (issue 35)."""
    cat = ENGINE.catalog()
    ter = Terrain(cat)
    m = ter.map
    bridges = tuple(h for h in m.ids if any("river" in f for f in m.features_of(h)))[:2]
    for mob in MOBILITIES:
        whole = MoveCosts(m, ter.move_class(mob))
        for frozen, bridged in ((True, ()), (False, ()), (True, bridges), (False, bridges)):
            table = whole if frozen and not bridged else whole.overlaid(
                ter._move_overlay(frozen, bridged))
            assert table.scale == 1  # the class's costs are ticks
            want = [tuple(None if c < 0 else c for _, c in row) for row in table.steps]
            alone = Terrain(cat)
            assert [alone.enter_row(mob, h, frozen, bridged) for h in m.ids] == want, \
                (mob, frozen, bridged)
    alone = Terrain(cat)
    a = bridges[0]
    b = m.ids[m.adjacency[m.index[a]][0]]
    assert alone.enter_ticks("l", a, b, False, bridges) == ter.enter_ticks(
        "l", a, b, False, bridges)
    compiled = alone.move_costs("l", False, bridges)
    assert compiled.costs.rows_priced() == 0 and len(compiled.steps) == 1


def test_setup_group_hexes_measure_each_hex_once_per_disc() -> None:
    """Campaign setup (Rule 22) places a group within a distance of its place: the
    hexes, nearest first, are those of the plain definition (least distance to any hex
    of the place), found with one distance per hex of each base hex's disc rather than
    one per hex of the place for each (the start of every replay places every group),
    and that distance read off the disc's cube offsets, none measured again."""
    from engines.hexkit.hexmap import HexMap
    from engines.white_death.placement import group_hexes

    state = ENGINE.new_state("campaign", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    cat = state.cat
    m = cat.map
    groups = list(cat.opening) + list(state.sc.groups)
    wide = [g for g in groups if len(cat.resolve(g.near)) > 2]
    assert wide, "no setup group of the campaign has a place of several hexes"
    calls = [0]
    plain = HexMap.distance

    def counted(self: HexMap, a: str, b: str) -> int:
        calls[0] += 1
        return plain(self, a, b)

    for g in wide:
        for extra in (0, 2):
            base = cat.resolve(g.near)
            radius = g.within + extra
            near = {h: min(m.distance(h, x) for x in base)
                    for b in base for h in m.within(b, radius)}
            want = sorted(near, key=lambda h: (near[h], h))
            discs = sum(len(m.within(b, radius)) for b in base)
            calls[0] = 0
            HexMap.distance = counted  # type: ignore[method-assign]
            try:
                got = group_hexes(cat, g, extra)
            finally:
                HexMap.distance = plain  # type: ignore[method-assign]
            assert got == want, g.near
            assert discs and calls[0] == 0, (g.near, calls[0], discs)


def test_a_move_keeps_the_enemy_facts_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 3's ZOC and Rule 15's traces read the enemy's units alone: a phasing unit's
    move keeps the facts of the enemy (the same object, so its ZOCs and floods are not
    worked out again), and checking and making the move builds no board facts at all
    (a movement phase replayed used to build the whole placement's facts per move)."""
    from engines.white_death import state as state_module

    built = [0]
    plain = state_module.board_facts
    foe = ""

    def counted(hexmap: Any, placement: Any) -> BoardFacts:
        # facts holding the enemy's units (the enemy's alone, or the whole placement's);
        # (Rule 3.A's antitank fire at an AFV leaving a ZOC traces the firers' supply
        # through the mover's side alone)
        placement = list(placement)
        built[0] += any(p.side == foe for p in placement)
        return plain(hexmap, placement)

    monkeypatch.setattr(state_module, "board_facts", counted)
    moved = 0
    for state in _walk("second-relief", 7, 300) + _walk("campaign", 8, 200):
        if state.phase != "movement" or state.pos.passing:
            continue
        side = state.pos.phasing
        foe = "german" if side == "soviet" else "soviet"
        for a in [a for a in state.legal_actions() if a.kind == "move"][:3]:
            c = state.clone()
            assert isinstance(c, WDState)
            before = enemy_facts(c, side)
            zone = set(ezoc(c, side))
            built[0] = 0
            c.apply(a)
            assert enemy_facts(c, side) is before
            assert built[0] == 0, a.notation()
            fresh = BoardFacts(c.map, c.facts().units(foe))
            assert enemy_facts(c, side).placement == fresh.placement
            assert set(ezoc(c, side)) == zone
            moved += 1
    assert moved > 20
