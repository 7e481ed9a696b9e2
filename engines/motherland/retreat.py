"""Retreat (8.6) and advance after combat (8.7).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING

from engines.motherland import rules
from engines.motherland.args import RetreatArgs, RoleArgs
from engines.motherland.const import BLOCKING_SIDES, other
from engines.motherland.data import ARMOR_TYPES
from engines.motherland.notation import ADVANCE, RETREAT, act, of_kind
from engines.motherland.terrain import may_enter_country, terrain_cost
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Flow, Frame, Refusal

if TYPE_CHECKING:
    from engines.motherland.combat_args import AdvanceArgs
    from engines.motherland.state import MotherlandState


# -- retreat (8.6) ----------------------------------------------------------------------
#
# A retreat is read here, whole: the hexes a group may enter (retreat_hexes), the moves
# listed (retreat_options), the one check of a move the list leaves out (retreat_refusal:
# a part of a group), the moves made without asking (retreat_forced) and a move made
# (retreat).  The step (steps/attack.py RetreatChoice) refuses through retreat_refusal and
# applies through retreat, so a move is checked once.


def retreat_hexes(s: MotherlandState, units: list[str], center: str) -> list[str]:
    """Hexes the group may retreat into now, best 8.6.1 priority class only: a hex
    farther from the combat hex, the hexside allowed (8.6.4), open to every unit of the
    group.

    A retreat goes one hex at a time, and a hex's class (8.6.1: enemy ZOC, a friendly
    unit) reads the hex alone, not the unit: a group's hexes are those open to each of
    its units (:func:`_ranked`), the best class among them.  A group's own search, after
    its units' had been made, and the kit's search module were 1.7 M instructions of the
    receive that brings a retreat and of the legal listing after it (issue 35).
    """
    if not units:
        return []
    ranked = [_ranked(s, uid, center) for uid in units]
    first, rest = ranked[0], ranked[1:]
    common = [(r, h) for h, r in first.items() if all(h in more for more in rest)]
    if not common:
        return []
    best = min(r for r, _ in common)
    return sorted(h for r, h in common if r == best)


def _ranked(s: MotherlandState, uid: str, center: str) -> Mapping[str, int]:
    """The hexes ``uid`` may retreat into from where it stands, by 8.6.1 class (lower
    is better: empty and free of enemy ZOC, friendly, friendly in ZOC, empty in ZOC),
    every class, so that a group can take the hexes all its units share.

    Everything read: where every unit stands (occupancy and ZOC, 8.6.1, 8.6.2), the
    unit's supply (8.6.2), the turn's weather (5.1.8) and Turkey's entry (5.2.1); kept
    with the game's pure results, which a clone shares: an act looks up its retreat for
    its own state and again as its verifier replays it, on the same position (issue 35:
    1.2 M instructions the second time).  Never changed once kept.
    """
    key = ("retreat-ranked", uid, center, s.placed(), s.turn, s.pos.turkey,
           s.u(uid).supply)
    kept: Mapping[str, int] | None = s._pcache.get(key)
    if kept is not None:
        return kept
    side = s.c(uid).side
    a = s.u(uid).hex
    enemy = other(side)
    oos = s.u(uid).supply == "out"
    gun = s.c(uid).type == "railroad_gun"
    data = s.data
    distance = data.hexmap.distance
    away = distance(a, center)
    found: dict[str, int] = {}
    for n in data.map_neighbors(a):
        if distance(n, center) <= away:
            continue  # 8.6: each hex farther from the combat hex
        if data.side_features(a, n) & (BLOCKING_SIDES | {"frozen_access"}):
            continue  # 8.6.4, 16.7
        if gun and n not in data.rail.get(a, ()):
            continue  # 8.6.4 Railroad Gun
        if s.has_enemy(n, side):
            continue  # 8.6.4
        if terrain_cost(s, uid, n) is None or not may_enter_country(s, uid, n):
            continue
        friend = s.has_friend(n, side)
        z = s.in_zoc(enemy, n)
        if oos and z and not friend:
            continue  # 8.6.2, 4.2.2
        found[n] = 0 if not z and not friend else 1 if not z else 2 if friend else 3
    s._pcache[key] = found
    return found


def _groups(s: MotherlandState, t: RetreatArgs) -> dict[str, list[str]]:
    """The units with a retreat left to make, by the hex they stand in."""
    groups: dict[str, list[str]] = {}
    for uid, left in sorted(t.left.items()):
        if left > 0 and s.u(uid).hex:
            groups.setdefault(s.u(uid).hex, []).append(uid)
    return groups


def retreat_left(t: RetreatArgs) -> str:
    """What is left to retreat, for the prompt ("5A 2 hex(es), 9K 1 hex(es)")."""
    return ", ".join(f"{x} {n} hex(es)" for x, n in sorted(t.left.items()) if n > 0)


def retreat_options(s: MotherlandState, t: RetreatArgs,
                    alone: Mapping[str, list[str]] | None = None) -> list[Action]:
    """Each hex's group together, and each of its units alone, into each hex of the best
    8.6.1 priority open to it; ``alone``: each unit's own hexes, found just before on
    this very position (:func:`retreat_forced`), not looked for again."""
    return [RETREAT(units, dest) for units, dest in _retreats(s, t, _groups(s, t), alone)]


def _retreats(s: MotherlandState, t: RetreatArgs, groups: Mapping[str, list[str]],
              alone: Mapping[str, list[str]] | None) -> Iterator[tuple[tuple[str, ...], str]]:
    """:func:`retreat_options`' moves as units and hex, in its order, each group's
    hexes looked for only when its moves are asked: :func:`retreat_forced` asks two."""

    def hexes_of(units: list[str]) -> list[str]:
        known = alone.get(units[0]) if alone is not None and len(units) == 1 else None
        return retreat_hexes(s, units, t.center) if known is None else known

    for _, units in sorted(groups.items()):
        for dest in hexes_of(units):
            yield tuple(units), dest
        if len(units) > 1:
            for uid in units:
                for dest in hexes_of([uid]):
                    yield (uid,), dest


def retreat_refusal(s: MotherlandState, t: RetreatArgs, action: Action) -> Refusal | None:
    """Why ``action`` is no retreat the pending one may make (8.6, 8.6.1), or None: a move
    of units standing together with a retreat left, into a hex of the best priority open
    to them (a part of a group too, though only whole groups and single units are listed)."""
    a = of_kind(action, "retreat")
    if a is None:
        return Refusal("8.6", "a retreat is pending: retreat UNITS to HEX")
    units, dest = list(a.words("units")), a.text("hex")
    if any(t.left.get(x, 0) <= 0 or not s.u(x).hex for x in units):
        return Refusal("8.6", "those units have no retreat left to make")
    if len({s.u(x).hex for x in units}) != 1:
        return Refusal("8.6", "units retreating together must start in one hex")
    targets = retreat_hexes(s, units, t.center)
    if dest not in targets:
        return Refusal("8.6.1", f"{dest} is not a retreat hex of the best priority "
                                f"available ({', '.join(targets) or 'none'})")
    return None


def retreat_forced(s: MotherlandState, t: RetreatArgs, flow: Flow) -> bool:
    """Whether the retreat went on without asking: over, a unit with nowhere to go
    taking its retreat as steps (8.5.1), or only one hex to go to."""
    groups = _groups(s, t)
    if not groups:
        flow.end()
        return True
    # each unit's hexes, kept for the listing below: nothing changes in between (a unit
    # that cannot retreat ends this), and asking them twice (their distances then
    # passing the few cubes the grid works out alone, so it made its whole table) was
    # 3.3 M instructions of the receive that brings a retreat (issue 35)
    alone: dict[str, list[str]] = {}
    for _, units in sorted(groups.items()):
        for uid in units:
            alone[uid] = retreat_hexes(s, [uid], t.center)
            if not alone[uid]:
                left = t.left[uid]
                t.left[uid] = 0
                if t.role:  # 8.7: a retreat cut short shortens the advance
                    cut = s.fight().cut
                    cut[t.role] = max(cut.get(t.role, 0), left)
                s.tell(Event(f"{uid} cannot retreat: {left} step loss(es) instead (8.5.1)", "loss",
                             hexes=(s.u(uid).hex,), units=(uid,), rule="8.5.1"))
                from engines.motherland.combat import lose_step

                for _ in range(left):
                    if s.u(uid).hex:
                        lose_step(s, uid, "unable to retreat (8.5.1)")
                return True
    # whether retreat_options would list one move alone: two asked of its moves, none
    # made but the one moved (making every listed move to count them was 0.3 M
    # instructions of the receive that brings a retreat, whose listing waits for the
    # next command: issue 35)
    moves = list(islice(_retreats(s, t, groups, alone), 2))
    if len(moves) == 1:
        retreat(s, t, act(RETREAT(*moves[0])))
        return True
    return False


def retreat(s: MotherlandState, t: RetreatArgs, a: Act) -> None:
    """Move the units one hex (a move listed or let through by :func:`retreat_refusal`):
    a friendly hex displaces them (8.6.5), an enemy ZOC costs the stack a step (4.2.1,
    8.6.2), armor crossing a river loses a step (8.6.3)."""
    units, dest = list(a.words("units")), a.text("hex")
    side = s.c(units[0]).side
    src = s.u(units[0]).hex
    friend = s.has_friend(dest, side)
    zoc_loss = not friend and s.ezoc(side, dest)
    river = s.data.side_features(src, dest) & {"minor_river", "major_river", "strait"}
    for uid in units:
        s.u(uid).hex = dest
        t.left[uid] -= 1
        if friend:
            s.u(uid).displaced = True  # 8.6.5
    s._touch()
    s.tell(Event(f"{' '.join(s.label(x) for x in units)} retreat {src} -> {dest}", "retreat",
                 hexes=(src, dest), units=tuple(units), rule="8.6"))
    if dest in s.data.cities:
        # only a city or port changes hands (19.1): the victory rules load for one, not
        # for every retreat (issue 35: 0.43 M instructions of an act)
        from engines.motherland.victory import claim

        for uid in units:
            claim(s, uid, dest)
    if zoc_loss:  # one step for the stack, the owner choosing the unit
        from engines.motherland.combat import LoseArgs

        s.queue_frames([Frame("lose", LoseArgs(side, 1, list(units), {},
                                               "retreated into an enemy ZOC (4.2.1, 8.6.2)"))],
                       first=True)
    if river:
        for uid in units:
            if s.c(uid).type in ARMOR_TYPES and s.u(uid).hex:
                # the combat rules load for a step lost, not for every retreat across a
                # river (issue 35: 0.85 M instructions of an act)
                from engines.motherland.combat import lose_step

                lose_step(s, uid, "armor retreating across a river (8.6.3)")


# -- advance after combat (8.7) ---------------------------------------------------------


def advance_start(s: MotherlandState, t: RoleArgs) -> None:
    cb = s.fight()
    role = t.role
    loser = "def" if role == "att" else "att"
    side = cb.side if role == "att" else other(cb.side)
    if loser == "def":
        vacated = [cb.target] if not s.has_enemy(cb.target, side) else []
    else:
        hexes = sorted({cb.orig[x] for x in cb.attackers})
        still = [h for h in hexes if s.has_enemy(h, side)]
        vacated = hexes if not still else []
    lost_all = not any(s.u(x).hex == cb.orig[x] for x in cb.units(loser))
    if cb.kind == "overrun" and role == "att":
        movers = s.alive_in_combat("att")
        if vacated and lost_all:
            for uid in movers:
                unit = s.u(uid)
                unit.hex = cb.target
                unit.mode = "ovr"  # 7.1, 7.2.2
            s._touch()
            from engines.motherland.victory import claim

            for uid in movers:
                claim(s, uid, cb.target)
            if movers:
                s.tell(Event(f"The overrun succeeds: {' '.join(movers)} enter {cb.target}", "move",
                             hexes=(cb.target,), units=tuple(movers), rule="7.1"))
        else:
            for uid in cb.attackers:
                unit = s.u(uid)
                unit.mp = 0
                unit.mode = "done"
            s.tell(Event("The overrun fails: the attackers end their movement (7.1)", "info",
                         rule="7.1"))
        return
    if not vacated or not lost_all:
        return
    took = cb.took.get(loser)
    if loser in cb.eliminated:
        allow = 2
    elif took:
        # 8.7: the result less what was taken as steps, a retreat cut short (its hexes
        # taken as steps, 8.5.1) included; 8.7.1 then needs two hexes for a second
        allow = rules.advance_allowance(took[0],
                                        took[1] + cb.cut.get(loser, 0), False)
    else:
        allow = 0
    if allow <= 0:
        return
    movers = [x for x in s.alive_in_combat(role) if s.c(x).is_combat
              and s.c(x).factors[0][2] > 0 and s.c(x).type != "fortress"]
    if movers:
        from engines.motherland.combat_args import AdvanceArgs

        s.queue_frames([Frame("advance", AdvanceArgs(side, movers, allow, vacated, {}))],
                       first=True)


def advance_options(s: MotherlandState, t: AdvanceArgs) -> list[Action]:
    out: list[Action] = []
    for uid in t.units:
        u = s.u(uid)
        if not u.hex:
            continue
        m = t.moved.get(uid, 0)
        cap = min(t.n, 2 if s.c(uid).type in ARMOR_TYPES else 1)  # 8.7.1
        if m >= cap:
            continue
        for n in s.data.neighbors_of(u.hex):
            if m == 0 and n not in t.first:
                continue  # 8.7.2 first hex: the vacated hex
            if _advance_step_ok(s, uid, u.hex, n, second=m > 0):
                out.append(ADVANCE(uid, n))
    return out


def _advance_step_ok(s: MotherlandState, uid: str, a: str, b: str, second: bool) -> bool:
    side = s.c(uid).side
    if s.has_enemy(b, side) or terrain_cost(s, uid, b) is None:
        return False
    if not may_enter_country(s, uid, b):
        return False
    f = s.data.side_features(a, b)
    if f & (BLOCKING_SIDES | {"frozen_access"}):
        return False
    return not (second and f & {"minor_river", "major_river", "strait"})


def advance_refusal(action: Action) -> Refusal:
    """Why ``action`` is neither one of :func:`advance_options` nor the end of the advance
    (the step refuses what it does not list, in these words)."""
    a = of_kind(action, "advance")
    if a is None:
        return Refusal("8.7", "advance after combat: advance UNIT HEX or end advance")
    return Refusal("8.7", f"{a.text('unit')} cannot advance into {a.text('hex')} (first into the "
                          "vacated hex; second hex only for Panzer/Tank/Mech Group units after "
                          "a retreat of two or more, never across a river)")


def apply_advance(s: MotherlandState, t: AdvanceArgs, a: Act) -> None:
    """Advance one unit one hex (one of :func:`advance_options`)."""
    uid, dest = a.text("unit"), a.text("hex")
    src = s.u(uid).hex
    s.u(uid).hex = dest
    t.moved[uid] = t.moved.get(uid, 0) + 1
    s._touch()
    if dest in s.data.cities:  # as a retreat's: only a city or port changes hands (19.1)
        from engines.motherland.victory import claim

        claim(s, uid, dest)
    s.tell(Event(f"{s.label(uid)} advances {src} -> {dest}", "move", hexes=(src, dest),
                 units=(uid,), rule="8.7"))
