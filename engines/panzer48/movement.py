"""48th Panzer Korps: movement (4): a moving stack's step into a hex."""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from typing import TYPE_CHECKING

from engines.panzer48.data import other
from engines.panzer48.position import MPs, add_halves, halves_mps, within
from engines.panzer48.stacking import enemy_held, fits
from engines.panzer48.zoc import ZOC, zoc
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.hexkit.facts import BoardFacts
    from engines.panzer48.reinforcements import check_release
    from engines.panzer48.state import P48State
    from engines.panzer48.victory import update_control
else:
    # control (10) and the release (9) are bound at the first move that asks them, not
    # imported by every command that has a move on its stack: a listing of a hasty
    # attack's fire (3.2) runs neither (issue 35); nor imported at each move, an import
    # statement a call (some 3 M instructions of the first-day audit)
    from engines.panzer48.steps import bound_when_called

    check_release = bound_when_called(globals(), "reinforcements", "check_release")
    update_control = bound_when_called(globals(), "victory", "update_control")


def step_group(s: P48State, n: str) -> None:
    pos = s.pos
    h = pos.units[pos.moving[0]].hex
    for u in pos.moving:
        c = step_halves(s, u, h, n)
        assert c is not None
        pos.units[u].spent = add_halves(pos.units[u].spent, c)
        pos.units[u].hex = n
    pos.moved_hexes += 1
    s.tell(Event(f"{', '.join(pos.moving)} move to {n}", "move", hexes=(n,), rule="4"))
    facts = after_move(s, pos.moving)
    # 5 (stand-in): entering an enemy-controlled hex ends the move.  The enemy's ZOC is
    # its own units' alone, which this step did not move, so it is asked of the facts
    # control (10) has just read, not of the position checked once more (issue 35)
    halts = n in facts.zoc(other(pos.phasing), ZOC)
    for u in pos.moving:
        pos.units[u].halted = halts


def movable(s: P48State, u: str) -> bool:
    x, info = s.pos.units[u], s.d.units[u]
    if x.where != "map" or x.moved or x.failed or x.retreated or x.attacked or x.halted:
        return False
    if info.formation == "7lw" and not s.pos.released:
        return False  # 9: not until released
    # the allowance above x.spent, in integers (the Movement Phase asks it of every
    # unit at every choice): the allowance is the whole MA, or half of it when flipped
    # (3.1 / 4)
    (spent, per), ma = x.spent, info.ma
    if x.flipped:
        return ma * per > 2 * spent
    return ma * per > spent


def allowance_halves(s: P48State, u: str) -> int:
    """4: ``u``'s movement allowance in half MPs, half of it when flipped (3.1)."""
    ma = s.d.units[u].ma
    return ma if s.pos.units[u].flipped else 2 * ma


def step_halves(s: P48State, u: str, a: str, b: str) -> int | None:
    """4: what ``u``'s step from ``a`` into ``b`` costs, in half MPs (``None``: it may
    not)."""
    mode = "leg" if s.d.units[u].leg else "mech"
    c = s.d.costs[mode].cost(a, b)
    assert c is None or type(c) is int  # the chart's costs in halves (data.halves)
    return c


def may_pass(s: P48State, group: list[str], h: str, spent: dict[str, MPs],
             facts: BoardFacts, seen: frozenset[str] = frozenset()) -> bool:
    """6: "Stacking limits must be satisfied at the end of each unit's movement", so
    ``group`` (standing elsewhere, ``spent`` MPs each) may enter ``h``, where it would
    overstack, only if it can go on from there, within its allowances, to a hex where
    it fits; not where an enemy ZOC would halt it (5, stand-in)."""
    side = s.d.units[group[0]].side
    if h in zoc(s, other(side)):
        return False
    for n in s.d.map.neighbors(h):
        if n in seen or enemy_held(facts, side, n):
            continue
        costs = {u: step_halves(s, u, h, n) for u in group}
        after: dict[str, MPs] = {}
        for u, c in costs.items():
            if c is None or not within(spent[u], c, allowance_halves(s, u)):
                break
            after[u] = add_halves(spent[u], c)
        else:
            if fits(s, n, side, group, facts) or may_pass(s,
                    group, n, after, facts, seen | {h}):
                return True
    return False


def after_move(s: P48State, moved: Iterable[str] = ()) -> BoardFacts:
    """After units entered a hex (``moved``) or left the map: control (10), and the
    7th Luftwaffe's release (9), told wherever it happens: the book marks the Turn
    Record Track "to remind the German player of the release".  The board facts of the
    position after the move (control's)."""
    facts = update_control(s)
    check_release(s, moved)
    return facts


def entry_hexes(s: P48State, u: str, stacking: bool = True) -> list[str]:
    """9.1 / 8.3: the hexes where a due or off-map unit may enter (``stacking``:
    only those where it fits, or from which it can move on to a hex where it fits:
    entering is movement, and 6 binds its end)."""
    x, info = s.pos.units[u], s.d.units[u]
    if x.where == "off":
        cands = [x.hex] if s.owner_at(x.hex) != other(info.side) else sorted(
            (h for h in s.d.edge if s.owner_at(h) is None
             and h not in zoc(s, other(info.side))),
            key=lambda h: (s.d.map.distance(h, x.hex), h))[:1]
    else:
        f = s.d.formations[info.formation]
        area = f.enters_area if info.side == "german" else s.pos.plan_areas.get(f.id, "")
        cands = list(s.d.entry.get(area, ()))
    enemy = s.facts().occupied(other(info.side))
    ez: Container[str] = zoc(s, other(info.side)) if info.target == "W" else ()
    facts = s.facts()
    return [h for h in cands if h not in enemy and h not in ez
            and (not stacking or fits(s, h, info.side, [u], facts)
                 or may_pass(s, [u], h, {u: halves_mps(s.d.entry_halves(u, h))}, facts))]


def moving_hex(s: P48State) -> str:
    """The hex of the unit or stack moving (4: a stack moves together)."""
    return s.pos.units[s.pos.moving[0]].hex


def may_step_to(s: P48State, n: str) -> bool:
    """Whether :func:`reachable` yields ``n``, asked of that hex alone (a received step
    is checked without pricing every neighbour's onward moves through full hexes:
    issue 35)."""
    return next(reachable(s, n), None) is not None


def reachable(s: P48State, only: str | None = None,
              facts: BoardFacts | None = None) -> Iterator[str]:
    """4 / 5 / 6: the hexes the moving unit or stack may step into next, one by one in
    the map's order of neighbours (``only``: that hex alone, if it is one): within every
    unit's allowance, not enemy-occupied, and a full hex only if the move can end beyond.
    One by one, so a caller that needs to know only whether there are one or two stops
    there (the move's settling, issue 35); ``facts``: the state's board facts, where the
    caller has them."""
    # loops, not generator expressions, and the moving hex read here: the move's
    # settling asks this after every step of it (issue 35)
    pos, side = s.pos, s.pos.phasing
    units, moving = pos.units, pos.moving
    h = units[moving[0]].hex  # moving_hex
    for u in moving:
        if units[u].halted:
            return  # 5 (stand-in): entering an enemy-controlled hex ends the move
    facts = s.facts() if facts is None else facts
    # each unit's MPs left and cost table, once for the six neighbours: settling the
    # move lists these after every step of it (issue 35); a step fits the allowance
    # when its cost is within what is left (spent + cost <= allowance, exactly: with
    # spent n/d and the cost and allowance in halves, c * d <= A * d - 2 * n)
    scenario = s.d
    info, costs_of = scenario.units, scenario.costs
    left = []
    for u in moving:
        num, den = units[u].spent
        left.append((u, allowance_halves(s, u) * den - 2 * num, den,
                     costs_of["leg" if info[u].leg else "mech"]))
    # 6: the stack's own size once, for the stacking limit in each neighbour (fits)
    size = 0
    for u in set(moving):
        size += info[u].size
    limit = scenario.stack_limit[side]
    # the enemy's stacks and the side's own, once for the six neighbours (the move's
    # settling lists these after every step of it, issue 35): each side's, which a
    # step changes one of, not everyone's, made again after every step for this
    own, theirs = facts.stacks(side), facts.stacks(other(side))
    near = scenario.map.neighbors(h)
    if only is not None:
        near = [only] if only in near else []
    for n in near:
        here = theirs.get(n)
        if here:
            mine = own.get(n)
            if not mine or here[0] < mine[0]:
                continue  # enemy-occupied: the hex's first unit, in id order, the enemy's
        costs = []
        for u, room, d, table in left:
            c = table.cost(h, n)
            if c is None or c * d > room:
                break
            costs.append((u, c))
        else:
            # fits(s, n, side, moving, facts): the side's units there and the stack's
            fit = size <= limit if n not in own else size + sum(
                info[v].size for v in own[n] if v not in moving) <= limit
            if not fit and not may_pass(s,
                    pos.moving, n, {u: add_halves(pos.units[u].spent, int(c))
                                    for u, c in costs},
                    facts, frozenset([h])):
                continue  # 6: through a full hex only if the move can end beyond it
            yield n
