"""``pbem play``, ``replay``, ``demo``.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli import (
    EXISTING,
    FILE,
    FOLDER,
    complete_engine,
    complete_game,
    echo,
    echo_err,
    handled,
    hold_option,
    home_of,
    rich_console,
    typed_names,
    unlock,
)
from pbem.commands.receive import by_sequence, read_incoming, screen_incoming
from pbem.errors import (
    UsageError,
)


def _pacing(fast: bool, step: bool, pace: float) -> Any:
    from pbem.play import Pacing

    return Pacing(pace=0.0 if fast else pace, fast=fast, step=step)


@click.command("play")
@click.argument("game_ref", required=False, shell_complete=complete_game)
@click.argument("files", nargs=-1, type=EXISTING)
@click.option("--fast", is_flag=True, help="Tell the replay at once, no pauses.")
@click.option("--step", is_flag=True, help="Wait for Enter after each action of the replay.")
@click.option("--pace", type=float, default=0.8, show_default=True,
              help="Seconds between replayed events.")
@click.option("--yes", is_flag=True,
              help="Pin a new opponent's key without asking (you compared the fingerprint).")
@hold_option
@click.pass_context
def play_cmd(ctx: click.Context, game_ref: str | None, files: tuple[Path, ...], fast: bool,
             step: bool, pace: float, yes: bool, hold: bool) -> None:
    """Receive FILES, watch them replayed, then act at a prompt until the file seals.

    GAME may be omitted when the files name it; press Enter or 's' to skip a replay.
    """
    from pbem.play import Prompt, key_poller, receive_and_replay
    from pbem.session import ReceiveReport

    with handled():
        home = home_of(ctx)
        home.hold = hold
        unlock(home)
        if game_ref and Path(game_ref).is_file() and not game_ref.endswith(".pbsave"):
            files = (Path(game_ref), *files)
            game_ref = None
        found = [(path, src, d) for path in files for src, d in read_incoming(path)
                 if screen_incoming(home, path, src, d, yes)]
        datas = [(src, d) for _, src, d in by_sequence(found)]
        pacing = _pacing(fast, step, pace)
        with key_poller() as poller:
            reports = receive_and_replay(rich_console(), home, datas, pacing,
                                         poller.poll if poller.active else None)
        names = {r.game_name for r in reports}
        if game_ref is not None:
            chosen = home.game(game_ref).name
            for report in reports:
                if report.game_name != chosen:
                    echo_err(f"pbem: note: the file {report.seq} you gave is of game "
                             f"{report.game_name}, not {chosen}: it was imported into "
                             f"{report.game_name} (go on there: pbem play "
                             f"{report.game_name})")
        if game_ref is None:
            if len(names) == 1:
                game_ref = names.pop()
            else:
                mine = [g for g in home.games() if g.my_decision() is not None]
                if len(mine) != 1:
                    raise UsageError("name the game to play (pbem list shows them)")
                game_ref = mine[0].name
        game = home.game(game_ref)
        if not files and game.my_decision() is not None:
            # what 'pbem watch' imported since this side's last file, told on this side's
            # board before the prompt, as if it had been given here (issue 32 item 4)
            from pbem.play import replay_game

            mine = [seq for seq, _ in game.sealed_files()]
            since = max(mine) + 1 if mine else 1
            if since < len(game.files):
                with key_poller() as poller:
                    replay_game(rich_console(), game, start=since, pacing=pacing,
                                poll=poller.poll if poller.active else None)
                from pbem.audit import body_summary
                from pbem.text import block

                for seq in range(since, len(game.files)):
                    message = body_summary(game.files[seq]).get("message")
                    if isinstance(message, str) and message:
                        reports.append(ReceiveReport(game.name, seq, "turn", "", "",
                                                     message=block(message)))
        said = [(r.seq, r.message) for r in reports if r.message and r.game_name == game.name]
        Prompt(rich_console(), game, pacing=pacing, messages=said).run()


@click.command("replay")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--from", "start", type=int, default=2, show_default=True,
              help="First file to replay.")
@click.option("--fast", is_flag=True)
@click.option("--step", is_flag=True)
@click.option("--pace", type=float, default=0.8, show_default=True)
@click.option("--html", type=FILE,
              help="Write the whole game as one self-contained replay page instead.")
@click.option("--referee", is_flag=True, help="With --html: everything (a finished game).")
@click.pass_context
def replay_cmd(ctx: click.Context, game_ref: str, start: int, fast: bool, step: bool,
               pace: float, html: Path | None, referee: bool) -> None:
    """The whole game, or from file --from on, replayed on your side's board."""
    from pbem.play import key_poller, replay_game

    with handled():
        game = home_of(ctx).game(game_ref)
        given = ctx.get_parameter_source("start") != click.core.ParameterSource.DEFAULT
        if given and not 0 <= start < len(game.files):  # a file not there: a wrong number
            raise UsageError(f"{game.name} has files 0..{len(game.files) - 1}, not {start}")
        if html:
            from pbem.web.cli import game_html

            echo(game_html(game, html, referee))
            return
        from pbem.choices import count_words

        with key_poller() as poller:
            shown = replay_game(rich_console(), game, start=start, pacing=_pacing(fast, step, pace),
                                poll=poller.poll if poller.active else None)
        echo(f"replayed {count_words(shown, 'file')} of {game.name}")


@click.command("demo")
@click.option("--engine", "engine_id", shell_complete=complete_engine,
              help="Game to demonstrate (default: White Death).")
@click.option("--scenario", help="Scenario (default: the engine's first).")
@click.option("--files", type=int, default=6, show_default=True,
              help="How many turn files to exchange.")
@click.option("--fast", is_flag=True, help="No pauses.")
@click.option("--pace", type=float, default=0.9, show_default=True,
              help="Seconds a line of the fighting stays; the other pauses scale with it.")
@click.option("--dir", "directory", type=FOLDER,
              help="Where the two homes and the transcript go (default: a new temp folder).")
def demo_cmd(engine_id: str | None, scenario: str | None, files: int, fast: bool,
             pace: float, directory: Path | None) -> None:
    """Two players, a real game, files exchanged and replayed, then an audit.

    At a terminal, a story of about two minutes (Enter or space cuts a wait short);
    piped, the same story in a couple of hundred lines without pauses."""
    import tempfile

    from pbem.demo import demo
    from pbem.play import key_poller

    with handled():
        typed_names(engine_id, scenario)
        root = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
        root.mkdir(parents=True, exist_ok=True)
        with key_poller() as poller:
            code = demo(rich_console(), root, engine_id=engine_id, scenario=scenario,
                        files=files, pacing=_pacing(fast, False, pace),
                        poll=poller.poll if poller.active else None)
        sys.exit(code)
