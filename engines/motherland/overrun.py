"""Overrun (7.0): which stacks may overrun which hexes, during movement and exploitation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engines.motherland import rules
from engines.motherland.combat import air_ok, attack_group_ok, start_combat
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.data import ARMOR_TYPES, CHIT_TYPES
from engines.motherland.notation import OVERRUN
from engines.motherland.stacking import over_limit
from engines.motherland.terrain import turn1_frozen
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Overruns declared during movement (7.0).


def _overrun_cost(s: MotherlandState, side: str) -> int:
    return 2 if side == SOVIET and s.snow else 3  # 7.1, 7.2.5


def late_rule(s: MotherlandState, side: str) -> str:
    """The rule that ended step 3: 5.2.3 after an Air Base or Offensive Support moved,
    3.1 (step 4) after a Supply Base did."""
    movers = {s.c(x).type for x in s.on_map(side) if s.u(x).moves}
    return "5.2.3" if movers & {"air_base", "offensive_support"} else "3.1"


def _overrun_why(s: MotherlandState, target: str, units: list[str],
                 exploit: bool) -> tuple[str, str]:
    """(rule, reason) forbidding this overrun, or ("", "")."""
    side = s._side()
    if not units:
        return "7.1", "no units"
    hexes = {s.u(x).hex for x in units}
    if len(hexes) != 1:
        return "7.1", "overrunning units must stand together in one hex"
    h = hexes.pop()
    if target not in s.data.neighbors.get(h, ()):
        return "7.1", f"{target} is not adjacent to {h}"
    if not s.has_enemy(target, side):
        return "7.1", f"{target} holds no enemy unit"
    cost = _overrun_cost(s, side)
    if s.pos.late:
        return late_rule(s, side), ("step 4 (Air Bases and Supply Bases, or "
                                       "Offensive Support) has begun: no more "
                                       "movement or overruns")
    for uid in units:
        c, u = s.c(uid), s.u(uid)
        if c.side != side:
            return "7.1", f"{uid} is not yours"
        if not c.is_combat or c.type == "fortress" or (
                c.type not in CHIT_TYPES and s.factors(uid)[0] <= 0):
            return "8.3.8", f"{uid} cannot attack"
        if u.mode in ("strat", "sea", "done", "one") or turn1_frozen(s, uid):
            return "7.1", f"{uid} cannot move now"
        if u.mp < cost:
            return "7.1", f"{uid} has {u.mp} MP, an overrun costs {cost}"
        if u.supply:
            return "7.2.1", f"{uid} is {u.supply} of supply"
        if exploit and c.type not in ARMOR_TYPES:
            return "7.2.4", "only Panzer and Tank units overrun in exploitation"
    if len({s.c(x).mech for x in units}) > 1:
        return "7.2.6", "leg and mechanized units cannot overrun together"
    if len({s.u(x).start for x in units}) > 1:
        return "7.1", "units overrun together only as a stack that began the phase in one " \
                      "hex (5.1)"
    why = attack_group_ok(s, units)
    if why:
        return why, "allied units attack only beside German units"
    f = s.data.side_features(h, target)
    if "rail_bridge" in f:
        return "16.7", f"no overrun across the Chongar rail bridge ({h}/{target})"
    if f & {"major_river", "sea", "lake", "frozen_access", "out_of_play", "strait"}:
        return "7.2", f"no overrun across the {h}/{target} hexside"
    ter = s.data.hexmap.terrain.get(target, "clear")
    if ter in ("mountain", "high_mountain") or target in s.data.cities:
        what = ter if ter in ("mountain", "high_mountain") else "city"
        return "7.2", f"no overrun into a {what} hex"
    if ter == "swamp" and not s.snow:
        return "7.2", "no overrun into a Swamp hex except on Snow Turns"
    if any(s.c(x).type == "fortress" for x in s.units_at(target)):
        return "7.2", "no overrun into a hex holding a Fortress"
    if over_limit(s, h):
        return "7.2.1", f"{h} is over the stacking limit"
    return "", ""


def _overrun_hopeless(s: MotherlandState, target: str, units: Iterable[str]) -> bool:
    """7.1: whether the odds are known to be below 1:3 (an automatic A2, which Air
    Support cannot change).  Unknown while a Soviet defender still has to draw its
    Strength Chit; the Air Unit is then kept if the draw makes the odds hopeless."""
    defenders = s.units_at(target)
    if any(s.c(x).type in CHIT_TYPES and not s.u(x).chit for x in defenders):
        return False
    attack = sum(s.factors(x)[0] for x in units)
    defense = sum(s.factors(x)[1] for x in defenders)
    h = s.u(next(iter(units))).hex
    if s.data.side_features(h, target) & {"minor_river"}:
        defense += 2  # 8.4.1 (7.2: no overrun across a Major River)
    if defense <= 0:
        return False
    return rules.column(attack, defense, s.data.crt_columns, 0).below


def overrun_options(s: MotherlandState, exploit: bool) -> list[Action]:
    side = s._side()
    out: list[Action] = []
    cost = _overrun_cost(s, side)
    by_hex: dict[str, list[str]] = {}
    for uid in sorted(s.on_map(side)):
        u, c = s.u(uid), s.c(uid)
        if u.mp >= cost and c.is_combat and u.mode not in ("strat", "sea", "done"):
            by_hex.setdefault(u.hex, []).append(uid)
    enemy = s.occupied(SOVIET if side == AXIS else AXIS)  # has_enemy, read once
    for h, units in sorted(by_hex.items()):
        keys = sorted({(s.c(x).mech, s.u(x).start) for x in units})
        for mech, start in keys:
            group = [x for x in units if s.c(x).mech == mech
                     and s.u(x).start == start]
            for target in s.data.neighbors[h]:
                if target not in enemy:
                    continue
                g = [x for x in group if not _overrun_why(s, target, [x], exploit)[0]]
                if not g or _overrun_why(s, target, g, exploit)[0]:
                    continue
                # every argument given, "and air" too: the action made before is found
                # by its values (given two, the form checks and writes it again)
                out.append(OVERRUN(target, tuple(g), False))
                if side == AXIS and air_ok(s, target, g) and \
                        not _overrun_hopeless(s, target, g):
                    out.append(OVERRUN(target, tuple(g), True))
    return out


def apply_overrun(s: MotherlandState, a: Act, exploit: bool) -> None:
    target, units, air = a.text("hex"), a.words("units"), a.flag("and air")
    for uid in units:
        if uid not in s.pos.units or not s.u(uid).hex:
            raise IllegalAction(f"{uid} is not a unit on the map", rule="7.1")
    rule, why = _overrun_why(s, target, list(units), exploit)
    if rule:
        raise IllegalAction(why, rule=rule)
    if air and not air_ok(s, target, units):
        raise IllegalAction("no Air Support available for this overrun", rule="7.2.3")
    if air and _overrun_hopeless(s, target, list(units)):
        raise IllegalAction("the odds are below 1:3, an automatic A2: Air Support cannot "
                            "change that", rule="7.1")
    cost = _overrun_cost(s, s._side())
    for uid in units:
        s.u(uid).mp -= cost
    if not exploit:
        s.pos.regular = True  # 3.1 step 3: no Strategic Movement or Sea Transport now
    start_combat(s, "overrun", target, list(units), air, False)
