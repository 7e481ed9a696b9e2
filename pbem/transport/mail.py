"""Email as a transport: compose a standard message, send it by SMTP, fetch by IMAP, and
read turn files out of ``.eml`` files, mbox files and Maildir folders.

Outgoing (RFC 5322, MIME): a subject that names the game, the file and who must act; a
plain-text body with a short summary and, as a fallback for mail paths that strip
attachments, the armored form of the file; the file itself attached as
``application/vnd.pbem+msgpack`` under its ``game-seq-side.pbem`` name; and ``X-Pbem-*``
headers that let an IMAP search find it.

Incoming mail is hostile until proven otherwise.  A message is size-capped before it is
parsed and its parts counted; an attachment is taken only if its name ends in ``.pbem``
or its type is ours, and is refused, with a note naming the message and the reason, when
its name carries a path, its type is wrong, its base64 is malformed or it is too large.
Attachment names are never used to write anything: files are only handed, as bytes, to
the :class:`~pbem.transport.base.Router`, which verifies them through the session.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import email
import email.policy
import email.utils
import imaplib
import mailbox
import re
import smtplib
import ssl
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.atomic import write_atomic
from pbem.errors import FormatError, PbemError
from pbem.transport.base import Outcome, Router, TransportError, file_name
from pbem.transport.config import MailAccount
from pbem.transport.state import HandledState

if TYPE_CHECKING:
    from pbem.envelope import FileInfo

__all__ = [
    "MAX_ATTACHMENT",
    "MAX_MESSAGE",
    "MEDIA_TYPE",
    "Extracted",
    "FetchReport",
    "MessageScan",
    "compose",
    "extract",
    "fetch_imap",
    "files_from_path",
    "message_bytes",
    "messages_from_path",
    "send_email",
    "send_smtp",
    "write_eml",
]

MAINTYPE, SUBTYPE = "application", "vnd.pbem+msgpack"
MEDIA_TYPE = f"{MAINTYPE}/{SUBTYPE}"
#: media types a mail program may put on a .pbem attachment it did not recognize
GENERIC_TYPES = frozenset({"application/octet-stream", "application/x-pbem",
                           "application/vnd.pbem", "application/msgpack",
                           "application/x-msgpack"})
MAX_MESSAGE = 16 * 1024 * 1024
MAX_ATTACHMENT = 4 * 1024 * 1024
MAX_PARTS = 100
#: the most multipart or message/* containers one message may declare (nesting bound)
MAX_NESTING = 20
_CONTAINER = re.compile(rb"(?i)content-type:\s*(?:multipart|message)/")
KEYWORD = "$PbemHandled"
_BAD_NAME = re.compile(r"[/\\\x00-\x1f]|^\.|^[A-Za-z]:")


# --- composing ------------------------------------------------------------------------------


def compose(data: bytes, info: FileInfo, *, sender: str, recipient: str, subject: str,
            summary: str, date: float | None = None) -> EmailMessage:
    """The message for one file: summary and armored fallback in the body, file attached."""
    from pbem.armor import armor

    name = file_name(info.game_id, info.seq, info.side)
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    if recipient:
        msg["To"] = recipient
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(date, localtime=False)
    domain = sender.rpartition("@")[2].strip(">") or "pbem.invalid"
    msg["Message-ID"] = email.utils.make_msgid("pbem", domain=domain)
    msg["X-Pbem-Kind"] = info.kind
    msg["X-Pbem-Game"] = info.game_id.hex()
    msg["X-Pbem-Seq"] = str(info.seq)
    msg["X-Pbem-Side"] = info.side
    verb = "join" if info.kind == "invite" else "receive"
    # lines of at most 76 characters keep the body in 7bit, so the armored block reads
    # as it is even where a program shows or saves the raw message
    wrapped = "\n".join(textwrap.fill(line, 76, subsequent_indent="  ",
                                       break_long_words=False, break_on_hyphens=False)
                        if len(line) > 76 else line for line in summary.rstrip().splitlines())
    body = (
        f"{wrapped}\n\n"
        f"The file is attached as {name}.\n"
        f"To import it, save the attachment and run\n"
        f"    pbem {verb} {name}\n"
        + ("" if info.kind == "invite" else "or let 'pbem fetch' pick it up from your mailbox.\n")
        + "\nIf your mail program removed the attachment, the same file follows as\n"
        f"text: 'pbem {verb}' also takes this whole message saved as a file.\n\n"
        f"{armor(data)}"
    )
    # the transfer encoding is chosen by the content: 7bit for plain ASCII, so the armored
    # block reads as it is even in a mail program that shows the raw message
    msg.set_content(body, subtype="plain", charset="utf-8")
    msg.add_attachment(data, maintype=MAINTYPE, subtype=SUBTYPE, filename=name)
    return msg


def message_bytes(msg: EmailMessage) -> bytes:
    """The wire form (CRLF line ends, as sent and as a .eml file)."""
    return msg.as_bytes(policy=email.policy.SMTP)


def write_eml(data: bytes, path: Path, info: FileInfo, *, sender: str, recipient: str,
              subject: str, summary: str) -> Path:
    """Write the message as a ``.eml`` file for the user's own mail program."""
    msg = compose(data, info, sender=sender, recipient=recipient, subject=subject,
                  summary=summary)
    path = Path(path)
    try:
        write_atomic(path, message_bytes(msg), 0o644)
    except OSError as exc:
        raise TransportError(f"cannot write the message ({exc.strerror})", path=str(path)) \
            from None
    return path


# --- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Extracted:
    """One candidate file found in a message (not yet verified)."""

    source: str
    data: bytes
    via: str  # "attachment" or "armored body"


@dataclass
class MessageScan:
    """What a message holds: candidate files, and refusals (hostile or broken parts)."""

    label: str
    files: list[Extracted] = field(default_factory=list)
    refused: list[Outcome] = field(default_factory=list)

    @property
    def relevant(self) -> bool:
        """Whether the message has anything of pbem's in it at all."""
        return bool(self.files or self.refused)


def _refuse(scan: MessageScan, what: str, why: str) -> None:
    scan.refused.append(Outcome(f"{scan.label} {what}", "refused",
                                f"{scan.label}: {what} refused: {why}",
                                exit_code=FormatError.exit_code, cause=why))


def _strict_payload(part: Message) -> bytes:
    """The decoded bytes of a part; malformed base64 raises instead of being guessed at."""
    cte = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    raw = part.get_payload(decode=False)
    if not isinstance(raw, str):
        raise ValueError("the part has no single body")
    if len(raw) > MAX_ATTACHMENT * 4 // 3 + MAX_ATTACHMENT // 16 + 1024:
        raise OverflowError(f"{len(raw)} encoded bytes, more than the {MAX_ATTACHMENT} "
                            f"bytes a pbem file may have")
    if cte == "base64":
        compact = re.sub(r"[ \t\r\n]+", "", raw)
        try:
            return base64.b64decode(compact, validate=True)
        except binascii.Error as exc:
            raise ValueError(f"malformed base64 ({exc})") from None
    if cte in ("7bit", "8bit", "binary", "quoted-printable"):
        decoded = part.get_payload(decode=True)
        if not isinstance(decoded, bytes):
            raise ValueError("the part cannot be decoded")
        return decoded
    raise ValueError(f"unknown transfer encoding {cte!r}")


def extract(raw: bytes, label: str) -> MessageScan:
    """Every candidate pbem file in a message: attachments, then armored text bodies.

    Never raises: a message that cannot be read is one refusal, so that it is marked
    handled and the rest of the mailbox is still fetched."""
    scan = MessageScan(label)
    if len(raw) > MAX_MESSAGE:
        _refuse(scan, "message", f"{len(raw)} bytes, more than the {MAX_MESSAGE} bytes a "
                                 f"turn message may have")
        return scan
    # the parser recurses once per nested multipart: 1,000 levels crashed it (and a
    # crash on one message blocked a mailbox for good).  Each level needs a Content-Type
    # of its own, so counting them bounds the nesting before anything is parsed.
    containers = len(_CONTAINER.findall(raw))
    if containers > MAX_NESTING:
        _refuse(scan, "message", f"{containers} nested multipart or message parts, more "
                                 f"than the {MAX_NESTING} a turn message may have")
        return scan
    try:
        return _extract(raw, scan)
    except RecursionError:
        scan.files.clear()
        _refuse(scan, "message", "its structure is nested too deeply to read")
        return scan
    except Exception as exc:  # a parser failure on hostile input must not stop a fetch
        scan.files.clear()
        _refuse(scan, "message", f"it cannot be read ({type(exc).__name__})")
        return scan


def _extract(raw: bytes, scan: MessageScan) -> MessageScan:
    from pbem.armor import dearmor_all, is_armored

    label = scan.label
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    try:
        subject = " ".join(str(msg.get("Subject", "") or "").split())
    except Exception:  # a header the parser cannot decode: the label does without it
        subject = ""
    if subject:
        scan.label = label = f"{label} ({subject[:60]!r})"
    seen: set[bytes] = set()
    texts: list[Message] = []
    parts = 0
    for part in msg.walk():
        parts += 1
        if parts > MAX_PARTS:
            _refuse(scan, "the rest of the message", f"more than {MAX_PARTS} MIME parts")
            break
        if part.is_multipart() or part.get_content_maintype() == "message":
            continue
        ctype = part.get_content_type()
        try:
            filename = part.get_filename()
        except Exception:  # a header the parser cannot make sense of
            filename = "(unreadable name)"
        named = bool(filename) and str(filename).lower().endswith(".pbem")
        typed = ctype == MEDIA_TYPE
        if named or typed:
            what = f"attachment {filename!r}" if filename else f"{ctype} attachment"
            if filename and _BAD_NAME.search(str(filename)):
                _refuse(scan, what, "its name contains a path or control characters")
                continue
            if not typed and ctype not in GENERIC_TYPES:
                _refuse(scan, what, f"media type {ctype}, expected {MEDIA_TYPE}")
                continue
            try:
                data = _strict_payload(part)
            except (ValueError, OverflowError) as exc:
                _refuse(scan, what, str(exc))
                continue
            if len(data) > MAX_ATTACHMENT:
                _refuse(scan, what, f"{len(data)} bytes, more than the {MAX_ATTACHMENT} bytes "
                                    f"a pbem file may have")
                continue
            if not data:
                _refuse(scan, what, "it is empty")
                continue
            if data not in seen:
                seen.add(data)
                scan.files.append(Extracted(f"{label} {what}", data, "attachment"))
            continue
        if part.get_content_maintype() == "text" and ctype != "text/html" and not filename:
            texts.append(part)
    # the armored fallback, after the attachments so that a file carried both ways is
    # named by its attachment
    for text_part in texts:
        try:
            if not isinstance(text_part, EmailMessage):
                raise ValueError("not parsed with the default policy")
            text = text_part.get_content()
        except (LookupError, ValueError, AssertionError):
            payload = text_part.get_payload(decode=True)
            text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
        if not isinstance(text, str) or not is_armored(text):
            continue
        try:
            blocks = dearmor_all(text)
        except PbemError as exc:
            _refuse(scan, "armored text in the body", str(exc))
            continue
        for data in blocks:
            if data not in seen:
                seen.add(data)
                scan.files.append(Extracted(f"{label} armored body", data, "armored body"))
    return scan


def _looks_like_mbox(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(5) == b"From "


def _looks_like_mail(path: Path) -> bool:
    if path.suffix.lower() in (".eml", ".msg", ".mbox", ".mbx"):
        return True
    with path.open("rb") as handle:
        head = handle.read(4096)
    if head[:1] == b"\x96" or head.lstrip().startswith(b"-----BEGIN PBEM FILE-----"):
        return False
    return head.startswith(b"From ") or bool(
        re.match(rb"(?i)^(?:[A-Za-z0-9-]+:[^\n]*\r?\n(?:[ \t][^\n]*\r?\n)*)+", head)
        and re.search(rb"(?im)^(from|subject|mime-version|date|message-id):", head))


def is_maildir(path: Path) -> bool:
    return path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def messages_from_path(path: Path) -> Iterator[tuple[str, bytes]]:
    """``(label, raw message)`` for an .eml file, an mbox file or a Maildir folder."""
    path = Path(path)
    if is_maildir(path):
        box = mailbox.Maildir(str(path), factory=None, create=False)
        for key in sorted(box.keys()):
            try:
                with box.get_file(key) as handle:
                    raw = handle.read(MAX_MESSAGE + 1)
            except (OSError, KeyError):
                continue  # delivered or moved away meanwhile
            yield f"{path} message {key}", raw
        return
    if path.is_file() and _looks_like_mbox(path):
        mbox = mailbox.mbox(str(path), factory=None, create=False)
        try:
            for index, key in enumerate(mbox.keys(), 1):
                # bounded: one huge message costs at most the limit (extract refuses it)
                with mbox.get_file(key) as handle:
                    yield f"{path} message {index}", handle.read(MAX_MESSAGE + 1)
        finally:
            mbox.close()
        return
    with path.open("rb") as handle:
        yield str(path), handle.read(MAX_MESSAGE + 1)


def scan_path(path: Path) -> list[MessageScan]:
    """Every message in an .eml, mbox or Maildir, scanned."""
    return [extract(raw, label) for label, raw in messages_from_path(path)]


def files_from_path(path: Path) -> list[tuple[str, bytes]] | None:
    """For ``pbem receive``: the candidate files in a mail file or folder, or None when
    ``path`` is not mail (a plain .pbem, binary or armored).

    When a message holds no usable file at all, the refusals are raised as one error so
    the person sees why; refusals beside usable files are printed as notes.
    """
    path = Path(path)
    if not is_maildir(path) and not (path.is_file() and _looks_like_mail(path)):
        return None
    scans = scan_path(path)
    files = [(f.source, f.data) for s in scans for f in s.files]
    refused = [o.note for s in scans for o in s.refused]
    if not files:
        if refused:
            raise TransportError("; ".join(refused), path=None)
        raise TransportError("no pbem file in this mail (no .pbem attachment and no armored "
                             "block)", path=str(path))
    if refused:
        import click

        for note in refused:
            click.echo(f"pbem: note: {note}", err=True)
    return files


def import_path(path: Path, router: Router) -> list[Outcome]:
    """Route every pbem file found in an .eml, mbox or Maildir; refusals included."""
    outcomes: list[Outcome] = []
    for scan in scan_path(path):
        outcomes += scan.refused
        outcomes += router.route_all((f.source, f.data) for f in scan.files)
    return outcomes


# --- SMTP ------------------------------------------------------------------------------------


def _server_text(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) \
            else str(exc.smtp_error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def send_smtp(account: MailAccount, password: str, msg: EmailMessage, *,
              timeout: float = 60.0) -> None:
    """Send over SMTP with TLS (implicit, or STARTTLS) and login; nothing in clear."""
    where = f"SMTP {account.smtp_host}:{account.smtp_port}"
    context = account.ssl_context()
    smtp: smtplib.SMTP | None = None
    try:
        if account.smtp_security == "tls":
            smtp = smtplib.SMTP_SSL(account.smtp_host, account.smtp_port, timeout=timeout,
                                    context=context)
        else:
            smtp = smtplib.SMTP(account.smtp_host, account.smtp_port, timeout=timeout)
            smtp.ehlo()
            if not smtp.has_extn("starttls"):
                raise TransportError(f"{where} does not offer STARTTLS; refusing to log in "
                                     f"in clear")
            smtp.starttls(context=context)
            smtp.ehlo()
        try:
            smtp.login(account.login, password)
        except smtplib.SMTPAuthenticationError as exc:
            raise TransportError(f"{where}: login as {account.login} refused "
                                 f"({_server_text(exc)}); with Gmail, Outlook, Fastmail "
                                 f"use an app password") from None
        refused = smtp.send_message(msg)
        if refused:
            raise TransportError(f"{where} refused recipients: {', '.join(sorted(refused))}")
    except TransportError:
        raise
    except (smtplib.SMTPException, OSError, ssl.SSLError) as exc:
        raise TransportError(f"{where}: {_server_text(exc)}") from None
    finally:
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()


def send_email(data: bytes, info: FileInfo, account: MailAccount, password: str, *,
               recipient: str, subject: str, summary: str, sender: str | None = None) -> bytes:
    """Compose the message for one file and send it; returns the bytes that were sent."""
    msg = compose(data, info, sender=sender or account.address, recipient=recipient,
                  subject=subject, summary=summary)
    send_smtp(account, password, msg)
    return message_bytes(msg)


# --- IMAP -------------------------------------------------------------------------------------


@dataclass
class FetchReport:
    """What one ``fetch`` did."""

    outcomes: list[Outcome] = field(default_factory=list)
    searched: int = 0
    handled: int = 0
    other: int = 0


def imap_connect(account: MailAccount, timeout: float) -> imaplib.IMAP4:
    context = account.ssl_context()
    if account.imap_security == "tls":
        return imaplib.IMAP4_SSL(account.imap_host, account.imap_port, ssl_context=context,
                                 timeout=timeout)
    conn = imaplib.IMAP4(account.imap_host, account.imap_port, timeout=timeout)
    conn.starttls(ssl_context=context)
    return conn


def _check(typ: str, data: Sequence[object], what: str) -> None:
    if typ != "OK":
        text = b" ".join(d for d in data if isinstance(d, bytes)).decode("utf-8", "replace")
        raise TransportError(f"IMAP {what} failed: {text[:200]}")


def _untagged(conn: imaplib.IMAP4, name: str) -> bytes:
    _typ, data = conn.response(name)
    return data[0] if data and isinstance(data[0], bytes) else b""


def _fetch_parts(data: Sequence[object]) -> tuple[int | None, bytes | None]:
    """(RFC822.SIZE, BODY[]) out of an imaplib FETCH response."""
    size: int | None = None
    body: bytes | None = None
    for item in data:
        if isinstance(item, tuple) and len(item) == 2:
            head, payload = item
            match = re.search(rb"RFC822\.SIZE (\d+)", head)
            if match:
                size = int(match.group(1))
            if b"BODY[]" in head and isinstance(payload, bytes):
                body = payload
        elif isinstance(item, bytes):
            match = re.search(rb"RFC822\.SIZE (\d+)", item)
            if match:
                size = int(match.group(1))
    return size, body


def fetch_imap(account: MailAccount, password: str, router: Router,
               state: HandledState | None = None, *, mailbox_name: str | None = None,
               every_message: bool = False, timeout: float = 60.0) -> FetchReport:
    """Import every turn file for a known game from the mailbox's new messages.

    The search takes messages without the ``$PbemHandled`` keyword that look like pbem
    mail (an ``X-Pbem-Kind`` header, the armor marker in the body, or "pbem" in the
    subject; ``every_message`` drops that filter).  Each is read with ``BODY.PEEK`` (its
    \\Seen flag is not touched), its files are routed, and when every file in it is
    settled (imported, duplicate, own, refused) it gets the keyword, and its UID is noted in
    the home too (for servers that keep no keywords).  Messages that turn out to hold
    nothing of pbem's are left exactly as they were: no flag, no keyword.
    """
    box = mailbox_name or account.mailbox
    report = FetchReport()
    where = f"IMAP {account.imap_host}:{account.imap_port}"
    try:
        conn = imap_connect(account, timeout)
    except (OSError, ssl.SSLError, imaplib.IMAP4.error) as exc:
        raise TransportError(f"{where}: {_server_text(exc)}") from None
    try:
        try:
            conn.login(account.login, password)
        except imaplib.IMAP4.error as exc:
            raise TransportError(f"{where}: login as {account.login} refused "
                                 f"({_server_text(exc)}); with Gmail, Outlook, Fastmail use "
                                 f"an app password") from None
        typ, data = conn.select(_quote(box))
        _check(typ, data, f"select {box!r}")
        validity = _untagged(conn, "UIDVALIDITY").decode("ascii", "replace")
        flags = _untagged(conn, "PERMANENTFLAGS")
        can_keyword = b"\\*" in flags or KEYWORD.encode() in flags
        key = f"{account.login}@{account.imap_host}:{account.imap_port}/{box}"
        record = state.section("imap").setdefault(key, {}) if state is not None else {}
        if record.get("uidvalidity") != validity:
            record.clear()
            record["uidvalidity"] = validity
        done: dict[str, str] = record.setdefault("uids", {})
        base = ["UNKEYWORD", KEYWORD] if can_keyword else ["ALL"]
        narrow = ["OR", "OR", "HEADER", "X-Pbem-Kind", '""', "BODY", '"BEGIN PBEM FILE"',
                  "SUBJECT", "pbem"]
        try:
            typ, data = conn.uid("SEARCH", *base, *([] if every_message else narrow))
        except imaplib.IMAP4.error:
            typ, data = "NO", []
        if typ != "OK" and not every_message:
            # a server whose search cannot do HEADER or BODY: look at every unhandled
            # message instead (the home's record keeps it from reading them twice)
            typ, data = conn.uid("SEARCH", *base)
        _check(typ, data, "search")
        uids = data[0].split() if data and isinstance(data[0], bytes) else []
        report.searched = len(uids)
        for raw_uid in uids:
            uid = raw_uid.decode("ascii")
            if uid in done:
                if done[uid] == "handled" and can_keyword:
                    conn.uid("STORE", uid, "+FLAGS.SILENT", f"({KEYWORD})")
                continue
            typ, data = conn.uid("FETCH", uid, "(RFC822.SIZE)")
            _check(typ, data, f"fetch size of message {uid}")
            size, _ = _fetch_parts(data)
            label = f"{where} {box} message {uid}"
            if size is not None and size > MAX_MESSAGE:
                scan = MessageScan(label)
                _refuse(scan, "message", f"{size} bytes, more than the {MAX_MESSAGE} bytes a "
                                         f"turn message may have")
            else:
                typ, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
                _check(typ, data, f"fetch message {uid}")
                _, body = _fetch_parts(data)
                if body is None:
                    continue  # expunged meanwhile
                scan = extract(body, label)
            if not scan.relevant:
                done[uid] = "other"
                report.other += 1
                continue
            outcomes = scan.refused + router.route_all((f.source, f.data) for f in scan.files)
            report.outcomes += outcomes
            if all(o.final for o in outcomes):
                if can_keyword:
                    typ, data = conn.uid("STORE", uid, "+FLAGS.SILENT", f"({KEYWORD})")
                    _check(typ, data, f"mark message {uid}")
                done[uid] = "handled"
                report.handled += 1
        if state is not None:
            state.save()
        conn.close()
    except TransportError:
        raise
    except (OSError, ssl.SSLError, imaplib.IMAP4.error) as exc:
        raise TransportError(f"{where}: {_server_text(exc)}") from None
    finally:
        with contextlib.suppress(OSError, imaplib.IMAP4.error):
            conn.logout()
    return report


def _quote(name: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9._/-]+", name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'

