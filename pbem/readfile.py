"""Reading a file someone else made, without letting it hang or exhaust pbem.

``pbem receive /dev/zero`` once ran out of memory, a FIFO hung it, a folder gave a
traceback, and a 100 MB file cost 944 MB before the size limit refused it.  So a path is
looked at before it is read: only a regular file is opened (without blocking, so a FIFO
that appears in between cannot hang), its size is checked against the limit of what it
may be, and at most one byte more than the limit is ever read (issue 20 item 6).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pbem.errors import FormatError, UsageError


def check_kind(path: Path) -> os.stat_result:
    """The path's status, or a named error for what cannot be a pbem file at all."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", path=str(path)) from None
    if stat.S_ISDIR(st.st_mode):
        raise UsageError("is a folder, not a file (give the files in it)", path=str(path))
    if not stat.S_ISREG(st.st_mode):
        raise FormatError("is not a regular file (a pipe, device or socket): not read",
                          path=str(path))
    return st


def read_bounded(path: Path, limit: int, *, truncate: bool = False) -> bytes:
    """The bytes of the regular file ``path``, refusing one larger than ``limit``.

    ``truncate``: return the first ``limit + 1`` bytes of a larger file instead (a caller
    that lets the reader name the size problem with the file, among others).
    """
    st = check_kind(path)
    if st.st_size > limit and not truncate:
        raise FormatError(f"file of {st.st_size} bytes is larger than the limit of {limit}",
                          path=str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", path=str(path)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # replaced between the stat and the open
            raise FormatError("is not a regular file: not read", path=str(path))
        chunks: list[bytes] = []
        left = limit + 1
        # each read asks for what the file holds (one byte more, to see its end), not a
        # megabyte: os.read allocates what it is asked for (a save read twice over a MB)
        expected = opened.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20, max(expected, 4096)))
            expected -= len(chunk)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", path=str(path)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit and not truncate:
        raise FormatError(f"file is larger than the limit of {limit} bytes", path=str(path))
    return data
