"""The White Death game state: Rules 3-22 as a state machine with explicit dice.

Flow (Rule 5 and "Play By Telephone"): at the start of a turn the weather, the Velikiye
Luki garrison release and air drops are rolled; then impulses alternate, Soviet first.
An impulse is the phasing player's decision (``impulse N``), movement with assault
declarations (``end movement``), barrage (``end barrage``); then the non-phasing player's
defensive fire, hex by hex (``done firing``); then the phasing player's assault fire,
hex by hex, and advances.  Every die is a :class:`ChanceRequest` taken from ``queue``;
what happens after the dice is kept in ``todo`` so a snapshot can stop anywhere.

The rules are spread over modules, one class each, combined here into :class:`WDState`:

* ``base``: the position, unit and hex lookups, stacking, the dice queue;
* ``terrain``: terrain and the cost to enter a hex (Rule 7);
* ``supply``: ZOCs, isolation, artillery supply, supply points (Rules 3, 15);
* ``combat``: fire and defense values, losses, morale, retreats (Rules 9, 10, 12, 14);
* ``artillery``: barrages, observation, line of sight (Rule 11.B);
* ``assault``: defensive and assault fire at each hex, support, the advance (Rules 9-11.A);
* ``reinforcements``: entering the map, reserves, replacements, refits (Rules 17, 18);
* ``movement``: moves, Brandenburg leads, deployment, rail, assault declarations, bridges;
* ``placement``: the scenario setup and the campaign's player setup (Rules 19, 22);
* ``turns``: turns, impulses, the end of the game (Rules 5, 16, 22);
* ``view`` and ``snapshot``: what a player sees (Rule 4.C) and what a save holds.

Each class subclasses the ones whose methods it calls, so that the type checker sees
every call; no method is defined twice, so the order of the classes below changes
nothing. Actions, steps and dice reach their methods by name (``_check_<kind>``,
``_do_act_<kind>``, ``_do_<step>``, ``_job_<die>``), wherever those are defined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.white_death.actions import WDAction, act, parse
from engines.white_death.assault import AssaultState
from engines.white_death.base import BOXES, U, other
from engines.white_death.movement import MovementState
from engines.white_death.placement import PlacementState
from engines.white_death.snapshot import SnapshotState
from engines.white_death.turns import TurnState
from engines.white_death.view import SIDE_COLOR, ViewState, river_lines
from pbem.engine import CHANCE, Action, Decision, Event
from pbem.errors import IllegalAction


def _unit_state(u: U) -> tuple[Any, ...]:
    spent = u.spent  # a Fraction hashes slowly: its two ints
    return (u.uid, u.loc, u.strength, u.deployed, spent.numerator, spent.denominator,
            u.stopped, u.zoc_start, u.entrained, u.via, u.garrison, u.seq, u.assault, u.entry,
            tuple(sorted(u.marks)) if u.marks else ())


# the names other modules and the tests import from here
__all__ = ["BOXES", "SIDE_COLOR", "U", "WDState", "other", "river_lines"]


class WDState(TurnState, PlacementState, MovementState, AssaultState, ViewState, SnapshotState):
    """The whole game: the rule modules, and the decisions and actions that span them."""

    # ------------------------------------------------------------------ decisions

    def _decision(self) -> Decision:
        side = self._current_player()
        assert side is not None and side != CHANCE
        who = side.capitalize()
        legal = self._legal_actions()
        opts = tuple(legal) if len(legal) <= 12 else ()
        ph = self.phase
        if ph == "setup":
            nxt = self.setup_raster[0] if self.setup_raster else ""
            return Decision(side, "setup", f"the {who} player must set up {nxt} "
                            f"({len(self.setup_raster)} units left to place)", opts,
                            act("auto-setup"), "Campaign setup")
        if ph == "vl-supply":
            return Decision(side, "vl-supply",
                            f"the {who} player may spend one of Velikiye Luki's "
                            f"{self.supply['vl']} supply points to keep the cut-off city out "
                            f"of isolation this turn (turn {self.turn})", opts,
                            act("vl-keep"), "Rule 15.D.2")
        if ph == "decision":
            return Decision(side, "impulse-mps",
                            f"the {who} player must decide how many of his {self.mps[side]} "
                            f"movement points to spend in this impulse (turn {self.turn})",
                            opts, act("impulse", n=self.mps[side]), "Rule 5")
        if ph == "movement":
            # Rule 4: while a unit must first move on out of a full hex, ending movement is
            # refused, so the decision has no default to offer (a default must be legal).
            end = act("end-movement")
            return Decision(side, "movement", f"the {who} player moves and declares assaults "
                            f"({self.impulse_mp} MPs this impulse)", opts,
                            end if end in legal else None, "Rule 6")
        if ph == "barrage":
            return Decision(side, "barrage", f"the {who} player may fire barrages", opts,
                            act("end-barrage"), "Rule 11.B")
        if ph in ("defense", "assault"):
            h = self.combat.get("hex", "")
            n = len(self.assaults)
            what = "defensive fire" if ph == "defense" else "assault fire"
            return Decision(side, "defensive-fire" if ph == "defense" else "assault-fire",
                            f"the {who} player must allocate {what} against "
                            f"{n} assault{'s' if n != 1 else ''} (now at {h})", opts,
                            act("done"), "Rule 9" if ph == "assault" else "Rule 5")
        if ph == "advance":
            return Decision(side, "advance", f"the {who} player may advance into "
                            f"{', '.join(sorted(self.advance))}", opts, act("end-advance"),
                            "Rule 9.D")
        raise AssertionError(ph)

    # ------------------------------------------------------------------ legal actions

    def _candidates(self) -> list[WDAction]:
        """The actions the phase may offer, before the checks weed them out."""
        ph = self.phase
        side = self._current_player()
        if ph == "setup":
            return self._setup_candidates()
        if ph == "vl-supply":
            return [act("vl-supply"), act("vl-keep")]
        if ph == "decision":
            assert side is not None
            return self._impulse_candidates(side)
        if ph == "movement":
            return self._movement_candidates()
        if ph == "barrage":
            return self._barrage_candidates()
        if ph in ("defense", "assault"):
            return self._combat_candidates()
        if ph == "advance":
            return self._advance_candidates()
        return []

    def _legal_actions(self) -> list[Action]:
        if "legal" in self._cache:
            cached: list[Action] = self._cache["legal"]
            return list(cached)
        out: list[Action] = []
        if self.phase == "movement":
            out = self._movement_legal()
            self._cache["legal"] = out
            return list(out)
        for a in self._candidates():
            try:
                if self.passing and a.unit != self.passing:
                    continue
                if a.kind != "move":
                    self._validate(a)
            except IllegalAction:
                continue
            out.append(a)
        self._cache["legal"] = out
        return list(out)

    def _movement_legal(self) -> list[Action]:
        """The movement phase's legal actions: :meth:`_movement_candidates` checked, in
        its order, with each unit's actions kept under what they read (:meth:`_unit_key`)."""
        out: list[Action] = []
        end = act("end-movement")
        if self._valid(end):
            out.append(end)
        memo = self._static.setdefault("unit-memo", {})
        # the phase's part of every unit's key as one number, so it is hashed once per
        # decision rather than once per unit (numbers from the catalog's count: never
        # reused, so a number forgotten with its table cannot stand for another phase)
        tokens = self._static.setdefault("phase-tokens", {})
        phase = self._phase_key()
        common = tokens.get(phase)
        if common is None:
            if len(tokens) >= 65536:
                tokens.clear()
            common = tokens[phase] = self._new_token()
        for uid in self.side_units(self.phasing):
            if self.passing and uid != self.passing:
                continue
            key = self._unit_key(uid, common)
            got = memo.get(key) if key is not None else None
            if got is None:
                got = tuple(a for a in self._unit_candidates(uid, dests=self._unit_dests)
                            if a.kind == "move" or self._valid(a))
                if key is not None:
                    if len(memo) >= 8192:
                        memo.clear()  # a bound: entries are pure functions of their keys
                    memo[key] = got
            out += got
        out += [a for a in self._phase_candidates() if self._valid(a)]
        return out

    def _valid(self, a: WDAction) -> bool:
        if self.passing and a.unit != self.passing:
            return False
        try:
            self._validate(a)
        except IllegalAction:
            return False
        return True

    def _phase_key(self) -> tuple[Any, ...]:
        """The part of :meth:`_unit_key` every unit shares."""
        s = self.phasing
        return (self.scenario, s, self.impulse_mp, self.impulse_left_before,
                self.weather, self.vl_released, self.vl_avoid, self.turn, self.passing,
                self.rail_used[s], self.repl[s], self.impulses[s], self.repaired[s],
                tuple(sorted(self.supply.items())), tuple(sorted(self.paid)),
                tuple(sorted(self.builders)), tuple(sorted(self.bridges)),
                self.by_enemies("token", s, self._new_token))

    def _unit_key(self, uid: str, common: object) -> tuple[Any, ...] | None:
        """Everything a unit's movement-phase actions read (Rules 3-8, 13, 15, 18, 20-22):
        its own state, the side's pools and the impulse, the weather, the bridges, the
        enemy's position (one number while the catalog's memo keeps it) and the friendly
        stacks within two hexes (Rule 4's moving on through a full hex looks one beyond;
        a Brandenburg lead reads the whole state of the stack it leads). ``None`` where
        the actions read farther: an entrained unit's rail destinations, and the
        unreleased Velikiye Luki garrison's rail moves inside the city."""
        u = self.units[uid]
        if u.entrained or self.city_bound(uid):
            return None
        key: tuple[Any, ...] = (common, _unit_state(u), self.stacks_near(self.phasing, u.loc))
        if "brandenburg" in self.utype(uid).flags:
            key += tuple(_unit_state(self.units[x]) for x in self.occupied(self.phasing)[u.loc])
        return key

    def _unit_dests(self, uid: str) -> frozenset[str]:
        # what _movable refuses, asked without raising (a unit of the side on the map,
        # in the movement phase: the rest holds for every unit listed)
        if "intrinsic" in self.utype(uid).flags or self.garrison_fixed(uid):
            return frozenset()
        u = self.units[uid]
        return self.move_dests(u) if self.left_ticks(u) > 0 else frozenset()

    # ------------------------------------------------------------------ validation and apply

    def _validate(self, a: WDAction) -> None:
        if self.passing and not (a.kind == "move" and a.unit == self.passing):
            raise IllegalAction(f"{self.passing} must first move on out of the full hex "
                                f"{self.units[self.passing].loc}", rule="Rule 4")
        fn: Callable[[WDAction], None] | None = getattr(
            self, "_check_" + a.kind.replace("-", "_"), None)
        if fn is None:
            raise IllegalAction(f"{a.notation()!r} is not possible now", rule="Rule 5")
        fn(a)

    def _apply_action(self, action: Action) -> list[Event]:
        if not isinstance(action, WDAction):
            action = parse(action.notation())
        self._validate(action)
        fn = getattr(self, "_do_act_" + action.kind.replace("-", "_"))
        events: list[Event] = fn(action)
        self._changed()
        events += self._settle()
        return events
