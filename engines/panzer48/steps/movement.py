"""48th Panzer Korps: the Movement Phase's steps (3.2, 4, 5)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING

from engines.panzer48.data import other
from engines.panzer48.notation import (
    DROP,
    END_MOVEMENT,
    ENTER,
    EXIT,
    HASTY,
    MOVE,
    MOVE_STACK,
    PICKUP,
    REVEAL,
    STOP,
    TO,
    act,
)
from engines.panzer48.position import Combat, ExitArgs, halves_mps, within
from engines.panzer48.state import P48State
from engines.panzer48.steps import bound_when_called
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import PHASING, Choice, Flow, NoArgs, Refusal, Roll

# The movement rules (4), stacking (6) and ZOCs (5) are bound when a step first calls one:
# a hasty attack's fire (7.2) is listed with a Movement Phase frame below it, so this
# module loads, but nothing in it moves a unit (issue 35: the three modules were 1.2 M
# instructions of that 'legal'). Each name is the rule itself after its first call.
if TYPE_CHECKING:
    from engines.hexkit.facts import BoardFacts
    from engines.panzer48.movement import (
        after_move,
        allowance_halves,
        entry_hexes,
        may_step_to,
        movable,
        moving_hex,
        reachable,
        step_group,
    )
    from engines.panzer48.reinforcements import areas_to_reveal, reveal
    from engines.panzer48.stacking import enemy_held, fits
    from engines.panzer48.zoc import zoc
else:
    after_move = bound_when_called(globals(), "movement", "after_move")
    allowance_halves = bound_when_called(globals(), "movement", "allowance_halves")
    entry_hexes = bound_when_called(globals(), "movement", "entry_hexes")
    may_step_to = bound_when_called(globals(), "movement", "may_step_to")
    movable = bound_when_called(globals(), "movement", "movable")
    moving_hex = bound_when_called(globals(), "movement", "moving_hex")
    reachable = bound_when_called(globals(), "movement", "reachable")
    step_group = bound_when_called(globals(), "movement", "step_group")
    fits = bound_when_called(globals(), "stacking", "fits")
    enemy_held = bound_when_called(globals(), "stacking", "enemy_held")
    zoc = bound_when_called(globals(), "zoc", "zoc")
    # 9.1's plan: the areas to reveal and their reveal, where a movement is listed or made
    areas_to_reveal = bound_when_called(globals(), "reinforcements", "areas_to_reveal")
    reveal = bound_when_called(globals(), "reinforcements", "reveal")


def _to_reveal(s: P48State) -> list[str]:
    """The formations whose area 9.1 reveals before anything moves; the reinforcements'
    rules bound (:data:`areas_to_reveal`) when a movement is first listed or made, not
    imported by every command with a move on its stack (a hasty attack's listing, 3.2,
    runs none of them: issue 35)."""
    return areas_to_reveal(s)


def _to(h: str) -> Act:
    """4: the step into ``h``, a hex of the map's own neighbours: made as the grammar
    makes it, its value not checked against the hex type nor its text written until
    asked (most steps listed are never taken: 175 checks and writings of the first-day
    audit were some 5 M instructions, issue 35)."""
    return TO.unchecked(((h,),))[0]


class Movement(Choice[P48State]):
    """3.2 / 4: move units singly or in stacks, one after another; reinforcements enter
    (9.1); the Soviet plan's areas are revealed on their turn."""

    name = "movement"
    kind = "movement"
    rule = "3.2"
    decider = PHASING
    show = False
    prompt_template = "the {side} player moves (move a unit or a hex's stack, enter, end)"

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        side = s.pos.phasing
        reveal = _to_reveal(s)
        if reveal:
            return [REVEAL(reveal[0])]
        out: list[Action] = []
        for u in sorted(s.pos.units):
            if self._may_enter(s, u):
                out += [ENTER(u, h) for h in entry_hexes(s, u)]
        ready = [u for u in s.on_map(side) if movable(s, u)]
        out += [MOVE(u) for u in ready]
        hexes: dict[str, int] = {}
        for u in ready:
            hexes[s.pos.units[u].hex] = hexes.get(s.pos.units[u].hex, 0) + 1
        out += [MOVE_STACK(h) for h, n in sorted(hexes.items()) if n > 1]
        # 9.1: as many arrivals as possible enter; 8.3: units off the map re-enter now
        if not any(act(a).form is ENTER for a in out):
            out.append(END_MOVEMENT)
        return out

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = s.options_for(self, args)
        return END_MOVEMENT if END_MOVEMENT in opts else opts[0]

    def check(self, s: P48State, args: NoArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the one action received (a replayed file
        checks each move it starts, issue 35): the area to reveal (9.1), a unit or a
        hex's stack that may move (4), a unit's entry at one hex (9.1 / 8.3), the end of
        the phase (9.1 / 8.3), each by the same test the listing makes of it; anything
        else, and whatever this refuses, goes to the listing, the revealed form
        (:meth:`accepts`) and their refusal."""
        if isinstance(action, Act) and self._listed(s, action):
            return
        super().check(s, args, action)

    def _listed(self, s: P48State, a: Act) -> bool:
        side = s.pos.phasing
        reveal = _to_reveal(s)
        if reveal:
            return a == REVEAL(reveal[0])
        if a.form is MOVE:
            u = a.text("unit")
            placed = s.facts().placed(u)
            return placed is not None and placed.side == side and movable(s, u)
        if a.form is MOVE_STACK:
            ready = [u for u in s.facts().at(a.text("hex"), side) if movable(s, u)]
            return len(ready) > 1
        if a.form is ENTER:
            u = a.text("unit")
            return self._may_enter(s, u) and a.text("hex") in entry_hexes(s, u)
        if a == END_MOVEMENT:
            return not any(entry_hexes(s, u) for u in sorted(s.pos.units)
                           if self._may_enter(s, u))
        return False

    def _may_enter(self, s: P48State, u: str) -> bool:
        # 8.3: units that went off the map re-enter in their owner's next Movement
        # Phase (not the one they retreated in)
        x = s.pos.units.get(u)
        return x is not None and (x.where == "due" or (
            x.where == "off" and not x.retreated)) and s.d.units[u].side == s.pos.phasing

    def accepts(self, s: P48State, args: NoArgs, action: Action) -> bool:
        """The revealed form a session writes: ``open F AREA SALT`` (9.1)."""
        reveal = _to_reveal(s)
        a = act(action)
        return a.kind == "open" and bool(reveal) and a.text("force") == reveal[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a == END_MOVEMENT:
            if any(o.form is ENTER and s.pos.units[o.text("unit")].where == "off"
                   for o in map(act, s.options_for(self, args))):
                return Refusal("8.3", "units that retreated off the map re-enter during "
                               "their owner's next Movement Phase: enter them first")
            return Refusal("9.1", "as many units of an arriving formation as possible must "
                           "enter this turn")
        if a.kind in ("move", "move-stack"):
            what = a.text("unit") if a.kind == "move" else a.text("hex")
            return Refusal("4", f"{what} cannot move now (moved, attacked, retreated, "
                           "failed, unreleased or out of movement points)")
        if a.kind == "enter":
            u, h = a.text("unit"), a.text("hex")
            if (u in s.pos.units and s.pos.units[u].where in ("due", "off")
                    and h in entry_hexes(s, u, stacking=False)
                    and h not in entry_hexes(s, u)):
                return Refusal("6", f"{u} may not enter {h}: over the stacking limit of "
                               f"{s.d.stack_limit[s.d.units[u].side] // 3} battalions, with "
                               "no hex within it to move on to")
            return Refusal("9.1", f"{u} cannot enter at {h}")
        if _to_reveal(s):
            return Refusal("9.1", f"the {_to_reveal(s)[0]} area must be revealed first")
        return f"{action.notation()!r} is not a movement action"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        pos = s.pos
        if a.kind in ("reveal", "open"):
            reveal(s, a)
            return []
        if a.kind == "end-movement":
            for u, x in pos.units.items():
                if x.where == "due":  # 9.1: a unit that cannot be placed waits a turn
                    x.where = "setup"
                    f = s.d.formations[s.d.units[u].formation]
                    if f.side == "soviet":
                        pos.plan_turns[f.id] = pos.turn + 1
            flow.end()
            return []
        if a.kind == "enter":
            u, h = a.text("unit"), a.text("hex")
            x = pos.units[u]
            x.where, x.hex = "map", h
            x.spent = halves_mps(s.d.entry_halves(u, h))  # 9.1: the first hex's cost
            x.halted = h in zoc(s, other(pos.phasing))  # 5 (stand-in)
            pos.moving, pos.moved_hexes = [u], 1
            flow.call("moving")
            s.tell(Event(f"{u} enters at {h}", "move", hexes=(h,), rule="9.1"))
            after_move(s, [u])
            return []
        if a.kind == "move":
            group = [a.text("unit")]
        else:
            group = [u for u in s.at(a.text("hex"), pos.phasing) if movable(s, u)]
        h = pos.units[group[0]].hex
        pos.moving = group
        pos.moved_hexes = 0
        flow.call("moving")
        return [Event(f"{', '.join(group)} start moving from {h}", "move", rule="3.2")]


class Moving(Choice[P48State]):
    """4 / 5 / 6: the moving unit or stack goes hex by hex; it may pick up units, drop
    units, make a hasty attack at the end of its move, exit the map (10), or stop."""

    name = "moving"
    kind = "move"
    rule = "4"
    decider = PHASING
    auto = True

    def prompt(self, s: P48State, args: NoArgs) -> str:
        x = s.pos.units[s.pos.moving[0]]
        return f"moving {', '.join(s.pos.moving)} at {x.hex}"

    def options(self, s: P48State, args: NoArgs) -> list[Action]:
        return list(self._listing(s))

    def auto_option(self, s: P48State, args: NoArgs) -> Action | None:
        # settled after every step of a move (auto): most stops have a next hex and
        # 'stop', so the listing is followed only until a second option shows, never
        # pricing every neighbour's onward moves through full hexes (issue 35)
        listing = self._listing(s)
        first = list(islice(listing, 2))
        if len(first) == 1:
            return first[0]
        s.options_begun(self, args, first, listing)  # a listing goes on from here
        return None

    def check(self, s: P48State, args: NoArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the one action received (a replayed move
        checks each of its steps, issue 35): a step to one hex (4 / 5 / 6), a pick-up
        or drop of one unit (4 / 6), a hasty attack on one hex (3.2 / 6), the exit (10)
        or the stop (6), each by the same test the listing makes of it; anything else,
        and whatever this refuses, goes to the listing and its refusal.  One of the
        options the move's settling has just listed (:meth:`auto_option`) is taken as
        listed, without its test made again (a third of a replay's steps, issue 35)."""
        if isinstance(action, Act) and (action in s.options_listed(self, args)
                                        or self._listed(s, action)):
            return
        super().check(s, args, action)

    def _listed(self, s: P48State, a: Act) -> bool:
        pos = s.pos
        units = pos.units
        for u in pos.moving:  # a loop, as the listing's
            if units[u].failed:
                return a == STOP
        if a.form is TO:
            return may_step_to(s, a.text("hex"))
        facts = s.facts()
        h = moving_hex(s)
        if a.form is PICKUP:
            return self._may_pick_up(s, a.text("unit"), h, facts)
        if a.form is DROP:
            return a.text("unit") in self._droppable(s, h, facts)
        if a.form is HASTY:
            return a.text("hex") in self._hasty_targets(s, h, facts)
        if a == EXIT:
            return self._may_exit(s, h)
        return a == STOP and fits(s, h, pos.phasing, facts=facts)

    def _listing(self, s: P48State) -> Iterator[Action]:
        pos, side = s.pos, s.pos.phasing
        units = pos.units
        for u in pos.moving:  # a loop, not any() of a generator: after every step
            if units[u].failed:
                yield STOP  # 5: the roll failed, nobody moves
                return
        h = units[pos.moving[0]].hex  # moving_hex
        facts = s.facts()  # listing moves no unit: one placement throughout
        yield from map(_to, reachable(s, facts=facts))
        yield from (PICKUP(u) for u in facts.at(h, side) if self._may_pick_up(s, u, h, facts))
        yield from map(DROP, self._droppable(s, h, facts))
        yield from map(HASTY, self._hasty_targets(s, h, facts))
        if self._may_exit(s, h):
            yield EXIT
        if fits(s, h, side, facts=facts):
            yield STOP

    def _may_pick_up(self, s: P48State, u: str, h: str, facts: BoardFacts) -> bool:
        pos = s.pos
        return (u in facts.at(h, pos.phasing) and u not in pos.moving and movable(s, u)
                and pos.moved_hexes > 0)

    def _droppable(self, s: P48State, h: str, facts: BoardFacts) -> list[str]:
        pos, side = s.pos, s.pos.phasing
        if len(pos.moving) <= 1:
            return []
        # 6: a dropped unit's move ends here, so it must fit with those staying
        staying = [u for u in facts.at(h, side) if u not in pos.moving]
        room = s.d.stack_limit[side] - sum(s.d.units[v].size for v in staying)
        return [u for u in pos.moving if s.d.units[u].size <= room]

    def _hasty_targets(self, s: P48State, h: str, facts: BoardFacts) -> list[str]:
        pos, side = s.pos, s.pos.phasing
        # 6: stacking is satisfied "prior to hasty combat"
        if not (fits(s, h, side, facts=facts) and any(
                not pos.units[u].attacked and not pos.units[u].flipped
                for u in pos.moving)):
            return []
        return [n for n in s.d.map.neighbors(h) if enemy_held(facts, side, n)]

    def _may_exit(self, s: P48State, h: str) -> bool:
        pos = s.pos
        return (pos.phasing == "soviet" and h in s.d.areas["south_exit"]
                and all(within(pos.units[u].spent, s.d.exit_halves, allowance_halves(s, u))
                        for u in pos.moving))

    def default(self, s: P48State, args: NoArgs) -> Action:
        opts = s.options_for(self, args)
        return STOP if STOP in opts else opts[0]

    def why_not(self, s: P48State, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "to":
            if any(s.pos.units[u].halted for u in s.pos.moving):
                return Refusal("5", "the move ended on entering an enemy-controlled hex")
            h, n, side = moving_hex(s), a.text("hex"), s.pos.phasing
            if (n in s.d.map.neighbors(h) and s.owner_at(n) != other(side)
                    and not fits(s, n, side, s.pos.moving)):
                return Refusal("6", f"{n} would be over the stacking limit of "
                               f"{s.d.stack_limit[side] // 3} battalions, and the move "
                               "could not go on from it to a hex within the limit")
            return Refusal("4", f"cannot move to {n}: not adjacent, enemy-occupied, "
                           "over the movement allowance or over the stacking limit")
        if a.kind == "hasty":
            if not fits(s, moving_hex(s), s.pos.phasing):
                return Refusal("6", "stacking limits must be satisfied prior to hasty combat: "
                               f"{moving_hex(s)} is over the limit")
            if all(s.pos.units[u].flipped for u in s.pos.moving):
                return Refusal("3.1", "units that made a prepared attack this turn take "
                               "only limited action: no hasty attack (reading)")
            return Refusal("4", "only units that began the phase stacked together may make "
                           "a hasty attack, one each per phase, on an adjacent enemy hex")
        if a == EXIT:
            return Refusal("10", "Soviet units exit only from south-edge road hexes, "
                           "paying 1/2 MP")
        if a == STOP or (a.kind == "drop" and len(s.pos.moving) > 1
                         and a.text("unit") in s.pos.moving):
            return Refusal("6", "stacking limits must be met at the end of the move")
        return f"{action.notation()!r} is not a move now"

    def apply(self, s: P48State, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        pos, side = s.pos, s.pos.phasing
        h = pos.units[pos.moving[0]].hex  # moving_hex, read in place: every step comes here
        if a.kind == "to":
            n = a.text("hex")
            # 5: leaving an enemy-controlled hex vacant, at the move's first step (who
            # stays is asked only then: every step of a move comes here)
            if pos.moved_hexes == 0 and h in zoc(s, other(side)) and not [
                    u for u in s.at(h, side) if u not in pos.moving]:
                flow.call("zoc-exit", ExitArgs(n))
                return []
            step_group(s, n)
            return []
        if a.kind == "pickup":
            pos.moving.append(a.text("unit"))
            return [Event(f"{a.text('unit')} is picked up at {h}", "move", rule="4")]
        if a.kind == "drop":
            u = a.text("unit")
            pos.moving.remove(u)
            pos.units[u].moved = True
            return [Event(f"{u} stays at {h}", "move", rule="4")]
        if a.kind == "hasty":
            # the whole group stays in pos.moving: those that do not attack go on moving
            # after the combat (4)
            target = a.text("hex")
            pos.combat = Combat(target, side, False, defenders=s.at(target))
            flow.goto("declare")
            return [Event(f"hasty attack on {target}", "attack", hexes=(target,),
                          rule="3.2")]
        if a == EXIT:
            ev = []
            for u in pos.moving:
                x = pos.units[u]
                pos.exits[h] = pos.exits.get(h, 0) + s.steps_of(u)
                x.where, x.hex = "exited", ""
                ev.append(Event(f"{u} exits the map at {h}", "move", rule="10"))
            pos.moving = []
            flow.end()
            return ev
        for u in pos.moving:
            pos.units[u].moved = True
        pos.moving = []
        flow.end()
        return [Event(f"the move ends at {h}", "move", rule="3.2")]


class ZocExit(Roll[P48State]):
    """5: leaving an enemy-controlled hex vacant takes a roll: 4-6, nobody moves."""

    name = "zoc-exit"
    rule = "5"
    Args = ExitArgs

    def request(self, s: P48State, args: ExitArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"leave {s.pos.units[s.pos.moving[0]].hex}", 6,
                                  rule=self.rule)

    def resolve(self, s: P48State, args: ExitArgs, outcome: Outcome,
                flow: Flow) -> list[Event]:
        roll = int(outcome[0])
        if roll in s.d.zoc_fail:
            for u in s.pos.moving:
                s.pos.units[u].failed = True
                s.pos.units[u].moved = True
            group = s.pos.moving
            return [Event(f"roll {roll}: {', '.join(group)} cannot leave the enemy ZOC",
                          "roll", rule="5")]
        s.tell(Event(f"roll {roll}: {', '.join(s.pos.moving)} leave the enemy ZOC", "roll",
                     rule="5"))
        step_group(s, args.to)
        return []


#: this module's steps, which the step table (engines.panzer48.sequence.STEPS) makes
#: when one of them is first asked for
STEPS = (Movement(), Moving(), ZocExit())
