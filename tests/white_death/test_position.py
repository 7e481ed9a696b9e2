"""Issue 13: White Death's position is typed data (engines/white_death/position.py): its
save form is derived by pbem.codec, and a clone's copy shares nothing that changes."""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.white_death.position import (
    Allocation,
    Arrival,
    Barrage,
    Bunker,
    Combat,
    Final,
    PhaseLoss,
    Position,
    U,
)
from pbem import canonical, codec


def _combat(h: str) -> Combat:
    return Combat(h, "18M", ["art/7"], [Allocation("I/504", "conv", (7, 2))],
                  ["I/277"])


def _everything() -> Position:
    """A position with every field away from its default (so a field a copy dropped or
    mixed up with another would show)."""
    return Position(
        turn=7, phasing="german", mps={"soviet": 3, "german": 4}, impulse_mp=2,
        impulse_left_before=6, impulses={"soviet": 2, "german": 1}, weather="thaw",
        supply={"soviet": 5, "german": 6, "vl": 1}, repl={"soviet": 1, "german": 2},
        rail_used={"soviet": 5, "german": 10}, repaired={"soviet": True, "german": False},
        vl_released=True, vl_avoid=True, bunkers=[Bunker("1207", 3)], bridges={"1209"},
        builders={"eng/1"},
        units={"I/504": U("I/504", "1510", 3, True, 9, True, True, True, "1509",
                          "town", 4, "1610", "german-south", {"barraged", "left-zoc"})},
        garrisons={"garrison/0312"}, schedule=[Arrival(9, "I/SS8", "german-south")],
        assaults={"1610": ["I/504"]}, combat=_combat("1610"), combat_hexes=["1711"],
        plans=[_combat("1711")], paid={"assault:german"},
        bar=Barrage("1812", ["art/7"], {"I/277": 2}),
        barrage_phase={"I/277": PhaseLoss(4, 1)}, advance={"1610": ["I/504"]},
        counts={"rout:1610": 1}, losses={"soviet": 3, "german": 2}, setup_side="soviet",
        setup_raster=["tk/18M"], flieger="rolled", passing="I/504", seq=12,
        final=Final({"soviet": 3, "german": 9}, {"Velikiye Luki": "german"}))


def _mutables(value: Any, found: dict[int, Any]) -> dict[int, Any]:
    """Every mutable object reachable from ``value``, by id."""
    if isinstance(value, (dict, list, set)):
        found[id(value)] = value
        items = list(value.items()) if isinstance(value, dict) else list(value)
        for x in items:
            _mutables(x, found)
    elif isinstance(value, tuple):
        for x in value:
            _mutables(x, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            found[id(value)] = value
        for f in dataclasses.fields(value):
            _mutables(getattr(value, f.name), found)
    return found


def test_every_field_of_the_fixture_is_away_from_its_default() -> None:
    p, default = _everything(), Position()
    for f in dataclasses.fields(Position):
        assert getattr(p, f.name) != getattr(default, f.name), f.name


def test_the_copy_is_equal_and_shares_nothing_mutable() -> None:
    p = _everything()
    c = p.copy()
    assert c == p and codec.to_data(c) == codec.to_data(p)
    shared = _mutables(p, {}).keys() & _mutables(c, {}).keys()
    assert not shared, [type(_mutables(p, {})[k]).__name__ for k in shared]


def test_the_save_form_is_derived_and_round_trips() -> None:
    p = _everything()
    data = codec.to_data(p)
    assert canonical.encode(data)  # canonical data: no floats, sorted sets
    assert data["units"]["I/504"]["spent"] == 9  # 1 1/2 MPs in ticks (MP_TICKS, 0.8)
    assert data["bunkers"] == [{"hex": "1207", "strength": 3}]
    assert data["combat"]["alloc"] == [{"target": "I/504", "kind": "conv", "amount": [7, 2]}]
    assert data["bar"]["loss"] == {"I/277": 2}
    assert codec.from_data(Position, data) == p
    assert codec.to_data(Position())["combat"] is None
