"""``pbem legal``, ``setup``, ``undo``, ``say``, ``orders``: your turn (``pbem act`` is
:mod:`pbem.commands.act`'s).

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli import (
    collector_paused,
    complete_game,
    console_width,
    echo,
    echo_all,
    handled,
    home_of,
    print_events,
    sealed_note,
)
from pbem.errors import UsageError

#: a decision with at most this many actions is listed whole; a longer one by unit
LIST_WHOLE = 30
#: the most lines the units of a decision take (more go in columns): a screen of 40 less
#: the prompt, the count, the actions naming no unit and the default
SCREEN_UNITS = 32


@click.command("setup")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("placements", required=False, type=click.Path(dir_okay=False,
                                                                  allow_dash=True))
@click.option("--print", "print_it", is_flag=True,
              help="Print where your units stand now as a set-up text to edit.")
@click.pass_context
def setup_cmd(ctx: click.Context, game_ref: str, placements: str | None,
              print_it: bool) -> None:
    """Your whole set-up from one text: 'UNIT HEX' a line ('-': standard input).

    Every line is checked against the set-up rules before any is kept (a refused line
    names the rule and changes nothing); lines go in the order the rules take them.
    '--print' writes where your units stand now, a text to edit and give back.
    """
    from pbem.choices import count_words, describe_placements, plan_setup, read_placements

    with handled():
        home = home_of(ctx)
        game = home.game(game_ref)
        if print_it or placements is None:
            click.echo(describe_placements(game.state, game.side), nl=False)
            if placements is None and not print_it:
                echo(f"(give the edited text back with 'pbem setup {game.name} FILE')")
            return
        source = "standard input" if placements == "-" else placements
        try:
            raw = sys.stdin.buffer.read() if placements == "-" else \
                Path(placements).read_bytes()
            text = raw.decode("utf-8")
        except OSError as exc:
            raise UsageError(f"{source}: cannot read it ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise UsageError(f"{source}: not UTF-8 text") from None
        places = read_placements(text, source)
        texts = plan_setup(home.game(game_ref).match, places, source)
        for text in texts:
            events, rolls, sealed = game.act(text, save=False)
            echo(text)
            print_events(events, rolls, game.side, game.state.counters(game.side))
            if sealed is not None:
                sealed_note(game, sealed)
                return
        game.write()
        echo(f"  {count_words(len(texts), 'unit')} placed; {game.awaiting()}")


@click.command("legal")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("focus", required=False)
@click.option("--all", "show_all", is_flag=True,
              help="Every action, one a line (without it a long list is shown by unit).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@collector_paused
def legal_cmd(ctx: click.Context, game_ref: str, focus: str | None, show_all: bool,
              as_json: bool) -> None:
    """What you may do now: by unit with counts, or one UNIT's options (or a HEX's).

    A short list is shown whole; a long one (Mortain's German turn 1 offers 526 actions)
    one line a unit, as its counter reads, with what it may do; 'pbem legal GAME UNIT'
    lists that unit's actions and '--all' every action one a line.
    """
    with handled():
        game = home_of(ctx).game(game_ref)
        decision = game.my_decision()
        from pbem.grammar import names

        legal = game.state.legal_actions() if decision else []
        # by the units and hexes an action names (its typed arguments, where the engine
        # has a grammar): "legal GAME 1009" finds the bridge 1008/1009 too
        actions = [a.notation() for a in legal if not focus or focus in names(a)]
        if as_json:
            import json

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
        from pbem.naming import cites, prompt_named

        prompt = prompt_named(decision.prompt, game.state.counters(game.side),
                              game.state.engine.sides)
        echo(prompt + (f" ({decision.rule})" if decision.rule
                       and not cites(decision.prompt, decision.rule) else ""))

        # a short list is printed as it is: grouping it would draw the side's view only for
        # where each unit stands (issue 35: the board and pbem.view, ~12 M instructions)
        short = len(actions) <= LIST_WHOLE
        if show_all or (short and not focus):
            grouped = None  # and pbem.choices not loaded for it (issue 35: 1.6 M)
        else:
            from pbem.choices import group

            grouped = group(game.state, game.side, actions)
        one = grouped.find(focus) if grouped is not None and focus else None
        if grouped is None or (short and one is None):
            if focus and not actions:
                echo(f"  no action names {focus} now")
            echo_all([f"  {text}" for text in actions])  # one write (pbem.cli.print_events)
            return
        from pbem.choices import columns, count_words, folded, unit_table

        cells = frozenset(c.hex for c in game.view().cells)
        width = max(40, console_width() - 4)
        if focus:
            if one is not None:
                echo(f"  {one.title()}: {count_words(len(one.actions), 'action')}")
            for line in folded(actions, width, cells):
                echo(f"  {line}")
            return
        echo(f"  {count_words(len(actions), 'action')}, "
             f"{count_words(len(grouped.units), 'unit')}: 'pbem legal {game.name} UNIT' "
             "lists a unit's, '--all' every action")
        # a screen: the units in two columns where one would run past it
        for line in columns(unit_table(grouped), width, SCREEN_UNITS):
            echo(f"  {line}")
        for line in folded(grouped.others, width, cells):
            echo(f"  {line}")
        if decision.default is not None:
            echo(f"  default: {decision.default.notation()}")


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
