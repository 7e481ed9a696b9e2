"""The state digest's typed encoding gives the very bytes of the generic one (issue 35).

``State.encoded`` builds a step engine's body in canonical normal form in one typed pass
(:func:`pbem.codec.to_canonical`) instead of ``codec.to_data`` and then the generic walk
of ``canonical.encode``.  The encoding is signed in every turn file, so not one byte may
change: the generic path, ``canonical.encode(state.snapshot())``, is the oracle here, at
every position of seeded playouts of every For the Motherland! scenario and of the other
engines' scenarios; and a position holding what its types do not promise still gets the
generic path's bytes or its error.
"""

from __future__ import annotations

import dataclasses
import enum
from fractions import Fraction
from typing import Any

import pytest

from engines.motherland import ENGINE as MOTHERLAND
from pbem import canonical, codec
from pbem.engine import Engine, State
from pbem.errors import FormatError
from pbem.registry import engines
from pbem.steps import StepState
from pbem.testing import Chooser


def _fresh_encoding(state: State) -> bytes:
    state._encoded = None
    return state.encoded()


def _walk(engine: Engine, scenario: str, seed: int, steps: int) -> int:
    """Play ``steps`` steps of a seeded game, comparing both encodings at every position;
    the number of positions compared."""
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser(f"digest-typed/{engine.id}/{scenario}/{seed}")
    compared = 0
    for _ in range(steps):
        assert _fresh_encoding(state) == canonical.encode(state.snapshot()), (
            f"{engine.id} {scenario} seed {seed} after {compared} steps")
        compared += 1
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            legal = state.legal_actions()
            state.apply(legal[choose.below(len(legal))])
    return compared


@pytest.mark.parametrize("scenario", [s.id for s in MOTHERLAND.scenarios()])
def test_motherland_positions_encode_to_the_generic_bytes(scenario: str) -> None:
    for seed in (1, 2):
        assert _walk(MOTHERLAND, scenario, seed, 250) > 1


def _step_scenarios() -> list[tuple[str, str]]:
    return [(e.id, s.id) for e in engines().values() if e.id != MOTHERLAND.id
            for s in e.scenarios()]


@pytest.mark.parametrize(("engine_id", "scenario"), _step_scenarios())
def test_other_engines_encode_to_the_generic_bytes(engine_id: str, scenario: str) -> None:
    assert _walk(engines()[engine_id], scenario, 1, 120) > 1


def test_the_digest_does_not_build_the_generic_position_data(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = MOTHERLAND.new_state("4-uranus", MOTHERLAND.resolve_options({}))
    assert isinstance(state, StepState)
    expected = canonical.encode(state.snapshot())

    def refused(value: Any) -> Any:
        raise AssertionError("the digest built the generic position data")
    monkeypatch.setattr(codec, "to_data", refused)
    assert _fresh_encoding(state) == expected


def test_a_position_off_its_types_gets_the_generic_bytes_or_error() -> None:
    state = MOTHERLAND.new_state("4-uranus", MOTHERLAND.resolve_options({}))
    assert isinstance(state, StepState)
    unit = next(iter(state.pos.units.values()))
    unit.steps = 1
    _fresh_encoding(state)  # the record is kept encoded with its 1
    # a bool where an int is declared (True == 1 in Python): the generic path keeps it a
    # bool, and so must this, whatever it kept
    unit.steps = True
    assert _fresh_encoding(state) == canonical.encode(state.snapshot())
    unit.steps = 1
    assert _fresh_encoding(state) == canonical.encode(state.snapshot())
    unit.steps = 1.5  # type: ignore[assignment]
    with pytest.raises(FormatError, match="floats are not allowed"):
        _fresh_encoding(state)
    unit.steps = 2**64
    with pytest.raises(FormatError, match="does not fit msgpack's 64 bits"):
        _fresh_encoding(state)


def test_a_record_that_did_not_change_is_not_encoded_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = MOTHERLAND.new_state("4-uranus", MOTHERLAND.resolve_options({}))
    assert isinstance(state, StepState)
    _fresh_encoding(state)
    packed: list[Any] = []
    pack_normal = canonical.pack_normal

    def counting(value: Any) -> bytes:
        if type(value) is dict and "steps" in value:
            packed.append(value)
        return pack_normal(value)
    pack_each = canonical.pack_each

    def counting_each(values: Any) -> list[bytes]:
        # a unit's record as a map, or as its keys and values in turn (For the
        # Motherland!'s own writer packs it so and puts a map's head on it)
        packed.extend(v if type(v) is dict else dict(zip(v[::2], v[1::2], strict=True))
                      for v in values if type(v) in (dict, list) and "steps" in v)
        return pack_each(values)
    monkeypatch.setattr(canonical, "pack_normal", counting)
    monkeypatch.setattr(canonical, "pack_each", counting_each)
    unit = state.pos.units[sorted(state.pos.units)[5]]
    unit.mp += 1
    assert _fresh_encoding(state) == canonical.encode(state.snapshot())
    # the changed unit alone, of the 171 (the generic encoding above packs them in one)
    assert [record["mp"] for record in packed] == [unit.mp]


def test_a_position_s_field_names_are_written_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position written field by field (around its kept records) has the same keys at
    every digest: their bytes are written once, not packed again at each (issue 35)."""
    state = MOTHERLAND.new_state("4-uranus", MOTHERLAND.resolve_options({}))
    assert isinstance(state, StepState)
    _fresh_encoding(state)
    names = {f.name for f in dataclasses.fields(state.pos)}
    packed: list[Any] = []
    pack_normal = canonical.pack_normal

    def counting(value: Any) -> bytes:
        if type(value) is str and value in names:
            packed.append(value)
        return pack_normal(value)
    monkeypatch.setattr(canonical, "pack_normal", counting)
    state.pos.units[sorted(state.pos.units)[5]].mp += 1
    assert state.normal_body() is not None  # the typed way, not the generic one
    assert _fresh_encoding(state) == canonical.encode(state.snapshot())
    assert packed == []


@pytest.mark.parametrize("size", [0, 1, 15, 16, 65535, 65536])
def test_a_map_of_packed_values_is_the_map_msgpack_writes(size: int) -> None:
    entries = {f"k{n:06d}": n for n in range(size)}
    assert canonical.pack_map([(k, canonical.encode(v)) for k, v in entries.items()]) == (
        canonical.encode(entries))


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Pair(enum.Enum):
    ONE = (1, "one")


@dataclasses.dataclass
class Leaf:
    name: str
    count: int
    flag: bool


@dataclasses.dataclass
class Rec:
    marks: set[str]
    colour: Colour
    share: Fraction
    ids: frozenset[int]
    n: int


@dataclasses.dataclass
class Node:
    label: str
    leaves: dict[str, Leaf]
    by_hex: dict[tuple[int, int], Leaf]
    tags: set[str]
    spots: frozenset[tuple[int, int]]
    colour: Colour
    pair: Pair
    share: Fraction
    maybe: Leaf | None
    fixed: tuple[int, str]
    free: Any
    recs: dict[str, Rec] = dataclasses.field(default_factory=dict)
    child: Node | None = None
    _cache: int = 0


def _node() -> Node:
    return Node(
        label="é-z", leaves={"b": Leaf("x", 3, True), "a": Leaf("y", -2**63, False),
                             "ä": Leaf("", 2**64 - 1, False)},
        by_hex={(3, 1): Leaf("p", 1, True), (-1, 2): Leaf("q", 0, False)},
        tags={"zeta", "alpha", "Beta", "ω"}, spots=frozenset({(2, 2), (1, 300), (1, -5)}),
        colour=Colour.BLUE, pair=Pair.ONE, share=Fraction(-3, 4), maybe=None,
        fixed=(7, "seven"), free={"z": (1, [2, {"y": None, "b": b"\x00"}]), "a": True},
        recs={"r2": Rec({"b", "a"}, Colour.RED, Fraction(1, 3), frozenset({3, -1}), 0),
              "r1": Rec(set(), Colour.BLUE, Fraction(2), frozenset(), 5)},
        child=Node(label="c", leaves={}, by_hex={}, tags=set(), spots=frozenset(),
                   colour=Colour.RED, pair=Pair.ONE, share=Fraction(5), maybe=Leaf("m", 9, True),
                   fixed=(0, ""), free=[]))


def test_to_canonical_is_the_generic_normal_form_of_every_kind_of_field() -> None:
    node = _node()
    for depth in (0, 3):
        normal = codec.to_canonical(node, depth)
        assert normal == canonical.normalize(codec.to_data(node), depth)
        assert canonical.pack_normal(normal) == canonical.encode(codec.to_data(node))
        assert codec.to_canonical_bytes(node, depth) == canonical.encode(codec.to_data(node))


def test_kept_records_follow_every_change_of_their_fields() -> None:
    node = _node()

    def same() -> None:
        assert codec.to_canonical_bytes(node, 0) == canonical.encode(codec.to_data(node))
    same()
    rec = node.recs["r2"]
    rec.marks.add("c")  # changed in place: the kept bytes of the old set must not serve
    same()
    rec.marks.discard("c")
    same()
    rec.n = False  # 0 before, and False == 0 in Python
    same()
    rec.n = 0
    rec.share = Fraction(2, 6)  # == 1/3, the same value
    same()
    rec.colour = Colour.BLUE
    same()
    rec.ids = frozenset({True})  # == {1} in Python
    same()
    rec.marks = {"a", 1}  # type: ignore[arg-type]  # not what the type promises
    same()


def test_to_canonical_refuses_exactly_what_passes_the_depth_limit() -> None:
    node = _node()
    for levels in range(canonical.MAX_DEPTH):
        try:
            generic: bytes | None = canonical.encode(codec.to_data(node))
        except FormatError as exc:
            assert "nested deeper" in str(exc)
            generic = None
        try:
            typed: bytes | None = canonical.pack_normal(codec.to_canonical(node, 0))
        except (codec._Slow, FormatError):  # FormatError: from the field typed Any
            typed = None
        try:
            typed_bytes: bytes | None = codec.to_canonical_bytes(node, 0)
        except (codec._Slow, FormatError):
            typed_bytes = None
        assert typed == typed_bytes == generic, f"{levels} levels"
        node = dataclasses.replace(_node(), child=node)
    assert generic is None  # the loop went past the limit


def _white_death_state() -> StepState:
    engine = engines()["white-death"]
    state = engine.new_state("purkayev", engine.resolve_options({}))
    assert isinstance(state, StepState)
    return state


def test_a_position_s_other_fields_are_packed_in_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """White Death's position: the fields around its maps kept encoded are packed as a map
    of each run of them, one pack a run, not one a field (issue 35)."""
    state = _white_death_state()
    _fresh_encoding(state)
    packed: list[Any] = []
    pack_normal = canonical.pack_normal

    def counting(value: Any) -> bytes:
        packed.append(value)
        return pack_normal(value)
    monkeypatch.setattr(canonical, "pack_normal", counting)
    unit = state.pos.units[sorted(state.pos.units)[3]]
    unit.spent += 1
    assert state.normal_body() is not None
    names = {f.name for f in dataclasses.fields(state.pos)}
    runs = [value for value in packed if type(value) is dict and value and set(value) <= names]
    # three runs in map order around the two maps kept encoded (barrage_phase, units)
    assert [list(run) for run in runs] == [sorted(run) for run in runs]
    assert len(runs) == 3
    assert set().union(*runs) == names - {"barrage_phase", "units"}
    assert _fresh_encoding(state) == canonical.encode(state.snapshot())


@dataclasses.dataclass
class _Arrival:
    turn: int
    uid: str
    area: str


@dataclasses.dataclass
class _Plan:
    schedule: list[_Arrival]
    turn: int


def test_a_list_of_plain_records_is_built_without_a_call_per_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A list of records of plain fields (White Death's schedule) is read in a few C calls;
    its record type's own builder is not called for each record (issue 35)."""
    monkeypatch.setattr(codec, "_NORMALS", {})
    calls: list[Any] = []
    built = codec._normal(_Arrival)

    def counting(v: Any, d: int) -> Any:
        calls.append(v)
        return built(v, d)
    codec._NORMALS[_Arrival] = counting
    plan = _Plan([_Arrival(2, "u1", "east"), _Arrival(1, "u2", "west")], 3)
    assert codec.to_canonical(plan, 0) == {"schedule": [
        {"area": "east", "turn": 2, "uid": "u1"}, {"area": "west", "turn": 1, "uid": "u2"}],
        "turn": 3}
    assert codec.to_canonical(_Plan([], 0), 0) == {"schedule": [], "turn": 0}
    assert calls == []
    # a field off its declared type: the generic way, which keeps a bool a bool
    plan.schedule[1].turn = True
    assert canonical.pack_normal(codec.to_canonical(plan, 0)) == canonical.encode(
        codec.to_data(plan))
    plan.schedule[1].turn = 1.5  # type: ignore[assignment]
    with pytest.raises(codec._Slow):
        codec.to_canonical(plan, 0)


def test_a_new_plain_record_is_written_without_its_builder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of plain fields and sets of them (White Death's units) that a digest has
    not written before is built from the values already read and checked for keeping, not
    read and checked again by its record's builder (issue 35)."""
    state = _white_death_state()
    units = state.pos.units
    record = type(next(iter(units.values())))
    monkeypatch.setattr(codec, "_NORMALS", {})
    calls: list[Any] = []
    built = codec._normal(record)

    def counting(v: Any, d: int) -> Any:
        calls.append(v)
        return built(v, d)
    codec._NORMALS[record] = counting
    hint = codec.type_hints(type(state.pos))["units"]
    pack = codec._records_packer(record, codec._normal(hint))
    unit = units[sorted(units)[0]]
    unit.marks = {"moved", "fired", "z", "a-long-mark-name-beyond-thirty-one-bytes-long"}
    assert pack(units, 3) == canonical.encode(codec.to_data_of(hint, units))
    assert calls == []
