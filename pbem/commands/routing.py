"""The route options of ``new``, ``join`` and ``route`` (issue 32 item 1), and
``pbem route``: how a game's files travel, chosen once.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pbem.cli import FOLDER, complete_game, echo, handled, home_of
from pbem.errors import PbemError, UsageError

F = TypeVar("F", bound=Callable[..., Any])


def route_options(command: F) -> F:
    """``--folder DIR``, ``--email``, ``--to ADDRESS``, ``--via NAME`` on a command."""
    for option in reversed((
        click.option("--folder", "route_folder", type=FOLDER,
                     help="Files travel through this shared folder (Dropbox, Syncthing, "
                          "a network drive)."),
        click.option("--email", "route_email", is_flag=True,
                     help="Files travel by mail (pbem mail setup), to --to or the "
                          "address on the opponent's card."),
        click.option("--to", "route_to", help="The opponent's address (--email, --via)."),
        click.option("--via", "route_via", metavar="NAME",
                     help="Files travel by another installed transport (a "
                          "pbem.transports entry point)."),
    )):
        command = option(command)
    return command


def route_given(route_folder: Path | None, route_email: bool, route_to: str | None,
                route_via: str | None) -> Any:
    """The :class:`~pbem.transport.route.Route` the options name, or None."""
    from pbem.transport.route import Route

    chosen = [name for name, on in (("--folder", route_folder is not None),
                                    ("--email", route_email), ("--via", route_via)) if on]
    if len(chosen) > 1:
        raise UsageError(f"give one route: {' or '.join(chosen)}, not both")
    if route_to is not None and not (route_email or route_via):
        raise UsageError("--to goes with --email (or --via NAME)")
    if route_folder is not None:
        if not route_folder.is_dir():
            raise UsageError(f"{route_folder}: the shared folder does not exist (create it, "
                             f"or give the path your sync tool uses)")
        return Route("folder", str(route_folder.resolve()))
    if route_email:
        return Route("mail", route_to or "")
    if route_via:
        return Route(route_via, route_to or "")
    return None


def send_by_route(game: Any, seq: int, route: Any, what: str) -> None:
    """Deliver file ``seq`` (an invite, a reply) by ``route`` and say exactly how it went,
    or why not and what sends it."""
    from pbem.transport.route import deliver_file

    try:
        done = deliver_file(game, seq, game.files[seq], route, once=True)
    except PbemError as exc:
        echo(f"{what} not sent yet ({exc}); 'pbem watch' sends it when {route.words()} "
             f"can be reached, or 'pbem send {game.name}' now")
        return
    echo(f"{what} sent: {done.line}")


@click.command("route")
@click.argument("game_ref", shell_complete=complete_game)
@route_options
@click.option("--none", "no_route", is_flag=True,
              help="No route: files leave with 'pbem send' only.")
@click.pass_context
def route_cmd(ctx: click.Context, game_ref: str, route_folder: Path | None,
              route_email: bool, route_to: str | None, route_via: str | None,
              no_route: bool) -> None:
    """How a game's files travel: show it, or change it.

    A file sealed and not sent yet goes by the new route at once."""
    from pbem.transport.route import route_of, send_owed, set_route

    with handled():
        home = home_of(ctx)
        game = home.game(game_ref)
        route = route_given(route_folder, route_email, route_to, route_via)
        if route is not None and no_route:
            raise UsageError("give a route or --none, not both")
        if route is None and not no_route:
            now = route_of(home.path, game.game_id)
            echo(f"{game.name}: " + (f"files travel by {now.words()}" if now else
                                     "no route: files leave with 'pbem send' (give one "
                                     f"with 'pbem route {game.name} --folder DIR' or "
                                     "--email)"))
            return
        if route is not None and route.kind == "mail" and not route.where:
            opp = game.opponent()
            if opp is None or not opp.email:
                raise UsageError(f"{game.name}: the opponent's card has no address: give "
                                 f"--to ADDRESS")
            route = type(route)("mail", opp.email)
        set_route(home.path, game.game_id, route)
        echo(f"{game.name}: " + (f"files travel by {route.words()}" if route else
                                 "no route: files leave with 'pbem send'"))
        if route is not None:
            for name, line in send_owed(home):
                if name == game.name:
                    echo(f"  {line}")
