"""Rules 9, 10 and 11.A: the fire at each assaulted hex, and the advance (9.D).

The non-phasing player's defensive fire, hex by hex, each hex resolved at once; then the
phasing player's assault plans for every assaulted hex, and only then RESOLVE (the
manual's Assault menu) fires them, hex by hex: the controlling headquarters and artillery
support (11.A), high intensity support (15.A.4), the allocation of fire (9.C.3, with the
Default Actions stand-in), the Combat Results Table, and the advance into hexes the
defenders have left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key
from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.base import DieArgs, other
from engines.white_death.combat import _lose, _morale, attackers, defenders, defense, fire_value
from engines.white_death.notation import act, amount, fmt_amount
from engines.white_death.position import (
    ZERO,
    Allocation,
    Combat,
    Q,
    q,
    q_add,
    q_cmp,
    q_div,
    q_mul,
    q_sub,
    q_sum,
)
from engines.white_death.supply import art_supplied, pool_of
from engines.white_death.terrain import city_bound, garrison_fixed, may_advance_into
from pbem.engine import Event
from pbem.errors import IllegalAction
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.white_death.state import WDState


@dataclass(frozen=True)
class HexArgs:
    """The assaulted hex a step after the assault fire is about."""

    hex: str = ""


def involved_divisions(s: WDState) -> list[str]:
    c = s.pos.combat
    h = c.hex if c is not None else ""
    uids = s.units_at(h, other(s.pos.phasing)) if s.phase == "defense" else attackers(s, h)
    return sorted({s.udef(x).div for x in uids if "intrinsic" not in s.utype(x).flags})


def hq(s: WDState) -> str:
    c = s.pos.combat
    if c is not None and c.hq:
        return c.hq
    divs = involved_divisions(s)
    if not divs or c is None:
        return ""
    h = c.hex
    uids = defenders(s, h) if s.phase == "defense" else attackers(s, h)
    return max(divs, key=lambda d: (sum(1 for x in uids if s.udef(x).div == d),
                                    [-ord(ch) for ch in d]))


def support_value(s: WDState, uid: str) -> Q:
    """Rule 11.A.2 with Rules 15.A.4 and 15.B."""
    t = s.utype(uid)
    u = s.pos.units[uid]
    h = _combat(s).hex
    factor = t.support
    if not art_supplied(s, uid):
        factor = 1
    if s.phase == "defense" and f"high:{pool_of(s, uid)}" not in s.pos.paid:
        factor = 1
    v = factor * u.strength
    if s.phase == "defense":
        dist = s.map.distance(u.loc, h)
    else:
        dist = min((s.map.distance(u.loc, s.pos.units[x].loc) for x in attackers(s, h)),
                   default=99)
    return q(v, 2) if dist * 2 > t.range else (v, 1)


def firers(s: WDState, kind: str) -> list[str]:
    h = _combat(s).hex
    if s.phase == "defense":
        out = []
        afv_targets = any(s.utype(x).afv for x in attackers(s, h))
        for x in defenders(s, h):
            u = s.pos.units[x]
            t = s.utype(x)
            if "no-df" in u.marks or "support:defense" in u.marks:  # Rules 14.B.1, 11.A.1
                continue
            if t.weapons and t.atf[0] > 0 and t.cf[0] > 0:  # Rule 10.D: one or the other
                use = "at" if afv_targets else "conv"
                if use != kind:
                    continue
            out.append(x)
        return out
    # Rule 11.A.1: an artillery unit firing support does not fire itself in that phase
    # (so one in the combat may support it instead of firing: the engine page's reading)
    if kind == "at":
        return [x for x in attackers(s, h) if s.utype(x).afv
                and "support:assault" not in s.pos.units[x].marks]
    return [x for x in attackers(s, h) if "support:assault" not in s.pos.units[x].marks]


#: the key of a fire listing's pools in the state's ``_cache`` (:func:`pools_kept`)
POOLS = "fire-pools"


def pools_kept(s: WDState) -> dict[str, tuple[Q, Q]]:
    """Where :func:`pool_parts` keeps each kind's pool while a fire decision is listed
    (``Fire.options``, which puts it in the state's ``_cache`` and takes it out again):
    its candidates and every fire's check read the pools, and a check changes nothing,
    where each reading worked every firer's value out again (issue 35)."""
    kept: dict[str, tuple[Q, Q]] = {}
    s._cache[POOLS] = kept
    return kept


def pool_parts(s: WDState, kind: str) -> tuple[Q, Q]:
    """The fire value at the current combat hex: the firing units' own, and the rest
    (bunkers, Rule 19; artillery support, Rule 11.A), before any is allocated."""
    kept = s._cache.get(POOLS)
    if kept is not None:
        got: tuple[Q, Q] | None = kept.get(kind)
        if got is None:
            got = kept[kind] = _pool_parts(s, kind)
        return got
    return _pool_parts(s, kind)


def _pool_parts(s: WDState, kind: str) -> tuple[Q, Q]:
    c = _combat(s)
    h = c.hex
    attacking = s.phase == "assault"
    units = q_sum(fire_value(s, x, kind, h, attacking) for x in firers(s, kind))
    rest = ZERO
    if s.phase == "defense" and s.pos.phasing == "soviet":
        rest = (s.bunker(h), 1)  # Rule 19: German bunkers fire defensively, factor 1
    if kind == "conv":
        rest = q_add(rest, q_sum(support_value(s, x) for x in c.support))
    return units, rest


def pool(s: WDState, kind: str) -> Q:
    """The fire value still to allocate at the current combat hex."""
    c = s.pos.combat
    if c is None:
        return ZERO
    units, rest = pool_parts(s, kind)
    used = q_sum(al.amount for al in c.alloc if al.kind == kind)
    return q_sub(q_add(units, rest), used)


#: a sort key ordering amounts (:data:`Q`) by their values
BY_VALUE = cmp_to_key(q_cmp)


def targets(s: WDState, kind: str) -> list[str]:
    h = _combat(s).hex
    cand = attackers(s, h) if s.phase == "defense" else defenders(s, h)
    return [x for x in cand if s.utype(x).afv == (kind == "at")]


def target_defense(s: WDState, uid: str, kind: str) -> int:
    h = _combat(s).hex
    if s.phase == "defense":
        return defense(s, uid, kind, at_hex=h)
    return defense(s, uid, kind)


def _combat_candidates(s: WDState) -> list[Act]:
    out = [act("done")]
    c = s.pos.combat
    if c is None:
        return out
    side = s._current_player()
    assert side is not None
    h = c.hex
    for div in involved_divisions(s):
        out.append(act("hq", div))
    if s.phase == "defense":
        out.append(act("high"))
    for uid in s.side_units(side):
        if s.utype(uid).support > 0:
            out.append(act("support", uid))
    for kind in ("conv", "at"):
        left = pool(s, kind)
        if left[0] <= 0:
            continue
        for tgt in targets(s, kind):
            d = target_defense(s, tgt, kind)
            amounts = {left}
            for col in range(len(s.cat.tables.columns)):
                need = rules.needed_for(s.cat.tables, col, d)
                if q_cmp(need, left) <= 0:
                    amounts.add(need)
            for amt in sorted(amounts, key=BY_VALUE):
                out.append(act("fire" if kind == "conv" else "fire-at", tgt, n=amt))
    del h
    return out


def _combat(s: WDState) -> Combat:
    """The combat open (Rule 5: the fire at one assaulted hex)."""
    c = s.pos.combat
    if c is None:
        raise IllegalAction("no combat is open", rule="Rule 5")
    return c


def _combat_turn(s: WDState) -> None:
    s._need_phase("defense", "assault", rule="Rule 5")
    _combat(s)


def _weapons_limit(s: WDState, tgt: str, amount: Q) -> None:
    """Rule 9.C.3: weapons units never at better odds than any personnel unit, and
    only once every personnel unit is fired at."""
    alloc = {al.target: al.amount for al in _combat(s).alloc if al.kind == "conv"}
    conv_targets = targets(s, "conv")
    personnel = [x for x in conv_targets if s.utype(x).personnel]
    weapons = [x for x in conv_targets if s.utype(x).weapons]

    def ratio(x: str, v: Q) -> Q:
        return q_div(v, (target_defense(s, x, "conv"), 1))

    if s.utype(tgt).weapons:
        if any(p not in alloc for p in personnel):
            raise IllegalAction("a weapons unit may be fired at only once every personnel "
                                "unit is", rule="Rule 9.C.3")
        if personnel:
            floor_ = min((ratio(p, alloc[p]) for p in personnel), key=BY_VALUE)
            tables = s.cat.tables
            if rules.odds_column(tables, amount, target_defense(s, tgt, "conv")) > \
                    rules.odds_column(tables, floor_, 1):
                raise IllegalAction("a weapons unit may not be fired at with higher odds "
                                    "than a personnel unit", rule="Rule 9.C.3")
    else:
        tables = s.cat.tables
        col = rules.odds_column(tables, amount, target_defense(s, tgt, "conv"))
        for w in weapons:
            if w in alloc and rules.odds_column(
                    tables, alloc[w], target_defense(s, w, "conv")) > col:
                raise IllegalAction("a personnel unit may not be fired at with lower odds "
                                    "than a weapons unit", rule="Rule 9.C.3")


def _open_combat(s: WDState, stage: str) -> list[Event] | None:
    """Rule 5: the next assaulted hex where attackers and defenders are still face to
    face becomes the combat (its events), or ``None`` when no hex is left."""
    while s.pos.combat_hexes:
        h = s.pos.combat_hexes.pop(0)
        if attackers(s, h) and defenders(s, h):
            s.pos.combat = Combat(h)
            return [Event(f"{'Defensive' if stage == 'defense' else 'Assault'} fire at "
                          f"{h}", "phase", hexes=(h,), rule="Rule 5")]
    s.pos.combat = None
    return None


def default_allocation(s: WDState) -> list[tuple[str, str, Q]]:
    """Default Actions (stand-in): unallocated fire is shared equally among the targets
    not yet fired at: antitank among AFVs; conventional among personnel units first,
    weapons units only when no personnel unit is left, never at better odds."""
    out: list[tuple[str, str, Q]] = []
    fired = {al.target for al in _combat(s).alloc}
    for kind in ("at", "conv"):
        avail = pool(s, kind)
        if avail[0] <= 0:
            continue
        free = [x for x in targets(s, kind) if x not in fired]
        if kind == "conv":
            pers = [x for x in free if not s.utype(x).weapons]
            personnel_all = [x for x in targets(s, kind) if not s.utype(x).weapons]
            if pers or personnel_all:
                free = pers
        if not free:
            continue
        share = q_div(avail, (len(free), 1))
        for x in free:
            out.append((x, kind, share))
    return out


def _resolve_next(s: WDState) -> list[Event]:
    """RESOLVE (the manual's Assault menu): "The battle commences against each hex and
    each unit targeted within it, one at a time": the first plan left becomes the
    combat, its fire is rolled (Rules 9, 10), each with its morale check (Rule 14),
    then the tank fright checks (14.C.2) and whether the hex is cleared (9.D)."""
    c = s.pos.combat = s.pos.plans.pop(0)
    h = c.hex
    events = [Event(f"Assault at {h}", "phase", hexes=(h,), rule="RESOLVE")]
    events += _fire_plan(s, "assault")
    s.queue("fright", HexArgs(h))
    s.queue("assault-done", HexArgs(h))
    return events


def _fire_plan(s: WDState, stage: str) -> list[Event]:
    """The fire allocated at the combat's hex, each target's on the Combat Results
    Table (a ``crt`` die; at RESOLVE an ``assault-crt`` die, sealed dice's batch)."""
    c = _combat(s)
    h = c.hex
    events: list[Event] = []
    tables = s.cat.tables
    parts = {k: pool_parts(s, k) for k in ("conv", "at")}
    for al in sorted(c.alloc, key=lambda al: (al.kind, al.target)):
        tgt, kind, value = al.target, al.kind, al.amount
        if stage == "df" and s.map.faces_toward("slope", h, s.pos.units[tgt].loc) == h:
            # Rule 12.B doubles the factors of the units firing down the slope, not
            # artillery support or a bunker's fire: the defender's fire is one pool
            # (the manual's "general pool"), so each point allocated is the pool's
            # mix and only the units' share of it is doubled
            units, rest = parts[kind]
            total = q_add(units, rest)
            if total[0] > 0:
                value = q_add(value, q_div(q_mul(value, units), total))
        d = target_defense(s, tgt, kind)
        col = rules.odds_column(tables, value, d)
        label = rules.column_label(tables, col)
        if col < 0:
            events.append(Event(f"{fmt_amount(value)} against {tgt} (defense {d}) is below "
                                "the table: no effect", "attack", hexes=(h,),
                                rule="Rule 9.B" if kind == "conv" else "Rule 10.B"))
            continue
        s.queue("crt" if stage == "df" else "assault-crt",
                DieArgs(f"{'conventional' if kind == 'conv' else 'antitank'} fire "
                        f"{label} against {tgt} at {s.pos.units[tgt].loc}",
                        "Rule 9" if kind == "conv" else "Rule 10", kind=kind, uid=tgt,
                        col=col, stage=stage, hex=s.pos.units[tgt].loc))
    c.checked = []
    return events


def _on_crt(s: WDState, job: DieArgs, roll: int) -> list[Event]:
    uid = job.uid
    if not s.on_map(uid):
        return []
    tables = s.cat.tables
    if job.kind == "conv":
        n = rules.conventional_result(tables, job.col, roll)
        lost = rules.conventional_loss(n, s.pos.units[uid].strength)
        s.tell(Event(f"{uid}: MC{n if n else ''}", "attack", units=(uid,), rule="Rule 9"))
        _lose(s, uid, lost, "conventional fire")
        if s.on_map(uid):
            _morale(s, uid, n, job.stage, s.pos.units[uid].loc)
        return []
    n = rules.antitank_result(tables, job.col, roll)
    if n <= 0:
        return [Event(f"antitank fire at {uid}: miss", "attack", units=(uid,), rule="Rule 10")]
    lost = min(n, s.pos.units[uid].strength)
    _lose(s, uid, lost, "antitank fire")
    if s.on_map(uid):
        _morale(s, uid, lost, job.stage, s.pos.units[uid].loc)
    return []


def _assault_done(s: WDState, h: str) -> list[Event]:
    if defenders(s, h):
        return []
    movers = [x for x in attackers(s, h)
              if may_advance_into(s, x, s.pos.units[x].loc, h)
              and _advance_bar(s, x, h) is None]
    if movers:
        s.pos.advance[h] = movers
    return [Event(f"{h} is cleared of defenders", "info", hexes=(h,), rule="Rule 9.D")]


def _advance_candidates(s: WDState) -> list[Act]:
    out = [act("end-advance")]
    for h, uids in sorted(s.pos.advance.items()):
        out += [act("advance", uid, h) for uid in uids]
    return out


def _advance_bar(s: WDState, uid: str, h: str) -> IllegalAction | None:
    """Rule 22 also binds an advance after combat: it is a move out of the hex."""
    if garrison_fixed(s, uid):
        return IllegalAction(f"{uid} is a garrison unit and may not move on the first turn",
                             rule="Rule 22")
    if city_bound(s, uid) and h not in s.ter.vl_hexes():
        return IllegalAction("the Velikiye Luki garrison may not leave the city until "
                             "released", rule="Rule 22")
    return None


# ------------------------------------------------------------------ the actions


def check_hq(s: WDState, a: Act) -> None:
    _combat_turn(s)
    if a.text("unit") not in involved_divisions(s) or len(involved_divisions(s)) < 2:
        raise IllegalAction(f"{a.text('unit')} is not one of two or more divisions or brigades in "
                            "this combat", rule="Rule 11.A.1")
    if _combat(s).hq == a.text("unit"):
        raise IllegalAction(f"{a.text('unit')} is already the headquarters", rule="Rule 11.A.1")
    if _combat(s).support:
        raise IllegalAction("choose the headquarters before adding support",
                            rule="Rule 11.A.1")


def check_high(s: WDState, a: Act) -> None:
    _combat_turn(s)
    if s.phase != "defense":
        raise IllegalAction("high intensity support is the defender's", rule="Rule 15.A.4")
    here = defenders(s, _combat(s).hex)
    pool = pool_of(s, here[0]) if here else other(s.pos.phasing)
    if f"high:{pool}" in s.pos.paid or s.pos.supply[pool] < 1:
        raise IllegalAction("high intensity support needs one supply point (once an impulse)",
                            rule="Rule 15.A.4")


def check_support(s: WDState, a: Act) -> None:
    _combat_turn(s)
    side = s._current_player()
    u = s._need_unit(a.text("unit"), side)
    t = s.utype(a.text("unit"))
    h = _combat(s).hex
    if not s.on_map(a.text("unit")) or t.support <= 0 or not u.deployed:
        raise IllegalAction(f"{a.text('unit')} is not deployed artillery with a support factor",
                            rule="Rule 11.A")
    if "barraged" in u.marks or f"support:{s.phase}" in u.marks:
        raise IllegalAction(f"{a.text('unit')} has already fired this phase", rule="Rule 11.A.1")
    if u.assault and u.assault != h:
        raise IllegalAction(f"{a.text('unit')} assaults {u.assault} and fires there",
                            rule="Rule 11.A.1")
    if s.phase == "defense" and "no-df" in u.marks:
        raise IllegalAction(f"{a.text('unit')} failed a barrage morale check", rule="Rule 14.B.1")
    if side == "soviet" and s.udef(a.text("unit")).div != hq(s):
        raise IllegalAction(f"{a.text('unit')} may support only its own division or brigade "
                            f"(headquarters: {hq(s)})", rule="Rule 11.A.1")
    if s.phase == "defense":
        dist = s.map.distance(u.loc, h)
    else:
        dist = min((s.map.distance(u.loc, s.pos.units[x].loc) for x in attackers(s, h)),
                   default=99)
    if dist > t.range:
        raise IllegalAction(f"{a.text('unit')} is out of range", rule="Rule 11.A.2")


def check_fire(s: WDState, a: Act, kind: str = "conv") -> None:
    _combat_turn(s)
    tgt = a.text("unit")
    if tgt not in targets(s, kind):
        raise IllegalAction(f"{tgt} may not be fired at with "
                            f"{'conventional' if kind == 'conv' else 'antitank'} fire here",
                            rule="Rule 9.B" if kind == "conv" else "Rule 10.B")
    if any(al.target == tgt for al in _combat(s).alloc):
        raise IllegalAction(f"{tgt} has already been fired at this phase", rule="Rule 9.C.3")
    if q_cmp(amount(a), pool(s, kind)) > 0:
        raise IllegalAction(f"only {fmt_amount(pool(s, kind))} fire points are left",
                            rule="Rule 9.C.3")
    if kind == "conv":
        _weapons_limit(s, tgt, amount(a))


def check_fire_at(s: WDState, a: Act) -> None:
    check_fire(s, a, "at")


def check_done(s: WDState, a: Act) -> None:
    s._need_phase("defense", "assault", rule="Rule 5")


def do_hq(s: WDState, a: Act) -> list[Event]:
    c = _combat(s)
    c.hq = a.text("unit")
    return [Event(f"{a.text('unit')} is the controlling headquarters at {c.hex}",
                  "info", rule="Rule 11.A.1")]


def do_high(s: WDState, a: Act) -> list[Event]:
    here = defenders(s, _combat(s).hex)
    pool = pool_of(s, here[0]) if here else other(s.pos.phasing)
    s.pos.supply[pool] -= 1
    s.pos.paid.add(f"high:{pool}")
    return [Event("One supply point is spent for high intensity defensive support", "info",
                  rule="Rule 15.A.4")]


def do_support(s: WDState, a: Act) -> list[Event]:
    c = _combat(s)
    c.support.append(a.text("unit"))
    s.pos.units[a.text("unit")].marks.add(f"support:{s.phase}")
    return [Event(f"{a.text('unit')} supports at {c.hex} "
                  f"(+{fmt_amount(support_value(s, a.text('unit')))})", "info", rule="Rule 11.A")]


def do_fire(s: WDState, a: Act, kind: str = "conv") -> list[Event]:
    _combat(s).alloc.append(Allocation(a.text("unit"), kind, amount(a)))
    return [Event(f"{a.text('n')} {'conventional' if kind == 'conv' else 'antitank'} fire "
                  f"points at {a.text('unit')}", "attack", visible_to=(s._current_player() or "",),
                  rule="Rule 9" if kind == "conv" else "Rule 10")]


def do_fire_at(s: WDState, a: Act) -> list[Event]:
    return do_fire(s, a, "at")


def do_done(s: WDState, a: Act) -> list[Event]:
    """``done firing``: the Default Actions allocate what is left; the defender's fire
    is resolved at once (Rule 5: "Combat immediately ensues until resolved"), the
    assaulting player's is an assault plan, resolved with the others at RESOLVE."""
    c = s.pos.combat
    events: list[Event] = []
    if c is None:
        return events
    for tgt, kind, amt in default_allocation(s):
        try:
            if kind == "conv":
                _weapons_limit(s, tgt, amt)
            c.alloc.append(Allocation(tgt, kind, amt))
            events.append(Event(f"Default allocation: {fmt_amount(amt)} at {tgt}", "attack",
                                rule="Default actions"))
        except IllegalAction:
            continue
    if s.phase == "defense":
        return events + _fire_plan(s, "df")
    # the manual's Assault menu: "Continue until you have completed assault plans on
    # all the enemy hexes you selected ..., then go to RESOLVE"
    s.pos.plans.append(c)
    s.pos.combat = None
    return [*events, Event(f"The assault plan against {c.hex} is complete", "phase",
                           hexes=(c.hex,), rule="RESOLVE")]


def check_advance(s: WDState, a: Act) -> None:
    s._need_phase("advance", rule="Rule 9.D")
    if a.text("unit") not in s.pos.advance.get(a.text("hex"), []):
        raise IllegalAction(f"{a.text('unit')} did not assault {a.text('hex')} or may not advance",
                            rule="Rule 9.D")
    if s.units_at(a.text("hex"), other(s.pos.phasing)):
        raise IllegalAction(f"{a.text('hex')} is not vacated", rule="Rule 9.D")
    bar = _advance_bar(s, a.text("unit"), a.text("hex"))
    if bar is not None:
        raise bar
    if not s.stack_ok_with(a.text("hex"), a.text("unit")):
        raise IllegalAction(f"advancing {a.text('unit')} would break the stacking limit",
                            rule="Rule 14.B.3")


def check_end_advance(s: WDState, a: Act) -> None:
    s._need_phase("advance", rule="Rule 9.D")


def do_advance(s: WDState, a: Act) -> list[Event]:
    frm = s.pos.units[a.text("unit")].loc
    s._put(a.text("unit"), a.text("hex"))
    s.pos.advance[a.text("hex")] = [x for x in s.pos.advance[a.text("hex")] if x != a.text("unit")]
    if not s.pos.advance[a.text("hex")]:
        del s.pos.advance[a.text("hex")]
    return [Event(f"{a.text('unit')} advances from {frm} into {a.text('hex')}", "move",
                  hexes=(frm, a.text("hex")), units=(a.text("unit"),), rule="Rule 9.D")]


def do_end_advance(s: WDState, a: Act) -> list[Event]:
    s.pos.advance = {}
    return []
