"""A saved game's files on disk: its transcript and this home's record of what it sealed.

The signed save (``games/<name>.pbsave``) is a small head that commits to the game's
transcript, kept beside it in ``games/<name>.files/`` and only appended to: the exchanged
files, each written once, and one fixed-size entry per file (:class:`GameFiles`).  What
this home signed is also kept apart from the save, under ``sealed/<game id>/``
(:class:`SealRecord`), so a save put back from a backup cannot seal a second, different
file for a place (docs/protocol.md 3.4).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, overload

from pbem import canonical
from pbem.atomic import write_atomic
from pbem.envelope import body_hash
from pbem.errors import ChainError, FormatError, LocalSaveError, PbemError, quote
from pbem.sha import sha256

SAVE_SUFFIX = ".pbsave"


class SealRecord:
    """What this home signed in one game, kept outside the save (issue 20 item 4).

    ``<home>/sealed/<game id>/NNNNNN.pbem`` is every file this home sealed, written before
    the save that holds it and never replaced, and ``version`` the highest save version
    loaded, or written at a point undo cannot take back (``Game.write``: a file sealed or
    imported, a die rolled).  A save put back from a backup (or brought from another
    machine) no longer knows a file it sealed: without this record pbem would seal a
    second, different file for that place, which the opponent rightly keeps as
    equivocation.
    With it, the different file is refused and the original offered (``pbem send
    --seq``), and the old save is recognized on load as older than one already seen
    (TUF's rule against rollback: remember the highest version).
    """

    def __init__(self, home: Path, game_id: bytes) -> None:
        self.dir = home / "sealed" / game_id.hex()
        #: the mark's file, read at every save (a path joined once a record)
        self._version = self.dir / "version"

    def path(self, seq: int) -> Path:
        return self.dir / f"{seq:06d}.pbem"

    def file(self, seq: int) -> bytes | None:
        try:
            return self.path(seq).read_bytes()
        except FileNotFoundError:
            return None

    def check(self, seq: int, data: bytes, game: str) -> None:
        """Refuse to seal ``data`` for place ``seq`` when another file was sealed there."""
        from pbem.envelope import signed_identity

        old = self.file(seq)
        if old is not None and signed_identity(old) != signed_identity(data):
            raise ChainError(
                f"file {seq} of {game} was already sealed as a different file (kept in "
                f"{self.path(seq)}); this save is older than that file (put back from a "
                f"backup, or from another machine?). Sealing a second file {seq} would be "
                f"equivocation: send the original with 'pbem send {game} --seq {seq}'",
                reason="sealed")

    def add(self, seq: int, data: bytes) -> None:
        if self.file(seq) is not None:
            return  # the same file (check() ran first): the record is append-only
        self.dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path(seq), data, 0o644)

    def highest(self) -> int:
        try:
            # bytes decoded, not read_text: a text file looks its codec up, which loads
            # the encodings.ascii module in every command that loads a game (issue 35)
            text = self._version.read_bytes().decode("ascii").strip()
        except (FileNotFoundError, UnicodeDecodeError):
            return 0
        return int(text) if text.isdigit() else 0

    def see(self, version: int) -> None:
        if version > self.highest():
            self.dir.mkdir(parents=True, exist_ok=True)
            write_atomic(self._version, f"{version}\n".encode("ascii"), 0o644)


#: the save format this version writes.  3 (issue 19): the signed save is a small head (the
#: verified position, the unsealed work, the chain position, the summary) that commits to
#: the game's transcript, kept beside it and only appended to: the exchanged files
#: (``games/<name>.files/NNNNNN.pbem``, each written once) and one fixed-size entry per file
#: in ``games/<name>.files/transcript`` (the file's SHA-256, in or out, when, and a running
#: hash over all entries so far); the head signs the count and the last running hash, so
#: sealing or importing a file signs and writes the same few KB at any game length.
#: 2 signed every file's SHA-256 and the whole log in the save; 1 (no ``format`` field)
#: carried every file inside it.  All three load; a format 1 or 2 save is written as
#: format 3 the next time the game changes, once (docs/protocol.md 3.4).
SAVE_FORMAT = 3

#: one transcript entry: the file's SHA-256 (32 bytes), ``i`` or ``o`` (in or out), the
#: time (8 bytes, signed big-endian seconds), then the running hash (32 bytes)
ENTRY_SIZE = 73
_ENTRY_DATA = 41
_TRANSCRIPT_TAG = b"pbem/v1/save-transcript\0"
TRANSCRIPT_NAME = "transcript"


def chain_entry(previous: bytes, entry: bytes) -> bytes:
    """The running hash after ``entry`` (its first 41 bytes): SHA-256 of the tag, the
    running hash before it (the game id before the first entry), and the entry."""
    return sha256(_TRANSCRIPT_TAG + previous + entry).digest()


def transcript_entry(file_hash: bytes, direction: str, when: int) -> bytes:
    """An entry's first 41 bytes (the running hash follows)."""
    return file_hash + (b"o" if direction == "out" else b"i") + when.to_bytes(8, "big",
                                                                              signed=True)


def announce(text: str) -> None:
    """Tell the person running pbem something that changed on disk (a migrated save):
    one line on stderr, the channel pbem's own notes use."""
    import sys

    from pbem.text import safe

    sys.stderr.write(f"pbem: {safe(text)}\n")


def files_dir(save: Path) -> Path:
    """Where a format 2 or 3 save keeps its game's transcript (the exchanged files and,
    from format 3, the ``transcript`` entries)."""
    return save.with_name(save.name.removesuffix(SAVE_SUFFIX) + ".files")


def _damaged(text: str, path: Path) -> LocalSaveError:
    # ``path`` is the save or the transcript beside it; either way the game is the save's
    folder = path.parent if path.name == TRANSCRIPT_NAME else path
    name = folder.name.removesuffix(".files").removesuffix(SAVE_SUFFIX)
    return LocalSaveError(
        f"your local save of game {quote(name)} is inconsistent: {text} (saves swapped "
        "between games, a save put back beside another copy of its files, or a damaged "
        "disk). Nothing was changed, and nobody needs to send anything again: move "
        f"{name}{SAVE_SUFFIX} and {name}.files away and run 'pbem rebuild FILES... --name "
        f"{name}' with the game's exchanged files (yours are also in this home's sealed "
        "record, the opponent's in your mail or folder)", path=str(path))


class GameFiles:
    """A game's transcript in sequence order: its exchanged files, each read from beside
    the save when first asked for and checked against the hash the signed save commits to,
    and each file's entry (its hash, in or out, when).

    The head (the save) signs the count, file 0's SHA-256 and the running hash of the last
    entry.  Loading checks only what is cheap: the transcript holds that many entries and
    the last one carries that running hash.  The first command that reads an earlier file
    (``send --seq``, ``show``'s replay, the web view, a duplicate's comparison) reads every
    entry and recomputes the running hash from the game id: an entry changed, cut, swapped,
    or taken from another point of the game no longer ends in the hash the save signed.
    Importing or sealing the next file reads none of this (issue 19)."""

    def __init__(self, folder: Path, game_id: bytes, *, count: int, tip: bytes,
                 invite: bytes | None, hashes: list[bytes] | None, committed: int,
                 written: int, held: dict[int, bytes] | None = None,
                 unsaved: list[bytes] | None = None, migrated_from: int | None = None) -> None:
        self.folder = folder
        self.game_id = game_id
        self._count = count
        #: the running hash after the last entry (the game id before any)
        self.tip = tip
        #: the running hash the loaded save signed (entries past it are this command's)
        self._signed_tip = tip
        #: file 0's SHA-256 (read at every load, so checked on its own)
        self.invite = invite
        #: each file's SHA-256, once read and checked (None: not read yet)
        self._hashes = hashes
        #: entries 0..committed-1 are in the transcript on disk, as the loaded save signed
        self._committed = committed
        #: files 0..written-1 are on disk as the save names them
        self._written = written
        self._held: dict[int, bytes] = held if held is not None else {}
        #: whole entries (with their running hashes) not yet appended to the transcript
        self._unsaved: list[bytes] = unsaved if unsaved is not None else []
        #: the format of the save these files were read from, when older than this one
        self.migrated_from = migrated_from

    @classmethod
    def new(cls, folder: Path, game_id: bytes) -> GameFiles:
        """A new game's (empty) transcript."""
        return cls(folder, game_id, count=0, tip=game_id, invite=None, hashes=[],
                   committed=0, written=0)

    @classmethod
    def from_head(cls, path: Path, body: dict[str, Any]) -> GameFiles:
        """The transcript a format 3 save commits to, with the check at load."""
        count, tip, invite, game_id = (body.get("file_count"), body.get("transcript_hash"),
                                       body.get("invite_hash"), body.get("game_id"))
        if type(count) is not int or count < 1 or not all(
                type(h) is bytes and len(h) == 32 for h in (tip, invite, game_id)):
            raise _damaged("it names no transcript", path)
        assert isinstance(tip, bytes) and isinstance(invite, bytes)
        assert isinstance(game_id, bytes)
        files = cls(files_dir(path), game_id, count=count, tip=tip, invite=invite,
                    hashes=None, committed=count, written=count)
        try:
            files.check_tail()
        except LocalSaveError:
            named, stem = body.get("name"), path.name.removesuffix(SAVE_SUFFIX)
            if type(named) is not str or named == stem:
                raise
            # the head signs the game's own name: a head under another game's name was
            # swapped or renamed, and putting it back cures both games (issue 36 item 6)
            raise _damaged(f"{path.name} holds the save head of the game named "
                           f"{quote(named)}, not of {quote(stem)}; if {named}{SAVE_SUFFIX} "
                           f"holds the head of {quote(stem)}, putting the two back under "
                           "their own names restores both", path) from None
        return files

    @classmethod
    def from_list(cls, path: Path, body: dict[str, Any], hashes: list[bytes],
                  held: dict[int, bytes], old_format: int, me: bytes) -> GameFiles:
        """The files of a format 1 or 2 save (``hashes`` signed in it, ``held`` the files
        it carried; ``me``: the home's key), their entries made from its log: all written,
        as format 3, at the next save."""
        game_id = body.get("game_id")
        if not isinstance(game_id, bytes):
            # a format 1 save from before the game id was kept: the invite's body hash
            game_id = body_hash(canonical.decode(held[0])[5])
        files = cls(files_dir(path), game_id, count=0, tip=game_id, invite=None,
                    hashes=[], committed=0, written=0 if held else len(hashes), held=held,
                    migrated_from=old_format)
        log: dict[int, tuple[str, int]] = {}
        for entry in body.get("log", []):
            if type(entry) is dict and type(entry.get("seq")) is int \
                    and entry.get("dir") in ("in", "out") and type(entry.get("time")) is int:
                log[entry["seq"]] = (entry["dir"], entry["time"])
        for seq, file_hash in enumerate(hashes):
            if seq in log:
                direction, when = log[seq]
            else:
                # pbem logs every file; should one be missing, its signer says which way
                # (read and checked against its signed hash), and when is not known
                data = held.get(seq) or files._read_checked(seq, file_hash)
                direction, when = ("out" if canonical.decode(data)[3] == me else "in"), 0
            files._add_entry(file_hash, direction, when)
        return files

    def _add_entry(self, file_hash: bytes, direction: str, when: int) -> None:
        entry = transcript_entry(file_hash, direction, when)
        self.tip = chain_entry(self.tip, entry)
        self._unsaved.append(entry + self.tip)
        if self._hashes is not None:
            self._hashes.append(file_hash)
        if self._count == 0:
            self.invite = file_hash
        self._count += 1

    @property
    def transcript(self) -> Path:
        return self.folder / TRANSCRIPT_NAME

    def check_tail(self) -> None:
        """The cheap check at load: the transcript holds the entries the save counts, and
        the last of them, chained from the running hash the one before it carries, ends in
        the hash the save signed (a cut transcript, or one whose last entry changed, is
        named before anything is played on it; two entries read, one hash)."""
        count = self._committed
        tail = self._committed_entries(max(count - 2, 0))
        before = tail[_ENTRY_DATA:ENTRY_SIZE] if count > 1 else self.game_id
        last = tail[-ENTRY_SIZE:]
        if last[_ENTRY_DATA:] != self.tip or chain_entry(before, last[:_ENTRY_DATA]) != self.tip:
            raise _damaged(f"entry {count - 1} of the transcript beside it is not the one "
                           "the save signed", self.transcript)

    def _committed_entries(self, first: int) -> bytes:
        """Entries ``first`` .. the last the save counts, as the transcript on disk holds
        them; a transcript holding fewer, or unreadable, is named damaged."""
        path = self.transcript
        want = self._committed * ENTRY_SIZE
        try:
            with path.open("rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size < want:
                    raise _damaged(f"the transcript beside it holds {size // ENTRY_SIZE} "
                                   f"entries, the save counts {self._committed}", path)
                handle.seek(first * ENTRY_SIZE)
                return handle.read(want - first * ENTRY_SIZE)
        except OSError as exc:
            raise _damaged(f"its transcript cannot be read ({exc})", path) from None

    def _load_hashes(self) -> list[bytes]:
        """Every file's hash, from the transcript checked whole against the save."""
        if self._hashes is not None:
            return self._hashes
        path = self.transcript
        data = self._committed_entries(0)
        tip = self.game_id
        hashes = []
        for seq in range(self._committed):
            entry = data[seq * ENTRY_SIZE:(seq + 1) * ENTRY_SIZE]
            tip = chain_entry(tip, entry[:_ENTRY_DATA])
            if entry[_ENTRY_DATA:] != tip or entry[32:33] not in (b"i", b"o"):
                raise _damaged(f"entry {seq} of the transcript beside it is not the one the "
                               "save signed (changed, swapped, or from another point of the "
                               "game)", path)
            hashes.append(entry[:32])
        if tip != self._signed_tip:
            # each entry chains to the next, but not to what the save signed: a whole
            # transcript put in place since the load checked its last entry
            raise _damaged("the transcript beside it does not end in the hash the save "
                           "signed", path)
        hashes += [entry[:32] for entry in self._unsaved]
        if self._committed and hashes[0] != self.invite:
            raise _damaged("the transcript's first entry is not the invite the save "
                           "signed", path)
        self._hashes = hashes
        return hashes

    @property
    def hashes(self) -> list[bytes]:
        """Every file's SHA-256, in order (reads and checks the whole transcript)."""
        return self._load_hashes()

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def path(self, seq: int) -> Path:
        return self.folder / f"{seq:06d}.pbem"

    def _hash(self, seq: int) -> bytes:
        if seq == 0 and self.invite is not None:
            return self.invite
        return self._load_hashes()[seq]

    def _read(self, seq: int) -> bytes:
        data = self._read_checked(seq, self._hash(seq))
        self._held[seq] = data
        return data

    def _read_checked(self, seq: int, want: bytes) -> bytes:
        from pbem.envelope import MAX_EXCHANGED
        from pbem.readfile import read_bounded

        path = self.path(seq)
        try:
            data = read_bounded(path, MAX_EXCHANGED)
        except (OSError, PbemError) as exc:
            raise FormatError(f"save file is damaged: file {seq} of the game, kept beside it, "
                              f"cannot be read ({exc})", path=str(path)) from None
        if sha256(data).digest() != want:
            raise FormatError(f"save file is damaged or was altered: file {seq} of the game, "
                              "kept beside it, is not the one the save signed", path=str(path))
        return data

    def get(self, seq: int, default: bytes | None = None) -> bytes | None:
        """File ``seq`` if the game has it (the verifier's question about a known place)."""
        return self[seq] if 0 <= seq < self._count else default

    @overload
    def __getitem__(self, seq: int) -> bytes: ...

    @overload
    def __getitem__(self, seq: slice) -> list[bytes]: ...

    def __getitem__(self, seq: int | slice) -> bytes | list[bytes]:
        if isinstance(seq, slice):
            return [self[i] for i in range(*seq.indices(self._count))]
        if seq < 0:
            seq += self._count
        if not 0 <= seq < self._count:
            raise IndexError(seq)
        held = self._held.get(seq)
        return held if held is not None else self._read(seq)

    def __iter__(self) -> Iterator[bytes]:
        return (self[i] for i in range(self._count))

    def __eq__(self, other: object) -> bool:
        """The same files in the same order (a list of bytes compares too)."""
        if isinstance(other, GameFiles):
            return self.hashes == other.hashes
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def append(self, data: bytes, direction: str, when: int) -> None:
        """File ``len(self)`` of the game, which came ``in`` or went ``out`` at ``when``."""
        self._held[self._count] = data
        self._add_entry(sha256(data).digest(), direction, when)

    def flush(self) -> None:
        """Write the files and entries the save on disk does not name yet, before the
        save that does: a crash in between leaves files and entries past the count the
        save signs, which readers ignore and the next write replaces."""
        if self._written >= self._count and not self._unsaved:
            return
        from pbem.atomic import append_durable

        self.folder.mkdir(parents=True, exist_ok=True)
        for seq in range(self._written, self._count):
            write_atomic(self.path(seq), self._held[seq], 0o644)
        self._written = self._count
        if self._unsaved:
            try:
                append_durable(self.transcript, self._committed * ENTRY_SIZE,
                               b"".join(self._unsaved))
            except OSError as exc:
                raise _damaged(f"its transcript cannot be written ({exc})",
                               self.transcript) from None
            self._committed = self._count
            self._signed_tip = self.tip  # what the head written next signs
            self._unsaved = []
