"""``pbem audit``, ``rebuild``, ``selfplay``.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from pbem.cli import (
    AUDIT_SHOWN,
    DEFAULT_CHAIN,
    EXISTING,
    FILE,
    FOLDER,
    complete_engine,
    complete_scenario,
    console,
    data_cache_of,
    echo,
    echo_all,
    handled,
    home_of,
    parse_options,
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


#: the audit's columns for a referee who never used pbem, and (--verbose) the protocol's
FILE_COLUMNS = ("file", "what", "player", "signed by (key fingerprint)", "signature",
                "follows the file before", "dice", "moves checked", "note")
FILE_COLUMNS_VERBOSE = ("seq", "kind", "side", "signer", "sig", "chain", "dice", "replay",
                        "note")
ROLL_COLUMNS = ("roll", "player", "what for", "dice", "result", "after the move")
ROLL_COLUMNS_VERBOSE = ("roll", "side", "purpose", "dice", "result", "after action")
#: what the plain columns mean, printed under the tables (not with --verbose)
LEGEND = [
    "signature: the file is exactly as its signer signed it; follows the file before: it "
    "names the file before it and comes from the player whose turn it was;",
    "dice: the secret number the file discloses for its rolls is the next of a series its "
    "player committed to at the start, so nobody chose the rolls; moves checked: every "
    "move played again under the rules, reaching the position the player signed.",
]
_KINDS = {"invite": "invitation (starts the game)", "accept": "acceptance",
          "turn": "turn", "card": "identity card", "save": "a player's save"}
_CHAIN = {"ok": "yes", "anchor": "first file", "FORK": "NO: two versions", "FAIL": "NO",
          "set aside": "set aside", "not checked": "not checked", "-": "-"}
_DICE = {"ok": "checked", "anchor": "committed", "not checked": "not checked", "-": "-"}


def _plain_row(row: Any) -> tuple[str, ...]:
    """One file's row in a referee's words (the protocol's words: --verbose)."""
    replay = row.replay
    if replay.startswith("ok (") and replay.endswith(")"):
        replay = "yes: " + re.sub(r"\b1 (move|roll)s\b", r"1 \1",
                                  replay[4:-1].replace("actions", "moves"))
    elif replay == "ok":
        replay = "yes"
    return ("?" if row.seq is None else str(row.seq), _KINDS.get(row.kind, row.kind),
            row.side, row.signer[:11], "good" if row.signature == "ok" else row.signature,
            _CHAIN.get(row.chain, row.chain), _DICE.get(row.dice, row.dice), replay, row.note)


def _verbose_row(row: Any) -> tuple[str, ...]:
    return ("?" if row.seq is None else str(row.seq), row.kind, row.side, row.signer[:11],
            row.signature, row.chain, row.dice, row.replay, row.note)


def _table_console() -> Any:
    """The terminal's console; redirected, one that never wraps: a referee's file or
    pipe gets whole lines, however wide (issue 33)."""
    if sys.stdout.isatty():
        return console
    from rich.console import Console

    return Console(width=100_000, highlight=False, color_system=None, soft_wrap=True)


#: what rich's markup and emoji codes would read in a cell or title, so not plain text
_NOT_PLAIN = re.compile(r"[\[\\]|:\S*?:")


def _plain_table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]]) -> str | None:
    """The bytes rich's table (heavy head, no wrapping, no colour) prints redirected, or
    None where they could differ from rich's (text that is not plain printable ASCII,
    markup or an emoji code, a cell with outer spaces, no rows, an encoding not UTF):
    rich's import and layout were about 200 M instructions of White Death's
    'audit --html' (issue 35), for two tables of 20 rows."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower()
    if not rows or not encoding.startswith("utf"):
        return None
    for text in (title, *columns, *(c for row in rows for c in row)):
        if not (text.isascii() and text.isprintable()) or text != text.strip() \
                or _NOT_PLAIN.search(text):
            return None
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(columns)]
    lines = [title] if title else []
    lines.append("\u250f" + "\u2533".join("\u2501" * (w + 2) for w in widths) + "\u2513")
    lines.append("\u2503 " + " \u2503 ".join(
        c.ljust(w) for c, w in zip(columns, widths, strict=True)) + " \u2503")
    lines.append("\u2521" + "\u2547".join("\u2501" * (w + 2) for w in widths) + "\u2529")
    lines.extend("\u2502 " + " \u2502 ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                 + " \u2502" for row in rows)
    lines.append("\u2514" + "\u2534".join("\u2500" * (w + 2) for w in widths) + "\u2518")
    return "\n".join(lines)


class _Tables:
    """Prints the audit's tables: redirected and plain, as text rich would print, else by
    rich itself (made when first needed)."""

    def __init__(self) -> None:
        self.out: Any = None

    def print(self, title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]],
              title_markup: bool = True) -> None:
        if not sys.stdout.isatty():
            text = _plain_table(title, columns, rows)
            if text is not None:
                click.echo(text)
                return
        from rich.markup import escape
        from rich.table import Table

        # text from the files: no markup, no terminal controls (issue 20 item 9)
        table = Table(*columns, title=escape(title) if title_markup else title)
        for row in rows:
            table.add_row(*(escape(c) for c in row))
        if self.out is None:
            self.out = _table_console()
        self.out.print(table)


def _file_rows(rows: list[Any], plain: bool) -> list[tuple[str, ...]]:
    from pbem.text import safe

    return [tuple(safe(c) for c in (_plain_row(row) if plain else _verbose_row(row)))
            for row in rows]


def _game_title(report: Any) -> str:
    head = f"game {report.game_id.hex()[:12]}"
    if report.engine:
        return f"{head}: {report.engine} / {report.scenario}"
    return head


@click.command("audit")
@click.argument("paths", nargs=-1, required=True, type=EXISTING)
@click.option("--game", "game", help="Audit only this game: the first hex digits of its "
              "id, as the files' names begin (default: every game among the files).")
@click.option("--roll", "roll", help="Explain one roll, SEQ.INDEX (e.g. 17.3).")
@click.option("--json", "as_json", is_flag=True,
              help="The whole report as JSON (its layout: docs/audit-schema.json).")
@click.option("--html", type=FILE,
              help="Also write the game as one self-contained replay page.")
@click.option("--side", help="With --html: replay from this side's view (default: the "
              "referee's, for a finished game).")
@click.option("--all", "show_all", is_flag=True,
              help=f"List every file and roll (default: any file with a problem or a note, "
                   f"and the last {AUDIT_SHOWN} files and rolls).")
@click.pass_context
def audit_cmd(ctx: click.Context, paths: tuple[Path, ...], game: str | None, roll: str | None,
              as_json: bool, html: Path | None, side: str | None, show_all: bool) -> None:
    """Verify every game among the files, from the files alone (no save, no key).

    Every signature, the order of the files, every dice reveal, every roll and every
    move are checked; the last line says CLEAN or NOT CLEAN and why. --verbose shows
    the protocol's own words."""
    from pbem.audit import audit_games, collect, explain_roll

    data_cache_of(ctx)
    page = None
    if html:
        from pbem.web.replay import PageMaker

        # the page is made from the audit's own replay, not from a second one after it
        page = PageMaker(side)
    with handled(), progress_bar("verifying") as progress:
        datas = collect(list(paths))
        whole = audit_games(datas, progress, game=game, watch=page)
    with handled():
        ids = ", ".join(g.game_id.hex()[:12] for g in whole.games)
        if html:
            from pbem.web.cli import audit_html

            if len(whole.games) != 1:
                raise UsageError(f"the files hold {len(whole.games)} games ({ids}): choose "
                                 "the one to replay with --game ID")
            only = whole.games[0]
            mine = {row.source for row in only.files if row.chain != "set aside"}
            echo(audit_html([d for d in datas if d[0] in mine], only, html, side, page))
        if as_json:
            click.echo(json.dumps(whole.to_json(), indent=2))
            sys.exit(whole.code())
        if roll:
            having = [g for g in whole.games if any(r.name == roll for r in g.rolls)]
            if len(having) > 1:
                raise UsageError(f"roll {roll} is in {len(having)} games ({ids}): choose "
                                 "one with --game ID")
            if not whole.games:
                raise UsageError(f"no roll {roll}: {whole.verdict()}")
            lines = explain_roll((having or whole.games)[0], roll)
            if lines[0].startswith("no roll "):
                raise UsageError(lines[0])
            for line in lines:
                echo(line)
            sys.exit(whole.code())
        _print_audit(whole, show_all)
        sys.exit(whole.code())


def _print_audit(whole: Any, show_all: bool) -> None:
    from pbem.cli import verbose
    from pbem.text import safe

    plain = not verbose()
    out = _Tables()
    for report in whole.games:
        # a long game's tables took seconds to draw: by default every file with a
        # problem or a note, and the last files and rolls (issue 19)
        last = len(report.files) - AUDIT_SHOWN
        files = [row for i, row in enumerate(report.files)
                 if show_all or i >= last or _remarkable(row)]
        out.print(_game_title(report), FILE_COLUMNS if plain else FILE_COLUMNS_VERBOSE,
                  _file_rows(files, plain))
        if len(files) < len(report.files):
            echo(f"({len(report.files) - len(files)} earlier files verified without a note "
                 "are not listed: 'pbem audit --all' lists every file and roll)")
        if report.rolls:
            shown = report.rolls if show_all else report.rolls[-AUDIT_SHOWN:]
            out.print(rolls_title(len(report.rolls), len(shown)),
                      ROLL_COLUMNS if plain else ROLL_COLUMNS_VERBOSE,
                      [tuple(safe(c) for c in (
                          r.name, r.side, r.purpose + (f" ({r.rule})" if r.rule else ""),
                          r.request, ", ".join(str(o) for o in r.outcome), r.after_action))
                       for r in shown], title_markup=False)
        for line in report.commitments:  # committed plans (docs/protocol.md 6.3)
            echo(f"plan {safe(line)}")
        if report.result:
            echo(f"result: {report.result}")
        if len(whole.games) > 1 or whole.files:
            echo(f"{_game_title(report)}: {report.verdict()}")
    if whole.files:
        out.print("files of no game audited here",
                  FILE_COLUMNS if plain else FILE_COLUMNS_VERBOSE, _file_rows(whole.files, plain))
    if plain and whole.games:
        echo_all(LEGEND)
    echo(whole.verdict())


@click.command("rebuild")
@click.argument("paths", nargs=-1, required=True, type=EXISTING)
@click.option("--name", help="Name for the rebuilt game.")
@click.pass_context
def rebuild_cmd(ctx: click.Context, paths: tuple[Path, ...], name: str | None) -> None:
    """Make a lost save anew from the exchanged files and your key."""
    from pbem.audit import collect
    from pbem.rebuild import rebuild

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
@click.option("--dir", "directory", type=FOLDER,
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
                          options=parse_options(options),
                          on_file=lambda n: progress(n, 0),
                          standing_orders=standing_orders, dice_mode=dice_mode,
                          chain_length=chain_length)
        click.echo(result.line())
        sys.exit(1 if result.desyncs else 0)


def rolls_title(count: int, shown: int) -> str:
    """The rolls table's title: how many, and how many are listed ("1 roll", never "1
    rolls": the guide's own audit said so)."""
    return f"{count} roll{'' if count == 1 else 's'}" + (
        "" if shown == count else f", the last {shown}")
