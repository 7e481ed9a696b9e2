"""The browser commands: ``pbem replay --html``, ``pbem audit --html``, ``pbem board``.

Kept apart from :mod:`pbem.cli` so the web code loads only when asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.audit import AuditReport
from pbem.errors import UsageError
from pbem.web.replay import build, ordered_files, replay_html, write_html


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
               side: str | None) -> str:
    """Write the audited files' replay page (the referee's view of a finished game)."""
    names, files = ordered_files(datas)
    if not files:
        raise UsageError("no invite among the files: nothing to replay")
    book = build(files, side, sources=names, report=report)
    write_html(path, replay_html(book))
    return f"replay page written to {path} ({len(book.data['frames'])} frames)"


@click.command("board")
@click.argument("game_ref")
@click.option("--no-open", is_flag=True, help="Print the page's address instead of opening "
              "a browser.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path),
              help="A shared folder: the opponent's files are imported from it and yours "
                   "delivered into it.")
@click.pass_context
def board_cmd(ctx: click.Context, game_ref: str, no_open: bool, port: int,
              folder: Path | None) -> None:
    """The game's board in your browser: watch what arrived, click to play.

    Served by pbem on 127.0.0.1 only; the browser is given an address that works once
    (traded for a cookie), so no secret is left on a command line. Every click is an
    action applied and saved as 'pbem act' does. Ctrl-C stops it; nothing is lost.
    """
    from pbem.cli import echo, handled, home_of
    from pbem.web.server import LOOPBACK, Board, serve, url_of

    with handled():
        home = home_of(ctx)
        game = home.game(game_ref)
        if folder is not None and not folder.is_dir():
            raise UsageError(f"shared folder {folder} does not exist")
        board = Board(home, game.name, folder=folder)
        server = serve(board, port)
    address = f"http://{LOOPBACK}:{board.port}/"
    opened = False
    if not no_open:
        import webbrowser

        # the launcher's command line (readable by every local user) holds a one-time
        # code only: the browser trades it for the cookie at once
        opened = webbrowser.open(url_of(server))
    if opened:
        echo(f"the board of {game.name} is open in your browser, at {address}")
    else:
        echo(f"the board of {game.name} is at {url_of(server)}")
        echo("(that address works once, in one browser; then the page is at "
             f"{address} in that browser)")
    echo("(only this machine can open it; Ctrl-C stops it, every action is already saved)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        echo("board closed; every action is saved")
    finally:
        server.server_close()
