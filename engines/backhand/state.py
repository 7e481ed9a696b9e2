"""Backhand Blow's state: the position's lookups (who is where, whose, stacks, ZOC) with
their caches, and the engine hooks (result, view, notation, setup, standing orders).

Rule numbers are those of the rulebook *Von Manstein's Backhand Blow, Exclusive Rules*; the
series rules they lean on (Activity Table, CRT and hits, chits, attrition, random events)
are stand-ins read from scenarios/backhand-blow/tables.toml (docs/engines/backhand-blow.md).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Container, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from engines.backhand.data import Data, load, zoc_hexes
from engines.backhand.notation import parse_action, w
from engines.backhand.position import (
    DRAWN,
    OFF,
    PLACINGS,
    SET,
    Cities,
    Count,
    MoveArgs,
    PhaseArgs,
    PhaseCall,
    Position,
    SegSpec,
    SegState,
    UnitArg,
    copy_position,
    position_data,
    position_from_data,
    units_from_data,
)
from engines.hexkit.facts import BoardFacts, Placed, Placement
from pbem import canonical
from pbem.engine import Action, Decision, Engine, Event, Outcome, Result
from pbem.grammar import Act
from pbem.memo import Memo
from pbem.steps import Frame, NoArgs, StepState

if TYPE_CHECKING:  # the picture loads when a board is drawn (issue 35)
    from pbem.view import BoardView

T = TypeVar("T")

# What the placement of the units implies beyond the kit's board facts (a unit stack's
# destinations), remembered across actions and states: keyed by the kind, the weather,
# origin and units asked of, and the placement (the map and the order of battle never
# change).
_PLACED: Memo[tuple[str, str, Placement], Any] = Memo(2048)
#: the board facts of recent placements (a listing's probes and clones meet one again),
#: by the units' ids and places
_BOARDS: Memo[tuple[tuple[str, ...], tuple[str, ...]], BoardFacts] = Memo(64)
_FITS: Memo[tuple[str, tuple[str, ...]], bool] = Memo(2048 * 8)

#: the units' ids and hexes, the board facts of them, and the units' mapping, the count
#: of placings, the number of units and the count of units set (position.DRAWN) when
#: they were last read, and each unit's place among them by the unit object's id (made
#: when first asked; the units are held alive by the mapping)
_Kept = tuple[tuple[tuple[str, ...], tuple[str, ...]], BoardFacts, dict[str, Any], int, int,
              int, "dict[int, int] | None"]
_AT = attrgetter("at")
_OFF = frozenset(OFF)
_NO_PLACES: dict[str, Placed] = {}


def _set_since(kept: _Kept, units: dict[str, Any], where: dict[int, int]) -> list[int] | None:
    """The places in ``kept``'s key of the units set since it was read (position.SET
    lists each set, with the count of sets position.DRAWN it made), in order; ``None``
    when the list cannot say which (a unit made, or more set than it keeps) or a unit of
    the key is no longer the object it was, and every unit's place is read again."""
    count, now = kept[5], DRAWN[0]
    if (now == count or now - count > len(SET) or SET[-1][0] != now
            or SET[count - now][0] != count + 1):
        return None
    ids = kept[0][0]
    out: set[int] = set()
    for _, x in itertools.islice(SET, len(SET) - (now - count), None):
        i = where.get(id(x))
        if i is None:
            continue  # a unit of another position (a copy the rules probed)
        if units.get(ids[i]) is not x:
            return None
        out.add(i)
    return sorted(out)


#: the frames' argument classes a clone shares, as pbem.typedcopy does: frozen, each
#: field an int, a string or a tuple of strings (tests/backhand/test_position_copy.py)
SHARED_ARGS = frozenset((NoArgs, SegSpec, PhaseCall, PhaseArgs, MoveArgs, UnitArg, Cities,
                         Count))
_SEG_FIELDS = frozenset(("side", "kind", "no", "stage", "first"))


class BBState(StepState[Position]):
    """The lookups every rule and step reads, and the engine hooks; the rules are plain
    functions in the rule modules, the steps in ``steps/`` (``sequence.py`` has the table)."""

    data: Data
    #: a clone makes its own caches again (pbem.steps); the board facts are a pure
    #: function of the key kept with them and never change (a move makes a new key and
    #: new facts, assigned on the state that moved): a clone shares them until its
    #: position differs, and a snapshot never holds them
    clone_drops = ("_cache",)
    clone_shares = ("_facts",)
    view_status = True  # view.board writes s.status_line(side) as the view's status
    _facts: _Kept | None = None
    #: a decision's options are computed once for its prompt, listing, default and check
    memo_options = True

    def __init__(self, engine: Engine, scenario: str, options: Mapping[str, str]) -> None:
        super().__init__(engine, scenario, options)
        # the scenario's tables and map, one shared object (a clone keeps it: Shared)
        self.data = load()

    # caches of what the unit locations and markers imply beyond the board facts (cleared
    # whenever a unit or marker moves and at every action and outcome: never part of the
    # snapshot)
    def cached(self, key: tuple[str, str], make: Callable[[], T]) -> T:
        cache: dict[tuple[str, str], Any] = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = make()
        return cache[key]  # type: ignore[no-any-return]

    def facts(self) -> BoardFacts:
        """The kit's board facts of where the units stand: occupancy, stacks, ZOC (6.0)
        and the supply floods (7.0, 15.1), keyed by every unit's place read now, so a
        position changed in place is never answered from the facts of before.  Asked
        again of the same units with no unit put anywhere since (position.PLACINGS),
        they are the facts kept, without reading every unit's place again."""
        units = self.pos.units
        kept = self._facts
        where: dict[int, int] | None = None
        changed: list[int] | None = None
        if kept is not None and kept[2] is units and kept[4] == len(units):
            if kept[3] == PLACINGS[0]:
                return kept[1]
            where = kept[6]
            if where is None:
                where = dict(zip(map(id, units.values()), range(len(units)), strict=True))
            changed = _set_since(kept, units, where)
        if changed is not None:
            assert kept is not None
            # the units set since (position.SET) read again, not every unit's place:
            # a move sets one or a few of 124, and reading them all after every unit put
            # was most of a receive's board facts (issue 35)
            places = list(kept[0][1])
            for i in changed:
                places[i] = units[kept[0][0][i]].at
            key = (kept[0][0], tuple(places))
        else:
            key = (tuple(units), tuple(map(_AT, units.values())))
            where = None
        if kept is not None and kept[0] == key:
            found = kept[1]
        elif changed is not None:
            # the kept facts with the units set changed, not looked for among the recent
            # placements first: hashing the key's 248 strings cost more than the change
            # (issue 35: 0.4 M instructions of a receive, 5 M of an audit)
            found = self._board_facts(key, kept, changed)
        else:
            # by the units' ids and places, strings whose hashes Python keeps, where
            # the kit's memo of recent placements hashes each unit's Placed (issue 35)
            found = _BOARDS.get(key, lambda: self._board_facts(key, kept))
        self._facts = (key, found, units, PLACINGS[0], len(units), DRAWN[0], where)
        return found

    def _board_facts(self, key: tuple[tuple[str, ...], tuple[str, ...]],
                     kept: _Kept | None = None, changed: list[int] | None = None
                     ) -> BoardFacts:
        """The board facts of the units' places ``key``: those ``kept`` with the units
        changed, or, for other units, made from every unit.  ``changed``: the only
        units (by their place in the key) whose places may differ from ``kept``'s."""
        placed, off = self.data.placed, _OFF
        if kept is not None and kept[0][0] == key[0]:
            # the same units, some put elsewhere (a move, a unit placed or eliminated):
            # the facts kept with only those changed, each side's stacks carried over
            # (issue 35: found again from every unit after every move of a receive)
            before, now = kept[0][1], key[1]
            ids = key[0]
            moved: list[Placed] = []
            gone: list[str] = []
            for i in (itertools.compress(range(len(now)), map(operator.ne, before, now))
                      if changed is None else [i for i in changed if before[i] != now[i]]):
                if now[i] in off:
                    gone.append(ids[i])
                else:
                    moved.append(placed(ids[i], now[i]))
            return kept[1].changed(moved, gone)
        # each unit's Placed read off the data's own table where it has one, a call of
        # Data.placed only to make one (a call a unit was most of making the facts: a
        # receive makes them after every move, an act after every unit placed)
        table = self.data._placed
        out = []
        for u, at in zip(*key, strict=True):
            if at not in off:
                p = table.get(u, _NO_PLACES).get(at)
                out.append(p if p is not None else placed(u, at))
        return BoardFacts(self.data.map, out)

    def placed(self, kind: str, side: str, make: Callable[[], T]) -> T:
        """``make()`` for this placement of the units, remembered across actions."""
        def find() -> T:
            found: T = _PLACED.get((kind, side, self.facts().placement), make)
            return found
        return self.cached((kind, side), find)

    def invalidate(self) -> None:
        """The units or markers moved: what their placement implies is computed again, and
        so are the options of a decision asked before (a rule may ask them inside a step)."""
        self.__dict__["_cache"] = {}
        self.forget_options()

    def _apply_action(self, action: Action) -> list[Event]:
        # the caches only: the options memo is the position's until the action applies
        # (the runtime checks the action against it, then drops it)
        self.__dict__["_cache"] = {}
        try:
            return super()._apply_action(action)
        finally:
            self.invalidate()

    def _apply_outcome(self, outcome: Outcome) -> list[Event]:
        self.invalidate()
        try:
            return super()._apply_outcome(outcome)
        finally:
            self.invalidate()

    def restore_body(self, body: Mapping[str, Any]) -> None:
        """As the runtime restores a body, the units read by
        :func:`~engines.backhand.position.units_from_data` and the rest of the position
        by :func:`~engines.backhand.position.position_from_data` where each is exactly
        what the codec takes (anything else by the codec, which names what is wrong)."""
        pos = body.get("position") if isinstance(body, Mapping) else None
        units = units_from_data(pos.get("units")) if isinstance(pos, dict) else None
        if not isinstance(pos, dict) or units is None or "stack" not in body:
            super().restore_body(body)
            return
        read = position_from_data(pos, units) if self.Position is Position else None
        if read is None:
            # the codec loads only for a position position_from_data does not take: it
            # was imported with the engine, 1.5 M instructions of every turn command,
            # which reads its positions the way above (issue 35)
            from pbem import codec

            read = codec.from_data(self.Position, {**pos, "units": {}})
            read.units = units
        self.pos = read
        self.restore_stack(body["stack"])

    def normal_body(self) -> bytes | None:
        # the position written from its plain data made here (position_data), not by
        # the codec's typed writer, built at a process's first digest: about 4 M
        # instructions of every receive and act (issue 35); anything position_data does
        # not take, and a subclass that snapshots otherwise, go the runtime's way
        cls = type(self)
        data = position_data(self.pos)
        if (data is None or cls._snapshot is not StepState._snapshot
                or cls.setup_position is not StepState.setup_position):
            return super().normal_body()
        try:
            return self.packed_body(canonical.pack_normal(data))
        except Exception:  # as the codec's: the generic way names what is wrong
            return super().normal_body()

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
        return list(self.facts().at(h, side))

    def occupied(self, side: str) -> Mapping[str, tuple[str, ...]]:
        """``side``'s units on the map by hex, in hex order (shared: read, never changed)."""
        return self.facts().stacks(side)

    def zoc(self, side: str) -> Mapping[str, tuple[str, ...]]:
        """The ZOC ``side``'s units exert (none into cities, 6.0): its hexes, each with
        the units exerting it, in hex order."""
        return self.facts().zoc(side, self.data.zoc_rule).sources

    def zoc_set(self, side: str) -> frozenset[str]:
        """The hexes of :meth:`zoc` of ``side`` as one set, the same set while the
        side's units hold the same hexes: a move's search reads it as a set, and a set
        made anew for each search is hashed anew (issue 35)."""
        return zoc_hexes(self.data, self.facts(), side)

    def in_zoc(self, h: str, occupied: Container[str]) -> bool:
        """6.0: whether ``h`` is in the ZOC of the units in the hexes ``occupied`` (a
        side's :meth:`occupied`): next to one of them and not a city.  For the rules that
        ask a few hexes after every move (3.1's eight watched hexes, 14.1's trace of a
        Front Marker), where the whole ZOC of either side is hundreds (issue 35)."""
        return h not in self.data.city_hexes and any(n in occupied for n in self.data.nbrs[h])

    def stack_ok(self, h: str, side: str, adding: list[str] | tuple[str, ...]) -> bool:
        """10.1, 10.2: ``adding`` joining ``side``'s units in ``h``."""
        here = self.facts().at(h, side)
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
    # the engine's hooks ------------------------------------------------------------------
    def over(self) -> bool:
        return self.pos.turn > self.pos.last_turn

    def setup_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """``units = {"LAH-1" = "2510"}`` or ``"2510 1"`` (hex and steps) as shorthand;
        ``clear = true`` takes every unit off the map first."""
        units = data.pop("place", None)
        if data.pop("clear", False):
            base = {u: {"at": "out"} for u in self.pos.units}
            data["units"] = {**base, **data.get("units", {})}
        if units:
            table = data.setdefault("units", {})
            for u, spec in units.items():
                at, _, steps = str(spec).partition(" ")
                entry = dict(table.get(u, {}))
                entry["at"] = at
                entry["steps"] = int(steps) if steps else self.data.units[u].steps \
                    if not u.startswith("UP-") else 1
                table[u] = entry
        return data

    def _result(self) -> Result | None:
        if not self.over():
            return None
        # the victory conditions (18.1, 18.2) and control (3.1) load with the end
        from engines.backhand.victory import victory

        winner, text = victory(self)
        return Result(winner, "rules", text)

    def turn_number(self) -> int:
        return self.pos.turn

    def copy_position(self) -> Position:
        # Position's copy read off its fields' kinds, as typedcopy would derive it
        got = copy_position(self.pos)
        return got if got is not None else super().copy_position()

    def copy_stack(self) -> list[Frame]:
        # the frames' arguments as typedcopy copies them: shared where their class is
        # frozen with fields that never change, a segment under way (4.2 II) copied field
        # by field; any other frame (a battle's) by typedcopy, loaded then (issue 35)
        steps, out, new = self.steps, [], object.__new__
        for f in self.stack:
            args = f.args
            kind = type(args)
            if kind is not steps[f.step].Args:
                return super().copy_stack()
            if kind in SHARED_ARGS:
                out.append(Frame(f.step, args, f.pc))
            elif kind is SegState and args.__dict__.keys() == _SEG_FIELDS:
                twin = new(SegState)
                twin.__dict__.update(args.__dict__)
                out.append(Frame(f.step, twin, f.pc))
            else:
                return super().copy_stack()
        return out

    # the board view's module loads with the first board or counters asked: an act or
    # a receive asks only this line, for the game's summary (issue 35)
    def status_line(self, side: str | None) -> str:
        p = self.pos
        return (f"turn {p.turn}/{p.last_turn} {p.weather}, {p.segment}; C3I "
                f"S{p.c3i['soviet']} G{p.c3i['german']}; AP SW{p.ap['southwest']} "
                f"VO{p.ap['voronezh']} G{p.ap['german']}")

    def _view(self, side: str | None) -> BoardView:
        from engines.backhand import view

        return view.board(self, side)

    def counters(self, side: str | None) -> dict[str, str]:
        from engines.backhand import view

        return view.counters(self)

    def _order_answer(self, decision: Decision, policy: str) -> Action | None:
        opts = decision.options
        if decision.kind == "take-loss" and policy == "losses":
            for o in opts:
                if isinstance(o, Act) and o.kind == "lose":
                    return o
        if decision.kind == "take-loss" and policy == "stand":
            for o in opts:
                if isinstance(o, Act) and o.kind in ("lose", "done"):
                    return o
        if decision.kind == "chit" and policy == "play":
            for o in opts:
                if isinstance(o, Act) and o.kind == "chit":
                    return o
        if decision.kind == "reinforce" and policy == "box":
            for o in opts:
                if o in (w("arrive", "box"), w("none")):
                    return o
        if decision.kind == "rochade" and policy == "declare":
            return w("rochade")
        if decision.kind == "phase-order" and policy == "combat-first":
            return w("order", "combat-first")
        if decision.kind == "c3i" and policy == "max":
            return opts[-1]  # "spend 0" to "spend N": N is four or all held
        if (decision.kind, policy) in (("replace", "all"), ("refit", "first")):
            return opts[0]  # the first unit or formation listed; "done" when none is left
        return None

    def parse_action(self, text: str) -> Action:
        return parse_action(text)
