"""48th Panzer Korps: set-up and reinforcements (9): the German defaults, the
Soviet plan's commitments (9.1) and their reveal.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from engines.panzer48.data import data, other
from engines.panzer48.zoc import zoc
from pbem.engine import Commitment, Event
from pbem.sha import sha256

if TYPE_CHECKING:
    from engines.hexkit.facts import BoardFacts
    from engines.panzer48.state import P48State
    from pbem.grammar import Act


#: the salt used when a plan is applied directly to a state, with no session (tests, bots
#: playing on one state): it is public, so such a plan is not secret; a session always
#: commits with the salt from the side's own secret (State.conceal)
@lru_cache(maxsize=64)
def open_salt(formation: str) -> bytes:
    return sha256(b"pbem/48th-panzer-korps/open-salt\0" + formation.encode()).digest()


def plan_value(formation: str, area: str) -> list[str]:
    return [formation, area]


# kept: the Soviet side's screens find its secret plan again by trying every scheduled
# area of each formation (State.private_notes, 9.1), two digests an area at every view
# of a board click's redraw (a third of 48th Panzer Korps' redraw, issue 35 item 4)
@lru_cache(maxsize=1024)
def digest_of(formation: str, area: str, salt: bytes) -> str:
    return Commitment.make("soviet", formation, plan_value(formation, area), salt).hex()


def plan_formations(s: P48State) -> list[str]:
    """9.1: the formations to plan (those that can arrive before the scenario ends)."""
    return sorted(f.id for f in s.d.formations.values()
                  if f.schedule and min(t for _, t in f.schedule) <= s.pos.last_turn)


def reveal(s: P48State, action: Act) -> None:
    """9.1: the area revealed on the planned turn (``reveal F``, or ``open F AREA SALT``
    as a session writes it), checked against the commitment."""
    f = action.text("force")
    com = Commitment("soviet", f, bytes.fromhex(s.pos.plan_digests[f]))
    if action.kind == "open":
        text = action.text("salt")
        area, salt = action.text("area"), bytes.fromhex(text) if _is_hex(text) else b""
        com.check(plan_value(f, area), salt, rule="9.1")
    else:
        found = [a for a, _ in s.d.formations[f].schedule
                 if digest_of(f, a, open_salt(f)) == s.pos.plan_digests[f]]
        if not found:
            com.check(plan_value(f, "?"), open_salt(f), rule="9.1")
        area = found[0]
    if area not in dict(s.d.formations[f].schedule):
        from pbem.errors import IllegalAction
        raise IllegalAction(f"{area} is not on the schedule for {f}", rule="9.1")
    s.pos.plan_areas[f] = area
    for u, x in s.pos.units.items():
        if s.d.units[u].formation == f and x.where == "setup":
            x.where = "due"
    s.tell(Event(f"the {s.d.formations[f].name} enters at area {area} (revealed, matches "
                 "the commitment)", "reveal", rule="9.1"))


def place_defaults(s: P48State, side: str) -> None:
    """9: each unit's scenario hex: the 7th Luftwaffe and 26th Tank group in their hexes,
    personnel on the starting front nearest their area, others nearest their area."""
    d = s.d
    # the hexes in the order tried, nearest the area first, are the same for every unit
    # of a formation and target type: ordered once for them (the distances from every
    # front hex again for each unit cost the first-day audit, which starts a game, 14 M
    # instructions: issue 35)
    ordered: dict[tuple[str, bool], list[str]] = {}
    # the enemy's ZOC (5) is its own units', which this places none of, and the side's
    # stacks (6) are those on the map with each unit this places added: worked out once
    # here, not as the board facts made again after every unit placed (issue 35)
    ez = zoc(s, other(side))
    size = {h: sum(d.units[v].size for v in us) for h, us in s.facts().stacks(side).items()}
    room = d.stack_limit[side]
    for u, info in d.units.items():
        x = s.pos.units[u]
        if info.side != side or x.where != "unplaced":
            continue
        x.where = "map"
        f = d.formations[info.formation]
        if f.hexes or f.assigned:
            pool = list(f.hexes or f.assigned)
            members = d.members[f.id]
            x.hex = pool[members.index(u) % len(pool)]
            size[x.hex] = size.get(x.hex, 0) + info.size
            continue
        cands = ordered.get((f.area, info.target == "P"))
        if cands is None:
            if info.target == "P":
                cands = list(d.areas["front_german" if side == "german" else "front_soviet"])
            else:
                cands = [h for h in _near_area(f.area, side)
                         if h not in d.areas["front_german"]
                         and h not in d.areas["front_soviet"]]
            cands = d.map.grid.nearest_first(f.area, cands)
            ordered[f.area, info.target == "P"] = cands
        for h in cands:
            # fits(s, h, side, [u]): the side's units there and this one
            if size.get(h, 0) + info.size <= room and not (info.target == "W" and h in ez):
                x.hex = h
                size[h] = size.get(h, 0) + info.size
                break


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(ch in "0123456789abcdef" for ch in text)


def check_release(s: P48State, moved: Iterable[str] = ()) -> None:
    """9: the 7th Luftwaffe Field Division is released on turn 7 or "whenever a
    Soviet unit moves within two hexes" of any of its units: ``moved`` are the units
    that just entered a hex; a Soviet unit standing that near releases nothing."""
    if s.pos.released:
        return
    # the division's units looked up only when a Soviet unit moved: this runs after
    # every step of every move, most of them German or far from it (issue 35)
    d, units = s.d, s.pos.units
    soviet = []
    for m in moved:  # a loop, not a comprehension: every step of every move comes here
        if d.units[m].side == "soviet" and units[m].where == "map":
            soviet.append(m)
    near = False
    if soviet:  # loops too, each unit read once: every Soviet step comes here
        lw = []
        for u in d.members.get("7lw", ()):
            x = units[u]
            if x.where == "map" and x.hex:
                lw.append(x.hex)
        if lw:
            within = _near_division(tuple(lw))
            for m in soviet:
                if units[m].hex in within:
                    near = True
                    break
    if s.pos.turn >= 7 or near:
        s.pos.released = True
        s.tell(Event("the 7th Luftwaffe Field Division is released", "info", rule="9"))


@lru_cache(maxsize=16)
def _near_division(hexes: tuple[str, ...]) -> frozenset[str]:
    """9: the hexes of the map's grid within two of any of ``hexes``, the 7th
    Luftwaffe's units': found once for where the division stands (its units do not
    move until it is released, 4), not as the distances from each of them at every
    step of every Soviet move."""
    within = data().map.grid.within
    return frozenset(n for h in hexes for n in within(h, 2))


def areas_to_reveal(s: P48State) -> list[str]:
    """9.1: the Soviet formations whose planned turn this is and whose area is still
    secret: each is revealed before anything moves."""
    if s.pos.phasing != "soviet":
        return []
    return [f for f, t in sorted(s.pos.plan_turns.items())
            if t == s.pos.turn and f not in s.pos.plan_areas]


def setup_hexes(s: P48State, u: str) -> list[str]:
    """9: the hexes where ``u`` may be placed: its formation's hexes, the front
    line (personnel) or within 3 hexes of its area on its side, where it fits (6),
    never a weapon in an enemy ZOC."""
    cands = _setup_candidates(s, u)
    if not cands:
        return []
    enemy_zoc, facts = zoc(s, other(s.d.units[u].side)), s.facts()
    return _where_set_up(s, u, sorted(cands), enemy_zoc, facts)


def may_set_up(s: P48State, u: str, h: str) -> bool:
    """9: ``h`` is one of :func:`setup_hexes` of ``u``, asked of that hex alone (a
    received file's every placement is checked: listing each unit's hexes cost most of
    a set-up's replay, issue 35)."""
    return h in _setup_candidates(s, u) and bool(_where_set_up(
        s, u, [h], zoc(s, other(s.d.units[u].side)), s.facts()))


def _setup_candidates(s: P48State, u: str) -> list[str]:
    # 9: where the unit's set-up rule lets it go, before stacking (6) and ZOC (5)
    info, d = s.d.units[u], s.d
    f = d.formations[info.formation]
    if f.hexes:
        return list(f.hexes)
    if f.assigned:
        return []  # 9: the 26th Tank group sets up directly in its hexes
    if info.target == "P":
        return sorted(d.areas["front_german" if info.side == "german" else "front_soviet"])
    return list(_near_area(f.area, info.side))


@lru_cache(maxsize=64)
def _near_area(area: str, side: str) -> tuple[str, ...]:
    """9: the map's hexes within 3 of ``area`` on ``side``'s half, in id order: found
    once for each formation's area, not for each unit set up there and each of a set-up
    file's placements checked (the Soviet set-up of the first-day audit asks them 22
    times)."""
    d = data()
    return tuple(h for h in d.map.within(area, 3) if d.side_of_hex(h) == side)


def _where_set_up(s: P48State, u: str, hexes: Iterable[str], enemy_zoc: Container[str],
                facts: BoardFacts) -> list[str]:
    """Those of ``hexes`` (in their order) where ``u`` may set up: not its own hex, within
    the stacking limit (6), and a weapon never in an enemy ZOC (9)."""
    d = s.d
    info, units = d.units[u], d.units
    own, side, weapon = s.pos.units[u].hex, info.side, info.target == "W"
    # 6: fits(s, h, side, [u], facts), summed without sets: u stands in no hex but its
    # own, so it is none of the units there (a set-up lists every hex of every unit)
    room = d.stack_limit[side] - info.size
    return [h for h in hexes if h != own
            and sum(units[v].size for v in facts.at(h, side)) <= room
            and not (weapon and h in enemy_zoc)]
