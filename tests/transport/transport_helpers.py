"""Helpers shared by the transport tests (a module of its own: every test folder has a
``conftest`` module, so importing from ``conftest`` would be ambiguous)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.session import Game, Home
from pbem.testing import Chooser


def pbem_at(home: Home, *args: str) -> str:
    """pbem ``args`` at ``home`` through click's CliRunner; a failure fails the test with
    pbem's own output."""
    from click.testing import CliRunner

    from pbem.cli import main

    res = CliRunner().invoke(main, ["--home", str(home.path), *args])
    assert res.exit_code == 0, res.output
    return res.output


def make_home(root: Path, name: str) -> Home:
    home = Home(root / name.lower())
    home.keys.create(name, f"{name.lower()}@pbem.test", None)
    return home


def play_until_sealed(game: Game, chooser: Chooser) -> tuple[int, bytes]:
    """The local side plays legal actions until its file is sealed."""
    sealed = None
    while sealed is None:
        action = chooser.pick(game.state.legal_actions())
        _, _, sealed = game.act(action.notation())
    return game.file(sealed)


@dataclass
class Pair:
    """Alice and Bob, each with a home of their own, under one temporary folder."""

    root: Path
    alice: Home
    bob: Home
    chooser: Chooser

    def other(self, home: Home) -> Home:
        return self.bob if home is self.alice else self.alice

    def mover(self, name: str) -> Home | None:
        for home in (self.alice, self.bob):
            game = home.game(name)
            if game.my_decision() is not None:
                return home
        return None


def nested(depth: int) -> bytes:
    """A message ``depth`` multiparts deep (the parser once recursed into a crash)."""
    head = b"From: m@x\r\nSubject: pbem turn\r\nMIME-Version: 1.0\r\n"
    parts = [b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
             for i in range(depth)]
    tail = [b"\r\n--b%d--\r\n" % i for i in reversed(range(depth))]
    return head + b"".join(parts) + b"Content-Type: text/plain\r\n\r\nhi\r\n" + b"".join(tail)
