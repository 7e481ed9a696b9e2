"""A clone shares nothing that can change with its original (issue 35 item 5).

Every engine's clone is walked object by object beside its original, at states along
random games: any list, dict, set or mutable object reachable from both is a place where
a move on the clone (the session's working position, an audit's transactional copy)
would change the original.  What a state shares by design is left out of the walk: the
engine, data that mixes in :class:`~engines.hexkit.shared.Shared` (never changed) and the
attributes an engine names in ``clone_shares`` (facts of the map and pure-function
caches, whatever the position).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from engines.hexkit.shared import Shared
from pbem import typedcopy
from pbem.engine import Engine, State
from pbem.history import Frozen
from pbem.registry import engines
from pbem.testing import Chooser

_IMMUTABLE = (int, str, bytes, bool, float, type(None), Fraction, enum.Enum, range)


def _parts(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, list | tuple | set | frozenset):
        yield from obj
    else:
        names = list(getattr(obj, "__dict__", {}))
        for klass in type(obj).__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names += [slots] if isinstance(slots, str) else list(slots)
        for name in names:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                yield getattr(obj, name)


def _mutable(obj: Any) -> bool:
    # a frozen record (pbem.history.Frozen) refuses a change as a frozen dataclass does
    if isinstance(obj, tuple | frozenset | Frozen):
        return False
    if dataclasses.is_dataclass(obj):
        return not type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
    return True


def _reachable(state: State) -> dict[int, tuple[str, Any]]:
    """Every object the state reaches but what it shares by design, by id, with a path."""
    seen: dict[int, tuple[str, Any]] = {}
    skip = set(getattr(state, "clone_shares", ()))
    todo: list[tuple[str, Any]] = [(name, value) for name, value in vars(state).items()
                                   if name not in skip]
    while todo:
        path, obj = todo.pop()
        if (isinstance(obj, (*_IMMUTABLE, Engine, Shared, type)) or callable(obj)
                or id(obj) in seen):
            continue
        seen[id(obj)] = (path, obj)
        todo.extend((f"{path}/{type(part).__name__}", part) for part in _parts(obj))
    return seen


def _shared_mutables(state: State, twin: State) -> list[str]:
    mine = _reachable(state)
    return sorted(path for key, (path, obj) in _reachable(twin).items()
                  if key in mine and _mutable(obj))


def _states(engine: Engine, scenario: str, seed: int, steps: int) -> Iterator[State]:
    state = engine.new_state(scenario, engine.resolve_options({}))
    choose = Chooser(f"clone/{engine.id}/{scenario}/{seed}")
    for step in range(steps):
        if state.is_terminal():
            break
        if step % 11 == 0:  # often enough for a short game (the tutorial's) to give four
            yield state
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
        else:
            # legal actions listed first, so the caches they fill are there to be shared
            state.apply(choose.pick(state.legal_actions()))
    yield state


@pytest.mark.parametrize("engine_id", sorted(engines()))
def test_a_clone_shares_nothing_that_changes(engine_id: str) -> None:
    engine = engines()[engine_id]
    checked = 0
    for info in engine.scenarios()[:2]:
        for state in _states(engine, info.id, 1, 160):
            twin = state.clone()
            shared = _shared_mutables(state, twin)
            assert not shared, f"{engine_id}/{info.id}: the clone shares {shared[:5]}"
            assert twin.digest() == state.digest()
            checked += 1
    assert checked >= 4


def test_a_clone_changes_apart_from_its_original() -> None:
    """Moving the clone on leaves the original as it was (the walk above in action)."""
    engine = engines()["48th-panzer-korps"]
    state = next(iter(_states(engine, "chir", 2, 60)))
    before = state.digest()
    twin = state.clone()
    choose = Chooser("apart")
    for _ in range(40):
        if twin.is_terminal():
            break
        if twin.is_chance():
            twin.apply_outcome(choose.outcome(twin.chance_request()))
        else:
            twin.apply(choose.pick(twin.legal_actions()))
    assert twin.digest() != before
    assert state.clone().digest() == state.digest() == before


@dataclasses.dataclass
class _Leaf:
    n: int
    tags: list[str]


@dataclasses.dataclass(frozen=True)
class _Fixed:
    name: str
    pair: tuple[int, str]


@dataclasses.dataclass
class _Tree:
    leaves: dict[str, _Leaf]
    seen: set[str]
    fixed: _Fixed
    maybe: _Leaf | None = None
    kids: list[_Tree] = dataclasses.field(default_factory=list)


def test_the_copier_copies_by_the_declared_types() -> None:
    tree = _Tree({"a": _Leaf(1, ["x"])}, {"s"}, _Fixed("f", (1, "y")), _Leaf(2, []),
                 [_Tree({}, set(), _Fixed("g", (2, "z")))])
    twin = typedcopy.copy_of(_Tree, tree)
    assert twin == tree
    assert twin.leaves["a"] is not tree.leaves["a"]
    assert twin.leaves["a"].tags is not tree.leaves["a"].tags
    assert twin.seen is not tree.seen and twin.maybe is not tree.maybe
    assert twin.kids[0] is not tree.kids[0] and twin.kids[0].leaves is not tree.kids[0].leaves
    assert twin.fixed is tree.fixed  # frozen, of immutable fields: shared


@dataclasses.dataclass
class _Loose:
    anything: Any


@dataclasses.dataclass
class _Mixed:
    either: _Leaf | _Fixed


def test_the_copier_refuses_what_it_cannot_copy_exactly() -> None:
    with pytest.raises(TypeError, match=r"_Loose\.anything"):
        typedcopy.copier(_Loose)
    with pytest.raises(TypeError, match=r"_Mixed\.either: .*union"):
        typedcopy.copier(_Mixed)
    with pytest.raises(TypeError, match="items can change"):
        typedcopy.copier(set[_Leaf])  # type: ignore[arg-type]


@dataclasses.dataclass(slots=True)
class _Slotted:
    n: int
    tags: list[str]
    inner: _Leaf


@dataclasses.dataclass(slots=True)
class _Checked:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


def test_the_copier_copies_slotted_dataclasses_by_their_fields() -> None:
    """A slotted dataclass is rebuilt through the __init__ dataclasses wrote, its mutable
    fields copied; a class with a __post_init__ is never called (set field by field)."""
    one = _Slotted(1, ["a"], _Leaf(2, ["b"]))
    twin = typedcopy.copy_of(_Slotted, one)
    assert twin == one and twin is not one
    assert twin.tags is not one.tags and twin.inner is not one.inner
    assert twin.inner.tags is not one.inner.tags
    odd = _Checked(1)
    odd.n = -1  # what a rule may set later; __post_init__ would refuse it
    assert typedcopy.copy_of(_Checked, odd).n == -1
