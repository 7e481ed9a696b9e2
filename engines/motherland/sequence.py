"""The turn sequence of For the Motherland!: the setup, the task loop and the phases.

A scenario's position is built once (``_setup``); from then on ``_run`` works the task
queue until a side or chance must act.  Each phase of the turn (3.0) pushes its tasks when
it starts; an empty queue moves on to the next phase, and past the last turn to the end
of the game (19.0).
"""

from __future__ import annotations

from typing import Any

from engines.motherland.actions import Take
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.core import MotherlandCore
from pbem.engine import CHANCE


class SequenceMixin(MotherlandCore):
    """Setup, the task loop and the sequence of phases (3.0)."""

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
            "late": False, "regular": False, "ever_entered": [], "hit": [],
        }
        self.s = s
        for uid, u in sorted(units.items()):
            if u["hex"]:
                self._claim(uid, u["hex"], quiet=True)
        self._push_phase()
        return s

    # ================================================================================
    # the task loop
    # ================================================================================

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
                self.say(f"Cup {t['letter']} is empty: {uid} takes the stand-in chit {fallback}",
                         rule="11.1")
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
                 f"{self._phase_title()}", "phase", rule="3.1")
        # 8.3.1, 8.3.4, 8.6.5 last one Combat Phase: which hexes were attacked, which units
        # attacked, defended or retreated into a friendly hex.  Overruns in the movement and
        # exploitation phases are not bound by them (7.0), so every phase starts clean.
        for uid in self.on_map():
            self.u(uid).update(atk=False, dfd=False, rin=False)
        self.s["hit"] = []
        if name == "supply":
            self._push(*self._supply_tasks(), front=False)
        elif name == "move":
            for uid in self.on_map(side):
                u = self.u(uid)
                u.update(mv=0, mode="", mp=self.factors(uid)[2], start=u["hex"])
            self.s["sea_used"] = False
            self.s["late"] = False
            self.s["regular"] = False  # 3.1 step 3 not begun
            self._push({"k": "call", "fn": "arrivals", "side": side},
                       {"k": "reinf", "who": side},
                       {"k": "move", "who": side, "exploit": False}, front=False)
        elif name == "combat":
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
