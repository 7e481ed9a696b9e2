"""Finding the modules of pbem and its bundled engines without importlib's path search.

Python finds a submodule (``pbem.session``) by asking each finder of ``sys.meta_path`` in
turn; the path finder's :class:`~importlib.machinery.FileFinder` then joins the name of
every file the module could be (three extension module suffixes, then ``.py``, then
``.pyc``, each by a Python function) and looks each up in its listing of the folder.  A
turn command imports some 55 modules of pbem and its engine, each found so (issue 35:
about 2 M instructions of Backhand Blow's ``receive``, 340.3 -> 338.2 M).
:class:`Finder`, first on ``sys.meta_path``, answers for a module of these packages that
is a ``.py`` file or a package folder with an ``__init__.py``, with the spec the path
finder would make (the same file, loader and search locations): the bytecode is still
read, checked and written by Python's own :class:`~importlib.machinery.SourceFileLoader`.
Anything else (an extension module, bytecode without its source, a folder it cannot
list, a package of several folders, a module not in the folder's listing) goes on to the
finders after it, as before.
"""

from __future__ import annotations

import _imp
import io
import marshal
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import MAGIC_NUMBER, cache_from_source
from types import CodeType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

#: the packages whose modules are found here: pbem's and the bundled engines' (one
#: distribution), never a library pbem merely uses
PREFIXES = ("pbem.", "engines.")


#: by folder: its modification time when listed, the prefix of its files' paths, the names
#: in it and those an extension module has (``name.<suffix>``); listed again when that
#: time changes, as FileFinder does (a file added since is then found, by it if not here)
_listed: dict[str, tuple[int, str, frozenset[str], frozenset[str]]] = {}


class Finder:
    """A ``sys.meta_path`` finder for the submodules of :data:`PREFIXES` (class methods,
    as importlib's own finders are)."""

    @classmethod
    def _listing(cls, folder: str) -> tuple[int, str, frozenset[str], frozenset[str]] | None:
        try:
            mtime = os.stat(folder).st_mtime_ns
        except OSError:
            return None
        kept = _listed.get(folder)
        if kept is not None and kept[0] == mtime:
            return kept
        if not os.path.isabs(folder):
            return None  # the path finder's spec names it from the working folder
        try:
            names = frozenset(os.listdir(folder))
        except OSError:
            return None
        # a module's name has no dot: its extension module is named before the first one
        extensions = frozenset([name.partition(".")[0] for name in names
                                if name.endswith(_EXTENSIONS)])
        # as FileFinder joins a folder and a name (importlib._bootstrap_external._path_join)
        kept = _listed[folder] = (mtime, folder.rstrip(_SEPARATORS) + os.sep, names,
                                      extensions)
        return kept

    @classmethod
    def find_spec(cls, fullname: str, path: Sequence[str] | None = None,
                  target: Any = None) -> ModuleSpec | None:
        if path is None or not fullname.startswith(PREFIXES) or len(path) != 1:
            return None
        folder = path[0]
        listing = cls._listing(folder) if type(folder) is str and folder else None
        if listing is None:
            return None
        _, prefix, names, extensions = listing
        tail = fullname.rpartition(".")[2]
        # FileFinder's order: a package folder first, then an extension module, then the
        # source; anything but a package with an __init__.py or a .py file is its to find
        if tail in names:
            package = prefix + tail
            inside = cls._listing(package)
            if inside is None or "__init__.py" not in inside[2] or "__init__" in inside[3]:
                return None
            return _spec(fullname, inside[1] + "__init__.py", [package])
        if tail + ".py" not in names or tail in extensions:
            return None
        return _spec(fullname, prefix + tail + ".py", None)

    @classmethod
    def invalidate_caches(cls) -> None:
        """Forget every listing (:func:`importlib.invalidate_caches` calls this)."""
        _listed.clear()


_EXTENSIONS = tuple(EXTENSION_SUFFIXES)
#: the path separators FileFinder strips from a folder's end before joining a name to it
_SEPARATORS = os.sep + (os.altsep or "")


def _spec(fullname: str, source: str, search: list[str] | None) -> ModuleSpec:
    # what importlib.util.spec_from_file_location makes for the path finder, given the
    # loader and the search locations (a package's folder, or None) it would find; its
    # bytecode's path, which the module's __cached__ names, written here rather than
    # worked out again by cache_from_source where Python's defaults make it plain
    loader = _Loader(fullname, source)
    spec = ModuleSpec(fullname, loader, origin=source, is_package=search is not None)
    spec.has_location = True
    spec.submodule_search_locations = search
    if _PLAIN_CACHE:
        folder, sep, name = source.rpartition(os.sep)
        loader.cached = f"{folder}{sep}__pycache__{sep}{name[:-3]}.{_TAG}.pyc"
    else:
        loader.cached = cache_from_source(source)
    spec.cached = loader.cached
    return spec


_TAG = sys.implementation.cache_tag
#: the bytecode beside its source as cache_from_source names it by default: no prefix
#: folder for all of it, no optimization level in the name
_PLAIN_CACHE = _TAG is not None and sys.pycache_prefix is None and not sys.flags.optimize
#: the bytecode's file name fixed to its source's (a tree moved since it was written),
#: as Python's loader fixes it; without it (another Python) that loader does it all
_fix_filename = getattr(_imp, "_fix_co_filename", None)


class _Loader(SourceFileLoader):
    """Python's source loader, its bytecode read by :meth:`get_code` in one pass when it is
    what that loader would take as it is: Python's own checks of it are a dozen calls
    of its import system's functions, some 40 K instructions a module (issue 35)."""

    cached: str

    def get_code(self, fullname: str) -> CodeType | None:
        """The module's code: its bytecode file's when that is a timestamp ``.pyc`` of
        this Python (its magic number, no flags) stamped with the source's modification
        time and size, as Python's loader checks it; anything else (no bytecode, stale,
        hash-based, ``python -v``) is Python's loader's to read, compile and write."""
        source = self.path
        if _fix_filename is None or sys.flags.verbose:
            return super().get_code(fullname)
        try:
            st = os.stat(source)
            with io.open_code(self.cached) as handle:
                data = handle.read()
        except OSError:
            return super().get_code(fullname)
        # the header Python's loader takes as it is: its magic number, no flags (a
        # timestamp .pyc), the source's modification time and size, each 32 bits
        if data[:16] != b"%s\0\0\0\0%s%s" % (
                MAGIC_NUMBER, (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little"),
                (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")):
            return super().get_code(fullname)
        code = marshal.loads(memoryview(data)[16:])
        if type(code) is not CodeType:
            return super().get_code(fullname)  # which refuses it, naming the file
        _fix_filename(code, source)
        return code


def install() -> None:
    """Put :class:`Finder` first on ``sys.meta_path``, once per process."""
    if Finder not in sys.meta_path:
        sys.meta_path.insert(0, Finder)
