"""The base every part of the For the Motherland! state builds on.

:class:`MotherlandCore` holds what all the rules read: the position's attributes, the
small accessors with their per-position cache (``_cache``, forgotten by ``_touch`` after
every change), the event log and the task queue's two primitives, and the few rule
facts several rule areas read (terrain cost and country limits of movement, turn 1's
frozen fronts, city control).  The rules themselves are mixins over this base; one that
calls another's rules inherits it (see ``engines/motherland/state.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from engines.hexkit.zoc import zoc_map
from engines.motherland import rules
from engines.motherland.const import AXIS, BLOCKING_SIDES, SOVIET, other
from engines.motherland.data import (
    ALLIED_NATIONS,
    CHIT_TYPES,
    CORPS_TYPES,
    Counter,
    GameData,
    ScenarioData,
)
from engines.motherland.position import Combat, Position, Unit
from pbem.engine import CHANCE, Event
from pbem.steps import Choice, Flow, Frame, Roll, StepState

_CITED = re.compile(r"\b\d+\.\d+(?:\.\d+)*")


class MotherlandCore(StepState[Position]):
    """What every rule reads: attributes, accessors, caches, events, queued frames."""

    data: GameData
    sc: ScenarioData
    _events: list[Event]
    #: frames the rules queued while a step acted, the next to run first
    #: (handed to the runtime by ``flush``)
    _pending: list[Frame]
    #: facts about the position as it stands, cleared by ``_touch`` after any change
    _cache: dict[Any, Any]
    #: results that are pure functions of their (full) keys, kept across changes
    _pcache: dict[Any, Any]

    # ================================================================================
    # small accessors
    # ================================================================================

    def c(self, uid: str) -> Counter:
        return self.data.counters[uid]

    def u(self, uid: str) -> Unit:
        return self.pos.units[uid]

    def fight(self) -> Combat:
        """The combat being resolved (the steps that read it run only inside one)."""
        assert self.pos.combat is not None, "no combat in progress"
        return self.pos.combat

    @property
    def turn(self) -> int:
        return self.pos.turn

    @property
    def weather(self) -> str:
        return self.data.turns[self.turn].weather

    @property
    def snow(self) -> bool:
        return self.weather == "snow"

    @property
    def mud(self) -> bool:
        return self.weather == "mud"

    def first_side(self) -> str:
        """3.0: the Axis moves first on turns 1-11, the Soviets on turns 12-22."""
        if self.turn in self.sc.rules.get("axis_first_turns", ()):
            return AXIS  # 20.5 rule 2 (a stand-in, see the scenario file)
        return AXIS if self.turn <= 11 else SOVIET

    def phases(self) -> list[tuple[str, str]]:
        a = self.first_side()
        b = other(a)
        return [("supply", ""), ("move", a), ("combat", a), ("exploit", a), ("move", b),
                ("combat", b), ("admin", "")]

    def phase(self) -> tuple[str, str]:
        phases = self.phases()
        index = self.pos.phase
        # past the last phase of the last turn the game is over (the view still works)
        return phases[index] if index < len(phases) else ("over", "")

    def on_map(self, side: str | None = None) -> list[str]:
        # asked thousands of times per file while every counter of the game (most of
        # them off the map) sits in s["units"]: kept until the next change
        key = ("on_map", side)
        hit: tuple[str, ...] | None = self._cache.get(key)
        if hit is None:
            hit = tuple(uid for uid, u in self.pos.units.items()
                        if u.hex and (side is None or self.c(uid).side == side))
            self._cache[key] = hit
        return list(hit)

    def occ(self) -> dict[str, list[str]]:
        hit = self._cache.get("occ")
        if hit is None:
            hit = {}
            for uid, u in self.pos.units.items():
                if u.hex:
                    hit.setdefault(u.hex, []).append(uid)
            self._cache["occ"] = hit
        return hit

    def _touch(self) -> None:
        """Forget every cached fact about the position (call after any change)."""
        self._cache.clear()
        if len(self._pcache) > 20_000:
            self._pcache.clear()

    def sig(self, side: str) -> str:
        """Where ``side``'s units are: the key of caches that depend on them only."""
        key = ("sig", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = "|".join(sorted(f"{x}@{self.pos.units[x].hex}" for x in self.on_map(side)))
            self._cache[key] = hit
        return str(hit)

    def occupied(self, side: str) -> frozenset[str]:
        """Hexes holding at least one of ``side``'s units."""
        key = ("occupied", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = frozenset(self.pos.units[x].hex for x in self.on_map(side))
            self._cache[key] = hit
        return hit

    def units_at(self, h: str, side: str | None = None) -> list[str]:
        return [x for x in self.occ().get(h, []) if side is None or self.c(x).side == side]

    def has_enemy(self, h: str, side: str) -> bool:
        return h in self.occupied(SOVIET if side == AXIS else AXIS)

    def has_friend(self, h: str, side: str) -> bool:
        return h in self.occupied(side)

    def zoc(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of ``side``'s units (4.1): not across sea, lake, out-of-play
        hexsides or the Chongar rail bridge (16.7)."""
        key = ("zoc", side)
        hit = self._cache.get(key)
        if hit is None:
            # a function of where side's units stand (which exert a ZOC is fixed by type):
            # kept across the other side's moves, which would otherwise recompute it
            lasting = ("zoc", self.sig(side))
            hit = self._pcache.get(lasting)
            if hit is None:
                water = self.data.water
                hit = zoc_map(self.data.hexmap,
                              [(uid, self.u(uid).hex) for uid in self.on_map(side)
                               if self.c(uid).exerts_zoc],
                              blocking_sides=BLOCKING_SIDES,
                              blocks=lambda _h, n: n in water).hexes  # land hexes only
                self._pcache[lasting] = hit
            self._cache[key] = hit
        return hit

    def ezoc(self, side: str, h: str) -> bool:
        return h in self.zoc(other(side))

    def steps_of(self, uid: str) -> int:
        return int(self.u(uid).steps)

    def factors(self, uid: str) -> tuple[int, int, int]:
        """Attack, defense, movement after supply effects (9.5) and chits (11.0)."""
        c, u = self.c(uid), self.u(uid)
        if c.type in CHIT_TYPES:
            mf = c.factors[0][2]
            chit = self.data.chits.get(u.chit)
            if chit is None:
                a, d = 0, 0
            else:
                a, d = chit.front if u.steps >= 2 else chit.back
            if c.type == "fortress":
                a = 0  # 8.3.6, 11.3.1
        else:
            idx = max(0, len(c.factors) - u.steps)
            a, d, mf = c.factors[min(idx, len(c.factors) - 1)]
        if u.supply in ("lack", "out"):
            a, mf = rules.half_up(a), rules.half_up(mf)
        if u.supply == "out":
            d = rules.half_up(d)
        return a, d, mf

    def label(self, uid: str) -> str:
        c, u = self.c(uid), self.u(uid)
        if c.type in CORPS_TYPES and u.steps == 1:
            return f"{uid}(KG)"
        if c.type == "allied_army" and u.steps == 1:
            return f"{uid}*"
        return uid

    def say(self, text: str, kind: str = "info", hexes: Iterable[str] = (),
            units: Iterable[str] = (), rule: str = "") -> None:
        self._events.append(Event(text, kind, (), tuple(hexes), tuple(units), rule))

    @staticmethod
    def cited(text: str) -> str:
        """The first rule number a reason cites ("cannot trace a Supply Line (9.1.1)"), for
        events whose reason comes from the caller."""
        found = _CITED.search(text)
        return found.group(0) if found else ""

    def is_allied(self, uid: str) -> bool:
        return self.c(uid).nation in ALLIED_NATIONS

    def german(self, uid: str) -> bool:
        return self.c(uid).nation == "german"

    # ================================================================================
    # what several rules read: who may enter where at what cost (5.1, 5.2.1),
    # turn 1's frozen fronts (20.1), unit classes, city control (19.1)
    # ================================================================================

    def _turn1_frozen(self, uid: str) -> bool:
        """20.1 rule 2: units in Romania and Finland cannot move or attack on turn 1."""
        return bool(self.turn == 1 and self.sc.rules.get("turn1_rules")
                    and self.c(uid).side == AXIS
                    and self.data.country_of(self.u(uid).hex) in ("romania", "finland"))

    def _may_enter_country(self, uid: str, h: str) -> bool:
        """5.2.1 movement restrictions by country."""
        c = self.c(uid)
        country = self.data.country_of(h)
        if c.side == SOVIET:
            return country != "turkey" or self.pos.turkey
        if c.nation == "german":
            return country != "finland"  # 5.2.1 bars the Germans from Finland only
        allowed = {"romanian": "romania", "hungarian": "hungary", "italian": "germany",
                   "finnish": "finland", "turkish": "turkey"}
        return country in ("soviet_union", allowed.get(c.nation, ""))

    def _costed_types(self) -> frozenset[str]:
        """The unit types :meth:`_terrain_cost` and the movement costs read in any weather:
        5.1.5's mountain units and the types a terrain admits alone (5.1.7's Soviet
        infantry only on Snow)."""
        hit: frozenset[str] | None = self._cache.get("costed_types")
        if hit is None:
            hit = frozenset({"mountain"} | {
                t.prohibited_except for t in self.data.tec.values() if t.prohibited_except})
            self._cache["costed_types"] = hit
        return hit

    def barred_countries(self, uid: str) -> frozenset[str]:
        """The hexes :meth:`_may_enter_country` bars ``uid`` from (5.2.1), gathered once
        for each side, nation and Turkey's entry: a search asks it of every hex it
        reaches (issue 35 item 5)."""
        c = self.c(uid)
        lasting = ("barred", c.side, c.nation, self.pos.turkey)
        hit: frozenset[str] | None = self._pcache.get(lasting)
        if hit is None:
            # a hex outside every named country is the Soviet Union's, open to every unit
            hit = frozenset(h for h in self.data.country
                            if not self._may_enter_country(uid, h))
            self._pcache[lasting] = hit
        return hit

    def _terrain_cost(self, uid: str, h: str) -> int | None:
        """The MP ``uid`` pays to enter ``h`` by the TEC (5.1), None where it may not."""
        c = self.c(uid)
        if h in self.data.water:
            return None
        name = self.data.hexmap.terrain.get(h, "clear")
        if name == "swamp" and self.snow:
            name = "woods"  # 5.1.8, 18.2.1
        ter = self.data.tec.get(name) or self.data.tec["clear"]
        if ter.prohibited_except:
            if c.type != ter.prohibited_except:
                return None  # 5.1.5 High Mountain
            return ter.leg
        cost = ter.mech if c.mech else ter.leg
        if c.type == "mountain" and name == "mountain":
            cost = max(1, cost - 1)  # 5.1.5
        return cost

    def _soviet_infantry(self, uid: str) -> bool:
        """Combined Arms, Guards and Shock armies: the Soviet infantry that crosses Frozen
        Access hexsides on Snow Turns (5.1.7, 8.4.3, 9.2.1)."""
        return self.c(uid).type in ("combined_arms", "guards", "shock")

    def controls(self, side: str, h: str) -> bool:
        """Whether ``side`` controls the city or port ``h`` (19.1)."""
        mark: str | None = self.pos.control.get(h)
        if self.data.country_of(h) == "soviet_union":
            return (mark == AXIS) if side == AXIS else (mark != AXIS)
        return (mark != SOVIET) if side == AXIS else (mark == SOVIET)

    # ================================================================================
    # queued work
    # ================================================================================

    def _push(self, *frames: Frame) -> None:
        """Queue ``frames`` to run next, in this order, before any queued earlier."""
        self._pending[0:0] = list(frames)

    def _push_frame(self, step: str, args: Any) -> None:
        self._push(Frame(step, args))

    def flush(self, flow: Flow) -> None:
        """Hand the queued frames to the runtime (every step does once it has acted)."""
        for frame in self._pending:
            flow.push(frame.step, frame.args)
        self._pending = []

    def _side(self) -> str:
        """Who the current step waits for ("" between steps)."""
        if not self.stack:
            return ""
        step, frame = self.step(), self.stack[-1]
        if isinstance(step, Roll):
            return CHANCE
        return step.side(self, frame.args) if isinstance(step, Choice) else ""
