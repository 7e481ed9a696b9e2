"""Shared test setup: make the test engine importable, in-process and in subprocesses."""

from __future__ import annotations

import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Property tests check what is accepted and refused, never how fast: on a loaded machine
# (CI, two cores shared with xdist workers) Hypothesis's deadline and too-slow health check
# measured the load and failed test_canonical's round trip now and then.
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")

TOY = Path(__file__).parent / "toy"
#: the engine guide's tutorial game (docs/engine-guide.md, part II), tested as any engine
TUTORIAL = Path(__file__).parent / "tutorial"

for _folder in (TUTORIAL, TOY):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(TOY), str(TUTORIAL), os.environ.get("PYTHONPATH", "")) if p)
_engines = [e for e in os.environ.get("PBEM_ENGINES", "").split(",") if e]
for _engine in ("toy_engine:ENGINE", "tutorial_engine:ENGINE"):
    if _engine not in _engines:
        _engines.append(_engine)
os.environ["PBEM_ENGINES"] = ",".join(_engines)


def import_all_of_pbem() -> None:
    """Import every pbem module (and the standard library they use) before a test patches
    ``sys.platform``: a module first imported under a patched platform would take the
    other platform's import-time branches (urllib reaching for macOS's _scproxy)."""
    import pkgutil

    import pbem

    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        __import__(info.name)


@pytest.fixture
def all_of_pbem_imported() -> None:
    """For a test that patches ``sys.platform`` itself (see :func:`import_all_of_pbem`)."""
    import_all_of_pbem()


class FakeMsvcrt(types.ModuleType):
    """The parts of Windows' ``msvcrt`` pbem uses, with the real module's behaviour: a
    lock starts at the descriptor's current position, a range another handle holds is
    refused, unlocking what is not locked is refused; ``getwch`` answers as a Windows
    console does (Enter is ``\\r``, an arrow ``\\xe0`` then a letter)."""

    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.held: dict[tuple[int, int, int], int] = {}
        self.positions: list[int] = []
        self.keys: list[str] = []
        self._guard = threading.Lock()

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        position = os.lseek(fd, 0, os.SEEK_CUR)
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino, position)
        with self._guard:
            if mode == self.LK_NBLCK:
                self.positions.append(position)
                if key in self.held:
                    raise PermissionError(13, "Permission denied")
                self.held[key] = fd
            elif mode == self.LK_UNLCK:
                if self.held.get(key) != fd:
                    raise PermissionError(13, "Permission denied")
                del self.held[key]
            else:  # pbem never uses the modes that block for ten seconds and give up
                raise AssertionError(f"unexpected locking mode {mode}")

    def kbhit(self) -> bool:
        return bool(self.keys)

    def getwch(self) -> str:
        return self.keys.pop(0)


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMsvcrt]:
    """``sys.platform`` says win32 and ``import msvcrt`` gives a :class:`FakeMsvcrt`, so
    pbem's Windows branches run here (pathlib and the rest stay POSIX underneath)."""
    from pbem import portable

    import_all_of_pbem()
    fake = FakeMsvcrt()
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(portable, "LOCK_RETRY_SECONDS", 0.005)
    yield fake


@pytest.fixture(autouse=True)
def _data_cache_unconfigured_after() -> Iterator[None]:
    """A command run in-process (click's CliRunner, ``cli.main``) configures
    pbem.datacache to its home and leaves it so, as a process that ends would; put back
    whatever was configured before the test, so a later test that counts what a load
    derives from the files is not handed a warm cache by the order the tests ran in."""
    from pbem import datacache

    before = datacache.directory()
    yield
    if datacache.directory() != before:
        datacache.configure(before)


@pytest.fixture
def data_cache(tmp_path: Path) -> Iterator[Path]:
    """pbem.datacache configured to a fresh folder for the test (the command line's
    HOME/cache), and unconfigured after it."""
    from pbem import datacache

    folder = tmp_path / "cache"
    datacache.configure(folder)
    yield folder
    datacache.configure(None)


@pytest.fixture
def count_forms_built(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[str]]:
    """Called, starts recording the name of the grammar form of each action checked and
    written as it is made (``Form._build``) and returns the record: a listing that makes
    its actions in bulk (``Form.unchecked``) adds none (issue 35)."""
    from pbem.grammar import Form

    def start() -> list[str]:
        built: list[str] = []
        build = Form._build

        def counted(form: Form, values: tuple[Any, ...], named: dict[str, Any]) -> Any:
            built.append(form.name)
            return build(form, values, named)

        monkeypatch.setattr(Form, "_build", counted)
        return built

    return start


def _first(*args: Any, **kwargs: Any) -> Any:
    return args[0] if args else None


@pytest.fixture
def record_calls(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[Any]]:
    """Called with an object and the name of one of its functions, puts in its place one
    that keeps ``keep(*args, **kwargs)`` of each call (by default its first argument) in
    a record, then calls the real one; returns the record.  The test's ``monkeypatch``
    puts the real one back (at the test's end, or at its ``undo()``)."""

    def start(owner: object, name: str, keep: Callable[..., Any] = _first) -> list[Any]:
        record: list[Any] = []
        real = getattr(owner, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            record.append(keep(*args, **kwargs))
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, recorded)
        return record

    return start


def _length(data: bytes = b"") -> int:
    return len(data)


@pytest.fixture
def record_hashing(record_calls: Callable[..., list[Any]]) -> Callable[[object], list[int]]:
    """Called with a module, records the length of each thing its ``sha256`` hashes (see
    :func:`record_calls`) and returns the record."""

    def start(module: object) -> list[int]:
        return record_calls(module, "sha256", _length)

    return start
