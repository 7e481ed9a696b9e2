"""``pbem send``, ``resign``, ``draw``.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import (
    FILE,
    FOLDER,
    complete_game,
    console,
    echo,
    echo_err,
    handled,
    hold_option,
    home_of,
    note_written,
    sealed_note,
    write_out,
)
from pbem.errors import (
    NotYourTurn,
    UsageError,
)


@click.command("send")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--seq", type=int, help="Send an earlier file again, byte for byte.")
@click.option("-o", "output", type=FILE)
@click.option("--armor", "armored", is_flag=True, help="Write the armored text form.")
@click.option("--folder", type=FOLDER,
              help="Deliver into a shared folder (Dropbox, Syncthing, a network drive).")
@click.option("--eml", type=FILE,
              help="Write an email message for your own mail client.")
@click.option("--email", "by_email", is_flag=True, help="Send by SMTP (pbem mail setup).")
@click.option("--to", "to", help="The recipient's address (needed for an invite).")
@click.pass_context
def send_cmd(ctx: click.Context, game_ref: str, seq: int | None, output: Path | None,
             armored: bool, folder: Path | None, eml: Path | None, by_email: bool,
             to: str | None) -> None:
    """Deliver your sealed file (or --seq N) by its route, to a file, folder or mail."""
    with handled():
        game = home_of(ctx).game(game_ref)
        number, data = game.file(seq)
        if seq is None and number == 0 and game.opponent() is None and output is not None:
            # the invite under a name the user chose for a turn ('turn2.pbem') misleads
            # whoever receives it; the invite goes out only when asked for by --seq 0
            raise NotYourTurn(
                f"{game.name} holds only the invite (file 0): your opponent has not joined "
                f"yet, so there is no turn to send and nothing was written to {output}. "
                f"Send them the invite: pbem send {game.name} --seq 0 -o FILE (or --email "
                f"--to ADDRESS); or, once they have joined, receive their reply: pbem "
                "receive FILE")
        if seq is None and game.has_pen():
            # the next file is ours to write: the latest sealed one went out already
            echo_err(f"pbem: note: it is your move in {game.name} ({game.awaiting()}); this "
                     f"sends again your file {number}, already sealed (the one your opponent "
                     "answered); your next file is written by acting: pbem play "
                     f"{game.name}")
        if folder or eml or by_email:
            from pbem.transport import cli as transport_cli

            transport_cli.deliver(game, number, data, folder=folder, eml=eml,
                                  by_email=by_email, to=to, console=console)
            return
        if output is None:
            from pbem.transport.route import deliver_file, route_of

            route = route_of(game.home.path, game.game_id)
            if route is not None:
                # the game's route: the same road 'play' and 'watch' use (issue 32 item 1)
                echo(deliver_file(game, number, data, route).line)
                return
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, number, game.side))
        write_out(path, data, armored)
        note_written(game, number, path)
        echo(f"file {number} of {game.name} written to {path}")


@click.command("resign")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@hold_option
@click.pass_context
def resign_cmd(ctx: click.Context, game_ref: str, yes: bool, hold: bool) -> None:
    """Resign the game (signed; the file goes to your opponent)."""
    with handled():
        home_of(ctx).hold = hold
        game = home_of(ctx).game(game_ref)
        if not yes and not click.confirm(f"Resign {game.name}?"):
            raise UsageError("not resigned")
        seq = game.resign()
        echo(f"you resigned {game.name}")
        sealed_note(game, seq)


@click.command("draw")
@click.argument("game_ref", shell_complete=complete_game)
@hold_option
@click.pass_context
def draw_cmd(ctx: click.Context, game_ref: str, hold: bool) -> None:
    """Offer a draw with your next file, or accept the opponent's offer."""
    with handled():
        home_of(ctx).hold = hold
        game = home_of(ctx).game(game_ref)
        what, seq = game.draw()
        if what == "accepted":
            echo(f"draw accepted: {game.name} is drawn")
            assert seq is not None
            sealed_note(game, seq)
        else:
            echo("draw offered: it goes with your next file")
