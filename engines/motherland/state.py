"""The For the Motherland! state machine.

The position is plain canonical data (``self.s``); the rules are methods.  Control
flow is a queue of *tasks* (``self.s["tasks"]``): each either waits for a side's
choice, waits for a chance outcome, or is an automatic step run at once.  A phase
pushes its tasks when it starts; a combat pushes its chit draws, its die roll and each
side's result, retreat and advance.  ``_current_player`` is the first task's actor, so
every decision of the non-phasing player inside the phasing player's turn (results,
retreats, advances, General chits, over-stacking eliminations, partisan markers,
isolation losses) is simply a task whose actor is that player.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterable
from typing import Any

from engines.hexkit.retreat import retreat_options
from engines.motherland import rules, search
from engines.motherland.actions import (
    Advance,
    Attack,
    Move,
    Overrun,
    Retreat,
    Strategic,
    Take,
    Word,
    parse,
)
from engines.motherland.const import (
    _NO_STRATEGIC,
    AXIS,
    BAKU_ENTRY,
    BLOCKING_SIDES,
    DANZIG,
    DONE,
    HELSINKI,
    KONIGSBERG,
    LENINGRAD,
    MOSCOW,
    NOVOROSSIYSK,
    ODESSA,
    SEVASTOPOL,
    SIDES,
    SOVIET,
    TUAPSE,
    TURKEY_ENTRY,
    other,
)
from engines.motherland.data import (
    ALLIED_NATIONS,
    ARMOR_TYPES,
    CHIT_TYPES,
    CORPS_TYPES,
    SOVIET_ARMY_TYPES,
    Counter,
    GameData,
)
from pbem.engine import (
    CHANCE,
    Action,
    ChanceRequest,
    Decision,
    Event,
    Result,
    Snapshot,
    State,
    copy_data,
)
from pbem.errors import IllegalAction
from pbem.view import BoardView

# the shared names moved to const.py; importers of this module keep finding them here
__all__ = [
    "AXIS", "BAKU_ENTRY", "BLOCKING_SIDES", "DANZIG", "DONE", "HELSINKI", "KONIGSBERG",
    "LENINGRAD", "MOSCOW", "NOVOROSSIYSK", "ODESSA", "SEVASTOPOL", "SIDES", "SOVIET", "TUAPSE",
    "TURKEY_ENTRY", "_NO_STRATEGIC", "MotherlandState", "other",
]


class MotherlandState(State):
    """One position of For the Motherland!."""

    data: GameData
    s: dict[str, Any]

    def __init__(self, engine: Any, scenario: str, options: dict[str, str], data: GameData,
                 body: dict[str, Any] | None = None) -> None:
        super().__init__(engine, scenario, options)
        self.data = data
        self.sc = data.scenarios[scenario]
        self._events: list[Event] = []
        self._cache: dict[Any, Any] = {}
        #: results that are pure functions of their (full) keys, kept across changes
        self._pcache: dict[Any, Any] = {}
        if body is not None:
            self.s = body
            return
        self.s = self._setup()
        self._run()

    def clone(self) -> State:
        """A copy for the session's working position: the data and the pure-function
        cache are shared (both hold only facts that never change), the body is copied."""
        twin = object.__new__(MotherlandState)
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin._events = list(self._events)
        twin._cache = {}
        twin.s = copy_data(self.s)
        return twin

    # ================================================================================
    # setup
    # ================================================================================

    def _setup(self) -> dict[str, Any]:
        d, sc = self.data, self.sc
        units: dict[str, dict[str, Any]] = {}

        def blank(uid: str) -> dict[str, Any]:
            c = d.counters[uid]
            return {"hex": "", "box": "out", "steps": c.max_steps, "chit": "", "sup": "",
                    "mp": 0, "mv": 0, "mode": "", "atk": False, "dfd": False, "rin": False,
                    "ret": 0, "back": False, "start": ""}

        for uid in sorted(d.counters):
            units[uid] = blank(uid)
        for uid, h in (*sc.axis, *sc.soviet):
            units[uid].update(hex=h, box="")
        eliminated_assets = list(sc.eliminated_assets)
        for uid in eliminated_assets:
            units[uid]["box"] = "assets"
        # Scheduled reinforcements from the scenario's first turn on (17.0, 17.2).
        for t in range(sc.first, sc.last + 1):
            info = d.turns[t]
            for uid in (*info.axis, *info.soviet):
                if units[uid]["box"] == "out" and units[uid]["hex"] == "":
                    units[uid].update(box="track", ret=t)
        # Offensive Support units not set up wait in the OSM Waiting Box (13.0).
        for uid, c in d.counters.items():
            if c.type == "offensive_support" and units[uid]["box"] == "out":
                units[uid]["box"] = "osm"
        # Cups (11.0): starred chits at setup, unstarred ones as they arrive.
        cups: dict[str, list[str]] = {"A": [], "B": [], "C": []}
        for cid, chit in sorted(d.chits.items()):
            cups[chit.letter] += [cid] * chit.setup
        for t in range(1, sc.first):
            for cid in d.turns[t].chits:
                cups[cid[0]].append(cid)
        for k in cups:
            cups[k].sort()
        generals = {g: "ready" for t, info in sorted(d.turns.items())
                    if t < sc.first and (g := info.general)}
        partisans = {p: "" for t, info in sorted(d.turns.items())
                     if t < sc.first and (p := info.partisan)}
        air_total = 5 - sum(1 for t in range(1, sc.first) if d.turns[t].air_withdrawal)
        control: dict[str, str] = {h: AXIS for h in sc.axis_control}
        control.update({h: SOVIET for h in sc.soviet_recaptured})
        # Cities the Soviets hold outside the Soviet Union at the start carry no marker;
        # Axis-held Soviet cities are marked (19.1).
        s: dict[str, Any] = {
            "turn": sc.first, "phase": 0, "units": units, "cups": cups, "removed_chits": [],
            "control": dict(sorted(control.items())), "generals": generals,
            "partisans": partisans, "air": {"total": air_total, "used": 0},
            "stalin": "moscow", "stalin_rolled": False, "surrender_rolled": False,
            "eliminated_assets": eliminated_assets, "baku_done": False, "turkey": False,
            "tasks": [], "combat": None, "result": None, "sea_used": False,
            "late": False, "ever_entered": [],
        }
        self.s = s
        for uid, u in sorted(units.items()):
            if u["hex"]:
                self._claim(uid, u["hex"], quiet=True)
        self._push_phase()
        return s

    # ================================================================================
    # small accessors
    # ================================================================================

    def c(self, uid: str) -> Counter:
        return self.data.counters[uid]

    def u(self, uid: str) -> dict[str, Any]:
        return self.s["units"][uid]  # type: ignore[no-any-return]

    @property
    def turn(self) -> int:
        return int(self.s["turn"])

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
        index = int(self.s["phase"])
        # past the last phase of the last turn the game is over (the view still works)
        return phases[index] if index < len(phases) else ("over", "")

    def on_map(self, side: str | None = None) -> list[str]:
        # asked thousands of times per file while every counter of the game (most of
        # them off the map) sits in s["units"]: kept until the next change
        key = ("on_map", side)
        hit: tuple[str, ...] | None = self._cache.get(key)
        if hit is None:
            hit = tuple(uid for uid, u in self.s["units"].items()
                        if u["hex"] and (side is None or self.c(uid).side == side))
            self._cache[key] = hit
        return list(hit)

    def occ(self) -> dict[str, list[str]]:
        hit = self._cache.get("occ")
        if hit is None:
            hit = {}
            for uid, u in self.s["units"].items():
                if u["hex"]:
                    hit.setdefault(u["hex"], []).append(uid)
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
            hit = "|".join(sorted(f"{x}@{self.s['units'][x]['hex']}" for x in self.on_map(side)))
            self._cache[key] = hit
        return str(hit)

    def occupied(self, side: str) -> frozenset[str]:
        """Hexes holding at least one of ``side``'s units."""
        key = ("occupied", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = frozenset(self.s["units"][x]["hex"] for x in self.on_map(side))
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
            out: set[str] = set()
            for uid in self.on_map(side):
                if not self.c(uid).exerts_zoc:
                    continue
                h = self.u(uid)["hex"]
                for n in self.data.neighbors[h]:
                    if not (self.data.side_features(h, n) & BLOCKING_SIDES):
                        out.add(n)
            hit = frozenset(out)
            self._cache[key] = hit
        return hit

    def ezoc(self, side: str, h: str) -> bool:
        return h in self.zoc(other(side))

    def steps_of(self, uid: str) -> int:
        return int(self.u(uid)["steps"])

    def factors(self, uid: str) -> tuple[int, int, int]:
        """Attack, defense, movement after supply effects (9.5) and chits (11.0)."""
        c, u = self.c(uid), self.u(uid)
        if c.type in CHIT_TYPES:
            mf = c.factors[0][2]
            chit = self.data.chits.get(u["chit"])
            if chit is None:
                a, d = 0, 0
            else:
                a, d = chit.front if u["steps"] >= 2 else chit.back
            if c.type == "fortress":
                a = 0  # 8.3.6, 11.3.1
        else:
            idx = max(0, len(c.factors) - u["steps"])
            a, d, mf = c.factors[min(idx, len(c.factors) - 1)]
        if u["sup"] in ("lack", "out"):
            a, mf = rules.half_up(a), rules.half_up(mf)
        if u["sup"] == "out":
            d = rules.half_up(d)
        return a, d, mf

    def label(self, uid: str) -> str:
        c, u = self.c(uid), self.u(uid)
        if c.type in CORPS_TYPES and u["steps"] == 1:
            return f"{uid}(KG)"
        if c.type == "allied_army" and u["steps"] == 1:
            return f"{uid}*"
        return uid

    def say(self, text: str, kind: str = "info", hexes: Iterable[str] = (),
            units: Iterable[str] = ()) -> None:
        self._events.append(Event(text, kind, (), tuple(hexes), tuple(units)))

    def is_allied(self, uid: str) -> bool:
        return self.c(uid).nation in ALLIED_NATIONS

    def german(self, uid: str) -> bool:
        return self.c(uid).nation == "german"

    # ================================================================================
    # the task queue
    # ================================================================================

    def _push(self, *tasks: dict[str, Any], front: bool = True) -> None:
        if front:
            self.s["tasks"][0:0] = list(tasks)
        else:
            self.s["tasks"].extend(tasks)

    def _top(self) -> dict[str, Any] | None:
        return self.s["tasks"][0] if self.s["tasks"] else None

    def _run(self) -> None:
        """Run automatic tasks until a side or chance must act, or the game is over."""
        guard = 0
        while self.s["result"] is None:
            guard += 1
            if guard > 100_000:  # pragma: no cover - a bug, not a position
                raise RuntimeError("task loop does not settle")
            t = self._top()
            if t is None:
                self._next_phase()
                continue
            if "who" in t:
                if self._auto_resolve(t):
                    continue
                return
            self.s["tasks"].pop(0)
            getattr(self, "_do_" + t["k"])(t)

    def _auto_resolve(self, t: dict[str, Any]) -> bool:
        """Drop a waiting task that has nothing left to decide (or decide a forced one)."""
        if t["who"] == CHANCE:
            if t["k"] != "draw":
                return False
            # a queued draw meets the cup as it is now: earlier draws may have emptied it
            uid, cup = t["unit"], self.s["cups"][t["letter"]]
            if not self.u(uid)["hex"] or (self.u(uid)["chit"] and t["rule"] != "16.5"):
                self.s["tasks"].pop(0)
                return True
            if not cup:
                self.s["tasks"].pop(0)
                fallback = self.data.empty_cup[t["letter"]]
                self.u(uid).update(chit=fallback, steps=2)
                self.say(f"Cup {t['letter']} is empty: {uid} takes the stand-in chit {fallback}")
                self._touch()
                return True
            t["count"] = min(t["count"], len(cup))
            return False
        k = t["k"]
        if k in ("lose", "isolation", "partisan_oos", "stack", "baku_factories"):
            opts = self._task_options(t)
            if not opts:
                self.s["tasks"].pop(0)
                return True
            if len(opts) == 1:
                self._apply_word(t, opts[0].notation())
                return True
        if k == "retreat":
            return self._retreat_auto(t)
        if k == "take":
            opts = self._task_options(t)
            if len(opts) == 1:
                assert isinstance(opts[0], Take)
                self._apply_take(t, opts[0])
                return True
        if k in ("advance", "generals", "airsupply", "expend", "partisan_place", "convert",
                 "combine", "replace", "evacuate", "reinf", "produce", "keep"):
            opts = self._task_options(t)
            if not opts:
                self.s["tasks"].pop(0)
                return True
            if len(opts) == 1 and k not in ("produce", "keep"):
                only = opts[0].notation()
                if only.startswith("end "):
                    self.s["tasks"].pop(0)
                    if k == "reinf":
                        self._reinf_leftover()
                else:  # a forced choice (10.2 a marker with one Supply Base to go to)
                    self._apply_word(t, only)
                return True
        return False

    # ================================================================================
    # phases
    # ================================================================================

    def _push_phase(self) -> None:
        name, side = self.phase()
        self.say(f"Turn {self.turn} ({self.data.turns[self.turn].date}, {self.weather}): "
                 f"{self._phase_title()}", "phase")
        if name == "supply":
            self._push(*self._supply_tasks(), front=False)
        elif name == "move":
            for uid in self.on_map(side):
                u = self.u(uid)
                u.update(mv=0, mode="", mp=self.factors(uid)[2], start=u["hex"])
            self.s["sea_used"] = False
            self.s["late"] = False
            self._push({"k": "call", "fn": "arrivals", "side": side},
                       {"k": "reinf", "who": side},
                       {"k": "move", "who": side, "exploit": False}, front=False)
        elif name == "combat":
            for uid in self.on_map():
                self.u(uid).update(atk=False, dfd=False, rin=False)
            self._push({"k": "combat", "who": side}, front=False)
        elif name == "exploit":
            self.s["late"] = False
            for uid in self.on_map(side):
                u = self.u(uid)
                u.update(mv=0, mode="", start=u["hex"])
                u["mp"] = self._exploit_mp(uid)  # may set mode "one" or "done" (5.4)
            self._push({"k": "move", "who": side, "exploit": True}, front=False)
        else:
            self._push(*self._admin_tasks(), front=False)
        self._push({"k": "call", "fn": "stacking"}, front=False)

    def _phase_title(self) -> str:
        name, side = self.phase()
        titles = {"supply": "Mutual Supply Phase", "admin": "Administrative Phase",
                  "move": f"{side.title()} Movement Phase",
                  "combat": f"{side.title()} Combat Phase",
                  "exploit": f"{side.title()} Exploitation Movement Phase",
                  "over": "game over"}
        return titles[name]

    def _next_phase(self) -> None:
        self.s["phase"] += 1
        if self.s["phase"] >= len(self.phases()):
            if self.turn >= self.sc.last:
                self._end_game()
                return
            self.s["turn"] += 1
            self.s["phase"] = 0
        self._push_phase()

    def _do_call(self, t: dict[str, Any]) -> None:
        getattr(self, "_call_" + t["fn"])(t)

    # ================================================================================
    # control of cities (19.1), Stalin (16.6)
    # ================================================================================

    def _claim(self, uid: str, h: str, quiet: bool = False) -> None:
        """A unit enters or passes through ``h``: city and port control (19.1, 19.1.1)."""
        if h not in self.data.cities:
            return
        side = self.c(uid).side
        control = self.s["control"]
        soviet_land = self.data.country_of(h) == "soviet_union"
        before = control.get(h)
        if side == AXIS:
            if soviet_land:
                control[h] = AXIS
            elif before == SOVIET:
                del control[h]
            if h == MOSCOW and not quiet and self.s["stalin"] == "moscow" and before != AXIS:
                self._push({"k": "roll", "who": CHANCE, "then": "stalin", "rule": "16.6",
                            "purpose": "Stalin's escape (16.6): 1-4 escapes, 5-6 killed"})
        else:
            if soviet_land and before == AXIS:
                control[h] = SOVIET
                if not quiet:
                    self.say(f"The Soviets recapture {self.data.hex_name(h)} (19.1.1)", "info",
                             [h])
                if h == MOSCOW and self.s["stalin"] == "evacuated":
                    self.s["stalin"] = "moscow"
                    self.say("Stalin returns to Moscow (16.6)", "info", [h])
            elif not soviet_land:
                control[h] = SOVIET
        self.s["control"] = dict(sorted(control.items()))

    def controls(self, side: str, h: str) -> bool:
        """Whether ``side`` controls the city or port ``h`` (19.1)."""
        mark: str | None = self.s["control"].get(h)
        if self.data.country_of(h) == "soviet_union":
            return (mark == AXIS) if side == AXIS else (mark != AXIS)
        return (mark != SOVIET) if side == AXIS else (mark == SOVIET)

    def _on_stalin(self, t: dict[str, Any], roll: int) -> None:
        if roll <= 4:
            self.s["stalin"] = "evacuated"
            self.say(f"Stalin escapes from Moscow (16.6, rolled {roll})", "info", [MOSCOW])
        else:
            self.s["stalin"] = "dead"
            self.say(f"Stalin is killed in Moscow (16.6, rolled {roll})", "info", [MOSCOW])
        first = not self.s["stalin_rolled"]
        self.s["stalin_rolled"] = True
        if (roll > 4 and first and self.sc.rules.get("stalin_surrender_roll")
                and not self.s["surrender_rolled"]):
            self.s["surrender_rolled"] = True
            self._push({"k": "roll", "who": CHANCE, "then": "surrender", "rule": "20.2 rule 4",
                        "purpose": "Soviet surrender after Stalin's death (+1 if the Axis hold "
                                   "Leningrad)"})

    def _on_surrender(self, t: dict[str, Any], roll: int) -> None:
        mod = 1 if self.controls(AXIS, LENINGRAD) else 0
        total = roll + mod
        if total >= 6:
            self._finish(AXIS, f"the Soviet Union surrenders (rolled {roll}+{mod})",
                         "Axis Strategic Victory")
        elif total >= 4:
            back = sorted(self.s["removed_chits"])
            for cid in back:
                self.s["cups"][cid[0]].append(cid)
            for k in self.s["cups"]:
                self.s["cups"][k].sort()
            self.s["removed_chits"] = []
            self.say(f"The will to fight declines: {len(back)} starred chits return to the "
                     f"cups (rolled {roll}+{mod})")
        else:
            self.say(f"No surrender (rolled {roll}+{mod})")

    # ================================================================================
    # supply (9.0)
    # ================================================================================

    def _supply_tasks(self) -> list[dict[str, Any]]:
        return [{"k": "call", "fn": "supply_start"},
                {"k": "expend", "who": AXIS},
                {"k": "call", "fn": "supply_status"},
                {"k": "airsupply", "who": AXIS},
                {"k": "call", "fn": "partisan_effects"},
                {"k": "partisan_place", "who": SOVIET, "moved": []},
                {"k": "call", "fn": "isolation"},
                {"k": "call", "fn": "remove_expended"}]

    def _call_supply_start(self, t: dict[str, Any]) -> None:
        info = self.data.turns[self.turn]
        if info.air_withdrawal and self.s["air"]["total"] > 0 and self.turn > self.sc.first - 1:
            self.s["air"]["total"] -= 1
            self.say("The Axis withdraws one German Air Unit (14.0)")
        if info.chits and self.turn > self.sc.first - 1:
            for cid in info.chits:
                self.s["cups"][cid[0]].append(cid)
            for k in self.s["cups"]:
                self.s["cups"][k].sort()
            self.say(f"{len(info.chits)} Strength Chits join the cups (17.3)")
        if info.general and info.general not in self.s["generals"]:
            self.s["generals"][info.general] = "ready"
            self.say(f"General {info.general} arrives (16.5)")
        if info.partisan and info.partisan not in self.s["partisans"]:
            self.s["partisans"][info.partisan] = ""
            self.say(f"Partisan marker {info.partisan} arrives (10.0)")
        self.s["generals"] = dict(sorted(self.s["generals"].items()))
        self.s["partisans"] = dict(sorted(self.s["partisans"].items()))
        self.s["expended"] = []
        # 9.6.1 note, judged as the phase begins (see _sea_supply)
        self.s["odessa_closed"] = any(self.c(uid).side == AXIS
                                      for uid in self.occ().get(SEVASTOPOL, []))

    def _blocked(self, side: str) -> frozenset[str]:
        """Hexes a supply line of ``side`` cannot enter (9.2)."""
        key = ("blocked", side)
        hit = self._cache.get(key)
        if hit is None:
            enemy = other(side)
            ez = self.zoc(enemy)
            out = set()
            for h in self.data.land:
                if self.has_enemy(h, side) or (h in ez and not self.has_friend(h, side)):
                    out.add(h)
            for h, mark in self.s["control"].items():
                if mark == enemy and not self.has_friend(h, side):
                    out.add(h)
            hit = frozenset(out)
            self._cache[key] = hit
        return hit

    def _passable(self, a: str, b: str) -> bool:
        return not (self.data.side_features(a, b) & {"sea", "lake", "out_of_play"})

    def _spread(self, starts: dict[str, int], blocked: frozenset[str],
                nbrs: dict[str, tuple[str, ...]] | None = None) -> dict[str, int]:
        """Multi-source search: hex -> the most budget left on reaching it."""
        if nbrs is None:
            nbrs = self.data.open_neighbors
        return search.spread(starts, blocked, nbrs)

    def _rail_from(self, starts: Iterable[str], blocked: frozenset[str]) -> set[str]:
        return search.rail_from(self.data.rail, starts, blocked)

    def supply_net(self, side: str, net: str = "") -> tuple[dict[str, int], dict[str, int],
                                                            set[str]]:
        """(hexes within a supply line, hexes with a line of any length, connected rail).

        ``net`` is ``""`` for the side's main network, ``"F"`` for the Finns (9.3.1),
        ``"T"`` for the Turks (21.2.2).
        """
        key = ("net", side, net)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        blocked = self._blocked(side)
        big = 10_000
        if side == AXIS:
            if net == "F":
                sources = set() if self.s["control"].get(HELSINKI) == SOVIET else set(
                    self.data.area("source_F"))
            elif net == "T":
                sources = set(self.data.area("turkey_source") or {"1535", "1634", "1735"})
            else:
                sources = set(self.data.area("source_W") | self.data.area("source_H")
                              | self.data.area("source_R"))
            rail_ok = self._rail_from(sources, blocked)
            starts = {h: 4 for h in sources if h in self.data.hexmap}
            far = {h: big for h in starts}
            if net == "":
                for uid in self.on_map(AXIS):
                    if self.c(uid).type != "supply_base":
                        continue
                    h = self.u(uid)["hex"]
                    expended = uid in self.s.get("expended", [])
                    if h in rail_ok or expended:
                        partisan = h in self.s["partisans"].values()
                        radius = 3 if (expended and partisan) else 4  # 10.3
                        starts[h] = max(starts.get(h, 0), radius)
                        far[h] = big
        else:
            sources = set(self.data.area("source_E") | self.data.area("source_S"))
            rail_ok = self._rail_from(sources, blocked)
            starts = {h: 4 for h in sources | rail_ok}
            far = {h: big for h in starts}
        nbrs = self.data.ice_neighbors if net == "ice" else None  # 9.2.1
        near = self._spread(starts, blocked, nbrs)
        anylen = self._spread(far, blocked, nbrs)
        hit = (near, anylen, rail_ok)
        self._cache[key] = hit
        return hit

    def _sea_supply(self, side: str) -> dict[str, int]:
        """9.6: two-hex lines to the side's own ports of a sea it supplies by ship."""
        key = ("sea", side)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        _, _, rail_ok = self.supply_net(side)
        ports = self.data.ports
        bodies: list[str] = []
        if side == AXIS:
            pairs = {"black": (ODESSA, SEVASTOPOL), "baltic": (DANZIG, KONIGSBERG)}  # 9.6.1-2
            bodies = [body for body, both in pairs.items()
                      if all(self.controls(AXIS, p) and p in rail_ok for p in both)]
        elif any(self.controls(SOVIET, p) and p in rail_ok for p in (TUAPSE, NOVOROSSIYSK)):
            bodies = ["black"]  # 9.6.3
        # a line is traced to a port of one's own (5.5: ports are controlled like cities);
        # the Sea of Azov is a body of its own and never counts (9.6.1, 9.6.3)
        starts = {h: 2 for h, b in ports.items() if b in bodies and self.controls(side, h)}
        if side == SOVIET and self.s.get("odessa_closed") and \
                not self.controls(SOVIET, SEVASTOPOL):
            # 9.6.1 note: an Axis unit in Sevastopol as the Mutual Supply Phase began shuts
            # Odessa to Soviet sea supply until the Soviets recapture Sevastopol
            starts.pop(ODESSA, None)
        hit = self._spread(starts, self._blocked(side)) if starts else {}
        self._cache[key] = hit
        return hit

    def in_supply(self, uid: str) -> bool:
        """Whether the unit can trace a Supply Line now (9.2-9.4, 9.6)."""
        c, h = self.c(uid), self.u(uid)["hex"]
        if c.type in ("supply_base", "economic"):
            return True  # 9.1 note, 12.0
        if c.side == AXIS:
            if c.nation == "finnish":
                return h in self.supply_net(AXIS, "F")[0]
            if c.nation == "turkish":
                return h in self.supply_net(AXIS, "T")[0]
            near, anylen, _ = self.supply_net(AXIS)
            if h in near:
                return True
            if h in anylen and self._soviet_distance(h) >= 6:  # 9.3.3
                return True
            if c.nation == "german" and c.type not in ("air_base",):
                return h in self._sea_supply(AXIS)
            return False
        near, _, _ = self.supply_net(SOVIET)
        if h in near:
            return True
        if self.snow and self._soviet_infantry(uid) and h in self.supply_net(SOVIET, "ice")[0]:
            return True  # 9.2.1 across Frozen Access
        return c.type != "offensive_support" and h in self._sea_supply(SOVIET)

    def isolated(self, uid: str) -> bool:
        """9.1.3: Out of Supply and no Supply Line of any length."""
        c, h = self.c(uid), self.u(uid)["hex"]
        if self.u(uid)["sup"] != "out":
            return False
        if c.side == AXIS:
            net = "F" if c.nation == "finnish" else "T" if c.nation == "turkish" else ""
            return h not in self.supply_net(AXIS, net)[1]
        net = "ice" if self.snow and self._soviet_infantry(uid) else ""
        return h not in self.supply_net(SOVIET, net)[1]

    def _soviet_distance(self, h: str) -> int:
        """Hexes to the nearest Soviet unit not Out of Supply (9.3.3)."""
        grid = self.data.hexmap.grid
        best = 99
        for uid in self.on_map(SOVIET):
            if self.u(uid)["sup"] == "out" or self.c(uid).type == "economic":
                continue
            best = min(best, grid.distance(h, self.u(uid)["hex"]))
        return best

    def _near_factory(self, h: str) -> bool:
        for uid in self.on_map(SOVIET):
            c = self.c(uid)
            if c.type == "economic" and c.asset == "factory":
                fh = self.u(uid)["hex"]
                if fh == h or fh in self.data.neighbors[h]:
                    return True
        return False

    def _call_supply_status(self, t: dict[str, Any]) -> None:
        self._touch()
        changes = []
        # 9.1: both sides judge supply at once, from the position as it stands
        supplied = {uid: self.in_supply(uid) for uid in sorted(self.on_map())}
        for uid in sorted(supplied):
            u, c = self.u(uid), self.c(uid)
            if supplied[uid]:
                u["sup"] = ""
                continue
            if c.type in ("air_base", "offensive_support"):
                self._remove_to_track(uid, 3, "cannot trace a Supply Line (9.1.1)")
                continue
            new = "lack" if u["sup"] == "" else "out"
            if new == "out" and c.side == SOVIET and c.type != "offensive_support" and \
                    self._near_factory(u["hex"]):
                new = "lack"  # 9.1.2
            u["sup"] = new
            changes.append(f"{uid} {new}")
        self._touch()
        if changes:
            self.say("Supply: " + ", ".join(changes), "info")

    def _call_remove_expended(self, t: dict[str, Any]) -> None:
        for uid in sorted(self.s.get("expended", [])):
            if self.u(uid)["hex"]:
                self._remove_to_track(uid, 3, "expended Supply Base removed (9.3.4)")
        self.s["expended"] = []

    def _remove_to_track(self, uid: str, turns: int, why: str) -> None:
        u = self.u(uid)
        h = u["hex"]
        self._drop_chit(uid)
        u.update(hex="", box="track", ret=self.turn + turns, back=self.c(uid).side == SOVIET,
                 sup="", steps=self.c(uid).max_steps)
        self._touch()
        self.say(f"{uid} leaves {h}: {why}; returns on turn {self.turn + turns}", "loss", [h],
                 [uid])

    # -- isolation (9.1.3) ---------------------------------------------------------------

    def _call_isolation(self, t: dict[str, Any]) -> None:
        self._touch()
        by_hex: dict[str, list[str]] = {}
        for uid in sorted(self.on_map()):
            if self.isolated(uid):
                by_hex.setdefault(self.u(uid)["hex"], []).append(uid)
        tasks = []
        for h in sorted(by_hex):
            tasks.append({"k": "roll", "who": CHANCE, "then": "isolation", "hex": h,
                          "rule": "9.1.3", "purpose": f"isolation attrition at {h}"})
        self._push(*tasks)

    def _on_isolation(self, t: dict[str, Any], roll: int) -> None:
        h = t["hex"]
        n = self.data.isolation[roll - 1]
        units = sorted(x for x in self.units_at(h) if self.isolated(x))
        if not units:
            return
        owner = self.c(units[0]).side
        self.say(f"Isolated units at {h} lose {n} step(s) (9.1.3, rolled {roll})", "loss", [h])
        if n:
            self._push({"k": "isolation", "who": owner, "hex": h, "n": n})

    # -- expending bases, air supply (9.3.4, 14.2) ---------------------------------------

    def _expendable(self) -> list[str]:
        _, _, rail_ok = self.supply_net(AXIS)
        return [uid for uid in sorted(self.on_map(AXIS))
                if self.c(uid).type == "supply_base" and self.u(uid)["hex"] not in rail_ok
                and uid not in self.s.get("expended", [])]

    def air_available(self) -> int:
        total = int(self.s["air"]["total"])
        if self.mud:
            total //= 2  # 14.3
        return max(0, total - int(self.s["air"]["used"]))

    def _air_bases(self) -> list[str]:
        return [self.u(x)["hex"] for x in sorted(self.on_map(AXIS))
                if self.c(x).type == "air_base"]

    def _in_air_range(self, h: str) -> bool:
        grid = self.data.hexmap.grid
        return any(grid.distance(h, b) <= 4 for b in self._air_bases())

    # -- partisans (10.0) -----------------------------------------------------------------

    def _base_hexes(self) -> dict[str, str]:
        return {self.u(x)["hex"]: x for x in sorted(self.on_map(AXIS))
                if self.c(x).type == "supply_base"}

    def _call_partisan_effects(self, t: dict[str, Any]) -> None:
        bases = self._base_hexes()
        tasks = []
        for p, h in sorted(self.s["partisans"].items()):
            if h and h in bases:
                tasks.append({"k": "roll", "who": CHANCE, "then": "partisan", "hex": h, "p": p,
                              "rule": "10.1", "purpose": f"partisans {p} at {h}"})
        self._push(*tasks)

    def _on_partisan(self, t: dict[str, Any], roll: int) -> None:
        n = self.data.partisan_table[roll - 1]
        self.say(f"Partisans {t['p']} at {t['hex']}: {n} Out of Supply marker(s) "
                 f"(10.1, rolled {roll})", "info", [t["hex"]])
        if n:
            self._push({"k": "partisan_oos", "who": SOVIET, "hex": t["hex"], "n": n})

    def _partisan_targets(self, base: str) -> list[str]:
        grid = self.data.hexmap.grid
        cands = []
        for uid in sorted(self.on_map(AXIS)):
            c = self.c(uid)
            if c.nation != "german" or not c.is_combat or c.type == "railroad_gun":
                continue
            if self.u(uid)["sup"] == "out":
                continue
            d = grid.distance(base, self.u(uid)["hex"])
            if d <= 4:
                cands.append((d, uid))
        if not cands:
            return []
        nearest = min(d for d, _ in cands)
        return [uid for d, uid in cands if d == nearest]

    def _partisan_moves(self, t: dict[str, Any]) -> list[tuple[str, str]]:
        grid = self.data.hexmap.grid
        bases = self._base_hexes()
        out = []
        placed = self.s["partisans"]
        for p, h in sorted(placed.items()):
            if p in t["moved"]:
                continue
            on_base = h in bases
            for bh, buid in sorted(bases.items()):
                if bh == h:
                    continue
                if on_base and grid.distance(h, bh) > 5:
                    continue  # 10.2 relocation within five hexes
                if any(q != p and qh and grid.distance(qh, bh) < 5 for q, qh in placed.items()):
                    continue
                out.append((p, buid))
        return out

    # ================================================================================
    # movement (5.0)
    # ================================================================================

    def _turn1_frozen(self, uid: str) -> bool:
        """20.1 rule 2: units in Romania and Finland cannot move or attack on turn 1."""
        return bool(self.turn == 1 and self.sc.rules.get("turn1_rules")
                    and self.c(uid).side == AXIS
                    and self.data.country_of(self.u(uid)["hex"]) in ("romania", "finland"))

    def _may_enter_country(self, uid: str, h: str) -> bool:
        """5.2.1 movement restrictions by country."""
        c = self.c(uid)
        country = self.data.country_of(h)
        if c.side == SOVIET:
            return country != "turkey" or self.s["turkey"]
        if c.nation == "german":
            return country not in ("finland", "turkey")
        allowed = {"romanian": "romania", "hungarian": "hungary", "italian": "germany",
                   "finnish": "finland", "turkish": "turkey"}
        return country in ("soviet_union", allowed.get(c.nation, ""))

    def _terrain_cost(self, uid: str, h: str) -> int | None:
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
        return self.c(uid).type in ("combined_arms", "guards", "shock")

    def _side_cost(self, uid: str, a: str, b: str, *, moving: bool = True) -> int | None:
        """Hexside cost for regular movement, or None when the hexside is closed."""
        f = self.data.side_features(a, b)
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
            ignore = (self.turn == 1 and self.sc.rules.get("turn1_rules")
                      and self.phase() == ("move", AXIS) and self.german(uid))
            cost = 0 if ignore else self.data.minor_river_mp  # 20.1 rule 1
        return cost

    def _step_cost(self, uid: str, a: str, b: str, exploit: bool, ignore_zoc_at: str = ""
                   ) -> int | None:
        c = self.c(uid)
        side = c.side
        if self.has_enemy(b, side) or not self._may_enter_country(uid, b):
            return None
        water = self.data.water
        if a in water or b in water:
            # 5.1.7: Soviet infantry cross Frozen Access hexsides on Snow Turns
            if not (self.snow and self._soviet_infantry(uid)
                    and "frozen_access" in self.data.side_features(a, b)):
                return None
            tc = 0 if b in water else self._terrain_cost(uid, b)
            if b in water:
                tc = self.data.tec["clear"].leg
        else:
            tc = self._terrain_cost(uid, b)
        sc = self._side_cost(uid, a, b)
        if tc is None or sc is None:
            return None
        ez = self.zoc(other(side))
        cost = tc + sc
        if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
            return None  # 4.2.3
        if a in ez and a != ignore_zoc_at:
            cost += 2  # 4.2
            if b in ez:
                panzer = c.type in ("panzer", "ss_panzer") and not exploit
                if not panzer:
                    return None  # 4.2, 5.1.4
        return cost

    def _can_move(self, uid: str, exploit: bool) -> bool:
        u, c = self.u(uid), self.c(uid)
        if not u["hex"] or u["mode"] in ("strat", "sea", "done"):
            return False
        if self._turn1_frozen(uid) or c.type == "economic":
            return False
        if self.s["late"] and c.type not in ("air_base", "offensive_support"):
            return False  # 5.2.3: air bases and offensive support move last
        if exploit:
            return bool(u["mp"] > 0 or (u["mode"] == "one" and u["mv"] == 0))
        if c.type == "railroad_gun":
            return bool(u["mv"] == 0)
        return u["mp"] > 0 or (u["mv"] == 0 and self.factors(uid)[2] >= 1)

    def reach(self, uid: str, exploit: bool = False) -> dict[str, tuple[str, ...]]:
        """Every hex the unit can move to now, with one least-cost path to each."""
        u, c = self.u(uid), self.c(uid)
        key = ("reach", uid, exploit, u["hex"], u["mp"], u["mv"], u["mode"], u["sup"],
               self.s["late"], self.turn, self.s["phase"], self.sig(other(c.side)),
               self.s["turkey"])
        hit = self._pcache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        start = u["hex"]
        out: dict[str, tuple[str, ...]] = {}
        if not self._can_move(uid, exploit):
            self._pcache[key] = out
            return out
        if c.type == "railroad_gun":
            ez = self.zoc(AXIS if c.side == SOVIET else SOVIET)
            prev: dict[str, str] = {start: ""}
            queue = deque([start])
            while queue:
                h = queue.popleft()
                for n in self.data.rail.get(h, ()):
                    if n in prev or n in ez or self.has_enemy(n, c.side):
                        continue
                    if not self._may_enter_country(uid, n):
                        continue
                    prev[n] = h
                    queue.append(n)
            for h in prev:
                if h != start:
                    path = [h]
                    while prev[path[-1]]:
                        path.append(prev[path[-1]])
                    out[h] = tuple(reversed(path))
            self._pcache[key] = out
            return out
        one_hex = u["mv"] == 0 and (u["mode"] == "one" or (not exploit and
                                                            self.factors(uid)[2] >= 1))
        mp = u["mp"] if u["mode"] != "one" else 0
        ignore = start if u["mode"] == "ovr" else ""
        best: dict[str, int] = {start: 0}
        back: dict[str, str] = {}
        heap = [(0, start)]
        nbrs = self.data.all_neighbors if (self.snow and self._soviet_infantry(uid)) \
            else self.data.neighbors
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > best.get(h, 1 << 30):
                continue
            for n in nbrs[h]:
                step = self._step_cost(uid, h, n, exploit, ignore)
                if step is None:
                    continue
                total = cost + step
                if total > mp:
                    if h == start and one_hex and n not in best and n not in self.data.water:
                        out[n] = (start, n)  # 5.1.3: may always move one hex
                    continue
                if total < best.get(n, 1 << 30):
                    best[n] = total
                    back[n] = h
                    heapq.heappush(heap, (total, n))
        for h in best:
            if h == start or h in self.data.water:
                continue  # no move ends on the ice
            path = [h]
            while path[-1] != start:
                path.append(back[path[-1]])
            out[h] = tuple(reversed(path))
        self._pcache[key] = out
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
        ignore = path[0] if u["mode"] == "ovr" else ""
        total = 0
        if path[-1] in self.data.water:
            raise IllegalAction("a move cannot end in a Sea or Lake hex", rule="5.1.7")
        for a, b in itertools.pairwise(path):
            if b not in self.data.all_neighbors.get(a, ()):
                raise IllegalAction(f"{a} and {b} are not adjacent", rule="5.1")
            step = self._step_cost(uid, a, b, exploit, ignore)
            if step is None:
                raise IllegalAction(self._why_not(uid, a, b, exploit), rule=self._why_rule(
                    uid, a, b))
            total += step
            ignore = ""
        one_hex = len(path) == 2 and u["mv"] == 0 and (
            u["mode"] == "one" or (not exploit and self.factors(uid)[2] >= 1))
        mp = u["mp"] if u["mode"] != "one" else 0
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
        if self._terrain_cost(uid, b) is None:
            return "5.1.5"
        if self._side_cost(uid, a, b) is None:
            return "5.1.9"
        ez = self.zoc(other(c.side))
        if b in ez and c.type in ("supply_base", "air_base", "railroad_gun", "offensive_support"):
            return "4.2.3"
        return "4.2"

    def _exploit_mp(self, uid: str) -> int:
        c, u = self.c(uid), self.u(uid)
        side = c.side
        if side == AXIS and c.type in ("panzer", "ss_panzer"):
            return self.factors(uid)[2]  # 5.4.1 full Movement Factor
        if side == SOVIET and c.type == "tank":
            return self.factors(uid)[2]  # 5.4.2
        one = {AXIS: ("infantry", "mountain", "supply_base", "allied_army", "turkish"),
               SOVIET: ("combined_arms", "guards", "shock")}[side]
        if c.type in one and not self.ezoc(side, u["hex"]):
            u["mode"] = "one"
            return 0
        u["mode"] = "done"
        return 0

    def _enter(self, uid: str, path: Iterable[str]) -> None:
        for h in path:
            self._claim(uid, h)

    def _apply_move(self, a: Move, exploit: bool) -> None:
        uid = a.unit
        if uid not in self.s["units"] or self.c(uid).side != self._side():
            raise IllegalAction(f"{uid} is not one of your units", rule="5.0")
        u = self.u(uid)
        if u["hex"] != a.path[0]:
            raise IllegalAction(f"{uid} is at {u['hex'] or 'no hex'}, not {a.path[0]}",
                                rule="5.0")
        if not self._can_move(uid, exploit):
            why = "5.4" if exploit else "5.0"
            if self._turn1_frozen(uid):
                why = "20.1"
            elif self.s["late"]:
                why = "5.2.3"
            elif u["mode"] in ("strat", "sea"):
                why = "5.3"
            raise IllegalAction(f"{uid} cannot move now", rule=why)
        cost = self._path_cost(uid, a.path, exploit)
        u["hex"] = a.path[-1]
        u["mp"] = max(0, u["mp"] - cost) if u["mode"] != "one" else 0
        u["mv"] = 1
        if u["mode"] in ("ovr", "one"):
            u["mode"] = "" if u["mode"] == "ovr" else "done"
        if self.c(uid).type in ("railroad_gun",):
            u["mode"] = "done"
        if u["mp"] == 0 and u["mode"] == "":
            u["mode"] = "done"
        if self.c(uid).type in ("air_base", "offensive_support"):
            self.s["late"] = True
        self._touch()
        self._enter(uid, a.path[1:])
        self.say(f"{self.label(uid)} moves {' '.join(a.path)}", "move", a.path, [uid])

    # -- strategic movement (5.3) and sea transport (5.5) ---------------------------------

    def _strategic_ok_unit(self, uid: str) -> str:
        """Why ``uid`` may not use Strategic Movement now ("" when it may)."""
        c, u = self.c(uid), self.u(uid)
        if self.turn == 1 and self.sc.rules.get("turn1_rules"):
            return "20.1 rule 3: no strategic movement on turn 1"
        if u["mv"] or u["mode"]:
            return "5.3: the unit has already moved this phase"
        if c.type in ("air_base", "fortress", "economic", "railroad_gun", "offensive_support"):
            return f"5.3.2: {c.type.replace('_', ' ')} units cannot use Strategic Movement"
        if c.type == "supply_base" and not self.mud:
            return "5.3.2: Supply Bases use Strategic Movement on Mud Turns only"
        if u["sup"]:
            return "5.3.2: Lack of Supply and Out of Supply units cannot use Strategic Movement"
        if self._turn1_frozen(uid):
            return "20.1 rule 2: units in Romania and Finland cannot move on turn 1"
        if self.s["late"]:
            return "5.2.3: air bases and offensive support have already moved"
        return ""

    def _strategic_free(self, side: str) -> frozenset[str]:
        """Hexes at least three hexes from every enemy unit (5.3.1; partisans count)."""
        key = ("stratfree", side)
        hit = self._cache.get(key)
        if hit is None:
            grid = self.data.hexmap.grid
            near: set[str] = set()
            spots = [self.u(x)["hex"] for x in self.on_map(other(side))]
            if side == AXIS:
                spots += [h for h in self.s["partisans"].values() if h]
            for h in spots:
                near.update(grid.within(h, 2))
            hit = frozenset(h for h in self.data.land if h not in near)
            self._cache[key] = hit
        return hit

    def _strategic_reach(self, uid: str) -> dict[str, tuple[str, ...]]:
        side = self.c(uid).side
        start = self.u(uid)["hex"]
        near = self.supply_net(side, "F" if self.c(uid).nation == "finnish" else "")[0]
        marks = self._cache.get("marks")
        if marks is None:
            marks = (tuple(sorted(self.s["control"].items())),
                     tuple(sorted(self.s["partisans"].items())), self.s["turkey"])
            self._cache["marks"] = marks
        key = ("sreach", uid, start, self.sig(other(side)), marks)
        hit = self._pcache.get(key)
        if hit is None:
            hit = self._strategic_bfs(uid, start)
            self._pcache[key] = hit
        return {h: p for h, p in hit.items() if h in near}

    def _strategic_bfs(self, uid: str, start: str) -> dict[str, tuple[str, ...]]:
        side = self.c(uid).side
        free = self._strategic_free(side)
        out: dict[str, tuple[str, ...]] = {}
        if start in free:
            prev = {start: ""}
            depth = {start: 0}
            queue = deque([start])
            while queue:
                h = queue.popleft()
                if depth[h] >= 15:
                    continue
                for n in self.data.neighbors[h]:
                    if n in prev or not self._strategic_step_ok(uid, h, n, free):
                        continue
                    prev[n] = h
                    depth[n] = depth[h] + 1
                    queue.append(n)
            for h in prev:
                if h == start:
                    continue
                path = [h]
                while prev[path[-1]]:
                    path.append(prev[path[-1]])
                out[h] = tuple(reversed(path))
        return out

    def _strategic_step_ok(self, uid: str, a: str, b: str, free: frozenset[str]) -> bool:
        if b not in free:
            return False
        if self.s["control"].get(b) == other(self.c(uid).side) and b in self.data.cities:
            return False
        if self.data.side_features(a, b) & _NO_STRATEGIC:
            return False  # 5.3.3: the Chongar bridge is open
        return self._may_enter_country(uid, b) and self._terrain_cost(uid, b) is not None

    def _apply_strategic(self, a: Strategic) -> None:
        uid = a.unit
        if uid not in self.s["units"] or self.c(uid).side != self._side():
            raise IllegalAction(f"{uid} is not one of your units", rule="5.3")
        u = self.u(uid)
        if u["hex"] != a.path[0]:
            raise IllegalAction(f"{uid} is at {u['hex'] or 'no hex'}, not {a.path[0]}",
                                rule="5.3")
        why = self._strategic_ok_unit(uid)
        if why:
            raise IllegalAction(why.split(": ", 1)[1], rule=why.split(":")[0])
        if len(a.path) - 1 > 15:
            raise IllegalAction("Strategic Movement is at most 15 hexes", rule="5.3")
        free = self._strategic_free(self.c(uid).side)
        if a.path[0] not in free:
            raise IllegalAction(f"{uid} starts within two hexes of an enemy unit", rule="5.3.1")
        for x, y in itertools.pairwise(a.path):
            if y not in self.data.neighbors.get(x, ()):
                raise IllegalAction(f"{x} and {y} are not adjacent", rule="5.3")
            if not self._strategic_step_ok(uid, x, y, free):
                raise IllegalAction(f"{uid} cannot pass {x}->{y} by Strategic Movement (within "
                                    "two hexes of an enemy, enemy city, prohibited or sea)",
                                    rule="5.3.1")
        near = self.supply_net(self.c(uid).side,
                               "F" if self.c(uid).nation == "finnish" else "")[0]
        if a.path[-1] not in near:
            raise IllegalAction(f"{uid} must end Strategic Movement in supply", rule="5.3.1")
        u.update(hex=a.path[-1], mp=0, mv=1, mode="strat")
        self._touch()
        self._enter(uid, a.path[1:])
        self.say(f"{self.label(uid)} moves strategically {a.path[0]} -> {a.path[-1]}", "move",
                 (a.path[0], a.path[-1]), [uid])

    def _sea_body(self, h: str) -> str:
        body = self.data.ports.get(h, "")
        return "black" if body == "azov" else body

    def _sea_ok(self, side: str, body: str) -> bool:
        if body == "black":
            return self.controls(side, SEVASTOPOL)  # 5.5.4
        if side == SOVIET:
            return self.controls(SOVIET, LENINGRAD)  # 5.5.5
        return self.controls(AXIS, KONIGSBERG)  # 5.5.6

    def _shippable(self, uid: str) -> bool:
        c = self.c(uid)
        return (c.type in ("infantry", "supply_base") and c.nation == "german") or \
            c.nation == "romanian" or c.type in ("combined_arms", "guards", "shock")

    def _ship_options(self) -> list[Word]:
        side = self._side()
        if self.s["sea_used"] or self.phase()[0] != "move" or self.s["late"]:
            return []
        out = []
        ports = self.data.ports
        for uid in sorted(self.on_map(side)):
            u = self.u(uid)
            h = u["hex"]
            if h not in ports or u["mv"] or u["mode"] or not self._shippable(uid):
                continue
            if not self.controls(side, h) or self._turn1_frozen(uid):
                continue
            body = self._sea_body(h)
            if not self._sea_ok(side, body):
                continue
            for dest in sorted(ports):
                if dest == h or self._sea_body(dest) != body or not self.controls(side, dest):
                    continue
                if self.has_enemy(dest, side) or not self._may_enter_country(uid, dest):
                    continue
                if self.c(uid).type == "supply_base" and dest not in (KONIGSBERG, LENINGRAD):
                    continue  # 5.5.1
                out.append(Word(f"ship {uid} to {dest}"))
        return out

    def _apply_ship(self, text: str) -> None:
        parts = text.split()
        units, dest = parts[1:-2], parts[-1]
        legal = {w.text for w in self._ship_options()}
        if len(units) == 2:
            kgs = all(self.c(x).type == "infantry" and self.steps_of(x) == 1 for x in units)
            if not kgs:
                raise IllegalAction("only two German Infantry Kampfgruppen may share one sea "
                                    "transport", rule="5.5.2")
            if not all(f"ship {x} to {dest}" in legal for x in units):
                raise IllegalAction(f"{text} is not allowed", rule="5.5")
        elif text not in legal:
            raise IllegalAction(f"{text} is not allowed (ports, control, body of water, unit "
                                "type or the phase's one transport)", rule="5.5")
        for x in units:
            self.u(x).update(hex=dest, mp=0, mv=1, mode="sea")
        self.s["sea_used"] = True
        self._touch()
        for x in units:
            self._claim(x, dest)
        self.say(f"{' '.join(units)} shipped to {self.data.hex_name(dest)} (5.5)", "move",
                 [dest], units)

    # -- reinforcements (17.0) ------------------------------------------------------------

    def _call_arrivals(self, t: dict[str, Any]) -> None:
        side = t["side"]
        rolls = []
        for uid in sorted(self.s["units"]):
            u = self.u(uid)
            if self.c(uid).side != side or u["box"] != "track" or u["ret"] > self.turn:
                continue
            if u["back"] and side == SOVIET:
                rolls.append({"k": "roll", "who": CHANCE, "then": "returning", "unit": uid,
                              "rule": "17.1.4", "purpose": f"return of {uid} (17.1.4)"})
            else:
                self._arrive(uid)
        self._push(*rolls)

    def _arrive(self, uid: str) -> None:
        c = self.c(uid)
        u = self.u(uid)
        if c.type in ("guards", "shock"):
            u.update(box="conv", ret=0, back=False)  # 17.2
            self.say(f"{uid} enters the Conversion Holding Box (17.2)")
        elif c.type == "offensive_support" and u["back"]:
            u.update(box="pool", ret=0, back=False)
        else:
            u.update(box="pool", ret=0, back=False)

    def _on_returning(self, t: dict[str, Any], roll: int) -> None:
        uid = t["unit"]
        u = self.u(uid)
        if roll <= 3:
            self._arrive(uid)
            self.say(f"{uid} returns as a reinforcement (17.1.4, rolled {roll})")
        elif roll <= 5:
            u["ret"] = self.turn + 1
            self.say(f"{uid} is delayed to turn {self.turn + 1} (17.1.4, rolled {roll})")
        else:
            u.update(box="removed", ret=0)
            self.say(f"{uid} is removed permanently (17.1.4, rolled {roll})")

    def _reinf_hexes(self, uid: str) -> list[str]:
        side = self.c(uid).side
        key = ("rhex", side, self.c(uid).nation if side == AXIS else "")
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        ez = self.zoc(other(side))
        rail_ok = self.supply_net(side)[2]
        cands: set[str] = set()
        if side == AXIS:
            bases = [self.u(x)["hex"] for x in sorted(self.on_map(AXIS))
                     if self.c(x).type == "supply_base"]
            partisans = set(self.s["partisans"].values())
            for h in bases:
                if h in rail_ok and h not in partisans:  # 10.4
                    cands.add(h)
                    cands.update(self.data.neighbors[h])
            if not cands:  # stand-in: with no qualifying base, the supply-source hexes
                src = "source_F" if self.c(uid).nation == "finnish" else "source_W"
                cands.update(self.data.area(src))
        else:
            for h in rail_ok:
                cands.add(h)
        out = sorted(h for h in cands if h not in ez and not self.has_enemy(h, side)
                     and self.s["control"].get(h) != other(side)
                     and self._may_enter_country(uid, h)
                     and self._terrain_cost(uid, h) is not None)
        self._cache[key] = out
        return out

    def _reinf_pool(self, side: str) -> list[str]:
        return [x for x in sorted(self.s["units"]) if self.c(x).side == side
                and self.u(x)["box"] == "pool"]

    def _reinf_leftover(self) -> None:
        for uid in self._reinf_pool(self._side()):
            self.u(uid).update(box="track", ret=self.turn + 1)

    # ================================================================================
    # combat (7.0 overrun, 8.0 combat)
    # ================================================================================

    def _attack_side_ok(self, uid: str, a: str, b: str) -> str:
        """Why ``uid`` at ``a`` may not attack into ``b`` across their hexside ("" if it may)."""
        f = self.data.side_features(a, b)
        if "frozen_access" in f:
            if not (self.snow and self._soviet_infantry(uid)):
                return "8.3.9"  # 8.4.3: only Soviet infantry on Snow Turns
        elif f & BLOCKING_SIDES:
            return "8.3.9" if "rail_bridge" not in f else "16.7"
        if "strait" in f and self.c(uid).mech:
            return "8.4.2"
        return ""

    def _attack_group_ok(self, units: list[str]) -> str:
        """8.3.7: allies fight beside Germans, never beside another nationality."""
        nations = {self.c(x).nation for x in units}
        allies = nations & ALLIED_NATIONS
        if len(allies) > 1 or ("turkish" in nations and len(nations) > 1):
            return "8.3.7"
        return ""

    def _attackers_for(self, target: str, side: str) -> list[str]:
        out = []
        for n in self.data.neighbors[target]:
            for uid in self.units_at(n, side):
                c, u = self.c(uid), self.u(uid)
                if u["atk"] or u["rin"] or not c.is_combat or c.type == "fortress":
                    continue
                if self._turn1_frozen(uid):
                    continue
                if c.type not in CHIT_TYPES and self.factors(uid)[0] <= 0:
                    continue  # 8.3.8
                if self._attack_side_ok(uid, n, target):
                    continue
                out.append(uid)
        return sorted(out)

    def _rrgun_ok(self, target: str) -> bool:
        gun = [x for x in self.on_map(AXIS) if self.c(x).type == "railroad_gun"]
        if not gun:
            return False
        h = self.u(gun[0])["hex"]
        fort = target in self.data.fortified or any(
            self.c(x).type == "fortress" for x in self.units_at(target))
        if not fort or self.data.hexmap.grid.distance(h, target) > 2:
            return False
        # 16.2.2: not from an enemy ZOC unless stacked with another friendly unit
        return not (self.ezoc(AXIS, h) and len(self.units_at(h, AXIS)) < 2)

    def _air_ok(self, target: str, units: Iterable[str]) -> bool:
        return (self.air_available() > 0 and not self.snow and self._in_air_range(target)
                and all(self.german(x) for x in units))

    def _attack_options(self) -> list[Action]:
        side = self._side()
        out: list[Action] = []
        done = set(self.s.get("hit", []))
        for target in sorted({self.u(x)["hex"] for x in self.on_map(other(side))}):
            if target in done:
                continue
            units = self._attackers_for(target, side)
            if self._attack_group_ok(units):
                units = [x for x in units if not self.is_allied(x) and
                         self.c(x).nation != "turkish"]
            if not units:
                continue
            groups = [tuple(units)]
            by_hex: dict[str, list[str]] = {}
            for x in units:
                by_hex.setdefault(self.u(x)["hex"], []).append(x)
            if len(by_hex) > 1:
                groups += [tuple(v) for _, v in sorted(by_hex.items())]
            for g in groups:
                out.append(Attack(target, g))
                if side == AXIS and self._air_ok(target, g):
                    out.append(Attack(target, g, air=True))
                if side == AXIS and self._rrgun_ok(target):
                    out.append(Attack(target, g, rrgun=True))
        return out

    def _apply_attack(self, a: Attack) -> None:
        side = self._side()
        target = a.target
        if not self.has_enemy(target, side):
            raise IllegalAction(f"{target} holds no enemy unit", rule="8.0")
        if target in self.s.get("hit", []):
            raise IllegalAction(f"{target} was already attacked this phase", rule="8.3.1")
        if len(set(a.units)) != len(a.units):
            raise IllegalAction("a unit is named twice", rule="8.3.5")
        eligible = set(self._attackers_for(target, side))
        for uid in a.units:
            if uid not in self.s["units"] or self.c(uid).side != side or not self.u(uid)["hex"]:
                raise IllegalAction(f"{uid} is not one of your units on the map", rule="8.0")
            if uid not in eligible:
                rule = "8.3.4"
                h = self.u(uid)["hex"]
                if target not in self.data.neighbors.get(h, ()):
                    rule = "8.0"
                elif self.c(uid).type == "fortress":
                    rule = "8.3.6"
                elif self._turn1_frozen(uid):
                    rule = "20.1"
                elif self._attack_side_ok(uid, h, target):
                    rule = self._attack_side_ok(uid, h, target)
                elif self.c(uid).type not in CHIT_TYPES and self.factors(uid)[0] <= 0:
                    rule = "8.3.8"
                raise IllegalAction(f"{uid} cannot attack {target}", rule=rule)
        why = self._attack_group_ok(list(a.units))
        if why:
            raise IllegalAction("allied units attack only beside German units", rule=why)
        if a.air and (side != AXIS or not self._air_ok(target, a.units)):
            raise IllegalAction("no Air Support: needs a free Air Unit, German attackers only, "
                                "a target within four hexes of an Air Base, no Snow",
                                rule="14.1")
        if a.rrgun and (side != AXIS or not self._rrgun_ok(target)):
            raise IllegalAction("the Railroad Gun supports only attacks on a Fortified City or a "
                                "Fortress within two hexes", rule="16.2")
        for uid in a.units:
            self.u(uid)["atk"] = True
        self.s["hit"] = sorted({*self.s.get("hit", []), target})
        self._start_combat("attack", target, list(a.units), a.air, a.rrgun)

    def _overrun_cost(self, side: str) -> int:
        return 2 if side == SOVIET and self.snow else 3  # 7.1, 7.2.5

    def _overrun_why(self, target: str, units: list[str], exploit: bool) -> tuple[str, str]:
        """(rule, reason) forbidding this overrun, or ("", "")."""
        side = self._side()
        if not units:
            return "7.1", "no units"
        hexes = {self.u(x)["hex"] for x in units}
        if len(hexes) != 1:
            return "7.1", "overrunning units must stand together in one hex"
        h = hexes.pop()
        if target not in self.data.neighbors.get(h, ()):
            return "7.1", f"{target} is not adjacent to {h}"
        if not self.has_enemy(target, side):
            return "7.1", f"{target} holds no enemy unit"
        cost = self._overrun_cost(side)
        if self.s["late"]:
            return "5.2.3", "air bases or offensive support have moved: no more movement"
        for uid in units:
            c, u = self.c(uid), self.u(uid)
            if c.side != side:
                return "7.1", f"{uid} is not yours"
            if not c.is_combat or c.type == "fortress" or (
                    c.type not in CHIT_TYPES and self.factors(uid)[0] <= 0):
                return "8.3.8", f"{uid} cannot attack"
            if u["mode"] in ("strat", "sea", "done", "one") or self._turn1_frozen(uid):
                return "7.1", f"{uid} cannot move now"
            if u["mp"] < cost:
                return "7.1", f"{uid} has {u['mp']} MP, an overrun costs {cost}"
            if u["sup"]:
                return "7.2.1", f"{uid} is {u['sup']} of supply"
            if exploit and c.type not in ARMOR_TYPES:
                return "7.2.4", "only Panzer and Tank units overrun in exploitation"
        if len({self.c(x).mech for x in units}) > 1:
            return "7.2.6", "leg and mechanized units cannot overrun together"
        if len({self.u(x).get("start", "") for x in units}) > 1:
            return "7.1", "units overrun together only as a stack that began the phase in one " \
                          "hex (5.1)"
        why = self._attack_group_ok(units)
        if why:
            return why, "allied units attack only beside German units"
        f = self.data.side_features(h, target)
        if f & {"major_river", "sea", "lake", "frozen_access", "out_of_play", "rail_bridge",
                "strait"}:
            return "7.2", f"no overrun across the {h}/{target} hexside"
        ter = self.data.hexmap.terrain.get(target, "clear")
        if ter in ("mountain", "high_mountain") or target in self.data.cities:
            what = ter if ter in ("mountain", "high_mountain") else "city"
            return "7.2", f"no overrun into a {what} hex"
        if ter == "swamp" and not self.snow:
            return "7.2", "no overrun into a Swamp hex except on Snow Turns"
        if any(self.c(x).type == "fortress" for x in self.units_at(target)):
            return "7.2", "no overrun into a hex holding a Fortress"
        if self._over_limit(h):
            return "7.2.1", f"{h} is over the stacking limit"
        return "", ""

    def _overrun_options(self, exploit: bool) -> list[Action]:
        side = self._side()
        out: list[Action] = []
        cost = self._overrun_cost(side)
        by_hex: dict[str, list[str]] = {}
        for uid in sorted(self.on_map(side)):
            u, c = self.u(uid), self.c(uid)
            if u["mp"] >= cost and c.is_combat and u["mode"] not in ("strat", "sea", "done"):
                by_hex.setdefault(u["hex"], []).append(uid)
        for h, units in sorted(by_hex.items()):
            keys = sorted({(self.c(x).mech, self.u(x).get("start", "")) for x in units})
            for mech, start in keys:
                group = [x for x in units if self.c(x).mech == mech
                         and self.u(x).get("start", "") == start]
                for target in self.data.neighbors[h]:
                    if not self.has_enemy(target, side):
                        continue
                    g = [x for x in group if not self._overrun_why(target, [x], exploit)[0]]
                    if not g or self._overrun_why(target, g, exploit)[0]:
                        continue
                    out.append(Overrun(target, tuple(g)))
                    if side == AXIS and self._air_ok(target, g):
                        out.append(Overrun(target, tuple(g), air=True))
        return out

    def _apply_overrun(self, a: Overrun, exploit: bool) -> None:
        for uid in a.units:
            if uid not in self.s["units"] or not self.u(uid)["hex"]:
                raise IllegalAction(f"{uid} is not a unit on the map", rule="7.1")
        rule, why = self._overrun_why(a.target, list(a.units), exploit)
        if rule:
            raise IllegalAction(why, rule=rule)
        if a.air and not self._air_ok(a.target, a.units):
            raise IllegalAction("no Air Support available for this overrun", rule="7.2.3")
        cost = self._overrun_cost(self._side())
        for uid in a.units:
            self.u(uid)["mp"] -= cost
        self._start_combat("overrun", a.target, list(a.units), a.air, False)

    # -- the combat record ------------------------------------------------------------------

    def _start_combat(self, kind: str, target: str, attackers: list[str], air: bool,
                      rrgun: bool) -> None:
        side = self._side()
        defenders = sorted(self.units_at(target, other(side)))
        for uid in defenders:
            self.u(uid)["dfd"] = True
        orig = {uid: self.u(uid)["hex"] for uid in (*attackers, *defenders)}
        if air:
            self.s["air"]["used"] += 1
        self.s["combat"] = {"kind": kind, "target": target, "att": sorted(attackers),
                            "def": defenders, "side": side, "air": air, "rrgun": rrgun,
                            "orig": dict(sorted(orig.items())), "result": "", "adv": {},
                            "elim": {}}
        word = "overruns" if kind == "overrun" else "attacks"
        self.say(f"{', '.join(self.label(x) for x in sorted(attackers))} {word} "
                 f"{self.data.hex_name(target)} ({', '.join(self.label(x) for x in defenders)})",
                 "attack", [target, *sorted({orig[x] for x in attackers})], attackers)
        soviets = [x for x in (*attackers, *defenders)
                   if self.c(x).side == SOVIET and self.c(x).type in CHIT_TYPES]
        tasks: list[dict[str, Any]] = []
        if soviets and self._generals_ready():
            tasks.append({"k": "generals", "who": SOVIET, "units": sorted(soviets)})
        tasks.append({"k": "call", "fn": "combat_chits", "units": sorted(soviets)})
        tasks.append({"k": "call", "fn": "combat_resolve"})
        self._push(*tasks)

    def _generals_ready(self) -> list[str]:
        no_turn = self.sc.rules.get("no_generals_axis_combat_turn")
        if no_turn == self.turn and self.phase() == ("combat", AXIS):
            return []  # 20.5 rule 1
        return [g for g, st in sorted(self.s["generals"].items()) if st == "ready"]

    def _call_combat_chits(self, t: dict[str, Any]) -> None:
        tasks = []
        for uid in t["units"]:
            u = self.u(uid)
            if u["hex"] and not u["chit"]:
                tasks.append(self._draw_task(uid, 1, "11.1.1"))
        self._push(*[x for x in tasks if x])

    def _draw_task(self, uid: str, count: int, rule: str) -> dict[str, Any] | None:
        letter = self.c(uid).letter
        cup = self.s["cups"][letter]
        if not cup:
            fallback = self.data.empty_cup[letter]
            self.u(uid).update(chit=fallback, steps=2)
            self.say(f"Cup {letter} is empty: {uid} takes the stand-in chit {fallback}")
            return None
        return {"k": "draw", "who": CHANCE, "unit": uid, "count": min(count, len(cup)),
                "rule": rule, "letter": letter}

    def _on_chits(self, t: dict[str, Any], drawn: tuple[str, ...]) -> None:
        uid = t["unit"]
        cup = self.s["cups"][t["letter"]]
        for cid in drawn:
            cup.remove(cid)
        if len(drawn) == 1:
            self._give_chit(uid, drawn[0])
            return
        self._push({"k": "keep", "who": SOVIET, "unit": uid, "drawn": list(drawn)})

    def _give_chit(self, uid: str, cid: str) -> None:
        self.u(uid).update(chit=cid, steps=2)  # 11.3: always the full-strength side
        a, d = self.data.chits[cid].front
        self.say(f"{uid} draws Strength Chit {cid} ({a}-{d})", "info",
                 [self.u(uid)["hex"]], [uid])
        self._touch()

    def _drop_chit(self, uid: str) -> None:
        """Return a unit's chit to its cup, or out of the game if starred (11.2)."""
        u = self.u(uid)
        cid = u["chit"]
        if not cid:
            return
        u["chit"] = ""
        chit = self.data.chits.get(cid)
        if chit is None:
            return
        if chit.starred:
            self.s["removed_chits"] = sorted([*self.s["removed_chits"], cid])
        else:
            self.s["cups"][chit.letter] = sorted([*self.s["cups"][chit.letter], cid])

    def _combat_strengths(self) -> tuple[int, int, list[str]]:
        """Attack and defense totals with river (8.4.1), Kerch (8.4.2) and snow (18.2.3)."""
        cb = self.s["combat"]
        target = cb["target"]
        notes: list[str] = []
        att_units = [x for x in cb["att"] if self.u(x)["hex"]]
        # 8.6.5: units that retreated into the hex earlier this phase do not defend
        def_units = [x for x in cb["def"] if self.u(x)["hex"] == target
                     and not self.u(x)["rin"]]
        overrun = cb["kind"] == "overrun"
        axis_snow = overrun and self.snow

        def adj(uid: str, val: int, attack: bool) -> int:
            if not (axis_snow and self.c(uid).side == AXIS):
                return val
            if self.data.turns[self.turn].first_winter:
                return val // 4 if attack else val // 2
            return max(0, val - 1)

        attack = sum(adj(x, self.factors(x)[0], True) for x in att_units)
        defense = sum(adj(x, self.factors(x)[1], False) for x in def_units)
        if axis_snow:
            notes.append("Snow: Axis factors reduced in the overrun (18.2.3)")
        sides = [self.data.side_features(self.u(x)["hex"], target) for x in att_units]
        if sides and all(f & {"minor_river", "major_river", "strait"} for f in sides):
            if any(f & {"major_river", "strait"} for f in sides):
                defense *= 2
                notes.append("all across a Major River: defense doubled (8.4.1)")
            else:
                defense += 2
                notes.append("all across a Minor River: defense +2 (8.4.1)")
        elif sides and all("frozen_access" in f for f in sides):
            defense += 2
            notes.append("across Frozen Access: as a Minor River (8.4.3)")
        return attack, defense, notes

    def _terrain_shift(self, target: str) -> int:
        tec = self.data.tec
        if target in self.data.fortified and "fortified_city" in tec:
            return tec["fortified_city"].shift
        if target in self.data.cities and "city" in tec:
            return tec["city"].shift
        name = self.data.hexmap.terrain.get(target, "clear")
        return (tec.get(name) or tec["clear"]).shift

    def _call_combat_resolve(self, t: dict[str, Any]) -> None:
        cb = self.s["combat"]
        attack, defense, notes = self._combat_strengths()
        cols = self.data.crt_columns
        shift = (2 if cb["air"] else 0) - self._terrain_shift(cb["target"])
        base = rules.column(attack, defense, cols, 0) if defense else None
        col = rules.column(attack, defense, cols, shift)
        cb.update(attack=attack, defense=defense, column=col.label, shift=shift)
        text = (f"{attack} to {defense}" + (f" ({base.label})" if base else "")
                + f", shift {shift:+d} -> {col.label}" + ("; " + "; ".join(notes) if notes else ""))
        self.say(f"Odds {text}", "attack", [cb["target"]])
        if cb["kind"] == "overrun" and base is not None and base.below:
            self.say("Overrun below 1:3: automatic A2 (7.1)", "attack", [cb["target"]])
            self._combat_result("A2")
            return
        self._push({"k": "roll", "who": CHANCE, "then": "crt", "rule": "8.2",
                    "purpose": f"CRT {col.label} against {cb['target']}"})

    def _die_modifiers(self) -> list[tuple[int, str]]:
        cb = self.s["combat"]
        mods: list[tuple[int, str]] = []
        if cb["side"] == SOVIET:
            grid = self.data.hexmap.grid
            if any(self.c(x).type == "offensive_support" and
                   grid.distance(self.u(x)["hex"], cb["target"]) <= 3
                   for x in self.on_map(SOVIET)):
                mods.append((3, "Offensive Support (13.0)"))
            if self.snow:
                first = self.data.turns[self.turn].first_winter
                mods.append((3 if first else 1, "Soviet winter attack (18.2.4)"))
        if cb["rrgun"]:
            mods.append((4, "Railroad Gun (16.2)"))
        return mods

    def _on_crt(self, t: dict[str, Any], roll: int) -> None:
        mods = self._die_modifiers()
        final = rules.final_roll(roll, [m for m, _ in mods])
        cb = self.s["combat"]
        col = self.data.crt_columns.index(cb["column"])
        code = self.data.crt_rows[final - 1][col]
        why = "".join(f" {m:+d} {w}" for m, w in mods)
        self.say(f"Die {roll}{why} = {final}: {code}", "roll", [cb["target"]])
        if cb["rrgun"]:
            for x in self.on_map(AXIS):
                if self.c(x).type == "railroad_gun":
                    self.u(x).update(hex="", box="removed")
                    self.say("The Railroad Gun is used up and removed (16.2)")
                    self._touch()
        self._combat_result(code)

    def _combat_result(self, code: str) -> None:
        cb = self.s["combat"]
        cb["result"] = code
        out = rules.decode(code)
        att, dfn = cb["side"], other(cb["side"])
        self._push(
            {"k": "call", "fn": "apply_side", "side": att, "role": "att",
             "mand": out.att_mandatory, "n": out.att_n, "elim": out.att_elim},
            {"k": "call", "fn": "advance_start", "role": "def"},
            {"k": "call", "fn": "apply_side", "side": dfn, "role": "def",
             "mand": out.def_mandatory, "n": out.def_n, "elim": out.def_elim},
            {"k": "call", "fn": "advance_start", "role": "att"},
            {"k": "call", "fn": "combat_end"})

    # -- results (8.5), step losses (8.5.1-8.5.3) -----------------------------------------

    def _alive_in_combat(self, role: str) -> list[str]:
        cb = self.s["combat"]
        return [x for x in cb[role] if self.u(x)["hex"] and self.u(x)["hex"] == cb["orig"][x]]

    def _call_apply_side(self, t: dict[str, Any]) -> None:
        cb = self.s["combat"]
        role, side = t["role"], t["side"]
        units = self._alive_in_combat(role)
        hit = t["mand"] or t["n"] or t["elim"]
        if hit:
            for uid in [x for x in units if self.u(x)["rin"]]:
                self._eliminate(uid, "retreated into a hex attacked again (8.6.5)")
            units = [x for x in units if self.u(x)["hex"]]
        if not units or not hit:
            return
        if t["elim"]:
            for uid in units:
                self._eliminate(uid, f"{cb['result']} (8.5)")
            cb["elim"][role] = True
            return
        tasks: list[dict[str, Any]] = []
        if t["mand"]:
            tasks.append({"k": "lose", "who": side, "n": t["mand"], "units": units, "taken": {}})
        if t["n"]:
            n = t["n"]
            stuck = [x for x in units if not self._can_retreat_at_all(x)]
            movable = [x for x in units if x not in stuck]
            for uid in stuck:
                for _ in range(n):
                    if self.u(uid)["hex"]:
                        self._lose_step(uid, "cannot retreat (8.5)")
            if movable:
                tasks.append({"k": "take", "who": side, "n": n, "units": movable, "role": role,
                              "code": cb["result"]})
        self._push(*tasks)

    def _can_retreat_at_all(self, uid: str) -> bool:
        c = self.c(uid)
        if c.type == "railroad_gun":
            return True
        return c.factors[0][2] > 0 and c.type not in ("fortress", "economic")

    def _take_options(self, t: dict[str, Any]) -> list[Action]:
        must = t["who"] == AXIS and self.snow  # 18.2.3
        return [Take(t["code"], s, r) for s, r in rules.split_options(t["n"], True, must)]

    def _apply_take(self, t: dict[str, Any], a: Take) -> None:
        if (a.steps, a.retreats) not in [(o.steps, o.retreats) for o in self._take_options(t)
                                         if isinstance(o, Take)] or a.result != t["code"]:
            rule = "18.2.3" if t["who"] == AXIS and self.snow else "8.5"
            raise IllegalAction(f"{a.notation()} is not a way to take {t['code']}", rule=rule)
        self.s["tasks"].pop(0)
        cb = self.s["combat"]
        cb.setdefault("took", {})[t["role"]] = [t["n"], a.steps]
        self.say(f"The {t['who']} player takes {t['code']} as {a.steps} step loss(es) and "
                 f"{a.retreats} hex(es) of retreat", "loss")
        tasks: list[dict[str, Any]] = []
        if a.steps:
            tasks.append({"k": "lose", "who": t["who"], "n": a.steps, "units": t["units"],
                          "taken": {}})
        if a.retreats:
            tasks.append({"k": "retreat", "who": t["who"], "center": cb["target"],
                          "left": {x: a.retreats for x in t["units"]}})
        self._push(*tasks)

    def _lose_options(self, t: dict[str, Any]) -> list[Word]:
        alive = [x for x in t["units"] if self.u(x)["hex"]]
        if not alive:
            return []
        least = min(t["taken"].get(x, 0) for x in alive)
        return [Word(f"lose {x}") for x in alive if t["taken"].get(x, 0) == least]  # 8.5.1

    def _lose_step(self, uid: str, why: str) -> None:
        u, c = self.u(uid), self.c(uid)
        h = u["hex"]
        u["steps"] -= 1
        if u["steps"] <= 0:
            self._eliminate(uid, why)
            return
        note = ""
        if c.type in CORPS_TYPES and u["steps"] == 1:
            note = " and becomes a Kampfgruppe (8.5.2)"
        elif c.type == "allied_army" and u["steps"] == 1:
            note = " and becomes its * army (8.5.2)"
        elif c.type in CHIT_TYPES:
            note = " (chit flipped, 11.3)"
        self._touch()
        self.say(f"{uid} loses a step{note}: {why}", "loss", [h], [uid])

    def _eliminate(self, uid: str, why: str) -> None:
        u, c = self.u(uid), self.c(uid)
        h = u["hex"]
        self._drop_chit(uid)
        u.update(hex="", sup="", mp=0, mv=0, mode="", rin=False, steps=c.max_steps)
        if c.type == "economic":
            u["box"] = "assets"
            self.s["eliminated_assets"].append(uid)
        elif c.side == SOVIET and c.type in ("combined_arms", "guards", "shock",
                                              "offensive_support"):
            u.update(box="track", ret=self.turn + 3, back=True)  # 17.1.2
        elif c.type == "tank":
            u.update(box="track", ret=self.turn + 5, back=True)  # 17.1.3
        elif c.type in ("air_base", "supply_base"):
            u.update(box="track", ret=self.turn + 3, back=False)  # 17.1.1
        elif c.type == "mech_group":
            u["box"] = "removed"  # 16.4
        else:
            u["box"] = "elim"
        self._touch()
        self.say(f"{uid} is eliminated at {h}: {why}", "loss", [h], [uid])

    # -- retreat (8.6) ----------------------------------------------------------------------

    def _retreat_targets(self, units: list[str], center: str) -> list[str]:
        """Hexes the group may retreat into now, best 8.6.1 priority class only.

        One hex at a time through the kit's :func:`retreat_options`: farther from the
        combat hex, the hexside allowed (8.6.4), ranked by 8.6.1.
        """
        if not units:
            return []
        side = self.c(units[0]).side
        a = self.u(units[0])["hex"]
        ez = self.zoc(other(side))
        oos = any(self.u(x)["sup"] == "out" for x in units)
        gun = any(self.c(x).type == "railroad_gun" for x in units)

        def rank(_path: tuple[str, ...], n: str) -> int | None:
            if self.has_enemy(n, side):
                return None  # 8.6.4
            if any(self._terrain_cost(x, n) is None or not self._may_enter_country(x, n)
                   for x in units):
                return None
            friend = self.has_friend(n, side)
            z = n in ez
            if oos and z and not friend:
                return None  # 8.6.2, 4.2.2
            return 0 if not z and not friend else 1 if not z else 2 if friend else 3

        def may_cross(x: str, y: str) -> bool:
            if self.data.side_features(x, y) & (BLOCKING_SIDES | {"frozen_access"}):
                return False  # 8.6.4, 16.7
            return not gun or y in self.data.rail.get(x, ())  # 8.6.4 Railroad Gun

        found = retreat_options(self.data.hexmap, a, 1, rank, away_from=center,
                                may_cross=may_cross)
        return list(found.hexes) if found.complete else []

    def _retreat_groups(self, t: dict[str, Any]) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for uid, left in sorted(t["left"].items()):
            if left > 0 and self.u(uid)["hex"]:
                groups.setdefault(self.u(uid)["hex"], []).append(uid)
        return groups

    def _retreat_left(self, t: dict[str, Any]) -> str:
        left = t.get("left", {})
        return ", ".join(f"{x} {n} hex(es)" for x, n in sorted(left.items()) if n > 0)

    def _retreat_options(self, t: dict[str, Any]) -> list[Action]:
        out: list[Action] = []
        for _, units in sorted(self._retreat_groups(t).items()):
            for dest in self._retreat_targets(units, t["center"]):
                out.append(Retreat(tuple(units), dest))
            if len(units) > 1:
                for uid in units:
                    for dest in self._retreat_targets([uid], t["center"]):
                        out.append(Retreat((uid,), dest))
        return out

    def _retreat_auto(self, t: dict[str, Any]) -> bool:
        groups = self._retreat_groups(t)
        if not groups:
            self.s["tasks"].pop(0)
            return True
        for _, units in sorted(groups.items()):
            for uid in units:
                if not self._retreat_targets([uid], t["center"]):
                    left = t["left"][uid]
                    t["left"][uid] = 0
                    self.say(f"{uid} cannot retreat: {left} step loss(es) instead (8.5.1)",
                             "loss", [self.u(uid)["hex"]], [uid])
                    for _ in range(left):
                        if self.u(uid)["hex"]:
                            self._lose_step(uid, "unable to retreat (8.5.1)")
                    return True
        opts = self._retreat_options(t)
        if len(opts) == 1:
            r = opts[0]
            assert isinstance(r, Retreat)
            self._apply_retreat(t, r)
            return True
        return False

    def _apply_retreat(self, t: dict[str, Any], a: Retreat) -> None:
        units = list(a.units)
        if any(t["left"].get(x, 0) <= 0 or not self.u(x)["hex"] for x in units):
            raise IllegalAction("those units have no retreat left to make", rule="8.6")
        if len({self.u(x)["hex"] for x in units}) != 1:
            raise IllegalAction("units retreating together must start in one hex", rule="8.6")
        targets = self._retreat_targets(units, t["center"])
        if a.dest not in targets:
            raise IllegalAction(f"{a.dest} is not a retreat hex of the best priority available "
                                f"({', '.join(targets) or 'none'})", rule="8.6.1")
        side = self.c(units[0]).side
        src = self.u(units[0])["hex"]
        friend = self.has_friend(a.dest, side)
        zoc_loss = a.dest in self.zoc(other(side)) and not friend
        river = self.data.side_features(src, a.dest) & {"minor_river", "major_river", "strait"}
        for uid in units:
            self.u(uid)["hex"] = a.dest
            t["left"][uid] -= 1
            if friend:
                self.u(uid)["rin"] = True  # 8.6.5
        self._touch()
        self.say(f"{' '.join(self.label(x) for x in units)} retreat {src} -> {a.dest}", "retreat",
                 [src, a.dest], units)
        for uid in units:
            self._claim(uid, a.dest)
        if zoc_loss:  # one step for the stack, the owner choosing the unit
            self._push({"k": "lose", "who": side, "n": 1, "units": units, "taken": {},
                        "why": "retreated into an enemy ZOC (4.2.1, 8.6.2)"})
        if river:
            for uid in units:
                if self.c(uid).type in ARMOR_TYPES and self.u(uid)["hex"]:
                    self._lose_step(uid, "armor retreating across a river (8.6.3)")

    # -- advance after combat (8.7) ---------------------------------------------------------

    def _call_advance_start(self, t: dict[str, Any]) -> None:
        cb = self.s["combat"]
        role = t["role"]
        loser = "def" if role == "att" else "att"
        side = cb["side"] if role == "att" else other(cb["side"])
        if loser == "def":
            vacated = [cb["target"]] if not self.has_enemy(cb["target"], side) else []
        else:
            hexes = sorted({cb["orig"][x] for x in cb["att"]})
            still = [h for h in hexes if self.has_enemy(h, side)]
            vacated = hexes if not still else []
        lost_all = not any(self.u(x)["hex"] == cb["orig"][x] for x in cb[loser])
        if cb["kind"] == "overrun" and role == "att":
            movers = self._alive_in_combat("att")
            if vacated and lost_all:
                for uid in movers:
                    self.u(uid).update(hex=cb["target"], mode="ovr")  # 7.1, 7.2.2
                self._touch()
                for uid in movers:
                    self._claim(uid, cb["target"])
                if movers:
                    self.say(f"The overrun succeeds: {' '.join(movers)} enter {cb['target']}",
                             "move", [cb["target"]], movers)
            else:
                for uid in cb["att"]:
                    self.u(uid).update(mp=0, mode="done")
                self.say("The overrun fails: the attackers end their movement (7.1)", "info")
            return
        if not vacated or not lost_all:
            return
        took = cb.get("took", {}).get(loser)
        if cb["elim"].get(loser):
            allow = 2
        elif took:
            allow = rules.advance_allowance(took[0], took[1], False)
        else:
            allow = 0
        if allow <= 0:
            return
        movers = [x for x in self._alive_in_combat(role) if self.c(x).is_combat
                  and self.c(x).factors[0][2] > 0 and self.c(x).type != "fortress"]
        if movers:
            self._push({"k": "advance", "who": side, "units": movers, "n": allow,
                        "first": vacated, "moved": {}})

    def _advance_options(self, t: dict[str, Any]) -> list[Action]:
        out: list[Action] = []
        for uid in t["units"]:
            u = self.u(uid)
            if not u["hex"]:
                continue
            m = t["moved"].get(uid, 0)
            cap = min(t["n"], 2 if self.c(uid).type in ARMOR_TYPES else 1)  # 8.7.1
            if m >= cap:
                continue
            for n in self.data.neighbors[u["hex"]]:
                if m == 0 and n not in t["first"]:
                    continue  # 8.7.2 first hex: the vacated hex
                if self._advance_step_ok(uid, u["hex"], n, second=m > 0):
                    out.append(Advance(uid, n))
        return out

    def _advance_step_ok(self, uid: str, a: str, b: str, second: bool) -> bool:
        side = self.c(uid).side
        if self.has_enemy(b, side) or self._terrain_cost(uid, b) is None:
            return False
        if not self._may_enter_country(uid, b):
            return False
        f = self.data.side_features(a, b)
        if f & (BLOCKING_SIDES | {"frozen_access"}):
            return False
        return not (second and f & {"minor_river", "major_river", "strait"})

    def _apply_advance(self, t: dict[str, Any], a: Advance) -> None:
        if a not in self._advance_options(t):
            raise IllegalAction(f"{a.unit} cannot advance into {a.dest} (first into the vacated "
                                "hex; second hex only for Panzer/Tank/Mech Group units after a "
                                "retreat of two or more, never across a river)", rule="8.7")
        src = self.u(a.unit)["hex"]
        self.u(a.unit)["hex"] = a.dest
        t["moved"][a.unit] = t["moved"].get(a.unit, 0) + 1
        self._touch()
        self._claim(a.unit, a.dest)
        self.say(f"{self.label(a.unit)} advances {src} -> {a.dest}", "move", [src, a.dest],
                 [a.unit])

    def _call_combat_end(self, t: dict[str, Any]) -> None:
        self.s["combat"] = None
        self._touch()

    # -- generals (16.5) and chits ----------------------------------------------------------

    def _generals_options(self, t: dict[str, Any]) -> list[Word]:
        out = []
        for g in self._generals_ready():
            for uid in t["units"]:
                if not self.u(uid)["hex"]:
                    continue
                if self.u(uid)["chit"]:
                    out.append(Word(f"general {g} replaces chit of {uid}"))
                elif self.s["cups"][self.c(uid).letter]:
                    out.append(Word(f"general {g} for {uid}"))
        return out

    def _apply_general(self, t: dict[str, Any], text: str) -> None:
        parts = text.split()
        g, uid = parts[1], parts[-1]
        self.s["generals"][g] = "used"
        t["units"] = [x for x in t["units"] if x != uid]
        if "replaces" in parts:
            self._drop_chit(uid)
            task = self._draw_task(uid, 1, "16.5")
            self.say(f"General {g} replaces the chit of {uid} (16.5)")
        else:
            task = self._draw_task(uid, 2, "16.5")
            self.say(f"General {g} draws two chits for {uid} (16.5)")
        if task:
            self._push(task)

    # ================================================================================
    # stacking (6.0)
    # ================================================================================

    def _over_limit(self, h: str) -> list[str]:
        """Units among which the excess must be eliminated in ``h`` (empty when legal)."""
        units = sorted(self.units_at(h))
        if len(units) <= 1:
            return []
        by: dict[str, list[str]] = {}
        for uid in units:
            c = self.c(uid)
            if c.type in CORPS_TYPES:
                key = "corps"
            elif c.type == "allied_army":
                key = "allied"
            elif c.type == "turkish":
                key = "turkish"
            elif c.side == SOVIET and c.type in SOVIET_ARMY_TYPES:
                if self.turn <= 11 or c.type in ("combined_arms", "mech_group"):
                    key = "army"  # 6.3, 6.4
                else:
                    key = "elite"
            else:
                key = c.type
            by.setdefault(key, []).append(uid)
        combat_axis = by.get("corps", []) + by.get("allied", []) + by.get("turkish", [])
        if by.get("allied") and len(combat_axis) > 1:
            return combat_axis  # 6.2
        if by.get("turkish") and len(combat_axis) > 1:
            return combat_axis  # 21.2.2
        for key, limit in (("corps", 3), ("army", 1), ("elite", 1), ("air_base", 1),
                           ("supply_base", 1), ("railroad_gun", 1), ("fortress", 1),
                           ("offensive_support", 1), ("economic", 1)):
            if len(by.get(key, [])) > limit:
                return by[key]
        return []

    def _call_stacking(self, t: dict[str, Any]) -> None:
        tasks = []
        for h in sorted(self.occ()):
            over = self._over_limit(h)
            if over:
                owner = self.c(over[0]).side
                tasks.append({"k": "stack", "who": other(owner), "hex": h})
        self._push(*tasks)

    # ================================================================================
    # administrative phase
    # ================================================================================

    def _admin_tasks(self) -> list[dict[str, Any]]:
        info = self.data.turns[self.turn]
        tasks: list[dict[str, Any]] = [{"k": "call", "fn": "turkey"},
                                       {"k": "convert", "who": SOVIET},
                                       {"k": "combine", "who": AXIS}]
        if self.mud and info.replacements != (0, 0):
            i, p = info.replacements
            tasks.append({"k": "replace", "who": AXIS, "i": i, "p": p, "fin": False})
        if info.production:
            tasks.append({"k": "roll", "who": CHANCE, "then": "production", "rule": "12.1",
                          "purpose": f"Soviet production (number {self.production_number()})"})
            tasks.append({"k": "evacuate", "who": SOVIET})
        tasks.append({"k": "call", "fn": "admin_chits"})
        tasks.append({"k": "call", "fn": "recovery"})
        return tasks

    def production_number(self) -> int:
        table = self.data.production
        n = len(self.s["eliminated_assets"])
        return table[min(n, len(table) - 1)]

    def _on_production(self, t: dict[str, Any], roll: int) -> None:
        num = self.production_number()
        on_map = sum(1 for x in self.on_map(SOVIET) if self.c(x).type == "offensive_support")
        waiting = [x for x in sorted(self.s["units"]) if self.u(x)["box"] == "osm"]
        if roll <= num and waiting and on_map < self.data.max_os:
            self.say(f"Production succeeds (rolled {roll} against {num}): one Offensive "
                     "Support unit (12.1)")
            self._push({"k": "produce", "who": SOVIET, "unit": waiting[0]})
        else:
            self.say(f"No production (rolled {roll} against {num}, 12.1)")

    def _produce_hexes(self) -> list[str]:
        near = self.supply_net(SOVIET)[0]
        ez = self.zoc(AXIS)
        return sorted({self.u(x)["hex"] for x in self.on_map(SOVIET)
                       if self.u(x)["hex"] in near and self.u(x)["hex"] not in ez})

    def _evacuable(self) -> list[str]:
        sources = self.data.area("source_E") | self.data.area("source_S")
        rail_ok = self._rail_from(sources, self._blocked(SOVIET))
        ez = self.zoc(AXIS)
        return [x for x in sorted(self.on_map(SOVIET)) if self.c(x).asset == "factory"
                and self.u(x)["hex"] in rail_ok and self.u(x)["hex"] not in ez]

    def _convert_options(self) -> list[Word]:
        pool = [x for x in sorted(self.s["units"]) if self.u(x)["box"] == "conv"]
        if not pool:
            return []
        ez = self.zoc(AXIS)
        out = []
        for uid in sorted(self.on_map(SOVIET)):
            u = self.u(uid)
            if self.c(uid).type != "combined_arms" or u["sup"]:
                continue  # 17.2.2, 9.5.1
            if u["hex"] in ez and not self.mud:
                continue
            for g in pool:
                out.append(Word(f"convert {uid} to {g}"))
        return out

    def _combine_options(self) -> list[Word]:
        ez = self.zoc(SOVIET)
        out = []
        units = [x for x in sorted(self.on_map(AXIS)) if self.c(x).type in CORPS_TYPES
                 and self.steps_of(x) == 1 and not self.u(x)["sup"]
                 and (self.mud or self.u(x)["hex"] not in ez)]
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if self.u(a)["hex"] == self.u(b)["hex"] and self.c(a).type == self.c(b).type:
                    out.append(Word(f"combine {a} {b}"))
        return out

    def _replace_options(self, t: dict[str, Any]) -> list[Word]:
        out = []
        for uid in sorted(self.on_map(AXIS)):
            c, u = self.c(uid), self.u(uid)
            if u["sup"] or u["steps"] >= c.max_steps:
                continue  # 15.1.1
            if (c.type in ("infantry", "mountain") and t["i"] > 0) or \
                    (c.type in ("panzer", "ss_panzer") and t["p"] > 0) or \
                    (c.nation == "finnish" and t["i"] > 0 and not t["fin"]):
                out.append(Word(f"replace {uid}"))
        return out

    def _call_admin_chits(self, t: dict[str, Any]) -> None:
        axis_hexes = {self.u(x)["hex"] for x in self.on_map(AXIS)}
        need = []
        for uid in sorted(self.on_map(SOVIET)):
            if self.c(uid).type not in CHIT_TYPES:
                continue
            near = any(n in axis_hexes for n in self.data.neighbors[self.u(uid)["hex"]])
            if near and not self.u(uid)["chit"]:
                need.append(uid)  # 11.1.2
            elif not near and self.u(uid)["chit"]:
                self._drop_chit(uid)  # 11.2.1
                self.u(uid)["steps"] = 2
        tasks: list[dict[str, Any]] = []
        if need and self._generals_ready():
            tasks.append({"k": "generals", "who": SOVIET, "units": need})  # 16.5
        tasks.append({"k": "call", "fn": "admin_draws", "units": need})
        self._push(*tasks)

    def _call_admin_draws(self, t: dict[str, Any]) -> None:
        draws = [self._draw_task(uid, 1, "11.1.2") for uid in t["units"]
                 if self.u(uid)["hex"] and not self.u(uid)["chit"]]
        self._push(*[d for d in draws if d])

    def _call_recovery(self, t: dict[str, Any]) -> None:
        self.s["air"]["used"] = 0  # 14.0
        for g in self.s["generals"]:
            self.s["generals"][g] = "ready"  # 16.5
        if self.turn == 4:
            self._mech_groups_go()
        if self.turn == 17 and self.u("Ita8")["hex"]:
            self.u("Ita8").update(hex="", box="removed")
            self.say("Italy surrenders: the Italian 8th Army leaves the map (16.3)")
        for uid in sorted(self.s["units"]):
            if self.u(uid)["box"] == "baku":
                self.u(uid).update(box="", hex=BAKU_ENTRY)
                self.say(f"{uid} returns from Baku to {BAKU_ENTRY} (21.1.3)")
        self._touch()
        if self.turn in self.sc.rules.get("sudden_death_turns", []):
            cities = self.sc.rules.get("sudden_death_cities", [])
            if all(self.controls(SOVIET, h) for h in cities):
                self._push({"k": "roll", "who": CHANCE, "then": "sudden_death", "rule": "20.2",
                            "purpose": "Soviet Strategic Victory check: 1-2 wins"})

    def _on_sudden_death(self, t: dict[str, Any], roll: int) -> None:
        if roll <= 2:
            self._finish(SOVIET, f"the Soviets hold the key cities at the end of turn "
                                 f"{self.turn} and roll {roll}", "Soviet Strategic Victory")
        else:
            self.say(f"The war goes on (rolled {roll})")

    def _mech_groups_go(self) -> None:
        """16.4: at the end of turn 4 Mechanized Groups give way to eliminated armies."""
        for mg in sorted(x for x in self.on_map(SOVIET) if self.c(x).type == "mech_group"):
            h = self.u(mg)["hex"]
            self._drop_chit(mg)
            self.u(mg).update(hex="", box="removed")
            for due in (7, 6, 5):
                cands = [x for x in sorted(self.s["units"]) if self.u(x)["box"] == "track"
                         and self.u(x)["ret"] == due and self.c(x).type == "combined_arms"]
                if cands:
                    self.u(cands[0]).update(hex=h, box="", ret=0, back=False, steps=2)
                    self.say(f"{mg} is replaced by {cands[0]} at {h} (16.4)")
                    break
            else:
                self.say(f"{mg} is removed (16.4)")
        self._touch()

    def _call_turkey(self, t: dict[str, Any]) -> None:
        if self.options.get("turkey") != "on" or self.s["turkey"]:
            return
        rolls = []
        for uid in sorted(self.on_map(AXIS)):
            if not self.german(uid) or not self.c(uid).is_combat:
                continue
            h = self.u(uid)["hex"]
            south = self.data.area("south_of_turkey_trigger_line")
            if h in south:  # 21.2.1: south of the trigger line 1632-2034
                rolls.append({"k": "roll", "who": CHANCE, "then": "turkey", "unit": uid,
                              "supplied": self.in_supply(uid), "rule": "21.2.1",
                              "purpose": f"Turkish entry ({uid})"})
        self._push(*rolls)

    def _on_turkey(self, t: dict[str, Any], roll: int) -> None:
        if self.s["turkey"]:
            return
        if roll <= (3 if t["supplied"] else 1):
            self.s["turkey"] = True
            for uid in ("Tur1", "Tur2"):
                self.u(uid).update(hex=TURKEY_ENTRY, box="")
            self._touch()
            self.say(f"Turkey enters the war (21.2, rolled {roll})")

    def _on_baku(self, t: dict[str, Any], roll: int) -> None:
        if roll <= 4:
            self._finish(AXIS, f"German Panzers in Baku: the Soviet Union surrenders "
                               f"(rolled {roll})", "Axis Strategic Victory")
        else:
            self.say(f"Baku: no surrender (rolled {roll}); factories will be destroyed")
            self._push({"k": "roll", "who": CHANCE, "then": "baku_factories", "rule": "21.1.2",
                        "purpose": "factories destroyed by the Baku raid"})

    def _on_baku_factories(self, t: dict[str, Any], roll: int) -> None:
        self._push({"k": "baku_factories", "who": AXIS, "n": roll})

    # ================================================================================
    # victory (19.0)
    # ================================================================================

    def front_line_gap(self, side: str) -> int:
        """19.2: hexes missing from ``side``'s best Baltic-to-Black-Sea front line."""
        enemy = other(side)
        z = self.zoc(side)
        good = {h for h in self.data.land if not self.has_enemy(h, side)
                and (self.has_friend(h, side) or h in z)}
        starts = self.data.area("coast_baltic")
        goals = self.data.coast_black
        if not starts or not goals:
            return 0
        best: dict[str, int] = {}
        dq: deque[tuple[int, str]] = deque()
        for h in sorted(starts):
            w = 0 if h in good else 1
            if best.get(h, 99999) > w:
                best[h] = w
                if w == 0:
                    dq.appendleft((w, h))
                else:
                    dq.append((w, h))
        while dq:
            w, h = dq.popleft()
            if w > best[h]:
                continue
            if h in goals:
                return w
            for n in self.data.neighbors[h]:
                if not self._passable(h, n):
                    continue
                nw = w + (0 if n in good else 1)
                if nw < best.get(n, 99999):
                    best[n] = nw
                    if nw == w:
                        dq.appendleft((nw, n))
                    else:
                        dq.append((nw, n))
        del enemy
        return 0

    def _city_counts(self, h: str, side: str) -> bool:
        """19.1.3 a line of any length to a supply source; 19.1.4 not empty in enemy ZOC."""
        if not self.has_friend(h, side) and h in self.zoc(other(side)):
            return False
        if side == AXIS:
            sources = set(self.data.area("source_W") | self.data.area("source_H")
                          | self.data.area("source_R") | self.data.area("source_F"))
        else:
            sources = set(self.data.area("source_E") | self.data.area("source_S"))
        reach = self._spread({h: 10_000}, frozenset(
            x for x in self._blocked(side) if x != h))
        return any(s in reach for s in sources)

    def victory_points(self) -> tuple[int, list[str]]:
        v = self.sc.victory
        scorer = v.get("scores", AXIS)
        lines: list[str] = []
        vp = 0
        if scorer == AXIS:
            ea = len(self.s["eliminated_assets"]) * int(v.get("economic_asset_vp", 0))
            vp += ea
            lines.append(f"eliminated Economic Assets: {ea}")
            for h, spec in sorted(v.get("city", {}).items()):
                mark = self.s["control"].get(h)
                if mark == AXIS and self._city_counts(h, AXIS):
                    vp += spec["held"]
                    lines.append(f"{spec['name']} held: {spec['held']}")
                elif mark == SOVIET:
                    vp += spec["recaptured"]
                    lines.append(f"{spec['name']} recaptured: {spec['recaptured']}")
            for h, spec in sorted(v.get("axis_city", {}).items()):
                if not self.controls(SOVIET, h):
                    vp += int(v.get("axis_city_vp", 0))
                    lines.append(f"{spec['name']} not Soviet: {v.get('axis_city_vp', 0)}")
            if "soviet_army_in_germany" in v:
                per: dict[str, int] = {}
                for uid in self.on_map(SOVIET):
                    if self.c(uid).type not in SOVIET_ARMY_TYPES:
                        continue
                    country = self.data.country_of(self.u(uid)["hex"])
                    if country == "germany":
                        per[country] = per.get(country, 0) + int(v["soviet_army_in_germany"])
                    elif country in ("finland", "hungary", "romania"):
                        per[country] = max(int(v["soviet_army_minor_ally_cap"]), per.get(
                            country, 0) + int(v["soviet_army_in_minor_ally"]))
                for country, d in sorted(per.items()):
                    vp += d
                    lines.append(f"Soviet armies in {country}: {d}")
            sign = 1
        else:
            for h, spec in sorted(v.get("city", {}).items()):
                if self.controls(SOVIET, h):
                    vp += spec["held"]
                    lines.append(f"{spec['name']} Soviet: {spec['held']}")
            sign = -1
        gap_s, gap_a = self.front_line_gap(SOVIET), self.front_line_gap(AXIS)
        fs = sign * gap_s * int(v.get("front_line_missing_soviet", 0))
        fa = sign * gap_a * int(v.get("front_line_missing_axis", 0))
        vp += fs + fa
        lines.append(f"Soviet front line missing {gap_s} hex(es): {fs:+d}")
        lines.append(f"Axis front line missing {gap_a} hex(es): {fa:+d}")
        return vp, lines

    def _end_game(self) -> None:
        vp, lines = self.victory_points()
        scorer = self.sc.victory.get("scores", AXIS)
        level = "Draw"
        for top, name in self.sc.victory.get("levels", []):
            if vp <= top:
                level = name
                break
        winner = AXIS if level.startswith("Axis") else SOVIET if level.startswith(
            "Soviet") else None
        self._finish(winner, f"{scorer.title()} VP {vp} ({'; '.join(lines)})", level)

    def _finish(self, winner: str | None, text: str, level: str) -> None:
        self.s["result"] = {"winner": winner, "text": text, "level": level}
        self.s["tasks"] = []
        self.say(f"Game over: {level}. {text}", "info")

    # ================================================================================
    # the contract's hooks
    # ================================================================================

    def _side(self) -> str:
        t = self._top()
        return t["who"] if t else ""

    def _current_player(self) -> str | None:
        if self.s["result"] is not None:
            return None
        t = self._top()
        return None if t is None else t["who"]

    def _move_options(self, t: dict[str, Any]) -> list[Action]:
        side = t["who"]
        exploit = t["exploit"]
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

    def _baku_options(self, t: dict[str, Any]) -> list[Word]:
        if self.options.get("baku") != "on" or self.s["baku_done"] or t["who"] != AXIS:
            return []
        out = []
        for uid in self.units_at(BAKU_ENTRY, AXIS):
            if self.c(uid).type in ("panzer", "ss_panzer") and self.u(uid)["mp"] >= 5 and \
                    self.u(uid)["mode"] not in ("strat", "sea", "done", "one"):
                out.append(Word(f"baku {uid}"))
        return out

    def _task_options(self, t: dict[str, Any]) -> list[Action]:
        k = t["k"]
        side = t["who"]
        done: list[Action] = [Word(DONE[k])] if k in DONE else []
        if k == "move":
            return self._move_options(t)
        if k == "combat":
            return [*self._attack_options(), Word(DONE["combat"])]
        if k == "reinf":
            opts: list[Action] = []
            for uid in self._reinf_pool(side):
                opts += [Word(f"place {uid} {h}") for h in self._reinf_hexes(uid)]
            return opts + done
        if k == "take":
            return self._take_options(t)
        if k == "lose":
            return list(self._lose_options(t))
        if k == "retreat":
            return self._retreat_options(t)
        if k == "advance":
            return [*self._advance_options(t), *done]
        if k == "generals":
            return [*self._generals_options(t), *done]
        if k == "keep":
            return [Word(f"keep {cid} for {t['unit']}") for cid in sorted(set(t["drawn"]))]
        if k == "stack":
            return [Word(f"eliminate {x}") for x in self._over_limit(t["hex"])]
        if k == "expend":
            return [*(Word(f"expend {x}") for x in self._expendable()), *done]
        if k == "airsupply":
            if self.mud or self.air_available() <= 0:
                return done
            return [*(Word(f"air supply {x}") for x in sorted(self.on_map(AXIS))
                      if self.german(x) and self.u(x)["sup"] == "out"
                      and self._in_air_range(self.u(x)["hex"])), *done]
        if k == "partisan_oos":
            return [Word(f"out of supply {x}") for x in self._partisan_targets(t["hex"])]
        if k == "partisan_place":
            moves = self._partisan_moves(t)
            bases = self._base_hexes()
            # 10.2: markers not on a Supply Base must be placed when they can be
            loose = {p for p, h in self.s["partisans"].items() if h not in bases}
            must = any(p in loose for p, _ in moves)
            return [*(Word(f"partisan {p} to {b}") for p, b in moves), *([] if must else done)]
        if k == "isolation":
            return [Word(f"isolation loss {x}") for x in sorted(self.units_at(t["hex"], side))
                    if self.isolated(x)]
        if k == "convert":
            return [*self._convert_options(), *done]
        if k == "combine":
            return [*self._combine_options(), *done]
        if k == "replace":
            return [*self._replace_options(t), *done]
        if k == "produce":
            return [Word(f"produce {t['unit']} at {h}") for h in self._produce_hexes()]
        if k == "evacuate":
            return [*(Word(f"evacuate {x}") for x in self._evacuable()), *done]
        if k == "baku_factories":
            return [Word(f"baku factory {x}") for x in sorted(self.on_map(SOVIET))
                    if self.c(x).asset == "factory"]
        raise AssertionError(f"no options for task {k}")

    def _legal_actions(self) -> list[Action]:
        t = self._top()
        assert t is not None
        return self._task_options(t)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def _apply_action(self, action: Action) -> list[Event]:
        self._events = []
        t = self._top()
        assert t is not None
        k = t["k"]
        if k in ("move",):
            exploit = t["exploit"]
            if isinstance(action, Move):
                self._apply_move(action, exploit)
            elif isinstance(action, Strategic):
                if exploit:
                    raise IllegalAction("no Strategic Movement in the Exploitation Movement "
                                        "Phase", rule="5.4.3")
                self._apply_strategic(action)
            elif isinstance(action, Overrun):
                self._apply_overrun(action, exploit)
            elif isinstance(action, Word) and action.text.startswith("ship "):
                if exploit:
                    raise IllegalAction("no Sea Transport in the Exploitation Movement Phase",
                                        rule="5.4.3")
                self._apply_ship(action.text)
            elif isinstance(action, Word) and action.text.startswith("baku "):
                self._apply_baku(t, action.text)
            elif action == Word(DONE["exploit" if exploit else "move"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction(f"{action.notation()!r} is not a movement-phase action",
                                    rule="5.0")
        elif k == "combat":
            if isinstance(action, Attack):
                self._apply_attack(action)
            elif action == Word(DONE["combat"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction(f"{action.notation()!r} is not a combat-phase action",
                                    rule="8.0")
        elif k == "take":
            if not isinstance(action, Take):
                raise IllegalAction("the result must be taken first: take ... as ...", rule="8.5")
            self._apply_take(t, action)
        elif k == "retreat":
            if not isinstance(action, Retreat):
                raise IllegalAction("a retreat is pending: retreat UNITS to HEX", rule="8.6")
            self._apply_retreat(t, action)
        elif k == "advance":
            if isinstance(action, Advance):
                self._apply_advance(t, action)
            elif action == Word(DONE["advance"]):
                self.s["tasks"].pop(0)
            else:
                raise IllegalAction("advance after combat: advance UNIT HEX or end advance",
                                    rule="8.7")
        else:
            if not isinstance(action, Word):
                raise IllegalAction(f"{action.notation()!r} does not answer "
                                    f"{self._decision().prompt}", rule=self._decision().rule)
            legal = {a.notation() for a in self._task_options(t)}
            if action.text not in legal:
                raise IllegalAction(f"{action.text!r} is not allowed now: "
                                    f"{self._decision().prompt}", rule=self._decision().rule)
            self._apply_word(t, action.text)
        self._touch()
        self._run()
        return self._events

    def _apply_word(self, t: dict[str, Any], text: str) -> None:
        """Apply a choice already checked against the task's options."""
        k = t["k"]
        parts = text.split()
        if text.startswith("end "):
            self.s["tasks"].pop(0)
            if k == "reinf":
                self._reinf_leftover()
            return
        if k == "reinf":
            uid, h = parts[1], parts[2]
            self.u(uid).update(hex=h, box="", sup="", mp=self.factors(uid)[2], mv=0, mode="",
                               start=h,
                               steps=self.c(uid).max_steps)
            self._touch()
            self._claim(uid, h)
            self.say(f"{uid} arrives at {self.data.hex_name(h)} (17.0)", "move", [h], [uid])
        elif k == "lose":
            uid = parts[1]
            t["taken"][uid] = t["taken"].get(uid, 0) + 1
            t["n"] -= 1
            self._lose_step(uid, t.get("why", "combat result (8.5)"))
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "generals":
            self._apply_general(t, text)
        elif k == "keep":
            cid, uid = parts[1], parts[3]
            self.s["tasks"].remove(t)
            drawn = list(t["drawn"])
            drawn.remove(cid)
            self._give_chit(uid, cid)
            for other_cid in drawn:
                chit = self.data.chits[other_cid]
                if chit.starred:
                    self.s["removed_chits"] = sorted([*self.s["removed_chits"], other_cid])
                else:
                    self.s["cups"][chit.letter] = sorted([*self.s["cups"][chit.letter],
                                                          other_cid])
        elif k == "stack":
            self._eliminate(parts[1], "over the stacking limit, chosen by the opponent (6.0)")
            if not self._over_limit(t["hex"]):
                self.s["tasks"].remove(t)
        elif k == "expend":
            self.s["expended"] = sorted([*self.s.get("expended", []), parts[1]])
            self._touch()
            self.say(f"{parts[1]} is expended to supply units (9.3.4)")
        elif k == "airsupply":
            self.u(parts[2])["sup"] = "lack"
            self.s["air"]["used"] += 1
            self.say(f"Air Supply: {parts[2]} is now Lack of Supply (14.2)")
        elif k == "partisan_oos":
            self.u(parts[3])["sup"] = "out"
            t["n"] -= 1
            self.say(f"Partisans: {parts[3]} is Out of Supply (10.1)")
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "partisan_place":
            p, base = parts[1], parts[3]
            self.s["partisans"][p] = self.u(base)["hex"]
            t["moved"] = sorted([*t["moved"], p])
            self.say(f"Partisan marker {p} goes to {base} at {self.u(base)['hex']} (10.2)")
        elif k == "isolation":
            t["n"] -= 1
            self._lose_step(parts[2], "isolation attrition (9.1.3)")
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        elif k == "convert":
            ca, g = parts[1], parts[3]
            h = self.u(ca)["hex"]
            self._drop_chit(ca)
            self.u(ca).update(hex="", box="removed")
            self.u(g).update(hex=h, box="", steps=2, chit="", sup="")
            self._touch()
            self.say(f"{ca} becomes {g} at {h} (17.2)", "info", [h], [g])
            d = self._draw_task(g, 1, "17.2.1")
            if d:
                self._push(d)
        elif k == "combine":
            a, b = parts[1], parts[2]
            self.u(a)["steps"] = self.c(a).max_steps
            self.u(b).update(hex="", box="elim")
            self._touch()
            self.say(f"Kampfgruppen {a} and {b} combine into {a} (15.2)")
        elif k == "replace":
            uid = parts[1]
            c = self.c(uid)
            if c.type in ("panzer", "ss_panzer"):
                t["p"] -= 1
            else:
                t["i"] -= 1
                if c.nation == "finnish":
                    t["fin"] = True
            self.u(uid)["steps"] += 1
            self._touch()
            self.say(f"{uid} recovers a step (15.1)")
        elif k == "produce":
            uid, h = parts[1], parts[3]
            self.s["tasks"].remove(t)
            self.u(uid).update(hex=h, box="", sup="")
            self._touch()
            self.say(f"{uid} is produced at {h} (12.1)", "move", [h], [uid])
        elif k == "evacuate":
            self.s["tasks"].remove(t)
            self.u(parts[1]).update(hex="", box="evac")
            self._touch()
            self.say(f"{parts[1]} is evacuated (12.2)")
        elif k == "baku_factories":
            self._eliminate(parts[2], "destroyed by the Baku raid (21.1.2)")
            t["n"] -= 1
            if t["n"] <= 0:
                self.s["tasks"].remove(t)
        else:  # pragma: no cover
            raise AssertionError(k)

    def _apply_baku(self, t: dict[str, Any], text: str) -> None:
        legal = {w.text for w in self._baku_options(t)}
        if text not in legal:
            raise IllegalAction("only a German Panzer unit in 2434 with 5 MP left may enter "
                                "Baku, once per game, with the Baku option", rule="21.1.1")
        uid = text.split()[1]
        self.u(uid).update(hex="", box="baku", mp=0, mode="done")
        self.s["baku_done"] = True
        self._touch()
        self.say(f"{uid} enters the Baku box (21.1)")
        self._push({"k": "roll", "who": CHANCE, "then": "baku", "rule": "21.1.2",
                    "purpose": "Soviet surrender at Baku: 1-4 surrenders"})

    def _chance_request(self) -> ChanceRequest:
        t = self._top()
        assert t is not None and t["who"] == CHANCE
        if t["k"] == "draw":
            uid = t["unit"]
            return ChanceRequest.draw(
                f"strength chit for {uid} at {self.u(uid)['hex']}", cup=t["letter"],
                contents=tuple(self.s["cups"][t["letter"]]), count=t["count"], rule=t["rule"])
        return ChanceRequest.roll(t["purpose"], 6, rule=t["rule"])

    def _apply_outcome(self, outcome: Any) -> list[Event]:
        self._events = []
        t = self.s["tasks"].pop(0)
        if t["k"] == "draw":
            self._on_chits(t, tuple(outcome))
        else:
            getattr(self, "_on_" + t["then"])(t, int(outcome[0]))
        self._touch()
        self._run()
        return self._events

    def _decision(self) -> Decision:
        t = self._top()
        assert t is not None
        side = t["who"]
        k = t["k"]
        prompts = {
            "move": ("movement", "5.0", f"the {side} player moves (or ends the phase)"),
            "combat": ("combat", "8.0", f"the {side} player declares attacks"),
            "reinf": ("reinforcements", "17.0", f"the {side} player places reinforcements"),
            "generals": ("generals", "16.5", "the Soviet player may use a General before the "
                                             "chits are drawn"),
            "keep": ("chit-choice", "16.5", f"the Soviet player keeps one of two chits for "
                                            f"{t.get('unit')}"),
            "take": ("result-choice", "8.5", f"the {side} player takes {t.get('code')} on "
                                              f"{' '.join(t.get('units', []))} as step losses "
                                              "and hexes of retreat"),
            "lose": ("step-loss", "8.5.1", f"the {side} player allocates {t.get('n')} step "
                                            f"loss(es) among {' '.join(t.get('units', []))}"),
            "retreat": ("retreat-choice", "8.6.1", f"the {side} player retreats "
                                                   f"{self._retreat_left(t)} away from "
                                                   f"{t.get('center')} (equal-priority hexes "
                                                   "only)"),
            "advance": ("advance", "8.7", f"the {side} player may advance up to {t.get('n')} "
                                          f"hex(es) into {' '.join(t.get('first', []))}"),
            "stack": ("stacking", "6.0", f"the {side} player eliminates the opponent's excess "
                                         f"units at {t.get('hex')}"),
            "expend": ("expend-base", "9.3.4", "the Axis player may expend Supply Bases"),
            "airsupply": ("air-supply", "14.2", "the Axis player may fly Air Supply"),
            "partisan_oos": ("partisan-markers", "10.1", "the Soviet player marks German units "
                                                         "Out of Supply, nearest first"),
            "partisan_place": ("partisan-placement", "10.2", "the Soviet player places "
                                                             "Partisan markers"),
            "isolation": ("isolation-losses", "9.1.3", f"the {side} player takes {t.get('n')} "
                                                       f"isolation loss(es) at {t.get('hex')}"),
            "convert": ("conversion", "17.2", "the Soviet player may convert armies"),
            "combine": ("kampfgruppe", "15.2", "the Axis player may combine Kampfgruppen"),
            "replace": ("replacements", "15.1", f"the Axis player spends replacements "
                                                f"(i{t.get('i')}/p{t.get('p')})"),
            "produce": ("production", "12.1", "the Soviet player places the produced unit"),
            "evacuate": ("evacuation", "12.2", "the Soviet player may evacuate one factory"),
            "baku_factories": ("baku-factories", "21.1.2", "the Axis player picks factories "
                                                           "destroyed"),
        }
        kind, rule, prompt = prompts[k]
        opts = self._task_options(t)
        default: Action | None = None
        if k in DONE:
            default = Word(DONE["exploit" if k == "move" and t.get("exploit") else k])
        elif k == "take":
            default = opts[-1] if opts else None  # retreats where possible (8.5)
        elif opts:
            default = opts[0]
        return Decision(side, kind, prompt, tuple(opts) if len(opts) <= 40 else (), default,
                        rule)

    def _result(self) -> Result | None:
        r = self.s["result"]
        if r is None:
            return None
        return Result(r["winner"], "rules", r["text"], r["level"])

    def _snapshot(self) -> Snapshot:
        return self.s

    # ================================================================================
    # the view
    # ================================================================================

    def status(self) -> str:
        t = self._top()
        waiting = "" if t is None else f"; awaiting {t['who']} ({t['k']})"
        return (f"Turn {self.turn} {self.data.turns[self.turn].date} ({self.weather}), "
                f"{self._phase_title()}{waiting}")

    def turn_number(self) -> int:
        return int(self.turn)

    def status_line(self, side: str | None) -> str:
        """The same line for both sides; no need to build the board for it."""
        return self.status()

    def _view(self, side: str | None) -> BoardView:
        from engines.motherland.board import build_view

        return build_view(self, side)
