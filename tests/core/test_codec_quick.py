"""The codec's quick decoders read what the path-naming ones read, and refuse the same
(issue 35).

:func:`pbem.codec.from_data` reads a snapshot first with decoders that build no error
path, and on any refusal reads it again with the decoders that name the fault.  So the
quick read may refuse more than the full one (the full read then decides), never less:
data the full read refuses must never come back as a value, since a turn file from an
attacker is read this way.  The full read is the oracle here, at every position of seeded
games of every engine, and over the same data damaged one value at a time.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import random
from fractions import Fraction
from typing import Any

import pytest

from pbem import codec
from pbem.engine import Engine
from pbem.errors import FormatError
from pbem.registry import engines
from pbem.steps import StepState
from pbem.testing import Chooser


class _Sub(int):
    """An int subclass: msgpack would write it as an int, the codec refuses it."""


def _full(cls: Any, data: Any, where: str = "position") -> tuple[str, Any]:
    try:
        return "value", codec._decoder(cls)(data, where)
    except FormatError as error:
        return "refused", str(error)


def _agree(cls: Any, data: Any, where: str = "position") -> str:
    """Check the quick read against the full one on ``data``; which way it went."""
    full = _full(cls, data, where)
    try:
        quick, read = codec._quick(cls)(data), True
    except Exception:  # the quick read may refuse anything; from_data then reads it fully
        quick, read = None, False
    if read:
        assert full[0] == "value", f"the quick read accepted what the full one refuses: {full}"
        assert quick == full[1]
        assert codec.to_data_of(cls, quick) == codec.to_data_of(cls, full[1])
    try:
        got = "value", codec.from_data(cls, data, where)
    except FormatError as error:
        got = "refused", str(error)
    assert got == full
    return full[0] if read or full[0] == "refused" else "full only"


def _frames(state: StepState) -> list[tuple[Any, Any]]:
    return [(state.steps[f[0]].Args, f[2]) for f in state.stack_data() if f[0] in state.steps]


# -- every engine's snapshots along seeded games ----------------------------------------------


def _scenarios() -> list[tuple[str, str]]:
    return [(e.id, s.id) for e in engines().values() for s in e.scenarios()]


def _walk(engine: Engine, scenario: str, seed: int, steps: int) -> list[tuple[Any, Any]]:
    """The (type, data) of the position and of every frame's arguments at each position
    of a seeded game."""
    state = engine.new_state(scenario, engine.resolve_options({}))
    assert isinstance(state, StepState)
    choose = Chooser(f"codec-quick/{engine.id}/{scenario}/{seed}")
    seen: list[tuple[Any, Any]] = []
    for _ in range(steps):
        body = state.snapshot()["body"]
        seen.append((state.Position, body["position"]))
        seen.extend(_frames(state))
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            legal = state.legal_actions()
            state.apply(legal[choose.below(len(legal))])
    return seen


@pytest.mark.parametrize(("engine_id", "scenario"), _scenarios())
def test_quick_reads_every_snapshot_as_the_full_read(engine_id: str, scenario: str) -> None:
    seen = _walk(engines()[engine_id], scenario, 1, 60)
    ways = [_agree(cls, data) for cls, data in seen]
    # every snapshot the engine wrote is read by the quick decoders, not handed on
    assert set(ways) == {"value"}, ways


@pytest.mark.parametrize(("engine_id", "scenario"), _scenarios())
def test_damaged_snapshots_are_refused_with_the_full_reads_words(
        engine_id: str, scenario: str) -> None:
    seen = _walk(engines()[engine_id], scenario, 2, 30)
    rng = random.Random(f"{engine_id}/{scenario}")
    refused = 0
    for _ in range(160):
        cls, data = seen[rng.randrange(len(seen))]
        damaged = _damage(data, rng)
        if damaged is not None:
            refused += _agree(cls, damaged) == "refused"
    assert refused > 40, refused


# -- damage, one value at a time --------------------------------------------------------------


def _spots(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``data`` (a path of keys and indexes), the root included."""
    out = [path]
    if isinstance(data, dict):
        for key in data:
            out.extend(_spots(data[key], (*path, key)))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            out.extend(_spots(item, (*path, i)))
    return out


def _replacements(value: Any) -> list[Any]:
    if type(value) is bool:
        return [int(value), None, "yes"]
    if type(value) is int:
        return [bool(value & 1), _Sub(value), float(value), str(value), None, [value]]
    if type(value) is str:
        return [len(value), value.encode(), None, value + "\u0000bogus", [value]]
    if value is None:
        return [0, "", [], {}]
    if type(value) is dict:
        out: list[Any] = [list(value.items()), {**value, "zz_unknown": 1}]
        if value:
            first = next(iter(value))
            out.append({k: v for k, v in value.items() if k != first})
            out.append({**value, first: None})
        return out
    if type(value) is list:
        out = [tuple(value), {}, [*value, value[-1]] if value else [1]]
        if len(value) >= 2:
            out.append([value[1], value[0], *value[2:]])  # unsorted
            out.append([value[0], value[0], *value[2:]])  # duplicated
            out.append(value[:-1])
            if all(type(x) is int for x in value[:2]):
                out.append([value[0] * 2, value[1] * 2, *value[2:]])  # a fraction's terms
        return out
    return [None]


def _damage(data: Any, rng: random.Random) -> Any:
    spots = _spots(data)
    path = spots[rng.randrange(len(spots))]
    damaged = copy.deepcopy(data)
    if not path:
        choices = _replacements(damaged)
        return choices[rng.randrange(len(choices))]
    parent = damaged
    for key in path[:-1]:
        parent = parent[key]
    choices = _replacements(parent[path[-1]])
    parent[path[-1]] = choices[rng.randrange(len(choices))]
    return damaged


# -- a type of every form the codec reads -----------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Rank(enum.Enum):
    LOW = 1
    HIGH = 2


class Lenient(enum.Enum):
    ONE = "one"

    @classmethod
    def _missing_(cls, value: object) -> Lenient | None:
        return cls.ONE if value == "ONE" else None


@dataclasses.dataclass(frozen=True)
class Leaf:
    hex: str
    steps: int
    spent: bool


@dataclasses.dataclass
class Marked:
    """A record whose every field has one data type, one of them not plain."""

    hex: str
    steps: int
    marks: set[str]


@dataclasses.dataclass
class Tree:
    name: str
    colour: Colour
    rank: Rank
    odds: Fraction
    tags: frozenset[str]
    seen: set[int]
    leaves: dict[str, Leaf]
    counts: dict[str, int]
    placed: dict[tuple[int, int], Leaf]
    at: tuple[int, int]
    path: tuple[str, ...]
    log: list[Leaf]
    maybe: Leaf | None
    lenient: Lenient
    anything: Any
    marked: list[Marked]
    _cache: int = 0
    derived: int = dataclasses.field(default=0, init=False)


def _tree() -> Tree:
    return Tree(name="t", colour=Colour.BLUE, rank=Rank.HIGH, odds=Fraction(2, 3),
                tags=frozenset({"b", "a", "cc"}), seen={-1, 0, 7, 300},
                leaves={"x": Leaf("0101", 2, False), "y": Leaf("0202", 1, True)},
                counts={"a": 1}, placed={(1, 2): Leaf("0102", 3, False)}, at=(4, 5),
                path=("p", "q"), log=[Leaf("0303", 0, True)], maybe=None,
                lenient=Lenient.ONE, anything={"k": [1]},
                marked=[Marked("0101", 1, set()), Marked("0202", 2, {"b", "a"})])


def test_every_form_reads_the_same_both_ways() -> None:
    data = codec.to_data(_tree())
    assert _agree(Tree, data) == "value"
    assert codec.from_data(Tree, data) == _tree()
    rng = random.Random("codec-quick/tree")
    ways = [_agree(Tree, _damage(data, rng), "tree") for _ in range(600)]
    assert ways.count("refused") > 300


@pytest.mark.parametrize(("field", "value", "message"), [
    ("odds", [4, 6], "tree.odds: fraction 4/6 is not in lowest terms"),
    ("odds", [True, 3], "tree.odds: expected [numerator, denominator], got list [True, 3]"),
    ("colour", "green", "tree.colour: expected one of 'red', 'blue', got str 'green'"),
    ("rank", 1.0, None),  # Rank(1.0) is Rank.LOW, both ways
    ("rank", True, None),  # and so is Rank(True)
    ("tags", ["b", "a", "cc"], "tree.tags: a set must be listed once each, in canonical order"),
    ("tags", ["a", "a", "b", "cc"],
     "tree.tags: a set must be listed once each, in canonical order"),
    ("seen", [True, 0, 7, 300], "tree.seen[0]: expected int, got bool True"),
    ("leaves", {"x": {"hex": "0101", "steps": _Sub(2), "spent": False}},
     "tree.leaves['x'].steps: expected int, got _Sub 2"),
    ("leaves", {"x": {"hex": "0101", "steps": 2}},
     "tree.leaves['x']: Leaf fields differ (missing ['spent'], unknown [])"),
    ("leaves", {"x": {"hex": "0101", "steps": 2, "spend": False}},
     "tree.leaves['x']: Leaf fields differ (missing ['spent'], unknown ['spend'])"),
    ("leaves", {"x": {"hex": "0101", "steps": 2, "spent": False},
                "y": {"spent": True, "steps": 1, "hex": "0202"}}, None),  # any field order
    ("maybe", {"spent": True, "steps": 1, "hex": "0202"}, None),
    ("maybe", {"spent": True, "steps": 1, "hex": 2}, "tree.maybe.hex: expected str, got int 2"),
    ("marked", [{"hex": "0101", "steps": 1, "marks": ["b", "a"]}],
     "tree.marked[0].marks: a set must be listed once each, in canonical order"),
    ("marked", [{"hex": "0101", "steps": 1, "marks": {}}],
     "tree.marked[0].marks: expected a list, got dict {}"),
    ("marked", [{"hex": "0101", "steps": True, "marks": []}],
     "tree.marked[0].steps: expected int, got bool True"),
    ("marked", [{"hex": "0101", "step": 1, "marks": []}],
     "tree.marked[0]: Marked fields differ (missing ['steps'], unknown ['step'])"),
    ("marked", [{"hex": "0101", "steps": 1, "marks": [3]}],
     "tree.marked[0].marks[0]: expected str, got int 3"),
    ("marked", [{"marks": ["a"], "steps": 1, "hex": "0101"},
                {"hex": "0101", "steps": 1, "marks": ["a", "b"]}], None),
    ("leaves", {"x": {"hex": "0101", "steps": 2, "spent": 0}},
     "tree.leaves['x'].spent: expected bool, got int 0"),
    ("counts", {"a": True}, "tree.counts['a']: expected int, got bool True"),
    ("placed", [[[1, 2], {"hex": "a", "steps": 1, "spent": False}],
                [[1, 2], {"hex": "b", "steps": 1, "spent": False}]],
     "tree: a key is listed twice"),
    ("at", [4], "tree.at: expected a list of 2, got list [4]"),
    ("path", ["p", 3], "tree.path[1]: expected str, got int 3"),
    ("maybe", {"hex": 1, "steps": 1, "spent": False}, "tree.maybe.hex: expected str, got int 1"),
    ("lenient", "ONE", None),  # the enum's own _missing_ reads it: the full read decides
    ("derived", 1, "tree: Tree fields differ (missing [], unknown ['derived'])"),
])
def test_damage_is_refused_in_the_full_reads_words(
        field: str, value: Any, message: str | None) -> None:
    data = {**codec.to_data(_tree()), field: value}
    if field == "placed":
        message = "tree.placed: a key is listed twice"
    full = _full(Tree, data, "tree")
    assert full[0] == ("value" if message is None else "refused")
    if message is not None:
        assert full[1] == message
        with pytest.raises(FormatError) as raised:
            codec.from_data(Tree, data, "tree")
        assert str(raised.value) == message
    else:
        assert codec.from_data(Tree, data, "tree") == full[1]
    _agree(Tree, data, "tree")


def test_a_sound_snapshot_never_builds_an_error_path(monkeypatch: pytest.MonkeyPatch) -> None:
    data = codec.to_data(_tree())
    codec._quick(Tree)(data)  # resolved once, as a process reads its first snapshot

    def refused(tp: Any) -> Any:
        raise AssertionError("the path-naming decoders read sound data")
    monkeypatch.setattr(codec, "_decoder", refused)
    assert codec.from_data(Tree, data) == _tree()
    engine = engines()["mortain"]
    state = engine.new_state(engine.scenarios()[0].id, engine.resolve_options({}))
    assert isinstance(state, StepState)
    body = state.snapshot()["body"]
    assert codec.to_data(codec.from_data(state.Position, body["position"])) == body["position"]
