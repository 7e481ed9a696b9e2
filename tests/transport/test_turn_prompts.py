"""Issue 32 item 3 and the small items of issue 33: prompts that say what is true.  An
own file sealed and unsent is said and offered to send; acting out of turn says whose
turn it is, which file is awaited from whom, and when one's own went; ``--hold`` keeps a
file back; no "first contact" with oneself; ``inbox`` does not repeat files ``receive``
took; the mail's position line carries no runtime step name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from transport_helpers import Pair, play_until_sealed

from pbem.cli import main
from pbem.envelope import file_name
from pbem.session import Home


def run(home: Home, *args: str, input: str | None = None, code: int = 0) -> str:
    res = CliRunner().invoke(main, ["--home", str(home.path), *args], input=input)
    assert res.exit_code == code, res.output
    return res.output


def routed_pair(pair: Pair, folder: Path) -> None:
    # open dice: the tests count on file 2 passing the turn to Bob (a sealed roll may
    # bring it back to Alice by a rolls-only reply)
    run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--dice", "open", "--folder", str(folder))
    gid = pair.alice.game("duel").game_id
    run(pair.bob, "join", str(folder / file_name(gid, 0, "red")), "--name", "duel", "--yes",
        "--folder", str(folder))
    run(pair.alice, "inbox", str(folder), "--yes")


def test_out_of_turn_says_whose_turn_and_when_yours_went(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    routed_pair(pair, folder)
    seq, _ = play_until_sealed(pair.alice.game("duel"), pair.chooser)
    action = pair.chooser.pick(pair.bob.game("duel").state.legal_actions()).notation() \
        if pair.bob.game("duel").verifier.seq == seq else "pass"
    out = run(pair.alice, "act", "duel", action, code=10)
    assert f"it is not your turn: file {seq + 1} is awaited from Bob (the blue player" in out
    path = folder / file_name(pair.alice.game("duel").game_id, seq, "red")
    assert f"your file {seq} was written to {path} at " in out, out
    out = run(pair.alice, "play", "duel", "--fast")
    assert f"it is not your turn: file {seq + 1} is awaited from Bob" in out, out


def test_a_held_file_is_said_unsent_and_play_offers_to_send_it(pair: Pair,
                                                               tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    routed_pair(pair, folder)
    game = pair.alice.game("duel")
    pair.alice.hold = True  # as 'pbem act --hold' does
    seq, _ = play_until_sealed(game, pair.chooser)
    path = folder / file_name(game.game_id, seq, "red")
    assert not path.exists()
    status = run(pair.alice, "status", "duel")
    assert (f"file {seq} is sealed but not sent: 'pbem send duel' sends it by the shared "
            f"folder {folder.resolve()}") in status, status
    [listed] = json.loads(run(pair.alice, "list", "--json"))
    assert "sealed but not sent" in listed["sent"]
    # play does not say "waiting for file N from the opponent": it offers to send
    out = run(pair.alice, "play", "duel", "--fast", input="n\n")
    assert f"your file {seq} of duel is sealed but not sent" in out, out
    assert "waiting for file" not in out and not path.exists()
    out = run(pair.alice, "play", "duel", "--fast", input="\n")
    assert f"sent: file {seq} of duel written to {path}" in out, out
    assert path.read_bytes() == game.file(seq)[1]
    assert f"file {seq} sent: written to {path}, still there" in run(pair.alice, "status")


def test_act_hold_keeps_the_file_and_send_uses_the_route(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    routed_pair(pair, folder)
    game = pair.alice.game("duel")
    out = ""
    while "sealed file" not in out:
        action = pair.chooser.pick(pair.alice.game("duel").state.legal_actions()).notation()
        out = run(pair.alice, "act", "duel", action, "--hold")
    seq = pair.alice.game("duel").times["last_sealed"]
    assert "held back (--hold): 'pbem send duel' sends it by the shared folder" in out, out
    assert not (folder / file_name(game.game_id, seq, "red")).exists()
    # a running watch leaves a held file where it is: the player holds it
    from pbem.transport.watcher import Watcher

    Watcher(pair.alice, say=lambda line: None, show=lambda o: None).look()
    assert not (folder / file_name(game.game_id, seq, "red")).exists()
    out = run(pair.alice, "send", "duel")
    assert f"file {seq} of duel written to" in out
    assert (folder / file_name(game.game_id, seq, "red")).exists()


def test_a_game_without_route_says_how_to_send(pair: Pair, tmp_path: Path) -> None:
    out = run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              "-o", str(tmp_path / "inv.pbem"))
    assert "pbem route duel --folder DIR" in out, out
    out = run(pair.bob, "join", str(tmp_path / "inv.pbem"), "--yes", "-o",
              str(tmp_path / "acc.pbem"), "--name", "duel")
    assert "reply written to" in out and "pbem route duel --folder DIR" in out, out
    run(pair.alice, "receive", str(tmp_path / "acc.pbem"), "--yes")
    out = ""
    while "sealed file" not in out:
        action = pair.chooser.pick(pair.alice.game("duel").state.legal_actions()).notation()
        out = run(pair.alice, "act", "duel", action)
    assert "not sent: duel has no route; send it with 'pbem send duel --folder DIR'" in out


def test_no_first_contact_with_oneself(pair: Pair, tmp_path: Path) -> None:
    run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "-o", str(tmp_path / "inv.pbem"))
    out = run(pair.alice, "join", str(tmp_path / "inv.pbem"), "--yes", code=2)
    assert "your own invite" in out and "first contact" not in out, out
    out = run(pair.alice, "receive", str(tmp_path / "inv.pbem"))
    assert "is your own invite" in out and "first contact" not in out, out


def test_inbox_does_not_repeat_files_receive_took(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    game = pair.alice.new_game("skirmish", "short", "red", name="duel")
    acc = pair.bob.join(game.files[0], "invite", name="duel")
    pair.alice.receive(acc.files[1], "accept")
    for _ in range(2):
        seq, data = play_until_sealed(pair.alice.game("duel"), pair.chooser)
        path = folder / file_name(game.game_id, seq, "red")
        path.write_bytes(data)
        run(pair.bob, "receive", str(path))
        while pair.bob.game("duel").my_decision() is not None:
            seq, data = play_until_sealed(pair.bob.game("duel"), pair.chooser)
            pair.alice.receive(data, "b")
    out = run(pair.bob, "inbox", str(folder))
    assert "was already imported" not in out, out
    assert out.count("already in this home") == 1, out


def test_the_mail_position_names_no_runtime_step(tmp_path: Path) -> None:
    from pbem.selfplay import selfplay
    from pbem.transport.telling import describe

    selfplay("mortain", "counterattack", 2, tmp_path, max_turns=1)
    home = Home(tmp_path / "home-a")
    game = home.game("selfplay-2")
    seq, data = game.file()
    game = home.game("selfplay-2")
    if seq != len(game.files) - 1:
        home = Home(tmp_path / "home-b")
        game = home.game("selfplay-2")
        seq, data = game.file()
    step = game.verifier.state.stack[-1].step  # type: ignore[attr-defined]
    _, body = describe(game, seq, data)
    [position] = [line for line in body.splitlines() if line.startswith("Position:")]
    assert f", {step};" not in position and f" {step};" not in position, position


def test_the_board_records_what_it_delivers(pair: Pair, tmp_path: Path) -> None:
    """``pbem board --folder DIR`` on a game without a route: the file it seals goes into
    DIR and into the one record, so status and list are true (issue 32's report: they
    said "sealed but not sent" after the opponent had imported it)."""
    from pbem.web.server import Board

    folder = tmp_path / "shared"
    folder.mkdir()
    game = pair.alice.new_game("skirmish", "short", "red", name="duel")
    pair.alice.receive(pair.bob.join(game.files[0], "invite", name="duel").files[1], "a")
    board = Board(pair.alice, "duel", folder=folder)
    answer: dict[str, object] = {}
    while "sealed" not in answer:
        action = pair.chooser.pick(board.game().state.legal_actions()).notation()
        answer = board.act(action)
    seq = pair.alice.game("duel").times["last_sealed"]
    path = folder / file_name(game.game_id, seq, "red")
    assert f"sent: file {seq} of duel written to {path}" in str(answer["sealed"]), answer
    assert f"file {seq} sent: written to {path}, still there" in run(pair.alice, "status")
    assert "not sent" not in run(pair.alice, "list")


def test_status_names_the_route(pair: Pair, tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    routed_pair(pair, folder)
    out = run(pair.alice, "status", "duel")
    assert f"route: the shared folder {folder.resolve()}" in out, out
    assert json.loads(run(pair.alice, "status", "duel", "--json"))["route"]["kind"] == "folder"
    run(pair.alice, "route", "duel", "--none")
    assert "no route: 'pbem route duel --folder DIR'" in run(pair.alice, "status", "duel")


def test_join_takes_the_route_the_invitation_came_by(pair: Pair, tmp_path: Path) -> None:
    """An invitation found in a shared folder proposes that folder: 'pbem join FILE' with
    no route answers through it, and says so."""
    folder = tmp_path / "shared"
    folder.mkdir()
    run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--folder", str(folder))
    out = run(pair.bob, "inbox", str(folder))
    invite = folder / file_name(pair.alice.game("duel").game_id, 0, "red")
    assert f"run: pbem join {invite}" in out, out
    out = run(pair.bob, "join", str(invite), "--name", "duel", "--yes")
    assert (f"route: files travel by the shared folder {folder.resolve()} (the way the "
            f"invite came") in out, out
    assert "reply sent: file 1 of duel written to" in out, out


def test_out_of_turn_says_the_awaited_file_is_already_in_the_folder(pair: Pair,
                                                                    tmp_path: Path) -> None:
    """With no watch running, 'play' said only "not your turn: file N is awaited" while
    file N sat in the shared folder; it now says so and how to bring it in."""
    folder = tmp_path / "shared"
    folder.mkdir()
    routed_pair(pair, folder)
    game = pair.alice.game("duel")
    seq, data = play_until_sealed(game, pair.chooser)
    run(pair.alice, "send", "duel")
    out = run(pair.alice, "play", "duel", "--fast")
    assert "already in the shared folder" not in out, out
    pair.bob.receive(data, "file")
    bob = pair.bob.game("duel")
    theirs, answer = play_until_sealed(bob, pair.chooser)
    assert theirs == seq + 1
    path = folder / file_name(game.game_id, theirs, "blue")
    path.write_bytes(answer)
    out = run(pair.alice, "play", "duel", "--fast")
    assert f"file {theirs} is already in the shared folder" in out, out
    assert f"'pbem receive {path}'" in out and "'pbem watch'" in out, out


@pytest.mark.parametrize(("engine", "scenario", "step"), [
    ("mortain", "counterattack", "us-setup"), ("48th-panzer-korps", "first-day", "setup")])
def test_status_names_no_runtime_step(engine: str, scenario: str, step: str,
                                      tmp_path: Path) -> None:
    """'pbem status' and the lobby read "us setup, us-setup;": the runtime's step name
    after the rulebook's phase (found starting Mortain from the browser lobby)."""
    home = Home(tmp_path / "a")
    run(home, "id", "new", "Anna")
    run(home, "new", engine, scenario, "--side", "german", "--name", "g",
        "-o", str(tmp_path / "inv.pbem"))
    out = run(home, "status", "g")
    assert " setup;" in out and f", {step};" not in out, out


def test_new_with_a_route_and_o_sends_by_the_route_and_writes_a_copy(pair: Pair,
                                                                     tmp_path: Path) -> None:
    """'-o invite.pbem' beside '--folder' was recorded as the delivery, so the route sent
    nothing and said the invite went 'by another pbem command'."""
    folder = tmp_path / "shared"
    folder.mkdir()
    copy = tmp_path / "invite.pbem"
    out = run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              "--folder", str(folder), "-o", str(copy))
    game = pair.alice.game("duel")
    in_folder = folder / file_name(game.game_id, 0, "red")
    assert in_folder.read_bytes() == copy.read_bytes() == game.files[0]
    assert "another pbem command" not in out, out
    assert f"invite also written to {copy}" in out, out
