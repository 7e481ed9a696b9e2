"""Strategic Movement (5.3) and Sea Transport (5.5).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from typing import TYPE_CHECKING

from engines.hexkit.movement import breadth_first
from engines.motherland.const import (
    _NO_STRATEGIC,
    AXIS,
    KONIGSBERG,
    LENINGRAD,
    SEVASTOPOL,
    SOVIET,
    other,
)
from engines.motherland.notation import SHIP, path_of
from engines.motherland.supply import supplied_at, supplied_hexes
from engines.motherland.terrain import (
    barred_countries,
    costed_types,
    may_enter_country,
    terrain_cost,
    turn1_frozen,
)
from engines.motherland.victory import claim, claim_path
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Strategic Movement (5.3) and Sea Transport (5.5).


# -- strategic movement (5.3) and sea transport (5.5) ---------------------------------


def strategic_ok_unit(s: MotherlandState, uid: str) -> str:
    """Why ``uid`` may not use Strategic Movement now ("" when it may)."""
    c, u = s.c(uid), s.u(uid)
    if s.turn == 1 and s.sc.rules.get("turn1_rules"):
        return "20.1 rule 3: no strategic movement on turn 1"
    if u.moves or u.mode:
        return "5.3: the unit has already moved this phase"
    if c.type in ("air_base", "fortress", "economic"):
        return f"5.3.2: {c.type.replace('_', ' ')} units cannot use Strategic Movement"
    if c.type == "offensive_support":
        return ("5.2.3: Offensive Support moves only after all the other units (3.1 step "
                "4), not in step 2's Strategic Movement")
    if c.type == "railroad_gun":
        return ("5.1.6: the Railroad Gun moves only along connected Railroad hexes (any "
                "number of them, in its regular movement)")
    if c.type == "supply_base" and not s.mud:
        return "5.3.2: Supply Bases use Strategic Movement on Mud Turns only"
    if u.supply:
        return "5.3.2: Lack of Supply and Out of Supply units cannot use Strategic Movement"
    if turn1_frozen(s, uid):
        return "20.1 rule 2: units in Romania and Finland cannot move on turn 1"
    if s.pos.late or s.pos.regular:
        return ("3.1: Strategic Movement is step 2 of the Movement Phase, before regular "
                "movement (step 3) and step 4")
    return ""


def _strategic_free(s: MotherlandState, side: str) -> frozenset[str]:
    """Hexes at least three hexes from every enemy unit (5.3.1; partisans count)."""
    key = ("stratfree", side)
    hit = s._cache.get(key)
    if hit is None:
        # depends on the enemy's units (and partisans) only: kept across own moves
        partisans = tuple(sorted(s.pos.partisans.values())) if side == AXIS else ()
        lasting = ("stratfree", side, s.sig(other(side)), partisans)
        hit = s._pcache.get(lasting)
        if hit is None:
            spots = set(s.occupied(other(side)))
            spots.update(h for h in partisans if h)
            hit = s.data.land_set.difference(*(s.data.around(h, 2) for h in spots))
            s._pcache[lasting] = hit
        s._cache[key] = hit
    return hit


def strategic_reach(s: MotherlandState, uid: str, *,
                    cities: bool = False) -> dict[str, tuple[str, ...]]:
    """Every hex ``uid`` may end a Strategic Movement in now (5.3, 5.3.1), with the path
    of fewest hexes to each; ``cities``: those in cities alone (what the movement phase
    lists: the rest of the search is not written out)."""
    side = s.c(uid).side
    start = s.u(uid).hex
    marks = s._cache.get("marks")
    if marks is None:
        marks = (tuple(sorted(s.pos.control.items())),
                 tuple(sorted(s.pos.partisans.items())), s.pos.turkey)
        s._cache["marks"] = marks
    c = s.c(uid)
    # the search reads the unit's side, nation (5.2.1) and, for the terrain a type
    # alone may enter, its type: the units of a stack mostly share it
    kind = (side, c.nation, c.type if c.type in costed_types(s) else "")
    key = ("sreach", kind, start, s.sig(other(side)), marks, cities)
    hit = s._pcache.get(key)
    if hit is None:
        hit = _strategic_bfs(s, uid, start, s.data.cities if cities else None)
        s._pcache[key] = hit
    # 5.3.1: the move ends where the unit is in supply by any supply rule
    ends = supplied_hexes(s, uid)
    return hit if ends is None else {h: p for h, p in hit.items() if h in ends}


def _strategic_bfs(s: MotherlandState, uid: str, start: str,
                   ends: Collection[str] | None) -> dict[str, tuple[str, ...]]:
    side = s.c(uid).side
    free = _strategic_free(s, side)
    if start not in free:
        return {}
    c = s.c(uid)
    kind = c.type if c.type in costed_types(s) else ""
    barred = barred_countries(s, uid)
    # _strategic_step_ok's tests, the sets gathered once for the position and every
    # unit of a side, nation and kind: a first listing searched from a dozen hexes,
    # each set over the whole map (issue 35 item 5)
    key = ("strategic-usable", side, barred, kind, s.snow)
    usable: frozenset[str] | None = s._cache.get(key)
    if usable is None:
        cities = s.data.cities
        enterable = free - frozenset(h for h, mark in s.pos.control.items()
                                     if mark == other(side) and h in cities)
        enterable -= barred
        lasting = ("terrain_ok", kind, s.snow)
        passable: frozenset[str] | None = s._pcache.get(lasting)
        if passable is None:
            # where the Terrain Effects Chart lets a unit of this kind in at all (5.1.5):
            # a fact of the map, the weather and the type
            passable = frozenset(h for h in {b for ns in s.data.neighbors.values()
                                             for b in ns}
                                 if terrain_cost(s, uid, h) is not None)
            s._pcache[lasting] = passable
        usable = s._cache[key] = enterable & passable

    table: dict[str, tuple[str, ...]] | None = s._pcache.get("strategic_neighbors")
    if table is None:
        # the map's neighbours less those across a hexside no Strategic Movement crosses
        # (5.3.3), in the map's order: the search then asks only the hex entered
        shut = frozenset(ab for ab, f in s.data.hexsides_both_ways().items()
                         if f & _NO_STRATEGIC)
        table = s._pcache["strategic_neighbors"] = {
            a: tuple(b for b in ns if (a, b) not in shut)
            for a, ns in s.data.neighbors.items()}
    # 5.3: up to 15 hexes, each step clear of the enemy (5.3.1) and open (5.3.3)
    return breadth_first(table, start, max_steps=15, within=usable, ends=ends)


def _strategic_step_ok(s: MotherlandState, uid: str, a: str, b: str, free: frozenset[str]) -> bool:
    if b not in free:
        return False
    if s.pos.control.get(b) == other(s.c(uid).side) and b in s.data.cities:
        return False
    if s.data.side_features(a, b) & _NO_STRATEGIC:
        return False  # 5.3.3: the Chongar bridge is open
    return may_enter_country(s, uid, b) and terrain_cost(s, uid, b) is not None


def apply_strategic(s: MotherlandState, a: Act) -> None:
    uid, hexes = a.text("unit"), path_of(a)
    if uid not in s.pos.units or s.c(uid).side != s._side():
        raise IllegalAction(f"{uid} is not one of your units", rule="5.3")
    u = s.u(uid)
    if u.hex != hexes[0]:
        raise IllegalAction(f"{uid} is at {u.hex or 'no hex'}, not {hexes[0]}",
                            rule="5.3")
    why = strategic_ok_unit(s, uid)
    if why:
        raise IllegalAction(why.split(": ", 1)[1], rule=why.split(":")[0])
    if len(hexes) - 1 > 15:
        raise IllegalAction("Strategic Movement is at most 15 hexes", rule="5.3")
    free = _strategic_free(s, s.c(uid).side)
    if hexes[0] not in free:
        raise IllegalAction(f"{uid} starts within two hexes of an enemy unit", rule="5.3.1")
    for x, y in itertools.pairwise(hexes):
        if y not in s.data.neighbors.get(x, ()):
            raise IllegalAction(f"{x} and {y} are not adjacent", rule="5.3")
        if not _strategic_step_ok(s, uid, x, y, free):
            raise IllegalAction(f"{uid} cannot pass {x}->{y} by Strategic Movement (within "
                                "two hexes of an enemy, enemy city, prohibited or sea)",
                                rule="5.3.1")
    if not supplied_at(s, uid, hexes[-1]):
        raise IllegalAction(f"{uid} must end Strategic Movement in supply", rule="5.3.1")
    u.hex = hexes[-1]
    u.mp = 0
    u.moves = 1
    u.mode = "strat"
    s._touch()
    claim_path(s, uid, hexes[1:])
    s.tell(Event(f"{s.label(uid)} moves strategically {hexes[0]} -> {hexes[-1]}", "move",
                 hexes=(hexes[0], hexes[-1]), units=(uid,), rule="5.3"))


def _sea_body(s: MotherlandState, h: str) -> str:
    body = s.data.ports.get(h, "")
    return "black" if body == "azov" else body


def _sea_ok(s: MotherlandState, side: str, body: str) -> bool:
    if body == "black":
        return s.controls(side, SEVASTOPOL)  # 5.5.4
    if side == SOVIET:
        return s.controls(SOVIET, LENINGRAD)  # 5.5.5
    return s.controls(AXIS, KONIGSBERG)  # 5.5.6


def _shippable(s: MotherlandState, uid: str) -> bool:
    c = s.c(uid)
    return (c.type in ("infantry", "supply_base") and c.nation == "german") or \
        c.nation == "romanian" or c.type in ("combined_arms", "guards", "shock")


def ship_options(s: MotherlandState) -> list[Act]:
    side = s._side()
    if s.pos.sea_used or s.phase()[0] != "move" or s.pos.late or \
            s.pos.regular:
        return []  # 3.1: Sea Transport is step 2, before regular movement
    out = []
    ports = s.data.ports
    for uid in sorted(s.on_map(side)):
        u = s.u(uid)
        h = u.hex
        if h not in ports or u.moves or u.mode or not _shippable(s, uid):
            continue
        if not s.controls(side, h) or turn1_frozen(s, uid):
            continue
        body = _sea_body(s, h)
        if not _sea_ok(s, side, body):
            continue
        for dest in sorted(ports):
            if dest == h or _sea_body(s, dest) != body or not s.controls(side, dest):
                continue
            if s.has_enemy(dest, side) or not may_enter_country(s, uid, dest):
                continue
            if s.c(uid).type == "supply_base" and dest not in (KONIGSBERG, LENINGRAD):
                continue  # 5.5.1
            out.append(SHIP((uid,), dest))
    return out


def apply_ship(s: MotherlandState, a: Act) -> None:
    units, dest = a.words("units"), a.text("hex")
    if s.pos.late or s.pos.regular:
        raise IllegalAction("Sea Transport is step 2 of the Movement Phase, before regular "
                            "movement (step 3)", rule="3.1")
    legal = ship_options(s)
    if len(units) == 2:
        kgs = all(s.c(x).type == "infantry" and s.steps_of(x) == 1 for x in units)
        if not kgs:
            raise IllegalAction("only two German Infantry Kampfgruppen may share one sea "
                                "transport", rule="5.5.2")
        if not all(SHIP((x,), dest) in legal for x in units):
            raise IllegalAction(f"{a.notation()} is not allowed", rule="5.5")
    elif a not in legal:
        raise IllegalAction(f"{a.notation()} is not allowed (ports, control, body of water, unit "
                            "type or the phase's one transport)", rule="5.5")
    for x in units:
        unit = s.u(x)
        unit.hex = dest
        unit.mp = 0
        unit.moves = 1
        unit.mode = "sea"
    s.pos.sea_used = True
    s._touch()
    for x in units:
        claim(s, x, dest)
    s.tell(Event(f"{' '.join(units)} shipped to {s.data.hex_name(dest)} (5.5)", "move",
                 hexes=(dest,), units=tuple(units), rule="5.5"))
