"""``pbem id``: your identity and your correspondents' cards.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from pbem.cli import (
    EXISTING_FILE,
    FILE,
    echo,
    handled,
    home_of,
    read_incoming_file,
    refuse_name_conflict,
    write_out,
)
from pbem.errors import (
    FormatError,
    PbemError,
    UsageError,
)


@click.group("id")
def id_group() -> None:
    """Your identity (an Ed25519 key) and your correspondents' public cards."""


@id_group.command("new")
@click.argument("name")
@click.option("--email", default="", help="Shown on your card.")
@click.option("--passphrase/--no-passphrase", default=False,
              help="Protect the key with a passphrase (prompted, or PBEM_PASSPHRASE).")
@click.pass_context
def id_new(ctx: click.Context, name: str, email: str, passphrase: bool) -> None:
    """Create your identity."""
    with handled():
        home = home_of(ctx)
        secret = None
        if passphrase:
            env = os.environ.get("PBEM_PASSPHRASE")
            secret = env.encode() if env is not None else str(click.prompt(
                "New passphrase", hide_input=True, confirmation_prompt=True)).encode()
        identity = home.keys.create(name, email, secret)
        echo(f"identity {identity.card.name} created in {home.path}")
        echo(f"fingerprint: {identity.card.fingerprint}")


@id_group.command("show")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def id_show(ctx: click.Context, as_json: bool) -> None:
    """Your name, email and fingerprint (read it aloud to your opponent)."""
    with handled():
        home = home_of(ctx)
        card = home.card()
        if as_json:
            click.echo(json.dumps({"name": card.name, "email": card.email,
                                   "key": card.key.hex(), "fingerprint": card.fingerprint}))
            return
        # where the key and games are: the folder differs on each platform
        echo(f"{card.who}\nfingerprint: {card.fingerprint}\nhome: {home.path}")


@id_group.command("export")
@click.option("-o", "output", type=FILE)
@click.pass_context
def id_export(ctx: click.Context, output: Path | None) -> None:
    """Your public card, signed, as armored text (stdout or -o FILE)."""
    from pbem.armor import armor
    from pbem.envelope import seal

    with handled():
        identity = home_of(ctx).identity()
        text = armor(seal(identity, "card", {"card": identity.card.to_data()}))
        if output:
            write_out(output, text.encode(), armored=False)
            echo(f"card written to {output}")
        else:
            click.echo(text, nl=False)


@id_group.command("import")
@click.argument("card_file", type=EXISTING_FILE)
@click.option("--yes", is_flag=True, help="Pin without asking (you compared the fingerprint).")
@click.pass_context
def id_import(ctx: click.Context, card_file: Path, yes: bool) -> None:
    """Pin a correspondent's card after comparing its fingerprint."""
    from pbem.armor import read_any
    from pbem.envelope import open_envelope
    from pbem.identity import Card

    with handled():
        try:
            env = open_envelope(read_any(read_incoming_file(card_file)), kinds=("card",))
            card = Card.from_data(env.decode()["card"])
        except FormatError as exc:
            # a card is not a turn file: it is asked for again another way, and its cause
            # (a text encoding a Windows tool chose, say) is what the player can act on
            worded = FormatError(f"not a readable pbem card ({exc}); ask for it again: "
                                 "they run 'pbem id export -o FILE'", path=str(card_file))
            worded.worded = True  # type: ignore[attr-defined]
            raise worded from None
        except PbemError as exc:
            raise type(exc)(str(exc), path=str(card_file)) from None
        except KeyError:
            raise UsageError(f"{card_file}: not a pbem card") from None
        if card.key != env.key:
            raise UsageError(f"{card_file}: the card is not signed by its own key")
        home = home_of(ctx)
        if home.keys.contact(card.fingerprint) is None:
            refuse_name_conflict(home, card, f"the card {card_file}")
        echo(f"{card.who}\nfingerprint: {card.fingerprint}")
        if not yes and not _confirmed("Does this fingerprint match what they told you?"):
            raise UsageError("not pinned")
        home_of(ctx).keys.pin_contact(card)
        echo(f"pinned {card.name}")


def _confirmed(question: str) -> bool:
    """click turns an empty standard input into the same Abort as Ctrl-C; a script or a
    pipe that gave no answer is told how to confirm, not that it was interrupted."""
    try:
        return bool(click.confirm(question))
    except click.exceptions.Abort:
        if sys.stdin.isatty():
            raise
        raise UsageError("no answer on standard input: compare the fingerprint, then run "
                         "again with --yes once it matches") from None


@id_group.command("contacts")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def id_contacts(ctx: click.Context, as_json: bool) -> None:
    """The correspondents whose keys you have pinned."""
    with handled():
        cards = home_of(ctx).keys.contacts()
        if as_json:
            click.echo(json.dumps([{"name": c.name, "email": c.email,
                                    "fingerprint": c.fingerprint} for c in cards], indent=2))
            return
        for card in cards:
            echo(f"{card.who}  {card.fingerprint}")
        if not cards:
            echo("no contacts pinned yet")


@id_group.command("forget")
@click.argument("who")
@click.pass_context
def id_forget(ctx: click.Context, who: str) -> None:
    """Unpin a correspondent (by name or fingerprint), e.g. after they changed keys."""
    with handled():
        keys = home_of(ctx).keys
        if keys.contact(who) is None:  # a wrong name, like an unknown game: status 2
            raise UsageError(f"no correspondent {who!r} is pinned ('pbem id contacts' lists "
                             "them)")
        card = keys.unpin_contact(who)
        echo(f"forgot {card.name} ({card.fingerprint})")
