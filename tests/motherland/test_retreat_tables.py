"""A retreat's few hexes asked one at a time: their neighbours worked out from their
coordinates (``GameData.map_neighbors``) and a hexside's features looked up as the map
keeps it (``GameData.side_features``), not through the map's whole neighbour table or a
table of every hexside both ways round (issue 35: 3.9 M instructions of every legal and
act that lists a retreat, 8.6).  Each answers as the whole table does, for every hex."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.state import MotherlandState
from pbem.testing import Chooser, decisions, fresh_run


def _each_engine(engine: MotherlandEngine, rules_engine: MotherlandEngine
                 ) -> list[MotherlandEngine]:
    """A fresh engine on each map, the shipped one and the rules tests' (its edges
    elsewhere): nothing of its map made yet."""
    return [MotherlandEngine(engine._root, engine._map_file),
            MotherlandEngine(rules_engine._root, rules_engine._map_file)]


def test_a_hexs_neighbours_alone_are_the_maps(engine: MotherlandEngine,
                                              rules_engine: MotherlandEngine) -> None:
    for fresh in _each_engine(engine, rules_engine):
        data = fresh.data
        hm = data.hexmap
        alone = {h: data.map_neighbors(h) for h in hm.ids}
        assert "adjacency" not in hm.__dict__  # worked out hex by hex
        for h in hm.ids:
            assert list(alone[h]) == hm.neighbors(h), h
            # once the table is made, read from it
            assert data.map_neighbors(h) == alone[h]
            assert data.neighbors_of(h) == data.neighbors[h]
        with pytest.raises(KeyError):
            data.map_neighbors("9999")


def test_a_hex_is_water_alone_as_in_the_maps_set(engine: MotherlandEngine,
                                                 rules_engine: MotherlandEngine) -> None:
    for fresh in _each_engine(engine, rules_engine):
        data = fresh.data
        asked = ("9999", "", *data.hexmap.ids)
        alone = [data.is_water(h) for h in asked]
        assert "water" not in data.__dict__  # asked hex by hex
        assert alone == [h in data.water for h in asked]
        assert alone == [data.is_water(h) for h in asked]  # once the set is made
        assert any(alone) and not all(alone)


def test_a_hexsides_features_asked_either_way_round(engine: MotherlandEngine,
                                                     rules_engine: MotherlandEngine) -> None:
    for fresh in _each_engine(engine, rules_engine):
        data = fresh.data
        both = data.hexsides_both_ways()
        asked = 0
        for h in data.hexmap.ids:
            for n in (*data.map_neighbors(h), h, "0101", "9999"):
                assert data.side_features(h, n) == both.get((h, n), frozenset()), (h, n)
                assert data.side_features(n, h) == both.get((n, h), frozenset()), (n, h)
                asked += bool(both.get((h, n)))
        assert asked >= 2 * len(data.hexmap.hexsides) - 20  # the map's own, both ways


#: a retreat's listing, in a fresh process: which whole-map tables it made
_RETREAT_LISTED = """
import json, sys
from engines.motherland import ENGINE
s = ENGINE.restore(json.loads(sys.stdin.read()))
assert s.decision().kind == "retreat-choice" and s.legal_actions()
print(json.dumps(["adjacency" in s.data.hexmap.__dict__, "_sides" in s.data.__dict__,
                  "neighbors" in s.data.__dict__, "country" in s.data.__dict__,
                  "water" in s.data.__dict__]))
"""


def test_8_6_a_retreat_listed_makes_no_whole_map_table(engine: MotherlandEngine) -> None:
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    for at in decisions(s, Chooser("zoc/4-uranus/1"), 700):
        decision = at.decision()
        if decision is not None and decision.kind == "retreat-choice":
            break
    else:
        raise AssertionError("no retreat in 700 steps")
    made = json.loads(fresh_run(_RETREAT_LISTED, json.dumps(at.snapshot()))[-1])
    assert made == [False, False, False, False, False]


def test_8_6_a_retreat_asks_each_units_hexes_once_a_position(
        engine: MotherlandEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a retreat goes on without asking (8.5.1, a sole hex: ``retreat_forced``)
    and then its listing read each unit's hexes on the same position: asked once, kept
    for the listing (issue 35: asking them twice was 3.3 M instructions of a receive).
    Every time it runs along a seeded game, no unit's or group's hexes are asked twice."""
    from engines.motherland import retreat as rt

    real_hexes, real_forced = rt.retreat_hexes, rt.retreat_forced
    asked: list[tuple[str, ...]] | None = None
    runs: list[list[tuple[str, ...]]] = []

    def hexes(s: MotherlandState, units: list[str], center: str) -> list[str]:
        if asked is not None:
            asked.append((*units, center))
        return real_hexes(s, units, center)

    def forced(s: MotherlandState, t: Any, flow: Any) -> bool:
        nonlocal asked
        asked = []
        try:
            return real_forced(s, t, flow)
        finally:
            runs.append(asked)
            asked = None

    monkeypatch.setattr(rt, "retreat_hexes", hexes)
    monkeypatch.setattr(rt, "retreat_forced", forced)
    from engines.motherland.steps import attack as steps_combat
    monkeypatch.setattr(steps_combat, "retreat_forced", forced)
    s = engine.new_state("4-uranus")
    for _ in decisions(s, Chooser("zoc/4-uranus/2"), 700):
        pass
    assert sum(len(r) > 2 for r in runs) >= 3, runs
    for r in runs:
        assert len(set(r)) == len(r), r


def test_5_2_1_a_hexs_country_without_the_soviet_unions_hexes(
        engine: MotherlandEngine, rules_engine: MotherlandEngine) -> None:
    """The country of every hex, and the hexes each side and nation may not enter
    (5.2.1, Turkey in the war or not), as from the table of every country's hexes."""
    from engines.motherland.const import AXIS, SOVIET
    from engines.motherland.terrain import barred_countries, may_enter_country

    for fresh in _each_engine(engine, rules_engine):
        data = fresh.data
        for h in data.hexmap.ids:
            assert data.country_of(h) == data.country.get(h, "soviet_union"), h
        s = fresh.new_state("4-uranus")
        assert isinstance(s, MotherlandState)
        nations: dict[tuple[str, str], str] = {}
        for uid, c in sorted(data.counters.items()):
            nations.setdefault((c.side, c.nation), uid)
        assert len(nations) >= 5 and {side for side, _ in nations} == {AXIS, SOVIET}
        for turkey in (False, True):
            s.pos.turkey = turkey
            s._pcache.clear()
            for uid in nations.values():
                whole = frozenset(h for h in data.country
                                  if not may_enter_country(s, uid, h))
                assert barred_countries(s, uid) == whole, (uid, turkey)


#: a game's turn in a fresh process: listed, named, digested, then cloned
_LISTED_THEN_CLONED = """
import json, sys
from engines.motherland import ENGINE
s = ENGINE.restore(json.loads(sys.stdin.read()))
assert s.legal_actions() and s.counters("axis") and s.digest()
before = "pbem.typedcopy" in sys.modules
twin = s.clone()
assert twin.digest() == s.digest() and twin.legal_actions() == s.legal_actions()
print(json.dumps([before, "pbem.typedcopy" in sys.modules]))
"""


def test_a_listing_or_a_clone_loads_no_typed_copier(engine: MotherlandEngine) -> None:
    """A legal listing or a receive makes no clone of the position, and a clone copies
    its frames' arguments by hand: the typed copier is never loaded (issue 35: 0.63 M
    instructions to load, 2.7 M with its copiers derived)."""
    at = list(decisions(engine.new_state("4-uranus"), Chooser("zoc/4-uranus/1"), 60))[-1]
    loaded = json.loads(fresh_run(_LISTED_THEN_CLONED, json.dumps(at.snapshot()))[-1])
    assert loaded == [False, False]


#: a retreat's listing in a fresh process whose data cache holds the map: whether the map
#: decoded its whole hexside and area tables
_RETREAT_KEPT_MAP = """
import json, sys
from pathlib import Path
from pbem import datacache
given = json.loads(sys.stdin.read())
datacache.configure(Path(given["cache"]))
from engines.motherland import ENGINE
s = ENGINE.restore(given["snapshot"])
assert s.decision().kind == "retreat-choice"
listed = [str(a) for a in s.legal_actions()]
hm = s.data.hexmap
s.apply(s.legal_actions()[0])
print(json.dumps([listed, "hexsides" in hm.__dict__, "areas" in hm.__dict__,
                  "engines.hexkit.tables" in sys.modules,
                  "engines.motherland.combat" in sys.modules]))
"""


def test_8_6_a_retreat_listed_on_a_kept_map_decodes_no_hexside_or_area_table(
        engine: MotherlandEngine, tmp_path: Any) -> None:
    """With the map read back from the data cache, as every command of a player's home
    reads it, a retreat's hexsides (8.6.4) and its hexes' countries (5.2.1) come from
    those hexes' own records (issue 35: 3.3 M instructions of act, legal and receive);
    the moves listed are the ones listed on a map built from its file.  A retreat made
    loads no kit table (the kit's CRTs and charts: this game's are its own data)."""
    s = engine.new_state("4-uranus")
    for at in decisions(s, Chooser("zoc/4-uranus/1"), 700):
        decision = at.decision()
        if decision is not None and decision.kind == "retreat-choice":
            break
    else:
        raise AssertionError("no retreat in 700 steps")
    given = json.dumps({"cache": str(tmp_path), "snapshot": at.snapshot()})
    fresh_run(_RETREAT_KEPT_MAP, given)  # the first fills the cache
    listed, hexsides, areas, tables, combat = json.loads(
        fresh_run(_RETREAT_KEPT_MAP, given)[-1])
    assert listed == [str(a) for a in at.legal_actions()] and listed
    assert (hexsides, areas) == (False, False)
    # nor did loading the data and a retreat made load the kit's tables (the game's are
    # its own data's: 2.2 M instructions), nor the combat rules, which a retreat that
    # costs no step (8.6.2, 8.6.3) uses none of (0.85 M)
    assert tables is False
    assert combat is False
