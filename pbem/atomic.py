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

__all__ = ["write_atomic"]


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


def write_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` atomically, durably, with permissions ``mode``.

    The temporary file is created with 0600 (``mkstemp``'s default), so secret bytes are
    never readable by others even for an instant; it is chmodded to ``mode`` before the
    rename.  The parent directory must exist: creating it is the caller's decision.
    """
    import tempfile  # here: status and list, which write nothing, do without it (issue 19)

    path = Path(path)
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    tmp = Path(tmp_name)
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
