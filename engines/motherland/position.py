"""The For the Motherland! position as typed data (pbem.codec derives its snapshot).

Each field says what it holds in the book's terms, with the rule that reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from pbem.engine import copy_data


@dataclass(slots=True)
class Unit:
    """One counter of the game: where it is and what it has done this phase."""

    #: the hex it stands in; "" off the map (then ``box`` says where)
    hex: str = ""
    #: where an off-map counter is: "out" (not yet in play), "track" (the Turn Record
    #: Track, arriving on turn ``return_turn``: 17.0, 17.1.2), "elim", "pool" (replacements,
    #: 17.4), "conv" (awaiting conversion, 15.0), "osm" (the OSM Waiting Box, 13.0),
    #: "assets" (an eliminated Economic Asset, 12.0), "baku" (21.2), "evac", "removed"
    #: (out of the game); "" on the map
    box: str = "out"
    #: steps left (a corps' second step is its Kampfgruppe side: 6.0, 8.5)
    steps: int = 1
    #: the Strength Chit it carries (11.0), "" none
    chit: str = ""
    #: supply status (9.0): "" in supply, "lack" (9.5.1), "out" (9.5.2)
    supply: str = ""
    #: movement points left this phase (5.0; exploitation's own allowance, 5.4)
    mp: int = 0
    #: how many moves it has made this phase (one-hex moves and strategic moves count)
    moves: int = 0
    #: how it moves this phase: "" normally, "one" (a one-hex move only, 5.1.5),
    #: "ovr" (advancing out of an overrun hex, 7.1), "strat" (Strategic Movement, 5.3),
    #: "sea" (Sea Transport, 5.5), "done" (may not move again)
    mode: str = ""
    #: it attacked in this Combat Phase (8.3.1)
    attacked: bool = False
    #: it was attacked in this Combat Phase (8.3.4)
    defended: bool = False
    #: 8.6.5: it retreated into a friendly hex this Combat Phase, or was attacked before
    #: and retreated or advanced here: it does not defend, and a result eliminates it
    displaced: bool = False
    #: the turn it arrives on from the Turn Record Track (17.0, 17.1), 0 none
    return_turn: int = 0
    #: on the track as an eliminated unit coming back (17.1.2-17.1.4; a returning Soviet
    #: unit rolls, 17.1.4), not as a scheduled reinforcement
    returning: bool = False
    #: the hex it began the phase in (5.0)
    start: str = ""

    def copy(self) -> Unit:
        return Unit(self.hex, self.box, self.steps, self.chit, self.supply, self.mp,
                    self.moves, self.mode, self.attacked, self.defended, self.displaced,
                    self.return_turn, self.returning, self.start)


#: Unit's fields in the two orders its data comes in, each with the one type pbem.codec
#: takes for each field (a str, an int or a bool): a canonical map's (sorted by name: a
#: save's bytes decoded) and the class's own (``snapshot()``, not yet encoded)
_UNIT_FORMS = {
    tuple(f.name for f in order): tuple({"str": str, "int": int, "bool": bool}[str(f.type)]
                                        for f in order)
    for order in (sorted(fields(Unit), key=lambda f: f.name), fields(Unit))}


def units_from_data(data: Any) -> dict[str, Unit] | None:
    """The units of a position's data as pbem.codec reads them, or None for anything but
    the plain form (a map of unit maps, every field there in one of the two orders, each
    of its exact type): the codec then reads them and names what is wrong.  The game's
    179 units of 14 fields were half of restoring a position, field by field through the
    codec, at every command that loads a game (issue 35)."""
    if type(data) is not dict:
        return None
    out: dict[str, Unit] = {}
    forms = _UNIT_FORMS
    for uid, d in data.items():
        if type(d) is not dict or tuple(map(type, d.values())) != forms.get(tuple(d)):
            return None
        out[uid] = Unit(**d)
    return out


@dataclass(slots=True)
class Combat:
    """The attack (8.0) or overrun (7.0) being resolved."""

    #: "attack" or "overrun"
    kind: str
    #: the defenders' hex
    target: str
    #: the attacking side
    side: str
    attackers: list[str]
    defenders: list[str]
    #: a German Air Unit supports the attack (14.1)
    air: bool
    #: the Railroad Gun fires (16.2)
    rrgun: bool
    #: where each unit of either side stood as the combat began (8.6, 8.7 read it)
    orig: dict[str, str]
    #: the CRT result (8.2), "" before the roll
    result: str = ""
    #: the odds as resolved (8.2): the totals, the column shift and the column
    attack: int = 0
    defense: int = 0
    shift: int = 0
    column: str = ""
    #: the roles ("att", "def") whose units the result eliminated outright (8.7)
    eliminated: set[str] = field(default_factory=set)
    #: per role, the result in hexes and the part of it taken as step losses (8.5, 8.7)
    took: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: per role, the retreat hexes a unit could not make, taken as steps instead (8.5.1)
    cut: dict[str, int] = field(default_factory=dict)

    def units(self, role: str) -> list[str]:
        """The attackers (role "att") or the defenders ("def")."""
        return self.attackers if role == "att" else self.defenders


@dataclass(slots=True)
class Air:
    """The German Air Units (14.0)."""

    #: in the game (5 less those withdrawn by the Turn Record Track)
    total: int
    #: flipped to their Used side this turn (14.1)
    used: int = 0


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the game ended (19.0, 20.2, 16.6, 21.1.4)."""

    #: "axis", "soviet", or None for a draw
    winner: str | None
    text: str
    level: str


@dataclass(slots=True)
class Position:
    """One position of For the Motherland!: everything the rules read and write."""

    turn: int
    #: the phase of the turn, an index into ``MotherlandState.phases()`` (3.0)
    phase: int
    units: dict[str, Unit]
    #: Strength Chit cups A, B and C (11.0), each sorted
    cups: dict[str, list[str]]
    #: chits out of the game (a starred chit discarded, 11.2 note)
    removed_chits: list[str]
    #: who controls each hex that carries a control marker (19.1), by hex
    control: dict[str, str]
    #: Soviet Generals in the game (16.5): "ready" or "used" this turn
    generals: dict[str, str]
    #: Partisan markers in the game (10.0): the hex each is in, "" not placed
    partisans: dict[str, str]
    air: Air
    #: Stalin (16.6): "moscow", "evacuated" or "dead"
    stalin: str
    #: the Axis has made its Stalin roll (16.6)
    stalin_rolled: bool
    #: the Axis has made its surrender roll (16.6)
    surrender_rolled: bool
    #: Economic Assets eliminated (12.0, 19.0), in the order they fell
    eliminated_assets: list[str]
    #: German Panzers have entered Baku (21.1, optional)
    baku_done: bool
    #: Turkey has entered the war (21.2, optional)
    turkey: bool
    #: the attack or overrun being resolved (8.0, 7.0)
    combat: Combat | None
    result: GameEnd | None
    #: Sea Transport used this phase (5.5: one per phase)
    sea_used: bool
    #: 3.1 step 4 (the units that move after the others) has begun this phase
    late: bool
    #: 3.1 step 3 (regular movement) has begun: no Strategic Movement or Sea Transport
    regular: bool
    #: hexes attacked this phase (8.3.1)
    hit: list[str]
    #: Supply Bases expended this Supply Phase (9.3.4)
    expended: list[str] = field(default_factory=list)
    #: Sevastopol was Axis-held as the Supply Phase began: no sea supply through Odessa
    #: (9.6.1 note)
    odessa_closed: bool = False

    def copy(self) -> Position:
        """A copy sharing nothing that changes (for ``clone``; faster than deepcopy)."""
        out = replace(self, units={uid: u.copy() for uid, u in self.units.items()},
                      air=replace(self.air), combat=self.combat and replace(
                          self.combat, attackers=list(self.combat.attackers),
                          defenders=list(self.combat.defenders), orig=dict(self.combat.orig),
                          eliminated=set(self.combat.eliminated), took=dict(self.combat.took),
                          cut=dict(self.combat.cut)))
        for f in fields(self):
            if f.name not in ("units", "air", "combat"):
                setattr(out, f.name, copy_data(getattr(out, f.name)))
        return out
