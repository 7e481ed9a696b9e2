"""A click on the board is one request (issue 35 item 4): ``/api/act`` answers with the
redraw that follows it, and a page that holds the last redraw is sent only what changed.
What the page ends up holding is, click after click, the whole state a fresh page is sent;
the click reads the save once, names only its events' units, and takes the listed actions
apart once per action, not once per redraw."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pbem.web.server as server
from pbem import gamefiles, history, session
from pbem.match import Match
from pbem.selfplay import selfplay
from pbem.session import Game, Home
from pbem.text import BIDI, displayable
from pbem.web.server import ROUTES, Board, Request, page_json

pytest.importorskip("engines.white_death")


def merged(held: dict[str, Any] | None, sent: dict[str, Any]) -> dict[str, Any] | None:
    """What the page (live.js ``merged``) makes of a redraw: the whole state, or the one it
    holds with what changed; None when the redraw is about another state than the one held."""
    if "since" not in sent:
        return sent
    if held is None or held["version"] != sent["since"]:
        return None
    out = {**held, **{k: v for k, v in sent.items() if k not in ("since", "keep")}}
    for key, count in sent["keep"].items():
        out[key] = held[key][:count] + sent[key]
    return out


def whole(board: Board) -> dict[str, Any]:
    """The whole state as the board shows it now (not a redraw sent: the page's version
    stays the last one sent)."""
    out: dict[str, Any] = json.loads(board.state_json())
    return out


def opened(root: Path, engine: str = "white-death", scenario: str = "purkayev"
           ) -> tuple[Home, Board]:
    selfplay(engine, scenario, 1, root, max_turns=1)
    homes = [Home(root / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game("selfplay-1").my_decision() is not None)
    return home, Board(home, "selfplay-1")


def act(board: Board, text: str, have: object) -> dict[str, Any]:
    answer = ROUTES[("POST", "/api/act")](board, Request("POST", "/api/act", {},
                                                         {"text": text, "have": have}))
    out: dict[str, Any] = json.loads(answer.body)
    return out


def a_move(game: Game) -> str:
    legal = game.state.legal_actions()
    return next((a for a in legal if a.notation().startswith("move")), legal[0]).notation()


def test_each_click_answers_with_its_redraw_and_the_page_holds_the_whole_state(
        tmp_path: Path) -> None:
    home, board = opened(tmp_path)
    state = ROUTES[("GET", "/api/state")](board, Request("GET", "/api/state", {}, {}))
    held = merged(None, json.loads(state.body))
    assert held is not None
    sealed = False
    for _ in range(60):
        game = board.game()
        if game.my_decision() is None:
            break
        answer = act(board, a_move(game), held["version"])
        assert answer["ok"], answer
        sent = answer["state"]  # the redraw came with the act: no second request
        sealed = sealed or "sealed" in answer
        if not sealed:
            # what changed only: the history of frames, counters and rolls is not sent again
            assert "since" in sent and len(json.dumps(sent)) < len(state.body) / 2
        new = merged(held, sent)
        assert new is not None
        assert {k: v for k, v in new.items() if k != "version"} == whole(board)
        held = new
    # a board opened afresh on the same save shows the same
    assert {k: v for k, v in held.items() if k != "version"} == \
        json.loads(Board(home, "selfplay-1").state_json())
    assert sealed  # the file's seal, its notice and the history it starts, merged too
    # a page holding an older redraw (another tab, a lost answer) is sent the whole state
    again = json.loads(ROUTES[("GET", "/api/state")](
        board, Request("GET", "/api/state", {"have": ["not-this-one"]}, {})).body)
    assert "since" not in again
    # and a redraw the page cannot place is refused by its merge, never mixed in
    stale = json.loads(ROUTES[("GET", "/api/state")](
        board, Request("GET", "/api/state", {"have": [again["version"]]}, {})).body)
    assert merged(held, stale) is None and merged(again, stale) is not None


def test_undo_and_say_answer_with_their_redraw(tmp_path: Path) -> None:
    _, board = opened(tmp_path)
    held = json.loads(board.answer())
    first = act(board, a_move(board.game()), held["version"])
    held = merged(held, first["state"])
    assert held is not None and held["pending"] == 1
    for path, body in (("/api/undo", {}), ("/api/say", {"text": "hello"})):
        answer = json.loads(ROUTES[("POST", path)](
            board, Request("POST", path, {}, {**body, "have": held["version"]})).body)
        assert answer["ok"], answer
        held = merged(held, answer["state"])
        assert held is not None
        assert {k: v for k, v in held.items() if k != "version"} == whole(board)
    assert held["pending"] == 0 and held["message"] == "hello"


def test_a_click_reads_the_save_once_and_no_counter_it_does_not_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, board = opened(tmp_path)
    held = json.loads(board.answer())
    move = a_move(board.game())
    calls = {"current": 0, "counters": 0}

    def counting(name: str, fn: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(Game, "current", counting("current", Game.current))
    # White Death's own State.counters are its view's (counters_off_map False): a click
    # names its events' units off the view its redraw draws, and never asks them for
    # every counter of the board, neither for its events nor for the units waiting off
    # the map (tests/core/test_counters_on_view.py)
    monkeypatch.setattr(Match, "counters", counting("counters", Match.counters))
    answer = act(board, move, held["version"])
    assert answer["ok"] and answer["events"] and "since" in answer["state"]
    assert calls == {"current": 1, "counters": 0}, calls


def test_a_click_that_rolls_nothing_writes_the_save_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rollback mark beside the save moves where undo cannot go back (a roll, a
    seal: tests/core/test_rollback_mark.py); a move writes one file, not two."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    move = a_move(game)
    written: list[str] = []

    def counting(module: Any) -> None:
        real = module.write_atomic

        def wrapped(path: Path, data: bytes, mode: int = 0o600) -> None:
            written.append(Path(path).name)
            real(path, data, mode)
        monkeypatch.setattr(module, "write_atomic", wrapped)

    counting(session)
    counting(gamefiles)
    answer = act(board, move, held["version"])
    assert answer["ok"] and not answer.get("sealed") and game.pending_records[-1].text == move
    assert written == [game.path.name]
    # and the game goes on from that save, as loaded afresh
    assert home.game("selfplay-1").pending_actions() == game.pending_actions()


def test_a_click_compares_the_save_on_disk_without_hashing_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        record_hashing: Callable[[object], list[int]]) -> None:
    """The save on disk is compared with the one the board read or wrote (has another
    pbem command saved the game since?) byte for byte: hashing it was three SHA-256 of
    the save a click.  A save changed behind the board is still seen, and reloaded."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    hashed = record_hashing(session)
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and hashed == []
    monkeypatch.undo()
    other = home.game("selfplay-1")  # a terminal's 'pbem say' meanwhile
    other.say("from the terminal")
    assert board.game() is not game and board.game().message == "from the terminal"


def test_a_click_leaves_the_status_summary_to_the_next_status(
        tmp_path: Path, data_cache: Path) -> None:
    """With the data cache on (as 'pbem board' has it), a save written by 'pbem act' keeps
    what 'pbem status' reads of it; a click does not write that entry (0.5 ms of it), and
    the next status reads the save, says what the click left, and keeps it then."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    entries = sorted(data_cache.glob("summary-*"))
    assert entries  # the selfplay's saves kept theirs
    stamps = [p.stat().st_mtime_ns for p in entries]
    before = home.statuses("selfplay-1")[0]
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and not answer.get("sealed")
    assert sorted(data_cache.glob("summary-*")) == entries
    assert [p.stat().st_mtime_ns for p in entries] == stamps
    after = home.statuses("selfplay-1")[0]
    assert after == {**game.status(), "overdue": after["overdue"]} and after != before
    assert [p.stat().st_mtime_ns for p in entries] != stamps  # kept by that status


def test_the_listed_actions_are_taken_apart_once_not_at_every_redraw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, board = opened(tmp_path)
    board.command("act", "impulse 10")  # to the moves: buttons for what the map cannot do
    board.answer()
    game = board.game()
    assert game.my_decision() is not None and not game.my_decision().options
    seen: list[object] = []
    real = server.names

    def counting(action: Any) -> tuple[str, ...]:
        seen.append(action)
        return real(action)

    monkeypatch.setattr(server, "names", counting)
    first = board.answer()
    assert seen == []  # the first redraw took them apart; the same listing again: kept
    assert json.loads(first)["general"]  # and the buttons are still read off them


@settings(max_examples=300, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(
        exclude_categories=()) | st.sampled_from(sorted(BIDI) + list("\n\t\r\\\"\x7f"))),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=12))
def test_page_json_is_the_json_of_what_the_page_may_show(value: Any) -> None:
    assert page_json(value) == json.dumps(displayable(value))


def test_a_redraw_that_fails_leaves_the_click_done_and_said_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The act is saved before its redraw is made: a redraw that fails (a bug) must not
    answer the click as failed ("nothing was saved"); the page then asks for the state,
    whose answer tells the failure as before."""
    home, board = opened(tmp_path)
    move = a_move(board.game())

    def broken(game: object = None) -> dict[str, Any]:
        raise RuntimeError("the redraw broke")

    monkeypatch.setattr(board, "state", broken)
    answer = act(board, move, None)
    assert answer["ok"] and answer["action"] == move and "state" not in answer
    assert home.game("selfplay-1").pending_actions() == [move]


def test_a_tap_on_a_unit_reads_the_kept_names_of_the_listing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/api/where (a tap on a unit) took every listed action apart again on each tap:
    Mortain's 2,593 moves, 3.4 ms a tap; what it answers is unchanged."""
    home, board = opened(tmp_path, "mortain", "counterattack")
    game = board.game()
    assert game.my_decision() is not None and len(game.state.legal_actions()) > 1000
    units = [p.id for p in game.view().pieces if p.side == game.side][:4]
    first = [board.where(u) for u in units]
    assert any(w["hexes"] for w in first)
    taken: list[object] = []

    def counting(action: Any, known: Any) -> tuple[str, ...]:
        taken.append(action)
        return ()

    monkeypatch.setattr(server, "units_of", counting)
    monkeypatch.setattr(server, "hexes_of", counting)
    assert [board.where(u) for u in units] == first
    assert taken == []
    monkeypatch.undo()
    assert [Board(home, "selfplay-1").where(u) for u in units] == first


def test_a_save_writes_back_the_verified_position_it_loaded_without_encoding_it(
        tmp_path: Path) -> None:
    """A click (or a 'pbem act') saves the position of the game's last file, which it did
    not change: the save writes back the bytes it was loaded with, not a second encoding
    of that position (0.3-0.5 ms of a click).  Once something is applied to that
    position, the save holds its new encoding."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    verified = game.match.verifier.state
    _, body = session.read_save(home, game.path)
    loaded = body["cache"]["snapshot"]
    assert isinstance(loaded, bytes) and verified._encoded is None
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and not answer.get("sealed")
    assert verified._encoded is None  # not encoded again to be saved
    _, body = session.read_save(home, game.path)
    assert body["cache"]["snapshot"] == loaded
    # the position changed under the verifier (as a file taken in changes it)
    verified.apply(verified.legal_actions()[0], side=verified.current_player())
    game.write()
    _, body = session.read_save(home, game.path)
    assert body["cache"]["snapshot"] == verified.encoded() != loaded


def test_a_click_types_none_of_the_files_records_to_save_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save's summary counts this file's actions in their wire form: typing every
    record of the file at each save grew with the file.  The count is the one the
    typed records give ('pbem status' shows it)."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    for _ in range(3):
        answer = act(board, a_move(game), held["version"])
        assert answer["ok"] and not answer.get("sealed"), answer
        held = answer["state"]
    typed: list[int] = []
    real = history.read_all

    def counting(data: Any, where: str = "record") -> Any:
        typed.append(1)
        return real(data, where)

    monkeypatch.setattr(history, "read_all", counting)
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and not answer.get("sealed") and typed == []
    monkeypatch.undo()
    assert game.summary()["pending_actions"] == len(game.pending_actions()) == 4


def test_a_click_makes_no_json_encoder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       record_calls: Callable[..., list[Any]]) -> None:
    """The redraw's values are encoded by one encoder made once (server.dumps), not one
    made by ``json.dumps`` for each of the few dozen small values a click sends, and its
    keys' names by the encoder's own string function, not ``json.dumps`` and its two
    Python calls; the text is ``json.dumps``'s."""
    import json.encoder

    _, board = opened(tmp_path)
    held = json.loads(board.answer())
    made: list[object] = []
    real = json.encoder.c_make_encoder
    assert real is not None

    def making(*args: Any) -> Any:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(json.encoder, "c_make_encoder", making)
    dumped = record_calls(json, "dumps")
    answer = act(board, a_move(board.game()), held["version"])
    assert answer["ok"] and "since" in answer["state"]
    assert made == [] and dumped == []
    for value in ({"a": [1, 2.5, None, True]}, [], "x\u00e9", 3, None, [{"k": "v"}] * 3,
                  "\u202e\x00\"\\", "\ud800", "version"):
        assert server.dumps(value) == json.dumps(value)


def test_a_click_encodes_only_what_changed(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A value equal to the one the page holds is not encoded again (the game's name, the
    side, the orders), and of this side's counters only the rows of the units the click
    moved are: each row's JSON is made once per counter (issue 35 item 4).  What the page
    then holds is the whole state (test_each_click_answers_with_its_redraw_...)."""
    _, board = opened(tmp_path)
    held = json.loads(board.answer())
    game = board.game()
    real = server.page_json
    encoded: list[Any] = []

    def encoding(value: Any) -> str:
        encoded.append(value)
        return real(value)

    monkeypatch.setattr(server, "page_json", encoding)
    moved = 0
    for _ in range(4):  # an impulse's start, then its moves
        answer = act(board, a_move(game), held["version"])
        assert answer["ok"] and "sealed" not in answer, answer
        held = merged(held, answer["state"])
        assert held is not None
        assert not [v for v in encoded if v in (game.name, game.side, held["orders"])]
        rows = [v for v in encoded if isinstance(v, dict) and "hex" in v and "label" in v]
        lists = [v for v in encoded if isinstance(v, list) and v and isinstance(v[0], dict)
                 and "hex" in v[0]]
        assert lists == [] and len(rows) <= 2, (rows, lists)
        moved += len(rows)
        encoded.clear()
    assert moved >= 2
    assert {k: v for k, v in held.items() if k != "version"} == whole(board)


class _Hexes(frozenset[str]):
    """A map's hexes that count the questions asked of them and the sets made of them."""

    asked = 0
    made = 0

    def isdisjoint(self, other: Any) -> bool:
        _Hexes.asked += 1
        return super().isdisjoint(other)

    def __or__(self, other: Any) -> frozenset[str]:
        _Hexes.made += 1
        return frozenset(self) | other


def test_the_buttons_are_the_actions_that_name_nothing_on_the_map(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The redraw's buttons (general) are the listed actions that name no hex of the map
    and no counter on it.  Whether an action names a hex of the map is asked once per
    action: a redraw of a listing seen before asks the map's hexes nothing and makes no
    set of them and the counters (Mortain's 1,870 moves were asked at every redraw, a
    third of it).  The same buttons, and the same units waiting to enter (11.1)."""
    _, board = opened(tmp_path, "mortain", "counterattack")
    real = server.cell_hexes
    hexes: dict[frozenset[str], _Hexes] = {}
    monkeypatch.setattr(server, "cell_hexes",
                        lambda view: hexes.setdefault(real(view), _Hexes(real(view))))
    held = json.loads(board.answer())
    listed = waited = 0
    for click in range(5):
        game = board.game()
        if click:  # the opening redraw (units still to enter), then four clicks
            if game.my_decision() is None:
                break
            answer = act(board, a_move(game), held["version"])
            assert answer["ok"], answer
            held = merged(held, answer["state"])
            assert held is not None
        view, legal = game.view(), game.state.legal_actions()
        decision = game.my_decision()
        if decision is None or decision.options:
            continue
        listed += 1
        shown = set(real(view)) | {p.id for p in view.pieces}
        assert held["general"] == [a.notation() for a in legal
                                   if shown.isdisjoint(board.named_by(a))][:40]
        on_map = {p.id for p in view.pieces}
        words = {w for a in legal for w in board.named_by(a)}
        assert [w["id"] for w in held["waiting"]] == [
            u for u in server.reading_order(board.counters(game))
            if u in words and u not in on_map][:40]
        waited += len(held["waiting"])
        _Hexes.asked = _Hexes.made = 0
        again = merged(held, json.loads(board.answer(held["version"])))  # the page reloads
        assert again is not None and again["general"] == held["general"]
        assert again["waiting"] == held["waiting"]
        assert (_Hexes.asked, _Hexes.made) == (0, 0)
        held = again
    assert listed > 1 and waited


def test_a_redraw_finds_a_counter_of_the_history_once(tmp_path: Path) -> None:
    """A counter the history's table holds is looked up there once, not again at every
    redraw (its nine fields hashed for each counter of the board: a third of the frame);
    a counter that moved is a new row, looked up once."""
    _, board = opened(tmp_path)
    held = json.loads(board.answer())
    history = board._history
    assert history is not None

    class Counting(dict[Any, int]):
        asked = 0

        def get(self, key: Any, default: Any = None) -> Any:
            Counting.asked += 1
            return super().get(key, default)

    history.table.index = Counting(history.table.index)
    again = merged(held, json.loads(board.answer(held["version"])))  # looked up once more
    assert again is not None
    held = again
    Counting.asked = 0
    answer = act(board, a_move(board.game()), held["version"])
    assert answer["ok"] and "since" in answer["state"]
    assert Counting.asked <= 2
    now = merged(held, answer["state"])
    assert now is not None
    assert {k: v for k, v in now.items() if k != "version"} == whole(board)


def test_a_redraw_asks_no_counter_of_the_history_of_its_table_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A counter the history's table holds, shown by one redraw, is found by the next
    redraw's frame itself (``PieceTable.seen``, kept by the board for that table): only
    the counters the history does not hold are handed to the redraw's table, and the
    state is the one a fresh board shows."""
    home, board = opened(tmp_path)
    held = json.loads(board.answer())
    history = board._history
    assert history is not None
    asked: list[Any] = []
    real = server.Present.add

    def add(table: server.Present, piece: Any, depth: int) -> int:
        asked.append((piece, depth))
        return real(table, piece, depth)

    monkeypatch.setattr(server.Present, "add", add)
    again = merged(held, json.loads(board.answer(held["version"])))
    assert again is not None
    held_rows = {tuple(row) for row in history.table.rows}
    in_history = [a for a in asked if tuple(server.piece_row(*a)) in held_rows]
    assert in_history == []
    assert {k: v for k, v in again.items() if k != "version"} == \
        json.loads(Board(home, "selfplay-1").state_json())
    # the board kept counters of the history (White Death's first file shows counters
    # its opponent's file showed): a board that kept none would prove nothing above
    assert board._seen is not None and board._seen[1]


def test_a_listing_with_a_few_new_actions_is_named_without_a_step_per_action(
        tmp_path: Path) -> None:
    """After a move, most of Mortain's actions are the objects listed before and a few
    (the moved unit's) are new: the new ones are found and taken apart, the rest read
    in C, not a Python step for each of the 1,870 (the step was a third of the redraw).
    The names are each action's own."""
    import sys

    _, board = opened(tmp_path, "mortain", "counterattack")
    held = json.loads(board.answer())
    game = board.game()
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and "sealed" not in answer
    game = board.game()
    assert game.my_decision() is not None
    legal = game.state.legal_actions()
    cells = server.cell_hexes(game.view())
    # taken apart as a redraw of the whole listing takes them (an engine that lists its
    # buttons for no less: State.off_map_actions; Mortain's redraw lists no move)
    board.buttons_of(legal, cells)
    assert len(legal) > 1000 and all(id(a) in board._buttons for a in legal)
    for a in legal[::700]:  # as if new: actions the board has not taken apart yet
        del board._buttons[id(a)]
        del board._names[id(a)]
    steps = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal steps
        if frame.f_code.co_filename == server.__file__:
            steps += event == "line"
            return tracer
        return None

    sys.settrace(tracer)
    try:
        buttons = board.buttons_of(legal, cells)
    finally:
        sys.settrace(None)
    assert [b[0] for b in buttons] == legal
    assert [b[2] for b in buttons] == [server.names(a) for a in legal]
    assert [b[1] for b in buttons] == [cells.isdisjoint(server.names(a)) for a in legal]
    assert [b[3] for b in buttons] == [tuple(n for n in server.names(a) if n not in cells)
                                       for a in legal]
    assert steps < 200, steps


def test_a_board_copies_the_position_it_plays_with_the_load_not_at_the_first_click(
        tmp_path: Path, record_calls: Callable[..., list[Any]]) -> None:
    """The board loads a game whose decision is ours to play it: the working copy of the
    verified position is made then, so the first click applies its action without copying
    the position first (48th Panzer Korps: a third of that click); the click's events and
    its save are those of the copy, and the verified position stays as its file left it."""
    home, board = opened(tmp_path, "48th-panzer-korps", "chir")
    held = json.loads(board.answer())
    game = board.game()
    verified = game.match.verifier.state
    before = verified.encoded()
    clones = record_calls(type(verified), "clone")
    text = a_move(game)
    answer = act(board, text, held["version"])
    assert answer["ok"] and not answer.get("sealed")
    assert clones == []
    assert game.state is not verified and verified.encoded() == before
    assert game.pending_actions() == [text]
    # what a fresh load of the save plays from is the same position
    assert home.game("selfplay-1").state.digest() == game.state.digest()


def test_the_soviet_plan_is_found_again_without_its_salts_made_at_every_redraw(
        tmp_path: Path, record_calls: Callable[..., list[Any]]) -> None:
    """48th Panzer Korps 9.1: the Soviet side's screens show its secret plan, found again
    from the commitments by trying each scheduled area with the side's own salt.  Each
    formation's salt (an HMAC of the side's secret) and each digest tried are made once per
    game, not again at every click's redraw; the plan shown is the same."""
    from engines.panzer48 import reinforcements
    from pbem.engine import Commitment

    home, board = opened(tmp_path, "48th-panzer-korps", "chir")
    held = json.loads(board.answer())
    game = board.game()
    assert game.side == "soviet"
    notes = game.match.private_notes()
    assert notes and notes[0].startswith("your plan (9.1, secret): ")
    salts = record_calls(Commitment, "salt")
    digests = record_calls(Commitment, "make")
    answer = act(board, a_move(game), held["version"])
    shown = merged(held, answer["state"])
    assert answer["ok"] and shown is not None and notes[0] in shown["status"]
    assert game.match.private_notes() == notes
    assert salts == [] and digests == []
    reinforcements.digest_of.cache_clear()
    assert game.match.private_notes() == notes
    # the line itself is kept under the digests and salts it reads: nothing made again
    assert salts == [] and digests == []
    from engines.panzer48.view import _notes

    _notes(game.state.d).clear()  # type: ignore[attr-defined]
    assert game.match.private_notes() == notes
    assert salts == [] and digests  # the digests made again, the salts still kept


def test_a_click_scores_its_position_once_and_asks_whose_file_is_next_of_none(
        tmp_path: Path, record_calls: Callable[..., list[Any]]) -> None:
    """48th Panzer Korps: a click's save writes the status line in its summary and its
    redraw draws it in the view: rule 10's victory points are scored once for both (the
    summary reads the line off the view the redraw draws, State.view_status).  Whose
    file comes next is a fact of the verified position, which a click does not change:
    asked of it once when the board loads, not six times a click (Match.has_pen).  The
    summary saved is the one a fresh load of the save works out."""
    from engines.panzer48 import victory
    from pbem.transcript import Verifier

    home, board = opened(tmp_path, "48th-panzer-korps", "chir")
    held = json.loads(board.answer())
    game = board.game()
    scores = record_calls(victory, "score")
    senders = record_calls(Verifier, "expected_sender")
    answer = act(board, a_move(game), held["version"])
    assert answer["ok"] and not answer.get("sealed")
    assert len(scores) == 1
    assert senders == []
    shown = merged(held, answer["state"])
    assert shown is not None and shown["status"].startswith(game.match._board().status)
    _, saved = session.read_save(home, game.path)
    fresh = home.game("selfplay-1")
    assert saved["summary"]["position"] == fresh.state.status_line(fresh.side)
    assert saved["summary"] == fresh.summary()
