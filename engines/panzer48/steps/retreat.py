"""48th Panzer Korps: the steps of retreats (8.2, 8.3) and advance after combat (8.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.panzer48.combat import kill, lose
from engines.panzer48.data import other
from engines.panzer48.notation import (
    ADVANCE,
    ELIMINATE,
    END_ADVANCE,
    OFF_MAP,
    PATH_NONE,
    act,
    path_action,
    route,
)
from engines.panzer48.position import MoraleArgs, RetreatArgs
from engines.panzer48.state import P48State
from engines.panzer48.steps import bound_when_called
from pbem.engine import Action, Event
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal

# The rules of retreats (8.3), advances (8.4), movement's after-effects (4), stacking (6)
# and ZOCs (5) are bound when a step first calls one: every attack ends through the
# advance's start, and most have no advance and no retreat to make (issue 35: the
# modules were 1.5 M instructions of an 'act' that rolled an attack's last fire).
if TYPE_CHECKING:
    from engines.panzer48.movement import after_move
    from engines.panzer48.retreat import advance_hexes, on_path, retreat_plan
    from engines.panzer48.stacking import fits
    from engines.panzer48.zoc import armor_in, zoc
else:
    after_move = bound_when_called(globals(), "movement", "after_move")
    advance_hexes = bound_when_called(globals(), "retreat", "advance_hexes")
    on_path = bound_when_called(globals(), "retreat", "on_path")
    retreat_plan = bound_when_called(globals(), "retreat", "retreat_plan")
    fits = bound_when_called(globals(), "stacking", "fits")
    armor_in = bound_when_called(globals(), "zoc", "armor_in")
    zoc = bound_when_called(globals(), "zoc", "zoc")


class RetreatStart(Procedure[P48State]):
    """8.3: the defenders retreat as a stack; an attacking unit retreats alone."""

    name = "retreat-start"
    rule = "8.3"
    Args = MoraleArgs

    def run(self, s: P48State, args: MoraleArgs, flow: Flow) -> list[Event]:
        c = s.fight()
        if args.attacker:
            units = [args.unit] if s.pos.units[args.unit].where == "map" else []
            start = s.pos.units[args.unit].hex
        else:
            start = c.hex
            units = s.at(c.hex)
            c.required = max(c.required, args.morale)
        if not units:
            flow.end()
            after_move(s)
            return []
        flow.goto("retreat", RetreatArgs(units, start, args.morale, not args.attacker))
        return []


class Retreat(Choice[P48State]):
    """8.3: the owner retreats his units along any best path."""

    name = "retreat"
    kind = "retreat-path"
    rule = "8.3"
    Args = RetreatArgs
    auto = True
    decider_unit = "units"
    default_option = 0
    order = "retreat along the first best path"

    def prompt(self, s: P48State, args: RetreatArgs) -> str:
        return f"retreat {', '.join(args.units)} {args.length} hexes from {args.start}"

    def options(self, s: P48State, args: RetreatArgs) -> list[Action]:
        plan = retreat_plan(s, args)
        if plan.kind in ("fit", "overstacked"):
            return [path_action(p) for p in plan.paths]
        if plan.kind == "edge" and not plan.paths:
            return [OFF_MAP]  # 8.3: off the map only when it would be eliminated
        if plan.kind == "edge":
            return [path_action(p, off=True) for p in plan.paths]
        return [PATH_NONE]

    def why_not(self, s: P48State, args: RetreatArgs, action: Action) -> str | Refusal:
        return Refusal("8.3", f"{action.notation()!r} is not a best retreat path: by 8.3's "
                       "priorities the stack retreats together, avoiding enemy-controlled "
                       "hexes, then as far from the adjacent firing units as possible, then "
                       "into enemy ZOC only toward friends; no unbridged river; it ends "
                       "outside enemy ZOC and within stacking")

    def apply(self, s: P48State, args: RetreatArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        c = s.pos.combat
        if a.kind != "path":
            flow.end()
        if a == OFF_MAP:
            for u in args.units:
                x = s.pos.units[u]
                x.where, x.retreated = "off", True
            after_move(s)
            return [Event(f"{', '.join(args.units)} retreat off the map at {args.start}",
                          "retreat", rule="8.3")]
        if a == PATH_NONE:
            s.tell(Event("no legal retreat path", "retreat", rule="8.3"))
            for u in args.units:
                kill(s, u)
            after_move(s)
            return []
        path, off = route(a)
        s.tell(Event(f"{', '.join(args.units)} retreat {'-'.join([args.start, *path])}"
                     + (" and off the map" if off else ""),
                     "retreat", hexes=(path[-1],), rule="8.3"))
        side = s.d.units[args.units[0]].side
        ez = zoc(s, other(side))
        for u in args.units:
            x = s.pos.units[u]
            for h in path:
                if h in ez:
                    if s.d.units[u].target == "W":
                        kill(s, u)  # 8.3: weapons never into an enemy ZOC
                        break
                    two = s.d.units[u].target == "P" and armor_in(s, ez, h)
                    lose(s, u, 2 if two else 1, "8.3")
                    if x.where != "map":
                        break
            if x.where == "map":
                x.hex, x.retreated = path[-1], True
                if off:
                    x.where = "off"  # 8.3: to re-enter by path[-1], its edge hex
        if c is not None and args.defender:
            c.path = path
        after_move(s, args.units)
        if not off:
            left = [u for u in args.units if s.pos.units[u].where == "map"]
            if left and not fits(s, path[-1], side):
                # 8.3 Stacking: no hex it can legally stack in was in reach
                flow.goto("overstacked", RetreatArgs(left, path[-1], 0, args.defender))
            else:
                flow.end()
        return []


class Overstacked(Choice[P48State]):
    """8.3 Stacking: "If the unit cannot reach such a hex, the owning player must
    eliminate retreating units of his choice to relieve the overstacking": one at a
    time until the hex is within the limit (6)."""

    name = "overstacked"
    kind = "retreat-path"
    rule = "8.3"
    Args = RetreatArgs
    auto = True
    # the same kind as the retreat's, so the same standing order (its default: the first
    # unit listed goes)
    order = Retreat.order
    decider_unit = "units"
    default_option = 0

    def prompt(self, s: P48State, args: RetreatArgs) -> str:
        return (f"{args.start} is over the stacking limit: eliminate retreating units "
                f"({', '.join(args.units)}) until it is not")

    def options(self, s: P48State, args: RetreatArgs) -> list[Action]:
        return [ELIMINATE(u) for u in args.units if s.pos.units[u].where == "map"]

    def why_not(self, s: P48State, args: RetreatArgs, action: Action) -> str | Refusal:
        return Refusal("8.3", f"{action.notation()!r}: the owner eliminates retreating units "
                       f"of his choice ({', '.join(args.units)}) until {args.start} is within "
                       "the stacking limit")

    def apply(self, s: P48State, args: RetreatArgs, action: Action, flow: Flow) -> list[Event]:
        u = act(action).text("unit")
        kill(s, u, Event(f"{u} is eliminated to relieve the overstacking in {args.start}",
                         "loss", units=(u,), rule="8.3"))
        after_move(s)
        left = [u for u in args.units if s.pos.units[u].where == "map"]
        if not left or fits(s, args.start, s.d.units[args.units[0]].side):
            flow.end()
        else:
            args.units = left
        return []


class Advance(Choice[P48State]):
    """8.4: if all defenders retreated or were eliminated, the non-weapon attackers
    that fired may advance, hex by hex."""

    name = "advance"
    kind = "advance"
    rule = "8.4"
    auto = True
    prompt_template = "the attacker may advance after combat"

    def side(self, s: P48State, args: NoArgs) -> str:
        c = s.fight()
        return c.attacker


    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        c = s.fight()
        if s.at(c.hex, other(c.attacker)):
            return [END_ADVANCE]
        out: list[Action] = []
        for u, left in sorted(c.advance.items()):
            x = s.pos.units[u]
            if left <= 0 or x.where != "map":
                continue
            mine: list[Action] = [ADVANCE(u, n) for n in advance_hexes(s, u, x.hex, left)]
            if mine and not fits(s, x.hex, c.attacker):
                return mine  # 6: "after each ... advance": passing a full hex, it goes on
            out += mine
        return [*out, END_ADVANCE]

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = s.options_for(self, args)
        return END_ADVANCE if END_ADVANCE in opts else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("8.4", f"{action.notation()!r}: only the non-weapon attackers that "
                       "fired advance, as far as the required retreat (or the largest "
                       "morale result), not across unbridged rivers")

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        c = s.fight()
        if a == END_ADVANCE:
            s.pos.combat = None
            # 4: after a hasty attack "any other units may continue ordinary movement":
            # the rest of the moving group goes on from where the attack was made
            rest = [u for u in s.pos.moving if not s.pos.units[u].attacked
                    and s.pos.units[u].where == "map" and not s.pos.units[u].retreated]
            s.pos.moving = rest
            if rest and not c.prepared:
                flow.goto("moving")
                return [Event(f"{', '.join(rest)} may go on moving", "move", rule="4")]
            s.pos.moving = []
            flow.end()
            return []
        u, n = a.text("unit"), a.text("hex")
        x = s.pos.units[u]
        ez = zoc(s, other(c.attacker))
        here = x.hex
        x.hex = n
        # 8.4: ZOCs ignored "when following the exact path along which defending units
        # retreated": the vacated hex first, then each hex of the retreat in turn; a unit
        # that left that path once is not following it any more
        follows = on_path(c, u, here, n)
        if not follows:
            c.strayed.append(u)
        c.advance[u] -= 1
        if n in ez and not follows:
            c.advance[u] = 0
        s.tell(Event(f"{u} advances to {n}", "move", hexes=(n,), rule="8.4"))
        after_move(s, [u])
        return []


def start_advance(s: P48State) -> None:
    """8.4: once the defenders' hex is empty, each non-weapon attacker that fired may
    advance as far as the required retreat (or the largest morale result)."""
    c = s.fight()
    if c.advance or s.at(c.hex, other(c.attacker)):
        return
    length = c.required if c.path else c.largest
    for u in c.fired:
        if (u in c.attackers and s.pos.units[u].where == "map"
                and s.d.units[u].target != "W" and not s.pos.units[u].retreated):
            c.advance[u] = length


class AdvanceStart(Procedure[P48State]):
    name = "advance-start"
    rule = "8.4"

    def run(self, s: P48State, args: NoArgs, flow: Flow) -> list[Event]:
        start_advance(s)
        flow.goto("advance")
        return []


#: this module's steps, which the step table (engines.panzer48.sequence.STEPS) makes
#: when one of them is first asked for
STEPS = (RetreatStart(), Retreat(), Overstacked(), Advance(), AdvanceStart())
