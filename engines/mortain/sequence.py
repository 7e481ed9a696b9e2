"""Mortain Counterattack's sequence of play (10.1, S2, 20.0): the set-up, the game turn
and its phases as steps in the book's order; the attack's steps are in ``attack``."""

from __future__ import annotations

from engines.mortain.attack import (
    Advance,
    Attackers,
    AttLoss,
    AttResult,
    AttRetreat,
    CombatPhase,
    CombatRoll,
    DefResult,
    DefSupport,
    EndCombat,
    Support,
)
from engines.mortain.data import HILL_317, MORTAIN, SIDES, SUPPLY
from engines.mortain.notation import END_MOVEMENT, PLACE, act
from engines.mortain.position import Phase, Side, Status, Unit
from engines.mortain.state import MortainState
from engines.mortain.support import allotment
from engines.mortain.victory import german_exits, mortain_captured, note_mortain
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import (
    PHASING,
    Choice,
    Entry,
    Flow,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    Sequence,
    step_table,
)


class Game(Procedure[MortainState]):
    """20.0: the US sets up, then game turns until the last (or the German victory)."""

    name = "game"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        if any(x.status is Status.OFF and s.side_of(u) == "us" for u, x in pos.units.items()):
            flow.call("us-setup")
        elif pos.turn > pos.last_turn:
            pos.winner = "us"
            flow.end()
        else:
            flow.call("turn")
        return []


class UsSetup(Choice[MortainState]):
    """13.0 / 20.0: each US unit in its group's area, northwest of the start line."""

    name = "us-setup"
    kind = "setup"
    rule = "13.0"
    decider = "us"
    default_option = 0

    def _next(self, s: MortainState) -> str:
        return next(u for u in s.r.order
                    if s.side_of(u) == "us" and s.pos.units[u].status is Status.OFF)

    def prompt(self, s: MortainState, args: NoArgs) -> str:
        u = self._next(s)
        return f"the US player sets up {u} ({s.r.units[u].group} area, 13.0)"

    def options(self, s: MortainState, args: NoArgs) -> list[Action]:
        u = self._next(s)
        occ = s.occupant()
        # made in bulk: the unit is the counter sheet's and the hexes the map's, and
        # each unit set up lists some 540 places new, checked and written one by one
        return list(PLACE.unchecked((u, h) for h in sorted(s.r.areas[s.r.units[u].group])
                                    if h not in occ))

    def why_not(self, s: MortainState, args: NoArgs, action: Action) -> str | Refusal:
        a = act(action)
        if a.kind == "place":
            u = a.text("unit")
            group = s.r.units[u].group if u in s.r.units else ""
            if u != self._next(s):
                return Refusal("13.0", f"the US units set up in order: {self._next(s)} next")
            return Refusal("13.0", f"{u} sets up in its {group} area (13.0), and "
                           "one unit a hex (S5)")
        return f"{action.notation()!r}: the US player is setting up (13.0)"

    def apply(self, s: MortainState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        a = act(action)
        u, h = a.text("unit"), a.text("to")
        s.pos.units[u] = Unit(Status.MAP, h, False)
        note_mortain(s)
        events = [Event(f"US {u} sets up in {h}", "move", hexes=(h,), units=(u,),
                        rule="13.0")]
        if all(x.status is not Status.OFF for v, x in s.pos.units.items()
               if s.side_of(v) == "us"):
            flow.end()
            events.append(Event("the US set-up is complete; no German unit sets up: all enter "
                                "from the east edge", "phase", rule="20.0"))
        return events


class Turn(Sequence[MortainState]):
    """A game turn: 10.1 the German player first, then the US."""

    name = "turn"
    entries = (
        Entry("15.0", "hill-check"),
        Entry("12.0", "allot"),
        Entry("16.0", "draw", when=lambda s: s.pos.allotment["german"] > 0,
              args=Side("german")),
        Entry("16.0", "draw", when=lambda s: s.pos.allotment["us"] > 0, args=Side("us")),
        Entry("10.1", "begin-player", args=Side("german")),
        Entry("S2 movement", "move", args=Phase(False)),
        Entry("S2 combat", "combat"),
        Entry("S2 mobile movement", "move", args=Phase(True)),
        Entry("10.1", "begin-player", args=Side("us")),
        Entry("S2 movement", "move", args=Phase(False)),
        Entry("S2 combat", "combat"),
        Entry("S2 mobile movement", "move", args=Phase(True)),
        Entry("19.0", "end-turn"),
    )


class HillCheck(Procedure[MortainState]):
    name = "hill-check"
    rule = "15.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        occ = s.occupant()
        s.pos.hill_317 = HILL_317 in occ and s.side_of(occ[HILL_317]) == "us"
        flow.end()
        if s.pos.hill_317:
            return [Event(f"a US unit begins turn {s.pos.turn} on Hill 317: the US support "
                          "fire allotment is doubled", "info", hexes=(HILL_317,), rule="15.0")]
        return []


class Allot(Procedure[MortainState]):
    name = "allot"
    rule = "12.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        events = []
        for side in ("german", "us"):
            n, why = allotment(s, side)
            s.pos.allotment[side] = n
            s.pos.chits[side] = []
            for rule in why:
                text = "halved: the enemy holds its supply symbol" if rule == "12.0" else \
                    "doubled for Hill 317"
                events.append(Event(f"{side} support fire allotment {text}: {n}", "info",
                                    rule=rule))
        flow.end()
        return events


class Draw(Roll[MortainState]):
    """16.0: the allotment drawn at random from the side's chit pool."""

    name = "draw"
    rule = "16.0"
    Args = Side

    def request(self, s: MortainState, args: Side) -> ChanceRequest:
        pool = s.r.pool[args.side]
        n = min(s.pos.allotment[args.side], len(pool))
        return ChanceRequest.draw(f"{args.side} support fire for turn {s.pos.turn}",
                                  f"{args.side}-support", pool, n, rule=self.rule)

    def resolve(self, s: MortainState, args: Side, outcome: Outcome,
                flow: Flow) -> list[Event]:
        s.pos.chits[args.side] = sorted(int(x) for x in outcome)
        return [Event(f"{args.side} draws support fire {s.pos.chits[args.side]}", "roll",
                      visible_to=(args.side,), rule=self.rule)]


class BeginPlayer(Procedure[MortainState]):
    name = "begin-player"
    rule = "10.1"
    Args = Side

    def run(self, s: MortainState, args: Side, flow: Flow) -> list[Event]:
        s.pos.phasing = args.side
        s.pos.phase = "movement"
        flow.end()
        events = [Event(f"turn {s.pos.turn}: the {args.side} player turn", "phase",
                        rule=self.rule)]
        if args.side == "us" and s.pos.turn == 1:
            events.append(Event("surprise: no US unit may move from its set-up hex on "
                                "Aug. 6th", "info", rule="18.0"))
        return events


class Move(Choice[MortainState]):
    """S3/S4 movement and mobile movement, with 11.0 arrivals, 11.2/11.3 replacements,
    19.1 exits, 17.0 and 18.0."""

    name = "move"
    kind = "movement"
    rule = "S3"
    Args = Phase
    show = False
    decider = PHASING

    def prompt(self, s: MortainState, args: Phase) -> str:
        what = "mobile movement" if args.mobile else "movement"
        return f"the {s.pos.phasing} player's {what} phase, turn {s.pos.turn}"

    def options(self, s: MortainState, args: Phase) -> list[Action]:
        # the movement rules and the kit's searches load with the first movement phase: a
        # command of the combat phase or the set-up reads none of them (issue 35)
        from engines.mortain import movement

        return movement.move_options(s, args.mobile)

    def check(self, s: MortainState, args: Phase, action: Action) -> None:
        """What :meth:`options` lists, asked of the one unit that acts
        (:func:`movement.listed`); anything it does not settle, the listing decides."""
        from engines.mortain import movement

        if isinstance(action, Act) and movement.listed(s, args.mobile, action):
            return
        super().check(s, args, action)

    def only_option(self, s: MortainState, args: Phase) -> Action | None:
        # the runtime's default for a step that takes only what it lists, as this one
        # does (sealed rules 2)
        options = s.options_for(self, args)
        return options[0] if len(options) == 1 else None

    def default(self, s: MortainState, args: Phase) -> Action:
        from engines.mortain import movement

        if movement.stranded(s) is not None:
            return s.options_for(self, args)[0]
        # the listing enters a unit only while one waits and entries are open (11.0,
        # 11.1): otherwise its thousand-odd moves need not be read to find none, which
        # was a third of a board click's redraw (issue 35)
        if not (movement.entries_open(s) and movement.arrivals(s, args.mobile)):
            return END_MOVEMENT
        # ending movement with German units still to enter throws away their turn of
        # arrival (11.1): the default enters the first of them (the book's order) at the
        # free entry hex nearest Mortain (19.0), what a German player does first
        enters = [a for a in map(act, s.options_for(self, args)) if a.kind == "enter"]
        if enters:
            unit = enters[0].text("unit")
            return min((a for a in enters if a.text("unit") == unit),
                       key=lambda a: (s.r.map.distance(a.text("at"), MORTAIN[0]),
                                      a.text("at")))
        return END_MOVEMENT

    def why_not(self, s: MortainState, args: Phase, action: Action) -> str | Refusal:
        from engines.mortain import movement

        a = act(action)
        verb = a.kind
        u = a.units()[0] if a.units() else ""
        to = a.text("to") if verb == "move" else a.text("at") if verb == "enter" else ""
        info = s.r.units.get(u)
        stuck = movement.stranded(s)
        if stuck is not None and (verb != "move" or u != stuck[0]):
            v, rule = stuck
            why = "stacked" if rule == "11.0" else "next to another German unit on turn 1"
            return Refusal(rule, f"{v} arrived in {s.pos.units[v].hex}, where it may not end "
                           f"its move ({why}): it moves on first")
        if verb == "move" and info is not None:
            if s.pos.turn == 1 and info.side == "us":
                return Refusal("18.0", "surprise: no US unit moves on turn 1")
            if info.side != s.pos.phasing:
                return Refusal("S3", f"{u} is not the {s.pos.phasing} player's")
            if args.mobile and not info.mobile:
                return Refusal("S4", f"only mobile units (movement 10+) move in the mobile "
                               f"movement phase; {u} has {info.ma}")
            # a hex off the map has no neighbours to ask 17.0 of: refused below (S3)
            if s.pos.units[u].status is Status.MAP and to in s.r.map and \
                    movement.no_116th(s, u, to, s.occupant()):
                return Refusal("17.0", "on turn 1 no German unit may end its move adjacent "
                               "to another German unit")
            if u in s.pos.moved:
                return Refusal("S3", f"{u} has already moved this phase (an arrival that "
                               "enters an enemy ZOC stops there)")
            if s.pos.units[u].status is Status.MAP:
                occ = movement.others(s, u)
                if to in occ and occ[to] != u:
                    return Refusal("S5", f"{to} is occupied: one unit a hex")
                start = s.pos.units[u].hex
                if to in s.r.map and s.r.map.distance(start, to) == 1 and \
                        s.r.see_between(start, to, s.pos.demolished):
                    return Refusal("14.2", "no movement across an unbridged See hexside")
            return Refusal("S3", f"{u} cannot move to {to} now")
        if verb == "enter" and info is not None:
            if info.side != "german":
                return Refusal("11.0", "only German units enter as reinforcements")
            if info.turn > s.pos.turn:
                return Refusal("11.1", f"{u} arrives on turn {info.turn}")
            if to not in s.r.entry:
                return Refusal("11.1", "German units enter in 3201-3221")
            if s.pos.units[u].status is not Status.OFF:
                return Refusal("11.0", f"{u} is not waiting to enter")
            if not movement.entries_open(s):
                return Refusal("11.0", "reinforcements enter at the beginning of the phase, "
                               "before any unit already on the map moves")
            if movement.no_116th(s, u, to, s.occupant()):
                return Refusal("17.0", "on turn 1 no German unit may end its move adjacent "
                               f"to another German unit, and {u} could not move on from "
                               f"{to}")
            return Refusal("11.0", f"{u} cannot enter there now: no unit arrives and ends its "
                           "move stacked, and an arrival entering a US ZOC stops there")
        if verb == "exit":
            if info is not None and info.side != "german":
                return Refusal("19.1", "only German units exit the map")
            return Refusal("19.1", "a unit exits from a west edge hex, paying for the "
                           "imaginary hex beyond it, in a movement phase")
        if verb in ("demolish", "repair"):
            return Refusal("S9", "an engineer that has not moved, on one side of a See "
                           "bridge, demolishes it (US) or repairs it (German), in the "
                           "movement phase")
        if verb == "replace":
            if s.pos.phasing in s.pos.replaced:
                return Refusal("11.2" if s.pos.phasing == "us" else "11.3",
                               "one replacement per game")
            if args.mobile:
                return Refusal("11.2", "replacements arrive in the movement phase")
            x = s.pos.units.get(u)
            if x is not None and x.status is Status.ELIMINATED and info is not None and \
                    info.side == s.pos.phasing:
                barred = movement.arrival_barred(s, u)
                if barred is not None:
                    return barred
            return Refusal("11.2" if s.pos.phasing == "us" else "11.3",
                           f"{u} is neither eliminated nor depleted on the map")
        return f"{action.notation()!r} is not allowed now: {self.prompt(s, args)}"

    def apply(self, s: MortainState, args: Phase, action: Action, flow: Flow) -> list[Event]:
        from engines.mortain import movement

        pos = s.pos
        a = act(action)
        verb = a.kind
        if verb == "end-movement":
            pos.moved = set()
            pos.mp_left = {}
            pos.phase = "movement" if args.mobile else "combat"
            flow.end()
            return [Event(f"{pos.phasing} ends {'mobile ' if args.mobile else ''}movement",
                          "phase", rule="S3")]
        u = a.text("unit")
        x = pos.units[u]
        if verb == "enter":
            h = a.text("at")
            left = movement.allowance(s, u, args.mobile) - s.r.entry_cost(h)
            stops = h in s.zoc_of("us")
            x.status, x.hex = Status.MAP, h
            pos.mp_left[u] = left
            if stops:  # S3: entering an enemy ZOC ends the move, an arrival's too
                pos.moved.add(u)
            elif movement.must_move_on(s, u):
                pos.arriving = u
            note_mortain(s)
            # 11.1's list says who and where; 11.0 how (the 11.0 row covers both)
            return [Event(f"{u} ({s.r.units[u].name}) enters at {h}"
                          f"{' and stops in a US ZOC' if stops else ''}", "move", hexes=(h,),
                          units=(u,), rule="11.1")]
        if verb == "move":
            h = a.text("to")
            frm = x.hex
            x.hex = h
            # an arrival stays in mp_left: entries stay open after it moves on (11.0)
            pos.moved.add(u)
            pos.arriving = ""
            note_mortain(s)
            rule = "S4" if args.mobile else "S3"
            return [Event(f"{u} moves {frm} to {h}", "move", hexes=(frm, h), units=(u,),
                          rule=rule)]
        if verb == "exit":
            frm = x.hex
            x.status, x.hex = Status.EXITED, ""
            pos.moved.add(u)
            pos.mp_left.pop(u, None)
            return [Event(f"{u} exits the map west from {frm}"
                          f"{' (depleted: does not count for 19.0)' if x.depleted else ''}",
                          "move", hexes=(frm,), units=(u,), rule="19.1")]
        if verb in ("demolish", "repair"):
            b = a.text("bridge")
            pos.moved.add(u)
            if verb == "demolish":
                pos.demolished.add(b)
            else:
                pos.demolished.discard(b)
            return [Event(f"{u} {'demolishes' if verb == 'demolish' else 'repairs'} the See "
                          f"bridge {b}", "info", hexes=a.hexes(), units=(u,),
                          rule="S9")]
        # replace
        pos.replaced.add(pos.phasing)
        rule = "11.2" if pos.phasing == "us" else "11.3"
        if x.status is Status.ELIMINATED:
            x.status, x.hex, x.depleted = Status.MAP, SUPPLY[pos.phasing], True
            # an arrival (11.0): it moves on if a friendly unit stands on the hex
            pos.mp_left[u] = movement.allowance(s, u, False)
            if movement.must_move_on(s, u):
                pos.arriving = u
            note_mortain(s)
            return [Event(f"replacement: {u} returns depleted at {x.hex}", "move",
                          hexes=(x.hex,), units=(u,), rule=rule)]
        x.depleted = False
        return [Event(f"replacement: {u} is rebuilt in {x.hex}", "info", units=(u,),
                      rule=rule)]


class EndTurn(Procedure[MortainState]):
    """19.0 at the end of each game turn; 19.2 after the last; unused markers go back."""

    name = "end-turn"
    rule = "19.0"

    def run(self, s: MortainState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        flow.end()
        exits, captured = german_exits(s), mortain_captured(s)
        if exits >= 5 and captured:
            pos.winner = "german"
            return [Event(f"German victory: {exits} mobile units exited and Mortain captured",
                          "info", rule="19.0")]
        pos.chits = {side: [] for side in SIDES}
        pos.turn += 1
        pos.phasing, pos.phase = "german", "movement"
        if pos.turn > pos.last_turn:
            pos.winner = "us"
            return [Event(f"US victory: {exits} of 5 mobile units exited, Mortain "
                          f"{'captured' if captured else 'not captured'}", "info",
                          rule="19.2")]
        return []


MortainState.steps = step_table(
    Game(), UsSetup(), Turn(), HillCheck(), Allot(), Draw(), BeginPlayer(), Move(),
    CombatPhase(), Attackers(), Support(), DefSupport(), CombatRoll(), DefResult(),
    AttLoss(), AttResult(), AttRetreat(), Advance(), EndCombat(), EndTurn())
