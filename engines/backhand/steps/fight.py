"""The Combat Phase (16.0) once an attack is declared (the declaration is
steps/declare.py's): the attackers, chits, the CRT, random events, hits and retreats, the
advance after combat."""

from __future__ import annotations

from engines.backhand.combat import (
    AttackArgs,
    can_attack,
    crt_result,
    random_event,
)
from engines.backhand.control import control_events, eliminate, put
from engines.backhand.data import roll_lookup
from engines.backhand.fronts import paying_front
from engines.backhand.notation import w
from engines.backhand.position import (
    OFF,
    Cities,
    other,
)
from engines.backhand.retreat import (
    AdvanceArgs,
    HitArgs,
    defending,
    hit_stack,
    movable,
    must_retreat,
    retreats,
    second_hexes,
)
from engines.backhand.state import BBState
from engines.backhand.steps import SideChoice
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import Choice, Flow, Refusal, Roll


class Attackers(SideChoice):
    name = "attackers"
    kind = "combat"
    rule = "16.0"
    Args = AttackArgs

    def prompt(self, s: BBState, a: AttackArgs) -> str:
        return f"attack {a.target} with: {', '.join(a.units) or '(none yet)'}"

    def options(self, s: BBState, a: AttackArgs) -> list[Action]:
        near = sorted(u for n in s.data.nbrs.get(a.target, ())
                      for u in s.occupied(a.side).get(n, ()))
        out: list[Action] = [w("with", u) for u in near
                             if u not in a.units and can_attack(s, u, a, a.target)]
        if a.units and (a.kind != "sp" or a.side == "german" or paying_front(s,
                [s.pos.units[u].at for u in a.units]) is not None):
            out.append(w("resolve"))
        out.append(w("cancel"))
        return out

    default_action = w("cancel")

    def why_not(self, s: BBState, a: AttackArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "resolve":
            return Refusal("16.0", "in a Soviet attack at least one unit must be in range of "
                           "a Front Marker with activity points")
        return Refusal("16.0", f"{action.notation()!r}: not a unit able to attack {a.target}")

    def apply(self, s: BBState, a: AttackArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "cancel":
            flow.end()
            return []
        if action.kind == "with":
            flow.goto("attackers", AttackArgs(a.side, a.kind, a.target,
                                              tuple(sorted([*a.units, action.text("unit")]))))
            return []
        if a.kind == "sp":
            if a.side == "german":
                s.pos.ap["german"] -= 1
            else:
                f = paying_front(s, [s.pos.units[u].at for u in a.units])
                assert f is not None
                s.pos.ap[f] -= 1
        for u in a.units:
            s.pos.units[u].fought = True
        flow.goto("chit", AttackArgs(a.side, a.kind, a.target, a.units, ()))
        return [Event(f"{', '.join(a.units)} attack {a.target}", "combat", rule=self.rule,
                      hexes=(a.target,), units=a.units)]


class Chit(Choice[BBState]):
    """Combat chits (stand-in chart): the attacker, then the defender, may play one."""

    name = "chit"
    kind = "chit"
    rule = "16.73"
    Args = AttackArgs
    order = "play no chit"
    order_policies = (("play", "play the first chit held"),)

    def side(self, s: BBState, a: AttackArgs) -> str:
        return a.side if len(a.chits) == 0 else other(a.side)

    prompt_template = "play a combat chit in the attack on {target}?"

    def options(self, s: BBState, a: AttackArgs) -> list[Action]:
        side = self.side(s, a)
        attacking = len(a.chits) == 0
        out: list[Action] = []
        for c in s.pos.chits[side]:
            if c in s.pos.used_chits:
                continue
            if (s.data.chit_drm[side][c] > 0) == attacking:
                out.append(w("chit", c))
        return [*out, w("no-chit")]

    default_action = w("no-chit")

    def apply(self, s: BBState, a: AttackArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        c = action.text("chit") if action.kind == "chit" else "-"
        ev = []
        if c != "-":
            s.pos.used_chits = sorted([*s.pos.used_chits, c])
            ev.append(Event(f"{self.side(s, a)} plays {c}", "info", rule=self.rule))
        chits = (*a.chits, c)
        nxt = AttackArgs(a.side, a.kind, a.target, a.units, chits)
        flow.goto("chit" if len(chits) < 2 else "crt", nxt)
        return ev


class CRTRoll(Roll[BBState]):
    """16.1 odds; the modified 2d6 on the CRT; 16.8 SNAFU on 3 and 11; events on 2, 12."""

    name = "crt"
    rule = "16.1"
    Args = AttackArgs

    def request(self, s: BBState, a: AttackArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"combat against {a.target}", 6, 6, rule=self.rule)

    def resolve(self, s: BBState, a: AttackArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        raw = int(outcome[0]) + int(outcome[1])
        hits, ev = crt_result(s, a, raw)
        if raw in (2, 12):
            flow.goto("event", hits)
        else:
            flow.goto("hits", hits)
        return ev


class EventRoll(Roll[BBState]):
    name = "event"
    rule = "16.1"
    Args = HitArgs

    def request(self, s: BBState, a: HitArgs) -> ChanceRequest:
        return ChanceRequest.roll("random event", 6, rule="Random Events Table")

    def resolve(self, s: BBState, a: HitArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        kind, text = roll_lookup(s.data.events, int(outcome[0]))
        flow.goto("hits", random_event(s, a, str(kind)))
        return [Event(f"random event: {text}", "info", rule="Random Events Table")]


class Hits(SideChoice):
    """Taking combat hits (stand-in series rule): each hit is a step lost or, for the
    defender, a hex retreated by the whole stack, at most two (16.722: a river crossed
    stops it); an R result makes the first hex compulsory except in a city (16.723)."""

    name = "hits"
    kind = "take-loss"
    rule = "16.0"
    Args = HitArgs
    order = "retreat first where it cancels a hit"
    order_policies = (("losses", "take hits as step losses"),
                      ("stand", "never retreat when not forced"))

    def prompt(self, s: BBState, a: HitArgs) -> str:
        what = "must retreat" if must_retreat(s, a) else "takes"
        return f"the {a.side} stack in {a.target} {what}: {a.hits} hit(s) to take"

    def options(self, s: BBState, a: HitArgs) -> list[Action]:
        stack = hit_stack(s, a)
        rets = retreats(s, a)
        must = must_retreat(s, a) and bool(rets)
        out: list[Action] = []
        if a.hits > 0 and stack and not must:
            out += [w("lose", u) for u in stack]
        out += [w("retreat", h) for h in rets]
        if not must and (a.hits == 0 or not stack):
            out.append(w("done"))
        return out

    def default(self, s: BBState, a: HitArgs) -> Action:
        opts = s.options_for(self, a)
        rets = [o for o in opts if isinstance(o, Act) and o.kind == "retreat"]
        return rets[0] if rets else opts[0]

    def why_not(self, s: BBState, a: HitArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "retreat":
            if a.river:
                return Refusal("16.722", "a retreat stops after crossing a river")
            n = action.text("hex")
            if (a.retreated and n in s.data.map and n in s.data.nbrs[a.target]
                    and s.data.map.has_side(a.target, n, "river")):
                return Refusal("16.722", "a unit cannot cross a river to extend a retreat "
                               "to a second hex")
            if a.target in s.data.cities and a.hits == 0:
                return Refusal("16.723", "nothing left to retreat for")
            return Refusal("16.724", "not a hex the stack may retreat into (enemy, EZOC, "
                           "stacking, swamp for motorized units)")
        if isinstance(action, Act) and action.kind == "lose" and must_retreat(s, a):
            return Refusal("16.0", "an R result: the stack retreats first")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: HitArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        ev: list[Event] = []
        hits, target, retreated, river = a.hits, a.target, a.retreated, a.river
        if action.kind == "lose":
            u = action.text("unit")
            s.pos.units[u].steps -= 1
            hits -= 1
            ev.append(Event(f"{u} loses a step", "loss", rule=self.rule, units=(u,)))
            if (not u.startswith("UP-") and s.data.units[u].steps == 4
                    and s.pos.units[u].steps == 2):
                ev.append(Event(f"{u}: its substitute (S) counter replaces it", "loss",
                                rule="2.45", units=(u,)))
            if s.pos.units[u].steps <= 0:
                ev += eliminate(s, u, self.rule)
        elif action.kind == "retreat":
            n = action.text("hex")
            stack = movable(s, a)
            river = s.data.map.has_side(target, n, "river")
            before = list(s.pos.sov_control)
            put(s, stack, n)
            ev += control_events(s, before)
            if hits > 0:
                hits -= 1
            retreated += 1
            ev.append(Event(f"{', '.join(stack)} retreat {target} to {n}", "retreat",
                            rule=self.rule, hexes=(target, n), units=tuple(stack)))
            target = n
        nxt = HitArgs(a.side, a.attacker, a.kind, target, hits, a.retreat, retreated, river,
                      a.units, a.then, a.no_advance)
        if action.kind != "done" and (self.options(s, nxt) != [w("done")]):
            flow.goto("hits", nxt)
            return ev
        # the hits are taken: the attacker's hits, the advance or the end of the combat
        if defending(a):
            origin = a.then[1]
            vacated = origin if not s.units_at(origin, a.side) else ""
            att = HitArgs(a.attacker, a.attacker, a.kind, vacated, a.then[0], False,
                          retreated, False, a.units, (0, origin), a.no_advance)
            if a.then[0] > 0 and hit_stack(s, att):
                flow.goto("hits", att)
                return ev
            a = att
        survivors = tuple(u for u in a.units if s.pos.units[u].at not in OFF)
        if a.target and not a.no_advance and survivors:
            across = tuple(u for u in survivors
                           if s.data.map.has_side(s.pos.units[u].at, a.target, "river"))
            flow.goto("advance", AdvanceArgs(a.attacker, a.kind, a.target, survivors,
                                             a.retreated, across))
        else:
            flow.end()
        return ev


class AdvanceStep(SideChoice):
    """Advance after combat into the vacated hex, and a second hex for motorized units when
    the defender retreated two (stand-in series rule), never after attacking across a
    river nor across one (16.722); motorized units never into a swamp (16.724)."""

    name = "advance"
    kind = "advance"
    rule = "16.722"
    Args = AdvanceArgs

    prompt_template = "advance into {target}?"

    def options(self, s: BBState, a: AdvanceArgs) -> list[Action]:
        m = s.data.map
        if s.units_at(a.target, other(a.side)):
            return [w("done")]
        out: list[Action] = []
        for u in a.units:
            at = s.pos.units[u].at
            if at in OFF:
                continue
            if at == a.target:
                out += [w("advance", u, n) for n in second_hexes(s, a, u)]
                continue
            if at != a.target and u not in a.second:
                if s.motorized(u) and m.terrain_of(a.target) == "swamp":
                    continue  # 16.724
                if s.stack_ok(a.target, a.side, [u]):
                    out.append(w("advance", u))
        return [*out, w("done")]

    default_action = w("done")

    def why_not(self, s: BBState, a: AdvanceArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "advance" and action["to"] is not None:
            u, n = action.text("unit"), action.text("to")
            if u in a.across:
                return Refusal("16.722", f"{u} attacked across a river: no second hex")
            if n in s.data.map and s.data.map.has_side(a.target, n, "river"):
                return Refusal("16.722", "the second hex may not be across a river")
            return Refusal("16.722", "a second hex only for motorized units after a "
                           "two-hex retreat")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: AdvanceArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "done":
            advanced = tuple(sorted({s.pos.units[u].at for u in a.units
                                     if s.pos.units[u].at == a.target or u in a.second}))
            due: tuple[str, ...] = ()
            if a.side == "soviet":  # 17.0's rules load with a Soviet advance (issue 35)
                from engines.backhand.uprisings import uprisings_due

                due = uprisings_due(s, advanced)
            if due:
                flow.goto("uprising", Cities(due))  # 17.0 for the hexes advanced into
            else:
                flow.end()
            return []
        u = action.text("unit")
        origin = s.pos.units[u].at
        dest = action.text("to") if action["to"] is not None else a.target
        before = list(s.pos.sov_control)
        put(s, [u], dest)
        if action["to"] is not None:
            flow.goto("advance", AdvanceArgs(a.side, a.kind, a.target, a.units, a.retreated,
                                             a.across, (*a.second, u)))
        return [Event(f"{u} advances {origin} to {dest}", "move", rule=self.rule,
                      hexes=(origin, dest), units=(u,)), *control_events(s, before)]


#: this module's steps, which the step table (engines.backhand.sequence.STEPS) makes
#: when the first of them is asked for
STEPS = (Attackers(), Chit(), CRTRoll(), EventRoll(), Hits(), AdvanceStep())
