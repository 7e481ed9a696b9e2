"""What differs between Windows, macOS and Linux, in one place.

A pbem game is only as good as the weaker of the two players' machines, so nothing
outside this module (and the key reader in :mod:`pbem.render.narrate`) may call a
POSIX-only or Windows-only function.  ``mypy --strict --platform win32`` and
``--platform darwin`` check that, because typeshed declares ``fcntl``, ``termios`` and
``msvcrt`` only for the platforms that have them.

Every branch tests ``sys.platform`` at call time (never ``os.name``, which mypy cannot
narrow on), so the tests can run the Windows branches on Linux with ``sys.platform``
patched and a fake ``msvcrt`` module.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "APP_NAME",
    "file_name_problem",
    "home_dir",
    "legacy_home",
    "lock_file",
    "private_file_problem",
    "replace_file",
    "utf8_output",
]

APP_NAME = "pbem"

# --- where a player's home is ---------------------------------------------------------


def legacy_home() -> Path:
    """Where pbem 0.1 put the home, worked out by hand: still used where a home exists."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
        return base / APP_NAME
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_NAME
    xdg = os.environ.get("XDG_DATA_HOME")
    # the XDG spec says a relative value is invalid and must be ignored
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_NAME


def _platform_home() -> Path:
    import platformdirs

    # roaming: a Windows player's identity follows them between the machines of a domain
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=True))


def home_dir() -> Path:
    """The folder holding identities, contacts and games.

    ``PBEM_HOME`` wins (tests and CI point it at a temporary folder).  Otherwise the
    per-user application-data folder ``platformdirs`` names (``%APPDATA%\\pbem`` on
    Windows, ``~/Library/Application Support/pbem`` on macOS, ``$XDG_DATA_HOME/pbem`` or
    ``~/.local/share/pbem`` on Linux) -- unless that folder does not exist and a home
    made by an earlier pbem does, at the path it worked out itself: a player's games and
    key must never seem lost after an upgrade, so the old home goes on being used.
    """
    env = os.environ.get("PBEM_HOME")
    if env:
        return Path(env).expanduser()
    home = _platform_home()
    if not home.is_absolute():  # a relative XDG_DATA_HOME, which the spec says to ignore
        return legacy_home()
    if not home.exists():
        old = legacy_home()
        if old != home and old.is_dir():
            return old
    return home


# --- locks --------------------------------------------------------------------------------

#: how long to wait between two tries of a Windows lock held by another process
LOCK_RETRY_SECONDS = 0.05


@contextlib.contextmanager
def lock_file(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the ``with`` block.

    Waits while another process holds it.  POSIX: ``fcntl.flock``.  Windows:
    ``msvcrt.locking`` on the first byte, tried again until free (its own blocking mode
    gives up after ten seconds, and a save being written by the other window must be
    waited for, not failed on).  The lock is advisory between pbem processes: it
    serialises two commands writing the same save, nothing more.
    """
    with open(path, "a+b") as handle:
        fd = handle.fileno()
        if sys.platform == "win32":
            import msvcrt

            os.lseek(fd, 0, os.SEEK_SET)  # msvcrt locks from the current position
            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                    break
                except OSError:
                    time.sleep(LOCK_RETRY_SECONDS)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)


# --- replacing a file ------------------------------------------------------------------------

#: Windows refuses to replace a file another process has open (a virus scanner, a sync
#: client, the other pbem window reading the save); such holds last milliseconds
REPLACE_TRIES = 10


def replace_file(source: Path, target: Path) -> None:
    """:func:`os.replace`, tried again on Windows while the target is briefly held open."""
    if sys.platform != "win32":
        os.replace(source, target)
        return
    for attempt in range(REPLACE_TRIES):
        try:
            os.replace(source, target)
            return
        except PermissionError:
            if attempt == REPLACE_TRIES - 1:
                raise
            time.sleep(LOCK_RETRY_SECONDS * (attempt + 1))


# --- private files ----------------------------------------------------------------------------


def private_file_problem(path: Path, *, encrypted: bool = False) -> str | None:
    """Why a private file (the key, a mail password) is not private here, or None.

    POSIX: any group or other permission bit is a problem (``chmod 600`` fixes it).
    Windows: permission bits mean nothing there (``st_mode`` always shows 0o666), and
    what keeps other users out is the access list of the user's own profile folder,
    which only the user, the administrators and SYSTEM may read; a file outside it
    (another drive, a shared folder) has whatever access that place grants.  So an
    unencrypted key must lie inside the profile; an encrypted one (``encrypted``) is
    protected by its passphrase wherever it is.
    """
    if sys.platform == "win32":
        if encrypted:
            return None
        profile = Path(os.environ.get("USERPROFILE") or Path.home())
        try:
            inside = path.resolve().is_relative_to(profile.resolve())
        except OSError:
            inside = False
        if inside:
            return None
        return (f"it lies outside your profile folder {profile}, where other users of this "
                f"machine may be able to read it; keep the pbem home (PBEM_HOME) inside "
                f"your profile")
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        return f"permissions {mode:04o} let others read it; run `chmod 600 {path}`"
    return None


# --- file names that travel ----------------------------------------------------------------

#: names Windows gives to devices, with or without an extension (``con.pbem`` too)
WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{dev}{n}" for dev in ("COM", "LPT") for n in [*"123456789", "¹", "²", "³"]]
)
# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
#: characters Windows refuses in a name, and the C0 controls
_WINDOWS_BAD = r'[<>:"/\\|?*\x00-\x1f]'


def file_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file name on every platform, or None.

    A game's save, its evidence folder and the files it sends may be copied to a
    Windows machine by the player or a sync client, so the Windows rules apply
    everywhere: no ``< > : " / \\ | ? *`` or control characters, no device name
    (``CON``, ``NUL``, ``COM1``..., even with an extension), no trailing dot or space.
    """
    if not name:
        return "a name cannot be empty"
    bad = re.search(_WINDOWS_BAD, name)
    if bad:
        return f"{bad.group()!r} is not allowed in a file name on Windows"
    if name[-1] in ". ":
        return "a name cannot end with a dot or a space on Windows"
    stem = name.split(".", 1)[0].rstrip(" ").upper()
    if stem in WINDOWS_RESERVED:
        return f"{stem} is a device name on Windows and cannot name a file"
    return None


# --- text output ------------------------------------------------------------------------------


def utf8_output() -> None:
    """Make stdout and stderr UTF-8 on Windows when they go to a file or a pipe.

    There Python writes redirected output in the ANSI code page (cp1252 in Western
    Europe), which has no Cyrillic for a Soviet player's name and none of the board's
    box-drawing characters: ``pbem show g > board.txt`` would stop on an encoding
    error.  A console is left alone (Python writes Unicode to it already), and so is
    every other platform, where the locale is UTF-8 in practice.
    """
    if sys.platform != "win32":
        return
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper) or stream.encoding.lower() in (
                "utf-8", "utf8"):
            continue
        with contextlib.suppress(OSError, ValueError):
            if not stream.isatty():
                stream.reconfigure(encoding="utf-8")

