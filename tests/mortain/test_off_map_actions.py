"""The board's buttons without the side's moves (issue 35 item 4): in a movement phase
Mortain Counterattack lists for the board (``State.off_map_actions``) its listing less the
units' moves and exits (S3, S4, 19.1), without a unit's search.  A button the listing
would show and the short one lacked would hide an arrival (11.0), a replacement (11.2) or
'end movement' from the player: over seeded playouts, at every decision, the two agree on
every action the board shows as a button or reads a waiting unit from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.mortain import ENGINE, movement
from engines.mortain.state import MortainState
from pbem.engine import Action
from pbem.grammar import names
from pbem.selfplay import selfplay
from pbem.session import Home
from pbem.testing import Chooser, turns
from pbem.web.replay import cell_hexes
from pbem.web.server import ROUTES, Board, Request


def shown(st: MortainState, actions: list[Action]) -> list[str]:
    """The actions the board reads buttons or waiting units from: all but those that
    name something, and nothing but hexes of the map and units on it (a button names
    neither, a waiting unit is off the map)."""
    view = st.view(st.current_player())
    known = cell_hexes(view) | {p.id for p in view.pieces}
    return [a.notation() for a in actions if not names(a) or not known.issuperset(names(a))]


def test_s3_the_buttons_are_the_listings_over_seeded_playouts() -> None:
    kinds: dict[str, int] = {}
    for seed in ("mortbuttons/1", "mortbuttons/2"):
        st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
        assert isinstance(st, MortainState)
        choose = Chooser(seed)
        for _ in turns(st, choose, 500):
            legal = st.legal_actions()
            listed = [a.notation() for a in legal]
            short = [a.notation() for a in st.off_map_actions()]
            # in the listing's order, nothing the listing lacks
            it = iter(listed)
            assert all(a in it for a in short), (st.pos.turn, st.stack[-1].step)
            assert shown(st, st.off_map_actions()) == shown(st, legal)
            if st.stack[-1].step == "move":
                for a in short:
                    kinds[a.split()[0]] = kinds.get(a.split()[0], 0) + 1
                # no unit's move or exit: each is a tap on its counter
                assert not any(a.startswith(("move ", "exit ")) for a in short)
            st.apply(legal[choose.below(len(legal))])
    # the playouts met arrivals (11.0), replacements (11.2) and 'end movement'
    assert kinds.get("enter", 0) > 10 and kinds.get("replace", 0) > 0 and kinds["end"] > 50, \
        kinds


def test_a_board_click_lists_no_move_for_its_redraw(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The redraw after a move shows the same buttons and waiting units as with the whole
    listing, and the side's moves are not listed for it."""
    selfplay("mortain", "counterattack", 1, tmp_path, max_turns=1)
    homes = [Home(tmp_path / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    board = Board(home, "selfplay-1")
    board.state()
    game = board.game()
    move = next(a for a in game.state.legal_actions() if a.notation().startswith("move"))
    listings: list[object] = []
    real = movement.move_options

    def counted(*args: object) -> list[Action]:
        listings.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(movement, "move_options", counted)
    named: list[object] = []
    texts = MortainState.counters

    def counters(st: MortainState, side: str | None) -> dict[str, str]:
        named.append(side)
        return texts(st, side)

    monkeypatch.setattr(MortainState, "counters", counters)
    answer = ROUTES[("POST", "/api/act")](board, Request("POST", "/api/act", {},
                                                         {"text": move.notation()}))
    out = json.loads(answer.body)
    assert out["ok"] and out["state"]["my_turn"] and out["state"]["general"]
    assert listings == []
    # entries closed by the move (11.0): the buttons name no unit off the map, and no
    # counter's text is asked for the units waiting to enter
    assert out["state"]["waiting"] == [] and named == []
    monkeypatch.setattr(MortainState, "counters", texts)
    state = board.state()
    # what the board showed when it listed every move
    monkeypatch.setattr(MortainState, "off_map_actions", MortainState.legal_actions)
    whole = Board(home, "selfplay-1").state()
    assert (state["general"], state["waiting"]) == (whole["general"], whole["waiting"])
    assert state == whole
