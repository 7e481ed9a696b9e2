"""48th Panzer Korps: the steps of an attack (3.1, 7, 8.1): declaring it, the
fire of each side, morale.
"""

from __future__ import annotations

from engines.panzer48.combat import (
    artillery_pool,
    attack_pool,
    began_with,
    crt_column,
    end_fire,
    fire_shift,
    fire_value,
    firers,
    lose,
    next_targets,
    prepared_attackers,
)
from engines.panzer48.data import other
from engines.panzer48.notation import (
    ADD,
    ATTACK,
    CANCEL,
    CHECK,
    END_COMBAT,
    END_FIRE,
    FIRE,
    GO,
    RETREAT,
    ROLL,
    SUPPORT,
    WITH,
    act,
)
from engines.panzer48.position import Combat, Fire, MoraleArgs
from engines.panzer48.state import P48State
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.steps import PHASING, Choice, Flow, NoArgs, Refusal, Roll


class Prepared(Choice[P48State]):
    """3.1: units that began the phase adjacent to the enemy may make prepared attacks."""

    name = "prepared"
    kind = "prepared-combat"
    rule = "3.1"
    decider = PHASING
    prompt_template = "the {side} player may make prepared attacks"
    default_action = END_COMBAT

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        targets = sorted({n for u in prepared_attackers(s)
                          for n in s.d.map.neighbors(s.pos.units[u].hex)
                          if s.owner_at(n) == other(s.pos.phasing)})
        return [*(ATTACK(h) for h in targets), END_COMBAT]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "attack":
            return Refusal("7", f"no unit that began the phase adjacent to {a.text('hex')} "
                           "can attack it (3.1: adjacent at the start, one attack each)")
        return f"{action.notation()!r} is not allowed in the Prepared Combat Phase"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        if a.kind == "end-combat":
            flow.end()
            return []
        h = a.text("hex")
        s.pos.combat = Combat(h, s.pos.phasing, True, defenders=s.at(h))
        flow.call("declare")
        return [Event(f"{s.pos.phasing} prepares an attack on {h}", "attack",
                      hexes=(h,), rule="3.1")]


class Declare(Choice[P48State]):
    """7.1.A: the attacker states the attacking units and the supporting artillery."""

    name = "declare"
    kind = "declare-attack"
    rule = "7.1"
    decider = PHASING

    def prompt(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return (f"attack on {c.hex}: add attackers and artillery, then go "
                f"(attackers: {', '.join(c.attackers) or 'none'})")

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        out: list[Action] = [WITH(u) for u in attack_pool(s) if u not in c.attackers]
        out += [SUPPORT(u) for u in artillery_pool(s, c.attacker, [c.hex], c.support)
                if u not in c.attackers]
        if c.attackers:
            out.append(GO)
        out.append(CANCEL)
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        c = s.fight()
        return GO if c.attackers else CANCEL

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "with":
            c = s.fight()
            u = a.text("unit")
            if (not c.prepared and c.attackers and u in s.pos.moving
                    and not began_with(s, u, c.attackers[0])):
                return Refusal("4", f"{u} did not begin the phase stacked with "
                               f"{c.attackers[0]}: only units which began the phase stacked "
                               "together may participate in the same hasty attack")
            return Refusal("7", f"{u} may not join this attack (adjacent units only; "
                           "one attack per unit per phase; 4: hasty attacks only by units "
                           "that began the phase stacked together)")
        if a.kind == "support":
            return Refusal("7.6", f"{a.text('unit')} cannot support: artillery in range and "
                           "not adjacent only")
        if a.kind == "go":
            return Refusal("7", "every attack must involve at least one adjacent unit")
        return f"{action.notation()!r} is not part of declaring an attack"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        c = s.fight()
        if a.kind == "with":
            c.attackers.append(a.text("unit"))
            return []
        if a.kind == "support":
            c.support.append(a.text("unit"))
            return []
        if a.kind == "cancel":
            s.pos.combat = None
            for u in s.pos.moving:  # a hasty attack called off ends the move (3.2)
                s.pos.units[u].moved = True
            s.pos.moving = []
            flow.end()
            return [Event(f"the attack on {c.hex} is called off", "attack", rule="7")]
        for u in c.attackers:
            s.pos.units[u].attacked = True
            if c.prepared:
                s.pos.units[u].flipped = True  # 3.1
        c.stage = "defense"
        flow.goto("fire")
        return [Event(f"{', '.join(c.attackers)} attack {c.hex}"
                      + (f" supported by {', '.join(c.support)}" if c.support else ""),
                      "attack", hexes=(c.hex,), units=tuple(c.attackers), rule="7.1")]


class FireStep(Choice[P48State]):
    """7.1.B/C, 7.2: fires announced one at a time by the defender, then the attacker:
    a target, the firing units (combined fire), the supporting artillery, then roll."""

    name = "fire"
    kind = "defensive-fire"
    rule = "7.2"
    auto = True
    # 7.2, not 7.1: every answer it gives (a fire, an added unit, support, the roll) is a
    # move of 7.2's Fire Sequence; 7.1's "Defensive Fire" says only who may fire
    order = "fire each unit in turn at the first target the priorities allow, then roll each fire"

    def side(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return other(c.attacker) if c.stage == "defense" else c.attacker

    def prompt(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        who = "defender" if c.stage == "defense" else "attacker"
        if c.fire:
            return (f"the {who} fires at {c.fire.target} with {', '.join(c.fire.units)}"
                    f"{' + ' + ', '.join(c.fire.support) if c.fire.support else ''}: add "
                    "units or artillery, or roll")
        return f"the {who} ({self.side(s, args)}) announces a fire in the attack on {c.hex}"

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        side = self.side(s, args)
        if c.fire is None:
            out: list[Action] = [FIRE(u, t) for u in firers(s, side)
                                 for t in next_targets(s, side)
                                 if s.d.map.distance(s.pos.units[u].hex,
                                                     s.pos.units[t].hex) == 1]
            return [*out, END_FIRE]
        target = c.fire.target
        out = [ADD(u) for u in firers(s, side) if u not in c.fire.units
               and s.d.map.distance(s.pos.units[u].hex, s.pos.units[target].hex) == 1]
        used = c.fired + c.fire.support
        pool = c.support if side == c.attacker else None
        for u in artillery_pool(s, side, [s.pos.units[target].hex], used):
            if pool is None or u in pool:
                out.append(SUPPORT(u))
        return [*out, ROLL]

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = s.options_for(self, args)
        c = s.fight()
        return ROLL if c.fire is not None else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "fire":
            c = s.fight()
            u, target = a.text("unit"), a.text("target")
            if u in c.fired:
                return Refusal("7.2", f"{u} has fired in this combat: each unit fires once")
            if target in c.targeted:
                return Refusal("7.2", f"{target} has been fired on in this combat: each "
                               "unit is fired at only once per combat")
            return Refusal("7.3", f"{target} may not be fired at now: armor, then "
                           "personnel, then weapons in each stack, strongest first")
        if a.kind == "support":
            return Refusal("7.6", f"{a.text('unit')} cannot support this fire")
        return f"{action.notation()!r} is not a fire now"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        c = s.fight()
        if a.kind == "fire":
            c.fire = Fire(a.text("target"), [a.text("unit")], [])
            return []
        if a.kind == "add":
            assert c.fire is not None
            c.fire.units.append(a.text("unit"))
            return []
        if a.kind == "support":
            assert c.fire is not None
            c.fire.support.append(a.text("unit"))
            return []
        if a.kind == "roll":
            flow.call("fire-roll")
            return []
        flow.end()  # this side's fires are over: end_fire queues what comes next
        end_fire(s)
        return []


class AttackFire(FireStep):
    """7.1.C: the attacker's fires, after the defender's."""

    name = "attack-fire"
    kind = "attack-fire"
    rule = "7.2"
    order = ""  # the attacker's fires take no standing order: he fires in his own turn


class FireRoll(Roll[P48State]):
    name = "fire-roll"
    rule = "7.2"

    def request(self, s: P48State, args: NoArgs) -> ChanceRequest:
        c = s.pos.combat
        assert c is not None and c.fire is not None
        return ChanceRequest.roll(f"fire at {c.fire.target}", 6, rule=self.rule)

    def resolve(self, s: P48State, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        c = s.pos.combat
        assert c is not None and c.fire is not None
        fire = c.fire
        th = s.pos.units[fire.target].hex
        cap = c.caps.get(th)
        value, notes = fire_value(s, fire, cap)
        fired_steps = sum(s.steps_of(u) for u in fire.units)
        c.caps[th] = min(fired_steps, cap) if cap is not None else fired_steps
        attacker_fire = (s.d.units[fire.units[0]].side == c.attacker)
        shift = fire_shift(s, fire, c.prepared and attacker_fire)
        col = crt_column(s, value, shift)
        c.fired += fire.units + fire.support
        c.targeted.append(fire.target)
        c.fire = None
        roll = int(outcome[0])
        text = f"{', '.join(fire.units + fire.support)} fire at {fire.target}: value {value}"
        for note in notes:
            s.tell(Event(note, "info", rule="7.3"))
        s.tell(Event(f"fire value {value} against {s.d.units[fire.target].target}-class "
                     f"{fire.target}", "info", rule="7.4"))
        if fire.support:
            s.tell(Event(f"{', '.join(fire.support)} support the fire", "info", rule="7.6"))
        if col is None:
            return [Event(f"{text}, shifted off the table: no effect", "roll", rule="7.5")]
        result = s.d.crt[roll][col]
        s.tell(Event(f"{text}, column {s.d.crt_columns[col]}, roll {roll}: {result}",
                     "roll", units=(fire.target,), rule="7.2"))
        if result == "-":
            return []
        morale, loss = (int(x) for x in result.split("-"))
        before = s.steps_of(fire.target)
        lose(s, fire.target, loss, "8")
        if attacker_fire:
            c.largest = max(c.largest, morale)
        if morale and s.pos.units[fire.target].where == "map":
            flow.goto("morale-option", MoraleArgs(fire.target, morale, loss, before,
                                                  s.d.units[fire.target].side == c.attacker))
        elif s.pos.units[fire.target].where != "map":
            # loaded when a unit leaves a hex: a fire that removes none needs no
            # movement rule (issue 35)
            from engines.panzer48.movement import after_move

            after_move(s)
        return []


class MoraleOption(Choice[P48State]):
    """8.1: the player suffering a morale result retreats, or elects a morale check if
    the unit can absorb both numbers."""

    name = "morale-option"
    kind = "morale-option"
    rule = "8.1"
    Args = MoraleArgs
    prompt_template = "{unit} suffers a morale result of {morale}: retreat, or take a morale check"
    default_action = RETREAT
    order = "retreat rather than take morale checks"
    order_policies = (("check", "take the morale check whenever 8.1 allows it"),)
    decider_unit = "unit"

    def options(self, s: P48State, args: MoraleArgs) -> list[Action]:
        out: list[Action] = [RETREAT]
        if args.morale + args.loss <= args.steps_before:
            out.append(CHECK)
        return out


    def why_not(self, s: P48State, args: MoraleArgs, action: Action) -> str | Refusal:
        if action == CHECK:
            return Refusal("8.1", f"{args.unit} cannot absorb {args.morale} + {args.loss} "
                           f"steps with {args.steps_before}: it must retreat")
        return "retreat or check"

    def apply(self, s: P48State, args: MoraleArgs, action: Action, flow: Flow) -> list[Event]:
        if action == CHECK:
            flow.goto("morale-roll", args)
            return [Event(f"{args.unit} takes a morale check", "morale", rule="8.1")]
        flow.goto("retreat-start", args)
        return [Event(f"{args.unit} retreats", "morale", rule="8.1")]


class MoraleRoll(Roll[P48State]):
    """8.2: pass on a roll at or under the formation's morale value.  Either way the unit
    absorbs the morale number in steps (8.1's example); a failure also retreats."""

    name = "morale-roll"
    rule = "8.2"
    Args = MoraleArgs
    dice = (6,)
    purpose_template = "morale check of {unit}"

    def resolve(self, s: P48State, args: MoraleArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        value = s.d.morale[s.d.units[args.unit].formation]
        roll = int(outcome[0])
        passed = roll <= value
        s.tell(Event(f"{args.unit} morale {value}, roll {roll}: "
                     f"{'passed' if passed else 'failed'}", "morale", units=(args.unit,),
                     rule="8.2"))
        lose(s, args.unit, args.morale, "8.1")
        if not passed:
            s.pos.units[args.unit].failed = True
            flow.goto("retreat-start", args)
        else:
            # loaded when a unit leaves a hex: a fire that removes none needs no
            # movement rule (issue 35)
            from engines.panzer48.movement import after_move

            after_move(s)
        return []


#: this module's steps, which the step table (engines.panzer48.sequence.STEPS) makes
#: when one of them is first asked for
STEPS = (Prepared(), Declare(), FireStep(), AttackFire(), FireRoll(), MoraleOption(),
         MoraleRoll())
