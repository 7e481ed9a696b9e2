"""Backhand Blow reads a snapshot's units itself where each is exactly what the codec
takes for a unit (issue 35: the codec's per-field decoding was most of a restore, which
every turn command does once), and leaves anything else to the codec: a restored game is
the position the codec reads, and a snapshot the codec refuses is refused with the same
words."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from engines.backhand import ENGINE
from engines.backhand.position import Position, Unit
from pbem import codec
from pbem.errors import FormatError
from pbem.testing import Chooser, decisions


def _positions() -> list[dict[str, Any]]:
    """Snapshots along a seeded game of each scenario: set-up, movement, combat, losses."""
    out = []
    for scenario in ENGINE.scenarios():
        s = ENGINE.new_state(scenario.id, ENGINE.resolve_options({}))
        for n, st in enumerate(decisions(s, Chooser(f"bb-restore/{scenario.id}"), 160)):
            if n % 8 == 0:
                out.append(st.snapshot())
    return out


def test_a_restored_position_is_the_one_the_codec_reads() -> None:
    snapshots = _positions()
    assert len(snapshots) > 20
    for snap in snapshots:
        body = snap["body"]
        state = ENGINE.restore(snap)
        assert state.pos == codec.from_data(Position, body["position"])
        assert list(state.pos.units) == list(body["position"]["units"])
        assert all(type(u) is Unit for u in state.pos.units.values())
        assert state.snapshot() == snap


#: near misses of a saved unit: each refused by the codec
MISSES = {
    "steps a boolean": lambda u: u.update(steps=True),
    "steps a string": lambda u: u.update(steps="2"),
    "oos_turns a boolean": lambda u: u.update(oos_turns=False),
    "at a number": lambda u: u.update(at=2510),
    "moved a number": lambda u: u.update(moved=1),
    "replaced nothing": lambda u: u.update(replaced=None),
    "a field missing": lambda u: u.pop("refit"),
    "a field more": lambda u: u.update(hidden=False),
}


@pytest.mark.parametrize("miss", sorted(MISSES))
def test_a_unit_the_codec_refuses_is_refused_with_its_words(miss: str) -> None:
    snap = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({})).snapshot()
    bad = copy.deepcopy(snap)
    units = bad["body"]["position"]["units"]
    MISSES[miss](units[sorted(units)[-1]])  # the last unit: every other one reads
    with pytest.raises(FormatError) as expected:
        codec.from_data(Position, bad["body"]["position"])
    with pytest.raises(FormatError) as got:
        ENGINE.restore(bad)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("units", [[], "units", {"LAH-1": ["2510", 3]}])
def test_units_not_a_map_of_maps_are_refused_as_the_codec_refuses_them(units: Any) -> None:
    snap = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({})).snapshot()
    bad = copy.deepcopy(snap)
    bad["body"]["position"]["units"] = units
    with pytest.raises(FormatError) as expected:
        codec.from_data(Position, bad["body"]["position"])
    with pytest.raises(FormatError) as got:
        ENGINE.restore(bad)
    assert str(got.value) == str(expected.value)


def test_a_restore_reads_the_units_without_the_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    snap = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({})).snapshot()
    read = []
    real = codec.from_data

    def spy(cls: Any, data: Any, where: str = "position") -> Any:
        if cls is Position:
            read.append(len(data["units"]))
        return real(cls, data, where)
    monkeypatch.setattr(codec, "from_data", spy)
    assert len(ENGINE.restore(snap).pos.units) > 100
    # issue 35: nor the rest of the position (position_from_data), so a command never
    # builds the codec's reader of a Position
    assert read == []


#: near misses of a saved position's other fields: each refused by the codec
POSITION_MISSES = {
    "turn a boolean": lambda p: p.update(turn=True),
    "turn a string": lambda p: p.update(turn="3"),
    "weather a number": lambda p: p.update(weather=1),
    "historical a number": lambda p: p.update(historical=0),
    "a C3I count a boolean": lambda p: p.update(c3i={**p["c3i"], "soviet": True}),
    "a front's hex a number": lambda p: p.update(fronts={**p["fronts"], "voronezh": 3800}),
    "the cup a map": lambda p: p.update(cup={}),
    "a cup chit a number": lambda p: p.update(cup=[*p["cup"], 7]),
    "a side's chits a string": lambda p: p.update(chits={**p["chits"], "german": "x"}),
    "a chit a number": lambda p: p.update(chits={**p["chits"], "german": [1]}),
    "replacements a list": lambda p: p.update(replacements=[]),
    "a field missing": lambda p: p.pop("seg_over"),
    "a field more": lambda p: p.update(hidden=False),
}


@pytest.mark.parametrize("miss", sorted(POSITION_MISSES))
def test_a_position_the_codec_refuses_is_refused_with_its_words(miss: str) -> None:
    snap = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({})).snapshot()
    bad = copy.deepcopy(snap)
    POSITION_MISSES[miss](bad["body"]["position"])
    with pytest.raises(FormatError) as expected:
        codec.from_data(Position, bad["body"]["position"])
    with pytest.raises(FormatError) as got:
        ENGINE.restore(bad)
    assert str(got.value) == str(expected.value)


def test_a_restored_position_holds_its_own_copies() -> None:
    """Each map and list of a restored position is its own (as the codec copies them):
    a snapshot restored twice gives two positions that do not change together, and the
    fields stand in the dataclass's order."""
    snap = _positions()[5]
    saved = copy.deepcopy(snap)
    one, two = ENGINE.restore(snap), ENGINE.restore(snap)
    assert list(vars(one.pos)) == [f.name for f in dataclasses.fields(Position)]
    for name in ("fronts", "c3i", "ap", "cup", "chits", "used_chits", "replacements",
                 "ever_soviet", "sov_control", "refit_marks"):
        assert getattr(one.pos, name) is not getattr(two.pos, name)
        assert getattr(one.pos, name) is not snap["body"]["position"][name]
    one.pos.cup.append("x")
    one.pos.chits["german"].append("x")
    one.pos.c3i["soviet"] += 1
    assert two.pos == codec.from_data(Position, saved["body"]["position"])
    assert snap == saved


def test_a_restores_units_are_made_without_their_init_each_its_own_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a restore's 124 units are made with their fields copied in one call,
    not through Unit(**fields) (nine keywords bound and their dict built again); each
    unit made still counts as a placing (the board facts' key), and each holds its own
    copy, so a snapshot restored twice gives two positions that do not move together."""
    from engines.backhand import position

    snap = _positions()[3]
    saved = copy.deepcopy(snap)

    def refused(self: Unit, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("Unit.__init__ called by a restore")

    monkeypatch.setattr(Unit, "__init__", refused)
    before = position.PLACINGS[0]
    one, two = ENGINE.restore(snap), ENGINE.restore(snap)
    count = len(snap["body"]["position"]["units"])
    assert position.PLACINGS[0] == before + 2 * count and count > 100
    monkeypatch.undo()
    assert one.pos == codec.from_data(Position, saved["body"]["position"])
    uid = next(iter(one.pos.units))
    one.pos.units[uid].steps += 1
    assert two.pos.units[uid].steps == one.pos.units[uid].steps - 1
    assert snap == saved
