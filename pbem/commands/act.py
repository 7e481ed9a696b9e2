"""``pbem act``: apply your actions.

A module of its own, loaded only when it runs (:class:`pbem.cli.LazyGroup`): with the
other turn commands' (:mod:`pbem.commands.turn`) it made their click commands, options
and help at every act (issue 35: 1.5 M instructions).
"""

from __future__ import annotations

import functools
from typing import Any

import click

from pbem.cli import (
    collector_paused,
    complete_action,
    complete_game,
    echo_all,
    event_lines,
    handled,
    hold_option,
    home_of,
    sealed_note,
)
from pbem.errors import PbemError


@click.command("act")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("actions", nargs=-1, required=True, shell_complete=complete_action)
@hold_option
@click.pass_context
@collector_paused
def act_cmd(ctx: click.Context, game_ref: str, actions: tuple[str, ...], hold: bool) -> None:
    """Apply actions in the engine's notation, one argument each: all of them, or none."""
    from pbem.errors import ActionSyntaxError, IllegalAction, NotYourTurn

    def refused(exc: PbemError, before: Any, text: str, number: int) -> PbemError:
        # pbem.play brings the board renderer and rich: only for a refusal
        from pbem.play import suggest

        quoted = unquoted(before, number)
        if quoted:
            return type(exc)(f"{exc}: the action's words arrived as {len(actions)} "
                             "arguments, each taken for an action; quote the action: "
                             f"pbem act {game_ref} '{quoted}' (none applied)")
        hint = suggest(before, text)
        return type(exc)(f"{exc}{'; ' + hint if hint else ''} (action {number} of "
                         f"{len(actions)}: none applied)")

    def unquoted(before: Any, number: int) -> str:
        """The action the arguments from ``number`` on make when joined, if they read as
        one: ``pbem act g move 1188/357 2405 2404`` typed without its quotes."""
        from pbem.errors import ActionSyntaxError

        if len(actions) - number < 1 or " " in actions[number - 1]:
            return ""
        for end in range(len(actions), number, -1):
            text = " ".join(actions[number - 1:end])
            try:
                before.parse_action(text)
            except (ActionSyntaxError, PbemError):
                continue
            return text
        return ""

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
            # the match alone, which no store holds (the game that acts is loaded afresh
            # below)
            trial = waiting.match
            for number, text in enumerate(actions, 1):
                state = trial.state.clone()
                try:
                    _, _, end = trial.act(text)
                except (IllegalAction, ActionSyntaxError) as exc:
                    raise refused(exc, state, text, number) from None
                if end is not None and number < len(actions):
                    raise NotYourTurn(f"{game_ref}: the file seals after '{text}' (the "
                                      "opponent decides next), so "
                                      f"{', '.join(map(repr, actions[number:]))} cannot "
                                      "follow in it: none applied")
        game = waiting if len(actions) == 1 else home.game(game_ref)
        # one action needs no dry run (issue 19: it loaded the game and replayed its dice
        # chain twice): a refused action raises before anything is sealed or written.
        # The position its refusal suggests from is the save's, loaded again then: a
        # clone kept for it on every act cost 0.3-2.7 M instructions (issue 35), and a
        # step may have changed the position before refusing
        done: list[tuple[str, list[Any], list[Any]]] = []
        sealed = None
        for text in actions:
            try:
                events, rolls, sealed = game.act(text, save=False)
            except (IllegalAction, ActionSyntaxError) as exc:
                if len(actions) > 1:
                    raise
                raise refused(exc, home.game(game_ref).state, text, 1) from None
            done.append((text, events, rolls))
            if sealed is not None:
                break
        if sealed is None:
            game.write()
        # made once, when the first line that names a unit needs them
        names = functools.cache(lambda: game.state.counters(game.side))
        told: list[str] = []
        for text, events, rolls in done:
            told += [text, *event_lines(events, rolls, game.side, names)]
        if sealed is None:
            told.append(f"  {game.awaiting()}")
        echo_all(told)  # one write (pbem.cli.print_events)
        if sealed is not None:
            sealed_note(game, sealed)
