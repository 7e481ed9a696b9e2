"""The map: terrain per hex, hexside features, road and rail networks, places, areas.

A :class:`HexMap` is built once from scenario data and never changes: game state
refers to hexes by id and looks the map up, so two players holding the same data
files hold the same map.  Every collection is exposed sorted (or as a mapping looked
up by key) so nothing that feeds game state depends on set or dict iteration order.

Three kinds of hexside data are kept apart because the rules treat them apart:

* *features* (``river``, ``minor_river``, ``lake``, ``prohibited``, ``bridge``...), a
  set of names per hexside;
* *directional* features (``slope``), which also record the hex they rise toward;
* *networks* (``road``, ``railroad``, ``trail``), connections between hex centres that
  a unit uses only when it moves along them (White Death Rule 7).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from engines.hexkit.geometry import DIRECTIONS, HexGrid, Hexside, hexside
from engines.hexkit.hexid import FrozenRecord, HexId, Numbering

if TYPE_CHECKING:
    from struct import Struct

_EMPTY: frozenset[str] = frozenset()
_NO_SIDES: frozenset[Hexside] = frozenset()


def areas_by_hex(areas: Mapping[str, Iterable[HexId]]) -> dict[HexId, tuple[str, ...]]:
    """Each hex of ``areas`` with the names of the areas that list it, in their order:
    :meth:`HexMap.areas_of`, and what a kept map's records hold of it."""
    by: dict[HexId, list[str]] = {}
    for name, hexes in areas.items():
        for h in hexes:
            by.setdefault(h, []).append(name)
    return {h: tuple(names) for h, names in by.items()}


#: the six steps of :data:`~engines.hexkit.geometry.DIRECTIONS`, in its order, as
#: (column, row) steps from a hex, by the grid's parity and the lowest bit of the hex's
#: column: the cube conversion's (evenq/oddq), which depend on nothing else of the hex
#: (written out: working them out at import cost every command 0.3 M instructions;
#: tests/kit/test_kit_neighbors.py works them out)
_OFFSETS: dict[tuple[str, int], tuple[tuple[int, int], ...]] = {
    ("even", 0): ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),
    ("even", 1): ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),
    ("odd", 0): ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),
    ("odd", 1): ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),
}


class TerrainClass(FrozenRecord):
    """One terrain type from the map legend: its name, grid character and look.

    ``attrs`` carries the legend's extra keys verbatim (``blocks_los = true``,
    ``high = true``...) so a game can give terrain properties in data rather than code.
    """

    name: str
    char: str
    color: str
    glyph: str
    attrs: Mapping[str, Any]
    _fields = __match_args__ = ("name", "char", "color", "glyph", "attrs")

    def __init__(self, name: str, char: str, color: str = "#d8d0b0", glyph: str = " ",
                 attrs: Mapping[str, Any] | None = None) -> None:
        d = self.__dict__
        d["name"], d["char"], d["color"], d["glyph"] = name, char, color, glyph
        d["attrs"] = MappingProxyType({}) if attrs is None else attrs

    def flag(self, key: str) -> bool:
        return bool(self.attrs.get(key, False))


class OffMapBox(FrozenRecord):
    """A holding box off the map (Baku, an administrative movement box)."""

    name: str
    title: str
    #: map hexes from which the box is entered, sorted
    entry: tuple[HexId, ...]
    _fields = __match_args__ = ("name", "title", "entry")

    def __init__(self, name: str, title: str, entry: tuple[HexId, ...] = ()) -> None:
        d = self.__dict__
        d["name"], d["title"], d["entry"] = name, title, entry


class HexMap(FrozenRecord):
    """An immutable map.  Build it with :meth:`build`, which validates every reference."""

    title: str
    grid: HexGrid
    terrain: Mapping[HexId, str]
    legend: tuple[TerrainClass, ...]
    hex_features: Mapping[HexId, frozenset[str]]
    hexsides: Mapping[Hexside, frozenset[str]]
    #: (feature, hexside) -> the hex the feature rises or faces toward (slope: high hex)
    facing: Mapping[tuple[str, Hexside], HexId]
    networks: Mapping[str, frozenset[Hexside]]
    places: Mapping[str, tuple[HexId, ...]]
    areas: Mapping[str, tuple[HexId, ...]]
    boxes: Mapping[str, OffMapBox]
    #: colors for hexside features and networks by name, for the display
    styles: Mapping[str, str]
    _fields = __match_args__ = (
        "title", "grid", "terrain", "legend", "hex_features", "hexsides", "facing",
        "networks", "places", "areas", "boxes", "styles")
    #: the data cache's key of the text and kit code this map was built from, when
    #: :func:`engines.hexkit.scenario.parse_map` built it (``None``: built in code, so
    #: nothing derived from it is kept between commands)
    source: ClassVar[bytes | None] = None

    def __init__(self, title: str, grid: HexGrid, terrain: Mapping[HexId, str],
                 legend: tuple[TerrainClass, ...],
                 hex_features: Mapping[HexId, frozenset[str]],
                 hexsides: Mapping[Hexside, frozenset[str]],
                 facing: Mapping[tuple[str, Hexside], HexId],
                 networks: Mapping[str, frozenset[Hexside]],
                 places: Mapping[str, tuple[HexId, ...]], areas: Mapping[str, tuple[HexId, ...]],
                 boxes: Mapping[str, OffMapBox], styles: Mapping[str, str]) -> None:
        self.__dict__.update(
            title=title, grid=grid, terrain=terrain, legend=legend, hex_features=hex_features,
            hexsides=hexsides, facing=facing, networks=networks, places=places, areas=areas,
            boxes=boxes, styles=styles)

    if not TYPE_CHECKING:  # hidden from mypy, which would take any name as a field
        def __getattr__(self, name: str) -> Any:
            # a map read back from the data cache (hexkit.scenario) decodes its larger
            # hexside and area tables when first asked: most commands read few of them
            # (issue 35); once decoded the value is the instance's own, so this runs
            # only on that first ask
            kept = self.__dict__.get("_kept_fields")
            if kept is None or name not in kept:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            value = self.__dict__[name] = kept[name]()
            del kept[name]
            return value

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def build(
        *,
        grid: HexGrid,
        terrain: Mapping[HexId, str],
        legend: Iterable[TerrainClass],
        title: str = "",
        hex_features: Mapping[str, Iterable[HexId]] | None = None,
        hexsides: Mapping[str, Iterable[Hexside]] | None = None,
        facing: Mapping[str, Iterable[tuple[HexId, HexId]]] | None = None,
        networks: Mapping[str, Iterable[Hexside]] | None = None,
        places: Mapping[str, Iterable[HexId]] | None = None,
        areas: Mapping[str, Iterable[HexId]] | None = None,
        boxes: Iterable[OffMapBox] = (),
        styles: Mapping[str, str] | None = None,
    ) -> HexMap:
        """Check and freeze map data; raises ``ValueError`` naming the bad item.

        ``facing`` maps a directional feature to ``(from, toward)`` pairs: the feature
        lies on hexside ``from/toward`` and rises toward ``toward``; the feature's name is
        also added to that hexside's feature set.
        """
        legend_t = tuple(legend)
        names = {t.name for t in legend_t}
        if len(names) != len(legend_t):
            raise ValueError("terrain legend names a terrain twice")
        # checked as sets, each hex again only to name the first bad one (a call a hex
        # was a fifth of building a map: issue 35)
        if not (terrain.keys() <= grid._cubes.keys() and set(terrain.values()) <= names):
            for h, t in terrain.items():
                if not grid.contains(h):
                    raise ValueError(f"hex {h} is outside the map grid")
                if t not in names:
                    raise ValueError(
                        f"hex {h} has terrain {t!r}, which the legend does not define")
        on_map = terrain.keys()

        def check_hex(h: HexId, what: str) -> None:
            if h not in on_map:
                raise ValueError(f"{what}: hex {h} is not on the map")

        def check_side(side: Hexside, what: str) -> Hexside:
            a, b = side
            check_hex(a, what)
            check_hex(b, what)
            if not grid.adjacent(a, b):
                raise ValueError(f"{what}: {a} and {b} are not adjacent")
            return hexside(a, b)

        def check_hexes(hexes: Collection[HexId], what: str) -> None:
            # as a set, each hex again only to name the first bad one: a call a hex was
            # a sixth of building White Death's map with no data cache (issue 35)
            if not on_map >= set(hexes):
                for h in hexes:
                    check_hex(h, what)

        feats: dict[HexId, set[str]] = {}
        for name, hexes in (hex_features or {}).items():
            hexes = tuple(hexes)
            check_hexes(hexes, name)
            for h in hexes:
                feats.setdefault(h, set()).add(name)
        sides: dict[Hexside, set[str]] = {}
        for name, pairs in (hexsides or {}).items():
            for pair in pairs:
                sides.setdefault(check_side(pair, name), set()).add(name)
        face: dict[tuple[str, Hexside], HexId] = {}
        for name, pairs in (facing or {}).items():
            for a, b in pairs:
                side = check_side((a, b), name)
                if face.get((name, side), b) != b:
                    raise ValueError(f"{name} {a}/{b} is given facing both ways")
                face[(name, side)] = b
                sides.setdefault(side, set()).add(name)
        nets: dict[str, frozenset[Hexside]] = {}
        for name, pairs in (networks or {}).items():
            nets[name] = frozenset(check_side(p, name) for p in pairs)
        pl: dict[str, tuple[HexId, ...]] = {}
        for name, hexes in (places or {}).items():
            hs = sorted(set(hexes))
            check_hexes(hs, f"place {name!r}")
            pl[name] = tuple(hs)
        ar: dict[str, tuple[HexId, ...]] = {}
        for name, hexes in (areas or {}).items():
            hs = sorted(set(hexes))
            check_hexes(hs, f"area {name!r}")
            ar[name] = tuple(hs)
        bx: dict[str, OffMapBox] = {}
        for box in boxes:
            for h in box.entry:
                check_hex(h, f"box {box.name!r}")
            bx[box.name] = OffMapBox(box.name, box.title, tuple(sorted(box.entry)))
        return HexMap(
            title=title,
            grid=grid,
            terrain=MappingProxyType(dict(sorted(terrain.items()))),
            legend=legend_t,
            hex_features=MappingProxyType({h: frozenset(v) for h, v in sorted(feats.items())}),
            hexsides=MappingProxyType({s: frozenset(v) for s, v in sorted(sides.items())}),
            facing=MappingProxyType(dict(sorted(face.items()))),
            networks=MappingProxyType(dict(sorted(nets.items()))),
            places=MappingProxyType(dict(sorted(pl.items()))),
            areas=MappingProxyType(dict(sorted(ar.items()))),
            boxes=MappingProxyType(dict(sorted(bx.items()))),
            styles=MappingProxyType(dict(sorted((styles or {}).items()))),
        )

    # -- hexes -------------------------------------------------------------------------

    @cached_property
    def ids(self) -> tuple[HexId, ...]:
        """Every hex on the map, sorted; positions in this tuple are the map's indices."""
        return tuple(self.terrain)

    @cached_property
    def index(self) -> Mapping[HexId, int]:
        # made in C (zip, range), not by a comprehension over ~1,700 hexes (issue 35)
        ids, terrain = self.ids, self.terrain
        if type(terrain) is MappingProxyType:
            # a copy of the terrain's own dict (the same hexes, in the same order, their
            # hashes kept, its table sized) with each value replaced: a dict grown from
            # the pairs inserted each and resized as it grew, 0.2 M instructions more on
            # Backhand Blow's 2,091 hexes (issue 35)
            index = cast("dict[HexId, int]", terrain.copy())
            index.update(zip(ids, range(len(ids)), strict=True))
            return MappingProxyType(index)
        return MappingProxyType(dict(zip(ids, range(len(ids)), strict=True)))

    @cached_property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Per hex index, the on-map neighbor indices in the fixed N..NW order.

        Built from cube coordinates looked up in one table rather than by formatting
        each neighbor's id: every process that loads a map pays this once, and on a
        1,700-hex map the id route took a third of a second.  A map read back from the
        data cache has its table kept packed, read here when first asked
        (``hexkit.scenario._kept_adjacency``; ``None``: it did not read back, and is
        made below).
        """
        kept = self.__dict__.pop("_kept_adjacency", None)
        table: tuple[tuple[int, ...], ...] | None = kept() if kept is not None else None
        if table is not None:
            return table
        # each cube's (q, r) as one int, q * 2**32 + r (r is far inside 2**31 on any
        # map), and the six steps as six sums: no pair made and hashed per neighbor,
        # which was half of a map's first use with no data cache (issue 35)
        wide = 1 << 32
        keys = [q * wide + r for q, r, _ in map(self.grid.to_cube, self.ids)]
        at = {k: i for i, k in enumerate(keys)}.get
        d0, d1, d2, d3, d4, d5 = (d.q * wide + d.r for d in DIRECTIONS)
        out: list[tuple[int, ...]] = []
        for k in keys:
            near = (at(k + d0), at(k + d1), at(k + d2), at(k + d3), at(k + d4), at(k + d5))
            # an inner hex (most of them) has all six: its tuple is kept as it is
            out.append(tuple([j for j in near if j is not None]) if None in near
                       else cast("tuple[int, ...]", near))
        return tuple(out)

    @cached_property
    def neighbor_rows(self) -> Mapping[int, tuple[int, ...]]:
        """:attr:`adjacency` read by hex index, each hex's row made when first read: a
        map read back from the data cache reads it off the kept rows, six slots a hex
        (``hexkit.scenario._kept_rows``), without decoding the whole table.  Backhand
        Blow's receive reads some 330 of its 2,091 hexes' rows (the ZOC, the supply
        trace, the moves checked), and decoding every row, an int object each, was
        about 2 M instructions of it (issue 35).  The same rows as :attr:`adjacency`,
        which answers when the map has no kept rows; an index off the map is a
        ``KeyError``."""
        kept = self.__dict__.pop("_kept_rows", None)
        return _Rows(self, kept() if kept is not None else None)

    def hexes(self) -> tuple[HexId, ...]:
        return self.ids

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def require(self, h: HexId) -> HexId:
        """``h`` itself, or ``KeyError`` with a message naming the hex and the map."""
        if h not in self.terrain:
            raise KeyError(f"hex {h} is not on the map {self.title!r}")
        return h

    def terrain_of(self, h: HexId) -> str:
        return self.terrain[self.require(h)]

    @cached_property
    def terrain_classes(self) -> Mapping[str, TerrainClass]:
        return MappingProxyType({t.name: t for t in self.legend})

    def terrain_class(self, h: HexId) -> TerrainClass:
        return self.terrain_classes[self.terrain_of(h)]

    def features_of(self, h: HexId) -> frozenset[str]:
        return self.hex_features.get(h, _EMPTY)

    def has_feature(self, h: HexId, feature: str) -> bool:
        return feature in self.hex_features.get(h, _EMPTY)

    def hexes_with(self, feature: str) -> list[HexId]:
        """The hexes that have ``feature``, in the map's order (:attr:`ids`): those the
        features name, not a call of :meth:`has_feature` a hex (a set-up's three such
        passes over White Death's 1,720 hexes, issue 35)."""
        marked = {h for h, names in self.hex_features.items() if feature in names}
        return [h for h in self.ids if h in marked] if marked else []

    def neighbor_table(self, networks: Iterable[str] | None = None
                       ) -> Mapping[HexId, tuple[HexId, ...]]:
        """Every hex's neighbours in id order: on the map, or with ``networks`` only along
        any of them (a hex no network touches is then absent).

        The one graph the kit's hex-counting searches walk (a game's own table, land
        hexes only, has the same shape); made once per map and set of networks, from the
        network's links rather than by testing every hexside a search crosses.
        """
        key = None if networks is None else tuple(sorted(set(networks)))
        found = self._tables.get(key)
        if found is None:
            if key is None:
                ids = self.ids
                table = {h: tuple(sorted(ids[j] for j in near))
                         for h, near in zip(ids, self.adjacency, strict=True)}
            else:
                acc: dict[HexId, set[HexId]] = {}
                for name in key:
                    for a, b in self.networks.get(name, _NO_SIDES):
                        acc.setdefault(a, set()).add(b)
                        acc.setdefault(b, set()).add(a)
                table = {h: tuple(sorted(near)) for h, near in sorted(acc.items())}
            found = self._tables[key] = MappingProxyType(table)
        return found

    @cached_property
    def _tables(self) -> dict[tuple[str, ...] | None, Mapping[HexId, tuple[HexId, ...]]]:
        return {}

    def neighbors(self, h: HexId) -> list[HexId]:
        """On-map neighbors in the fixed order N, NE, SE, S, SW, NW.

        Read off :attr:`adjacency` once the map has it, and worked out from the hex's own
        number until then: a command that asks the neighbours of a few hexes (Backhand
        Blow's control of eight watched hexes after a unit is placed, 3.1) need not
        make the whole map's tables, 7.5 M instructions on its 2,091 hexes (issue 35).
        The same hexes either way: a neighbour's number is the one whose cube is a
        step away, and the tables are made from the same numbers.  Worked out once a
        hex: a rule may ask the same few hexes after every move (48th Panzer Korps'
        control of its towns and bridges, 10)."""
        d = self.__dict__
        if "adjacency" in d or type(self.grid.numbering) is not Numbering:
            ids = self.ids
            return [ids[j] for j in self.adjacency[self.index[self.require(h)]]]
        near: dict[HexId, tuple[HexId, ...]] | None = d.get("_near")
        if near is None:
            near = d["_near"] = {}
        known = near.get(h)
        if known is not None:
            return list(known)
        terrain = self.terrain
        if h not in terrain:
            self.require(h)  # its KeyError, naming the hex and the map
        numbering = self.grid.numbering
        cd, rd = numbering.col_digits, numbering.row_digits
        # a hex of the map is its column's digits and then its row's (what parse reads)
        col, row = int(h[:cd]), int(h[cd:])
        most_col, most_row = 10 ** cd, 10 ** rd
        out: list[HexId] = []
        offsets = _OFFSETS[(self.grid.parity, col & 1)]
        texts = numbering._texts
        if texts is not None:
            # the digits' tables read here, not through Numbering.format's call for each
            # of the six: half of a neighbour list's cost, which a search that meets a
            # few hundred hexes before the map's tables exist pays each (issue 35)
            cols, rows = texts
            for dc, dr in offsets:
                c, r = col + dc, row + dr
                if 0 <= c < most_col and 0 <= r < most_row:
                    n = cols[c] + rows[r]
                    if n in terrain:
                        out.append(n)
        else:
            written = numbering.format
            for dc, dr in offsets:
                c, r = col + dc, row + dr
                if 0 <= c < most_col and 0 <= r < most_row:
                    n = written(c, r)
                    if n in terrain:
                        out.append(n)
        near[h] = tuple(out)
        return out

    def distance(self, a: HexId, b: HexId) -> int:
        return self.grid.distance(a, b)

    def within(self, center: HexId, radius: int) -> list[HexId]:
        return [h for h in self.grid.within(center, radius) if h in self.terrain]

    def ring(self, center: HexId, radius: int) -> list[HexId]:
        return [h for h in self.grid.ring(center, radius) if h in self.terrain]

    # -- hexsides ----------------------------------------------------------------------

    def side_features(self, a: HexId, b: HexId) -> frozenset[str]:
        return self.hexsides.get(hexside(a, b), _EMPTY)

    def few_side_features(self, a: HexId, b: HexId) -> frozenset[str]:
        """:meth:`side_features`, for a command that asks a handful of hexsides: a map
        read back from the data cache answers them from their hexes' kept records
        (:meth:`_kept_hex`) while it has not decoded its whole table.  A retreat asks a
        few, and decoding the map's every hexside for them was 2.6 M instructions of For
        the Motherland!'s act, legal and receive (issue 35); a game whose movement asks
        hundreds (White Death's terrain) asks :meth:`side_features`."""
        side = hexside(a, b)
        if "hexsides" not in self.__dict__:
            kept = self._kept_hex(side[0])
            if kept is not None:
                return kept[0].get(side[1], _EMPTY)
        return self.hexsides.get(side, _EMPTY)

    def side_feature_names(self) -> frozenset[str]:
        """Every feature some hexside of the map has, found once a map: a move class is
        made from a terrain chart's column (:func:`~engines.hexkit.movement.
        move_class_from_chart`) for each weather and mobility a command meets, and each
        went through the map's every hexside for it (issue 35)."""
        d = self.__dict__
        names: frozenset[str] | None = d.get("_side_names")
        if names is None:
            # one union in C of every hexside's set, not a generator a feature (a tenth
            # of the time)
            names = d["_side_names"] = frozenset().union(*self.hexsides.values())
        return names

    def has_side(self, a: HexId, b: HexId, feature: str) -> bool:
        return feature in self.hexsides.get(hexside(a, b), _EMPTY)

    def faces_toward(self, feature: str, a: HexId, b: HexId) -> HexId | None:
        """For a directional feature on ``a/b``: the hex it rises toward, else ``None``."""
        return self.facing.get((feature, hexside(a, b)))

    def sides_with(self, feature: str) -> list[Hexside]:
        return [s for s, f in self.hexsides.items() if feature in f]

    # -- networks ----------------------------------------------------------------------

    def connected(self, network: str, a: HexId, b: HexId) -> bool:
        """Whether ``network`` (road, railroad...) runs directly from ``a`` to ``b``."""
        return hexside(a, b) in self.networks.get(network, frozenset())

    def network_neighbors(self, network: str, h: HexId) -> list[HexId]:
        """Hexes one step from ``h`` along ``network``, in neighbor order."""
        links = self.networks.get(network, frozenset())
        return [n for n in self.neighbors(h) if hexside(h, n) in links]

    def network_hexes(self, network: str) -> list[HexId]:
        return sorted({h for side in self.networks.get(network, frozenset()) for h in side})

    # -- names -------------------------------------------------------------------------

    def place(self, name: str) -> tuple[HexId, ...]:
        try:
            return self.places[name]
        except KeyError:
            raise KeyError(f"map {self.title!r} has no place named {name!r}") from None

    @cached_property
    def _places_by_hex(self) -> Mapping[HexId, tuple[str, ...]]:
        by: dict[HexId, list[str]] = {}
        for name, hexes in self.places.items():
            for h in hexes:
                by.setdefault(h, []).append(name)
        return MappingProxyType({h: tuple(sorted(v)) for h, v in sorted(by.items())})

    def places_at(self, h: HexId) -> tuple[str, ...]:
        return self._places_by_hex.get(h, ())

    def area(self, name: str) -> tuple[HexId, ...]:
        try:
            return self.areas[name]
        except KeyError:
            raise KeyError(f"map {self.title!r} has no area named {name!r}") from None

    def in_area(self, name: str, h: HexId) -> bool:
        return h in self._area_sets[name]

    def areas_of(self, h: HexId) -> tuple[str, ...]:
        """The areas ``h`` is in, in the order of :attr:`areas` (a hex off the map, or
        in none: empty); read from the hex's kept record while the whole table is not
        decoded (:meth:`few_side_features`)."""
        if "areas" not in self.__dict__:
            kept = self._kept_hex(h)
            if kept is not None:
                return kept[1]
        return self._areas_by_hex.get(h, ())

    @cached_property
    def _areas_by_hex(self) -> Mapping[HexId, tuple[str, ...]]:
        return MappingProxyType(areas_by_hex(self.areas))

    def _kept_hex(self, h: HexId
                  ) -> tuple[Mapping[HexId, frozenset[str]], tuple[str, ...]] | None:
        """``h``'s own record of a map read back from the data cache
        (``hexkit.scenario_parse._hex_records``): the hexsides it is the lower hex of
        (:func:`~engines.hexkit.geometry.hexside`), each with its features, and the
        areas it is in; None when the map has no such records (built here), they do
        not read back, or so many hexes were asked that the whole tables are cheaper."""
        reader = self.__dict__.get("_kept_by_hex")
        return None if reader is None else reader(h)

    @cached_property
    def _area_sets(self) -> Mapping[str, frozenset[HexId]]:
        return MappingProxyType({k: frozenset(v) for k, v in self.areas.items()})

    def box(self, name: str) -> OffMapBox:
        try:
            return self.boxes[name]
        except KeyError:
            raise KeyError(f"map {self.title!r} has no off-map box {name!r}") from None


class _Rows(dict[int, tuple[int, ...]]):
    """:attr:`HexMap.neighbor_rows`: a hex's row looked up in C once made, made by
    :meth:`__missing__` on its first read, from the kept rows (``hexkit.scenario.
    _kept_rows``: the packed rows, their count of hexes and the format of a row by its
    count of neighbours) or, without them, from the map's :attr:`~HexMap.adjacency`."""

    __slots__ = ("_kept", "_map")

    def __init__(self, hexmap: HexMap,
                 kept: tuple[bytes, int, tuple[Struct, ...]] | None) -> None:
        super().__init__()
        self._map = hexmap
        self._kept = kept

    def __missing__(self, i: int) -> tuple[int, ...]:
        kept = self._kept
        if kept is None:
            table = self._map.adjacency
            if not 0 <= i < len(table):
                raise KeyError(i)
            row = table[i]
        else:
            blob, length, formats = kept
            if not 0 <= i < length:
                raise KeyError(i)
            # the hex's count of neighbours, then that many of its six slots
            row = formats[blob[i]].unpack_from(blob, length + 12 * i)
        self[i] = row
        return row
