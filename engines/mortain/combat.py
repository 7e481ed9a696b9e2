"""Combat (S7 stand-in, the Integrated CRT, 7.8) and retreats (S7.7): plain functions the
attack's steps call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.hexkit.hexid import HexId
from engines.mortain.data import other
from engines.mortain.position import Status
from engines.mortain.victory import note_mortain
from pbem.engine import Event
from pbem.grammar import Act

if TYPE_CHECKING:
    from engines.mortain.state import MortainState


def eligible(s: MortainState, target: HexId) -> list[str]:
    """Own units adjacent to ``target``, not yet attacking, not across an unbridged See
    hexside (14.2)."""
    pos = s.pos
    occ = s.occupant()
    out = []
    for n in s.r.map.neighbors(target):
        u = occ.get(n)
        if u is None or s.side_of(u) != pos.phasing or u in pos.attacked:
            continue
        if s.r.see_between(n, target, pos.demolished):
            continue
        out.append(u)
    return sorted(out)


def declared(s: MortainState, a: Act) -> bool:
    """Whether the combat phase lists ``a`` (``CombatPhase.options``), asked of its one
    hex: 'end combat', and an attack (S7) or a bombardment (S8.3) of a hex holding an
    enemy unit not attacked yet this phase, with a unit that may attack it (S7.1, 14.2)
    or, for a bombardment, a support fire marker held and a friendly unit beside it,
    worked out as the listing works it out.  Listing every enemy hex to check one
    declaration was most of applying it (issue 35).  ``False`` for anything else, which
    the listing then decides."""
    if a.kind == "end-combat":
        return not a.values
    if a.kind not in ("attack", "bombard") or len(a.values) != 1:
        return False
    h = a.values[0]
    pos = s.pos
    occ = s.occupant()
    if not isinstance(h, str) or h not in occ or h in pos.targets:
        return False
    if s.side_of(occ[h]) == pos.phasing:
        return False
    if a.kind == "attack":
        return bool(eligible(s, h))
    return bool(pos.chits.get(pos.phasing)) and beside(s, h, occ)


def beside(s: MortainState, h: HexId, occ: dict[HexId, str]) -> bool:
    """Whether a unit of the phasing side stands next to ``h`` (``occ``: the occupants):
    a bombardment needs one (S8.3); an enemy there that none may attack is across the
    unbridged See (14.2)."""
    return any(n in occ and s.side_of(occ[n]) == s.pos.phasing for n in s.r.map.neighbors(h))


def strengths(s: MortainState) -> tuple[int, int, str]:
    c = s.fight()
    occ = s.occupant()
    defender = occ[c.target]
    attack = sum(s.r.units[u].factors(s.pos.units[u].depleted)[0] for u in c.attackers)
    defense = s.r.units[defender].factors(s.pos.units[defender].depleted)[1]
    across = bool(c.attackers) and all(
        "see" in s.r.map.side_features(s.pos.units[u].hex, c.target) for u in c.attackers)
    return (attack + sum(c.att_chits), defense + sum(c.def_chits),
            s.r.crt_row(c.target, across_see=across))


def deplete(s: MortainState, unit: str, rule: str, why: str = "") -> None:
    """A step loss (series stand-in): a full-strength unit is depleted, a depleted one
    eliminated; tells the loss under ``rule``, ``why`` after it ("instead of retreating",
    7.8)."""
    x = s.pos.units[unit]
    if x.depleted:
        x.status, x.hex, x.depleted = Status.ELIMINATED, "", False
        what = "eliminated"
    else:
        x.depleted = True
        what = "depleted"
    s.tell(Event(f"{unit} is {what}{why}", "loss", units=(unit,), rule=rule))


def eliminate(s: MortainState, unit: str, rule: str) -> None:
    """The unit leaves the map whatever its strength (ICRT De, Ae); tells the loss."""
    x = s.pos.units[unit]
    x.status, x.hex, x.depleted = Status.ELIMINATED, "", False
    s.tell(Event(f"{unit} is eliminated", "loss", units=(unit,), rule=rule))


def retreat(s: MortainState, unit: str, to: HexId) -> None:
    """S7.7: ``unit`` retreats to ``to`` (one of :func:`retreat_ends`); tells it."""
    frm = s.pos.units[unit].hex
    s.pos.units[unit].hex = to
    note_mortain(s)
    s.tell(Event(f"{unit} retreats {frm} to {to}", "retreat", hexes=(frm, to), units=(unit,),
                 rule="S7.7"))


def retreat_ends(s: MortainState, unit: str, length: int) -> list[HexId]:
    """S7.7: where ``unit`` can end a retreat of ``length`` hexes: each hex farther from
    where it began, never into an enemy unit or ZOC, an occupied hex or across an
    unbridged See hexside (14.2); only complete retreats count."""
    # the kit's retreat search loads with the first retreat looked at (a combat's
    # result), not with every command of the game (issue 35: 1.2 M instructions)
    from engines.hexkit.retreat import retreat_options

    side = s.side_of(unit)
    start = s.pos.units[unit].hex
    occ = s.occupant()
    ezoc = s.zoc_of(other(side))
    costs = s.r.costs.overlaid(s.overlay()) if s.pos.demolished else s.r.costs

    def rank(_path: tuple[HexId, ...], h: HexId) -> int | None:
        return None if h in occ or h in ezoc else 0

    opts = retreat_options(s.r.map, start, length, rank,
                           may_cross=lambda a, b: costs.cost(a, b) is not None)
    return list(opts.hexes) if opts.complete else []
