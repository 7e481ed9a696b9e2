"""``pbem nudge GAME``: remind the opponent, by the game's route, that your file awaits
an answer (issue 32 item 5).

Loaded only when its command runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import click

from pbem.cli import complete_game, echo, handled, home_of


@click.command("nudge")
@click.argument("game_ref", metavar="GAME", shell_complete=complete_game)
@click.pass_context
def nudge_cmd(ctx: click.Context, game_ref: str) -> None:
    """Remind your opponent, by the game's route, with your last file again."""
    from pbem.pace import duration_words
    from pbem.transport.route import remind

    with handled():
        home = home_of(ctx)
        game = home.game(game_ref)
        now = home.clock()
        done = remind(game, now)
        echo(done.line)
        late = home.statuses(game.name)[0].get("overdue")
        if late and not late["yours"]:
            echo(f"{late['who']} is overdue by {duration_words(late['by'])}")
