"""Rule 11.B: barrages, with observation and line of sight (11.B.3) and their supply
cost (15.A.2-3).

Artillery support in an assault (11.A) belongs to that combat and is in
:mod:`engines.white_death.assault`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.combat import _lose, _morale
from engines.white_death.notation import act, fmt_amount
from engines.white_death.position import ZERO, Barrage, PhaseLoss, q, q_add
from engines.white_death.supply import art_supplied, enemy_hexes, pool_of
from engines.white_death.terrain import SIGHT_MAX
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


def _barrage_candidates(s: WDState) -> list[Act]:
    out = [act("end-barrage")]
    if _assigned(s):
        out.append(act("fire-barrage"))
        out.append(act("fire-barrage-half"))
    for uid in s.side_units(s.pos.phasing):
        t = s.utype(uid)
        if t.barrage <= 0 or not s.pos.units[uid].deployed:
            continue
        for h in sorted(enemy_hexes(s, s.pos.phasing)):
            if s.map.distance(h, s.pos.units[uid].loc) <= t.range:
                out.append(act("barrage", uid, h))
    return out


def _assigned(s: WDState) -> list[str]:
    """The artillery assigned to the barrage not yet fired (Rule 11.B)."""
    return s.pos.bar.units if s.pos.bar is not None else []


def _rocket_choice(s: WDState) -> bool:
    """Rule 15.A.3: the German chooses between 3 points (rockets at full) and 2 (rockets
    at half) when rockets are in the barrage and the third point is not yet spent."""
    arts = _assigned(s)
    if s.pos.phasing != "german" or not arts:
        return False
    pool = pool_of(s, arts[0])
    return (any("rocket" in s.utype(x).flags for x in arts)
            and f"rocket:{pool}" not in s.pos.paid)


def _on_barrage(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    n = rules.barrage_result(s.cat.tables, job.col, roll + job.mod)
    uid = job.uid
    if uid.startswith("bunker:"):
        i = int(uid.split(":")[1])
        bunker = s.pos.bunkers[i]
        bunker.strength = max(0, bunker.strength - n)
        return [Event(f"The bunker at {job.hex} loses {n} (now {bunker.strength})",
                      "loss", hexes=(job.hex,), rule="Rule 19")] if n else []
    bar = s.pos.bar
    assert bar is not None  # the barrage fired is resolved before anything clears it
    bar.loss[uid] = bar.loss.get(uid, 0) + n
    return []


def _barrage_done(s: WDState) -> list[Event]:
    """Rule 11.B.2.B: losses are taken at once, capped at half the unit's strength in
    the phase; the one morale check on the phase's total waits for the phase's end."""
    loss = s.pos.bar.loss if s.pos.bar is not None else {}
    for uid in sorted(loss):
        n = loss[uid]
        if n <= 0 or not s.on_map(uid):
            continue
        got = s.pos.barrage_phase.get(uid)
        start, before = (got.start, got.lost) if got else (s.pos.units[uid].strength, 0)
        lost = rules.conventional_loss(before + n, start) - before
        s.pos.barrage_phase[uid] = PhaseLoss(start, before + lost)
        _lose(s, uid, lost, "barrage")
    s.pos.bar = None
    return []


def _barrage_morale(s: WDState) -> None:
    """The end of the barrage phase (whether or not it was played)."""
    s.pos.bar = None
    checks = [(uid, p.lost) for uid, p in sorted(s.pos.barrage_phase.items())
              if p.lost > 0 and s.on_map(uid)]
    s.pos.barrage_phase = {}
    # Rule 11.B.2.B: "If several attacks are run on a unit, only one morale check is
    # made with the total loss result serving as the modifier"; each goes before the
    # ones queued earlier, so in reverse they are rolled in unit order
    for uid, lost in reversed(checks):
        _morale(s, uid, lost, "barrage", s.pos.units[uid].loc)


def barrage_phase_due(s: WDState) -> bool:
    """Rule 11.B: the barrage phase is played when the phasing player has deployed
    artillery with a barrage factor."""
    return any(s.utype(x).barrage > 0 and s.pos.units[x].deployed
               for x in s.side_units(s.pos.phasing))


def observed_for(s: WDState, art: str, target: str) -> bool:
    """Rule 11.B.3: is the target hex observed by or for this artillery unit?"""
    side = s.side_of(art)
    if side == "german":
        observers = s.side_units("german")
    else:
        t = s.utype(art)
        observers = [x for x in s.side_units("soviet") if x == art or "nondiv" in t.flags
                     or s.udef(x).div == s.udef(art).div]
    return any(sees(s, o, target) for o in observers)


def sees(s: WDState, obs: str, target: str) -> bool:
    """Rule 11.B.3: does ``obs`` observe ``target``? Adjacent only in snow (E); the
    map's range (B, :meth:`Terrain.sight_range`), a hex farther to deployed Guards
    rockets; the observation battalion's sound and flash ranging (D); the line of
    sight (C)."""
    h = s.pos.units[obs].loc
    d = s.map.distance(h, target)
    if s.pos.weather == "snow":
        return d <= 1
    if "obs" in s.utype(obs).flags and any(
            s.utype(x).artillery and s.pos.units[x].deployed
            for x in s.units_at(target, other(s.side_of(obs)))) and d <= 7:
        return True  # Rule 11.B.3.D: sound and flash ranging need no line of sight
    if d > SIGHT_MAX + 1:
        # the map's range (11.B.3.B) and the Guards rockets' one hex more: an observer
        # farther off never sees, whatever line its range would trace
        return False
    rng = s.ter.sight_range(h, target)
    if any("guards-rocket" in s.utype(x).flags and s.pos.units[x].deployed
           for x in s.units_at(target)):
        rng += 1
    return d <= rng and s.ter.los(h, target)


# ------------------------------------------------------------------ the actions


def check_barrage(s: WDState, a: Act) -> None:
    s._need_phase("barrage", rule="Rule 11.B")
    u = s._need_map(a.text("unit"))
    t = s.utype(a.text("unit"))
    if t.barrage <= 0 or not u.deployed:
        raise IllegalAction(f"{a.text('unit')} is not deployed artillery with a barrage factor",
                            rule="Rule 11.B")
    if u.assault:
        raise IllegalAction(f"{a.text('unit')} has declared an assault and fires in it",
                            rule="Rule 11.B.1")
    assigned = _assigned(s)
    if "barraged" in u.marks or a.text("unit") in assigned:
        raise IllegalAction(f"{a.text('unit')} has already barraged this impulse", rule="Rule 11.B")
    bar = s.pos.bar
    if bar is not None and bar.hex not in ("", a.text("hex")) and bar.units:
        raise IllegalAction(f"fire the barrage on {bar.hex} first", rule="Rule 11.B")
    if not s.units_at(a.text("hex"), other(s.pos.phasing)):
        raise IllegalAction(f"{a.text('hex')} holds no enemy unit", rule="Rule 11.B")
    if s.map.distance(u.loc, a.text("hex")) > t.range:
        raise IllegalAction(f"{a.text('hex')} is beyond {a.text('unit')}'s range of {t.range}",
                            rule="Rule 11.B.2.A")
    if not art_supplied(s, a.text("unit")):
        raise IllegalAction(f"{a.text('unit')} cannot trace artillery supply", rule="Rule 15.B")
    pool = pool_of(s, a.text("unit"))
    pools = {pool_of(s, x) for x in assigned}
    if pools and pool not in pools:
        raise IllegalAction("one barrage draws on one supply pool", rule="Rule 15.D.2")
    already = 1 if f"assault:{pool}" in s.pos.paid else 0
    if f"barrage:{pool}" not in s.pos.paid and s.pos.supply[pool] < 2 - already:
        raise IllegalAction(f"a barrage costs 2 supply points (the assault point counts); "
                            f"the {pool} pool has {s.pos.supply[pool]}", rule="Rule 15.A.2")


def check_fire_barrage(s: WDState, a: Act) -> None:
    s._need_phase("barrage", rule="Rule 11.B")
    if not _assigned(s):
        raise IllegalAction("no artillery is assigned to a barrage", rule="Rule 11.B")


def check_end_barrage(s: WDState, a: Act) -> None:
    s._need_phase("barrage", rule="Rule 11.B")


def do_barrage(s: WDState, a: Act) -> list[Event]:
    if s.pos.bar is None or not s.pos.bar.units:
        s.pos.bar = Barrage(a.text("hex"))
    s.pos.bar.units.append(a.text("unit"))
    return [Event(f"{a.text('unit')} is assigned to barrage {a.text('hex')}", "info",
                  visible_to=(s.pos.phasing,), rule="Rule 11.B")]


def check_fire_barrage_half(s: WDState, a: Act) -> None:
    check_fire_barrage(s, a)
    if not _rocket_choice(s):
        raise IllegalAction("rockets at half is the German's choice when rocket artillery "
                            "fires and the third supply point is not spent",
                            rule="Rule 15.A.3")


def do_fire_barrage_half(s: WDState, a: Act) -> list[Event]:
    return do_fire_barrage(s, a, rockets_full=False)


def do_fire_barrage(s: WDState, a: Act, rockets_full: bool = True) -> list[Event]:
    bar = s.pos.bar
    assert bar is not None  # _check_fire_barrage: artillery is assigned
    h = bar.hex
    arts = list(bar.units)
    pool = pool_of(s, arts[0])
    events = []
    rocket = any("rocket" in s.utype(x).flags for x in arts)
    if f"barrage:{pool}" not in s.pos.paid or (rockets_full and _rocket_choice(s)):
        # Rule 15.A.2-3: 2 points (3 for German rockets at full) cover assaults and
        # barrages alike, so points already spent this impulse count toward them
        already = (2 if f"barrage:{pool}" in s.pos.paid
                   else 1 if f"assault:{pool}" in s.pos.paid else 0)
        total = 3 if (rockets_full and rocket and s.pos.phasing == "german"
                      and s.pos.supply[pool] >= 3 - already) else 2
        cost = total - already
        if cost > 0:
            s.pos.supply[pool] -= cost
            events.append(Event(f"{cost} more supply point{'s' if cost != 1 else ''} "
                                f"({pool}) spent: {total} this impulse for barrages and "
                                "assaults", "info", visible_to=(s.pos.phasing,),
                                rule="Rule 15.A.2"))
        s.pos.paid.add(f"barrage:{pool}")
        s.pos.paid.add(f"assault:{pool}")
        if total == 3:
            s.pos.paid.add(f"rocket:{pool}")
    value = ZERO
    farthest = 0
    unobserved = False
    for x in arts:
        t = s.utype(x)
        u = s.pos.units[x]
        u.marks.add("barraged")
        halves = 1
        d = s.map.distance(u.loc, h)
        if d * 2 > t.range:
            halves *= 2
        if "rocket" in t.flags and f"rocket:{pool}" not in s.pos.paid:
            halves *= 2
        value = q_add(value, q(t.barrage * u.strength, halves))
        farthest = max(farthest, d)
        if not observed_for(s, x, h):
            unobserved = True
    obs_mod = (farthest + 1) // 2 if unobserved else 0
    attacks = rules.split_barrage(s.cat.tables, value)
    events.append(Event(f"Barrage of {fmt_amount(value)} on {h} "
                        f"({len(attacks)} attack{'s' if len(attacks) != 1 else ''}"
                        f"{', unobserved +' + str(obs_mod) if obs_mod else ''})", "attack",
                        hexes=(h,), rule="Rule 11.B.2"))
    targets = s.units_at(h, other(s.pos.phasing))
    s.pos.bar = Barrage(h)
    for x in targets:
        # Rule 11.B.2.B: the half-strength cap is on the strength at the first barrage
        # of the phase, whatever later barrages on the hex add
        s.pos.barrage_phase.setdefault(x, PhaseLoss(s.pos.units[x].strength, 0))
    tables = s.cat.tables
    for col in attacks:
        for x in targets:
            t = s.utype(x)
            mod = obs_mod
            if t.afv:
                mod += tables.barrage_afv
            elif s.bunker(h) > 0 and s.side_of(x) == "german":
                mod += tables.barrage_bunker
            # cumulative, except that AFVs never get the bunker's modifier and the
            # bunkers themselves get only theirs (Rule 11.B.2.B)
            mod += max((tables.barrage_terrain.get(tt, 0) for tt in s.ter.terrain(h)),
                       default=0)
            s.queue("barrage-roll", DieArgs(f"barrage on {x} at {h}", "Rule 11.B.2",
                                            uid=x, col=col, mod=mod, hex=h))
        for i, b in enumerate(s.pos.bunkers):
            if b.hex == h and b.strength > 0:
                s.queue("barrage-roll",
                        DieArgs(f"barrage on the bunker at {h}", "Rule 19", uid=f"bunker:{i}",
                                col=col, mod=obs_mod + tables.barrage_bunker, hex=h))
    s.queue("barrage-done")
    return events


def do_end_barrage(s: WDState, a: Act) -> list[Event]:
    return []
