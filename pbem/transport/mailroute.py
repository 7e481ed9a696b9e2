"""Mail as a route: ``mail`` sends a file by SMTP to an address and collects from the
home's mailbox by IMAP; ``eml`` writes the message as a file for the player's own mail
program (it collects nothing).  Both registered in the ``pbem.transports`` entry-point
group (:mod:`pbem.transport.plugins`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import PbemError, UsageError
from pbem.text import safe
from pbem.transport import config as mailconfig
from pbem.transport.base import Delivered, Outcome, Router

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.envelope import FileInfo
    from pbem.session import Game
    from pbem.transport.state import HandledState

__all__ = ["EmlTransport", "MailTransport"]


def _message(game: Game, data: bytes, info: FileInfo, sender_addr: str,
             recipient: str) -> EmailMessage:
    from pbem.transport.mail import compose
    from pbem.transport.telling import describe

    me = game.home.card()
    sender = f"{me.name} <{sender_addr}>" if sender_addr else me.name
    subject, summary = describe(game, info.seq, data)
    # one header line, nothing a mail program would act on (names are card-checked, but a
    # subject is no place to trust that)
    return compose(data, info, sender=sender, recipient=recipient, subject=safe(subject),
                   summary=summary)


def _recipient(game: Game, where: str) -> str:
    opp = game.opponent()
    return where or (opp.who if opp is not None and opp.email else "")


class MailTransport:
    """SMTP out to ``where`` (default: the address on the opponent's card), IMAP in from
    the home's mail account (``pbem mail setup``)."""

    name = "mail"

    def __init__(self, home: Path, where: str) -> None:
        self.home = Path(home)
        self.where = where

    def deliver(self, data: bytes, info: FileInfo, game: Game) -> Delivered:
        from pbem.transport.mail import send_smtp

        account = mailconfig.load_account(self.home)
        recipient = _recipient(game, self.where)
        if not recipient:
            raise UsageError(f"{game.name}: no address for the opponent yet (an invite): "
                             f"give one with 'pbem route {game.name} --email --to ADDRESS'")
        msg = _message(game, data, info, account.address, recipient)
        send_smtp(account, mailconfig.password_for(self.home, account), msg)
        return Delivered("mailed to", recipient,
                         f"file {info.seq} of {game.name} mailed to {recipient}")

    def remind(self, data: bytes, info: FileInfo, game: Game, subject: str,
               summary: str) -> Delivered:
        from pbem.transport.mail import compose, send_smtp

        account = mailconfig.load_account(self.home)
        recipient = _recipient(game, self.where)
        if not recipient:
            raise UsageError(f"{game.name}: no address for the opponent: give one with "
                             f"'pbem route {game.name} --email --to ADDRESS'")
        me = game.home.card()
        sender = f"{me.name} <{account.address}>" if account.address else me.name
        msg = compose(data, info, sender=sender, recipient=recipient, subject=safe(subject),
                      summary=summary)
        send_smtp(account, mailconfig.password_for(self.home, account), msg)
        return Delivered("mailed to", recipient,
                         f"reminder for {game.name} mailed to {recipient} (file {info.seq} "
                         f"again)")

    def collect(self, router: Router, state: HandledState | None) -> list[Outcome]:
        from pbem.transport.mail import fetch_imap

        account = mailconfig.load_account(self.home)
        return fetch_imap(account, mailconfig.password_for(self.home, account), router,
                          state).outcomes

    def place(self) -> str:
        try:
            account = mailconfig.load_account(self.home)
        except PbemError:
            return "mail"  # collect names the problem
        # not the port: a changed setting is the same mailbox, with its failures
        return f"mailbox {account.login} at {account.imap_host}"


class EmlTransport:
    """A ``.eml`` message written to the path ``where``, for the player's own mail
    program; nothing comes back this way."""

    name = "eml"

    def __init__(self, home: Path, where: str) -> None:
        self.home = Path(home)
        self.path = Path(where)

    def deliver(self, data: bytes, info: FileInfo, game: Game) -> Delivered:
        from pbem.atomic import write_atomic
        from pbem.transport.base import TransportError
        from pbem.transport.mail import message_bytes

        me = game.home.card()
        recipient = _recipient(game, "")
        msg = _message(game, data, info, me.email, recipient)
        try:
            write_atomic(self.path, message_bytes(msg), 0o644)
        except OSError as exc:
            raise TransportError(f"cannot write the message ({exc.strerror})",
                                 path=str(self.path)) from None
        return Delivered("written as a mail message to", str(self.path),
                         f"file {info.seq} of {game.name} written as a mail message to "
                         f"{self.path}" + ("" if recipient else " (fill in the recipient)"))

    def remind(self, data: bytes, info: FileInfo, game: Game, subject: str,
               summary: str) -> Delivered:
        from pbem.atomic import write_atomic
        from pbem.transport.base import TransportError
        from pbem.transport.mail import compose, message_bytes

        me = game.home.card()
        msg = compose(data, info, sender=me.who,
                      recipient=_recipient(game, ""), subject=safe(subject), summary=summary)
        try:
            write_atomic(self.path, message_bytes(msg), 0o644)
        except OSError as exc:
            raise TransportError(f"cannot write the message ({exc.strerror})",
                                 path=str(self.path)) from None
        return Delivered("written as a mail message to", str(self.path),
                         f"reminder for {game.name} written as a mail message to {self.path}")

    def collect(self, router: Router, state: HandledState | None) -> list[Outcome]:
        return []

    def place(self) -> str:
        return ""
