"""``pbem act``, ``legal``, ``undo``, ``say``, ``orders``: your turn.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
from typing import Any

import click

from pbem.cli import (
    _print_events,
    _sealed_note,
    complete_action,
    complete_game,
    echo,
    handled,
    hold_option,
    home_of,
)
from pbem.errors import (
    PbemError,
)


def _dry_run_game() -> type:
    """A Game that seals and saves nothing: where the real one would seal (sign, record
    the file, write the save) it answers -1 and stops, so a trial of several actions
    leaves no trace on disk."""
    from pbem.session import Game

    class DryRun(Game):
        def _seal(self, end: str) -> int:
            return -1

        def write(self) -> None:
            return None

    return DryRun


@click.command("act")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("actions", nargs=-1, required=True, shell_complete=complete_action)
@hold_option
@click.pass_context
def act_cmd(ctx: click.Context, game_ref: str, actions: tuple[str, ...], hold: bool) -> None:
    """Apply actions in the engine's notation, one argument each: all of them, or none."""
    from pbem.errors import ActionSyntaxError, IllegalAction, NotYourTurn

    def refused(exc: PbemError, before: Any, text: str, number: int) -> PbemError:
        # pbem.play brings the board renderer and rich: only for a refusal
        from pbem.play import suggest

        hint = suggest(before, text)
        return type(exc)(f"{exc}{'; ' + hint if hint else ''} (action {number} of "
                         f"{len(actions)}: none applied)")

    with handled():
        home = home_of(ctx)
        home.hold = hold
        waiting = home.game(game_ref)
        if not waiting.has_pen() and waiting.result is None:
            from pbem.transport.route import turn_words

            # which file is awaited, from whom, and when ours went (issue 32 item 3)
            raise NotYourTurn(turn_words(waiting))
        if len(actions) > 1:
            # a dry run on a copy that never writes: if any action is refused, or the file
            # would seal before the last one, nothing is applied and nothing saved
            trial = waiting  # loaded above; the game that acts is loaded afresh below
            trial.__class__ = _dry_run_game()
            for number, text in enumerate(actions, 1):
                state = trial.state.clone()
                try:
                    _, _, sealed = trial.act(text, save=False)
                except (IllegalAction, ActionSyntaxError) as exc:
                    raise refused(exc, state, text, number) from None
                if sealed is not None and number < len(actions):
                    raise NotYourTurn(f"{game_ref}: the file seals after '{text}' (the "
                                      "opponent decides next), so "
                                      f"{', '.join(map(repr, actions[number:]))} cannot "
                                      "follow in it: none applied")
        game = waiting if len(actions) == 1 else home.game(game_ref)
        # one action needs no dry run (issue 19: it loaded the game and replayed its dice
        # chain twice): a refused action raises before anything is sealed or written
        before = game.state.clone() if len(actions) == 1 else None
        for text in actions:
            try:
                events, rolls, sealed = game.act(text, save=False)
            except (IllegalAction, ActionSyntaxError) as exc:
                if before is None:
                    raise
                raise refused(exc, before, text, 1) from None
            echo(f"{text}")
            _print_events(events, rolls, game.side)
            if sealed is not None:
                _sealed_note(game, sealed)
                return
        game.write()
        echo(f"  {game.awaiting()}")


@click.command("legal")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("focus", required=False)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def legal_cmd(ctx: click.Context, game_ref: str, focus: str | None, as_json: bool) -> None:
    """What you may do now (optionally only actions naming UNIT or HEX)."""
    with handled():
        game = home_of(ctx).game(game_ref)
        decision = game.my_decision()
        actions = [a.notation() for a in game.state.legal_actions()] if decision else []
        if focus:
            actions = [a for a in actions if focus in a.split()]
        if as_json:
            click.echo(json.dumps({
                "game": game.name, "your_move": decision is not None,
                "decision": decision.kind if decision else None,
                "prompt": decision.prompt if decision else game.awaiting(),
                "default": decision.default.notation() if decision and decision.default else None,
                "actions": actions}, indent=2))
            return
        if decision is None:
            echo(game.awaiting())
            return
        echo(f"{decision.prompt}" + (f" ({decision.rule})" if decision.rule else ""))
        for text in actions:
            echo(f"  {text}")


@click.command("undo")
@click.argument("game_ref", shell_complete=complete_game)
@click.pass_context
def undo_cmd(ctx: click.Context, game_ref: str) -> None:
    """Take back your last action (never past a die roll or a sealed file)."""
    with handled():
        game = home_of(ctx).game(game_ref)
        echo(f"undone: {game.undo()}")


@click.command("say")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("text")
@click.pass_context
def say_cmd(ctx: click.Context, game_ref: str, text: str) -> None:
    """A message to your opponent, carried in your next file."""
    with handled():
        home_of(ctx).game(game_ref).say(text)
        echo("message kept for your next file")


@click.command("orders")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--set", "set_kinds", multiple=True, metavar="KIND[=default]",
              help="Answer this kind of decision with the rulebook's default (repeatable).")
@click.option("--clear", "clear_kinds", multiple=True, metavar="KIND",
              help="Stop answering this kind in advance (repeatable).")
@click.option("--all", "all_kinds", is_flag=True, help="Answer every kind the game allows.")
@click.option("--none", "none", is_flag=True, help="Withdraw every standing order.")
@click.pass_context
def orders_cmd(ctx: click.Context, game_ref: str, set_kinds: tuple[str, ...],
               clear_kinds: tuple[str, ...], all_kinds: bool, none: bool) -> None:
    """Standing orders: decisions you answer in advance, so your opponent plays on.

    With no option, lists the decisions the game allows orders for and the orders in
    force. A change travels in your next file and holds from its end on.
    """
    from pbem import orders

    with handled():
        game = home_of(ctx).game(game_ref)
        if set_kinds or clear_kinds or all_kinds or none:
            new = orders.edit(game.engine, game.orders_to_come(), set_kinds=set_kinds,
                              clear_kinds=clear_kinds, all_kinds=all_kinds, none=none)
            game.set_orders(new)
            echo(f"standing orders for your next file: {orders.text(new)}")
            return
        for line in orders.listing(game.engine, game.verifier.orders.get(game.side, {}),
                                   game.verifier.orders.get(game.opponent_side, {})):
            echo(line)
        if game.orders_pending is not None:
            echo(f"to be sent with your next file: {orders.text(game.orders_pending)}")
