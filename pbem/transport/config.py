"""The mail account, configured once (``pbem mail setup``), and where its password lives.

The account (addresses, servers, ports, security, user name) is kept in
``<home>/mail/account.json``.  The password never is: it comes, in this order, from the
environment variable ``PBEM_MAIL_PASSWORD``, from a command the account names (a password
manager: ``pass show mail/pbem``, ``security find-generic-password -w ...``), or from
``<home>/mail/password``, a file of its own with 0600 permissions that no save file, log or
message ever includes.  The password is never printed, and errors from servers are
reported without it.
"""

from __future__ import annotations

import json
import os
import ssl
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pbem.atomic import write_atomic
from pbem.portable import private_file_problem
from pbem.transport.base import TransportError

__all__ = [
    "PASSWORD_ENV",
    "PROVIDERS",
    "MailAccount",
    "load_account",
    "password_for",
    "save_account",
]

PASSWORD_ENV = "PBEM_MAIL_PASSWORD"
SECURITY = ("starttls", "tls")

#: presets for common providers (all need an app password, see docs/transports.md)
PROVIDERS: dict[str, dict[str, Any]] = {
    "gmail": {"smtp_host": "smtp.gmail.com", "smtp_port": 465, "smtp_security": "tls",
              "imap_host": "imap.gmail.com", "imap_port": 993, "imap_security": "tls"},
    "outlook": {"smtp_host": "smtp-mail.outlook.com", "smtp_port": 587,
                "smtp_security": "starttls", "imap_host": "outlook.office365.com",
                "imap_port": 993, "imap_security": "tls"},
    "fastmail": {"smtp_host": "smtp.fastmail.com", "smtp_port": 465, "smtp_security": "tls",
                 "imap_host": "imap.fastmail.com", "imap_port": 993, "imap_security": "tls"},
    "yahoo": {"smtp_host": "smtp.mail.yahoo.com", "smtp_port": 465, "smtp_security": "tls",
              "imap_host": "imap.mail.yahoo.com", "imap_port": 993, "imap_security": "tls"},
    "icloud": {"smtp_host": "smtp.mail.me.com", "smtp_port": 587, "smtp_security": "starttls",
               "imap_host": "imap.mail.me.com", "imap_port": 993, "imap_security": "tls"},
}


@dataclass
class MailAccount:
    """Where and how to send and fetch; never the password."""

    address: str
    smtp_host: str
    imap_host: str
    username: str = ""
    display_name: str = ""
    smtp_port: int = 465
    smtp_security: str = "tls"
    imap_port: int = 993
    imap_security: str = "tls"
    mailbox: str = "INBOX"
    #: a PEM bundle to trust instead of the system's (a self-hosted server)
    ca_file: str = ""
    #: argv of a command that prints the password (a password manager)
    password_command: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if "@" not in self.address or any(c in self.address for c in " \r\n<>"):
            raise TransportError(f"mail address {self.address!r} is not an address")
        for what, value in (("smtp", self.smtp_security), ("imap", self.imap_security)):
            if value not in SECURITY:
                raise TransportError(f"{what} security {value!r}: use starttls or tls "
                                     f"(pbem never sends a password in clear)")
        for what, port in (("smtp", self.smtp_port), ("imap", self.imap_port)):
            if not 0 < int(port) < 65536:
                raise TransportError(f"{what} port {port} is not a port number")

    @property
    def login(self) -> str:
        return self.username or self.address

    def ssl_context(self) -> ssl.SSLContext:
        """Certificate and host name checked always; a private CA only if configured."""
        try:
            context = ssl.create_default_context(cafile=self.ca_file or None)
        except (OSError, ssl.SSLError) as exc:
            raise TransportError(f"cannot load the CA file ({exc})", path=self.ca_file) \
                from None
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        return context

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, path: str) -> MailAccount:
        if not isinstance(data, dict):
            raise TransportError("the mail account is not a JSON object", path=path)
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise TransportError(f"unknown mail account fields: {', '.join(unknown)}", path=path)
        try:
            return cls(**data)
        except TypeError as exc:
            raise TransportError(f"bad mail account ({exc})", path=path) from None


def account_path(home: Path) -> Path:
    return Path(home) / "mail" / "account.json"


def secret_path(home: Path) -> Path:
    return Path(home) / "mail" / "password"


def save_account(home: Path, account: MailAccount, password: str | None = None) -> Path:
    """Write the account (0600), and the password in its own 0600 file when given."""
    folder = Path(home) / "mail"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    path = account_path(home)
    write_atomic(path, (json.dumps(account.to_json(), indent=2) + "\n").encode(), 0o600)
    if password is not None:
        if "\n" in password or "\r" in password:
            raise TransportError("a password cannot contain a line break")
        write_atomic(secret_path(home), password.encode("utf-8"), 0o600)
    return path


def load_account(home: Path) -> MailAccount:
    path = account_path(home)
    if not path.exists():
        raise TransportError("no mail account set up: run 'pbem mail setup' first",
                             path=str(path))
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise TransportError(f"cannot read the mail account ({exc})", path=str(path)) from None
    return MailAccount.from_json(data, str(path))


def password_for(home: Path, account: MailAccount) -> str:
    """The password, from the environment, the account's command, or the secret file."""
    env = os.environ.get(PASSWORD_ENV)
    if env:
        return env
    if account.password_command:
        try:
            proc = subprocess.run(account.password_command, capture_output=True,
                                  encoding="utf-8", errors="strict",
                                  timeout=60, check=False, stdin=subprocess.DEVNULL)
        except OSError as exc:
            raise TransportError(f"password command {account.password_command[0]!r} could "
                                 f"not run ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise TransportError(f"password command {account.password_command[0]!r} printed "
                                 f"something that is not UTF-8 text") from None
        if proc.returncode != 0:
            # its stderr may say why; its stdout might hold a secret and is never shown
            raise TransportError(f"password command {account.password_command[0]!r} failed "
                                 f"with status {proc.returncode}: "
                                 f"{proc.stderr.strip()[:200]}")
        line = proc.stdout.splitlines()[0] if proc.stdout else ""
        if not line:
            raise TransportError(f"password command {account.password_command[0]!r} "
                                 f"printed nothing")
        return line
    path = secret_path(home)
    if not path.exists():
        raise TransportError(f"no mail password: set {PASSWORD_ENV}, or run 'pbem mail setup' "
                             f"again to store one", path=str(path))
    problem = private_file_problem(path)
    if problem:
        raise TransportError(f"the password file is not private: {problem}", path=str(path))
    return path.read_text("utf-8").rstrip("\r\n")
