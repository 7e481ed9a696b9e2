"""pbem.datacache: data only, checked before use, and a damaged entry costs only time."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from pbem import datacache

VALUE = {"name": "map", "hexes": [["0101", 3], ["0102", -1]], "ok": True, "raw": b"\x00\xff",
         "none": None, "ratio": 1.5}


def _entry(folder: Path) -> Path:
    (path,) = folder.iterdir()
    return path


def test_nothing_kept_unless_configured(tmp_path: Path) -> None:
    datacache.configure(None)
    key = datacache.make_key("x")
    datacache.store("toml", key, VALUE)
    assert datacache.load("toml", key) is None
    assert list(tmp_path.iterdir()) == []


def test_round_trip_keeps_types_and_order(data_cache: Path) -> None:
    key = datacache.make_key("toml", b"bytes of a file")
    assert datacache.load("toml", key) is None
    datacache.store("toml", key, VALUE)
    back = datacache.load("toml", key)
    assert back == VALUE and list(back) == list(VALUE)
    assert type(back["raw"]) is bytes and type(back["ok"]) is bool


def test_keys_differ_with_any_part() -> None:
    assert datacache.make_key("a", "bc") != datacache.make_key("ab", "c")
    assert datacache.make_key("a", b"b") == datacache.make_key("a", "b")


def test_what_would_not_come_back_the_same_is_not_kept(data_cache: Path) -> None:
    key = datacache.make_key("t")
    for value in ({"t": (1, 2)}, {"s": {1, 2}}, {"big": 2**70}, {"o": object()}):
        datacache.store("toml", key, value)
        assert datacache.load("toml", key) is None
    assert not data_cache.exists() or list(data_cache.iterdir()) == []


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "append"])
def test_damaged_entry_is_a_miss(data_cache: Path, damage: str) -> None:
    key = datacache.make_key("toml", b"x")
    datacache.store("toml", key, VALUE)
    path = _entry(data_cache)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        for at in range(len(data)):  # every byte: no position is trusted unchecked
            data[at] ^= 0x01
            path.write_bytes(bytes(data))
            assert datacache.load("toml", key) in (None, VALUE), at
            data[at] ^= 0x01
        data[-1] ^= 0x40  # a byte of the payload itself
    elif damage == "truncate":
        del data[len(data) // 2:]
    elif damage == "empty":
        data = bytearray()
    else:
        data += b"\x00"
    path.write_bytes(bytes(data))
    assert datacache.load("toml", key) is None
    datacache.store("toml", key, VALUE)  # rebuilt and written anew
    assert datacache.load("toml", key) == VALUE


def test_flipping_any_payload_byte_is_caught(data_cache: Path) -> None:
    key = datacache.make_key("toml", b"y")
    datacache.store("toml", key, VALUE)
    path = _entry(data_cache)
    good = path.read_bytes()
    payload = msgpack.unpackb(good)[5]
    start = good.index(payload)
    for at in range(start, start + len(payload)):
        bad = bytearray(good)
        bad[at] ^= 0x20
        path.write_bytes(bytes(bad))
        assert datacache.load("toml", key) is None, at


def test_another_entrys_file_is_not_taken(data_cache: Path) -> None:
    one, two = datacache.make_key("one"), datacache.make_key("two")
    datacache.store("toml", one, {"v": 1})
    datacache.store("toml", two, {"v": 2})
    by_key = {p.name: p for p in data_cache.iterdir()}
    first = next(p for n, p in by_key.items() if one.hex()[:32] in n)
    second = next(p for n, p in by_key.items() if two.hex()[:32] in n)
    second.write_bytes(first.read_bytes())  # a copy under the other's name
    assert datacache.load("toml", two) is None
    assert datacache.load("hexmap", one) is None  # another kind, same key: refused too
    assert datacache.load("toml", one) == {"v": 1}


def test_code_is_never_run(data_cache: Path) -> None:
    """A pickle (which runs code when loaded) or an ext type in the entry is not read."""
    key = datacache.make_key("toml", b"z")
    datacache.store("toml", key, VALUE)
    path = _entry(data_cache)

    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (print, ("ran",))

    path.write_bytes(pickle.dumps(Boom()))
    assert datacache.load("toml", key) is None
    payload = msgpack.packb(msgpack.ExtType(1, b"\x00"))
    import zlib

    path.write_bytes(msgpack.packb([datacache.MAGIC, datacache.VERSION, "toml", key,
                                    zlib.crc32(payload), payload]))
    assert datacache.load("toml", key) is None


def test_unwritable_home_only_skips_the_cache(tmp_path: Path) -> None:
    datacache.configure(tmp_path / "no such home" / "cache")
    try:
        key = datacache.make_key("w")
        datacache.store("toml", key, VALUE)  # no error
        assert datacache.load("toml", key) is None
    finally:
        datacache.configure(None)


def test_unused_entries_are_pruned_when_another_is_written(
        data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A later command's first write prunes (a process prunes a folder once: the writes
    that set the entries up here are an earlier command's)."""
    import os

    day = 24 * 3600
    old, used, fresh = (datacache.make_key(x) for x in ("old", "used", "fresh"))
    for key in (old, used):
        datacache.store("toml", key, VALUE)
    entries = {p.name: p for p in data_cache.iterdir()}
    now = entries[datacache._path("toml", old).name].stat().st_mtime  # type: ignore[union-attr]
    long_ago = now - (datacache.UNUSED_DAYS + 1) * day
    for path in entries.values():
        os.utime(path, (long_ago, long_ago))
    # a crash's temp file a day old goes; anything not the cache's own stays
    (data_cache / ".toml-x.msgpack.1.2.tmp").write_bytes(b"")
    os.utime(data_cache / ".toml-x.msgpack.1.2.tmp", (now - 2 * day, now - 2 * day))
    (data_cache / ".toml-y.msgpack.3.4.tmp").write_bytes(b"")  # another command's, now
    (data_cache / "notes.txt").write_text("mine")
    os.utime(data_cache / "notes.txt", (long_ago, long_ago))
    # read: marked used (not pruned), and still the same value
    assert datacache.load("toml", used) == VALUE
    monkeypatch.setattr(datacache, "_PRUNED", set())  # the later command
    datacache.store("toml", fresh, VALUE)
    names = sorted(p.name for p in data_cache.iterdir())
    assert datacache._path("toml", old).name not in names  # type: ignore[union-attr]
    for key in (used, fresh):
        assert datacache._path("toml", key).name in names  # type: ignore[union-attr]
        assert datacache.load("toml", key) == VALUE
    assert ".toml-x.msgpack.1.2.tmp" not in names
    assert ".toml-y.msgpack.3.4.tmp" in names and "notes.txt" in names


def test_prune_is_by_the_given_time(tmp_path: Path) -> None:
    import os

    folder = tmp_path / "cache"
    folder.mkdir()
    for name, age in (("toml-a.msgpack", 10), ("toml-b.msgpack", 40), ("hexmap-c.msgpack", 31)):
        (folder / name).write_bytes(b"")
        os.utime(folder / name, (1_000_000_000 - age * 86400,) * 2)
    assert datacache.prune(folder, now=1_000_000_000) == ["hexmap-c.msgpack", "toml-b.msgpack"]
    assert [p.name for p in folder.iterdir()] == ["toml-a.msgpack"]
    assert datacache.prune(tmp_path / "missing") == []


def test_prune_makes_no_path_per_entry(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """One directory scan, each entry stat'ed by its path string: a Path made and
    stat'ed per name cost 38 K instructions an entry, 1.3 M of a receive storing a new
    entry in a home of 35 (issue 35); the same entries go, in the same order."""
    import os

    folder = tmp_path / "cache"
    folder.mkdir()
    for name, age in (("toml-a.msgpack", 10), ("toml-b.msgpack", 40),
                      ("hexmap-c.msgpack", 31), (".toml-d.msgpack.1.2.tmp", 2)):
        (folder / name).write_bytes(b"")
        os.utime(folder / name, (1_000_000_000 - age * 86400,) * 2)

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("a Path made for an entry")

    monkeypatch.setattr(Path, "stat", refused)
    monkeypatch.setattr(Path, "unlink", refused)
    assert datacache.prune(folder, now=1_000_000_000) == [
        ".toml-d.msgpack.1.2.tmp", "hexmap-c.msgpack", "toml-b.msgpack"]
    monkeypatch.undo()
    assert [p.name for p in folder.iterdir()] == ["toml-a.msgpack"]


def test_an_entry_is_read_by_its_size(data_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry asks for its own size (plus one byte), not MAX_ENTRY: a 32 MB buffer
    per entry was most of a 50-game status's reading (issue 19)."""
    key = datacache.make_key("small")
    datacache.store("toml", key, VALUE)
    asked: list[int] = []

    class Counting:
        def __init__(self, path: Any, mode: str) -> None:
            self.handle = open(path, mode)  # noqa: SIM115 (closed by __exit__)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return self.handle.fileno()

        def read(self, size: int = -1) -> bytes:
            asked.append(size)
            data: bytes = self.handle.read(size)
            return data

    # the module's own name 'open' is looked up before the builtin one
    monkeypatch.setattr(datacache, "open", Counting, raising=False)
    assert datacache.load("toml", key) == VALUE
    assert asked == [_entry(data_cache).stat().st_size + 1]


def test_files_digest_is_kept_by_the_files_stamps(data_cache: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest of a kit's source (the code its kept maps were built by) is read once
    and then found by the files' stamps (issue 35: hashing the hex kit's 150 KB took
    10 M instructions a command); an edited file is read and hashed again."""
    from pbem.sha import sha256

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_bytes(b"x = 1\n")
    b.write_bytes(b"y = 2\n")
    whole = sha256(b"a.py\0x = 1\nb.py\0y = 2\n").digest()
    assert datacache.files_digest([a, b]) == whole
    read: list[str] = []
    real = datacache._read

    def counted(path: str | Path) -> bytes:
        read.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(datacache, "_read", counted)
    assert datacache.files_digest([a, b]) == whole
    assert read == []  # kept: no source read
    b.write_bytes(b"y = 30\n")  # another size: another stamp
    assert datacache.files_digest([a, b]) == sha256(b"a.py\0x = 1\nb.py\0y = 30\n").digest()
    assert read == ["a.py", "b.py"]
    datacache.configure(None)  # no cache: made from the bytes every time
    assert datacache.files_digest([a, b]) == sha256(b"a.py\0x = 1\nb.py\0y = 30\n").digest()
    assert read == ["a.py", "b.py", "a.py", "b.py"]


def test_an_entry_is_checked_without_hashing_it(
        data_cache: Path, record_hashing: Callable[[object], list[int]]) -> None:
    """A kept entry's payload is checked by its CRC-32, not hashed again with SHA-256 at
    every read (issue 35: 16 M instructions of every 48th Panzer Korps command); the
    damage it catches is in the tests above."""
    big = {"hexes": [[f"{n:04d}", n] for n in range(5000)]}
    key = datacache.make_key("hexmap", b"m")
    datacache.store("hexmap", key, big)
    hashed = record_hashing(datacache)
    assert datacache.load("hexmap", key) == big
    assert hashed == []


def test_a_data_files_digest_is_kept_by_its_stamp(
        data_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        record_hashing: Callable[[object], list[int]]) -> None:
    """A scenario file's SHA-256 (the invite's pin, the parsed tables' key) is taken once
    and then found by the file's stamp: a later command reads the file but hashes none
    of it (issue 35: 47 instructions a byte); a file changed is hashed again."""
    from pbem import sha

    path = tmp_path / "map.toml"
    path.write_bytes(b"[map]\ntitle = 'x'\n" * 200)
    whole = sha.sha256(path.read_bytes()).digest()
    assert datacache.read_known(path) == path.read_bytes()
    real = sha.sha256
    hashed = record_hashing(sha)
    monkeypatch.setattr(sha, "_digests", {})  # a new process
    raw = datacache.read_known(path)
    assert sha.content_digest(raw) == whole
    assert [n for n in hashed if n >= len(raw)] == []  # none of the file hashed
    path.write_bytes(b"[map]\ntitle = 'y'\n" * 201)
    raw = datacache.read_known(path)
    assert sha.content_digest(raw) == real(raw).digest()
    assert len(raw) in hashed


def test_a_process_prunes_a_folder_once(data_cache: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Storing prunes the cache folder, but once a process (issue 35): an entry goes after
    weeks unused, so a second look in the same command finds nothing the first left, and
    each look reads every entry's time."""
    looked: list[Path] = []
    real = datacache.prune
    monkeypatch.setattr(datacache, "prune", lambda folder: looked.append(folder) or real(folder))
    monkeypatch.setattr(datacache, "_PRUNED", set())
    for n in range(3):
        datacache.store("toml", datacache.make_key("once", str(n)), VALUE)
    assert looked == [data_cache]
    assert all(datacache.load("toml", datacache.make_key("once", str(n))) == VALUE
               for n in range(3))


def test_an_entry_written_over_does_not_prune(data_cache: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a new entry can leave another unused (its key took the old one's place), so
    only a new entry prunes (issue 35: every act and receive writes its game's summary
    over the last one, and looking at every entry's time for it cost 0.8 M
    instructions); the new one still removes what went unused."""
    import os

    old, summary, fresh = (datacache.make_key(x) for x in ("old", "summary", "fresh"))
    datacache.store("toml", old, VALUE)
    datacache.store("summary", summary, VALUE)  # an earlier command's
    long_ago = os.stat(datacache._path("toml", old)).st_mtime - 31 * 24 * 3600  # type: ignore[arg-type]
    os.utime(datacache._path("toml", old), (long_ago, long_ago))  # type: ignore[arg-type]
    looked: list[Path] = []
    real = datacache.prune
    monkeypatch.setattr(datacache, "prune", lambda folder: looked.append(folder) or real(folder))
    monkeypatch.setattr(datacache, "_PRUNED", set())  # a later command
    datacache.store("summary", summary, {"turn": 2})  # written over
    assert looked == []
    assert datacache.load("summary", summary) == {"turn": 2}
    assert datacache.load("toml", old) == VALUE  # not looked at: still there
    os.utime(datacache._path("toml", old), (long_ago, long_ago))  # type: ignore[arg-type]
    datacache.store("toml", fresh, VALUE)  # new: prunes, once
    datacache.store("toml", datacache.make_key("fresh 2"), VALUE)
    assert looked == [data_cache]
    assert datacache.load("toml", old) is None and datacache.load("toml", fresh) == VALUE
