"""For the Motherland!'s compiled step costs (5.1) are its rules read step by step, and
units the rules price alike share one table (issue 35: the first Snow Turn's listing
compiled one table for each Soviet infantry type)."""

from __future__ import annotations

from pathlib import Path

from engines.motherland import MotherlandEngine
from engines.motherland.movement import _board_cost, _move_costs
from engines.motherland.state import MotherlandState

from .conftest import position


def _snow_position(engine: MotherlandEngine) -> tuple[MotherlandState, dict[str, str]]:
    """A Snow Turn with a unit of each type whose movement costs differ (5.1.5 mountain
    units, 5.1.7 Soviet infantry on the ice, mechanized or not), away from the front."""
    turn = min(t for t, info in engine.data.turns.items() if info.weather == "snow")
    wanted = ("combined_arms", "guards", "shock", "mountain", "infantry", "panzer", "tank")
    picked: dict[str, str] = {}
    for uid, c in sorted(engine.data.counters.items()):
        if c.type in wanted and c.type not in picked.values():
            picked[uid] = c.type
    land = sorted(engine.data.land)
    units = {uid: land[k * 40] for k, uid in enumerate(picked)}
    st = position(engine, turn, "move", "soviet", units)
    assert st.snow
    return st, picked


def test_compiled_costs_are_the_board_cost_of_every_step(engine: MotherlandEngine) -> None:
    """5.1, 5.1.5, 5.1.7, 5.1.8: each step of each unit's table, on a Snow Turn (the
    ice, swamps as woods), is what :func:`_board_cost` says of it."""
    st, picked = _snow_position(engine)
    assert {"mountain", "combined_arms"} <= set(picked.values())
    ids = st.data.hexmap.ids
    bad = []
    for uid in picked:
        costs = _move_costs(st, uid)
        for i, row in enumerate(costs.steps):
            for j, c in row:
                want = _board_cost(st, uid, ids[i], ids[j])
                if (None if c < 0 else c) != want:
                    bad.append((picked[uid], ids[i], ids[j], c, want))
    assert not bad, bad[:10]


def test_soviet_infantry_of_every_type_share_one_table_on_snow(
        engine: MotherlandEngine) -> None:
    """5.1.7 names Combined Arms, Guards and Shock armies together: one table for them,
    not one a type."""
    st, picked = _snow_position(engine)
    infantry = [u for u, t in picked.items() if t in ("combined_arms", "guards", "shock")]
    assert len(infantry) == 3
    tables = {id(_move_costs(st, u)) for u in infantry}
    assert len(tables) == 1


def test_a_new_cost_keys_table_writes_nothing_to_the_data_cache(data_cache: Path) -> None:
    """5.1: the step costs a new key compiles are kept with the game's data, not written
    to the command's data cache: their cache key named a function by its address, so
    every command that compiled one wrote a file no command read back (issue 35)."""
    fresh = MotherlandEngine()  # its map read with the cache on, as a command reads it
    assert fresh.data.hexmap.source is not None
    st, picked = _snow_position(fresh)
    written = sorted(p.name for p in data_cache.iterdir())
    costs = [_move_costs(st, uid) for uid in picked]
    assert len({id(c) for c in costs}) >= 3
    assert sorted(p.name for p in data_cache.iterdir()) == written
