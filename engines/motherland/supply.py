"""Supply (9.0): supply networks and lines, supply status, isolation attrition
(9.1.3), expended Supply Bases (9.3.4), sea supply (9.6) and Air Supply range (14.2).

The networks and blocked hexes are cached per position (``_cache``): besides the Mutual
Supply Phase, reinforcements, Strategic Movement and the victory check read them.  They
read the kit's board facts (enemy units and ZOC, friendly units) but are not floods of
them (``engines.hexkit.facts.SpreadFlood``): a line is also blocked by enemy-held cities
(9.2, ``pos.control``), the sources depend on who holds Helsinki (9.3.1) and which Supply
Bases are expended or under a Partisan (9.3.4, 10.3), and a Soviet line may cross
Frozen Access in snow (9.2.1), none of which is in the placement the facts are keyed
by; one flood rule per such combination would be a second cache keyed by the same
facts the ``_cache`` already forgets on every change, so the engine floods them itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engines.hexkit.movement import spread
from engines.motherland.args import RollArgs
from engines.motherland.chits import drop_chit
from engines.motherland.const import (
    AXIS,
    DANZIG,
    HELSINKI,
    KONIGSBERG,
    NOVOROSSIYSK,
    ODESSA,
    SEVASTOPOL,
    SOVIET,
    TUAPSE,
    other,
)
from engines.motherland.phase_args import CountArgs, PlaceArgs
from engines.motherland.terrain import soviet_infantry
from pbem.engine import Event
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# The Mutual Supply Phase and the supply lines every other rule reads (9.0).


# ================================================================================
# supply (9.0)
# ================================================================================


def supply_tasks(s: MotherlandState) -> list[Frame]:
    """3.1 A, the Mutual Supply Phase in the order of 9.0-10.0."""
    return [Frame("supply_start"), Frame("expend"), Frame("supply_status"),
            Frame("airsupply"), Frame("partisan_effects"),
            Frame("partisan_place", PlaceArgs()), Frame("isolation_rolls"),
            Frame("remove_expended")]


def supply_start(s: MotherlandState) -> None:
    info = s.data.turns[s.turn]
    if info.air_withdrawal and s.pos.air.total > 0 and s.turn > s.sc.first - 1:
        s.pos.air.total -= 1
        s.tell(Event("The Axis withdraws one German Air Unit (14.0)", rule="14.0"))
    if info.chits and s.turn > s.sc.first - 1:
        for cid in info.chits:
            s.pos.cups[cid[0]].append(cid)
        for k in s.pos.cups:
            s.pos.cups[k].sort()
        s.tell(Event(f"{len(info.chits)} Strength Chits join the cups (17.3)", rule="17.3"))
    if info.general and info.general not in s.pos.generals:
        s.pos.generals[info.general] = "ready"
        s.tell(Event(f"General {info.general} arrives (16.5)", rule="16.5"))
    if info.partisan and info.partisan not in s.pos.partisans:
        s.pos.partisans[info.partisan] = ""
        s.tell(Event(f"Partisan marker {info.partisan} arrives (10.0)", rule="10.0"))
    s.pos.generals = dict(sorted(s.pos.generals.items()))
    s.pos.partisans = dict(sorted(s.pos.partisans.items()))
    s.pos.expended = []
    # 9.6.1 note, judged as the phase begins (see sea_supply)
    s.pos.odessa_closed = bool(s.units_at(SEVASTOPOL, AXIS))


def supply_blocked(s: MotherlandState, side: str) -> frozenset[str]:
    """Hexes a supply line of ``side`` cannot enter (9.2)."""
    key = ("blocked", side)
    hit = s._cache.get(key)
    if hit is None:
        enemy = other(side)
        ez, foes, friends = s.zoc(enemy), s.occupied(enemy), s.occupied(side)
        # enemy units, and the enemy's ZOC where no friendly unit stands, on land (set
        # operations: a loop over every land hex was a tenth of a first listing's supply)
        out = set(s.data.land_set & (foes | (ez - friends)))
        out.update(h for h, mark in s.pos.control.items()
                   if mark == enemy and h not in friends)
        hit = frozenset(out)
        s._cache[key] = hit
    return hit


def supply_spread(s: MotherlandState, starts: dict[str, int], blocked: frozenset[str],
            nbrs: dict[str, tuple[str, ...]] | None = None) -> dict[str, int]:
    """Supply lines counted in hexes (9.2) on the kit: hex -> the most of its budget a
    line has left on reaching it; not across sea, lake or out-of-play hexsides unless
    ``nbrs`` says otherwise (9.2.1's Frozen Access)."""
    return spread(s.data.open_neighbors if nbrs is None else nbrs, starts,
                  blocked=blocked)


def rail_from(s: MotherlandState, starts: Iterable[str], blocked: frozenset[str]) -> set[str]:
    """Railroad hexes connected to ``starts`` without entering ``blocked`` (9.3, 17.0):
    the railroad's connected part, a budget longer than the whole network."""
    rail = s.data.rail
    return set(spread(rail, dict.fromkeys((h for h in starts if h in rail), len(rail)),
                      blocked=blocked))


def supply_net(s: MotherlandState, side: str,
               net: str = "") -> tuple[dict[str, int], dict[str, int], set[str]]:
    """(hexes within a supply line, hexes with a line of any length, connected rail).

    ``net`` is ``""`` for the side's main network, ``"F"`` for the Finns (9.3.1),
    ``"T"`` for the Turks (21.2.2).
    """
    key = ("net", side, net)
    hit = s._cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    blocked = supply_blocked(s, side)
    # the lines read only the blocked hexes, the sources and the Supply Bases: a new
    # position with the same ones (a unit moved or placed clear of the enemy's ZOC) has
    # the same lines, kept with the game (a movement phase's first listing spread them
    # again, a tenth of its time; issue 35 item 5)
    lasting = ("net", side, net, blocked, _net_marks(s, side, net))
    hit = s._pcache.get(lasting)
    if hit is not None:
        s._cache[key] = hit
        return hit  # type: ignore[no-any-return]
    big = 10_000
    if side == AXIS:
        if net == "F":
            sources = set() if s.pos.control.get(HELSINKI) == SOVIET else set(
                s.data.area("source_F"))
        elif net == "T":
            sources = set(s.data.area("turkey_source") or {"1535", "1634", "1735"})
        else:
            sources = set(s.data.area("source_W") | s.data.area("source_H")
                          | s.data.area("source_R"))
        rail_ok = rail_from(s, sources, blocked)
        starts = {h: 4 for h in sources if h in s.data.hexmap}
        far = {h: big for h in starts}
        if net == "":
            for uid in s.on_map(AXIS):
                if s.c(uid).type != "supply_base":
                    continue
                h = s.u(uid).hex
                expended = uid in s.pos.expended
                if h in rail_ok or expended:
                    partisan = h in s.pos.partisans.values()
                    radius = 3 if (expended and partisan) else 4  # 10.3
                    starts[h] = max(starts.get(h, 0), radius)
                    far[h] = big
    else:
        sources = set(s.data.area("source_E") | s.data.area("source_S"))
        rail_ok = rail_from(s, sources, blocked)
        starts = {h: 4 for h in sources | rail_ok}
        far = {h: big for h in starts}
    nbrs = s.data.ice_neighbors if net == "ice" else None  # 9.2.1
    near = supply_spread(s, starts, blocked, nbrs)
    anylen = supply_spread(s, far, blocked, nbrs)
    hit = (near, anylen, rail_ok)
    s._cache[key] = s._pcache[lasting] = hit
    return hit


def _net_marks(s: MotherlandState, side: str, net: str) -> tuple[object, ...]:
    """What :func:`supply_net` reads of the position besides the blocked hexes: Helsinki's
    control for the Finns' source (9.3.1), the Axis Supply Bases' hexes, expenditure and
    partisans (10.3) for its main network."""
    if side != AXIS:
        return ()
    if net == "F":
        return (s.pos.control.get(HELSINKI) == SOVIET,)
    if net:
        return ()
    partisans = set(s.pos.partisans.values())
    return tuple((s.u(uid).hex, uid in s.pos.expended, s.u(uid).hex in partisans)
                 for uid in s.on_map(AXIS) if s.c(uid).type == "supply_base")


def sea_supply(s: MotherlandState, side: str) -> dict[str, int]:
    """9.6: two-hex lines to the side's own ports of a sea it supplies by ship."""
    key = ("sea", side)
    hit = s._cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    _, _, rail_ok = supply_net(s, side)
    ports = s.data.ports
    bodies: list[str] = []
    if side == AXIS:
        pairs = {"black": (ODESSA, SEVASTOPOL), "baltic": (DANZIG, KONIGSBERG)}  # 9.6.1-2
        bodies = [body for body, both in pairs.items()
                  if all(s.controls(AXIS, p) and p in rail_ok for p in both)]
    elif any(s.controls(SOVIET, p) and p in rail_ok for p in (TUAPSE, NOVOROSSIYSK)):
        bodies = ["black"]  # 9.6.3
    # a line is traced to a port of one's own (5.5: ports are controlled like cities);
    # the Sea of Azov is a body of its own and never counts (9.6.1, 9.6.3)
    starts = {h: 2 for h, b in ports.items() if b in bodies and s.controls(side, h)}
    if side == SOVIET and s.pos.odessa_closed and \
            not s.controls(SOVIET, SEVASTOPOL):
        # 9.6.1 note: an Axis unit in Sevastopol as the Mutual Supply Phase began shuts
        # Odessa to Soviet sea supply until the Soviets recapture Sevastopol
        starts.pop(ODESSA, None)
    hit = supply_spread(s, starts, supply_blocked(s, side)) if starts else {}
    s._cache[key] = hit
    return hit


def in_supply(s: MotherlandState, uid: str) -> bool:
    """Whether the unit can trace a Supply Line now (9.2-9.4, 9.6)."""
    return supplied_at(s, uid, s.u(uid).hex)


def supplied_at(s: MotherlandState, uid: str, h: str) -> bool:
    """Whether the unit could trace a Supply Line from ``h`` by any supply rule (9.2-9.4,
    9.3.3, 9.6): also the end of a Strategic Movement (5.3.1)."""
    c = s.c(uid)
    if c.type in ("supply_base", "economic"):
        return True  # 9.1 note, 12.0
    if c.side == AXIS:
        if c.nation == "finnish":
            # 9.3.1 source F only; 9.3.3 is for all Axis units, the Finns included
            near, anylen, _ = supply_net(s, AXIS, "F")
            return h in near or (h in anylen and h not in _soviet_close(s))
        if c.nation == "turkish":
            return h in supply_net(s, AXIS, "T")[0]
        near, anylen, _ = supply_net(s, AXIS)
        if h in near:
            return True
        if h in anylen and h not in _soviet_close(s):  # 9.3.3
            return True
        if c.nation == "german" and c.type not in ("air_base",):
            return h in sea_supply(s, AXIS)
        return False
    near, _, _ = supply_net(s, SOVIET)
    if h in near:
        return True
    if s.snow and soviet_infantry(s, uid) and h in supply_net(s, SOVIET, "ice")[0]:
        return True  # 9.2.1 across Frozen Access
    return c.type != "offensive_support" and h in sea_supply(s, SOVIET)


def supplied_hexes(s: MotherlandState, uid: str) -> frozenset[str] | None:
    """Every hex where :meth:`supplied_at` holds for the unit (``None``: every hex),
    gathered once per position for each kind of unit the supply rules tell apart: a
    Strategic Movement's every end hex is asked (5.3.1), 27 units of 15 hexes' reach
    in a listing made 4,000 calls of :meth:`supplied_at` (issue 35 item 5)."""
    c = s.c(uid)
    if c.type in ("supply_base", "economic"):
        return None  # 9.1 note, 12.0
    kind: tuple[str, str | bool, bool]
    if c.side == AXIS:
        kind = ("axis", c.nation if c.nation in ("finnish", "turkish") else "",
                c.nation == "german" and c.type != "air_base")
    else:
        kind = ("soviet", s.snow and soviet_infantry(s, uid),
                c.type != "offensive_support")
    key = ("supplied", kind)
    hit: frozenset[str] | None = s._cache.get(key)
    if hit is None:
        hit = _supplied_hexes(s, kind)
        s._cache[key] = hit
    return hit


def _supplied_hexes(s: MotherlandState, kind: tuple[str, object, bool]) -> frozenset[str]:
    # as supplied_at, read for whole sets of hexes: a hex with a line of any length
    # is in supply by 9.3.3 where no Soviet unit is within five (_soviet_close)
    side, which, sea = kind
    if side == "axis":
        if which == "turkish":
            return frozenset(supply_net(s, AXIS, "T")[0])
        near, anylen, _ = supply_net(s, AXIS, "F" if which == "finnish" else "")
        close = _soviet_close(s)
        out = set(near).union(h for h in anylen if h not in close)
        if sea:
            out.update(sea_supply(s, AXIS))
        return frozenset(out)
    out = set(supply_net(s, SOVIET)[0])
    if which:
        out.update(supply_net(s, SOVIET, "ice")[0])  # 9.2.1 across Frozen Access
    if sea:
        out.update(sea_supply(s, SOVIET))
    return frozenset(out)


def isolated(s: MotherlandState, uid: str) -> bool:
    """9.1.3: Out of Supply and no Supply Line of any length."""
    c, h = s.c(uid), s.u(uid).hex
    if s.u(uid).supply != "out":
        return False
    if c.side == AXIS:
        net = "F" if c.nation == "finnish" else "T" if c.nation == "turkish" else ""
        return h not in supply_net(s, AXIS, net)[1]
    net = "ice" if s.snow and soviet_infantry(s, uid) else ""
    return h not in supply_net(s, SOVIET, net)[1]


def _soviet_close(s: MotherlandState) -> frozenset[str]:
    """The hexes within five of a Soviet unit not Out of Supply (9.3.3: a line of any
    length supplies an Axis unit six or more hexes from every one)."""
    # asked for every hex a Strategic Movement may end in (5.3.1): gathered once per
    # position, the union of each unit's hexes within five (a loop over them was half
    # of some movement phases' first listing: issue 35 item 5)
    close: frozenset[str] | None = s._cache.get("soviet_within5")
    if close is None:
        spots = tuple(sorted({s.u(uid).hex for uid in s.on_map(SOVIET)
                              if s.u(uid).supply != "out"
                              and s.c(uid).type != "economic"}))
        # a function of those hexes alone: kept across the Axis moves that leave them
        # as they are (issue 35 item 5: a third of a Strategic Movement listing)
        lasting = ("within5", spots)
        close = s._pcache.get(lasting)
        if close is None:
            close = frozenset().union(*(s.data.around(x, 5) for x in spots))
            s._pcache[lasting] = close
        s._cache["soviet_within5"] = close
    return close


def _near_factory(s: MotherlandState, h: str) -> bool:
    for uid in s.on_map(SOVIET):
        c = s.c(uid)
        if c.type == "economic" and c.asset == "factory":
            fh = s.u(uid).hex
            if fh == h or fh in s.data.neighbors[h]:
                return True
    return False


def supply_status(s: MotherlandState) -> None:
    s._touch()
    changes = []
    # 9.1: both sides judge supply at once, from the position as it stands
    supplied = {uid: in_supply(s, uid) for uid in sorted(s.on_map())}
    for uid in sorted(supplied):
        u, c = s.u(uid), s.c(uid)
        if supplied[uid]:
            u.supply = ""
            continue
        if c.type in ("air_base", "offensive_support"):
            _remove_to_track(s, uid, 3, "cannot trace a Supply Line (9.1.1)")
            continue
        new = "lack" if u.supply == "" else "out"
        if c.nation == "finnish" and s.pos.control.get(HELSINKI) == SOVIET:
            new = "out"  # 9.3.2: automatically Out of Supply, not Lack
        if new == "out" and c.side == SOVIET and c.type != "offensive_support" and \
                _near_factory(s, u.hex):
            new = "lack"  # 9.1.2
        u.supply = new
        changes.append(f"{uid} {new}")
    s._touch()
    if changes:
        s.tell(Event("Supply: " + ", ".join(changes), "info", rule="9.1"))


def remove_expended(s: MotherlandState) -> None:
    for uid in sorted(s.pos.expended):
        if s.u(uid).hex:
            _remove_to_track(s, uid, 3, "expended Supply Base removed (9.3.4)")
    s.pos.expended = []


def _remove_to_track(s: MotherlandState, uid: str, turns: int, why: str) -> None:
    u = s.u(uid)
    h = u.hex
    drop_chit(s, uid)
    u.hex = ""
    u.box = "track"
    u.return_turn = s.turn + turns
    u.returning = s.c(uid).side == SOVIET
    u.supply = ""
    u.steps = s.c(uid).max_steps
    s._touch()
    s.tell(Event(f"{uid} leaves {h}: {why}; returns on turn {s.turn + turns}", "loss", hexes=(h,),
                 units=(uid,), rule=s.cited(why)))


# -- isolation (9.1.3) ---------------------------------------------------------------


def isolation_rolls(s: MotherlandState) -> None:
    s._touch()
    by_hex: dict[str, list[str]] = {}
    for uid in sorted(s.on_map()):
        if isolated(s, uid):
            by_hex.setdefault(s.u(uid).hex, []).append(uid)
    tasks = []
    for h in sorted(by_hex):
        tasks.append(Frame("roll-isolation",
                           RollArgs(f"isolation attrition at {h}", hex=h)))
    s.queue_frames(tasks, first=True)


def on_isolation(s: MotherlandState, t: RollArgs, roll: int) -> None:
    h = t.hex
    n = s.data.isolation[roll - 1]
    units = sorted(x for x in s.units_at(h) if isolated(s, x))
    if not units:
        return
    owner = s.c(units[0]).side
    s.tell(Event(f"Isolated units at {h} lose {n} step(s) (9.1.3, rolled {roll})", "loss",
                 hexes=(h,), rule="9.1.3"))
    if n:
        s.queue_frames([Frame("isolation", CountArgs(owner, h, n))], first=True)


# -- expending bases, air supply (9.3.4, 14.2) ---------------------------------------


def expendable(s: MotherlandState) -> list[str]:
    _, _, rail_ok = supply_net(s, AXIS)
    return [uid for uid in sorted(s.on_map(AXIS))
            if s.c(uid).type == "supply_base" and s.u(uid).hex not in rail_ok
            and uid not in s.pos.expended]


def expend(s: MotherlandState, uid: str) -> None:
    s.pos.expended = sorted([*s.pos.expended, uid])
    s._touch()
    s.tell(Event(f"{uid} is expended to supply units (9.3.4)", rule="9.3.4"))


def air_supply(s: MotherlandState, uid: str) -> None:
    s.u(uid).supply = "lack"
    s.pos.air.used += 1
    s.tell(Event(f"Air Supply: {uid} is now Lack of Supply (14.2)", rule="14.2"))


def air_available(s: MotherlandState) -> int:
    total = s.pos.air.total
    if s.mud:
        total //= 2  # 14.3
    return max(0, total - s.pos.air.used)


def _air_bases(s: MotherlandState) -> list[str]:
    return [s.u(x).hex for x in sorted(s.on_map(AXIS))
            if s.c(x).type == "air_base"]


def in_air_range(s: MotherlandState, h: str) -> bool:
    grid = s.data.hexmap.grid
    return any(grid.distance(h, b) <= 4 for b in _air_bases(s))
