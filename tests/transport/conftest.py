"""Fixtures for the transport tests: homes that play the test engine, and real mail servers.

The mail servers (Postfix and Dovecot, see ``mailserver.py``) are started once per test
session on loopback and stopped at the end.  They are never skipped: without the Debian
packages the fixture fails and says to run ``.ci/install-mail.sh``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from mailserver import MailServerError, MailServers, start_servers

from pbem.session import Game, Home
from pbem.testing import Chooser


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


@pytest.fixture
def pair(tmp_path: Path) -> Pair:
    return Pair(tmp_path, make_home(tmp_path, "Alice"), make_home(tmp_path, "Bob"),
                Chooser(tmp_path.name))


@pytest.fixture(scope="session")
def mail_servers() -> Iterator[MailServers]:
    try:
        servers = start_servers()
    except MailServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield servers
    finally:
        servers.stop()
        if os.environ.get("PBEM_KEEP_MAIL") is None:
            import shutil

            shutil.rmtree(servers.root, ignore_errors=True)
