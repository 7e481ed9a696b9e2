"""Mail against real servers: Postfix (SMTP, STARTTLS and TLS, SASL login) and Dovecot
(IMAPS) on loopback, started by the ``mail_servers`` fixture.  Nothing is mocked."""

from __future__ import annotations

import email.policy
import imaplib
import re
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mailserver import MailServers
from transport_helpers import Pair, nested, play_until_sealed

from pbem import canonical
from pbem.envelope import peek
from pbem.session import Home
from pbem.transport.base import Outcome, Router, TransportError
from pbem.transport.cli import describe
from pbem.transport.config import MailAccount
from pbem.transport.mail import (
    KEYWORD,
    FetchReport,
    compose,
    fetch_imap,
    send_email,
    send_smtp,
)
from pbem.transport.state import HandledState

pytestmark = pytest.mark.mail


def account(servers: MailServers, user: str, security: str = "starttls") -> MailAccount:
    a = servers.accounts[user]
    return MailAccount(address=a.address, smtp_host=servers.host, imap_host=servers.host,
                       smtp_port=servers.submission_port if security == "starttls"
                       else servers.smtps_port, smtp_security=security,
                       imap_port=servers.imaps_port, imap_security="tls",
                       ca_file=str(servers.ca_file))


def imap(servers: MailServers, user: str) -> imaplib.IMAP4_SSL:
    a = servers.accounts[user]
    conn = imaplib.IMAP4_SSL(servers.host, servers.imaps_port, ssl_context=servers.ssl_context())
    conn.login(a.address, a.password)
    conn.select("INBOX")
    return conn


def flags(servers: MailServers, user: str) -> list[str]:
    conn = imap(servers, user)
    try:
        _, data = conn.uid("FETCH", "1:*", "(FLAGS)")
        return [d.decode() for d in data if isinstance(d, bytes)]
    finally:
        conn.logout()


def count(servers: MailServers, user: str) -> int:
    conn = imap(servers, user)
    try:
        _, data = conn.search(None, "ALL")
        return len(data[0].split())
    finally:
        conn.logout()


@pytest.fixture
def servers(mail_servers: MailServers) -> Iterator[MailServers]:
    """The session's servers, with every mailbox emptied first."""
    for user in mail_servers.accounts:
        if count(mail_servers, user):
            conn = imap(mail_servers, user)
            conn.store("1:*", "+FLAGS.SILENT", "(\\Deleted)")
            conn.expunge()
            conn.logout()
    yield mail_servers


def wait_for_mail(servers: MailServers, user: str, n: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while count(servers, user) < n:
        if time.monotonic() > deadline:
            raise AssertionError(f"{user} has fewer than {n} messages after {timeout} s\n"
                                 f"{servers.logs()}")
        time.sleep(0.05)


def router(home: Home) -> Router:
    return Router.for_home(home, confirm=lambda info, card: True)


def fetch(servers: MailServers, home: Home, user: str) -> FetchReport:
    a = account(servers, user)
    return fetch_imap(a, servers.accounts[user].password, router(home),
                      HandledState.of_home(home.path))


def joined(pair: Pair, name: str = "duel") -> tuple[int, bytes]:
    game = pair.alice.new_game("skirmish", "short", "red", name=name)
    pair.alice.receive(pair.bob.join(game.files[0], "invite", name=name).files[1], "accept")
    return play_until_sealed(pair.alice.game(name), pair.chooser)


def turn_message(pair: Pair, name: str, seq: int, data: bytes) -> EmailMessage:
    subject, summary = describe(pair.alice.game(name), seq, data)
    return compose(data, peek(data), sender="Alice <alice@pbem.test>",
                   recipient="Bob <bob@pbem.test>", subject=subject, summary=summary)


def other_mail(sender: str, subject: str, body: str = "Hello.") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "bob@pbem.test", subject
    msg.set_content(body)
    return msg


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_send_and_fetch_imports_once_and_leaves_other_mail_alone(
        servers: MailServers, pair: Pair, security: str) -> None:
    seq, data = joined(pair)
    alice = account(servers, "alice", security)
    carol = account(servers, "carol")
    send_smtp(carol, servers.accounts["carol"].password,
              other_mail("carol@pbem.test", "Lunch on Friday?"))
    send_smtp(carol, servers.accounts["carol"].password,
              other_mail("carol@pbem.test", "pbem club meeting", "No files here."))
    send_smtp(alice, servers.accounts["alice"].password, turn_message(pair, "duel", seq, data))
    wait_for_mail(servers, "bob", 3)
    report = fetch(servers, pair.bob, "bob")
    assert [o.status for o in report.outcomes] == ["imported"], report.outcomes
    assert report.handled == 1
    assert pair.bob.game("duel").verifier.seq == seq
    marks = flags(servers, "bob")
    assert sum(KEYWORD in m for m in marks) == 1
    assert not any("\\Seen" in m for m in marks)  # read with PEEK: nothing marked read
    # the other mail keeps exactly its flags (none); the second fetch imports nothing
    again = fetch(servers, pair.bob, "bob")
    assert again.outcomes == [] and again.handled == 0
    # looking into every message (--all) reads the other mail, but leaves it untouched
    everything = fetch_imap(account(servers, "bob"), servers.accounts["bob"].password,
                            router(pair.bob), HandledState.of_home(pair.bob.path),
                            every_message=True)
    # "pbem club meeting" was looked into once already (its subject says pbem)
    assert everything.outcomes == [] and everything.searched == 2 and everything.other == 1
    assert flags(servers, "bob") == marks
    # even a fresh record (a new machine) does not import twice: the keyword is on the server
    (pair.bob.path / "transport" / "handled.json").unlink()
    assert fetch(servers, pair.bob, "bob").outcomes == []


def test_wrong_password_is_refused_without_showing_it(servers: MailServers, pair: Pair) -> None:
    wrong = "wrong-password-123"
    with pytest.raises(TransportError) as exc:
        send_smtp(account(servers, "alice"), wrong, other_mail("alice@pbem.test", "x"))
    assert "login as alice@pbem.test refused" in str(exc.value) and wrong not in str(exc.value)
    with pytest.raises(TransportError) as exc:
        fetch_imap(account(servers, "bob"), wrong, router(pair.bob))
    assert "login as bob@pbem.test refused" in str(exc.value) and wrong not in str(exc.value)


def test_tls_is_verified(servers: MailServers, pair: Pair, tmp_path: Path) -> None:
    a = account(servers, "alice")
    a.ca_file = ""  # the system's CAs do not know the test server's certificate
    with pytest.raises(TransportError, match=r"CERTIFICATE_VERIFY_FAILED|certificate"):
        send_smtp(a, servers.accounts["alice"].password, other_mail("alice@pbem.test", "x"))


def test_hostile_mail_through_the_server(servers: MailServers, pair: Pair,
                                         tmp_path: Path) -> None:
    seq, data = joined(pair)
    msg = other_mail("mallory@pbem.test", "[pbem] your turn", "see attachment")
    msg.add_attachment(data, maintype="application", subtype="vnd.pbem+msgpack",
                       filename="../../../../tmp/evil.pbem")
    carol = account(servers, "carol")
    send_smtp(carol, servers.accounts["carol"].password, msg)
    wait_for_mail(servers, "bob", 1)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    report = fetch(servers, pair.bob, "bob")
    [refused] = report.outcomes
    assert refused.status == "refused" and "contains a path" in refused.note
    assert report.handled == 1  # settled: not looked at again
    assert not Path("/tmp/evil.pbem").exists()
    new = [p for p in tmp_path.rglob("*") if p not in before]
    assert all(pair.bob.path in p.parents for p in new)
    assert pair.bob.game("duel").verifier.seq == 1


def run(runner: CliRunner, home: Path, *args: str, input: str | None = None) -> str:
    from pbem.cli import main

    res = runner.invoke(main, ["--home", str(home), *args], input=input)
    assert res.exit_code == 0, f"pbem {' '.join(args)}: {res.output}"
    return res.output


def fetch_until(runner: CliRunner, home: Path, done: Callable[[str], bool],
                *args: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        out = run(runner, home, "fetch", *args)
        seen += out
        if done(out):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"fetch never got there:\n{seen}")


def test_whole_game_between_two_accounts_through_the_servers(
        servers: MailServers, pair: Pair, tmp_path: Path) -> None:
    runner = CliRunner()
    for home, user in ((pair.alice, "alice"), (pair.bob, "bob")):
        a = servers.accounts[user]
        out = run(runner, home.path, "mail", "setup", "--address", a.address,
                  "--smtp-host", servers.host, "--smtp-port", str(servers.submission_port),
                  "--smtp-security", "starttls", "--imap-host", servers.host,
                  "--imap-port", str(servers.imaps_port), "--imap-security", "tls",
                  "--ca-file", str(servers.ca_file), "--password-stdin", input=a.password + "\n")
        assert a.password not in out
        run(runner, home.path, "mail", "test")
    # open dice: each file here passes the turn (no watch runs to send a rolls-only reply)
    run(runner, pair.alice.path, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--dice", "open", "-o", str(tmp_path / "invite.pbem"))
    run(runner, pair.alice.path, "mail", "send", "duel", "--to", "bob@pbem.test")
    out = fetch_until(runner, pair.bob.path, lambda o: "invitation from Alice" in o)
    assert pair.alice.card().fingerprint in out
    match = re.search(r"pbem join (\S+)", out)
    assert match is not None
    run(runner, pair.bob.path, "join", match.group(1), "--name", "duel", "-o",
        str(tmp_path / "accept.pbem"), "--yes")
    run(runner, pair.bob.path, "send", "duel", "--email")
    out = fetch_until(runner, pair.alice.path, lambda o: "accepted the invitation" in o,
                      "--yes")
    assert pair.bob.card().fingerprint in out or "accepted" in out
    assert [c.key for c in pair.alice.keys.contacts()] == [pair.bob.card().key]
    files = 2
    while pair.alice.game("duel").result is None:
        mover = pair.mover("duel")
        assert mover is not None
        seq, _ = play_until_sealed(mover.game("duel"), pair.chooser)
        run(runner, mover.path, "send", "duel", "--email")
        reader = pair.other(mover)
        expected = f"file {seq} from the"
        fetch_until(runner, reader.path, lambda o, e=expected: e in o)
        files += 1
        assert files < 60
    a, b = pair.alice.game("duel"), pair.bob.game("duel")
    assert a.files == b.files and a.result == b.result and a.result is not None
    # every message was handled exactly once: nothing left unmarked in either box
    for user in ("alice", "bob"):
        assert all(KEYWORD in m for m in flags(servers, user)), flags(servers, user)
    for home in (pair.alice, pair.bob):
        for path in home.path.rglob("*"):
            if path.is_file() and path.name != "password":
                for user in ("alice", "bob"):
                    assert servers.accounts[user].password.encode() not in path.read_bytes()


def test_sealed_dice_by_mail_with_fetch_reply(servers: MailServers, pair: Pair,
                                              tmp_path: Path) -> None:
    """Sealed dice over real mail: a file that ends at a roll goes out; the opponent's
    'pbem fetch --reply' finalizes it and, when the decision is back with the asker, mails
    the rolls-only file back at once, with nobody typing.  Every rolls-only file of a game
    is one such reply.  Whether a game has one depends on the dice, which come from each
    game's fresh secrets: games are played until one has (a short game takes a second)."""
    runner = CliRunner()
    for home, user in ((pair.alice, "alice"), (pair.bob, "bob")):
        a = servers.accounts[user]
        run(runner, home.path, "mail", "setup", "--address", a.address,
            "--smtp-host", servers.host, "--smtp-port", str(servers.submission_port),
            "--smtp-security", "starttls", "--imap-host", servers.host,
            "--imap-port", str(servers.imaps_port), "--imap-security", "tls",
            "--ca-file", str(servers.ca_file), "--password-stdin", input=a.password + "\n")
    homes = (pair.alice, pair.bob)
    total = 0
    for n in range(1, 9):
        name = f"duel{n}"
        run(runner, pair.alice.path, "new", "skirmish", "short", "--side", "red", "--name",
            name, "--dice", "sealed", "-o", str(tmp_path / f"invite{n}.pbem"))
        run(runner, pair.bob.path, "join", str(tmp_path / f"invite{n}.pbem"), "--name", name,
            "-o", str(tmp_path / f"accept{n}.pbem"), "--yes")
        run(runner, pair.alice.path, "receive", str(tmp_path / f"accept{n}.pbem"), "--yes")

        def latest(name: str = name) -> int:
            return max(len(h.game(name).files) for h in homes) - 1

        replies = 0
        while True:
            behind = [h for h in homes if len(h.game(name).files) - 1 < latest()]
            if not behind and pair.alice.game(name).result is not None:
                break
            if behind:  # a file is on its way: import it, replying at once if it seals one
                home, target = behind[0], latest()
                out = fetch_until(runner, home.path,
                                  lambda o, h=home, t=target, g=name:
                                  len(h.game(g).files) - 1 >= t, "--reply")
                replies += out.count("mailed to")
                continue
            mover = pair.mover(name)
            assert mover is not None, "nobody to act and no file in flight"
            play_until_sealed(mover.game(name), pair.chooser)
            run(runner, mover.path, "send", name, "--email")
            assert latest() < 150
        a, b = pair.alice.game(name), pair.bob.game(name)
        assert a.files == b.files and a.result == b.result
        # a file of rolls alone is one only 'fetch --reply' seals (a player's file holds an
        # action): each was mailed back at once
        rolls_only = [seq for seq, data in enumerate(a.files) if seq >= 2
                      and all(r[0] == "r" for r in _body(data)["records"])]
        assert replies == len(rolls_only), (name, replies, rolls_only)
        total += replies
        if total:
            break
    assert total, "eight games and no file was sealed at once and mailed back by fetch --reply"


def _body(data: bytes) -> dict[str, Any]:
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body


def test_send_email_and_one_line_outcomes(servers: MailServers, pair: Pair) -> None:
    seq, data = joined(pair)
    subject, summary = describe(pair.alice.game("duel"), seq, data)
    sent = send_email(data, peek(data), account(servers, "alice", "tls"),
                      servers.accounts["alice"].password, recipient="bob@pbem.test",
                      subject=subject, summary=summary)
    assert 1000 < len(sent) < 20000
    wait_for_mail(servers, "bob", 1)
    report = fetch(servers, pair.bob, "bob")
    assert all(isinstance(o, Outcome) and "\n" not in o.note for o in report.outcomes)
    assert "message" in report.outcomes[0].source and "imap" not in report.outcomes[0].source


def test_imap_starttls_fetch(servers: MailServers, pair: Pair) -> None:
    seq, data = joined(pair)
    send_smtp(account(servers, "alice"), servers.accounts["alice"].password,
              turn_message(pair, "duel", seq, data))
    wait_for_mail(servers, "bob", 1)
    bob = account(servers, "bob")
    bob.imap_port, bob.imap_security = servers.imap_port, "starttls"
    report = fetch_imap(bob, servers.accounts["bob"].password, router(pair.bob))
    assert [o.status for o in report.outcomes] == ["imported"]


def test_a_server_without_tls_gets_no_password(servers: MailServers, pair: Pair) -> None:
    a = account(servers, "alice")
    a.smtp_port = servers.cleartext_port
    with pytest.raises(TransportError, match="does not offer STARTTLS; refusing to log in"):
        send_smtp(a, servers.accounts["alice"].password, other_mail("alice@pbem.test", "x"))


def test_a_poison_message_is_marked_and_the_rest_fetched(servers: MailServers,
                                                        pair: Pair) -> None:
    """Issue 20 item 5: one message the parser cannot take never blocks the mailbox."""
    seq, data = joined(pair)
    conn = imap(servers, "bob")
    try:
        conn.append("INBOX", None, None, nested(1000))
        conn.append("INBOX", None, None,
                    turn_message(pair, "duel", seq, data).as_bytes(policy=email.policy.SMTP))
    finally:
        conn.logout()
    report = fetch(servers, pair.bob, "bob")
    assert sorted(o.status for o in report.outcomes) == ["imported", "refused"]
    assert report.handled == 2
    assert pair.bob.game("duel").verifier.seq == seq
    assert fetch(servers, pair.bob, "bob").outcomes == []  # not retried
