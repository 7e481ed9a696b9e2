"""Issue 20 item 5: no mail crashes a receive or blocks a mailbox; every file is tried."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage
from pathlib import Path

from click.testing import CliRunner
from transport_helpers import Pair, nested, play_until_sealed

from pbem import canonical
from pbem.envelope import seal
from pbem.identity import Identity
from pbem.transport.mail import MEDIA_TYPE, extract


def test_a_deeply_nested_mail_is_refused_not_a_crash() -> None:
    scan = extract(nested(1000), "poison.eml")
    assert scan.files == []
    [refused] = scan.refused
    assert "nested multipart" in refused.note and refused.final


def test_the_cli_names_a_poison_mail(pair: Pair, tmp_path: Path) -> None:
    from pbem.cli import main

    path = tmp_path / "poison.eml"
    path.write_bytes(nested(1000))
    res = CliRunner().invoke(main, ["--home", str(pair.bob.path), "receive", str(path)])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "nested multipart" in res.output


def _mail(files: list[tuple[str, bytes]]) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = "a@x", "b@x", "pbem files"
    msg.set_content("files attached")
    for name, data in files:
        main, sub = MEDIA_TYPE.split("/")
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return msg.as_bytes()


def test_every_file_of_a_mail_is_tried_earliest_first(pair: Pair, tmp_path: Path) -> None:
    from pbem.cli import main

    game = pair.alice.new_game("skirmish", "short", "red", name="duel")
    pair.alice.receive(pair.bob.join(game.files[0], "invite", name="duel").files[1], "acc")
    seq, data = play_until_sealed(pair.alice.game("duel"), pair.chooser)
    body = canonical.decode(canonical.decode(data)[5])
    kind = body.pop("kind")
    stranger = seal(Identity.generate("Mallory"), kind, {**body, "message": "me first"})
    later = seal(Identity.generate("Mallory"), kind, {**body, "seq": seq + 2})
    path = tmp_path / "mail.eml"
    path.write_bytes(_mail([("b.pbem", later), ("a.pbem", stranger), ("c.pbem", data)]))
    res = CliRunner().invoke(main, ["--home", str(pair.bob.path), "receive", str(path)])
    assert "Traceback" not in res.output
    assert pair.bob.game("duel").verifier.seq == seq, res.output  # the genuine file is in
    assert "not the one pinned" in res.output
    assert res.exit_code != 0  # the refusals are not hidden
