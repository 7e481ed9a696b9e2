"""What a player sees (Rule 4.C, limited intelligence): the board and the status line.

Functions of the position, the catalog and the side that looks, not methods of the game:
:class:`~engines.white_death.state.WDState` keeps only the framework's hooks
(``_view``, ``status_line``), which hand these what the position's caches already hold
(the units by hex, the enemy's ZOC, the phase of play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from engines.white_death.base import other
from engines.white_death.data import SIDES, Catalog, UnitDef
from engines.white_death.position import Position
from pbem.engine import counter_text
from pbem.memo import Memo

if TYPE_CHECKING:  # the board's types load when a board is drawn (issue 35)
    from engines.hexkit.scenario import ScenarioSet
    from pbem.view import BoardView, Line, Piece

SIDE_COLOR = {"soviet": "#c03030", "german": "#303030"}

_RIVERS: dict[int, tuple[Line, ...]] = {}


def river_lines(data: ScenarioSet) -> tuple[Line, ...]:
    """Each river's course from the map file's ``[rivers]`` table, for drawing."""
    if id(data) not in _RIVERS:
        from pbem.view import Line

        rivers = data.doc(data.map_doc).get_table("rivers", default={}) \
            if data.map_doc is not None else {}
        _RIVERS[id(data)] = tuple(
            Line("river", tuple(str(h) for h in river["hexes"]), "#3a6fd0")
            for _, river in sorted(rivers.items()) if river.get("hexes"))
    return _RIVERS[id(data)]


def status_line(pos: Position, last_turn: int, phase: str, side: str | None) -> str:
    """Turn, weather, phase, MPs left, and the supply points ``side`` may know."""
    # MPs left are public (the impulse screen); supply points are each side's own
    # only the line asked for, without a generator joined: a click writes this line three
    # times (its save's summary, its redraw's view and status), 19 K instructions each
    points = pos.supply
    if side == "soviet":
        own = f"Soviet {points['soviet']}"
    elif side == "german":
        own = f"German {points['german']}, Velikiye Luki {points['vl']}"
    elif side is None:  # SIDES' order
        own = f"Soviet {points['soviet']} German {points['german']}, Velikiye Luki " \
              f"{points['vl']}"
    else:
        own = ""
    return (f"Turn {pos.turn}/{last_turn}, {pos.weather}; {pos.phasing} {phase}; MPs left "
            f"Soviet {pos.mps['soviet']}, German {pos.mps['german']}; supply {own}")


def _revealed(pos: Position, side: str | None, phase: str) -> set[str]:
    """The hexes whose whole stacks ``side`` sees (Rule 4.C): an assault's barrage, fire
    and advance show the assaulted hexes to the phasing side."""
    return set(pos.assaults) if (side == pos.phasing and phase in (
        "barrage", "defense", "assault", "advance")) else set()


def counters(pos: Position, side: str | None, phase: str,
             stacks: Mapping[str, Sequence[str]], udef: Callable[[str], UnitDef]
             ) -> dict[str, str]:
    """What :func:`board`'s pieces that ``side`` may identify print, by unit id, in the
    board's order, without drawing the board (the default reads them off the view): a
    listing and an action name their units by them, and the view's classes and the kit's
    board builder need not load for that (issue 35)."""
    revealed = _revealed(pos, side, phase)
    out: dict[str, str] = {}
    for h, uids in sorted(stacks.items()):
        stack = list(reversed(uids))  # the last unit in is on top
        for s in SIDES:
            mine = [x for x in stack if udef(x).side == s]
            if not (side is None or side == s or h in revealed):
                mine = [x for x in mine if "intrinsic" not in udef(x).type.flags][:1]
            for x in mine:
                if x not in out:
                    d = udef(x)
                    out[x] = counter_text(x, f"{d.type.key} ({d.div})",
                                          f"{x} {pos.units[x].strength}")
    return out


class Counters(Mapping[str, str]):
    """:func:`counters` as a mapping that works out a unit's counter when that unit is
    asked (``get``, ``[]``, ``in``), and all of them only when they are gone through: a
    listing's prompt looks up each of its words (most name no unit, as "the Soviet
    player must allocate assault fire against 1 assault"), and printing all 108
    counters to name none was 1.8 M instructions of a White Death 'pbem legal' (issue
    35).  The same counters, in the same order, for the same units
    (``tests/white_death/test_counters_asked.py``): a unit on the map, in full for its
    own side, the referee and a revealed hex, else only the top counter of its side's
    stack that is not an intrinsic garrison (Rule 4.C)."""

    __slots__ = ("_all", "_got", "_phase", "_pos", "_side", "_stacks", "_udef")

    def __init__(self, pos: Position, side: str | None, phase: str,
                 stacks: Callable[[], Mapping[str, Sequence[str]]],
                 udef: Callable[[str], UnitDef]) -> None:
        self._pos, self._side, self._phase = pos, side, phase
        self._stacks, self._udef = stacks, udef
        self._all: dict[str, str] | None = None
        #: each unit asked, its counter or None (a board asks the same units click after
        #: click of the mapping it keeps)
        self._got: dict[str, str | None] = {}

    def _whole(self) -> dict[str, str]:
        got = self._all
        if got is None:
            got = self._all = counters(self._pos, self._side, self._phase, self._stacks(),
                                       self._udef)
        return got

    def get(self, unit: str, default: Any = None) -> Any:
        if self._all is not None:
            return self._all.get(unit, default)
        got = self._got.get(unit, "")
        if got == "":
            got = self._got[unit] = self._one(unit)
        return default if got is None else got

    def _one(self, unit: str) -> str | None:
        u = self._pos.units.get(unit)
        if u is None:
            return None
        stack = self._stacks().get(u.loc)
        if stack is None or unit not in stack:
            return None  # off the map (a box): not on the board
        udef = self._udef
        d = udef(unit)
        side = self._side
        if not (side is None or side == d.side
                or u.loc in _revealed(self._pos, side, self._phase)):
            top = next((x for x in reversed(stack) if udef(x).side == d.side
                        and "intrinsic" not in udef(x).type.flags), None)
            if top != unit:
                return None
        return counter_text(unit, f"{d.type.key} ({d.div})", f"{unit} {u.strength}")

    def __getitem__(self, unit: str) -> str:
        got: str | None = self.get(unit)
        if got is None:
            raise KeyError(unit)
        return got

    def __contains__(self, unit: object) -> bool:
        return isinstance(unit, str) and self.get(unit) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())


def _hex_pieces(pos: Position, h: str, uids: Sequence[str], side: str | None,
                revealed: bool, bunker: int, udef: Callable[[str], UnitDef]
                ) -> tuple[Piece, ...]:
    """The counters of one hex as ``side`` sees them (Rule 4.C): its own and the
    referee's in full, an enemy stack by its top non-intrinsic counter alone unless the
    hex is ``revealed`` (an assault's barrage, fire and advance show it)."""
    from pbem.view import Piece

    pieces: list[Piece] = []
    stack = list(reversed(uids))  # the last unit in is on top
    for s in SIDES:
        mine = [x for x in stack if udef(x).side == s]
        if side is None or side == s or revealed:
            shown = mine
        else:
            shown = [x for x in mine if "intrinsic" not in udef(x).type.flags][:1]
        for i, x in enumerate(mine):
            u = pos.units[x]
            d = udef(x)
            t = d.type
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
    return tuple(pieces)


def _map_fields(cat: Catalog) -> dict[str, object]:
    """The view's map-only parts (the kit's, shared by every view of the map) with the
    Lowatj's course added to its lines (Rule 7: river hexes are terrain, so the display
    gets the course as a line), made once per catalog: a replay page reads them from
    each of its 1,160 views (issue 35). The map is the catalog's, read each time, so a
    catalog given another map gets its fields made again."""
    hexmap = cat.map
    kept = cat.static.get("view-fields")
    if kept is not None and kept[0] is hexmap:
        fields: dict[str, object] = kept[1]
        return fields
    from engines.hexkit.board import map_fields

    fields = map_fields(hexmap)
    lines = cat.static.get("view-lines")
    if lines is None:
        lines = cat.static["view-lines"] = (*cast("tuple[Line, ...]", fields["lines"]),
                                            *river_lines(cat.data))
    fields["lines"] = lines
    cat.static["view-fields"] = (hexmap, fields)
    return fields


def _memo(cat: Catalog, name: str, limit: int) -> Memo[Any, Any]:
    got = cat.static.get(name)
    if got is None:
        got = cat.static[name] = Memo(limit)
    out: Memo[Any, Any] = got
    return out


#: :class:`pbem.view.BoardView`, once the first board is drawn (:func:`board`)
_BOARD_VIEW: type[BoardView] | None = None


def board(pos: Position, cat: Catalog, side: str | None, *, title: str, status: str,
          phase: str, stacks: Mapping[str, Sequence[str]], udef: Callable[[str], UnitDef],
          zoc: Iterable[str]) -> BoardView:
    """The board as ``side`` may see it (Rule 4.C), drawn by the kit's builder: ``stacks``
    the units in each hex in stacking order, ``udef`` a unit's data (an intrinsic
    garrison's too), ``zoc`` the hexes in the enemy's ZOC (Rule 3; shown to ``side``).

    A replay page and the browser board ask a view per action, and an action changes a
    hex or two: each hex's counters are kept in the catalog under all they read (the
    viewer, whether the hex is revealed, its bunker, its units in order with their
    strength and deployment; a unit's data is fixed by its id), the map's parts and lines
    are made once, and the enemy's ZOC, a set the rules keep per enemy position, is
    sorted once per set (issue 35: the view was most of the page's and the click's cost).
    """
    # 'legal', 'act' and 'receive' draw no board: the view's classes and the kit's board
    # builder load with the first one drawn (issue 35: pbem.view and hexkit.board ~10 M),
    # the class then kept here (an import statement at every view was ~6 K instructions)
    global _BOARD_VIEW
    if _BOARD_VIEW is None:
        from pbem.view import BoardView

        _BOARD_VIEW = BoardView
    view_class = _BOARD_VIEW

    revealed = _revealed(pos, side, phase)
    bunkers: dict[str, int] = {}
    for b in pos.bunkers:
        if b.strength > bunkers.get(b.hex, 0):
            bunkers[b.hex] = b.strength
    units = pos.units
    kept = _memo(cat, "view-hexes", 16384)
    pieces: list[Piece] = []
    # the memo's look-up and the list's extend bound once, not looked up for each of ~60
    # hexes, and a hex looked for among the revealed ones only when some are (an
    # assault's): a click's redraw draws this view (issue 35 item 4)
    find, extend = kept.find, pieces.extend
    bunker_of = bunkers.get if bunkers else None
    # the hexes sorted alone, not their (hex, units) pairs: each comparison of two pairs
    # compared their hexes through the pairs' own comparison
    for h in sorted(stacks):
        uids = stacks[h]
        shown = h in revealed if revealed else False
        bunker = bunker_of(h, 0) if bunker_of is not None else 0
        if len(uids) == 1:
            # most hexes hold one unit: its key is flat (seven items, never the six of a
            # stack's), made without a list of each unit's strength: building, hashing
            # and comparing the nested key of each of ~60 hexes was most of the view a
            # click's redraw draws (issue 35 item 4)
            x = uids[0]
            u = units[x]
            key: tuple[Any, ...] = (h, side, shown, bunker, x, u.strength, u.deployed)
        else:
            key = (h, side, shown, bunker, tuple(uids),
                   tuple([(units[x].strength, units[x].deployed) for x in uids]))
        # a hex as the last view drew it is found without making its maker: a partial of
        # seven arguments for each of ~60 hexes, most of them unchanged, was an eighth of
        # the view a click's redraw draws (issue 35 item 4)
        found = find(key)
        if found is None:
            found = kept.keep(key, _hex_pieces(pos, h, uids, side, shown, bunker, udef))
        extend(found)
    overlays: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if side is not None:
        # the rules hand the same read-only ZOC (a side's, kept per placement of its
        # units) move after move of the other side: its sorted hexes are kept with it,
        # found by the object itself (held, so no other takes its id), before a set of
        # its hexes is made, hashed and compared to find them by their hexes
        last = cat.static.get("view-zoc-last")
        if last is not None and last[0] is zoc:
            sorted_zoc = last[1]
        else:
            zset = zoc if isinstance(zoc, frozenset) else frozenset(zoc)
            sorted_zoc = _memo(cat, "view-zoc", 256).get(
                zset, lambda: tuple(sorted(zset)))
            if isinstance(zoc, (frozenset, MappingProxyType)):  # read-only: kept as is
                cat.static["view-zoc-last"] = (zoc, sorted_zoc)
        overlays = ((f"zoc:{other(side)}", sorted_zoc),)
    # the map's parts are made when first read: 'legal' and 'act' only name the view's
    # units (pbem.engine.State.counters), and making the cells of the whole map was a
    # third of such a command (issue 35 item 3)
    # (their maker and the hex ids' kept per catalog and map, not made for each view a
    # replay page draws after each of its actions)
    mapped = cat.map
    makers = cat.static.get("view-makers")
    if makers is None or makers[0] is not mapped:
        makers = cat.static["view-makers"] = (mapped, partial(_map_fields, cat),
                                              lambda: mapped.ids)
    return view_class.deferred(
        makers[1], hexes=makers[2], title=title, side=side,
        pieces=tuple(pieces), status=status, highlights=tuple(sorted(pos.assaults)),
        overlays=overlays)
