"""The code :mod:`dataclasses` generates, kept beside each module's compiled bytecode.

Making a dataclass compiles the source text of its ``__init__``, ``__repr__``, ``__eq__``
(and ``__setattr__``, ``__delattr__``, ``__hash__`` when frozen) from strings, at every
start: 2-4 M instructions a class, and a command imports dozens (pbem's act path about 40,
For the Motherland! about 90: a third of ``pbem legal``'s time before any rule runs,
issue 19).  Python keeps a module's own compiled code in ``__pycache__``; this keeps the
generated methods' code there too, for pbem's and its engines' modules only, in
``<module>.<tag>.dataclasses`` beside ``<module>.<tag>.pyc``.

What is kept is exactly what ``exec`` would compile: each entry is found by the whole
source text dataclasses wrote (never a hash of it), compiled as ``exec`` compiles it from
``dataclasses.py`` (file name ``<string>``, no ``__future__`` flags), and run in the same
namespaces.  On Python 3.11 a class of these modules is made from a record instead
(issue 35: writing the methods' text out again to find their code, and the rest of
dataclasses' steps, cost 0.52 M instructions a class of six fields): the code
dataclasses compiled for a class of the same shape (the decorator's arguments and every
field's name, kind and flags), each method made from its code with the defaults,
annotations and closure its ``__create_fn__`` would give it; anything else
is made by dataclasses itself (:func:`_process_class`).  A file written by another Python
build, unreadable or damaged is ignored and replaced (a record that does not fit its
class is not used); a folder that cannot be written (or ``PYTHONDONTWRITEBYTECODE``) only
means compiling as before.  The file is as trusted as the ``.pyc`` beside it: whoever can
write one can write the other.
"""

# no 'from __future__ import annotations' here: exec and compile called from this module
# would pass its flags on to the code dataclasses generates

import abc
import atexit
import builtins
import contextlib
import dataclasses
import functools
import marshal
import os
import re
import sys
from _thread import get_ident
from collections.abc import Sequence
from types import (
    CellType,
    CodeType,
    FunctionType,
    GetSetDescriptorType,
    MemberDescriptorType,
)
from typing import Any

#: the modules whose dataclasses are kept: pbem's and the bundled engines' (one
#: distribution, so an uninstall takes their __pycache__ with it), and a package that
#: asks with :func:`keep`; never a library pbem merely uses
PREFIXES: tuple[str, ...] = ("pbem.", "engines.")
#: an entry's key: the source text dataclasses wrote (its ``exec``), or a method's shape
#: (:func:`_process_class`: the method's name and what of the class its text depends on)
Key = str | tuple[Any, ...]
#: an entry: the code of a source text, or a shape's record (the methods' names and, in
#: the order dataclasses made them, the code of the __init__'s __create_fn__ and of each
#: other method itself: that one's __create_fn__ only closes the method over nothing,
#: or over the class and FrozenInstanceError, which :func:`_apply` does directly)
Record = tuple[tuple[str, ...], tuple[CodeType, ...]]
Entry = CodeType | Record
#: the file starts with this: code from another interpreter build is never loaded
HEADER = b"pbem-dataclass-code 4\0" + sys.version.encode() + b"\0"
SUFFIX = ".dataclasses"

#: by module name: the entries its file held; those this process used; the modules that
#: compiled something their file did not hold (their files are written at exit, with
#: what was used: an entry of a class since changed goes)
_kept: dict[str, dict[Key, Entry]] = {}
_used: dict[str, dict[Key, Entry]] = {}
_missed: set[str] = set()
_paths: dict[str, str] = {}
#: top-level modules kept by name (a prefix ends with a dot: it names a package's modules)
_exact: set[str] = set()


def _path(cached: str) -> str:
    base = cached[:-4] if cached.endswith(".pyc") else cached
    return base + SUFFIX


def _read(path: str) -> dict[Key, Entry]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if not data.startswith(HEADER):
            return {}
        table = marshal.loads(data[len(HEADER):])
    except Exception:  # missing, unreadable or damaged: compiled as before
        return {}
    if type(table) is not dict or not all(
            type(k) in (str, tuple) and type(v) in (CodeType, tuple)
            for k, v in table.items()):
        return {}
    return table


def _table(module: str, cached: str) -> dict[Key, Entry]:
    kept = _kept.get(module)
    if kept is None:
        _paths[module] = _path(cached)
        kept = _kept[module] = _read(_paths[module])
        _used[module] = {}
    return kept


def _code(module: str, cached: str, source: str) -> CodeType:
    kept = _table(module, cached)
    entry = kept.get(source)
    code = entry if type(entry) is CodeType else None
    captured = _captured.get(get_ident()) if _captured else None
    if captured is not None:
        # a method of a class whose record this thread is making: kept in the record
        code = code or _compile(source)
        captured.append(code)
        return code
    if code is None:
        code = _compile(source)
        _missed.add(module)
    _used[module][source] = code
    return code


def _compile(source: str) -> CodeType:
    # as exec compiles a string called from dataclasses.py: no __future__ flags (the
    # 'annotations' flag would turn the generated annotations into strings)
    return compile(source, "<string>", "exec", dont_inherit=True)


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` as dataclasses calls it, with the compiled code kept per module."""
    if type(source) is str and type(globals) is dict:
        module = globals.get("__name__")
        cached = globals.get("__cached__")
        if type(module) is str and type(cached) is str and (
                module.startswith(PREFIXES) or module in _exact):
            builtins.exec(_code(module, cached, source), globals, locals)
            return
        source = _compile(source)
    builtins.exec(source, globals, locals)


def save() -> None:
    """Write the file of each module that compiled something new (at exit)."""
    if sys.dont_write_bytecode:
        return
    for module in sorted(_missed):
        path = _paths[module]
        table = _used[module]
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as handle:
                handle.write(HEADER + marshal.dumps(table))
            os.replace(tmp, path)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _missed.clear()


def keep(package: str) -> None:
    """Keep the generated code of module ``package`` and of its modules too: an engine
    from another distribution may call this from its own package (the registry does not:
    the kept file would outlive that engine's uninstall)."""
    global PREFIXES
    if not (package + ".").startswith(PREFIXES):
        PREFIXES = (*PREFIXES, package + ".")
    _exact.add(package)


class KeptMatches:
    """dataclasses' pattern for a string annotation's ``module.name`` head, each string's
    match kept for the next field that has the same annotation.

    With ``from __future__ import annotations`` (every module of pbem and its engines)
    each field's annotation is a string, and dataclasses matches it against this pattern
    three times (is it a ``ClassVar``, an ``InitVar``, a ``KW_ONLY``?): 0.15 M
    instructions of a six-field class's 0.75 M (issue 35), and the same few strings
    (``int``, ``str``, ``HexId``) come back in every class.  A match depends on the string
    alone, and a match object is never changed by reading it, so the kept one is the one
    a fresh match would give; what dataclasses does with it is unchanged."""

    __slots__ = ("match", "pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.match = functools.cache(pattern.match)

    def __getattr__(self, name: str) -> Any:
        # any other use of the pattern (another Python's dataclasses) reads it unkept
        return getattr(self.pattern, name)


#: by thread: the module codes ``_exec`` ran while dataclasses made a class whose record
#: was not kept (:func:`_process_class`), in order (another thread's import may make
#: a class of its own meanwhile)
_captured: dict[int, list[CodeType]] = {}
#: how each class of the kept modules was made this process: from its kept record
#: ("kept"), by dataclasses with its record kept for the next process ("new"), or by
#: dataclasses alone ("plain": a class :func:`_process_class` does not take on)
made: dict[str, int] = {"kept": 0, "new": 0, "plain": 0}
#: dataclasses' own ``_process_class``, which :func:`_process_class` falls back on
_plain_process: Any = None
#: a string annotation's ``module.name`` head as dataclasses' pattern matches it: (module
#: or None, name), or () where it does not match
_heads: dict[str, tuple[str | None, str] | tuple[()]] = {}
_dc: Any = dataclasses
_KW = 3  # the KW_ONLY marker: no field
#: the methods a record may hold: __init__'s __create_fn__ takes the values _init_fn
#: passes; the frozen ones close over (cls, FrozenInstanceError), the rest over nothing
_METHODS = frozenset(("__init__", "__repr__", "__eq__", "__lt__", "__le__", "__gt__",
                      "__ge__", "__setattr__", "__delattr__", "__hash__"))
_FROZEN = ("__setattr__", "__delattr__")
_FROZEN_CELLS = frozenset(("cls", "FrozenInstanceError"))
_FROZEN_FREES = ("FrozenInstanceError", "cls")
#: _methods' answers, by the decorator's arguments and whether a __hash__ is added
_made_methods: dict[tuple[tuple[bool, ...], bool],
                    tuple[tuple[str, ...], tuple[frozenset[str], ...]]] = {}


def _head(annotation: str) -> tuple[str | None, str] | tuple[()]:
    pattern = _dc._MODULE_IDENTIFIER_RE
    found = getattr(pattern, "pattern", pattern).match(annotation)
    head: tuple[str | None, str] | tuple[()] = (
        (found.group(1), found.group(2)) if found else ())
    _heads[annotation] = head
    return head


def _kind(annotation: str, cls: type, ns: dict[str, Any], typing: Any) -> int:
    """0 a field, 1 a ClassVar, 2 an InitVar, 3 the KW_ONLY marker: as dataclasses'
    ``_is_type`` decides for a string annotation (Python 3.11), asked in its order."""
    head = _heads.get(annotation)
    if head is None:
        head = _head(annotation)
    if not head:
        return 0
    if head[0] is None:
        # dataclasses looks the bare name up in the class's module: a name the module
        # does not define (int, str, tuple[...]) is none of the three
        value = ns.get(head[1])
        if value is None:
            return 0
        if _dc._is_kw_only(value, _dc):
            return _KW
        if _dc._is_classvar(value, typing):
            return 1
        return 2 if _dc._is_initvar(value, _dc) else 0
    if _dc._is_type(annotation, cls, _dc, _dc.KW_ONLY, _dc._is_kw_only):
        return _KW
    if _dc._is_type(annotation, cls, typing, typing.ClassVar, _dc._is_classvar):
        return 1
    return 2 if _dc._is_type(annotation, cls, _dc, _dc.InitVar, _dc._is_initvar) else 0


def _record(captured: list[CodeType]) -> Record | None:
    """(the methods' names, the code of the __init__'s __create_fn__ and of each other
    method) of the module codes dataclasses ran for a class, in its order.

    Only the __init__'s __create_fn__ does work worth its code: it makes the __init__'s
    defaults, keyword defaults, annotations and closure from the values passed; the
    others' only close their method over what they are given.  Keeping the method alone
    makes the file a fifth smaller (Backhand Blow's act reads 169 KB of it, issue 35)
    and saves calling one function a method."""
    names = []
    codes = []
    for code in captured:
        outer = [c for c in code.co_consts if type(c) is CodeType]
        inner = [c for c in outer[0].co_consts if type(c) is CodeType] if outer else []
        if len(outer) != 1 or len(inner) != 1 or inner[0].co_name not in _METHODS:
            return None
        names.append(inner[0].co_name)
        codes.append(inner[0])
    return tuple(names), tuple(codes)


def _methods(params: tuple[bool, ...], hash_add: bool
             ) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]]:
    """The methods dataclasses makes (and so a fitting record holds), in its order, and
    the names each but the __init__ may close over (the frozen ones the class and
    FrozenInstanceError, the rest none)."""
    init, repr_, eq, order, _, frozen = params[:6]
    names = ["__init__"] if init else []
    names += ["__repr__"] if repr_ else []
    names += ["__eq__"] if eq else []
    names += ["__lt__", "__le__", "__gt__", "__ge__"] if order else []
    names += ["__setattr__", "__delattr__"] if frozen else []
    names += ["__hash__"] if hash_add else []
    cells = tuple(_FROZEN_CELLS if name in _FROZEN else frozenset()
                  for name in names if name != "__init__")
    _made_methods[params, hash_add] = made = (tuple(names), cells)
    return made


def _process_class(cls: type, init: Any, repr: Any, eq: Any, order: Any,
                   unsafe_hash: Any, frozen: Any, match_args: Any, kw_only: Any,
                   slots: Any, weakref_slot: Any) -> Any:
    """dataclasses' ``_process_class`` (Python 3.11), a class of the kept modules made
    from a record of what dataclasses made for a class of its shape (issue 35).

    The shape is everything the text of the generated methods is written from: the
    decorator's arguments, each field's name, kind (field, ClassVar, InitVar) and flags
    (init, kw_only, repr, compare, hash, whether it has a default or a default factory)
    in dataclasses' order, whether the class has an explicit ``__hash__`` and a
    ``__post_init__``.  The record is the code of each method dataclasses made for it,
    in its order; a class is made from it with the same steps and values dataclasses
    uses (the fields found as it finds them, each method given what its
    ``__create_fn__`` would give it), without writing out and looking up the methods'
    text.  A shape not
    kept, and anything else (an error dataclasses would raise, an argument not a bool,
    an annotation not a string, a module not kept), goes to dataclasses' own, which
    changes nothing it would not; a new shape's record is kept for the next process."""
    params = (init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots,
              weakref_slot)
    shape = _shape(cls, params)
    if shape is None:
        made["plain"] += 1
        return _plain_process(cls, *params)
    module, cached, key, found = shape
    kept = _table(module, cached)
    record = kept.get(key)
    if type(record) is tuple:
        done = _apply(cls, params, found, record)
        if done is not None:
            _used[module][key] = record
            made["kept"] += 1
            return done
    made["new"] += 1
    thread = get_ident()
    captured: list[CodeType] = []
    _captured[thread] = captured
    try:
        done = _plain_process(cls, *params)
    finally:
        del _captured[thread]
    fresh = _record(captured)
    if fresh is not None:
        kept[key] = _used[module][key] = fresh
        _missed.add(module)
    return done


def _shape(cls: Any, params: tuple[Any, ...]) -> Any:
    """(module, its cached path, the class's shape, what _apply needs) of a class this
    takes on, its fields found as dataclasses finds them, with every check dataclasses
    makes before it changes the class; None for a class left to dataclasses.  Changes
    nothing."""
    if tuple(map(type, params)) != _BOOLS:
        return None
    (_, _, eq, order, unsafe_hash, frozen, _, kw_only, slots, weakref_slot) = params
    module = cls.__module__
    if type(module) is not str or not (module.startswith(PREFIXES) or module in _exact):
        return None
    loaded = sys.modules.get(module)
    typing = sys.modules.get("typing")
    if loaded is None or not typing:
        return None
    ns = loaded.__dict__
    cached = ns.get("__cached__")
    own = cls.__dict__
    annotations = own.get("__annotations__", {})
    if type(cached) is not str or type(annotations) is not dict:
        return None
    Field, MISSING = _dc.Field, _dc.MISSING
    class_hash = own.get("__hash__", MISSING)
    has_explicit_hash = not (class_hash is MISSING
                             or (class_hash is None and "__eq__" in own))
    fields: dict[str, Any] = {}  # the bases' Field objects, then this class's places
    shape: dict[str, tuple[Any, ...]] = {}
    any_frozen_base = has_dataclass_bases = False
    # the dicts getattr looks in (:func:`_found`): none but the built-ins' for a class of
    # type's with no base but object (most), found without a call
    bases = cls.__mro__[-2:0:-1]
    dicts = _lookup_dicts(cls) if bases or type(cls) is not type else ()
    # every class's last base is object, which has no __dataclass_fields__; a base's
    # lookup is in dicts among the class's (its classes and metaclass's are), so a name
    # in none of them is no base's
    for base in bases if bases and _found(cls, dicts, "__dataclass_fields__") else ():
        base_fields = getattr(base, "__dataclass_fields__", None)
        if base_fields is not None:
            has_dataclass_bases = True
            for f in base_fields.values():
                fields[f.name] = f
                kind = f._field_type
                shape[f.name] = (
                    f.name, 1 if kind is _dc._FIELD_CLASSVAR else
                    2 if kind is _dc._FIELD_INITVAR else 0, not f.init, not f.kw_only,
                    f.default is MISSING, f.default_factory is MISSING, not f.repr,
                    not f.compare, 2 if f.hash is None else not f.hash)
            if base.__dataclass_params__.frozen:
                any_frozen_base = True
    if has_dataclass_bases and any_frozen_base != frozen:
        return None
    # the Field objects, as _get_field makes them (one the class body gave is changed as
    # dataclasses changes it: a class refused below is then made by dataclasses, which
    # sets the same values on it again); with no dataclass base, in the same pass, what
    # the __init__ takes (:func:`_apply`) and _init_fn's check of the fields' order
    kinds = (_dc._FIELD, _dc._FIELD_CLASSVAR, _dc._FIELD_INITVAR)
    new_field, empty = Field.__new__, _dc._EMPTY_METADATA
    init = params[0]
    alone = not has_dataclass_bases
    marker = _dc._HAS_DEFAULT_FACTORY
    std_types: dict[str, Any] = {}
    kw_types: dict[str, Any] = {}
    std_defaults: list[Any] = []
    kw_defaults: dict[str, Any] = {}
    seen_default = False
    specs = []
    heads = _heads
    kw_only_seen = False
    for name, annotation in annotations.items():
        if type(annotation) is not str:
            return None
        head = heads.get(annotation)
        if head is None:
            head = _head(annotation)
        # a name the module does not define (int, str, tuple[...]) is a plain field
        if head and (head[0] is not None or ns.get(head[1]) is not None):
            kind = _kind(annotation, cls, ns, typing)
            if kind == _KW:
                if kw_only_seen:
                    return None
                kw_only_seen = kw_only = True
                continue
        else:
            kind = 0
        # _found written out (a call a field is as dear as the AttributeError it saves)
        default = getattr(cls, name, MISSING) if (
            name in own or dicts is None or name in _BUILTIN_NAMES
            or (dicts and _found(cls, dicts, name))) else MISSING
        if type(default) not in _PLAIN:
            if isinstance(default, Field):
                value, factory, kw = (default.default, default.default_factory,
                                      default.kw_only)
                if ((kind and factory is not MISSING) or (kind == 1 and kw is not MISSING)
                        or (kind == 0 and value.__class__.__hash__ is None)):
                    return None
                specs.append(name)
                shape[name] = (name, kind, not default.init, not kw_only if kw is MISSING
                               else not kw, value is MISSING, factory is MISSING,
                               not default.repr, not default.compare,
                               2 if default.hash is None else not default.hash)
                f = default
                if kind != 1 and kw is MISSING:
                    f.kw_only = kw_only
                f.name = name
                f.type = annotation
                f._field_type = kinds[kind]
                fields[name] = f
                if alone and kind != 1 and f.init:
                    if value is MISSING and factory is not MISSING:
                        value = marker
                    if f.kw_only:
                        kw_types[name] = annotation
                        if value is not MISSING:
                            kw_defaults[name] = value
                    else:
                        std_types[name] = annotation
                        if value is not MISSING:
                            std_defaults.append(value)
                            seen_default = True
                        elif seen_default and init:
                            return None
                continue
            if isinstance(default, MemberDescriptorType):
                default = MISSING
            elif kind == 0 and default.__class__.__hash__ is None:
                return None
        # field(default=default): init, repr and compare true, hash None, no factory;
        # every slot Field.__init__ sets, set here
        shape[name] = (name, kind, kw_only, default is MISSING)
        f = new_field(Field)
        f.name = name
        f.type = annotation
        f.default = default
        f.default_factory = MISSING
        f.init = f.repr = f.compare = True
        f.hash = None
        f.metadata = empty
        f.kw_only = MISSING if kind == 1 else kw_only
        f._field_type = kinds[kind]
        fields[name] = f
        if alone and kind != 1:
            if kw_only:
                kw_types[name] = annotation
                if default is not MISSING:
                    kw_defaults[name] = default
            else:
                std_types[name] = annotation
                if default is not MISSING:
                    std_defaults.append(default)
                    seen_default = True
                elif seen_default and init:
                    return None
    for name, value in own.items():
        if type(value) not in _NOT_FIELD and isinstance(value, Field) and (
                name not in annotations):
            return None
    hash_action = _dc._hash_action[unsafe_hash, eq, frozen, has_explicit_hash]
    if ((order and not eq) or hash_action is _dc._hash_exception
            or (order and any(name in own for name in ("__lt__", "__le__", "__gt__", "__ge__")))
            or (frozen and ("__setattr__" in own or "__delattr__" in own))
            or (weakref_slot and not slots) or (slots and "__slots__" in own)
            or "__post_init__" in fields):
        return None
    has_post_init = "__post_init__" in own or (
        (dicts or dicts is None) and _found(cls, dicts, "__post_init__")
        and hasattr(cls, "__post_init__"))
    key = (params, has_explicit_hash, has_post_init, *shape.values())
    return module, cached, key, (ns, fields, (
        std_types, kw_types, std_defaults, kw_defaults) if alone else None, specs,
        hash_action)


def _apply(cls: Any, params: tuple[Any, ...], found: tuple[Any, ...],
           record: tuple[Any, ...]) -> Any:
    """The class made from its shape's record, in dataclasses' steps (None, the class
    unchanged, for a record that does not fit: a file damaged, or from another build)."""
    (init, repr_, eq, order, unsafe_hash, frozen, match_args, _, slots,
     weakref_slot) = params
    ns, fields, made_init, specs, hash_action = found
    dc = _dc
    Field, MISSING = dc.Field, dc.MISSING
    # the __init__'s parameters as _init_fn writes them (the fields in init, those not
    # keyword-only first), with what its __create_fn__ gives the function: each one's
    # annotation and default, and its check of the fields' order (_shape's, for a class
    # with no dataclass base)
    if made_init is not None:
        std_types, kw_types, std_defaults, kw_defaults = made_init
    else:
        classvar, marker = dc._FIELD_CLASSVAR, dc._HAS_DEFAULT_FACTORY
        std_types, kw_types, std_defaults, kw_defaults = {}, {}, [], {}
        seen_default = False
        for f in fields.values():
            if f._field_type is classvar or not f.init:
                continue
            name, default = f.name, f.default
            if default is MISSING and f.default_factory is not MISSING:
                default = marker
            if f.kw_only:
                kw_types[name] = f.type
                if default is not MISSING:
                    kw_defaults[name] = default
            else:
                std_types[name] = f.type
                if default is not MISSING:
                    std_defaults.append(default)
                    seen_default = True
                elif seen_default and init:
                    return None
    # the record holds the methods dataclasses makes for these arguments, each closing
    # over no more than its __create_fn__ gives it, the __init__ taking these parameters
    # (else it is not one _record made: a file damaged)
    hash_add = hash_action is dc._hash_add
    expected, cells = _made_methods.get((params, hash_add)) or _methods(params, hash_add)
    try:
        names, codes = record
        if names != expected or len(codes) != len(names):
            return None
        # zip's strict keyword is parsed at each call: the lengths are equal here (the
        # names are the expected ones, and there is a code a name and cells a method)
        for code, name, allowed in zip(codes[init:], names[init:], cells):  # noqa: B905
            if (type(code) is not CodeType or code.co_name != name
                    or not allowed.issuperset(code.co_freevars)):
                return None
        made_init_fn: Any = _init(codes[0], ns, fields, std_types, kw_types,
                                  std_defaults, kw_defaults) if init else None
        if init and made_init_fn is None:
            return None
    except (TypeError, ValueError, AttributeError):
        return None

    cls.__dataclass_params__ = dc._DataclassParams(init, repr_, eq, order, unsafe_hash,
                                                   frozen)
    for name in specs:
        # dataclasses reads each field's attribute again here: nothing has set one since
        # it was read, so only one that was a Field (field(...)) can be one
        f = fields[name]
        if isinstance(getattr(cls, name, None), Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = fields
    own = cls.__dict__
    qualname = cls.__qualname__
    for name, code in zip(names, codes):  # noqa: B905 (their lengths checked above)
        if name == "__init__":
            fn = made_init_fn
        elif name in _FROZEN:
            # the cells in the order the code names them, as its __create_fn__ makes them
            # (the order dataclasses' code has, without a generator's frame)
            frees = code.co_freevars
            fn = FunctionType(code, ns, None, None, (
                CellType(dc.FrozenInstanceError), CellType(cls)) if frees == _FROZEN_FREES
                else tuple(CellType(cls if free == "cls" else dc.FrozenInstanceError)
                           for free in frees) or None)
        else:
            fn = FunctionType(code, ns)
            if name == "__repr__":
                fn = _recursive_repr(fn)
            elif name == "__hash__":
                fn.__qualname__ = f"{qualname}.{fn.__name__}"
                cls.__hash__ = fn
                continue
        # dataclasses' _set_new_attribute: never over a method the class defines
        if name not in own:
            fn.__qualname__ = f"{qualname}.{fn.__name__}"
            setattr(cls, name, fn)
    if hash_action is dc._hash_set_none:
        cls.__hash__ = None
    if not cls.__doc__:
        try:
            text_sig = str(dc.inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text_sig = ""
        cls.__doc__ = cls.__name__ + text_sig
    if match_args and "__match_args__" not in own:
        setattr(cls, "__match_args__", tuple(std_types))  # noqa: B010 (mypy: read-only)
    if slots:
        cls = dc._add_slots(cls, frozen, weakref_slot)
    # its first step, hasattr(cls, "__abstractmethods__"), is False for a class of type's
    # (the attribute is type's, read from the class's own dict), and missing costs an
    # AttributeError made and dropped; ABCMeta gives every class of its one
    if type(cls) is not type or "__abstractmethods__" in cls.__dict__:
        abc.update_abstractmethods(cls)
    return cls


def _lookup_dicts(cls: type) -> Sequence[Any] | None:
    """The dicts other than the class's own and the built-in ``type``'s and ``object``'s
    (:data:`_BUILTIN_NAMES`) where ``getattr(cls, name)`` finds a name: its bases' and
    its metaclass's classes' but those two, for a metaclass that looks names up as type does
    (no ``__getattribute__`` or ``__getattr__`` of its own); None for any other."""
    meta: Any = type(cls)
    metas = [] if meta is type else [
        k.__dict__ for k in meta.__mro__ if k is not type and k is not object]
    for d in metas:
        if "__getattribute__" in d or "__getattr__" in d:
            return None
    return [k.__dict__ for k in cls.__mro__[1:-1]] + metas


def _found(cls: type, dicts: Sequence[Any] | None, name: str) -> bool:
    """Whether ``getattr(cls, name)`` may find ``name``, ``dicts`` as
    :func:`_lookup_dicts` gave them: a name in none of the dicts is missing, known
    without the AttributeError getattr makes and drops (2.4 K instructions: most fields
    have no default)."""
    if dicts is None or name in cls.__dict__ or name in _BUILTIN_NAMES:
        return True
    for d in dicts:  # noqa: SIM110 (any() of a generator: a frame more a field)
        if name in d:
            return True
    return False


def _init(code: Any, ns: dict[str, Any], fields: dict[str, Any],
          std_types: dict[str, Any], kw_types: dict[str, Any], std_defaults: list[Any],
          kw_defaults: dict[str, Any]) -> Any:
    """The __init__ its __create_fn__ makes (Python 3.11's ``_init_fn``): the kept code
    with the parameters' defaults and keyword defaults, their annotations (then the
    return's, None) and a cell for each value the code closes over, a field's default or
    default factory (``_dflt_NAME``) or one of the three _init_fn always passes; None for
    code that takes other parameters or closes over anything else (a file damaged)."""
    if (type(code) is not CodeType or code.co_name != "__init__"
            or code.co_argcount != len(std_types) + 1
            or code.co_kwonlyargcount != len(kw_types)):
        return None
    MISSING, classvar = _dc.MISSING, _dc._FIELD_CLASSVAR
    closure = []
    for free in code.co_freevars:
        if free.startswith("_dflt_"):
            f = fields.get(free[6:])
            if f is None or f._field_type is classvar:
                return None
            factory = f.default_factory
            closure.append(CellType(f.default if factory is MISSING else factory))
        elif free == "_HAS_DEFAULT_FACTORY":
            closure.append(CellType(_dc._HAS_DEFAULT_FACTORY))
        elif free == "__dataclass_builtins_object__":
            closure.append(CellType(object))
        elif free == "MISSING":
            closure.append(CellType(MISSING))
        else:
            return None
    fn = FunctionType(code, ns, None, tuple(std_defaults) or None, tuple(closure) or None)
    if kw_defaults:
        fn.__kwdefaults__ = kw_defaults
    fn.__annotations__ = {**std_types, **kw_types, "return": None}
    return fn


def _recursive_repr(fn: Any) -> Any:
    """dataclasses' ``_recursive_repr(fn)``: its wrapper, made from its own code, with
    what ``functools.wraps`` copies onto it (Python 3.11's WRAPPER_ASSIGNMENTS)."""
    if _wrapper is None:
        return _dc._recursive_repr(fn)
    wrapper = FunctionType(_wrapper, _dc.__dict__, None, None,
                           (CellType(set()), CellType(fn)))
    wrapper.__module__ = fn.__module__
    wrapper.__name__ = fn.__name__
    wrapper.__qualname__ = fn.__qualname__
    wrapper.__doc__ = fn.__doc__
    wrapper.__annotations__ = fn.__annotations__
    wrapper.__dict__.update(fn.__dict__)
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def _wrapper_code() -> CodeType | None:
    # the wrapper's code, where it closes over (repr_running, user_function) and wraps
    # copies the five attributes and __dict__ above; else dataclasses' own is called
    found = [c for c in _dc._recursive_repr.__code__.co_consts if type(c) is CodeType]
    if (len(found) == 1 and found[0].co_freevars == ("repr_running", "user_function")
            and functools.WRAPPER_ASSIGNMENTS == (
                "__module__", "__name__", "__qualname__", "__doc__", "__annotations__")
            and functools.WRAPPER_UPDATES == ("__dict__",)):
        return found[0]
    return None


_BOOLS = (bool,) * 10  # the decorator's ten arguments (Python 3.11)
#: types whose instances are neither a Field nor a slot's descriptor (isinstance of them
#: is False: none can claim another __class__), and whose instances hash: a default of
#: one is taken as it is, without isinstance's slower look at __class__
_PLAIN = frozenset((str, int, bool, float, complex, bytes, tuple, frozenset, type(None),
                    type(dataclasses.MISSING)))
#: the same for what else a class body holds: no Field among them
_NOT_FIELD = _PLAIN | {dict, FunctionType, staticmethod, classmethod, property,
                       GetSetDescriptorType}
_wrapper: CodeType | None = None
#: the names of the built-in type and object, whose dicts never change: where a class
#: of type's with no other base finds a name its own dict lacks
_BUILTIN_NAMES = frozenset(vars(type)) | frozenset(vars(object))


def install() -> None:
    """Route dataclasses' one ``exec`` through :func:`_exec`, its ``_process_class``
    through :func:`_process_class` (Python 3.11's, whose steps that follows), and keep
    the matches of its annotation pattern (:class:`KeptMatches`), once per process."""
    global _plain_process, _wrapper
    if vars(dataclasses).get("exec") is None:
        dataclasses.exec = _exec  # type: ignore[attr-defined]
        atexit.register(save)
        plain = vars(dataclasses).get("_process_class")
        if sys.version_info[:2] == (3, 11) and plain is not None:
            _wrapper = _wrapper_code()
            _plain_process = plain
            dataclasses._process_class = _process_class  # type: ignore[attr-defined]
    pattern = vars(dataclasses).get("_MODULE_IDENTIFIER_RE")
    # a compiled pattern, as Python 3.11's dataclasses has; one already wrapped, or a
    # dataclasses without it, is left as it is
    if isinstance(pattern, re.Pattern):
        dataclasses._MODULE_IDENTIFIER_RE = KeptMatches(pattern)  # type: ignore[attr-defined]
