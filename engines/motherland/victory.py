"""Control of cities and ports (19.1), Stalin (16.6) and victory (19.0).

``claim`` keeps the control marks as units enter hexes; the end of the game scores
them with the front line (19.2).  ``finish`` ends every game: by the victory levels after
the last turn, or early (the surrender of 20.2 rule 4, the 20.2 check, Baku in 21.1.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engines.motherland.args import RollArgs
from engines.motherland.const import AXIS, LENINGRAD, MOSCOW, SOVIET, other
from engines.motherland.data import SOVIET_ARMY_TYPES
from engines.motherland.position import GameEnd
from pbem.engine import Event
from pbem.steps import Frame

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState


# City control (19.1), Stalin (16.6), victory points and the end of the game (19.0).


# ================================================================================
# control of cities (19.1), Stalin (16.6)
# ================================================================================


def claim_path(s: MotherlandState, uid: str, path: Iterable[str]) -> None:
    """A unit moves along ``path``: each hex entered is claimed (19.1)."""
    for h in path:
        claim(s, uid, h)


def claim(s: MotherlandState, uid: str, h: str, quiet: bool = False) -> None:
    """A unit enters or passes through ``h``: city and port control (19.1, 19.1.1)."""
    if h not in s.data.cities:
        return
    side = s.c(uid).side
    control = s.pos.control
    soviet_land = s.data.country_of(h) == "soviet_union"
    before = control.get(h)
    if side == AXIS:
        if soviet_land:
            control[h] = AXIS
        elif before == SOVIET:
            del control[h]
        if h == MOSCOW and not quiet and s.pos.stalin == "moscow" and before != AXIS:
            s.queue_frames([Frame("roll-stalin", RollArgs(
                "Stalin's escape (16.6): 1-4 escapes, 5-6 killed"))], first=True)
    else:
        if soviet_land and before == AXIS:
            control[h] = SOVIET
            if not quiet:
                s.tell(Event(f"The Soviets recapture {s.data.hex_name(h)} (19.1.1)", "info",
                             hexes=(h,), rule="19.1.1"))
            if h == MOSCOW and s.pos.stalin == "evacuated":
                s.pos.stalin = "moscow"
                s.tell(Event("Stalin returns to Moscow (16.6)", "info", hexes=(h,), rule="16.6"))
        elif not soviet_land:
            control[h] = SOVIET
    s.pos.control = dict(sorted(control.items()))


def on_stalin(s: MotherlandState, roll: int) -> None:
    if roll <= 4:
        s.pos.stalin = "evacuated"
        s.tell(Event(f"Stalin escapes from Moscow (16.6, rolled {roll})", "info", hexes=(MOSCOW,),
                     rule="16.6"))
    else:
        s.pos.stalin = "dead"
        s.tell(Event(f"Stalin is killed in Moscow (16.6, rolled {roll})", "info", hexes=(MOSCOW,),
                     rule="16.6"))
    first = not s.pos.stalin_rolled
    s.pos.stalin_rolled = True
    if (roll > 4 and first and s.sc.rules.get("stalin_surrender_roll")
            and not s.pos.surrender_rolled):
        s.pos.surrender_rolled = True
        s.queue_frames([Frame("roll-surrender", RollArgs(
            "Soviet surrender after Stalin's death (+1 if the Axis hold Leningrad)"))], first=True)


def on_surrender(s: MotherlandState, roll: int) -> None:
    mod = 1 if s.controls(AXIS, LENINGRAD) else 0
    total = roll + mod
    if total >= 6:
        finish(s, AXIS, f"the Soviet Union surrenders (rolled {roll}+{mod})",
                     "Axis Strategic Victory")
    elif total >= 4:
        back = sorted(s.pos.removed_chits)
        for cid in back:
            s.pos.cups[cid[0]].append(cid)
        for k in s.pos.cups:
            s.pos.cups[k].sort()
        s.pos.removed_chits = []
        s.tell(Event(f"The will to fight declines: {len(back)} starred chits return to the "
                     f"cups (rolled {roll}+{mod})", rule="20.2 rule 4"))
    else:
        s.tell(Event(f"No surrender (rolled {roll}+{mod})", rule="20.2 rule 4"))


# ================================================================================
# victory (19.0)
# ================================================================================


def front_line_gap(s: MotherlandState, side: str) -> int:
    """19.2: hexes missing from ``side``'s best Baltic-to-Black-Sea front line."""
    from engines.hexkit.movement import lightest_chain

    z = s.zoc(side)
    good = {h for h in s.data.land if not s.has_enemy(h, side)
            and (s.has_friend(h, side) or h in z)}
    # a hex counts when the side holds it or its ZOC covers it (no enemy unit there);
    # the line does not cross sea, lake or out-of-play hexsides
    gap = lightest_chain(s.data.open_neighbors, s.data.area("coast_baltic"),
                         s.data.coast_black, lambda h: 0 if h in good else 1)
    return gap or 0


def _city_counts(s: MotherlandState, h: str, side: str) -> bool:
    """19.1.3 a line of any length to a supply source; 19.1.4 not empty in enemy ZOC."""
    from engines.motherland.supply import supply_blocked, supply_spread

    if not s.has_friend(h, side) and h in s.zoc(other(side)):
        return False
    if side == AXIS:
        sources = set(s.data.area("source_W") | s.data.area("source_H")
                      | s.data.area("source_R") | s.data.area("source_F"))
    else:
        sources = set(s.data.area("source_E") | s.data.area("source_S"))
    reach = supply_spread(s, {h: 10_000}, frozenset(
        x for x in supply_blocked(s, side) if x != h))
    return any(s in reach for s in sources)


def victory_points(s: MotherlandState) -> tuple[int, list[str]]:
    v = s.sc.victory
    scorer = v.get("scores", AXIS)
    lines: list[str] = []
    vp = 0
    if scorer == AXIS:
        ea = len(s.pos.eliminated_assets) * int(v.get("economic_asset_vp", 0))
        vp += ea
        lines.append(f"eliminated Economic Assets: {ea}")
        for h, spec in sorted(v.get("city", {}).items()):
            mark = s.pos.control.get(h)
            if mark == AXIS and _city_counts(s, h, AXIS):
                vp += spec["held"]
                lines.append(f"{spec['name']} held: {spec['held']}")
            elif mark == SOVIET:
                vp += spec["recaptured"]
                lines.append(f"{spec['name']} recaptured: {spec['recaptured']}")
        for h, spec in sorted(v.get("axis_city", {}).items()):
            if not s.controls(SOVIET, h):
                vp += int(v.get("axis_city_vp", 0))
                lines.append(f"{spec['name']} not Soviet: {v.get('axis_city_vp', 0)}")
        if "soviet_army_in_germany" in v:
            per: dict[str, int] = {}
            for uid in s.on_map(SOVIET):
                if s.c(uid).type not in SOVIET_ARMY_TYPES:
                    continue
                country = s.data.country_of(s.u(uid).hex)
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
            if s.controls(SOVIET, h):
                vp += spec["held"]
                lines.append(f"{spec['name']} Soviet: {spec['held']}")
        sign = -1
    gap_s, gap_a = front_line_gap(s, SOVIET), front_line_gap(s, AXIS)
    fs = sign * gap_s * int(v.get("front_line_missing_soviet", 0))
    fa = sign * gap_a * int(v.get("front_line_missing_axis", 0))
    vp += fs + fa
    lines.append(f"Soviet front line missing {gap_s} hex(es): {fs:+d}")
    lines.append(f"Axis front line missing {gap_a} hex(es): {fa:+d}")
    return vp, lines


def end_game(s: MotherlandState) -> None:
    vp, lines = victory_points(s)
    scorer = s.sc.victory.get("scores", AXIS)
    level = "Draw"
    for top, name in s.sc.victory.get("levels", []):
        if vp <= top:
            level = name
            break
    winner = AXIS if level.startswith("Axis") else SOVIET if level.startswith(
        "Soviet") else None
    finish(s, winner, f"{scorer.title()} VP {vp} ({'; '.join(lines)})", level)


def on_sudden_death(s: MotherlandState, roll: int) -> None:
    if roll <= 2:
        finish(s, SOVIET, f"the Soviets hold the key cities at the end of turn "
                             f"{s.turn} and roll {roll}", "Soviet Strategic Victory")
    else:
        s.tell(Event(f"The war goes on (rolled {roll})", rule="20.2"))


def finish(s: MotherlandState, winner: str | None, text: str, level: str) -> None:
    s.pos.result = GameEnd(winner, text, level)
    s.tell(Event(f"Game over: {level}. {text}", "info", rule="19.0"))
