"""A player segment's opening (4.2 II.A-B): its side's phases set, the Front Markers
(14.2) and administrative movement (15.1).  A module of its own: a command that resumes a
segment past its opening (a file of moves and attacks received, its phases listed) does
not load these steps (issue 35)."""

from __future__ import annotations

from engines.backhand.control import put
from engines.backhand.data import FRONTS
from engines.backhand.fronts import in_range, marker_moves
from engines.backhand.notation import moved, w
from engines.backhand.position import OFF, MoveArgs, PhaseArgs, SegSpec
from engines.backhand.state import BBState
from engines.backhand.steps import SideChoice
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Choice, Flow, NoArgs, Procedure, Refusal


class SegOpen(Procedure[BBState]):
    """4.2 II, VI, VII: the segment's side phases; its units have not moved nor fought
    yet; a Soviet segment opens with the Front Markers (4.2 II.A, 14.2)."""

    name = "seg-open"
    rule = "4.2"
    Args = SegSpec

    def run(self, s: BBState, a: SegSpec, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.phasing, pos.seg_over, pos.admin_moves = a.side, False, 0
        kind = f"Schwerpunkt {a.no}" if a.kind == "sp" else "General"
        pos.segment = f"{a.side} {kind}"
        pos.fronts_moved = []
        for x in pos.units.values():
            x.moved = x.fought = x.admin = False
        if a.side == "soviet":
            flow.goto("fronts")
        else:
            flow.end()
        return [Event(f"{pos.segment} segment", "phase", rule=self.rule)]


class BoxShift(Procedure[BBState]):
    """15.1 (2): the phasing side's units in Box #1 (not refitting) go to Box #2, then
    its units may leave the map for Box #1."""

    name = "box-shift"
    rule = "15.1"
    Args = PhaseArgs

    def run(self, s: BBState, a: PhaseArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        moved = [u for u, x in sorted(pos.units.items())
                 if x.at == "box1" and s.side_of(u) == a.side and not x.refit]
        for u in moved:
            pos.units[u].at = "box2"
        flow.goto("admin-out", a)
        if not moved:
            return []
        return [Event(f"Box #1 to Box #2: {', '.join(moved)}", "move", rule="15.1 (2)")]


class Fronts(Choice[BBState]):
    """14.2: each Front Marker moves at most one hex per Soviet segment."""

    name = "fronts"
    kind = "fronts"
    rule = "14.2"
    decider = "soviet"

    prompt_template = "move the Front Markers one hex each"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        out: list[Action] = [w("front", f, n) for f in FRONTS if f not in s.pos.fronts_moved
                             for n in marker_moves(s, f)]
        return [*out, w("done")]

    default_action = w("done")

    def check(self, s: BBState, args: NoArgs, action: Action) -> None:
        if not self.listed(s, args, action):
            super().check(s, args, action)

    def listed(self, s: BBState, args: NoArgs, action: Action) -> bool:
        """Whether :meth:`options` lists ``action``, asked of the one marker and hex
        named: a received file's every step is checked, and the listing floods the
        Soviet supply net (14.1), the whole map, to check a 'done' (issue 35)."""
        if not isinstance(action, Act) or action.kind not in ("done", "front"):
            return False
        if action.kind == "done":
            return action == w("done")
        f, h = action.text("front"), action.text("hex")
        if f not in FRONTS or f in s.pos.fronts_moved or h not in s.data.nbrs[s.pos.fronts[f]]:
            return False
        return h in marker_moves(s, f) and action == w("front", f, h)

    refusal = Refusal("14.1", "a Front Marker moves one hex a segment, into a hex free of "
                      "the enemy that traces to a Soviet supply source")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        f, h = action.text("front"), action.text("hex")
        s.pos.fronts[f] = h
        s.pos.fronts_moved.append(f)
        return [Event(f"{f} Front Marker to {h}", "move", rule=self.rule, hexes=(h,))]


class AdminIn(SideChoice):
    """15.1 (1): one unit or formation (five under the Rochade, 15.12) and any number of
    Variable Reinforcements from Box #2 to the map."""

    name = "admin-in"
    kind = "admin"
    rule = "15.1"
    Args = PhaseArgs

    prompt_template = "administrative movement from Box #2 to the map"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        # 15.1's rules load with the first step of administrative movement that asks
        # them: a segment of turn 1, or one moving nothing so, never does (issue 35)
        from engines.backhand.admin import any_admin_target, groups_in

        return [*(w("admin", name) for name, g in groups_in(s, a)
                  if any_admin_target(s, a, g)), w("done")]

    default_action = w("done")

    def check(self, s: BBState, a: PhaseArgs, action: Action) -> None:
        if not self.listed(s, a, action):
            super().check(s, a, action)

    def listed(self, s: BBState, a: PhaseArgs, action: Action) -> bool:
        """Whether :meth:`options` lists ``action``, asked of the one unit or formation
        named (``False`` where a unit and a formation share the name: the listing
        decides): a received file's every step is checked, and the listing floods the
        clear region (15.1 (1)), the whole map, to check a 'done' (issue 35)."""
        from engines.backhand.admin import any_admin_target, group_in

        if not isinstance(action, Act) or action.kind not in ("done", "admin"):
            return False
        if action.kind == "done":
            return action == w("done")
        name = action.text("unit")
        grp = group_in(s, a, name)
        return grp is not None and any_admin_target(s, a, grp) and action == w("admin", name)

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "admin":
            name = action.text("unit")
            x = s.pos.units.get(name)
            form = s.data.formations.get(name)
            units = form.members if form is not None else (name,) if x else ()
            if any(s.pos.units[u].refit and s.pos.units[u].at == "box2" for u in units):
                return Refusal("13.1", f"{name} is under Frontnahe Auffrischung: "
                               "no administrative movement this turn")
        return Refusal("15.1", "one unit or formation a segment (five under the Rochade, "
                       "15.12) plus Variable Reinforcements, from Box #2 to a hex free of "
                       "EZOCs next to a friendly unit with a clear line to a supply source")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        from engines.backhand.admin import group_in, groups_in

        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        name = action.text("unit")
        grp = group_in(s, a, name) or next(g for n, g in groups_in(s, a) if n == name)
        flow.call("admin-place", MoveArgs(a.side, a.kind, grp, "box2"))
        return []


class AdminPlace(SideChoice):
    name = "admin-place"
    kind = "admin"
    rule = "15.1"
    Args = MoveArgs

    def prompt(self, s: BBState, a: MoveArgs) -> str:
        return f"place {', '.join(a.units)} on the map"

    def options(self, s: BBState, a: MoveArgs) -> list[Action]:
        from engines.backhand.admin import admin_targets

        return [w("place", h) for h in admin_targets(s, PhaseArgs(a.side, a.kind),
                                                        a.units)]

    default_option = 0  # the first listed

    def check(self, s: BBState, a: MoveArgs, action: Action) -> None:
        if not self.listed(s, a, action):
            super().check(s, a, action)

    def listed(self, s: BBState, a: MoveArgs, action: Action) -> bool:
        """Whether :meth:`options` lists ``action``, asked of the one hex named: a
        received file's every placement is checked, and the listing floods the clear
        region (15.1 (1)), the whole map (issue 35)."""
        from engines.backhand.admin import is_admin_target

        if not isinstance(action, Act) or action.kind != "place":
            return False
        h = action.text("hex")
        return (is_admin_target(s, PhaseArgs(a.side, a.kind), a.units, h)
                and action == w("place", h))

    def apply(self, s: BBState, a: MoveArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        h = action.text("hex")
        put(s, a.units, h)
        for u in a.units:
            s.pos.units[u].admin = True
        if not s.data.units[a.units[0]].variable:
            s.pos.admin_moves += 1
            if s.pos.admin_moves > 1 and a.side == "german" and s.pos.rochade_now:
                s.pos.rochade_segment = s.pos.segment  # 15.12: this is the one segment
        flow.end()
        return [Event(f"{', '.join(a.units)} placed in {h} from Box #2", "move",
                      rule="15.1 (1)", hexes=(h,), units=a.units)]


class AdminOut(SideChoice):
    """15.1 (3): one unit or formation stack (and any Variable Reinforcements) from the
    map into Box #1; the hex In Supply and not in an EZOC; Soviets in range (15.11)."""

    name = "admin-out"
    kind = "admin"
    rule = "15.1"
    Args = PhaseArgs

    prompt_template = "administrative movement from the map to Box #1"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        from engines.backhand.admin import groups_out

        return [*(w("admin-out", *name) for name, _ in groups_out(s, a)), w("done")]

    default_action = w("done")

    def check(self, s: BBState, a: PhaseArgs, action: Action) -> None:
        if not self.listed(s, a, action):
            super().check(s, a, action)

    def listed(self, s: BBState, a: PhaseArgs, action: Action) -> bool:
        """Whether :meth:`options` lists ``action``, asked of the one unit or formation
        stack named: a received file's every step is checked, and the listing traces
        supply (7.0) for every unit of the side, a flood of the whole map after every
        move, to check a 'done' (issue 35)."""
        from engines.backhand.admin import group_out

        if not isinstance(action, Act) or action.kind not in ("done", "admin-out"):
            return False
        if action.kind == "done":
            return action == w("done")
        name = moved(action)
        return group_out(s, a, name) is not None and action == w("admin-out", *name)

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "admin-out" and a.side == "soviet":
            x = s.pos.units.get(action.text("unit"))
            if x is not None and x.at not in OFF and not in_range(s, x.at):
                return Refusal("15.11", f"{action.text('unit')} is out of range of both Front "
                               "Markers")
        return Refusal("15.1", "the pick-up hex must be In Supply and free of EZOCs, the "
                       "unit must not have moved administratively")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        from engines.backhand.admin import group_out, groups_out

        assert isinstance(action, Act)
        if action.kind == "done":
            flow.end()
            return []
        name = moved(action)
        grp = group_out(s, a, name) or next(g for n, g in groups_out(s, a) if n == name)
        origin = s.pos.units[grp[0]].at
        put(s, grp, "box1")
        for u in grp:
            s.pos.units[u].admin = True
        if not s.data.units[grp[0]].variable:
            s.pos.admin_moves += 100  # one unit or formation a segment
        return [Event(f"{', '.join(grp)} from {origin} to Box #1", "move", rule="15.1 (3)",
                      hexes=(origin,), units=grp)]


STEPS = (SegOpen(), BoxShift(), Fronts(), AdminIn(), AdminPlace(), AdminOut())
