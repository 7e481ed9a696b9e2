"""The position as canonical data: what a save holds, and a state rebuilt from it.

A save's body is the step runtime's: ``position`` (this module's fields) and ``stack``
(the frames of the sequence of play, :meth:`pbem.steps.StepState.stack_data`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engines.white_death.base import BaseState, U
from engines.white_death.data import UnitDef
from pbem import canonical


class SnapshotState(BaseState):
    """Saving and restoring the position as canonical data."""

    def setup_position(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phasing": self.phasing,
            "mps": dict(self.mps), "impulse_mp": self.impulse_mp,
            "impulse_left_before": self.impulse_left_before, "impulses": dict(self.impulses),
            "weather": self.weather, "supply": dict(self.supply), "repl": dict(self.repl),
            "rail_used": dict(self.rail_used), "repaired": dict(self.repaired),
            "vl_released": self.vl_released, "vl_avoid": self.vl_avoid,
            "bunkers": [list(b) for b in self.bunkers], "bridges": sorted(self.bridges),
            "builders": sorted(self.builders),
            "units": [self.units[k].to_data() for k in sorted(self.units)],
            "garrisons": sorted(self.garrison_types),
            "schedule": [list(r) for r in self.schedule],
            "assaults": {k: list(v) for k, v in sorted(self.assaults.items())},
            "combat": _canon(self.combat), "combat_hexes": list(self.combat_hexes),
            "plans": _canon(self.plans),
            "paid": sorted(self.paid), "bar": _canon(self.bar),
            "barrage_phase": {k: list(v) for k, v in sorted(self.barrage_phase.items())},
            "advance": {k: list(v) for k, v in sorted(self.advance.items())},
            "counts": dict(sorted(self.counts.items())), "losses": dict(self.losses),
            "setup_side": self.setup_side, "setup_raster": list(self.setup_raster),
            "flieger": self.flieger, "passing": self.passing, "seq": self.seq,
            "final": _canon(self.final),
        }

    def restore_from(self, body: dict[str, Any]) -> None:
        b = body["position"]
        self.restore_stack(body["stack"])
        self.turn = b["turn"]
        self.phasing = b["phasing"]
        self.mps = dict(b["mps"])
        self.impulse_mp = b["impulse_mp"]
        self.impulse_left_before = b["impulse_left_before"]
        self.impulses = dict(b["impulses"])
        self.weather = b["weather"]
        self.supply = dict(b["supply"])
        self.repl = dict(b["repl"])
        self.rail_used = dict(b["rail_used"])
        self.repaired = dict(b["repaired"])
        self.vl_released = b["vl_released"]
        self.vl_avoid = b["vl_avoid"]
        self.bunkers = [list(x) for x in b["bunkers"]]
        self.bridges = set(b["bridges"])
        self.builders = set(b["builders"])
        for h in b["garrisons"]:
            self.garrison_types[h] = UnitDef(h, "german", self.garrison_type(), "garrison", 1)
        self.units = {d["uid"]: U.from_data(d) for d in b["units"]}
        self.schedule = [list(r) for r in b["schedule"]]
        self.assaults = {k: list(v) for k, v in b["assaults"].items()}
        self.combat = _uncanon(b["combat"])
        self.combat_hexes = list(b["combat_hexes"])
        self.plans = _uncanon(b.get("plans", []))
        self.paid = set(b["paid"])
        self.bar = _uncanon(b["bar"])
        self.barrage_phase = {k: list(v) for k, v in b["barrage_phase"].items()}
        self.advance = {k: list(v) for k, v in b["advance"].items()}
        self.counts = dict(b["counts"])
        self.losses = dict(b["losses"])
        self.setup_side = b["setup_side"]
        self.setup_raster = list(b["setup_raster"])
        self.flieger = b["flieger"]
        self.passing = b["passing"]
        self.seq = b["seq"]
        self.final = _uncanon(b["final"])
        self._moved()


def _canon(x: Any) -> Any:
    if isinstance(x, Fraction):
        return canonical.frac(x)
    if isinstance(x, dict):
        return {k: _canon(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    return x


def _uncanon(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _uncanon(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_uncanon(v) for v in x]
    return x
