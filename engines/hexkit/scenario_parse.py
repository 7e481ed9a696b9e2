"""Reading scenario data the data cache does not hold: a first load, a changed file, no
home (a referee's audit).  The TOML files parsed, the map built and checked, the
stand-ins found, what the cache keeps of each packed; and the line of a key, for an
error message.

Split from :mod:`engines.hexkit.scenario`, which a load the cache holds (every turn
command of a home that has played the scenario before) needs alone: this module's code
was two fifths of that one's, read at the import of every command that loads a game
(issue 35).  It imports :mod:`engines.hexkit.scenario`, which imports it only where a
cache miss, a rebuild or an error needs it.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Mapping, Sequence
from struct import pack
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgpack

from engines.hexkit.geometry import HexGrid, Hexside
from engines.hexkit.hexid import HexId, Numbering
from engines.hexkit.hexmap import HexMap, OffMapBox, TerrainClass, areas_by_hex
from engines.hexkit.scenario import (
    Doc,
    Key,
    StandIn,
    _cell,
    _expand_hexes,
    _fmt_key,
    _kit_code,
    _packed,
    _pair,
    _Read,
)
from pbem import datacache
from pbem.errors import ScenarioError
from pbem.sha import content_digest

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


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
        data = parse_toml(name, text)
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
    data = parse_toml(name, text)
    doc = Doc(name, text, tuple(data))
    doc.__dict__["data"] = MappingProxyType(data)
    doc.__dict__["_digest"] = digest
    try:
        found = doc.stand_ins
    except ScenarioError:
        # nothing kept; refused where the set's load asks (the same refusal as without
        # a cache, after the same checks of the files before it)
        return doc
    packed = packed_toml(data)
    if packed is not None:
        datacache.store("toml", key, [list(data), packed,
                                      [[f.key, f.reason] for f in found]])
    return doc


def read_set(key: bytes, found: list[tuple[str, Traversable]], names: list[str],
             raws: list[bytes]) -> _Read:
    """:func:`scenario._read_docs` of a set the data cache does not hold under ``key``:
    every file parsed (:func:`parse_doc`), and the set kept for the next load."""
    docs = {short: parse_doc(name, raw)
            for (short, _), name, raw in zip(found, names, raws, strict=True)}
    entry: list[Any] = []
    for doc, raw in zip(docs.values(), raws, strict=True):
        try:
            stand_ins = doc.stand_ins
        except ScenarioError:
            return docs, None, None, False  # refused where the set's load asks
        packed = doc.packed or packed_toml(dict(doc.data))
        if packed is None:
            return docs, None, None, False  # a date or time msgpack cannot keep
        head = doc.data.get("scenario")
        entry.append([content_digest(raw), list(doc.top), packed,
                      [[f.key, f.reason] for f in stand_ins],
                      (type(head) is dict and packed_toml({"scenario": head})) or b""])
    datacache.store("toml-set", key, entry)
    return docs, key, entry, False


#: where tomllib's message names the line of a syntax error (a pattern's text, as below)
_TOML_LINE = r"at line (\d+)"


def parse_toml(name: str, text: str) -> dict[str, Any]:
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


def packed_toml(data: dict[str, Any]) -> bytes | None:
    """``data`` as msgpack, or ``None`` when it holds what msgpack cannot keep exactly
    (TOML's dates and times): such a file is parsed again at every command."""
    try:
        packed: bytes = msgpack.packb(data, use_bin_type=True, strict_types=True)
    except (TypeError, ValueError, OverflowError):
        return None
    return packed


def find_stand_ins(doc: Doc, node: Any, path: tuple[Key, ...]) -> list[StandIn]:
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


def build_map(doc: Doc) -> HexMap:
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


def map_data(hexmap: HexMap) -> dict[str, Any]:
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
        "adjacency": _packed_rows(hexmap.adjacency),
        "by_hex": _hex_records(hexmap),
    }


def _packed_rows(adjacency: Sequence[tuple[int, ...]]) -> bytes:
    """The neighbour table as :func:`_kept_adjacency` reads it whole and
    :attr:`HexMap.neighbor_rows` a hex's row of it: each hex's count of neighbours, a
    byte a hex, then six big-endian 16-bit slots a hex, by index, its neighbours first
    and zeros after them.  Empty (the map makes its table itself) for a map whose
    indices do not fit the slots."""
    if len(adjacency) > 0xFFFF or any(len(near) > 6 for near in adjacency):
        return b""
    counts = bytes(map(len, adjacency))
    slots = b"".join(pack(">6H", *near, *(0,) * (6 - len(near))) for near in adjacency)
    return counts + slots


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


def line_of(doc: Doc, path: Sequence[Key]) -> int | None:
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
    for i, line in enumerate(doc._lines, 1):
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
        item = _array_item_line(doc, best_line, path)
        if item is not None:
            return item
    return best_line


def _array_item_line(doc: Doc, key_line: int, path: Sequence[Key]) -> int | None:
    """The line of element ``path[-1]`` of an array of strings written over many lines
    (a long ``river = [...]``), found by counting its quoted strings."""
    try:
        array = doc._walk(path[:-1])
    except (KeyError, IndexError, TypeError):
        return None
    index = path[-1]
    if not isinstance(array, list) or not isinstance(index, int) or index >= len(array):
        return None
    if not all(isinstance(x, str) and '"' not in x for x in array[: index + 1]):
        return None
    seen = -1
    started = False
    for n, line in enumerate(doc._lines[key_line - 1:], key_line):
        text = line.split("=", 1)[1] if not started and "=" in line else line
        started = True
        for m in re.finditer(r'"[^"]*"|#', text):
            if m.group() == "#":
                break
            seen += 1
            if seen == index:
                return n
    return None


# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_HEADER = r"^\s*(\[\[?)\s*(.+?)\s*\]\]?\s*(#.*)?$"
_KEYTOK = r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)'


def _split_keys(text: str) -> list[str]:
    """Split a dotted TOML key (``a."b c".d``) into its parts."""
    out = []
    for m in re.finditer(_KEYTOK, text):
        out.append(next(g for g in m.groups() if g is not None))
    return out
