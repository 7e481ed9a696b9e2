"""Checks that the shipped map puts every hex a rulebook names where the rulebook says.

MAPS.md builds the maps from real geography and pins them to the rulebooks' hex
numbers; these checks keep them pinned when someone edits the data.  An engine lists
its rulebook's statements as expectations and reports the problems from
``Engine.check_scenarios()`` (``pbem scenario check``).

An expectation is ``(where, what, rule)``:

* ``where`` is a hex (``"2113"``) or a hexside (``"1227/1327"``, or ``"1227-1327"`` as
  some rulebooks print hexsides);
* ``what`` is ``"terrain:NAME"``, ``"place:NAME"``, ``"feature:NAME"`` (hex feature or,
  for a hexside, hexside feature), ``"area:NAME"``, ``"network:NAME"`` (a hex on it, or
  a hexside it crosses), ``"box:NAME"`` (a hex the box is entered from), or a bare
  name matched against all of these;
* ``rule`` is the citation printed in the problem (``"8.4.2"``, ``"Rule 17 B"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap

Expectation = tuple[str, str, str]
KINDS = ("terrain", "place", "feature", "area", "network", "box")


def _hex_facts(m: HexMap, h: HexId) -> dict[str, set[str]]:
    return {
        "terrain": {m.terrain[h]},
        "place": set(m.places_at(h)),
        "feature": set(m.features_of(h)),
        "area": {a for a, hs in m.areas.items() if h in hs},
        "network": {n for n in m.networks if m.network_neighbors(n, h)},
        "box": {b.name for b in m.boxes.values() if h in b.entry},
    }


def _side_facts(m: HexMap, a: HexId, b: HexId) -> dict[str, set[str]]:
    return {
        "feature": set(m.side_features(a, b)),
        "network": {n for n in m.networks if m.connected(n, a, b)},
    }


def _split_side(where: str) -> tuple[str, str] | None:
    for sep in ("/", "-"):
        if sep in where:
            a, b = (x.strip() for x in where.split(sep, 1))
            return a, b
    return None


def check_named_hexes(hexmap: HexMap, expectations: Iterable[Expectation]) -> list[str]:
    """Human-readable problems, one per unmet expectation; empty when the map agrees."""
    problems: list[str] = []
    for where, what, rule in expectations:
        kind, _, name = what.partition(":") if ":" in what else ("", "", what)
        if kind and kind not in KINDS:
            problems.append(f"{rule}: bad expectation {what!r} (kinds: {', '.join(KINDS)})")
            continue
        side = _split_side(where)
        if side is not None:
            a, b = side
            missing = [h for h in (a, b) if h not in hexmap]
            if missing:
                problems.append(f"{rule}: hexside {where}: hex {missing[0]} is not on the map")
                continue
            if not hexmap.grid.adjacent(a, b):
                problems.append(f"{rule}: {a} and {b} are not adjacent, so {where} is no hexside")
                continue
            facts = _side_facts(hexmap, a, b)
            label = f"hexside {a}/{b}"
        else:
            if where not in hexmap:
                problems.append(f"{rule}: hex {where} ({what}) is not on the map")
                continue
            facts = _hex_facts(hexmap, where)
            label = f"hex {where}"
        kinds = [kind] if kind else list(facts)
        if kind and kind not in facts:
            problems.append(f"{rule}: {label}: a hexside cannot have a {kind}")
            continue
        if not any(name in facts[k] for k in kinds):
            have = "; ".join(f"{k} {', '.join(sorted(v))}" for k, v in facts.items() if v)
            problems.append(
                f"{rule}: {label} should have {what!r} but has {have or 'nothing named'}")
    return problems
