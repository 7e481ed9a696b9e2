"""``pbem new`` and ``pbem join``: starting a game.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import (
    _EXISTING_FILE,
    _FILE,
    DEFAULT_CHAIN,
    _parse_options,
    _write_out,
    _written,
    complete_engine,
    complete_scenario,
    confirm_first_contact,
    echo,
    handled,
    home_of,
    read_incoming_file,
    typed_names,
    unlock,
)


@click.command("new")
@click.argument("engine_id", shell_complete=complete_engine)
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--side", required=True, help="The side you play.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE, repeatable.")
@click.option("--dice", "dice_mode", type=click.Choice(["open", "sealed"]), default="open")
@click.option("--chain-length", type=int, default=DEFAULT_CHAIN, show_default=True,
              help="Dice links per chain generation (2..100000); each side re-anchors "
                   "when its chain is used up.")
@click.option("--name", help="A name for the game (default: engine-scenario-id).")
@click.option("-o", "output", type=_FILE,
              help="Where to write the invite (default: in the current folder).")
@click.option("--armor", "armored", is_flag=True, help="Write the armored text form.")
@click.pass_context
def new_cmd(ctx: click.Context, engine_id: str, scenario: str, side: str,
            options: tuple[str, ...], dice_mode: str, chain_length: int, name: str | None,
            output: Path | None, armored: bool) -> None:
    """Create a game and write the invite to send to your opponent."""
    with handled():
        typed_names(engine_id, scenario, _parse_options(options))
        game = home_of(ctx).new_game(engine_id, scenario, side,
                                     options=_parse_options(options), dice_mode=dice_mode,
                                     name=name, chain_length=chain_length)
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, 0, side))
        _write_out(path, game.files[0], armored)
        _written(game, 0, path)
        echo(f"game {game.name} created: you play {side}")
        echo(f"invite written to {path}: send it to your opponent")


@click.command("join")
@click.argument("invite", type=_EXISTING_FILE)
@click.option("--name", help="A name for the game.")
@click.option("-o", "output", type=_FILE)
@click.option("--armor", "armored", is_flag=True)
@click.option("--yes", is_flag=True, help="You compared the creator's fingerprint already.")
@click.pass_context
def join_cmd(ctx: click.Context, invite: Path, name: str | None, output: Path | None,
             armored: bool, yes: bool) -> None:
    """Accept an invite; writes the reply file to send back."""
    from pbem.transcript import load_envelope, parse_invite

    with handled():
        home = home_of(ctx)
        unlock(home)
        data = read_incoming_file(invite)
        setup = parse_invite(load_envelope(data, str(invite)))
        confirm_first_contact(home, setup.creator, f"the invite {invite}", yes)
        game = home.join(data, str(invite), name=name)
        opp = game.opponent()
        setup = game.verifier.setup
        echo(f"joined {game.name}: {setup.engine_id} / {setup.scenario}, you play "
                      f"{game.side}")
        if opp:
            echo(f"opponent: {opp.who}, fingerprint {opp.fingerprint}")
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, 1, game.side))
        _write_out(path, game.files[1], armored)
        _written(game, 1, path)
        echo(f"reply written to {path}: send it back")
