"""Supply (9.0): supply networks and lines, supply status, isolation attrition
(9.1.3), expended Supply Bases (9.3.4), sea supply (9.6) and Air Supply range (14.2).

The networks and blocked hexes are cached per position (``_cache``): besides the Mutual
Supply Phase, reinforcements, Strategic Movement and the victory check read them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.hexkit.movement import spread
from engines.motherland.chits import ChitMixin
from engines.motherland.const import (
    AXIS,
    DANZIG,
    HELSINKI,
    KONIGSBERG,
    NOVOROSSIYSK,
    ODESSA,
    SEVASTOPOL,
    SOVIET,
    TUAPSE,
    other,
)
from engines.motherland.steps import CountArgs, PlaceArgs, RollArgs
from pbem.steps import Frame


class SupplyMixin(ChitMixin):
    """The Mutual Supply Phase and the supply lines every other rule reads (9.0)."""

    # ================================================================================
    # supply (9.0)
    # ================================================================================

    def _supply_tasks(self) -> list[Frame]:
        """3.1 A, the Mutual Supply Phase in the order of 9.0-10.0."""
        return [Frame("supply_start"), Frame("expend"), Frame("supply_status"),
                Frame("airsupply"), Frame("partisan_effects"),
                Frame("partisan_place", PlaceArgs()), Frame("isolation_rolls"),
                Frame("remove_expended")]

    def _supply_start(self) -> None:
        info = self.data.turns[self.turn]
        if info.air_withdrawal and self.pos.air.total > 0 and self.turn > self.sc.first - 1:
            self.pos.air.total -= 1
            self.say("The Axis withdraws one German Air Unit (14.0)", rule="14.0")
        if info.chits and self.turn > self.sc.first - 1:
            for cid in info.chits:
                self.pos.cups[cid[0]].append(cid)
            for k in self.pos.cups:
                self.pos.cups[k].sort()
            self.say(f"{len(info.chits)} Strength Chits join the cups (17.3)", rule="17.3")
        if info.general and info.general not in self.pos.generals:
            self.pos.generals[info.general] = "ready"
            self.say(f"General {info.general} arrives (16.5)", rule="16.5")
        if info.partisan and info.partisan not in self.pos.partisans:
            self.pos.partisans[info.partisan] = ""
            self.say(f"Partisan marker {info.partisan} arrives (10.0)", rule="10.0")
        self.pos.generals = dict(sorted(self.pos.generals.items()))
        self.pos.partisans = dict(sorted(self.pos.partisans.items()))
        self.pos.expended = []
        # 9.6.1 note, judged as the phase begins (see _sea_supply)
        self.pos.odessa_closed = any(self.c(uid).side == AXIS
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
            for h, mark in self.pos.control.items():
                if mark == enemy and not self.has_friend(h, side):
                    out.add(h)
            hit = frozenset(out)
            self._cache[key] = hit
        return hit

    def _spread(self, starts: dict[str, int], blocked: frozenset[str],
                nbrs: dict[str, tuple[str, ...]] | None = None) -> dict[str, int]:
        """Supply lines counted in hexes (9.2) on the kit: hex -> the most of its budget a
        line has left on reaching it; not across sea, lake or out-of-play hexsides unless
        ``nbrs`` says otherwise (9.2.1's Frozen Access)."""
        return spread(self.data.open_neighbors if nbrs is None else nbrs, starts,
                      blocked=blocked)

    def _rail_from(self, starts: Iterable[str], blocked: frozenset[str]) -> set[str]:
        """Railroad hexes connected to ``starts`` without entering ``blocked`` (9.3, 17.0):
        the railroad's connected part, a budget longer than the whole network."""
        rail = self.data.rail
        return set(spread(rail, dict.fromkeys((h for h in starts if h in rail), len(rail)),
                          blocked=blocked))

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
                sources = set() if self.pos.control.get(HELSINKI) == SOVIET else set(
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
                    h = self.u(uid).hex
                    expended = uid in self.pos.expended
                    if h in rail_ok or expended:
                        partisan = h in self.pos.partisans.values()
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
        if side == SOVIET and self.pos.odessa_closed and \
                not self.controls(SOVIET, SEVASTOPOL):
            # 9.6.1 note: an Axis unit in Sevastopol as the Mutual Supply Phase began shuts
            # Odessa to Soviet sea supply until the Soviets recapture Sevastopol
            starts.pop(ODESSA, None)
        hit = self._spread(starts, self._blocked(side)) if starts else {}
        self._cache[key] = hit
        return hit

    def in_supply(self, uid: str) -> bool:
        """Whether the unit can trace a Supply Line now (9.2-9.4, 9.6)."""
        return self.supplied_at(uid, self.u(uid).hex)

    def supplied_at(self, uid: str, h: str) -> bool:
        """Whether the unit could trace a Supply Line from ``h`` by any supply rule (9.2-9.4,
        9.3.3, 9.6): also the end of a Strategic Movement (5.3.1)."""
        c = self.c(uid)
        if c.type in ("supply_base", "economic"):
            return True  # 9.1 note, 12.0
        if c.side == AXIS:
            if c.nation == "finnish":
                # 9.3.1 source F only; 9.3.3 is for all Axis units, the Finns included
                near, anylen, _ = self.supply_net(AXIS, "F")
                return h in near or (h in anylen and self._soviet_distance(h) >= 6)
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

    def supplied_hexes(self, uid: str) -> frozenset[str] | None:
        """Every hex where :meth:`supplied_at` holds for the unit (``None``: every hex),
        gathered once per position for each kind of unit the supply rules tell apart: a
        Strategic Movement's every end hex is asked (5.3.1), 27 units of 15 hexes' reach
        in a listing made 4,000 calls of :meth:`supplied_at` (issue 35 item 5)."""
        c = self.c(uid)
        if c.type in ("supply_base", "economic"):
            return None  # 9.1 note, 12.0
        kind: tuple[str, str | bool, bool]
        if c.side == AXIS:
            kind = ("axis", c.nation if c.nation in ("finnish", "turkish") else "",
                    c.nation == "german" and c.type != "air_base")
        else:
            kind = ("soviet", self.snow and self._soviet_infantry(uid),
                    c.type != "offensive_support")
        key = ("supplied", kind)
        hit: frozenset[str] | None = self._cache.get(key)
        if hit is None:
            hit = self._supplied_hexes(kind)
            self._cache[key] = hit
        return hit

    def _supplied_hexes(self, kind: tuple[str, object, bool]) -> frozenset[str]:
        # as supplied_at, read for whole sets of hexes: a hex with a line of any length
        # is in supply by 9.3.3 where no Soviet unit is within five (_soviet_distance)
        side, which, sea = kind
        if side == "axis":
            if which == "turkish":
                return frozenset(self.supply_net(AXIS, "T")[0])
            near, anylen, _ = self.supply_net(AXIS, "F" if which == "finnish" else "")
            self._soviet_distance("")
            close = self._cache["soviet_within5"]
            out = set(near).union(h for h in anylen if h not in close)
            if sea:
                out.update(self._sea_supply(AXIS))
            return frozenset(out)
        out = set(self.supply_net(SOVIET)[0])
        if which:
            out.update(self.supply_net(SOVIET, "ice")[0])  # 9.2.1 across Frozen Access
        if sea:
            out.update(self._sea_supply(SOVIET))
        return frozenset(out)

    def isolated(self, uid: str) -> bool:
        """9.1.3: Out of Supply and no Supply Line of any length."""
        c, h = self.c(uid), self.u(uid).hex
        if self.u(uid).supply != "out":
            return False
        if c.side == AXIS:
            net = "F" if c.nation == "finnish" else "T" if c.nation == "turkish" else ""
            return h not in self.supply_net(AXIS, net)[1]
        net = "ice" if self.snow and self._soviet_infantry(uid) else ""
        return h not in self.supply_net(SOVIET, net)[1]

    def _soviet_distance(self, h: str) -> int:
        """Hexes to the nearest Soviet unit not Out of Supply (9.3.3), counted up to 6."""
        # asked for every hex a Strategic Movement may end in (5.3.1): the hexes within
        # five of those units are gathered once per position
        near = self._cache.get("soviet_within5")
        if near is None:
            spots = tuple(sorted({self.u(uid).hex for uid in self.on_map(SOVIET)
                                  if self.u(uid).supply != "out"
                                  and self.c(uid).type != "economic"}))
            # a function of those hexes alone: kept across the Axis moves that leave them
            # as they are (issue 35 item 5: a third of a Strategic Movement listing)
            lasting = ("within5", spots)
            near = self._pcache.get(lasting)
            if near is None:
                found: dict[str, int] = {}
                for x in spots:
                    for y, d in self.data.near(x, 5):
                        if d < found.get(y, 6):
                            found[y] = d
                near = found
                self._pcache[lasting] = near
            self._cache["soviet_within5"] = near
        return int(near.get(h, 6))

    def _near_factory(self, h: str) -> bool:
        for uid in self.on_map(SOVIET):
            c = self.c(uid)
            if c.type == "economic" and c.asset == "factory":
                fh = self.u(uid).hex
                if fh == h or fh in self.data.neighbors[h]:
                    return True
        return False

    def _supply_status(self) -> None:
        self._touch()
        changes = []
        # 9.1: both sides judge supply at once, from the position as it stands
        supplied = {uid: self.in_supply(uid) for uid in sorted(self.on_map())}
        for uid in sorted(supplied):
            u, c = self.u(uid), self.c(uid)
            if supplied[uid]:
                u.supply = ""
                continue
            if c.type in ("air_base", "offensive_support"):
                self._remove_to_track(uid, 3, "cannot trace a Supply Line (9.1.1)")
                continue
            new = "lack" if u.supply == "" else "out"
            if c.nation == "finnish" and self.pos.control.get(HELSINKI) == SOVIET:
                new = "out"  # 9.3.2: automatically Out of Supply, not Lack
            if new == "out" and c.side == SOVIET and c.type != "offensive_support" and \
                    self._near_factory(u.hex):
                new = "lack"  # 9.1.2
            u.supply = new
            changes.append(f"{uid} {new}")
        self._touch()
        if changes:
            self.say("Supply: " + ", ".join(changes), "info", rule="9.1")

    def _remove_expended(self) -> None:
        for uid in sorted(self.pos.expended):
            if self.u(uid).hex:
                self._remove_to_track(uid, 3, "expended Supply Base removed (9.3.4)")
        self.pos.expended = []

    def _remove_to_track(self, uid: str, turns: int, why: str) -> None:
        u = self.u(uid)
        h = u.hex
        self._drop_chit(uid)
        u.hex = ""
        u.box = "track"
        u.return_turn = self.turn + turns
        u.returning = self.c(uid).side == SOVIET
        u.supply = ""
        u.steps = self.c(uid).max_steps
        self._touch()
        self.say(f"{uid} leaves {h}: {why}; returns on turn {self.turn + turns}", "loss", [h],
                 [uid], rule=self.cited(why))

    # -- isolation (9.1.3) ---------------------------------------------------------------

    def _isolation_rolls(self) -> None:
        self._touch()
        by_hex: dict[str, list[str]] = {}
        for uid in sorted(self.on_map()):
            if self.isolated(uid):
                by_hex.setdefault(self.u(uid).hex, []).append(uid)
        tasks = []
        for h in sorted(by_hex):
            tasks.append(Frame("roll-isolation",
                               RollArgs(f"isolation attrition at {h}", hex=h)))
        self._push(*tasks)

    def _on_isolation(self, t: RollArgs, roll: int) -> None:
        h = t.hex
        n = self.data.isolation[roll - 1]
        units = sorted(x for x in self.units_at(h) if self.isolated(x))
        if not units:
            return
        owner = self.c(units[0]).side
        self.say(f"Isolated units at {h} lose {n} step(s) (9.1.3, rolled {roll})", "loss", [h],
                 rule="9.1.3")
        if n:
            self._push(Frame("isolation", CountArgs(owner, h, n)))

    # -- expending bases, air supply (9.3.4, 14.2) ---------------------------------------

    def _expendable(self) -> list[str]:
        _, _, rail_ok = self.supply_net(AXIS)
        return [uid for uid in sorted(self.on_map(AXIS))
                if self.c(uid).type == "supply_base" and self.u(uid).hex not in rail_ok
                and uid not in self.pos.expended]

    def _expend(self, uid: str) -> None:
        self.pos.expended = sorted([*self.pos.expended, uid])
        self._touch()
        self.say(f"{uid} is expended to supply units (9.3.4)", rule="9.3.4")

    def _air_supply(self, uid: str) -> None:
        self.u(uid).supply = "lack"
        self.pos.air.used += 1
        self.say(f"Air Supply: {uid} is now Lack of Supply (14.2)", rule="14.2")

    def air_available(self) -> int:
        total = self.pos.air.total
        if self.mud:
            total //= 2  # 14.3
        return max(0, total - self.pos.air.used)

    def _air_bases(self) -> list[str]:
        return [self.u(x).hex for x in sorted(self.on_map(AXIS))
                if self.c(x).type == "air_base"]

    def _in_air_range(self, h: str) -> bool:
        grid = self.data.hexmap.grid
        return any(grid.distance(h, b) <= 4 for b in self._air_bases())
