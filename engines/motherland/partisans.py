"""Partisans (10.0): their effect on Supply Bases (10.1) and their placement (10.2).
"""

from __future__ import annotations

from engines.motherland.const import AXIS, SOVIET
from engines.motherland.core import MotherlandCore
from engines.motherland.steps import CountArgs, PlaceArgs, RollArgs
from pbem.steps import Frame


class PartisanMixin(MotherlandCore):
    """Partisan markers on Axis Supply Bases (10.0)."""

    # -- partisans (10.0) -----------------------------------------------------------------

    def _base_hexes(self) -> dict[str, str]:
        return {self.u(x).hex: x for x in sorted(self.on_map(AXIS))
                if self.c(x).type == "supply_base"}

    def _partisan_effects(self) -> None:
        bases = self._base_hexes()
        tasks = []
        for p, h in sorted(self.pos.partisans.items()):
            if h and h in bases:
                tasks.append(Frame("roll-partisan",
                                   RollArgs(f"partisans {p} at {h}", hex=h, p=p)))
        self._push(*tasks)

    def _on_partisan(self, t: RollArgs, roll: int) -> None:
        n = self.data.partisan_table[roll - 1]
        self.say(f"Partisans {t.p} at {t.hex}: {n} Out of Supply marker(s) "
                 f"(10.1, rolled {roll})", "info", [t.hex], rule="10.1")
        if n:
            self._push(Frame("partisan_oos", CountArgs(SOVIET, t.hex, n)))

    def _partisan_targets(self, base: str) -> list[str]:
        grid = self.data.hexmap.grid
        cands = []
        for uid in sorted(self.on_map(AXIS)):
            c = self.c(uid)
            if c.nation != "german" or not c.is_combat or c.type == "railroad_gun":
                continue
            if self.u(uid).supply == "out":
                continue
            d = grid.distance(base, self.u(uid).hex)
            if d <= 4:
                cands.append((d, uid))
        if not cands:
            return []
        nearest = min(d for d, _ in cands)
        return [uid for d, uid in cands if d == nearest]

    def _partisan_moves(self, t: PlaceArgs) -> list[tuple[str, str]]:
        grid = self.data.hexmap.grid
        bases = self._base_hexes()
        out = []
        placed = self.pos.partisans
        for p, h in sorted(placed.items()):
            if p in t.moved:
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
