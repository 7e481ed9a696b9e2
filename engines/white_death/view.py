"""What a player sees (Rule 4.C, limited intelligence): the board and the status line.

Functions of the position, the catalog and the side that looks, not methods of the game:
:class:`~engines.white_death.state.WDState` keeps only the framework's hooks
(``_view``, ``status_line``), which hand these what the position's caches already hold
(the units by hex, the enemy's ZOC, the phase of play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from engines.hexkit.board import board_view
from engines.hexkit.scenario import ScenarioSet
from engines.white_death.base import other
from engines.white_death.data import SIDES, Catalog, UnitDef
from engines.white_death.position import Position
from pbem.view import BoardView, Line, Piece

SIDE_COLOR = {"soviet": "#c03030", "german": "#303030"}

_RIVERS: dict[int, tuple[Line, ...]] = {}


def river_lines(data: ScenarioSet) -> tuple[Line, ...]:
    """Each river's course from the map file's ``[rivers]`` table, for drawing."""
    if id(data) not in _RIVERS:
        rivers = data.doc(data.map_doc).get_table("rivers", default={}) \
            if data.map_doc is not None else {}
        _RIVERS[id(data)] = tuple(
            Line("river", tuple(str(h) for h in river["hexes"]), "#3a6fd0")
            for _, river in sorted(rivers.items()) if river.get("hexes"))
    return _RIVERS[id(data)]


def status_line(pos: Position, last_turn: int, phase: str, side: str | None) -> str:
    """Turn, weather, phase, MPs left, and the supply points ``side`` may know."""
    # MPs left are public (the impulse screen); supply points are each side's own
    supply = {"soviet": f"Soviet {pos.supply['soviet']}",
              "german": f"German {pos.supply['german']}, Velikiye Luki {pos.supply['vl']}"}
    own = " ".join(supply[x] for x in SIDES if side is None or x == side)
    return (f"Turn {pos.turn}/{last_turn}, {pos.weather}; {pos.phasing} {phase}; MPs left "
            f"Soviet {pos.mps['soviet']}, German {pos.mps['german']}; supply {own}")


def _bunker(pos: Position, h: str) -> int:
    return max((b.strength for b in pos.bunkers if b.hex == h), default=0)


def board(pos: Position, cat: Catalog, side: str | None, *, title: str, status: str,
          phase: str, stacks: Mapping[str, Sequence[str]], udef: Callable[[str], UnitDef],
          zoc: Iterable[str]) -> BoardView:
    """The board as ``side`` may see it (Rule 4.C), drawn by the kit's builder: ``stacks``
    the units in each hex in stacking order, ``udef`` a unit's data (an intrinsic
    garrison's too), ``zoc`` the hexes in the enemy's ZOC (Rule 3; shown to ``side``)."""
    pieces: list[Piece] = []
    revealed = set(pos.assaults) if (side == pos.phasing and phase in (
        "barrage", "defense", "assault", "advance")) else set()
    for h, uids in sorted(stacks.items()):
        stack = list(reversed(uids))  # the last unit in is on top
        for s in SIDES:
            mine = [x for x in stack if udef(x).side == s]
            if side is None or side == s or h in revealed:
                shown = mine
            else:
                shown = [x for x in mine if "intrinsic" not in udef(x).type.flags][:1]
            for i, x in enumerate(mine):
                u = pos.units[x]
                d = udef(x)
                t = d.type
                bunker = _bunker(pos, h)
                marks = tuple(sorted(
                    (["deployed"] if u.deployed else []) + ([f"bunker {bunker}"]
                                                            if bunker and i == 0
                                                            and s == "german" else [])))
                if x in shown:
                    pieces.append(Piece(x, s, f"{x} {u.strength}", h, f"{t.key} ({d.div})",
                                        marks if (side is None or side == s) else (),
                                        False, SIDE_COLOR[s]))
                elif "intrinsic" not in t.flags:
                    pieces.append(Piece(f"{s}-{h}-{i}", s, "?", h, "", (), True,
                                        SIDE_COLOR[s]))
    overlays = {} if side is None else {f"zoc:{other(side)}": sorted(zoc)}
    view = board_view(cat.map, pieces, side=side, title=title, status=status,
                      highlights=sorted(pos.assaults), overlays=overlays)
    # the Lowatj is hex terrain (Rule 7), so the display gets its course as a line
    return replace(view, lines=(*view.lines, *river_lines(cat.data)))
