"""48th Panzer Korps: victory (10): control of hexes and the score."""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING

from engines.panzer48.data import SIDES, other

if TYPE_CHECKING:
    from engines.hexkit.facts import BoardFacts
    from engines.hexkit.zoc import ZocMap
    from engines.panzer48.state import P48State
    from engines.panzer48.zoc import zoc_sides_at
else:
    # the ZOC rule (5) bound at control's first question, not imported by every status
    # line's score, nor at each of control's questions (an import statement a step of
    # a move: issue 35)
    from engines.panzer48.steps import bound_when_called

    zoc_sides_at = bound_when_called(globals(), "zoc", "zoc_sides_at")


def update_control(s: P48State) -> BoardFacts:
    """10: a side controls a hex its unit most recently entered, or on which it
    exerted a ZOC while the hex was neither enemy-occupied nor in an enemy ZOC.  The
    board facts it read (the position's now)."""
    # each control hex asks only its six neighbours' stacks which sides' ZOC (5) reaches
    # it: this runs after every step of every move, and the moving side's whole ZOC, new
    # at each step, was a fifth of a replay (issue 35: 71 M of the 374 M of 48th Panzer
    # Korps' first-day audit)
    facts = s.facts()
    control = s.pos.control
    kept = s.control_kept
    if kept is not None and kept[1] == control:
        # control as this left it, on the placement it read then: a hex's control is
        # asked of its own stack and its neighbours' alone, and setting it again from
        # the same stacks changes nothing, so only the hexes at or next to a unit whose
        # placement changed since are asked again (a step of a move changes one or
        # two; asking every control hex after every step cost the first-day audit
        # 21 M instructions, issue 35)
        if kept[0] is facts:
            return facts
        before, now = kept[0].placement, facts.placement
        if len(before) == len(now):
            # the same units on the map, in id order, most of them the very records
            # kept (BoardFacts.changed): the pairs that are not the same record told
            # apart in C by identity, not compared field by field (a record made anew
            # with the same fields only has its hexes asked again, which changes nothing)
            changed = {p.hex for pair in compress(zip(before, now, strict=True),
                                                  map(is_not, before, now)) for p in pair}
        else:
            changed = {p.hex for p in set(before).symmetric_difference(now)}
        near = changed.union(*map(facts.map.neighbors, changed))
        hexes = sorted(near.intersection(control))
    else:
        hexes = sorted(control)
    # each side's stacks, not everyone's (zoc_sides_at's): a hex's occupant is the side
    # of its first unit in id order
    soviet, german = facts.stacks("soviet"), facts.stacks("german")
    for h in hexes:
        r, g = soviet.get(h), german.get(h)
        if r or g:
            control[h] = "soviet" if r and (not g or r[0] < g[0]) else "german"
            continue
        sides = zoc_sides_at(facts, h)
        for side in SIDES:
            if side in sides and other(side) not in sides:
                control[h] = side
    s.control_kept = (facts, dict(control))
    return facts


def score(s: P48State) -> dict[str, int]:
    """10: enemy steps eliminated, towns and Don bridges controlled, Soviet exits."""
    # the position and the data read once: every view's status line scores its position,
    # a click's redraw included (issue 35)
    pos, d = s.pos, s.d
    control = pos.control
    pts = {side: pos.kills.get(side, 0) for side in SIDES}
    for h, vp in d.towns.items():
        pts[control.get(h, "german")] += vp
    for a, b in d.don_bridges:
        side = control.get(a)  # a bridge scores for the side that holds both its ends
        if side in pts and control.get(b) == side:
            pts[side] += d.bridge_vp
    if not pos.exits:
        # no Soviet unit has exited: no road path to trace, so no German ZOC to find (the
        # status line scores every position a command shows: issue 35)
        return pts
    from engines.panzer48.zoc import zoc

    german_zoc = zoc(s, "german")
    areas = {h for hs in s.d.entry.values() for h in hs if h not in s.d.entry["G"]}
    for h, steps in sorted(s.pos.exits.items()):
        ok = road_path_clear(s, h, areas, german_zoc)
        if ok:
            pts["soviet"] += steps
    return pts


def road_path_clear(s: P48State, h: str, areas: set[str], gz: ZocMap) -> bool:
    """10: a continuous path of roads from the exit hex to a Soviet reinforcement
    area, through no German-occupied or German-controlled hex."""
    from engines.hexkit.movement import trace
    def passable(x: str) -> bool:
        return s.owner_at(x) != "german" and x not in gz
    if not passable(h):
        return False
    return trace(s.d.map, h, lambda x: x in areas, network="road",
                 passable=passable) is not None
