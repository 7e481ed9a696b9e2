"""The movement phase's legal actions, listed incrementally (issue 13): each unit's
actions kept under what they read, and listed again only when that changed.

:func:`movement_legal` is what the movement decision lists
(:class:`~engines.white_death.decisions.Movement`); a unit's candidates and their checks
are the rule modules' (``movement``, ``reinforcements``), the listing only decides which
units to ask again.
"""

from __future__ import annotations

import operator
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from engines.white_death.movement import (
    _move_actions,
    _new_token,
    _phase_candidates,
    _unit_candidates,
    dests_from,
    left_ticks,
    move_reach,
    near_token,
    rail_destinations,
)
from engines.white_death.notation import act
from engines.white_death.position import U
from engines.white_death.supply import by_enemies
from engines.white_death.terrain import garrison_fixed
from pbem.engine import Action

if TYPE_CHECKING:
    from engines.white_death.state import WDState

# here, not in base: making a NamedTuple class is 2.5 M instructions, and only the
# movement phase's listing makes one (issue 35)
class Listed(NamedTuple):
    """A unit's part of the last movement listing, with what it read (its key's parts)."""

    #: the unit's fields but its marks (``state._FIELDS``), and its marks
    fields: tuple[Any, ...]
    marks: frozenset[str]
    #: the friendly stacks within two hexes, as ``near_token``'s number
    near: int
    #: what it reads farther (``_far_state``), None for most units
    far: tuple[Any, ...] | None
    #: its moves, then the rest of its actions
    moves: tuple[Action, ...]
    rest: tuple[Action, ...]
    #: only its moves read the stacks near it (not so for a Brandenburg lead), and the
    #: reach they were filtered from (``move_reach``: what they read but those stacks)
    moves_alone_read_near: bool
    reach: tuple[tuple[str, int, bool], ...]


#: a unit's fields but its marks, as one tuple (read at C speed: every unit, every decision)
_FIELDS = operator.attrgetter("uid", "loc", "strength", "deployed", "spent", "stopped",
                              "zoc_start", "entrained", "via", "garrison", "seq", "assault",
                              "entry")


def _unit_state(u: U) -> tuple[Any, ...]:
    return (u.uid, u.loc, u.strength, u.deployed, u.spent,
            u.stopped, u.zoc_start, u.entrained, u.via, u.garrison, u.seq, u.assault, u.entry,
            tuple(sorted(u.marks)) if u.marks else ())


#: movement-phase candidates built only from the hexes their own check accepts (a unit
#: of the phasing side on the map, in the movement phase, not the passing unit's rival)
_LISTED_CHECKED = frozenset({"move", "rail"})


def movement_legal(s: WDState) -> list[Action]:
    """The movement phase's legal actions: :meth:`_movement_candidates` checked, in
    its order, with each unit's actions kept under what they read (:meth:`_unit_key`).

    Listing is incremental: the state keeps its last listing unit by unit
    (``_listing``, a cache: never in the position, empty in a clone) with the parts of
    the unit's key, and a unit whose parts are unchanged (equal, mostly the very same
    objects, so compared at once rather than hashed) gets its kept actions back. Of
    those parts, the friendly stacks within two hexes are read by the unit's moves
    alone (Rule 4's stacking and moving on, Rule 3.C's escort), but for a Brandenburg
    lead: where only they changed, only the moves are listed again. After a move that
    leaves all but the mover and the units within two hexes of where it left and
    arrived as they were; a change to the side's pools or the impulse, none."""
    out: list[Action] = []
    end = act("end-movement")
    if s._valid(end):
        out.append(end)
    memo = s._static.setdefault("unit-memo", {})
    # the phase's part of every unit's key as one number, so it is hashed once per
    # decision rather than once per unit (numbers from the catalog's count: never
    # reused, so a number forgotten with its table cannot stand for another phase)
    tokens = s._static.setdefault("phase-tokens", {})
    phase = _phase_key(s)
    common = tokens.get(phase)
    if common is None:
        if len(tokens) >= 65536:
            tokens.clear()
        common = tokens[phase] = _new_token(s)
    listing = s._listing
    if s._listing_phase != common:
        listing.clear()  # another phase (or pools): every unit reads it
        s._listing_phase = common
    side = s.pos.phasing
    units = s.pos.units
    neartok = s._neartok
    for uid in s.side_units(side):
        if s.pos.passing and uid != s.pos.passing:
            continue
        u = units[uid]
        kept = listing.get(uid)
        # the key's parts as _unit_key makes them, the unit's own state as its fields
        # (what _unit_state holds, the marks apart: a set changes in place)
        if (kept is not None and _FIELDS(u) == kept.fields and u.marks == kept.marks
                and (kept.far is None or kept.far == _far_state(s, u))):
            near = neartok.get((side, u.loc))
            if near is not None and near == kept.near:
                out += kept.moves
                out += kept.rest
                continue
            if kept.moves_alone_read_near:  # the stacks near it changed
                if near is None:
                    near = near_token(s, side, u.loc)
                # its reach (move_reach) read only what is unchanged: kept too
                moves = _move_actions(s, uid, dests_from(s, u, kept.reach))
                listing[uid] = kept._replace(near=near, moves=moves)
                out += moves
                out += kept.rest
                continue
        key = _unit_key(s, uid, common)
        got = memo.get(key) if key is not None else None
        if got is None:
            # a move is listed from move_dests and a rail move from
            # rail_destinations, each what its check asks (tested equal): the rest
            # are checked one by one
            got = tuple(a for a in _unit_candidates(s, uid, dests=partial(_unit_dests, s))
                        if a.kind in _LISTED_CHECKED or s._valid(a))
            if key is not None:
                if len(memo) >= 8192:
                    memo.clear()  # a bound: entries are pure functions of their keys
                memo[key] = got
        if key is not None:
            # the moves come first (_unit_candidates), then what reads no friendly stack
            n = 0
            while n < len(got) and got[n].kind == "move":
                n += 1
            lead = "brandenburg" in s.utype(uid).flags
            listing[uid] = Listed(_FIELDS(u), frozenset(u.marks), key[2], key[3], got[:n],
                                  got[n:], not lead, () if lead else _unit_reach(s, uid))
        else:
            listing.pop(uid, None)
        out += got
    # an entry is listed from entry_hexes, which holds what _check_enter asks of it
    # (tested equal); the refit is checked
    out += [a for a in _phase_candidates(s)
            if (a.kind == "enter" and not s.pos.passing) or s._valid(a)]
    return out


def _phase_key(s: WDState) -> tuple[Any, ...]:
    """The part of :meth:`_unit_key` every unit shares."""
    side = s.pos.phasing
    return (s.scenario, side, s.pos.impulse_mp, s.pos.impulse_left_before,
            s.pos.weather, s.pos.vl_released, s.pos.vl_avoid, s.pos.turn,
            s.pos.passing,
            s.pos.rail_used[side], s.pos.repl[side], s.pos.impulses[side], s.pos.repaired[side],
            tuple(sorted(s.pos.supply.items())), tuple(sorted(s.pos.paid)),
            tuple(sorted(s.pos.builders)), tuple(sorted(s.pos.bridges)),
            by_enemies(s, "token", side, partial(_new_token, s)))


def _unit_key(s: WDState, uid: str, common: object) -> tuple[Any, ...] | None:
    """Everything a unit's movement-phase actions read (Rules 3-8, 13, 15, 18, 20-22):
    its own state, the side's pools and the impulse, the weather, the bridges, the
    enemy's position (one number while the catalog's memo keeps it), the friendly
    stacks within two hexes (Rule 4's moving on through a full hex looks one beyond)
    and what it reads farther (:meth:`_far_state`). ``None`` for an entrained unit,
    whose rail destinations read the railroad's whole part."""
    u = s.pos.units[uid]
    if u.entrained:
        return None
    # near_token inlined: this runs for every unit at every decision
    near = s._neartok.get((s.pos.phasing, u.loc))
    if near is None:
        near = near_token(s, s.pos.phasing, u.loc)
    return (common, _unit_state(u), near, _far_state(s, u))


def _far_state(s: WDState, u: U) -> tuple[Any, ...] | None:
    """What a unit's actions read beyond its hex's surroundings, ``None`` for most:
    a Brandenburg lead reads the state of every unit of the stack it leads (Rule
    21.B); an unreleased Velikiye Luki garrison unit on a railroad may entrain only
    if a train could take it to another hex of the city (Rule 22), which reads the
    friendly stacks along the railroad: its rail destinations stand for them."""
    if u.garrison == "vl" and not s.pos.vl_released:
        return ("rail", *rail_destinations(s, u.uid)) if s.ter.rail_hex(u.loc) else None
    if "brandenburg" not in s.utype(u.uid).flags:
        return None
    return tuple(_unit_state(s.pos.units[x]) for x in s.occupied(s.pos.phasing)[u.loc])


def _unit_dests(s: WDState, uid: str) -> frozenset[str]:
    return dests_from(s, s.pos.units[uid], _unit_reach(s, uid))


def _unit_reach(s: WDState, uid: str) -> tuple[tuple[str, int, bool], ...]:
    """:meth:`move_reach` for a unit listed (of the side on the map, in the movement
    phase), with what _movable refuses asked without raising."""
    if "intrinsic" in s.utype(uid).flags or garrison_fixed(s, uid):
        return ()
    u = s.pos.units[uid]
    return move_reach(s, u) if left_ticks(s, u) > 0 else ()
