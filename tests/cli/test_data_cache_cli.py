"""The command line keeps each engine's parsed scenario data in ``HOME/cache`` (issue 19):
the next command reads it instead of parsing the TOML and building the map, and a
damaged cache gives the same answers, only slower."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from pbem.session import Home


def _legal(home: Path) -> str:
    env = {**os.environ, "PBEM_CLOCK": "1800000000"}
    env.pop("PBEM_PASSPHRASE", None)
    out = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                          "--home", str(home), "legal", "luki", "--json"],
                         capture_output=True, text=True, check=True, env=env)
    return out.stdout


def test_cache_written_read_and_rebuilt_when_damaged(
        tmp_path: Path, purkayev: Callable[[Path, bytes], tuple[Home, Home]]) -> None:
    _, ivan = purkayev(tmp_path, b"cache")
    cache = ivan.path / "cache"
    assert not cache.exists()
    first = _legal(ivan.path)
    entries = sorted(cache.iterdir())
    # "code": the kit's code digest, kept by its files' stamps (datacache.files_digest);
    # "card": the player's card, kept by card.json's stamp (pbem.identity); "toml-set":
    # every data file's SHA-256, tables and stand-ins, kept by the files' stamps
    # (hexkit.scenario._read_docs); "toml": each file's tables and stand-ins by its digest
    assert {p.name.rsplit("-", 1)[0] for p in entries} == {"toml", "toml-set", "hexmap",
                                                          "code", "card"}
    stamps = {p: p.stat().st_mtime_ns for p in entries}
    assert _legal(ivan.path) == first
    assert {p: p.stat().st_mtime_ns for p in entries} == stamps  # read, not rewritten
    for n, path in enumerate(entries):  # a flipped byte in some, the rest cut short
        data = bytearray(path.read_bytes())
        if n % 2:
            data[len(data) // 2] ^= 0x10
        else:
            del data[len(data) // 2:]
        path.write_bytes(bytes(data))
    assert _legal(ivan.path) == first
    assert all(p.read_bytes() for p in entries)  # written anew


def _audit(home: Path, files: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PBEM_CLOCK": "1800000000"}
    env.pop("PBEM_PASSPHRASE", None)
    return subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                           "--home", str(home), "audit", str(files)],
                          capture_output=True, text=True, env=env)


def test_audit_keeps_the_scenario_data_in_an_existing_home_only(
        tmp_path: Path, purkayev: Callable[[Path, bytes], tuple[Home, Home]]) -> None:
    """Issue 35 item 2: ``audit`` rebuilt the maps from the TOML every time.  It uses the
    home's cache when there is a home, and makes no home for a referee who has none."""
    erich, _ = purkayev(tmp_path, b"cache")
    files = tmp_path / "files"
    files.mkdir()
    game = erich.game("luki")
    for seq in range(3):
        (files / f"{seq:05d}.pbem").write_bytes(game.file(seq)[1])
    referee = tmp_path / "referee"
    first = _audit(referee, files)
    assert first.returncode == 0 and "CLEAN" in first.stdout, first.stdout + first.stderr
    assert not referee.exists()
    cache = erich.path / "cache"
    assert not cache.exists()
    assert _audit(erich.path, files).stdout == first.stdout
    assert {p.name.rsplit("-", 1)[0] for p in cache.iterdir()} >= {"toml", "hexmap"}
