"""``pbem audit`` redirected prints its tables as the text rich would print, without rich,
and its replay page loads no rich either (issue 35: rich's import and layout were about
270 M instructions of White Death's ``audit --html``): the same bytes for every table the
plain path takes, rich itself for the rest."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from pbem.commands.archive import FILE_COLUMNS, ROLL_COLUMNS, _plain_table
from pbem.selfplay import selfplay

#: plain words, and what rich reads otherwise: markup, emoji codes, wide and accented
#: letters, backslashes, outer and doubled spaces
_PIECES = ("yes", "good", "1d6", "12", "a b", "  ", " ", "[b]", "[/]", "[", "\\", ":smile:",
           ":", "x:y", "\u00e9", "\u6f22", "(Rule 9.1)", "NO: gap", "-", "", "3:1")
#: the pieces the plain path takes: what an audit's tables hold
_PLAIN = ("yes", "good", "1d6", "12", "a b", "x  y", "(Rule 9.1)", "NO: gap", "-", "", "3:1")


def _rich(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    out = io.StringIO()
    console = Console(file=out, width=100_000, highlight=False, color_system=None,
                      soft_wrap=True)
    table = Table(*columns, title=escape(title))
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    console.print(table)
    return out.getvalue()


def test_plain_table_is_richs_text_or_declines() -> None:
    rng = random.Random(35)
    made = 0
    for n in range(400):
        pieces = _PLAIN if n % 2 else _PIECES

        def text(pieces: tuple[str, ...] = pieces) -> str:
            return "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 4)))
        columns = rng.choice((FILE_COLUMNS, ROLL_COLUMNS, ("a", "b")))
        rows = [tuple(text() for _ in columns) for _ in range(rng.randrange(0, 5))]
        title = rng.choice(("", "game 3c0205d97a61: white-death / purkayev", "74 rolls",
                            text()))
        got = _plain_table(title, columns, rows)
        if got is not None:
            made += 1
            assert got + "\n" == _rich(title, columns, rows), (title, columns, rows)
    assert made > 100  # the plain path is taken, not only declined


def test_redirected_audit_and_its_page_load_no_rich(tmp_path: Path) -> None:
    """The tables as text, and the page's map and frames from modules that need no rich
    (pbem.render.hexmap; pbem.render loads its modules when asked)."""
    result = selfplay("skirmish", "short", 1, tmp_path / "sp")
    assert result.files > 2
    probe = ("import json, sys\nfrom pbem.cli import main\ntry:\n    main(sys.argv[1:])\n"
             "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rich'))))\n")
    page = tmp_path / "replay.html"
    for html in ([], ["--html", str(page)]):
        done = subprocess.run(
            [sys.executable, "-c", probe, "audit", str(tmp_path / "sp" / "files"), *html],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PBEM_HOME": str(tmp_path / "h")})
        lines = done.stdout.splitlines()
        assert json.loads(lines[-1]) == []
        assert any(line.startswith("\u2503 file ") for line in lines)
        assert "CLEAN" in done.stdout
    assert "\\u003csvg" in page.read_text(encoding="utf-8")  # the map, in the page's data
