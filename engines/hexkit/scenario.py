"""Loading scenario data: TOML files under ``scenarios/<engine-id>/``, checked once.

Data files are what a player edits (to replace a stand-in chart with the printed one,
or to correct a hex), so every error names the file, the key and, where it can be
found, the line; the message is a :class:`~pbem.errors.ScenarioError`.  The format is
described for players in ``docs/scenario-format.md``; this module is its reference.

What the kit interprets: ``[map]`` (exactly one file holds it), ``[tables.*]`` (any
file), ``[scenario]`` (one per playable scenario file) and every ``stand_in`` key
anywhere.  Everything else (order of battle, setup, schedules, turn track, victory) is
the engine's, read through :class:`Doc` so its errors carry the same file/key/line.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import msgpack

from engines.hexkit.geometry import HexGrid, Hexside
from engines.hexkit.hexid import HexId, Numbering
from engines.hexkit.hexmap import HexMap, OffMapBox, TerrainClass, areas_by_hex
from engines.hexkit.shared import Shared
from pbem import datacache
from pbem.engine import ScenarioInfo, package_files
from pbem.errors import ScenarioError
from pbem.sha import content_digest, remember_digest

if TYPE_CHECKING:
    # imported for its type only: importlib.resources costs every command 18 M
    # instructions (issue 19; pbem.engine.package_files finds the data folders)
    from importlib.resources.abc import Traversable

    from engines.hexkit.tables import DifferentialCRT, OddsCRT, Table, TerrainChart

Key = str | int
T = TypeVar("T")
_MISSING: Any = object()

# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_HEADER = r"^\s*(\[\[?)\s*(.+?)\s*\]\]?\s*(#.*)?$"
_KEYTOK = r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)'
_TOML_LINE = r"at line (\d+)"


def _split_keys(text: str) -> list[str]:
    """Split a dotted TOML key (``a."b c".d``) into its parts."""
    out = []
    for m in re.finditer(_KEYTOK, text):
        out.append(next(g for g in m.groups() if g is not None))
    return out


#: what TOML writes as a bare key (A-Z, a-z, 0-9, '_', '-'); a key of others is quoted.
#: A set, not a pattern: every table read formats its keys, and a command that reads no
#: bad file would compile the pattern for nothing (issue 35)
_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _fmt_key(path: Sequence[Key]) -> str:
    out = ""
    for k in path:
        if isinstance(k, int):
            out += f"[{k}]"
        elif k and all(c in _BARE_KEY for c in k):
            out += ("." if out else "") + k
        else:
            out += ("." if out else "") + f'"{k}"'
    return out or "(top level)"


@dataclass(frozen=True)
class Doc(Shared):
    """One parsed TOML file, with what is needed to point at a key in it (and, in
    ``__dict__["_digest"]``, the SHA-256 of the bytes it was read from, where it was)."""

    name: str
    text: str
    #: the file's top-level keys, in the file's order: what loading the set asks of
    #: every file (is there a ``[map]``, ``[tables]``, ``[scenario]``?)
    top: tuple[str, ...]
    #: the parsed tables as the data cache keeps them, decoded when :attr:`data` is
    #: first asked (``b""``: :attr:`data` was set when the file was parsed)
    packed: bytes = field(default=b"", repr=False, compare=False)

    @functools.cached_property
    def data(self) -> Mapping[str, Any]:
        """The parsed tables, decoded from the data cache when first asked: a command
        reads a few of a game's files, and decoding every file's tables was 3 M
        instructions of each 48th Panzer Korps command, the map file's (whose map is
        kept built) for nothing (issue 35).  Kept tables that do not decode to this
        file's top-level keys are parsed again from the text, as a miss would be."""
        kept = _unpacked(self.packed)
        if kept is None or tuple(kept) != self.top:
            kept = _parse_toml(self.name, self.text)
        return MappingProxyType(kept)

    @functools.cached_property
    def stand_ins(self) -> tuple[StandIn, ...]:
        """Every stand-in of this file (raises on a bad one); kept in the data cache with
        the file's tables, as walking every file's tables for them took as long as
        reading them."""
        return tuple(_find_stand_ins(self, self.data, ()))

    # -- pointing at keys --------------------------------------------------------------

    @functools.cached_property
    def _lines(self) -> list[str]:
        return self.text.splitlines()

    def line_of(self, path: Sequence[Key]) -> int | None:
        """Best-effort 1-based line of ``path``: its table header, then its ``key =`` line.

        tomllib keeps no positions, so this scans headers and keys; it finds what a
        hand-written file contains (tables, arrays of tables, dotted and quoted keys) and
        falls back to the nearest enclosing table.
        """
        strs = [k for k in path if isinstance(k, str)]
        aot_counts: dict[tuple[str, ...], int] = {}
        # the array-of-tables index wanted right after each prefix, if any
        want_index: dict[tuple[str, ...], int] = {}
        prefix: list[str] = []
        for k in path:
            if isinstance(k, int):
                want_index[tuple(prefix)] = k
            else:
                prefix.append(k)
        best_line: int | None = None
        best_len = -1
        current: tuple[str, ...] = ()
        current_ok = True
        for i, line in enumerate(self._lines, 1):
            m = re.match(_HEADER, line)
            if m and not line.lstrip().startswith("#"):
                parts = tuple(_split_keys(m.group(2)))
                current = parts
                current_ok = True
                if m.group(1) == "[[":
                    n = aot_counts.get(parts, 0)
                    aot_counts[parts] = n + 1
                    if parts in want_index and want_index[parts] != n:
                        current_ok = False
                if current_ok and tuple(strs[: len(parts)]) == parts and len(parts) > best_len:
                    best_line, best_len = i, len(parts)
                continue
            if not current_ok or "=" not in line or line.lstrip().startswith("#"):
                continue
            lhs = line.split("=", 1)[0]
            keys = current + tuple(_split_keys(lhs))
            n = len(keys)
            if n > best_len and tuple(strs[:n]) == keys and keys[-1:] == tuple(strs[n - 1:n]):
                best_line, best_len = i, n
        if best_line is not None and best_len == len(strs) and path and isinstance(path[-1], int):
            item = self._array_item_line(best_line, path)
            if item is not None:
                return item
        return best_line

    def _array_item_line(self, key_line: int, path: Sequence[Key]) -> int | None:
        """The line of element ``path[-1]`` of an array of strings written over many lines
        (a long ``river = [...]``), found by counting its quoted strings."""
        try:
            array = self._walk(path[:-1])
        except (KeyError, IndexError, TypeError):
            return None
        index = path[-1]
        if not isinstance(array, list) or not isinstance(index, int) or index >= len(array):
            return None
        if not all(isinstance(x, str) and '"' not in x for x in array[: index + 1]):
            return None
        seen = -1
        started = False
        for n, line in enumerate(self._lines[key_line - 1:], key_line):
            text = line.split("=", 1)[1] if not started and "=" in line else line
            started = True
            for m in re.finditer(r'"[^"]*"|#', text):
                if m.group() == "#":
                    break
                seen += 1
                if seen == index:
                    return n
        return None

    def error(self, path: Sequence[Key], message: str) -> ScenarioError:
        """A ScenarioError pointing at ``path`` in this file."""
        line = self.line_of(path)
        where = f"{self.name}:{line}" if line else self.name
        return ScenarioError(f"{_fmt_key(path)}: {message}", path=where)

    # -- reading values ----------------------------------------------------------------

    def has(self, *path: Key) -> bool:
        try:
            self._walk(path)
        except (KeyError, IndexError, TypeError):
            return False
        return True

    @functools.cached_property
    def _head(self) -> Mapping[str, Any] | None:
        """The file's ``[scenario]`` table alone, as the data cache keeps it beside the
        whole file's (:func:`_read_docs`), under its one key; None when it has none kept
        or it does not read back (the whole tables answer).  Loading a set checks every
        scenario's id, title and turns, and listing the scenarios reads them: decoding
        the five other scenarios' whole files for that was 1 M instructions of every For
        the Motherland! command (issue 35)."""
        kept = _unpacked(self.__dict__.get("_scenario_packed", b""))
        return kept if kept is not None and list(kept) == ["scenario"] else None

    def _walk(self, path: Sequence[Key]) -> Any:
        node: Any = self.data
        for k in path:
            node = node[k]
        return node

    def get(self, *path: Key, default: Any = _MISSING) -> Any:
        """The value at ``path``; a missing key is an error naming it unless defaulted."""
        try:
            return self._walk(path)
        except (KeyError, IndexError, TypeError):
            if default is not _MISSING:
                return default
            raise self.error(path[:-1] if len(path) > 1 else path,
                             f"missing key {_fmt_key(path)!r}") from None

    def typed(self, kind: type[T], *path: Key, default: Any = _MISSING) -> T:
        """The value at ``path``, required to be of ``kind`` (bool is not an int here)."""
        value = self.get(*path, default=default)
        if value is default and default is not _MISSING:
            return value  # type: ignore[no-any-return]
        bad = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
        if bad:
            raise self.error(path, f"expected {kind.__name__}, got {value!r}")
        result: T = value
        return result

    def get_str(self, *path: Key, default: Any = _MISSING) -> str:
        return self.typed(str, *path, default=default)

    def get_int(self, *path: Key, default: Any = _MISSING) -> int:
        return self.typed(int, *path, default=default)

    def get_bool(self, *path: Key, default: Any = _MISSING) -> bool:
        return self.typed(bool, *path, default=default)

    def get_list(self, *path: Key, default: Any = _MISSING) -> list[Any]:
        return self.typed(list, *path, default=default)

    def get_table(self, *path: Key, default: Any = _MISSING) -> dict[str, Any]:
        return self.typed(dict, *path, default=default)

    def hexes(self, hexmap: HexMap, *path: Key) -> list[HexId]:
        """A hex, range, area or place name, or a list of them, at ``path``, expanded
        in order and each checked to be on ``hexmap``."""
        value = self.get(*path)
        items = value if isinstance(value, list) else [value]
        out: list[HexId] = []
        for i, item in enumerate(items):
            sub = [*path, i] if isinstance(value, list) else list(path)
            out.extend(_expand_hexes(self, sub, item, hexmap.grid.numbering, hexmap))
        return out

    def hex(self, hexmap: HexMap, *path: Key) -> HexId:
        value = self.get_str(*path)
        if value not in hexmap:
            raise self.error(path, f"hex {value} is not on the map")
        return value


def _expand_hexes(doc: Doc, path: Sequence[Key], item: Any, numbering: Numbering,
                  hexmap: HexMap | None = None, grid: HexGrid | None = None) -> list[HexId]:
    if not isinstance(item, str):
        raise doc.error(path, f"expected a hex number or range, got {item!r}")
    if hexmap is not None and not item[:1].isdigit():
        # a name: setups and schedules say "entry area G" or "Velikiye Luki"
        if item in hexmap.areas:
            return list(hexmap.areas[item])
        if item in hexmap.places:
            return list(hexmap.places[item])
        raise doc.error(path, f"{item!r} is not a hex number, range, area or place on the map")
    try:
        hexes = numbering.parse_range(item)
    except ValueError as exc:
        raise doc.error(path, str(exc)) from None
    for h in hexes:
        if hexmap is not None and h not in hexmap:
            raise doc.error(path, f"hex {h} is not on the map")
        if grid is not None and not grid.contains(h):
            raise doc.error(path, f"hex {h} is outside the map's columns and rows")
    return hexes


def parse_doc(name: str, raw: bytes) -> Doc:
    """Parse one TOML file; syntax errors become ScenarioError with the parser's line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text ({exc.reason} at byte {exc.start})",
                            path=name) from None
    # the parsed tables, kept between commands by the file's SHA-256 (pbem.datacache):
    # parsing every file again was a third of loading a game's data
    # by the file's digest, which the invite's scenario digest takes of the same bytes
    # (pbem.sha.content_digest: hashed once a process); kept as the top-level keys and
    # the tables packed on their own, decoded when first read (Doc.data), with the
    # file's stand-ins (found by this kit's code, so keyed by it too): one entry a file,
    # not two (each entry read was 0.1-0.2 M instructions, 12 files a game: issue 35)
    if datacache.directory() is None:  # nothing kept: no key to make (no kit digest)
        data = _parse_toml(name, text)
        doc = Doc(name, text, tuple(data))
        doc.__dict__["data"] = MappingProxyType(data)
        return doc
    digest = content_digest(raw)
    key = datacache.make_key("toml", "top+packed+stand-ins", sys.version, _kit_code(),
                             digest)
    kept = datacache.load("toml", key)
    if (type(kept) is list and len(kept) == 3 and type(kept[0]) is list
            and all(type(k) is str for k in kept[0]) and type(kept[1]) is bytes
            and type(kept[2]) is list
            and all(type(k) is list and len(k) == 2 and all(type(x) is str for x in k)
                    for k in kept[2])):
        doc = Doc(name, text, tuple(kept[0]), kept[1])
        doc.__dict__["stand_ins"] = tuple(StandIn(name, where, reason)
                                          for where, reason in kept[2])
        doc.__dict__["_digest"] = digest
        return doc
    data = _parse_toml(name, text)
    doc = Doc(name, text, tuple(data))
    doc.__dict__["data"] = MappingProxyType(data)
    doc.__dict__["_digest"] = digest
    try:
        found = doc.stand_ins
    except ScenarioError:
        # nothing kept; refused where the set's load asks (the same refusal as without
        # a cache, after the same checks of the files before it)
        return doc
    packed = _packed_toml(data)
    if packed is not None:
        datacache.store("toml", key, [list(data), packed,
                                      [[f.key, f.reason] for f in found]])
    return doc


def _parse_toml(name: str, text: str) -> dict[str, Any]:
    # rtoml (Rust) first: the standard library's pure-Python tomllib took 86 M
    # instructions for White Death's ten files, rtoml 6.7 M, and a referee's first
    # audit (no data cache) parses every file (issue 35).  They read every shipped file
    # to the same tables in the same key order (tests/kit/test_toml_parse.py).  A file
    # rtoml refuses goes to tomllib, whose message (with its line) the error keeps;
    # both imported on a miss only: a warm cache never parses
    import rtoml

    try:
        parsed = rtoml.loads(text)
    except rtoml.TomlParsingError:
        pass
    else:
        if type(parsed) is dict:
            return parsed
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(_TOML_LINE, str(exc))
        where = f"{name}:{m.group(1)}" if m else name
        raise ScenarioError(f"TOML syntax: {exc}", path=where) from None


def _packed_toml(data: dict[str, Any]) -> bytes | None:
    """``data`` as msgpack, or ``None`` when it holds what msgpack cannot keep exactly
    (TOML's dates and times): such a file is parsed again at every command."""
    try:
        packed: bytes = msgpack.packb(data, use_bin_type=True, strict_types=True)
    except (TypeError, ValueError, OverflowError):
        return None
    return packed


def _unpacked(packed: bytes) -> dict[str, Any] | None:
    """Tables :func:`_packed_toml` wrote, or ``None`` when they do not read back."""
    try:
        value = msgpack.unpackb(packed, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
    except Exception:  # whatever the bytes are, the file is parsed again
        return None
    return value if type(value) is dict else None


# --- the map ---------------------------------------------------------------------------


def _pair(doc: Doc, path: Sequence[Key]) -> tuple[int, int]:
    v = doc.get(*path)
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise doc.error(path, f"expected [first, last] as two integers, got {v!r}")
    return v[0], v[1]


def _has_float(node: Any) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is str or kind is int or kind is bool:
            continue  # by type alone: an isinstance of Mapping (an ABC) a value cost 2,000
        elif isinstance(item, float | Mapping | list):  # a float, or a subclass: walked
            return True
    return False


def _refuse_floats(doc: Doc, node: Any, path: tuple[Key, ...]) -> None:
    """Map data feeds game state, where a float would differ between machines.

    Looked for first without paths or sorting (a walk of 2,000 values that built a path
    each was a tenth of building 48th Panzer Korps' map, issue 35); only a table that
    has one is walked again in key order, to name the first."""
    if not _has_float(node):
        return
    _name_float(doc, node, path)


def _name_float(doc: Doc, node: Any, path: tuple[Key, ...]) -> None:
    if isinstance(node, float):
        raise doc.error(path, f"{node!r} is a float; write an integer or a fraction \"3/2\"")
    if isinstance(node, Mapping):
        for k in sorted(node):
            _name_float(doc, node[k], (*path, k))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            _name_float(doc, item, (*path, i))


def parse_map(doc: Doc) -> HexMap:
    """Build the :class:`HexMap` from ``doc``'s ``[map]`` table (see the format page).

    A map built once is kept between commands (:mod:`pbem.datacache`) under the hash of
    the file's text and of this kit's code, with its neighbor table: building it was
    half of loading a game's data.  A kept map is one this code built from this very
    text, so it passed every check below; an entry that does not read back is rebuilt.
    """
    if datacache.directory() is None:
        # nothing is kept, so no key: hashing the kit's 200 KB of source for it was 11 M
        # instructions of a command with no home (a referee's first audit, issue 35);
        # with no source, nothing derived from the map is kept either (MoveCosts)
        return _build_map(doc)
    # the file's digest where it was read (the same bytes: its text is their UTF-8), not
    # its 55 KB text encoded and looked up again (0.7 M instructions a command, issue 35)
    key = datacache.make_key("hexmap", _kit_code(),
                             doc.__dict__.get("_digest") or content_digest(doc.text))
    kept = datacache.load("hexmap", key)
    if kept is not None:
        try:
            hexmap = _map_from_data(kept, functools.partial(_build_map, doc))
        except Exception:  # not a map this code wrote: build it again
            pass
        else:
            hexmap.__dict__["source"] = key
            return hexmap
    hexmap = _build_map(doc)
    datacache.store("hexmap", key, _map_data(hexmap))
    # what the map was built from, for what is derived from it and kept in turn (the
    # compiled movement costs, hexkit.movement.MoveCosts)
    hexmap.__dict__["source"] = key
    return hexmap


@functools.cache
def _kit_code() -> bytes:
    """SHA-256 of this kit's source: a cached map is only used by the code that built it
    (kept under the files' stamps, :func:`pbem.datacache.files_digest`)."""
    # the folder's names that end in .py, as a glob of '*.py' finds them, without compiling
    # the glob's pattern at every command that loads a map (issue 35)
    # sorted by name, then made paths: sorting the paths compares each pair's parts (some
    # 80 comparisons of pathlib's, about 0.3 M instructions); the kit's file names are
    # lower case, so the order is the paths' own on every platform
    kit = Path(__file__).parent
    return datacache.files_digest([kit / n for n in sorted(os.listdir(kit)) if n.endswith(".py")])


def _map_data(hexmap: HexMap) -> dict[str, Any]:
    """A built map as plain data, every collection in the map's own order.

    Per hex in columns (the ids, then each value's list), not a record a hex: msgpack
    makes a list of small ints in C, and :func:`_map_from_data` zips the columns into
    the map's tables without a Python call a hex (the records, a list and a named tuple
    made through its Python ``__new__`` for each of 2,160 hexes, were most of reading
    48th Panzer Korps' map back: issue 35).  The cells and the neighbor table are each
    kept packed on their own, read when first asked (:func:`_kept`): a command that
    asks the map only its terrain and a few distances (48th Panzer Korps' ``legal``)
    never needs them, and decoding them was 7 M of the 15 M instructions of reading
    that map back.  So are the hexside features, facings, networks and areas
    (:data:`_LAZY`), made when first asked (:meth:`HexMap.__getattr__`): most commands
    read none of them (For the Motherland!'s and White Death's ``legal`` read only the
    terrain)."""
    grid = hexmap.grid
    cubes = grid._cubes.values()
    kinds = {t.name: i for i, t in enumerate(hexmap.legend)}
    return {
        "title": hexmap.title,
        "grid": [grid.parity, list(grid.cols), list(grid.rows),
                 grid.numbering.col_digits, grid.numbering.row_digits],
        "cells": _packed([list(grid._cubes), [c.q for c in cubes], [c.r for c in cubes],
                          [c.s for c in cubes]]),
        "terrain": [list(hexmap.terrain), [kinds[t] for t in hexmap.terrain.values()]],
        "legend": [[t.name, t.char, t.color, t.glyph, dict(t.attrs)] for t in hexmap.legend],
        "hex_features": [[h, sorted(v)] for h, v in hexmap.hex_features.items()],
        "hexsides": _packed_hexsides(hexmap.hexsides),
        "facing": _packed([[f, a, b, h] for (f, (a, b)), h in hexmap.facing.items()]),
        # each network's hexsides as one flat list of their hexes, paired again in C
        "networks": _packed([[n, [h for side in sorted(v) for h in side]]
                             for n, v in hexmap.networks.items()]),
        "places": [[n, list(v)] for n, v in hexmap.places.items()],
        # each area's hexes packed on their own (:class:`_KeptAreas`)
        "areas": _packed([[n, _packed(list(v))] for n, v in hexmap.areas.items()]),
        "boxes": [[n, b.name, b.title, list(b.entry)] for n, b in hexmap.boxes.items()],
        "styles": dict(hexmap.styles),
        "adjacency": _packed([list(near) for near in hexmap.adjacency]),
        "by_hex": _hex_records(hexmap),
    }


def _packed_hexsides(hexsides: Mapping[Hexside, frozenset[str]]) -> bytes:
    """The hexside table as :func:`_kept_hexsides` reads it: each distinct set of
    features once, then every hexside's two hexes in one flat list and its set's place
    in another, in the table's order.  A map has a few kinds of hexside (a river, a
    stream, a bridged river) on hundreds of hexsides, and a record a hexside, a list
    and a frozenset made for each, was 2 M instructions of a Backhand Blow receive
    whose check of a move decodes it (issue 35)."""
    kinds: dict[tuple[str, ...], int] = {}
    ends: list[HexId] = []
    codes: list[int] = []
    for (a, b), names in hexsides.items():
        ends += (a, b)
        codes.append(kinds.setdefault(tuple(sorted(names)), len(kinds)))
    return _packed([[list(k) for k in kinds], ends, codes])


def _kept_hexsides(value: list[Any]) -> Mapping[Hexside, frozenset[str]]:
    """:func:`_packed_hexsides`' table decoded: the pairs and their sets zipped in C, one
    frozenset a kind of hexside (equal sets: a table's values are only read)."""
    kinds, ends, codes = value
    shared = [frozenset(k) for k in kinds]
    pairs = iter(ends)
    return MappingProxyType(dict(zip(zip(pairs, pairs, strict=True),
                                     map(shared.__getitem__, codes), strict=True)))


def _pairs(ends: list[HexId]) -> frozenset[Hexside]:
    """A network's hexsides from the flat list of their hexes (a list short of a hex
    does not read back)."""
    hexes = iter(ends)
    return frozenset(zip(hexes, hexes, strict=True))


def _cell(h: HexId, col_digits: int, first: tuple[int, int], height: int) -> int:
    """A hex's place in its grid's rectangle, column by column, from its number alone
    (the column's digits, then the row's: what :class:`Numbering` writes)."""
    return (int(h[:col_digits]) - first[0]) * height + int(h[col_digits:]) - first[1]


def _hex_records(hexmap: HexMap) -> list[bytes]:
    """Each hex's own part of the hexside and area tables, packed one after another in
    the grid's order, with where each starts (big-endian, four bytes a cell, one more
    for the end): the hexsides it is the lower hex of, each with its features, and the
    areas it is in.  A command that asks a few hexes (a retreat's, For the Motherland!
    8.6) reads theirs without decoding either table (:meth:`HexMap.few_side_features`).
    Empty for a numbering of its own (its numbers are not the rectangle's)."""
    grid = hexmap.grid
    if type(grid.numbering) is not Numbering:
        return [b"", b""]
    sides: dict[HexId, list[list[Any]]] = {}
    for (a, b), names in hexmap.hexsides.items():
        sides.setdefault(a, []).append([b, sorted(names)])
    areas = areas_by_hex(hexmap.areas)
    height = grid.rows[1] - grid.rows[0] + 1
    first = (grid.cols[0], grid.rows[0])
    records: dict[int, bytes] = {}
    for h in hexmap.terrain:
        if h in sides or h in areas:
            records[_cell(h, grid.numbering.col_digits, first, height)] = _packed(
                [sides.get(h, []), list(areas.get(h, ()))])
    starts = bytearray()
    blob = bytearray()
    for cell in range((grid.cols[1] - grid.cols[0] + 1) * height):
        starts += len(blob).to_bytes(4, "big")
        blob += records.get(cell, b"")
    starts += len(blob).to_bytes(4, "big")
    return [bytes(starts), bytes(blob)]


#: how many hexes' records a map reads before it decodes its whole hexside and area
#: tables instead (each record about 3 K instructions, the tables about 3 M together)
_RECORDS_READ = 128

_HexRecord = tuple[Mapping[HexId, frozenset[str]], tuple[str, ...]]


def _hex_reader(grid: HexGrid, terrain: Mapping[HexId, str], starts: bytes,
                blob: bytes) -> Callable[[HexId], _HexRecord | None]:
    """What :meth:`HexMap._kept_hex` asks: a hex's record of :func:`_hex_records`,
    each kept once read; None when there are none, one does not read back (the whole
    tables then answer, built again from the file if they do not read back either),
    or :data:`_RECORDS_READ` hexes were read."""
    height = grid.rows[1] - grid.rows[0] + 1
    first = (grid.cols[0], grid.rows[0])
    digits = grid.numbering.col_digits
    cells = (grid.cols[1] - grid.cols[0] + 1) * height
    read: dict[HexId, _HexRecord | None] = {}
    none: _HexRecord = (MappingProxyType({}), ())

    def record(h: HexId) -> _HexRecord | None:
        if h in read:
            return read[h]
        if len(starts) != 4 * (cells + 1) or len(read) >= _RECORDS_READ:
            return None
        if h not in terrain:
            return none  # off the map: in no hexside or area, as the tables say
        at = 4 * _cell(h, digits, first, height)
        begin = int.from_bytes(starts[at:at + 4], "big")
        end = int.from_bytes(starts[at + 4:at + 8], "big")
        found: _HexRecord | None = none
        if begin != end:
            try:
                value = msgpack.unpackb(blob[begin:end], raw=False, use_list=True,
                                        strict_map_key=True, ext_hook=_no_ext, timestamp=0)
                sides, areas = value if type(value) is list else ((), ())
                if (type(sides) is not list or type(areas) is not list
                        or not all(type(n) is str for n in areas)
                        or not all(type(e) is list and len(e) == 2 and type(e[0]) is str
                                   and type(e[1]) is list
                                   and all(type(n) is str for n in e[1]) for e in sides)):
                    raise ValueError("not a hex's record")
                found = (MappingProxyType({b: frozenset(names) for b, names in sides}),
                         tuple(areas))
            except Exception:  # whatever the bytes are, the whole tables answer
                found = None
        read[h] = found
        return found

    return record


def _packed(value: list[Any]) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True, strict_types=True)
    return packed


def _kept(blob: bytes, length: int, columns: int) -> list[Any] | None:
    """A table :func:`_packed` wrote, read when first asked: ``columns`` lists of
    ``length`` each (``columns`` 0: one list of ``length``), or ``None`` when it does not
    read back so, and its reader makes the table itself (the values a built map has)."""
    try:
        value = msgpack.unpackb(blob, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
    except Exception:  # whatever the bytes are, the table is made again
        return None
    if type(value) is not list:
        return None
    parts = value if columns else [value]
    if len(parts) != max(columns, 1) or any(type(p) is not list or len(p) != length
                                            for p in parts):
        return None
    return value


def _kept_adjacency(blob: bytes, length: int) -> tuple[tuple[int, ...], ...] | None:
    """The neighbour table :func:`_packed` wrote, read when first asked as the tuples
    :attr:`HexMap.adjacency` holds (msgpack makes them: ``use_list=False``), not as lists
    turned into tuples one hex at a time (about 1.1 M instructions of a command that
    traces White Death's supply, Rule 15, issue 35); ``None`` when it does not read back
    as ``length`` tuples of ints, and the map makes its table itself."""
    try:
        value = msgpack.unpackb(blob, raw=False, use_list=False, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
    except Exception:  # whatever the bytes are, the table is made again
        return None
    # each row's type taken in C (map, set), not by a loop over the ~1,700 rows: that
    # loop was about 1 M instructions of every command that traces supply (issue 35)
    if type(value) is not tuple or len(value) != length or \
            not set(map(type, value)) <= {tuple}:
        return None
    table: tuple[tuple[int, ...], ...] = value
    return table


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not map data")


#: the map's fields kept packed on their own (:func:`_map_data`), each made from its
#: decoded value (and the map's rebuild, for what is read later still) when first asked,
#: in the order the value lists them
_LAZY: dict[str, Callable[[Any, Callable[[], HexMap]], Any]] = {
    "hexsides": lambda v, _: _kept_hexsides(v),
    "facing": lambda v, _: MappingProxyType({(f, (a, b)): h for f, a, b, h in v}),
    "networks": lambda v, _: MappingProxyType({n: _pairs(ends) for n, ends in v}),
    "areas": lambda v, rebuild: MappingProxyType(_KeptAreas(v, rebuild)),
}


class _KeptAreas(Mapping[str, tuple[HexId, ...]]):
    """A kept map's areas by name, each area's hexes read from its own packed bytes when
    first asked: White Death's isolation check reads one area of 29 (a side's friendly
    edge, Rule 15.C), and reading them all, 2,491 hexes, was 0.9 M instructions of its
    every turn command (issue 35).  An area whose bytes do not read back is the map
    built again's (a damaged entry never changes a map)."""

    __slots__ = ("_blobs", "_made", "_rebuild")

    def __init__(self, pairs: list[Any], rebuild: Callable[[], HexMap]) -> None:
        if not all(type(p) is list and len(p) == 2 and type(p[0]) is str
                   and type(p[1]) is bytes for p in pairs):
            raise ValueError("kept areas are pairs of a name and its packed hexes")
        self._blobs: dict[str, bytes] = dict(pairs)
        self._made: dict[str, tuple[HexId, ...]] = {}
        self._rebuild = rebuild

    def __getitem__(self, name: str) -> tuple[HexId, ...]:
        got = self._made.get(name)
        if got is None:
            blob = self._blobs[name]  # an area the map has not: KeyError, as a dict's
            try:
                value = msgpack.unpackb(blob, raw=False, use_list=False,
                                        strict_map_key=True, ext_hook=_no_ext, timestamp=0)
            except Exception:  # whatever the bytes are, the area is the built map's
                value = None
            if type(value) is not tuple or not set(map(type, value)) <= {str}:
                value = tuple(self._rebuild().areas[name])
            got = self._made[name] = value
        return got

    def __contains__(self, name: object) -> bool:
        return name in self._blobs

    def __iter__(self) -> Iterator[str]:
        return iter(self._blobs)

    def __len__(self) -> int:
        return len(self._blobs)

    def __repr__(self) -> str:
        return repr(dict(self))


def _kept_field(name: str, blob: bytes, rebuild: Callable[[], HexMap]) -> Any:
    """The map's field ``name`` from its kept bytes; from the map built again from the
    data file when they do not read back (a damaged entry never changes a map)."""
    try:
        value = msgpack.unpackb(blob, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
        if type(value) is not list:
            raise ValueError(f"kept {name} is not a list")
        return _LAZY[name](value, rebuild)
    except Exception:  # whatever the bytes are, the field is the built map's
        return getattr(rebuild(), name)


def _no_rebuild() -> HexMap:
    raise ValueError("a kept map field does not read back, and there is no file to build from")


def _map_from_data(data: dict[str, Any],
                   rebuild: Callable[[], HexMap] = _no_rebuild) -> HexMap:
    """Inverse of :func:`_map_data`: the same map, neighbor table included; ``rebuild``
    builds it from its file, for a field kept packed that does not read back."""
    parity, cols, rows, col_digits, row_digits = data["grid"]
    if {f.name for f in fields(HexGrid)} != {"parity", "cols", "rows", "numbering"}:
        raise ValueError("HexGrid changed: build the map")
    cells, adjacency = data["cells"], data["adjacency"]
    if type(cells) is not bytes or type(adjacency) is not bytes:
        raise ValueError("the cells and the neighbor table are kept packed")
    size = (cols[1] - cols[0] + 1) * (rows[1] - rows[0] + 1)
    grid = object.__new__(HexGrid)  # its cells come from the entry, not from numbering
    for name, value in (("parity", parity), ("cols", (cols[0], cols[1])),
                        ("rows", (rows[0], rows[1])),
                        ("numbering", Numbering(col_digits, row_digits)),
                        # the cubes made from these when first asked (HexGrid._cubes)
                        ("_columns", functools.partial(_kept, cells, size, 4))):
        object.__setattr__(grid, name, value)
    legend = tuple(TerrainClass(name, char, color, glyph, MappingProxyType(attrs))
                   for name, char, color, glyph, attrs in data["legend"])
    kinds = tuple(t.name for t in legend)
    hexes, codes = data["terrain"]
    if not all(type(k) is int and 0 <= k < len(kinds) for k in set(codes)):
        raise ValueError("a terrain code is not in the legend")
    if not all(type(data[name]) is bytes for name in _LAZY):
        raise ValueError("the hexside and area tables are kept packed")
    if {f.name for f in fields(HexMap)} != {*_LAZY, "title", "grid", "terrain", "legend",
                                            "hex_features", "places", "boxes", "styles"}:
        raise ValueError("HexMap changed: build the map")
    # made without its __init__: the fields of _LAZY are made when first asked
    hexmap = object.__new__(HexMap)
    once = functools.cache(rebuild)  # one build for however many fields need it
    for name, value in (
        ("title", data["title"]),
        ("grid", grid),
        ("terrain", MappingProxyType(dict(zip(hexes, map(kinds.__getitem__, codes),
                                               strict=True)))),
        ("legend", legend),
        ("hex_features", MappingProxyType({h: frozenset(v) for h, v in data["hex_features"]})),
        ("places", MappingProxyType({n: tuple(v) for n, v in data["places"]})),
        ("boxes", MappingProxyType({n: OffMapBox(name, title, tuple(entry))
                                    for n, name, title, entry in data["boxes"]})),
        ("styles", MappingProxyType(dict(data["styles"]))),
    ):
        object.__setattr__(hexmap, name, value)
    hexmap.__dict__["_kept_fields"] = {name: functools.partial(_kept_field, name, data[name],
                                                               once)
                                       for name in _LAZY}
    starts, blob = data["by_hex"]
    if type(starts) is not bytes or type(blob) is not bytes:
        raise ValueError("the hexes' records are kept packed")
    if starts:
        hexmap.__dict__["_kept_by_hex"] = _hex_reader(grid, hexmap.terrain, starts, blob)
    # read by HexMap.adjacency when first asked
    hexmap.__dict__["_kept_adjacency"] = functools.partial(_kept_adjacency, adjacency,
                                                           len(hexmap.terrain))
    return hexmap


def _build_map(doc: Doc) -> HexMap:
    m: tuple[Key, ...] = ("map",)
    _refuse_floats(doc, doc.get_table(*m), m)
    offset = doc.get_str(*m, "offset")
    if offset not in ("odd", "even"):
        raise doc.error((*m, "offset"), f"must be \"odd\" or \"even\", not {offset!r}")
    digits = _pair(doc, (*m, "digits")) if doc.has(*m, "digits") else (2, 2)
    try:
        numbering = Numbering(*digits)
        grid = HexGrid("odd" if offset == "odd" else "even", _pair(doc, (*m, "cols")),
                       _pair(doc, (*m, "rows")), numbering)
    except ValueError as exc:
        raise doc.error(m, str(exc)) from None

    # legend
    legend: list[TerrainClass] = []
    by_char: dict[str, TerrainClass | None] = {}
    for char, spec in doc.get_table(*m, "legend").items():
        path = (*m, "legend", char)
        if len(char) != 1 or char.isspace() or char.isdigit():
            raise doc.error(path, "legend keys must be one character, not a digit or space")
        if not isinstance(spec, dict):
            raise doc.error(path, "expected a table like { name = \"clear\", color = \"#e0d8b0\" }")
        if spec.get("off_map") is True:
            by_char[char] = None
            continue
        name = doc.get_str(*path, "name")
        color = doc.get_str(*path, "color", default="#d8d0b0")
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
            raise doc.error((*path, "color"), f"expected a color like \"#a0b0c0\", got {color!r}")
        glyph = doc.get_str(*path, "glyph", default=" ")
        attrs = {k: v for k, v in spec.items() if k not in ("name", "color", "glyph")}
        tc = TerrainClass(name, char, color, glyph, MappingProxyType(attrs))
        if any(t.name == name for t in legend):
            raise doc.error((*path, "name"), f"terrain {name!r} is already in the legend")
        legend.append(tc)
        by_char[char] = tc
    names = {t.name for t in legend}

    # terrain grid
    tpath = (*m, "terrain")
    by = doc.get_str(*tpath, "by", default="row")
    if by not in ("row", "column"):
        raise doc.error((*tpath, "by"), f"must be \"row\" or \"column\", not {by!r}")
    gpath = (*tpath, "grid")
    text = doc.get_str(*gpath)

    def where(i: int) -> str:
        # the file's line of the grid's i-th line, for an error alone: finding the
        # grid's key in the file's text was 7.7 M instructions of White Death's map
        first_line = doc.line_of(gpath)
        return f"{doc.name}:{first_line + 1 + i}" if first_line else doc.name

    terrain: dict[HexId, str] = {}
    outer, inner = (grid.rows, grid.cols) if by == "row" else (grid.cols, grid.rows)
    # the ids of the grid's cells, by line and place in the line: the grid wrote each
    # once, and formatting every hex again was a fifth of building a map (issue 35)
    cells = iter(grid._cubes)
    by_col = [[next(cells) for _ in range(grid.rows[0], grid.rows[1] + 1)]
              for _ in range(grid.cols[0], grid.cols[1] + 1)]
    lines = by_col if by == "column" else [list(t) for t in zip(*by_col, strict=True)]
    seen: set[int] = set()
    for i, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        label, _, chars = line.strip().partition(" ")
        if not label.isdigit():
            raise ScenarioError(
                f"{_fmt_key(gpath)}: each line must start with its {by} number, got {line!r}",
                path=where(i))
        n = int(label)
        if not outer[0] <= n <= outer[1] or n in seen:
            raise ScenarioError(f"{_fmt_key(gpath)}: {by} {n} is outside {outer} or repeated",
                                path=where(i))
        seen.add(n)
        chars = "".join(chars.split())
        want = inner[1] - inner[0] + 1
        if len(chars) != want:
            raise ScenarioError(
                f"{_fmt_key(gpath)}: {by} {n} has {len(chars)} hexes, the map needs {want}",
                path=where(i))
        ids = lines[n - outer[0]]
        for k, ch in enumerate(chars):
            if ch not in by_char:
                raise ScenarioError(
                    f"{_fmt_key(gpath)}: {by} {n}: character {ch!r} is not in the legend",
                    path=where(i))
            cls = by_char[ch]
            if cls is None:
                continue
            terrain[ids[k]] = cls.name
    missing = sorted(set(range(outer[0], outer[1] + 1)) - seen)
    if missing:
        raise doc.error(gpath, f"no line for {by}s {missing}")
    for key, tname in doc.get_table(*tpath, "overrides", default={}).items():
        opath = (*tpath, "overrides", key)
        if tname not in names:
            raise doc.error(opath, f"terrain {tname!r} is not in the legend")
        for h in _expand_hexes(doc, opath, key, numbering, grid=grid):
            terrain[h] = tname

    def hex_list(path: tuple[Key, ...], value: Any) -> list[HexId]:
        items = value if isinstance(value, list) else [value]
        out: list[HexId] = []
        for i, item in enumerate(items):
            sub = (*path, i) if isinstance(value, list) else path
            for h in _expand_hexes(doc, sub, item, numbering, grid=grid):
                if h not in terrain:
                    raise doc.error(sub, f"hex {h} is off the map (no terrain)")
                out.append(h)
        return out

    hex_features = {name: hex_list((*m, "hex_features", name), v)
                    for name, v in doc.get_table(*m, "hex_features", default={}).items()}
    places = {name: hex_list((*m, "places", name), v)
              for name, v in doc.get_table(*m, "places", default={}).items()}
    areas = {name: hex_list((*m, "areas", name), v)
             for name, v in doc.get_table(*m, "areas", default={}).items()}

    def side_of(path: tuple[Key, ...], a: str, b: str) -> Hexside:
        for h in (a, b):
            if h not in terrain:  # whose keys are all ids: no separate check of the form
                raise doc.error(path, f"{h!r} is not a hex on the map")
        if not grid.adjacent(a, b):
            raise doc.error(path, f"{a} and {b} are not adjacent")
        return (a, b)

    sides: dict[str, list[Hexside]] = {}
    facing: dict[str, list[tuple[HexId, HexId]]] = {}
    for name, entries in doc.get_table(*m, "hexsides", default={}).items():
        spath = (*m, "hexsides", name)
        if not isinstance(entries, list):
            raise doc.error(spath, "expected a list like [\"1203/1204\", \"1204->1305\"]")
        for i, e in enumerate(entries):
            if not isinstance(e, str):
                raise doc.error((*spath, i), f"expected \"A/B\" or \"A->B\", got {e!r}")
            # "A/B", or a fan "A/B,C,D" (the hexsides of A with each of B, C, D, as a
            # river bending around A); "A->B" and "A->B,C" for directional features
            sep = "->" if "->" in e else "/" if "/" in e else None
            if sep is None:
                raise doc.error((*spath, i), f"expected \"A/B\" or \"A->B\", got {e!r}")
            a, rest = (x.strip() for x in e.split(sep, 1))
            for b in (x.strip() for x in rest.split(",")):
                pair = side_of((*spath, i), a, b)
                (facing if sep == "->" else sides).setdefault(name, []).append(pair)

    networks: dict[str, list[Hexside]] = {}
    for name, entries in doc.get_table(*m, "networks", default={}).items():
        npath = (*m, "networks", name)
        if not isinstance(entries, list):
            raise doc.error(npath, "expected a list of paths like [\"0101 0102 0203\"]")
        links = networks.setdefault(name, [])
        for i, e in enumerate(entries):
            if not isinstance(e, str):
                raise doc.error((*npath, i), f"expected a path of hexes, got {e!r}")
            chain = e.replace("/", " ").split()
            if len(chain) < 2:
                raise doc.error((*npath, i), f"a path needs two hexes or more, got {e!r}")
            for a, b in itertools.pairwise(chain):
                links.append(side_of((*npath, i), a, b))

    boxes: list[OffMapBox] = []
    for name, spec in doc.get_table(*m, "boxes", default={}).items():
        bpath = (*m, "boxes", name)
        if not isinstance(spec, dict):
            raise doc.error(bpath, "expected a table like { title = \"Baku\", entry = [\"2434\"] }")
        entry = hex_list((*bpath, "entry"), spec.get("entry", []))
        boxes.append(OffMapBox(name, doc.get_str(*bpath, "title", default=name), tuple(entry)))

    styles = doc.get_table(*m, "styles", default={})
    for sname, v in styles.items():
        if not isinstance(v, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", v):
            raise doc.error((*m, "styles", sname), f"expected a color like \"#3060c0\", got {v!r}")
    try:
        return HexMap.build(
            grid=grid, terrain=terrain, legend=legend, title=doc.get_str(*m, "title", default=""),
            hex_features=hex_features, hexsides=sides, facing=facing, networks=networks,
            places=places, areas=areas, boxes=boxes, styles=styles)
    except ValueError as exc:
        raise doc.error(m, str(exc)) from None


# --- tables ---------------------------------------------------------------------------


def typed(table: Table) -> Any:
    """:func:`engines.hexkit.tables.typed` (a table's CRT or chart), that module loaded
    with the first table asked (:func:`parse_table`), not with this one."""
    from engines.hexkit.tables import typed as typed_view

    return typed_view(table)


def parse_table(doc: Doc, name: str, path: Sequence[Key] | None = None, *,
                typed_checked: bool = False) -> Table:
    """The table ``[tables.NAME]`` of ``doc``, checked; ``path`` reads one kept elsewhere
    (an engine's own ``[crt]``) with the same rules and error messages.
    ``typed_checked``: the typed view (a CRT's columns, a chart's) was made of this very
    table by this kit's code before, and not again (see :func:`load_scenario_path`)."""
    # the kit's tables load with a set's first [tables] (2.2 M instructions): For the
    # Motherland!'s and White Death's data keep theirs in their own tables (issue 35)
    from engines.hexkit.tables import KINDS, Table

    path = tuple(path) if path is not None else ("tables", name)
    spec = doc.get_table(*path)
    kind = doc.get_str(*path, "kind")
    if kind not in KINDS:
        raise doc.error((*path, "kind"), f"unknown kind {kind!r} (one of {', '.join(KINDS)})")
    stand_in = doc.get_str(*path, "stand_in", default=None)
    where = f"{doc.name} [{_fmt_key(path)}]"
    extra = {k: v for k, v in spec.items() if k not in ("kind", "columns", "rows", "stand_in")}
    if kind == "lookup" and "columns" not in spec:
        return Table(name, kind, (), (), stand_in, where, MappingProxyType(extra))
    columns = doc.get_list(*path, "columns")
    for j, c in enumerate(columns):
        if not isinstance(c, str):
            raise doc.error((*path, "columns", j), f"column labels are strings, got {c!r}")
    rows: list[tuple[str, tuple[Any, ...]]] = []
    for key, values in doc.get_table(*path, "rows").items():
        rpath = (*path, "rows", key)
        if not isinstance(values, list) or len(values) != len(columns):
            raise doc.error(rpath, f"expected a list of {len(columns)} values (one per column),"
                                   f" got {values!r}")
        for j, v in enumerate(values):
            if isinstance(v, float):
                raise doc.error((*rpath, j), f"{v!r} is a float; write \"3/2\" or an integer")
        rows.append((key, tuple(values)))
    table = Table(name, kind, tuple(columns), tuple(rows), stand_in, where,
                  MappingProxyType(extra))
    if typed_checked:
        return table
    try:
        typed(table)
    except ValueError as exc:
        raise doc.error(path, str(exc)) from None
    return table


# --- stand-ins -------------------------------------------------------------------------


@dataclass(frozen=True)
class StandIn(Shared):
    """Data the project made up where a rulebook lacks it, with the reason it gives."""

    file: str
    key: str
    reason: str


def _find_stand_ins(doc: Doc, node: Any, path: tuple[Key, ...]) -> list[StandIn]:
    """Every stand-in under ``node``: each table's before those of the tables in it, its
    keys in sorted order, a list's items in order (the first bad one is refused).

    Walked with a stack of the tables and lists alone: a generator a value, each asked
    ``isinstance(value, Mapping)`` (an ABC), was 15 M instructions for White Death's ten
    files, read at every load with no data cache (issue 35)."""
    found: list[StandIn] = []
    stack: list[tuple[Any, tuple[Key, ...]]] = [(node, path)]
    while stack:
        item, where = stack.pop()
        kind = type(item)
        if kind is dict or (kind is not list and isinstance(item, Mapping)):
            if "stand_in" in item:
                reason = item["stand_in"]
                if not isinstance(reason, str) or not reason.strip():
                    raise doc.error((*where, "stand_in"), "must say why, as a non-empty string")
                found.append(StandIn(doc.name, _fmt_key(where), reason))
            inner = [(v, (*where, k)) for k in sorted(item)
                     if type(v := item[k]) not in _LEAVES and _holds(v)]
            stack.extend(reversed(inner))
        elif kind is list or isinstance(item, list):
            # a map's lists of hex numbers are most of its values: a leaf is passed over
            # by its type, without a call
            inner = [(x, (*where, i)) for i, x in enumerate(item)
                     if type(x) not in _LEAVES and _holds(x)]
            stack.extend(reversed(inner))
    return found


#: the types of TOML's values that hold nothing (a date or time is asked as any other)
_LEAVES = frozenset({str, int, bool, float})


def _holds(value: Any) -> bool:
    """Whether ``value`` is a table or a list (what may hold a stand-in), by its type
    alone for what TOML gives (the ABC asked only of anything else)."""
    kind = type(value)
    return kind is dict or kind is list or isinstance(value, Mapping | list)


def _stand_ins_of(doc: Doc) -> list[StandIn]:
    """Every stand-in of ``doc`` (kept with its tables: :func:`parse_doc`)."""
    return list(doc.stand_ins)


# --- the whole directory ---------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioSet(Shared):
    """Every data file of one engine, parsed and checked."""

    source: str
    docs: Mapping[str, Doc]
    files: tuple[Traversable, ...]
    map_doc: str | None
    tables: Mapping[str, Table]
    stand_ins: tuple[StandIn, ...]
    scenarios: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @functools.cached_property
    def map(self) -> HexMap:
        if self.map_doc is None:
            raise ScenarioError("no file has a [map] table", path=self.source)
        return parse_map(self.docs[self.map_doc])

    def doc(self, name: str) -> Doc:
        try:
            return self.docs[name]
        except KeyError:
            raise ScenarioError(f"no data file {name} (have: {', '.join(self.docs)})",
                                path=self.source) from None

    def scenario(self, scenario_id: str) -> Doc:
        """The file whose ``[scenario]`` table has this id."""
        try:
            return self.docs[self.scenarios[scenario_id]]
        except KeyError:
            raise ScenarioError(f"no scenario {scenario_id!r} (have: "
                                f"{', '.join(self.scenarios)})", path=self.source) from None

    def files_for(self, scenario_id: str) -> tuple[Traversable, ...]:
        """The files a game of ``scenario_id`` depends on: its own file and every file
        that is not another scenario's (map, tables, units, schedules).  An invitation
        pins exactly these, so editing one scenario's setup leaves the others' games
        joinable."""
        own = self.scenarios.get(scenario_id)
        if own is None:
            raise ScenarioError(f"no scenario {scenario_id!r}", path=self.source)
        others = set(self.scenarios.values()) - {own}
        return tuple(t for name, t in zip(self.docs, self.files, strict=True)
                     if name not in others)

    def infos(self) -> list[ScenarioInfo]:
        """A :class:`pbem.engine.ScenarioInfo` per ``[scenario]`` file, in id order,
        from its ``id``, ``title``, ``description`` and ``turns`` keys."""
        out = []
        for sid, name in self.scenarios.items():
            doc = self.docs[name]
            turns = _pair(doc, ("scenario", "turns")) if doc.has("scenario", "turns") else (1, 1)
            out.append(ScenarioInfo(
                id=sid,
                title=doc.get_str("scenario", "title"),
                description=doc.get_str("scenario", "description", default=""),
                files=self.files_for(sid),
                turns=turns,
            ))
        return out

    def table(self, name: str) -> Table:
        try:
            return self.tables[name]
        except KeyError:
            raise ScenarioError(f"no table [tables.{name}] in any file",
                                path=self.source) from None

    def odds_crt(self, name: str) -> OddsCRT:
        from engines.hexkit.tables import OddsCRT

        return self._typed(name, "odds", OddsCRT)

    def differential_crt(self, name: str) -> DifferentialCRT:
        from engines.hexkit.tables import DifferentialCRT

        return self._typed(name, "differential", DifferentialCRT)

    def chart(self, name: str) -> TerrainChart:
        from engines.hexkit.tables import TerrainChart

        return self._typed(name, "chart", TerrainChart)

    def _typed(self, name: str, kind: str, cls: type[T]) -> T:
        table = self.table(name)
        if table.kind != kind:
            raise ScenarioError(f"[tables.{name}] is kind {table.kind!r}, expected {kind!r}",
                                path=table.where)
        result = typed(table)
        assert isinstance(result, cls)
        return result


def _toml_files(root: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for entry in sorted(root.iterdir(), key=lambda t: t.name):
        if entry.is_dir():
            if not entry.name.startswith(("_", ".")):
                yield from _toml_files(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(".toml"):
            yield f"{prefix}{entry.name}", entry


#: what :func:`_read_docs` read: the docs, the data cache's key and value for the set
#: (``None``: nothing kept) and whether that entry says the set's tables were checked
#: whole (:func:`load_scenario_path`).  A tuple, not a class: a class made at import is
#: 0.1 M instructions of every command that loads a game (issue 35)
_Read = tuple[dict[str, Doc], "bytes | None", "list[Any] | None", bool]


#: the last item of a set's kept entry once its tables were checked whole by this code
_CHECKED = "tables-checked"


def _with_head(doc: Doc, packed: bytes) -> None:
    """Give ``doc`` its ``[scenario]`` table kept on its own (:attr:`Doc._head`), read
    by its own walk until its whole tables are decoded; every other file keeps the plain
    walk, which White Death's and Mortain's loads take thousands of times."""
    doc.__dict__["_scenario_packed"] = packed

    def walk(path: Sequence[Key]) -> Any:
        node: Any = (doc._head if len(path) and path[0] == "scenario"
                     and "data" not in doc.__dict__ else None)
        if node is None:
            node = doc.data
        for k in path:
            node = node[k]
        return node

    doc.__dict__["_walk"] = walk


def _read_docs(prefix: str, found: list[tuple[str, Traversable]]) -> _Read:
    """Every file of ``found`` read and parsed, each named ``prefix/name``.

    Kept between commands (pbem.datacache) as one entry for the whole set, under every
    file's name, path and stamp (size, modification time, inode, device, as
    :func:`pbem.datacache.read_known` keeps one file's digest) and this kit's code:
    each file's digest, top-level keys, packed tables and stand-ins.  Reading an entry
    a file for its digest and another for its tables was 24 entries of For the
    Motherland!'s 12 files, every command (issue 35).  A file whose stamp changes while
    it is read, or a set not kept, is read file by file as before (and then kept)."""
    paths = [t for _, t in found if isinstance(t, Path)]
    if datacache.directory() is None:
        # nothing is kept: each file read as it is (its digest, when the invite's check
        # asks it, taken of these bytes then), without the stamps and keys of a file's
        # kept digest that nothing keeps (2 M instructions of a no-home audit, issue 35)
        return ({name: parse_doc(f"{prefix}/{name}", t.read_bytes())
                 for name, t in found}, None, None, False)
    if len(paths) != len(found):
        return ({name: parse_doc(f"{prefix}/{name}", datacache.read_known(t)
                                 if isinstance(t, Path) else t.read_bytes())
                 for name, t in found}, None, None, False)
    raws: list[bytes] = []
    stamps: list[str] = []
    for path in paths:
        before = os.stat(path)
        raw = path.read_bytes()
        after = os.stat(path)
        stamp = [(st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev) for st in (before, after)]
        if stamp[0] != stamp[1] or len(raw) != before.st_size:  # changing as it is read
            return ({name: parse_doc(f"{prefix}/{name}", datacache.read_known(t))
                     for name, t in zip((n for n, _ in found), paths, strict=True)},
                    None, None, False)
        raws.append(raw)
        stamps.append("\0".join(map(str, (path, *stamp[0]))))
    names = [f"{prefix}/{name}" for name, _ in found]
    key = datacache.make_key("toml-set", "digest+top+packed+stand-ins+scenario", sys.version,
                             _kit_code(), *names, *stamps)
    kept: Any = datacache.load("toml-set", key)
    checked = (type(kept) is list and len(kept) == len(found) + 1
               and kept[-1] == _CHECKED)
    if checked:
        kept = kept[:-1]
    if (type(kept) is list and len(kept) == len(found)
            and all(type(k) is list and len(k) == 5 and type(k[0]) is bytes
                    and len(k[0]) == 32 and type(k[1]) is list
                    and all(type(t) is str for t in k[1]) and type(k[2]) is bytes
                    and type(k[3]) is list
                    and all(type(i) is list and len(i) == 2
                            and all(type(x) is str for x in i) for i in k[3])
                    and type(k[4]) is bytes
                    for k in kept)):
        docs: dict[str, Doc] = {}
        for (short, _), name, raw, (digest, top, packed, stand_ins, head) in zip(
                found, names, raws, kept, strict=True):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                break  # not what was kept: read file by file, which names the error
            remember_digest(raw, digest)
            doc = docs[short] = Doc(name, text, tuple(top), packed)
            doc.__dict__["_digest"] = digest
            doc.__dict__["stand_ins"] = tuple(StandIn(name, where, reason)
                                              for where, reason in stand_ins)
            if head:
                _with_head(doc, head)
        else:
            return docs, key, kept, checked
    docs = {short: parse_doc(name, raw)
            for (short, _), name, raw in zip(found, names, raws, strict=True)}
    entry: list[Any] = []
    for doc, raw in zip(docs.values(), raws, strict=True):
        try:
            stand_ins = doc.stand_ins
        except ScenarioError:
            return docs, None, None, False  # refused where the set's load asks
        packed = doc.packed or _packed_toml(dict(doc.data))
        if packed is None:
            return docs, None, None, False  # a date or time msgpack cannot keep
        head = doc.data.get("scenario")
        entry.append([content_digest(raw), list(doc.top), packed,
                      [[f.key, f.reason] for f in stand_ins],
                      (type(head) is dict and _packed_toml({"scenario": head})) or b""])
    datacache.store("toml-set", key, entry)
    return docs, key, entry, False


def load_scenario_path(path: str | Path | Traversable, label: str | None = None) -> ScenarioSet:
    """Load and check every ``*.toml`` under ``path`` (tests, or a player's own copy)."""
    root: Traversable = Path(path) if isinstance(path, str | Path) else path
    source = label or str(path)
    if not root.is_dir():
        raise ScenarioError("not a directory of scenario files", path=source)
    found = list(_toml_files(root))
    docs, key, entry, checked = _read_docs(source.rstrip("/"), found)
    traversables = [t for _, t in found]
    if not docs:
        raise ScenarioError("no .toml files", path=source)
    map_docs = [n for n, d in docs.items() if "map" in d.top]
    if len(map_docs) > 1:
        raise ScenarioError(f"[map] appears in {', '.join(map_docs)}; keep one map file",
                            path=source)
    tables: dict[str, Table] = {}
    scenarios: dict[str, str] = {}
    stand_ins: list[StandIn] = []
    for name, d in docs.items():
        if "tables" in d.top:
            for tname in d.get_table("tables"):
                if tname in tables:
                    raise d.error(("tables", tname),
                                  f"table already defined in {tables[tname].where}")
                tables[tname] = parse_table(d, tname, typed_checked=checked)
        if "scenario" in d.top:
            sid = d.get_str("scenario", "id", default=Path(name).stem)
            if sid in scenarios:
                raise d.error(("scenario", "id"), f"scenario {sid!r} is also {scenarios[sid]}")
            d.get_str("scenario", "title")
            if d.has("scenario", "turns"):
                _pair(d, ("scenario", "turns"))
            scenarios[sid] = name
        stand_ins.extend(_stand_ins_of(d))
    if key is not None and entry is not None and not checked:
        # every table's typed view made, and none refused: the set's kept entry says so,
        # and a later load of the same files by the same kit code (the entry's key)
        # makes none of them again.  Making them was 2.6 M instructions of every
        # Backhand Blow command, its CRT's odds columns (and the odds module) made to be
        # checked and dropped, where only an attack reads the CRT (issue 35)
        datacache.store("toml-set", key, [*entry, _CHECKED])
    result = ScenarioSet(source, MappingProxyType(docs), tuple(traversables),
                         map_docs[0] if map_docs else None, MappingProxyType(tables),
                         tuple(stand_ins), MappingProxyType(dict(sorted(scenarios.items()))))
    if result.map_doc is not None:
        _ = result.map  # check the map now, so a bad map fails at load, not mid-game
    return result


@functools.cache
def load_scenario_dir(engine_id: str) -> ScenarioSet:
    """The shipped data of ``engine_id`` (``scenarios/<engine_id>/``), loaded once."""
    root = package_files("scenarios") / engine_id
    return load_scenario_path(root, label=f"scenarios/{engine_id}")
