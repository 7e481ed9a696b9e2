"""What a player sees (Rule 4.C, limited intelligence): the board, the status line,
and the action notation.
"""

from __future__ import annotations

from dataclasses import replace

from engines.hexkit.board import board_view
from engines.hexkit.scenario import ScenarioSet
from engines.white_death.actions import parse
from engines.white_death.base import other
from engines.white_death.data import SIDES
from engines.white_death.supply import SupplyState
from pbem.engine import Action
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


class ViewState(SupplyState):
    """Boards, status lines and notation for the players."""

    def turn_number(self) -> int:
        return int(self.pos.turn)

    def status_line(self, side: str | None) -> str:
        """Turn, weather, phase, MPs left, and the supply points ``side`` may know."""
        # MPs left are public (the impulse screen); supply points are each side's own
        supply = {"soviet": f"Soviet {self.pos.supply['soviet']}",
                  "german": f"German {self.pos.supply['german']}, Velikiye Luki "
                            f"{self.pos.supply['vl']}"}
        own = " ".join(supply[x] for x in SIDES if side is None or x == side)
        return (f"Turn {self.pos.turn}/{self.last_turn}, {self.pos.weather}; {self.pos.phasing} "
                f"{self.phase}; MPs left Soviet {self.pos.mps['soviet']}, German "
                f"{self.pos.mps['german']}; supply {own}")

    def _view(self, side: str | None) -> BoardView:
        """The board as ``side`` may see it (Rule 4.C), drawn by the kit's builder."""
        pieces: list[Piece] = []
        revealed = set(self.pos.assaults) if (side == self.pos.phasing and self.phase in (
            "barrage", "defense", "assault", "advance")) else set()
        for h, uids in sorted(self._by_hex().items()):
            stack = list(reversed(uids))  # the last unit in is on top
            for s in SIDES:
                mine = [x for x in stack if self.side_of(x) == s]
                if side is None or side == s or h in revealed:
                    shown = mine
                else:
                    shown = [x for x in mine if "intrinsic" not in self.utype(x).flags][:1]
                for i, x in enumerate(mine):
                    u = self.pos.units[x]
                    t = self.utype(x)
                    visible = x in shown
                    marks = tuple(sorted(
                        (["deployed"] if u.deployed else []) + ([f"bunker {self.bunker(h)}"]
                                                                if self.bunker(h) and i == 0
                                                                and s == "german" else [])))
                    if visible:
                        pieces.append(Piece(x, s, f"{x} {u.strength}", h,
                                            f"{t.key} ({self.udef(x).div})",
                                            marks if (side is None or side == s) else (),
                                            False, SIDE_COLOR[s]))
                    elif "intrinsic" not in t.flags:
                        pieces.append(Piece(f"{s}-{h}-{i}", s, "?", h, "", (), True,
                                            SIDE_COLOR[s]))
        status = self.status_line(side)
        overlays = {}
        if side is not None:
            overlays[f"zoc:{other(side)}"] = sorted(self.ezoc(side))
        view = board_view(self.map, pieces, side=side, title=f"White Death: {self.sc.title}",
                          status=status, highlights=sorted(self.pos.assaults), overlays=overlays)
        # the Lowatj is hex terrain (Rule 7), so the display gets its course as a line
        return replace(view, lines=(*view.lines, *river_lines(self.cat.data)))

    def parse_action(self, text: str) -> Action:
        return parse(text)
