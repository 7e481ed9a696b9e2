"""The movement phase (Rules 3-8, 13, 20, 21.B): moves, Brandenburg leads, deployment,
rail movement, assault declarations and bridges.

Moves are one hex at a time, so each step's ZOC effects (a stop, +1 MP to leave, antitank
fire on an AFV's exit, ski costs, Brandenburg detection, ice) happen where it is taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from engines.white_death import rules
from engines.white_death.base import DieArgs, MoveArgs, other
from engines.white_death.combat import _lose, defense, fire_value
from engines.white_death.notation import MOVE, act, fmt_amount
from engines.white_death.position import MP_TICKS, U, q, q_sum
from engines.white_death.reinforcements import entry_hexes
from engines.white_death.supply import (
    by_enemies,
    enemy_blocked,
    enemy_hexes,
    ezoc,
    has_zoc,
    pool_of,
    weapons_barred,
)
from engines.white_death.terrain import (
    city_bound,
    enter_row,
    enter_ticks,
    garrison_fixed,
    lake_roll_due,
    mps,
    prohibited_why,
    river_at,
    wrong_bank,
)
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from fractions import Fraction

    from engines.white_death.state import WDState

#: Rule 8: the networks a train runs on
RAILS = ("railroad", "rail")


class RailPart(NamedTuple):
    """A part of the railroad joined through hexes free of the enemy (Rule 8)."""

    hexes: tuple[str, ...]  # sorted
    members: frozenset[str]
    towns: tuple[str, ...]  # where weapons and AFVs may detrain
    to_edge: bool  # it reaches a friendly edge


def _movement_candidates(
        s: WDState, dests: Callable[[str], frozenset[str]] | None = None) -> list[Act]:
    """The actions a movement phase may offer; with ``dests`` (the hexes a unit may
    move into) only the moves among them, in the same order."""
    side = s.pos.phasing
    out = [act("end-movement")]
    for uid in s.side_units(side):
        out += _unit_candidates(s, uid, dests)
    out += _phase_candidates(s)
    return out


def _unit_candidates(s: WDState, uid: str,
                     dests: Callable[[str], frozenset[str]] | None = None) -> list[Act]:
    """What one unit of the phasing side may be offered in a movement phase."""
    side = s.pos.phasing
    enemy = enemy_hexes(s, side)
    u = s.pos.units[uid]
    t = s.utype(uid)
    out: list[Act] = []
    if u.entrained:
        for h in rail_destinations(s, uid):
            out.append(act("rail", uid, h))
        return out + _refill_candidates(s, uid)  # Rule 18 does not bar the train
    if dests is not None:
        out.extend(_move_actions(s, uid, dests(uid)))
    elif not u.stopped and u.assault == "" and left_ticks(s, u) > 0:
        for n in s.ter.nbrs(u.loc):
            if n not in enemy:
                out.append(act("move", uid, n, u.loc))
    if ("brandenburg" in t.flags and not u.stopped and not u.assault
            and len(s.occupied(side)[u.loc]) > 1):
        for n in s.ter.nbrs(u.loc):
            out.append(act("lead", uid, n, u.loc))
    if t.artillery and not u.deployed:
        out.append(act("deploy", uid))
    if s.ter.rail_hex(u.loc) and turn_rail_left(s, side) >= u.strength:
        out.append(act("entrain", uid))
    if not u.assault:
        for n in s.ter.nbrs(u.loc):
            if n in enemy:
                out.append(act("assault", uid, n))
    # Rule 20: offered only where the check could accept them (a bridge unit that has
    # not built, off a bridge; an engineer on one): the check still decides
    if "bridge" in t.flags and uid not in s.pos.builders and u.loc not in s.pos.bridges:
        out.append(act("build", uid))
    if "engineer" in t.flags and u.loc in s.pos.bridges:
        out.append(act("demolish", uid))
    return out + _refill_candidates(s, uid)


def _move_actions(s: WDState, uid: str, ok: frozenset[str]) -> tuple[Act, ...]:
    """A unit's moves into the hexes ``ok``, in the order of its hex's neighbours."""
    if not ok:
        return ()
    frm = s.pos.units[uid].loc
    return tuple(MOVE(uid, frm, n) for n in s.ter.nbrs(frm) if n in ok)


def _refill_candidates(s: WDState, uid: str) -> list[Act]:
    """Rule 18's replacement and repair of a unit below its strength."""
    side = s.pos.phasing
    u = s.pos.units[uid]
    t = s.utype(uid)
    out: list[Act] = []
    full = s.cat.units[uid].strength if uid in s.cat.units else 0
    if u.strength < full:
        if t.personnel and s.pos.repl[side] > 0 and s.pos.impulses[side] == 1:
            out.append(act("replace", uid))
        if t.afv and s.pos.turn >= 5 and not s.pos.repaired[side]:
            out.append(act("repair", uid))
    return out


def _phase_candidates(s: WDState) -> list[Act]:
    """Movement-phase actions of no unit on the map: entries (Rule 17), the refit."""
    side = s.pos.phasing
    out = []
    # the raster's units only are sorted (every decision asks: not all units)
    for uid in sorted(x for x, u in s.pos.units.items() if u.loc == "raster"):
        if s.side_of(uid) == side:
            for h in entry_hexes(s, uid):
                out.append(act("enter", uid, h))
    if side == "soviet" and s.pos.turn == 10:
        for div in sorted({s.udef(x).div for x in s.side_units(side)}):
            out.append(act("refit", div))
    return out


def left(s: WDState, uid: str) -> int | Fraction:
    """The MPs ``uid`` has left this impulse (:meth:`left_ticks` as MPs: a Fraction made
    only where they are not whole; the rules' checks compare ticks)."""
    return mps(left_ticks(s, s.pos.units[uid]))


def move_cost(s: WDState, uid: str, frm: str, to: str) -> int | Fraction | None:
    """Terrain cost plus Rule 3 / 6.B.1 ZOC costs, in MPs (:func:`move_ticks` as MPs)."""
    t = move_ticks(s, uid, frm, to)
    return None if t is None else mps(t)


def _movable(s: WDState, uid: str, moving: bool = True) -> U:
    s._need_phase("movement", rule="Rule 6")
    u = s._need_map(uid)
    if "intrinsic" in s.utype(uid).flags:
        raise IllegalAction("an intrinsic garrison never moves", rule="Intrinsic Garrisons")
    if moving and garrison_fixed(s, uid):
        raise IllegalAction(f"{uid} is a garrison unit and may not move on the first turn",
                            rule="Rule 22")
    return u


def _move_checks(s: WDState, a: Act, u: U, uid: str = "") -> None:
    """Rule 6.A's checks of ``a``'s step by ``u`` (``uid``: its unit, read by the caller)."""
    uid, frm, to = uid or a.text("unit"), a.text("frm"), a.text("hex")
    side = s.pos.phasing
    if u.loc != frm:
        raise IllegalAction(f"{uid} is in {u.loc}, not {frm}", rule="Rule 6.A")
    if to not in s.map or not s.map.grid.adjacent(frm, to):
        raise IllegalAction(f"{to} is not next to {frm}", rule="Rule 6.A")
    if u.entrained:
        raise IllegalAction(f"{uid} is entrained: use rail", rule="Rule 8")
    if u.stopped:
        raise IllegalAction(f"{uid} entered an enemy ZOC and may not move farther this "
                            "movement phase", rule="Rule 3")
    if u.assault:
        raise IllegalAction(f"{uid} has declared an assault on {u.assault}", rule="Rule 6.B.3")
    if s.units_at(to, other(side)):
        raise IllegalAction(f"{to} is occupied by the enemy", rule="Rule 6.A")
    if city_bound(s, uid) and to not in s.ter.vl_hexes():
        raise IllegalAction("the Velikiye Luki garrison may not leave the city until released",
                            rule="Rule 22")
    # in ticks (move_cost's MPs, in ints): checked once per move replayed, where
    # building and comparing Fractions was a tenth of the check; the message's MPs as
    # exact pairs, no Fraction made
    cost = move_ticks(s, uid, frm, to)
    if cost is None:
        rule, why = prohibited_why(s, uid, frm, to)
        raise IllegalAction(why, rule=rule)
    if cost > left_ticks(s, u):
        raise IllegalAction(f"{uid} needs {fmt_amount(q(cost, MP_TICKS))} MPs to enter "
                            f"{to} and has {fmt_amount(q(left_ticks(s, u), MP_TICKS))}",
                            rule="Rule 6.A")
    if weapons_barred(s, uid, to):
        raise IllegalAction(f"{uid} is a weapons unit and may not enter an enemy ZOC unless "
                            "a personnel or AFV unit is there", rule="Rule 3.C")
    if not s.stack_ok_with(to, uid) and not _can_pass(s, uid, frm, to, cost):
        raise IllegalAction(f"{uid} may not end its move in {to} (stacking) and could not "
                            "move on from it", rule="Rule 4")


def move_dests(s: WDState, u: U) -> frozenset[str]:
    """The hexes ``u`` may move into now: :meth:`_move_checks` for every neighbour at
    once (the legal-action list): the hexes it could enter were it alone
    (:meth:`move_reach`), less those where Rule 4's stacking or Rule 3.C's escort
    for weapons keeps it out, asked of the friendly stacks as they stand."""
    return dests_from(s, u, move_reach(s, u))


def dests_from(s: WDState, u: U, reach: tuple[tuple[str, int, bool], ...]) -> frozenset[str]:
    """The hexes of :meth:`move_reach`'s ``reach`` that ``u`` may move into as the
    friendly stacks stand (Rule 4, Rule 3.C)."""
    if not reach:
        return frozenset()
    uid = u.uid
    frm = u.loc
    stack = s._stack
    alone = (uid, ())
    out = []
    for n, cost, barred in reach:
        if barred and weapons_barred(s, uid, n):
            continue
        here = stack.get(n)  # stack_ok_with's kept answer, asked without a call
        ok = here.get(alone) if here is not None else None
        if ok is None:
            ok = s.stack_ok_with(n, uid)
        if not ok and not _can_pass(s, uid, frm, n, cost):
            continue
        out.append(n)
    return frozenset(out)


def move_reach(s: WDState, u: U) -> tuple[tuple[str, int, bool], ...]:
    """The neighbours ``u`` could move into now as far as its own state, the terrain
    and the enemy go, each with its cost in ticks and whether Rule 3.C's escort must
    be asked there (a weapons unit entering an enemy ZOC): every check of
    :meth:`_move_checks` but those reading the friendly stacks.

    The answer is kept under everything it reads: the unit's own state, the impulse,
    the weather, the release of Velikiye Luki, the position of the enemy, and the
    bridges within two hexes. A move elsewhere on the map finds it again."""
    if u.entrained or u.stopped or u.assault:
        return ()
    side = s.pos.phasing
    bridges = s.pos.bridges
    key = (u.uid, u.loc, u.spent, u.zoc_start, u.via,
           u.garrison, "left-zoc" in u.marks,
           side, s.pos.impulse_mp, s.pos.weather, s.pos.vl_released,
           by_enemies(s, "token", side, partial(_new_token, s)),
           tuple(h for h in s.ter.area2(u.loc) if h in bridges) if bridges else ())
    memo = s._static.setdefault("reach-memo", {})
    got: tuple[tuple[str, int, bool], ...] | None = memo.get(key)
    if got is None:
        if len(memo) >= 65536:
            memo.clear()  # a bound: entries are pure functions of their keys
        got = memo[key] = _move_reach(s, u)
    return got


def stacks_near(s: WDState, side: str, h: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``side``'s stacks within two hexes of ``h`` (kept by ``_put`` for the hexes
    a move does not come near)."""
    key = (side, h)
    got = s._near.get(key)
    if got is None:
        occ = s.occupied(side)
        got = s._near[key] = tuple((x, occ[x]) for x in s.ter.area2(h) if x in occ)
    return got


def near_token(s: WDState, side: str, h: str) -> int:
    """:meth:`stacks_near` as one number (equal stacks, equal numbers, while the
    catalog's table keeps them), so that a key holding it hashes an int rather than
    the stacks, once per unit per decision. Kept with the stacks by ``_put``."""
    key = (side, h)
    got = s._neartok.get(key)
    if got is None:
        near = stacks_near(s, side, h)
        tokens = s._static.setdefault("near-tokens", {})
        got = tokens.get(near)
        if got is None:
            if len(tokens) >= 65536:
                tokens.clear()  # numbers are never reused: an old key just goes stale
            got = tokens[near] = _new_token(s)
        s._neartok[key] = got
    return got


def _new_token(s: WDState) -> int:
    """A number naming one position of the enemy while the catalog's memo holds it."""
    # one counter per catalog, never reset: two positions never share a number, even
    # with states of one catalog in several threads (next() on a count is atomic)
    counter: itertools.count[int] = s._static.setdefault("tokens", itertools.count(1))
    return next(counter)


def _move_reach(s: WDState, u: U) -> tuple[tuple[str, int, bool], ...]:
    uid = u.uid
    side = s.pos.phasing
    enemy = enemy_hexes(s, side)
    left = left_ticks(s, u)
    city = city_bound(s, uid)
    vl = s.ter.vl_hexes() if city else ()
    # move_ticks and weapons_barred for every neighbour at once: the unit's entry
    # costs from its hex as one row, its Rule 3 / 3.B exit cost and the ZOCs once
    t = s.utype(uid)
    frm = u.loc
    zone = ezoc(s, side)
    extra = 0
    if frm in zone and (t.mob == "s" or (u.zoc_start and "left-zoc" not in u.marks)):
        extra = s.ter.ticks  # Rule 3.B / Rule 3 / 6.B.1, as in move_cost
    thaw = s.pos.weather == "thaw"
    out = []
    for n, c in zip(s.ter.nbrs(frm), enter_row(s, t.mob, frm), strict=True):
        if c is None or n in enemy or (city and n not in vl):
            continue
        if thaw and wrong_bank(s, uid, frm, n):
            continue  # Rule 16.B
        cost = c + extra
        if cost > left:
            continue
        out.append((n, cost, t.weapons and n in zone))
    return tuple(out)


def left_ticks(s: WDState, u: U) -> int:
    """:meth:`left` in ticks (:data:`~engines.white_death.position.MP_TICKS` an MP)."""
    return s.pos.impulse_mp * MP_TICKS - u.spent


def move_ticks(s: WDState, uid: str, frm: str, to: str) -> int | None:
    """:meth:`move_cost` in ticks: the same rules, in ints.

    Kept with the position's other answers (``s._cache``: gone after every step that
    acted and every unit that changes hex): a move's check asks it and its effect asks it
    again, with nothing changed between (issue 35: once more per move replayed)."""
    key = ("move-ticks", uid, frm, to)
    cache = s._cache
    if key in cache:
        got: int | None = cache[key]
        return got
    cost = cache[key] = _move_ticks(s, uid, frm, to)
    return cost


def _move_ticks(s: WDState, uid: str, frm: str, to: str) -> int | None:
    cost = enter_ticks(s, uid, frm, to)
    if cost is None:
        return None
    side = s.side_of(uid)
    if frm in ezoc(s, side):
        u = s.pos.units[uid]
        if s.utype(uid).mob == "s":
            cost += s.ter.ticks  # Rule 3.B, as in move_cost
        elif u.zoc_start and "left-zoc" not in u.marks:
            cost += s.ter.ticks  # Rule 3 / 6.B.1
    return cost


def _can_pass(s: WDState, uid: str, frm: str, to: str, cost: int) -> bool:
    """Rule 4: a unit may move through a full hex, though not end its move there.

    Allowed when nothing can stop it there (no enemy ZOC, no die to roll) and it can
    still move on to a hex where it may stop; it must then move on at once. ``cost``:
    the step into ``to``, in ticks.
    """
    side = s.side_of(uid)
    t = s.utype(uid)
    if to in ezoc(s, side) or (t.afv and frm in ezoc(s, side)) or lake_roll_due(s,
            uid, frm, to):
        return False
    rest = left_ticks(s, s.pos.units[uid]) - cost
    enemy = enemy_hexes(s, side)
    for n in s.ter.nbrs(to):
        if n in enemy or n == to:
            continue
        c = enter_ticks(s, uid, to, n)
        if c is None or c > rest:
            continue
        if not s.stack_ok_with(n, uid):
            continue  # it must be able to stop there
        if t.weapons and n in ezoc(s, side):
            continue
        if city_bound(s, uid) and n not in s.ter.vl_hexes():
            continue
        return True
    return False


def _finish_move_after_fire(s: WDState, m: MoveArgs) -> list[Event]:
    """Rule 3.A: the move of an AFV that drew antitank fire leaving an enemy ZOC goes
    on after the fire, unless the fire stopped or removed it."""
    uid, frm, to = m.uid, m.frm, m.to
    u = s.pos.units[uid]
    if not s.on_map(uid) or u.loc != frm or u.stopped:
        return [Event(f"{uid} ends its movement at {u.loc}", "move", units=(uid,),
                      rule="Rule 3.A")]
    if s.units_at(to, other(s.side_of(uid))) or not s.stack_ok_with(to, uid):
        return []
    return _finish_move(s, uid, frm, to, m.cost)


def _finish_move(s: WDState, uid: str, frm: str, to: str, cost: int) -> list[Event]:
    u = s.pos.units[uid]
    side = s.side_of(uid)
    t = s.utype(uid)
    if frm in ezoc(s, side):
        u.marks.add("left-zoc")
    if river_at(s, to) == "river" and river_at(s, frm) != "river":
        u.via = frm
    u.spent += cost
    u.deployed = False
    u.marks.discard("entered")
    # Rule 4 reads which units stand together: the units in ``to`` with ``uid`` are the
    # same before the move as after it, and before it the check's answer is kept (a
    # move made Rule 4's answer for its hex again, after the move dropped it)
    fits = s.stack_ok_with(to, uid)
    s._put(uid, to)
    s.pos.passing = "" if fits else uid
    # Rule 4.C: the opponent sees a counter move, not which unit it is
    events = [Event(f"{uid} moves {frm} to {to}", "move", visible_to=(side,),
                    hexes=(frm, to), units=(uid,), rule="Rule 6"),
              Event(f"a {side} unit moves {frm} to {to}", "move",
                    visible_to=(other(side),), hexes=(frm, to), rule="Rule 6")]
    if to in ezoc(s, side):
        if "brandenburg" in t.flags and side == "german":
            s.queue("brandenburg", DieArgs(f"Brandenburg detection for {uid} at {to}",
                                           "Rule 21.B", uid=uid, hex=to))
        elif t.afv:
            pass  # Rule 3.A: AFVs need not stop
        elif t.mob == "s" and to not in ezoc(s, side, ski_only=True):
            pass  # Rule 3.B
        else:
            u.stopped = True
    if lake_roll_due(s, uid, frm, to):
        s.queue("ice", DieArgs(f"ice collapse under {uid} crossing {frm}/{to}", "Rule 13",
                               uid=uid, hex=to))
    return events


def _on_ice(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    if roll == 1:
        _lose(s, job.uid, 1, "the ice gives way")
    return []


def escorts(s: WDState, leader: str) -> list[str]:
    """Rule 21.B: the units stacked with a Brandenburg unit, which move with it."""
    h = s.pos.units[leader].loc
    return [x for x in s.units_at(h, "german") if x != leader
            and "intrinsic" not in s.utype(x).flags]


def _on_brandenburg(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    if roll - job.mod <= 1:
        for x in job.group or (job.uid,):
            if s.on_map(x):
                s.pos.units[x].stopped = True
        return [Event(f"{job.uid} is found out and stops at {job.hex}", "info",
                      hexes=(job.hex,), rule="Rule 21.B")]
    return [Event(f"{job.uid} slips through", "info", visible_to=("german",),
                  rule="Rule 21.B")]


def turn_rail_left(s: WDState, side: str) -> int:
    return s.cat.rail_sp - s.pos.rail_used[side]


def rail_destinations(s: WDState, uid: str, check_only: bool = False) -> list[str]:
    key = ("rail", uid, check_only)
    if key not in s._cache:
        s._cache[key] = _rail_destinations(s, uid, check_only)
    out: list[str] = s._cache[key]
    return out


def _rail_net(s: WDState, side: str, start: str) -> RailPart:
    """Rule 8: the rail hexes joined to ``start`` through hexes free of enemy units and
    ZOCs, and whether they reach a friendly edge. Every hex of such a part of the
    network has the same answer, so it is traced once per position of the enemy."""
    parts: dict[str, RailPart] = by_enemies(s, "rail", side, dict)
    got = parts.get(start)
    if got is not None:
        return got
    # the kit's graph searches load with the first trace (issue 35: a turn that moves
    # nothing by rail reads none of them)
    from engines.hexkit.graph import region

    blocked = enemy_blocked(s, side)
    seen = tuple(region(s.map, [start], passable=lambda h: h not in blocked,
                        networks=RAILS))  # sorted
    got = RailPart(seen, frozenset(seen), tuple(h for h in seen if s.ter.is_town(h)),
                   not s.ter.edge_hexes(side).isdisjoint(seen))
    if start not in blocked:  # a start in an enemy ZOC is a part of its own
        for h in seen:
            parts[h] = got
    return got


def _rail_destinations(s: WDState, uid: str, check_only: bool = False) -> list[str]:
    side = s.side_of(uid)
    start = s.pos.units[uid].loc
    part = _rail_net(s, side, start)
    if not part.to_edge:
        return []
    if check_only:
        return [start]
    t = s.utype(uid)
    city = city_bound(s, uid)
    # Rule 8: weapons and AFVs detrain in towns
    stops = part.hexes if t.personnel else part.towns
    # Rule 4: an empty hex takes any one unit, so only the side's stacks are asked
    full = frozenset(h for h in s.occupied(side) if h in part.members
                     and not s.stack_ok_with(h, uid))
    # the list reads the part (the enemy's position and the start), the stops, the
    # full hexes and the city: kept in the catalog under them, as an entrained unit's
    # destinations are asked at every decision while the part rarely changes
    key = (by_enemies(s, "token", side, partial(_new_token, s)), start, t.personnel, full, city)
    memo = s._static.setdefault("rail-memo", {})
    got: list[str] | None = memo.get(key)
    if got is None:
        if len(memo) >= 16384:
            memo.clear()  # a bound: entries are pure functions of their keys
        got = memo[key] = [h for h in stops if h != start and h not in full
                           and (not city or h in s.ter.vl_hexes())]
    return got


    # ------------------------------------------------------------ assault declarations (Rule 6.B.3)

    # ------------------------------------------------------------------ bridges (Rule 20)

    # ------------------------------------------------------------------ end of movement


# ------------------------------------------------------------------ the actions


def check_move(s: WDState, a: Act) -> None:
    uid = a.text("unit")
    _move_checks(s, a, _movable(s, uid), uid)


def do_move(st: WDState, a: Act) -> list[Event]:
    uid, frm, to = a.text("unit"), a.text("frm"), a.text("hex")
    st.pos.units[uid]
    s = st.pos.phasing
    cost = move_ticks(st, uid, frm, to)
    assert cost is not None
    t = st.utype(uid)
    # Rule 3.A: an AFV leaving an enemy ZOC draws antitank fire first
    if t.afv and frm in ezoc(st, s):
        firers = [x for n in st.ter.nbrs(frm) for x in st.units_at(n, other(s))
                  if has_zoc(st, x) and st.utype(x).atf[0] > 0]
        value = q_sum(fire_value(st, x, "at", frm, False)
                      for x in sorted(set(firers)))
        col = rules.odds_column(st.cat.tables, value, defense(st, uid, "at"))
        if col >= 0:
            st.queue("crt", DieArgs(
                f"antitank fire at {uid} leaving {frm} "
                f"({fmt_amount(value)} at {rules.column_label(st.cat.tables, col)})",
                "Rule 3.A", kind="at", uid=uid, col=col, stage="move", hex=frm))
            st.queue("finish-move", MoveArgs(uid, frm, to, cost))
            return [Event(f"{uid} tries to leave the enemy ZOC at {frm}", "move",
                          hexes=(frm,), units=(uid,), rule="Rule 3.A")]
    return _finish_move(st, uid, frm, to, cost)


def check_lead(s: WDState, a: Act) -> None:
    u = _movable(s, a.text("unit"))
    if "brandenburg" not in s.utype(a.text("unit")).flags:
        raise IllegalAction(f"{a.text('unit')} is not a Brandenburg commando unit",
                            rule="Rule 21.B")
    group = escorts(s, a.text("unit"))
    if not group:
        raise IllegalAction(f"no unit is stacked with {a.text('unit')} to lead", rule="Rule 21.B")
    _move_checks(s, a, u)
    for x in group:
        ux = _movable(s, x)
        if ux.stopped or ux.assault or ux.entrained:
            raise IllegalAction(f"{x} may not move with {a.text('unit')} now", rule="Rule 21.B")
        cost = move_ticks(s, x, a.text("frm"), a.text("hex"))
        if cost is None or cost > left_ticks(s, ux):
            raise IllegalAction(f"{x} cannot pay to enter {a.text('hex')}", rule="Rule 21.B")
        if city_bound(s, x) and a.text("hex") not in s.ter.vl_hexes():
            raise IllegalAction("the Velikiye Luki garrison may not leave the city until "
                                "released", rule="Rule 22")
    here = [s.udef(x) for x in s.units_at(a.text("hex"), "german")]
    if not rules.stack_ok("german", [*here, *(s.udef(x) for x in [a.text("unit"), *group])]):
        raise IllegalAction(f"the stack may not enter {a.text('hex')} over the stacking limit",
                            rule="Rule 4")


def do_lead(s: WDState, a: Act) -> list[Event]:
    group = [a.text("unit"), *escorts(s, a.text("unit"))]
    in_zoc = a.text("frm") in ezoc(s, "german")
    for x in group:
        cost = move_ticks(s, x, a.text("frm"), a.text("hex"))
        assert cost is not None
        u = s.pos.units[x]
        if in_zoc:
            u.marks.add("left-zoc")
        u.spent += cost
        u.deployed = False
        s._put(x, a.text("hex"))
    lead, frm, to = a.text("unit"), a.text("frm"), a.text("hex")
    events = [Event(f"{lead} leads {len(group) - 1} units from {frm} to {to}", "move",
                    visible_to=("german",), hexes=(frm, to), units=tuple(group),
                    rule="Rule 21.B"),
              Event(f"a german stack moves {frm} to {to}", "move",
                    visible_to=("soviet",), hexes=(frm, to), rule="Rule 21.B")]
    if a.text("hex") in ezoc(s, "german"):
        n = len([x for x in group if "brandenburg" not in s.utype(x).flags])
        s.queue("brandenburg", DieArgs(f"Brandenburg detection for {a.text('unit')} and {n} "
                                       f"escorted units at {a.text('hex')} (-{n})", "Rule 21.B",
                                       uid=lead, hex=to, group=tuple(group), mod=n))
    return events


def check_deploy(s: WDState, a: Act) -> None:
    u = _movable(s, a.text("unit"), moving=False)  # deploying is not moving (Rule 22)
    if not s.utype(a.text("unit")).artillery:
        raise IllegalAction(f"{a.text('unit')} is not artillery", rule="Rule 6.B.2")
    if u.deployed:
        raise IllegalAction(f"{a.text('unit')} is already deployed", rule="Rule 6.B.2")
    if u.entrained:  # entraining undeploys; on the train it only rails (Rule 8)
        raise IllegalAction(f"{a.text('unit')} is entrained", rule="Rule 8")
    if left_ticks(s, s.pos.units[a.text("unit")]) < MP_TICKS:
        raise IllegalAction("deploying costs one movement point", rule="Rule 6.B.2")


def do_deploy(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.spent += MP_TICKS  # one MP
    u.deployed = True
    s._hex_changed(u.loc)
    return [Event(f"{a.text('unit')} deploys", "info", visible_to=(s.pos.phasing,),
                  rule="Rule 6.B.2")]


def check_entrain(s: WDState, a: Act) -> None:
    u = _movable(s, a.text("unit"))
    t = s.utype(a.text("unit"))
    if u.entrained or u.stopped or u.assault:
        raise IllegalAction(f"{a.text('unit')} may not entrain now", rule="Rule 8")
    if not s.ter.rail_hex(u.loc):
        raise IllegalAction(f"{u.loc} has no railroad", rule="Rule 8")
    if not t.personnel and not s.ter.is_town(u.loc) and "entered" not in u.marks:
        raise IllegalAction("weapons and AFV units entrain only in a town on a railroad "
                            "(except reinforcements as they enter)", rule="Rule 8")
    if left_ticks(s, s.pos.units[a.text("unit")]) < MP_TICKS:
        raise IllegalAction("entraining costs one movement point", rule="Rule 8")
    if u.strength > turn_rail_left(s, s.pos.phasing):
        raise IllegalAction(f"only {turn_rail_left(s, s.pos.phasing)} strength points of "
                            "rail movement are left this turn", rule="Rule 8")
    if u.loc in ezoc(s, s.pos.phasing):
        raise IllegalAction("rail movement may not start in an enemy ZOC", rule="Rule 8")
    if not rail_destinations(s, a.text("unit"), check_only=True):
        raise IllegalAction("the railroad cannot be traced to a friendly edge from here",
                            rule="Rule 8")
    if city_bound(s, a.text("unit")) and not rail_destinations(s, a.text("unit")):
        raise IllegalAction("the Velikiye Luki garrison may not leave the city until "
                            "released, and no other rail hex of the city can be reached",
                            rule="Rule 22")


def check_rail(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 8")
    u = s._need_map(a.text("unit"))
    if not u.entrained:
        raise IllegalAction(f"{a.text('unit')} is not entrained", rule="Rule 8")
    if a.text("hex") not in rail_destinations(s, a.text("unit")):
        raise IllegalAction(f"{a.text('unit')} cannot reach {a.text('hex')} by rail", rule="Rule 8")


def do_entrain(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.spent += MP_TICKS  # one MP
    u.entrained = True
    u.deployed = False
    s._hex_changed(u.loc)
    s.pos.rail_used[s.pos.phasing] += u.strength
    return [Event(f"{a.text('unit')} entrains at {u.loc}", "move", visible_to=(s.pos.phasing,),
                  rule="Rule 8")]


def do_rail(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    frm = u.loc
    u.entrained = False
    u.marks.discard("entered")
    s._put(a.text("unit"), a.text("hex"))
    return [Event(f"{a.text('unit')} moves by rail from {frm} to {a.text('hex')}", "move",
                  visible_to=(s.pos.phasing,), hexes=(frm, a.text("hex")), rule="Rule 8")]


def check_assault(st: WDState, a: Act) -> None:
    st._need_phase("movement", rule="Rule 5")
    u = st._need_map(a.text("unit"))
    s = st.pos.phasing
    t = st.utype(a.text("unit"))
    if u.assault:
        raise IllegalAction(f"{a.text('unit')} already assaults {u.assault}", rule="Rule 6.B.3")
    if u.entrained:
        raise IllegalAction(f"{a.text('unit')} is entrained", rule="Rule 8")
    if not st.units_at(a.text("hex"), other(s)) or not st.map.grid.adjacent(u.loc, a.text("hex")):
        raise IllegalAction(f"{a.text('hex')} is not an adjacent enemy hex", rule="Rule 6.B.3")
    if left_ticks(st, st.pos.units[a.text("unit")]) < MP_TICKS:
        raise IllegalAction("assaulting costs one movement point", rule="Rule 6.B.3")
    if not t.afv and (t.cf[0] <= 0 or t.cf_defensive_only):
        raise IllegalAction(f"{a.text('unit')} may only fire defensively", rule="Rule 9.A")
    if "no-assault" in u.marks:
        raise IllegalAction(f"{a.text('unit')} may not assault this impulse", rule="Rule 14.B.2")
    if s == "soviet" and st.pos.impulse_mp < min(3, st.pos.impulse_left_before):
        raise IllegalAction("the Soviet player must spend 3 MPs (or all remaining) in an "
                            "impulse to assault", rule="Rule 5")
    if enter_ticks(st, a.text("unit"), u.loc, a.text("hex")) is None:
        raise IllegalAction(f"{a.text('unit')} may not assault across a prohibited hexside or into "
                            "a prohibited hex", rule="Rule 12.A")
    pool = pool_of(st, a.text("unit"))
    if f"assault:{pool}" not in st.pos.paid and st.pos.supply[pool] < 1:
        raise IllegalAction(f"no supply point is left in the {pool} pool to assault",
                            rule="Rule 15.A.1")


def do_assault(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    pool = pool_of(s, a.text("unit"))
    events = []
    if f"assault:{pool}" not in s.pos.paid:
        s.pos.paid.add(f"assault:{pool}")
        s.pos.supply[pool] -= 1
        events.append(Event(f"One supply point ({pool}) is spent to assault", "info",
                            visible_to=(s.pos.phasing,), rule="Rule 15.A.1"))
    u.spent += MP_TICKS  # one MP
    u.assault = a.text("hex")
    s.pos.assaults.setdefault(a.text("hex"), []).append(a.text("unit"))
    events.append(Event(f"{a.text('unit')} will assault {a.text('hex')}", "attack",
                        hexes=(a.text("hex"),), units=(a.text("unit"),), rule="Rule 6.B.3"))
    return events


def check_build(s: WDState, a: Act) -> None:
    u = _movable(s, a.text("unit"))
    if u.entrained:  # 20.B spends a movement point; on the train it only rails (Rule 8)
        raise IllegalAction(f"{a.text('unit')} is entrained: detrain first", rule="Rule 8")
    if "bridge" not in s.utype(a.text("unit")).flags or a.text("unit") in s.pos.builders:
        raise IllegalAction(f"{a.text('unit')} cannot build a bridge (one each)", rule="Rule 20.B")
    if "river" not in s.ter.terrain(u.loc) or u.loc in s.pos.bridges:
        raise IllegalAction(f"{u.loc} is not an unbridged river hex", rule="Rule 20.B")
    if left_ticks(s, s.pos.units[a.text("unit")]) < MP_TICKS:
        raise IllegalAction("building costs one movement point", rule="Rule 20.B")


def check_demolish(s: WDState, a: Act) -> None:
    u = _movable(s, a.text("unit"))
    if u.entrained:  # 20.A spends a movement point; on the train it only rails (Rule 8)
        raise IllegalAction(f"{a.text('unit')} is entrained: detrain first", rule="Rule 8")
    if "engineer" not in s.utype(a.text("unit")).flags or u.loc not in s.pos.bridges:
        raise IllegalAction(f"{a.text('unit')} is not an engineer on a bridge", rule="Rule 20.A")
    if left_ticks(s, s.pos.units[a.text("unit")]) < MP_TICKS:
        raise IllegalAction("demolishing costs one movement point", rule="Rule 20.A")


def do_build(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.spent += MP_TICKS  # one MP
    s.pos.bridges.add(u.loc)
    s.pos.builders.add(a.text("unit"))
    return [Event(f"{a.text('unit')} builds a bridge at {u.loc}", "info", hexes=(u.loc,),
                  rule="Rule 20")]


def do_demolish(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.spent += MP_TICKS  # one MP
    s.pos.bridges.discard(u.loc)
    return [Event(f"{a.text('unit')} destroys the bridge at {u.loc}", "info", hexes=(u.loc,),
                  rule="Rule 20")]


def check_end_movement(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 5")


def do_end_movement(s: WDState, a: Act) -> list[Event]:
    s.pos.counts = {}  # Rule 14.C.4 / 14.C.7 count routs and eliminations by phase
    return [Event(f"The {s.pos.phasing} movement phase ends; "
                  f"{len(s.pos.assaults)} hexes to be assaulted", "phase", rule="Rule 5")]
