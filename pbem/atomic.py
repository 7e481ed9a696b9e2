"""Write a file so that a reader sees either the old bytes or the new ones, never half.

A save file, a key or a pinned contact list that is cut short by a crash or a full disk
would lose a game or an identity.  So every write goes to a temporary file in the same
directory (a rename is atomic only within one file system), is flushed and fsynced,
gets its permissions *before* it becomes visible under the real name, and then replaces
the target with :func:`os.replace` (tried again for a moment on Windows, where a virus
scanner or sync client holding the old file open makes it fail).  The directory is
fsynced afterwards so the rename itself survives a power cut.  If anything fails on the
way, the temporary file is removed and the old file is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pbem.portable import replace_file

__all__ = ["append_durable", "write_atomic"]


def _fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (a no-op where directories cannot be opened)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(directory, flags)
    except OSError:  # Windows cannot open a directory; its rename is durable enough
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on directories
            os.fsync(fd)
    finally:
        os.close(fd)


#: open flags of a new temporary file: created here or refused (never an existing file or
#: a symlink's target), binary on Windows; as tempfile.mkstemp opens its files
_TEMP_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))


def _create_temp(directory: Path, prefix: str, suffix: str) -> tuple[int, Path]:
    """A new file ``prefix + 16 random hex digits + suffix`` in ``directory``, mode 0600,
    open for writing: ``tempfile.mkstemp`` without importing tempfile (with shutil,
    random and the compression modules: 16 M instructions of every command that writes,
    issue 19)."""
    for _ in range(100):
        name = directory / f"{prefix}{os.urandom(8).hex()}{suffix}"
        try:
            return os.open(name, _TEMP_FLAGS, 0o600), name
        except FileExistsError:
            continue  # 64 random bits taken: try another name
    raise FileExistsError(f"no unused temporary file name in {directory}")


def write_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` atomically, durably, with permissions ``mode``.

    The temporary file is created with 0600 (``mkstemp``'s default), so secret bytes are
    never readable by others even for an instant; it is chmodded to ``mode`` before the
    rename.  The parent directory must exist: creating it is the caller's decision.
    """
    path = Path(path)
    directory = path.parent
    fd, tmp = _create_temp(directory, f".{path.name}.", ".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # on Windows chmod only sets the read-only flag; there the profile folder's access
        # list is what keeps a key private (pbem.portable.private_file_problem)
        os.chmod(tmp, mode)
        replace_file(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(directory)


def append_durable(path: Path, keep: int, data: bytes, mode: int = 0o644) -> None:
    """Cut ``path`` to its first ``keep`` bytes, append ``data``, and fsync: the append-only
    files whose committed length a signed record names (a save's transcript, issue 19).

    Not atomic by itself, and need not be: the record that commits to the new length is
    written (atomically) only after this returns, so a crash here leaves bytes past the
    committed length, which readers ignore and the next call cuts off.  Refuses a file
    shorter than ``keep`` (damaged or cut by someone): extending it would write zeros
    where committed bytes were."""
    path = Path(path)
    created = not path.exists()
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, mode)
    try:
        size = os.fstat(fd).st_size
        if size < keep:
            raise OSError(f"{path} holds {size} bytes, fewer than the {keep} committed")
        if size != keep:
            os.ftruncate(fd, keep)
        os.lseek(fd, keep, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        _fsync_dir(path.parent)
