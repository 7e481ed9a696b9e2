"""The generic board description an engine hands to the display.

``State.view(side)`` returns a :class:`BoardView`: everything the terminal board, the SVG
picture and the replay narration need, and nothing that side may not see (White Death
Rule 4C: the opponent sees only the top unit of a stack).  The display code in ``pbem``
draws any game from this without importing the game.

Coordinates: a hex is named by its id string as the rulebook prints it (``"2510"``) and
placed by ``col``/``row`` on a grid whose geometry ``Layout`` fixes.  Everything here is
plain, frozen and ordered so a view can be compared in tests and serialized.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

Orientation = Literal["flat", "pointy"]
#: which columns (flat-top) or rows (pointy-top) are pushed half a hex down/right
OffsetParity = Literal["odd", "even"]


@dataclass(frozen=True)
class Layout:
    """Grid geometry: flat-top hexes in columns (most wargame maps) or pointy-top in rows."""

    orientation: Orientation = "flat"
    #: flat-top: columns whose number has this parity are shifted half a hex down
    offset: OffsetParity = "even"
    #: first and last column and row numbers present on the map (inclusive)
    cols: tuple[int, int] = (1, 1)
    rows: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class TerrainStyle:
    """How to draw one terrain class: a name, a fill color, and a one-cell glyph."""

    name: str
    color: str  # "#rrggbb"
    glyph: str = " "


@dataclass(frozen=True)
class Cell:
    """One map hex."""

    hex: str
    col: int
    row: int
    terrain: str
    #: a short name to print on the hex (town name), if any
    label: str = ""


@dataclass(frozen=True)
class Edge:
    """A hexside feature between two adjacent hexes (river, slope, bridge...)."""

    a: str
    b: str
    feature: str
    color: str = "#3060c0"


@dataclass(frozen=True)
class Line:
    """A feature that runs through hex centers: road, railroad, trail."""

    feature: str
    hexes: tuple[str, ...]
    color: str = "#806040"


@dataclass(frozen=True)
class Piece:
    """A unit or marker as one side may see it.

    ``hidden`` pieces are stack members the viewer knows exist but may not identify; the
    display shows them as a count under the top piece.
    """

    id: str
    side: str
    label: str  # what the counter shows: "2-4-6", "83 ID", "?"
    location: str  # a hex id or an off-map box name
    name: str = ""
    markers: tuple[str, ...] = ()
    hidden: bool = False
    color: str = "#c0c0c0"


@dataclass(frozen=True)
class Box:
    """An off-map box: holding box, Baku, administrative movement box."""

    name: str
    title: str


@dataclass(frozen=True)
class BoardView:
    """What one side (or a referee, ``side=None``) may see of the board right now."""

    title: str
    side: str | None
    layout: Layout
    terrain: tuple[TerrainStyle, ...]
    cells: tuple[Cell, ...]
    edges: tuple[Edge, ...] = ()
    lines: tuple[Line, ...] = ()
    pieces: tuple[Piece, ...] = ()
    boxes: tuple[Box, ...] = ()
    #: one line: turn, phase, impulse, MPs left, what is awaited
    status: str = ""
    #: hexes to emphasize (reachable set for ``legal UNIT``, hexes of the last event)
    highlights: tuple[str, ...] = ()
    #: extra per-hex markers for overlays, e.g. {"zoc:german": ("0101", ...)}
    overlays: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    def hexes(self) -> frozenset[str]:
        """The map's hex ids: those of :attr:`cells`, without making a deferred view's
        cells when its maker knows them (whether a piece stands on the map or in a box,
        for a listing's units)."""
        known = self.__dict__.get(_HEXES)
        if known is None or "cells" in self.__dict__:
            return frozenset(c.hex for c in self.cells)
        return frozenset(known())

    @classmethod
    def deferred(cls, fill: Callable[[], Mapping[str, Any]], *,
                 hexes: Callable[[], Iterable[str]] | None = None, **given: Any
                 ) -> BoardView:
        """A view with the ``given`` fields, whose others (the map's: :data:`DEFERRED`)
        ``fill`` makes when one is first read.  A command that only names the units of
        a view ('legal', 'act': :meth:`pbem.engine.State.counters`) never builds the
        map's cells, a few thousand records and up to 50 M instructions a command
        (issue 35 item 3); every other use (equality, ``replace``, drawing) reads them
        and sees the same view as one made whole."""
        view = object.__new__(cls)
        # the fields an engine gives (all but the deferred ones) compared in one step: the
        # sets made to name what is wrong were a fifth of a board view's own cost, made
        # on every click's redraw (issue 35)
        if given.keys() != _GIVEN.get(cls) and not _gives_fields(cls, given):
            unknown = sorted(set(given) - set(cls.__dataclass_fields__))
            raise TypeError(f"BoardView.deferred: fields {unknown} are not a view's; "
                            f"give every field but {', '.join(DEFERRED)}")
        view.__dict__.update(given)
        view.__dict__[_FILL] = fill
        if hexes is not None:  # what hexes() answers: the ids of the cells fill makes
            view.__dict__[_HEXES] = hexes
        return view

    def restated(self, status: str) -> BoardView:
        """This view with another status line, its map's fields as they are (a deferred
        view's still to be made): ``dataclasses.replace`` reads every field, making
        them, and builds the view again, a fifth of 48th Panzer Korps' board view on a
        click's redraw (its status carries the side's secret plan: issue 35)."""
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view.__dict__["status"] = status
        return view

    def redrawn(self, pieces: tuple[Piece, ...], status: str) -> BoardView:
        """This view with other counters and another status line, its map's fields as
        they are (a deferred view's made or still to be made): an engine that keeps its
        last view draws the next position's from it, and its map's fields are not made
        again for each new view (Backhand Blow's board on every click's redraw, a
        twentieth of the click: issue 35)."""
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view.__dict__["pieces"] = pieces
        view.__dict__["status"] = status
        return view

    if not TYPE_CHECKING:  # to the type checker a view has its fields and nothing else
        def __getattr__(self, name: str) -> Any:
            # reached only for a name the instance lacks: a deferred field not yet made
            fill = self.__dict__.get(_FILL)
            if fill is None or name not in DEFERRED:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                     f"{name!r}")
            made = fill()
            self.__dict__.update({f: made[f] for f in DEFERRED if f not in self.__dict__})
            del self.__dict__[_FILL]
            return self.__dict__[name]


#: the fields :meth:`BoardView.deferred` may leave to its ``fill``: those that depend on
#: the map alone
DEFERRED = ("layout", "terrain", "cells", "edges", "lines", "boxes")
_FILL = "_deferred_fill"
_HEXES = "_deferred_hexes"
# a field with a default is also a class attribute, which would answer for a deferred
# field before __getattr__ is asked; the generated __init__ keeps its own copy of each
# default, so removing them changes nothing else
for _name in DEFERRED:
    if _name in vars(BoardView):
        delattr(BoardView, _name)
#: by view class, the fields :meth:`BoardView.deferred` is given when all the deferred
#: ones are left to its ``fill`` (nearly always)
_GIVEN: dict[type, frozenset[str]] = {}


def _gives_fields(cls: type[BoardView], given: Mapping[str, Any]) -> bool:
    """Whether ``given`` are fields of ``cls``, with every field not deferred among them;
    the set given when all the deferred ones are left out is kept for ``cls``."""
    fields = set(cls.__dataclass_fields__)
    _GIVEN.setdefault(cls, frozenset(fields - set(DEFERRED)))
    return set(given) <= fields and set(given) | set(DEFERRED) == fields
