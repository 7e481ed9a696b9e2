"""Who may enter where, at what cost, in For the Motherland!: the Terrain Effects Chart
(5.1), the countries each nation may enter (5.2.1) and turn 1's frozen fronts (20.1 rule
2), read by movement, Strategic Movement, retreats, advances and reinforcements."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.motherland.const import AXIS, SOVIET

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


def turn1_frozen(s: MotherlandState, uid: str) -> bool:
    """20.1 rule 2: units in Romania and Finland cannot move or attack on turn 1."""
    return bool(s.turn == 1 and s.sc.rules.get("turn1_rules")
                and s.c(uid).side == AXIS
                and s.data.country_of(s.u(uid).hex) in ("romania", "finland"))


def may_enter_country(s: MotherlandState, uid: str, h: str) -> bool:
    """5.2.1 movement restrictions by country."""
    c = s.c(uid)
    country = s.data.country_of(h)
    if c.side == SOVIET:
        return country != "turkey" or s.pos.turkey
    if c.nation == "german":
        return country != "finland"  # 5.2.1 bars the Germans from Finland only
    allowed = {"romanian": "romania", "hungarian": "hungary", "italian": "germany",
               "finnish": "finland", "turkish": "turkey"}
    return country in ("soviet_union", allowed.get(c.nation, ""))


def costed_types(s: MotherlandState) -> frozenset[str]:
    """The unit types :func:`terrain_cost` and the movement costs read in any weather:
    5.1.5's mountain units and the types a terrain admits alone (5.1.7's Soviet
    infantry only on Snow)."""
    hit: frozenset[str] | None = s._cache.get("costed_types")
    if hit is None:
        hit = frozenset({"mountain"} | {
            t.prohibited_except for t in s.data.tec.values() if t.prohibited_except})
        s._cache["costed_types"] = hit
    return hit


def barred_countries(s: MotherlandState, uid: str) -> frozenset[str]:
    """The hexes :func:`may_enter_country` bars ``uid`` from (5.2.1), gathered once
    for each side, nation and Turkey's entry: a search asks it of every hex it
    reaches (issue 35 item 5)."""
    c = s.c(uid)
    lasting = ("barred", c.side, c.nation, s.pos.turkey)
    hit: frozenset[str] | None = s._pcache.get(lasting)
    if hit is None:
        # a hex outside every other country is the Soviet Union's, open to every unit
        hit = frozenset(h for h in s.data.abroad
                        if not may_enter_country(s, uid, h))
        s._pcache[lasting] = hit
    return hit


def terrain_cost(s: MotherlandState, uid: str, h: str) -> int | None:
    """The MP ``uid`` pays to enter ``h`` by the TEC (5.1), None where it may not."""
    c = s.c(uid)
    if s.data.is_water(h):
        return None
    name = s.data.hexmap.terrain.get(h, "clear")
    if name == "swamp" and s.snow:
        name = "woods"  # 5.1.8, 18.2.1
    ter = s.data.tec.get(name) or s.data.tec["clear"]
    if ter.prohibited_except:
        if c.type != ter.prohibited_except:
            return None  # 5.1.5 High Mountain
        return ter.leg
    cost = ter.mech if c.mech else ter.leg
    if c.type == "mountain" and name == "mountain":
        cost = max(1, cost - 1)  # 5.1.5
    return cost


def soviet_infantry(s: MotherlandState, uid: str) -> bool:
    """Combined Arms, Guards and Shock armies: the Soviet infantry that crosses Frozen
    Access hexsides on Snow Turns (5.1.7, 8.4.3, 9.2.1)."""
    return s.c(uid).type in ("combined_arms", "guards", "shock")
