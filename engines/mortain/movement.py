"""Movement (S3, S4 stand-ins), arrivals (11.0, 11.1), exits (19.1), replacements
(11.2, 11.3), the 116th Panzer's turn-1 rule (17.0), US surprise (18.0) and the See bridges
(14.2, S9): plain functions the movement step calls."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.hexkit.hexid import HexId
from engines.hexkit.movement import MoveCosts, Reach, reachable, reaches
from engines.hexkit.zoc import STOP_ON_ENTRY
from engines.mortain.data import SUPPLY, other
from engines.mortain.notation import (
    DEMOLISH,
    END_MOVEMENT,
    ENTER,
    EXIT,
    MOVE,
    REPAIR,
    REPLACE,
)
from engines.mortain.position import Status
from pbem.engine import Action
from pbem.grammar import Act
from pbem.memo import Memo
from pbem.steps import Refusal

if TYPE_CHECKING:
    from engines.mortain.state import MortainState

#: movement searches by everything they depend on (a pure function's results: sharing them
#: between states and games cannot change a game)
_REACH: Memo[tuple[Any, ...], Reach] = Memo(20_001)
#: whether a move's search reaches its hex (listed), by everything it depends on
_REACHES: Memo[tuple[Any, ...], bool] = Memo(20_001)


def allowance(s: MortainState, unit: str, mobile: bool) -> int:
    """Half movement points: the whole MA in the movement phase, half of it in the mobile
    movement phase (S4); what is left after entering (11.0)."""
    if unit in s.pos.mp_left:
        return s.pos.mp_left[unit]
    ma = s.r.units[unit].ma
    return ma if mobile else 2 * ma


def reach(s: MortainState, unit: str, start: HexId, allowance: int,
          occ: dict[HexId, str] | None = None,
          ezoc: frozenset[HexId] | None = None) -> Reach:
    occ = s.occupant() if occ is None else occ
    found = search(s, unit, start, allowance, occ, ezoc)
    ends = tuple(h for h in found.ends if may_end(s, unit, h, occ))
    if shares_hex(s, unit):  # 11.0: an arrival on an occupied hex never ends there
        ends = tuple(h for h in ends if h != start)
    return dataclasses.replace(found, ends=ends)


def may_end(s: MortainState, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
    if s.pos.turn == 1 and s.side_of(unit) == "german":
        return can_end(s, unit, h, occ)
    return h not in occ or occ[h] == unit  # S5 only


def search(s: MortainState, unit: str, start: HexId, allowance: int, occ: dict[HexId, str],
           ezoc: frozenset[HexId] | None, enemy: frozenset[HexId] | None = None,
           gone: frozenset[str] | None = None) -> Reach:
    """``unit``'s reach from ``start``; ``enemy`` (the hexes of ``occ`` the other side
    holds) and ``gone`` (the demolished bridges) passed by a caller that searches for
    every unit of a side in one position (a move's check asks the kit's ``reaches``
    of its one hex instead, :func:`listed`)."""
    side = s.side_of(unit)
    ezoc = s.zoc_of(other(side)) if ezoc is None else ezoc
    if enemy is None:
        enemy = frozenset(h for h, u in occ.items() if s.side_of(u) != side)
    # the search depends only on these (the enemy stands still while a side moves, so
    # every unit of a phase reuses it); where it may end is checked against the hexes
    # occupied now
    key: tuple[Any, ...] = (start, allowance, enemy, ezoc,
                            frozenset(s.pos.demolished) if gone is None else gone)

    def search() -> Reach:
        return reachable(_costs(s), start, allowance, zoc=ezoc, policy=STOP_ON_ENTRY,
                         blocked=enemy)
    return _REACH.get(key, search)


def _costs(s: MortainState) -> MoveCosts:
    """The movement costs now: across a demolished bridge the See is unbridged (14.2)."""
    return s.r.costs.overlaid(s.overlay()) if s.pos.demolished else s.r.costs


def shares_hex(s: MortainState, unit: str) -> bool:
    h = s.pos.units[unit].hex
    return any(v != unit and x.status is Status.MAP and x.hex == h
               for v, x in s.pos.units.items())


def others(s: MortainState, unit: str) -> dict[HexId, str]:
    """The hexes occupied by units other than ``unit`` (one an arrival stands stacked
    with is the other's, 11.0)."""
    return {h: v for v, h in s.on_map().items() if v != unit}


def can_move_on(s: MortainState, unit: str, h: HexId, allowance: int,
                ezoc: frozenset[HexId], occ: dict[HexId, str] | None = None,
                enemy: frozenset[HexId] | None = None) -> bool:
    """11.0: whether ``unit``, arriving in ``h`` where it may not end its move (stacked,
    or 17.0), could move on to a hex where it may: not out of an enemy ZOC (S3: the
    arrival entered it, so it stops there).  ``occ`` (:func:`others`) and ``enemy``
    passed by a caller that asks for many hexes of one position."""
    if h in ezoc:
        return False
    occ = others(s, unit) if occ is None else occ
    found = search(s, unit, h, allowance, occ, ezoc, enemy)
    return any(e != h and may_end(s, unit, e, occ) for e in found.ends)


def stranded(s: MortainState) -> tuple[str, str] | None:
    """11.0 (and 17.0 on turn 1): the arrival standing where it may not end its move,
    which moves on before anything else happens; with the rule it would break."""
    u = s.pos.arriving
    if not u:
        return None
    return u, "11.0" if shares_hex(s, u) else "17.0"


def must_move_on(s: MortainState, unit: str) -> bool:
    """Whether ``unit``, just arrived, stands where it may not end its move."""
    h = s.pos.units[unit].hex
    return shares_hex(s, unit) or no_116th(s, unit, h, others(s, unit))


def entries_open(s: MortainState) -> bool:
    """11.0: reinforcements enter "at the beginning of" the phase: until a unit that
    was on the map when it began has moved (an arrival moving on does not count)."""
    pos = s.pos
    return not any(u not in pos.mp_left for u in pos.moved)


def can_end(s: MortainState, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
    """S5 stacking (one unit a hex; 11.0 says it again for arrivals) and 17.0."""
    if h in occ and occ[h] != unit:
        return False
    return not no_116th(s, unit, h, occ)


def no_116th(s: MortainState, unit: str, h: HexId, occ: dict[HexId, str]) -> bool:
    """17.0: on turn 1 no German unit ends its move adjacent to another German unit."""
    if s.pos.turn != 1 or s.side_of(unit) != "german":
        return False
    return any(n in occ and occ[n] != unit and s.side_of(occ[n]) == "german"
               for n in s.r.map.neighbors(h))


def german_beside(s: MortainState, occ: dict[HexId, str]) -> dict[HexId, set[str]]:
    """17.0: the German units (as ``occ`` names them) next to each hex: :func:`no_116th`
    for every hex of a listing at once."""
    out: dict[HexId, set[str]] = {}
    for g, v in occ.items():
        if s.side_of(v) == "german":
            for n in s.r.map.neighbors(g):
                out.setdefault(n, set()).add(v)
    return out


def may_move(s: MortainState, unit: str, mobile: bool,
             ezoc: frozenset[HexId] | None = None) -> bool:
    pos, info = s.pos, s.r.units[unit]
    if pos.units[unit].status is not Status.MAP or unit in pos.moved:
        return False
    if pos.turn == 1 and info.side == "us":
        return False  # 18.0
    if mobile:
        # S4: mobile units (printed MA 10+, as 19.0 defines them) not in an enemy ZOC
        if not info.mobile:
            return False
        if ezoc is None:
            ezoc = s.zoc_of(other(info.side))
        if unit not in pos.mp_left and pos.units[unit].hex in ezoc:
            return False
    return True


def arrivals(s: MortainState, mobile: bool) -> list[str]:
    pos = s.pos
    if pos.phasing != "german":
        return []
    return [u for u in s.r.order
            if s.side_of(u) == "german" and pos.units[u].status is Status.OFF
            and s.r.units[u].turn <= pos.turn and (not mobile or s.r.units[u].mobile)]


def move_options(s: MortainState, mobile: bool) -> list[Action]:
    """What the phasing side may do in a movement phase (the step lists it once per
    decision: ``memo_options``)."""
    pos = s.pos
    out: list[Action] = []
    ezoc = s.zoc_of(other(pos.phasing))
    stuck = stranded(s)
    if stuck is not None:
        u = stuck[0]
        found = reach(s, u, pos.units[u].hex, pos.mp_left[u], others(s, u), ezoc)
        return [MOVE(u, e) for e in found.ends]
    occ = s.occupant()
    # what reach() would work out for every unit, once for the side: the enemy's hexes,
    # the demolished bridges, who stands stacked (11.0) and whether 17.0 applies; the
    # moves are made in bulk (their values are the counter sheet's ids and the map's
    # hexes), a movement listing's thousand-odd actions were a third of its time
    side = pos.phasing
    enemy = s.enemy_hexes(side)
    gone = frozenset(pos.demolished)
    stacks = s.facts().stacks()
    turn_one = pos.turn == 1 and side == "german"
    out += _entries(s, mobile, arrivals(s, mobile) if entries_open(s) else [], occ, ezoc,
                    enemy)
    beside = german_beside(s, occ) if turn_one else {}
    for u, h in s.on_map(side).items():
        if not may_move(s, u, mobile, ezoc):
            continue
        mp = allowance(s, u, mobile)
        found = search(s, u, h, mp, occ, ezoc, enemy, gone)
        if turn_one:
            out += MOVE.unchecked((u, e) for e in unit_ends(u, h, found.ends, occ, stacks,
                                                             beside, turn_one))
        else:  # unit_ends' S5 alone: its reach's ends never hold h (nor 11.0's case)
            out += [a for a, e in zip(moves_to(u, found), found.ends, strict=True)
                    if e not in occ]
        if side == "german" and can_exit(s, u, h, found, mp):
            out.append(EXIT(u))
    out += _closing(s, mobile)
    return out


def _entries(s: MortainState, mobile: bool, waiting: list[str], occ: dict[HexId, str],
             ezoc: frozenset[HexId], enemy: frozenset[HexId]) -> list[Action]:
    """11.0: the entries :func:`move_options` lists of the ``waiting`` arrivals (none
    once entries close), in its order."""
    r = s.r
    out: list[Action] = []
    # whether an arrival may enter a hex depends on the allowance it has left there,
    # not on which German unit it is
    may: dict[tuple[int, HexId], bool] = {}
    for u in waiting:
        for h in r.entry:
            key = (allowance(s, u, mobile) - r.entry_cost(h), h)
            if key not in may:
                may[key] = may_enter(s, u, h, mobile, occ, ezoc, enemy)
            if may[key]:
                out.append(ENTER(u, h))
    return out


def _closing(s: MortainState, mobile: bool) -> list[Action]:
    """What :func:`move_options` lists after the units' moves and exits: replacements
    (11.2, 11.3), the See bridges' demolition and repair (14.2, S9), 'end movement'."""
    pos = s.pos
    out: list[Action] = []
    if not mobile and pos.phasing not in pos.replaced:
        out += [REPLACE(u) for u in replaceable(s)]
    if not mobile:
        out += [(DEMOLISH if verb == "demolish" else REPAIR)(u, b)
                for verb, u, b in bridge_work(s)]
    out.append(END_MOVEMENT)
    return out


def button_options(s: MortainState, mobile: bool) -> list[Action]:
    """:func:`move_options` less the moves and exits (S3, S4, 19.1) of the units on the
    map, each of which names such a unit and a hex of the map or the unit alone, in the
    listing's order: what the board shows as buttons (``State.off_map_actions``), listed without a
    unit's search.  A board click's redraw listed the side's thousand-odd moves again
    after every move, to show 'end movement' and the arrivals (issue 35 item 4)."""
    if stranded(s) is not None:
        return []  # the stranded unit's moves alone (11.0, 17.0)
    waiting = arrivals(s, mobile) if entries_open(s) else []
    if not waiting:  # the enemy's ZOCs (S3) are asked only for an entry
        return _closing(s, mobile)
    side = s.pos.phasing
    return [*_entries(s, mobile, waiting, s.occupant(), s.zoc_of(other(side)),
                      s.enemy_hexes(side)), *_closing(s, mobile)]


#: each unit's moves to the ends of a reach of its, by unit and reach (with the reach,
#: which a hit must be): a board click lists a phase's thousand-odd moves again after
#: each move, every other unit's reach the same (issue 35)
_MOVES: dict[tuple[str, int], tuple[Reach, tuple[Act, ...]]] = {}


def moves_to(u: str, found: Reach) -> tuple[Act, ...]:
    """``move u e`` for each of ``found``'s ends, in their order."""
    key = (u, id(found))
    hit = _MOVES.get(key)
    if hit is None or hit[0] is not found:
        if len(_MOVES) >= 4096:
            _MOVES.clear()
        hit = _MOVES[key] = (found, tuple(MOVE.unchecked((u, e) for e in found.ends)))
    return hit[1]


def unit_ends(u: str, h: HexId, found: Sequence[HexId], occ: dict[HexId, str],
              stacks: Mapping[HexId, tuple[str, ...]], beside: dict[HexId, set[str]],
              turn_one: bool) -> list[HexId]:
    """Which of ``found`` (the ends of its reach, never ``h`` itself) ``u``, on ``h``,
    may end its move in: the ends of its moves :func:`move_options` lists (``beside``:
    :func:`german_beside` when ``turn_one``), and :func:`listed` checks one against."""
    if turn_one:  # can_end: S5, and 17.0 by the hexes beside German units
        ends = [e for e in found if (e not in occ or occ[e] == u)
                and not any(v != u for v in beside.get(e, ()))]
    elif occ.get(h) == u:
        ends = [e for e in found if e == h or e not in occ]  # S5
    else:
        ends = [e for e in found if e not in occ]
    if len(stacks[h]) > 1:  # 11.0: an arrival on an occupied hex never ends there
        ends = [e for e in ends if e != h]
    return ends


def listed(s: MortainState, mobile: bool, a: Act) -> bool:
    """Whether :func:`move_options` lists ``a``, asked of its one unit (a received file's
    every move is checked, and listing the side's every move to find one was 85% of
    applying it): 'end movement', and a move, entry (11.0) or exit (19.1) worked out as
    the listing works it out for that unit; ``False`` for anything else, which the
    listing itself then decides (a unit stranded by 11.0 or 17.0, replacements, S9's
    bridges, and every action refused)."""
    kind, values = a.kind, a.values
    if kind not in ("move", "enter", "exit", "end-movement") or stranded(s) is not None:
        return False
    if kind == "end-movement":
        return a == END_MOVEMENT
    pos, r = s.pos, s.r
    side = pos.phasing
    facts = s.facts()
    occ = s.occupant(facts)
    ezoc = s.zoc_of(other(side), facts)
    enemy = s.enemy_hexes(side, facts)
    if kind == "enter":
        if len(values) != 2 or not entries_open(s):
            return False
        u, h = values
        return (isinstance(u, str) and isinstance(h, str) and u in arrivals(s, mobile)
                and h in r.entry and may_enter(s, u, h, mobile, occ, ezoc, enemy))
    u = values[0]
    on_map = s.on_map(side, facts)
    if not isinstance(u, str) or u not in on_map or not may_move(s, u, mobile, ezoc):
        return False
    h = on_map[u]
    mp = allowance(s, u, mobile)
    gone = frozenset(pos.demolished)
    if kind == "exit":  # 19.1 reads the costs of every west edge hex: the whole search
        return (len(values) == 1 and side == "german"
                and can_exit(s, u, h, search(s, u, h, mp, occ, ezoc, enemy, gone), mp))
    if len(values) != 2 or not isinstance(values[1], str):
        return False
    to = values[1]
    # where the unit may end (S5, 11.0, 17.0) is asked of the one hex first; the search
    # then goes towards that hex only, and says whether the whole search reaches it
    turn_one = pos.turn == 1 and side == "german"
    beside = german_beside(s, occ) if turn_one else {}
    if not unit_ends(u, h, (to,), occ, facts.stacks(), beside, turn_one):
        return False
    # by everything the answer depends on, as search() keeps its reaches: a board click
    # checks the same move on the saved game's state again after checking it once
    key = (h, mp, to, enemy, ezoc, gone)
    return _REACHES.get(key, lambda: reaches(_costs(s), h, mp, to, zoc=ezoc,
                                             policy=STOP_ON_ENTRY, blocked=enemy))


def may_enter(s: MortainState, u: str, h: HexId, mobile: bool,
              occ: dict[HexId, str], ezoc: frozenset[HexId],
              enemy: frozenset[HexId] | None = None) -> bool:
    """11.0: into an empty entry hex; through one where the arrival may not end (a
    German unit there, or on turn 1 one next to it, 17.0) if it can move on.  ``u`` is
    off the map, so the hexes others hold (:func:`others`) are ``occ``'s."""
    if h in occ and s.side_of(occ[h]) != "german":
        return False
    if h not in occ and not no_116th(s, u, h, occ):
        return True
    left = allowance(s, u, mobile) - s.r.entry_cost(h)
    return can_move_on(s, u, h, left, ezoc, occ, enemy)


def can_exit(s: MortainState, u: str, h: HexId, reach: Reach,
             allowance: int) -> bool:
    """19.1: reach a west edge hex and pay for the imaginary hex beyond it."""
    for w in sorted(s.r.west_edge):
        if w in reach.cost and (w == h or w not in reach.stops) and \
                reach.cost[w] + s.r.exit_cost(w) <= allowance:
            return True
    return False


def arrival_barred(s: MortainState, u: str) -> Refusal | None:
    """11.2 / 11.3: why an eliminated ``u`` may not return on its supply symbol hex now:
    an enemy unit on it or its ZOC over it; or (11.0) a friendly unit on it and no way
    for the arrival to move on."""
    side = s.pos.phasing
    supply = SUPPLY[side]
    rule, enemy = ("11.2", "German") if side == "us" else ("11.3", "US")
    occ = s.occupant()
    ezoc = s.zoc_of(other(side))
    if supply in occ and s.side_of(occ[supply]) != side:
        return Refusal(rule, f"a {enemy} unit occupies {supply}: no replacement arrives")
    if supply in ezoc:
        return Refusal(rule, f"{supply} is in a {enemy} unit's ZOC: no replacement arrives")
    stacked, beside = supply in occ, no_116th(s, u, supply, occ)
    if not (stacked or beside):
        return None
    # 18.0: on Aug. 6th a US arrival could not move on
    surprise = s.pos.turn == 1 and side == "us"
    if not surprise and can_move_on(s, u, supply, 2 * s.r.units[u].ma, ezoc):
        return None
    if stacked:
        return Refusal("11.0", f"{occ[supply]} stands on {supply} and {u} could not move "
                       "on from it: no unit arrives and ends its move stacked")
    return Refusal("17.0", f"{u} could not move on from {supply}, next to another "
                   "German unit on turn 1")


def replaceable(s: MortainState) -> list[str]:
    """11.2 / 11.3: an eliminated unit returns depleted on the supply symbol hex, or a
    depleted unit on the map is rebuilt."""
    side = s.pos.phasing
    out = []
    for u in s.r.order:
        x = s.pos.units[u]
        if s.side_of(u) != side:
            continue
        if (x.status is Status.ELIMINATED and arrival_barred(s, u) is None) or (
                x.status is Status.MAP and x.depleted):
            out.append(u)
    return out


def bridge_work(s: MortainState) -> list[tuple[str, str, str]]:
    """S9 (stand-in for the series' bridge rules 14.2 refers to): instead of moving, a US
    engineer on one side of a See bridge demolishes it; a German engineer repairs a
    demolished one.  Neither on turn 1 for the US (18.0: it may not move, nor work)."""
    pos = s.pos
    out = []
    verb = "demolish" if pos.phasing == "us" else "repair"
    if pos.phasing == "us" and pos.turn == 1:
        return []
    for u, h in s.on_map(pos.phasing).items():
        if not s.r.units[u].engineer or u in pos.moved or u in pos.mp_left:
            continue
        for b in s.r.bridges():
            if h in b.split("/") and (b in pos.demolished) == (verb == "repair"):
                out.append((verb, u, b))
    return out
