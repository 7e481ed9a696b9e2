"""White Death positions for rule tests, stated as the book states them, built through the
setup API (:func:`pbem.setup.setup`), never by poking a state's attributes::

    s = position(engine, '''
        weather = "thaw"
        [units]
        "tk/18M" = "1310"                          # in hex 1310, at its printed strength
        "Sich/Iso" = {hex = "1510", strength = 1}  # any field of a unit's data
    ''')

The text is setup TOML (fields of the snapshot's ``position``, and ``step``/``stack``) with
two conveniences, both turned into plain position fields here:

- ``[units]`` names units by id: a hex (``"1610"``), or a table of the unit's data fields
  (``hex`` for ``loc``; ``strength``, ``deployed``, ``garrison``, ``assault``, ``entry``,
  ``via``, ...). Every unit not named is off the map ("pending"), so the board holds only
  the book's units, in the order named (their stacking order, Rule 4). ``board =
  "scenario"`` keeps the scenario's units where they start instead.
- Unless the text says otherwise the position is at the Soviet player's impulse decision
  (``step = "impulse-decision"``, Rule 5) of the scenario's first turn, in clear weather,
  with 5 supply points a side and 5 in Velikiye Luki, no bunkers and no reinforcements
  scheduled: the test's own position and nothing else.
"""

from __future__ import annotations

import tomllib
from typing import Any

from engines.white_death import WhiteDeath
from engines.white_death.state import WDState
from pbem.setup import setup

DEFAULTS: dict[str, Any] = {
    "step": "impulse-decision",
    "weather": "clear",
    "supply": {"soviet": 5, "german": 5, "vl": 5},
    "bunkers": [],
    "schedule": [],
}


def position(engine: WhiteDeath, text: str = "", scenario: str = "woehler") -> WDState:
    """The position ``text`` describes (see the module), set up on ``scenario``."""
    spec = tomllib.loads(text)
    start = engine.new_state(scenario)
    assert isinstance(start, WDState)
    base = start.setup_position()
    keep = spec.pop("board", "") == "scenario"
    named: dict[str, Any] = spec.pop("units", {})
    data: dict[str, Any] = {k: v for k, v in DEFAULTS.items()
                            if not (keep and k in ("bunkers", "schedule"))}
    data.update(spec)
    if named or not keep:
        data["units"], data["seq"] = _units(engine, base, named, keep)
    state = setup(engine, scenario, data)
    assert isinstance(state, WDState)
    return state


def _units(engine: WhiteDeath, base: dict[str, Any], named: dict[str, Any],
           keep: bool) -> tuple[dict[str, dict[str, Any]], int]:
    """The position's unit list: the scenario's, off the map unless ``keep``, with the
    named units placed in the order named (each later in the stacking order)."""
    cat = engine.catalog()
    units = {uid: dict(d) for uid, d in base["units"].items()}
    if not keep:
        for d in units.values():
            d["loc"] = "pending"
    seq = base["seq"]
    for uid, given in named.items():
        if uid not in cat.units:
            raise KeyError(f"no unit {uid!r} in White Death's catalog")
        fields = {"hex": given} if isinstance(given, str) else dict(given)
        d = units.get(uid) or _fresh_unit(uid, cat.units[uid].strength, base)
        if "hex" in fields:
            if "loc" in fields:
                raise KeyError(f"{uid}: hex and loc are the same field: give one")
            fields["loc"] = fields.pop("hex")
        unknown = set(fields) - set(d)
        if unknown:
            raise KeyError(f"{uid}: a unit has no field {sorted(unknown)} (fields: "
                           f"{', '.join(sorted(d))}, and hex)")
        d.update(fields)
        seq += 1
        d["seq"] = seq
        units[uid] = d
    return {k: units[k] for k in sorted(units)}, seq


def _fresh_unit(uid: str, strength: int, base: dict[str, Any]) -> dict[str, Any]:
    """A unit not in the scenario (a reinforcement of another scenario), as its data."""
    template = dict(next(iter(base["units"].values())))
    template.update(uid=uid, loc="pending", strength=strength, deployed=False,
                    spent=0, stopped=False, zoc_start=False, entrained=False, via="",
                    garrison="", seq=0, assault="", entry="", marks=[])
    return template


def velikiye_luki_cut_off(engine: WhiteDeath) -> str:
    """The ``[units]`` of a Velikiye Luki cut off (Rule 15.D): I/277 in the city, ringed by
    Soviet units two hexes out, whose ZOCs cut it off from every friendly edge."""
    s = position(engine)
    vl = s.ter.vl_hexes()
    ring = [h for h in s.map.ids if min(s.map.distance(h, v) for v in vl) == 2]
    soviets = [u for u in s.cat.units if s.cat.units[u].side == "soviet"]
    lines = [f'"I/277" = "{vl[0]}"']
    lines += [f'"{uid}" = "{h}"' for uid, h in zip(soviets, ring, strict=False)]
    return "[units]\n" + "\n".join(lines) + "\n"


def purkayev_turn_1_german(engine: WhiteDeath, units: str = "") -> WDState:
    """Purkayev, turn 1, the Soviet player's 10 MPs spent: the German player decides his
    first impulse, the scenario's units where they start, its garrisons still bound by
    Rule 22; ``units`` (``[units]`` lines) added."""
    return position(engine, f"""
        board = "scenario"
        turn = 1
        phasing = "german"
        mps = {{soviet = 0, german = 10}}
        impulses = {{soviet = 1, german = 0}}
        [units]
        {units}
    """, "purkayev")


#: Prefix to a position's text: the German player's first impulse decision of the turn,
#: the Soviet player having spent 1 of his 10 MPs in the impulse before (Rule 5).
GERMAN_IMPULSE = """
    phasing = "german"
    mps = {soviet = 9, german = 10}
    impulses = {soviet = 1, german = 0}
"""
