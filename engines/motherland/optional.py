"""The optional rules (21.0): the Baku raid (21.1) and the Turkish Front (21.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.args import RollArgs
from engines.motherland.const import AXIS, BAKU_ENTRY, TURKEY_ENTRY
from engines.motherland.notation import BAKU
from engines.motherland.phase_args import MoveArgs
from engines.motherland.supply import in_supply
from engines.motherland.victory import finish
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Baku (21.1) and the Turkish Front (21.2), each on only with its option.


# -- Baku (21.1) -----------------------------------------------------------------------


def baku_options(s: MotherlandState, t: MoveArgs) -> list[Act]:
    if s.options.get("baku") != "on" or s.pos.baku_done or t.side != AXIS:
        return []
    out = []
    for uid in s.units_at(BAKU_ENTRY, AXIS):
        if s.c(uid).type in ("panzer", "ss_panzer") and s.u(uid).mp >= 5 and \
                s.u(uid).mode not in ("strat", "sea", "done", "one"):
            out.append(BAKU(uid))
    return out


def apply_baku(s: MotherlandState, t: MoveArgs, a: Act) -> None:
    if a not in baku_options(s, t):
        raise IllegalAction("only a German Panzer unit in 2434 with 5 MP left may enter "
                            "Baku, once per game, with the Baku option", rule="21.1.1")
    uid = a.text("unit")
    unit = s.u(uid)
    unit.hex = ""
    unit.box = "baku"
    unit.mp = 0
    unit.mode = "done"
    s.pos.baku_done = True
    s._touch()
    s.tell(Event(f"{uid} enters the Baku box (21.1)", rule="21.1"))
    s.queue_frames([Frame("roll-baku", RollArgs("Soviet surrender at Baku: 1-4 surrenders"))],
                   first=True)


def on_baku(s: MotherlandState, roll: int) -> None:
    if roll <= 4:
        finish(s, AXIS, f"German Panzers in Baku: the Soviet Union surrenders "
                           f"(rolled {roll})", "Axis Strategic Victory")
    else:
        s.tell(Event(f"Baku: no surrender (rolled {roll}); factories will be destroyed",
                     rule="21.1.2"))
        s.queue_frames([Frame("roll-baku-factories",
                              RollArgs("factories destroyed by the Baku raid"))], first=True)


# -- the Turkish Front (21.2) ----------------------------------------------------------


def turkey(s: MotherlandState) -> None:
    if s.options.get("turkey") != "on" or s.pos.turkey:
        return
    rolls = []
    for uid in sorted(s.on_map(AXIS)):
        if not s.german(uid) or not s.c(uid).is_combat:
            continue
        h = s.u(uid).hex
        south = s.data.area("south_of_turkey_trigger_line")
        if h in south:  # 21.2.1: south of the trigger line 1632-2034
            rolls.append(Frame("roll-turkey", RollArgs(
                f"Turkish entry ({uid})", unit=uid, supplied=in_supply(s, uid))))
    s.queue_frames(rolls, first=True)


def on_turkey(s: MotherlandState, t: RollArgs, roll: int) -> None:
    if s.pos.turkey:
        return
    if roll <= (3 if t.supplied else 1):
        s.pos.turkey = True
        for uid in ("Tur1", "Tur2"):
            unit = s.u(uid)
            unit.hex = TURKEY_ENTRY
            unit.box = ""
        s._touch()
        s.tell(Event(f"Turkey enters the war (21.2, rolled {roll})", rule="21.2.1"))
