"""The browser commands: ``pbem replay --html``, ``pbem audit --html``, ``pbem board``.

Kept apart from :mod:`pbem.cli` so the web code loads only when asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.audit import AuditReport
from pbem.errors import UsageError
from pbem.web.replay import PageMaker, build, ordered_files, replay_html, write_html


def game_html(game: Any, path: Path, referee: bool) -> str:
    """Write a saved game's replay page (its side's view, or the referee's once over)."""
    if referee and game.result is None:
        raise UsageError(f"{game.name} is not over: the referee's view (everything) is for "
                         "a finished game only")
    book = build(list(game.files), None if referee else game.side)
    write_html(path, replay_html(book))
    return (f"replay of {game.name} ({len(book.data['frames'])} frames, "
            f"{len(book.data['rolls'])} rolls) written to {path}: open it in any browser")


def audit_html(datas: list[tuple[str, bytes]], report: AuditReport, path: Path,
               side: str | None, made: PageMaker | None = None) -> str:
    """Write the audited files' replay page (the referee's view of a finished game);
    ``made``: the page the audit's replay made (:func:`pbem.audit.audit_games`' ``watch``),
    else, when it made none (no invite, a side the engine has not), made here."""
    # the audit replayed the files this page would (each place's first copy, in order, to
    # the first gap or failure) unless two versions of a place or a file without one
    # made it choose otherwise
    if made is not None and made.first is not None and report.verifier is not None and all(
            row.chain != "FORK" and (row.seq is not None or row.chain == "set aside")
            for row in report.files):
        book = made.finish(report.verifier, report)
    else:
        names, files = ordered_files(datas)
        if not files:
            raise UsageError("no invite among the files: nothing to replay")
        book = build(files, side, sources=names, report=report)
    write_html(path, replay_html(book))
    return f"replay page written to {path} ({len(book.data['frames'])} frames)"


@click.command("board")
@click.argument("game_ref", required=False, metavar="[GAME]")
@click.option("--no-open", is_flag=True, help="Print the page's address instead of opening "
              "a browser.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path),
              help="A shared folder: the opponent's files are imported from it and yours "
                   "delivered into it (one game only).")
@click.option("--no-watch", is_flag=True, help="The lobby (no GAME) does not follow the "
              "games' routes itself (a 'pbem watch' runs already).")
@click.pass_context
def board_cmd(ctx: click.Context, game_ref: str | None, no_open: bool, port: int,
              folder: Path | None, no_watch: bool) -> None:
    """The game's board in your browser, or with no GAME the lobby of every game.

    The lobby lists whose move it is in each game, what was sent and what was not; it
    starts a game, joins one from an invite file, and opens each game's board. It follows
    every game's route as 'pbem watch' does (unless --no-watch), so a file that arrives
    shows at once.

    Served by pbem on 127.0.0.1 only; the browser is given an address that works once
    (traded for a cookie), so no secret is left on a command line. Every click is an
    action applied and saved as 'pbem act' does. Ctrl-C stops it; nothing is lost.
    """
    from pbem.cli import echo, handled, home_of, unlock
    from pbem.web.server import LOOPBACK, Board, Gate, serve, url_of

    gate: Gate
    lobby = None
    with handled():
        home = home_of(ctx)
        if game_ref is None:
            from pbem.web.lobby import Lobby

            if folder is not None:
                raise UsageError("--folder is for one game's board: give the game, or give "
                                 "each game its route ('pbem route GAME --folder DIR')")
            home.card()  # no identity yet: 'pbem id new NAME' first, said here
            # the passphrase asked here, at the terminal, before the page is served: the
            # lobby signs (a new game, a join, the watcher's imports) from the server's threads
            unlock(home)
            gate = lobby = Lobby(home)
            what = "the lobby of your games"
        else:
            if no_watch:
                raise UsageError("--no-watch is for the lobby (no GAME)")
            game = home.game(game_ref)
            if folder is not None and not folder.is_dir():
                raise UsageError(f"shared folder {folder} does not exist")
            gate = Board(home, game.name, folder=folder)
            what = f"the board of {game.name}"
        server = serve(gate, port)
    if lobby is not None and not no_watch:
        lobby.start_watching()
    address = f"http://{LOOPBACK}:{gate.port}/"
    opened = False
    if not no_open:
        import webbrowser

        # the launcher's command line (readable by every local user) holds a one-time
        # code only: the browser trades it for the cookie at once
        opened = webbrowser.open(url_of(server))
    if opened:
        echo(f"{what} is open in your browser, at {address}")
    else:
        echo(f"{what} is at {url_of(server)}")
        echo("(that address works once, in one browser; then the page is at "
             f"{address} in that browser)")
    echo("(only this machine can open it; Ctrl-C stops it, every action is already saved)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        echo("board closed; every action is saved")
    finally:
        if lobby is not None:
            lobby.stop()
        server.server_close()
