"""The Administrative Phase: its tasks in order, Soviet production and factory evacuation
(12.0) and the end-of-turn recovery (14.0, 16.3, 16.4, 16.5, 21.1.3, the 20.2 check).

The phase's other choices live with their rules: conversions, combining and replacements
in ``reinforcements.py``, Strength Chits in ``chits.py``, Turkey in ``optional.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.args import RollArgs
from engines.motherland.chits import drop_chit
from engines.motherland.const import AXIS, BAKU_ENTRY, SOVIET
from engines.motherland.phase_args import ReplaceArgs, UnitArgs
from engines.motherland.supply import rail_from, supply_blocked, supply_net
from pbem.engine import Event
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# The Administrative Phase's tasks and the Soviet economy (12.0).


# ================================================================================
# administrative phase
# ================================================================================


def admin_tasks(s: MotherlandState) -> list[Frame]:
    """3.1 G, the Administrative Phase in order (12.0)."""
    info = s.data.turns[s.turn]
    tasks = [Frame("turkey"), Frame("convert"), Frame("combine")]
    if s.mud and info.replacements != (0, 0):
        i, p = info.replacements
        tasks.append(Frame("replace", ReplaceArgs(i, p, False)))
    if info.production:
        tasks.append(Frame("roll-production", RollArgs(
            f"Soviet production (number {production_number(s)})")))
        tasks.append(Frame("evacuate"))
    tasks.append(Frame("admin_chits"))
    tasks.append(Frame("recovery"))
    return tasks


def production_number(s: MotherlandState) -> int:
    table = s.data.production
    n = len(s.pos.eliminated_assets)
    return table[min(n, len(table) - 1)]


def on_production(s: MotherlandState, roll: int) -> None:
    num = production_number(s)
    on_map = sum(1 for x in s.on_map(SOVIET) if s.c(x).type == "offensive_support")
    waiting = [x for x in sorted(s.pos.units) if s.u(x).box == "osm"]
    if roll <= num and waiting and on_map < s.data.max_os:
        s.tell(Event(f"Production succeeds (rolled {roll} against {num}): one Offensive "
                     "Support unit (12.1)", rule="12.1"))
        s.queue_frames([Frame("produce", UnitArgs(waiting[0]))], first=True)
    else:
        s.tell(Event(f"No production (rolled {roll} against {num}, 12.1)", rule="12.1"))


def produce_hexes(s: MotherlandState) -> list[str]:
    """12.1: any hex in supply and not in an enemy ZOC ("even if a friendly unit is in
    the hex" qualifies the ZOC), empty or not; not where an Offensive Support unit
    already stands, which would overstack it (6.3, 6.4)."""
    near = supply_net(s, SOVIET)[0]  # 9.6: Offensive Support has no sea supply
    ez = s.zoc(AXIS)
    occ = s.stacks()
    tec = s.data.tec

    def open_to_leg(h: str) -> bool:  # not High Mountain (5.1.5)
        ter = tec.get(s.data.hexmap.terrain.get(h, "clear"))
        return ter is None or not ter.prohibited_except

    return sorted(h for h in near if h not in ez and h in s.data.land
                  and open_to_leg(h)
                  and not any(s.c(x).type == "offensive_support"
                              for x in occ.get(h, ())))


def produce(s: MotherlandState, uid: str, h: str) -> None:
    unit = s.u(uid)
    unit.hex = h
    unit.box = ""
    unit.supply = ""
    s._touch()
    s.tell(Event(f"{uid} is produced at {h} (12.1)", "move", hexes=(h,), units=(uid,), rule="12.1"))


def evacuate(s: MotherlandState, uid: str) -> None:
    unit = s.u(uid)
    unit.hex = ""
    unit.box = "evac"
    s._touch()
    s.tell(Event(f"{uid} is evacuated (12.2)", rule="12.2"))


def evacuable(s: MotherlandState) -> list[str]:
    sources = s.data.area("source_E") | s.data.area("source_S")
    rail_ok = rail_from(s, sources, supply_blocked(s, SOVIET))
    ez = s.zoc(AXIS)
    return [x for x in sorted(s.on_map(SOVIET)) if s.c(x).asset == "factory"
            and s.u(x).hex in rail_ok and s.u(x).hex not in ez]


def recovery(s: MotherlandState) -> None:
    s.pos.air.used = 0  # 14.0
    for g in s.pos.generals:
        s.pos.generals[g] = "ready"  # 16.5
    if s.turn == 4:
        _mech_groups_go(s)
    if s.turn == 17 and s.u("Ita8").hex:
        unit = s.u("Ita8")
        unit.hex = ""
        unit.box = "removed"
        s.tell(Event("Italy surrenders: the Italian 8th Army leaves the map (16.3)", rule="16.3"))
    for uid in sorted(s.pos.units):
        if s.u(uid).box == "baku":
            unit = s.u(uid)
            unit.box = ""
            unit.hex = BAKU_ENTRY
            s.tell(Event(f"{uid} returns from Baku to {BAKU_ENTRY} (21.1.3)", rule="21.1.3"))
    s._touch()
    if s.turn in s.sc.rules.get("sudden_death_turns", []):
        cities = s.sc.rules.get("sudden_death_cities", [])
        if all(s.controls(SOVIET, h) for h in cities):
            s.queue_frames([Frame("roll-sudden-death",
                                  RollArgs("Soviet Strategic Victory check: 1-2 wins"))],
                           first=True)


def _mech_groups_go(s: MotherlandState) -> None:
    """16.4: at the end of turn 4 Mechanized Groups give way to eliminated armies."""
    for mg in sorted(x for x in s.on_map(SOVIET) if s.c(x).type == "mech_group"):
        h = s.u(mg).hex
        drop_chit(s, mg)
        unit = s.u(mg)
        unit.hex = ""
        unit.box = "removed"
        for due in (7, 6, 5):
            cands = [x for x in sorted(s.pos.units) if s.u(x).box == "track"
                     and s.u(x).return_turn == due and s.c(x).type == "combined_arms"]
            if cands:
                unit = s.u(cands[0])
                unit.hex = h
                unit.box = ""
                unit.return_turn = 0
                unit.returning = False
                unit.steps = 2
                s.tell(Event(f"{mg} is replaced by {cands[0]} at {h} (16.4)", rule="16.4"))
                break
        else:
            s.tell(Event(f"{mg} is removed (16.4)", rule="16.4"))
    s._touch()
