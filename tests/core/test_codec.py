"""pbem.codec: a typed position's canonical data form, derived from its fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import pytest

from pbem import canonical, codec
from pbem.errors import FormatError


class Mode(Enum):
    MOVE = "move"
    FIRE = "fire"


@dataclass(frozen=True)
class Unit:
    hex: str
    steps: int
    mp: Fraction
    marks: frozenset[str] = frozenset()


@dataclass
class Pos:
    turn: int
    mode: Mode
    units: dict[str, Unit]
    by_hex: dict[int, tuple[str, ...]]
    blown: set[str]
    leader: str | None = None
    pair: tuple[int, str] = (0, "")
    _cache: dict[str, int] = field(default_factory=dict)


def sample() -> Pos:
    return Pos(3, Mode.FIRE,
               {"g1": Unit("0402", 2, Fraction(3, 2), frozenset({"out", "disrupted"})),
                "s7": Unit("0503", 1, Fraction(4))},
               {503: ("s7",), 402: ("g1",)}, {"1720", "0911", "1001"}, None, (2, "x"),
               {"ignored": 1})


def test_round_trip_through_canonical_bytes() -> None:
    pos = sample()
    data = canonical.decode(canonical.encode(codec.to_data(pos)))
    back = codec.from_data(Pos, data)
    assert back.units == pos.units and back.by_hex == pos.by_hex and back.blown == pos.blown
    assert (back.turn, back.mode, back.leader, back.pair) == (3, Mode.FIRE, None, (2, "x"))
    assert back._cache == {}  # caches are not part of the position


def test_forms_are_canonical() -> None:
    data = codec.to_data(sample())
    assert data["mode"] == "fire"
    assert data["units"]["g1"]["mp"] == [3, 2]
    assert data["units"]["g1"]["marks"] == ["out", "disrupted"]  # by canonical bytes
    assert data["blown"] == ["0911", "1001", "1720"]
    assert data["by_hex"] == [[402, ["g1"]], [503, ["s7"]]]  # non-str keys: sorted pairs
    assert "_cache" not in data
    # the same position built in another order encodes to the same bytes
    other = sample()
    other.blown = {"1001", "1720", "0911"}
    other.by_hex = dict(reversed(list(other.by_hex.items())))
    assert canonical.encode(codec.to_data(other)) == canonical.encode(data)


@pytest.mark.parametrize(("path", "value", "message"), [
    (("turn",), "3", r"position\.turn: expected int, got str"),
    (("mode",), "walk", r"position\.mode: expected one of 'move', 'fire'"),
    (("units", "g1", "mp"), [6, 4], r"position\.units\['g1'\]\.mp: fraction 6/4 is not in "
                                    "lowest terms"),
    (("units", "g1", "mp"), [1, 0], r"expected \[numerator, denominator\]"),
    (("blown",), ["1720", "0911"], r"position\.blown: a set must be listed once each"),
    (("blown",), ["0911", "0911"], r"position\.blown: a set must be listed once each"),
    (("by_hex",), [[1, ["a"]], [1, ["b"]]], r"position\.by_hex: a key is listed twice"),
    (("units", "g1"), {"hex": "0402"}, r"Unit fields differ \(missing \['marks', 'mp'"),
    (("turn",), True, r"expected int, got bool"),
])
def test_bad_data_is_refused_naming_the_field(path: tuple[str, ...], value: object,
                                              message: str) -> None:
    data = codec.to_data(sample())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(FormatError, match=message):
        codec.from_data(Pos, data)


def test_types_without_a_canonical_form_are_refused() -> None:
    @dataclass
    class Bad:
        x: float

    with pytest.raises(TypeError, match="no canonical form"):
        codec.to_data(Bad(1.5))


@dataclass
class Leaf:  # used by no other test: its coders are first built below
    n: int


@dataclass
class Holder:
    leaves: dict[str, Leaf]
    row: list[Leaf]


def test_a_dataclass_inside_a_container_reads_its_type_hints_once(monkeypatch):
    """A container built before its item dataclass's first use keeps the item's lazy coder;
    that coder must resolve the hints once, not on every call (a census game spent 29 s
    instead of 3.9 s reading them again), and still give the same data."""

    calls: list[type] = []
    real = codec._fields

    def counting(cls: type) -> list[tuple[str, object]]:
        calls.append(cls)
        return real(cls)

    monkeypatch.setattr(codec, "_fields", counting)
    value = Holder({"a": Leaf(1), "b": Leaf(2)}, [Leaf(3), Leaf(4)])
    counts = []
    for _ in range(3):
        data = codec.to_data(value)
        assert codec.from_data(Holder, data) == value
        counts.append((calls.count(Leaf), calls.count(Holder)))
    assert data == {"leaves": {"a": {"n": 1}, "b": {"n": 2}}, "row": [{"n": 3}, {"n": 4}]}
    # asked while each coder is built (the encoder, and the quick decoder's two looks at
    # the class), however many leaves, and never again on later calls
    assert counts[0] == counts[2] and counts[0][0] <= 3 and counts[0][1] <= 3


def test_a_dataclass_hints_are_resolved_once_for_every_coder(monkeypatch) -> None:
    """The encoder, the decoder, the canonical form and the canonical bytes of a class all
    read its fields; typing.get_type_hints compiles and evaluates each string annotation
    at every call, so the class's hints are resolved once a process (issue 35), and every
    coder gives what it gave."""

    @dataclass(frozen=True)
    class Once:
        n: int
        tag: str

    resolved: list[type] = []
    real = codec.type_hints

    def counting(cls: type) -> dict[str, object]:
        resolved.append(cls)
        return real(cls)

    monkeypatch.setattr(codec, "type_hints", counting)
    value = Once(3, "x")
    assert codec.to_data(value) == {"n": 3, "tag": "x"}
    assert codec.from_data(Once, {"n": 3, "tag": "x"}) == value
    assert codec.to_canonical(value, 0) == {"n": 3, "tag": "x"}
    assert codec.to_canonical_bytes(value, 0) == canonical.encode({"n": 3, "tag": "x"})
    assert resolved.count(Once) == 1
