"""Movement (5.0) and zones of control in movement (4.2): what a unit may enter, at what
cost, the hexes it can reach, and exploitation movement (5.4).  The terrain cost and
country limits themselves are ``core.py``'s: retreats, reinforcements and strategic
moves read them too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.hexkit.movement import MoveClass, MoveCosts, breadth_first, reachable
from engines.hexkit.zoc import ZocPolicy
from engines.motherland.actions import Move, Strategic, Word
from engines.motherland.const import AXIS, BLOCKING_SIDES, DONE, SOVIET, other
from engines.motherland.optional import OptionalRulesMixin
from engines.motherland.overrun import OverrunMixin
from engines.motherland.steps import MoveArgs
from engines.motherland.strategic import StrategicMixin
from pbem.engine import Action
from pbem.errors import IllegalAction

#: units that may not enter an enemy ZOC at all (4.2.3)
ZOC_SHY = frozenset({"supply_base", "air_base", "railroad_gun", "offensive_support"})
#: the MP it costs to leave an enemy ZOC hex (4.2)
ZOC_EXIT = 2
#: 4.2: leaving an enemy ZOC costs 2 MP and entering one does not stop a move; by (may
#: enter an enemy ZOC at all (4.2.3), may move from one into another (5.1.4 Panzers))
_POLICIES = {(enter, through): ZocPolicy(stop_on_entry=False, exit_cost=ZOC_EXIT,
                                         zoc_to_zoc=through, may_enter=enter)
             for enter in (False, True) for through in (False, True)}
#: compiled step costs by (id of the game data, :meth:`MovementMixin._cost_key`), with the
#: data they were compiled from (facts of the map: shared by every state and game)
_COSTS: dict[tuple[object, ...], tuple[object, MoveCosts]] = {}


@dataclass(frozen=True)
class _Priced(MoveClass):
    """A move class priced by the game's own terrain and hexside rules (5.1): the ice of
    5.1.7 (water entered only across a Frozen Access hexside) is no chart the kit's data
    form can say."""

    #: the cost of each step ``(a, b)``, ``None`` (or absent) where it is barred
    price: Callable[[tuple[str, str]], int | None] = field(default=lambda ab: None,
                                                          compare=False)

    def step_cost(self, hexmap: Any, a: str, b: str) -> int | None:
        return self.price((a, b))


class MovementMixin(StrategicMixin, OverrunMixin, OptionalRulesMixin):
    """Regular and exploitation movement (5.0, 5.4) and the movement phase's options."""

    # ================================================================================
    # movement (5.0)
    # ================================================================================

    def _side_cost(self, uid: str, a: str, b: str, *, moving: bool = True) -> int | None:
        """Hexside cost for regular movement, or None when the hexside is closed."""
        return self._features_cost(uid, self.data.side_features(a, b))

    def _features_cost(self, uid: str, f: frozenset[str]) -> int | None:
        """:meth:`_side_cost` of a hexside with features ``f``."""
        if not f:
            return 0
        if "frozen_access" in f:
            if self.snow and self._soviet_infantry(uid):
                return self.data.minor_river_mp  # 5.1.7
            return None
        if f & BLOCKING_SIDES:
            return None  # 5.1.9, 16.7
        cost = 0
        if "major_river" in f or "strait" in f:
            cost = self.data.major_river_mp
        elif "minor_river" in f:
            cost = 0 if self._minor_river_free(uid) else self.data.minor_river_mp
        return cost

    def _step_cost(self, uid: str, a: str, b: str, exploit: bool, ignore_zoc_at: str = ""
                   ) -> int | None:
        c = self.c(uid)
        side = c.side
        if self.has_enemy(b, side) or not self._may_enter_country(uid, b):
            return None
        cost = self._board_cost(uid, a, b)
        if cost is None:
            return None
        ez = self.zoc(other(side))
        if b in ez and c.type in ZOC_SHY:
            return None  # 4.2.3
        if a in ez and a != ignore_zoc_at:
            cost += ZOC_EXIT  # 4.2
            if b in ez:
                panzer = c.type in ("panzer", "ss_panzer") and not exploit
                if not panzer:
                    return None  # 4.2, 5.1.4
        return cost

    def _minor_river_free(self, uid: str) -> bool:
        """20.1 rule 1: on turn 1 German units cross Minor Rivers free in the Axis
        Movement Phase."""
        return bool(self.turn == 1 and self.sc.rules.get("turn1_rules")
                    and self.phase() == ("move", AXIS) and self.german(uid))

    def _board_cost(self, uid: str, a: str, b: str,
                    memo: tuple[dict[str, int | None], dict[frozenset[str], int | None]]
                    | None = None) -> int | None:
        """The MP of a step from ``a`` into adjacent ``b`` by the map alone (terrain,
        hexside, the ice: 5.1), None where the map bars it; units, ZOC and borders are
        the caller's.  A function of :meth:`_cost_key` only, so compiled once per key
        (:meth:`_move_costs`, which passes ``memo``: the terrain cost of each hex and
        the cost of each set of hexside features, the same for every step of the key)."""
        water = self.data.water
        if a in water or b in water:
            # 5.1.7: Soviet infantry cross Frozen Access hexsides on Snow Turns
            if not (self.snow and self._soviet_infantry(uid)
                    and "frozen_access" in self.data.side_features(a, b)):
                return None
            tc = 0 if b in water else self._terrain_cost(uid, b)
            if b in water:
                tc = self.data.tec["clear"].leg
        elif memo is None:
            tc = self._terrain_cost(uid, b)
        else:
            tc = memo[0][b] if b in memo[0] else memo[0].setdefault(
                b, self._terrain_cost(uid, b))
        if memo is None:
            sc = self._side_cost(uid, a, b)
        else:
            f = self.data.side_features(a, b)
            sc = memo[1][f] if f in memo[1] else memo[1].setdefault(
                f, self._features_cost(uid, f))
        if tc is None or sc is None:
            return None
        return tc + sc

    def _cost_key(self, uid: str) -> tuple[str, bool, bool, bool]:
        """Everything :meth:`_board_cost` reads besides the map: unit type (5.1.5 mountain
        units, 5.1.7 Soviet infantry), mechanized or not, Snow (5.1.7, 5.1.8) and 20.1
        rule 1's free Minor Rivers."""
        c = self.c(uid)
        # only the types a rule of _board_cost names tell units apart: units of the other
        # types share one table per (mech, snow), so a new weather compiles a few tables
        # and not one for each type (issue 35 item 5: the slowest listings of a game)
        snow = self.snow
        kind = c.type if c.type in self._costed_types() or (
            snow and self._soviet_infantry(uid)) else ""
        return kind, c.mech, snow, self._minor_river_free(uid)

    def _move_costs(self, uid: str) -> MoveCosts:
        """The map's step costs for units like ``uid`` now, compiled once per key and
        kept with the game's data (the kit's searches run on them)."""
        key = (id(self.data), *self._cost_key(uid))
        hit = _COSTS.get(key)
        if hit is None or hit[0] is not self.data:
            # priced now, so that the kept costs hold the map's facts and not this state
            memo: tuple[dict[str, int | None], dict[frozenset[str], int | None]] = ({}, {})
            table = {(a, b): self._board_cost(uid, a, b, memo)
                     for a, ns in self.data.all_neighbors.items() for b in ns}
            priced = _Priced(f"motherland:{key[1:]}", {}, price=table.get)
            hit = _COSTS[key] = (self.data, MoveCosts(self.data.hexmap, priced))
        return hit[1]
    def _can_move(self, uid: str, exploit: bool) -> bool:
        u, c = self.u(uid), self.c(uid)
        if not u.hex or u.mode in ("strat", "sea", "done"):
            return False
        if self._turn1_frozen(uid) or c.type == "economic":
            return False
        if self.pos.late and c.type not in self._step4_types(c.side):
            return False  # 3.1 step 4, 5.2.3: air bases and offensive support move last
        if exploit:
            return bool(u.mp > 0 or (u.mode == "one" and u.moves == 0))
        if c.type == "railroad_gun":
            return bool(u.moves == 0)
        return u.mp > 0 or (u.moves == 0 and self.factors(uid)[2] >= 1)

    def reach(self, uid: str, exploit: bool = False) -> dict[str, tuple[str, ...]]:
        """Every hex the unit can move to now, with one least-cost path to each."""
        u, c = self.u(uid), self.c(uid)
        key = ("reach", uid, exploit, u.hex, u.mp, u.moves, u.mode, u.supply,
               self.pos.late, self.turn, self.pos.phase, self.sig(other(c.side)),
               self.pos.turkey)
        hit = self._pcache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        start = u.hex
        out: dict[str, tuple[str, ...]] = {}
        if not self._can_move(uid, exploit):
            self._pcache[key] = out
            return out
        if c.type == "railroad_gun":
            # 16.2: along the railroad, never into an enemy unit or ZOC
            ez = self.zoc(AXIS if c.side == SOVIET else SOVIET)
            out = breadth_first(
                self.data.rail, start,
                step_ok=lambda _a, n: (n not in ez and not self.has_enemy(n, c.side)
                                       and self._may_enter_country(uid, n)))
            self._pcache[key] = out
            return out
        one_hex = u.moves == 0 and (u.mode == "one" or (not exploit and
                                                            self.factors(uid)[2] >= 1))
        mp = u.mp if u.mode != "one" else 0
        ez = self.zoc(other(c.side))
        if u.mode == "ovr":
            ez = ez - {start}  # 7.1: advancing out of an overrun hex leaves no ZOC (7.2.2)
        panzer = c.type in ("panzer", "ss_panzer") and not exploit
        policy = _POLICIES[(c.type not in ZOC_SHY, panzer)]
        water = self.data.water
        barred = self.barred_countries(uid)
        # everything the search below reads: the units of a stack that move alike share
        # it (the enemy's ZOC and hexes are functions of its units, sig)
        search = ("search", self._cost_key(uid), c.side, barred, policy, start, mp,
                  one_hex, u.mode == "ovr", self.sig(other(c.side)))
        shared = self._pcache.get(search)
        if shared is not None:
            self._pcache[key] = shared
            return shared  # type: ignore[no-any-return]
        blocked_key = ("move-blocked", c.side, barred)
        blocked: frozenset[str] | None = self._cache.get(blocked_key)
        if blocked is None:
            # the enemy's hexes and the countries the unit may not enter (5.2.1): one set
            # for every unit of a side and nation, tested in the kit's search loop
            blocked = self._cache[blocked_key] = self.occupied(other(c.side)) | barred
        found = reachable(
            self._move_costs(uid), start, mp, zoc=ez, policy=policy, blocked=blocked,
            can_end=lambda h: h not in water,  # no move ends on the ice (5.1.7)
            min_one_hex=one_hex)  # 5.1.3: may always move one hex
        # found.path_to of every end, each path its predecessor's and one more hex
        prev = found.prev
        paths: dict[str, tuple[str, ...]] = {start: (start,)}

        def path(h: str) -> tuple[str, ...]:
            got = paths.get(h)
            if got is None:
                got = paths[h] = (*path(prev[h]), h)
            return got
        out = {h: path(h) for h in found.ends}
        self._pcache[key] = self._pcache[search] = out
        return out

    def _path_cost(self, uid: str, path: tuple[str, ...], exploit: bool) -> int:
        """Validate a movement path step by step; the MP it costs (IllegalAction if not)."""
        u, c = self.u(uid), self.c(uid)
        if c.type == "railroad_gun":
            if path not in (self.reach(uid, exploit).get(path[-1]),) and not self._rail_path_ok(
                    uid, path):
                raise IllegalAction(f"{uid} moves only along connected Railroad hexes and never "
                                    "into an enemy ZOC", rule="5.1.6")
            return 0
        ignore = path[0] if u.mode == "ovr" else ""
        total = 0
        if path[-1] in self.data.water:
            # Soviet infantry cross the ice in Snow (5.1.7) but stop on land; others never
            # enter a Sea or Lake hex at all (prohibited terrain, 5.1)
            ice = self.snow and self._soviet_infantry(uid)
            raise IllegalAction("a move cannot end in a Sea or Lake hex",
                                rule="5.1.7" if ice else "5.1")
        for a, b in itertools.pairwise(path):
            if b not in self.data.all_neighbors.get(a, ()):
                raise IllegalAction(f"{a} and {b} are not adjacent", rule="5.1")
            step = self._step_cost(uid, a, b, exploit, ignore)
            if step is None:
                raise IllegalAction(self._why_not(uid, a, b, exploit), rule=self._why_rule(
                    uid, a, b))
            total += step
            ignore = ""
        one_hex = len(path) == 2 and u.moves == 0 and (
            u.mode == "one" or (not exploit and self.factors(uid)[2] >= 1))
        mp = u.mp if u.mode != "one" else 0
        if total > mp and not one_hex:
            raise IllegalAction(f"{uid} needs {total} MP for {' '.join(path)} but has {mp}",
                                rule="5.0")
        return min(total, mp)

    def _rail_path_ok(self, uid: str, path: tuple[str, ...]) -> bool:
        ez = self.zoc(other(self.c(uid).side))
        for a, b in itertools.pairwise(path):
            if b not in self.data.rail.get(a, ()) or b in ez or self.has_enemy(b, AXIS):
                return False
        return True

    def _why_not(self, uid: str, a: str, b: str, exploit: bool) -> str:
        c = self.c(uid)
        if self.has_enemy(b, c.side):
            return f"{b} holds enemy units; only an overrun attacks it (5.2.2)"
        if not self._may_enter_country(uid, b):
            return f"{c.name} may not enter {self.data.country_of(b).replace('_', ' ')} ({b})"
        if self._terrain_cost(uid, b) is None:
            return f"{b} is prohibited terrain for {uid}"
        if self._side_cost(uid, a, b) is None:
            return f"the hexside {a}/{b} cannot be crossed"
        ez = self.zoc(other(c.side))
        if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
            return f"{uid} cannot enter the enemy ZOC at {b}"
        return f"{uid} cannot move from one enemy ZOC hex ({a}) directly to another ({b})"

    def _why_rule(self, uid: str, a: str, b: str) -> str:
        c = self.c(uid)
        if self.has_enemy(b, c.side):
            return "5.2.2"
        if not self._may_enter_country(uid, b):
            return "5.2.1"
        if b in self.data.water:
            return "5.1"  # Sea and Lake are prohibited terrain (5.1, 5.1.3)
        if self._terrain_cost(uid, b) is None:
            return "5.1.5"  # High Mountain: German Mountain units only
        if self._side_cost(uid, a, b) is None:
            f = self.data.side_features(a, b)
            if "rail_bridge" in f:
                return "16.7"  # the Chongar bridge: Strategic Movement and supply only
            if "frozen_access" in f:
                return "5.1.7"
            if "out_of_play" in f:
                return "5.1.9"
            return "5.1"  # a Sea or Lake hexside
        ez = self.zoc(other(c.side))
        if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
            return "4.2.3"
        return "4.2"

    def _step4_types(self, side: str) -> tuple[str, ...]:
        """3.1 step 4 of each Movement Phase: the Axis "Move Air Base and Supply Base", the
        Soviet "Move Offensive Support units" (5.2.3: after all the other units)."""
        return ("air_base", "supply_base") if side == AXIS else ("offensive_support",)

    def _exploit_mp(self, uid: str) -> int:
        c, u = self.c(uid), self.u(uid)
        side = c.side
        if side == AXIS and c.type in ("panzer", "ss_panzer"):
            return self.factors(uid)[2]  # 5.4.1 full Movement Factor
        if side == SOVIET and c.type == "tank":
            return self.factors(uid)[2]  # 5.4.2
        one = {AXIS: ("infantry", "mountain", "supply_base", "allied_army", "turkish"),
               SOVIET: ("combined_arms", "guards", "shock")}[side]
        if c.type in one and not self.ezoc(side, u.hex):
            u.mode = "one"
            return 0
        u.mode = "done"
        return 0

    def _apply_move(self, a: Move, exploit: bool) -> None:
        uid = a.unit
        if uid not in self.pos.units or self.c(uid).side != self._side():
            raise IllegalAction(f"{uid} is not one of your units", rule="5.0")
        u = self.u(uid)
        if u.hex != a.path[0]:
            raise IllegalAction(f"{uid} is at {u.hex or 'no hex'}, not {a.path[0]}",
                                rule="5.0")
        if not self._can_move(uid, exploit):
            why = "5.4" if exploit else "5.0"
            if self._turn1_frozen(uid):
                why = "20.1"
            elif self.pos.late:
                why = self._late_rule(self.c(uid).side)
            elif u.mode in ("strat", "sea"):
                why = "5.3"
            raise IllegalAction(f"{uid} cannot move now", rule=why)
        cost = self._path_cost(uid, a.path, exploit)
        u.hex = a.path[-1]
        u.mp = max(0, u.mp - cost) if u.mode != "one" else 0
        u.moves = 1
        if u.mode in ("ovr", "one"):
            u.mode = "" if u.mode == "ovr" else "done"
        if self.c(uid).type in ("railroad_gun",):
            u.mode = "done"
        if u.mp == 0 and u.mode == "":
            u.mode = "done"
        if not exploit:
            # 3.1: regular movement is step 3, after Strategic Movement and Sea Transport
            self.pos.regular = True
            if self.c(uid).type in self._step4_types(self.c(uid).side):
                self.pos.late = True  # step 4 has begun
        self._touch()
        self._enter(uid, a.path[1:])
        self.say(f"{self.label(uid)} moves {' '.join(a.path)}", "move", a.path, [uid],
                 rule="5.4" if exploit else "5.1")

    # -- the movement phase's options ------------------------------------------------------

    def _move_options(self, t: MoveArgs) -> list[Action]:
        side = t.side
        exploit = t.exploit
        out: list[Action] = []
        for uid in sorted(self.on_map(side)):
            for _dest, path in sorted(self.reach(uid, exploit).items()):
                out.append(Move(uid, path))
        out += self._overrun_options(exploit)
        if not exploit:
            for uid in sorted(self.on_map(side)):
                if self._strategic_ok_unit(uid):
                    continue
                for dest, path in sorted(self._strategic_reach(uid).items()):
                    if dest in self.data.cities:
                        out.append(Strategic(uid, path))
            out += self._ship_options()
        out += self._baku_options(t)
        out.append(Word(DONE["exploit" if exploit else "move"]))
        return out
