"""Setting up: the scenario's groups, the bunkers (Rule 19), the intrinsic garrisons
("Intrinsic Garrisons"), and the campaign's setup by the players (Rule 22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.hexkit.geometry import Cube
from engines.white_death.base import other
from engines.white_death.data import Catalog, Group, ScenarioDef
from engines.white_death.notation import act
from engines.white_death.position import Arrival, Bunker, U
from engines.white_death.terrain import Terrain, enter_ticks
from pbem.engine import Event
from pbem.errors import IllegalAction, ScenarioError
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


def setup_initial(s: WDState) -> list[Event]:
    cat = s.cat
    events: list[Event] = []
    groups = list(s.sc.groups)
    if s.sc.opening:
        groups = list(cat.opening) + groups
    placed: set[str] = set()
    for g in groups:
        for uid in g.units:
            s.pos.units[uid] = U(uid, "setup", cat.units[uid].strength, garrison=g.garrison)
            if uid in s.sc.reduced:
                s.pos.units[uid].strength = s.sc.reduced[uid]
            placed.add(uid)
    for r in cat.reinforcements:
        for uid in r.units:
            if uid not in placed and s.sc.turns[0] <= r.turn <= s.sc.turns[1]:
                s.pos.units[uid] = U(uid, "pending", cat.units[uid].strength, entry=r.area)
                s.pos.schedule.append(Arrival(r.turn, uid, r.area))
    s.pos.bridges = set(s.map.hexes_with("bridge"))
    vl = s.ter.vl_hexes()
    sites = s.map.hexes_with("bunker_site")
    if sites:
        vl = tuple(sites)
    if vl and s.sc.turns[0] < 12:
        strengths = cat.bunkers if s.sc.opening else cat.bunkers[:max(
            1, len(cat.bunkers) - (s.sc.turns[0] // 3))]
        for i, side in enumerate(strengths):
            s.pos.bunkers.append(Bunker(vl[i % len(vl)], side))
    if s.sc.opening:
        for h in garrison_hexes(s.ter):
            _add_garrison(s, h)
    if s.sc.player_setup:
        s.pos.setup_side = "german"
        s.pos.setup_raster = [u for g in groups if g.side == "german" for u in g.units]
        events.append(Event("Campaign setup: the German player sets up first", "phase",
                            rule="Campaign setup"))
        s.stack = s.frames_for("setup")
    else:
        for g in groups:
            if g.side == "german":
                _auto_place(s, g)
        for g in groups:
            if g.side == "soviet":
                _auto_place(s, g)
        s.stack = s.frames_for("turn")
    s._moved()
    events += s._settle()
    s._moved()
    return events


def _add_garrison(s: WDState, h: str) -> None:
    uid = f"garrison/{h}"
    s.pos.garrisons.add(uid)
    s.pos.units[uid] = U(uid, h, 1, garrison="intrinsic")
    s._relocated()


def placeable(s: WDState, uid: str, h: str) -> bool:
    side = s.side_of(uid)
    if s.units_at(h, other(side)):
        return False
    if enter_ticks(s, uid, None, h) is None and s.ter.enter_cost_terrain(
            s.utype(uid).mob, h) is None:
        return False
    return s.stack_ok_with(h, uid)


def _auto_place(s: WDState, g: Group) -> None:
    rings: dict[int, list[str]] = {}
    todo = [u for u in g.units if s.pos.units[u].loc == "setup"]
    for i, uid in enumerate(todo):
        for extra in range(0, 12):
            if extra not in rings:
                rings[extra] = group_hexes(s.cat, g, extra)
            ring = rings[extra]
            # spread the group along its area: the i-th unit tries the i-th share first
            start = (i * len(ring)) // max(len(todo), 1) if extra == 0 else 0
            order = ring[start:] + ring[:start]
            spot = next((h for h in order if placeable(s, uid, h)), None)
            if spot is not None:
                s._put(uid, spot)
                break
        else:
            raise ScenarioError(f"no room to place {uid} near {g.near}", path=s.sc.file)


def _setup_candidates(s: WDState) -> list[Act]:
    # only the next unit of the raster is offered (as the computer game deals them);
    # a placement of any other unit still waiting is accepted all the same
    out = [act("auto-setup")]
    if s.pos.setup_raster:
        uid = s.pos.setup_raster[0]
        for h in setup_hexes(s, uid):
            out.append(act("place", uid, h))
    return out


def setup_hexes(s: WDState, uid: str) -> list[str]:
    key = ("setup", uid)
    if key not in s._cache:
        g = group_of(s.cat, s.sc, uid)
        gkey = ("group", g.near, g.within)
        if gkey not in s._static:
            s._static[gkey] = group_hexes(s.cat, g)
        s._cache[key] = [h for h in s._static[gkey] if placeable(s, uid, h)]
    out: list[str] = s._cache[key]
    return out


def _setup_next(s: WDState) -> list[Event]:
    if s.pos.setup_raster:
        return []
    if s.pos.setup_side == "german":
        s.pos.setup_side = "soviet"
        groups = list(s.cat.opening) + list(s.sc.groups)
        s.pos.setup_raster = [u for g in groups if g.side == "soviet" for u in g.units]
        return [Event("The Soviet player sets up", "phase", rule="Campaign setup")]
    return []


def garrison_hexes(ter: Terrain) -> list[str]:
    """Intrinsic Garrisons: the hexes the map marks for them, else the towns west of the
    Lowatj with a railroad (Velikiye Luki aside: it has its own garrison)."""
    m = ter.map
    marked = m.hexes_with("intrinsic_garrison")
    if marked:
        return marked
    try:
        lowatj = ter.cat.resolve("Lowatj")
    except ScenarioError:
        lowatj = tuple(h for h in m.ids if "river" in ter.terrain(h))
    if not lowatj:
        return []
    g = m.grid
    vl = set(ter.vl_hexes())
    out = []
    for h in m.ids:
        if not ter.is_town(h) or not ter.rail_hex(h) or h in vl:
            continue
        c, r = g.coords_of(h)
        near = [g.coords_of(x)[0] for x in lowatj if abs(g.coords_of(x)[1] - r) <= 2]
        if near and c < min(near):
            out.append(h)
    return out


def group_hexes(cat: Catalog, g: Group, extra: int = 0) -> list[str]:
    """A setup group's hexes, nearest its place first: within ``g.within`` (plus
    ``extra``) of any hex of the place."""
    m = cat.map
    grid, on_map = m.grid, m.terrain
    base = cat.resolve(g.near)
    radius = g.within + extra
    # a hex's nearest base hex x is within ``radius`` of it, so x's own disc holds it:
    # the least distance over the discs that hold a hex is its distance to the place.
    # A disc is walked by cube offsets (the kit's HexGrid.within), each offset's
    # distance read off it rather than measured again per hex: 18 M instructions of
    # every replay's set-up, which places every group
    seen: dict[str, int] = {}
    for b in base:
        q, r, s = grid.to_cube(b)
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                h = grid.from_cube(Cube(q + dq, r + dr, s - dq - dr))
                if h is None or h not in on_map:
                    continue
                d = max(abs(dq), abs(dr), abs(dq + dr))
                if d < seen.get(h, radius + 1):
                    seen[h] = d
    return sorted(seen, key=lambda h: (seen[h], h))


def group_of(cat: Catalog, sc: ScenarioDef, uid: str) -> Group:
    """The setup group (the scenario's, or the campaign opening's) ``uid`` belongs to."""
    groups = list(sc.groups) + (list(cat.opening) if sc.opening else [])
    for g in groups:
        if uid in g.units:
            return g
    raise KeyError(uid)


# ------------------------------------------------------------------ the actions


def check_place(s: WDState, a: Act) -> None:
    s._need_phase("setup", rule="Rule 22")
    if a.text("unit") not in s.pos.setup_raster:
        raise IllegalAction(f"{a.text('unit')} is not waiting to be set up", rule="Rule 22")
    if a.text("hex") not in setup_hexes(s, a.text("unit")):
        raise IllegalAction(f"{a.text('unit')} may not set up in {a.text('hex')}: outside its "
                            "setup area or over the stacking limit", rule="Rule 4")


def check_auto_setup(s: WDState, a: Act) -> None:
    s._need_phase("setup", rule="Rule 22")


def do_place(s: WDState, a: Act) -> list[Event]:
    s._put(a.text("unit"), a.text("hex"))
    s.pos.setup_raster.remove(a.text("unit"))
    return [Event(f"{a.text('unit')} sets up in {a.text('hex')}", "move",
                  visible_to=(s.pos.setup_side,), hexes=(a.text("hex"),),
                  rule="Campaign setup"), *_setup_next(s)]


def do_auto_setup(s: WDState, a: Act) -> list[Event]:
    for uid in list(s.pos.setup_raster):
        _auto_place(s, group_of(s.cat, s.sc, uid))
    s.pos.setup_raster = []
    return [Event(f"The {s.pos.setup_side} setup is completed automatically", "info",
                  rule="Campaign setup"),
            *_setup_next(s)]
