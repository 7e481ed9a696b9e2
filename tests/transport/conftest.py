"""Fixtures for the transport tests: homes that play the test engine, and real mail servers.

The mail servers (Postfix and Dovecot, see ``mailserver.py``) are started once per test
session on loopback and stopped at the end.  They are never skipped: without the Debian
packages the fixture fails and says to run ``.ci/install-mail.sh``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from mailserver import MailServerError, MailServers, start_servers
from transport_helpers import Pair, make_home

from pbem.testing import Chooser


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
