"""Flat-top hex geometry on cube coordinates, after Red Blob Games' hex algorithms.

Wargame maps number flat-top hexes in columns, with every other column pushed half a
hex down.  Which columns are pushed is a property of the printed map, so both offset
parities are supported and named as Red Blob names them: ``"odd"`` (odd-q: odd
columns shifted down) and ``"even"`` (even-q: even columns shifted down).  Every
computation is done on cube coordinates (``q + r + s == 0``) with integers only, points
along a line too (over a common denominator, :func:`cube_line`), so that a line of sight
is the same on every machine.

Neighbor order is fixed and documented because callers iterate it and game state may
depend on the order: north, northeast, southeast, south, southwest, northwest
(clockwise from the top of the printed map), see :data:`DIRECTIONS`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, Self, cast

from engines.hexkit.hexid import FOUR_DIGIT, FrozenRecord, HexId, Numbering

Parity = Literal["odd", "even"]

#: a hexside: the two hexes it separates, sorted, so both sides name it the same way
Hexside = tuple[HexId, HexId]


class FieldTuple(tuple[Any, ...]):
    """What a :func:`collections.namedtuple` class has beyond its fields (``_make``,
    ``_replace``, ``_asdict``, its repr, pickling by its fields), for the kit's named
    tuples (:class:`Cube`, :class:`~engines.hexkit.facts.Placed`), whose ``__new__`` and
    field getters are written in their source: namedtuple writes its ``__new__`` as text
    and compiles it by ``eval`` at every import, 0.5 M instructions a class more than a
    class read from bytecode, on every command that loads a game (issue 35)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _field_defaults: ClassVar[dict[str, Any]] = {}

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:
        made = tuple.__new__(cls, iterable)
        if len(made) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
        return made

    def _replace(self, /, **changes: Any) -> Self:
        made = self._make(map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return made

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))

    def __repr__(self) -> str:
        fields = ", ".join([f"{n}={v!r}" for n, v in zip(self._fields, self, strict=True)])
        return f"{type(self).__name__}({fields})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        # tuple's own gives the tuple as one argument, which __new__ does not take
        return tuple(self)


if TYPE_CHECKING:
    class _CubeFields(NamedTuple):
        q: int
        r: int
        s: int
else:
    from _collections import _tuplegetter

    # not typing.NamedTuple's class form either, which compiles each of its string
    # annotations into a ForwardRef (1.28 M instructions a class, issue 35)
    class _CubeFields(FieldTuple):
        __slots__ = ()
        _fields = __match_args__ = ("q", "r", "s")
        _field_defaults: ClassVar[dict[str, Any]] = {}

        def __new__(cls, q, r, s):
            return tuple.__new__(cls, (q, r, s))

        # namedtuple's own field getters, in C
        q = _tuplegetter(0, "Alias for field number 0")
        r = _tuplegetter(1, "Alias for field number 1")
        s = _tuplegetter(2, "Alias for field number 2")


class Cube(_CubeFields):
    """A hex in cube coordinates; ``q`` grows east, ``r`` grows south-west."""

    __slots__ = ()

    def __add__(self, other: object) -> Cube:  # type: ignore[override,unused-ignore]
        if not isinstance(other, Cube):
            return NotImplemented
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Cube) -> Cube:
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)

    def scale(self, k: int) -> Cube:
        return Cube(self.q * k, self.r * k, self.s * k)


#: direction names in the fixed neighbor order
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
#: cube offsets in the same order as :data:`DIRECTION_NAMES`
DIRECTIONS: tuple[Cube, ...] = (
    Cube(0, -1, 1),
    Cube(1, -1, 0),
    Cube(1, 0, -1),
    Cube(0, 1, -1),
    Cube(-1, 1, 0),
    Cube(-1, 0, 1),
)


#: a Cube from a ``(q, r, s)`` tuple, made in C (Cube's own ``__new__`` is a Python call)
cube_of = cast(Callable[[tuple[int, int, int]], Cube], functools.partial(tuple.__new__, Cube))


def cube(q: int, r: int) -> Cube:
    return Cube(q, r, -q - r)


def oddq_to_cube(col: int, row: int) -> Cube:
    """Odd columns shifted down (Red Blob's odd-q)."""
    q = col
    r = row - (col - (col & 1)) // 2
    return Cube(q, r, -q - r)


def cube_to_oddq(c: Cube) -> tuple[int, int]:
    return c.q, c.r + (c.q - (c.q & 1)) // 2


def evenq_to_cube(col: int, row: int) -> Cube:
    """Even columns shifted down (Red Blob's even-q)."""
    q = col
    r = row - (col + (col & 1)) // 2
    return Cube(q, r, -q - r)


def cube_to_evenq(c: Cube) -> tuple[int, int]:
    return c.q, c.r + (c.q + (c.q & 1)) // 2


def offset_to_cube(parity: Parity, col: int, row: int) -> Cube:
    return oddq_to_cube(col, row) if parity == "odd" else evenq_to_cube(col, row)


def cube_to_offset(parity: Parity, c: Cube) -> tuple[int, int]:
    return cube_to_oddq(c) if parity == "odd" else cube_to_evenq(c)


def cube_distance(a: Cube, b: Cube) -> int:
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


def cube_ring(center: Cube, radius: int) -> list[Cube]:
    """Hexes exactly ``radius`` away, starting due north of ``center``, going clockwise."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")
    if radius == 0:
        return [center]
    out: list[Cube] = []
    h = center + DIRECTIONS[0].scale(radius)
    # walking from the north corner clockwise: first leg goes southeast, and so on
    for leg in range(6):
        step = DIRECTIONS[(leg + 2) % 6]
        for _ in range(radius):
            out.append(h)
            h = h + step
    return out


def _cube_round_int(nq: int, nr: int, ns: int, d: int) -> Cube:
    """:func:`_cube_round` of ``(nq/d, nr/d, ns/d)`` in integers: no half ties occur
    (see :func:`cube_line`), so rounding is ``(2n + d) // 2d`` and the distances to the
    rounded values compare as their numerators over ``d``."""
    d2 = 2 * d
    rq, rr, rs = (2 * nq + d) // d2, (2 * nr + d) // d2, (2 * ns + d) // d2
    dq, dr, ds = abs(rq * d - nq), abs(rr * d - nr), abs(rs * d - ns)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Cube(rq, rr, rs)


def cube_line(a: Cube, b: Cube) -> list[tuple[Cube, ...]]:
    """The hexes a straight line between two hex centers passes through.

    One entry per step from ``a`` to ``b`` (``distance + 1`` entries).  An entry holds one
    hex, or two when the line runs exactly along the hexside between them at that step:
    the rules of each game decide what such a line means (White Death's blocking
    terrain on either side, say), so the kit reports both rather than picking one.

    The point is nudged by an exact tiny epsilon in both directions; the two nudges give
    the same hex unless the point lies on a hexside.  Pairs are in cube order.

    Computed in integers over the common denominator ``1000 n``: the point's coordinates
    are ``1000 (a n + (b - a) i)`` over it and the nudges add ``+-1, +-2, -+3``, so no
    nudged coordinate is ever a half (its numerator is 1, 2 or 3 off a multiple of 1000,
    twice it never a multiple of ``1000 n``); the same hexes as the exact Fraction sums
    (the tests keep that first version as their reference).
    """
    n = cube_distance(a, b)
    if n == 0:
        return [(a,)]
    d = 1000 * n
    out: list[tuple[Cube, ...]] = []
    for i in range(n + 1):
        q = 1000 * (a.q * n + (b.q - a.q) * i)
        r = 1000 * (a.r * n + (b.r - a.r) * i)
        s = 1000 * (a.s * n + (b.s - a.s) * i)
        plus = _cube_round_int(q + 1, r + 2, s - 3, d)
        minus = _cube_round_int(q - 1, r - 2, s + 3, d)
        out.append((plus,) if plus == minus else tuple(sorted((plus, minus))))
    return out


def hexside(a: HexId, b: HexId) -> Hexside:
    """The one value naming the hexside between ``a`` and ``b`` from either side."""
    if a == b:
        raise ValueError(f"a hexside needs two different hexes, got {a} twice")
    return (a, b) if a < b else (b, a)


#: how many hexes' cubes :meth:`HexGrid.to_cube` works out from their ids before it
#: makes the grid's whole table (a listing asks thousands)
WORKED_OUT = 512


class HexGrid(FrozenRecord):
    """The rectangular numbering grid of a map: parity, digit widths and bounds.

    Irregular maps (coasts, a missing corner) are a :class:`~engines.hexkit.hexmap.HexMap`
    on top of a grid; the grid answers geometry questions for any id inside its bounds.
    """

    parity: Parity
    cols: tuple[int, int]
    rows: tuple[int, int]
    numbering: Numbering
    _fields = __match_args__ = ("parity", "cols", "rows", "numbering")

    def __init__(self, parity: Parity = "even", cols: tuple[int, int] = (1, 1),
                 rows: tuple[int, int] = (1, 1), numbering: Numbering = FOUR_DIGIT) -> None:
        d = self.__dict__
        d["parity"], d["cols"], d["rows"], d["numbering"] = parity, cols, rows, numbering
        if parity not in ("odd", "even"):
            raise ValueError(f"parity must be 'odd' or 'even', not {parity!r}")
        if cols[0] > cols[1] or rows[0] > rows[1]:
            raise ValueError(f"empty grid: columns {cols}, rows {rows}")
        # each column's and each row's digits written once, each cell's id joined from
        # them, and its cube made from its column's shift: formatting and converting
        # every cell (2,160 on 48th Panzer Korps' map) was most of making a grid, which
        # loading a map from its file does (issue 35).  The corners are formatted as
        # before, so a grid whose numbers do not fit its digits is refused the same.
        numbering.format(cols[0], rows[0])
        numbering.format(cols[1], rows[1])

    @functools.cached_property
    def _cubes(self) -> dict[HexId, Cube]:
        """Every cell's cube by its id, in column then row order, made when first
        asked: a command that asks no geometry of the grid, or only a few distances
        (:meth:`to_cube`), need not make 2,160 of them for 48th Panzer Korps' map, which
        was a fifth of loading its map from the data cache (issue 35).  A grid read
        back from the cache (``hexkit.scenario._map_from_data``) left in ``_columns``
        the reader of its cells' ids and cube columns, which gives ``None`` when they do
        not read back: the cells are then made from the numbering, as a built grid's."""
        kept = self.__dict__.pop("_columns", None)
        columns = kept() if kept is not None else None
        if columns is not None:
            ids, qs, rs, ss = columns
            return dict(zip(ids, map(cube_of, zip(qs, rs, ss, strict=True)), strict=True))
        cells: dict[HexId, Cube] = {}
        rows = range(self.rows[0], self.rows[1] + 1)
        numbering = self.numbering
        row_texts = [(f"{r:0{numbering.row_digits}d}", r) for r in rows]
        odd = self.parity == "odd"
        for c in range(self.cols[0], self.cols[1] + 1):
            text = f"{c:0{numbering.col_digits}d}"
            # oddq_to_cube / evenq_to_cube: r = row - shift
            shift = (c - (c & 1)) // 2 if odd else (c + (c & 1)) // 2
            for rt, r in row_texts:
                cells[text + rt] = cube_of((c, r - shift, shift - r - c))
        return cells

    def coords(self) -> Iterator[tuple[int, int]]:
        for c in range(self.cols[0], self.cols[1] + 1):
            for r in range(self.rows[0], self.rows[1] + 1):
                yield c, r

    def ids(self) -> list[HexId]:
        """Every id on the grid, sorted."""
        return sorted(self._cubes)

    def contains(self, h: HexId) -> bool:
        return h in self._cubes

    def hex_id(self, col: int, row: int) -> HexId:
        return self.numbering.format(col, row)

    def coords_of(self, h: HexId) -> tuple[int, int]:
        return self.numbering.parse(h)

    def to_cube(self, h: HexId) -> Cube:
        d = self.__dict__
        cells: dict[HexId, Cube] | None = d.get("_cubes")
        if cells is None:
            # the hexes asked worked out from their ids, each once, as the table would
            # give them (its cubes are the same conversion): a command asks the
            # distances of a few dozen hexes, if hundreds of times (48th Panzer Korps'
            # set-up, 9, and release, of the first-day audit), and the whole table is
            # 5.8 M instructions of its 2,160 cells (issue 35)
            few: dict[HexId, Cube] | None = d.get("_few")
            if few is None:
                few = d["_few"] = {}
            c = few.get(h)
            if c is not None:
                return c
            if len(few) < WORKED_OUT:
                col, row = self.numbering.parse(h)
                c = few[h] = offset_to_cube(self.parity, col, row)
                return c
            cells = self._cubes
        c = cells.get(h)
        if c is None:
            col, row = self.numbering.parse(h)
            return offset_to_cube(self.parity, col, row)
        return c

    def from_cube(self, c: Cube) -> HexId | None:
        """The id of a cube position, or ``None`` when it falls outside the grid."""
        # looked up, not converted and written: every cell's id is known (_cubes), and a
        # search of the hexes within five of each unit (For the Motherland! 9.3.3) wrote
        # 91 ids a unit (issue 35 item 5).  Kept beside the fields, not as one: a map
        # from the data cache is rebuilt from its fields alone (scenario._map_from_data)
        found: dict[Cube, HexId] | None = self.__dict__.get("_ids")
        if found is None:
            found = {cube: h for h, cube in self._cubes.items()}
            object.__setattr__(self, "_ids", found)
        return found.get(c)

    def neighbor(self, h: HexId, direction: int) -> HexId | None:
        return self.from_cube(self.to_cube(h) + DIRECTIONS[direction % 6])

    def neighbors(self, h: HexId) -> list[HexId]:
        """On-grid neighbors in the fixed order N, NE, SE, S, SW, NW."""
        c = self.to_cube(h)
        out = []
        for d in DIRECTIONS:
            n = self.from_cube(c + d)
            if n is not None:
                out.append(n)
        return out

    def direction(self, a: HexId, b: HexId) -> int:
        """Index into :data:`DIRECTIONS` of the step from ``a`` to adjacent ``b``."""
        d = self.to_cube(b) - self.to_cube(a)
        try:
            return DIRECTIONS.index(d)
        except ValueError:
            raise ValueError(f"{a} and {b} are not adjacent") from None

    def adjacent(self, a: HexId, b: HexId) -> bool:
        return cube_distance(self.to_cube(a), self.to_cube(b)) == 1

    def distance(self, a: HexId, b: HexId) -> int:
        return cube_distance(self.to_cube(a), self.to_cube(b))

    def nearest_first(self, center: HexId, hexes: Iterable[HexId]) -> list[HexId]:
        """``hexes`` sorted by their distance from ``center``, then by id: each hex's
        cube asked once, not two a comparison through :meth:`distance` (48th Panzer
        Korps' set-up orders its front's hexes from each formation's area, 9: about 600
        distances of the first-day audit, issue 35)."""
        c, to_cube = self.to_cube(center), self.to_cube
        return [h for _, h in sorted((cube_distance(to_cube(h), c), h) for h in hexes)]

    def hexside(self, a: HexId, b: HexId) -> Hexside:
        if not self.adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent, so share no hexside")
        return hexside(a, b)

    def ring(self, center: HexId, radius: int) -> list[HexId]:
        """On-grid hexes exactly ``radius`` away, clockwise from due north."""
        out = []
        for c in cube_ring(self.to_cube(center), radius):
            h = self.from_cube(c)
            if h is not None:
                out.append(h)
        return out

    def within(self, center: HexId, radius: int) -> list[HexId]:
        """On-grid hexes at distance ``<= radius``, sorted by id."""
        c0 = self.to_cube(center)
        if "_ids" not in self.__dict__ and type(self.numbering) is Numbering:
            return self._within_written(c0, radius)
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                h = self.from_cube(Cube(c0.q + dq, c0.r + dr, c0.s - dq - dr))
                if h is not None:
                    out.append(h)
        return sorted(out)

    def _within_written(self, c0: Cube, radius: int) -> list[HexId]:
        """:meth:`within` with each hex's id written from its column and row (the
        inverse of :meth:`to_cube`'s conversion), not looked up in the table of every
        cell by its cube: a set-up asks the hexes near a few areas, and the table with
        the grid's cubes it is made from were 9 M instructions of 48th Panzer Korps'
        first-day audit (9, issue 35)."""
        c1, c2 = self.cols
        r1, r2 = self.rows
        numbering = self.numbering
        texts = numbering._texts
        odd = self.parity == "odd"
        out = []
        for q in range(max(c1, c0.q - radius), min(c2, c0.q + radius) + 1):
            dq = q - c0.q
            # cube_to_oddq / cube_to_evenq: row = r + shift
            shift = (q - (q & 1)) // 2 if odd else (q + (q & 1)) // 2
            for r in range(c0.r + max(-radius, -dq - radius),
                           c0.r + min(radius, -dq + radius) + 1):
                row = r + shift
                if r1 <= row <= r2:
                    out.append(texts[0][q] + texts[1][row] if texts is not None
                               else numbering.format(q, row))
        return sorted(out)

    def line(self, a: HexId, b: HexId) -> list[tuple[HexId, ...]]:
        """:func:`cube_line` in ids: each step one id, or two (sorted) on a hexside.

        Hexes off the grid are left out of a step (a line between two on-grid hexes
        can graze a missing corner only in a two-hex step).
        """
        out: list[tuple[HexId, ...]] = []
        for step in cube_line(self.to_cube(a), self.to_cube(b)):
            ids = sorted(h for h in (self.from_cube(c) for c in step) if h is not None)
            out.append(tuple(ids))
        return out
