"""16.0 combat: who may attack what, the attack's strength, defense and modifiers, its
result on the CRT (16.1, 16.8) and the random events (stand-in)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.backhand.data import FRONTS
from engines.backhand.fronts import ap_left, in_range, paying_front
from engines.backhand.position import OFF, PhaseArgs, other
from engines.backhand.retreat import HitArgs
from engines.hexkit.shared import fraction_type
from pbem.engine import Event

if TYPE_CHECKING:
    from fractions import Fraction

    from engines.backhand.state import BBState


# the arguments of the Combat Phase's frames (16.0) are kept with its rules, here and in
# retreat.py, not in position.py, which every command loads: a turn that fights no
# battle makes none of their classes (issue 35)
@dataclass(frozen=True)
class AttackArgs:
    """An attack being declared: the side, the segment's kind, the target hex, the
    attacking units and the chits played."""

    side: str = "soviet"
    kind: str = "sp"
    target: str = ""
    units: tuple[str, ...] = ()
    chits: tuple[str, ...] = ()


def integrity(s: BBState, uid: str) -> int:
    """16.74: +2 stacked with one other element (two for Wiking and 19th PD)."""
    t = s.data.units.get(uid)
    if t is None or not t.formation:
        return 0
    here = [u for u in s.data.formations[t.formation].members
            if u != uid and s.pos.units[u].at == s.pos.units[uid].at]
    need = 2 if len(s.data.formations[t.formation].members) == 4 else 1
    return 2 if len(here) >= need else 0


def can_attack(s: BBState, u: str, a: PhaseArgs | AttackArgs, target: str) -> bool:
    x = s.pos.units[u]
    return (able_to_attack(s, u, a) and target in s.data.nbrs[x.at]
            and s.data.map.terrain_of(target) != "swamp")  # 16.724


def able_to_attack(s: BBState, u: str, a: PhaseArgs | AttackArgs) -> bool:
    """Whether ``u`` may attack some adjacent hex: on the map, the phasing side's, not
    stationary, not yet fought, moved administratively or refitting (13.1), not moved in
    a General segment (4.2 VI.E), and not in a swamp (16.724)."""
    x = s.pos.units[u]
    if (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.fought or x.admin
            or x.refit or (a.kind == "general" and x.moved)):
        return False
    return s.data.map.terrain_of(x.at) != "swamp"


def attackers_by_target(s: BBState, a: PhaseArgs) -> dict[str, list[str]]:
    """Every enemy-occupied hex some unit can attack, with those units (by id): the units
    able to attack and their neighbors, instead of every unit against every hex."""
    enemy = s.occupied(other(a.side))
    m = s.data.map
    out: dict[str, list[str]] = {}
    for u in sorted(s.pos.units):
        if not able_to_attack(s, u, a):
            continue
        for n in s.data.nbrs[s.pos.units[u].at]:
            if n in enemy and m.terrain_of(n) != "swamp":
                out.setdefault(n, []).append(u)
    return out


def combat_figures(s: BBState, a: AttackArgs) -> tuple[Fraction, int, int, list[str]]:
    """Attack strength, defense, DRM and their reasons (16.1-16.74)."""
    m = s.data.map
    defenders = s.units_at(a.target, other(a.side))
    notes = []
    # fractions (and decimal, which it imports) load with the first attack resolved: a
    # command that resolves none does not pay 9 M instructions for them (issue 35)
    Fraction = fraction_type()
    attack = Fraction(0)
    across_river = across_stream = 0
    for u in a.units:
        h = s.pos.units[u].at
        f = Fraction(s.factors(u)[0])
        if m.has_side(h, a.target, "river"):
            f /= 2  # 16.722, bridges do not help
            across_river += 1
        if m.has_side(h, a.target, "stream"):
            across_stream += 1
        attack += f
    defense = sum(s.factors(u)[1] for u in defenders)
    drm = 0
    att_tr = max(s.utype_tr(u) + integrity(s, u) for u in a.units)
    def_tr = max(s.utype_tr(u) + integrity(s, u) for u in defenders)
    drm += att_tr - def_tr
    notes.append(f"tactical {att_tr}-{def_tr}")
    if any(integrity(s, u) for u in (*a.units, *defenders)):
        notes.append("integrity +2 16.74")
    if across_river:
        notes.append("halved across a river 16.722")
    tdrm = int(s.data.tec.value(m.terrain_of(a.target), "drm"))
    if tdrm:
        drm += tdrm
        notes.append(f"terrain {tdrm:+d}")
    if across_stream:
        st = -2 if across_stream == len(a.units) else -1  # 16.721
        drm += st
        notes.append(f"stream {st:+d} 16.721")
    hexes = sorted({s.pos.units[u].at for u in a.units
                    if not m.has_side(s.pos.units[u].at, a.target, "river")})
    concentric = (a.target not in s.data.cities and len(hexes) >= 2 and any(
        m.distance(x, y) >= 2 for x in hexes for y in hexes))  # 16.71
    if concentric:
        drm += 1
        notes.append("concentric +1 16.71")
    elif a.target in s.data.cities and len(hexes) >= 2:
        notes.append("no concentric attack into a city 16.71, 16.723")
    for i, c in enumerate(a.chits):
        if c == "-":
            continue
        side = a.side if i == 0 else other(a.side)
        v = s.data.chit_drm[side][c]
        if side == "soviet" and c in s.data.chit_front and not in_range(s, a.target):
            v = min(v, 1)  # 16.73
        drm += v
        notes.append(f"{c} {v:+d}")
    return attack, defense, drm, notes


def attack_targets(s: BBState, a: PhaseArgs) -> list[str]:
    if a.kind == "sp" and ap_left(s, a.side) <= 0:
        return []
    out = []
    near = attackers_by_target(s, a)
    for h in sorted(near):
        attackers = near[h]
        if a.kind == "sp" and a.side == "soviet" and paying_front(s,
                [s.pos.units[u].at for u in attackers]) is None:
            continue  # 16.0: a unit in range of a front whose points pay
        out.append(h)
    return out


def is_attack_target(s: BBState, a: PhaseArgs, h: str) -> bool:
    """Whether ``h`` is among :func:`attack_targets`, asked of ``h`` alone: an enemy
    hex, no swamp (16.724), next to a unit able to attack, and for a Soviet
    Schwerpunkt attack one of those in range of a front with points to pay (16.0)."""
    if a.kind == "sp" and ap_left(s, a.side) <= 0:
        return False
    m = s.data.map
    if h not in m or h not in s.occupied(other(a.side)) or m.terrain_of(h) == "swamp":
        return False
    friends = s.occupied(a.side)
    attackers = [u for n in s.data.nbrs[h] for u in friends.get(n, ())
                 if able_to_attack(s, u, a)]
    if not attackers:
        return False
    return not (a.kind == "sp" and a.side == "soviet" and paying_front(
        s, [s.pos.units[u].at for u in attackers]) is None)


def crt_result(s: BBState, a: AttackArgs, raw: int) -> tuple[HitArgs, list[Event]]:
    """The attack's result for the 2d6 roll ``raw`` (16.1: the odds column, the roll
    modified; automatic 4/0 worse than 1:2; 16.8 SNAFU on 3 and 11): the defender's hits,
    with the attacker's to take after them, and what is told."""
    attack, defense, drm, notes = combat_figures(s, a)
    col = s.data.crt.column(attack, defense)
    if col.below:
        result = "4/0"  # 16.1: worse than 1:2
        why = "worse than 1:2: automatic 4/0"
    else:
        result = str(s.data.crt.result(col, raw + drm))
        why = f"{col.label}, roll {raw}{drm:+d}"
    att_hits, _, rest = result.partition("/")
    retreat = rest.endswith("R")
    def_hits = int(rest.rstrip("R"))
    a_hits = int(att_hits)
    ev = [Event(f"{attack}:{defense} {why} ({', '.join(notes)}): {result}", "combat",
                rule="16.1", hexes=(a.target,))]
    if raw == 3:
        def_hits += 1
        ev.append(Event("SNAFU: the defender takes one more hit", "combat", rule="16.8"))
    elif raw == 11:
        a_hits += 1
        ev.append(Event("SNAFU: the attacker takes one more hit", "combat", rule="16.8"))
    hits = HitArgs(other(a.side), a.side, a.kind, a.target, def_hits, retreat, 0, False,
                   a.units, (a_hits, a.target))
    return hits, ev


def random_event(s: BBState, a: HitArgs, kind: str) -> HitArgs:
    """The Random Events Table's event ``kind`` (stand-in, on a combat roll of 2 or 12):
    a hit more or less, no advance, or the attacker's activity or C3I points changed; the
    hits to take after it."""
    hits, no_adv = a.hits, a.no_advance
    att = a.attacker
    if kind == "air":
        hits += 1
    elif kind == "reserves":
        hits = max(0, hits - 1)
    elif kind == "fuel":
        no_adv = True
    elif kind == "confusion":
        key = "german" if att == "german" else max(FRONTS, key=lambda f: s.pos.ap[f])
        s.pos.ap[key] = max(0, s.pos.ap[key] - 1)
    elif kind == "initiative":
        s.pos.ap["german" if att == "german" else "southwest"] += 1
    elif kind == "staff":
        s.pos.c3i[att] += 1
    return HitArgs(a.side, a.attacker, a.kind, a.target, hits, a.retreat, a.retreated, a.river,
                   a.units, a.then, no_adv)
