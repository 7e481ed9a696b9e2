"""The White Death game state: Rules 3-22 on the step runtime, with explicit dice.

The sequence of play (Rule 5 and "Play By Telephone") is the steps of
:mod:`engines.white_death.sequence`: at the start of a turn the weather, the Velikiye Luki
garrison release and the supply points with air drops; then impulses alternate, Soviet
first.  An impulse is the phasing player's decision (``impulse N``), movement with
assault declarations (``end movement``), barrage (``end barrage``); then the non-phasing
player's defensive fire, hex by hex (``done firing``); then the phasing player's assault
fire, hex by hex, and advances.  Every die is a roll step; the frames in progress are in
every snapshot, so a save can stop anywhere.

The rules are modules of plain functions taking the state first (``s``), one module per
rule area, called by the steps; :class:`WDState` holds the position's lookups
(``base``) and the engine hooks:

* ``base``: the position, unit and hex lookups, stacking;
* ``terrain``: terrain and the cost to enter a hex (Rules 7, 13, 16, 20): the catalog's
  map facts are a :class:`~engines.white_death.terrain.Terrain` object (``s.ter``),
  the module's functions put a unit and the position to it;
* ``supply``: ZOCs, isolation, artillery supply, supply points (Rules 3, 15);
* ``combat``: fire and defense values, losses, morale, retreats (Rules 9, 10, 12, 14);
* ``artillery``: barrages, observation, line of sight (Rule 11.B);
* ``assault``: defensive and assault fire at each hex, support, the advance (Rules 9-11.A);
* ``reinforcements``: entering the map, reserves, replacements, refits (Rules 17, 18);
* ``movement``: moves, Brandenburg leads, deployment, rail, assault declarations, bridges;
* ``placement``: the scenario setup and the campaign's player setup (Rules 19, 22);
* ``turns``: turns, impulses, the end of the game (Rules 5, 16, 22);
* ``view``: the board a player sees (Rule 4.C): functions of the position, the catalog
  and the side, which the framework's hook below (``_view``) calls; the status line and
  the counters a turn command prints without a board are this module's (``status_line``,
  ``Counters``), and the view names them too.

What a save holds is the typed position of ``position`` (``self.pos``, its data form
derived by :mod:`pbem.codec`) and the frames.

Each action's check and effect are functions of its rule's module (``check_move``,
``do_move``...), called by the decision that takes the action
(:mod:`engines.white_death.decisions`); the rule modules import one another along one
order (terrain, supply, combat, artillery and assault, reinforcements, movement,
placement, turns), never back.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from engines.hexkit.facts import BoardFacts, Placed, board_facts
from engines.hexkit.hexmap import HexMap
from engines.white_death import rules, sequence
from engines.white_death.base import BOXES, other, phase_of
from engines.white_death.data import (
    GARRISON_TYPE,
    SIDES,
    Catalog,
    ScenarioDef,
    UnitDef,
    UnitType,
)
from engines.white_death.notation import parse
from engines.white_death.position import (
    Position,
    U,
    check_amounts,
    position_from_data,
    position_normal,
)
from engines.white_death.supply import ezoc, zoc_mark
from engines.white_death.terrain import Terrain
from pbem import canonical
from pbem.engine import Action, Decision, Engine, Result, State, counter_text
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.steps import Frame, Misfit, Step, StepState

if TYPE_CHECKING:
    from engines.white_death.listing import Listed
    from pbem.view import BoardView, Piece

# the names other modules and the tests import from here
__all__ = ["BOXES", "SIDE_COLOR", "U", "WDState", "other"]


# -- what a player sees without the board: the status line and the counters events name.
# Here, not in the view (engines.white_death.view, which names them too), as every turn
# command prints both and draws no board: loading the view for them was 0.8 M
# instructions of each act, receive and legal (issue 35)

SIDE_COLOR = {"soviet": "#c03030", "german": "#303030"}


def status_line(pos: Position, last_turn: int, phase: str, side: str | None) -> str:
    """Turn, weather, phase, MPs left, and the supply points ``side`` may know."""
    # MPs left are public (the impulse screen); supply points are each side's own
    # only the line asked for, without a generator joined: a click writes this line three
    # times (its save's summary, its redraw's view and status), 19 K instructions each
    points = pos.supply
    if side == "soviet":
        own = f"Soviet {points['soviet']}"
    elif side == "german":
        own = f"German {points['german']}, Velikiye Luki {points['vl']}"
    elif side is None:  # SIDES' order
        own = f"Soviet {points['soviet']} German {points['german']}, Velikiye Luki " \
              f"{points['vl']}"
    else:
        own = ""
    return (f"Turn {pos.turn}/{last_turn}, {pos.weather}; {pos.phasing} {phase}; MPs left "
            f"Soviet {pos.mps['soviet']}, German {pos.mps['german']}; supply {own}")


def _revealed(pos: Position, side: str | None, phase: str) -> set[str]:
    """The hexes whose whole stacks ``side`` sees (Rule 4.C): an assault's barrage, fire
    and advance show the assaulted hexes to the phasing side."""
    return set(pos.assaults) if (side == pos.phasing and phase in (
        "barrage", "defense", "assault", "advance")) else set()


def counters(pos: Position, side: str | None, phase: str,
             stacks: Mapping[str, Sequence[str]], udef: Callable[[str], UnitDef]
             ) -> dict[str, str]:
    """What :func:`board`'s pieces that ``side`` may identify print, by unit id, in the
    board's order, without drawing the board (the default reads them off the view): a
    listing and an action name their units by them, and the view's classes and the kit's
    board builder need not load for that (issue 35)."""
    revealed = _revealed(pos, side, phase)
    out: dict[str, str] = {}
    for h, uids in sorted(stacks.items()):
        stack = list(reversed(uids))  # the last unit in is on top
        for s in SIDES:
            mine = [x for x in stack if udef(x).side == s]
            if not (side is None or side == s or h in revealed):
                mine = [x for x in mine if "intrinsic" not in udef(x).type.flags][:1]
            for x in mine:
                if x not in out:
                    d = udef(x)
                    out[x] = counter_text(x, f"{d.type.key} ({d.div})",
                                          f"{x} {pos.units[x].strength}")
    return out


class Counters(Mapping[str, str]):
    """:func:`counters` as a mapping that works out a unit's counter when that unit is
    asked (``get``, ``[]``, ``in``), and all of them only when they are gone through: a
    listing's prompt looks up each of its words (most name no unit, as "the Soviet
    player must allocate assault fire against 1 assault"), and printing all 108
    counters to name none was 1.8 M instructions of a White Death 'pbem legal' (issue
    35).  The same counters, in the same order, for the same units
    (``tests/white_death/test_counters_asked.py``): a unit on the map, in full for its
    own side, the referee and a revealed hex, else only the top counter of its side's
    stack that is not an intrinsic garrison (Rule 4.C)."""

    __slots__ = ("_all", "_got", "_phase", "_pos", "_side", "_stacks", "_udef")

    def __init__(self, pos: Position, side: str | None, phase: str,
                 stacks: Callable[[], Mapping[str, Sequence[str]]],
                 udef: Callable[[str], UnitDef]) -> None:
        self._pos, self._side, self._phase = pos, side, phase
        self._stacks, self._udef = stacks, udef
        self._all: dict[str, str] | None = None
        #: each unit asked, its counter or None (a board asks the same units click after
        #: click of the mapping it keeps)
        self._got: dict[str, str | None] = {}

    def _whole(self) -> dict[str, str]:
        got = self._all
        if got is None:
            got = self._all = counters(self._pos, self._side, self._phase, self._stacks(),
                                       self._udef)
        return got

    def get(self, unit: str, default: Any = None) -> Any:
        if self._all is not None:
            return self._all.get(unit, default)
        got = self._got.get(unit, "")
        if got == "":
            got = self._got[unit] = self._one(unit)
        return default if got is None else got

    def _one(self, unit: str) -> str | None:
        u = self._pos.units.get(unit)
        if u is None:
            return None
        stack = self._stacks().get(u.loc)
        if stack is None or unit not in stack:
            return None  # off the map (a box): not on the board
        udef = self._udef
        d = udef(unit)
        side = self._side
        if not (side is None or side == d.side
                or u.loc in _revealed(self._pos, side, self._phase)):
            top = next((x for x in reversed(stack) if udef(x).side == d.side
                        and "intrinsic" not in udef(x).type.flags), None)
            if top != unit:
                return None
        return counter_text(unit, f"{d.type.key} ({d.div})", f"{unit} {u.strength}")

    def __getitem__(self, unit: str) -> str:
        got: str | None = self.get(unit)
        if got is None:
            raise KeyError(unit)
        return got

    def __contains__(self, unit: object) -> bool:
        return isinstance(unit, str) and self.get(unit) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())


class Drawn:
    """The counters of the board last drawn for one state (:func:`board`), hex by hex,
    for drawing its next view from the hexes the position changed since: a replay page
    draws a view after each action, and walking the ~60 occupied hexes of the map for
    each of a White Death campaign's 5,600 views, an action changing one or two of them,
    was most of its board's cost (issue 35).  Held by the state beside the hexes changed
    since (``WDState._drawn``, ``_touched``), never part of the position."""

    __slots__ = ("bunkers", "hexes", "order", "pieces", "revealed", "side")

    def __init__(self) -> None:
        #: the viewer it was drawn for
        self.side: str | None = None
        self.revealed: set[str] = set()
        self.bunkers: dict[str, int] = {}
        #: each occupied hex's counters, and the hexes in the board's (sorted) order
        self.hexes: dict[str, tuple[Piece, ...]] = {}
        self.order: list[str] = []
        #: every hex's counters in that order: the view's pieces
        self.pieces: tuple[Piece, ...] = ()


#: not empty once this process has written a position by hand (WDState.normal_body), or
#: will write many (:func:`writing_many`)
_HAND_WRITTEN: list[bool] = []


def writing_many() -> None:
    """This process plays or replays a game from its start (a new game, an audit, a
    replay, selfplay), writing position after position: the codec's writers, which keep
    the units' bytes from one to the next, from the first (WDState.normal_body)."""
    if not _HAND_WRITTEN:
        _HAND_WRITTEN.append(True)


@runtime_checkable
class CatalogSource(Protocol):
    """What a White Death state is made from: an engine that gives its catalog."""

    def catalog(self) -> Catalog: ...


class WDState(StepState[Position]):
    """The whole game: the position, the lookups on it and the engine hooks; the rules
    are the rule modules' functions (the dice and steps they queue go to the runtime,
    ``s.queue``)."""

    steps: ClassVar[Mapping[str, Step[Any]]] = sequence.STEPS
    start = "game"
    #: its counters are its view's (view.counters): no unit off the map is named
    counters_off_map = False

    cat: Catalog
    #: the catalog's map and charts
    ter: Terrain
    #: the position as typed data (:mod:`engines.white_death.position`), ``self.pos``
    Position = Position
    #: the scenario's definition, the terrain read from the map and the map-derived facts:
    #: the same whatever the position (:meth:`clone`)
    clone_shares = ("sc", "ter", "_static")
    #: a decision's options (the movement listing above all) are computed once for its
    #: prompt, default, listing and only option; the engine forgets them wherever it
    #: forgets what the position implies (:meth:`_changed`, :meth:`_relocated`,
    #: :meth:`_moved`), so a test or tool that edits a position keeps working as before
    memo_options = True

    def __init__(self, engine: Engine, scenario: str, options: dict[str, str]) -> None:
        super().__init__(engine, scenario, options)
        if not isinstance(engine, CatalogSource):
            raise TypeError(f"{type(engine).__name__} gives no White Death catalog")
        # the runtime makes a restored state with (engine, scenario, options) alone
        # (Engine.state_class): the catalog comes from the engine, parsed once per engine
        self.cat = cat = engine.catalog()
        self.sc: ScenarioDef = cat.scenarios[scenario]
        self.last_turn = self.sc.turns[1]
        self.pos = Position(turn=self.sc.turns[0], vl_released=not self.sc.opening)
        self.stack: list[Frame] = []
        #: facts of the position that checks and listings read many times (a unit's rail
        #: destinations, entry hexes, setup hexes): not one decision's options (those are
        #: the runtime's memo), kept until the position changes (:meth:`_changed`)
        self._cache: dict[Any, Any] = {}
        #: what depends on where units stand and nothing else (which units are in each
        #: hex, each side's units on the map, the enemy's ZOCs and traces): kept across
        #: other changes, cleared by :meth:`_relocated` whenever a unit changes hex
        self._pcache: dict[Any, Any] = {}
        #: what depends on where one side's enemies stand and nothing else, by that side:
        #: its enemies' units on the map and their hexes, their ZOCs, traces and facts
        #: (``enemy_key``, ``by_enemies``, ``ezoc``, :meth:`foe_facts`); a move keeps the
        #: mover's side's whole, as its enemies did not move, where looking the entries
        #: over one by one was a third of every move's bookkeeping (issue 35)
        self._foe: dict[str, dict[Any, Any]] = {"soviet": {}, "german": {}}
        #: each side's units by hex (:meth:`units_at`), kept across a unit's move but for
        #: the two hexes it changes (``_put``): apart from ``_pcache``, whose other
        #: entries a move looks over one by one, as they are many (a hex each asked)
        self._at: dict[tuple[str, str], list[str]] = {}
        #: each side's stacks within two hexes of a hex (Rule 4's look ahead): kept across a
        #: unit's move but for the hexes within two of where it left and arrived (``_put``)
        self._near: dict[tuple[str, str], tuple[tuple[str, tuple[str, ...]], ...]] = {}
        #: the same as numbers (``near_token``), kept and dropped with them
        self._neartok: dict[tuple[str, str], int] = {}
        #: Rule 4 answers per hex (:meth:`stack_ok_with`), kept likewise but for the two
        #: hexes a move changes
        self._stack: dict[str, dict[tuple[str, tuple[str, ...]], bool]] = {}
        #: the last movement-phase listing, unit by unit, with what each unit's part read
        #: (:func:`~engines.white_death.listing.movement_legal`): a unit whose inputs are
        #: unchanged is not listed again
        self._listing: dict[str, Listed] = {}
        #: the phase's token (``_phase_key``) the listing was made under
        self._listing_phase: int | None = None
        #: the board last drawn (:meth:`_view`), and the map hexes whose counters may have
        #: changed since (:meth:`_hex_changed`, ``_put``): None, unknown (nothing drawn
        #: yet, units changed hex outside ``_put``, the position changed from outside the
        #: rules: :meth:`_moved`), and the next board is drawn whole
        self._drawn = Drawn()
        self._touched: set[str] | None = None
        # map-derived facts live in the catalog: a clone shares them (issue 13)
        self._static: dict[Any, Any] = cat.static
        #: the catalog's map and charts (shared by every clone: it holds no position)
        self.ter = Terrain.of(cat)

    def restore_body(self, body: Mapping[str, Any]) -> None:
        # the position read at once where its data is in the plain form
        # (position.position_from_data), then the frames as the runtime reads them;
        # anything else goes the runtime's way whole, which names the fault
        pos = position_from_data(body["position"]) if (
            isinstance(body, Mapping) and "position" in body and "stack" in body) else None
        if pos is None:
            super().restore_body(body)
        else:
            self.pos = pos
            self.restore_stack(body["stack"])
        check_amounts(self.pos)

    def normal_body(self) -> bytes | None:
        # the first position a process writes is written by hand (position_normal): a
        # turn command writes one, and the codec's typed writer built its writers of the
        # position's ten classes for it, 8.8 M instructions of a receive (issue 35); a
        # process that writes many (an audit, a replay) has the codec build them at its
        # second, and keep its units' bytes from one position to the next
        if _HAND_WRITTEN:
            return super().normal_body()
        _HAND_WRITTEN.append(True)
        normal = position_normal(self.pos)
        if normal is None:
            return super().normal_body()
        try:
            return self.packed_body(canonical.pack_normal(normal))
        except Exception:  # as the codec's: the generic way names what is wrong
            return super().normal_body()

    # ------------------------------------------------------------------ copying

    def clone(self) -> State:
        """A copy of the position only: the engine, catalog and map-derived facts are
        shared, and the caches start empty (a cache is never part of the position)."""
        new = copy.copy(self)
        new.options = dict(self.options)
        new.history = list(self.history)  # records are never changed once made
        new.pos = self.pos.copy()
        new.stack = [Frame(f.step, f.args, f.pc) for f in self.stack]
        new._cache = {}
        new._pcache = {}
        new._foe = {"soviet": {}, "german": {}}
        new._at = {}
        new._near = {}
        new._neartok = {}
        new._stack = {}
        new._listing = {}
        new._drawn = Drawn()
        new._touched = None
        new.forget_options()
        return new

    # ------------------------------------------------------------------ catalog access

    @property
    def map(self) -> HexMap:
        m = self._static.get("map")
        if m is None:
            m = self._static["map"] = self.cat.map
        out: HexMap = m
        return out

    def udef(self, uid: str) -> UnitDef:
        d = self.cat.units.get(uid)
        return d if d is not None else self._garrison_def(uid)

    def utype(self, uid: str) -> UnitType:
        d = self.cat.units.get(uid)
        return (d if d is not None else self._garrison_def(uid)).type

    def side_of(self, uid: str) -> str:
        d = self.cat.units.get(uid)
        return (d if d is not None else self._garrison_def(uid)).side

    def _garrison_def(self, uid: str) -> UnitDef:
        """An intrinsic garrison's data ("Intrinsic Garrisons": a German garrison unit of
        the catalog's garrison type, 1 SP); the same for every one, so kept per catalog."""
        if uid not in self.pos.garrisons:
            raise KeyError(uid)
        key = ("garrison-def", uid)
        got = self._static.get(key)
        if got is None:
            got = self._static[key] = UnitDef(uid, "german", self.garrison_type(), "garrison",
                                              1)
        out: UnitDef = got
        return out

    def on_map(self, uid: str) -> bool:
        u = self.pos.units.get(uid)
        return u is not None and u.loc not in BOXES

    def facts(self) -> BoardFacts:
        """The kit's board facts of the units on the map (occupancy, Rule 3's ZOCs, 15's
        supply floods), kept with the other facts of where units stand: a unit that
        changes hex drops them (:meth:`_relocated`), and the kit hands the same facts
        back for a placement met again (a take-back, a clone's)."""
        got = self._pcache.get("facts")
        if got is None:
            got = self._pcache["facts"] = board_facts(
                self.map, self._placed("german") + self._placed("soviet"))
        out: BoardFacts = got
        return out

    def foe_facts(self, side: str) -> BoardFacts:
        """The board facts of ``side``'s enemies alone: their occupancy, Rule 3's ZOCs and
        Rule 15's traces read nothing else, and ``side``'s own moves leave them as they
        were (:meth:`_kept_positions` carries them), so a movement phase's moves do not
        make the whole placement's facts again to ask for the enemy's ZOC."""
        key = ("foe-facts", side)
        kept = self._foe[side]
        got = kept.get(key)
        if got is None:
            got = kept[key] = board_facts(self.map, self._placed(other(side)))
        out: BoardFacts = got
        return out

    def _placed(self, side: str) -> list[Placed]:
        units = self.pos.units
        # a unit's side and Rule 3 mark are fixed by its id (a garrison's too: one
        # type per catalog): its Placed is kept with the catalog's map-derived facts
        # and made again only where it stands elsewhere
        kept: dict[str, Placed] = self._static.setdefault("placed", {})
        placed = []
        # each side's units on the map are kept across moves (_kept_positions): not
        # every unit of the game, most of them off the map, looked over again
        for uid in self.side_units(side):
            h = units[uid].loc
            p = kept.get(uid)
            if p is None or p.hex != h:
                mark = p.mark if p is not None else zoc_mark(self, uid)
                p = kept[uid] = Placed(uid, h, side, mark)
            placed.append(p)
        return placed

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        if side is None:
            return self._by_hex().get(h, [])
        key = (h, side)
        got = self._at.get(key)
        if got is None:
            got = self._at[key] = [x for x in self._by_hex().get(h, [])
                                  if self.side_of(x) == side]
        out: list[str] = got
        return out

    def occupied(self, side: str) -> dict[str, tuple[str, ...]]:
        """The hexes holding ``side``'s units, with them in stacking order."""
        key = ("occupied", side)
        kept = self._foe[other(side)]
        got = kept.get(key)
        if got is None:
            mine = ((h, tuple(x for x in us if self.side_of(x) == side))
                    for h, us in self._by_hex().items())
            got = kept[key] = {h: us for h, us in mine if us}
        out: dict[str, tuple[str, ...]] = got
        return out

    def _by_hex(self) -> dict[str, list[str]]:
        key = "byhex"
        if key not in self._pcache:
            d: dict[str, list[str]] = {}
            for uid in sorted(self.pos.units):
                u = self.pos.units[uid]
                if u.loc not in BOXES:
                    d.setdefault(u.loc, []).append(uid)
            for h in d:
                d[h].sort(key=lambda x: (self.pos.units[x].seq, x))
            self._pcache[key] = d
        by: dict[str, list[str]] = self._pcache[key]
        return by

    def _moved(self) -> None:
        """Forget every cache (after any change made from outside the rules too)."""
        self._cache.clear()
        self._pcache.clear()
        self._foe = {"soviet": {}, "german": {}}
        self._at.clear()
        self._near.clear()
        self._neartok.clear()
        self._stack.clear()
        self._listing.clear()
        self._touched = None
        self.forget_options()

    def position_changed(self) -> None:
        # the runtime's call after each step that acted: the caches of the position go
        self._changed()

    def _changed(self) -> None:
        """Forget what the position may have changed, units' hexes aside (the rules call
        :meth:`_relocated` wherever a unit changes hex)."""
        self._cache.clear()
        self.forget_options()

    def _relocated(self) -> None:
        self._touched = None
        self.forget_options()
        self._pcache.clear()
        self._foe = {"soviet": {}, "german": {}}
        self._at.clear()
        self._cache.clear()
        self._near.clear()
        self._neartok.clear()
        self._stack.clear()

    def side_units(self, side: str) -> list[str]:
        """``side``'s units on the map, by id (a list kept until the next change)."""
        key = ("side-units", side)
        got = self._foe[other(side)].get(key)
        if got is None:
            by: dict[str, list[str]] = {"soviet": [], "german": []}
            for uid in sorted(self.pos.units):
                if self.pos.units[uid].loc not in BOXES:
                    by[self.side_of(uid)].append(uid)
            for s, us in by.items():
                self._foe[other(s)][("side-units", s)] = us
            got = by[side]
        out: list[str] = got
        return out

    def garrison_type(self) -> UnitType:
        """The intrinsic garrison's type: from units.toml, else the manual's 1 SP, factor 4."""
        return self.cat.types.get("intrinsic-garrison", GARRISON_TYPE)

    # ------------------------------------------------------------------ position

    def _hex_changed(self, h: str) -> None:
        """The counters drawn in ``h`` may have changed (a unit's strength or deployment,
        Rules 6.B.2 and 9.C): the next board draws it again (every rule that changes them
        says so here; units that change hex, ``_put`` or :meth:`_relocated`)."""
        if self._touched is not None:
            self._touched.add(h)

    def _put(self, uid: str, h: str) -> None:
        u = self.pos.units[uid]
        was = u.loc
        touched = self._touched
        if touched is not None:  # the unit's place in the stacking order too (Rule 4)
            touched.add(was)
            touched.add(h)
        self.pos.seq += 1
        u.loc = h
        u.seq = self.pos.seq
        near, neartok, stack = self._near, self._neartok, self._stack
        pcache, at, foe = self._pcache, self._at, self._foe
        # what _relocated forgets: the answers that read the position, and every cache of
        # where units stand, which start afresh here and take what still holds below
        self.forget_options()
        self._cache.clear()
        self._near, self._neartok, self._stack, self._pcache, self._at = {}, {}, {}, {}, {}
        # the map hexes the unit left or entered (none when it goes from box to box)
        if was in BOXES:
            if h in BOXES:
                self._foe = {"soviet": {}, "german": {}}
                return
            changed: tuple[str, ...] = (h,)
        else:
            changed = (was,) if h in BOXES else (was, h)
        self._pcache = self._kept_positions(pcache, foe, uid, was, h, changed)
        for x in changed:
            for side in SIDES:
                at.pop((x, side), None)
            stack.pop(x, None)
        self._at = at
        self._stack = stack
        if near:
            # only the stacks of those hexes changed (the unit's place in the stacking
            # order too): the answers for hexes farther than two from them still hold,
            # and Rule 4's for every other hex (it reads the hex's stack and the unit
            # asked of)
            area = self.ter.area2set
            self._near = kept = {k: v for k, v in near.items()
                                 if not any(x in area(k[1]) for x in changed)}
            self._neartok = {k: v for k, v in neartok.items() if k in kept}

    def _kept_positions(self, pcache: dict[Any, Any], foe: dict[str, dict[Any, Any]],
                        uid: str, was: str, h: str, changed: tuple[str, ...]
                        ) -> dict[Any, Any]:
        """What of the position caches before ``uid`` went from ``was`` to ``h``
        (``pcache``, and ``foe``: :attr:`_foe`; ``changed``: those of the two hexes that
        are map hexes, one at least) still holds, brought up to date, the new
        :attr:`_pcache` returned and :attr:`_foe` set: what the mover's side's enemies
        decide (their units and hexes, ``enemy_key``, ``by_enemies``, their ZOCs:
        ``ezoc``, their facts) did not move and is kept whole; the units by hex and the
        mover's side's occupied hexes changed in those hexes only, its side's units on
        the map only if it entered or left the map.  Anything else is dropped."""
        side = self.side_of(uid)
        # what the enemies of the mover's side read of the mover's side's units: gone,
        # but for its units and its occupied hexes, brought up to date below
        theirs = foe[other(side)]
        fresh: dict[Any, Any] = {}
        self._foe = {side: foe[side], other(side): fresh}
        mine: list[str] | None = theirs.get(("side-units", side))
        if mine is not None:
            if was in BOXES:
                mine = sorted([*mine, uid])  # it entered the map
            elif h in BOXES:
                mine = [x for x in mine if x != uid]  # it left the map
            fresh[("side-units", side)] = mine
        out: dict[Any, Any] = {}
        by: dict[str, list[str]] | None = pcache.get("byhex")
        if by is not None:
            # changed in place: the old caches go with this move, a clone starts with
            # none, and no caller keeps the dicts across a move; copying them was 23 M
            # instructions of the purkayev audit (a dict of ~60 hexes and one of ~40,
            # every move). A hex's list is never changed in place: a new one replaces it
            units = self.pos.units
            for x in changed:
                here = [y for y in by.get(x, ()) if y != uid]
                if x == h:
                    here.append(uid)
                    if len(here) > 1:  # a unit alone is in order
                        here.sort(key=lambda y: (units[y].seq, y))
                if here:
                    by[x] = here
                else:
                    by.pop(x, None)
            out["byhex"] = by
            occ: dict[str, tuple[str, ...]] | None = theirs.get(("occupied", side))
            if occ is not None:
                side_of = self.side_of
                for x in changed:
                    stack = tuple([y for y in by.get(x, ()) if side_of(y) == side])
                    if stack:
                        occ[x] = stack
                    else:
                        occ.pop(x, None)
                fresh[("occupied", side)] = occ
        return out

    def bunker(self, h: str) -> int:
        return max((b.strength for b in self.pos.bunkers if b.hex == h), default=0)

    def stack_ok_with(self, h: str, uid: str, leaving: Iterable[str] = ()) -> bool:
        """Rule 4: may ``uid`` stand in ``h`` (with ``leaving`` gone from it)? It depends
        on the units in ``h`` only, so it is kept until a unit enters or leaves ``h``."""
        gone = tuple(sorted(leaving)) if leaving else ()
        key = (uid, gone)
        here = self._stack.get(h)
        if here is None:
            here = self._stack[h] = {}
        got = here.get(key)
        if got is None:
            side = self.side_of(uid)
            if not any(x != uid and x not in gone for x in self.occupied(side).get(h, ())):
                here[key] = True
                return True  # Rule 4 limits stacks: a unit alone is never one
            # Rule 4 looks at which units stand together, not where or in what order: one
            # answer per set of units, kept for the whole game
            together = tuple(sorted([*(x for x in self.units_at(h, side)
                                       if x != uid and x not in gone), uid]))
            memo = self._static.setdefault("stack-memo", {})
            got = memo.get(together)
            if got is None:
                if len(memo) >= 65536:
                    memo.clear()  # a bound: entries are pure functions of their keys
                got = memo[together] = rules.stack_ok(side, [self.udef(x) for x in together])
            here[key] = got
        return bool(got)

    # ------------------------------------------------------------------ the sequence of play

    def over(self) -> bool:
        return self.pos.final is not None

    @property
    def phase(self) -> str:
        """The phase of play (Rule 5) the current step belongs to: the innermost step on
        the stack that names one (a die rolled in a phase belongs to it)."""
        for frame in reversed(self.stack):
            name = phase_of(self.steps[frame.step], frame.args)
            if name:
                return name
        return "end"

    # ------------------------------------------------------------------ validation helpers

    def _need_phase(self, *phases: str, rule: str = "Rule 5") -> None:
        if self.phase not in phases:
            raise IllegalAction(f"that is done in the {' or '.join(phases)} phase, and this is "
                                f"the {self.phase} phase", rule=rule)

    def _need_unit(self, uid: str, side: str | None = None) -> U:
        if uid not in self.pos.units:
            raise IllegalAction(f"there is no unit {uid!r}", rule="Rule 2")
        if side is not None and self.side_of(uid) != side:
            raise IllegalAction(f"{uid} is not a {side} unit", rule="Rule 6.A")
        return self.pos.units[uid]

    def _need_map(self, uid: str) -> U:
        u = self._need_unit(uid, self.pos.phasing)
        if not self.on_map(uid):
            raise IllegalAction(f"{uid} is not on the map", rule="Rule 6.A")
        return u

    def _result(self) -> Result | None:
        if self.pos.final is None:
            return None
        score = self.pos.final.score
        s, g = score["soviet"], score["german"]
        text = f"Soviet {s}, German {g} (stand-in victory points)"
        if s == g:
            return Result(None, "rules", "Draw: " + text, f"{s}-{g}")
        winner = "soviet" if s > g else "german"
        return Result(winner, "rules", f"{winner.capitalize()} victory: " + text, f"{s}-{g}")

    def frames_for(self, step: str) -> list[Frame]:
        frames = sequence.frames_for(step)
        # the setup API (issue 31): a step the position gives it nothing to do at
        first, last = self.sc.turns[0], self.sc.turns[-1]
        if step != "setup" and not first <= self.pos.turn <= last:
            raise Misfit("turn", f"the scenario is played on turns {first}-{last}")
        if self.pos.phasing not in SIDE_COLOR:
            raise Misfit("phasing", f"the side whose impulse it is: one of "
                                    f"{', '.join(sorted(SIDE_COLOR))} (Rule 5)")
        if step == "setup" and not self.pos.setup_side:
            raise Misfit("setup_side", "the side setting up (Campaign setup); none is")
        if step in ("defensive-fire", "assault-fire") and self.pos.combat is None:
            raise Misfit("combat", "the fire steps allocate fire at the hex of the combat "
                                   "open (Rule 5); none is")
        if step == "advance" and not self.pos.advance:
            raise Misfit("advance", "no hex is open to an advance after combat (Rule 9.D)")
        return frames

    def _decision(self) -> Decision:
        d = super()._decision()
        # the options are shown when few enough to read; legal_actions() lists them all
        return d if len(d.options) <= 12 else d.replace(options=())

    def _decision_head(self) -> tuple[str, str]:
        # _decision above only trims the options: side and prompt are the steps' own, so a
        # game's summary need not list the next impulse's moves (issue 19: ~50 M of an act)
        return self._step_head()

    # ------------------------------------------------------------------ legal actions

    def _valid(self, a: Act) -> bool:
        """``a`` passes the check of the decision at hand (its step's, by its rule)."""
        step, frame = self._choice()
        try:
            step.check(self, frame.args, a)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ what a player sees

    def phasing_side(self) -> str:
        """Rule 5: the side whose impulse it is (the steps' ``decider = PHASING``)."""
        return self.pos.phasing

    def turn_number(self) -> int:
        return int(self.pos.turn)

    def status_line(self, side: str | None) -> str:
        return status_line(self.pos, self.last_turn, self.phase, side)

    def counters(self, side: str | None) -> Mapping[str, str]:
        # each unit's counter worked out when it is asked (Counters)
        return Counters(self.pos, side, self.phase, self._by_hex, self.udef)

    def _view(self, side: str | None) -> BoardView:
        from engines.white_death import view

        # the phase found once for the status line and the board (a walk of the step
        # stack each; a replay page draws a view after each of its 1,160 actions)
        phase = self.phase
        # the hexes changed since the last board, and a log started afresh for the next
        drawn, changed, self._touched = self._drawn, self._touched, set()
        return view.board(self.pos, self.cat, side, title=f"White Death: {self.sc.title}",
                          status=status_line(self.pos, self.last_turn, phase, side),
                          phase=phase,
                          stacks=self._by_hex(), udef=self.udef,
                          zoc=ezoc(self, side) if side is not None else (),
                          drawn=drawn, changed=changed)

    def parse_action(self, text: str) -> Action:
        return parse(text)

