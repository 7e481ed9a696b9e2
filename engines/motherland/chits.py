"""Soviet Strength Chits (11.0) and Generals (16.5): drawing, keeping and returning chits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engines.motherland.const import AXIS, SOVIET
from engines.motherland.data import CHIT_TYPES
from engines.motherland.notation import GENERAL_FOR, GENERAL_REPLACES
from pbem.engine import Event
from pbem.grammar import Act
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Strength Chit draws (11.0) and General chits (16.5).
#
# The arguments of their frames are made here, with the rules that make and read them:
# a command that never draws, keeps or assigns a chit (a retreat's act) does not make
# their classes (issue 35: about 0.2 M instructions a dataclass).


@dataclass
class UnitsArgs:
    """The units a step works through (generals, chit draws)."""

    units: list[str] = field(default_factory=list)


@dataclass
class DrawArgs:
    """A draw of strength chits for a unit: its letter, how many, and the rule that calls
    for it (11.1)."""

    unit: str = ""
    letter: str = ""
    count: int = 1
    rule: str = "11.1"


@dataclass
class KeepArgs:
    """The strength chits drawn for an army, one to keep (16.5)."""

    unit: str = ""
    drawn: list[str] = field(default_factory=list)


# -- chits in combat (11.1.1), returned to the cups (11.2) -----------------------------


def combat_chits(s: MotherlandState, t: UnitsArgs) -> None:
    tasks = []
    for uid in t.units:
        u = s.u(uid)
        if u.hex and not u.chit:
            tasks.append(draw_task(s, uid, 1, "11.1.1"))
    s.queue_frames([x for x in tasks if x], first=True)


def draw_task(s: MotherlandState, uid: str, count: int, rule: str) -> Frame | None:
    letter = s.c(uid).letter
    cup = s.pos.cups[letter]
    if not cup:
        fallback = s.data.empty_cup[letter]
        unit = s.u(uid)
        unit.chit = fallback
        unit.steps = 2
        s.tell(Event(f"Cup {letter} is empty: {uid} takes the stand-in chit {fallback}",
                     rule="11.1"))
        return None
    return Frame("draw", DrawArgs(uid, letter, min(count, len(cup)), rule))


def on_chits(s: MotherlandState, t: DrawArgs, drawn: tuple[str, ...]) -> None:
    uid = t.unit
    cup = s.pos.cups[t.letter]
    for cid in drawn:
        cup.remove(cid)
    if len(drawn) == 1:
        _give_chit(s, uid, drawn[0])
        return
    s.queue_frames([Frame("keep", KeepArgs(uid, list(drawn)))], first=True)


def keep_chit(s: MotherlandState, uid: str, cid: str, drawn: list[str]) -> None:
    """16.5: the chit kept goes to the unit, the other back (or out if starred)."""
    rest = list(drawn)
    rest.remove(cid)
    _give_chit(s, uid, cid)
    for other_cid in rest:
        chit = s.data.chits[other_cid]
        if chit.starred:
            s.pos.removed_chits = sorted([*s.pos.removed_chits, other_cid])
        else:
            s.pos.cups[chit.letter] = sorted([*s.pos.cups[chit.letter],
                                                  other_cid])


def _give_chit(s: MotherlandState, uid: str, cid: str) -> None:
    unit = s.u(uid)
    unit.chit = cid
    unit.steps = 2  # 11.3: always the full-strength side
    a, d = s.data.chits[cid].front
    s.tell(Event(f"{uid} draws Strength Chit {cid} ({a}-{d})", "info", hexes=(s.u(uid).hex,),
                 units=(uid,), rule="11.1"))
    s._touch()


def drop_chit(s: MotherlandState, uid: str) -> None:
    """Return a unit's chit to its cup, or out of the game if starred (11.2)."""
    u = s.u(uid)
    cid = u.chit
    if not cid:
        return
    u.chit = ""
    chit = s.data.chits.get(cid)
    if chit is None:
        return
    if chit.starred:
        s.pos.removed_chits = sorted([*s.pos.removed_chits, cid])
    else:
        s.pos.cups[chit.letter] = sorted([*s.pos.cups[chit.letter], cid])


# -- generals (16.5) and chits ----------------------------------------------------------


def generals_ready(s: MotherlandState) -> list[str]:
    no_turn = s.sc.rules.get("no_generals_axis_combat_turn")
    if no_turn == s.turn and s.phase() == ("combat", AXIS):
        return []  # 20.5 rule 1
    return [g for g, st in sorted(s.pos.generals.items()) if st == "ready"]


def generals_options(s: MotherlandState, t: UnitsArgs) -> list[Act]:
    out = []
    for g in generals_ready(s):
        for uid in t.units:
            if not s.u(uid).hex:
                continue
            if s.u(uid).chit:
                out.append(GENERAL_REPLACES(g, uid))
            elif s.pos.cups[s.c(uid).letter]:
                out.append(GENERAL_FOR(g, uid))
    return out


def apply_general(s: MotherlandState, t: UnitsArgs, a: Act) -> None:
    g, uid = a.text("general"), a.text("unit")
    s.pos.generals[g] = "used"
    t.units = [x for x in t.units if x != uid]
    if a.kind == "general-replaces":
        drop_chit(s, uid)
        task = draw_task(s, uid, 1, "16.5")
        s.tell(Event(f"General {g} replaces the chit of {uid} (16.5)", rule="16.5"))
    else:
        task = draw_task(s, uid, 2, "16.5")
        s.tell(Event(f"General {g} draws two chits for {uid} (16.5)", rule="16.5"))
    if task:
        s.queue_frames([task], first=True)


# -- chits in the Administrative Phase (11.1.2, 11.2.1) --------------------------------


def admin_chits(s: MotherlandState) -> None:
    axis_hexes = s.occupied(AXIS)
    need = []
    for uid in sorted(s.on_map(SOVIET)):
        if s.c(uid).type not in CHIT_TYPES:
            continue
        near = any(n in axis_hexes for n in s.data.neighbors_of(s.u(uid).hex))
        if near and not s.u(uid).chit:
            need.append(uid)  # 11.1.2
        elif not near and s.u(uid).chit:
            drop_chit(s, uid)  # 11.2.1
            s.u(uid).steps = 2
    tasks: list[Frame] = []
    if need and generals_ready(s):
        tasks.append(Frame("generals", UnitsArgs(list(need))))  # 16.5
    tasks.append(Frame("admin_draws", UnitsArgs(need)))
    s.queue_frames(tasks, first=True)


def admin_draws(s: MotherlandState, t: UnitsArgs) -> None:
    draws = [draw_task(s, uid, 1, "11.1.2") for uid in t.units
             if s.u(uid).hex and not s.u(uid).chit]
    s.queue_frames([d for d in draws if d], first=True)
