"""``pbem status`` and ``pbem list``: the games in the home.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
from typing import Any

import click

from pbem.cli import (
    complete_game,
    echo,
    echo_all,
    echo_err,
    handled,
    home_of,
    terminal_columns,
)
from pbem.pace import not_late_when_unsent


def _when(t: int | None) -> str:
    if t is None:
        return "-"
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M")


def _routes(home: Any) -> dict[str, Any]:
    """Every game's route; an unreadable record is named once and read as none (the
    games are listed all the same)."""
    from pbem.transport.base import TransportError
    from pbem.transport.route import routes

    try:
        return dict(routes(home))
    except TransportError as exc:
        echo_err(f"pbem: note: {exc}")
        return {}


def _pace_lines(s: dict[str, Any]) -> list[str]:
    """The agreed pace and who is overdue (issue 32 item 5), for ``status``."""
    if s.get("pace") is None:
        return []
    from pbem.pace import pace_words

    out = [f"  agreed pace: {pace_words(s['pace'], s.get('reminders') or '')}"]
    late = s.get("overdue")
    if late:
        out.append(f"  OVERDUE: {late['words']}")
        if not late["yours"]:
            out.append(f"  'pbem nudge {s['name']}' reminds them (the reminder carries your "
                       f"last file again)")
    return out


def _late(s: dict[str, Any]) -> str:
    """``list``'s few words on who is overdue, or nothing: first in the column, which
    the terminal's width may cut."""
    late = s.get("overdue")
    if not late:
        return ""
    from pbem.pace import duration_words

    who = "YOU" if late["yours"] else "opponent"
    return f"{who} overdue {duration_words(late['by'])}; "


@click.command("status")
@click.argument("game_ref", required=False, shell_complete=complete_game)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status_cmd(ctx: click.Context, game_ref: str | None, as_json: bool) -> None:
    """Whose decision it is, the turn and phase, and what you should do next."""
    with handled():
        home = home_of(ctx)
        data = home.statuses(game_ref)
        from pbem.transport.state import sent_line, sent_records

        records = sent_records(home.path)
        table = _routes(home.path)
        for s in data:
            s["sent"] = sent_line(home.path, s, records, table)
            not_late_when_unsent(s)
            route = table.get(s["game_id"])
            s["route"] = {"kind": route.kind, "where": route.where, "words": route.words()} \
                if route is not None else None
        if game_ref and data:
            # what only your side knows (a committed plan): rebuilt from your key for this
            # screen, never in the save's summary (that is a file); one named game only,
            # so the list of all games still needs no engine
            data[0]["private"] = home.game(game_ref).private_notes()
        if as_json:
            click.echo(json.dumps(data if not game_ref else data[0], indent=2))
            return
        out: list[str] = []
        if not data:
            out.append(f"no games in {home.games_dir}")
        for s in data:
            out.append(f"{s['name']}: {s['engine']} / {s['scenario']}, you play {s['side']} "
                       f"against {s['opponent'] or '(not joined yet)'}")
            if s["position"]:
                out.append(f"  {s['position']}")
            for note in s.get("private", []):
                out.append(f"  {note}")
            out.append(f"  file {s['seq']}; last in {_when(s['last_in'])}, last out "
                       f"{_when(s['last_out'])}")
            out.append(f"  {s['awaiting']}")
            out += _pace_lines(s)
            if s["sent"]:
                out.append(f"  {s['sent']}")
            out.append(f"  route: {s['route']['words']}" if s["route"] else
                       f"  no route: 'pbem route {s['name']} --folder DIR' (or --email) has "
                       f"each file sent as it is sealed")
            from pbem import orders  # only here: status stays light to start

            for label, key in (("your standing orders", "orders"),
                               ("opponent's standing orders", "opponent_orders")):
                if s.get(key):
                    out.append(f"  {label}: {orders.text(s[key])}")
            if s.get("orders_pending") is not None:
                out.append("  orders to send with your next file: "
                           f"{orders.text(s['orders_pending'])}")
        echo_all(out)


@click.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def list_cmd(ctx: click.Context, as_json: bool) -> None:
    """Every game in your home, one line each."""
    with handled():
        home = home_of(ctx)
        data = home.statuses()
        from pbem.transport.state import sent_line, sent_records

        records = sent_records(home.path)
        table = _routes(home.path)
        for s in data:
            s["sent"] = sent_line(home.path, s, records, table)
            not_late_when_unsent(s)
        if as_json:
            click.echo(json.dumps(data, indent=2))
            return
        if not data:
            echo("no games yet: 'pbem new' starts one, 'pbem join INVITE' joins one")
            return
        # one line per game: the ids whole (you type them), then what is next, cut to the
        # terminal's width ('pbem status GAME' says it all)
        width = terminal_columns()
        rows = [(s["name"], f"{s['engine']}/{s['scenario']}",
                 f"{s['side']} v {s['opponent'] or '(not joined)'}", f"file {s['seq']}",
                 (f"game over: {s['result']['text']}" if s.get("result") else
                  f"{_late(s)}YOU: {s['decision']}" if s["your_move"] else
                  _late(s) + s["awaiting"].replace("waiting for ", "awaits ")))
                for s in data]
        sent = {s["name"]: s["sent"] for s in data if s["sent"] and (
            "not sent" in s["sent"] or "no longer there" in s["sent"])}
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        out: list[str] = []
        for row in rows:
            line = "  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths, strict=False))
            line = f"{line}  {row[4]}"
            out.append(line if len(line) <= width else line[:max(width - 1, 0)] + "…")
            # an unsent or vanished file is a silent deadlock: always shown, whole
            if sent.get(row[0]):
                out.append(f"  {sent[row[0]]}")
        echo_all(out)
