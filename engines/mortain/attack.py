"""Mortain Counterattack's attack, step by step: the combat phase's choice (S7, S8.3),
attackers (S7.2), support fire (S8.2), the Integrated CRT roll, its results (7.8, S7.7)
and the advance (S7.9)."""

from __future__ import annotations

from engines.mortain import combat
from engines.mortain.notation import (
    ADVANCE,
    ATTACK,
    BOMBARD,
    DEPLETE,
    END_COMBAT,
    NO_ADVANCE,
    NO_SUPPORT,
    RESOLVE,
    RETREAT,
    RETREAT_ATTACKERS,
    SUPPORT,
    WITH,
    act,
)
from engines.mortain.position import Combat, Status
from engines.mortain.state import MortainState
from engines.mortain.victory import note_mortain
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import NON_PHASING, PHASING, Choice, Flow, NoArgs, Procedure, Refusal, Roll

#: S7.7, the refusal of a retreat not listed (the defender's and each attacker's)
RETREAT_REFUSAL = Refusal("S7.7", "a retreat goes its whole length, each hex farther away, "
                          "never into an enemy unit or ZOC, an occupied hex or across the "
                          "See (14.2)")


def retreat_length(s: MortainState) -> int:
    """7.8: the hexes a D2, D3 or A1-A3 result retreats, the number it names."""
    return int(s.fight().result[1])


def retreats(s: MortainState, unit: str) -> list[Action]:
    """S7.7: ``unit``'s retreats of the result's length (7.8), one an end it may reach."""
    return [RETREAT(unit, h) for h in combat.retreat_ends(s, unit, retreat_length(s))]


def retreat_or_deplete(s: MortainState, unit: str, a: Act, rule: str, why: str) -> None:
    """The retreat chosen (S7.7), or the step lost in its stead under ``rule``: by choice
    (7.8) or for want of a way (S7.7)."""
    if a.kind == "deplete":
        combat.deplete(s, unit, rule, why)
    else:
        combat.retreat(s, unit, a.text("to"))


class OfCombat(Choice[MortainState]):
    """A decision of the combat in progress (S7): its prompt names that combat's target,
    result, attackers and retreats (``{fight}``, :class:`Combat`'s fields)."""

    def prompt_fields(self, s: MortainState, args: NoArgs) -> dict[str, Combat]:
        return {"fight": s.fight()}


def surprise(s: MortainState) -> bool:
    """18.0: on Aug. 6th no US unit moves from its set-up hex, nor advances after combat."""
    return s.pos.turn == 1 and s.pos.phasing == "us"


class CombatPhase(Choice[MortainState]):
    """S7: attacks (each defending hex once, each unit once), S8.3 bombardments."""

    name = "combat"
    kind = "combat"
    rule = "S7"
    decider = PHASING
    default_action = END_COMBAT
    prompt_template = "the {side} player's combat phase, turn {turn}"

    def prompt_fields(self, s: MortainState, args: NoArgs) -> dict[str, int]:
        return {"turn": s.pos.turn}

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        pos = s.pos
        out: list[Action] = []
        occ = s.occupant()
        for h, u in sorted(occ.items()):
            if s.side_of(u) == pos.phasing or h in pos.targets:
                continue
            if combat.eligible(s, h):
                out.append(ATTACK(h))
            if pos.chits.get(pos.phasing) and combat.beside(s, h, occ):
                out.append(BOMBARD(h))
        out.append(END_COMBAT)
        return out

    def check(self, s: MortainState, args: NoArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the one hex declared
        (:func:`combat.declared`); anything it does not settle, the listing decides."""
        if isinstance(action, Act) and combat.declared(s, action):
            return
        super().check(s, args, action)

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "attack":
            h = a.text("target")
            if h in s.pos.targets:
                return Refusal("S7.1", f"{h} has already been attacked this phase")
            occ = s.occupant()
            if h in occ and s.side_of(occ[h]) != s.pos.phasing and combat.beside(s, h, occ):
                return Refusal("14.2", "no attack across an unbridged See hexside")
            return Refusal("S7.1", f"no enemy unit in {h} adjacent to a unit that may attack")
        if a.kind == "bombard":
            return Refusal("S8.3", "a bombardment needs a support fire marker and a friendly "
                           "unit adjacent to the target")
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        pos = s.pos
        a = act(action)
        if a.kind == "end-combat":
            pos.attacked, pos.targets = set(), set()
            pos.phase = "mobile"
            flow.end()
            return [Event(f"{pos.phasing} ends combat", "phase", rule="S7")]
        h = a.text("target")
        bombard = a.kind == "bombard"
        pos.targets.add(h)
        pos.combat = Combat(h, bombard=bombard)
        flow.call("support" if bombard else "attackers")
        what = "bombards" if bombard else "attacks"
        return [Event(f"{pos.phasing} {what} {h}", "attack", hexes=(h,),
                      rule="S8.3" if bombard else "S7")]


class Attackers(Choice[MortainState]):
    """S7.2: the attacking units, one at a time."""

    name = "attackers"
    kind = "attackers"
    rule = "S7.2"
    decider = PHASING
    default_option = -1
    refusal = Refusal("S7.2", "an attacker is a unit adjacent to the target, not across "
                      "an unbridged See hexside (14.2), that has not attacked this phase")

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return f"attackers against {c.target}: {', '.join(c.attackers) or 'none yet'}"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        cands = [u for u in combat.eligible(s, c.target) if u not in c.attackers]
        out: list[Action] = [WITH(u) for u in cands]
        if c.attackers:
            out.append(RESOLVE)
        return out

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        if a.kind == "with":
            c.attackers.append(a.text("unit"))
            s.pos.attacked.add(a.text("unit"))
            return []
        flow.goto("support")
        return [Event(f"{', '.join(c.attackers)} attack {c.target}", "attack",
                      hexes=(c.target,), units=tuple(c.attackers), rule="S7.2")]


class Support(Choice[MortainState]):
    """S8.2: the attacker adds support fire markers (a bombardment needs one, S8.3)."""

    name = "support"
    kind = "support"
    rule = "S8.2"
    decider = PHASING
    default_option = -1

    def mine(self, s: MortainState) -> list[int]:
        c = s.fight()
        return c.att_chits

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        c = s.fight()
        return (f"the {self.side(s, args)} player may add support fire against {c.target} "
                f"(holds {s.pos.chits.get(self.side(s, args), [])})")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        side = self.side(s, args)
        held = s.pos.chits.get(side, [])
        mine = self.mine(s)
        out: list[Action] = []
        if len(mine) < s.r.per_combat:
            out = [SUPPORT(v) for v in sorted(set(held))]
        c = s.fight()
        if mine or not (c.bombard and self.name == "support"):
            out.append(NO_SUPPORT)
        return out

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        if act(action) == NO_SUPPORT:
            return Refusal("S8.3", "a bombardment is made with support fire only")
        return Refusal("S8.2", f"at most {s.r.per_combat} support fire markers a side in one "
                       "combat, from those drawn this turn (16.0)")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        side = self.side(s, args)
        if a.kind == "support":
            v = a.number("value")
            s.pos.chits[side].remove(v)
            self.mine(s).append(v)
            return [Event(f"{side} commits support fire {v}", "info", rule="S8.2")]
        flow.goto("def-support" if self.name == "support" else "combat-roll")
        return []


class DefSupport(Support):
    """S8.2: the defender adds support fire markers (standing order: none, or strongest)."""

    name = "def-support"
    kind = "defensive-support"
    rule = "S8.2"
    decider = NON_PHASING
    order = "commit no support fire in defense"
    order_policies = (("strongest", "commit the strongest marker held, up to the limit"),)

    def mine(self, s: MortainState) -> list[int]:
        c = s.fight()
        return c.def_chits


class CombatRoll(Roll[MortainState]):
    """The Integrated CRT: attack minus defense on the defender's terrain row, one die."""

    name = "combat-roll"
    rule = "ICRT"

    def request(self, s: MortainState, args: NoArgs) -> ChanceRequest:
        c = s.fight()
        a, d, row = combat.strengths(s)
        return ChanceRequest.roll(f"combat at {c.target}: {a} - {d} = {a - d:+d} on the "
                                  f"{row} row", 6, rule=self.rule)

    def resolve(self, s: MortainState, args: NoArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        c = s.fight()
        a, d, row = combat.strengths(s)
        roll = int(outcome[0])
        res = s.r.icrt.result(row, a - d, roll)
        if c.bombard and res in ("A1", "A2", "A3", "(A)", "Ae"):
            res = "-"  # S8.3: no attacking units to suffer
        c.result = res
        defender = s.occupant()[c.target]
        s.tell(Event(f"combat at {c.target}: {a} - {d} = {a - d:+d}, {row} row, die {roll}: "
                     f"{res}", "roll", hexes=(c.target,), rule=f"ICRT {res}"))
        if s.r.map.terrain_of(c.target) == "hedgerow":
            s.tell(Event(f"{c.target} is a hedgerow hex: the Hedgerow row, whatever the "
                         "direction of the attack", "info", hexes=(c.target,), rule="14.1"))
        elif row == "hill" and s.r.map.terrain_of(c.target) != "hill":
            s.tell(Event("an attack wholly across bridged See hexsides: the See River "
                         "(bridged) row", "info", hexes=(c.target,), rule="14.2"))
        if res == "De":
            combat.eliminate(s, defender, "ICRT De")
            flow.goto("advance")
        elif res in ("D2", "D3"):
            flow.goto("def-result")
        elif res == "Ex":
            combat.deplete(s, defender, "ICRT Ex")
            if c.bombard:
                flow.goto("end-combat")
            else:
                flow.goto("att-loss")
        elif res == "(A)":
            flow.goto("att-loss")
        elif res in ("A1", "A2", "A3"):
            flow.goto("att-result")
        elif res == "Ae":
            for u in list(c.attackers):
                combat.eliminate(s, u, "ICRT Ae")
            flow.goto("end-combat")
        else:
            flow.goto("end-combat")
        return []


class DefResult(OfCombat):
    """D2/D3 (7.8): the defender retreats two (three) hexes or depletes instead."""

    name = "def-result"
    kind = "retreat-or-deplete"
    rule = "7.8"
    decider = NON_PHASING
    default_option = 0
    refusal = RETREAT_REFUSAL
    order = "retreat (to the first hex listed) when a retreat is possible, else deplete"
    order_policies = (("deplete", "deplete the unit instead of retreating"),)
    prompt_template = ("{fight.result} at {fight.target}: the {side} player retreats "
                       "{fight.result[1]} hexes or depletes the unit (7.8)")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        u = s.occupant()[s.fight().target]
        return [*retreats(s, u), DEPLETE(u)]

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        flow.goto("advance")
        retreat_or_deplete(s, a.text("unit"), a, "7.8", " instead of retreating")
        return []


class AttLoss(OfCombat):
    """(A) and Ex: one attacking unit of the attacker's choice is depleted."""

    name = "att-loss"
    kind = "attacker-loss"
    rule = "ICRT"
    decider = PHASING
    default_option = 0
    auto = True
    prompt_template = "{fight.result}: the {side} player depletes one attacking unit"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        return [DEPLETE(u) for u in c.attackers]

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        u = act(action).text("unit")
        combat.deplete(s, u, f"ICRT {c.result}")
        if s.pos.units[u].status is Status.ELIMINATED:
            c.attackers.remove(u)
        flow.goto("advance" if c.result == "Ex" else "end-combat")
        return []


class AttResult(OfCombat):
    """A1-A3 (7.8): the attacking units retreat, or one of them is depleted instead."""

    name = "att-result"
    kind = "attacker-retreat"
    rule = "7.8"
    decider = PHASING
    default_option = 0
    refusal = Refusal("S7.7", "every attacking unit must be able to retreat the whole "
                      "length, else one is depleted (7.8)")
    prompt_template = ("{fight.result}: the attackers retreat {fight.result[1]} hexes, or "
                       "one is depleted (7.8)")

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        n = retreat_length(s)
        out: list[Action] = []
        if all(combat.retreat_ends(s, u, n) for u in c.attackers):
            out.append(RETREAT_ATTACKERS)
        out += [DEPLETE(u) for u in c.attackers]
        return out

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        if a.kind == "deplete":
            flow.goto("end-combat")
            combat.deplete(s, a.text("unit"), "7.8", " instead of retreating")
            return []
        c.retreating = list(c.attackers)
        flow.goto("att-retreat")
        return []


class AttRetreat(OfCombat):
    """S7.7: each attacking unit in turn retreats its hexes."""

    name = "att-retreat"
    kind = "attacker-retreat-path"
    rule = "S7.7"
    decider = PHASING
    default_option = 0
    refusal = RETREAT_REFUSAL
    prompt_template = "retreat {fight.retreating[0]} {fight.result[1]} hexes"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        u = s.fight().retreating[0]
        # an earlier retreat closed the way: the unit depletes (S7.7)
        return retreats(s, u) or [DEPLETE(u)]

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        retreat_or_deplete(s, c.retreating.pop(0), act(action), "S7.7", ": no retreat left")
        if not c.retreating:
            flow.goto("end-combat")
        return []


class Advance(OfCombat):
    """S7.9: when the defender's hex is left empty, one attacking unit may advance into it."""

    name = "advance"
    kind = "advance"
    rule = "S7.9"
    decider = PHASING
    auto = True
    default_action = NO_ADVANCE
    prompt_template = "advance after combat into {fight.target}?"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        c = s.fight()
        out: list[Action] = []
        if c.target not in s.occupant() and not surprise(s):
            out = [ADVANCE(u) for u in c.attackers if s.pos.units[u].status is Status.MAP]
        out.append(NO_ADVANCE)
        return out

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        if surprise(s):
            return Refusal("18.0", "surprise: on Aug. 6th no US unit may move from its "
                           "set-up hex, nor advance after combat")
        return Refusal("S7.9", "only an attacking unit advances, into the defender's hex "
                       "once it is empty")

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        c = s.fight()
        a = act(action)
        flow.goto("end-combat")
        if a.kind == "no-advance":
            return []
        u = a.text("unit")
        frm = s.pos.units[u].hex
        s.pos.units[u].hex = c.target
        note_mortain(s)
        return [Event(f"{u} advances {frm} to {c.target}", "move", hexes=(frm, c.target),
                      units=(u,), rule="S7.9")]


class EndCombat(Procedure[MortainState]):
    name = "end-combat"
    rule = "S7"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        s.pos.combat = None
        flow.end()
        return []
