"""The White Death position and the lookups every rule module uses.

:class:`BaseState` holds the whole changing position (``self.pos``, the typed data of
:mod:`engines.white_death.position`: what a snapshot saves) and answers
what every rule asks: which units are where, whose they are, what the catalog says of
them, and whether a stack is legal (Rule 4). The sequence of play is the step runtime's
(:mod:`pbem.steps`): the steps are in :mod:`engines.white_death.sequence`, and the work a
rule queues up as it goes (a die, the rest of a move after the antitank fire) is handed
to the runtime as frames (:meth:`BaseState._push`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engines.hexkit.hexmap import HexMap
from engines.white_death import rules
from engines.white_death.data import GARRISON_TYPE, Catalog, ScenarioDef, UnitDef, UnitType
from engines.white_death.position import Position, U
from pbem.engine import Action, Engine, State
from pbem.errors import IllegalAction
from pbem.steps import Flow, Frame, StepState

if TYPE_CHECKING:  # WDState makes it; terrain.py imports this module
    from engines.white_death.terrain import Terrain

BOXES = ("pending", "raster", "dead", "refit", "setup")


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


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


@dataclass(frozen=True)
class DieArgs:
    """A die of the game (all are 1d6) and what its rule needs to apply the result: the
    request's purpose and rule, and the fields of the handler's rule."""

    purpose: str = ""
    rule: str = ""
    hex: str = ""
    uid: str = ""
    kind: str = ""
    col: int = 0
    mod: int = 0
    stage: str = ""
    units: tuple[str, ...] = ()
    area: str = ""
    need: int = 0
    group: tuple[str, ...] = ()


class BaseState(StepState[Position]):
    """The position, the lookups on it, and the frames every rule module queues."""

    cat: Catalog
    #: the catalog's map and charts (made by ``WDState``)
    ter: Terrain
    #: the position as typed data (:mod:`engines.white_death.position`), ``self.pos``
    Position = Position
    #: the scenario's definition, the terrain read from the map and the map-derived facts:
    #: the same whatever the position (:meth:`clone`)
    clone_shares = ("sc", "ter", "_static")

    def __init__(self, engine: Engine, scenario: str, options: dict[str, str],
                 cat: Catalog) -> None:
        super().__init__(engine, scenario, options)
        self.cat = cat
        self.sc: ScenarioDef = cat.scenarios[scenario]
        self.last_turn = self.sc.turns[1]
        self.pos = Position(turn=self.sc.turns[0], vl_released=not self.sc.opening)
        #: frames a rule queued while a step ran, handed to the runtime as it ends
        self._pending: list[tuple[str, Any]] = []
        self.stack: list[Frame] = []
        self._cache: dict[Any, Any] = {}
        #: what depends on where units stand and nothing else (which units are in each
        #: hex, each side's units on the map, the enemy's ZOCs and traces): kept across
        #: other changes, cleared by :meth:`_relocated` whenever a unit changes hex
        self._pcache: dict[Any, Any] = {}
        #: each side's stacks within two hexes of a hex (Rule 4's look ahead): kept across a
        #: unit's move but for the hexes within two of where it left and arrived (``_put``)
        self._near: dict[tuple[str, str], tuple[tuple[str, tuple[str, ...]], ...]] = {}
        #: the same as numbers (``near_token``), kept and dropped with them
        self._neartok: dict[tuple[str, str], int] = {}
        #: Rule 4 answers per hex (:meth:`stack_ok_with`), kept likewise but for the two
        #: hexes a move changes
        self._stack: dict[str, dict[tuple[str, tuple[str, ...]], bool]] = {}
        #: the last movement-phase listing, unit by unit, with what each unit's part read
        #: (``WDState._movement_legal``): a unit whose inputs are unchanged is not listed again
        self._listing: dict[str, Listed] = {}
        #: the phase's token (``_phase_key``) the listing was made under
        self._listing_phase: int | None = None
        # map-derived facts live in the catalog: a clone shares them (issue 13)
        self._static: dict[Any, Any] = cat.static

    # ------------------------------------------------------------------ copying

    def clone(self) -> State:
        """A copy of the position only: the engine, catalog and map-derived facts are
        shared, and the caches start empty (a cache is never part of the position)."""
        new = copy.copy(self)
        new.options = dict(self.options)
        new.history = list(self.history)  # records are never changed once made
        new.pos = self.pos.copy()
        new.stack = [Frame(f.step, f.args, f.pc) for f in self.stack]
        new._pending = list(self._pending)
        new._cache = {}
        new._pcache = {}
        new._near = {}
        new._neartok = {}
        new._stack = {}
        new._listing = {}
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

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        if side is None:
            return self._by_hex().get(h, [])
        key = ("at", h, side)
        got = self._pcache.get(key)
        if got is None:
            got = self._pcache[key] = [x for x in self._by_hex().get(h, [])
                                      if self.side_of(x) == side]
        out: list[str] = got
        return out

    def occupied(self, side: str) -> dict[str, tuple[str, ...]]:
        """The hexes holding ``side``'s units, with them in stacking order."""
        key = ("occupied", side)
        got = self._pcache.get(key)
        if got is None:
            mine = ((h, tuple(x for x in us if self.side_of(x) == side))
                    for h, us in self._by_hex().items())
            got = self._pcache[key] = {h: us for h, us in mine if us}
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
        self._near.clear()
        self._neartok.clear()
        self._stack.clear()
        self._listing.clear()

    def _changed(self) -> None:
        """Forget what the position may have changed, units' hexes aside (the rules call
        :meth:`_relocated` wherever a unit changes hex)."""
        self._cache.clear()

    def _relocated(self) -> None:
        self._pcache.clear()
        self._cache.clear()
        self._near.clear()
        self._neartok.clear()
        self._stack.clear()

    def side_units(self, side: str) -> list[str]:
        """``side``'s units on the map, by id (a list kept until the next change)."""
        key = ("side-units", side)
        got = self._pcache.get(key)
        if got is None:
            by: dict[str, list[str]] = {"soviet": [], "german": []}
            for uid in sorted(self.pos.units):
                if self.pos.units[uid].loc not in BOXES:
                    by[self.side_of(uid)].append(uid)
            for s, us in by.items():
                self._pcache[("side-units", s)] = us
            got = by[side]
        out: list[str] = got
        return out

    def garrison_type(self) -> UnitType:
        """The intrinsic garrison's type: from units.toml, else the manual's 1 SP, factor 4."""
        return self.cat.types.get("intrinsic-garrison", GARRISON_TYPE)

    # ------------------------------------------------------------------ position

    def _put(self, uid: str, h: str) -> None:
        u = self.pos.units[uid]
        was = u.loc
        self.pos.seq += 1
        u.loc = h
        u.seq = self.pos.seq
        near, self._near = self._near, {}
        neartok, self._neartok = self._neartok, {}
        stack, self._stack = self._stack, {}
        pcache, self._pcache = self._pcache, {}  # _relocated clears in place
        self._relocated()
        # the map hexes the unit left or entered (none when it goes from box to box)
        changed = tuple(x for x in (was, h) if x not in BOXES)
        if changed:
            self._pcache = self._kept_positions(pcache, uid, was, h)
            # only the stacks of those hexes changed (the unit's place in the stacking
            # order too): the answers for hexes farther than two from them still hold, and
            # Rule 4's for every other hex (it reads the hex's stack and the unit asked of)
            area = self.ter.area2set
            self._near = {k: v for k, v in near.items()
                          if not any(x in area(k[1]) for x in changed)}
            kept = self._near
            self._neartok = {k: v for k, v in neartok.items() if k in kept}
            for x in changed:
                stack.pop(x, None)
            self._stack = stack

    def _kept_positions(self, pcache: dict[Any, Any], uid: str, was: str,
                        h: str) -> dict[Any, Any]:
        """What of ``pcache`` (the position caches before ``uid`` went from ``was`` to
        ``h``, one of them at least a map hex) still holds, brought up to date: the units
        by hex and the mover's side's occupied hexes changed in those hexes only, its
        side's units on the map only if it entered or left the map; and what is traced
        through the mover's side's enemies (``enemy_key``, ``by_enemies``) did not move.
        Anything else is dropped (a key not named here is never carried)."""
        side = self.side_of(uid)
        foe = other(side)
        out: dict[Any, Any] = {}
        for k, v in pcache.items():
            if type(k) is not tuple:
                continue
            tag = k[0]
            if ((tag == "side-units" and k[1] == foe) or (tag == "ekey" and k[1] == side)
                    or (tag == "by-enemies" and k[2] == side)
                    or (tag == "at" and k[1] != was and k[1] != h)
                    or (tag == "occupied" and k[1] == foe)):
                out[k] = v
        mine: list[str] | None = pcache.get(("side-units", side))
        if mine is not None:
            if was in BOXES:
                mine = sorted([*mine, uid])  # it entered the map
            elif h in BOXES:
                mine = [x for x in mine if x != uid]  # it left the map
            out[("side-units", side)] = mine
        by: dict[str, list[str]] | None = pcache.get("byhex")
        if by is not None:
            by = dict(by)  # the lists of other hexes are shared: never changed in place
            units = self.pos.units
            changed = [x for x in (was, h) if x not in BOXES]
            for x in changed:
                here = [y for y in by.get(x, ()) if y != uid]
                if x == h:
                    here.append(uid)
                    here.sort(key=lambda y: (units[y].seq, y))
                if here:
                    by[x] = here
                else:
                    by.pop(x, None)
            out["byhex"] = by
            occ: dict[str, tuple[str, ...]] | None = pcache.get(("occupied", side))
            if occ is not None:
                occ = dict(occ)
                for x in changed:
                    stack = tuple(y for y in by.get(x, ()) if self.side_of(y) == side)
                    if stack:
                        occ[x] = stack
                    else:
                        occ.pop(x, None)
                out[("occupied", side)] = occ
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

    def _push(self, step: str, args: Any = None, front: bool = False) -> None:
        """Queue ``step`` (a die, or the rest of a rule after its dice) to run once the
        current step has acted, after what was queued before it, or (``front``) before."""
        if front:
            self._pending.insert(0, (step, args))
        else:
            self._pending.append((step, args))

    def _die(self, step: str, purpose: str, rule: str, front: bool = False,
             **kw: Any) -> None:
        self._push(step, DieArgs(purpose, rule, **kw), front)

    def flush(self, flow: Flow) -> None:
        """Hand the queued frames to the runtime (every step does once it has acted)."""
        for step, args in self._pending:
            flow.push(step, args)
        self._pending = []

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


class Phased:
    """What every White Death step says besides the runtime's: the phase of play it
    belongs to (Rule 5), "" for one that belongs to the phase around it."""

    phase: ClassVar[str] = ""

    def phase_of(self, args: Any) -> str:
        return self.phase


def phase_of(step: object, args: Any) -> str:
    return step.phase_of(args) if isinstance(step, Phased) else ""
