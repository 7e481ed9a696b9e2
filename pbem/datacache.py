"""Data derived from the installed scenario files, kept between commands (issue 19).

Every command that loads a game used to parse the engine's scenario TOML and build its
map again (20-120 ms a command, more than the rules take).  What is derived depends only
on the bytes it is derived from and on the code that derives it, so it is kept under a
key hashing both (a file's SHA-256 is what an invite pins, ``scenario_files``), in
``HOME/cache/``.

A cache file is data, never code: plain msgpack of maps, lists, strings, numbers and
bytes (never pickle, which runs code when read), with ext types refused.  Each entry
carries its kind, its key and the CRC-32 of its payload, and is used only when all
three match; anything else (a flipped byte, a truncated or foreign file, a payload the
caller cannot rebuild from) reads as a miss, and the caller derives the data again and
writes the entry anew.  A damaged cache costs time, never a wrong answer or a refusal.
The payload's check is for damage, not forgery: whoever can write the home can write
any check beside a payload, so a cryptographic hash buys nothing over CRC-32, which
catches every flipped byte or cut and costs a thirtieth of SHA-256 (whose builtin form
took 16 M instructions for 48th Panzer Korps' 330 KB of kept map and move costs, every
command: issue 35).
Nothing is cached unless :func:`configure` named a folder (the command line does, for
its home); library callers and tests derive as before.

An entry is written without fsync (a cut-short entry reads as a miss) and is pruned
when unused: an entry read is marked used (its modification time, at most once a day),
and each new entry removes those not used for :data:`UNUSED_DAYS` days (the tables of a
data file since edited, a kit since upgraded, a game since deleted).  The clock decides
only what is derived again, never an answer.
"""

from __future__ import annotations

import contextlib
import os
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgpack

from pbem.sha import sha256

MAGIC = "pbem-cache"
#: 2: the payload checked by CRC-32 (1: by SHA-256; read as a miss, and written anew)
VERSION = 2
#: an entry larger than this is not read (the largest map's entry is about 1 MB)
MAX_ENTRY = 32 * 1024 * 1024
#: an entry not read for this long is removed when another is written
UNUSED_DAYS = 30
_DAY = 24 * 3600

_directory: Path | None = None


def configure(directory: Path | None) -> None:
    """Keep entries in ``directory`` (created on first write), or nowhere (``None``)."""
    global _directory
    _directory = directory


def directory() -> Path | None:
    return _directory


def make_key(*parts: bytes | str) -> bytes:
    """SHA-256 over the parts, each length-prefixed (no two part lists share a key)."""
    # one input, not an update a part: a long save goes to OpenSSL's hash (pbem.sha.BIG)
    pieces = [b"pbem/v1/cache\0"]
    for part in parts:
        raw = part.encode("utf-8") if isinstance(part, str) else part
        pieces += (len(raw).to_bytes(8, "big"), raw)
    return sha256(b"".join(pieces)).digest()


def _path(kind: str, key: bytes) -> Path | None:
    if _directory is None:
        return None
    return _directory / f"{kind}-{key.hex()[:32]}.msgpack"


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not cache data")


def load(kind: str, key: bytes) -> Any | None:
    """The value stored for ``(kind, key)``, or None: none stored, or not intact."""
    path = _path(kind, key)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            used = st.st_mtime
            # by the file's size: read(MAX_ENTRY + 1) made a 32 MB buffer for every entry
            # (45 us each, 50 of them for a 50-game 'pbem status')
            data = handle.read(min(st.st_size, MAX_ENTRY) + 1)
    except OSError:
        return None
    if len(data) > MAX_ENTRY:
        return None
    try:
        entry = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
        if type(entry) is not list or len(entry) != 6:
            return None
        magic, version, stored_kind, stored_key, digest, payload = entry
        if (magic != MAGIC or type(version) is not int or version != VERSION
                or stored_kind != kind or stored_key != key or type(payload) is not bytes
                or type(digest) is not int or zlib.crc32(payload) != digest):
            return None
        value = msgpack.unpackb(payload, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
    except Exception:  # whatever the bytes are, an unreadable entry is only a miss
        return None
    now = time.time()
    if now - used > _DAY:  # in use: not pruned (marked once a day, not on every read)
        with contextlib.suppress(OSError):
            os.utime(path, (now, now))
    return value


#: the folders this process has pruned (:func:`store`)
_PRUNED: set[Path] = set()


def store(kind: str, key: bytes, value: Any) -> None:
    """Keep ``value`` (exact dict, list, str, int, float, bool, None, bytes only) for
    ``(kind, key)``; a value of any other type, or a home that cannot be written, is
    simply not cached."""
    path = _path(kind, key)
    if path is None:
        return
    try:
        # strict types: a tuple or a mapping proxy would come back as something else
        payload = msgpack.packb(value, use_bin_type=True, strict_types=True)
    except (TypeError, ValueError, OverflowError):
        return
    entry = msgpack.packb([MAGIC, VERSION, kind, key, zlib.crc32(payload),
                           payload], use_bin_type=True)
    if len(entry) > MAX_ENTRY:
        return
    # an entry written over adds nothing a prune could remove (an unused entry is left
    # behind only when a new key takes its place): every act and receive rewrites its
    # game's summary, and looking at every entry's time for that cost 0.8 M instructions
    # of each (issue 35)
    new = path.parent not in _PRUNED and not os.path.exists(path)
    try:
        path.parent.mkdir(exist_ok=True)  # in the home, which must exist already
        _write(path, entry)
    except OSError:
        return
    # once a process and folder: the entries go after UNUSED_DAYS unused, so a second
    # look in the same command finds nothing the first left, and each look reads every
    # entry's time (a receive stored four entries and stat'ed 42 files, issue 35)
    if new:
        _PRUNED.add(path.parent)
        prune(path.parent)


def _write(path: Path, data: bytes) -> None:
    """Replace ``path`` so a reader sees the old entry or the new one, never a mix; not
    fsynced (a cache: an entry a crash cuts short is a miss), so no temp-file module."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def prune(folder: Path, now: float | None = None) -> list[str]:
    """Remove the entries of ``folder`` not used for :data:`UNUSED_DAYS` days (and temp
    files a crash left a day ago); the names removed, in order.  Only this module's own
    names are touched: whatever else is in the folder stays."""
    now = time.time() if now is None else now
    removed: list[str] = []
    # one scan, each entry stat'ed by its path string: a Path made and stat'ed per name
    # was 38 K instructions an entry, 1.3 M of a receive that stores a new entry in a
    # home of 35 (issue 35)
    try:
        with os.scandir(folder) as scan:
            entries = sorted((entry.name, entry.path) for entry in scan)
    except OSError:
        return removed
    for name, path in entries:
        if name.endswith(".msgpack") and not name.startswith("."):
            limit = UNUSED_DAYS * _DAY
        elif name.startswith(".") and name.endswith(".tmp"):
            limit = _DAY
        else:
            continue
        try:
            if now - os.stat(path).st_mtime > limit:
                os.unlink(path)
                removed.append(name)
        except OSError:
            pass  # gone already (another command pruned it), or not ours to remove
    return removed


def files_digest(paths: Sequence[str | Path]) -> bytes:
    """SHA-256 over each file's name and bytes, in the order given: the code a kept
    entry was derived by (a kit's modules), part of that entry's key.

    Reading and hashing the hex kit's 150 KB of source took 10 M instructions of every
    command that loads a game, as much as the rest of reading its data (issue 35).  The
    digest is kept here under each file's path, size, modification time and inode, as
    Python keeps a module's bytecode under its source's size and modification time: a
    file replaced or edited gets a new stamp, so the digest is made again from its
    bytes.  Without a cache folder, or when a file cannot be read, it is made from the
    bytes every time (a missing file raises, as reading it does).  A path may be a
    string: a kit names its two dozen files so, where making a ``Path`` of each was a
    fifth of finding its digest (issue 35)."""
    stamps: list[bytes | str] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            stamps = []
            break
        stamps.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}")
    key = make_key("code", *stamps) if stamps else None
    if key is not None:
        kept = load("code", key)
        if type(kept) is bytes and len(kept) == 32:
            return kept
    digest = sha256(b"".join(os.path.basename(path).encode() + b"\0" + _read(path)
                             for path in paths)).digest()
    if key is not None:
        store("code", key, digest)
    return digest


def _read(path: str | Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def read_known(path: Path) -> bytes:
    """The bytes of the data file ``path``, their SHA-256 (what an invite pins, and the
    key of what is derived from them) kept here under the file's path, size,
    modification time and inode, as :func:`files_digest` keeps code's: the scenario
    files' 20-100 KB took 47 instructions a byte to hash, every command (issue 35).
    The stamp is taken before and after the read: a file changing meanwhile is hashed
    from the bytes read, and its digest not kept."""
    from pbem.sha import content_digest, remember_digest

    before = os.stat(path)
    raw = path.read_bytes()
    after = os.stat(path)
    stamp = [(st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev) for st in (before, after)]
    if stamp[0] != stamp[1] or len(raw) != before.st_size:
        return raw
    key = make_key("digest", str(path), *(str(n) for n in stamp[0]))
    kept = load("digest", key)
    if type(kept) is bytes and len(kept) == 32:
        remember_digest(raw, kept)
    else:
        store("digest", key, content_digest(raw))
    return raw
