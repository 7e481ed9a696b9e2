"""The position as canonical data: what a save holds, and a state rebuilt from it.

A save's body is the step runtime's: ``position`` (this module's fields) and ``stack``
(the frames of the sequence of play, :meth:`pbem.steps.StepState.stack_data`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engines.white_death.base import BaseState
from engines.white_death.data import UnitDef
from engines.white_death.position import Position, U
from pbem import canonical


class SnapshotState(BaseState):
    """Saving and restoring the position as canonical data."""

    def setup_position(self) -> dict[str, Any]:
        p = self.pos
        return {
            "turn": p.turn, "phasing": p.phasing,
            "mps": dict(p.mps), "impulse_mp": p.impulse_mp,
            "impulse_left_before": p.impulse_left_before, "impulses": dict(p.impulses),
            "weather": p.weather, "supply": dict(p.supply), "repl": dict(p.repl),
            "rail_used": dict(p.rail_used), "repaired": dict(p.repaired),
            "vl_released": p.vl_released, "vl_avoid": p.vl_avoid,
            "bunkers": [list(b) for b in p.bunkers], "bridges": sorted(p.bridges),
            "builders": sorted(p.builders),
            "units": [_unit_data(p.units[k]) for k in sorted(p.units)],
            "garrisons": sorted(p.garrison_types),
            "schedule": [list(r) for r in p.schedule],
            "assaults": {k: list(v) for k, v in sorted(p.assaults.items())},
            "combat": _canon(p.combat), "combat_hexes": list(p.combat_hexes),
            "plans": _canon(p.plans),
            "paid": sorted(p.paid), "bar": _canon(p.bar),
            "barrage_phase": {k: list(v) for k, v in sorted(p.barrage_phase.items())},
            "advance": {k: list(v) for k, v in sorted(p.advance.items())},
            "counts": dict(sorted(p.counts.items())), "losses": dict(p.losses),
            "setup_side": p.setup_side, "setup_raster": list(p.setup_raster),
            "flieger": p.flieger, "passing": p.passing, "seq": p.seq,
            "final": _canon(p.final),
        }

    def restore_from(self, body: dict[str, Any]) -> None:
        b = body["position"]
        self.restore_stack(body["stack"])
        self.pos = p = Position()
        p.turn = b["turn"]
        p.phasing = b["phasing"]
        p.mps = dict(b["mps"])
        p.impulse_mp = b["impulse_mp"]
        p.impulse_left_before = b["impulse_left_before"]
        p.impulses = dict(b["impulses"])
        p.weather = b["weather"]
        p.supply = dict(b["supply"])
        p.repl = dict(b["repl"])
        p.rail_used = dict(b["rail_used"])
        p.repaired = dict(b["repaired"])
        p.vl_released = b["vl_released"]
        p.vl_avoid = b["vl_avoid"]
        p.bunkers = [list(x) for x in b["bunkers"]]
        p.bridges = set(b["bridges"])
        p.builders = set(b["builders"])
        for h in b["garrisons"]:
            p.garrison_types[h] = UnitDef(h, "german", self.garrison_type(), "garrison", 1)
        p.units = {d["uid"]: _unit_from(d) for d in b["units"]}
        p.schedule = [list(r) for r in b["schedule"]]
        p.assaults = {k: list(v) for k, v in b["assaults"].items()}
        p.combat = _uncanon(b["combat"])
        p.combat_hexes = list(b["combat_hexes"])
        p.plans = _uncanon(b.get("plans", []))
        p.paid = set(b["paid"])
        p.bar = _uncanon(b["bar"])
        p.barrage_phase = {k: list(v) for k, v in b["barrage_phase"].items()}
        p.advance = {k: list(v) for k, v in b["advance"].items()}
        p.counts = dict(b["counts"])
        p.losses = dict(b["losses"])
        p.setup_side = b["setup_side"]
        p.setup_raster = list(b["setup_raster"])
        p.flieger = b["flieger"]
        p.passing = b["passing"]
        p.seq = b["seq"]
        p.final = _uncanon(b["final"])
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


def _unit_data(u: U) -> dict[str, Any]:
    return {"uid": u.uid, "loc": u.loc, "strength": u.strength,
            "deployed": u.deployed, "spent": canonical.frac(u.spent),
            "stopped": u.stopped, "zoc_start": u.zoc_start,
            "entrained": u.entrained, "via": u.via, "garrison": u.garrison,
            "seq": u.seq, "assault": u.assault, "entry": u.entry,
            "marks": sorted(u.marks)}


def _unit_from(d: dict[str, Any]) -> U:
    return U(d["uid"], d["loc"], d["strength"], d["deployed"], canonical.unfrac(d["spent"]),
             d["stopped"], d["zoc_start"], d["entrained"], d["via"], d["garrison"],
             d["seq"], d["assault"], d["entry"], set(d["marks"]))
