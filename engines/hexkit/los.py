"""Line of sight between hex centers, with blocking hexes and slope hexsides.

White Death Rule 11C is the model: a line may start in and end in a town or forest
hex but never pass through one, and may never be traced *down* across a slope hexside
except by a unit adjacent to that hexside.  What blocks is the game's (a callback, by
default the legend's ``blocks_los`` flag).

Where the line runs exactly along a hexside the geometry gives two hexes for that
step (:func:`engines.hexkit.geometry.cube_line`).  Rulebooks differ on that case, so
``hexside_rule`` says it: ``"both"`` (blocked only if the line is blocked whichever
side it is taken to pass) or ``"either"`` (blocked if it is blocked on either side).
The two readings are evaluated exactly over every way through the two-hex steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from engines.hexkit.geometry import hexside
from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap

HexsideRule = Literal["both", "either"]


@dataclass(frozen=True)
class Sight:
    """The answer: clear or not, the line's steps, and what blocks it (for messages)."""

    clear: bool
    steps: tuple[tuple[HexId, ...], ...]
    blockers: tuple[str, ...] = ()


def terrain_blocks(hexmap: HexMap, flag: str = "blocks_los",
                   features: tuple[str, ...] = ()) -> Callable[[HexId], bool]:
    """A blocking test from the legend flag ``flag`` and the named hex features."""

    def blocks(h: HexId) -> bool:
        if hexmap.terrain_class(h).flag(flag):
            return True
        return any(hexmap.has_feature(h, f) for f in features)

    return blocks


def line_of_sight(
    hexmap: HexMap,
    observer: HexId,
    target: HexId,
    *,
    blocks: Callable[[HexId], bool] | None = None,
    hexside_rule: HexsideRule = "both",
    slope: str | None = "slope",
) -> Sight:
    """Whether ``observer`` sees ``target``.

    ``blocks(h)`` is asked for every hex strictly between the two (the ends never
    block).  With ``slope`` set, a step from the high hex of a ``slope`` hexside to its
    low hex blocks unless the observer is in that high hex (adjacent to the hexside).
    """
    hexmap.require(observer)
    hexmap.require(target)
    test = blocks if blocks is not None else terrain_blocks(hexmap)
    steps = tuple(hexmap.grid.line(observer, target))
    last = len(steps) - 1

    def hex_blocked(i: int, h: HexId) -> bool:
        return 0 < i < last and (h not in hexmap or test(h))

    def crossing_blocked(a: HexId, b: HexId) -> bool:
        if slope is None or a == b:
            return False
        return hexmap.faces_toward(slope, a, b) == a and a != observer

    # for each step, the hexes the line can be in with a clear (resp. blocked) way there
    clear_here: set[HexId] = {observer}
    blocked_here: set[HexId] = set()
    reasons: set[str] = set()
    for i in range(1, len(steps)):
        new_clear: set[HexId] = set()
        new_blocked: set[HexId] = set()
        for h in steps[i]:
            hb = hex_blocked(i, h)
            if hb:
                reasons.add(h)
            for p in steps[i - 1]:
                if p != h and not hexmap.grid.adjacent(p, h):
                    continue
                cb = crossing_blocked(p, h)
                if cb:
                    reasons.add(f"{slope} {'/'.join(hexside(p, h))}")
                if p in clear_here:
                    (new_blocked if hb or cb else new_clear).add(h)
                if p in blocked_here:
                    new_blocked.add(h)
        clear_here, blocked_here = new_clear, new_blocked
    if hexside_rule == "both":
        clear = target in clear_here
    else:
        clear = target in clear_here and target not in blocked_here
    return Sight(clear, steps, () if clear else tuple(sorted(reasons)))
