"""``pbem audit``, ``rebuild``, ``selfplay``.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli import (
    _EXISTING,
    _FILE,
    _FOLDER,
    AUDIT_SHOWN,
    DEFAULT_CHAIN,
    _parse_options,
    complete_engine,
    complete_scenario,
    console,
    data_cache_of,
    echo,
    handled,
    home_of,
    progress_bar,
    typed_names,
)
from pbem.errors import (
    UsageError,
)


def _remarkable(row: Any) -> bool:
    """An audit row that says more than 'verified': a problem, a duplicate, a note."""
    return bool(row.note) or row.signature != "ok" or row.chain not in ("ok", "anchor") \
        or not row.replay.startswith("ok")


@click.command("audit")
@click.argument("paths", nargs=-1, required=True, type=_EXISTING)
@click.option("--roll", "roll", help="Explain one roll, SEQ.INDEX (e.g. 17.3).")
@click.option("--json", "as_json", is_flag=True)
@click.option("--html", type=_FILE,
              help="Also write the game as one self-contained replay page.")
@click.option("--side", help="With --html: replay from this side's view (default: the "
              "referee's, for a finished game).")
@click.option("--all", "show_all", is_flag=True,
              help=f"List every file and roll (default: any file with a problem or a note, "
                   f"and the last {AUDIT_SHOWN} files and rolls).")
@click.pass_context
def audit_cmd(ctx: click.Context, paths: tuple[Path, ...], roll: str | None, as_json: bool,
              html: Path | None, side: str | None, show_all: bool) -> None:
    """Verify a transcript from the exchanged files alone (no save, no key needed)."""
    from pbem.audit import audit, collect, explain_roll

    data_cache_of(ctx)
    with handled(), progress_bar("verifying") as progress:
        datas = collect(list(paths))
        report = audit(datas, progress)
    with handled():
        if html:
            from pbem.web.cli import audit_html

            echo(audit_html(datas, report, html, side))
        if as_json:
            click.echo(json.dumps(report.to_json(), indent=2))
            sys.exit(0 if report.clean else report.exit_code or 1)
        if roll:
            lines = explain_roll(report, roll)
            if lines[0].startswith("no roll "):
                raise UsageError(lines[0])
            for line in lines:
                echo(line)
            sys.exit(0 if report.clean else report.exit_code or 1)
        from rich.markup import escape
        from rich.table import Table

        from pbem.text import safe

        def cell(text: str) -> str:
            # text from the files: no markup, no terminal controls (issue 20 item 9)
            return escape(safe(text))

        table = Table("seq", "kind", "side", "signer", "sig", "chain", "dice", "replay", "note",
                      title=f"game {report.game_id.hex()[:16]} {report.engine} / "
                            f"{report.scenario}")
        # a long game's tables took seconds to draw: by default every file with a
        # problem or a note, and the last files and rolls (issue 19)
        last = len(report.files) - AUDIT_SHOWN
        files = [row for i, row in enumerate(report.files)
                 if show_all or i >= last or _remarkable(row)]
        for row in files:
            table.add_row("?" if row.seq is None else str(row.seq), cell(row.kind),
                          cell(row.side), row.signer[:11], row.signature, row.chain, row.dice,
                          cell(row.replay), cell(row.note))
        console.print(table)
        if len(files) < len(report.files):
            echo(f"({len(report.files) - len(files)} earlier files verified without a note "
                 "are not listed: 'pbem audit --all' lists every file and roll)")
        shown = report.rolls if show_all else report.rolls[-AUDIT_SHOWN:]
        rolls = Table("roll", "side", "purpose", "dice", "result", "after action",
                      title=f"{len(report.rolls)} rolls"
                            + ("" if len(shown) == len(report.rolls) else
                               f", the last {len(shown)}"))
        for r in shown:
            rolls.add_row(r.name, cell(r.side),
                          cell(r.purpose + (f" ({r.rule})" if r.rule else "")),
                          cell(r.request), cell(", ".join(str(o) for o in r.outcome)),
                          cell(r.after_action))
        console.print(rolls)
        for line in report.commitments:  # committed plans (docs/protocol.md 6.3)
            echo(f"plan {safe(line)}")
        if report.result:
            echo(f"result: {report.result}")
        echo(report.verdict())
        sys.exit(0 if report.clean else report.exit_code or 1)


@click.command("rebuild")
@click.argument("paths", nargs=-1, required=True, type=_EXISTING)
@click.option("--name", help="Name for the rebuilt game.")
@click.pass_context
def rebuild_cmd(ctx: click.Context, paths: tuple[Path, ...], name: str | None) -> None:
    """Make a lost save anew from the exchanged files and your key."""
    from pbem.audit import collect
    from pbem.session import rebuild

    aside: list[str] = []
    with handled(), progress_bar("rebuilding") as progress:
        game = rebuild(home_of(ctx), collect(list(paths)), name=name, progress=progress,
                       set_aside=aside)
    with handled():
        for line in aside:
            # file names come from the folder: no terminal control reaches the screen
            echo("set aside: " + "".join(c if c.isprintable() else "?" for c in line))
        echo(f"rebuilt {game.name} from {len(game.files)} files: {game.awaiting()}")


@click.command("selfplay")
@click.argument("engine_id", shell_complete=complete_engine)
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--seed", type=int, required=True)
@click.option("--dir", "directory", type=_FOLDER,
              required=True)
@click.option("--max-turns", type=int, help="Stop after this many game turns.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE, repeatable.")
@click.option("--standing-orders", is_flag=True,
              help="Both bots answer in advance every decision the engine allows.")
@click.option("--dice", "dice_mode", type=click.Choice(["open", "sealed"]), default="open",
              show_default=True)
@click.option("--chain-length", type=int, default=DEFAULT_CHAIN, show_default=True,
              help="Dice links per chain generation (2..100000): a short one makes the "
                   "bots re-anchor.")
def selfplay_cmd(engine_id: str, scenario: str, seed: int, directory: Path,
                 max_turns: int | None, options: tuple[str, ...],
                 standing_orders: bool, dice_mode: str, chain_length: int) -> None:
    """Two random bots play a scenario through real files in DIR."""
    from pbem.selfplay import selfplay

    with handled():
        typed_names(engine_id, scenario)
    with handled(), progress_bar(f"selfplay {engine_id} {scenario}") as progress:
        result = selfplay(engine_id, scenario, seed, directory, max_turns=max_turns,
                          options=_parse_options(options),
                          on_file=lambda n: progress(n, 0),
                          standing_orders=standing_orders, dice_mode=dice_mode,
                          chain_length=chain_length)
        click.echo(result.line())
        sys.exit(1 if result.desyncs else 0)
