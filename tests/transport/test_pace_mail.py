"""Issue 32 item 5 over the real Postfix and Dovecot of the test fixtures
(``mailserver.py``): ``pbem watch`` mails an overdue opponent one reminder per pace
period where the invite agreed to it, ``pbem nudge`` mails one by hand, each carrying the
last file again, and the opponent's watch takes it as a duplicate and says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mailserver import MailServers
from syncthing import wait_for
from test_pace import T0, at, cli
from test_transport_servers import imap, servers  # noqa: F401 - the fixture, emptied
from test_turnloop_mail import mail_setup
from transport_helpers import Pair, play_until_sealed

from pbem.session import Home
from pbem.transport.base import Outcome
from pbem.transport.watcher import Watcher

pytestmark = pytest.mark.mail
HOUR = 3600


def subjects(mail: MailServers, user: str, game_id: bytes) -> list[tuple[int, str]]:
    """``(X-Pbem-Seq, Subject)`` of every message of the game in ``user``'s mailbox."""
    conn = imap(mail, user)
    try:
        _, data = conn.uid("SEARCH", "HEADER", "X-Pbem-Game", game_id.hex())
        out = []
        for uid in (data[0].split() if data and data[0] else []):
            _, got = conn.uid("FETCH", uid,
                              "(BODY.PEEK[HEADER.FIELDS (X-Pbem-Seq Subject)])")
            head = b"".join(x[1] for x in got if isinstance(x, tuple)).decode()
            seq = re.search(r"X-Pbem-Seq:\s*(\d+)", head)
            subject = re.search(r"Subject:\s*(.*(?:\r?\n[ \t].*)*)", head)
            assert seq is not None and subject is not None, head
            out.append((int(seq.group(1)), " ".join(subject.group(1).split())))
        return sorted(out)
    finally:
        conn.logout()


def test_watch_and_nudge_remind_by_mail_and_the_reader_says_it_is_a_duplicate(
        servers: MailServers, pair: Pair, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    users = {pair.alice.path: "alice", pair.bob.path: "bob"}
    for home in (pair.alice, pair.bob):
        mail_setup(servers, home, users[home.path])
    at(monkeypatch, T0)
    cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--email", "--to", "bob@pbem.test", "--pace", "24h", "--remind")
    game_id = pair.alice.game("duel").game_id
    said: dict[Path, list[str]] = {pair.alice.path: [], pair.bob.path: []}
    seen: dict[Path, list[Outcome]] = {pair.alice.path: [], pair.bob.path: []}
    watchers = {home.path: Watcher(home, say=said[home.path].append,
                                   show=seen[home.path].extend,
                                   confirm=lambda info, card: True, interval=0.05)
                for home in (pair.alice, pair.bob)}

    def look() -> None:
        for w in watchers.values():
            w.look()

    def invited() -> bool:
        look()
        return any((pair.bob.path / "incoming").glob(f"{game_id.hex()[:12]}-*"))
    wait_for(invited, 60, "bob's watch found the mailed invitation")
    [invite] = sorted((pair.bob.path / "incoming").glob(f"{game_id.hex()[:12]}-*"))
    out = cli(pair.bob, "join", str(invite), "--name", "duel", "--yes")
    assert "the invite sets a pace: a file within 1 day" in out, out
    mover: Home | None = None

    def someone_moves() -> bool:
        nonlocal mover
        look()
        mover = pair.mover("duel")
        return mover is not None
    wait_for(someone_moves, 60, "the accept arrived")
    assert mover is not None
    seq, _ = play_until_sealed(mover.game("duel"), pair.chooser)
    late = pair.other(mover)

    def late_has_it() -> bool:
        look()
        return late.game("duel").my_decision() is not None
    wait_for(late_has_it, 60, f"file {seq} arrived")
    to = users[late.path]
    assert [s for s, _ in subjects(servers, to, game_id)].count(seq) == 1
    # a day and an hour later the waiting side's watch mails one reminder, not two
    at(monkeypatch, T0 + 25 * HOUR)
    watchers[mover.path].look()
    watchers[mover.path].look()
    reminders = [subj for s, subj in subjects(servers, to, game_id)
                 if s == seq and "reminder" in subj]
    assert len(reminders) == 1, subjects(servers, to, game_id)
    assert reminders[0].endswith(f"duel: reminder, your answer to file {seq} is awaited")
    assert any("is overdue by 1 hour" in line and f"reminder for duel mailed to {to}@pbem.test"
               in line for line in said[mover.path]), said[mover.path]

    def reminded() -> bool:
        watchers[late.path].look()
        return any(o.reminder for o in seen[late.path])
    wait_for(reminded, 60, "the late side's watch took the reminder")
    [note] = [o.note for o in seen[late.path] if o.reminder]
    assert f"file {seq} of game {game_id.hex()[:12]} again, already imported: your " \
        "opponent sent it again as a reminder" in note, note
    # and by hand, whenever the waiting side likes
    out = cli(mover, "nudge", "duel")
    assert f"reminder for duel mailed to {to}@pbem.test (file {seq} again)" in out, out
    assert [s for s, _ in subjects(servers, to, game_id)].count(seq) == 3
    assert late.game("duel").verifier.seq == seq  # nothing changed on the late side
