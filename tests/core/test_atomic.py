"""Atomic writes: the old bytes or the new, never half, never a stray temporary file."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from pbem import atomic
from pbem.atomic import write_atomic

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def leftovers(directory: Path, target: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p != target]


def test_writes_new_file(tmp_path: Path) -> None:
    target = tmp_path / "save.pbem"
    write_atomic(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert leftovers(tmp_path, target) == []


def test_replaces_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "save.pbem"
    target.write_bytes(b"old contents, longer than the new")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert leftovers(tmp_path, target) == []


def test_accepts_str_path_and_empty_data(tmp_path: Path) -> None:
    target = tmp_path / "empty"
    write_atomic(str(target), b"")  # type: ignore[arg-type]
    assert target.read_bytes() == b""


@posix_only
@pytest.mark.parametrize("mode", [0o600, 0o644, 0o640])
def test_mode_is_exact_whatever_the_umask(tmp_path: Path, mode: int) -> None:
    old_umask = os.umask(0o077)
    try:
        target = tmp_path / "f"
        write_atomic(target, b"x", mode=mode)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(target.stat().st_mode) == mode


@posix_only
def test_default_mode_is_0600_even_over_a_looser_file(tmp_path: Path) -> None:
    target = tmp_path / "key.pem"
    target.write_bytes(b"old")
    os.chmod(target, 0o666)
    write_atomic(target, b"secret")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_missing_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "nope" / "f", b"x")


class _HalfWriter(io.BufferedWriter):
    """A file whose write puts half the bytes on disk and then fails, like a full disk."""

    def write(self, data: Any) -> int:
        super().write(bytes(data)[: len(data) // 2])
        self.flush()
        raise OSError(28, "No space left on device")


def test_crash_mid_write_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "save.pbem"
    target.write_bytes(b"the old save")
    created: list[Path] = []
    real_create = atomic._create_temp

    def create_temp(*args: Any, **kwargs: Any) -> tuple[int, Path]:
        fd, name = real_create(*args, **kwargs)
        created.append(name)
        return fd, name

    def fdopen(fd: int, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedWriter:
        assert Path(created[-1]).exists()  # the temporary file is really there
        return _HalfWriter(io.FileIO(fd, "wb"))

    monkeypatch.setattr(atomic, "_create_temp", create_temp)
    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"the new save, which is much longer")
    assert created
    assert target.read_bytes() == b"the old save"
    assert leftovers(tmp_path, target) == []


@pytest.mark.parametrize("failing", ["fsync", "replace", "chmod"])
def test_failure_after_write_keeps_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "save.pbem"
    target.write_bytes(b"old")

    def boom(*args: Any, **kwargs: Any) -> None:
        raise OSError(5, f"simulated {failing} failure")

    monkeypatch.setattr(os, failing, boom)
    with pytest.raises(OSError, match="simulated"):
        write_atomic(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path, target) == []


def test_interrupt_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between write and rename (a BaseException) also cleans up."""
    target = tmp_path / "save.pbem"
    target.write_bytes(b"old")

    def interrupt(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path, target) == []


def test_directory_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(tmp_path / "f", b"x")
    assert len(synced) == (2 if os.name == "posix" else 1)  # the file, then the directory


def test_temporary_files_are_new_private_and_named_apart(tmp_path: Path) -> None:
    """The temporary file is created, never reused (O_EXCL), 0600, under a fresh name."""
    fds = []
    names = set()
    for _ in range(50):
        fd, name = atomic._create_temp(tmp_path, ".save.", ".tmp")
        fds.append(fd)
        names.add(name)
        assert name.parent == tmp_path and name.name.startswith(".save.")
        assert name.name.endswith(".tmp") and len(name.name) == len(".save.") + 16 + 4
        if os.name == "posix":
            assert stat.S_IMODE(name.stat().st_mode) == 0o600
    for fd in fds:
        os.close(fd)
    assert len(names) == 50
    taken = sorted(names)[0]
    with pytest.raises(FileExistsError):
        os.open(taken, atomic._TEMP_FLAGS, 0o600)


def test_append_durable_cuts_an_uncommitted_tail_and_refuses_a_short_file(
        tmp_path: Path) -> None:
    """The transcript's append (save format 3): bytes past the committed length (a write
    cut short) are dropped before the new ones; a file shorter than committed is never
    padded."""
    target = tmp_path / "transcript"
    atomic.append_durable(target, 0, b"abc")
    assert target.read_bytes() == b"abc"
    target.write_bytes(b"abcTORN")
    atomic.append_durable(target, 3, b"def")
    assert target.read_bytes() == b"abcdef"
    atomic.append_durable(target, 0, b"new")  # a new game of the same name
    assert target.read_bytes() == b"new"
    with pytest.raises(OSError, match="fewer than the 10 committed"):
        atomic.append_durable(target, 10, b"x")
    assert target.read_bytes() == b"new"
