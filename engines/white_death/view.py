"""What a player sees (Rule 4.C, limited intelligence): the board, with the status line
and the counters (those are :mod:`engines.white_death.state`'s, where a turn command
that draws no board prints them without loading this module).

Functions of the position, the catalog and the side that looks, not methods of the game:
:class:`~engines.white_death.state.WDState` keeps only the framework's hooks
(``_view``, ``status_line``), which hand these what the position's caches already hold
(the units by hex, the enemy's ZOC, the phase of play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from engines.white_death.base import other
from engines.white_death.data import SIDES, Catalog, UnitDef
from engines.white_death.position import Position
from engines.white_death.state import SIDE_COLOR as SIDE_COLOR
from engines.white_death.state import Counters as Counters
from engines.white_death.state import Drawn, _revealed
from engines.white_death.state import counters as counters
from engines.white_death.state import status_line as status_line
from pbem.memo import Memo

if TYPE_CHECKING:  # the board's types load when a board is drawn (issue 35)
    from engines.hexkit.scenario import ScenarioSet
    from pbem.view import BoardView, Line, Piece

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
