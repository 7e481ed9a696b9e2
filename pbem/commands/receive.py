"""``pbem receive``: importing turn files.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli import (
    EXISTING,
    collector_paused,
    confirm_first_contact,
    echo,
    echo_err,
    handled,
    hold_option,
    home_of,
    player_words,
    print_events,
    read_incoming_file,
    sealed_note,
    unlock,
)
from pbem.errors import (
    ChainError,
    DuplicateFile,
    PbemError,
    import_status,
)
from pbem.text import block, bound, safe


def _plainly_pbem(path: Path) -> bool:
    """A regular file that starts as a pbem file does (binary, or the armor's first line)
    and is not named as mail: the test pbem.transport.mail makes first."""
    if path.suffix.lower() in (".eml", ".msg", ".mbox", ".mbx") or not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return head[:1] == b"\x96" or head.lstrip().startswith(b"-----BEGIN PBEM FILE-----")


def read_incoming(path: Path) -> list[tuple[str, bytes]]:
    """Files in PATH: a .pbem (binary or armored), or mail (.eml, mbox, Maildir) when the
    mail transport is installed."""
    from pbem.readfile import check_kind

    if _plainly_pbem(path):
        # what mail.files_from_path would say too (not mail), without importing the mail
        # stack, about a seventh of a receive (issue 19)
        check_kind(path)
        return [(str(path), read_incoming_file(path))]
    try:
        from pbem.transport import mail
    except ImportError:  # the transport package is optional at this layer
        mail = None  # type: ignore[assignment]
    if not (mail is not None and path.is_dir() and mail.is_maildir(path)):
        check_kind(path)  # a folder, a FIFO, a device: named, never opened
    if mail is not None and hasattr(mail, "files_from_path"):
        found = mail.files_from_path(path)
        if found is not None:
            return list(found)
    return [(str(path), read_incoming_file(path))]


def screen_incoming(home: Any, path: Path, source: str, data: bytes, yes: bool) -> bool:
    """Before importing: an invite is for 'pbem join'; an accept is a first contact."""
    from pbem.envelope import binary_form, open_envelope
    from pbem.identity import Card

    try:
        env = open_envelope(binary_form(data))
        # a turn file's body is read by its import alone (issue 35: each strict decode of
        # a body is about 0.16 M instructions)
        body = env.decode() if env.kind in ("invite", "accept") else {}
    except PbemError:
        return True  # the import names the problem
    if env.kind == "invite" and env.key == home.card().key:
        # one's own invite: no "first contact", nothing to join (issue 33)
        echo_err(f"pbem: note: {source} is your own invite: your opponent joins it")
        return False
    if env.kind == "invite":
        creator = body.get("creator")
        name = creator.get("name") if isinstance(creator, dict) else None
        # anyone can sign an invite: its name is only quoted, bounded and escaped
        echo_err(f"pbem: note: {source} is an invite from "
                 f"{safe(bound(name, 80)) if isinstance(name, str) else '?'}: join it with "
                 f"'pbem join {path}'")
        return False
    if env.kind == "accept" and isinstance(body.get("joiner"), dict):
        try:
            card = Card.from_data(body["joiner"])
        except PbemError:
            return True  # the import names the problem
        if home.game_by_id(body.get("game", b"")) is not None:
            confirm_first_contact(home, card, f"the reply {source}", yes)
    return True


@click.command("receive")
@click.argument("files", nargs=-1, required=True,
                type=EXISTING)
@click.option("--yes", is_flag=True,
              help="Pin a new opponent's key without asking (you compared the fingerprint).")
@hold_option
@click.pass_context
@collector_paused
def receive_cmd(ctx: click.Context, files: tuple[Path, ...], yes: bool, hold: bool) -> None:
    """Verify and replay files from your opponent (no acting)."""
    home = None
    status = 0
    imported = 0
    with handled():
        home = home_of(ctx)
        home.hold = hold
        unlock(home)
    assert home is not None
    incoming: list[tuple[Path, str, bytes]] = []
    for path in files:
        try:
            found = read_incoming(path)
        except PbemError as exc:
            echo_err(f"pbem: error: {player_words(exc)}")
            status = status or exc.exit_code
            continue
        # every file is looked at: a stranger's file in an mbox must not keep the genuine
        # one out (issue 20 item 5)
        for source, data in found:
            try:
                if screen_incoming(home, path, source, data, yes):
                    incoming.append((path, source, data))
            except PbemError as exc:
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
    # earliest file of each game first, whatever the order on the command line; a file
    # that waits for an earlier one is tried again once that one is in
    waiting = by_sequence(incoming)
    while waiting:
        retry: list[tuple[Path, str, bytes]] = []
        failed: list[tuple[str, PbemError]] = []
        for path, source, data in waiting:
            try:
                report = home.receive(data, source)
            except DuplicateFile as exc:
                echo_err(f"pbem: note: {exc}")
                continue
            except ChainError as exc:
                if exc.reason == "missing":
                    retry.append((path, source, data))
                    failed.append((source, exc))
                    continue
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
                continue
            except PbemError as exc:
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
                continue
            imported += 1
            echo(report.text)
            if report.message:
                echo(f"  message from your opponent: {block(report.message)}")
            game = report.game or home.game(report.game_name)
            print_events(report.events, report.rolls, game.side)
            if report.sealed is not None:
                sealed_note(game, report.sealed)
            else:
                echo(f"  {game.awaiting()}")
        if len(retry) == len(waiting):
            for _, missing in failed:
                echo_err(f"pbem: error: {player_words(missing)}")
                status = status or missing.exit_code
            break
        waiting = retry
    sys.exit(import_status(imported, [status]))


def by_sequence(items: list[tuple[Path, str, bytes]]) -> list[tuple[Path, str, bytes]]:
    """Files in game and sequence order; a file that cannot be read keeps its place last
    (its import names the problem)."""
    from pbem.envelope import binary_form, peek

    if len(items) < 2:
        return items  # nothing to order: one file is not opened once more to sort it

    def key(item: tuple[Path, str, bytes]) -> tuple[int, bytes, int]:
        try:
            info = peek(binary_form(item[2]))
        except PbemError:
            return 1, b"", 0
        return 0, info.game_id, info.seq

    return sorted(items, key=key)  # stable: unreadable files keep their order
