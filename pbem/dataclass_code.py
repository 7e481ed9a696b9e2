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
namespaces.  A file written by another Python build, unreadable or damaged is ignored
and replaced; a folder that cannot be written (or ``PYTHONDONTWRITEBYTECODE``) only means
compiling as before.  The file is as trusted as the ``.pyc`` beside it: whoever can write
one can write the other.
"""

# no 'from __future__ import annotations' here: exec and compile called from this module
# would pass its flags on to the code dataclasses generates

import atexit
import builtins
import contextlib
import dataclasses
import functools
import marshal
import os
import re
import sys
from types import CodeType
from typing import Any

#: the modules whose dataclasses are kept: pbem's and the bundled engines' (one
#: distribution, so an uninstall takes their __pycache__ with it), and a package that
#: asks with :func:`keep`; never a library pbem merely uses
PREFIXES: tuple[str, ...] = ("pbem.", "engines.")
#: the file starts with this: code from another interpreter build is never loaded
HEADER = b"pbem-dataclass-code\0" + sys.version.encode() + b"\0"
SUFFIX = ".dataclasses"

#: by module name: the entries its file held; those this process used; the modules that
#: compiled something their file did not hold (their files are written at exit, with
#: what was used: an entry of a class since changed goes)
_kept: dict[str, dict[str, CodeType]] = {}
_used: dict[str, dict[str, CodeType]] = {}
_missed: set[str] = set()
_paths: dict[str, str] = {}
#: top-level modules kept by name (a prefix ends with a dot: it names a package's modules)
_exact: set[str] = set()


def _path(cached: str) -> str:
    base = cached[:-4] if cached.endswith(".pyc") else cached
    return base + SUFFIX


def _read(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if not data.startswith(HEADER):
            return {}
        table = marshal.loads(data[len(HEADER):])
    except Exception:  # missing, unreadable or damaged: compiled as before
        return {}
    if type(table) is not dict or not all(
            type(k) is str and type(v) is CodeType for k, v in table.items()):
        return {}
    return table


def _code(module: str, cached: str, source: str) -> CodeType:
    kept = _kept.get(module)
    if kept is None:
        _paths[module] = _path(cached)
        kept = _kept[module] = _read(_paths[module])
        _used[module] = {}
    code = kept.get(source)
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


def install() -> None:
    """Route dataclasses' one ``exec`` through :func:`_exec`, and keep the matches of its
    annotation pattern (:class:`KeptMatches`), once per process."""
    if vars(dataclasses).get("exec") is None:
        dataclasses.exec = _exec  # type: ignore[attr-defined]
        atexit.register(save)
    pattern = vars(dataclasses).get("_MODULE_IDENTIFIER_RE")
    # a compiled pattern, as Python 3.11's dataclasses has; one already wrapped, or a
    # dataclasses without it, is left as it is
    if isinstance(pattern, re.Pattern):
        dataclasses._MODULE_IDENTIFIER_RE = KeptMatches(pattern)  # type: ignore[attr-defined]
