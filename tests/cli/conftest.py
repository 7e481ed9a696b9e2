"""What the command-line tests share: a CliRunner ``run`` fixture, and White Death's
Purkayev's Attack between two homes with fixed keys (the same dice on every run)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

import pbem.identity as identity_module
from pbem.cli import main
from pbem.session import Home

Run = Callable[..., Result]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> Run:
    """``run(HOME, *args, input=None)``: pbem in ``tmp_path`` with ``--home tmp_path/HOME``
    (none for ``None``), a fixed clock, no passphrase from the environment, and a terminal
    as wide as the test module's ``COLUMNS`` (100 unless it says)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", getattr(request.module, "COLUMNS", "100"))
    monkeypatch.setenv("PBEM_CLOCK", "1800000000")
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    runner = CliRunner()

    def invoke(home: str | None, *args: str, input: str | None = None) -> Result:
        argv = (["--home", str(tmp_path / home)] if home else []) + list(args)
        return runner.invoke(main, argv, input=input, catch_exceptions=False)

    return invoke


def purkayev_homes(root: Path, nonce: bytes) -> tuple[Home, Home]:
    """Erich (German) and Ivan (Soviet) in ``root``, game ``luki``, Purkayev's Attack, up
    to Ivan holding file 2 (the Soviet's first decision).  The keys are fixed and
    ``nonce`` picks the game id, hence every roll: a test that needs a given roll names
    the nonce that gives it."""
    erich, ivan = Home(root / "erich"), Home(root / "ivan")
    erich.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    ivan.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = erich.new_game("white-death", "purkayev", "german", name="luki",
                          nonce=hashlib.sha256(nonce).digest())
    joined = ivan.join(game.files[0], "invite", name="luki")
    erich.receive(joined.files[1], "reply")
    ivan.receive(erich.game("luki").file(2)[1], "file 2")
    return erich, ivan


@pytest.fixture(scope="session")
def purkayev() -> Callable[[Path, bytes], tuple[Home, Home]]:
    """:func:`purkayev_homes`, for the test modules (conftest is not imported by name)."""
    return purkayev_homes


@pytest.fixture
def count_signature_checks(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[bytes]]:
    """Called, starts counting Ed25519 signature checks from then on: the list of the
    public keys each check was made with (and forgets the checks already made)."""
    def start() -> list[bytes]:
        checks: list[bytes] = []

        # the function pbem.identity makes each key it verifies with (patched there)
        def counting_key(key: bytes) -> Any:
            checks.append(key)
            return Ed25519PublicKey.from_public_bytes(key)

        monkeypatch.setattr(identity_module, "_public_from_bytes", counting_key)
        monkeypatch.setattr(identity_module, "_verified", {})
        return checks

    return start
