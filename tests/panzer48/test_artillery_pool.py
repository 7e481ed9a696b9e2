"""48th Panzer Korps: the artillery that may support an attack (7.6) found among the
side's guns alone (Data.artillery), not by a sorted pass over every unit on the map (65 K
instructions of a declare-attack click's listing, issue 35): the same guns, in the same
order, as that pass gives, along seeded games."""

from __future__ import annotations

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.combat import artillery_pool
from engines.panzer48.data import SIDES
from engines.panzer48.state import P48State
from pbem.testing import Chooser, decisions


def by_every_unit(s: P48State, side: str, hexes: list[str], used: list[str]) -> list[str]:
    """7.6 as the pool was first written: every unit of the side on the map, in id order."""
    c = s.fight()
    out = []
    for u in s.on_map(side):
        info, x = s.d.units[u], s.pos.units[u]
        if info.fire != "art" or u in used or x.retreated or u in c.fired:
            continue
        if info.formation == "7lw" and not s.pos.released:
            continue
        ds = [s.d.map.distance(x.hex, h) for h in hexes]
        if ds and min(ds) > 1 and min(ds) <= info.range:
            out.append(u)
    return sorted(out)


def test_the_side_s_guns_are_every_art_unit() -> None:
    d = ENGINE.new_state("chir").d
    for side in SIDES:
        assert list(d.artillery[side]) == [u for u, i in d.units.items()
                                           if i.side == side and i.fire == "art"]


def test_the_pool_is_the_pass_over_every_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = found = 0
    for scenario, seed in (("chir", 21), ("first-day", 22), ("chir", 23)):
        for s in decisions(ENGINE.new_state(scenario), Chooser(f"artillery/{seed}"), 400):
            assert isinstance(s, P48State)
            c = s.pos.combat
            if c is None:
                continue
            hexes = sorted({c.hex, *(s.pos.units[u].hex for u in c.defenders)} - {""})
            for side in SIDES:
                for used in ([], list(c.support), sorted(s.d.artillery.get(side, ()))[:1]):
                    want = by_every_unit(s, side, hexes, used)
                    with monkeypatch.context() as m:
                        m.setattr(P48State, "on_map", lambda *a: pytest.fail("on_map asked"))
                        assert artillery_pool(s, side, hexes, used) == want, (side, used)
                    asked += 1
                    found += bool(want)
    assert asked > 100 and found > 10, (asked, found)
