"""What a player sees (Rule 4.C, limited intelligence): the board and the status line.

Functions of the position, the catalog and the side that looks, not methods of the game:
:class:`~engines.white_death.state.WDState` keeps only the framework's hooks
(``_view``, ``status_line``), which hand these what the position's caches already hold
(the units by hex, the enemy's ZOC, the phase of play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from itertools import chain
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


def _stack(find: Callable[[Any], tuple[Piece, ...] | None], kept: Memo[Any, Any],
           pos: Position, h: str, uids: Sequence[str], side: str | None, shown: bool,
           bunker: int, udef: Callable[[str], UnitDef]) -> tuple[Piece, ...]:
    """The counters of hex ``h`` (:func:`_hex_pieces`), kept in ``kept`` (``find`` its
    look-up, bound once per board) under all they read."""
    units = pos.units
    if len(uids) == 1:
        # most hexes hold one unit: its key is flat (seven items, never the six of a
        # stack's), made without a list of each unit's strength: building, hashing and
        # comparing the nested key of each of ~60 hexes was most of the view a click's
        # redraw draws (issue 35 item 4)
        x = uids[0]
        u = units[x]
        key: tuple[Any, ...] = (h, side, shown, bunker, x, u.strength, u.deployed)
    else:
        key = (h, side, shown, bunker, tuple(uids),
               tuple([(units[x].strength, units[x].deployed) for x in uids]))
    # a hex as the last view drew it is found without making its maker: a partial of
    # seven arguments for each of ~60 hexes, most of them unchanged, was an eighth of the
    # view a click's redraw draws (issue 35 item 4)
    found = find(key)
    if found is None:
        found = kept.keep(key, _hex_pieces(pos, h, uids, side, shown, bunker, udef))
    return found


def _draw(pos: Position, side: str | None, stacks: Mapping[str, Sequence[str]],
          udef: Callable[[str], UnitDef], drawn: Drawn | None, revealed: set[str],
          bunkers: dict[str, int], kept: Memo[Any, Any]) -> tuple[Piece, ...]:
    """Every hex's counters, in the board's order (``drawn`` made of them)."""
    find = kept.find
    hexes: dict[str, tuple[Piece, ...]] = {}
    # the hexes sorted alone, not their (hex, units) pairs: each comparison of two pairs
    # compared their hexes through the pairs' own comparison
    order = sorted(stacks)
    for h in order:
        hexes[h] = _stack(find, kept, pos, h, stacks[h], side, h in revealed,
                          bunkers.get(h, 0), udef)
    pieces = tuple(chain.from_iterable(hexes.values()))
    if drawn is not None:
        drawn.hexes, drawn.order, drawn.pieces = hexes, order, pieces
    return pieces


def _redraw(pos: Position, side: str | None, stacks: Mapping[str, Sequence[str]],
            udef: Callable[[str], UnitDef], drawn: Drawn, changed: AbstractSet[str],
            revealed: set[str], bunkers: dict[str, int], kept: Memo[Any, Any]) -> None:
    """``drawn`` brought up to the position: the ``changed`` hexes drawn again (a hex
    emptied dropped, one newly occupied put in its place in the board's order), the
    others' counters kept as they are."""
    hexes, order, find = drawn.hexes, drawn.order, kept.find
    for h in changed:
        uids = stacks.get(h)
        if uids is not None:
            if h not in hexes:
                # imported where a hex is first occupied, on a board's redraw: a turn
                # command draws no board, and loading bisect was 0.5 M instructions of
                # each (issue 35)
                from bisect import insort

                insort(order, h)
            hexes[h] = _stack(find, kept, pos, h, uids, side, h in revealed,
                              bunkers.get(h, 0), udef)
        elif h in hexes:
            del hexes[h]
            order.remove(h)
    drawn.pieces = tuple(chain.from_iterable(map(hexes.__getitem__, order)))


class Drawn:
    """The counters of the board last drawn for one state (:func:`board`), hex by hex,
    for drawing its next view from the hexes the position changed since: a replay page
    draws a view after each action, and walking the ~60 occupied hexes of the map for
    each of a White Death campaign's 5,600 views, an action changing one or two of them,
    was most of its board's cost (issue 35).  Held by the state beside the hexes changed
    since (``WDState._drawn``, ``_touched``), never part of the position."""

    __slots__ = ("bunkers", "hexes", "order", "pieces", "revealed", "side")

    def __init__(self) -> None:
        #: the viewer it was drawn for
        self.side: str | None = None
        self.revealed: set[str] = set()
        self.bunkers: dict[str, int] = {}
        #: each occupied hex's counters, and the hexes in the board's (sorted) order
        self.hexes: dict[str, tuple[Piece, ...]] = {}
        self.order: list[str] = []
        #: every hex's counters in that order: the view's pieces
        self.pieces: tuple[Piece, ...] = ()


def board(pos: Position, cat: Catalog, side: str | None, *, title: str, status: str,
          phase: str, stacks: Mapping[str, Sequence[str]], udef: Callable[[str], UnitDef],
          zoc: Iterable[str], drawn: Drawn | None = None,
          changed: AbstractSet[str] | None = None) -> BoardView:
    """The board as ``side`` may see it (Rule 4.C), drawn by the kit's builder: ``stacks``
    the units in each hex in stacking order, ``udef`` a unit's data (an intrinsic
    garrison's too), ``zoc`` the hexes in the enemy's ZOC (Rule 3; shown to ``side``).

    A replay page and the browser board ask a view per action, and an action changes a
    hex or two: each hex's counters are kept in the catalog under all they read (the
    viewer, whether the hex is revealed, its bunker, its units in order with their
    strength and deployment; a unit's data is fixed by its id), the map's parts and lines
    are made once, and the enemy's ZOC, a set the rules keep per enemy position, is
    sorted once per set (issue 35: the view was most of the page's and the click's cost).

    ``drawn``: the board last drawn of this position, updated to this one; with
    ``changed``, every hex whose units, their order, strength or deployment changed
    since (a bunker's strength and the revealed hexes are compared here), only those
    hexes are drawn again, if it was drawn for ``side``.  ``changed`` None (nothing
    drawn, or the position changed beyond the hexes named): every hex is.
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
    if drawn is not None and changed is not None and drawn.side == side:
        if revealed != drawn.revealed or bunkers != drawn.bunkers:
            was = drawn.bunkers
            changed = {*changed, *(revealed ^ drawn.revealed),
                       *(h for h in was.keys() | bunkers.keys()
                         if was.get(h, 0) != bunkers.get(h, 0))}
        if changed:
            _redraw(pos, side, stacks, udef, drawn, changed, revealed, bunkers,
                    _memo(cat, "view-hexes", 16384))
        pieces: tuple[Piece, ...] = drawn.pieces
    else:
        pieces = _draw(pos, side, stacks, udef, drawn, revealed, bunkers,
                       _memo(cat, "view-hexes", 16384))
    if drawn is not None:
        drawn.side, drawn.revealed, drawn.bunkers = side, revealed, bunkers
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
        pieces=pieces, status=status, highlights=tuple(sorted(pos.assaults)),
        overlays=overlays)
