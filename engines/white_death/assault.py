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
from fractions import Fraction
from typing import TYPE_CHECKING

from engines.white_death import rules
from engines.white_death.actions import WDAction, act, fmt_amount
from engines.white_death.base import DieArgs, other
from engines.white_death.combat import CombatState
from engines.white_death.position import Allocation, Combat
from pbem.engine import Event
from pbem.errors import IllegalAction

if TYPE_CHECKING:
    from engines.white_death.state import WDState


@dataclass(frozen=True)
class HexArgs:
    """The assaulted hex a step after the assault fire is about."""

    hex: str = ""


class AssaultState(CombatState):
    """Defensive and assault fire at each assaulted hex, and the advance."""

    # ------------------------------------------------------------------ participants

    def involved_divisions(self) -> list[str]:
        c = self.pos.combat
        h = c.hex if c is not None else ""
        if self.phase == "defense":
            uids = self.units_at(h, other(self.pos.phasing))
        else:
            uids = self.attackers(h)
        return sorted({self.udef(x).div for x in uids if "intrinsic" not in self.utype(x).flags})

    def hq(self) -> str:
        c = self.pos.combat
        if c is not None and c.hq:
            return c.hq
        divs = self.involved_divisions()
        if not divs or c is None:
            return ""
        h = c.hex
        uids = self.defenders(h) if self.phase == "defense" else self.attackers(h)
        return max(divs, key=lambda d: (sum(1 for x in uids if self.udef(x).div == d),
                                        [-ord(ch) for ch in d]))

    # ------------------------------------------------------------------ fire values

    def support_value(self, uid: str) -> Fraction:
        """Rule 11.A.2 with Rules 15.A.4 and 15.B."""
        t = self.utype(uid)
        u = self.pos.units[uid]
        h = self._combat().hex
        factor = t.support
        if not self.art_supplied(uid):
            factor = 1
        if self.phase == "defense" and f"high:{self.pool_of(uid)}" not in self.pos.paid:
            factor = 1
        v = Fraction(factor * u.strength)
        if self.phase == "defense":
            dist = self.map.distance(u.loc, h)
        else:
            dist = min((self.map.distance(u.loc, self.pos.units[x].loc) for x in self.attackers(h)),
                       default=99)
        if dist * 2 > t.range:
            v /= 2
        return v

    def firers(self, kind: str) -> list[str]:
        h = self._combat().hex
        if self.phase == "defense":
            out = []
            afv_targets = any(self.utype(x).afv for x in self.attackers(h))
            for x in self.defenders(h):
                u = self.pos.units[x]
                t = self.utype(x)
                if "no-df" in u.marks or "support:defense" in u.marks:  # Rules 14.B.1, 11.A.1
                    continue
                if t.weapons and t.atf > 0 and t.cf > 0:  # Rule 10.D: one or the other
                    use = "at" if afv_targets else "conv"
                    if use != kind:
                        continue
                out.append(x)
            return out
        # Rule 11.A.1: an artillery unit firing support does not fire itself in that phase
        # (so one in the combat may support it instead of firing: the engine page's reading)
        if kind == "at":
            return [x for x in self.attackers(h) if self.utype(x).afv
                    and "support:assault" not in self.pos.units[x].marks]
        return [x for x in self.attackers(h) if "support:assault" not in self.pos.units[x].marks]

    def pool_parts(self, kind: str) -> tuple[Fraction, Fraction]:
        """The fire value at the current combat hex: the firing units' own, and the rest
        (bunkers, Rule 19; artillery support, Rule 11.A), before any is allocated."""
        c = self._combat()
        h = c.hex
        attacking = self.phase == "assault"
        units = sum((self.fire_value(x, kind, h, attacking) for x in self.firers(kind)),
                    Fraction(0))
        rest = Fraction(0)
        if self.phase == "defense" and self.pos.phasing == "soviet":
            rest += self.bunker(h)  # Rule 19: German bunkers fire defensively, factor 1
        if kind == "conv":
            rest += sum((self.support_value(x) for x in c.support), Fraction(0))
        return units, rest

    def pool(self, kind: str) -> Fraction:
        """The fire value still to allocate at the current combat hex."""
        c = self.pos.combat
        if c is None:
            return Fraction(0)
        units, rest = self.pool_parts(kind)
        used = sum((al.amount for al in c.alloc if al.kind == kind), Fraction(0))
        return units + rest - used

    def targets(self, kind: str) -> list[str]:
        h = self._combat().hex
        cand = self.attackers(h) if self.phase == "defense" else self.defenders(h)
        return [x for x in cand if self.utype(x).afv == (kind == "at")]

    def target_defense(self, uid: str, kind: str) -> int:
        h = self._combat().hex
        if self.phase == "defense":
            return self.defense(uid, kind, at_hex=h)
        return self.defense(uid, kind)

    # ------------------------------------------------------------------ allocating fire

    def _combat_candidates(self) -> list[WDAction]:
        out = [act("done")]
        c = self.pos.combat
        if c is None:
            return out
        side = self._current_player()
        assert side is not None
        h = c.hex
        for div in self.involved_divisions():
            out.append(act("hq", div))
        if self.phase == "defense":
            out.append(act("high"))
        for uid in self.side_units(side):
            if self.utype(uid).support > 0:
                out.append(act("support", uid))
        for kind in ("conv", "at"):
            pool = self.pool(kind)
            if pool <= 0:
                continue
            for tgt in self.targets(kind):
                d = self.target_defense(tgt, kind)
                amounts = {pool}
                for col in range(len(self.cat.tables.columns)):
                    need = rules.needed_for(self.cat.tables, col, d)
                    if need <= pool:
                        amounts.add(need)
                for amt in sorted(amounts):
                    out.append(act("fire" if kind == "conv" else "fire-at", tgt, n=amt))
        del h
        return out

    def _combat(self) -> Combat:
        """The combat open (Rule 5: the fire at one assaulted hex)."""
        c = self.pos.combat
        if c is None:
            raise IllegalAction("no combat is open", rule="Rule 5")
        return c

    def _combat_turn(self) -> None:
        self._need_phase("defense", "assault", rule="Rule 5")
        self._combat()

    def _weapons_limit(self, tgt: str, amount: Fraction) -> None:
        """Rule 9.C.3: weapons units never at better odds than any personnel unit, and
        only once every personnel unit is fired at."""
        alloc = {al.target: al.amount for al in self._combat().alloc if al.kind == "conv"}
        targets = self.targets("conv")
        personnel = [x for x in targets if self.utype(x).personnel]
        weapons = [x for x in targets if self.utype(x).weapons]

        def ratio(x: str, v: Fraction) -> Fraction:
            return v / self.target_defense(x, "conv")

        if self.utype(tgt).weapons:
            if any(p not in alloc for p in personnel):
                raise IllegalAction("a weapons unit may be fired at only once every personnel "
                                    "unit is", rule="Rule 9.C.3")
            if personnel:
                floor_ = min(ratio(p, alloc[p]) for p in personnel)
                tables = self.cat.tables
                if rules.odds_column(tables, amount, self.target_defense(tgt, "conv")) > \
                        rules.odds_column(tables, floor_, 1):
                    raise IllegalAction("a weapons unit may not be fired at with higher odds "
                                        "than a personnel unit", rule="Rule 9.C.3")
        else:
            tables = self.cat.tables
            col = rules.odds_column(tables, amount, self.target_defense(tgt, "conv"))
            for w in weapons:
                if w in alloc and rules.odds_column(
                        tables, alloc[w], self.target_defense(w, "conv")) > col:
                    raise IllegalAction("a personnel unit may not be fired at with lower odds "
                                        "than a weapons unit", rule="Rule 9.C.3")

    # ------------------------------------------------------------------ resolving fire

    def _open_combat(self, stage: str) -> list[Event] | None:
        """Rule 5: the next assaulted hex where attackers and defenders are still face to
        face becomes the combat (its events), or ``None`` when no hex is left."""
        while self.pos.combat_hexes:
            h = self.pos.combat_hexes.pop(0)
            if self.attackers(h) and self.defenders(h):
                self.pos.combat = Combat(h)
                return [Event(f"{'Defensive' if stage == 'defense' else 'Assault'} fire at "
                              f"{h}", "phase", hexes=(h,), rule="Rule 5")]
        self.pos.combat = None
        return None

    def default_allocation(self) -> list[tuple[str, str, Fraction]]:
        """Default Actions (stand-in): unallocated fire is shared equally among the targets
        not yet fired at: antitank among AFVs; conventional among personnel units first,
        weapons units only when no personnel unit is left, never at better odds."""
        out: list[tuple[str, str, Fraction]] = []
        fired = {al.target for al in self._combat().alloc}
        for kind in ("at", "conv"):
            pool = self.pool(kind)
            if pool <= 0:
                continue
            free = [x for x in self.targets(kind) if x not in fired]
            if kind == "conv":
                pers = [x for x in free if not self.utype(x).weapons]
                personnel_all = [x for x in self.targets(kind) if not self.utype(x).weapons]
                if pers or personnel_all:
                    free = pers
            if not free:
                continue
            share = pool / len(free)
            for x in free:
                out.append((x, kind, share))
        return out

    def _resolve_next(self) -> list[Event]:
        """RESOLVE (the manual's Assault menu): "The battle commences against each hex and
        each unit targeted within it, one at a time": the first plan left becomes the
        combat, its fire is rolled (Rules 9, 10), each with its morale check (Rule 14),
        then the tank fright checks (14.C.2) and whether the hex is cleared (9.D)."""
        c = self.pos.combat = self.pos.plans.pop(0)
        h = c.hex
        events = [Event(f"Assault at {h}", "phase", hexes=(h,), rule="RESOLVE")]
        events += self._fire_plan("assault")
        self._push("fright", HexArgs(h))
        self._push("assault-done", HexArgs(h))
        return events

    def _fire_plan(self, stage: str) -> list[Event]:
        """The fire allocated at the combat's hex, each target's on the Combat Results
        Table (a ``crt`` die; at RESOLVE an ``assault-crt`` die, sealed dice's batch)."""
        c = self._combat()
        h = c.hex
        events: list[Event] = []
        tables = self.cat.tables
        parts = {k: self.pool_parts(k) for k in ("conv", "at")}
        for al in sorted(c.alloc, key=lambda al: (al.kind, al.target)):
            tgt, kind, value = al.target, al.kind, al.amount
            if stage == "df" and self.map.faces_toward("slope", h, self.pos.units[tgt].loc) == h:
                # Rule 12.B doubles the factors of the units firing down the slope, not
                # artillery support or a bunker's fire: the defender's fire is one pool
                # (the manual's "general pool"), so each point allocated is the pool's
                # mix and only the units' share of it is doubled
                units, rest = parts[kind]
                if units + rest > 0:
                    value += value * units / (units + rest)
            d = self.target_defense(tgt, kind)
            col = rules.odds_column(tables, value, d)
            label = rules.column_label(tables, col)
            if col < 0:
                events.append(Event(f"{fmt_amount(value)} against {tgt} (defense {d}) is below "
                                    "the table: no effect", "attack", hexes=(h,),
                                    rule="Rule 9.B" if kind == "conv" else "Rule 10.B"))
                continue
            self._die("crt" if stage == "df" else "assault-crt",
                      f"{'conventional' if kind == 'conv' else 'antitank'} fire "
                      f"{label} against {tgt} at {self.pos.units[tgt].loc}",
                      "Rule 9" if kind == "conv" else "Rule 10", kind=kind, uid=tgt, col=col,
                      stage=stage, hex=self.pos.units[tgt].loc)
        c.checked = []
        return events

    def _on_crt(self, job: DieArgs, roll: int) -> list[Event]:
        uid = job.uid
        if not self.on_map(uid):
            return []
        tables = self.cat.tables
        if job.kind == "conv":
            n = rules.conventional_result(tables, job.col, roll)
            lost = rules.conventional_loss(n, self.pos.units[uid].strength)
            events = [Event(f"{uid}: MC{n if n else ''}", "attack", units=(uid,), rule="Rule 9")]
            events += self._lose(uid, lost, "conventional fire")
            if self.on_map(uid):
                self._morale(uid, n, job.stage, self.pos.units[uid].loc)
            return events
        n = rules.antitank_result(tables, job.col, roll)
        if n <= 0:
            return [Event(f"antitank fire at {uid}: miss", "attack", units=(uid,), rule="Rule 10")]
        lost = min(n, self.pos.units[uid].strength)
        events = self._lose(uid, lost, "antitank fire")
        if self.on_map(uid):
            self._morale(uid, lost, job.stage, self.pos.units[uid].loc)
        return events

    def _assault_done(self, h: str) -> list[Event]:
        if self.defenders(h):
            return []
        movers = [x for x in self.attackers(h)
                  if self.enter_cost(x, self.pos.units[x].loc, h) is not None
                  and self._advance_bar(x, h) is None]
        if movers:
            self.pos.advance[h] = movers
        return [Event(f"{h} is cleared of defenders", "info", hexes=(h,), rule="Rule 9.D")]

    # ------------------------------------------------------------------ advance

    def _advance_candidates(self) -> list[WDAction]:
        out = [act("end-advance")]
        for h, uids in sorted(self.pos.advance.items()):
            out += [act("advance", uid, h) for uid in uids]
        return out

    def _advance_bar(self, uid: str, h: str) -> IllegalAction | None:
        """Rule 22 also binds an advance after combat: it is a move out of the hex."""
        if self.garrison_fixed(uid):
            return IllegalAction(f"{uid} is a garrison unit and may not move on the first turn",
                                 rule="Rule 22")
        if self.city_bound(uid) and h not in self.ter.vl_hexes():
            return IllegalAction("the Velikiye Luki garrison may not leave the city until "
                                 "released", rule="Rule 22")
        return None


# ------------------------------------------------------------------ the actions


def check_hq(s: WDState, a: WDAction) -> None:
    s._combat_turn()
    if a.unit not in s.involved_divisions() or len(s.involved_divisions()) < 2:
        raise IllegalAction(f"{a.unit} is not one of two or more divisions or brigades in "
                            "this combat", rule="Rule 11.A.1")
    if s._combat().hq == a.unit:
        raise IllegalAction(f"{a.unit} is already the headquarters", rule="Rule 11.A.1")
    if s._combat().support:
        raise IllegalAction("choose the headquarters before adding support",
                            rule="Rule 11.A.1")


def check_high(s: WDState, a: WDAction) -> None:
    s._combat_turn()
    if s.phase != "defense":
        raise IllegalAction("high intensity support is the defender's", rule="Rule 15.A.4")
    defenders = s.defenders(s._combat().hex)
    pool = s.pool_of(defenders[0]) if defenders else other(s.pos.phasing)
    if f"high:{pool}" in s.pos.paid or s.pos.supply[pool] < 1:
        raise IllegalAction("high intensity support needs one supply point (once an impulse)",
                            rule="Rule 15.A.4")


def check_support(s: WDState, a: WDAction) -> None:
    s._combat_turn()
    side = s._current_player()
    u = s._need_unit(a.unit, side)
    t = s.utype(a.unit)
    h = s._combat().hex
    if not s.on_map(a.unit) or t.support <= 0 or not u.deployed:
        raise IllegalAction(f"{a.unit} is not deployed artillery with a support factor",
                            rule="Rule 11.A")
    if "barraged" in u.marks or f"support:{s.phase}" in u.marks:
        raise IllegalAction(f"{a.unit} has already fired this phase", rule="Rule 11.A.1")
    if u.assault and u.assault != h:
        raise IllegalAction(f"{a.unit} assaults {u.assault} and fires there",
                            rule="Rule 11.A.1")
    if s.phase == "defense" and "no-df" in u.marks:
        raise IllegalAction(f"{a.unit} failed a barrage morale check", rule="Rule 14.B.1")
    if side == "soviet" and s.udef(a.unit).div != s.hq():
        raise IllegalAction(f"{a.unit} may support only its own division or brigade "
                            f"(headquarters: {s.hq()})", rule="Rule 11.A.1")
    if s.phase == "defense":
        dist = s.map.distance(u.loc, h)
    else:
        dist = min((s.map.distance(u.loc, s.pos.units[x].loc) for x in s.attackers(h)),
                   default=99)
    if dist > t.range:
        raise IllegalAction(f"{a.unit} is out of range", rule="Rule 11.A.2")


def check_fire(s: WDState, a: WDAction, kind: str = "conv") -> None:
    s._combat_turn()
    tgt = a.unit
    if tgt not in s.targets(kind):
        raise IllegalAction(f"{tgt} may not be fired at with "
                            f"{'conventional' if kind == 'conv' else 'antitank'} fire here",
                            rule="Rule 9.B" if kind == "conv" else "Rule 10.B")
    if any(al.target == tgt for al in s._combat().alloc):
        raise IllegalAction(f"{tgt} has already been fired at this phase", rule="Rule 9.C.3")
    if a.amount > s.pool(kind):
        raise IllegalAction(f"only {fmt_amount(s.pool(kind))} fire points are left",
                            rule="Rule 9.C.3")
    if kind == "conv":
        s._weapons_limit(tgt, a.amount)


def check_fire_at(s: WDState, a: WDAction) -> None:
    check_fire(s, a, "at")


def check_done(s: WDState, a: WDAction) -> None:
    s._need_phase("defense", "assault", rule="Rule 5")


def do_hq(s: WDState, a: WDAction) -> list[Event]:
    c = s._combat()
    c.hq = a.unit
    return [Event(f"{a.unit} is the controlling headquarters at {c.hex}",
                  "info", rule="Rule 11.A.1")]


def do_high(s: WDState, a: WDAction) -> list[Event]:
    defenders = s.defenders(s._combat().hex)
    pool = s.pool_of(defenders[0]) if defenders else other(s.pos.phasing)
    s.pos.supply[pool] -= 1
    s.pos.paid.add(f"high:{pool}")
    return [Event("One supply point is spent for high intensity defensive support", "info",
                  rule="Rule 15.A.4")]


def do_support(s: WDState, a: WDAction) -> list[Event]:
    c = s._combat()
    c.support.append(a.unit)
    s.pos.units[a.unit].marks.add(f"support:{s.phase}")
    return [Event(f"{a.unit} supports at {c.hex} "
                  f"(+{fmt_amount(s.support_value(a.unit))})", "info", rule="Rule 11.A")]


def do_fire(s: WDState, a: WDAction, kind: str = "conv") -> list[Event]:
    s._combat().alloc.append(Allocation(a.unit, kind, a.amount))
    return [Event(f"{a.n} {'conventional' if kind == 'conv' else 'antitank'} fire points at "
                  f"{a.unit}", "attack", visible_to=(s._current_player() or "",),
                  rule="Rule 9" if kind == "conv" else "Rule 10")]


def do_fire_at(s: WDState, a: WDAction) -> list[Event]:
    return do_fire(s, a, "at")


def do_done(s: WDState, a: WDAction) -> list[Event]:
    """``done firing``: the Default Actions allocate what is left; the defender's fire
    is resolved at once (Rule 5: "Combat immediately ensues until resolved"), the
    assaulting player's is an assault plan, resolved with the others at RESOLVE."""
    c = s.pos.combat
    events: list[Event] = []
    if c is None:
        return events
    for tgt, kind, amt in s.default_allocation():
        try:
            if kind == "conv":
                s._weapons_limit(tgt, amt)
            c.alloc.append(Allocation(tgt, kind, amt))
            events.append(Event(f"Default allocation: {fmt_amount(amt)} at {tgt}", "attack",
                                rule="Default actions"))
        except IllegalAction:
            continue
    if s.phase == "defense":
        return events + s._fire_plan("df")
    # the manual's Assault menu: "Continue until you have completed assault plans on
    # all the enemy hexes you selected ..., then go to RESOLVE"
    s.pos.plans.append(c)
    s.pos.combat = None
    return [*events, Event(f"The assault plan against {c.hex} is complete", "phase",
                           hexes=(c.hex,), rule="RESOLVE")]


def check_advance(s: WDState, a: WDAction) -> None:
    s._need_phase("advance", rule="Rule 9.D")
    if a.unit not in s.pos.advance.get(a.hex, []):
        raise IllegalAction(f"{a.unit} did not assault {a.hex} or may not advance",
                            rule="Rule 9.D")
    if s.units_at(a.hex, other(s.pos.phasing)):
        raise IllegalAction(f"{a.hex} is not vacated", rule="Rule 9.D")
    bar = s._advance_bar(a.unit, a.hex)
    if bar is not None:
        raise bar
    if not s.stack_ok_with(a.hex, a.unit):
        raise IllegalAction(f"advancing {a.unit} would break the stacking limit",
                            rule="Rule 14.B.3")


def check_end_advance(s: WDState, a: WDAction) -> None:
    s._need_phase("advance", rule="Rule 9.D")


def do_advance(s: WDState, a: WDAction) -> list[Event]:
    frm = s.pos.units[a.unit].loc
    s._put(a.unit, a.hex)
    s.pos.advance[a.hex] = [x for x in s.pos.advance[a.hex] if x != a.unit]
    if not s.pos.advance[a.hex]:
        del s.pos.advance[a.hex]
    return [Event(f"{a.unit} advances from {frm} into {a.hex}", "move",
                  hexes=(frm, a.hex), units=(a.unit,), rule="Rule 9.D")]


def do_end_advance(s: WDState, a: WDAction) -> list[Event]:
    s.pos.advance = {}
    return []
