"""Issue 32 over the real Postfix and Dovecot of the test fixtures (``mailserver.py``):
(b) a whole game by mail where each player answers decisions (scripted ``pbem play``)
and runs one ``pbem watch``; (c) watchers over a folder and a mailbox together for many
exchanges while one of the two fails for a while: nothing lost, nothing sent twice."""

from __future__ import annotations

import json
import re
import socket
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailserver import MailServers
from syncthing import wait_for
from test_transport_servers import imap, servers  # noqa: F401 - the fixture, emptied
from test_turnloop import ANSWERS, cli, watching
from transport_helpers import Pair, play_until_sealed

from pbem.envelope import file_name
from pbem.session import Home
from pbem.transport.config import account_path

pytestmark = pytest.mark.mail


def mail_setup(mail: MailServers, home: Home, user: str) -> None:
    a = mail.accounts[user]
    res = CliRunner().invoke(
        __import__("pbem.cli", fromlist=["main"]).main,
        ["--home", str(home.path), "mail", "setup", "--address", a.address,
         "--smtp-host", mail.host, "--smtp-port", str(mail.submission_port),
         "--smtp-security", "starttls", "--imap-host", mail.host,
         "--imap-port", str(mail.imaps_port), "--imap-security", "tls",
         "--ca-file", str(mail.ca_file), "--password-stdin"], input=a.password + "\n")
    assert res.exit_code == 0, res.output


def seqs_in_mailbox(mail: MailServers, user: str, game_id: bytes) -> list[int]:
    """The X-Pbem-Seq of every message of the game in ``user``'s mailbox."""
    conn = imap(mail, user)
    try:
        _, data = conn.uid("SEARCH", "HEADER", "X-Pbem-Game", game_id.hex())
        uids = data[0].split() if data and data[0] else []
        out = []
        for uid in uids:
            _, got = conn.uid("FETCH", uid, "(BODY.PEEK[HEADER.FIELDS (X-Pbem-Seq)])")
            head = b"".join(x[1] for x in got if isinstance(x, tuple))
            match = re.search(rb"X-Pbem-Seq:\s*(\d+)", head)
            assert match is not None, head
            out.append(int(match.group(1)))
        return sorted(out)
    finally:
        conn.logout()


def test_a_whole_game_by_mail_with_play_and_one_watch_each(
        servers: MailServers, pair: Pair, tmp_path: Path) -> None:  # noqa: F811
    for home, user in ((pair.alice, "alice"), (pair.bob, "bob")):
        mail_setup(servers, home, user)
    with watching(pair.alice, pair.bob, logs=tmp_path,
                  args=("--mail-interval", "0.3")) as logs:
        out = cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
                  "--email", "--to", "bob@pbem.test")
        assert "invite sent: file 0 of duel mailed to bob@pbem.test" in out, out
        game_id = pair.alice.game("duel").game_id
        # bob's watch reads his mailbox with no game yet: the invitation, and how to join
        found: list[str] = []

        def invited() -> bool:
            found[:] = re.findall(r"run: pbem join (\S+)", logs[1].read_text())
            return bool(found)
        wait_for(invited, 60, "bob's watch showed the invitation")
        out = cli(pair.bob, "join", found[0], "--name", "duel", "--yes")
        # the route the invitation proposed: mail, to the address it came from
        assert "route: files travel by mail to alice@pbem.test (the way the invite came" \
            in out, out
        assert "reply sent: file 1 of duel mailed to alice@pbem.test" in out, out
        plays = 0
        while True:
            mover = None

            def someone_moves() -> bool:
                nonlocal mover
                mover = pair.mover("duel")
                return mover is not None or pair.alice.game("duel").result is not None
            wait_for(someone_moves, 60, "a watch imported the last file")
            if mover is None:
                break
            out = cli(mover, "play", "duel", "--fast", input=ANSWERS)
            seq = mover.game("duel").times["last_sealed"]
            assert f"sent: file {seq} of duel mailed to" in out, out
            status = json.loads(cli(mover, "status", "duel", "--json"))
            assert status["sent"].startswith(f"file {seq} sent: mailed to"), status["sent"]
            plays += 1
            assert plays < 60
        wait_for(lambda: pair.bob.game("duel").result is not None, 60, "bob saw the end")
    a, b = pair.alice.game("duel"), pair.bob.game("duel")
    assert a.files == b.files and a.result == b.result and plays >= 4
    # each file went once, to the other player's mailbox only
    alice_sent = [s for s, _ in a.sealed_files()]
    bob_sent = [s for s, _ in b.sealed_files()]
    assert seqs_in_mailbox(servers, "bob", game_id) == alice_sent
    assert seqs_in_mailbox(servers, "alice", game_id) == bob_sent
    text = "".join(p.read_text() for p in logs)
    assert "Traceback" not in text, text


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again at once: nothing listens there


def test_watch_over_a_folder_and_a_mailbox_with_one_failing_for_a_while(
        servers: MailServers, pair: Pair, tmp_path: Path) -> None:  # noqa: F811
    for home, user in ((pair.alice, "alice"), (pair.bob, "bob")):
        mail_setup(servers, home, user)
    folder = tmp_path / "shared"
    folder.mkdir()
    cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "byfolder",
        "--folder", str(folder))
    cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "bymail",
        "--email", "--to", "bob@pbem.test")
    gid = {name: pair.alice.game(name).game_id for name in ("byfolder", "bymail")}
    cli(pair.bob, "join", str(folder / file_name(gid["byfolder"], 0, "red")), "--name",
        "byfolder", "--folder", str(folder), "--yes")
    with watching(pair.alice, pair.bob, logs=tmp_path,
                  args=("--mail-interval", "0.2", "--max-backoff", "0.5")) as logs:
        _play_through_failures(pair, tmp_path, folder, gid)
    lines = [line for path in logs for line in path.read_text().splitlines()]
    assert not any("Traceback" in line for line in lines), lines
    # each failure was said, and its end; the watches went on through both
    for place in (f"mailbox alice@pbem.test at {servers.host}", f"folder {folder}"):
        assert any(line.startswith(f"{place} cannot be reached") for line in lines), lines
        assert f"{place} works again" in lines, lines
    # nothing lost: both homes hold every file; nothing sent twice: one message a file
    for name in gid:
        assert pair.alice.game(name).files == pair.bob.game(name).files
    a, b = pair.alice.game("bymail"), pair.bob.game("bymail")
    alice_mail = seqs_in_mailbox(servers, "bob", gid["bymail"])
    assert alice_mail == [s for s, _ in a.sealed_files()], alice_mail
    assert seqs_in_mailbox(servers, "alice", gid["bymail"]) == [s for s, _ in b.sealed_files()]
    owed_lines = Counter(line for line in lines if line.startswith("sent what was owed"))
    assert owed_lines and all(n == 1 for n in owed_lines.values()), owed_lines


def _play_through_failures(pair: Pair, tmp_path: Path, folder: Path,
                           gid: dict[str, bytes]) -> None:
    """Both games played while each player's one 'pbem watch' carries the files, with
    Alice's mail account unreachable for a while, then the shared folder gone a while."""
    def bob_is_invited() -> bool:
        return any((pair.bob.path / "incoming").glob(f"{gid['bymail'].hex()[:12]}-*"))
    wait_for(bob_is_invited, 60, "bob's watch found the mailed invitation")
    [invite] = sorted((pair.bob.path / "incoming").glob(f"{gid['bymail'].hex()[:12]}-*"))
    cli(pair.bob, "join", str(invite), "--name", "bymail", "--yes")
    good = account_path(pair.alice.path).read_text()
    broken = json.loads(good)
    broken["smtp_port"] = broken["imap_port"] = _dead_port()
    moved = tmp_path / "shared-away"
    exchanges = 0
    failing = ""
    for step in range(40):
        # the failures come while both games are young (a short skirmish is ten files)
        if step == 1:  # alice's mail account unreachable for a while
            account_path(pair.alice.path).write_text(json.dumps(broken))
            failing = "mail"
        elif step == 3:
            account_path(pair.alice.path).write_text(good)
            failing = ""
        elif step == 4:  # the shared folder gone (a network drive unplugged)
            folder.rename(moved)
            failing = "folder"
        elif step == 6:
            moved.rename(folder)
            failing = ""
        moved_any = False
        for name in ("byfolder", "bymail"):
            for home in (pair.alice, pair.bob):
                game = home.game(name)
                if game.result is None and game.my_decision() is not None:
                    play_until_sealed(game, pair.chooser)
                    exchanges += 1
                    moved_any = True
        deadline = time.monotonic() + (2 if failing else 20)
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if not failing and any(h.game(n).my_decision() is not None or
                                   h.game(n).result is not None
                                   for h in (pair.alice, pair.bob)
                                   for n in ("byfolder", "bymail")):
                break
        if not moved_any and not failing and all(
                pair.alice.game(n).result is not None for n in gid):
            break
    def settled() -> bool:
        return all(pair.alice.game(n).files == pair.bob.game(n).files for n in gid)
    wait_for(settled, 60, "both homes hold the same files of both games")
    assert exchanges >= 10
