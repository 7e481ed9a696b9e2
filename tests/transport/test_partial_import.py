"""Issue 36 item 5: an import that took in the real file and refused the rest exits 14
(``PARTIAL_IMPORT``), so a script sees that the game moved on; one that imported nothing
keeps the refusal's own code."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from transport_helpers import Pair, play_until_sealed

from pbem import canonical
from pbem.envelope import seal
from pbem.errors import PARTIAL_IMPORT, FormatError, SignatureError, import_status
from pbem.identity import Identity
from pbem.transport.folder import deliver_folder
from pbem.transport.mail import MEDIA_TYPE


def _mail(files: list[tuple[str, bytes]]) -> bytes:
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = "a@x", "b@x", "pbem files"
    msg.set_content("files attached")
    for name, data in files:
        main, sub = MEDIA_TYPE.split("/")
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return msg.as_bytes()


def _file_2(pair: Pair) -> tuple[int, bytes, bytes]:
    """Alice's file 2 of a new game with Bob, and a copy signed by a stranger."""
    game = pair.alice.new_game("skirmish", "short", "red", name="duel")
    pair.alice.receive(pair.bob.join(game.files[0], "invite", name="duel").files[1], "acc")
    seq, data = play_until_sealed(pair.alice.game("duel"), pair.chooser)
    body = canonical.decode(canonical.decode(data)[5])
    kind = body.pop("kind")
    return seq, data, seal(Identity.generate("Mallory"), kind, {**body, "message": "me"})


def _pbem(pair: Pair, *args: str) -> Result:
    from pbem.cli import main

    return CliRunner().invoke(main, ["--home", str(pair.bob.path), *args])


def test_the_rule() -> None:
    assert import_status(0, []) == import_status(2, [0, 0]) == 0
    assert import_status(1, [0, 4, 3]) == PARTIAL_IMPORT == 14
    assert import_status(0, [0, 4, 3]) == 4


@pytest.mark.parametrize("with_real", [True, False])
def test_receive_a_mail_with_a_strangers_file_and_the_real_one(
        pair: Pair, tmp_path: Path, with_real: bool) -> None:
    seq, data, stranger = _file_2(pair)
    path = tmp_path / "mail.eml"
    path.write_bytes(_mail([("a.pbem", stranger)] + [("b.pbem", data)] * with_real))
    res = _pbem(pair, "receive", str(path))
    assert "not the one pinned" in res.output
    if with_real:
        assert pair.bob.game("duel").verifier.seq == seq
        assert res.exit_code == PARTIAL_IMPORT, res.output
    else:
        assert pair.bob.game("duel").verifier.seq == 1
        assert res.exit_code == SignatureError.exit_code, res.output


@pytest.mark.parametrize("with_real", [True, False])
def test_inbox_a_folder_with_junk_beside_the_real_file(
        pair: Pair, tmp_path: Path, with_real: bool) -> None:
    from pbem.envelope import peek

    seq, data, _ = _file_2(pair)
    folder = tmp_path / "shared"
    folder.mkdir()
    if with_real:
        deliver_folder(data, folder, peek(data))
    (folder / "0123456789ab-0002-red.pbem").write_bytes(b"\x93\x01\x02 not a pbem file")
    res = _pbem(pair, "inbox", str(folder))
    assert "not a pbem file" in res.output or "damaged" in res.output, res.output
    if with_real:
        assert pair.bob.game("duel").verifier.seq == seq
        assert res.exit_code == PARTIAL_IMPORT, res.output
    else:
        assert res.exit_code == FormatError.exit_code, res.output


def test_the_exit_status_is_listed_in_the_help() -> None:
    from pbem.cli import main

    res = CliRunner().invoke(main, ["--help"])
    assert "14 an import" in " ".join(res.output.split())
