"""The browser commands: ``pbem replay --html``, ``pbem audit --html``, ``pbem board``.

Kept apart from :mod:`pbem.cli` so the web code loads only when asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.audit import AuditReport
from pbem.errors import UsageError
from pbem.web.replay import build, ordered_files, replay_html, write_html


def game_html(game: Any, path: Path, referee: bool) -> str:
    """Write a saved game's replay page (its side's view, or the referee's once over)."""
    if referee and game.result is None:
        raise UsageError(f"{game.name} is not over: the referee's view (everything) is for "
                         "a finished game only")
    book = build(list(game.files), None if referee else game.side)
    write_html(path, replay_html(book))
    return (f"replay of {game.name} ({len(book.data['frames'])} frames, "
            f"{len(book.data['rolls'])} rolls) written to {path}: open it in any browser")


def audit_html(datas: list[tuple[str, bytes]], report: AuditReport, path: Path,
               side: str | None) -> str:
    """Write the audited files' replay page (the referee's view of a finished game)."""
    names, files = ordered_files(datas)
    if not files:
        raise UsageError("no invite among the files: nothing to replay")
    book = build(files, side, sources=names, report=report)
    write_html(path, replay_html(book))
    return f"replay page written to {path} ({len(book.data['frames'])} frames)"
