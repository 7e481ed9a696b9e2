"""Rules version 0.8 (issue 13): a unit's movement points spent are ticks, MP_TICKS to the
MP, while the rules' checks and their messages still speak in the book's MPs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engines.white_death import WhiteDeath, data
from engines.white_death.data import Cost
from engines.white_death.movement import left, left_ticks, move_cost
from engines.white_death.position import MP_TICKS
from engines.white_death.terrain import Terrain
from pbem.errors import ScenarioError

from .conftest import refused
from .positions import position


def test_a_sixth_is_the_finest_cost_of_rule_7s_chart(engine: WhiteDeath) -> None:
    """The chart's road costs are 1/2 MP and 1/3 MP (wheeled, motorcycle): both whole
    ticks, held as ticks; every cost on it is."""
    ter = Terrain.of(engine.catalog())
    assert MP_TICKS == ter.ticks == 6
    assert ter.to_ticks(Fraction(1, 2)) == 3 and ter.to_ticks(Fraction(1, 3)) == 2
    tables = engine.catalog().tables
    costs = [v for row in tables.movement.values() for c in row.values()
             for v in (c.enter, c.leave) if v is not None]
    assert 2 in costs and 3 in costs  # 1/3 and 1/2 MP
    assert all(type(v) is int for v in costs)


class _Doc:
    def error(self, path: tuple[str, ...], message: str) -> ScenarioError:
        return ScenarioError(f"{'.'.join(path)}: {message}")


def test_a_chart_finer_than_a_tick_is_refused() -> None:
    """A printed chart with a 1/4 MP cost would need finer ticks than the save holds: the
    catalog refuses it as it reads it, naming the key."""
    doc: Any = _Doc()
    with pytest.raises(ScenarioError, match=r"movement.road.l: .*1/4 MP.*1/6 MPs"):
        data._cost(doc, ("movement", "road", "l"), "1/4")
    with pytest.raises(ScenarioError, match=r"1/4 MP"):
        data._cost(doc, ("movement", "creek", "l"), "1-1/4")
    assert data._cost(doc, ("movement", "road", "w"), "1/3") == Cost(2, 0)
    assert data._cost(doc, ("movement", "river", "d"), "2-3") == Cost(12, 18)
    for bad in ("0.5", "-1", "1/0", "x", "1e2", "½"):
        with pytest.raises(ScenarioError, match="bad cost"):
            data._cost(doc, ("movement", "road", "l"), bad)


def test_half_mp_road_moves_add_up_in_ticks_and_read_as_mps(engine: WhiteDeath) -> None:
    """Rule 7: a leg unit pays 1/2 MP along a road (3 ticks); with 1/2 MP left it may not
    enter a 1 MP hex, and Rule 6.A's refusal says so in MPs, as before 0.8."""
    s = position(engine, """
        [units]
        "1188/357" = "1307"
    """)
    uid = "1188/357"
    s.apply("impulse 1")
    road = next(n for n in s.map.network_neighbors("road", "1307")
                if move_cost(s, uid, "1307", n) == Fraction(1, 2))
    s.apply(f"move {uid} 1307 {road}")
    assert s.pos.units[uid].spent == 3  # 1/2 MP
    assert left(s, uid) == Fraction(1, 2) and left_ticks(s, s.pos.units[uid]) == 3
    assert s.snapshot()["body"]["position"]["units"][uid]["spent"] == 3
    dear = next(n for n in s.ter.nbrs(road)
                if move_cost(s, uid, road, n) == 1 and not s.units_at(n))
    err = refused(s, f"move {uid} {road} {dear}", "Rule 6.A")
    assert f"needs 1 MPs to enter {dear} and has 1/2" in str(err)
