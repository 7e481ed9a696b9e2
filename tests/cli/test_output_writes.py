"""What a turn command tells is written at once, not a click.echo a line: click asks
about the terminal at each call, 32 K instructions a line (29 lines of a Backhand Blow
receive: 0.9 M, issue 35).  The text is the same, line for line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


def _counted(monkeypatch: Any) -> list[str]:
    writes: list[str] = []
    real = click.echo

    def echo(message: Any = None, *args: Any, **kwargs: Any) -> None:
        if not kwargs.get("err"):
            writes.append(str(message))
        real(message, *args, **kwargs)

    monkeypatch.setattr(click, "echo", echo)
    return writes


def test_an_act_writes_its_lines_at_once(run: Any, tmp_path: Path, purkayev: Any,
                                         monkeypatch: Any) -> None:
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    writes = _counted(monkeypatch)
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "move 1/31R 3703 3702" and len(lines) >= 3, r.output
    assert writes == ["\n".join(lines)]


def test_a_short_listing_writes_its_actions_at_once(run: Any, tmp_path: Path,
                                                    purkayev: Any, monkeypatch: Any) -> None:
    _, ivan = purkayev(tmp_path, b"luki1")
    ivan.game("luki").act("impulse 4")
    ivan.game("luki").act("move 1/31R 3703 3702")
    writes = _counted(monkeypatch)
    r = run("ivan", "legal", "luki", "--all")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) > 3 and len(writes) == 2, writes  # the prompt, then the actions
    assert writes[1] == "\n".join(lines[1:])
