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
            # moves come checked, per unit (what _check_move asks of each)
            candidates = self._movement_candidates(dests=self._unit_dests)
        else:
            candidates = self._candidates()
        for a in candidates:
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

    def _unit_dests(self, uid: str) -> frozenset[str]:
        try:
            u = self._movable(uid)
        except IllegalAction:
            return frozenset()
        return self.move_dests(u) if self.left(uid) > 0 else frozenset()

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
        self._moved()
        events += self._settle()
        return events
