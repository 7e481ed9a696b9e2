"""A shared folder (Dropbox, Syncthing, a network drive) as a transport.

Each file is written under a name that says game, sequence and side
(``3f2a9c1d0b7e-0007-german.pbem``), atomically: the bytes go to a hidden temporary file
in the same folder, are fsynced, and only then renamed to the real name, so a syncing
client never sees (and never uploads) half a file, and a writer killed mid-write leaves
only a hidden ``.tmp`` that readers ignore.

Reading (``pbem inbox DIR``, ``pbem watch DIR``) looks at every ``*.pbem`` name, skips
hidden and temporary files, and routes each new file through the :class:`Router`: files of
known games are imported, in sequence order, and shown; own files, duplicates and files of
unknown games are left where they are, with a note.  Sync-conflict copies (Dropbox's
``name (X's conflicted copy 2024-05-01).pbem``, Syncthing's
``name.sync-conflict-20240501-101010-ABCDEFG.pbem``, Nextcloud's ``(conflicted copy ...)``)
are recognized: a copy with the same bytes as its original is a harmless duplicate; one
with other bytes is handed to the session, which keeps both versions as evidence of a
fork.  Nothing is ever deleted or renamed in the shared folder: it is the other player's
too.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.atomic import write_atomic
from pbem.errors import FormatError
from pbem.transport.base import (
    RETRY,
    Delivered,
    Outcome,
    Router,
    TransportError,
    digest,
    file_name,
)
from pbem.transport.state import HandledState

if TYPE_CHECKING:
    from pbem.envelope import FileInfo
    from pbem.session import Game

__all__ = [
    "FolderTransport",
    "conflict_of",
    "deliver_folder",
    "scan_folder",
    "watch_folder",
]

SUFFIX = ".pbem"
#: a file bigger than this is not a turn file (binary at most 4 MiB, armor 4/3 of that)
MAX_READ = 6 * 1024 * 1024

_CONFLICT_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("Syncthing", re.compile(r"^(?P<base>.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Za-z0-9]+)?"
                             r"(?P<ext>\.pbem)$", re.I)),
    ("Dropbox", re.compile(r"^(?P<base>.+?) \((?:[^()]*?'s )?conflicted copy(?: [^()]*)?\)"
                           r"(?P<ext>\.pbem)$", re.I)),
    ("Dropbox", re.compile(r"^(?P<base>.+?) \(Case Conflict(?: \d+)?\)(?P<ext>\.pbem)$", re.I)),
]
_TEMP = re.compile(r"(^[.~])|(\.(tmp|part|partial|crdownload|download)$)|(~$)", re.I)


def conflict_of(name: str) -> tuple[str, str] | None:
    """``(original name, sync tool)`` when ``name`` is a sync-conflict copy, else None."""
    for tool, pattern in _CONFLICT_PATTERNS:
        match = pattern.match(name)
        if match:
            return match.group("base") + match.group("ext"), tool
    return None


def is_candidate(name: str) -> bool:
    """A name the inbox reads: ``*.pbem``, not hidden, not a temporary file."""
    return name.lower().endswith(SUFFIX) and not _TEMP.search(name)


def deliver_folder(data: bytes, directory: Path, info: FileInfo) -> Path:
    """Write one file into the shared folder, atomically, under its game-seq-side name.

    Writing the same bytes again is a no-op (the file is already there); a *different*
    file under the same name is refused: two files claiming one place in a game are a fork,
    and the shared folder must never lose either of them.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise TransportError("shared folder does not exist (create it, or check the path "
                             "your sync client uses)", path=str(directory))
    path = directory / file_name(info.game_id, info.seq, info.side)
    if path.exists():
        try:
            existing = path.read_bytes()
            same = existing == data
        except OSError as exc:
            raise TransportError(f"cannot read the file already there ({exc.strerror})",
                                 path=str(path)) from None
        if same or _same_file(existing, data):
            return path
        raise TransportError("a different file already has this name in the shared folder; "
                             "not overwriting it", path=str(path))
    try:
        write_atomic(path, data, 0o644)
    except OSError as exc:
        raise TransportError(f"cannot write into the shared folder ({exc.strerror})",
                             path=str(path)) from None
    return path


def _same_file(existing: bytes, data: bytes) -> bool:
    """The same signed file in another form (armored text beside binary, say)."""
    from pbem.armor import read_any
    from pbem.errors import PbemError

    try:
        return read_any(existing) == read_any(data)
    except PbemError:
        return False


@dataclass
class _Seen:
    """A file in the shared folder as last looked at: its size, time and hash, and what
    became of it."""

    size: int
    mtime_ns: int
    sha: str
    status: str


def _read_capped(path: Path) -> bytes | str:
    """The file's bytes, or why not: only regular files (never a link) of sane size."""
    try:
        if path.is_symlink():  # Windows has no O_NOFOLLOW: look before opening there
            return "a symbolic link, not a file (links are never followed)"
        # O_BINARY: without it Windows opens in text mode and turns CR LF into LF
        flags = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))
        fd = os.open(path, flags)
    except OSError as exc:
        if path.is_symlink():
            return "a symbolic link, not a file (links are never followed)"
        return f"cannot be read ({exc.strerror})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file"
        if st.st_size > MAX_READ:
            return f"{st.st_size} bytes, too large for a pbem file"
        chunks = []
        remaining = MAX_READ + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= MAX_READ else "grew too large while being read"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)


def scan_folder(directory: Path, router: Router, state: HandledState | None = None, *,
                save: bool = True) -> list[Outcome]:
    """Import every new file of the folder for a known game; one outcome per file looked at.

    Files handled before (same name, size, time and bytes, final outcome) are skipped
    silently; files that wait (an earlier file missing, a game not joined yet, a first
    contact to confirm) are looked at again on every scan.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise TransportError("shared folder does not exist", path=str(directory))
    key = str(directory.resolve())
    seen = state.section("folders").setdefault(key, {}) if state is not None else {}
    outcomes: list[Outcome] = []
    items: list[tuple[str, bytes]] = []
    notes: dict[str, str] = {}
    try:
        names = sorted(os.listdir(directory))
    except OSError as exc:
        raise TransportError(f"cannot list the shared folder ({exc.strerror})",
                             path=str(directory)) from None
    for name in names:
        if not is_candidate(name):
            continue
        path = directory / name
        try:
            st = path.lstat()
        except OSError:
            continue  # gone between listing and looking: a sync client at work
        old = seen.get(name)
        if (isinstance(old, list) and len(old) == 4 and old[0] == st.st_size
                and old[1] == st.st_mtime_ns and old[3] not in RETRY):
            continue
        data = _read_capped(path)
        source = str(path)
        if isinstance(data, str):
            outcomes.append(Outcome(source, "refused", f"{source}: {data}; left alone",
                                    exit_code=FormatError.exit_code, cause=data))
            seen[name] = [st.st_size, st.st_mtime_ns, "", "refused"]
            continue
        sha = digest(data)
        if isinstance(old, list) and len(old) == 4 and old[2] == sha and old[3] not in RETRY:
            seen[name] = [st.st_size, st.st_mtime_ns, sha, old[3]]
            continue
        conflict = conflict_of(name)
        if conflict is not None:
            original, tool = conflict
            orig_path = directory / original
            orig = _read_capped(orig_path) if orig_path.exists() else None
            if isinstance(orig, str):
                orig = None
            if orig == data:
                outcomes.append(Outcome(source, "duplicate",
                                        f"{source}: {tool} conflict copy of {original} with the "
                                        f"same bytes; harmless, left alone", digest=sha))
                seen[name] = [st.st_size, st.st_mtime_ns, sha, "duplicate"]
                continue
            notes[source] = (f"{tool} conflict copy of {original}"
                             + (" with different bytes" if orig is not None else ""))
        items.append((source, data))
        seen[name] = [st.st_size, st.st_mtime_ns, sha, "pending"]
    for outcome in router.route_all(items):
        name = Path(outcome.source).name
        if name in seen:
            seen[name][3] = outcome.status
        if outcome.source in notes:
            outcome = dataclasses.replace(outcome,
                                          note=f"{notes[outcome.source]}: {outcome.note}")
        outcomes.append(outcome)
    for name in list(seen):
        if name not in names:
            old = seen.pop(name)  # removed from the folder: forget it
            if isinstance(old, list) and len(old) == 4 and old[3] == "pending":
                # taken away before it could be imported: without a word both sides
                # would wait for each other (issue 23 item 3)
                outcomes.append(Outcome(str(directory / name), "vanished",
                                        f"{directory / name} was removed from the folder "
                                        f"before it could be imported (by a person, or the "
                                        f"sync tool); ask your opponent to send it again"))
    if state is not None and save:
        state.save()
    return outcomes


def watch_folder(directory: Path, router: Router, state: HandledState | None,
                 on_outcome: Callable[[Outcome], None], *, interval: float = 2.0,
                 stop: Callable[[], bool] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> int:
    """Scan the folder every ``interval`` seconds until ``stop()`` is true (or forever).

    Polling, not file-system events: it works the same on a local disk, a network drive
    and every sync client, costs one directory listing per interval, and needs no extra
    package.  A note is passed on once, not at every poll, unless it changes.  A folder
    that cannot be read (a network drive gone) is noted and watched on.
    Returns the number of files imported.
    """
    last_note: dict[str, str] = {}
    imported = 0
    while True:
        try:
            outcomes = scan_folder(directory, router, state)
        except TransportError as exc:
            # a network drive that went away, a sync client that replaced the folder:
            # say so once, and keep watching
            outcomes = [Outcome(str(directory), "unavailable", f"{exc}; still watching")]
        for outcome in outcomes:
            if last_note.get(outcome.source) != outcome.note:
                last_note[outcome.source] = outcome.note
                on_outcome(outcome)
            if outcome.status == "imported":
                imported += 1
        if stop is not None and stop():
            return imported
        sleep(interval)
        if stop is not None and stop():
            return imported


class FolderTransport:
    """A shared folder behind the :class:`~pbem.transport.base.Transport` interface
    (registered as ``folder`` in the ``pbem.transports`` entry-point group)."""

    name = "folder"

    def __init__(self, home: Path, where: str) -> None:
        self.home = Path(home)
        self.directory = Path(where)

    def deliver(self, data: bytes, info: FileInfo, game: Game) -> Delivered:
        path = deliver_folder(data, self.directory, info)
        # "written to", not "delivered": a paused or stopped sync tool carries nothing
        return Delivered("folder", str(path),
                         f"file {info.seq} of {game.name} written to {path} (your sync tool "
                         f"carries it from there)")

    def remind(self, data: bytes, info: FileInfo, game: Game, subject: str,
               summary: str) -> Delivered:
        """The file again under a name of its own (``...-reminder-N.pbem``): the
        opponent's watch has handled the first name already and would not look again."""
        if not self.directory.is_dir():
            raise TransportError("shared folder does not exist (create it, or check the "
                                 "path your sync client uses)", path=str(self.directory))
        stem = file_name(info.game_id, info.seq, info.side)[:-len(SUFFIX)]
        number = 1
        while (self.directory / f"{stem}-reminder-{number}{SUFFIX}").exists():
            number += 1
        path = self.directory / f"{stem}-reminder-{number}{SUFFIX}"
        try:
            write_atomic(path, data, 0o644)
        except OSError as exc:
            raise TransportError(f"cannot write into the shared folder ({exc.strerror})",
                                 path=str(path)) from None
        return Delivered("folder", str(path),
                         f"reminder for {game.name}: file {info.seq} written again to {path}")

    def collect(self, router: Router, state: HandledState | None) -> list[Outcome]:
        return scan_folder(self.directory, router, state)

    def place(self) -> str:
        return f"folder {self.directory.resolve()}"
