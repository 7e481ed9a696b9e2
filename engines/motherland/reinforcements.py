"""Reinforcements (17.0), the return of eliminated units (17.1), Guards and Shock
conversions (17.2) and Axis replacements and Kampfgruppen (15.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.args import RollArgs, SideArgs
from engines.motherland.chits import draw_task, drop_chit
from engines.motherland.const import AXIS, SOVIET, other
from engines.motherland.data import CORPS_TYPES
from engines.motherland.notation import COMBINE, CONVERT, REPLACE
from engines.motherland.phase_args import ReplaceArgs
from engines.motherland.supply import supply_net
from engines.motherland.terrain import may_enter_country, terrain_cost
from engines.motherland.victory import claim
from pbem.engine import Event
from pbem.grammar import Act
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Arrivals and placement of reinforcements (17.0) and rebuilding units (15.0, 17.2).


# -- reinforcements (17.0) ------------------------------------------------------------


def arrivals(s: MotherlandState, t: SideArgs) -> None:
    side = t.side
    rolls = []
    for uid in sorted(s.pos.units):
        u = s.u(uid)
        if s.c(uid).side != side or u.box != "track" or u.return_turn > s.turn:
            continue
        if u.returning and side == SOVIET:
            rolls.append(Frame("roll-returning",
                               RollArgs(f"return of {uid} (17.1.4)", unit=uid)))
        else:
            _arrive(s, uid)
    s.queue_frames(rolls, first=True)


def _arrive(s: MotherlandState, uid: str) -> None:
    c = s.c(uid)
    u = s.u(uid)
    if c.type in ("guards", "shock"):
        u.box = "conv"
        u.return_turn = 0
        u.returning = False  # 17.2
        s.tell(Event(f"{uid} enters the Conversion Holding Box (17.2)", rule="17.2"))
    elif c.type == "offensive_support" and u.returning:
        u.box = "pool"
        u.return_turn = 0
        u.returning = False
    else:
        u.box = "pool"
        u.return_turn = 0
        u.returning = False


def on_returning(s: MotherlandState, t: RollArgs, roll: int) -> None:
    uid = t.unit
    u = s.u(uid)
    if roll <= 3:
        _arrive(s, uid)
        s.tell(Event(f"{uid} returns as a reinforcement (17.1.4, rolled {roll})", rule="17.1.4"))
    elif roll <= 5:
        u.return_turn = s.turn + 1
        s.tell(Event(f"{uid} is delayed to turn {s.turn + 1} (17.1.4, rolled {roll})",
                     rule="17.1.4"))
    else:
        u.box = "removed"
        u.return_turn = 0
        s.tell(Event(f"{uid} is removed permanently (17.1.4, rolled {roll})", rule="17.1.4"))


def reinf_hexes(s: MotherlandState, uid: str) -> list[str]:
    side = s.c(uid).side
    key = ("rhex", side, s.c(uid).nation if side == AXIS else "")
    hit = s._cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    ez = s.zoc(other(side))
    rail_ok = supply_net(s, side)[2]
    cands: set[str] = set()
    if side == AXIS:
        bases = [s.u(x).hex for x in sorted(s.on_map(AXIS))
                 if s.c(x).type == "supply_base"]
        partisans = set(s.pos.partisans.values())
        for h in bases:
            if h in rail_ok and h not in partisans:  # 10.4
                cands.add(h)
                cands.update(s.data.neighbors[h])
        if not cands:  # stand-in: with no qualifying base, the supply-source hexes
            src = "source_F" if s.c(uid).nation == "finnish" else "source_W"
            cands.update(s.data.area(src))
    else:
        for h in rail_ok:  # 17.0: on or adjacent to a connected Railroad hex
            cands.add(h)
            cands.update(s.data.open_neighbors[h])
    out = sorted(h for h in cands if h not in ez and not s.has_enemy(h, side)
                 and s.pos.control.get(h) != other(side)
                 and may_enter_country(s, uid, h)
                 and terrain_cost(s, uid, h) is not None)
    s._cache[key] = out
    return out


def reinf_pool(s: MotherlandState, side: str) -> list[str]:
    return [x for x in sorted(s.pos.units) if s.c(x).side == side
            and s.u(x).box == "pool"]


def reinf_leftover(s: MotherlandState, side: str) -> None:
    for uid in reinf_pool(s, side):
        unit = s.u(uid)
        unit.box = "track"
        unit.return_turn = s.turn + 1


def place_reinforcement(s: MotherlandState, uid: str, h: str) -> None:
    mp = s.factors(uid)[2]  # as it stood before it came onto the map
    unit = s.u(uid)
    unit.hex = h
    unit.box = ""
    unit.supply = ""
    unit.mp = mp
    unit.moves = 0
    unit.mode = ""
    unit.start = h
    unit.steps = s.c(uid).max_steps
    s._touch()
    claim(s, uid, h)
    s.tell(Event(f"{uid} arrives at {s.data.hex_name(h)} (17.0)", "move", hexes=(h,), units=(uid,),
                 rule="17.0"))


# -- conversions (17.2), Kampfgruppen (15.2), replacements (15.1) ----------------------


def convert_options(s: MotherlandState) -> list[Act]:
    pool = [x for x in sorted(s.pos.units) if s.u(x).box == "conv"]
    if not pool:
        return []
    ez = s.zoc(AXIS)
    out = []
    for uid in sorted(s.on_map(SOVIET)):
        u = s.u(uid)
        if s.c(uid).type != "combined_arms" or u.supply:
            continue  # 17.2.2, 9.5.1
        if u.hex in ez and not s.mud:
            continue
        for g in pool:
            out.append(CONVERT(uid, g))
    return out


def combine_options(s: MotherlandState) -> list[Act]:
    ez = s.zoc(SOVIET)
    out = []
    units = [x for x in sorted(s.on_map(AXIS)) if s.c(x).type in CORPS_TYPES
             and s.steps_of(x) == 1 and not s.u(x).supply
             and (s.mud or s.u(x).hex not in ez)]
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            if s.u(a).hex == s.u(b).hex and s.c(a).type == s.c(b).type:
                out.append(COMBINE(a, b))
    return out


def replace_options(s: MotherlandState, t: ReplaceArgs) -> list[Act]:
    out = []
    for uid in sorted(s.on_map(AXIS)):
        c, u = s.c(uid), s.u(uid)
        if u.supply or u.steps >= c.max_steps:
            continue  # 15.1.1
        if (c.type in ("infantry", "mountain") and t.i > 0) or \
                (c.type in ("panzer", "ss_panzer") and t.p > 0) or \
                (c.nation == "finnish" and t.i > 0 and not t.fin):
            out.append(REPLACE(uid))
    return out


def replace(s: MotherlandState, t: ReplaceArgs, uid: str) -> None:
    c = s.c(uid)
    if c.type in ("panzer", "ss_panzer"):
        t.p -= 1
    else:
        t.i -= 1
        if c.nation == "finnish":
            t.fin = True
    s.u(uid).steps += 1
    s._touch()
    s.tell(Event(f"{uid} recovers a step (15.1)", rule="15.1"))


def convert(s: MotherlandState, ca: str, g: str) -> None:
    h = s.u(ca).hex
    drop_chit(s, ca)
    unit = s.u(ca)
    unit.hex = ""
    unit.box = "removed"
    unit = s.u(g)
    unit.hex = h
    unit.box = ""
    unit.steps = 2
    unit.chit = ""
    unit.supply = ""
    s._touch()
    s.tell(Event(f"{ca} becomes {g} at {h} (17.2)", "info", hexes=(h,), units=(g,), rule="17.2"))
    d = draw_task(s, g, 1, "17.2.1")
    if d:
        s.queue_frames([d], first=True)


def combine(s: MotherlandState, a: str, b: str) -> None:
    s.u(a).steps = s.c(a).max_steps
    unit = s.u(b)
    unit.hex = ""
    unit.box = "elim"
    s._touch()
    s.tell(Event(f"Kampfgruppen {a} and {b} combine into {a} (15.2)", rule="15.2"))
