"""Movement (5.0) and zones of control in movement (4.2): what a unit may enter, at what
cost, the hexes it can reach, and exploitation movement (5.4).  The terrain cost and
country limits themselves are ``terrain.py``'s: retreats, reinforcements and strategic
moves read them too.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from engines.hexkit.graph import paths_to
from engines.hexkit.movement import MoveClass, MoveCosts, breadth_first, reachable
from engines.hexkit.zoc import ZocPolicy
from engines.motherland.const import AXIS, BLOCKING_SIDES, DONE, SOVIET, other
from engines.motherland.notation import MOVE, STRATEGIC, ending, path_of
from engines.motherland.optional import baku_options
from engines.motherland.overrun import late_rule, overrun_options
from engines.motherland.phase_args import MoveArgs
from engines.motherland.strategic import ship_options, strategic_ok_unit, strategic_reach
from engines.motherland.terrain import (
    barred_countries,
    costed_types,
    may_enter_country,
    soviet_infantry,
    terrain_cost,
    turn1_frozen,
)
from engines.motherland.victory import claim_path
from pbem.engine import Action, Event
from pbem.errors import IllegalAction
from pbem.grammar import Act, Form

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


#: units that may not enter an enemy ZOC at all (4.2.3)
ZOC_SHY = frozenset({"supply_base", "air_base", "railroad_gun", "offensive_support"})
#: the MP it costs to leave an enemy ZOC hex (4.2)
ZOC_EXIT = 2
#: 4.2: leaving an enemy ZOC costs 2 MP and entering one does not stop a move; by (may
#: enter an enemy ZOC at all (4.2.3), may move from one into another (5.1.4 Panzers))
_POLICIES = {(enter, through): ZocPolicy(stop_on_entry=False, exit_cost=ZOC_EXIT,
                                         zoc_to_zoc=through, may_enter=enter)
             for enter in (False, True) for through in (False, True)}
#: compiled step costs by (id of the game data, :func:`_cost_key`), with the
#: data they were compiled from (facts of the map: shared by every state and game)
_COSTS: dict[tuple[object, ...], tuple[object, MoveCosts]] = {}
#: :func:`_step_classes` by id of the game data, with the data (a hit must be it)
_STEPS: dict[int, tuple[object, tuple[tuple[frozenset[str], ...], tuple[str, ...],
                                      tuple[tuple[tuple[int, int], ...], ...]]]] = {}


# Regular and exploitation movement (5.0, 5.4) and the movement phase's options.


# ================================================================================
# movement (5.0)
# ================================================================================


def _side_cost(s: MotherlandState, uid: str, a: str, b: str, *, moving: bool = True) -> int | None:
    """Hexside cost for regular movement, or None when the hexside is closed."""
    return _features_cost(s, uid, s.data.side_features(a, b))


def _features_cost(s: MotherlandState, uid: str, f: frozenset[str]) -> int | None:
    """:meth:`_side_cost` of a hexside with features ``f``."""
    if not f:
        return 0
    if "frozen_access" in f:
        if s.snow and soviet_infantry(s, uid):
            return s.data.minor_river_mp  # 5.1.7
        return None
    if f & BLOCKING_SIDES:
        return None  # 5.1.9, 16.7
    cost = 0
    if "major_river" in f or "strait" in f:
        cost = s.data.major_river_mp
    elif "minor_river" in f:
        cost = 0 if _minor_river_free(s, uid) else s.data.minor_river_mp
    return cost


def move_step_cost(s: MotherlandState, uid: str, a: str, b: str, exploit: bool,
                   ignore_zoc_at: str = "") -> int | None:
    c = s.c(uid)
    side = c.side
    if s.has_enemy(b, side) or not may_enter_country(s, uid, b):
        return None
    cost = _board_cost(s, uid, a, b)
    if cost is None:
        return None
    ez = s.zoc(other(side))
    if b in ez and c.type in ZOC_SHY:
        return None  # 4.2.3
    if a in ez and a != ignore_zoc_at:
        cost += ZOC_EXIT  # 4.2
        if b in ez:
            panzer = c.type in ("panzer", "ss_panzer") and not exploit
            if not panzer:
                return None  # 4.2, 5.1.4
    return cost


def _minor_river_free(s: MotherlandState, uid: str) -> bool:
    """20.1 rule 1: on turn 1 German units cross Minor Rivers free in the Axis
    Movement Phase."""
    return bool(s.turn == 1 and s.sc.rules.get("turn1_rules")
                and s.phase() == ("move", AXIS) and s.german(uid))


def _board_cost(s: MotherlandState, uid: str, a: str, b: str) -> int | None:
    """The MP of a step from ``a`` into adjacent ``b`` by the map alone (terrain,
    hexside, the ice: 5.1), None where the map bars it; units, ZOC and borders are
    the caller's.  A function of :meth:`_cost_key` only, so compiled once per key
    (:meth:`_move_costs`, through :func:`_price_rows`)."""
    water = s.data.water
    if a in water or b in water:
        # 5.1.7: Soviet infantry cross Frozen Access hexsides on Snow Turns
        if not (s.snow and soviet_infantry(s, uid)
                and "frozen_access" in s.data.side_features(a, b)):
            return None
        tc = 0 if b in water else terrain_cost(s, uid, b)
        if b in water:
            tc = s.data.tec["clear"].leg
    else:
        tc = terrain_cost(s, uid, b)
    sc = _side_cost(s, uid, a, b)
    if tc is None or sc is None:
        return None
    return tc + sc


def _step_classes(s: MotherlandState) -> tuple[tuple[frozenset[str], ...], tuple[str, ...],
                                               tuple[tuple[tuple[int, int], ...], ...]]:
    """The map's steps as :func:`_price_rows` prices them, the same for every key: the
    sets of hexside features met (the first empty), a land hex's terrain by index
    (``""`` for water) and each hex's steps as ``(neighbour index, its features' index
    in the sets)``, that index less one and negated (``-1 - k``) into or out of the
    water.  Kept with the game's data."""
    data = s.data
    hit = _STEPS.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    water, sides, hexmap = data.water, data.hexsides_both_ways(), data.hexmap
    ids, terrain = hexmap.ids, hexmap.terrain
    classes: dict[frozenset[str], int] = {frozenset(): 0}
    rows: list[tuple[tuple[int, int], ...]] = []
    for a, near in zip(ids, hexmap.adjacency, strict=True):
        wet = a in water
        row: list[tuple[int, int]] = []
        for j in near:
            k = classes.setdefault(sides.get((a, ids[j]), frozenset()), len(classes))
            row.append((j, -1 - k if wet or ids[j] in water else k))
        rows.append(tuple(row))
    facts = (tuple(classes), tuple("" if h in water else terrain.get(h, "clear")
                                   for h in ids), tuple(rows))
    _STEPS[id(data)] = (data, facts)
    return facts


def _price_rows(s: MotherlandState, uid: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`_board_cost` of every step of the map as the kit's compiled rows (per hex
    index, ``(neighbour index, MP or -1)`` in the map's order).  A step on land is its
    hex's terrain cost and its hexside features' cost, each read once for the key: a
    terrain's cost (:func:`terrain_cost` reads a hex's terrain alone) and a set of
    features' (:func:`_step_classes`); one into or out of the water is
    :func:`_board_cost`'s, barred but across Frozen Access to Soviet infantry on Snow
    (5.1.7).  A new key's table was the movement listing that met it first (a new
    weather, turn 1's Minor Rivers) the slowest of a game (issue 35)."""
    classes, names, template = _step_classes(s)
    ids = s.data.hexmap.ids
    sided = [_features_cost(s, uid, f) for f in classes]
    # a terrain's cost asked of its first hex: the same for every hex of it
    first = {name: ids[i] for i, name in reversed(list(enumerate(names))) if name}
    by_name = {name: terrain_cost(s, uid, h) for name, h in first.items()}
    entered = [by_name.get(name) for name in names]
    # the water is entered and left only across Frozen Access (5.1.7)
    ice = [s.snow and soviet_infantry(s, uid) and "frozen_access" in f for f in classes]
    rows: list[tuple[tuple[int, int], ...]] = []
    for i, steps in enumerate(template):
        row: list[tuple[int, int]] = []
        for j, k in steps:
            if k < 0:
                c = _board_cost(s, uid, ids[i], ids[j]) if ice[-1 - k] else None
            else:
                tc, sc = entered[j], sided[k]
                c = None if tc is None or sc is None else tc + sc
            row.append((j, -1 if c is None else c))
        rows.append(tuple(row))
    return tuple(rows)


def _cost_key(s: MotherlandState, uid: str) -> tuple[str, bool, bool, bool]:
    """Everything :meth:`_board_cost` reads besides the map: unit type (5.1.5 mountain
    units, 5.1.7 Soviet infantry), mechanized or not, Snow (5.1.7, 5.1.8) and 20.1
    rule 1's free Minor Rivers."""
    c = s.c(uid)
    # only the types a rule of _board_cost names tell units apart: units of the other
    # types share one table per (mech, snow), so a new weather compiles a few tables
    # and not one for each type (issue 35 item 5: the slowest listings of a game)
    snow = s.snow
    kind = c.type if c.type in costed_types(s) else ""
    if not kind and snow and soviet_infantry(s, uid):
        # 5.1.7 names the three Soviet infantry types together: one table for them all
        # (three on the first Snow Turn were most of its first movement listing)
        kind = "soviet_infantry"
    return kind, c.mech, snow, _minor_river_free(s, uid)


def _move_costs(s: MotherlandState, uid: str) -> MoveCosts:
    """The map's step costs for units like ``uid`` now, compiled once per key and
    kept with the game's data (the kit's searches run on them)."""
    key = (id(s.data), *_cost_key(s, uid))
    hit = _COSTS.get(key)
    if hit is None or hit[0] is not s.data:
        # priced now, so that the kept costs hold the map's facts and not this state
        hit = _COSTS[key] = (s.data, MoveCosts.of_rows(
            s.data.hexmap, MoveClass(f"motherland:{key[1:]}", {}), _price_rows(s, uid)))
    return hit[1]


def _can_move(s: MotherlandState, uid: str, exploit: bool) -> bool:
    u, c = s.u(uid), s.c(uid)
    if not u.hex or u.mode in ("strat", "sea", "done"):
        return False
    if turn1_frozen(s, uid) or c.type == "economic":
        return False
    if s.pos.late and c.type not in _step4_types(s, c.side):
        return False  # 3.1 step 4, 5.2.3: air bases and offensive support move last
    if exploit:
        return bool(u.mp > 0 or (u.mode == "one" and u.moves == 0))
    if c.type == "railroad_gun":
        return bool(u.moves == 0)
    return u.mp > 0 or (u.moves == 0 and s.factors(uid)[2] >= 1)


def _reach_key(s: MotherlandState, uid: str, exploit: bool) -> tuple[Any, ...]:
    """What a unit's reach depends on: its own state, the phase and the enemy's units."""
    u, c = s.u(uid), s.c(uid)
    return (uid, exploit, u.hex, u.mp, u.moves, u.mode, u.supply, s.pos.late, s.turn,
            s.pos.phase, s.sig(other(c.side)), s.pos.turkey)


def reach(s: MotherlandState, uid: str, exploit: bool = False,
          reach_key: tuple[Any, ...] | None = None) -> dict[str, tuple[str, ...]]:
    """Every hex the unit can move to now, with one least-cost path to each
    (``reach_key``: :func:`_reach_key`'s, when the caller has it)."""
    u, c = s.u(uid), s.c(uid)
    key = ("reach", *(reach_key or _reach_key(s, uid, exploit)))
    hit = s._pcache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    start = u.hex
    out: dict[str, tuple[str, ...]] = {}
    if not _can_move(s, uid, exploit):
        s._pcache[key] = out
        return out
    if c.type == "railroad_gun":
        # 16.2: along the railroad, never into an enemy unit or ZOC
        ez = s.zoc(AXIS if c.side == SOVIET else SOVIET)
        out = breadth_first(
            s.data.rail, start,
            step_ok=lambda _a, n: (n not in ez and not s.has_enemy(n, c.side)
                                   and may_enter_country(s, uid, n)))
        s._pcache[key] = out
        return out
    one_hex = u.moves == 0 and (u.mode == "one" or (not exploit and
                                                        s.factors(uid)[2] >= 1))
    mp = u.mp if u.mode != "one" else 0
    ez = s.zoc(other(c.side))
    if u.mode == "ovr":
        ez = ez - {start}  # 7.1: advancing out of an overrun hex leaves no ZOC (7.2.2)
    panzer = c.type in ("panzer", "ss_panzer") and not exploit
    policy = _POLICIES[(c.type not in ZOC_SHY, panzer)]
    water = s.data.water
    barred = barred_countries(s, uid)
    # everything the search below reads: the units of a stack that move alike share
    # it (the enemy's ZOC and hexes are functions of its units, sig)
    search = ("search", _cost_key(s, uid), c.side, barred, policy, start, mp,
              one_hex, u.mode == "ovr", s.sig(other(c.side)))
    shared = s._pcache.get(search)
    if shared is not None:
        s._pcache[key] = shared
        return shared  # type: ignore[no-any-return]
    blocked_key = ("move-blocked", c.side, barred)
    blocked: frozenset[str] | None = s._cache.get(blocked_key)
    if blocked is None:
        # the enemy's hexes and the countries the unit may not enter (5.2.1): one set
        # for every unit of a side and nation, tested in the kit's search loop
        blocked = s._cache[blocked_key] = s.occupied(other(c.side)) | barred
    found = reachable(
        _move_costs(s, uid), start, mp, zoc=ez, policy=policy, blocked=blocked,
        min_one_hex=one_hex)  # 5.1.3: may always move one hex
    # found.path_to of every end (a first listing writes some 650 paths a search); no
    # move ends on the ice (5.1.7)
    out = paths_to(found.prev, start, [h for h in found.ends if h not in water])
    s._pcache[key] = s._pcache[search] = out
    return out


def path_cost(s: MotherlandState, uid: str, path: tuple[str, ...], exploit: bool) -> int:
    """Validate a movement path step by step; the MP it costs (IllegalAction if not)."""
    u, c = s.u(uid), s.c(uid)
    if c.type == "railroad_gun":
        if path not in (reach(s, uid, exploit).get(path[-1]),) and not _rail_path_ok(s,
                uid, path):
            raise IllegalAction(f"{uid} moves only along connected Railroad hexes and never "
                                "into an enemy ZOC", rule="5.1.6")
        return 0
    ignore = path[0] if u.mode == "ovr" else ""
    total = 0
    if path[-1] in s.data.water:
        # Soviet infantry cross the ice in Snow (5.1.7) but stop on land; others never
        # enter a Sea or Lake hex at all (prohibited terrain, 5.1)
        ice = s.snow and soviet_infantry(s, uid)
        raise IllegalAction("a move cannot end in a Sea or Lake hex",
                            rule="5.1.7" if ice else "5.1")
    for a, b in itertools.pairwise(path):
        if b not in s.data.all_neighbors.get(a, ()):
            raise IllegalAction(f"{a} and {b} are not adjacent", rule="5.1")
        step = move_step_cost(s, uid, a, b, exploit, ignore)
        if step is None:
            raise IllegalAction(_why_not(s, uid, a, b, exploit), rule=_why_rule(s,
                uid, a, b))
        total += step
        ignore = ""
    one_hex = len(path) == 2 and u.moves == 0 and (
        u.mode == "one" or (not exploit and s.factors(uid)[2] >= 1))
    mp = u.mp if u.mode != "one" else 0
    if total > mp and not one_hex:
        raise IllegalAction(f"{uid} needs {total} MP for {' '.join(path)} but has {mp}",
                            rule="5.0")
    return min(total, mp)


def _rail_path_ok(s: MotherlandState, uid: str, path: tuple[str, ...]) -> bool:
    ez = s.zoc(other(s.c(uid).side))
    for a, b in itertools.pairwise(path):
        if b not in s.data.rail.get(a, ()) or b in ez or s.has_enemy(b, AXIS):
            return False
    return True


def _why_not(s: MotherlandState, uid: str, a: str, b: str, exploit: bool) -> str:
    c = s.c(uid)
    if s.has_enemy(b, c.side):
        return f"{b} holds enemy units; only an overrun attacks it (5.2.2)"
    if not may_enter_country(s, uid, b):
        return f"{c.name} may not enter {s.data.country_of(b).replace('_', ' ')} ({b})"
    if terrain_cost(s, uid, b) is None:
        return f"{b} is prohibited terrain for {uid}"
    if _side_cost(s, uid, a, b) is None:
        return f"the hexside {a}/{b} cannot be crossed"
    ez = s.zoc(other(c.side))
    if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
        return f"{uid} cannot enter the enemy ZOC at {b}"
    return f"{uid} cannot move from one enemy ZOC hex ({a}) directly to another ({b})"


def _why_rule(s: MotherlandState, uid: str, a: str, b: str) -> str:
    c = s.c(uid)
    if s.has_enemy(b, c.side):
        return "5.2.2"
    if not may_enter_country(s, uid, b):
        return "5.2.1"
    if b in s.data.water:
        return "5.1"  # Sea and Lake are prohibited terrain (5.1, 5.1.3)
    if terrain_cost(s, uid, b) is None:
        return "5.1.5"  # High Mountain: German Mountain units only
    if _side_cost(s, uid, a, b) is None:
        f = s.data.side_features(a, b)
        if "rail_bridge" in f:
            return "16.7"  # the Chongar bridge: Strategic Movement and supply only
        if "frozen_access" in f:
            return "5.1.7"
        if "out_of_play" in f:
            return "5.1.9"
        return "5.1"  # a Sea or Lake hexside
    ez = s.zoc(other(c.side))
    if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
        return "4.2.3"
    return "4.2"


def _step4_types(s: MotherlandState, side: str) -> tuple[str, ...]:
    """3.1 step 4 of each Movement Phase: the Axis "Move Air Base and Supply Base", the
    Soviet "Move Offensive Support units" (5.2.3: after all the other units)."""
    return ("air_base", "supply_base") if side == AXIS else ("offensive_support",)


def exploit_mp(s: MotherlandState, uid: str) -> int:
    c, u = s.c(uid), s.u(uid)
    side = c.side
    if side == AXIS and c.type in ("panzer", "ss_panzer"):
        return s.factors(uid)[2]  # 5.4.1 full Movement Factor
    if side == SOVIET and c.type == "tank":
        return s.factors(uid)[2]  # 5.4.2
    one = {AXIS: ("infantry", "mountain", "supply_base", "allied_army", "turkish"),
           SOVIET: ("combined_arms", "guards", "shock")}[side]
    if c.type in one and not s.ezoc(side, u.hex):
        u.mode = "one"
        return 0
    u.mode = "done"
    return 0


def apply_move(s: MotherlandState, a: Act, exploit: bool) -> None:
    uid, hexes = a.text("unit"), path_of(a)
    if uid not in s.pos.units or s.c(uid).side != s._side():
        raise IllegalAction(f"{uid} is not one of your units", rule="5.0")
    u = s.u(uid)
    if u.hex != hexes[0]:
        raise IllegalAction(f"{uid} is at {u.hex or 'no hex'}, not {hexes[0]}",
                            rule="5.0")
    if not _can_move(s, uid, exploit):
        why = "5.4" if exploit else "5.0"
        if turn1_frozen(s, uid):
            why = "20.1"
        elif s.pos.late:
            why = late_rule(s, s.c(uid).side)
        elif u.mode in ("strat", "sea"):
            why = "5.3"
        raise IllegalAction(f"{uid} cannot move now", rule=why)
    cost = path_cost(s, uid, hexes, exploit)
    u.hex = hexes[-1]
    u.mp = max(0, u.mp - cost) if u.mode != "one" else 0
    u.moves = 1
    if u.mode in ("ovr", "one"):
        u.mode = "" if u.mode == "ovr" else "done"
    if s.c(uid).type in ("railroad_gun",):
        u.mode = "done"
    if u.mp == 0 and u.mode == "":
        u.mode = "done"
    if not exploit:
        # 3.1: regular movement is step 3, after Strategic Movement and Sea Transport
        s.pos.regular = True
        if s.c(uid).type in _step4_types(s, s.c(uid).side):
            s.pos.late = True  # step 4 has begun
    s._touch()
    claim_path(s, uid, hexes[1:])
    s.tell(Event(f"{s.label(uid)} moves {' '.join(hexes)}", "move", hexes=tuple(hexes),
                 units=(uid,), rule="5.4" if exploit else "5.1"))


# -- the movement phase's options ------------------------------------------------------


def unit_moves(s: MotherlandState, uid: str, exploit: bool) -> list[Act]:
    """The unit's moves, one to each hex it can reach (5.1), kept while its reach is: a
    movement phase lists every unit's moves after each move, most of them unchanged."""
    reach_key = _reach_key(s, uid, exploit)
    key = ("moves", *reach_key)
    hit: list[Act] | None = s._pcache.get(key)
    if hit is None:
        hit = s._pcache[key] = _moves(MOVE, uid, reach(s, uid, exploit, reach_key))
    return hit


def _moves(form: Form, uid: str, paths: dict[str, tuple[str, ...]]) -> list[Act]:
    """``uid``'s moves along ``paths`` in the order of their ends."""
    # a campaign lists some 100,000 distinct moves: made without checking each hex
    # against its type and writing the text at once (MOVE(...) does both), which cost a
    # fifth of its self-play; the ids come from the map and the counter sheet, and the
    # contract tests parse every listed action's text back to it (pbem.testing).  A
    # Strategic Movement (5.3) has the same shape: a movement phase's first listing made
    # thousands of them, a sixth of the slowest listings' time (issue 35 item 5)
    return form.unchecked((uid, path[0], path[1:]) for _end, path in sorted(paths.items()))


def move_options(s: MotherlandState, t: MoveArgs) -> list[Action]:
    side = t.side
    exploit = t.exploit
    out: list[Action] = []
    for uid in sorted(s.on_map(side)):
        out += unit_moves(s, uid, exploit)
    out += overrun_options(s, exploit)
    if not exploit:
        for uid in sorted(s.on_map(side)):
            if strategic_ok_unit(s, uid):
                continue
            out += _moves(STRATEGIC, uid, strategic_reach(s, uid, cities=True))
        out += ship_options(s)
    out += baku_options(s, t)
    out.append(ending(DONE["exploit" if exploit else "move"]))
    return out
