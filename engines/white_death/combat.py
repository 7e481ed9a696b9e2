"""What every kind of fire shares: fire and defense values (Rules 9.C, 10.C, 12),
losses, morale checks (Rule 14) and retreats.

Antitank fire at an AFV leaving a ZOC (Rule 3.A), barrages (Rule 11.B) and the fire at an
assaulted hex (Rules 9, 10) all end here, so movement, artillery and assault build on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.position import ZERO, Q, q
from engines.white_death.supply import enemy_hexes, ezoc, isolated
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.white_death.state import WDState

#: the rule behind each cause of loss ``_lose`` is given (for the event's ``rule``)
_LOSS_RULE = {
    "barrage": "Rule 11.B.2", "conventional fire": "Rule 9", "antitank fire": "Rule 10",
    "garrison broken": "Intrinsic garrisons", "rout": "Rule 14", "no retreat route": "Rule 14.B",
    "retreat through an enemy ZOC": "Rule 14.C.1", "the ice gives way": "Rule 13",
}


def is_close(s: WDState, uid: str) -> bool:
    return "close" in s.utype(uid).flags


def fire_value(s: WDState, uid: str, kind: str, target_hex: str, attacking: bool) -> Q:
    """Rules 9.C.1 / 10.C.1: factor x remaining strength, with Rules 12.B, 15.C, 21.A."""
    t = s.utype(uid)
    u = s.pos.units[uid]
    n, d = t.cf if kind == "conv" else t.atf
    if n <= 0:
        return ZERO
    if kind == "conv" and attacking and t.cf_defensive_only:
        return ZERO
    n *= u.strength
    place = target_hex if attacking else u.loc
    if is_close(s, uid) and s.ter.is_town_or_forest(place):
        n *= 2
    if attacking and s.map.faces_toward("slope", u.loc, target_hex) == u.loc:
        n *= 2  # Rule 12.B: firing down a slope hexside
    if isolated(s, uid):
        d *= 2
    return q(n, d)


def defense(s: WDState, uid: str, against: str, at_hex: str | None = None) -> int:
    """Rule 9.C.2 / 10.C.2 / 12: defense of a unit in (or assaulting into) a hex."""
    t = s.utype(uid)
    h = s.pos.units[uid].loc
    if against == "at" or t.afv:
        d = t.defense
        if s.ter.is_town_or_forest(h) or (
                at_hex is not None and s.ter.is_town_or_forest(at_hex)):
            d -= 1  # Rule 12.C
        return max(d, 1)
    table = s.cat.tables.defense
    best = 0
    for terr in s.ter.terrain(h):
        best = max(best, table[terr][t.cls])
    if s.bunker(h) > 0 and s.side_of(uid) == "german" and at_hex is None:
        best = max(best, table["bunker"][t.cls])
    return best


def attackers(s: WDState, h: str) -> list[str]:
    return [x for x in s.pos.assaults.get(h, []) if s.on_map(x)
            and s.pos.units[x].assault == h and "no-assault" not in s.pos.units[x].marks
            and s.map.grid.adjacent(s.pos.units[x].loc, h)]


def defenders(s: WDState, h: str) -> list[str]:
    return s.units_at(h, other(s.pos.phasing))


def _lose(s: WDState, uid: str, n: int, why: str) -> None:
    """``uid`` loses ``n`` strength points (at most what it has), told where it happens:
    a loss is found deep inside a fire, a morale check or a retreat."""
    if n <= 0 or not s.on_map(uid):
        return
    u = s.pos.units[uid]
    h = u.loc
    n = min(n, u.strength)
    u.strength -= n
    s._hex_changed(h)
    side = s.side_of(uid)
    s.pos.losses[side] += n
    if u.strength <= 0 or "intrinsic" in s.utype(uid).flags:
        u.loc = "dead"
        s.pos.counts[f"elim:{h}"] = s.pos.counts.get(f"elim:{h}", 0) + 1
        s._relocated()
        s.tell(Event(f"{uid} is eliminated at {h} ({why})", "loss", hexes=(h,),
                     units=(uid,), rule=_LOSS_RULE.get(why, "Rule 14")))
        return
    s.tell(Event(f"{uid} loses {n} strength point{'s' if n > 1 else ''} at {h} ({why})",
                 "loss", hexes=(h,), units=(uid,), rule=_LOSS_RULE.get(why, "Rule 14")))


def morale_exempt(s: WDState, uid: str, stage: str) -> bool:
    """Rule 14.C.6 / 19: a bunker of 3 or more shields non-AFVs not assaulting out."""
    t = s.utype(uid)
    h = s.pos.units[uid].loc
    if t.afv or s.side_of(uid) != "german":
        return False
    return s.bunker(h) >= 3 and not (stage == "df" and s.pos.units[uid].assault)


def fright(s: WDState, uid: str, h: str) -> bool:
    """Rule 14.C.2: is this defender frightened by enemy AFVs assaulting it?"""
    if not any(s.utype(x).afv for x in attackers(s, h)):
        return False
    side = s.side_of(uid)
    if s.ter.is_town(s.pos.units[uid].loc):
        return False
    return not any(rules.fright_immune_type(s.utype(x), side)
                   for x in s.units_at(h, side))


def _morale(s: WDState, uid: str, mod: int, stage: str, h: str) -> None:
    if morale_exempt(s, uid, stage):
        return
    if stage == "assault":
        if fright(s, uid, h):
            mod += 1
        if s.pos.combat is not None:
            s.pos.combat.checked.append(uid)
    # the check comes before any die queued earlier: it follows the fire that caused it
    s.queue("mc", DieArgs(f"morale check for {uid} at {h} (+{mod})", "Rule 14", uid=uid,
                          mod=mod, stage=stage, hex=h), first=True)


def morale_modifiers(s: WDState, uid: str, base: int) -> int:
    h = s.pos.units[uid].loc
    t = s.utype(uid)
    mod = base
    if isolated(s, uid):
        mod += 1  # Rule 14.C.3 / 15.C
    if s.pos.weather == "snow" and not t.afv and not s.ter.is_town(h):
        mod += 1  # Rule 14.C.5
    mod += s.pos.counts.get(f"rout:{h}", 0)  # Rule 14.C.4
    mod += s.pos.counts.get(f"elim:{h}", 0)  # Rule 14.C.7
    return mod


def _on_mc(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    uid = job.uid
    if not s.on_map(uid):
        return []
    mod = morale_modifiers(s, uid, job.mod)
    t = s.utype(uid)
    band = rules.morale_band(roll + mod, t.morale)
    h = s.pos.units[uid].loc
    # the check was announced with the modifier of the fire alone; the hex adds its own
    # now (Rule 14.C), and the line says so rather than contradict the announcement
    extra = mod - job.mod
    why = (f" (+{job.mod} from the fire, {extra:+d} for isolation, snow, routs or "
           f"eliminations in the hex: Rule 14.C)" if extra else "")
    s.tell(Event(f"{uid} morale {t.morale}: roll {roll} + modifier {mod} = "
                 f"{roll + mod}, {band}{why}", "morale", hexes=(h,), units=(uid,),
                 rule=job.rule))
    stage = job.stage
    u = s.pos.units[uid]
    if band == "pass":
        return []
    if "intrinsic" in t.flags:  # a garrison cannot leave its town
        _lose(s, uid, u.strength, "garrison broken")
        return []
    if band == "rout":
        s.pos.counts[f"rout:{h}"] = s.pos.counts.get(f"rout:{h}", 0) + 1
        if not t.afv:
            _lose(s, uid, 1, "rout")
        if s.on_map(uid):
            _retreat(s, uid)
        if stage == "df":
            u.marks.add("no-assault")
        if stage == "move":
            u.stopped = True
        return []
    if stage == "barrage":
        u.marks.add("no-df")
    elif stage == "df":
        u.marks.add("no-assault")
    elif stage == "assault":
        _retreat(s, uid)
    elif stage == "move":
        u.stopped = True
    return []


def _fright_checks(s: WDState, h: str) -> None:
    """Rule 14.C.2: after the assault fire, the defenders frightened by the assaulting
    AFVs that no fire made check morale take their tank fright check."""
    c = s.pos.combat
    checked = set(c.checked) if c is not None else set()
    for uid in defenders(s, h):
        if uid not in checked and fright(s, uid, h) and not morale_exempt(s,
                uid, "assault"):
            s.queue("mc", DieArgs(f"tank fright check for {uid} at {h}", "Rule 14.C.2",
                                  uid=uid, mod=0, stage="assault", hex=h))


def _retreat(s: WDState, uid: str) -> None:
    """Rule 14.B/C.1: two hexes generally away from the enemy, through ZOCs at the cost
    of one strength point, farther while it would end in an enemy ZOC or overstack."""
    side = s.side_of(uid)
    u = s.pos.units[uid]
    start = u.loc
    path = retreat_path(s, uid)
    if path is None:
        s.tell(Event(f"{uid} cannot retreat from {start}", "retreat", hexes=(start,),
                     rule="Rule 14.B"))
        _lose(s, uid, u.strength, "no retreat route")
        return
    if any(x in ezoc(s, side) for x in path):
        _lose(s, uid, 1, "retreat through an enemy ZOC")
    if s.on_map(uid):
        s._put(uid, path[-1])
        u.assault = ""
        u.deployed = False
        u.stopped = True
        s.tell(Event(f"{uid} retreats {' '.join((start, *path))}", "retreat",
                     hexes=(start, *path), units=(uid,), rule="Rule 14.B"))


def retreat_path(s: WDState, uid: str) -> tuple[str, ...] | None:
    """Rule 14.B's route for ``uid`` (the hexes after its own), ``None`` if it has none.

    The hex kit's retreat search with the rule's terms: two hexes, ending two hexes
    from the unit's hex (``farther=False``: the steps themselves need not each be
    farther); where the end would be in an enemy ZOC (14.C.1) or over the stacking
    limit (Rule 4) it goes on, up to five hexes, the shortest route winning; enemy
    units and prohibited terrain are never entered. Among routes of that length: not
    through an enemy ZOC first (14.C.1 costs a strength point), then the end farthest
    from the nearest enemy unit ("generally away from enemy units"), then the lowest
    end hex and route, so both players' programs move the unit alike."""
    # the kit's retreat search loads with the first retreat looked at (a combat's
    # result), not with every command of the game (issue 35: 1.2 M instructions)
    from engines.hexkit.retreat import retreat_options

    side = s.side_of(uid)
    start = s.pos.units[uid].loc
    enemies = sorted(enemy_hexes(s, side))
    ez = ezoc(s, side)
    bad = set(enemies)
    mob = s.utype(uid).mob

    def rank(_path: tuple[str, ...], h: str) -> int | None:
        return 0 if h not in bad and s.ter.enter_cost_terrain(mob, h) is not None \
            else None

    far: dict[str, int] = {}  # routes of a retreat share their ends: each measured once
    # the enemies' cube positions once, not two id lookups per enemy per end measured
    # (the kit's cube_distance, worked out inline: a retreat's ends against a hundred
    # enemy hexes were most of a combat result's cost, issue 35)
    to_cube = s.map.grid.to_cube
    cubes = [tuple(to_cube(e)) for e in enemies]

    def away(h: str) -> int:
        got = far.get(h)
        if got is None:
            q, r, c = to_cube(h)
            got = far[h] = min(((abs(q - a) + abs(r - b) + abs(c - d)) // 2
                                for a, b, d in cubes), default=99)
        return got

    opts = retreat_options(
        s.map, start, 2, rank, farther=False, max_length=5,
        may_end=lambda h: h not in ez and s.stack_ok_with(h, uid),
        path_rank=lambda p: (int(any(x in ez for x in p)), -away(p[-1])))
    if not opts.complete:
        return None
    return min(opts.paths, key=lambda p: (p[-1], p))
