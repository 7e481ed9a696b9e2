"""Combat (8.0): declaring attacks, the combat record, odds and the die roll, results,
step losses and elimination.  Overruns (7.0) are declared in ``overrun.py`` and resolved
here through the same record; retreats and advances are in ``retreat.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engines.motherland import rules
from engines.motherland.args import (
    RetreatArgs,
    RoleArgs,
    RollArgs,
)
from engines.motherland.const import AXIS, BLOCKING_SIDES, SOVIET, other
from engines.motherland.data import ALLIED_NATIONS, CHIT_TYPES, CORPS_TYPES
from engines.motherland.notation import ATTACK, LOSE, TAKE, of_kind
from engines.motherland.position import Combat
from engines.motherland.terrain import soviet_infantry, turn1_frozen
from pbem.engine import Action, Event
from pbem.errors import IllegalAction
from pbem.grammar import Act, Frozen
from pbem.steps import Flow, Frame, Refusal

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# Attacks and the resolution of every combat, overruns included (7.0, 8.0).
#
# The arguments of the frames only these rules make are made here: a command that
# applies no combat result (a retreat's act) does not make their classes (issue 35:
# about 0.2 M instructions a dataclass).


@dataclass
class ApplySideArgs:
    """One side's combat result to apply (8.5): its role, the mandatory and further
    losses, and whether it is eliminated."""

    side: str = AXIS
    role: str = ""
    mand: int = 0
    n: int = 0
    elim: bool = False


@dataclass
class StuckArgs:
    """Units that cannot retreat and the steps they lose instead (8.5.1)."""

    units: list[str] = field(default_factory=list)
    n: int = 0


@dataclass
class TakeArgs:
    """A combat result to take (8.5): the side, the steps, the units in the hex, those
    stuck, the side's role and the result's code."""

    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    role: str = ""
    code: str = ""


@dataclass
class LoseArgs:
    """Step losses to allocate (8.5.1): the side, how many, the units, what each has lost
    so far, and why."""

    side: str = AXIS
    n: int = 0
    units: list[str] = field(default_factory=list)
    taken: dict[str, int] = field(default_factory=dict)
    why: str = "combat result (8.5)"


# A CRT result decoded (8.5): kept with the rules that apply it, not with the rule helpers
# every turn command loads (a retreat's act made its class for nothing: issue 35)


class Outcome(Frozen):
    """One CRT cell decoded: per side mandatory steps, numeric result, elimination (a
    frozen record, not a dataclass: made at every command that loads the module)."""

    __match_args__ = ("code", "att_mandatory", "def_mandatory", "att_n", "def_n",
                      "att_elim", "def_elim")
    code: str
    att_mandatory: int
    def_mandatory: int
    att_n: int
    def_n: int
    att_elim: bool
    def_elim: bool

    def __init__(self, code: str, att_mandatory: int = 0, def_mandatory: int = 0,
                 att_n: int = 0, def_n: int = 0, att_elim: bool = False,
                 def_elim: bool = False) -> None:
        super().__init__(code, att_mandatory, def_mandatory, att_n, def_n, att_elim,
                         def_elim)


def decode(code: str) -> Outcome:
    """``A1 A2 AE D1 D2 D3 DE`` and mandatory ``m/n`` (attacker/defender, 8.5)."""
    code = code.strip()
    if code == "AE":
        return Outcome(code, att_elim=True)
    if code == "DE":
        return Outcome(code, def_elim=True)
    if "/" in code:
        a, d = code.split("/")
        return Outcome(code, att_mandatory=int(a), def_mandatory=int(d))
    if code[:1] == "A" and code[1:].isdigit():
        return Outcome(code, att_n=int(code[1:]))
    if code[:1] == "D" and code[1:].isdigit():
        return Outcome(code, def_n=int(code[1:]))
    raise ValueError(f"unknown combat result {code!r}")


# ================================================================================
# combat (7.0 overrun, 8.0 combat)
# ================================================================================


def _attack_side_ok(s: MotherlandState, uid: str, a: str, b: str) -> str:
    """Why ``uid`` at ``a`` may not attack into ``b`` across their hexside ("" if it may)."""
    f = s.data.side_features(a, b)
    if "frozen_access" in f:
        if not (s.snow and soviet_infantry(s, uid)):
            return "8.3.9"  # 8.4.3: only Soviet infantry on Snow Turns
    elif f & BLOCKING_SIDES:
        return "8.3.9" if "rail_bridge" not in f else "16.7"
    if "strait" in f and s.c(uid).mech:
        return "8.4.2"
    return ""


def attack_group_ok(s: MotherlandState, units: list[str]) -> str:
    """8.3.7: allies fight beside Germans, never beside another nationality."""
    nations = {s.c(x).nation for x in units}
    allies = nations & ALLIED_NATIONS
    if len(allies) > 1 or ("turkish" in nations and len(nations) > 1):
        return "8.3.7"
    return ""


def _attackers_for(s: MotherlandState, target: str, side: str) -> list[str]:
    out = []
    for n in s.data.neighbors_of(target):
        for uid in s.units_at(n, side):
            c, u = s.c(uid), s.u(uid)
            if u.attacked or u.displaced or not c.is_combat or c.type == "fortress":
                continue
            if turn1_frozen(s, uid):
                continue
            if c.type not in CHIT_TYPES and s.factors(uid)[0] <= 0:
                continue  # 8.3.8
            if _attack_side_ok(s, uid, n, target):
                continue
            out.append(uid)
    return sorted(out)


def _rrgun_ok(s: MotherlandState, target: str) -> bool:
    gun = [x for x in s.on_map(AXIS) if s.c(x).type == "railroad_gun"]
    if not gun:
        return False
    h = s.u(gun[0]).hex
    fort = target in s.data.fortified or any(
        s.c(x).type == "fortress" for x in s.units_at(target))
    if not fort or s.data.hexmap.grid.distance(h, target) > 2:
        return False
    # 16.2.2: not from an enemy ZOC unless stacked with another friendly unit
    return not (s.ezoc(AXIS, h) and len(s.units_at(h, AXIS)) < 2)


def air_ok(s: MotherlandState, target: str, units: Iterable[str]) -> bool:
    from engines.motherland.supply import air_available, in_air_range
    return (air_available(s) > 0 and not s.snow and in_air_range(s, target)
            and all(s.german(x) for x in units))


def _attacked_before(s: MotherlandState, target: str, side: str) -> str:
    """Why ``target`` may not be attacked (again) this Combat Phase ("" if it may).

    8.3.1/8.3.4: no hex twice, and no unit twice -- a unit that was attacked and then
    retreated or advanced into another hex keeps its mark there.  A hex where fresh
    units stand beside such units may be attacked: 8.6.5 says how those fare.
    """
    if target in s.pos.hit:
        return f"{target} was already attacked this Combat Phase"
    if all(s.u(x).defended for x in s.units_at(target, other(side))):
        return (f"every unit in {target} was already attacked this Combat Phase (it "
                "retreated or advanced there)")
    return ""


def attack_options(s: MotherlandState) -> list[Action]:
    side = s._side()
    out: list[Action] = []
    for target in sorted(s.occupied(other(side))):
        if _attacked_before(s, target, side):
            continue
        units = _attackers_for(s, target, side)
        if attack_group_ok(s, units):
            units = [x for x in units if not s.is_allied(x) and
                     s.c(x).nation != "turkish"]
        if not units:
            continue
        groups = [tuple(units)]
        by_hex: dict[str, list[str]] = {}
        for x in units:
            by_hex.setdefault(s.u(x).hex, []).append(x)
        if len(by_hex) > 1:
            groups += [tuple(v) for _, v in sorted(by_hex.items())]
        for g in groups:
            out.append(ATTACK(target, g))
            if side == AXIS and air_ok(s, target, g):
                out.append(ATTACK(target, g, True, False))
            if side == AXIS and _rrgun_ok(s, target):
                out.append(ATTACK(target, g, False, True))
    return out


def apply_attack(s: MotherlandState, a: Act) -> None:
    side = s._side()
    target, units = a.text("hex"), a.words("units")
    air, rrgun = a.flag("and air"), a.flag("and railroad gun")
    if not s.has_enemy(target, side):
        raise IllegalAction(f"{target} holds no enemy unit", rule="8.0")
    again = _attacked_before(s, target, side)
    if again:
        raise IllegalAction(again, rule="8.3.1")
    if len(set(units)) != len(units):
        raise IllegalAction("a unit is named twice", rule="8.3.5")
    eligible = set(_attackers_for(s, target, side))
    for uid in units:
        if uid not in s.pos.units or s.c(uid).side != side or not s.u(uid).hex:
            raise IllegalAction(f"{uid} is not one of your units on the map", rule="8.0")
        if uid not in eligible:
            rule = "8.3.4"
            h = s.u(uid).hex
            if target not in s.data.neighbors.get(h, ()):
                rule = "8.0"
            elif s.c(uid).type == "fortress":
                rule = "8.3.6"
            elif turn1_frozen(s, uid):
                rule = "20.1"
            elif _attack_side_ok(s, uid, h, target):
                rule = _attack_side_ok(s, uid, h, target)
            elif s.c(uid).type not in CHIT_TYPES and s.factors(uid)[0] <= 0:
                rule = "8.3.8"
            raise IllegalAction(f"{uid} cannot attack {target}", rule=rule)
    why = attack_group_ok(s, list(units))
    if why:
        raise IllegalAction("allied units attack only beside German units", rule=why)
    if air and (side != AXIS or not air_ok(s, target, units)):
        raise IllegalAction("no Air Support: needs a free Air Unit, German attackers only, "
                            "a target within four hexes of an Air Base, no Snow",
                            rule="14.1")
    if rrgun and (side != AXIS or not _rrgun_ok(s, target)):
        raise IllegalAction("the Railroad Gun supports only attacks on a Fortified City or a "
                            "Fortress within two hexes", rule="16.2")
    for uid in units:
        s.u(uid).attacked = True
    s.pos.hit = sorted({*s.pos.hit, target})
    start_combat(s, "attack", target, list(units), air, rrgun)


# -- the combat record ------------------------------------------------------------------


def start_combat(s: MotherlandState, kind: str, target: str, attackers: list[str], air: bool,
                 rrgun: bool) -> None:
    side = s._side()
    defenders = sorted(s.units_at(target, other(side)))
    for uid in defenders:
        if kind == "attack" and s.u(uid).defended:
            # attacked before this phase and retreated or advanced here: it neither
            # defends nor is spared a result (8.6.5; 8.3.4 bars a second defense)
            s.u(uid).displaced = True
        s.u(uid).defended = True
    orig = {uid: s.u(uid).hex for uid in (*attackers, *defenders)}
    s.pos.combat = Combat(kind, target, side, sorted(attackers), defenders, air, rrgun,
                          dict(sorted(orig.items())))
    word = "overruns" if kind == "overrun" else "attacks"
    s.tell(Event(f"{', '.join(s.label(x) for x in sorted(attackers))} {word} "
                 f"{s.data.hex_name(target)} ({', '.join(s.label(x) for x in defenders)})",
                 "attack", hexes=(target, *sorted({orig[x] for x in attackers})),
                 units=tuple(attackers), rule="7.0" if kind == "overrun" else "8.1"))
    soviets = [x for x in (*attackers, *defenders)
               if s.c(x).side == SOVIET and s.c(x).type in CHIT_TYPES]
    # 16.5, 11.0: the chit rules load with a combat's chit draws (its combat_chits frame,
    # queued here and run next), not with every listing of a combat's retreats and
    # advances (issue 35)
    from engines.motherland.chits import UnitsArgs, generals_ready

    tasks: list[Frame] = []
    if soviets and generals_ready(s):
        tasks.append(Frame("generals", UnitsArgs(sorted(soviets))))
    tasks.append(Frame("combat_chits", UnitsArgs(sorted(soviets))))
    tasks.append(Frame("combat_resolve"))
    s.queue_frames(tasks, first=True)


def _combat_strengths(s: MotherlandState) -> tuple[int, int, list[str]]:
    """Attack and defense totals with river (8.4.1), Kerch (8.4.2) and snow (18.2.3)."""
    cb = s.fight()
    target = cb.target
    notes: list[str] = []
    att_units = [x for x in cb.attackers if s.u(x).hex]
    overrun = cb.kind == "overrun"
    # 8.6.5: units that retreated into the hex earlier this Combat Phase do not defend
    # (an overrun is no Combat Phase attack: every unit in the hex defends it)
    def_units = [x for x in cb.defenders if s.u(x).hex == target
                 and (overrun or not s.u(x).displaced)]
    axis_snow = overrun and s.snow

    def adj(uid: str, val: int, attack: bool) -> int:
        if not (axis_snow and s.c(uid).side == AXIS):
            return val
        if s.data.turns[s.turn].first_winter:
            return val // 4 if attack else val // 2
        return max(0, val - 1)

    attack = sum(adj(x, s.factors(x)[0], True) for x in att_units)
    defense = sum(adj(x, s.factors(x)[1], False) for x in def_units)
    if axis_snow:
        notes.append("Snow: Axis factors reduced in the overrun (18.2.3)")
    sides = [s.data.side_features(s.u(x).hex, target) for x in att_units]
    # 8.4.3: a Frozen Access hexside is a Minor River for the attack, so it joins the
    # other river hexsides in 8.4.1's "all units attacking across the river"
    rivers = {"minor_river", "major_river", "strait", "frozen_access"}
    if sides and all(f & rivers for f in sides):
        ice = any("frozen_access" in f for f in sides)
        if any(f & {"major_river", "strait"} for f in sides):
            defense *= 2
            notes.append("all across a Major River: defense doubled (8.4.1)")
        elif ice and all("frozen_access" in f for f in sides):
            defense += 2
            notes.append("across Frozen Access: as a Minor River (8.4.3)")
        else:
            defense += 2
            notes.append("all across a Minor River" + (" or Frozen Access (8.4.3)"
                                                      if ice else "")
                         + ": defense +2 (8.4.1)")
    return attack, defense, notes


def _terrain_shift(s: MotherlandState, target: str) -> int:
    tec = s.data.tec
    if target in s.data.fortified and "fortified_city" in tec:
        return tec["fortified_city"].shift
    if target in s.data.cities and "city" in tec:
        return tec["city"].shift
    name = s.data.hexmap.terrain.get(target, "clear")
    return (tec.get(name) or tec["clear"]).shift


def combat_resolve(s: MotherlandState) -> None:
    cb = s.fight()
    attack, defense, notes = _combat_strengths(s)
    cols = s.data.crt_columns
    shift = (2 if cb.air else 0) - _terrain_shift(s, cb.target)
    base = rules.column(attack, defense, cols, 0) if defense else None
    col = rules.column(attack, defense, cols, shift)
    cb.attack, cb.defense, cb.column, cb.shift = attack, defense, col.label, shift
    text = (f"{attack} to {defense}" + (f" ({base.label})" if base else "")
            + f", shift {shift:+d} -> {col.label}" + ("; " + "; ".join(notes) if notes else ""))
    s.tell(Event(f"Odds {text}", "attack", hexes=(cb.target,), rule="8.2"))
    if cb.kind == "overrun" and base is not None and base.below:
        # 7.1: the Air Unit is added to an overrun resolved "in the same way as a
        # regular Combat", i.e. at 1:3 or better; an automatic A2 does not use it
        note = "; the Air Unit is not used" if cb.air else ""
        cb.air = False
        s.tell(Event(f"Overrun below 1:3: automatic A2 (7.1){note}", "attack", hexes=(cb.target,),
                     rule="7.1"))
        combat_result(s, "A2")
        return
    if cb.air:
        s.pos.air.used += 1  # 14.1: flipped to its Used side
    s.queue_frames([Frame("roll-crt", RollArgs(f"CRT {col.label} against {cb.target}"))],
                   first=True)


def _die_modifiers(s: MotherlandState) -> list[tuple[int, str]]:
    cb = s.fight()
    mods: list[tuple[int, str]] = []
    if cb.side == SOVIET:
        grid = s.data.hexmap.grid
        if any(s.c(x).type == "offensive_support" and
               grid.distance(s.u(x).hex, cb.target) <= 3
               for x in s.on_map(SOVIET)):
            mods.append((3, "Offensive Support (13.0)"))
        if s.snow:
            first = s.data.turns[s.turn].first_winter
            mods.append((3 if first else 1, "Soviet winter attack (18.2.4)"))
    if cb.rrgun:
        mods.append((4, "Railroad Gun (16.2)"))
    return mods


def on_crt(s: MotherlandState, roll: int) -> None:
    mods = _die_modifiers(s)
    final = rules.final_roll(roll, [m for m, _ in mods])
    cb = s.fight()
    col = s.data.crt_columns.index(cb.column)
    code = s.data.crt_rows[final - 1][col]
    why = "".join(f" {m:+d} {w}" for m, w in mods)
    s.tell(Event(f"Die {roll}{why} = {final}: {code}", "roll", hexes=(cb.target,), rule="8.2"))
    if cb.rrgun:
        for x in s.on_map(AXIS):
            if s.c(x).type == "railroad_gun":
                unit = s.u(x)
                unit.hex = ""
                unit.box = "removed"
                s.tell(Event("The Railroad Gun is used up and removed (16.2)", rule="16.2"))
                s._touch()
    combat_result(s, code)


def combat_result(s: MotherlandState, code: str) -> None:
    cb = s.fight()
    cb.result = code
    out = decode(code)
    att, dfn = cb.side, other(cb.side)
    s.queue_frames([  # 8.1 steps 4-6: the attacker's result first
        Frame("apply_side", ApplySideArgs(att, "att", out.att_mandatory, out.att_n,
                                          out.att_elim)),
        Frame("advance_start", RoleArgs("def")),
        Frame("apply_side", ApplySideArgs(dfn, "def", out.def_mandatory, out.def_n,
                                          out.def_elim)),
        Frame("advance_start", RoleArgs("att")),
        Frame("combat_end")], first=True)


# -- results (8.5), step losses (8.5.1-8.5.3) -----------------------------------------


def apply_side(s: MotherlandState, t: ApplySideArgs) -> None:
    cb = s.fight()
    role, side = t.role, t.side
    units = s.alive_in_combat(role)
    hit = t.mand or t.n or t.elim
    if hit and cb.kind == "attack":
        for uid in [x for x in units if s.u(x).displaced]:
            eliminate(s, uid, "retreated or advanced into a hex attacked again (8.6.5)")
        units = [x for x in units if s.u(x).hex]
    if not units or not hit:
        return
    if t.elim:
        for uid in units:
            eliminate(s, uid, f"{cb.result} (8.5)")
        cb.eliminated.add(role)
        return
    tasks: list[Frame] = []
    if t.mand:
        tasks.append(Frame("lose", LoseArgs(side, t.mand, list(units), {})))
    if t.n:
        # 8.5: the stack takes the result once.  Its step losses are spread over all
        # its units (8.5.1); a unit that cannot retreat (Fortress, Economic Asset)
        # takes a step for each hex the others retreat (8.5.1 "the entire combat
        # result as step losses").  If none can retreat, all is steps.
        stuck = [x for x in units if not _can_retreat_at_all(s, x)]
        if len(stuck) == len(units):
            cb.took[role] = (t.n, t.n)
            tasks.append(Frame("lose", LoseArgs(side, t.n, list(units), {},
                                                "cannot retreat (8.5.1)")))
        else:
            tasks.append(Frame("take", TakeArgs(side, t.n, list(units), stuck, role,
                                                cb.result)))
    s.queue_frames(tasks, first=True)


def _can_retreat_at_all(s: MotherlandState, uid: str) -> bool:
    c = s.c(uid)
    if c.type == "railroad_gun":
        return True
    return c.factors[0][2] > 0 and c.type not in ("fortress", "economic")


def take_options(s: MotherlandState, t: TakeArgs) -> list[Action]:
    must = t.side == AXIS and s.snow  # 18.2.3
    return [TAKE(t.code, sl, r) for sl, r in rules.split_options(t.n, True, must)]


def take_refusal(s: MotherlandState, t: TakeArgs, action: Action) -> Refusal:
    """Why ``action`` is none of :func:`take_options` (the step refuses what they do not
    list, in these words): the result must be taken first (8.5), in one of its ways (8.5;
    18.2.3 on a Snow turn, when the Axis must retreat)."""
    if of_kind(action, "take") is None:
        return Refusal("8.5", "the result must be taken first: take ... as ...")
    rule = "18.2.3" if t.side == AXIS and s.snow else "8.5"
    return Refusal(rule, f"{action.notation()} is not a way to take {t.code}")


def apply_take(s: MotherlandState, t: TakeArgs, a: Act, flow: Flow) -> None:
    """Take the result the way ``a`` says (one of :func:`take_options`)."""
    steps, hexes = a.number("steps"), a.number("hexes")
    flow.end()
    cb = s.fight()
    cb.took[t.role] = (t.n, steps)
    s.tell(Event(f"The {t.side} player takes {t.code} as {steps} step loss(es) and "
                 f"{hexes} hex(es) of retreat", "loss", rule="8.5"))
    tasks: list[Frame] = []
    stuck = t.stuck
    if steps:
        tasks.append(Frame("lose", LoseArgs(t.side, steps, list(t.units), {})))
    if hexes:
        if stuck:
            tasks.append(Frame("stuck_steps", StuckArgs(list(stuck), hexes)))
        tasks.append(Frame("retreat", RetreatArgs(
            t.side, cb.target, t.role,
            {x: hexes for x in t.units if x not in stuck})))
    s.queue_frames(tasks, first=True)


def stuck_steps(s: MotherlandState, t: StuckArgs) -> None:
    """8.5.1: a unit that cannot retreat takes the retreat its stack makes as steps."""
    for uid in t.units:
        for _ in range(t.n):
            if s.u(uid).hex:
                lose_step(s, uid, "cannot retreat with its stack (8.5.1)")


def lose_options(s: MotherlandState, t: LoseArgs) -> list[Act]:
    alive = [x for x in t.units if s.u(x).hex]
    if not alive:
        return []
    least = min(t.taken.get(x, 0) for x in alive)
    return [LOSE(x) for x in alive if t.taken.get(x, 0) == least]  # 8.5.1


def lose_step(s: MotherlandState, uid: str, why: str) -> None:
    u, c = s.u(uid), s.c(uid)
    h = u.hex
    u.steps -= 1
    if u.steps <= 0:
        eliminate(s, uid, why)
        return
    note = ""
    if c.type in CORPS_TYPES and u.steps == 1:
        note = " and becomes a Kampfgruppe (8.5.2)"
    elif c.type == "allied_army" and u.steps == 1:
        note = " and becomes its * army (8.5.2)"
    elif c.type in CHIT_TYPES:
        note = " (chit flipped, 11.3)"
    s._touch()
    s.tell(Event(f"{uid} loses a step{note}: {why}", "loss", hexes=(h,), units=(uid,),
                 rule=s.cited(why)))


def eliminate(s: MotherlandState, uid: str, why: str) -> None:
    u, c = s.u(uid), s.c(uid)
    h = u.hex
    from engines.motherland.chits import drop_chit

    drop_chit(s, uid)
    u.hex = ""
    u.supply = ""
    u.mp = 0
    u.moves = 0
    u.mode = ""
    u.displaced = False
    u.steps = c.max_steps
    if c.type == "economic":
        u.box = "assets"
        s.pos.eliminated_assets.append(uid)
    elif c.side == SOVIET and c.type in ("combined_arms", "guards", "shock",
                                         "offensive_support"):
        u.box = "track"
        u.return_turn = s.turn + 3
        u.returning = True  # 17.1.2
    elif c.type == "tank":
        u.box = "track"
        u.return_turn = s.turn + 5
        u.returning = True  # 17.1.3
    elif c.type in ("air_base", "supply_base"):
        u.box = "track"
        u.return_turn = s.turn + 3
        u.returning = False  # 17.1.1
    elif c.type == "mech_group":
        u.box = "removed"  # 16.4
    else:
        u.box = "elim"
    s._touch()
    s.tell(Event(f"{uid} is eliminated at {h}: {why}", "loss", hexes=(h,), units=(uid,),
                 rule=s.cited(why)))


def combat_end(s: MotherlandState) -> None:
    s.pos.combat = None
    s._touch()
