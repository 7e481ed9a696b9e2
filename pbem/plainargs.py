"""A step frame's arguments read, written and copied by hand where they are plain.

A turn command restores the few frames of its game's stack, its digests write them and a
clone copies them.  :mod:`pbem.codec` (and :mod:`pbem.typedcopy`, built on it) resolves
each ``Args`` class's annotations and builds a reader, a writer and a copier at their
first use: about 2 M instructions of every command that loads a game, and 2.7 M of every
act that clones (issue 35).  Most ``Args`` classes are a few fields of strings, integers,
booleans and lists of names, whose data is the value itself; for those this module does
the same work directly.  Any other class (a field of another kind, a private or non-init
field, not a dataclass), and any data not of exactly the field's kind, is answered
``None``: the caller then goes the codec's way, which reads or writes it, or names what
is wrong.  So what this gives is always exactly what the codec gives (the runtime's own
tests compare the two over played games of every engine).

Annotations are read as the ``Args`` modules write them: strings (postponed annotations,
``from __future__ import annotations``); a class whose annotations are live types goes
the codec's way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")
Convert = Callable[[Any], Any]

_STR = frozenset({str})
_INT = frozenset({int})


def _one(kind: type) -> Convert:
    # exactly the kind: a bool is not read as an int, nor an int as a bool
    return lambda v: v if type(v) is kind else None


def _str_list(v: Any) -> list[str] | None:
    return list(v) if type(v) is list and set(map(type, v)) <= _STR else None


def _int_map(v: Any) -> dict[str, int] | None:
    if type(v) is not dict or not set(map(type, v)) <= _STR or \
            not set(map(type, v.values())) <= _INT:
        return None
    return dict(v)


def _names_read(v: Any) -> tuple[str, ...] | None:
    return tuple(v) if type(v) is list and set(map(type, v)) <= _STR else None


def _names_written(v: Any) -> list[str] | None:
    return list(v) if type(v) is tuple and set(map(type, v)) <= _STR else None


def _names_kept(v: Any) -> tuple[str, ...] | None:
    # a tuple of strings changes in no way: the copy may share it
    return v if type(v) is tuple and set(map(type, v)) <= _STR else None


#: per annotation: how a field's data is read, how its value is written (the data the
#: codec writes: a tuple as a list, a list and a map copied) and how it is copied (sharing
#: nothing that changes, as typedcopy copies); each gives None for a value not of its kind
_KINDS: dict[str, tuple[Convert, Convert, Convert]] = {
    "str": (_one(str),) * 3,
    "int": (_one(int),) * 3,
    "bool": (_one(bool),) * 3,
    "list[str]": (_str_list,) * 3,
    "dict[str, int]": (_int_map,) * 3,
    "tuple[str, ...]": (_names_read, _names_written, _names_kept),
}

#: the kinds whose values never change: a frozen class of only these is shared by a copy
_IMMUTABLE = frozenset({"str", "int", "bool", "tuple[str, ...]"})

Spec = tuple[frozenset[str], tuple[tuple[str, Convert, Convert, Convert], ...], bool]
#: per class: its fields' names and kinds, and whether a copy shares the value (as
#: typedcopy shares a frozen class of unchanging fields); None for a class the codec
#: handles
_SPECS: dict[type, Spec | None] = {}


def _spec(cls: type) -> Spec | None:
    try:
        return _SPECS[cls]
    except KeyError:
        pass
    spec = None
    made = fields(cls) if is_dataclass(cls) else None
    if made is not None and all(f.init and not f.name.startswith("_") and isinstance(f.type, str)
                    and f.type in _KINDS for f in made):
        frozen: bool = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        spec = (frozenset(f.name for f in made),
                tuple((f.name, *_KINDS[str(f.type)]) for f in made),
                frozen and all(f.type in _IMMUTABLE for f in made))
    _SPECS[cls] = spec
    return spec


def _converted(spec: Spec, get: Callable[[str], Any], which: int) -> dict[str, Any] | None:
    """Each field's value from ``get`` converted by the field's kind's converter number
    ``which`` (0 read, 1 write, 2 copy), or None when one is not of its kind."""
    out = {}
    for name, *converters in spec[1]:
        value = converters[which](get(name))
        if value is None:
            return None
        out[name] = value
    return out


def args_from_data(cls: type[T], data: object) -> T | None:
    """The arguments of class ``cls`` the codec reads from ``data`` (a map of every field
    and no other, each of exactly its kind), or None: the codec then reads them."""
    spec = _spec(cls)
    if spec is None or type(data) is not dict or data.keys() != spec[0]:
        return None
    values = _converted(spec, data.__getitem__, 0)
    return None if values is None else cls(**values)


def args_data(cls: type, args: object) -> dict[str, Any] | None:
    """The data the codec writes for ``args`` as arguments of class ``cls`` (its fields in
    their order), or None where they are not exactly of its kinds: the codec then writes
    them."""
    spec = _spec(cls)
    if spec is None or type(args) is not cls:
        return None
    return _converted(spec, args.__getattribute__, 1)


def args_copy(cls: type[T], args: T) -> T | None:
    """A copy of ``args`` sharing nothing that changes, as typedcopy's copier of ``cls``
    makes it (``args`` itself for a frozen class of unchanging fields), or None where
    they are not exactly of its kinds: typedcopy then copies."""
    spec = _spec(cls)
    if spec is None or type(args) is not cls:
        return None
    if spec[2]:
        return args
    values = _converted(spec, args.__getattribute__, 2)
    return None if values is None else cls(**values)
