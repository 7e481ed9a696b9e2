"""Von Manstein's Backhand Blow on the step runtime: position, helpers and every step.

Rule numbers are those of the rulebook *Von Manstein's Backhand Blow, Exclusive Rules*; the
series rules they lean on (Activity Table, CRT and hits, chits, attrition, random events)
are stand-ins read from scenarios/backhand-blow/tables.toml (docs/engines/backhand-blow.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from engines.backhand.data import FRONTS, SIDES, Data, roll_lookup
from engines.hexkit.movement import reachable, trace
from engines.hexkit.zoc import STOP_ON_ENTRY, zoc_map
from pbem.engine import Action, ChanceRequest, Decision, Event, Outcome
from pbem.memo import Memo
from pbem.steps import (
    Choice,
    Entry,
    Flow,
    NoArgs,
    Procedure,
    Refusal,
    Roll,
    Sequence,
    StepState,
)

BOXES = ("box1", "box2")
OFF = ("pending", "cup", "elim", "out", "box1", "box2")
T = TypeVar("T")

# What the placement of the units implies (occupancy, ZOC, supply net, clear region),
# remembered across actions and states: keyed by the kind, the side and every on-map
# unit's hex, which is all these read (the map and the order of battle never change).
_PLACED: Memo[tuple[str, str, tuple[tuple[str, str], ...]], Any] = Memo(2048)
_FITS: Memo[tuple[str, tuple[str, ...]], bool] = Memo(2048 * 8)


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


# -- actions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Word(Action):
    """A bare word or a word with arguments: ``move LAH-1``, ``to 2510``, ``end``."""

    word: str
    args: tuple[str, ...] = ()

    def notation(self) -> str:
        return " ".join((self.word, *self.args))


def w(word: str, *args: str) -> Word:
    return Word(word, tuple(args))


# -- the position ------------------------------------------------------------------------


@dataclass
class Unit:
    at: str  # a hex, or pending/cup/elim/out/box1/box2
    steps: int
    oos: bool = False
    oos_turns: int = 0
    moved: bool = False
    fought: bool = False
    admin: bool = False
    refit: bool = False  # 13.1: under Frontnahe Auffrischung this game turn
    replaced: bool = False


@dataclass
class Position:
    turn: int
    last_turn: int
    victory: str
    weather: str
    prev_weather: str
    historical: bool
    units: dict[str, Unit]
    fronts: dict[str, str]
    c3i: dict[str, int]
    ap: dict[str, int]
    cup: list[str]
    chits: dict[str, list[str]]
    used_chits: list[str] = field(default_factory=list)
    replacements: dict[str, int] = field(default_factory=lambda: {"mot": 0, "non": 0})
    ever_soviet: list[str] = field(default_factory=list)
    uprising_tried: list[str] = field(default_factory=list)
    fronts_moved: list[str] = field(default_factory=list)
    rochade_used: bool = False
    rochade_now: bool = False
    rochade_segment: str = ""  # 15.12: the one segment with more than one placement
    refit_marks: dict[str, str] = field(default_factory=dict)  # marker -> formation@hex
    phasing: str = "soviet"
    segment: str = ""
    seg_over: bool = False
    admin_moves: int = 0
    sov_control: list[str] = field(default_factory=list)


# -- frame arguments ---------------------------------------------------------------------


@dataclass(frozen=True)
class SegSpec:
    side: str = "soviet"
    kind: str = "sp"  # sp or general
    no: int = 1


@dataclass
class SegState:
    side: str = "soviet"
    kind: str = "sp"
    no: int = 1
    stage: int = 0
    first: str = "move"


@dataclass(frozen=True)
class PhaseArgs:
    side: str = "soviet"
    kind: str = "sp"


@dataclass(frozen=True)
class MoveArgs:
    side: str = "soviet"
    kind: str = "sp"
    units: tuple[str, ...] = ()
    origin: str = ""


@dataclass(frozen=True)
class AttackArgs:
    side: str = "soviet"
    kind: str = "sp"
    target: str = ""
    units: tuple[str, ...] = ()
    chits: tuple[str, ...] = ()


@dataclass(frozen=True)
class HitArgs:
    side: str = "soviet"  # the side taking the hits
    attacker: str = "soviet"
    kind: str = "sp"
    target: str = ""
    hits: int = 0
    retreat: bool = False  # an R result (16.723: optional in a city)
    retreated: int = 0
    river: bool = False  # the retreat crossed a river: it stops (16.722)
    units: tuple[str, ...] = ()  # the attackers (advance)
    then: tuple[int, str] = (0, "")  # attacker's hits still to take, and events
    no_advance: bool = False


@dataclass(frozen=True)
class UnitArg:
    unit: str = ""


@dataclass(frozen=True)
class Cities:
    cities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Count:
    n: int = 0


# -- the state ---------------------------------------------------------------------------


class BBState(StepState[Position]):
    """Helpers every step reads; steps are below."""

    data: Data
    #: a clone makes its own caches again (pbem.steps)
    clone_drops = ("_cache", "_listed")

    # caches of what the unit locations imply (cleared whenever a unit or marker moves and
    # at every action and outcome: never part of the snapshot)
    def _cached(self, key: tuple[str, str], make: Callable[[], T]) -> T:
        cache: dict[tuple[str, str], Any] = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = make()
        return cache[key]  # type: ignore[no-any-return]

    def placement(self) -> tuple[tuple[str, str], ...]:
        """Every on-map unit and its hex, by unit id: all that :meth:`_placed` reads."""
        return self._cached(("placement", ""), lambda: tuple(sorted(
            (u, x.at) for u, x in self.pos.units.items() if x.at not in OFF)))

    def _placed(self, kind: str, side: str, make: Callable[[], T]) -> T:
        """``make()`` for this placement of the units, remembered across actions."""
        def find() -> T:
            found: T = _PLACED.get((kind, side, self.placement()), make)
            return found
        return self._cached((kind, side), find)

    def invalidate(self) -> None:
        self.__dict__["_cache"] = {}
        self.__dict__["_listed"] = None

    def listed(self, step: Choice[Any], args: Any) -> list[Action]:
        """``step.options``, computed once for the decision, its default, the legal
        actions and the check of the action taken (all read the same position: the memo is
        dropped with the caches)."""
        memo = self.__dict__.get("_listed")
        if memo is not None and memo[0] == step.name and memo[1] == args:
            return list(memo[2])
        out = step.options(self, args)
        self.__dict__["_listed"] = (step.name, args, tuple(out))
        return out

    def _legal_actions(self) -> list[Action]:
        step, frame = self._choice()
        return self.listed(step, frame.args)

    def _decision(self) -> Decision:
        step, frame = self._choice()
        args = frame.args
        return Decision(step.side(self, args), step.kind, step.prompt(self, args),
                        tuple(self.listed(step, args)) if step.show else (),
                        step.default(self, args), rule=step.rule)

    def _apply_action(self, action: Action) -> list[Event]:
        listed = self.__dict__.get("_listed")  # the position's, until the action applies
        self.invalidate()
        self.__dict__["_listed"] = listed
        try:
            return super()._apply_action(action) + self.news()
        finally:
            self.invalidate()

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        self.invalidate()
        try:
            return super()._apply_outcome(outcome) + self.news()
        finally:
            self.invalidate()

    def news(self) -> list[Event]:
        """The events of what happened inside a helper with no events to return (a Front
        Marker displaced by a move, 14.1), at the end of the action or roll's events."""
        out: list[Event] = self.__dict__.pop("_news", [])
        return out

    # the map's occupants --------------------------------------------------------------
    def on_map(self, uid: str) -> bool:
        return self.pos.units[uid].at not in OFF

    def side_of(self, uid: str) -> str:
        if uid.startswith("UP-"):
            return "soviet"
        return self.data.units[uid].side

    def utype_tr(self, uid: str) -> int:
        return self.data.uprising_tr if uid.startswith("UP-") else self.data.units[uid].tr

    def factors(self, uid: str) -> tuple[int, int]:
        if uid.startswith("UP-"):
            return self.data.uprising_factors
        return self.data.factors(uid, self.pos.units[uid].steps)

    def motorized(self, uid: str) -> bool:
        return not uid.startswith("UP-") and self.data.units[uid].motorized

    def stationary(self, uid: str) -> bool:
        return uid.startswith("UP-") or self.data.units[uid].stationary

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        if side is not None:
            return list(self.occupied(side).get(h, ()))
        return sorted(self.units_at(h, "soviet") + self.units_at(h, "german"))

    def occupied(self, side: str) -> Mapping[str, tuple[str, ...]]:
        """``side``'s units on the map by hex (shared: read, never changed)."""
        return self._placed("occupied", side, lambda: self._occupied(side))

    def _occupied(self, side: str) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for u, x in sorted(self.pos.units.items()):
            if x.at not in OFF and self.side_of(u) == side:
                out.setdefault(x.at, []).append(u)
        return {h: tuple(v) for h, v in out.items()}

    def zoc(self, side: str) -> frozenset[str]:
        """The ZOC ``side``'s units exert: none into cities (6.0)."""
        return self._placed("zoc", side, lambda: self._zoc(side))

    def _zoc(self, side: str) -> frozenset[str]:
        units = [(u, x.at) for u, x in sorted(self.pos.units.items())
                 if x.at not in OFF and self.side_of(u) == side]
        cities = set(self.data.cities)
        return frozenset(h for h in zoc_map(self.data.map, units).hexes if h not in cities)

    def control(self, h: str) -> str | None:
        """3.1: the occupant, else the side whose ZOC alone reaches the hex."""
        for side in SIDES:
            if self.units_at(h, side):
                return side
        s, g = h in self.zoc("soviet"), h in self.zoc("german")
        if s and not g:
            return "soviet"
        if g and not s:
            return "german"
        return None

    def update_control(self) -> None:
        self.invalidate()
        self._update_control()

    def _update_control(self) -> None:
        """Keep the record of hexes ever Soviet controlled (11.2, 18.2) current."""
        now = self.soviet_controlled()
        self.pos.sov_control = now
        self.pos.ever_soviet = sorted(set(self.pos.ever_soviet) | set(now))

    def soviet_controlled(self) -> list[str]:
        """The watched hexes (cities, variable reinforcement hexes) Soviet controlled now."""
        watch = sorted(set(self.data.cities) | {t.variable for t in self.data.units.values()
                                                if t.variable})
        sz, gz = self.zoc("soviet"), self.zoc("german")
        occ_s, occ_g = self.occupied("soviet"), self.occupied("german")
        return [h for h in watch
                if h in occ_s or (h not in occ_g and h in sz and h not in gz)]

    # supply and range ------------------------------------------------------------------
    def supply_sources(self, side: str) -> frozenset[str]:
        return self.data.soviet_supply if side == "soviet" else self.data.german_supply

    def in_supply(self, h: str, side: str) -> bool:
        """7.0 with the series trace (stand-in): a path of any length to a source, not
        through enemy units or an EZOC a friendly unit does not occupy."""
        if h in self.occupied(other(side)):
            return False
        net = self.supply_net(side)
        return h in net or h in self.supply_sources(side) or any(
            n in net for n in self.data.nbrs[h])

    def supply_net(self, side: str) -> frozenset[str]:
        return self._placed("supply", side, lambda: self._supply_net(side))

    def _supply_net(self, side: str) -> frozenset[str]:
        """The passable hexes joined to a passable source: one flood for every unit."""
        friends = self.occupied(side)
        # impassable: enemy units, and EZOC hexes no friendly unit is in
        blocked = set(self.occupied(other(side))) | {
            h for h in self.zoc(other(side)) if h not in friends}
        return self._flood(side, blocked)

    def _flood(self, side: str, blocked: set[str]) -> frozenset[str]:
        """The hexes joined to a source of ``side`` outside ``blocked`` by hexes outside."""
        seen = {h for h in self.supply_sources(side) if h not in blocked}
        todo = sorted(seen)
        nbrs = self.data.nbrs
        while todo:
            h = todo.pop()
            for n in nbrs[h]:
                if n not in seen and n not in blocked:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def clear_region(self, side: str) -> frozenset[str]:
        """15.1 (1): hexes joined to a friendly source by hexes free of enemy units and
        EZOCs (a friendly unit does not negate an EZOC here)."""
        return self._placed("clear", side, lambda: self._clear_region(side))

    def _clear_region(self, side: str) -> frozenset[str]:
        return self._flood(side, set(self.occupied(other(side))) | self.zoc(other(side)))

    def in_range(self, h: str, front: str | None = None) -> bool:
        """14.0: within twelve hexes of a Front Marker (the line may cross the enemy)."""
        if h in BOXES:
            return True
        fronts = [front] if front else list(FRONTS)
        return any(h in self.data.front_range(self.pos.fronts[f]) for f in fronts)

    def paying_front(self, hexes: list[str]) -> str | None:
        """9.0: a Soviet move or attack is paid by a front whose marker is in range; the
        front with more points left pays (the engine's reading; ties: Southwest)."""
        best: str | None = None
        for f in FRONTS:
            if (self.pos.ap[f] > 0 and any(self.in_range(h, f) for h in hexes)
                    and (best is None or self.pos.ap[f] > self.pos.ap[best])):
                best = f
        return best

    def ap_left(self, side: str) -> int:
        if side == "german":
            return self.pos.ap["german"]
        return sum(self.pos.ap[f] for f in FRONTS)

    # stacking --------------------------------------------------------------------------
    def stack_ok(self, h: str, side: str, adding: list[str] | tuple[str, ...]) -> bool:
        """10.1, 10.2: ``adding`` joining ``side``'s units in ``h``."""
        here = self.occupied(side).get(h, ())
        return self.stack_fits(sorted(set(here) | set(adding)), side)

    def stack_fits(self, units: list[str], side: str) -> bool:
        """10.1, 10.2: whether ``units`` (distinct) may stack together; a fact of the
        order of battle, kept per set of units."""
        return _FITS.get((side, tuple(units)), lambda: self._stack_fits(units, side))

    def _stack_fits(self, units: list[str], side: str) -> bool:
        if side == "soviet":
            return sum(1 for u in units if not u.startswith("UP-")
                       and not self.data.units[u].bracket) <= 3
        count = 0
        forms: dict[str, int] = {}
        for u in units:
            t = self.data.units[u]
            if t.bracket:
                continue
            if t.formation:
                forms[t.formation] = forms.get(t.formation, 0) + 1
            else:
                count += 1
        count += sum(1 if n == 1 else 2 for n in forms.values())
        return count <= 4

    # formations ------------------------------------------------------------------------
    def integrity(self, uid: str) -> int:
        """16.74: +2 stacked with one other element (two for Wiking and 19th PD)."""
        t = self.data.units.get(uid)
        if t is None or not t.formation:
            return 0
        here = [u for u in self.data.formations[t.formation].members
                if u != uid and self.pos.units[u].at == self.pos.units[uid].at]
        need = 2 if len(self.data.formations[t.formation].members) == 4 else 1
        return 2 if len(here) >= need else 0

    # movement --------------------------------------------------------------------------
    def destinations(self, units: tuple[str, ...], origin: str) -> list[str]:
        """Where a unit or formation stack may end a move (15.0, TEC by weather); the
        same for the players' two verifiers and a probe's twin, so remembered by what it
        reads: the units, their hex, the weather and the placement."""
        return list(self._placed("destinations", f"{self.pos.weather} {origin} {units}",
                                 lambda: tuple(self._destinations(units, origin))))

    def _destinations(self, units: tuple[str, ...], origin: str) -> list[str]:
        pos, m = self.pos, self.data.map
        side = self.side_of(units[0])
        mot = any(self.motorized(u) for u in units)
        ma = min(self.data.units[u].ma for u in units)
        enemy = self.occupied(other(side))
        ez = self.zoc(other(side))
        costs = self.data.costs[(pos.weather, mot)]
        friends = self.occupied(side)
        alone = self.stack_fits(sorted(set(units)), side)  # into a hex no friend holds
        reach = reachable(costs, origin, ma, zoc=ez, policy=STOP_ON_ENTRY, blocked=enemy,
                          can_end=lambda h: self.stack_ok(h, side, units) if h in friends
                          else alone)
        ends = set(reach.ends)
        if pos.weather != "frozen":
            # 15.31: across a river by spending all MPs, from a hex adjacent to it
            for n in m.neighbors(origin):
                if (m.has_side(origin, n, "river") and not m.has_side(origin, n, "bridge")
                        and n not in enemy and costs.move_class.enter.get(m.terrain_of(n))
                        is not None and self.stack_ok(n, side, list(units))):
                    ends.add(n)
        return sorted(ends)

    def put(self, units: list[str] | tuple[str, ...], h: str) -> None:
        for u in units:
            self.pos.units[u].at = h
        self.update_control()
        self.displace_fronts()
        self.invalidate()

    def displace_fronts(self) -> None:
        """14.1: a Front Marker whose hex the enemy entered or that cannot trace to a
        Soviet source goes "to the next available hex ... closer to a Soviet supply source
        and fulfilling all requirements": the nearest hex of the Soviet supply net (free of
        German units, out of German ZOC unless a Soviet unit is there, joined to a source),
        among those nearer a source than the marker if there are any; ties by distance to
        a source, then hex id. The net is what Fronts (14.2) offers a marker to move to."""
        m = self.data.map
        germans = self.occupied("german")
        gz = self.zoc("german")
        sov = self.occupied("soviet")
        sources = sorted(self.data.soviet_supply)

        def ok(x: str) -> bool:
            return x not in germans and (x not in gz or x in sov)

        def to_source(x: str) -> int:
            return min(m.distance(x, y) for y in sources)
        for f in FRONTS:
            h = self.pos.fronts[f]
            # the usual case, a marker still joined to a source, by a trace from the marker
            # (cheaper after every move than the flood of the whole net)
            if ok(h) and trace(m, h, self.data.soviet_supply, passable=ok):
                continue
            net = self.supply_net("soviet")
            legal = [x for x in sorted(net) if m.terrain_of(x) != "sea"]
            if not legal:
                continue  # no hex anywhere meets 14.1: the marker stays
            here = to_source(h)
            closer = [x for x in legal if to_source(x) < here] or legal
            new = min(closer, key=lambda x: (m.distance(h, x), to_source(x), x))
            self.pos.fronts[f] = new
            self.__dict__.setdefault("_news", []).append(Event(
                f"the {f} Front Marker is displaced from {h} to {new}", "move",
                rule="14.1", hexes=(h, new)))

    def uprisings_due(self, moved_to: tuple[str, ...]) -> tuple[str, ...]:
        """17.0: cities a Soviet unit has just moved within three hexes of (``moved_to``:
        where its move or advance ended), each once a game."""
        out = []
        for c in self.data.cities:
            if c in self.pos.uprising_tried:
                continue
            vk = [u for u in self.units_at(c, "german") if self.data.units[u].city == c]
            if not vk:
                continue
            if any(self.data.map.distance(c, h) <= 3 for h in moved_to):
                out.append(c)
        return tuple(out)


# -- the sequence of play ----------------------------------------------------------------


class GameStep(Procedure[BBState]):
    """4.0: game turns until the scenario's last (18.1, 18.2)."""

    name = "game"
    rule = "4.0"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        if s.pos.turn > s.pos.last_turn:
            flow.end()
        else:
            flow.call("turn")
        return []


def _admin(s: BBState) -> bool:
    return s.pos.turn > 1  # 18.0: turn 1 starts with the 1st Soviet Schwerpunkt Segment


class Turn(Sequence[BBState]):
    name = "turn"
    entries = (
        Entry("4.2 I.A", "new-turn"),
        Entry("5.1", "weather", lambda s: _admin(s) and not s.pos.historical),
        Entry("8.2", "rochade", lambda s: (s.pos.turn >= 7 and s.pos.weather == "frozen"
                                            and not s.pos.rochade_used)),
        Entry("4.2 I.D", "supply", _admin),
        Entry("11.2", "vr-roll", lambda s: _admin(s) and bool(s.pos.cup)),
        Entry("11.1", "reinforce", _admin, UnitArg("soviet")),
        Entry("11.1", "reinforce", _admin, UnitArg("german")),
        Entry("12.0", "repl-roll", _admin),
        Entry("12.0", "replace", _admin),
        Entry("13.1", "refit-pay", lambda s: s.pos.turn >= 7),
        Entry("4.2 I.J", "track"),
        Entry("4.2 II", "segment", lambda s: s.pos.weather != "deep", SegSpec("soviet", "sp", 1)),
        Entry("4.2 III", "segment", lambda s: s.pos.weather != "deep", SegSpec("german", "sp", 1)),
        Entry("4.2 IV", "segment", lambda s: s.pos.weather == "frozen",
              SegSpec("soviet", "sp", 2)),
        Entry("4.2 V", "segment", lambda s: s.pos.weather == "frozen",
              SegSpec("german", "sp", 2)),
        Entry("4.2 VI", "segment", None, SegSpec("soviet", "general", 0)),
        Entry("4.2 VII", "segment", None, SegSpec("german", "general", 0)),
        Entry("4.2", "end-turn"),
    )


class Advance(Procedure[BBState]):
    """4.2 I.A: the new game turn; 5.0 turn 1 Frozen; 5.5 historical weather."""

    name = "new-turn"
    rule = "4.2 I.A"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        pos.prev_weather = pos.weather
        pos.rochade_now = False
        pos.rochade_segment = ""
        for u in pos.units.values():
            u.refit = u.replaced = False
        ev = [Event(f"game turn {pos.turn}", "phase", rule=self.rule)]
        if pos.turn == 1:
            pos.weather = "frozen"
            ev.append(Event("turn 1: the weather is Frozen", "weather", rule="5.0"))
        elif pos.historical:
            pos.weather = _chain(pos.prev_weather, s.data.historical_weather(pos.turn))
            ev.append(Event(f"historical weather: {pos.weather}", "weather", rule="5.5"))
        flow.end()
        return ev


def _chain(prev: str, rolled: str) -> str:
    """5.1: Mud after Mud or Deep Mud is Deep Mud."""
    if rolled in ("mud", "deep") and prev in ("mud", "deep"):
        return "deep"
    return rolled


class WeatherRoll(Roll[BBState]):
    name = "weather"
    rule = "5.1"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"weather for game turn {s.pos.turn}", 6, 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        roll = int(outcome[0]) + int(outcome[1]) + s.data.weather_drm(s.pos.turn)
        rolled = str(roll_lookup(s.data.weather, roll)[0])
        s.pos.weather = _chain(s.pos.prev_weather, rolled)
        return [Event(f"weather roll {roll}: {rolled}; the weather is {s.pos.weather}",
                      "weather", rule="5.1")]


class BBChoice(Choice[BBState]):
    """A decision whose check reads the options listed for this position (BBState.listed)
    instead of computing them again."""

    def check(self, s: BBState, args: Any, action: Action) -> None:
        if action not in s.listed(self, args):
            super().check(s, args, action)

    def only_option(self, s: BBState, args: Any) -> Action | None:
        # check takes nothing the step does not list (the memo only spares computing the
        # options again), so a lone listed action is the only one there is: sealed rules 2
        # (docs/protocol.md 6.2.1) take it after a roll, as a hit that leaves one loss
        # (16.0) or replacements with none eligible (12.0).  A subclass that takes unlisted
        # variants (its own check or accepts) says for itself.
        cls = type(self)
        if cls.check is not BBChoice.check or cls.accepts is not Choice.accepts:
            return None
        options = s.listed(self, args)
        return options[0] if len(options) == 1 else None


class Rochade(BBChoice):
    """8.2: from turn 7, once, on a Frozen turn."""

    name = "rochade"
    kind = "rochade"
    rule = "8.2"
    decider = "german"

    def prompt(self, s: BBState, args: NoArgs) -> str:
        return "declare the Rochade this game turn?"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [w("rochade"), w("no-rochade")]

    def default(self, s: BBState, args: NoArgs) -> Action:
        return w("no-rochade")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        flow.end()
        if action == w("rochade"):
            s.pos.rochade_used = s.pos.rochade_now = True
            return [Event("the German player declares the Rochade", "info", rule=self.rule)]
        return []


class Supply(Procedure[BBState]):
    """4.2 I.D: both sides check supply; Out Of Supply units roll for attrition."""

    name = "supply"
    rule = "4.2 I.D"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        ev = []
        for u, x in sorted(s.pos.units.items()):
            if x.at in OFF:
                continue
            oos = not s.in_supply(x.at, s.side_of(u))
            x.oos_turns = x.oos_turns + 1 if (oos and x.oos) else (1 if oos else 0)
            x.oos = oos
        short = tuple(u for u, x in sorted(s.pos.units.items())
                      if x.oos and x.at not in OFF and not s.stationary(u))
        if short:
            ev.append(Event(f"out of supply: {', '.join(short)}", "supply", rule="7.0"))
            flow.goto("attrition", Cities(short))
        else:
            flow.end()
        return ev


class Attrition(Roll[BBState]):
    """Attrition Check (stand-in table, its modifiers in the data's note)."""

    name = "attrition"
    rule = "4.2 I.D"
    Args = Cities

    def request(self, s: BBState, args: Cities) -> ChanceRequest:
        return ChanceRequest.roll(f"attrition check for {args.cities[0]}", 6, rule=self.rule)

    def resolve(self, s: BBState, args: Cities, outcome: Outcome, flow: Flow) -> list[Event]:
        uid = args.cities[0]
        x = s.pos.units[uid]
        drm = ((1 if s.pos.weather == "deep" else 0) + (1 if s.motorized(uid) else 0)
               + min(2, x.oos_turns - 1))
        roll = int(outcome[0]) + drm
        lost = int(roll_lookup(s.data.attrition, roll)[0])
        ev = [Event(f"attrition {uid}: {outcome[0]}+{drm} = {roll}, {lost} step(s) lost",
                    "loss", rule="4.2 I.D")]
        if lost:
            ev += lose_steps(s, uid, lost, "4.2 I.D")
        if len(args.cities) > 1:
            flow.goto("attrition", Cities(args.cities[1:]))
        return ev


def control_events(s: BBState, before: list[str]) -> list[Event]:
    """3.1: control of a watched hex (cities, variable reinforcement hexes) changing."""
    out = []
    for h in sorted(set(before) ^ set(s.pos.sov_control)):
        name = s.data.city_names.get(h, h)
        now = "Soviet" if h in s.pos.sov_control else "no longer Soviet"
        out.append(Event(f"{name} is {now} controlled", "control", rule="3.1", hexes=(h,)))
    return out


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
    x.steps = 0
    x.at = "elim"
    s.update_control()
    s.displace_fronts()
    s.invalidate()
    return [Event(f"{uid} is eliminated", "loss", rule=rule, units=(uid,))]


class VariableRoll(Roll[BBState]):
    """11.2: one die on the German Variable Reinforcements Table."""

    name = "vr-roll"
    rule = "11.2"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll("German variable reinforcements", 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        col = s.data.variable_column(s.pos.turn)
        n = min(len(s.pos.cup), int(roll_lookup(s.data.variable, int(outcome[0]))[
            s.data.variable.columns.index(col)]))
        if n:
            flow.goto("vr-draw", Count(n))
        return [Event(f"variable reinforcements: {n} to draw", "info", rule=self.rule)]


class VariableDraw(Roll[BBState]):
    name = "vr-draw"
    rule = "11.2"
    Args = Count

    def request(self, s: BBState, args: Count) -> ChanceRequest:
        return ChanceRequest.draw("variable reinforcements", "variable", sorted(s.pos.cup),
                                  args.n, rule=self.rule)

    def resolve(self, s: BBState, args: Count, outcome: Outcome, flow: Flow) -> list[Event]:
        ev = []
        for o in outcome:
            uid = str(o)
            s.pos.cup.remove(uid)
            h = s.data.units[uid].variable
            if h in s.pos.ever_soviet or s.units_at(h, "soviet"):
                s.pos.units[uid].at = "out"
                ev.append(Event(f"{uid} drawn: its setup hex {h} has been Soviet controlled; "
                                "lost", "loss", rule=self.rule))
            else:
                s.put([uid], h)
                ev.append(Event(f"{uid} drawn and placed in {h}", "reinforce", rule=self.rule,
                                hexes=(h,)))
        return ev


class Reinforce(BBChoice):
    """11.1: the turn's scheduled reinforcements on the map or in Box #1."""

    name = "reinforce"
    kind = "reinforce"
    rule = "11.1"
    Args = UnitArg
    auto = True

    def due(self, s: BBState, side: str) -> list[str]:
        return [u for u, x in sorted(s.pos.units.items()) if x.at == "pending"
                and s.side_of(u) == side and s.data.units[u].arrive <= s.pos.turn]

    def side(self, s: BBState, args: UnitArg) -> str:
        return args.unit

    def prompt(self, s: BBState, args: UnitArg) -> str:
        return f"reinforcements {', '.join(self.due(s, args.unit))}: on the map or in Box #1"

    def options(self, s: BBState, args: UnitArg) -> list[Action]:
        if not self.due(s, args.unit):
            return [w("none")]
        return [w("arrive", "map"), w("arrive", "box")]

    def default(self, s: BBState, args: UnitArg) -> Action:
        return s.listed(self, args)[0]

    def apply(self, s: BBState, args: UnitArg, action: Action, flow: Flow) -> list[Event]:
        flow.end()
        assert isinstance(action, Word)
        ev = []
        for u in self.due(s, args.unit):
            entry = s.data.units[u].entry
            if entry.startswith("front:"):
                entry = s.pos.fronts[entry[6:]]
            if (action.args == ("box",) or entry == "box" or s.units_at(entry, other(args.unit))
                    or not s.stack_ok(entry, args.unit, [u])):
                s.pos.units[u].at = "box1"
                ev.append(Event(f"{u} arrives in Administrative Movement Box #1", "reinforce",
                                rule=self.rule))
            else:
                s.put([u], entry)
                ev.append(Event(f"{u} enters at {entry}", "reinforce", rule=self.rule,
                                hexes=(entry,)))
        return ev


class ReplacementRoll(Roll[BBState]):
    name = "repl-roll"
    rule = "12.0"

    def request(self, s: BBState, args: NoArgs) -> ChanceRequest:
        return ChanceRequest.roll("Soviet replacements", 6, rule=self.rule)

    def resolve(self, s: BBState, args: NoArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        mot, non = roll_lookup(s.data.replacements, int(outcome[0]))
        s.pos.replacements["mot"] += int(mot)
        s.pos.replacements["non"] += int(non)
        return [Event(f"Soviet replacements: +{mot} motorized, +{non} non-motorized", "info",
                      rule=self.rule)]


class Replace(BBChoice):
    """12.0: one step per reduced unit per turn, In Supply and in range of a front."""

    name = "replace"
    kind = "replace"
    rule = "12.0"
    decider = "soviet"

    def prompt(self, s: BBState, args: NoArgs) -> str:
        r = s.pos.replacements
        return f"spend replacements ({r['mot']} motorized, {r['non']} non-motorized)"

    def eligible(self, s: BBState) -> list[str]:
        out = []
        for u, x in sorted(s.pos.units.items()):
            if u.startswith("UP-") or s.data.units[u].side != "soviet" or x.replaced:
                continue
            if x.at in ("elim", "out", "pending", "cup") or x.steps >= s.data.units[u].steps:
                continue
            if s.pos.replacements["mot" if s.motorized(u) else "non"] <= 0:
                continue
            if x.at in BOXES or (not x.oos and s.in_range(x.at)):
                out.append(u)
        return out

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("replace", u) for u in self.eligible(s)), w("done")]

    def default(self, s: BBState, args: NoArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, args: NoArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "replace":
            return Refusal("12.0", "a replacement goes to a reduced Soviet unit In Supply and "
                           "in range of a Front Marker, once a turn, of a kind still held")
        return super().why_not(s, args, action)

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        u = action.args[0]
        s.pos.replacements["mot" if s.motorized(u) else "non"] -= 1
        s.pos.units[u].steps += 1
        s.pos.units[u].replaced = True
        return [Event(f"{u} receives a replacement step", "reinforce", rule=self.rule)]


class RefitPay(Procedure[BBState]):
    """13.1: the markers placed in the last game turn's Administrative Segment give their
    steps now ("during the Administrative Segment of the next game turn"), before this
    turn's markers are placed (the markers are free again for them)."""

    name = "refit-pay"
    rule = "13.1"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        ev = apply_refits(s)
        flow.goto("refit")
        return ev


class Refit(BBChoice):
    """13.1: place this turn's Frontnahe Auffrischung markers; their steps come next
    turn (RefitPay)."""

    name = "refit"
    kind = "refit"
    rule = "13.1"
    decider = "german"

    def prompt(self, s: BBState, args: NoArgs) -> str:
        return "place the Frontnahe Auffrischung markers"

    def eligible(self, s: BBState) -> list[tuple[str, str, str]]:
        """(marker, formation, hex or box): every place where units of a motorized
        formation stand, In Supply and not adjacent to an enemy unit. One unit is enough:
        only a formation with every unit eliminated may not refit (13.1)."""
        out = []
        for fid, f in s.data.formations.items():
            marker = "ss" if f.ss else "heer"
            if not f.motorized or marker in s.pos.refit_marks:
                continue
            for h, members in formation_places(s, fid):
                if h not in BOXES and (any(s.pos.units[u].oos for u in members) or any(
                        s.units_at(n, "soviet") for n in s.data.map.neighbors(h))):
                    continue
                out.append((marker, fid, h))
        return out

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("refit", fid, h) for _, fid, h in self.eligible(s)), w("done")]

    def default(self, s: BBState, args: NoArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("13.1", "one Heer and one Waffen-SS marker a turn, on the units of a "
                       "motorized formation in one hex (or box), In Supply and not adjacent "
                       "to an enemy unit")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        fid, h = action.args
        marker = "ss" if s.data.formations[fid].ss else "heer"
        s.pos.refit_marks[marker] = f"{fid}@{h}"
        here = [u for u in s.data.formations[fid].members if s.pos.units[u].at == h]
        for u in here:
            s.pos.units[u].refit = True  # neither moves nor attacks this turn
        return [Event(f"Frontnahe Auffrischung marker ({marker}) on {fid} in {h}: "
                      f"{', '.join(here)}; the steps come next game turn", "info",
                      rule=self.rule, units=tuple(here))]


def formation_places(s: BBState, fid: str) -> list[tuple[str, list[str]]]:
    """Where a formation's units in play stand (a hex or a box), each with its units."""
    out: dict[str, list[str]] = {}
    for u in s.data.formations[fid].members:
        at = s.pos.units[u].at
        if at not in ("elim", "out", "pending", "cup"):
            out.setdefault(at, []).append(u)
    return sorted(out.items())


def apply_refits(s: BBState) -> list[Event]:
    """13.1: up to two steps each for the marked formation's units in the marked hex;
    its eliminated units are rebuilt there, unless the enemy holds the hex or it is full
    (10.2); none if every unit of the formation is eliminated."""
    ev = []
    for marker, spec in sorted(s.pos.refit_marks.items()):
        fid, _, h = spec.partition("@")
        members = s.data.formations[fid].members
        if not any(s.pos.units[u].at not in ("elim", "out") for u in members):
            continue
        for u in members:
            x = s.pos.units[u]
            if (x.at == "elim" and (h in BOXES or not s.units_at(h, "soviet"))
                    and (h in BOXES or s.stack_ok(h, "german", [u]))):
                x.at = h
                s.invalidate()
            if x.at == h:
                x.steps = min(s.data.units[u].steps, x.steps + 2)
        ev.append(Event(f"{fid} refits in {h} ({marker} marker)", "reinforce", rule="13.1",
                        hexes=() if h in BOXES else (h,)))
    s.pos.refit_marks = {}
    s.update_control()
    return ev


class Track(Procedure[BBState]):
    """4.2 I.J: chits by the schedule; C3I from the track by the weather (8.1)."""

    name = "track"
    rule = "4.2 I.J"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        pos = s.pos
        ev: list[Event] = []
        for item in s.data.chit_schedule.get(pos.turn, []):
            sign, rest = item[0], item[1:]
            side, _, chit = rest.partition(":")
            if sign == "+" and chit not in pos.chits[side]:
                pos.chits[side] = sorted([*pos.chits[side], chit])
            elif sign == "-" and chit in pos.chits[side]:
                pos.chits[side] = [c for c in pos.chits[side] if c != chit]
        pos.used_chits = []
        if pos.turn > 1:
            for side in SIDES:
                if side == "german" and pos.rochade_now:
                    continue  # 8.2: no C3I received in the Rochade turn
                pos.c3i[side] += s.data.c3i(pos.turn, side, pos.weather)
        ev.append(Event(f"C3I: Soviet {pos.c3i['soviet']}, German {pos.c3i['german']}", "info",
                        rule="8.1"))
        rule, text = {"frozen": ("5.2", "two Schwerpunkt segments a side"),
                      "mud": ("5.3", "one Schwerpunkt segment a side"),
                      "deep": ("5.4", "no Schwerpunkt segments")}[pos.weather]
        ev.append(Event(f"{pos.weather}: {text}", "weather", rule=rule))
        flow.end()
        return ev


class EndTurn(Procedure[BBState]):
    name = "end-turn"
    rule = "4.2"

    def run(self, s: BBState, args: NoArgs, flow: Flow) -> list[Event]:
        ev = []
        if s.pos.turn == s.pos.last_turn:
            _, text = victory(s)
            ev.append(Event(text, "result", rule="18.1" if s.pos.victory ==
                            "high-water-mark" else "18.2"))
        s.pos.turn += 1
        flow.end()
        return ev


# -- the player segments -----------------------------------------------------------------


class Segment(Procedure[BBState]):
    name = "segment"
    rule = "4.2"
    Args = SegSpec

    def run(self, s: BBState, args: SegSpec, flow: Flow) -> list[Event]:
        flow.goto("seg-run", SegState(args.side, args.kind, args.no))
        return []


class SegRun(Procedure[BBState]):
    """A Schwerpunkt (4.2 II-V) or General (VI, VII) segment, stage by stage."""

    name = "seg-run"
    rule = "4.2"
    Args = SegState

    def run(self, s: BBState, a: SegState, flow: Flow) -> list[Event]:
        pos = s.pos
        a.stage += 1
        if a.stage == 1:
            pos.phasing, pos.seg_over, pos.admin_moves = a.side, False, 0
            kind = f"Schwerpunkt {a.no}" if a.kind == "sp" else "General"
            pos.segment = f"{a.side} {kind}"
            pos.fronts_moved = []
            for x in pos.units.values():
                x.moved = x.fought = x.admin = False
            if a.side == "soviet":
                flow.call("fronts")
                return [Event(f"{pos.segment} segment", "phase", rule=self.rule)]
            return [*self.run(s, a, flow), Event(f"{pos.segment} segment", "phase",
                                                 rule=self.rule)]
        if a.stage == 2:
            if pos.turn > 1:  # 15.1: no administrative movement on turn 1
                flow.call("admin-in", PhaseArgs(a.side, a.kind))
                return []
            return self.run(s, a, flow)
        if a.stage == 3:
            ev = []
            if pos.turn > 1:
                moved = [u for u, x in sorted(pos.units.items())
                         if x.at == "box1" and s.side_of(u) == a.side and not x.refit]
                for u in moved:
                    pos.units[u].at = "box2"
                if moved:
                    ev.append(Event(f"Box #1 to Box #2: {', '.join(moved)}", "move",
                                    rule="15.1 (2)"))
                flow.call("admin-out", PhaseArgs(a.side, a.kind))
                return ev
            return self.run(s, a, flow)
        if a.stage == 4:
            flow.call("order", PhaseArgs(a.side, a.kind))
            return []
        if a.stage == 5:
            if a.kind == "sp":
                if a.side == "german" and pos.rochade_now:
                    flow.call("activity", Count(0))
                else:
                    flow.call("c3i", PhaseArgs(a.side, a.kind))
                return []
            return self.run(s, a, flow)
        if a.stage in (6, 7):
            if pos.seg_over:
                return self.run(s, a, flow)
            phase = a.first if a.stage == 6 else ("combat" if a.first == "move" else "move")
            flow.call(phase, PhaseArgs(a.side, a.kind))
            return []
        if a.stage == 8:
            if a.side == "german" and not pos.seg_over:
                flow.call("ersatz")
                return []
            return self.run(s, a, flow)
        for k in pos.ap:
            pos.ap[k] = 0  # unspent activity points do not carry over (stand-in)
        flow.end()
        return []


class Fronts(BBChoice):
    """14.2: each Front Marker moves at most one hex per Soviet segment."""

    name = "fronts"
    kind = "fronts"
    rule = "14.2"
    decider = "soviet"

    def prompt(self, s: BBState, args: NoArgs) -> str:
        return "move the Front Markers one hex each"

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        out: list[Action] = []
        net = s.supply_net("soviet")  # free of the enemy and tracing to a source (14.1)
        for f in FRONTS:
            if f in s.pos.fronts_moved:
                continue
            for n in sorted(s.data.nbrs[s.pos.fronts[f]]):
                if n in net and s.data.map.terrain_of(n) != "sea":
                    out.append(w("front", f, n))
        return [*out, w("done")]

    def default(self, s: BBState, args: NoArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("14.1", "a Front Marker moves one hex a segment, into a hex free of "
                       "the enemy that traces to a Soviet supply source")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        f, h = action.args
        s.pos.fronts[f] = h
        s.pos.fronts_moved.append(f)
        return [Event(f"{f} Front Marker to {h}", "move", rule=self.rule, hexes=(h,))]


class SideChoice(BBChoice):
    """A decision taken by the side its frame names (``args.side``): the frame was pushed
    for that side's segment or for that side's units."""

    def side(self, s: BBState, a: Any) -> str:
        return str(a.side)


class AdminIn(SideChoice):
    """15.1 (1): one unit or formation (five under the Rochade, 15.12) and any number of
    Variable Reinforcements from Box #2 to the map."""

    name = "admin-in"
    kind = "admin"
    rule = "15.1"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return "administrative movement from Box #2 to the map"

    def groups(self, s: BBState, a: PhaseArgs) -> list[tuple[str, tuple[str, ...]]]:
        """Each unit alone, and all units of a formation together (15.1 (1): "one unit
        (or all units part of the same formation)"), by the name that moves them; none
        under Frontnahe Auffrischung (13.1, 15.1)."""
        pos = s.pos
        rochade = (a.side == "german" and pos.rochade_now
                   and pos.rochade_segment in ("", pos.segment))
        limit = 5 if rochade else 1  # 15.12: five in any one segment of the turn
        out: list[tuple[str, tuple[str, ...]]] = []
        forms: set[str] = set()
        for u, x in sorted(pos.units.items()):
            if x.at != "box2" or s.side_of(u) != a.side or x.refit:
                continue
            t = s.data.units[u]
            if not t.variable and pos.admin_moves >= limit:
                continue
            out.append((u, (u,)))
            if t.formation and t.formation not in forms:
                forms.add(t.formation)
                grp = tuple(m for m in s.data.formations[t.formation].members
                            if pos.units[m].at == "box2" and not pos.units[m].refit)
                if len(grp) > 1:
                    out.append((t.formation, grp))
        return out

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [*(w("admin", name) for name, g in self.groups(s, a)
                  if self.any_target(s, a, g)), w("done")]

    def targets(self, s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
        return [h for h in self.hexes_for(s, a, grp) if s.stack_ok(h, a.side, grp)]

    def any_target(self, s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> bool:
        return any(s.stack_ok(h, a.side, grp) for h in self.hexes_for(s, a, grp))

    def hexes_for(self, s: BBState, a: PhaseArgs, grp: tuple[str, ...]) -> list[str]:
        """15.12: "all units part of the same formation must be placed in the same hex":
        a unit whose formation already had units placed this segment joins them."""
        hexes = self.cached_hexes(s, a)
        form = s.data.units[grp[0]].formation
        if not form:
            return hexes
        placed = {s.pos.units[m].at for m in s.data.formations[form].members
                  if s.pos.units[m].admin and s.pos.units[m].at not in OFF}
        return [h for h in hexes if h in placed] if placed else hexes

    def cached_hexes(self, s: BBState, a: PhaseArgs) -> list[str]:
        return s._cached(("admin-hexes", f"{a.side} {s.pos.fronts}"), lambda: self.hexes(s, a))

    def hexes(self, s: BBState, a: PhaseArgs) -> list[str]:
        """15.1 (1) and 15.11 but stacking: the same for every unit placed."""
        region = s.clear_region(a.side)
        friends = s.occupied(a.side)
        ez = s.zoc(other(a.side))
        near = set(friends)
        if a.side == "soviet":
            near |= set(s.pos.fronts.values())
        cand = set(near)
        for h in near:
            cand.update(s.data.map.neighbors(h))
        out = []
        for h in sorted(cand):
            if h not in region or h in ez or s.data.map.terrain_of(h) == "sea":
                continue
            if a.side == "soviet" and not s.in_range(h):  # 15.11
                continue
            out.append(h)
        return out

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.args:
            x = s.pos.units.get(action.args[0])
            form = s.data.formations.get(action.args[0])
            units = form.members if form is not None else (action.args[0],) if x else ()
            if any(s.pos.units[u].refit and s.pos.units[u].at == "box2" for u in units):
                return Refusal("13.1", f"{action.args[0]} is under Frontnahe Auffrischung: "
                               "no administrative movement this turn")
        return Refusal("15.1", "one unit or formation a segment (five under the Rochade, "
                       "15.12) plus Variable Reinforcements, from Box #2 to a hex free of "
                       "EZOCs next to a friendly unit with a clear line to a supply source")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        grp = next(g for name, g in self.groups(s, a) if name == action.args[0])
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
        return [w("place", h) for h in AdminIn().targets(s, PhaseArgs(a.side, a.kind),
                                                            a.units)]

    def default(self, s: BBState, a: MoveArgs) -> Action:
        return s.listed(self, a)[0]

    def apply(self, s: BBState, a: MoveArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        h = action.args[0]
        s.put(a.units, h)
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

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return "administrative movement from the map to Box #1"

    def groups(self, s: BBState, a: PhaseArgs) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Each unit alone (its id), and all units of a formation stacked in one hex
        together (the formation and the hex): 15.1 (3) "one unit (or all units part of
        the same formation that are stacked in the same hex)"."""
        ez = s.zoc(other(a.side))
        pos = s.pos

        def free(u: str) -> bool:
            x = pos.units[u]
            return not (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.admin
                        or x.refit or x.oos or x.at in ez or not s.in_supply(x.at, a.side)
                        or (a.side == "soviet" and not s.in_range(x.at)))
        out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        stacks: set[tuple[str, str]] = set()
        for u in sorted(pos.units):
            if not free(u):
                continue
            t = s.data.units[u]
            if not t.variable and pos.admin_moves >= 100:
                continue  # one unit or formation a segment
            out.append(((u,), (u,)))
            h = pos.units[u].at
            if t.formation and (t.formation, h) not in stacks:
                stacks.add((t.formation, h))
                grp = tuple(m for m in s.data.formations[t.formation].members
                            if pos.units[m].at == h and free(m))
                if len(grp) > 1:
                    out.append(((t.formation, h), grp))
        return out

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [*(w("admin-out", *name) for name, _ in self.groups(s, a)), w("done")]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.args and a.side == "soviet":
            x = s.pos.units.get(action.args[0])
            if x is not None and x.at not in OFF and not s.in_range(x.at):
                return Refusal("15.11", f"{action.args[0]} is out of range of both Front "
                               "Markers")
        return Refusal("15.1", "the pick-up hex must be In Supply and free of EZOCs, the "
                       "unit must not have moved administratively")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        grp = next(g for name, g in self.groups(s, a) if name == action.args)
        origin = s.pos.units[grp[0]].at
        s.put(grp, "box1")
        for u in grp:
            s.pos.units[u].admin = True
        if not s.data.units[grp[0]].variable:
            s.pos.admin_moves += 100  # one unit or formation a segment
        return [Event(f"{', '.join(grp)} from {origin} to Box #1", "move", rule="15.1 (3)",
                      hexes=(origin,), units=grp)]


class Order(SideChoice):
    """4.2 II.C: declare the order of the Combat and Movement Phases."""

    name = "order"
    kind = "phase-order"
    rule = "4.2 II.C"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return "declare the order of the phases"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [w("order", "move-first"), w("order", "combat-first")]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("order", "move-first")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        seg = s.stack[-2].args
        assert isinstance(seg, SegState)
        seg.first = "move" if action.args[0] == "move-first" else "combat"
        flow.end()
        return [Event(f"phases: {action.args[0]}", "info", rule=self.rule)]


class SpendC3I(SideChoice):
    """4.2 II.D: spend C3I points (zero ends the segment)."""

    name = "c3i"
    kind = "c3i"
    rule = "4.2 II.D"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"spend C3I points ({s.pos.c3i[a.side]} held)"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        top = min(4, s.pos.c3i[a.side])
        return [w("spend", str(n)) for n in range(top + 1)]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("spend", str(min(2, s.pos.c3i[a.side])))

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        return Refusal("8.0", f"{s.pos.c3i[a.side]} C3I points held; at most 4 a segment "
                       "(the stand-in Activity Table's columns)")

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        n = int(action.args[0])
        if n == 0:
            s.pos.seg_over = True
            flow.end()
            return [Event("zero C3I points spent: the segment ends", "info", rule=self.rule)]
        s.pos.c3i[a.side] -= n
        flow.goto("activity", Count(n))
        return [Event(f"{a.side} spends {n} C3I", "info", rule=self.rule)]


class Activity(Roll[BBState]):
    """The Activity Table (stand-in): activity points by C3I spent, or the Rochade (8.2)."""

    name = "activity"
    rule = "4.2 II.D"
    Args = Count

    def request(self, s: BBState, a: Count) -> ChanceRequest:
        col = str(a.n) if a.n else "rochade"
        return ChanceRequest.roll(f"Activity Table, column {col}", 6, rule=self.rule)

    def resolve(self, s: BBState, a: Count, outcome: Outcome, flow: Flow) -> list[Event]:
        col = str(a.n) if a.n else "rochade"
        ap = s.data.activity_points(col, int(outcome[0]))
        ev = [Event(f"activity roll {outcome[0]} on column {col}: {ap} activity points",
                    "roll", rule=self.rule)]
        if s.pos.phasing == "german":
            s.pos.ap["german"] = ap
        elif ap % 2 == 0:
            s.pos.ap["southwest"] = s.pos.ap["voronezh"] = ap // 2  # 9.0
        else:
            flow.goto("split", Count(ap))
        return ev


class Split(BBChoice):
    """9.0: an odd number of activity points: the Soviet player picks the front with one
    more."""

    name = "split"
    kind = "split"
    rule = "9.0"
    Args = Count
    decider = "soviet"

    def prompt(self, s: BBState, a: Count) -> str:
        return f"{a.n} activity points: which front receives the extra point?"

    def options(self, s: BBState, a: Count) -> list[Action]:
        return [w("extra", f) for f in FRONTS]

    def default(self, s: BBState, a: Count) -> Action:
        return w("extra", "southwest")

    def apply(self, s: BBState, a: Count, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        f = action.args[0]
        for g in FRONTS:
            s.pos.ap[g] = a.n // 2 + (1 if g == f else 0)
        flow.end()
        return [Event(f"activity points: Southwest {s.pos.ap['southwest']}, Voronezh "
                      f"{s.pos.ap['voronezh']}", "info", rule=self.rule)]


# -- movement ----------------------------------------------------------------------------


def _pays(s: BBState, a: PhaseArgs | MoveArgs | AttackArgs, units: tuple[str, ...]) -> bool:
    """Whether the move or attack costs an activity point (15.2, 15.3, 16.0)."""
    return a.kind == "sp" and not all(s.data.units[u].variable for u in units
                                      if not u.startswith("UP-"))


class MovePhase(SideChoice):
    """The Movement Phase: a unit (1 AP in a Schwerpunkt segment), a formation stack
    (1 AP, 15.2), Variable Reinforcements free (15.3); none moves and fights in a General
    segment (4.2 VI.E)."""

    name = "move"
    kind = "move"
    rule = "15.0"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"{s.pos.segment}: movement ({s.ap_left(a.side)} activity points)"

    def movers(self, s: BBState, a: PhaseArgs) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        for u, x in sorted(s.pos.units.items()):
            if (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.moved
                    or x.admin or x.refit or (a.kind == "general" and x.fought)):
                continue
            if _pays(s, a, (u,)):
                if a.side == "german" and s.pos.ap["german"] <= 0:
                    continue
                if a.side == "soviet" and s.paying_front([x.at]) is None:
                    continue
            out.append(((u,), (u,)))
        if a.side == "german" and (a.kind != "sp" or s.pos.ap["german"] > 0):
            for fid in s.data.formations:
                # 15.2: the formation's units that begin the phase stacked in a hex, and
                # may still move, move as one stack for one point (all survivors need not
                # be there)
                for h, members in formation_places(s, fid):
                    free = tuple(m for m in members if not (
                        s.pos.units[m].moved or s.pos.units[m].admin or s.pos.units[m].refit
                        or (a.kind == "general" and s.pos.units[m].fought)))
                    if h not in BOXES and len(free) > 1:
                        out.append(((fid, h), free))
        return out

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [*(w("move", *name) for name, _ in self.movers(s, a)), w("end")]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("end")

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "move" and action.args:
            u = action.args[0]
            x = s.pos.units.get(u)
            if x is not None and x.admin:
                return Refusal("15.1", f"{u} used Administrative Movement this segment")
            if x is not None and x.refit:
                return Refusal("13.1", f"{u} is under Frontnahe Auffrischung this turn")
            if x is not None and a.kind == "general" and x.fought:
                return Refusal("4.2 VI.E", f"{u} fought this segment: no unit both moves and "
                               "fights in a General segment")
            return Refusal("15.0", f"{u} cannot move now (moved already, stationary, or no "
                           "activity points in range)")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "end":
            flow.end()
            return []
        units = next(m for n, m in self.movers(s, a) if n == action.args)
        flow.call("move-to", MoveArgs(a.side, a.kind, units, s.pos.units[units[0]].at))
        return []


class MoveTo(SideChoice):
    name = "move-to"
    kind = "move"
    rule = "15.0"
    Args = MoveArgs

    def prompt(self, s: BBState, a: MoveArgs) -> str:
        return f"move {', '.join(a.units)} from {a.origin} to"

    def options(self, s: BBState, a: MoveArgs) -> list[Action]:
        return [*(w("to", h) for h in s.destinations(a.units, a.origin)), w("stay")]

    def default(self, s: BBState, a: MoveArgs) -> Action:
        return w("stay")

    def why_not(self, s: BBState, a: MoveArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "to" and action.args:
            h = action.args[0]
            if h in s.data.map and not s.stack_ok(h, a.side, list(a.units)):
                return Refusal("10.1" if a.side == "soviet" else "10.2",
                               f"{h} would be over the stacking limit")
        return Refusal("15.0", f"{action.notation()!r}: out of reach (movement points by the "
                       "TEC, enemy units and EZOCs)")

    def apply(self, s: BBState, a: MoveArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        flow.end()
        if action.word == "stay":
            return []
        h = action.args[0]
        if _pays(s, a, a.units):
            if a.side == "german":
                s.pos.ap["german"] -= 1
            else:
                f = s.paying_front([a.origin])
                assert f is not None
                s.pos.ap[f] -= 1
        for u in a.units:
            s.pos.units[u].moved = True
        before = list(s.pos.sov_control)
        s.put(a.units, h)
        m = s.data.map
        rule = ("15.31" if (m.has_side(a.origin, h, "river") and s.pos.weather != "frozen")
                else "15.2" if len(a.units) > 1
                else "15.3" if s.data.units[a.units[0]].variable and a.kind == "sp"
                else self.rule)
        ev = [Event(f"{', '.join(a.units)} move {a.origin} to {h}", "move", rule=rule,
                    hexes=(a.origin, h), units=a.units), *control_events(s, before)]
        if a.side == "soviet":
            due = s.uprisings_due((h,))
            if due:
                flow.move = None
                flow.goto("uprising", Cities(due))
        return ev


class Uprising(Roll[BBState]):
    """17.0: one attempt per city when a Soviet unit first comes within three hexes."""

    name = "uprising"
    rule = "17.0"
    Args = Cities

    def request(self, s: BBState, a: Cities) -> ChanceRequest:
        return ChanceRequest.roll(f"uprising in {s.data.city_names[a.cities[0]]}", 6,
                                  rule=self.rule)

    def resolve(self, s: BBState, a: Cities, outcome: Outcome, flow: Flow) -> list[Event]:
        c = a.cities[0]
        s.pos.uprising_tried = sorted([*s.pos.uprising_tried, c])
        result = str(roll_lookup(s.data.uprising, int(outcome[0]))[0])
        ev = [Event(f"uprising in {s.data.city_names[c]}: {result}", "roll", rule=self.rule,
                    hexes=(c,))]
        if result == "success":
            vk = [u for u in s.units_at(c, "german") if s.data.units[u].city == c]
            for u in vk:
                s.pos.units[u].at = "out"
            s.invalidate()
            if not s.units_at(c, "german"):
                up = f"UP-{c}"
                s.pos.units[up] = Unit(at=c, steps=1)
                ev.append(Event(f"Soviet Uprising Forces hold {s.data.city_names[c]}", "info",
                                rule=self.rule))
            s.update_control()
        if len(a.cities) > 1:
            flow.goto("uprising", Cities(a.cities[1:]))
        return ev


# -- combat ------------------------------------------------------------------------------


def can_attack(s: BBState, u: str, a: PhaseArgs | AttackArgs, target: str) -> bool:
    x = s.pos.units[u]
    return (able_to_attack(s, u, a) and target in s.data.nbrs[x.at]
            and s.data.map.terrain_of(target) != "swamp")  # 16.724


def able_to_attack(s: BBState, u: str, a: PhaseArgs | AttackArgs) -> bool:
    """Whether ``u`` may attack some adjacent hex: on the map, the phasing side's, not
    stationary, not yet fought, moved administratively or refitting (13.1), not moved in
    a General segment (4.2 VI.E), and not in a swamp (16.724)."""
    x = s.pos.units[u]
    if (x.at in OFF or s.side_of(u) != a.side or s.stationary(u) or x.fought or x.admin
            or x.refit or (a.kind == "general" and x.moved)):
        return False
    return s.data.map.terrain_of(x.at) != "swamp"


def attackers_by_target(s: BBState, a: PhaseArgs) -> dict[str, list[str]]:
    """Every enemy-occupied hex some unit can attack, with those units (by id): the units
    able to attack and their neighbors, instead of every unit against every hex."""
    enemy = s.occupied(other(a.side))
    m = s.data.map
    out: dict[str, list[str]] = {}
    for u in sorted(s.pos.units):
        if not able_to_attack(s, u, a):
            continue
        for n in s.data.nbrs[s.pos.units[u].at]:
            if n in enemy and m.terrain_of(n) != "swamp":
                out.setdefault(n, []).append(u)
    return out


class CombatPhase(SideChoice):
    """The Combat Phase: pick a defending hex, then the attackers."""

    name = "combat"
    kind = "combat"
    rule = "16.0"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"{s.pos.segment}: combat ({s.ap_left(a.side)} activity points)"

    def targets(self, s: BBState, a: PhaseArgs) -> list[str]:
        if a.kind == "sp" and s.ap_left(a.side) <= 0:
            return []
        out = []
        near = attackers_by_target(s, a)
        for h in sorted(near):
            attackers = near[h]
            if a.kind == "sp" and a.side == "soviet" and s.paying_front(
                    [s.pos.units[u].at for u in attackers]) is None:
                continue  # 16.0: a unit in range of a front whose points pay
            out.append(h)
        return out

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        return [*(w("attack", h) for h in self.targets(s, a)), w("end")]

    def default(self, s: BBState, a: PhaseArgs) -> Action:
        return w("end")

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "attack" and action.args:
            h = action.args[0]
            if h in s.data.map and s.data.map.terrain_of(h) == "swamp":
                return Refusal("16.724", "no combat into or out of a swamp hex")
            if a.kind == "sp" and s.ap_left(a.side) <= 0:
                return Refusal("4.2 II.D", "no activity points left")
            return Refusal("16.0", f"no unit of yours can attack {h}")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "end":
            flow.end()
            return []
        flow.call("attackers", AttackArgs(a.side, a.kind, action.args[0]))
        return []


class Attackers(SideChoice):
    name = "attackers"
    kind = "combat"
    rule = "16.0"
    Args = AttackArgs

    def prompt(self, s: BBState, a: AttackArgs) -> str:
        return f"attack {a.target} with: {', '.join(a.units) or '(none yet)'}"

    def options(self, s: BBState, a: AttackArgs) -> list[Action]:
        near = sorted(u for n in s.data.nbrs.get(a.target, ())
                      for u in s.occupied(a.side).get(n, ()))
        out: list[Action] = [w("with", u) for u in near
                             if u not in a.units and can_attack(s, u, a, a.target)]
        if a.units and (a.kind != "sp" or a.side == "german" or s.paying_front(
                [s.pos.units[u].at for u in a.units]) is not None):
            out.append(w("resolve"))
        out.append(w("cancel"))
        return out

    def default(self, s: BBState, a: AttackArgs) -> Action:
        return w("cancel")

    def why_not(self, s: BBState, a: AttackArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "resolve":
            return Refusal("16.0", "in a Soviet attack at least one unit must be in range of "
                           "a Front Marker with activity points")
        return Refusal("16.0", f"{action.notation()!r}: not a unit able to attack {a.target}")

    def apply(self, s: BBState, a: AttackArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "cancel":
            flow.end()
            return []
        if action.word == "with":
            flow.goto("attackers", AttackArgs(a.side, a.kind, a.target,
                                              tuple(sorted([*a.units, action.args[0]]))))
            return []
        if a.kind == "sp":
            if a.side == "german":
                s.pos.ap["german"] -= 1
            else:
                f = s.paying_front([s.pos.units[u].at for u in a.units])
                assert f is not None
                s.pos.ap[f] -= 1
        for u in a.units:
            s.pos.units[u].fought = True
        flow.goto("chit", AttackArgs(a.side, a.kind, a.target, a.units, ()))
        return [Event(f"{', '.join(a.units)} attack {a.target}", "combat", rule=self.rule,
                      hexes=(a.target,), units=a.units)]


class Chit(BBChoice):
    """Combat chits (stand-in chart): the attacker, then the defender, may play one."""

    name = "chit"
    kind = "chit"
    rule = "16.73"
    Args = AttackArgs

    def side(self, s: BBState, a: AttackArgs) -> str:
        return a.side if len(a.chits) == 0 else other(a.side)

    def prompt(self, s: BBState, a: AttackArgs) -> str:
        return f"play a combat chit in the attack on {a.target}?"

    def options(self, s: BBState, a: AttackArgs) -> list[Action]:
        side = self.side(s, a)
        attacking = len(a.chits) == 0
        out: list[Action] = []
        for c in s.pos.chits[side]:
            if c in s.pos.used_chits:
                continue
            if (s.data.chit_drm[side][c] > 0) == attacking:
                out.append(w("chit", c))
        return [*out, w("no-chit")]

    def default(self, s: BBState, a: AttackArgs) -> Action:
        return w("no-chit")

    def apply(self, s: BBState, a: AttackArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        c = action.args[0] if action.args else "-"
        ev = []
        if c != "-":
            s.pos.used_chits = sorted([*s.pos.used_chits, c])
            ev.append(Event(f"{self.side(s, a)} plays {c}", "info", rule=self.rule))
        chits = (*a.chits, c)
        nxt = AttackArgs(a.side, a.kind, a.target, a.units, chits)
        flow.goto("chit" if len(chits) < 2 else "crt", nxt)
        return ev


def combat_figures(s: BBState, a: AttackArgs) -> tuple[Fraction, int, int, list[str]]:
    """Attack strength, defense, DRM and their reasons (16.1-16.74)."""
    m = s.data.map
    defenders = s.units_at(a.target, other(a.side))
    notes = []
    attack = Fraction(0)
    across_river = across_stream = 0
    for u in a.units:
        h = s.pos.units[u].at
        f = Fraction(s.factors(u)[0])
        if m.has_side(h, a.target, "river"):
            f /= 2  # 16.722, bridges do not help
            across_river += 1
        if m.has_side(h, a.target, "stream"):
            across_stream += 1
        attack += f
    defense = sum(s.factors(u)[1] for u in defenders)
    drm = 0
    att_tr = max(s.utype_tr(u) + s.integrity(u) for u in a.units)
    def_tr = max(s.utype_tr(u) + s.integrity(u) for u in defenders)
    drm += att_tr - def_tr
    notes.append(f"tactical {att_tr}-{def_tr}")
    if any(s.integrity(u) for u in (*a.units, *defenders)):
        notes.append("integrity +2 16.74")
    if across_river:
        notes.append("halved across a river 16.722")
    tdrm = int(s.data.tec.value(m.terrain_of(a.target), "drm"))
    if tdrm:
        drm += tdrm
        notes.append(f"terrain {tdrm:+d}")
    if across_stream:
        st = -2 if across_stream == len(a.units) else -1  # 16.721
        drm += st
        notes.append(f"stream {st:+d} 16.721")
    hexes = sorted({s.pos.units[u].at for u in a.units
                    if not m.has_side(s.pos.units[u].at, a.target, "river")})
    concentric = (a.target not in s.data.cities and len(hexes) >= 2 and any(
        m.distance(x, y) >= 2 for x in hexes for y in hexes))  # 16.71
    if concentric:
        drm += 1
        notes.append("concentric +1 16.71")
    elif a.target in s.data.cities and len(hexes) >= 2:
        notes.append("no concentric attack into a city 16.71, 16.723")
    for i, c in enumerate(a.chits):
        if c == "-":
            continue
        side = a.side if i == 0 else other(a.side)
        v = s.data.chit_drm[side][c]
        if side == "soviet" and c in s.data.chit_front and not s.in_range(a.target):
            v = min(v, 1)  # 16.73
        drm += v
        notes.append(f"{c} {v:+d}")
    return attack, defense, drm, notes


class CRTRoll(Roll[BBState]):
    """16.1 odds; the modified 2d6 on the CRT; 16.8 SNAFU on 3 and 11; events on 2, 12."""

    name = "crt"
    rule = "16.1"
    Args = AttackArgs

    def request(self, s: BBState, a: AttackArgs) -> ChanceRequest:
        return ChanceRequest.roll(f"combat against {a.target}", 6, 6, rule=self.rule)

    def resolve(self, s: BBState, a: AttackArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        raw = int(outcome[0]) + int(outcome[1])
        attack, defense, drm, notes = combat_figures(s, a)
        col = s.data.crt.column(attack, defense)
        if col.below:
            result = "4/0"  # 16.1: worse than 1:2
            why = "worse than 1:2: automatic 4/0"
        else:
            result = str(s.data.crt.result(col, raw + drm))
            why = f"{col.label}, roll {raw}{drm:+d}"
        att_hits, _, rest = result.partition("/")
        retreat = rest.endswith("R")
        def_hits = int(rest.rstrip("R"))
        a_hits = int(att_hits)
        ev = [Event(f"{attack}:{defense} {why} ({', '.join(notes)}): {result}", "combat",
                    rule="16.1", hexes=(a.target,))]
        if raw == 3:
            def_hits += 1
            ev.append(Event("SNAFU: the defender takes one more hit", "combat", rule="16.8"))
        elif raw == 11:
            a_hits += 1
            ev.append(Event("SNAFU: the attacker takes one more hit", "combat", rule="16.8"))
        hits = HitArgs(other(a.side), a.side, a.kind, a.target, def_hits, retreat, 0, False,
                       a.units, (a_hits, a.target))
        if raw in (2, 12):
            flow.goto("event", hits)
        else:
            flow.goto("hits", hits)
        return ev


class EventRoll(Roll[BBState]):
    name = "event"
    rule = "16.1"
    Args = HitArgs

    def request(self, s: BBState, a: HitArgs) -> ChanceRequest:
        return ChanceRequest.roll("random event", 6, rule="Random Events Table")

    def resolve(self, s: BBState, a: HitArgs, outcome: Outcome, flow: Flow) -> list[Event]:
        kind, text = roll_lookup(s.data.events, int(outcome[0]))
        hits, no_adv = a.hits, a.no_advance
        att = a.attacker
        if kind == "air":
            hits += 1
        elif kind == "reserves":
            hits = max(0, hits - 1)
        elif kind == "fuel":
            no_adv = True
        elif kind == "confusion":
            key = "german" if att == "german" else max(FRONTS, key=lambda f: s.pos.ap[f])
            s.pos.ap[key] = max(0, s.pos.ap[key] - 1)
        elif kind == "initiative":
            s.pos.ap["german" if att == "german" else "southwest"] += 1
        elif kind == "staff":
            s.pos.c3i[att] += 1
        flow.goto("hits", HitArgs(a.side, a.attacker, a.kind, a.target, hits, a.retreat,
                                  a.retreated, a.river, a.units, a.then, no_adv))
        return [Event(f"random event: {text}", "info", rule="Random Events Table")]


class Hits(SideChoice):
    """Taking combat hits (stand-in series rule): each hit is a step lost or, for the
    defender, a hex retreated by the whole stack, at most two (16.722: a river crossed
    stops it); an R result makes the first hex compulsory except in a city (16.723)."""

    name = "hits"
    kind = "take-loss"
    rule = "16.0"
    Args = HitArgs

    def defending(self, a: HitArgs) -> bool:
        return a.side != a.attacker

    def stack(self, s: BBState, a: HitArgs) -> list[str]:
        if self.defending(a):
            return s.units_at(a.target, a.side)
        return [u for u in a.units if s.pos.units[u].at not in OFF]

    def movable(self, s: BBState, a: HitArgs) -> list[str]:
        """The stack's units that retreat: a city's stationary Verfuegungskraefte (or
        Uprising Forces) stay (2.4, their movement allowance is zero), so the rest of a
        city garrison may still choose to retreat (16.723)."""
        return [u for u in self.stack(s, a) if not s.stationary(u)]

    def must_retreat(self, s: BBState, a: HitArgs) -> bool:
        return (self.defending(a) and a.retreat and a.retreated == 0
                and a.target not in s.data.cities)

    def retreats(self, s: BBState, a: HitArgs) -> list[str]:
        if not self.defending(a) or a.retreated >= 2 or a.river:
            return []
        if a.hits == 0 and not a.retreat:
            return []
        if a.retreated and a.hits == 0:
            return []
        stack = self.movable(s, a)
        if not stack:
            return []
        m = s.data.map
        enemy = s.occupied(a.attacker)
        ez = s.zoc(a.attacker)
        friends = s.occupied(a.side)
        mot = any(s.motorized(u) for u in stack)
        out = []
        for n in sorted(m.neighbors(a.target)):
            t = m.terrain_of(n)
            if n in enemy or t == "sea" or (n in ez and n not in friends):
                continue
            if a.retreated and m.has_side(a.target, n, "river"):
                continue  # 16.722: not across a river to a second hex
            if mot and t == "swamp":
                continue  # 16.724
            if s.stack_ok(n, a.side, stack):
                out.append(n)
        return out

    def prompt(self, s: BBState, a: HitArgs) -> str:
        what = "must retreat" if self.must_retreat(s, a) else "takes"
        return f"the {a.side} stack in {a.target} {what}: {a.hits} hit(s) to take"

    def options(self, s: BBState, a: HitArgs) -> list[Action]:
        stack = self.stack(s, a)
        rets = self.retreats(s, a)
        must = self.must_retreat(s, a) and bool(rets)
        out: list[Action] = []
        if a.hits > 0 and stack and not must:
            out += [w("lose", u) for u in stack]
        out += [w("retreat", h) for h in rets]
        if not must and (a.hits == 0 or not stack):
            out.append(w("done"))
        return out

    def default(self, s: BBState, a: HitArgs) -> Action:
        opts = s.listed(self, a)
        rets = [o for o in opts if isinstance(o, Word) and o.word == "retreat"]
        return rets[0] if rets else opts[0]

    def why_not(self, s: BBState, a: HitArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "retreat":
            if a.river:
                return Refusal("16.722", "a retreat stops after crossing a river")
            n = action.args[0] if action.args else ""
            if (a.retreated and n in s.data.map and n in s.data.nbrs[a.target]
                    and s.data.map.has_side(a.target, n, "river")):
                return Refusal("16.722", "a unit cannot cross a river to extend a retreat "
                               "to a second hex")
            if a.target in s.data.cities and a.hits == 0:
                return Refusal("16.723", "nothing left to retreat for")
            return Refusal("16.724", "not a hex the stack may retreat into (enemy, EZOC, "
                           "stacking, swamp for motorized units)")
        if isinstance(action, Word) and action.word == "lose" and self.must_retreat(s, a):
            return Refusal("16.0", "an R result: the stack retreats first")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: HitArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        ev: list[Event] = []
        hits, target, retreated, river = a.hits, a.target, a.retreated, a.river
        if action.word == "lose":
            u = action.args[0]
            s.pos.units[u].steps -= 1
            hits -= 1
            ev.append(Event(f"{u} loses a step", "loss", rule=self.rule, units=(u,)))
            if (not u.startswith("UP-") and s.data.units[u].steps == 4
                    and s.pos.units[u].steps == 2):
                ev.append(Event(f"{u}: its substitute (S) counter replaces it", "loss",
                                rule="2.45", units=(u,)))
            if s.pos.units[u].steps <= 0:
                ev += eliminate(s, u, self.rule)
        elif action.word == "retreat":
            n = action.args[0]
            stack = self.movable(s, a)
            river = s.data.map.has_side(target, n, "river")
            before = list(s.pos.sov_control)
            s.put(stack, n)
            ev += control_events(s, before)
            if hits > 0:
                hits -= 1
            retreated += 1
            ev.append(Event(f"{', '.join(stack)} retreat {target} to {n}", "retreat",
                            rule=self.rule, hexes=(target, n), units=tuple(stack)))
            target = n
        nxt = HitArgs(a.side, a.attacker, a.kind, target, hits, a.retreat, retreated, river,
                      a.units, a.then, a.no_advance)
        if action.word != "done" and (self.options(s, nxt) != [w("done")]):
            flow.goto("hits", nxt)
            return ev
        flow.end()
        flow.move = None
        if self.defending(a):
            origin = a.then[1]
            vacated = origin if not s.units_at(origin, a.side) else ""
            att = HitArgs(a.attacker, a.attacker, a.kind, vacated, a.then[0], False,
                          retreated, False, a.units, (0, origin), a.no_advance)
            if a.then[0] > 0 and self.stack(s, att):
                flow.goto("hits", att)
                return ev
            a = att
        survivors = tuple(u for u in a.units if s.pos.units[u].at not in OFF)
        if a.target and not a.no_advance and survivors:
            across = tuple(u for u in survivors
                           if s.data.map.has_side(s.pos.units[u].at, a.target, "river"))
            flow.goto("advance", AdvanceArgs(a.attacker, a.kind, a.target, survivors,
                                             a.retreated, across))
        else:
            flow.end()
        return ev


@dataclass(frozen=True)
class AdvanceArgs:
    side: str = "soviet"
    kind: str = "sp"
    target: str = ""
    units: tuple[str, ...] = ()
    retreated: int = 0
    across: tuple[str, ...] = ()  # attackers who attacked across a river (16.722)
    second: tuple[str, ...] = ()  # units that have taken their second hex


class AdvanceStep(SideChoice):
    """Advance after combat into the vacated hex, and a second hex for motorized units when
    the defender retreated two (stand-in series rule), never after attacking across a
    river nor across one (16.722); motorized units never into a swamp (16.724)."""

    name = "advance"
    kind = "advance"
    rule = "16.722"
    Args = AdvanceArgs

    def prompt(self, s: BBState, a: AdvanceArgs) -> str:
        return f"advance into {a.target}?"

    def second_hexes(self, s: BBState, a: AdvanceArgs, u: str) -> list[str]:
        m = s.data.map
        if (a.retreated < 2 or not s.motorized(u) or u in a.across or u in a.second
                or s.pos.units[u].at != a.target):
            return []
        enemy = s.occupied(other(a.side))
        return [n for n in sorted(m.neighbors(a.target))
                if n not in enemy and not m.has_side(a.target, n, "river")
                and m.terrain_of(n) not in ("swamp", "sea") and s.stack_ok(n, a.side, [u])]

    def options(self, s: BBState, a: AdvanceArgs) -> list[Action]:
        m = s.data.map
        if s.units_at(a.target, other(a.side)):
            return [w("done")]
        out: list[Action] = []
        for u in a.units:
            at = s.pos.units[u].at
            if at in OFF:
                continue
            if at == a.target:
                out += [w("advance", u, n) for n in self.second_hexes(s, a, u)]
                continue
            if at != a.target and u not in a.second:
                if s.motorized(u) and m.terrain_of(a.target) == "swamp":
                    continue  # 16.724
                if s.stack_ok(a.target, a.side, [u]):
                    out.append(w("advance", u))
        return [*out, w("done")]

    def default(self, s: BBState, a: AdvanceArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, a: AdvanceArgs, action: Action) -> str | Refusal:
        if isinstance(action, Word) and action.word == "advance" and len(action.args) == 2:
            u, n = action.args
            if u in a.across:
                return Refusal("16.722", f"{u} attacked across a river: no second hex")
            if n in s.data.map and s.data.map.has_side(a.target, n, "river"):
                return Refusal("16.722", "the second hex may not be across a river")
            return Refusal("16.722", "a second hex only for motorized units after a "
                           "two-hex retreat")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: AdvanceArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            advanced = tuple(sorted({s.pos.units[u].at for u in a.units
                                     if s.pos.units[u].at == a.target or u in a.second}))
            due = s.uprisings_due(advanced) if a.side == "soviet" else ()
            if due:
                flow.goto("uprising", Cities(due))  # 17.0 for the hexes advanced into
            else:
                flow.end()
            return []
        u = action.args[0]
        origin = s.pos.units[u].at
        dest = action.args[1] if len(action.args) == 2 else a.target
        before = list(s.pos.sov_control)
        s.put([u], dest)
        if len(action.args) == 2:
            flow.goto("advance", AdvanceArgs(a.side, a.kind, a.target, a.units, a.retreated,
                                             a.across, (*a.second, u)))
        return [Event(f"{u} advances {origin} to {dest}", "move", rule=self.rule,
                      hexes=(origin, dest), units=(u,)), *control_events(s, before)]


class Ersatz(BBChoice):
    """13.2 Personalersatz: a reduced non-motorized unit flips back by disbanding a
    Variable Reinforcement stacked with it (or both in the boxes)."""

    name = "ersatz"
    kind = "ersatz"
    rule = "13.2"
    decider = "german"

    def prompt(self, s: BBState, args: NoArgs) -> str:
        return "Personalersatz: disband a Variable Reinforcement to restore a step"

    def pairs(self, s: BBState) -> list[tuple[str, str]]:
        out = []
        for u, x in sorted(s.pos.units.items()):
            if u.startswith("UP-"):
                continue
            t = s.data.units[u]
            if (t.side != "german" or t.motorized or t.stationary or t.variable
                    or x.at in ("elim", "out", "pending", "cup") or x.steps >= t.steps):
                continue
            for v, y in sorted(s.pos.units.items()):
                if v.startswith("UP-") or not s.data.units[v].variable:
                    continue
                if y.at not in ("elim", "out", "pending", "cup") and (
                        y.at == x.at or (y.at in BOXES and x.at in BOXES)):
                    out.append((u, v))
        return out

    def options(self, s: BBState, args: NoArgs) -> list[Action]:
        return [*(w("ersatz", u, v) for u, v in self.pairs(s)), w("done")]

    def default(self, s: BBState, args: NoArgs) -> Action:
        return w("done")

    def why_not(self, s: BBState, args: NoArgs, action: Action) -> str | Refusal:
        return Refusal("13.2", "a reduced German non-motorized unit (not eliminated) and a "
                       "Variable Reinforcement in the same hex, or both in the boxes")

    def apply(self, s: BBState, args: NoArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == "done":
            flow.end()
            return []
        u, v = action.args
        s.pos.units[u].steps += 1
        s.pos.units[v].at = "out"
        s.update_control()
        return [Event(f"{v} disbanded: {u} regains a step", "reinforce", rule=self.rule)]


# -- the state ---------------------------------------------------------------------------

STEPS = (GameStep(), Turn(), Advance(), WeatherRoll(), Rochade(), Supply(), Attrition(),
         VariableRoll(), VariableDraw(), Reinforce(), ReplacementRoll(), Replace(), RefitPay(),
         Refit(), Track(), EndTurn(), Segment(), SegRun(), Fronts(), AdminIn(), AdminPlace(),
         AdminOut(), Order(), SpendC3I(), Activity(), Split(), MovePhase(), MoveTo(),
         Uprising(), CombatPhase(), Attackers(), Chit(), CRTRoll(), EventRoll(), Hits(),
         AdvanceStep(), Ersatz())


def victory(s: BBState) -> tuple[str | None, str]:
    """18.1 and 18.2 at the end of the last game turn."""
    pos = s.pos
    now = s.soviet_controlled()
    sov_cities = [c for c in s.data.cities if c in now]
    west = sorted(u for u, x in pos.units.items()
                  if x.at in s.data.west_of_donets and s.side_of(u) == "soviet")
    names = ", ".join(s.data.city_names[c] for c in sov_cities)
    if pos.victory == "high-water-mark":
        if sov_cities:
            return "soviet", f"Soviet victory: {names} Soviet controlled (18.1)"
        if not west:
            return "german", "German victory: no Soviet unit west of the Donets (18.1)"
        return None, f"draw: {len(west)} Soviet units west of the Donets, no city taken (18.1)"
    german_all = all(s.control(c) == "german" for c in s.data.cities)
    n = len(sov_cities)
    if german_all and not any(c in pos.ever_soviet or c in now for c in s.data.cities):
        return "german", "German decisive victory: every city held throughout (18.2)"
    if not west:
        return "german", "German major victory: no Soviet unit west of the Donets (18.2)"
    if german_all:
        return "german", "German minor victory: every city German controlled (18.2)"
    if n >= 4:
        return "soviet", f"Soviet decisive victory: {names} (18.2)"
    if n == 3:
        return "soviet", f"Soviet major victory: {names} (18.2)"
    if n == 2:
        return "soviet", f"Soviet minor victory: {names} (18.2)"
    return None, f"draw (18.2): Soviet cities: {names or 'none'}"


def frames_for(state: BBState, step: str) -> list[Any]:
    """Setup adapter: the frames above a step.  A step of the segments sits in the
    phasing side's first Schwerpunkt Segment (4.2 II or III) at its stage (II.A the Front
    Markers, II.B administrative movement, II.C the order of the phases, II.D C3I, then
    movement and combat); a step of the Administrative Segment at its entry of the turn
    (4.2 I), so the entry's condition is checked (pbem.setup) and the turn goes on from
    there.  A step the position does not fit is refused (:class:`~pbem.steps.Misfit`,
    issue 31): a turn outside the scenario's, a phasing side that is neither, a
    Schwerpunkt Segment's step in Deep Mud (4.2 II-V are not played), the Front Markers
    in a German segment (14.2), administrative movement on turn 1 (15.1)."""
    from pbem.steps import Frame, Misfit
    if step not in state.steps or step in ("game", "turn"):
        raise KeyError(step)
    pos = state.pos
    first = state.engine.scenario(state.scenario).turns[0]
    if not first <= pos.turn <= pos.last_turn:
        raise Misfit("turn", f"the scenario is played on turns {first}-{pos.last_turn} "
                             "(4.2)")
    side = pos.phasing
    if side not in SIDES:
        raise Misfit("phasing", f"the side whose segment it is: {' or '.join(SIDES)} (4.2)")
    names = [e.step for e in Turn.entries]
    segment = names.index("segment")
    if step in names[:segment]:
        # the Administrative Segment (4.2 I): the entry of this side where there are two
        index = names.index(step) + (1 if step == "reinforce" and side == "german" else 0)
        entry = Turn.entries[index]
        args = entry.args if entry.args is not None else state.steps[step].Args()
        return [Frame("game"), Frame("turn", pc=index + 1), Frame(step, args)]
    stages = {"fronts": 1, "admin-in": 2, "admin-out": 3, "order": 4, "c3i": 5, "move": 6,
              "combat": 7}
    if step not in stages and step not in ("segment", "seg-run"):
        return [Frame("game"), Frame("turn", pc=segment + 1),
                Frame(step, state.steps[step].Args())]
    if pos.weather == "deep":
        raise Misfit("weather", "no Schwerpunkt Segment is played in Deep Mud, only the "
                                "General Segments (4.2 II-V): give their frames with "
                                "stack = [...]")
    if step == "fronts" and side != "soviet":
        raise Misfit("phasing", "the Front Markers move in a Soviet segment (14.2)")
    if step in ("admin-in", "admin-out") and pos.turn == 1:
        raise Misfit("turn", "no administrative movement on turn 1 (15.1)")
    turn = Frame("turn", pc=segment + (2 if side == "german" else 1))
    if step == "segment":
        return [Frame("game"), turn, Frame(step, SegSpec(side, "sp", 1))]
    if step == "seg-run":
        return [Frame("game"), turn, Frame(step, SegState(side, "sp", 1))]
    seg = SegState(side, "sp", 1, stage=stages[step], first="move")
    return [Frame("game"), turn, Frame("seg-run", seg),
            Frame(step, PhaseArgs(side, "sp") if step != "fronts" else NoArgs())]
