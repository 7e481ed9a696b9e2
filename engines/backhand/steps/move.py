"""The Movement Phase (15.0) and the uprisings a Soviet move brings (17.0)."""

from __future__ import annotations

from engines.backhand.control import control_events, put
from engines.backhand.data import roll_lookup
from engines.backhand.fronts import ap_left, paying_front
from engines.backhand.movement import (
    destinations,
    formation_movers,
    may_move,
    movers,
    pays,
    reaches,
)
from engines.backhand.notation import moved, w
from engines.backhand.position import Cities, MoveArgs, PhaseArgs
from engines.backhand.state import BBState
from engines.backhand.steps import SideChoice
from pbem.engine import Action, ChanceRequest, Event, Outcome
from pbem.grammar import Act
from pbem.steps import Flow, Refusal, Roll


class MovePhase(SideChoice):
    """The Movement Phase: a unit (1 AP in a Schwerpunkt segment), a formation stack
    (1 AP, 15.2), Variable Reinforcements free (15.3); none moves and fights in a General
    segment (4.2 VI.E)."""

    name = "move"
    kind = "move"
    rule = "15.0"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"{s.pos.segment}: movement ({ap_left(s, a.side)} activity points)"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [*(w("move", *name) for name, _ in movers(s, a)), w("end")]

    default_action = w("end")

    def check(self, s: BBState, a: PhaseArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the movers themselves (a received file's
        every move is checked): 'end', or a unit or formation stack that may move."""
        if isinstance(action, Act) and action.kind in ("end", "move"):
            name = () if action.kind == "end" else moved(action)
            # a formation's stack (15.2) asked of that formation's stacks alone, where
            # movers lists every unit's move before them (no unit's name has two words)
            if not name or (name in {n for n, _ in formation_movers(s, a, name[0])}
                            if len(name) > 1 else
                            name[0] in s.pos.units and may_move(s, a, name[0])):
                return
        super().check(s, a, action)

    def only_option(self, s: BBState, a: PhaseArgs) -> Action | None:
        # the runtime's default for a step that takes only what it lists, as this one
        # does: "end" when nothing may move (sealed rules 2)
        options = s.options_for(self, a)
        return options[0] if len(options) == 1 else None

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "move":
            u = action.text("unit")
            x = s.pos.units.get(u)
            if x is None and u not in s.data.formations:
                return Refusal("15.0", f"no unit {u}")
            if action["hex"] is not None and u not in s.data.formations:
                # 15.2: the hex in 'move' names where a formation's stack moves from; a
                # player typing 'move 106 3418' means the destination, chosen next
                return Refusal("15.0", f"'move {u}' takes no hex: a unit moves from where it "
                               f"is{'' if x is None else f' ({x.at})'}; its destination is "
                               f"chosen next ('to {action.text('hex')}'). Only a formation "
                               "names a hex, the one its stack moves from (15.2): "
                               "'move LAH 2912'")
            if action["hex"] is None and u in s.data.formations:
                return Refusal("15.2", f"a formation moves from a hex: 'move {u} HEX', HEX "
                               "the hex its stack starts in")
            if x is not None and x.admin:
                return Refusal("15.1", f"{u} used Administrative Movement this segment")
            if x is not None and x.refit:
                return Refusal("13.1", f"{u} is under Frontnahe Auffrischung this turn")
            if x is not None and a.kind == "general" and x.fought:
                return Refusal("4.2 VI.E", f"{u} fought this segment: no unit both moves and "
                               "fights in a General segment")
            return Refusal("15.0", f"{u} cannot move now (moved already, stationary, or no "
                           "activity points in range)")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "end":
            flow.end()
            return []
        name = moved(action)
        # a unit moves alone (what check took is listed); only a formation's stack (15.2)
        # is asked of the movers, for its members free to move from its hex
        units = name if len(name) == 1 else next(
            m for n, m in formation_movers(s, a, name[0]) if n == name)
        flow.call("move-to", MoveArgs(a.side, a.kind, units, s.pos.units[units[0]].at))
        return []


class MoveTo(SideChoice):
    name = "move-to"
    kind = "move"
    rule = "15.0"
    Args = MoveArgs

    def prompt(self, s: BBState, a: MoveArgs) -> str:
        return f"move {', '.join(a.units)} from {a.origin} to"

    def options(self, s: BBState, a: MoveArgs) -> list[Action]:
        return [*(w("to", h) for h in destinations(s, a.units, a.origin)), w("stay")]

    default_action = w("stay")

    def check(self, s: BBState, a: MoveArgs, action: Action) -> None:
        """What :meth:`options` lists, asked of the move itself: replaying a received
        file checks every move, and making each listed hex's action to find one among
        them cost 20 M instructions of a 12-file game's receive (issue 35), searching
        the whole reach to find one hex in it as many again."""
        if isinstance(action, Act) and (
                action.kind == "stay" or (action.kind == "to" and reaches(
                    s, a.units, a.origin, action.text("hex")))):
            return
        super().check(s, a, action)

    def only_option(self, s: BBState, a: MoveArgs) -> Action | None:
        # what the runtime's default answers for a step that takes only what it lists,
        # which this one is (its check above lists nothing more): "stay" when no hex is
        # in reach (sealed rules 2)
        options = s.options_for(self, a)
        return options[0] if len(options) == 1 else None

    def why_not(self, s: BBState, a: MoveArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "to":
            h = action.text("hex")
            if h in s.data.map and not s.stack_ok(h, a.side, list(a.units)):
                return Refusal("10.1" if a.side == "soviet" else "10.2",
                               f"{h} would be over the stacking limit")
        return Refusal("15.0", f"{action.notation()!r}: out of reach (movement points by the "
                       "TEC, enemy units and EZOCs)")

    def apply(self, s: BBState, a: MoveArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        flow.end()
        if action.kind == "stay":
            return []
        h = action.text("hex")
        if pays(s, a, a.units):
            if a.side == "german":
                s.pos.ap["german"] -= 1
            else:
                f = paying_front(s, [a.origin])
                assert f is not None
                s.pos.ap[f] -= 1
        for u in a.units:
            s.pos.units[u].moved = True
        before = list(s.pos.sov_control)
        put(s, a.units, h)
        m = s.data.map
        rule = ("15.31" if (m.has_side(a.origin, h, "river") and s.pos.weather != "frozen")
                else "15.2" if len(a.units) > 1
                else "15.3" if s.data.units[a.units[0]].variable and a.kind == "sp"
                else self.rule)
        ev = [Event(f"{', '.join(a.units)} move {a.origin} to {h}", "move", rule=rule,
                    hexes=(a.origin, h), units=a.units), *control_events(s, before)]
        if a.side == "soviet":
            # the uprising rules (17.0) load with a Soviet move: a German file's moves
            # never ask them (issue 35)
            from engines.backhand.uprisings import uprisings_due

            due = uprisings_due(s, (h,))
            if due:
                flow.goto("uprising", Cities(due), replace=True)  # 17.0, once the move is made
        return ev


class Uprising(Roll[BBState]):
    """17.0: one attempt per city when a Soviet unit first comes within three hexes."""

    name = "uprising"
    rule = "17.0"
    Args = Cities

    def request(self, s: BBState, a: Cities) -> ChanceRequest:
        return ChanceRequest.roll(f"uprising in {s.data.city_names[a.cities[0]]}", 6,
                                  rule=self.rule)

    def resolve(self, s: BBState, a: Cities, outcome: Outcome, flow: Flow) -> list[Event]:
        c = a.cities[0]
        s.pos.uprising_tried = sorted([*s.pos.uprising_tried, c])
        result = str(roll_lookup(s.data.uprising, int(outcome[0]))[0])
        ev = [Event(f"uprising in {s.data.city_names[c]}: {result}", "roll", rule=self.rule,
                    hexes=(c,))]
        if result == "success":
            from engines.backhand.uprisings import rise

            ev += rise(s, c)
        if len(a.cities) > 1:
            flow.goto("uprising", Cities(a.cities[1:]))
        return ev


#: this module's steps, which the step table (engines.backhand.sequence.STEPS) makes
#: when the first of them is asked for
STEPS = (MovePhase(), MoveTo(), Uprising())
