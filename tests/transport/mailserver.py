"""Real mail servers on loopback for the transport tests: Postfix (SMTP) and Dovecot (IMAP).

Nothing here is a mock.  At session start the fixture makes a throwaway directory, a
self-signed certificate, a private Postfix instance (``postfix -c DIR``) that listens on
127.0.0.1 only, on two free ports (submission with STARTTLS and implicit TLS, both with
SASL login through Dovecot), and delivers the virtual domain ``pbem.test`` to Maildirs; and
a private Dovecot instance (``dovecot -c FILE``) serving those Maildirs over IMAPS with
passwd-file accounts.  Both run as root-started daemons and are stopped at the end.

The packages come from Debian (``.ci/install-mail.sh``); when they are missing the
fixture fails, it never skips.
"""

from __future__ import annotations

import imaplib
import os
import shutil
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "pbem.test"
POSTFIX_DAEMONS = Path("/usr/lib/postfix/sbin")
# absolute paths: a CI shell's PATH may lack /usr/sbin
POSTFIX = shutil.which("postfix") or "/usr/sbin/postfix"
DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
DOVEADM = shutil.which("doveadm") or "/usr/bin/doveadm"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
VMAIL_UID = 65534  # nobody: owns the Maildirs, for both Postfix's virtual agent and Dovecot
VMAIL_GID = 65534


class MailServerError(RuntimeError):
    """The servers could not be started; the message says what to do."""


@dataclass(frozen=True)
class Account:
    user: str
    address: str
    password: str


@dataclass
class MailServers:
    root: Path
    host: str = "127.0.0.1"
    submission_port: int = 0  # STARTTLS, login required
    smtps_port: int = 0  # implicit TLS, login required
    imaps_port: int = 0
    imap_port: int = 0  # IMAP with STARTTLS required before login
    cleartext_port: int = 0  # SMTP that offers no TLS at all: a client must refuse to log in
    accounts: dict[str, Account] = field(default_factory=dict)
    _started: list[str] = field(default_factory=list)

    @property
    def ca_file(self) -> Path:
        return self.root / "tls" / "cert.pem"

    @property
    def postfix_dir(self) -> Path:
        return self.root / "postfix"

    @property
    def dovecot_conf(self) -> Path:
        return self.root / "dovecot" / "dovecot.conf"

    def maildir(self, user: str) -> Path:
        return self.root / "mail" / DOMAIN / user

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca_file))

    # --- setup ---------------------------------------------------------------------------

    def start(self) -> None:
        missing = [Path(path).name for path in (POSTFIX, DOVECOT, DOVEADM, OPENSSL)
                   if not Path(path).exists()]
        if missing or not (POSTFIX_DAEMONS / "master").exists():
            raise MailServerError(
                f"mail servers not installed ({', '.join(missing) or 'postfix daemons'} missing): "
                "run `bash .ci/install-mail.sh` (as root) first")
        if os.geteuid() != 0:
            raise MailServerError("the mail server fixtures start Postfix and Dovecot and must "
                                  "run as root")
        self.root.chmod(0o755)
        (self.submission_port, self.smtps_port, self.imaps_port, self.imap_port,
         self.cleartext_port) = _free_ports(5)
        for user in ("alice", "bob", "carol"):
            password = f"pw-{user}-{os.urandom(6).hex()}"
            self.accounts[user] = Account(user, f"{user}@{DOMAIN}", password)
        self._make_cert()
        self._make_maildirs()
        self._write_dovecot()
        self._write_postfix()
        self._run([DOVECOT, "-c", str(self.dovecot_conf)], "dovecot")
        self._started.append("dovecot")
        self._run([POSTFIX, "-c", str(self.postfix_dir), "start"], "postfix")
        self._started.append("postfix")
        self._wait_ready()

    def stop(self) -> None:
        if "postfix" in self._started:
            subprocess.run([POSTFIX, "-c", str(self.postfix_dir), "stop"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False, timeout=60)
        if "dovecot" in self._started:
            subprocess.run([DOVEADM, "-c", str(self.dovecot_conf), "stop"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False, timeout=60)
        self._started.clear()
        # wait for the master processes to go, so the next session can bind the ports
        pids = [_pid(self.postfix_dir / "queue" / "pid" / "master.pid"),
                _pid(self.root / "dovecot" / "run" / "master.pid")]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in pids):
            time.sleep(0.05)

    def _run(self, argv: list[str], what: str) -> None:
        # The daemons inherit stdout and stderr: give them a file, never a pipe, or the
        # call would wait for the daemon to exit.
        out_path = self.root / f"{what}.out"
        with out_path.open("ab") as out:
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                  check=False, timeout=120)
        if proc.returncode != 0:
            raise MailServerError(f"{what} failed to start: "
                                  f"{out_path.read_text('utf-8', 'replace').strip()}\n"
                                  f"{self.logs()}")

    def logs(self) -> str:
        out = []
        for path in (self.root / "postfix" / "maillog", self.root / "dovecot" / "dovecot.log",
                     self.root / "postfix.out", self.root / "dovecot.out"):
            if path.exists():
                out.append(f"--- {path}\n" + path.read_text("utf-8", "replace")[-4000:])
        return "\n".join(out)

    def _make_cert(self) -> None:
        tls = self.root / "tls"
        tls.mkdir()
        subprocess.run(
            [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-days", "2", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", str(tls / "key.pem"), "-out", str(tls / "cert.pem")],
            check=True, capture_output=True, timeout=60)
        (tls / "key.pem").chmod(0o600)

    def _make_maildirs(self) -> None:
        base = self.root / "mail"
        for account in self.accounts.values():
            for sub in ("cur", "new", "tmp"):
                (self.maildir(account.user) / sub).mkdir(parents=True, exist_ok=True)
        for dirpath, _dirs, _files in os.walk(base):
            os.chown(dirpath, VMAIL_UID, VMAIL_GID)
            os.chmod(dirpath, 0o700)
        os.chmod(base, 0o755)

    def _write_dovecot(self) -> None:
        d = self.root / "dovecot"
        (d / "run").mkdir(parents=True)
        (d / "state").mkdir()
        d.chmod(0o755)
        users = "".join(
            f"{a.address}:{{PLAIN}}{a.password}:{VMAIL_UID}:{VMAIL_GID}::{self.maildir(a.user)}::\n"
            for a in self.accounts.values())
        (d / "users").write_text(users, encoding="utf-8")
        (d / "users").chmod(0o640)
        shutil.chown(d / "users", "root", "dovecot")
        conf = f"""
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
info_log_path = {d}/dovecot.log
protocols = imap
listen = {self.host}
ssl = required
ssl_cert = <{self.root}/tls/cert.pem
ssl_key = <{self.root}/tls/key.pem
ssl_min_protocol = TLSv1.2
auth_mechanisms = plain login
disable_plaintext_auth = yes
# tests try wrong passwords on purpose: no failure delay, no penalty tracking
auth_failure_delay = 0
first_valid_uid = 100
mail_location = maildir:~
mail_privileged_group =
default_login_user = dovenull
default_internal_user = dovecot
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {d}/users
}}
service imap-login {{
  inet_listener imap {{
    address = {self.host}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = {self.host}
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service auth {{
  unix_listener auth-postfix {{
    mode = 0666
  }}
}}
protocol imap {{
  imap_capability = +IDLE
}}
"""
        self.dovecot_conf.write_text(conf, encoding="utf-8")

    def _write_postfix(self) -> None:
        p = self.postfix_dir
        (p / "queue").mkdir(parents=True)
        (p / "data").mkdir()
        shutil.chown(p / "data", "postfix", "postfix")
        mailboxes = "".join(f"{a.address} {DOMAIN}/{a.user}/\n" for a in self.accounts.values())
        (p / "vmailbox").write_text(mailboxes, encoding="utf-8")
        tls = self.root / "tls"
        auth = self.root / "dovecot" / "run" / "auth-postfix"
        main = f"""
compatibility_level = 3.6
config_directory = {p}
queue_directory = {p}/queue
data_directory = {p}/data
daemon_directory = {POSTFIX_DAEMONS}
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = {p}/maillog
maillog_file_prefixes = {self.root}
inet_interfaces = {self.host}
inet_protocols = ipv4
myhostname = mail.{DOMAIN}
mydomain = {DOMAIN}
myorigin = {DOMAIN}
mydestination =
mynetworks =
relayhost =
alias_maps =
alias_database =
local_recipient_maps =
biff = no
smtputf8_enable = no
smtpd_error_sleep_time = 0s
append_dot_mydomain = no
virtual_mailbox_domains = {DOMAIN}
virtual_mailbox_maps = texthash:{p}/vmailbox
virtual_mailbox_base = {self.root}/mail
virtual_uid_maps = static:{VMAIL_UID}
virtual_gid_maps = static:{VMAIL_GID}
virtual_minimum_uid = 100
message_size_limit = 52428800
virtual_mailbox_limit = 0
smtpd_tls_cert_file = {tls}/cert.pem
smtpd_tls_key_file = {tls}/key.pem
smtpd_tls_security_level = may
smtpd_tls_auth_only = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = {auth}
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
smtpd_recipient_restrictions = permit_sasl_authenticated, reject_unauth_destination
"""
        (p / "main.cf").write_text(main, encoding="utf-8")
        sub = ("  -o smtpd_sasl_auth_enable=yes\n"
               "  -o smtpd_client_restrictions=permit_sasl_authenticated,reject\n")
        master = f"""
{self.host}:{self.submission_port} inet n - n - - smtpd
  -o smtpd_tls_security_level=encrypt
{sub}{self.host}:{self.smtps_port} inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
{sub}{self.host}:{self.cleartext_port} inet n - n - - smtpd
  -o smtpd_tls_security_level=none
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
local unix - n n - - local
virtual unix - n n - - virtual
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
"""
        (p / "master.cf").write_text(master, encoding="utf-8")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                with smtplib.SMTP(self.host, self.submission_port, timeout=5) as smtp:
                    smtp.starttls(context=self.ssl_context())
                    a = self.accounts["alice"]
                    smtp.login(a.address, a.password)
                with imaplib.IMAP4_SSL(self.host, self.imaps_port,
                                       ssl_context=self.ssl_context(), timeout=5) as imap:
                    a = self.accounts["alice"]
                    imap.login(a.address, a.password)
                    imap.logout()
                return
            except (OSError, smtplib.SMTPException, imaplib.IMAP4.error) as exc:
                last = exc
                time.sleep(0.2)
        raise MailServerError(f"mail servers did not answer within 30 s: {last}\n{self.logs()}")


def _pid(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="utf-8").split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie (not yet reaped by its parent) counts as gone
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


def _free_ports(count: int) -> list[int]:
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def start_servers() -> MailServers:
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
    servers = MailServers(root)
    try:
        servers.start()
    except BaseException:
        servers.stop()
        raise
    return servers
