"""Rules 3 and 15: zones of control, and the supply lines they cut; supply points.

ZOCs live here, below movement, because isolation (15.C), artillery supply (15.B), rail
movement (Rule 8) and retreats all trace through hexes free of enemy units and their ZOCs.
The supply points each side receives, the air drops into a cut-off Velikiye Luki (15.D.1)
and the city's point spent against isolation (15.D.2) are here too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from engines.hexkit.facts import BoardFacts, Placed, RegionFlood, ZocRule, take_nearest
from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.data import SIDES
from engines.white_death.terrain import SUPPLY_ROADS
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


#: a unit's ``Placed.mark`` (:func:`zoc_mark`): what Rule 3 reads of it, its type being
#: fixed by its id: whether it exerts a ZOC (never, always, or only stacked) and is a ski
#: unit (3.B)
NO_ZOC, STACKED_ZOC, ZOC_ALWAYS = "none", "stacked", "always"


def zoc_mark(s: WDState, uid: str) -> tuple[str, bool]:
    """Rule 3: every unit has a ZOC but unstacked German weapons companies (and the
    intrinsic garrisons, which are not counters); 3.B's ski units are told apart."""
    t = s.utype(uid)
    if "intrinsic" in t.flags:
        return (NO_ZOC, False)
    if s.side_of(uid) == "german" and t.weapons and t.size == "I":
        return (STACKED_ZOC, t.mob == "s")
    return (ZOC_ALWAYS, t.mob == "s")


def _mark(p: Placed) -> tuple[str, bool]:
    mark = p.mark
    assert isinstance(mark, tuple)  # every unit is placed with its zoc_mark
    return (str(mark[0]), bool(mark[1]))


def _not_alone(stack: tuple[Placed, ...]) -> tuple[Placed, ...]:
    """Rule 3: a German weapons company alone in its hex exerts no ZOC (the garrisons
    count as its stack, as the book's intrinsic garrison is a unit)."""
    if len(stack) > 1:
        return stack
    return tuple(p for p in stack if _mark(p)[0] != STACKED_ZOC)


#: Rule 3's ZOC: the six hexes around a unit, whatever the hexsides (the kit's zone with
#: nothing blocking it); and 3.B's of the ski units only
ZOC = ZocRule(exerts=lambda p: _mark(p)[0] != NO_ZOC, stack=_not_alone)
SKI_ZOC = ZocRule(exerts=lambda p: _mark(p)[0] != NO_ZOC and _mark(p)[1],
                  stack=_not_alone)


def has_zoc(s: WDState, uid: str) -> bool:
    """Rule 3: whether ``uid`` (on the map) exerts a ZOC where it stands (:data:`ZOC`)."""
    kind = zoc_mark(s, uid)[0]
    if kind == STACKED_ZOC:
        return len(s.facts().at(s.pos.units[uid].loc, "german")) > 1
    return kind == ZOC_ALWAYS


def enemy_key(s: WDState, side: str) -> tuple[Any, ...]:
    """Where ``side``'s enemies stand, in full: the key of every fact traced through
    them (Rules 3, 8, 15). A unit's type is fixed by its id, and a German weapons
    company's ZOC (its stacking) by German positions, so this is all they depend on."""
    key = ("ekey", side)
    kept = s._foe[side]
    got = kept.get(key)
    if got is None:
        got = kept[key] = (side, tuple(
            (uid, s.pos.units[uid].loc) for uid in s.side_units(other(side))))
    out: tuple[Any, ...] = got
    return out


def by_enemies(s: WDState, what: str, side: str, build: Callable[[], Any]) -> Any:
    """``build()`` once per position of ``side``'s enemies (kept in the catalog)."""
    ckey = ("by-enemies", what, side)
    kept = s._foe[side]
    got = kept.get(ckey)
    if got is None:
        got = kept[ckey] = s.cat.memo.get((what, enemy_key(s, side)), build)
    return got


def ezoc(s: WDState, side: str, ski_only: bool = False) -> Collection[str]:
    """Hexes in the ZOC of ``side``'s enemies (ski_only: of enemy ski units; Rule 3.B):
    the enemy's board facts' (a side's ZOC is kept per placement of that side's units).
    Kept with what ``side``'s enemies decide (``WDState._foe``), across ``side``'s own
    moves too: asked four times a move checked and made, where the facts'
    own lookup hashes the ZOC rule's fields each time."""
    key = ("ezoc", side, ski_only)
    kept = s._foe[side]
    got = kept.get(key)
    if got is None:
        # the hexes alone (the kit's set of them, made from the exerting units' hexes):
        # every caller asks whether a hex is in the ZOC, never which units exert it,
        # and mapping each hex to its sorted units was most of a new placement's ZOC
        got = kept[key] = s.foe_facts(side).zoc_hexes(other(side),
                                                      SKI_ZOC if ski_only else ZOC)
    out: Collection[str] = got
    return out


def weapons_barred(s: WDState, uid: str, h: str) -> bool:
    """Rule 3.C: a weapons unit may not enter an enemy ZOC in a movement phase (from the
    map or from off it as a reinforcement) unless a personnel or AFV unit is there."""
    side = s.side_of(uid)
    return s.utype(uid).weapons and h in ezoc(s, side) and not any(
        s.utype(x).personnel or s.utype(x).afv for x in s.units_at(h, side))


def enemy_hexes(s: WDState, side: str) -> frozenset[str]:
    return s.foe_facts(side).occupied(other(side))


def enemy_blocked(s: WDState, side: str) -> frozenset[str]:
    """The hexes holding ``side``'s enemies or in their ZOC: what Rule 8's rail line may
    not enter (kept per position of the enemy; its few hundred hexes rather than the
    map's other 1,500, free)."""
    blocked: frozenset[str] = by_enemies(
        s, "blocked", side, lambda: enemy_hexes(s, side) | frozenset(ezoc(s, side)))
    return blocked


def _blocked(f: BoardFacts, side: str) -> frozenset[str]:
    """Rule 15: a supply line may not enter a hex holding enemy units or in their ZOC."""
    foe = other(side)
    # the ZOC's hexes alone (the kit's set of them, kept as its ZocMap's are), not which
    # units exert each: a trace asks nothing else, and mapping every hex to its units was
    # 2.8 M instructions of a fire command's first isolation check (issue 35)
    return f.occupied(foe) | f.zoc_hexes(foe, ZOC)


class _Passable:
    """``RegionFlood.passable`` for Rule 15.B's trace along roads: asked once per hex a
    flood meets, so the blocked hexes are worked out once per facts and side and kept
    with the facts they were taken of (held here, so never confused with later facts)."""

    def __init__(self) -> None:
        self._last: tuple[BoardFacts, str, frozenset[str]] | None = None

    def __call__(self, f: BoardFacts, side: str, h: str) -> bool:
        last = self._last
        if last is None or last[0] is not f or last[1] != side:
            last = self._last = (f, side, _blocked(f, side))
        return h not in last[2]


def supply_roads(s: WDState) -> RegionFlood:
    """Rule 15.B: the roads and railroads joined to a friendly edge through hexes free of
    enemy units and ZOCs, as the kit's flood (built once per map: it reads the friendly
    edges and the networks, fixed with the map, and the placement, the facts'). A few
    hundred hexes of the networks, where a trace over the whole map meets 1,500."""
    got = s._static.get("supply-roads")
    if got is None:
        ter = s.ter
        static = s._static

        def road_ends(f: BoardFacts, side: str) -> list[str]:
            blocked = _blocked(f, side)
            # the edge's road and railroad hexes are the map's: found once per side, in
            # order, and only the placement's blocked hexes taken out each time
            key = ("road-ends", side)
            ends: tuple[str, ...] | None = static.get(key)
            if ends is None:
                ends = static[key] = tuple(
                    h for h in sorted(ter.edge_hexes(side))
                    if ter.map.network_neighbors("road", h) or ter.rail_hex(h))
            return [h for h in ends if h not in blocked]

        got = s._static["supply-roads"] = RegionFlood(road_ends, _Passable(),
                                                      networks=SUPPLY_ROADS)
    out: RegionFlood = got
    return out


def enemy_facts(s: WDState, side: str) -> BoardFacts:
    """The board facts of ``side``'s enemies alone. Rule 15's traces read nothing else
    (their units, their ZOCs: both the same as in the whole placement's facts), so
    traces asked of these are kept across ``side``'s own moves, which leave this
    placement as it was."""
    return s.foe_facts(side)


class _Traces:
    """Rule 15.C's trace for one side through one placement of its enemies, asked hex by
    hex: whether a hex is joined to a friendly edge through hexes free of enemy units and
    their ZOCs. The whole flood from the edges meets some 1,500 hexes of a 1,700-hex map
    (about 1.3 ms) to answer the few units a decision asks of; a search from the hex asked
    stops at the first edge hex it meets, and every hex it met is then known joined (or,
    when it ran out, known cut off: its whole free area was met), so the next search
    stops as soon as it meets one of them. The same answers as the flood
    (``test_fast_paths``), since both are whether the hex's free area holds an edge hex.

    The search goes by the hexes' ids and their neighbours as :meth:`Terrain.nbrs` keeps
    them, the hex nearest a friendly map border first (:func:`_edge_guide`): a search
    that wandered depth first met some 400 hexes, and the map's index and neighbour
    table it read were made whole for it, 3.8 M instructions of a command whose only use
    of them was this trace (a fire's isolation check, a received file's; issue 35).
    The order changes which hexes are met, never the answer."""

    __slots__ = ("_blocked", "_cut", "_edge", "_guide", "_joined", "_nbrs", "art")

    def __init__(self, s: WDState, side: str) -> None:
        self._nbrs = s.ter.nbrs
        self._blocked = _blocked(enemy_facts(s, side), side)
        self._edge = s.ter.edge_hexes(side)
        self._guide = _edge_guide(s, side)
        self._joined: set[str] = set()
        self._cut: set[str] = set()
        #: Rule 15.B's answers by hex (:func:`art_supplied_at`): a barrage listing asks
        #: each artillery unit's once per target
        self.art: dict[str, bool] = {}

    def reaches(self, h: str) -> bool:
        """Whether ``h`` is free and joined to a friendly edge (the flood's hexes)."""
        blocked, joined, cut = self._blocked, self._joined, self._cut
        if h in blocked:
            return False
        if h in joined:
            return True
        if h in cut:
            return False
        edge, nbrs, guide = self._edge, self._nbrs, self._guide
        met = {h}
        # the frontier's hexes by how far each is from a friendly border, the least first
        # and of those the least id (take_nearest: a heap's order, without heapq)
        todo: dict[int, list[str]] = {guide(h): [h]}
        add = met.add
        while todo:
            j = take_nearest(todo)
            if j in edge or j in joined:
                joined.update(met)
                return True
            if j in cut:  # its free area holds no edge hex: nor does this one, the same
                cut.update(met)
                return False
            for k in nbrs(j):
                if k not in met and k not in blocked:
                    add(k)
                    far = guide(k)
                    if far in todo:
                        todo[far].append(k)
                    else:
                        todo[far] = [k]
        cut.update(met)
        return False


def _edge_guide(s: WDState, side: str) -> Callable[[str], int]:
    """How many columns or rows a hex is from the nearest stretch of map border that holds
    ``side``'s friendly edge hexes (each border's stretch from its first such hex to its
    last): the order :class:`_Traces` searches in, kept per map and side."""
    key = ("edge-guide", side)
    got = s._static.get(key)
    if got is None:
        grid = s.map.grid
        (c0, c1), (r0, r1) = grid.cols, grid.rows
        digits = grid.numbering.col_digits
        # by border: the rows (west, east) or columns (north, south) of its edge hexes
        west: list[int] = []
        east: list[int] = []
        north: list[int] = []
        south: list[int] = []
        for h in s.ter.edge_hexes(side):
            c, r = int(h[:digits]), int(h[digits:])
            if c == c0:
                west.append(r)
            elif c == c1:
                east.append(r)
            if r == r0:
                north.append(c)
            elif r == r1:
                south.append(c)
        # (the column or row read, the border's, the other one read, its stretch's ends)
        stretches = tuple((axis, line, min(along), max(along)) for axis, line, along in (
            (0, c0, west), (0, c1, east), (1, r0, north), (1, r1, south)) if along)

        def guide(h: str) -> int:
            at = (int(h[:digits]), int(h[digits:]))
            best = 0x7FFFFFFF
            for axis, line, lo, hi in stretches:
                across, along = at[axis], at[1 - axis]
                far = (across - line if across > line else line - across) + (
                    lo - along if along < lo else along - hi if along > hi else 0)
                if far < best:
                    best = far
            return best

        got = s._static[key] = guide
    out: Callable[[str], int] = got
    return out


def _traces(s: WDState, side: str) -> _Traces:
    got: _Traces = by_enemies(s, "traces", side, lambda: _Traces(s, side))
    return got


def traced(s: WDState, side: str, h: str) -> bool:
    """Rule 15.C: a line of hexes free of enemy units and ZOCs from ``h`` (or a hex
    next to it) to a friendly edge, or ``h`` on that edge."""
    if h in s.ter.edge_hexes(side):
        return True
    t = _traces(s, side)
    return t.reaches(h) or any(t.reaches(n) for n in s.ter.nbrs(h))


def isolated(s: WDState, uid: str) -> bool:
    """Rule 15.C (and 15.D.2: Velikiye Luki troops may avoid it with a supply point)."""
    if not s.on_map(uid):
        return False
    side = s.side_of(uid)
    h = s.pos.units[uid].loc
    if side == "german" and s.pos.vl_avoid and h in s.ter.vl_hexes():
        return False
    return not traced(s, side, h)


def art_supplied(s: WDState, uid: str) -> bool:
    """Rule 15.B: seven hexes or less to a road or railroad running back to a friendly
    edge, all free of enemy units and ZOCs."""
    return art_supplied_at(s, s.side_of(uid), s.pos.units[uid].loc)


def art_supplied_at(s: WDState, side: str, h: str) -> bool:
    """Rule 15.B for a ``side`` unit in ``h``: the roads' trace (:func:`supply_roads`)
    within seven hexes, counting ``h``'s own (the unit may stand in an enemy ZOC; the
    first hex of its line may not). Searched from the hexes around ``h``, six hexes
    deep, rather than by a flood from every road hex over the map: every road hex of
    the trace is itself free, so a line from one to a free hex next to ``h`` is a line
    back from that hex, the same length."""
    t = _traces(s, side)
    got = t.art.get(h)
    if got is None:
        got = t.art[h] = _art_search(s, side, h, t._blocked)
    return got


def _art_search(s: WDState, side: str, h: str, blocked: frozenset[str]) -> bool:
    roads = enemy_facts(s, side).flood(side, supply_roads(s))
    if h in roads:
        return True
    nbrs = s.ter.nbrs
    ring = [n for n in nbrs(h) if n not in blocked]
    met = set(ring)
    for step in range(7):  # the free hexes next to h (step 0), then six steps on
        if any(n in roads for n in ring):
            return True
        if step == 6 or not ring:
            return False
        nxt = []
        for n in ring:
            for k in nbrs(n):
                if k not in met and k not in blocked:
                    met.add(k)
                    nxt.append(k)
        ring = nxt
    return False


def pool_of(s: WDState, uid: str) -> str:
    """Rule 15.D.2: troops in Velikiye Luki draw on the city's own supply."""
    if s.side_of(uid) == "german" and s.pos.units[uid].loc in s.ter.vl_hexes():
        return "vl"
    return s.side_of(uid)


def _supply_points(s: WDState) -> list[Event]:
    i = s.pos.turn - 1
    events = []
    for side in SIDES:
        got = s.cat.supply[side][min(i, len(s.cat.supply[side]) - 1)]
        s.pos.supply[side] += got
        s.pos.repl[side] += s.cat.replacements[side][min(i, len(s.cat.replacements[side]) - 1)]
        events.append(Event(f"The {side} player receives {got} supply points", "info",
                            rule="Rule 15"))
    vl = s.ter.vl_hexes()
    got = s.cat.supply["german"][min(i, len(s.cat.supply["german"]) - 1)]
    if vl and any(s.units_at(h, "german") for h in vl):
        if any(traced(s, "german", h) for h in vl):
            s.pos.supply["vl"] += got
            events.append(Event(f"Velikiye Luki receives {got} supply points", "info",
                                rule="Rule 15.D"))
        else:
            for k in range(got):
                s.queue("airdrop", DieArgs(f"air drop {k + 1} of {got} into Velikiye Luki",
                                           "Rule 15.D.1"))
    for uid in sorted(s.pos.units):
        u = s.pos.units[uid]
        if u.loc == "refit" and s.pos.turn >= 11:
            u.loc = "raster"
            u.entry = "soviet-east"
            s._relocated()
    return events


def _on_airdrop(s: WDState, roll: int) -> list[Event]:
    if rules.airdrop_received(s.pos.weather, roll):
        s.pos.supply["vl"] += 1
        return [Event("A supply point is dropped into Velikiye Luki", "info",
                      rule="Rule 15.D.1")]
    return [Event("The air drop is lost", "info", rule="Rule 15.D.1")]


def _vl_avoid_possible(s: WDState) -> bool:
    """Rule 15.D.2: "at the beginning of a turn", after the turn's supply points and
    air drops and before the Soviet's first impulse, the German may spend a Velikiye
    Luki point against isolation: his decision, only when it is possible."""
    return (not s.pos.vl_avoid and s.pos.supply["vl"] >= 1
            and any(s.units_at(h, "german") for h in s.ter.vl_hexes())
            and not any(traced(s, "german", h) for h in s.ter.vl_hexes()))


# ------------------------------------------------------------------ the actions


def check_vl_supply(s: WDState, a: Act) -> None:
    if s.phase != "vl-supply" or not _vl_avoid_possible(s):
        raise IllegalAction("Velikiye Luki may spend a supply point against isolation only "
                            "at the beginning of a turn, while the city is cut off and has "
                            "a point", rule="Rule 15.D.2")


def check_vl_keep(s: WDState, a: Act) -> None:
    s._need_phase("vl-supply", rule="Rule 15.D.2")


def do_vl_supply(s: WDState, a: Act) -> list[Event]:
    s.pos.supply["vl"] -= 1
    s.pos.vl_avoid = True
    return [Event("Velikiye Luki spends a supply point to avoid isolation this turn",
                  "info", visible_to=("german",), rule="Rule 15.D.2")]


def do_vl_keep(s: WDState, a: Act) -> list[Event]:
    return [Event("Velikiye Luki keeps its supply points this turn", "info",
                  visible_to=("german",), rule="Rule 15.D.2")]
