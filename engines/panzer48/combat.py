"""48th Panzer Korps: combat (7): who may attack and fire, fire values, the CRT column."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engines.panzer48.data import TARGET_ORDER, other
from engines.panzer48.position import Fire
from pbem.engine import Event

if TYPE_CHECKING:
    from fractions import Fraction

    from engines.panzer48.state import P48State


def attack_pool(s: P48State) -> list[str]:
    """Who may join the declared attack: prepared, units that began the phase adjacent
    (3.1); hasty, the moving units, all of one hasty attack having begun the phase
    stacked together (4): once one is in, only those that began the phase with it."""
    c = s.fight()
    if c.prepared:
        pool = [u for u in s.pos.began_adjacent if s.pos.units[u].where == "map"
                and not s.pos.units[u].attacked and not s.pos.units[u].retreated
                and not (s.d.units[u].formation == "7lw" and not s.pos.released)]
    else:
        pool = [u for u in s.pos.moving
                if not s.pos.units[u].attacked and not s.pos.units[u].flipped]
        if c.attackers:
            pool = [u for u in pool if began_with(s, u, c.attackers[0])]
    return [u for u in pool if s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]


def began_with(s: P48State, u: str, v: str) -> bool:
    """4: ``u`` and ``v`` began the Movement Phase stacked together (a unit that entered
    the map this phase began it with no other)."""
    a, b = s.pos.units[u].began, s.pos.units[v].began
    return u == v or (a != "" and a == b)


def artillery_pool(s: P48State, side: str, target_hexes: Iterable[str],
                   used: Iterable[str]) -> list[str]:
    """7.6: artillery-class units in range, not adjacent (they fire support), not yet used."""
    c = s.fight()
    hexes = list(target_hexes)
    out = []
    info_of, units = s.d.units, s.pos.units
    # the side's guns alone (Data.artillery, in id order), not s.on_map(side): a sorted
    # pass over every unit cost a declare-attack listing 65 K instructions (issue 35)
    for u in s.d.artillery.get(side, ()):
        x = units.get(u)
        if (x is None or x.where != "map" or not x.hex or u in used or x.retreated
                or u in c.fired):
            continue
        info = info_of[u]
        if info.formation == "7lw" and not s.pos.released:
            continue
        ds = [s.d.map.distance(x.hex, h) for h in hexes]
        if ds and min(ds) > 1 and min(ds) <= info.range:
            out.append(u)
    return sorted(out)


def next_targets(s: P48State, firing_side: str) -> list[str]:
    """7.2 / 7.3: the enemy units that may be the next target: in each enemy stack,
    armor, then personnel, then weapons, strongest first (equals: the firer's choice);
    never a unit already fired on in this combat."""
    c = s.fight()
    pool = c.attackers if firing_side != c.attacker else c.defenders
    alive = [u for u in pool if s.pos.units[u].where == "map"
             and (firing_side == c.attacker or not s.pos.units[u].retreated)]
    if firing_side != c.attacker:
        alive = [u for u in alive if s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]
    else:
        alive = [u for u in alive if s.pos.units[u].hex == c.hex]
    stacks: dict[str, list[str]] = {}
    for u in alive:
        stacks.setdefault(s.pos.units[u].hex, []).append(u)
    out = []
    for _h, us in sorted(stacks.items()):
        left = [u for u in us if u not in c.targeted]
        if not left:
            continue
        def key(u: str) -> tuple[int, int]:
            return (TARGET_ORDER.index(s.d.units[u].target), -s.steps_of(u))
        best = min(key(u) for u in left)
        out += sorted(u for u in left if key(u) == best)
    return out


def firers(s: P48State, side: str) -> list[str]:
    """7.1/7.2: the units of ``side`` that may still fire in this combat."""
    c = s.fight()
    if side == c.attacker:
        us = [u for u in c.attackers if s.pos.units[u].where == "map"
              and not s.pos.units[u].retreated and s.pos.units[u].hex != ""
              and s.d.map.distance(s.pos.units[u].hex, c.hex) == 1]
    else:
        us = [u for u in c.defenders if s.pos.units[u].where == "map"
              and s.pos.units[u].hex == c.hex]
    return sorted(u for u in us if u not in c.fired)


def fire_value(s: P48State, fire: Fire, cap: int | None) -> tuple[int, list[str]]:
    """7.4: steps times the weapons effectiveness modifier, same-class strengths summed
    before the modifier, each class's value rounded to nearest with one half down; 7.3:
    the steps firing at a second target in a stack are capped at the first's."""
    target = s.d.units[fire.target].target
    by_class: dict[str, int] = {}
    left = cap
    notes = []
    for u in fire.units:
        n = s.steps_of(u)
        if left is not None:
            n = min(n, left)
            left -= n
            if n < s.steps_of(u):
                notes.append(f"{u} fires with {n} (7.3)")
        fc = s.d.units[u].fire
        by_class[fc] = by_class.get(fc, 0) + n
    for u in fire.support:
        fc = s.d.units[u].fire
        by_class[fc] = by_class.get(fc, 0) + s.steps_of(u)
    total = 0
    for fc, n in sorted(by_class.items()):
        num, den = s.d.weapons[fc][target]
        total += _round_half_down(n * num, den)
    return total, notes


def round_half_down(x: Fraction) -> int:
    """7.4: round to the nearest whole number, one half down."""
    return _round_half_down(x.numerator, x.denominator)


def _round_half_down(num: int, den: int) -> int:
    """:func:`round_half_down` of ``num / den`` (``den`` > 0, in lowest terms or not), in
    integers: a fire is resolved without importing fractions (issue 35)."""
    whole = num // den
    return whole + 1 if 2 * (num - whole * den) > den else whole


def fire_shift(s: P48State, fire: Fire, prepared_attack: bool) -> int:
    """7.5 (stand-in list): broken terrain, river/stream and slope hexsides, the target's
    armor modifier, the attacker in a prepared attack."""
    d = s.d
    th = s.pos.units[fire.target].hex
    shift = -d.units[fire.target].armor
    if d.map.terrain_of(th) == "broken":
        shift += d.shifts["broken"]
    hexes = {s.pos.units[u].hex for u in fire.units}
    if any(d.map.has_side(h, th, "river") or d.map.has_side(h, th, "stream") for h in hexes
           if d.map.distance(h, th) == 1):
        shift += d.shifts["river"]
    if any(d.map.faces_toward("slope", h, th) == th for h in hexes
           if d.map.distance(h, th) == 1):
        shift += d.shifts["slope"]
    if prepared_attack:
        shift += d.shifts["prepared"]
    return shift


def crt_column(s: P48State, value: int, shift: int) -> int | None:
    """7.2.4 / 7.5: the highest column not exceeding the fire value, shifted; past the
    right edge use the last, past the left edge no effect."""
    cols = s.d.crt_columns
    idx = max((i for i, c in enumerate(cols) if c <= value), default=-1)
    if idx < 0:
        return None
    idx += shift
    if idx < 0:
        return None
    return min(idx, len(cols) - 1)


def kill(s: P48State, u: str, said: Event | None = None) -> None:
    """2.1: ``u`` is eliminated, its steps scored for the enemy (10); told as ``said``
    where a rule words it (8.3's overstacked retreat), else as an elimination."""
    x, info = s.pos.units[u], s.d.units[u]
    x.losses = info.steps
    x.where, x.hex = "dead", ""
    enemy = other(info.side)
    s.pos.kills[enemy] = s.pos.kills.get(enemy, 0) + info.steps  # 10
    s.tell(said or Event(f"{u} is eliminated", "loss", units=(u,), rule="2.1"))


def lose(s: P48State, u: str, n: int, rule: str) -> None:
    if n <= 0 or s.pos.units[u].where != "map":
        return
    x = s.pos.units[u]
    x.losses += n
    if x.losses >= s.d.units[u].steps:  # 2.1: excess losses are ignored
        kill(s, u)
        return
    s.tell(Event(f"{u} loses {n} step{'s' if n > 1 else ''}", "loss", units=(u,),
                 rule=rule))


def end_fire(s: P48State) -> None:
    """7.1: a side's fires are over: after the defender's (B) the attacker fires (C);
    after the attacker's, the advance (D)."""
    c = s.fight()
    if c.stage == "defense":
        c.stage = "attack"
        s.queue("attack-fire")
        s.tell(Event("the attacker fires", "attack", rule="7.1"))
        return
    s.queue("advance-start")


def prepared_attackers(s: P48State) -> list[str]:
    """3.1: the units that may still make a prepared attack: they began the phase
    adjacent to the enemy, have neither attacked nor retreated, and are released (9)."""
    return [u for u in s.pos.began_adjacent if s.pos.units[u].where == "map"
            and not s.pos.units[u].attacked and not s.pos.units[u].retreated
            and not (s.d.units[u].formation == "7lw" and not s.pos.released)]
