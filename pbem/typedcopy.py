"""Exact copies of typed positions, derived once per type from its field types.

``State.clone`` used to deep-copy the whole state: ``copy.deepcopy`` asks every object how
to copy itself and keeps a memo of each, 2-6 ms a clone of a 48th Panzer Korps, Mortain or
Backhand Blow position (9-18 ms late in long games) against 0.1 ms for the hand-written
copies of White Death (issue 35 item 5).  A position is dataclasses typed as
:mod:`pbem.codec` reads them, so the copy can be derived from the same type hints, once
per type, the way the codec derives the snapshot encoding:

- ``int``, ``str``, ``bool``, ``bytes``, ``None``, enums, :class:`~fractions.Fraction`,
  and frozensets and tuples of those, and frozen dataclasses whose fields are all of
  those, never change: the copy shares them;
- a list, set or dict is a new container of its items, each copied by its declared type;
- a dataclass is a new instance of its class with each field copied by its declared type
  (its class at run time decides, so a subclass is copied as itself).

A type it cannot copy exactly (``Any``, ``object``, a union of two kinds, a set of
mutable items...) is refused when the copier is derived (:class:`TypeError` naming the
field), never copied by guesswork.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import operator
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from pbem import codec

T = TypeVar("T")

#: a copier; ``None`` stands for "shared": the value never changes
_Copy = Callable[[Any], Any]

_PLANS: dict[Any, _Copy | None] = {}
#: dataclasses whose plan is being derived (a type that refers to itself, directly or not)
_DERIVING: set[type] = set()
_LEAVES = (int, str, bool, bytes, type(None))


def copier(tp: type[T]) -> Callable[[T], T]:
    """A function returning an exact copy of a value of type ``tp`` (sharing only what
    never changes); :class:`TypeError` if ``tp`` has a part it cannot copy exactly."""
    plan = _plan(tp)
    if plan is None:
        return _same
    return plan


def copy_of(tp: type[T], value: T) -> T:
    """An exact copy of ``value``, read as type ``tp``."""
    return copier(tp)(value)


def _same(value: Any) -> Any:
    return value


def _plan(tp: Any) -> _Copy | None:
    if tp in _PLANS:
        return _PLANS[tp]
    plan = _make(tp)
    _PLANS[tp] = plan
    return plan


def _is_fraction(tp: Any) -> bool:
    # as pbem.codec: Fraction only once something imported its module (startup cost)
    module = sys.modules.get("fractions")
    return module is not None and tp is module.Fraction


def _make(tp: Any) -> _Copy | None:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _LEAVES or _is_fraction(tp):
        return None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        plans = [_plan(a) for a in inner]
        if all(p is None for p in plans):
            return None
        if len(inner) != 1:
            raise TypeError(f"cannot copy {tp!r} exactly: a union of kinds to copy")
        item = plans[0]
        assert item is not None
        return lambda v: None if v is None else item(v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            found = _plan(args[0])
            if found is None:
                return None
            each: _Copy = found
            return lambda v: tuple([each(x) for x in v])
        places = [_plan(a) for a in args]
        if all(p is None for p in places):
            return None
        fixed = [p or _same for p in places]
        return lambda v: tuple([p(x) for p, x in zip(fixed, v, strict=True)])
    if origin is list:
        found = _plan(args[0])
        if found is None:
            return list
        item_copy: _Copy = found
        return lambda v: [item_copy(x) for x in v]
    if origin in (set, frozenset):
        if _plan(args[0]) is not None:
            raise TypeError(f"cannot copy {tp!r} exactly: its items can change")
        return None if origin is frozenset else set
    if origin is dict:
        if _plan(args[0]) is not None:
            raise TypeError(f"cannot copy {tp!r} exactly: its keys can change")
        value = _plan(args[1])
        if value is None:
            return dict
        return lambda v: {k: value(x) for k, x in v.items()}
    raise TypeError(f"cannot copy {tp!r} exactly: no copy derived for this type")


def _dataclass(cls: type) -> _Copy | None:
    if cls in _DERIVING:
        # a type that contains itself: copied, never shared (resolved when first used)
        return lambda v: _dataclass_copy(type(v))(v)
    _DERIVING.add(cls)
    try:
        hints = codec.type_hints(cls)
        fields = dataclasses.fields(cls)
        plans: list[tuple[str, _Copy | None]] = []
        for f in fields:
            try:
                plans.append((f.name, _plan(hints[f.name])))
            except TypeError as exc:
                raise TypeError(f"{cls.__qualname__}.{f.name}: {exc}") from None
    finally:
        _DERIVING.discard(cls)
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    if frozen and all(p is None for _, p in plans):
        return None
    names = {f.name for f in fields}
    slots = getattr(cls, "__slots__", None)
    if slots is not None:
        extra = {s for s in ([slots] if isinstance(slots, str) else slots)
                 if s not in names and s not in ("__weakref__", "__dict__")}
        if extra:
            raise TypeError(f"cannot copy {cls.__qualname__} exactly: slots {sorted(extra)} "
                            "are not fields")
    new = object.__new__
    if fields and _made_by_dataclasses(cls, fields):
        # the class's own __init__ is the one dataclasses wrote (it only stores each
        # argument): calling it with the copied fields is the quickest exact copy
        order = [n for n, _ in plans]
        # the fields' values as one tuple, read in C
        values = operator.attrgetter(*order) if len(order) > 1 else (
            lambda v: (getattr(v, order[0]),))
        places = [(i, p) for i, (_, p) in enumerate(plans) if p is not None]
        if not places:
            def construct_plain(v: Any) -> Any:
                if v.__class__ is not cls:
                    return _dataclass_copy(type(v))(v)
                return cls(*values(v))
            return construct_plain

        def construct(v: Any) -> Any:
            if v.__class__ is not cls:
                return _dataclass_copy(type(v))(v)
            got = list(values(v))
            for i, plan in places:
                got[i] = plan(got[i])
            return cls(*got)
        return construct
    if slots is not None and "__dict__" not in slots:
        # a slotted class keeps its fields out of any __dict__: set each (past a frozen
        # class's __setattr__)
        put = object.__setattr__
        every = [(n, p or _same) for n, p in plans]

        def copy_slots(v: Any) -> Any:
            if v.__class__ is not cls:
                return _dataclass_copy(type(v))(v)
            out = new(cls)
            for name, plan in every:
                put(out, name, plan(getattr(v, name)))
            return out
        return copy_slots
    changing = [(n, p) for n, p in plans if p is not None]
    count = len(fields)

    def copy_dict(v: Any) -> Any:
        if v.__class__ is not cls:
            return _dataclass_copy(type(v))(v)
        state = v.__dict__.copy()
        for name, plan in changing:
            state[name] = plan(state[name])
        if len(state) != count:
            # attributes beyond the fields (set by hand): nothing says what they hold
            for key in state.keys() - names:
                state[key] = copy.deepcopy(state[key])
        out = new(cls)
        out.__dict__.update(state)
        return out
    return copy_dict


def _made_by_dataclasses(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> bool:
    """Whether ``cls(*values)`` rebuilds an instance from its fields' values and nothing
    else: every field an argument of an ``__init__`` dataclasses generated (compiled from
    its text, as no class body's is), no ``__post_init__``, and no attribute beyond the
    fields (slots only: a ``__dict__`` could hold more)."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    slots = cls.__dict__.get("__slots__")
    return (code is not None and code.co_filename == "<string>"
            and not hasattr(cls, "__post_init__")
            and all(f.init and not f.kw_only for f in fields)
            and slots is not None and "__dict__" not in slots)


def _dataclass_copy(cls: type) -> _Copy:
    plan = _plan(cls)
    return plan if plan is not None else _same
