"""4.1 asked of one hex (``MotherlandState.in_zoc``) answers as the side's whole ZOC map
does (``zoc``), and a retreat's listing (8.6.1, 8.6.2) asks it hex by hex without mapping
the enemy's ZOC (issue 35: that map was a quarter of the listing)."""

from __future__ import annotations

import json

from engines.motherland import MotherlandEngine
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.state import MotherlandState
from pbem.testing import Chooser, decisions, fresh_run

from .conftest import position


def agrees(s: MotherlandState) -> None:
    """Every hex of the map, each side: the one-hex answer on a fresh clone (no map kept)
    is membership of the map made afterwards."""
    c = s.clone()
    assert isinstance(c, MotherlandState)
    for side in (AXIS, SOVIET):
        alone = {h for h in c.data.hexmap.ids if c.in_zoc(side, h)}
        assert ("zoc", side) not in c._cache
        assert alone == c.zoc(side), side
        # once the map is made, it answers
        assert all(c.in_zoc(side, h) == (h in alone) for h in c.data.hexmap.ids)


def test_4_1_blocking_hexsides_water_and_units_without_a_zoc(
        rules_engine: MotherlandEngine) -> None:
    """The rules map's sea hexside (1010/1011), the Chongar rail bridge (1111/1112, 16.7)
    and its sea hexes (0505, 0506); a Supply Base exerts none (4.1)."""
    for units, blocked in (({"9K": "1010", "5A": "1220"}, "1011"),
                           ({"41Pz": "1111", "5A": "1220"}, "1112")):
        s = position(rules_engine, 3, "move", "axis", units)
        assert s.zoc(AXIS) == {h for h in s.data.hexmap.ids if s.in_zoc(AXIS, h)}
        assert not s.in_zoc(AXIS, blocked) and blocked not in s.zoc(AXIS)
        agrees(s)
    s = position(rules_engine, 3, "move", "axis", {"11K": "0405", "SB1": "1420", "5A": "1220"})
    assert not s.in_zoc(AXIS, "0505")  # a sea hex: a ZOC covers land only
    assert s.in_zoc(AXIS, "0404") and s.ezoc(SOVIET, "0404") and not s.ezoc(AXIS, "0404")
    assert not s.in_zoc(AXIS, "1421")  # the Supply Base's neighbour
    assert s.in_zoc(SOVIET, "1221") and not s.in_zoc(SOVIET, "1421")
    agrees(s)


def test_4_1_one_hex_agrees_with_the_map_along_seeded_games(
        engine: MotherlandEngine) -> None:
    """Along seeded games of Operation Uranus (combats, retreats and advances every turn)
    and Barbarossa's first moves, every so many decisions, every hex."""
    retreats = 0
    for scenario, seed, steps in (("4-uranus", 1, 700), ("4-uranus", 2, 700),
                                  ("1-barbarossa", 3, 120)):
        s = engine.new_state(scenario)
        assert isinstance(s, MotherlandState)
        for n, at in enumerate(decisions(s, Chooser(f"zoc/{scenario}/{seed}"), steps)):
            assert isinstance(at, MotherlandState)
            decision = at.decision()
            if decision is not None and decision.kind == "retreat-choice":
                retreats += 1
                agrees(at)
                # the listing reads the enemy's ZOC around the retreating units only
                c = at.clone()
                assert isinstance(c, MotherlandState)
                assert c.legal_actions() == at.legal_actions()
                assert ("zoc", AXIS) not in c._cache and ("zoc", SOVIET) not in c._cache
            elif n % 97 == 0:
                agrees(at)
    assert retreats >= 3


#: a retreat's listing, in a fresh process: what it loads of the rules a retreat made runs
_RETREAT_LISTED = """
import json, sys
from engines.motherland import ENGINE
s = ENGINE.restore(json.loads(sys.stdin.read()))
assert s.decision().kind == "retreat-choice" and s.legal_actions()
s.counters("axis")
print(json.dumps(sorted(m for m in ("engines.motherland.victory", "engines.motherland.view",
                                     "engines.hexkit.zoc", "engines.hexkit.facts",
                                     "engines.motherland.combat", "pbem.memo")
                   if m in sys.modules)))
"""


def test_8_6_a_retreat_listed_loads_neither_city_control_nor_the_zoc_map(
        engine: MotherlandEngine) -> None:
    """Listing a retreat (8.6.1) reads no city control (19.1: claimed by a retreat made),
    no board view, no whole-map ZOC and no board facts of the units' placement (which
    hexes hold units and which exert a ZOC are read off the units: the kit's facts
    module and its memo were 2.8 M instructions of a legal), and no combat rule (8.0-8.5,
    1 M) (issue 35: each module a turn command loads costs it 0.4-1 M instructions)."""
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    for at in decisions(s, Chooser("zoc/4-uranus/1"), 700):
        decision = at.decision()
        if decision is not None and decision.kind == "retreat-choice":
            break
    else:
        raise AssertionError("no retreat in 700 steps")
    loaded = json.loads(fresh_run(_RETREAT_LISTED, json.dumps(at.snapshot()))[-1])
    assert loaded == []
