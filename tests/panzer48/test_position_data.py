"""48th Panzer Korps: the position read from a save and written for the digest by hand
(engines.panzer48.position.read_position / position_data), not through pbem.codec's
type-hint coders: 4.6 M instructions a restore and 3.2 M a digest of every legal, act and
receive (issue 35).  What they read and write must be the codec's to the byte, and what
they do not know exactly they leave to the codec, which reads, writes or refuses it as it
always did."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.position import Position, position_data, read_position
from engines.panzer48.state import P48State
from pbem import canonical, codec
from pbem.errors import FormatError
from pbem.steps import StepState
from pbem.testing import Chooser, decisions


def positions() -> Iterator[P48State]:
    """Positions along seeded games of both scenarios, every one with an attack open and
    every tenth of the rest."""
    for scenario, seed in (("chir", 1), ("chir", 2), ("first-day", 3)):
        state = ENGINE.new_state(scenario)
        for n, s in enumerate(decisions(state, Chooser(f"position-data/{seed}"), 400)):
            assert isinstance(s, P48State)
            if s.pos.combat is not None or n % 10 == 0:
                yield s


def as_read(value: Any) -> str:
    """A value's repr, which tells True from 1 (dataclass equality does not)."""
    return repr(value)


def test_the_position_reads_and_writes_as_the_codec_does() -> None:
    seen = {"combat": 0, "fire": 0, "spent": 0}
    for s in positions():
        data = codec.to_data(s.pos)
        mine = read_position(data)
        assert mine is not None
        assert as_read(mine) == as_read(codec.from_data(Position, data))
        written = position_data(s.pos)
        assert written is not None
        assert canonical.pack_normal(written) == codec.to_canonical_bytes(s.pos, 2)
        s._encoded = None
        assert s.normal_body() == StepState.normal_body(s)
        seen["combat"] += s.pos.combat is not None
        seen["fire"] += s.pos.combat is not None and s.pos.combat.fire is not None
        seen["spent"] += any(x.spent != (0, 1) for x in s.pos.units.values())
    assert seen["combat"] > 20 and seen["fire"] and seen["spent"] > 20, seen


def _sample() -> P48State:
    for s in positions():
        c = s.pos.combat
        if c is not None and c.fire is not None:
            return s
    raise AssertionError("no position with a fire under way")


#: what a damaged save may hold in a field: each of the other types the codec tells apart
ODD: tuple[Any, ...] = (True, 0, 1, "1", None, [], ["a"], [1], {}, {"a": 1}, {1: "a"},
                        1.0, b"a", [1, 2], [1, True], (1, 2))


def _places(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in the position's data a value stands (a map's entries, lists'
    items), down to the units' fields."""
    if isinstance(data, dict):
        for k in sorted(data, key=repr):
            yield (*path, k)
            yield from _places(data[k], (*path, k))
    elif isinstance(data, list):
        for i, x in enumerate(data):
            yield (*path, i)
            yield from _places(x, (*path, i))


def _damaged(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    places = list(_places(data))
    # one unit's fields all, and the rest's first field: the units are all alike
    keep = [p for p in places if p[0] != "units" or len(p) < 3 or p[1] == sorted(
        data["units"])[0] or p[2] == "attacked"]
    for place in keep:
        for odd in ODD:
            bad = copy.deepcopy(data)
            at = bad
            for k in place[:-1]:
                at = at[k]
            at[place[-1]] = odd
            yield f"{place} = {odd!r}", bad
        bad = copy.deepcopy(data)
        at = bad
        for k in place[:-1]:
            at = at[k]
        if isinstance(at, dict):
            del at[place[-1]]
            yield f"{place} removed", bad
            at[place[-1]] = at.get(place[-1])
            at["extra"] = 1
            yield f"{place[:-1]} + extra", bad


def test_damaged_data_reads_as_the_codec_reads_it_or_is_left_to_it() -> None:
    """Each field of a position with a fire under way given each other kind of value,
    removed, or joined by a field it does not have: read by hand only where the codec
    reads the same (by repr: True is not 1), else left to the codec (None), and the
    state's restore refuses or reads it as the codec does."""
    s = _sample()
    snap = canonical.decode(canonical.encode(s.snapshot()))
    data = snap["body"]["position"]
    tried = refused = 0
    for what, bad in _damaged(data):
        tried += 1
        mine = read_position(bad)
        try:
            theirs = codec.from_data(Position, bad)
        except (FormatError, TypeError, ValueError) as exc:
            refused += 1
            assert mine is None, what
            snap["body"]["position"] = bad
            with pytest.raises(type(exc)) as got:
                ENGINE.restore(snap)
            if isinstance(exc, FormatError):
                assert str(got.value) == str(exc), what
            continue
        assert mine is None or as_read(mine) == as_read(theirs), what
    assert tried > 1000 and refused > tried // 2, (tried, refused)


def test_a_position_not_of_its_types_is_written_by_the_codec() -> None:
    """A value of another type than its field's (a bool where an int is, a tuple where
    a list is) is no value the hand writer knows: the codec writes the body, the same
    bytes as before."""
    s = _sample()
    for change in ("losses", "moving", "spent", "caps"):
        t = s.clone()
        assert isinstance(t, P48State)
        unit = t.pos.units[sorted(t.pos.units)[0]]
        c = t.pos.combat
        assert c is not None
        if change == "losses":
            unit.losses = True  # type: ignore[assignment]
        elif change == "moving":
            t.pos.moving = tuple(t.pos.moving)  # type: ignore[assignment]
        elif change == "spent":
            unit.spent = [0, 1]  # type: ignore[assignment]
        else:
            c.caps = {c.hex: True}
        assert position_data(t.pos) is None, change
        assert t.normal_body() == StepState.normal_body(t), change


def test_a_turn_reads_and_digests_the_position_without_the_codec(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The restore of a save and the digest of its position go by hand: the codec's
    coders for the position are neither built nor called (they were 7.8 M instructions
    of a receive)."""
    s = _sample()
    snap = canonical.decode(canonical.encode(s.snapshot()))
    asked: list[str] = []
    real_from, real_bytes = codec.from_data, codec.to_canonical_bytes

    def from_data(cls: Any, data: Any, where: str = "position") -> Any:
        asked.append(f"from_data {getattr(cls, '__name__', cls)}")
        return real_from(cls, data, where)

    def to_canonical_bytes(value: Any, depth: int) -> bytes:
        asked.append(f"to_canonical_bytes {type(value).__name__}")
        return real_bytes(value, depth)

    monkeypatch.setattr(codec, "from_data", from_data)
    monkeypatch.setattr(codec, "to_canonical_bytes", to_canonical_bytes)
    again = ENGINE.restore(snap)
    assert again.digest() == s.digest()
    assert not [a for a in asked if a.endswith("Position")], asked


def test_a_unit_written_by_hand_names_each_field_as_the_codec_does() -> None:
    """Each of a unit's twelve fields is written under its own name (the hand writer reads
    them as one row): a unit whose every field differs from every other's, flags set
    one by one, writes what the codec writes for it."""
    from engines.panzer48.position import Unit, _write_unit

    for flag in ("attacked", "failed", "flipped", "halted", "moved", "placed", "retreated"):
        unit = Unit("map", "1021", 2, began="1122", spent=(3, 2))
        setattr(unit, flag, True)
        assert _write_unit(unit) == codec.to_canonical(unit, 2), flag
