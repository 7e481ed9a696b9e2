"""One step's cost asked once before any listing compiled the map's costs (an advance's,
Rule 9.D: ``Terrain.step_cost_once``) is read from the chart alone, on the printed map
wherever the weather's and the bridges' overlay leaves the step as printed: the same cost
as the compiled table and as the chart read through the overlay, for every step and entry
of the maps, every mobility class, frozen or in a thaw, with and without bridges (Rules
7, 13, 16, 20; issue 35)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from fractions import Fraction

import pytest

from engines.white_death import ENGINE, WhiteDeath
from engines.white_death.data import MOBILITIES, Catalog
from engines.white_death.position import MP_TICKS
from engines.white_death.state import WDState
from engines.white_death.terrain import Terrain

from .conftest import clear_board, fresh, put


def _old_chart(ter: Terrain, mob: str, frm: str | None, to: str, frozen: bool,
               bridges: Collection[str]) -> Fraction | None:
    """The chart read as before: through the overlay in every thaw (in MPs: the
    class's costs are ticks)."""
    cls = ter.move_class(mob)
    view = ter.map
    if not frozen or to in bridges or (frm is not None and frm in bridges):
        view = ter.move_view(frozen, bridges)
    if frm is None:
        cost = cls.entry_cost(view, to, ("road",) if ter.road_hex(to, bridges) else ())
    else:
        cost = cls.step_cost(view, frm, to)
    return None if cost is None else Fraction(cost, MP_TICKS)


def _steps(cat: Catalog, every: int) -> Iterator[tuple[str, str]]:
    m = cat.map
    near = {h for h in m.hexes() if m.has_feature(h, "bridge")}
    near |= {h for side in (*m.sides_with("lake"), *m.sides_with("partial_lake"))
             for h in side}
    near |= {n for h in list(near) for n in m.neighbors(h)}
    for i, a in enumerate(m.hexes()):
        if a in near or i % every == 0:
            for b in m.neighbors(a):
                yield a, b


def _check(cat: Catalog, every: int) -> int:
    m = cat.map
    bridged = tuple(h for h in m.hexes() if m.has_feature(h, "bridge"))
    assert bridged
    assert m.sides_with("lake") and m.sides_with("partial_lake")
    steps = list(_steps(cat, every))
    asked = 0
    for frozen in (True, False):
        for bridges in (frozenset(), frozenset(bridged), frozenset(bridged[:2])):
            by_chart, compiled = Terrain(cat), Terrain(cat)
            for mob in MOBILITIES:
                compiled.move_costs(mob, frozen, bridges)
                for a, b in steps:
                    want = _old_chart(by_chart, mob, a, b, frozen, bridges)
                    assert by_chart.step_cost_once(mob, a, b, frozen, bridges) == want
                    assert compiled.step_cost_once(mob, a, b, frozen, bridges) == want
                    assert compiled.enter_cost(mob, a, b, frozen, bridges) == want, (a, b)
                    asked += 1
                assert not by_chart._compiled  # no table compiled for single steps
                for h in {b for _, b in steps}:
                    want = _old_chart(by_chart, mob, None, h, frozen, bridges)
                    assert by_chart.enter_cost(mob, None, h, frozen, bridges) == want, h
    return asked


def test_a_step_by_the_chart_costs_what_the_table_does_on_the_test_map(
        engine: WhiteDeath) -> None:
    assert _check(engine.catalog(), 1) > 1000


@pytest.mark.slow
def test_a_step_by_the_chart_costs_what_the_table_does_on_the_map() -> None:
    assert _check(ENGINE.catalog(), 11) > 10000


def test_an_advance_after_the_fire_compiles_no_costs(engine: WhiteDeath) -> None:
    # Rule 9.D: who may advance into the cleared hex is asked of one step each
    from engines.white_death.assault import _assault_done

    s = fresh(engine)
    assert isinstance(s, WDState)
    clear_board(s)
    soviet = sorted(u for u in s.pos.units if s.side_of(u) == "soviet"
                    and s.utype(u).cls == "P")[:2]
    assert len(soviet) == 2
    m = s.map
    h = next(h for h in sorted(m.hexes())[len(m.hexes()) // 2:]
             if m.terrain_of(h) == "clear" and not m.features_of(h)
             and len(m.neighbors(h)) == 6)
    for uid, n in zip(soviet, m.neighbors(h), strict=False):
        put(s, uid, n)
        s.pos.units[uid].assault = h
    s.pos.assaults[h] = soviet
    s.ter._compiled.clear()
    _assault_done(s, h)
    assert s.pos.advance.get(h)
    assert not s.ter._compiled
