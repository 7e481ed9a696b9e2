"""Typed positions with a canonical data form derived from their fields.

An engine states its position as dataclasses (frozen or not) whose fields are typed with
``int``, ``str``, ``bool``, enums, :class:`~fractions.Fraction`, ``X | None``, tuples,
lists, sets and frozensets, dicts and further dataclasses.  :func:`to_data` turns such a
value into canonical data (pbem.canonical) and :func:`from_data` back, both driven by the
type hints, so a snapshot is never written twice by hand and mypy checks the rules that
read and write the fields.

The forms, chosen so that one value has one encoding:

- an enum is its ``value``; a Fraction is ``[numerator, denominator]`` in lowest terms;
- a set or frozenset is a list sorted by the elements' canonical bytes (never by hash
  order); a tuple or list is a list in its own order;
- a dict with ``str`` keys is a map (canonical encoding sorts the keys); a dict with other
  keys is a list of ``[key, value]`` pairs sorted by the keys' canonical bytes;
- a dataclass is a map of its fields by name (fields declared with ``init=False`` or
  whose name starts with ``_`` are caches, and are left out).

:func:`from_data` refuses data of the wrong shape with a :class:`~pbem.errors.FormatError`
naming the field (``position.units[3].hex: expected str, got int``).
"""

from __future__ import annotations

import builtins
import dataclasses
import enum
import inspect
import itertools
import operator
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pbem import canonical
from pbem.errors import FormatError

if TYPE_CHECKING:
    from fractions import Fraction

T = TypeVar("T")

_Encoder = Callable[[Any], Any]
_Decoder = Callable[[Any, str], Any]


def to_data(value: Any) -> Any:
    """The canonical data of a typed value (a dataclass, usually)."""
    return _encoder(type(value))(value)


def from_data(cls: type[T], data: Any, where: str = "position") -> T:
    """The value of type ``cls`` that ``data`` (from :func:`to_data`) stands for.

    Read first by the quick decoders (:func:`_quick`), which build no error path; where
    they refuse (or anything in them raises), the path-naming decoders read the same data
    again, so a refusal raises the very :class:`~pbem.errors.FormatError` it always did."""
    try:
        result: T = _quick(cls)(data)
    except Exception:  # the full read below names the fault (or reads what this refused)
        result = _decoder(cls)(data, where)
    return result


def _bytes_key(value: Any) -> bytes:
    return canonical.encode(value)


# -- building coders from type hints (once per type) ------------------------------------------

_ENCODERS: dict[Any, _Encoder] = {}
_DECODERS: dict[Any, _Decoder] = {}


#: each dataclass's coded fields with their resolved hints, once a process: the encoder,
#: the decoder, the canonical form and the packer of a class each ask for them, and
#: typing.get_type_hints compiles and evaluates every string annotation of the class and
#: its bases anew at each call (0.6 M instructions a class of six fields; about a hundred
#: annotations compiled by a turn command's three asks, issue 35)
_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        hints = type_hints(cls)
        found = _FIELDS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls)
                                     if f.init and not f.name.startswith("_"))
    return found


#: each class's resolved hints, once a process: the codec's coders and pbem.typedcopy's
#: copier of the same position class each asked, and resolving every annotation again
#: was 0.7 M instructions of a Backhand Blow act's first clone (issue 35)
_HINTS: dict[type, Mapping[str, Any]] = {}


def type_hints(cls: type) -> Mapping[str, Any]:
    """``typing.get_type_hints(cls)``, with the annotations written in the plain forms
    (names, dotted names, ``X[...]`` subscripts, ``|`` unions, ``None``, ``...``) read by
    :func:`_resolved` instead of compiled: get_type_hints makes each string a
    ``ForwardRef``, which compiles it (about 0.15 M instructions an annotation, some 25
    in a Mortain ``receive``, issue 35).  Any other form (a quoted name, ``Annotated``, a
    call) is left to get_type_hints, and so is every error.  Kept per class (a class's
    annotations are read when it is first asked for): the mapping is shared, never to
    be changed."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = _type_hints(cls)
    return found


def _type_hints(cls: type) -> dict[str, Any]:
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        own = inspect.get_annotations(base)  # the class's own, as get_type_hints reads
        module = getattr(sys.modules.get(base.__module__, None), "__dict__", {})
        local = base.__dict__
        for name, value in own.items():
            if value is None:
                value = types.NoneType
            elif isinstance(value, str):
                value = _resolved(value, module, local)
                if value is _UNRESOLVED:
                    return typing.get_type_hints(cls)
            elif not _plain_hint(value):
                return typing.get_type_hints(cls)
            hints[name] = value
    return hints


#: what a name in an annotation may stand for here: a class, typing.Any, or a generic
#: alias of them (list[int], Status | None); anything else (typing's special forms that
#: get_type_hints converts or strips: Optional, Annotated, ClassVar, ...) is theirs
_UNRESOLVED: Any = object()
_ALIASES = (types.GenericAlias, types.UnionType, typing._GenericAlias)  # type: ignore[attr-defined]
_PUNCTUATION = "[],|."


def _plain_hint(value: Any) -> bool:
    if isinstance(value, type) or value is Any or value is None or value is Ellipsis:
        return True
    if isinstance(value, _ALIASES):
        origin = typing.get_origin(value)
        if origin is typing.Annotated or not (
                isinstance(origin, type) or origin is typing.Union):
            return False
        return all(_plain_hint(arg) for arg in typing.get_args(value))
    return False


def _resolved(text: str, module: dict[str, Any], local: Any) -> Any:
    """The value ``eval`` gives ``text`` as get_type_hints evaluates a class's annotation
    (names looked up in the module, then the class, then the builtins), for the plain
    forms only; ``_UNRESOLVED`` for anything else."""
    if text.isidentifier():
        # a bare name (two annotations in three: ``int``, ``Side``): what the parse below
        # gives it, without tokens or closures; a class's coder reads all its annotations
        # at the first value coded, on every command (issue 35)
        if text == "None":
            return types.NoneType
        try:
            value = (module[text] if text in module
                     else local[text] if text in local else getattr(builtins, text))
        except (LookupError, AttributeError, TypeError):
            return _UNRESOLVED
        if value is Ellipsis or not _plain_hint(value):
            return _UNRESOLVED
        return types.NoneType if value is None else value
    # the tokens a scan a character at a time made: each punctuation mark one, each run
    # of other characters between them and spaces one, in C calls
    spaced = text
    for mark in _PUNCTUATION:
        if mark in spaced:
            spaced = spaced.replace(mark, f" {mark} ")
    tokens = [token for token in spaced.split(" ") if token]
    at = 0

    def union() -> Any:
        nonlocal at
        value = subscripted()
        while at < len(tokens) and tokens[at] == "|":
            at += 1
            value = value | subscripted()
        return value

    def subscripted() -> Any:
        nonlocal at
        value = atom()
        while at < len(tokens) and tokens[at] == "[":
            at += 1
            items = [union()]
            comma = False
            while tokens[at] == ",":
                comma = True
                at += 1
                if tokens[at] == "]":
                    break
                items.append(union())
            if tokens[at] != "]":
                raise LookupError(text)
            at += 1
            value = value[tuple(items) if comma else items[0]]
        return value

    def atom() -> Any:
        nonlocal at
        token = tokens[at]
        at += 1
        if token == "None":
            return None
        if token == "." and tokens[at:at + 2] == [".", "."]:
            at += 2
            return Ellipsis
        if not token.isidentifier():
            raise LookupError(text)
        if token in module:
            value = module[token]
        elif token in local:
            value = local[token]
        else:
            value = getattr(builtins, token)
        while at < len(tokens) and tokens[at] == ".":
            if not tokens[at + 1].isidentifier():
                raise LookupError(text)
            value = getattr(value, tokens[at + 1])
            at += 2
        return value

    try:
        value = union()
    except (LookupError, AttributeError, TypeError):
        return _UNRESOLVED
    if at != len(tokens) or value is Ellipsis or not _plain_hint(value):
        return _UNRESOLVED
    return types.NoneType if value is None else value


def _encoder(tp: Any) -> _Encoder:
    found = _ENCODERS.get(tp)
    if found is None:
        found = _ENCODERS[tp] = _make_encoder(tp)
    return found


def _decoder(tp: Any) -> _Decoder:
    found = _DECODERS.get(tp)
    if found is None:
        found = _DECODERS[tp] = _make_decoder(tp)
    return found


def _is_fraction(tp: Any) -> bool:
    """``tp is fractions.Fraction``, without importing fractions (with decimal and numbers:
    11 M instructions of every command that loads a game, issue 19): a type can only be
    Fraction once something has imported its module."""
    module = sys.modules.get("fractions")
    return module is not None and tp is module.Fraction


def _identity(value: Any) -> Any:
    return value


def _make_encoder(tp: Any) -> _Encoder:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in (int, str, bool, bytes, type(None)) or tp is Any:
        return _identity
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda v: v.value
    if _is_fraction(tp):
        return lambda v: [v.numerator, v.denominator]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        # resolved on first use: a dataclass may refer to itself or to one defined later
        # Containers built before that first use hold this function itself (a dict of
        # units keeps the item coder it was given), so it keeps what it resolved: reading
        # the type hints again on every call cost a census game 29 s instead of 3.9 s.
        built: list[_Encoder] = []

        def encode_dc(v: Any) -> Any:
            if not built:
                coders = [(name, _encoder(hint)) for name, hint in _fields(tp)]
                built.append(lambda w: {n: enc(getattr(w, n)) for n, enc in coders})
                _ENCODERS[tp] = built[0]
            return built[0](v)
        return encode_dc
    if origin in (typing.Union, types.UnionType):
        return _identity_union(args)
    if origin in (tuple, list):
        if _fixed(origin, args):
            items = [_encoder(a) for a in args]
            return lambda v: [enc(x) for enc, x in zip(items, v, strict=True)]
        item = _encoder(args[0])
        return lambda v: [item(x) for x in v]
    if origin in (set, frozenset):
        item = _encoder(args[0])
        return lambda v: sorted((item(x) for x in v), key=_bytes_key)
    if origin is dict:
        key, val = _encoder(args[0]), _encoder(args[1])
        if args[0] is str:
            return lambda v: {k: val(x) for k, x in v.items()}
        return lambda v: sorted(([key(k), val(x)] for k, x in v.items()),
                                key=lambda kv: _bytes_key(kv[0]))
    raise TypeError(f"no canonical form for {tp!r}")


def _identity_union(args: tuple[Any, ...]) -> _Encoder:
    enc = _encoder(_optional(args, args))
    return lambda v: None if v is None else enc(v)


def _optional(args: tuple[Any, ...], named: Any) -> Any:
    """The ``X`` of an ``X | None`` union (of its ``args``), the one union a value has a
    canonical form of; a TypeError naming ``named`` for any other."""
    inner = [a for a in args if a is not type(None)]
    if len(inner) != 1:
        raise TypeError(f"only X | None unions have a canonical form, not {named!r}")
    return inner[0]


def _fixed(origin: Any, args: tuple[Any, ...]) -> bool:
    """Whether a tuple or list type is a tuple of fixed length (``tuple[int, str]``), one
    coder a place, not a sequence of one item type (``tuple[int, ...]``, ``list[int]``)."""
    return origin is tuple and not (len(args) == 2 and args[1] is Ellipsis)


def _fail(where: str, want: str, data: Any) -> FormatError:
    return FormatError(f"{where}: expected {want}, got {type(data).__name__} {data!r:.60}")


def _make_decoder(tp: Any) -> _Decoder:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return lambda d, w: d
    if tp in (int, str, bytes):
        def plain(d: Any, w: str) -> Any:
            if type(d) is not tp:
                raise _fail(w, tp.__name__, d)
            return d
        return plain
    if tp is bool:
        def boolean(d: Any, w: str) -> Any:
            if type(d) is not bool:
                raise _fail(w, "bool", d)
            return d
        return boolean
    if tp is type(None):
        def none(d: Any, w: str) -> Any:
            if d is not None:
                raise _fail(w, "nothing", d)
            return None
        return none
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        def member(d: Any, w: str) -> Any:
            try:
                return tp(d)
            except (ValueError, TypeError):
                names = ", ".join(repr(m.value) for m in tp)
                raise _fail(w, f"one of {names}", d) from None
        return member
    if _is_fraction(tp):
        def fraction(d: Any, w: str) -> Any:
            if (type(d) is not list or len(d) != 2 or type(d[0]) is not int
                    or type(d[1]) is not int or d[1] <= 0):
                raise _fail(w, "[numerator, denominator]", d)
            value: Fraction = tp(d[0], d[1])
            if value.denominator != d[1]:
                raise FormatError(f"{w}: fraction {d[0]}/{d[1]} is not in lowest terms")
            return value
        return fraction
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        # as for the encoder: containers keep this function, so it keeps what it resolved
        resolved: list[_Decoder] = []

        def decode_dc(d: Any, w: str) -> Any:
            if resolved:
                return resolved[0](d, w)
            coders = [(name, _decoder(hint)) for name, hint in _fields(tp)]
            names = {n for n, _ in coders}

            def decode(d: Any, w: str) -> Any:
                if type(d) is not dict:
                    raise _fail(w, f"a map of {tp.__name__}", d)
                if set(d) != names:
                    missing, extra = sorted(names - set(d)), sorted(set(d) - names)
                    raise FormatError(f"{w}: {tp.__name__} fields differ (missing {missing}, "
                                      f"unknown {extra})")
                return tp(**{n: dec(d[n], f"{w}.{n}") for n, dec in coders})
            resolved.append(decode)
            _DECODERS[tp] = decode
            return decode(d, w)
        return decode_dc
    if origin in (typing.Union, types.UnionType):
        dec = _decoder(_optional(args, tp))
        return lambda d, w: None if d is None else dec(d, w)
    if origin in (tuple, list, set, frozenset):
        if _fixed(origin, args):
            items = [_decoder(a) for a in args]

            def fixed(d: Any, w: str) -> Any:
                if type(d) is not list or len(d) != len(items):
                    raise _fail(w, f"a list of {len(items)}", d)
                return tuple(dec(x, f"{w}[{i}]")
                             for i, (dec, x) in enumerate(zip(items, d, strict=True)))
            return fixed
        item = _decoder(args[0])
        build: Callable[[Any], Any] = origin

        def sequence(d: Any, w: str) -> Any:
            if type(d) is not list:
                raise _fail(w, "a list", d)
            out = build(item(x, f"{w}[{i}]") for i, x in enumerate(d))
            if origin in (set, frozenset) and (
                    len(out) != len(d) or to_data_of(tp, out) != d):
                raise FormatError(f"{w}: a set must be listed once each, in canonical order")
            return out
        return sequence
    if origin is dict:
        kdec, vdec = _decoder(args[0]), _decoder(args[1])
        if args[0] is str:
            def str_map(d: Any, w: str) -> Any:
                if type(d) is not dict:
                    raise _fail(w, "a map", d)
                return {k: vdec(x, f"{w}[{k!r}]") for k, x in d.items()}
            return str_map

        def pairs(d: Any, w: str) -> Any:
            if type(d) is not list or any(type(p) is not list or len(p) != 2 for p in d):
                raise _fail(w, "a list of [key, value] pairs", d)
            out = {kdec(k, f"{w} key"): vdec(x, f"{w}[{k!r}]") for k, x in d}
            if len(out) != len(d):
                raise FormatError(f"{w}: a key is listed twice")
            return out
        return pairs
    raise TypeError(f"no canonical form for {tp!r}")


# -- the quick decoders: no error path built (issue 35) ---------------------------------------
#
# The decoders above build every value's error path (``f"{w}.{n}"``, ``f"{w}[{i}]"``) before
# they read it, though a path is only read when the value is wrong: for every field of
# every unit of a snapshot.  These read the same data with the same checks and no path,
# and raise :class:`_Refused` at the first fault; :func:`from_data` then reads the data
# again with the decoders above, which name it.  They must refuse at least what those
# refuse (a quick read that accepts gives the value): each check below is the one of the
# decoder above it mirrors, and where a check would cost a rewrite (an enum's own
# ``_missing_``) the quick one refuses and lets the full read decide.

_Quick = Callable[[Any], Any]
_QUICK: dict[Any, _Quick] = {}
#: the dataclasses whose quick readers are being made (one that holds itself waits)
_QUICK_BUILDING: set[Any] = set()


class _Refused(Exception):
    """The quick read met data its type does not promise; the full read names it.  Raised
    as a new instance each time: one raised again keeps every traceback it went through."""


def _quick(tp: Any) -> _Quick:
    found = _QUICK.get(tp)
    if found is None:
        found = _QUICK[tp] = _make_quick(tp)
    return found


def _exact(tp: type) -> _Quick:
    def exact(d: Any) -> Any:
        if type(d) is not tp:
            raise _Refused
        return d
    return exact


def _quick_none(d: Any) -> Any:
    if d is not None:
        raise _Refused
    return None


def _quick_any(d: Any) -> Any:
    return d


def _make_quick(tp: Any) -> _Quick:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return _quick_any
    if tp in (int, str, bytes, bool):
        return _exact(tp)
    if tp is type(None):
        return _quick_none
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        # the member ``tp(d)`` finds first (EnumType.__call__ looks in this map before
        # anything else); a value not in it (or unhashable) goes to the full read
        members = tp._value2member_map_

        def member(d: Any) -> Any:
            found = members.get(d)
            if found is None:
                raise _Refused
            return found
        return member
    if _is_fraction(tp):
        def fraction(d: Any) -> Any:
            if (type(d) is not list or len(d) != 2 or type(d[0]) is not int
                    or type(d[1]) is not int or d[1] <= 0):
                raise _Refused
            value: Fraction = tp(d[0], d[1])
            if value.denominator != d[1]:
                raise _Refused
            return value
        return fraction
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _made_at_once(tp, _QUICK_BUILDING, _quick_dataclass, _quick)
    if origin in (typing.Union, types.UnionType):
        one = _quick(_optional(args, tp))
        return lambda d: None if d is None else one(d)
    if origin in (tuple, list, set, frozenset):
        if _fixed(origin, args):
            items = [_quick(a) for a in args]
            count = len(items)

            def fixed(d: Any) -> Any:
                if type(d) is not list or len(d) != count:
                    raise _Refused
                return tuple([one(x) for one, x in zip(items, d, strict=True)])
            return fixed
        return _quick_sequence(tp, origin, args[0])
    if origin is dict:
        kdec, vdec = _quick(args[0]), _quick(args[1])
        plain = _is_plain(args[1])
        records = _plain_record(args[1])
        if args[0] is str and records is not None:
            keys, hinted, record = records
            orders: dict[tuple[str, ...], tuple[Any, ...]] = {}

            def str_map_records(d: Any) -> Any:
                # a map of records of plain fields (Backhand Blow's units): every record's
                # fields checked by exact type in a few C calls, not a call a record
                if type(d) is not dict:
                    raise _Refused
                rows = d.values()
                if not rows:
                    return {}
                if not set(map(type, rows)) <= _DICT:
                    raise _Refused
                found = set(map(tuple, rows))
                if len(found) != 1:
                    raise _Refused  # fields in several orders: the full read takes them
                order = found.pop()
                types = orders.get(order) or _learnt(orders, keys, hinted, order)
                if (tuple(map(type, itertools.chain.from_iterable(map(dict.values, rows))))
                        != types * len(rows)):
                    raise _Refused
                return {k: record(**x) for k, x in d.items()}
            return str_map_records
        if args[0] is str:
            # as the full read: a map's keys are not checked (canonical data has str keys)
            def str_map(d: Any) -> Any:
                if type(d) is not dict:
                    raise _Refused
                if plain:
                    if not set(map(type, d.values())) <= plain:
                        raise _Refused
                    return dict(d)
                return {k: vdec(x) for k, x in d.items()}
            return str_map

        def pairs(d: Any) -> Any:
            if type(d) is not list or any(type(p) is not list or len(p) != 2 for p in d):
                raise _Refused
            out = {kdec(k): vdec(x) for k, x in d}
            if len(out) != len(d):
                raise _Refused
            return out
        return pairs
    raise TypeError(f"no canonical form for {tp!r}")


def _made_at_once(tp: type, building: set[Any], make: Callable[[type], Callable[..., Any]],
                  find: Callable[[Any], Callable[..., Any]]) -> Callable[..., Any]:
    """A dataclass's quick reader or canonical builder (``make``), made at once: a
    container keeps its item's coder, and a stand-in that looked it up would be one more
    call a unit.  But for a dataclass that holds itself, directly or not, met again while
    its coder is being made (``building``): a stand-in that finds the finished coder
    (``find``) at its first call."""
    if tp not in building:
        building.add(tp)
        try:
            return make(tp)
        finally:
            building.discard(tp)
    resolved: list[Callable[..., Any]] = []

    def late(*values: Any) -> Any:
        if not resolved:
            resolved.append(find(tp))
        return resolved[0](*values)
    return late


def _is_plain(tp: Any) -> frozenset[type]:
    """The one exact type a plain value of ``tp`` has (int, str, bytes, bool), as a set;
    empty for any other type."""
    return frozenset({tp}) if tp in (int, str, bytes, bool) else frozenset()


_DICT = frozenset({dict})


def _record_fields(tp: Any, plain: Callable[[Any], object]
                   ) -> tuple[tuple[str, Any], ...] | None:
    """The fields of a dataclass of two or more fields whose every type ``plain`` takes
    (the quick reader's plain types, or the writer's scalars); None for any other type."""
    if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
        return None
    fields = _fields(tp)
    if len(fields) < 2 or not all(plain(hint) for _, hint in fields):
        return None
    return fields


def _plain_record(tp: Any) -> tuple[frozenset[str], dict[str, Any], type] | None:
    """For a dataclass of two or more fields all of plain types: its field names, their
    types by name, and the class; None for any other type."""
    fields = _record_fields(tp, _is_plain)
    if fields is None:
        return None
    return frozenset(name for name, _ in fields), dict(fields), tp


def _quick_sequence(tp: Any, origin: Any, element: Any) -> _Quick:
    item = _quick(element)
    plain = _is_plain(element)
    build: Callable[[Any], Any] = origin
    unordered = origin in (set, frozenset)

    def sequence(d: Any) -> Any:
        if type(d) is not list:
            raise _Refused
        if plain:
            if len(d) < 2:
                # no order to check, nor a duplicate: a unit's marks, most of them empty
                if d and type(d[0]) is not element:
                    raise _Refused
                return build(d)
            if not set(map(type, d)) <= plain:
                raise _Refused
            out = build(d)
        else:
            out = build(map(item, d))
        if unordered and (len(out) != len(d) or to_data_of(tp, out) != d):
            raise _Refused
        return out
    return sequence


def _quick_dataclass(tp: type) -> _Quick:
    fields = _fields(tp)
    names = tuple(name for name, _ in fields)
    keys = frozenset(names)
    # the fields of plain types, checked by exact type in one pass; the others decoded
    plain = [(name, hint) for name, hint in fields if _is_plain(hint)]
    typed = [(name, _quick(hint)) for name, hint in fields if not _is_plain(hint)]
    plain_names = tuple(name for name, _ in plain)
    plain_types = tuple(hint for _, hint in plain)
    get_plain = (operator.itemgetter(*plain_names) if len(plain_names) > 1 else None)
    shapes = {name: _data_type(hint) for name, hint in fields}
    if typed and len(typed) <= 2 and all(shapes.values()):
        return _quick_shaped(tp, keys, shapes, typed)

    def decode(d: Any) -> Any:
        if type(d) is not dict or d.keys() != keys:
            raise _Refused
        if get_plain is not None:
            if tuple(map(type, get_plain(d))) != plain_types:
                raise _Refused
        elif plain_names and type(d[plain_names[0]]) is not plain_types[0]:
            raise _Refused
        if not typed:
            return tp(**d)
        values = dict(d)
        for name, one in typed:
            values[name] = one(d[name])
        return tp(**values)
    return decode


def _data_type(tp: Any) -> type | None:
    """The one type a value of ``tp`` has in its data (a set's is a list...), or None
    where it may have several (an ``X | None``, an enum, ``Any``)."""
    origin = typing.get_origin(tp)
    if _is_plain(tp):
        return tp  # type: ignore[no-any-return]
    if origin in (tuple, list, set, frozenset) or _is_fraction(tp):
        return list
    if origin is dict:
        return dict if typing.get_args(tp)[0] is str else list
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return dict
    return None


def _learnt(orders: dict[tuple[str, ...], tuple[Any, ...]], keys: frozenset[str],
            types: Mapping[str, Any], order: tuple[str, ...]) -> tuple[Any, ...]:
    """The data types a record's map must hold in the order it lists its fields
    (``order``), by the fields' ``types``: learnt once an order, the first eight orders
    kept in ``orders`` (a game writes one); :class:`_Refused` where the names are not the
    record's ``keys``."""
    if len(order) != len(keys) or frozenset(order) != keys:
        raise _Refused
    want = tuple(types[name] for name in order)
    if len(orders) < 8:
        orders[order] = want
    return want


def _quick_shaped(tp: type, keys: frozenset[str], shapes: dict[str, Any],
                  typed: list[tuple[str, _Quick]]) -> _Quick:
    """The quick reader of a dataclass whose every field has one type in its data and a
    few are not plain (White Death's units and their ``marks``): the field names checked
    once an order they come in, then every field's data type in one tuple compare, then
    the few decoded."""
    orders: dict[tuple[str, ...], tuple[Any, ...]] = {}

    if len(typed) == 1:
        (name, one), = typed

        def decode_one(d: Any) -> Any:
            if type(d) is not dict:
                raise _Refused
            order = tuple(d)
            if tuple(map(type, d.values())) != (orders.get(order)
                                                or _learnt(orders, keys, shapes, order)):
                raise _Refused
            return tp(**{**d, name: one(d[name])})
        return decode_one

    def decode(d: Any) -> Any:
        if type(d) is not dict:
            raise _Refused
        order = tuple(d)
        if tuple(map(type, d.values())) != (orders.get(order)
                                            or _learnt(orders, keys, shapes, order)):
            raise _Refused
        values = dict(d)
        for field, read in typed:
            values[field] = read(d[field])
        return tp(**values)
    return decode


def to_data_of(tp: Any, value: Any) -> Any:
    """The canonical data of ``value`` read as type ``tp`` (for a field's own type)."""
    return _encoder(tp)(value)


# -- the canonical form in one pass (the state digest) ------------------------------------------


class _Slow(Exception):
    """The typed pass met a value its declared type does not promise (a float in an ``int``
    field, a key that is not a string...): the caller takes the generic way, which names
    the fault or gives the bytes it always gave."""


#: the exact types msgpack writes as canonical scalars (a subclass goes the generic way)
_SCALARS = frozenset({int, bool, str, bytes, type(None)})
_STR = frozenset({str})

#: a builder of the canonical data of a value of one type, given the depth of its container
_Normal = Callable[[Any, int], Any]
_NORMALS: dict[Any, _Normal] = {}
#: the dataclasses whose builders are being made (one that refers to itself waits)
_BUILDING: set[Any] = set()


def to_canonical(value: Any, depth: int) -> Any:
    """``canonical.normalize(to_data(value), depth)`` in one pass: maps built in key order,
    sets sorted, scalars checked by type, so the result packs to the canonical bytes as it
    is.  The state digest encodes the whole position at every file of an audit; the two
    passes cost For the Motherland! 0.9 ms of its 1.1 ms a digest (issue 35).  Raises
    :class:`_Slow` where the two passes would raise or write something else (a field
    typed ``Any`` raises the generic walk's own error); the caller then takes them
    (:meth:`pbem.steps.StepState.normal_body`)."""
    return _normal(type(value))(value, depth)


def _normal(tp: Any) -> _Normal:
    found = _NORMALS.get(tp)
    if found is None:
        found = _NORMALS[tp] = _make_normal(tp)
    return found


def _scalar(v: Any, depth: int) -> Any:
    if type(v) not in _SCALARS:
        raise _Slow
    return v


def _is_scalar(tp: Any) -> bool:
    return tp in (int, str, bool, bytes, type(None))


def _pack_key(value: Any) -> bytes:
    # the data is in canonical form already: its msgpack bytes are its canonical bytes
    packed: bytes = canonical.pack_normal(value)
    return packed


def _make_normal(tp: Any) -> _Normal:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if _is_scalar(tp):
        return _scalar
    if tp is Any:
        return canonical.normalize
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if all(type(m.value) in (int, str) for m in tp):
            return lambda v, d: v.value
        return lambda v, d: canonical.normalize(v.value, d)
    if _is_fraction(tp):
        return lambda v, d: [v.numerator, v.denominator]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _made_at_once(tp, _BUILDING, _dataclass_normal, _normal)
    if origin in (typing.Union, types.UnionType):
        one = _normal(_optional(args, tp))
        return lambda v, d: None if v is None else one(v, d)
    if origin in (tuple, list):
        if _fixed(origin, args):
            items = [_normal(a) for a in args]

            def fixed(v: Any, d: int) -> Any:
                if d >= canonical.MAX_DEPTH:
                    raise _Slow
                return [one(x, d + 1) for one, x in zip(items, v, strict=True)]
            return fixed
        rows = _plain_rows(args[0])
        if rows is not None:
            return _rows_sequence(*rows)
        return _sequence(_normal(args[0]), _is_scalar(args[0]), False)
    if origin in (set, frozenset):
        return _sequence(_normal(args[0]), _is_scalar(args[0]), True)
    if origin is dict:
        key, val = _normal(args[0]), _normal(args[1])
        rows = _plain_rows(args[1])
        if args[0] is str and rows is not None:
            names, get = rows

            def str_map_rows(v: Any, d: int) -> Any:
                # a map of records of plain fields (For the Motherland!'s units): their
                # fields read and type-checked in a few C calls, not one Python call each
                if d + 1 >= canonical.MAX_DEPTH or not set(map(type, v)) <= _STR:
                    raise _Slow
                keys = sorted(v)
                return dict(zip(keys, _checked_maps(names, get, map(v.__getitem__, keys)),
                                strict=True))
            return str_map_rows
        if args[0] is str:
            def str_map(v: Any, d: int) -> Any:
                if d >= canonical.MAX_DEPTH or not set(map(type, v)) <= _STR:
                    raise _Slow
                inner = d + 1
                return {k: val(v[k], inner) for k in sorted(v)}
            return str_map

        def pairs(v: Any, d: int) -> Any:
            if d + 1 >= canonical.MAX_DEPTH:  # the list and its pairs
                raise _Slow
            inner = d + 2
            out = [[key(k, inner), val(x, inner)] for k, x in v.items()]
            out.sort(key=lambda kv: _pack_key(kv[0]))
            return out
        return pairs
    raise TypeError(f"no canonical form for {tp!r}")


def _plain_rows(tp: Any) -> tuple[tuple[str, ...], Callable[[Any], Any]] | None:
    """A dataclass of two or more fields all of plain types: its field names in map order
    and a getter of their values as one tuple; None for any other type."""
    fields = _record_fields(tp, _is_scalar)
    if fields is None:
        return None
    names = tuple(sorted(name for name, _ in fields))
    return names, operator.attrgetter(*names)


def _sequence(item: _Normal, scalar: bool, unordered: bool) -> _Normal:
    def sequence(v: Any, d: int) -> Any:
        if d >= canonical.MAX_DEPTH:
            raise _Slow
        if scalar:
            if not set(map(type, v)) <= _SCALARS:
                raise _Slow
            out = list(v)
        else:
            inner = d + 1
            out = [item(x, inner) for x in v]
        if unordered:
            out.sort(key=_pack_key)
        return out
    return sequence


def _rows_sequence(names: tuple[str, ...], get: Callable[[Any], Any]) -> _Normal:
    """A list of records of plain fields (White Death's schedule and bunkers): their fields
    read, type-checked and made maps in a few C calls, not a Python call a record (issue
    35); what :func:`_sequence` over :func:`_dataclass_normal` builds or refuses."""
    def rows(v: Any, d: int) -> Any:
        if d + (1 if v else 0) >= canonical.MAX_DEPTH:  # the list and any records in it
            raise _Slow
        return _checked_maps(names, get, v)
    return rows


def _checked_maps(names: tuple[str, ...], get: Callable[[Any], Any],
                  records: Iterable[Any]) -> list[dict[str, Any]]:
    """The canonical maps of records of plain fields (``get``: their values in map order,
    one tuple a record), every value checked a scalar (:class:`_Slow` where one is not)."""
    values = list(map(get, records))
    if not set(map(type, itertools.chain.from_iterable(values))) <= _SCALARS:
        raise _Slow
    return _maps(names, values)


def _maps(names: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The canonical maps of records from their values in map order (``names``), in a few
    C calls, not a Python call a record."""
    return list(map(dict, map(zip, itertools.repeat(names), rows)))


def _dataclass_normal(tp: type) -> _Normal:
    fields = sorted(_fields(tp))  # a map's keys in canonical (code-point) order
    names = tuple(name for name, _ in fields)
    if not names:
        def empty(v: Any, d: int) -> Any:
            if d >= canonical.MAX_DEPTH:
                raise _Slow
            return {}
        return empty
    get = operator.attrgetter(*names)
    # the fields of a type that is not plain data, by their place in the map
    typed = [(i, _normal(hint)) for i, (_, hint) in enumerate(fields) if not _is_scalar(hint)]
    plain = [i for i, (_, hint) in enumerate(fields) if _is_scalar(hint)]
    get_plain = operator.itemgetter(*plain) if len(plain) > 1 else None

    def normal(v: Any, d: int) -> Any:
        if d >= canonical.MAX_DEPTH:
            raise _Slow
        values = get(v)
        if len(names) == 1:
            values = (values,)
        if not typed:
            if not set(map(type, values)) <= _SCALARS:
                raise _Slow
            return dict(zip(names, values, strict=True))
        if get_plain is not None:
            if not set(map(type, get_plain(values))) <= _SCALARS:
                raise _Slow
        elif plain and type(values[plain[0]]) not in _SCALARS:
            raise _Slow
        out = list(values)
        inner = d + 1
        for i, one in typed:
            out[i] = one(out[i], inner)
        return dict(zip(names, out, strict=True))
    return normal


def to_canonical_bytes(value: Any, depth: int) -> bytes:
    """``canonical.pack_normal(to_canonical(value, depth))``, a dataclass written field by
    field, so that a map of records of plain fields (For the Motherland!'s 171 units) is
    written from each record's bytes as an earlier digest wrote them when the record
    holds what it held then: most of a position does not change from one file to the
    next, and building and packing every record again was most of the digest (issue 35).
    Raises as :func:`to_canonical`."""
    return _packer(type(value))(value, depth)


_Packer = Callable[[Any, int], bytes]
_PACKERS: dict[Any, _Packer] = {}
#: the records a map of plain records keeps encoded, at most, before it starts again
RECORDS_KEPT = 8192
#: the packers that keep some part encoded (a dataclass holding none is packed in one go)
_KEEPING: set[_Packer] = set()


def _packer(tp: Any) -> _Packer:
    found = _PACKERS.get(tp)
    if found is None:
        found = _PACKERS[tp] = _make_packer(tp)
    return found


def _make_packer(tp: Any) -> _Packer:
    if (typing.get_origin(tp) is dict and typing.get_args(tp)[0] is str
            and _keyed_fields(typing.get_args(tp)[1]) is not None):
        return _records_packer(typing.get_args(tp)[1], _normal(tp))
    if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)) or tp in _BUILDING:
        normal = _normal(tp)
        return lambda v, d: canonical.pack_normal(normal(v, d))
    _BUILDING.add(tp)
    try:
        fields = sorted(_fields(tp))
        names = tuple(name for name, _ in fields)
        packers = [_packer(hint) for _, hint in fields]
    finally:
        _BUILDING.discard(tp)
    if len(names) < 2 or not _KEEPING.intersection(packers):
        # nothing inside is kept encoded: one pack of the whole is the quicker
        normal = _normal(tp)
        return lambda v, d: canonical.pack_normal(normal(v, d))
    get = operator.attrgetter(*names)
    # canonical.pack_map's bytes, its head written once: the same at every digest
    head = canonical.map_header(len(names))
    parts = _packed_parts(fields, packers)

    def pack(v: Any, d: int) -> bytes:
        if d >= canonical.MAX_DEPTH:
            raise _Slow
        inner = d + 1
        values = get(v)
        out = [head]
        for key, one, run, cut in parts:
            if one is not None:
                out.append(key)
                out.append(one(values[run[0][0]], inner))
            else:
                out.append(canonical.pack_normal(
                    {name: normal(values[i], inner) for i, name, normal in run})[cut:])
        return b"".join(out)
    _KEEPING.add(pack)
    return pack


#: a part of a dataclass's map as :func:`_make_packer` writes it: a field kept encoded
#: (its key's bytes, its packer, its place) or a run of other fields (no packer, their
#: places, names and builders, and the head of the map they make, cut off its bytes)
_Part = tuple[bytes, _Packer | None, list[tuple[int, str, _Normal]], int]


def _packed_parts(fields: list[tuple[str, Any]], packers: list[_Packer]) -> list[_Part]:
    """The fields in map order cut into parts: each run of fields that keep nothing
    encoded is built as one map and packed in one call, less the map's head (a map's
    bytes are its head and then its keys' and values' bytes in turn); White Death's
    position has 33 such fields around its units, and a pack each was a third of its
    digest (issue 35)."""
    parts: list[_Part] = []
    run: list[tuple[int, str, _Normal]] = []
    for i, ((name, hint), one) in enumerate(zip(fields, packers, strict=True)):
        if one in _KEEPING:
            if run:
                parts.append((b"", None, run, len(canonical.map_header(len(run)))))
                run = []
            parts.append((canonical.pack_normal(name), one, [(i, name, _normal(hint))], 0))
        else:
            run.append((i, name, _normal(hint)))
    if run:
        parts.append((b"", None, run, len(canonical.map_header(len(run)))))
    return parts


def _keyed_fields(tp: Any) -> list[tuple[str, frozenset[Any], frozenset[Any] | None]] | None:
    """For a dataclass of two or more fields each of which a value of exactly its declared
    type stands for by equality (plain types, enums, Fraction, a set of ``int``, ``str`` or
    ``bytes``): per field in map order, its name, the one type its values may have, and
    the one type of a set's elements (None for a field that is not a set); None for any
    other type."""
    if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
        return None
    fields = sorted(_fields(tp))
    if len(fields) < 2:
        return None
    out: list[tuple[str, frozenset[Any], frozenset[Any] | None]] = []
    for name, hint in fields:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if (_is_scalar(hint) or _is_fraction(hint)
                or (isinstance(hint, type) and issubclass(hint, enum.Enum))):
            out.append((name, frozenset({hint}), None))
        elif origin in (set, frozenset) and args[0] in (int, str, bytes):
            out.append((name, frozenset({origin}), frozenset({args[0]})))
        else:
            return None
    return out


def _records_packer(record: Any, normal: _Normal) -> _Packer:
    """The bytes of a ``dict[str, record]``, each record's bytes kept by its fields' values
    (a set's as a frozenset).  Kept only where every field holds exactly its declared type,
    so that equal values are the same values (``True == 1`` and ``1.0 == 1`` in Python, not
    in msgpack); anything else is written the unkept way (``normal``), as before."""
    spec = _keyed_fields(record)
    assert spec is not None
    names = tuple(name for name, _, _ in spec)
    get = operator.attrgetter(*names)
    sets = [(i, kind == frozenset({set})) for i, (_, kind, elements) in enumerate(spec)
            if elements is not None]
    one = _normal(record)
    # records of plain fields and sets of them: a new one's map is built from the values
    # read and checked above, not read and checked again by its builder (``one``): the
    # first digest of a command writes every record (issue 35)
    plain = all(elements is not None or all(map(_is_scalar, kind)) for _, kind, elements in spec)
    set_places = [i for i, _ in sets]

    def built(row: tuple[Any, ...]) -> dict[str, Any]:
        out = list(row)
        for i in set_places:  # a set as its elements in canonical order
            out[i] = sorted(out[i], key=_pack_key)
        return dict(zip(names, out, strict=True))
    kept: dict[tuple[Any, ...], bytes] = {}
    keys: dict[str, bytes] = {}

    def pack(v: Any, d: int) -> bytes:
        if d + 1 >= canonical.MAX_DEPTH or not set(map(type, v)) <= _STR:
            raise _Slow
        order = sorted(v)
        records = list(map(v.__getitem__, order))
        values = list(map(get, records))
        if values:
            columns = list(zip(*values, strict=True))
            if not all(set(map(type, column)) <= want for (_, want, _), column
                       in zip(spec, columns, strict=True)):
                return canonical.pack_normal(normal(v, d))
            for i, mutable in sets:
                elements = spec[i][2]
                assert elements is not None
                if not set(map(type, itertools.chain.from_iterable(columns[i]))) <= elements:
                    return canonical.pack_normal(normal(v, d))
                if mutable:  # a set is no key: the frozenset of its elements is
                    columns[i] = tuple(map(frozenset, columns[i]))
            if any(mutable for _, mutable in sets):
                values = list(zip(*columns, strict=True))
        try:
            packed = [kept[row] for row in values]
        except KeyError:
            if len(kept) + len(values) > RECORDS_KEPT:
                kept.clear()
            inner = d + 1
            if plain and sets and inner + 1 >= canonical.MAX_DEPTH:
                raise _Slow from None  # where the record's own builder refuses its sets
            # the records not kept (each once), packed in one C pass: at a command's
            # first digest that is every record (issue 35)
            new: dict[tuple[Any, ...], Any] = {}
            for row, item in zip(values, records, strict=True):
                if row not in kept and row not in new:
                    new[row] = item
            if not plain:
                normals = [one(item, inner) for item in new.values()]
            elif set_places:
                normals = list(map(built, new))
            else:
                normals = _maps(names, new)
            kept.update(zip(new, canonical.pack_each(normals), strict=True))
            packed = [kept[row] for row in values]
        try:
            names_packed = [keys[key] for key in order]
        except KeyError:
            if len(keys) + len(order) > RECORDS_KEPT:
                keys.clear()
            fresh = [key for key in order if key not in keys]
            keys.update(zip(fresh, canonical.pack_each(fresh), strict=True))
            names_packed = [keys[key] for key in order]
        return canonical.map_header(len(order)) + b"".join(
            itertools.chain.from_iterable(zip(names_packed, packed, strict=True)))
    _KEEPING.add(pack)
    return pack
