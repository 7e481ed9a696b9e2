"""Rules 17 and 18: units entering the map, the 7th Flieger Division and the Soviet
answer, replacements, AFV repair and the turn 10 tank brigade refit.

When a scheduled unit becomes ready to enter is decided as its impulse starts
(:mod:`engines.white_death.turns`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from engines.white_death.base import DieArgs, other
from engines.white_death.position import MP_TICKS, U
from engines.white_death.supply import ezoc, isolated, weapons_barred
from engines.white_death.terrain import enter_ticks
from pbem.engine import Event
from pbem.errors import IllegalAction, ScenarioError
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


def entry_hexes(s: WDState, uid: str) -> list[str]:
    key = ("entry", uid)
    if key not in s._cache:
        s._cache[key] = _entry_hexes(s, uid)
    out: list[str] = s._cache[key]
    return out


def _entry_areas(s: WDState, uid: str) -> list[str]:
    """Rule 17: the entry areas ``uid`` may come on in, open or not."""
    u = s.pos.units[uid]
    areas = [u.entry] if u.entry else []
    if u.entry == "german-south":
        areas.append("german-southwest")
    if u.entry in ("german-south", "german-southwest"):
        sched = [r.turn for r in s.pos.schedule if r.uid == uid]
        if sched and sched[0] < s.pos.turn:
            areas.append("german-west")
    return areas


def enters_at(s: WDState, uid: str, h: str) -> bool:
    """Whether ``h`` is one of :func:`entry_hexes` (Rule 17), asked of ``h`` alone: a
    turn file's entry is checked without pricing every hex of the unit's areas (the
    conditions on a hex do not depend on the area that holds it).  The same answer as
    the list's (tests/white_death/test_enter_one_hex.py)."""
    got: list[str] | None = s._cache.get(("entry", uid))
    if got is not None:
        return h in got
    for hexes in _open_entry_hexes(s, uid):
        if h in hexes:
            return _may_enter(s, uid, s.side_of(uid), h)
    return False


def _open_entry_hexes(s: WDState, uid: str) -> Iterator[tuple[str, ...]]:
    """The hexes of each entry area ``uid`` may come on in that is open (Rule 17.E), area
    by area; an area the map does not name has none."""
    for area in _entry_areas(s, uid):
        if not _entry_open(s, area):
            continue
        try:
            hexes = s.cat.resolve(area)
        except ScenarioError:
            continue
        yield hexes


def _may_enter(s: WDState, uid: str, side: str, h: str) -> bool:
    """Whether ``uid`` may come on at ``h`` of an open entry area (Rule 17): no enemy
    there, no weapons bar, the hex's entry within this impulse's MPs, stacking kept."""
    if s.units_at(h, other(side)) or weapons_barred(s, uid, h):
        return False
    c = enter_ticks(s, uid, None, h)
    return not (c is None or c > s.pos.impulse_mp * MP_TICKS
                or not s.stack_ok_with(h, uid))


def _entry_hexes(s: WDState, uid: str) -> list[str]:
    side = s.side_of(uid)
    out: list[str] = []
    for hexes in _open_entry_hexes(s, uid):
        for h in hexes:
            if h not in out and _may_enter(s, uid, side, h):
                out.append(h)
    return sorted(out)


def _entry_open(s: WDState, area: str) -> bool:
    """Rule 17.E: closed German entry zones."""
    g = s.map.grid
    r1 = g.rows[1]
    if area == "german-south":
        vl = s.ter.vl_hexes()
        if not vl:
            return True
        vrow = max(g.coords_of(h)[1] for h in vl)
        east = s.map.areas.get("east_of_lowatj")
        if east is not None:
            east_set = set(east)
            return any(s.pos.units[x].loc in east_set
                       and g.coords_of(s.pos.units[x].loc)[1] > vrow
                       for x in s.side_units("german"))
        try:
            lcol = min(g.coords_of(h)[0] for h in s.cat.resolve("Lowatj"))
        except ScenarioError:
            lcol = 0
        return any(g.coords_of(s.pos.units[x].loc)[1] > vrow
                   and g.coords_of(s.pos.units[x].loc)[0] > lcol
                   for x in s.side_units("german"))
    if area == "german-southwest":
        return any(g.coords_of(s.pos.units[x].loc)[1] > r1 - 10
                   for x in s.side_units("german"))
    return True


def _reinforce(s: WDState, units: Iterable[str], area: str) -> None:
    for uid in units:
        if uid not in s.pos.units:
            s.pos.units[uid] = U(uid, "raster", s.cat.units[uid].strength, entry=area)


def _on_flieger(s: WDState, roll: int) -> list[Event]:
    _reinforce(s, s.cat.flieger_single, s.cat.flieger_area)
    if roll == 6:
        _reinforce(s, s.cat.flieger_division, s.cat.flieger_area)
        s.pos.flieger = "answer-due"
        return [Event("The whole 7th Flieger Division is committed (Rule 17.F)", "info",
                      rule="Rule 17.F")]
    return [Event("Only the parachute battalion is committed (Rule 17.F)", "info",
                  rule="Rule 17.F")]


def _on_answer(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    if roll <= job.need:
        _reinforce(s, job.units, job.area)
        return [Event(f"Soviet reserves received: {', '.join(job.units)}", "info",
                      rule="Rule 17.F")]
    return [Event("The Soviet reserve is not released", "info", rule="Rule 17.F")]


    # ------------------------------------------------------------------ replacements (Rule 18)


# ------------------------------------------------------------------ the actions


def check_enter(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 17")
    u = s._need_unit(a.text("unit"), s.pos.phasing)
    if u.loc != "raster":
        raise IllegalAction(f"{a.text('unit')} is not waiting to enter", rule="Rule 17")
    if a.text("hex") in s.map and weapons_barred(s, a.text("unit"), a.text("hex")):
        raise IllegalAction(f"{a.text('unit')} is a weapons unit and may not enter an enemy ZOC "
                            "unless a personnel or AFV unit is there", rule="Rule 3.C")
    if not enters_at(s, a.text("unit"), a.text("hex")):
        raise IllegalAction(f"{a.text('hex')} is not in an open entry area of {a.text('unit')}",
                            rule="Rule 17")
    cost = enter_ticks(s, a.text("unit"), None, a.text("hex"))
    if cost is None or cost > s.pos.impulse_mp * MP_TICKS:
        raise IllegalAction(f"{a.text('unit')} cannot pay to enter {a.text('hex')}",
                            rule="Rule 17.C")


def do_enter(s: WDState, a: Act) -> list[Event]:
    cost = enter_ticks(s, a.text("unit"), None, a.text("hex"))
    assert cost is not None
    u = s.pos.units[a.text("unit")]
    u.spent = cost
    u.zoc_start = False
    u.marks.add("entered")
    s._put(a.text("unit"), a.text("hex"))
    if a.text("hex") in ezoc(s, s.pos.phasing) and not s.utype(a.text("unit")).afv:
        u.stopped = True
    return [Event(f"{a.text('unit')} enters the map at {a.text('hex')}", "move",
                  hexes=(a.text("hex"),), visible_to=(s.pos.phasing,), rule="Rule 17")]


def check_replace(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 18")
    u = s._need_map(a.text("unit"))
    t = s.utype(a.text("unit"))
    if s.pos.impulses[s.pos.phasing] != 1:
        raise IllegalAction("replacements are added in the player's first impulse of a turn",
                            rule="Rule 18")
    if not t.personnel or u.strength >= s.cat.units[a.text("unit")].strength:
        raise IllegalAction(f"{a.text('unit')} is not a damaged personnel unit", rule="Rule 18")
    if s.pos.repl[s.pos.phasing] < 1:
        raise IllegalAction("no replacement points left", rule="Rule 18")
    if isolated(s, a.text("unit")):
        raise IllegalAction(f"{a.text('unit')} is isolated", rule="Rule 18")
    if s.pos.vl_avoid and u.loc in s.ter.vl_hexes():
        raise IllegalAction("Velikiye Luki troops kept in supply by a supply point may not "
                            "receive replacements", rule="Rule 18")


def check_repair(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 18")
    u = s._need_map(a.text("unit"))
    if not s.utype(a.text("unit")).afv or u.strength >= s.cat.units[a.text("unit")].strength:
        raise IllegalAction(f"{a.text('unit')} is not a damaged AFV", rule="Rule 18")
    if s.pos.turn < 5 or s.pos.repaired[s.pos.phasing]:
        raise IllegalAction("one AFV strength point a turn, from turn 5", rule="Rule 18")


def check_refit(s: WDState, a: Act) -> None:
    s._need_phase("movement", rule="Rule 18")
    if s.pos.phasing != "soviet" or s.pos.turn != 10 or s.pos.impulses["soviet"] != 1:
        raise IllegalAction("the tank brigade refit is taken in the first Soviet impulse of "
                            "turn 10", rule="Rule 18")
    members = [x for x in s.side_units("soviet") if s.udef(x).div == a.text("unit")]
    brigade = all(s.utype(x).size in ("I", "II") for x in members)
    if not members or not brigade or not any(s.utype(x).afv for x in members):
        raise IllegalAction(f"{a.text('unit')} is not a brigade with tanks in play", rule="Rule 18")
    if any(s.pos.units[x].spent or s.pos.units[x].assault for x in members):
        raise IllegalAction("the brigade has already acted this turn", rule="Rule 18")
    if any(s.pos.units[x].loc == "refit" for x in s.pos.units):
        raise IllegalAction("only one tank brigade may be refitted", rule="Rule 18")


def do_replace(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.strength += 1
    s._hex_changed(u.loc)
    s.pos.repl[s.pos.phasing] -= 1
    return [Event(f"{a.text('unit')} receives a replacement point", "info",
                  visible_to=(s.pos.phasing,), rule="Rule 18")]


def do_repair(s: WDState, a: Act) -> list[Event]:
    u = s.pos.units[a.text("unit")]
    u.strength += 1
    s._hex_changed(u.loc)
    s.pos.repaired[s.pos.phasing] = True
    return [Event(f"{a.text('unit')} repairs one strength point", "info",
                  visible_to=(s.pos.phasing,),
                  rule="Rule 18")]


def do_refit(s: WDState, a: Act) -> list[Event]:
    for x in s.side_units("soviet"):
        if s.udef(x).div == a.text("unit"):
            s.pos.units[x].loc = "refit"
            s.pos.units[x].strength = s.cat.units[x].strength
            s._relocated()
    return [Event(f"Tank brigade {a.text('unit')} leaves the line to refit (Rule 18)", "info",
                  rule="Rule 18")]
