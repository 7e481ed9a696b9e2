"""``pbem log`` and ``pbem show``: one game's story and board.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import (
    FILE,
    complete_game,
    console,
    echo,
    handled,
    home_of,
    rich_console,
    write_out,
)
from pbem.errors import (
    UsageError,
)
from pbem.text import block


@click.command("log")
@click.argument("game_ref", shell_complete=complete_game)
@click.pass_context
def log_cmd(ctx: click.Context, game_ref: str) -> None:
    """The game's history, file by file, as your side saw it.

    Each file is replayed and told from your side's view (White Death Rule 4.C: another
    side's hidden moves are told as 'a unit moves', never by the unit's name); the
    referee's full record of every action is 'pbem audit FILES'.
    """
    from pbem.audit import body_summary
    from pbem.envelope import open_envelope
    from pbem.render.narrate import frames_from_records, narrate
    from pbem.transcript import Verifier

    with handled():
        game = home_of(ctx).game(game_ref)
        verifier = Verifier(game.engine, open_envelope(game.files[0]))
        known = game.files
        for seq, data in enumerate(game.files):
            body = body_summary(data)
            if seq == 0:
                echo(f"file 0: invite by {body['creator']['name']} "
                              f"({body['creator_side']}): {body['engine']} / {body['scenario']}")
                continue
            before = verifier.state.clone()
            verifier.add(open_envelope(data), known)
            if seq == 1:
                echo(f"file 1: {body['joiner']['name']} joins as {body['side']}")
                continue
            echo(f"file {seq}: {body['side']}")
            if body.get("kind", "turn") == "turn" and body.get("records"):
                frames = frames_from_records(before, body["records"], game.side, seq=seq)
                for frame_view, events in frames:
                    for line in narrate(events, game.side, frame_view):
                        echo(f"  {line.text}")
            if body.get("message"):
                echo(f"  message: {block(body['message'])}")
            if body.get("end"):
                echo(f"  end: {body['end']} ({body['result']['text']})")
        if game.pending:
            echo(f"unsealed: {len(game.pending)} records")


@click.command("show")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--svg", type=FILE,
              help="Write the whole board as an SVG picture.")
@click.option("--png", type=FILE,
              help="Write the whole board as a PNG picture (needs the png extra).")
@click.option("--center", help="Center the window on this hex.")
@click.option("--zoom", type=click.IntRange(0, 2), default=1, show_default=True,
              help="0 overview, 1 normal, 2 two counters per hex.")
@click.option("--zoc", "show_zoc", help="Overlay a side's zones of control (or 'all').")
@click.option("--browse", is_flag=True,
              help="Pan and zoom with the keys (arrows, +/-, ? the key, q).")
@click.option("--where", "where_token", metavar="UNIT",
              help="Highlight the hexes UNIT may move to or act on now.")
@click.pass_context
def show_cmd(ctx: click.Context, game_ref: str, svg: Path | None, png: Path | None,
             center: str | None, zoom: int, show_zoc: str | None, browse: bool,
             where_token: str | None) -> None:
    """The board as your side may see it (limited intelligence applies)."""
    import dataclasses

    with handled():
        game = home_of(ctx).game(game_ref)
        view = game.view()
        if where_token:
            from pbem.play import where

            hexes = where(game.state, game.side, where_token) if game.my_decision() else ()
            if not hexes:
                raise UsageError(f"no legal action takes {where_token} anywhere now")
            view = dataclasses.replace(view, highlights=hexes)
            center = center or hexes[0]
            echo(f"{where_token} may go to or act on: {' '.join(hexes)}")
        if svg or png:
            from pbem.render.svg import board_png, board_svg

            if svg:
                write_out(svg, board_svg(view, show_zoc=show_zoc).encode(), armored=False)
                echo(f"board written to {svg}")
            if png:
                write_out(png, board_png(view, show_zoc=show_zoc), armored=False)
                echo(f"board written to {png}")
            return
        from pbem.render import board_screen, fit_window

        if center and not any(c.hex == center for c in view.cells):
            raise UsageError(f"no hex {center!r} on the map of {view.title}")
        if center is None and view.cells:
            from pbem.render.hexmap import focus_hex

            center = focus_hex(view, game.pending_actions())
        if browse and console.is_terminal:
            from pbem.play import key_poller
            from pbem.render import browse as browse_board

            with key_poller() as keys:
                browse_board(rich_console(), view, read_key=keys.read, zoom=zoom, show_zoc=show_zoc)
            return
        height = console.height - 8 if console.is_terminal else None
        window = fit_window(view, console.width, height, zoom=zoom, center=center)
        console.print(board_screen(view, window, zoom, show_zoc))
