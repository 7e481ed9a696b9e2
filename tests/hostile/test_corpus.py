"""Replay the hostile corpus through the CLI (issue 20, "what stays in the project").

Each case (``manifest.json``, made by ``make_corpus.py``) is run as ``pbem receive`` (or
``join``, ``audit``) in a copy of Bob's home, and must give the exit code of its named
error with the cause in the output, never a traceback or a raw terminal control, leave
the save byte for byte (unless the case says what may change), and stay under a time
and a memory bound.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))

from corpus import BASE_SEQ, CASES, CLOCK, GAME, MANIFEST, Bases, build

from pbem.cli import main
from pbem.session import Home

MANIFEST_DATA = json.loads(MANIFEST.read_text())
#: bounds per case: wall time (generous for a loaded CI machine) and Python heap peak
TIME_LIMIT = 20.0
MEMORY_LIMIT = 64 * 1024 * 1024


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> Bases:
    built = build(tmp_path_factory.mktemp("corpus"))
    if hashlib.sha256(built.genuine).hexdigest() != MANIFEST_DATA["genuine_sha256"]:
        pytest.fail("the fixed game no longer gives the bytes the corpus was made against: "
                    "run 'python tests/hostile/make_corpus.py' and commit the result")
    return built


def _special(kind: str, where: Path) -> Path:
    if kind == "dir":
        where.mkdir()
        return where
    if kind == "fifo":
        os.mkfifo(where)
        return where
    if kind == "device":
        return Path("/dev/zero")
    if kind == "big":
        with where.open("wb") as handle:
            handle.truncate(100 * 1024 * 1024)
        return where
    if kind == "nils":
        where.write_bytes(b"\xdd" + (1_500_000).to_bytes(4, "big") + b"\xc0" * 1_500_000)
        return where
    raise AssertionError(f"unknown special case {kind}")


def _args(home: Path, case: dict[str, Any], path: Path) -> list[str]:
    # the CLI may hide causes behind --verbose (issue 17): the corpus checks causes
    verbose = ["--verbose"] if any(p.name == "verbose" for p in main.params) else []
    if case["command"] == "join":
        return ["--home", str(home), *verbose, "join", str(path), "--yes", "-o",
                str(path.parent / "reply.pbem")]
    return ["--home", str(home), *verbose, case["command"], str(path)]


@pytest.mark.parametrize("case", MANIFEST_DATA["cases"], ids=[c["name"] for c in
                                                               MANIFEST_DATA["cases"]])
def test_hostile_case(case: dict[str, Any], bases: Bases, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_CLOCK", str(CLOCK))
    home = tmp_path / "home"
    shutil.copytree(bases.after if case["base"] == "after" else bases.before, home)
    save = home / "games" / f"{GAME}.pbsave"
    before = save.read_bytes()
    path = tmp_path / (case["file"] or case["name"])
    if case["special"]:
        path = _special(case["special"], path)
    else:
        shutil.copyfile(CASES / case["file"], path)
    if case["command"] == "audit":
        folder = tmp_path / "folder"
        folder.mkdir()
        for seq, data in enumerate(bases.files[:BASE_SEQ + 1]):
            (folder / f"{seq:04d}.pbem").write_bytes(data)
        shutil.copyfile(path, folder / "zz-case.pbem")
        path = folder
    tracemalloc.start()
    start = time.monotonic()
    try:
        res = CliRunner().invoke(main, _args(home, case, path))
    finally:
        elapsed = time.monotonic() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    out = res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), out
    assert "Traceback" not in out
    assert res.exit_code in case["codes"], f"exit {res.exit_code}: {out[-2000:]}"
    assert case["cause"].lower() in out.lower(), out[-2000:]
    assert "\x1b" not in out and "\u202e" not in out and "\r" not in out
    assert len(out) < 20_000, "the output floods"
    assert elapsed < TIME_LIMIT, f"{elapsed:.1f} s"
    assert peak < MEMORY_LIMIT, f"{peak / 2**20:.0f} MiB"
    evidence = home / "evidence"
    if case["save"] == "imported":
        assert Home(home).game(GAME).verifier.seq == BASE_SEQ
        return
    assert save.read_bytes() == before, "the save changed"
    kept = list(evidence.rglob("*.pbem")) if evidence.exists() else []
    assert bool(kept) == (case["save"] == "evidence"), kept
