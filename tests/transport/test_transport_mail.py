"""Mail transport without servers: composing, parsing, mbox and Maildir, hostile mail."""

from __future__ import annotations

import base64
import email
import email.policy
import mailbox
import os
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from transport_helpers import Pair, make_home, play_until_sealed

from pbem.armor import armor
from pbem.envelope import peek
from pbem.session import Home
from pbem.transport import config as mailconfig
from pbem.transport.base import Router, TransportError
from pbem.transport.cli import describe
from pbem.transport.mail import (
    MAX_ATTACHMENT,
    MEDIA_TYPE,
    compose,
    extract,
    files_from_path,
    import_path,
    message_bytes,
)


def joined(pair: Pair, name: str = "duel") -> tuple[str, int, bytes]:
    """A game Alice created and Bob joined; Alice's first turn file sealed."""
    game = pair.alice.new_game("skirmish", "short", "red", name=name)
    acc = pair.bob.join(game.files[0], "invite", name=name)
    pair.alice.receive(acc.files[1], "accept")
    seq, data = play_until_sealed(pair.alice.game(name), pair.chooser)
    return name, seq, data


def message_for(pair: Pair, name: str, seq: int, data: bytes) -> EmailMessage:
    game = pair.alice.game(name)
    subject, summary = describe(game, seq, data)
    return compose(data, peek(data), sender="Alice <alice@pbem.test>",
                   recipient="Bob <bob@pbem.test>", subject=subject, summary=summary)


def router(home: Home) -> Router:
    return Router.for_home(home, confirm=lambda info, card: True)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_composed_message_is_standard_and_complete(pair: Pair) -> None:
    name, seq, data = joined(pair)
    raw = message_bytes(message_for(pair, name, seq, data))
    assert b"\r\n" in raw and b"\n\n" not in raw.replace(b"\r\n", b"")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["From"] == "Alice <alice@pbem.test>" and msg["To"] == "Bob <bob@pbem.test>"
    assert msg["Message-ID"] and msg["Date"] and msg["MIME-Version"] == "1.0"
    game_id = pair.alice.game(name).game_id
    subject = str(msg["Subject"])
    assert game_id.hex()[:8] in subject and name in subject
    assert f"file {seq} from red" in subject and "blue to act" in subject
    assert "turn 1" in subject
    assert msg["X-Pbem-Game"] == game_id.hex() and msg["X-Pbem-Seq"] == str(seq)
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_content_type() == MEDIA_TYPE
    assert attachment.get_filename() == f"{game_id.hex()[:12]}-{seq:04d}-red.pbem"
    assert attachment.get_content() == data
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "Awaited: blue (Bob) must act" in text
    # what happened, as the reader's own replay tells it (issue 32 item 7)
    assert "What happened, as your board will show it:" in text, text
    assert f"roll {seq}.0: " in text, text
    assert "-----BEGIN PBEM FILE-----" in text and armor(data).splitlines()[-2] in text
    scan = extract(raw, "msg")
    assert [f.via for f in scan.files] == ["attachment"]  # the armored copy is the same file
    assert scan.refused == []
    [outcome] = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
    assert outcome.status == "imported"
    assert pair.bob.game(name).verifier.seq == seq


def test_stripped_attachment_falls_back_to_the_armored_body(pair: Pair) -> None:
    name, seq, data = joined(pair)
    msg = message_for(pair, name, seq, data)
    # a mail path that drops attachments, and a reply that quotes and re-wraps the text
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    stripped = EmailMessage()
    stripped["From"], stripped["To"], stripped["Subject"] = "a@x", "b@x", "Re: turn"
    quoted = "\r\n".join("> " + line for line in text.splitlines())
    stripped.set_content("Here it is again.\n\n" + quoted)
    scan = extract(stripped.as_bytes(), "stripped")
    assert [f.via for f in scan.files] == ["armored body"] and scan.files[0].data == data
    [outcome] = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
    assert outcome.status == "imported"


def test_a_changed_armored_character_is_refused(pair: Pair) -> None:
    name, seq, data = joined(pair)
    text = armor(data)
    lines = text.splitlines()
    i = len(lines) // 2
    lines[i] = ("B" if lines[i][0] != "B" else "C") + lines[i][1:]
    msg = EmailMessage()
    msg["Subject"] = "tampered"
    msg.set_content("\n".join(lines))
    scan = extract(msg.as_bytes(), "m")
    if scan.files:  # the base64 still decodes: the signature check refuses it
        [outcome] = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
        assert outcome.status == "refused"
    else:
        assert scan.refused and "armored" in scan.refused[0].note
    assert pair.bob.game(name).verifier.seq == 1


def test_eml_mbox_and_maildir_are_read(pair: Pair, tmp_path: Path) -> None:
    name, seq, data = joined(pair)
    raw = message_bytes(message_for(pair, name, seq, data))
    other = EmailMessage()
    other["From"], other["To"], other["Subject"] = "news@x", "bob@x", "Weekly news"
    other.set_content("Nothing about games here.")
    # .eml
    eml = tmp_path / "turn.eml"
    eml.write_bytes(raw)
    found = files_from_path(eml)
    assert found is not None and [d for _, d in found] == [data]
    # a plain .pbem is not mail
    plain = tmp_path / "x.pbem"
    plain.write_bytes(data)
    assert files_from_path(plain) is None
    armored = tmp_path / "x.asc"
    armored.write_text(armor(data), encoding="utf-8")
    assert files_from_path(armored) is None
    # mbox with other mail around the turn
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    for m in (other.as_bytes(), raw, other.as_bytes()):
        box.add(m)
    box.close()
    found = files_from_path(box_path)
    assert found is not None and [d for _, d in found] == [data]
    assert "message 2" in found[0][0]
    # Maildir
    md_path = tmp_path / "Maildir"
    md = mailbox.Maildir(str(md_path))
    md.add(other.as_bytes())
    md.add(raw)
    found = files_from_path(md_path)
    assert found is not None and [d for _, d in found] == [data]
    outcomes = import_path(md_path, router(pair.bob))
    assert [o.status for o in outcomes] == ["imported"]
    # mail with nothing of pbem's
    nothing = tmp_path / "news.eml"
    nothing.write_bytes(other.as_bytes())
    with pytest.raises(TransportError, match="no pbem file"):
        files_from_path(nothing)


def test_cli_send_eml_then_receive_it(pair: Pair, tmp_path: Path) -> None:
    from pbem.cli import main

    name, seq, data = joined(pair)
    runner = CliRunner()
    out = tmp_path / "turn.eml"
    res = runner.invoke(main, ["--home", str(pair.alice.path), "send", name, "--eml", str(out)])
    assert res.exit_code == 0, res.output
    assert f"file {seq} of {name} written as a mail message to {out}" in res.output
    msg = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    assert msg["To"] == "Bob <bob@pbem.test>"
    res = runner.invoke(main, ["--home", str(pair.bob.path), "receive", str(out)])
    assert res.exit_code == 0, res.output
    assert f"{name}: file {seq} from the red player" in res.output


def attach(msg: EmailMessage, payload: bytes, filename: str, ctype: str = MEDIA_TYPE) -> None:
    maintype, subtype = ctype.split("/")
    msg.add_attachment(payload, maintype=maintype, subtype=subtype, filename=filename)


@pytest.mark.parametrize(("filename", "why"), [
    ("../../../etc/evil.pbem", "path"),
    ("/tmp/evil.pbem", "path"),
    ("..\\..\\evil.pbem", "path"),
    ("C:evil.pbem", "path"),
    (".hidden.pbem", "path"),
])
def test_attachment_names_with_paths_are_refused(pair: Pair, tmp_path: Path, filename: str,
                                                 why: str) -> None:
    name, seq, data = joined(pair)
    msg = EmailMessage()
    msg["Subject"] = "hostile"
    msg.set_content("see attachment")
    attach(msg, data, filename)
    before = tree(tmp_path)
    scan = extract(msg.as_bytes(), "hostile")
    assert scan.files == []
    [refused] = scan.refused
    assert why in refused.note and repr(filename) in refused.note
    changed = {k for k, v in tree(tmp_path).items() if before.get(k) != v}
    assert changed == set()
    assert pair.bob.game(name).verifier.seq == 1


def test_hostile_attachments_are_refused_with_a_note(pair: Pair, tmp_path: Path) -> None:
    name, seq, data = joined(pair)
    msg = EmailMessage()
    msg["Subject"] = "hostile"
    msg.set_content("attachments")
    attach(msg, data, "picture.pbem", "image/png")  # wrong media type
    attach(msg, os.urandom(MAX_ATTACHMENT + 10), "huge.pbem")  # beyond the cap
    attach(msg, b"\x93\x01\x02\x03not a pbem file", "junk.pbem")  # malformed content
    raw = msg.as_bytes()
    # malformed base64 in a fourth attachment, written by hand
    bad = (b"--BOUNDARY\r\nContent-Type: application/vnd.pbem+msgpack\r\n"
           b"Content-Transfer-Encoding: base64\r\n"
           b"Content-Disposition: attachment; filename=\"bad.pbem\"\r\n\r\n"
           b"lpKk!!not*base64$$\r\n")
    boundary = email.message_from_bytes(raw).get_boundary()
    assert boundary is not None
    raw = raw.replace(f"--{boundary}--".encode(), bad.replace(b"BOUNDARY", boundary.encode())
                      + f"--{boundary}--".encode())
    home_files = tree(pair.bob.path)
    before = tree(tmp_path)
    scan = extract(raw, "hostile")
    notes = {o.source.split("attachment ")[-1]: o.note for o in scan.refused}
    assert "media type image/png" in notes["'picture.pbem'"]
    assert "more than the" in notes["'huge.pbem'"]
    assert "malformed base64" in notes["'bad.pbem'"]
    outcomes = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
    assert [o.status for o in outcomes] == ["refused"]
    assert "not a pbem file" in outcomes[0].note and "junk.pbem" in outcomes[0].note
    assert tree(pair.bob.path) == home_files
    assert {k for k, v in tree(tmp_path).items() if before.get(k) != v} == set()


def test_a_huge_message_is_refused_before_parsing() -> None:
    from pbem.transport.mail import MAX_MESSAGE

    scan = extract(b"Subject: x\r\n\r\n" + b"A" * (MAX_MESSAGE + 1), "big")
    assert scan.files == [] and "more than the" in scan.refused[0].note


def test_a_turn_for_another_game_is_left_alone(pair: Pair, tmp_path: Path) -> None:
    carol, dave = make_home(tmp_path, "Carol"), make_home(tmp_path, "Dave")
    g = carol.new_game("skirmish", "short", "red", name="theirs")
    carol.receive(dave.join(g.files[0], "invite", name="theirs").files[1], "accept")
    seq, data = play_until_sealed(carol.game("theirs"), pair.chooser)
    name, _, _ = joined(pair)
    msg = compose(data, peek(data), sender="carol@pbem.test", recipient="bob@pbem.test",
                  subject=f"[pbem] {name}: your move", summary="(claims to be your game)")
    scan = extract(message_bytes(msg), "m")
    [outcome] = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
    assert outcome.status == "unknown-game" and "not in this home" in outcome.note
    assert pair.bob.game(name).verifier.seq == 1


def test_invite_by_mail_is_kept_for_join_with_the_fingerprint(pair: Pair) -> None:
    game = pair.alice.new_game("skirmish", "short", "red", name="inv")
    subject, summary = describe(game, 0, game.files[0])
    assert "invitation" in subject and "you would play blue" in subject
    assert pair.alice.card().fingerprint in summary
    msg = compose(game.files[0], peek(game.files[0]), sender="alice@pbem.test",
                  recipient="", subject=subject, summary=summary)
    scan = extract(message_bytes(msg), "m")
    [outcome] = router(pair.bob).route_all((f.source, f.data) for f in scan.files)
    assert outcome.status == "invite"
    assert pair.alice.card().fingerprint in outcome.note
    kept = pair.bob.path / "incoming" / f"{game.game_id.hex()[:12]}-0000-red.pbem"
    assert kept.read_bytes() == game.files[0] and f"pbem join {kept}" in outcome.note


def test_mail_setup_keeps_the_password_apart(pair: Pair, tmp_path: Path) -> None:
    from pbem.cli import main

    secret = "s3cret-app-password"
    runner = CliRunner()
    res = runner.invoke(main, ["--home", str(pair.alice.path), "mail", "setup", "--provider",
                               "fastmail", "--address", "alice@pbem.test", "--password-stdin"],
                        input=secret + "\n")
    assert res.exit_code == 0, res.output
    assert secret not in res.output
    account = mailconfig.load_account(pair.alice.path)
    assert account.smtp_host == "smtp.fastmail.com" and account.smtp_security == "tls"
    account_file = mailconfig.account_path(pair.alice.path)
    secret_file = mailconfig.secret_path(pair.alice.path)
    assert secret not in account_file.read_text(encoding="utf-8")
    assert secret_file.read_text(encoding="utf-8") == secret
    assert secret_file.stat().st_mode & 0o777 == 0o600
    assert account_file.stat().st_mode & 0o777 == 0o600
    assert mailconfig.password_for(pair.alice.path, account) == secret
    # nowhere else in the home: saves, keys, contacts
    for path in pair.alice.path.rglob("*"):
        if path.is_file() and path != secret_file:
            assert secret.encode() not in path.read_bytes(), path
    res = runner.invoke(main, ["--home", str(pair.alice.path), "mail", "show"])
    assert res.exit_code == 0 and secret not in res.output
    assert f"file {secret_file}" in res.output
    # the environment wins; a command is next; a readable file is refused
    os.environ[mailconfig.PASSWORD_ENV] = "from-env"
    try:
        assert mailconfig.password_for(pair.alice.path, account) == "from-env"
    finally:
        del os.environ[mailconfig.PASSWORD_ENV]
    account.password_command = ["echo", "from-command"]
    assert mailconfig.password_for(pair.alice.path, account) == "from-command"
    account.password_command = []
    secret_file.chmod(0o644)
    with pytest.raises(TransportError, match="not private: permissions 0644 let others read it"):
        mailconfig.password_for(pair.alice.path, account)


def test_account_refuses_cleartext(tmp_path: Path) -> None:
    with pytest.raises(TransportError, match="never sends a password in clear"):
        mailconfig.MailAccount(address="a@b.c", smtp_host="h", imap_host="h",
                               smtp_security="none")
    with pytest.raises(TransportError, match="no mail account"):
        mailconfig.load_account(tmp_path)


def test_base64_line_breaks_are_tolerated_but_not_garbage(pair: Pair) -> None:
    name, seq, data = joined(pair)
    b64 = base64.b64encode(data).decode()
    wrapped = "\r\n".join(b64[i:i + 40] for i in range(0, len(b64), 40))
    raw = ("Subject: rewrapped\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\n"
           "Content-Type: text/plain\r\n\r\nhi\r\n--XX\r\n"
           "Content-Type: application/octet-stream; name=t.pbem\r\n"
           "Content-Transfer-Encoding: base64\r\n"
           "Content-Disposition: attachment; filename=t.pbem\r\n\r\n"
           f"{wrapped}\r\n--XX--\r\n").encode()
    scan = extract(raw, "m")
    assert [f.data for f in scan.files] == [data] and scan.refused == []


def test_extract_never_raises_on_mangled_mail(pair: Pair) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    name, seq, data = joined(pair)
    raw = message_bytes(message_for(pair, name, seq, data))

    @settings(max_examples=300, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.tuples(st.integers(0, len(raw) - 1), st.binary(min_size=0, max_size=8)),
                    max_size=6),
           st.binary(max_size=200))
    def check(edits: list[tuple[int, bytes]], junk: bytes) -> None:
        mangled = bytearray(raw)
        for at, chunk in edits:
            mangled[at:at + len(chunk)] = chunk
        for candidate in (bytes(mangled), junk, bytes(mangled[: len(mangled) // 2])):
            scan = extract(candidate, "fuzz")
            for found in scan.files:
                assert len(found.data) <= MAX_ATTACHMENT
            for refused in scan.refused:
                assert refused.status == "refused" and "\n" not in refused.note

    check()


def test_body_stays_7bit_so_a_saved_invite_message_can_be_joined(pair: Pair,
                                                                  tmp_path: Path) -> None:
    from pbem.cli import main

    game = pair.alice.new_game("skirmish", "short", "red", name="inv")
    subject, summary = describe(game, 0, game.files[0])
    long_summary = summary + "\n" + "A very long line of summary text " * 8
    msg = compose(game.files[0], peek(game.files[0]), sender="alice@pbem.test",
                  recipient="bob@pbem.test", subject=subject, summary=long_summary)
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None and body["Content-Transfer-Encoding"] == "7bit"
    assert max(len(line) for line in body.get_content().splitlines()) <= 76
    saved = tmp_path / "invite.eml"
    saved.write_bytes(message_bytes(msg))
    res = CliRunner().invoke(main, ["--home", str(pair.bob.path), "join", str(saved),
                                    "--name", "inv", "-o", str(tmp_path / "reply.pbem"),
                                    "--yes"])
    assert res.exit_code == 0, res.output
    assert pair.alice.card().fingerprint in res.output
