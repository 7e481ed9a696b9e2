"""3.1 control of hexes, and the changes of place that move it: a unit put in a hex or
eliminated (the Front Markers follow at once, 14.1)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from engines.backhand.data import SIDES
from engines.backhand.fronts import displace_fronts
from pbem.engine import Event

if TYPE_CHECKING:
    from engines.backhand.data import Data
    from engines.backhand.state import BBState
    from engines.hexkit.facts import BoardFacts


def control(s: BBState, h: str) -> str | None:
    """3.1: the occupant, else the side whose ZOC alone reaches the hex."""
    for side in SIDES:
        if s.units_at(h, side):
            return side
    sov, ger = h in s.zoc("soviet"), h in s.zoc("german")
    if sov and not ger:
        return "soviet"
    if ger and not sov:
        return "german"
    return None


def update_control(s: BBState) -> None:
    s.invalidate()
    _update_control(s)


#: the data and the board facts (a pure function of where every unit stands) whose
#: watched hexes' control was last found, and that control: a put finds again only the
#: watched hexes next to a hex it changed, control (3.1) being read off a hex and its
#: neighbours; the data too, as two scenarios on one map may watch other hexes
_FOUND: list[tuple[Data, BoardFacts, tuple[str, ...]]] = []
#: the watched hexes and their neighbours, with the data they were read from: a unit
#: leaving or entering any other hex changes no watched hex's control (3.1)
_AROUND: list[tuple[Data, frozenset[str]]] = []


def _around_watched(d: Data) -> frozenset[str]:
    if not _AROUND or _AROUND[0][0] is not d:
        _AROUND[:] = [(d, frozenset(itertools.chain(d.watched, *map(d.nbrs.__getitem__,
                                                                    d.watched))))]
    return _AROUND[0][1]


def _update_control(s: BBState, since: BoardFacts | None = None,
                    changed: frozenset[str] = frozenset()) -> None:
    """Keep the record of hexes ever Soviet controlled (11.2, 18.2) current.  ``since``:
    the board facts before the units in the hexes ``changed`` alone left or entered
    them."""
    facts = s.facts()
    kept = _FOUND[0] if _FOUND else None
    if kept is not None and kept[0] is s.data and (kept[1] is facts or (
            kept[1] is since and changed.isdisjoint(_around_watched(s.data)))):
        # no watched hex is in or next to a hex that changed (issue 35: all eight asked
        # again after every move, where a move is near one of them a few times a game)
        now = list(kept[2])
    else:
        now = soviet_controlled(s)
    _FOUND[:] = [(s.data, facts, tuple(now))]
    s.pos.sov_control = now
    s.pos.ever_soviet = sorted(set(s.pos.ever_soviet) | set(now))


def soviet_controlled(s: BBState) -> list[str]:
    """The watched hexes (cities, variable reinforcement hexes) Soviet controlled now:
    asked after every move, of eight hexes, so each one's ZOC is read off its own
    neighbours (a unit next to it, not into a city, 6.0) rather than from the ZOC of
    every unit of both sides (issue 35)."""
    occ_s, occ_g = s.occupied("soviet"), s.occupied("german")
    return [h for h in s.data.watched if h in occ_s or (
        h not in occ_g and s.in_zoc(h, occ_s) and not s.in_zoc(h, occ_g))]


def control_events(s: BBState, before: list[str]) -> list[Event]:
    """3.1: control of a watched hex (cities, variable reinforcement hexes) changing."""
    out = []
    for h in sorted(set(before) ^ set(s.pos.sov_control)):
        name = s.data.city_names.get(h, h)
        now = "Soviet" if h in s.pos.sov_control else "no longer Soviet"
        out.append(Event(f"{name} is {now} controlled", "control", rule="3.1", hexes=(h,)))
    return out


def put(s: BBState, units: list[str] | tuple[str, ...], h: str) -> None:
    since = s.facts()
    left = []
    for u in units:
        x = s.pos.units[u]
        left.append(x.at)
        x.at = h
    changed = frozenset((h, *left))
    s.invalidate()
    _update_control(s, since, changed)
    displace_fronts(s, since, changed)
    s.invalidate()


def lose_steps(s: BBState, uid: str, n: int, rule: str) -> list[Event]:
    x = s.pos.units[uid]
    x.steps -= n
    if x.steps <= 0:
        return eliminate(s, uid, rule)
    return []


def eliminate(s: BBState, uid: str, rule: str) -> list[Event]:
    """A unit out of play: control (3.1) and the Front Markers (14.1: a marker must trace
    "at any time", so one a Soviet unit kept open is displaced now) follow at once."""
    x = s.pos.units[uid]
    since = s.facts()
    changed = frozenset((x.at,))
    x.steps = 0
    x.at = "elim"
    s.invalidate()
    _update_control(s, since, changed)
    displace_fronts(s, since, changed)
    s.invalidate()
    return [Event(f"{uid} is eliminated", "loss", rule=rule, units=(uid,))]
