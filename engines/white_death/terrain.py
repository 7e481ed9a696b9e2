"""Rule 7 and the Terrain Effects Chart: what a hex is, and what entering it costs.

Apart from movement because setup, retreats and advances ask what a move asks: may this
unit enter that hex, and at what cost.

Two layers (issue 13). :class:`Terrain` is the map and the charts of one catalog: what a
hex is, what entering it costs a mobility class under a weather and a set of bridges
(Rules 7, 13, 16, 20), the river's banks, lines of sight (Rule 11.B.3.C), the friendly
edges (Rules 8, 15) and the supply traces from them through the hexes a caller says are
free of the enemy (15.B, 15.C). It holds no position: one per catalog
(:meth:`Terrain.of`), shared by every state and clone, its answers kept in it.
The module's functions put a unit and the position to those questions (its mobility
class, the weather, the bridges, the bank it entered a river from) for movement,
reinforcements, retreats and advances. The map's facts (what a hex is, its neighbours
and the hexes within two, the railroads, the edges, ticks) are asked of ``s.ter``.
"""

from __future__ import annotations

from collections.abc import Collection
from types import MappingProxyType
from typing import TYPE_CHECKING

from engines.hexkit.geometry import hexside
from engines.hexkit.hexmap import HexMap
from engines.hexkit.shared import fraction_type
from engines.white_death.data import ALIASES, Catalog
from engines.white_death.position import MP_TICKS
from pbem.errors import ScenarioError

if TYPE_CHECKING:
    from fractions import Fraction

    # the kit's movement costs, overlay and line of sight (with the graph searches and the
    # pricer they bring: ~7 M instructions) load where first used: a command whose
    # decision prices no move and traces no line (a fire, an advance, a supply answer)
    # reads none of them (issue 35)
    from engines.hexkit.moveclass import MoveClass
    from engines.hexkit.movement import StepCosts
    from engines.hexkit.overlay import OverlaidMap, Overlay
    from engines.white_death.state import WDState

#: the networks a move runs along at the road's rate (Rule 7; Rule 8's railroads too)
RAILS_AND_ROADS = ("road", "railroad", "rail")
#: Rule 15.B: "a road or railroad" (the map's three networks that carry supply)
SUPPLY_ROADS = ("road", "railroad", "rail")
#: Rule 11.B.3.B: the farthest the map lets a unit observe (:meth:`Terrain.sight_range`)
SIGHT_MAX = 3
#: the lake hexside features a thaw renames to their thaw kinds (Rules 13, 16)
LAKE_SIDES = ("lake", "partial_lake", "lake_partial")
#: hex features the Terrain Effects Chart prices (by their chart names)
_TEC_FEATURES = ("town", "forest", "swamp", "high", "creek", "river")


def mps(ticks: int) -> int | Fraction:
    """``ticks`` as movement points: an int where whole, a Fraction made only where not
    (the rules compare ticks; this is for a caller that asks in MPs)."""
    whole, part = divmod(ticks, MP_TICKS)
    return whole if not part else fraction_type()(ticks, MP_TICKS)



class Compiled:
    """One mobility class's costs under one weather and set of bridges: the kit's
    :class:`StepCosts` (each row priced when first read: a listing reads the rows of
    the hexes its units can reach, not the map's 10,000 steps), in ticks (the class's
    costs are the chart's in ticks: :class:`~engines.white_death.data.Cost`), hex index
    by hex index, one per neighbour in the map's adjacency order (``None``: prohibited)."""

    __slots__ = ("costs", "steps", "ticks")

    def __init__(self, costs: StepCosts) -> None:
        if costs.scale != 1:
            raise ScenarioError(f"{costs.move_class.name}: a movement cost finer than "
                                f"1/{MP_TICKS} MP (Rule 7; MP_TICKS)")
        self.costs = costs
        self.ticks: list[tuple[int | None, ...] | None] = [None] * len(costs)
        #: single steps asked before their row, by ``(i, k)``
        self.steps: dict[tuple[int, int], int | None] = {}

    def row(self, i: int) -> tuple[int | None, ...]:
        got = self.ticks[i]
        if got is None:
            got = self.ticks[i] = tuple(None if c < 0 else c for _, c in self.costs.row(i))
        return got

    def step(self, i: int, k: int) -> int | None:
        """``row(i)[k]``, the row not priced for it: a move checked and made (a file
        replayed, an audit) asks one step of the hex it leaves."""
        got = self.ticks[i]
        if got is not None:
            return got[k]
        key = (i, k)
        if key in self.steps:
            return self.steps[key]
        c = self.costs.step(i, k)
        one = self.steps[key] = None if c < 0 else c
        return one


class Terrain:
    """One catalog's map read by the Terrain Effects Chart (Rule 7), under any weather and
    bridges (Rules 13, 16, 20): a function of the catalog and of what the caller passes,
    every answer kept here for the game's length (the map never changes; the weather and
    the bridges are part of each key)."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.map: HexMap = cat.map
        self._nbrs: dict[str, list[str]] = {}
        self._area2: dict[str, tuple[str, ...]] = {}
        self._area2set: dict[str, frozenset[str]] = {}
        self._terrain: dict[str, set[str]] = {}
        self._printed_road: dict[str, bool] = {}
        self._rail: dict[str, bool] = {}
        self._road: dict[tuple[str, str], bool] = {}
        self._vl: tuple[str, ...] | None = None
        #: the kit's compiled costs under (class, frozen, bridges): :meth:`move_costs`
        self._compiled: dict[tuple[str, bool, frozenset[str]], Compiled] = {}
        self._entries: dict[tuple[str, str, bool, bool], int | None] = {}
        self._classes: dict[str, MoveClass] = {}
        self._views: dict[tuple[bool, tuple[str, ...]], OverlaidMap] = {}
        self._bank: dict[str, str] = {}
        self._los: dict[tuple[str, str], bool] = {}
        self._sight: dict[tuple[str, str], int] = {}
        self._edges: dict[str, set[str]] = {}
        #: ticks in a movement point: the position's unit (:data:`MP_TICKS`, a sixth:
        #: a road costs 1/2 or 1/3 of an MP), so that MPs spent and searches over many
        #: moves add and compare ints, exactly, instead of Fractions; the catalog holds
        #: the charts' costs in ticks (a finer cost is refused as it is read: data.Cost)
        self.ticks = MP_TICKS

    @staticmethod
    def of(cat: Catalog) -> Terrain:
        """The catalog's one :class:`Terrain` (kept in its map-derived facts)."""
        got = cat.static.get("terrain")
        if got is None:
            got = cat.static["terrain"] = Terrain(cat)
        out: Terrain = got
        return out

    def nbrs(self, h: str) -> list[str]:
        """The map's neighbours of ``h``, in the map's order (the list kept here: never
        changed by a caller)."""
        got = self._nbrs.get(h)
        if got is None:
            got = self._nbrs[h] = self.map.neighbors(h)
        return got

    def area2(self, h: str) -> tuple[str, ...]:
        """The hexes within two of ``h``, sorted: what Rule 4's moving on through a full
        hex looks at (one hex beyond the next), and the bridges a unit's moves read."""
        got = self._area2.get(h)
        if got is None:
            got = self._area2[h] = tuple(sorted(self.map.within(h, 2)))
            self._area2set[h] = frozenset(got)
        return got

    def area2set(self, h: str) -> frozenset[str]:
        """:meth:`area2` as a set."""
        got = self._area2set.get(h)
        if got is None:
            self.area2(h)
            got = self._area2set[h]
        return got

    # ------------------------------------------------------------------ what a hex is

    def terrain(self, h: str) -> set[str]:
        """The Terrain Effects Chart names of a hex: its terrain and hex features (the
        set kept here: never changed by a caller)."""
        got = self._terrain.get(h)
        if got is None:
            got = self._terrain[h] = self._terrain_of(h)
        return got

    def _terrain_of(self, h: str) -> set[str]:
        m = self.map
        base = m.terrain_of(h)
        out = {ALIASES.get(base, base)}
        for f in m.features_of(h):
            f2 = ALIASES.get(f, f)
            if f2 in ("town", "forest", "swamp", "high", "creek", "river"):
                out.add(f2)
        cls = m.terrain_class(h)
        if cls.flag("high"):
            out.add("high")
        known = set(self.cat.tables.defense)
        got = {t for t in out if t in known}
        if got - {"clear"}:
            # Rule 7: clear is the absence of other terrain. A creek hex drawn on clear
            # ground is a creek hex, not clear as well: otherwise the highest cost would
            # make a draft-mobile unit pay clear's 2 where the book says 1 (enter) and 1
            # (along the creek)
            got.discard("clear")
        return got or {"clear"}

    def is_town(self, h: str) -> bool:
        return "town" in self.terrain(h)

    def is_town_or_forest(self, h: str) -> bool:
        return bool(self.terrain(h) & {"town", "forest"})

    def river_at(self, h: str, bridges: Collection[str]) -> str:
        """"river", "creek" or "": a bridge (Rule 20) takes the river out of its hex."""
        if h in bridges:
            return ""
        t = self.terrain(h)
        return "river" if "river" in t else "creek" if "creek" in t else ""

    def road_hex(self, h: str, bridges: Collection[str]) -> bool:
        """A hex a road or railroad runs through, or a bridge (Rule 20)."""
        if h in bridges:
            return True
        got = self._printed_road.get(h)
        if got is None:
            got = self._printed_road[h] = bool(self.map.network_neighbors("road", h)
                                               or self.rail_hex(h))
        return got

    def road(self, a: str, b: str) -> bool:
        """A road or railroad of the printed map runs from ``a`` to ``b`` (Rule 7)."""
        got = self._road.get((a, b))
        if got is None:
            got = self._road[(a, b)] = any(self.map.connected(n, a, b)
                                           for n in RAILS_AND_ROADS)
        return got

    def rail_hex(self, h: str) -> bool:
        got = self._rail.get(h)
        if got is None:
            m = self.map
            got = self._rail[h] = bool(m.network_neighbors("railroad", h)
                                       or m.network_neighbors("rail", h))
        return got

    def vl_hexes(self) -> tuple[str, ...]:
        """Velikiye Luki's hexes (none on a map without it)."""
        if self._vl is None:
            try:
                self._vl = self.cat.resolve("Velikiye Luki")
            except ScenarioError:
                self._vl = ()
        return self._vl

    def edge_hexes(self, side: str) -> set[str]:
        """Friendly board edges (Rules 8, 15): east and extreme southeast for the Soviets,
        every other edge for the Germans (the set kept here: never changed by a caller)."""
        got = self._edges.get(side)
        if got is None:
            got = self._edges[side] = self._edge_hexes(side)
        return got

    def _edge_hexes(self, side: str) -> set[str]:
        named = f"{side}_friendly_edge"
        if named in self.map.areas:
            return set(self.map.areas[named])
        g = self.map.grid
        (c0, c1), (r0, r1) = g.cols, g.rows
        out = set()
        for h in self.map.ids:
            c, r = g.coords_of(h)
            east = c == c1 or (r == r1 and c >= c1 - 3)
            edge = c in (c0, c1) or r in (r0, r1)
            if not edge:
                continue
            if (side == "soviet") == east:
                out.add(h)
        return out

    def sight_range(self, h: str, target: str) -> int:
        """Rule 11.B.3.B: how far a unit in ``h`` observes toward ``target`` by the map: two
        hexes, three on high ground observing a hex not on high ground, or adjacent to
        and on the high side of a slope hexside the line crosses (the Guards rockets'
        extra hex and snow are the position's: the caller's)."""
        got = self._sight.get((h, target))
        if got is None:
            got = 2
            if "high" in self.terrain(h) and "high" not in self.terrain(target):
                got = SIGHT_MAX
            line = self.map.grid.line(h, target)
            if len(line) > 1 and len(line[1]) == 1 and self.map.faces_toward(
                    "slope", h, line[1][0]) == h:
                got = SIGHT_MAX
            self._sight[(h, target)] = got
        return got

    def los(self, a: str, b: str) -> bool:
        """Rule 11.B.3.C through the kit: towns and forests block between the ends, never at
        them; a line may go down across a slope hexside only from a unit adjacent to it.
        A line along a hexside is blocked only if blocked on both sides."""
        got = self._los.get((a, b))
        if got is None:
            from engines.hexkit.los import line_of_sight

            got = self._los[(a, b)] = line_of_sight(
                self.map, a, b, blocks=self.is_town_or_forest, hexside_rule="both",
                slope="slope").clear
        return got

    # ------------------------------------------------------------------ movement costs

    def to_ticks(self, mp: Fraction | int) -> int:
        # integer arithmetic: no Fraction is built (a unit's MPs left, per decision)
        t = self.ticks
        if isinstance(mp, int):
            return mp * t
        q, r = divmod(mp.numerator * t, mp.denominator)
        if r:
            raise ValueError(f"{mp} MP is finer than a tick (1/{t} MP)")
        return q

    def enter_cost(self, mob: str, frm: str | None, to: str, frozen: bool,
                   bridges: Collection[str]) -> int | Fraction | None:
        """Rule 7's cost for mobility class ``mob`` to enter ``to`` from ``frm`` (``None``:
        from off the map), ``None`` if prohibited; Rule 16.B's banks aside (they depend on
        the unit: :meth:`wrong_bank`). In MPs: :meth:`enter_ticks` is the rules' own."""
        t = self.enter_ticks(mob, frm, to, frozen, bridges)
        return None if t is None else mps(t)

    def step_cost_once(self, mob: str, frm: str, to: str, frozen: bool,
                       bridges: Collection[str]) -> int | Fraction | None:
        """:meth:`step_ticks_once` in MPs."""
        t = self.step_ticks_once(mob, frm, to, frozen, bridges)
        return None if t is None else mps(t)

    def step_ticks_once(self, mob: str, frm: str, to: str, frozen: bool,
                        bridges: Collection[str]) -> int | None:
        """:meth:`enter_ticks` of a step asked once, where no move follows (an advance's,
        Rule 9.D, after the fire that cleared the hex): read from the chart alone unless
        a listing compiled the costs already, the same cost as the compiled table's
        (tests/white_death/test_step_by_chart.py).  Compiling the table and the overlay it
        reads was 12 M instructions of such an act (issue 35); the moves of a movement
        phase, checked and replayed by the hundred, read the compiled table."""
        if (mob, frozen, frozenset(bridges)) in self._compiled:
            return self.enter_ticks(mob, frm, to, frozen, bridges)
        return self._enter_cost(mob, frm, to, frozen, bridges)

    def enter_ticks(self, mob: str, frm: str | None, to: str, frozen: bool,
                    bridges: Collection[str]) -> int | None:
        """:meth:`enter_cost` in ticks: a step on the map is read from the kit's compiled
        costs (:meth:`move_costs`)."""
        if frm is None:
            return self._entry_ticks(mob, to, frozen, bridges)
        index = self.map.index
        i = index[frm]
        try:
            k = self.map.adjacency[i].index(index[to])
        except ValueError:  # not a step: asked of the chart directly
            return self._enter_cost(mob, frm, to, frozen, bridges)
        return self.move_costs(mob, frozen, bridges).step(i, k)

    def enter_row(self, mob: str, frm: str, frozen: bool,
                  bridges: Collection[str]) -> tuple[int | None, ...]:
        """:meth:`enter_ticks` from ``frm`` into each of its neighbours (in :meth:`nbrs`
        order, the map's adjacency): one lookup per unit, not one per neighbour."""
        return self.move_costs(mob, frozen, bridges).row(self.map.index[frm])

    def move_costs(self, mob: str, frozen: bool, bridges: Collection[str]) -> Compiled:
        """Rule 7's costs for mobility class ``mob`` over the whole map as the weather and
        the bridges make it (Rules 13, 16, 20): the kit's :class:`StepCosts` of the
        printed map, or of the map seen through :meth:`move_view`'s overlay where a thaw
        or a bridge changes a step."""
        key = (mob, frozen, frozenset(bridges))
        got = self._compiled.get(key)
        if got is None:
            got = self._compiled[key] = self._compile(mob, frozen, key[2])
        return got

    def _compile(self, mob: str, frozen: bool, bridges: frozenset[str]) -> Compiled:
        from engines.hexkit.movement import StepCosts

        view: HexMap | OverlaidMap = self.map
        if not frozen or bridges:
            view = self.move_view(frozen, bridges)
        return Compiled(StepCosts(view, self.move_class(mob)))

    def _entry_ticks(self, mob: str, to: str, frozen: bool,
                     bridges: Collection[str]) -> int | None:
        """From off the map (Rule 17): the kit compiles steps only, so an entry is read
        from the chart and kept here under what it reads."""
        key = (mob, to, frozen, to in bridges)
        got = self._entries.get(key, -1)
        if got == -1:
            got = self._entries[key] = self._enter_cost(mob, None, to, frozen, bridges)
        return got

    def _enter_cost(self, mob: str, frm: str | None, to: str, frozen: bool,
                    bridges: Collection[str]) -> int | None:
        """Rule 7's cost in ticks through the hex kit: the mobility class's chart column
        (:meth:`move_class`) read on the map as the weather and the bridges make it
        (:meth:`move_view`)."""
        cls = self.move_class(mob)
        # the overlay touches only bridged hexes (their features, the road links from
        # them) and, in a thaw, lake hexsides (:meth:`_move_overlay`): a step clear of
        # both reads the printed map directly (the same answer, faster)
        view: HexMap | OverlaidMap = self.map
        if to in bridges or (frm is not None and frm in bridges) or (
                not frozen and frm is not None and self._lake_side(frm, to)):
            view = self.move_view(frozen, bridges)
        if frm is None:  # from off the map (Rule 17): along the road onto a road hex
            cost = cls.entry_cost(view, to, ("road",) if self.road_hex(to, bridges) else ())
        else:
            cost = cls.step_cost(view, frm, to)
        if cost is None or type(cost) is int:
            return cost
        raise ScenarioError(f"{cls.name}: a movement cost of {cost} ticks: the chart's "
                            "costs are whole ticks (Rule 7; data.Cost)")

    def move_class(self, mob: str) -> MoveClass:
        """The Terrain Effects Chart's column for one mobility class, as the kit's
        :class:`MoveClass` for this map."""
        got = self._classes.get(mob)
        if got is None:
            got = self._classes[mob] = self._move_class(mob)
        return got

    def _move_class(self, mob: str) -> MoveClass:
        """Rule 7 as data: a hex costs the highest of its terrains (``dearest``), clear
        being the absence of other terrain (``fills``); a river hex, then a move along a
        road or railroad (Rule 7: "only hex to hex along the road"), then a town set the
        cost outright (``overrides``); leaving a creek or river hex for one without it
        costs the chart's second number (``leave_features``); Rule 13's lake hexsides add
        their weather's cost or prohibit (``hexside``, thaw names from :meth:`move_view`).
        """
        # the class alone, not the movement module: an advance prices one step with it
        # and compiles nothing (Rule 9.D; issue 35, about 3 M instructions of such an act)
        from engines.hexkit.moveclass import MoveClass

        m = self.map
        tables = self.cat.tables
        mv = tables.movement
        known = set(tables.defense)
        enter: dict[str, int | None] = {}
        fills: set[str] = set()
        towns: list[str] = []
        for t, tc in sorted(m.terrain_classes.items()):
            alias = ALIASES.get(t, t)
            if alias in ("river", "creek"):
                raise ScenarioError(f"map terrain {t!r}: White Death draws rivers and creeks "
                                    "as hex features (Rule 7)")
            names = {x for x in (alias, "high" if tc.flag("high") else "") if x in known}
            if "town" in names:
                towns.append(t)
                enter[t] = mv["town"][mob].enter
                continue
            costs = [mv[x][mob].enter for x in sorted(names) if x in mv and x != "clear"]
            if not costs:
                fills.add(t)
                enter[t] = mv["clear"][mob].enter
            elif any(c is None for c in costs):
                enter[t] = None
            else:
                enter[t] = max(c for c in costs if c is not None)
        feats: dict[str, int | None] = {}
        leave: dict[str, int] = {}
        rivers: list[str] = []
        # the map's few distinct sets of hex features, not each of its hexes' (a walk of
        # every featured hex, twice, was about 1 M instructions of an advance's one step
        # cost, Rule 9.D; issue 35): the same features and the same answer to the check
        kinds = set(m.hex_features.values())
        for f in sorted({f for fs in kinds for f in fs}):
            alias = ALIASES.get(f, f)
            if alias not in _TEC_FEATURES or alias not in known:
                continue
            feats[f] = mv[alias][mob].enter
            if alias in ("river", "creek"):
                leave[f] = mv[alias][mob].leave
            if alias == "river":
                rivers.append(f)
            elif alias == "town":
                towns.append(f)
        if len({ALIASES.get(f, f) for f in leave}) != len(leave) or any(
                {"river", "creek"} <= {ALIASES.get(f, f) for f in fs} for fs in kinds):
            raise ScenarioError("White Death's map names each of river and creek once, and "
                                "no hex is both (Rule 7 charges one of them to leave a hex)")
        road = mv["road"][mob].enter
        if road is None:
            raise ScenarioError("the Terrain Effects Chart prohibits the road (Rule 7)")
        sides: dict[str, int | None] = {}
        lakes = (("full", ("lake",)), ("partial", ("partial_lake", "lake_partial")))
        for kind, kind_names in lakes:
            for n in kind_names:
                sides[n] = tables.lake[f"{kind}_frozen"][mob]
                sides[f"{n}_thaw"] = tables.lake[f"{kind}_thaw"][mob]
        return MoveClass(
            f"white-death-{mob}", enter=MappingProxyType(enter),
            hexside=MappingProxyType(sides),
            networks=MappingProxyType({n: road for n in RAILS_AND_ROADS}),
            hex_features=MappingProxyType(feats), dearest=True, fills=frozenset(fills),
            overrides=(*rivers, *RAILS_AND_ROADS, *towns),
            leave_features=MappingProxyType(leave))

    def move_view(self, frozen: bool, bridges: Collection[str]) -> OverlaidMap:
        """The map as the weather and the bridges make it for movement: a bridge (Rule 20)
        takes the river out of its hex and joins the road ("as if it were a road hex": to
        every road, railroad or bridge hex next to it); a thaw (Rules 13, 16) turns each
        lake hexside into its thaw kind. One per weather and set of bridges."""
        key = (frozen, tuple(sorted(bridges)))
        got = self._views.get(key)
        if got is None:
            from engines.hexkit.overlay import OverlaidMap

            got = self._views[key] = OverlaidMap(self.map, self._move_overlay(frozen, key[1]))
        return got

    def _move_overlay(self, frozen: bool, bridges: tuple[str, ...]) -> Overlay:
        from engines.hexkit.overlay import Overlay

        m = self.map
        removed: dict[str, set[str]] = {}
        links: set[tuple[str, str]] = set()
        for h in bridges:
            removed[h] = {f for f in m.features_of(h) if ALIASES.get(f, f) == "river"}
            links.update((h, n) for n in self.nbrs(h) if self.road_hex(n, bridges))
        out = Overlay.make(features_removed=removed, links_added={"road": links})
        if not frozen:
            for n in LAKE_SIDES:
                out = out + Overlay.rename_side_feature(m, n, f"{n}_thaw")
        return out

    def _lake_side(self, a: str, b: str) -> bool:
        """The hexside between ``a`` and ``b`` carries a lake feature a thaw renames."""
        feats = self.map.hexsides.get(hexside(a, b))
        return feats is not None and not feats.isdisjoint(LAKE_SIDES)

    def bank(self, h: str) -> str:
        """Which side of the river a hex is on: the lowest hex id of its part of the map
        once the river hexes are taken out ("" for a river hex)."""
        if not self._bank:
            # the parts of the map by the map's indices (ids in order, so the first hex
            # met of a part is its lowest id): once per process in a thaw, where the
            # kit's region per part asked a Python test of every hex it met
            m = self.map
            ids, adjacency, index = m.ids, m.adjacency, m.index
            # only a hex whose printed terrain or a feature names a river can have it
            # among its chart names (_terrain_of takes it from nowhere else): reading
            # every hex's chart names built 1,720 sets, most never asked for again
            names = {"river", *(k for k, v in ALIASES.items() if v == "river")}
            maybe = {*(x for x, t in m.terrain.items() if t in names),
                     *(x for x, fs in m.hex_features.items() if not names.isdisjoint(fs))}
            river = {index[x] for x in maybe if "river" in self.terrain(x)}
            part: list[int] = [-1] * len(ids)
            for start in range(len(ids)):
                if start in river or part[start] >= 0:
                    continue
                part[start] = start
                todo = [start]
                while todo:
                    for k in adjacency[todo.pop()]:
                        if part[k] < 0 and k not in river:
                            part[k] = start
                            todo.append(k)
            self._bank.update((x, "" if i in river else ids[part[i]])
                              for i, x in enumerate(ids))
        return self._bank[h]

    def wrong_bank(self, mob: str, via: str, frm: str, to: str, frozen: bool,
                   bridges: Collection[str]) -> bool:
        """Rule 16.B: in a thaw a track-, wheel- or draft-mobile unit leaves a river hex only
        on the bank it entered from (``via``, "" if unknown), however far it moved along
        the river."""
        if frozen or mob not in ("t", "w", "d"):
            return False
        if self.river_at(frm, bridges) != "river" or self.river_at(to, bridges) == "river":
            return False
        came = self.bank(via) if via else ""
        goes = self.bank(to)
        return bool(came and goes and came != goes)

    def enter_cost_terrain(self, mob: str, h: str) -> int | None:
        """1, or ``None`` where any of the hex's terrains prohibits the class (Rule 7)."""
        mv = self.cat.tables.movement
        costs = [mv[x][mob].enter for x in sorted(self.terrain(h)) if x in mv]
        return None if any(c is None for c in costs) else 1

    def lake_roll_due(self, afv: bool, frm: str, to: str, frozen: bool) -> bool:
        """Rule 13: an AFV crossing a lake hexside (13.A, frozen), or a hexside containing
        any lake at all (13.B, thaw), rolls for the ice.

        13.B's "in addition ... a hexside containing any lake at all" sets thaw against
        frozen weather, so in frozen weather a half-lake hexside does not roll (the
        engine page's reading of the text).
        """
        if not afv:
            return False
        feats = self.map.side_features(frm, to)
        if frozen:
            return "lake" in feats
        return bool(feats & {"lake", "partial_lake", "lake_partial"})


def river_at(s: WDState, h: str) -> str:
    return s.ter.river_at(h, s.pos.bridges)


def city_bound(s: WDState, uid: str) -> bool:
    """Rule 22: an unreleased Velikiye Luki garrison unit may not leave the city, by
    any means (moving, rail, advancing after combat)."""
    u = s.pos.units.get(uid)
    return u is not None and u.garrison == "vl" and not s.pos.vl_released


def garrison_fixed(s: WDState, uid: str) -> bool:
    """Rule 22: the opening garrisons "may not be moved the first turn"."""
    u = s.pos.units.get(uid)
    return u is not None and bool(u.garrison) and s.sc.opening and s.pos.turn == 1


def enter_cost(s: WDState, uid: str, frm: str | None, to: str) -> int | Fraction | None:
    """Rule 7 cost to enter ``to`` (from ``frm``, or from off the map); None if P."""
    pos = s.pos
    frozen = pos.weather != "thaw"
    cost = s.ter.enter_cost(s.utype(uid).mob, frm, to, frozen, pos.bridges)
    if cost is not None and frm is not None and not frozen and wrong_bank(s,
            uid, frm, to):
        return None  # Rule 16.B: leave on the side it entered
    return cost


def may_advance_into(s: WDState, uid: str, frm: str, to: str) -> bool:
    """Rule 9.D: whether ``uid`` may enter ``to`` from ``frm`` as :func:`enter_cost` says
    (not prohibited, Rule 7; Rule 16.B's banks), the step read once
    (:meth:`Terrain.step_cost_once`)."""
    pos = s.pos
    frozen = pos.weather != "thaw"
    if s.ter.step_ticks_once(s.utype(uid).mob, frm, to, frozen, pos.bridges) is None:
        return False
    return frozen or not wrong_bank(s, uid, frm, to)


def enter_ticks(s: WDState, uid: str, frm: str | None, to: str) -> int | None:
    """:meth:`enter_cost` in ticks."""
    pos = s.pos
    frozen = pos.weather != "thaw"
    t = s.ter.enter_ticks(s.utype(uid).mob, frm, to, frozen, pos.bridges)
    if t is not None and frm is not None and not frozen and wrong_bank(s, uid, frm, to):
        return None  # Rule 16.B
    return t


def enter_row(s: WDState, mob: str, frm: str) -> tuple[int | None, ...]:
    """:meth:`Terrain.enter_row` in this position's weather and bridges (Rule 16.B
    aside: the caller asks :meth:`wrong_bank` in a thaw)."""
    pos = s.pos
    return s.ter.enter_row(mob, frm, pos.weather != "thaw", pos.bridges)


def wrong_bank(s: WDState, uid: str, frm: str, to: str) -> bool:
    """Rule 16.B (:meth:`Terrain.wrong_bank`) for ``uid``, from the bank it entered
    the river hex from."""
    pos = s.pos
    if pos.weather != "thaw":
        return False
    u = pos.units.get(uid)
    return s.ter.wrong_bank(s.utype(uid).mob, u.via if u is not None else "", frm,
                               to, False, pos.bridges)


def prohibited_why(s: WDState, uid: str, frm: str, to: str) -> tuple[str, str]:
    """The rule that makes ``to`` prohibited from ``frm`` (enter_cost gave None)."""
    if wrong_bank(s, uid, frm, to):
        return ("Rule 16.B", f"in a thaw {uid} must leave the river on the bank it "
                "entered from (bridges aside)")
    feats = s.map.side_features(frm, to)
    if s.pos.weather == "thaw" and "lake" in feats:
        mob = s.utype(uid).mob
        if s.cat.tables.lake["full_thaw"][mob] is None:
            return ("Rule 13.B", f"in a thaw {uid} may not cross the full lake hexside "
                    f"{frm}/{to}")
    return ("Rule 7", f"{to} is prohibited terrain for {uid} from {frm}")


def lake_roll_due(s: WDState, uid: str, frm: str, to: str) -> bool:
    """Rule 13's roll for the ice (:meth:`Terrain.lake_roll_due`) for ``uid``."""
    return s.ter.lake_roll_due(s.utype(uid).afv, frm, to,
                                  s.pos.weather != "thaw")
