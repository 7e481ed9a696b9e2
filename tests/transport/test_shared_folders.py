"""Shared folders as players really use them (issue 23): one player on two computers, a
home put back from a backup, files deleted from the folder, evidence with actions held."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_transport_folder import scan, start_game, take_turn, two_file_2s
from transport_helpers import Pair, pbem_at, play_until_sealed

from pbem.envelope import peek
from pbem.session import Home
from pbem.transport.folder import deliver_folder


def _replace_home(home: Home, backup: Path) -> Home:
    shutil.rmtree(home.path)
    shutil.copytree(backup, home.path)
    return Home(home.path)


def test_two_versions_of_ones_own_file_are_named_with_what_to_do(pair: Pair,
                                                                 tmp_path: Path) -> None:
    folder, name, path, other = two_file_2s(pair, tmp_path)
    copy = folder / f"{path.stem}.sync-conflict-20240501-101010-LAPTOP1.pbem"
    copy.write_bytes(other)
    save = pair.alice.game(name).path.read_bytes()
    outcomes = {o.source: o for o in scan(pair.alice, folder)}
    forked = outcomes[str(copy)]
    assert forked.status == "own-fork"
    assert "two versions of your own file 2" in forked.note
    assert "two computers" in forked.note and "pbem rebuild" in forked.note
    assert "Syncthing conflict copy" in forked.note
    assert pair.alice.game(name).path.read_bytes() == save
    # said once, not at every look
    assert [o for o in scan(pair.alice, folder) if o.source == str(copy)] == []


def test_a_home_put_back_from_a_backup_catches_up_from_its_own_files(pair: Pair,
                                                                     tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    backup = tmp_path / "alice-backup"
    shutil.copytree(pair.alice.path, backup)
    _, mine = take_turn(pair, folder, name)        # alice's file 2, after the backup
    seq = peek(mine.read_bytes()).seq
    assert [o.status for o in scan(pair.bob, folder) if o.source == str(mine)] == ["imported"]
    _, theirs = take_turn(pair, folder, name)      # bob's reply
    alice = _replace_home(pair.alice, backup)      # the disk died; the backup is back
    assert alice.game(name).verifier.seq == seq - 1
    outcomes = {o.source: o for o in scan(alice, folder)}
    assert outcomes[str(mine)].status == "imported"
    assert "caught up with your own file 2" in outcomes[str(mine)].note
    assert outcomes[str(theirs)].status == "imported"
    game = alice.game(name)
    assert game.verifier.seq == peek(theirs.read_bytes()).seq
    assert game.files[seq] == mine.read_bytes()


def test_a_home_behind_its_own_missing_file_is_told_to_rebuild(pair: Pair,
                                                              tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    backup = tmp_path / "alice-backup"
    shutil.copytree(pair.alice.path, backup)
    _, mine = take_turn(pair, folder, name)
    scan(pair.bob, folder)
    _, theirs = take_turn(pair, folder, name)
    mine.unlink()                                  # her file is gone from the folder too
    alice = _replace_home(pair.alice, backup)
    [note] = [o for o in scan(alice, folder) if o.source == str(theirs)]
    assert note.status == "pending", note.note
    assert "file 2 is your own file" in note.note and "pbem rebuild" in note.note
    assert "ask the opponent" not in note.note


def test_a_second_version_of_the_opponents_file_is_evidence_while_actions_are_held(
        pair: Pair, tmp_path: Path) -> None:
    folder, name, path, other = two_file_2s(pair, tmp_path)
    scan(pair.bob, folder)
    game = pair.bob.game(name)
    # a move of the column does not end the toy engine's turn: the action stays unsealed
    [move, *_] = [a for a in game.state.legal_actions() if a.notation().startswith("move")]
    _, _, sealed = game.act(move.notation())
    assert sealed is None, "the test needs an action that does not seal at once"
    save = game.path.read_bytes()
    copy = folder / f"{path.stem} (Alice's conflicted copy 2024-05-01).pbem"
    copy.write_bytes(other)
    [forked] = [o for o in scan(pair.bob, folder) if o.source == str(copy)]
    assert forked.status == "refused"
    assert "two different files claim place 2" in forked.note
    assert "unsealed actions" not in forked.note
    evidence = sorted(p.read_bytes() for p in (pair.bob.path / "evidence").rglob("*.pbem"))
    assert evidence == sorted([path.read_bytes(), other])
    assert pair.bob.game(name).path.read_bytes() == save
    assert deliver_folder  # the folder is written only through deliver_folder


def test_rebuild_keeps_the_chain_the_opponent_follows_and_names_the_rest(
        pair: Pair, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    folder, name, path, other = two_file_2s(pair, tmp_path)
    copy = folder / f"{path.stem}.sync-conflict-20240501-101010-LAPTOP1.pbem"
    copy.write_bytes(other)
    pair.bob.receive(other, "laptop's file 2")              # Bob got the laptop's first
    _, reply = take_turn(pair, folder, name)
    assert peek(reply.read_bytes()).seq == 3
    res = CliRunner().invoke(main, ["--home", str(pair.alice.path), "rebuild",
                                    *sorted(str(p) for p in folder.iterdir()),
                                    "--name", "again"])
    assert res.exit_code == 0, res.output
    assert f"set aside: {path}: another version of file 2" in res.output
    assert f"the opponent's next file follows {copy}" in res.output
    assert "evidence" not in res.output
    again = pair.alice.game("again")
    assert again.files[2] == other and again.verifier.seq == 3


def test_resending_over_the_same_turn_in_armored_form_is_not_refused(pair: Pair,
                                                                     tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.armor import armor
    from pbem.cli import main
    from pbem.envelope import file_name

    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    seq, data = play_until_sealed(pair.alice.game(name), pair.chooser)
    game = pair.alice.game(name)
    # after a conflict someone put the armored text of the same turn under its name
    target = folder / file_name(game.game_id, seq, game.side)
    target.write_text(armor(data), encoding="ascii")
    res = CliRunner().invoke(main, ["--home", str(pair.alice.path), "send", name,
                                    "--folder", str(folder)])
    assert res.exit_code == 0, res.output
    assert f"file {seq} of {name} written to {target}" in res.output
    # a different turn under that name is still refused
    target.write_bytes(game.files[seq - 2])
    res = CliRunner().invoke(main, ["--home", str(pair.alice.path), "send", name,
                                    "--folder", str(folder)])
    assert res.exit_code != 0 and "a different file already has this name" in res.output


def test_an_unsent_sealed_file_is_always_shown_and_watch_reply_sends_it(
        pair: Pair, tmp_path: Path) -> None:
    """Sealed dice through a folder with a plain 'inbox': an import that seals a rolls-only
    reply leaves a file nobody sent; inbox, status and list say so with the command, and a
    later 'watch --reply' sends it when it starts.  Then the file is deleted from the
    folder: status says so, with the command that sends it again."""
    from pbem.envelope import file_name

    folder = tmp_path / "shared"
    folder.mkdir()
    run = pbem_at

    run(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--dice", "sealed", "-o", str(tmp_path / "invite.pbem"))
    run(pair.bob, "join", str(tmp_path / "invite.pbem"), "--name", "duel", "-o",
        str(tmp_path / "accept.pbem"), "--yes")
    run(pair.alice, "receive", str(tmp_path / "accept.pbem"), "--yes")
    owed = None
    for _ in range(60):
        mover = pair.mover("duel")
        assert mover is not None
        play_until_sealed(mover.game("duel"), pair.chooser)
        run(mover, "send", "duel", "--folder", str(folder))
        other = pair.other(mover)
        out = run(other, "inbox", str(folder))
        if "sealed file" in out:
            owed = other
            break
    assert owed is not None, "no import sealed a reply at once"
    game = owed.game("duel")
    seq = len(game.files) - 1
    assert f"sealed file {seq} of duel" in out
    assert f"send it with: pbem send duel --folder {folder}" in out
    assert not (folder / file_name(game.game_id, seq, game.side)).exists()
    unsent = f"file {seq} is sealed but not sent: pbem send duel --folder"
    assert unsent in run(owed, "status")
    import json

    [listed] = json.loads(run(owed, "list", "--json"))
    assert listed["sent"].startswith(unsent)
    assert "not" in run(owed, "list")  # the table wraps; its cell says it too
    out = run(owed, "watch", str(folder), "--reply", "--interval", "0.05", "--for", "0.2")
    path = folder / file_name(game.game_id, seq, game.side)
    assert f"sent what was owed: file {seq} of duel written to {path}" in out
    assert path.read_bytes() == game.files[seq]
    assert f"file {seq} sent: written to {path}, still there" in run(owed, "status")
    path.unlink()  # the other player tidied the folder before importing it
    out = run(owed, "status")
    assert f"file {seq} was written to {path} and is no longer there" in out
    assert f"pbem send duel --seq {seq} --folder {folder}" in out


def test_inbox_says_each_note_once(pair: Pair, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    folder = tmp_path / "shared"
    folder.mkdir()
    name = start_game(pair, folder)
    for _ in range(3):
        mover, _ = take_turn(pair, folder, name)
        scan(pair.other(mover), folder)
    # a third player's invitation waits in the folder
    carol = Home(tmp_path / "carol")
    carol.keys.create("Carol", "carol@pbem.test", None)
    invite = carol.new_game("skirmish", "short", "red", name="other")
    deliver_folder(invite.files[0], folder, peek(invite.files[0]))
    fresh = Home(tmp_path / "bob-restored")   # bob's home on a new machine, game rebuilt
    shutil.copytree(pair.bob.path, fresh.path)
    shutil.rmtree(fresh.path / "transport", ignore_errors=True)
    runner = CliRunner()
    first = runner.invoke(main, ["--home", str(fresh.path), "inbox", str(folder)]).output
    assert first.count("an invitation from Carol") == 1
    own = [line for line in first.splitlines() if "your own file" in line]
    assert own == [f"pbem: note: 2 of your own files of game "
                   f"{pair.bob.game(name).game_id.hex()[:12]} "
                   f"in the folder; left alone"]
    second = runner.invoke(main, ["--home", str(fresh.path), "inbox", str(folder)]).output
    assert "invitation" not in second and "your own" not in second
