"""Control of cities and ports (19.1), Stalin (16.6) and victory (19.0).

``_claim`` keeps the control marks as units enter hexes; the end of the game scores
them with the front line (19.2).  ``_finish`` ends every game: by the victory levels after
the last turn, or early (the surrender of 20.2 rule 4, the 20.2 check, Baku in 21.1.2).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.hexkit.movement import lightest_chain
from engines.motherland.const import AXIS, LENINGRAD, MOSCOW, SOVIET, other
from engines.motherland.data import SOVIET_ARMY_TYPES
from engines.motherland.position import GameEnd
from engines.motherland.steps import RollArgs
from engines.motherland.supply import SupplyMixin
from pbem.steps import Frame


class VictoryMixin(SupplyMixin):
    """City control (19.1), Stalin (16.6), victory points and the end of the game (19.0)."""

    # ================================================================================
    # control of cities (19.1), Stalin (16.6)
    # ================================================================================

    def _enter(self, uid: str, path: Iterable[str]) -> None:
        """A unit moves along ``path``: each hex entered is claimed (19.1)."""
        for h in path:
            self._claim(uid, h)

    def _claim(self, uid: str, h: str, quiet: bool = False) -> None:
        """A unit enters or passes through ``h``: city and port control (19.1, 19.1.1)."""
        if h not in self.data.cities:
            return
        side = self.c(uid).side
        control = self.pos.control
        soviet_land = self.data.country_of(h) == "soviet_union"
        before = control.get(h)
        if side == AXIS:
            if soviet_land:
                control[h] = AXIS
            elif before == SOVIET:
                del control[h]
            if h == MOSCOW and not quiet and self.pos.stalin == "moscow" and before != AXIS:
                self._push(Frame("roll-stalin", RollArgs(
                    "Stalin's escape (16.6): 1-4 escapes, 5-6 killed")))
        else:
            if soviet_land and before == AXIS:
                control[h] = SOVIET
                if not quiet:
                    self.say(f"The Soviets recapture {self.data.hex_name(h)} (19.1.1)", "info",
                             [h], rule="19.1.1")
                if h == MOSCOW and self.pos.stalin == "evacuated":
                    self.pos.stalin = "moscow"
                    self.say("Stalin returns to Moscow (16.6)", "info", [h], rule="16.6")
            elif not soviet_land:
                control[h] = SOVIET
        self.pos.control = dict(sorted(control.items()))

    def _on_stalin(self, roll: int) -> None:
        if roll <= 4:
            self.pos.stalin = "evacuated"
            self.say(f"Stalin escapes from Moscow (16.6, rolled {roll})", "info", [MOSCOW],
                     rule="16.6")
        else:
            self.pos.stalin = "dead"
            self.say(f"Stalin is killed in Moscow (16.6, rolled {roll})", "info", [MOSCOW],
                     rule="16.6")
        first = not self.pos.stalin_rolled
        self.pos.stalin_rolled = True
        if (roll > 4 and first and self.sc.rules.get("stalin_surrender_roll")
                and not self.pos.surrender_rolled):
            self.pos.surrender_rolled = True
            self._push(Frame("roll-surrender", RollArgs(
                "Soviet surrender after Stalin's death (+1 if the Axis hold Leningrad)")))

    def _on_surrender(self, roll: int) -> None:
        mod = 1 if self.controls(AXIS, LENINGRAD) else 0
        total = roll + mod
        if total >= 6:
            self._finish(AXIS, f"the Soviet Union surrenders (rolled {roll}+{mod})",
                         "Axis Strategic Victory")
        elif total >= 4:
            back = sorted(self.pos.removed_chits)
            for cid in back:
                self.pos.cups[cid[0]].append(cid)
            for k in self.pos.cups:
                self.pos.cups[k].sort()
            self.pos.removed_chits = []
            self.say(f"The will to fight declines: {len(back)} starred chits return to the "
                     f"cups (rolled {roll}+{mod})", rule="20.2 rule 4")
        else:
            self.say(f"No surrender (rolled {roll}+{mod})", rule="20.2 rule 4")

    # ================================================================================
    # victory (19.0)
    # ================================================================================

    def front_line_gap(self, side: str) -> int:
        """19.2: hexes missing from ``side``'s best Baltic-to-Black-Sea front line."""
        z = self.zoc(side)
        good = {h for h in self.data.land if not self.has_enemy(h, side)
                and (self.has_friend(h, side) or h in z)}
        # a hex counts when the side holds it or its ZOC covers it (no enemy unit there);
        # the line does not cross sea, lake or out-of-play hexsides
        gap = lightest_chain(self.data.open_neighbors, self.data.area("coast_baltic"),
                             self.data.coast_black, lambda h: 0 if h in good else 1)
        return gap or 0

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
            ea = len(self.pos.eliminated_assets) * int(v.get("economic_asset_vp", 0))
            vp += ea
            lines.append(f"eliminated Economic Assets: {ea}")
            for h, spec in sorted(v.get("city", {}).items()):
                mark = self.pos.control.get(h)
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
                    country = self.data.country_of(self.u(uid).hex)
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

    def _on_sudden_death(self, roll: int) -> None:
        if roll <= 2:
            self._finish(SOVIET, f"the Soviets hold the key cities at the end of turn "
                                 f"{self.turn} and roll {roll}", "Soviet Strategic Victory")
        else:
            self.say(f"The war goes on (rolled {roll})", rule="20.2")

    def _finish(self, winner: str | None, text: str, level: str) -> None:
        self.pos.result = GameEnd(winner, text, level)
        self.say(f"Game over: {level}. {text}", "info", rule="19.0")
