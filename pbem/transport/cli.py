"""The transport commands: ``pbem inbox``, ``watch``, ``fetch``, ``mail setup|show|test|send``,
and :func:`deliver`, which ``pbem send --folder/--eml/--email`` calls.

The main group (``pbem.cli``) attaches these with :func:`register`.  Everything here is
thin: it parses, calls :mod:`pbem.transport.folder` / :mod:`pbem.transport.mail`, and prints
one line per file.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from pbem.errors import PbemError, UsageError, import_status
from pbem.text import block, bound, safe
from pbem.transport import config as mailconfig
from pbem.transport.base import Outcome, Router, TransportError
from pbem.transport.folder import scan_folder, watch_folder
from pbem.transport.mail import fetch_imap
from pbem.transport.state import HandledState
from pbem.transport.telling import describe

__all__ = ["deliver", "describe", "register"]


def deliver(game: Any, number: int, data: bytes, *, folder: Path | None = None,
            eml: Path | None = None, by_email: bool = False, to: str | None = None,
            console: Any = None) -> list[str]:
    """Deliver file ``number`` of ``game`` by the ways asked (``pbem send --folder``,
    ``--eml``, ``--email``); returns one line per way.  Each way is a registered
    transport (:mod:`pbem.transport.plugins`) and each delivery is recorded by
    :func:`pbem.transport.route.deliver_file`, as a route's is.

    ``to`` overrides the recipient (needed for an invite: the opponent is not known yet).
    """
    from pbem.transport.route import Route, deliver_file

    ways = [Route(kind, str(where)) for kind, where in (
        ("folder", folder), ("eml", eml), ("mail", to or "" if by_email else None))
        if where is not None]
    done = [deliver_file(game, number, data, way).line for way in ways]
    if console is not None:
        for line in done:
            console.print(line, markup=False)
    return done


# --- showing outcomes --------------------------------------------------------------------------


def _confirm_with(yes: bool, home: Any = None) -> Any:
    def confirm(info: Any, card: Any) -> bool:
        if yes:
            return True
        if home is not None and card is not None and any(
                old.name == card.name and old.key != card.key for old in home.keys.contacts()):
            return True  # no question: pinning refuses the name's new key, and says so
        if not sys.stdin.isatty():
            return False
        from pbem.identity import fingerprint

        who = card.who if card is not None else "the joiner"
        return click.confirm(f"{who} joined with fingerprint {fingerprint(info.signer)}. "
                             f"Does it match what they told you?", default=False)
    return confirm


def _show(outcomes: list[Outcome], home: Any, as_json: bool, *, folder: Path | None = None,
          reply: bool = False, shown: dict[str, Any] | None = None) -> None:
    """Print what the outcomes did.  ``shown`` (the home's record of notes already said)
    makes each note said once: a waiting invitation is not announced at every run, and
    a new home's own files are one line per game, not one per file (issue 23 item 5)."""
    from pbem import cli as core

    if as_json:
        click.echo(json.dumps([_json_outcome(o) for o in outcomes], indent=2))
        return
    own: dict[str, int] = {}
    had: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.status == "own" and shown is not None and outcome.info is not None:
            short = outcome.info.game_id.hex()[:12]
            own[short] = own.get(short, 0) + 1
            continue
        if outcome.status == "duplicate" and shown is not None and outcome.info is not None \
                and outcome.info.kind != "invite" and "conflict copy" not in outcome.note \
                and not outcome.reminder:
            # files this home has already (by 'pbem receive', say): one line a game,
            # not one a file (issue 33)
            short = outcome.info.game_id.hex()[:12]
            had[short] = had.get(short, 0) + 1
            continue
        # notes and messages quote files and mail: no terminal control reaches the screen
        if outcome.status != "imported":
            # a note is said once; an error that makes the command fail is said each time
            if shown is not None and not outcome.exit_code:
                if shown.get(outcome.source) == outcome.note:
                    continue
                shown[outcome.source] = outcome.note
            plain = core.plain_refusal(outcome.source, outcome.exit_code, outcome.cause)
            core.errors.print(f"pbem: {'error' if outcome.exit_code else 'note'}: "
                              f"{plain or safe(bound(outcome.note, 2000))}", markup=False)
            continue
        core.console.print(safe(bound(outcome.note, 2000)), markup=False)
        report = outcome.report
        if report is None or not hasattr(report, "game_name"):
            continue
        message = getattr(report, "message", "")
        if message:
            core.console.print(f"  message from your opponent: {block(message)}",
                               markup=False)
        try:
            game = home.game(report.game_name)
        except PbemError:
            continue
        core.print_events(list(getattr(report, "events", [])),
                           list(getattr(report, "rolls", [])), game.side)
        sealed = getattr(report, "sealed", None)
        if sealed is not None and (game.game_id, sealed) in home.deliveries:
            core.sealed_note(game, sealed)  # the game's route took it (or held it back)
        elif sealed is not None and folder is not None and not reply:
            # sealed by the import itself: say how it leaves, or it never does
            core.console.print(f"sealed file {sealed} of {game.name}: {game.awaiting()}",
                               markup=False)
            core.console.print(f"  send it with: pbem send {game.name} --folder {folder}",
                               markup=False)
        elif sealed is not None and not reply:
            core.sealed_note(game, sealed)
        elif sealed is None:
            core.console.print(f"  {game.awaiting()}", markup=False)
    for short, count in sorted(own.items()):
        core.errors.print(f"pbem: note: {count} of your own files of game {short} in the "
                          f"folder; left alone", markup=False)
    for short, count in sorted(had.items()):
        core.errors.print(f"pbem: note: {count} files of game {short} in the folder are "
                          f"already in this home (imported before); left alone", markup=False)


def _json_outcome(o: Outcome) -> dict[str, Any]:
    return {"source": o.source, "status": o.status, "note": o.note,
            "game": o.info.game_id.hex() if o.info else None,
            "seq": o.info.seq if o.info else None, "side": o.info.side if o.info else None,
            "kind": o.info.kind if o.info else None, "exit_code": o.exit_code,
            "cause": o.cause}


def _reply_to_folder(outcomes: list[Outcome], home: Any, folder: Path | None = None, *,
                     by_email: bool = False) -> None:
    """After an import made the local side seal at once (sealed dice finalized, or nothing
    left to decide), send that file back the way asked: into the folder, or by mail."""
    from pbem import cli as core

    for outcome in outcomes:
        sealed = getattr(outcome.report, "sealed", None)
        name = getattr(outcome.report, "game_name", None)
        if sealed is None or name is None:
            continue
        game = home.game(name)
        if (game.game_id, sealed) in home.deliveries:
            continue  # the game's route took it at the seal: once is enough
        number, data = game.file(sealed)
        lines = deliver(game, number, data, folder=folder, by_email=by_email)
        for line in lines:
            core.console.print(f"  {line}", markup=False)


def _send_owed(home: Any, folder: Path) -> None:
    """Before a ``--reply`` watch or inbox: a game played through this folder whose latest
    sealed file is not in it (sealed by a plain ``inbox``, or deleted from the folder) gets
    it written now; otherwise both sides would wait for each other (issue 23 item 3)."""
    from pbem import cli as core
    from pbem.envelope import file_name

    try:
        names = set(os.listdir(folder))
    except OSError:
        return  # the scan that follows names the folder's problem
    for status in home.statuses():
        sealed = status.get("last_sealed")
        prefix = status["game_id"][:12] + "-"
        if not isinstance(sealed, int) or not any(n.startswith(prefix) for n in names):
            continue
        if file_name(bytes.fromhex(status["game_id"]), sealed, status["side"]) in names:
            continue
        try:
            game = home.game(status["name"])
            number, data = game.file(sealed)
            for line in deliver(game, number, data, folder=folder):
                core.console.print(f"sent what was owed: {line}", markup=False)
        except PbemError as exc:
            core.errors.print(f"pbem: note: {status['name']}: file {sealed} is owed but "
                              f"could not be sent ({exc})", markup=False)


# --- commands ----------------------------------------------------------------------------------


@click.command("inbox")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Confirm first-contact fingerprints without asking.")
@click.option("--reply", is_flag=True,
              help="Put a file sealed at once by an import into the folder too.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def inbox_cmd(ctx: click.Context, directory: Path, yes: bool, reply: bool, as_json: bool) -> None:
    """Import every new file for your games from a shared folder (once)."""
    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        core.unlock(home)
        router = Router.for_home(home, confirm=_confirm_with(yes, home))
        state = HandledState.of_home(home.path)
        if reply:
            _send_owed(home, directory)
        outcomes = scan_folder(directory, router, state, save=False)
        _show(outcomes, home, as_json, folder=directory, reply=reply,
              shown=state.section("notes"))
        state.save()
        if reply:
            _reply_to_folder(outcomes, home, directory)
        if not outcomes and not as_json:
            core.console.print(f"nothing new in {directory}", markup=False)
    # a refused file is a failure, with its error's exit status (pbem --help lists them)
    sys.exit(import_status(sum(o.status == "imported" for o in outcomes),
                           (o.exit_code for o in outcomes)))


@click.command("watch")
@click.argument("directory", required=False,
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--interval", type=click.FloatRange(0.05, 3600), default=2.0, show_default=True,
              help="Seconds between two looks at the folders and mailboxes.")
@click.option("--for", "duration", type=click.FloatRange(0), default=None,
              help="Stop after this many seconds (default: run until interrupted).")
@click.option("--yes", is_flag=True, help="Confirm first-contact fingerprints without asking.")
@click.option("--reply", is_flag=True,
              help="With DIRECTORY: put a file sealed at once by an import into it too.")
@click.option("--max-backoff", type=click.FloatRange(0.05, 86400), default=300.0,
              show_default=True,
              help="Longest wait, in seconds, before trying an unreachable place again.")
@click.option("--mail-interval", type=click.FloatRange(0.05, 86400), default=60.0,
              show_default=True,
              help="Seconds between two looks at the mailbox (a provider counts logins).")
@click.option("--notify/--no-notify", default=True, show_default=True,
              help="Desktop notifications, where the optional desktop-notifier package "
                   "is installed.")
@click.pass_context
def watch_cmd(ctx: click.Context, directory: Path | None, interval: float,
              duration: float | None, yes: bool, reply: bool, max_backoff: float,
              mail_interval: float, notify: bool) -> None:
    """Follow every game's route (folders and mailboxes), import, send what is owed.

    With DIRECTORY, watch that one folder only, as before routes existed."""
    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        core.unlock(home)
        end = None if duration is None else time.monotonic() + duration
        stop = None if end is None else (lambda: time.monotonic() >= end)
        if directory is None:
            _watch_routes(home, interval=interval, max_backoff=max_backoff, yes=yes,
                          notify=notify, stop=stop, mail_interval=mail_interval)
            return
        router = Router.for_home(home, confirm=_confirm_with(yes, home))
        core.errors.print(f"watching {directory} every {interval:g} s (Ctrl-C to stop)",
                          markup=False)

        if reply:
            _send_owed(home, directory)

        def show(outcome: Outcome) -> None:
            _show([outcome], home, False, folder=directory, reply=reply)
            if reply:
                _reply_to_folder([outcome], home, directory)

        try:
            watch_folder(directory, router, HandledState.of_home(home.path), show,
                         interval=interval, stop=stop)
        except KeyboardInterrupt:
            core.errors.print("stopped", markup=False)


def _watch_routes(home: Any, *, interval: float, max_backoff: float, yes: bool,
                  notify: bool, stop: Any, mail_interval: float) -> None:
    """``pbem watch`` with no folder: every game's route (issue 32 item 4)."""
    from pbem import cli as core
    from pbem.transport.route import routes
    from pbem.transport.watcher import Watcher, desktop_notifier

    def say(line: str) -> None:
        core.console.print(safe(bound(line, 2000)), markup=False)

    notes: dict[str, str] = {}

    def show(outcomes: list[Outcome]) -> None:
        # a note is said once while it stays the same; the record of notes holds only
        # what the last look said, so it stays small however long the watch runs
        # a shared folder holds this home's own files and the invitations it answered:
        # nothing to say about them at every look
        # a reminder is a duplicate said all the same: it is why the file came again
        fresh = [o for o in outcomes if o.status == "imported" or (
            (o.reminder or o.status not in ("own", "duplicate"))
            and notes.get(o.source) != o.note)]
        for o in outcomes:
            notes.pop(o.source, None)
            notes[o.source] = o.note
        while len(notes) > 1000:  # the oldest go first: at worst a note is said again
            del notes[next(iter(notes))]
        _show(fresh, home, False)

    watcher = Watcher(home, say=say, show=show,
                      notify=desktop_notifier() if notify else None,
                      confirm=_confirm_with(yes, home), interval=interval,
                      max_backoff=max_backoff, mail_interval=mail_interval)
    if not routes(home.path):
        core.errors.print("pbem: note: no game has a route yet: give one with 'pbem route "
                          "GAME --folder DIR' (or --email), or start games with 'pbem new "
                          "... --folder DIR'; watching for one", markup=False)
    core.errors.print(f"watching every game's route every {interval:g} s (Ctrl-C to stop)",
                      markup=False)
    try:
        watcher.run(stop)
    except KeyboardInterrupt:
        core.errors.print("stopped", markup=False)


@click.command("fetch")
@click.option("--mailbox", help="IMAP folder to read (default: the account's, INBOX).")
@click.option("--all", "every_message", is_flag=True,
              help="Look into every message not yet handled, not only pbem-looking ones.")
@click.option("--yes", is_flag=True, help="Confirm first-contact fingerprints without asking.")
@click.option("--reply", is_flag=True,
              help="Mail back a file an import sealed at once (e.g. sealed dice finalized).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def fetch_cmd(ctx: click.Context, mailbox: str | None, every_message: bool, yes: bool,
              reply: bool, as_json: bool) -> None:
    """Import turn files for your games from new mail (IMAP over TLS)."""
    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        core.unlock(home)
        account = mailconfig.load_account(home.path)
        router = Router.for_home(home, confirm=_confirm_with(yes, home))
        report = fetch_imap(account, mailconfig.password_for(home.path, account), router,
                            HandledState.of_home(home.path), mailbox_name=mailbox,
                            every_message=every_message)
        _show(report.outcomes, home, as_json)
        if reply:
            _reply_to_folder(report.outcomes, home, by_email=True)
        if not as_json:
            core.errors.print(f"fetched {account.address}: {report.handled} messages handled, "
                              f"{len(report.outcomes)} files looked at", markup=False)
    sys.exit(import_status(sum(o.status == "imported" for o in report.outcomes),
                           (o.exit_code for o in report.outcomes)))


@click.group("mail")
def mail_group() -> None:
    """Your mail account for 'pbem send --email' and 'pbem fetch'."""


@mail_group.command("setup")
@click.option("--provider", type=click.Choice(sorted(mailconfig.PROVIDERS)),
              help="Fill in servers and ports for a common provider.")
@click.option("--address", required=True, help="Your email address.")
@click.option("--username", default="", help="Login name, if not the address.")
@click.option("--smtp-host")
@click.option("--smtp-port", type=int)
@click.option("--smtp-security", type=click.Choice(mailconfig.SECURITY))
@click.option("--imap-host")
@click.option("--imap-port", type=int)
@click.option("--imap-security", type=click.Choice(mailconfig.SECURITY))
@click.option("--mailbox", default="INBOX", show_default=True)
@click.option("--ca-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Trust this CA bundle (a self-hosted server).")
@click.option("--password-command", default="",
              help="A command that prints the password (a password manager).")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--no-password", is_flag=True,
              help=f"Store none: it comes from {mailconfig.PASSWORD_ENV} or the command.")
@click.pass_context
def mail_setup_cmd(ctx: click.Context, provider: str | None, address: str, username: str,
                   smtp_host: str | None, smtp_port: int | None, smtp_security: str | None,
                   imap_host: str | None, imap_port: int | None, imap_security: str | None,
                   mailbox: str, ca_file: str | None, password_command: str, password_stdin: bool,
                   no_password: bool) -> None:
    """Configure the mail account once; the password is kept apart (0600), never in saves."""
    import shlex

    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        preset: dict[str, Any] = dict(mailconfig.PROVIDERS.get(provider or "", {}))
        given = {"smtp_host": smtp_host, "smtp_port": smtp_port, "smtp_security": smtp_security,
                 "imap_host": imap_host, "imap_port": imap_port, "imap_security": imap_security}
        preset.update({k: v for k, v in given.items() if v is not None})
        for needed in ("smtp_host", "imap_host"):
            if needed not in preset:
                raise UsageError(f"give --{needed.replace('_', '-')} or --provider")
        account = mailconfig.MailAccount(
            address=address, username=username, mailbox=mailbox,
            ca_file=str(Path(ca_file).resolve()) if ca_file else "",
            password_command=shlex.split(password_command), **preset)
        password: str | None = None
        if password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
            if not password:
                raise UsageError("no password on standard input")
        elif not (no_password or password_command or os.environ.get(mailconfig.PASSWORD_ENV)):
            if not sys.stdin.isatty():
                raise UsageError("give --password-stdin, --password-command or --no-password "
                                 "(no terminal to ask in)")
            password = str(click.prompt("Mail password (an app password)", hide_input=True))
        path = mailconfig.save_account(home.path, account, password)
        core.console.print(f"mail account {account.address} saved in {path}", markup=False)
        core.console.print(f"  SMTP {account.smtp_host}:{account.smtp_port} "
                           f"({account.smtp_security}), IMAP {account.imap_host}:"
                           f"{account.imap_port} ({account.imap_security})", markup=False)


@mail_group.command("show")
@click.pass_context
def mail_show_cmd(ctx: click.Context) -> None:
    """The account (never the password), and where the password comes from."""
    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        account = mailconfig.load_account(home.path)
        click.echo(json.dumps(account.to_json(), indent=2))
        if os.environ.get(mailconfig.PASSWORD_ENV):
            source = f"environment variable {mailconfig.PASSWORD_ENV}"
        elif account.password_command:
            source = f"command {account.password_command[0]}"
        elif mailconfig.secret_path(home.path).exists():
            source = f"file {mailconfig.secret_path(home.path)}"
        else:
            source = "none set"
        click.echo(f"password: {source}")


@mail_group.command("test")
@click.pass_context
def mail_test_cmd(ctx: click.Context) -> None:
    """Log in to the SMTP and IMAP servers (sends nothing, imports nothing)."""
    import imaplib
    import smtplib

    from pbem import cli as core

    with core.handled():
        home = core.home_of(ctx)
        account = mailconfig.load_account(home.path)
        password = mailconfig.password_for(home.path, account)
        try:
            if account.smtp_security == "tls":
                smtp: smtplib.SMTP = smtplib.SMTP_SSL(account.smtp_host, account.smtp_port,
                                                      timeout=30, context=account.ssl_context())
            else:
                smtp = smtplib.SMTP(account.smtp_host, account.smtp_port, timeout=30)
                smtp.starttls(context=account.ssl_context())
            smtp.login(account.login, password)
            smtp.quit()
        except (smtplib.SMTPException, OSError) as exc:
            raise TransportError(f"SMTP {account.smtp_host}:{account.smtp_port}: "
                                 f"{' '.join(str(exc).split())}") from None
        core.console.print(f"SMTP {account.smtp_host}:{account.smtp_port}: login ok",
                           markup=False)
        from pbem.transport.mail import imap_connect

        try:
            conn = imap_connect(account, 30)
            conn.login(account.login, password)
            conn.logout()
        except (imaplib.IMAP4.error, OSError) as exc:
            raise TransportError(f"IMAP {account.imap_host}:{account.imap_port}: "
                                 f"{' '.join(str(exc).split())}") from None
        core.console.print(f"IMAP {account.imap_host}:{account.imap_port}: login ok",
                           markup=False)


@mail_group.command("send")
@click.argument("game_ref")
@click.option("--to", "to", required=True, help="Recipient address (an invite needs one).")
@click.option("--seq", type=int, help="Send an earlier file again, byte for byte.")
@click.pass_context
def mail_send_cmd(ctx: click.Context, game_ref: str, to: str, seq: int | None) -> None:
    """Mail your sealed file (or file --seq N) to an address you name."""
    from pbem import cli as core

    with core.handled():
        game = core.home_of(ctx).game(game_ref)
        number, data = game.file(seq)
        deliver(game, number, data, by_email=True, to=to, console=core.console)


def register(group: click.Group) -> None:
    """Attach the transport commands to the main ``pbem`` group."""
    for command in (inbox_cmd, watch_cmd, fetch_cmd, mail_group):
        group.add_command(command)

