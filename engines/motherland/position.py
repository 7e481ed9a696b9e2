"""The For the Motherland! position as typed data (pbem.codec derives its snapshot).

Field names are the snapshot's keys, kept from the untyped dict this replaced, so that
saved games and the state digest did not change with the move (issue 12); each field
says what it holds in the book's terms.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Unit:
    """One counter of the game: where it is and what it has done this phase."""

    #: the hex it stands in; "" off the map (then ``box`` says where)
    hex: str = ""
    #: where an off-map counter is: "out" (not yet in play), "track" (the Turn Record
    #: Track, arriving on turn ``ret``: 17.0, 17.1.2), "elim", "pool" (replacements,
    #: 17.4), "conv" (awaiting conversion, 15.0), "osm" (the OSM Waiting Box, 13.0),
    #: "assets" (an eliminated Economic Asset, 12.0), "baku" (21.2), "evac", "removed"
    #: (out of the game); "" on the map
    box: str = "out"
    #: steps left (a corps' second step is its Kampfgruppe side: 6.0, 8.5)
    steps: int = 1
    #: the Strength Chit it carries (11.0), "" none
    chit: str = ""
    #: supply status (9.0): "" in supply, "lack" (9.5.1), "out" (9.5.2)
    sup: str = ""
    #: movement points left this phase (5.0; exploitation's own allowance, 5.4)
    mp: int = 0
    #: how many moves it has made this phase (one-hex moves and strategic moves count)
    mv: int = 0
    #: how it moves this phase: "" normally, "one" (a one-hex move only, 5.1.5),
    #: "ovr" (advancing out of an overrun hex, 7.1), "strat" (Strategic Movement, 5.3),
    #: "sea" (Sea Transport, 5.5), "done" (may not move again)
    mode: str = ""
    #: it attacked in this phase (8.3.1)
    atk: bool = False
    #: it defended in this phase (8.3.4)
    dfd: bool = False
    #: it retreated into a friendly hex this phase (8.6.5)
    rin: bool = False
    #: the turn it returns on from the Turn Record Track (17.1.2), 0 none
    ret: int = 0
    #: it came back to the map this turn (17.1)
    back: bool = False
    #: the hex it began the phase in (5.0)
    start: str = ""

    def copy(self) -> Unit:
        return Unit(self.hex, self.box, self.steps, self.chit, self.sup, self.mp, self.mv,
                    self.mode, self.atk, self.dfd, self.rin, self.ret, self.back, self.start)


#: the units by counter id (the snapshot's ``position.units``)
UNITS = dict[str, Unit]
