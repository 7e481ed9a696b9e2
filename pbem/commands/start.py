"""``pbem new`` and ``pbem join``: starting a game.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli import (
    DEFAULT_CHAIN,
    EXISTING_FILE,
    FILE,
    complete_engine,
    complete_scenario,
    confirm_first_contact,
    echo,
    handled,
    home_of,
    note_written,
    parse_options,
    read_incoming_file,
    typed_names,
    unlock,
    write_out,
)
from pbem.commands.routing import route_given, route_options, send_by_route
from pbem.errors import UsageError
from pbem.transport import plugins
from pbem.transport.route import Route, proposal_for, set_route


@click.command("new")
@click.argument("engine_id", shell_complete=complete_engine)
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--side", required=True, help="The side you play.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE, repeatable.")
@click.option("--dice", "dice_mode", type=click.Choice(["open", "sealed"]), default="sealed",
              show_default=True,
              help="sealed: each roll is finalized by the opponent's next file and nobody "
                   "can foresee one; the opponent's 'pbem watch' sends the rolls-only "
                   "replies, seconds each (the guide, section 6).  open: a file's writer "
                   "resolves its rolls and could foresee them.")
@click.option("--chain-length", type=int, default=DEFAULT_CHAIN, show_default=True,
              help="Dice links per chain generation (2..100000); each side re-anchors "
                   "when its chain is used up.")
@click.option("--name", help="A name for the game (default: engine-scenario-id).")
@click.option("--pace", "pace_text", metavar="DURATION",
              help="The agreed time a side may take over a file (48h, 2d, 1w), signed in "
                   "the invite: status and list show who is overdue.")
@click.option("--remind", is_flag=True,
              help="With --pace: the invite agrees that 'pbem watch' reminds a late side "
                   "by itself (at most once per pace period).")
@click.option("-o", "output", type=FILE,
              help="Where to write the invite (default: in the current folder).")
@click.option("--armor", "armored", is_flag=True, help="Write the armored text form.")
@route_options
@click.pass_context
def new_cmd(ctx: click.Context, engine_id: str, scenario: str, side: str,
            options: tuple[str, ...], dice_mode: str, chain_length: int, name: str | None,
            pace_text: str | None, remind: bool, output: Path | None, armored: bool,
            route_folder: Path | None, route_email: bool, route_to: str | None,
            route_via: str | None) -> None:
    """Create a game; the invite goes by the game's route, or is written to send."""
    with handled():
        typed_names(engine_id, scenario, parse_options(options))
        from pbem.pace import REMINDERS, pace_words, parse_pace

        if remind and pace_text is None:
            raise UsageError("--remind: give the pace to remind by with --pace (e.g. 48h)")
        try:
            pace = None if pace_text is None else parse_pace(pace_text)
        except ValueError as exc:
            raise UsageError(f"--pace: {exc}") from None
        route = route_given(route_folder, route_email, route_to, route_via)
        if route is not None and route.kind == "mail" and not route.where:
            raise UsageError("--email: give the opponent's address with --to (nobody has "
                             "joined yet)")
        home = home_of(ctx)
        if route is not None:
            plugins.factory(route.kind)  # an unknown transport: refused before the game
        game = home.new_game(engine_id, scenario, side, options=parse_options(options),
                             dice_mode=dice_mode, name=name, chain_length=chain_length,
                             pace=pace, reminders=REMINDERS if remind else "")
        echo(f"game {game.name} created: you play {side}")
        if pace is not None:
            echo(f"agreed pace, signed in the invite: "
                 f"{pace_words(pace, REMINDERS if remind else '')}")
        if route is not None:
            set_route(home.path, game.game_id, route)
            echo(f"route: files travel by {route.words()} (change it with 'pbem route "
                 f"{game.name} ...')")
        _hand_over(game, 0, route, output, armored, "invite", "send it to your opponent",
                   "--email --to ADDRESS")


@click.command("join")
@click.argument("invite", type=EXISTING_FILE)
@click.option("--name", help="A name for the game.")
@click.option("-o", "output", type=FILE)
@click.option("--armor", "armored", is_flag=True)
@click.option("--yes", is_flag=True, help="You compared the creator's fingerprint already.")
@route_options
@click.pass_context
def join_cmd(ctx: click.Context, invite: Path, name: str | None, output: Path | None,
             armored: bool, yes: bool, route_folder: Path | None, route_email: bool,
             route_to: str | None, route_via: str | None) -> None:
    """Accept an invite; the reply goes by the game's route, or is written to send.

    The route is the one given, else the way the invite came (the folder it was found
    in, the mail it came by)."""
    from pbem.transcript import load_envelope, parse_invite

    with handled():
        home = home_of(ctx)
        unlock(home)
        data = read_incoming_file(invite)
        setup = parse_invite(load_envelope(data, str(invite)))
        if setup.creator.key == home.card().key:
            # no "first contact" with oneself (issue 33)
            raise UsageError(f"{invite}: this is your own invite; your opponent joins it")
        route = route_given(route_folder, route_email, route_to, route_via)
        proposed = route is None and proposal_for(home.path, setup.game_id) is not None
        if route is None:
            route = proposal_for(home.path, setup.game_id)
        if route is not None and route.kind == "mail" and not route.where:
            if not setup.creator.email:
                raise UsageError(f"--email: {setup.creator.name}'s card has no address; "
                                 f"give it with --to ADDRESS")
            route = Route("mail", setup.creator.email)
        if route is not None:
            plugins.factory(route.kind)
        if setup.pace is not None:
            from pbem.pace import pace_words

            # shown before the fingerprint question: joining accepts what the invite signs
            echo(f"the invite sets a pace: {pace_words(setup.pace, setup.reminders)}; "
                 f"joining accepts it")
        confirm_first_contact(home, setup.creator, f"the invite {invite}", yes)
        game = home.join(data, str(invite), name=name)
        opp = game.opponent()
        setup = game.verifier.setup
        echo(f"joined {game.name}: {setup.engine_id} / {setup.scenario}, you play "
                      f"{game.side}")
        if opp:
            echo(f"opponent: {opp.who}, fingerprint {opp.fingerprint}")

        if route is not None:
            set_route(home.path, game.game_id, route)
            echo(f"route: files travel by {route.words()}" + (
                " (the way the invite came; change it with 'pbem route "
                f"{game.name} ...')" if proposed else ""))
        _hand_over(game, 1, route, output, armored, "reply", "send it back", "--email")


def _hand_over(game: Any, seq: int, route: Any, output: Path | None, armored: bool,
               what: str, send: str, email: str) -> None:
    """File ``seq`` (the invite or the reply) on its way: by the game's route, and written
    out where ``-o`` names a file or the game has no route (with how to send it).  With a
    route, the route's delivery is the one recorded: a copy written with ``-o`` beside it
    is only a copy (recorded first, it read as the delivery and the route sent nothing)."""
    if route is not None:
        send_by_route(game, seq, route, what)
        if output is not None:
            write_out(output, game.files[seq], armored)
            echo(f"{what} also written to {output}")
        return
    from pbem.envelope import file_name

    path = output or Path(file_name(game.game_id, seq, game.side))
    write_out(path, game.files[seq], armored)
    note_written(game, seq, path)
    echo(f"{what} written to {path}: {send} (attach it to a mail, or put it in your shared "
         f"folder); to have pbem send every file by itself, give the game a route: pbem "
         f"route {game.name} --folder DIR (or {email})")
