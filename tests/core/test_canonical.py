"""Canonical msgpack: one value, one byte string; everything else refused."""

from __future__ import annotations

import struct
from fractions import Fraction
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import canonical
from pbem.errors import FormatError

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


@given(values)
def test_round_trip(value: Any) -> None:
    data = canonical.encode(value)
    assert canonical.decode(data) == value
    assert canonical.encode(canonical.decode(data)) == data


@given(st.dictionaries(st.text(max_size=6), st.integers(-1000, 1000), min_size=2, max_size=6))
def test_key_order_does_not_matter(mapping: dict[str, int]) -> None:
    reversed_map = dict(reversed(list(mapping.items())))
    assert canonical.encode(mapping) == canonical.encode(reversed_map)


def test_unsorted_keys_refused() -> None:
    data = b"\x82\xa1b\x01\xa1a\x02"  # {"b": 1, "a": 2} in written order
    with pytest.raises(FormatError, match="not canonical"):
        canonical.decode(data)


def test_duplicate_keys_refused() -> None:
    data = b"\x82\xa1a\x01\xa1a\x02"
    with pytest.raises(FormatError, match="duplicate map key"):
        canonical.decode(data)


@pytest.mark.parametrize("data", [
    b"\xcc\x05",  # 5 as uint8 instead of a positive fixint
    b"\xcd\x00\x05",  # 5 as uint16
    b"\xd0\x01",  # 1 as int8
    b"\xd9\x01a",  # "a" as str8 instead of fixstr
    b"\xdc\x00\x01\x01",  # [1] as array16
    b"\xc4\x01a\xc0",  # trailing byte
])
def test_non_shortest_forms_refused(data: bytes) -> None:
    with pytest.raises(FormatError):
        canonical.decode(data)


def test_float_refused_on_both_sides() -> None:
    with pytest.raises(FormatError, match="float"):
        canonical.encode({"x": 0.5})
    with pytest.raises(FormatError, match="float"):
        canonical.decode(b"\xcb" + struct.pack(">d", 0.5))
    with pytest.raises(FormatError, match="float"):
        canonical.decode(b"\xca" + struct.pack(">f", 0.5))


def test_timestamp_and_ext_refused() -> None:
    stamp = msgpack.packb(msgpack.Timestamp(1, 0))
    with pytest.raises(FormatError, match="Timestamp"):
        canonical.decode(stamp)
    ext = msgpack.packb(msgpack.ExtType(5, b"abcd"))
    with pytest.raises(FormatError, match="ext type"):
        canonical.decode(ext)


def test_depth_bounded_before_decoding() -> None:
    deep = b"\x91" * (canonical.MAX_DEPTH + 5) + b"\xc0"
    with pytest.raises(FormatError, match="nested deeper"):
        canonical.decode(deep)


def test_size_bounded() -> None:
    with pytest.raises(FormatError, match="larger than the limit"):
        canonical.decode(b"\xc0" * 11, max_size=10)


def test_container_claiming_more_than_present() -> None:
    with pytest.raises(FormatError):
        canonical.decode(b"\xdd\xff\xff\xff\xff")


def test_invalid_utf8_refused() -> None:
    with pytest.raises(FormatError):
        canonical.decode(b"\xa2\xff\xfe")


def test_non_string_keys_refused() -> None:
    with pytest.raises(FormatError):
        canonical.encode({1: 2})
    with pytest.raises(FormatError):
        canonical.decode(b"\x81\x01\x02")


def test_fractions_as_pairs() -> None:
    assert canonical.frac(Fraction(29, 10)) == [29, 10]
    assert canonical.unfrac([29, 10]) == Fraction(29, 10)
    with pytest.raises(FormatError, match="lowest terms"):
        canonical.unfrac([4, 2])


@given(st.binary(max_size=64))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    try:
        value = canonical.decode(data)
    except FormatError:
        return
    assert canonical.encode(value) == data


@pytest.mark.parametrize("inner", [[], [0]], ids=["empty", "non-empty"])
def test_depth_counts_every_container_from_the_outermost(inner: list[int]) -> None:
    """docs/protocol.md 1: the outermost container is level 1, an empty one counts, 32
    levels are allowed; what the encoder writes the reader reads, and both refuse 33."""
    def nest(levels: int) -> list[object]:
        value: list[object] = list(inner)
        for _ in range(levels - 1):
            value = [value]
        return value

    assert canonical.decode(canonical.encode(nest(32))) == nest(32)
    with pytest.raises(FormatError, match="nested deeper"):
        canonical.encode(nest(33))
    raw = b"\x91" * 32 + (b"\x91\x00" if inner else b"\x90")
    with pytest.raises(FormatError, match="nested deeper"):
        canonical.decode(raw)


def test_bin_and_str_use_their_shortest_forms() -> None:
    """bin8 up to 255 bytes, bin16 up to 65535; a longer form of the same bytes is not
    canonical and is refused."""
    assert canonical.encode(b"")[:2] == b"\xc4\x00"
    assert canonical.encode(b"x" * 255)[:2] == b"\xc4\xff"
    assert canonical.encode(b"x" * 256)[:3] == b"\xc5\x01\x00"
    with pytest.raises(FormatError):
        canonical.decode(b"\xc5\x00\x01x")
    with pytest.raises(FormatError):
        canonical.decode(b"\xd9\x01x")  # str8 for a one-byte string


# --- the quick reader (one C pass) and the strict one agree (issue 19) ------------------


def _outcome(read: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "value", read(data)
    except FormatError as exc:
        return "refused", str(exc)


def _strict(data: bytes) -> Any:
    if len(data) > canonical.MAX_SIZE:
        raise FormatError(f"{len(data)} bytes is larger than the limit of {canonical.MAX_SIZE}")
    return canonical._decode_strict(data)


@given(st.binary(max_size=64))
def test_quick_and_strict_readers_agree_on_any_bytes(data: bytes) -> None:
    assert _outcome(canonical.decode, data) == _outcome(_strict, data)


@given(values, st.integers(0, 10_000), st.integers(0, 255))
def test_quick_and_strict_readers_agree_on_altered_encodings(
        value: Any, where: int, byte: int) -> None:
    """One byte of a canonical encoding changed: an altered type byte, length, key order
    or payload is accepted or refused alike, with the same words."""
    data = bytearray(canonical.encode(value))
    data[where % len(data)] = byte
    assert _outcome(canonical.decode, bytes(data)) == _outcome(_strict, bytes(data))


@pytest.mark.parametrize("data", [
    msgpack.packb({"b": 1, "a": 2}),                      # unsorted keys
    b"\x82\xa1a\x01\xa1a\x02",                              # duplicate key
    msgpack.packb({b"k": 1}, use_bin_type=True),           # a bin key
    msgpack.packb({1: 1}),                                  # an int key
    msgpack.packb([1.5]),                                   # a float inside
    msgpack.packb(msgpack.Timestamp(1, 0)),                 # the msgpack Timestamp
    msgpack.packb([msgpack.ExtType(5, b"x")]),              # an ext type inside
    b"\x91" * 33 + b"\x90",                                 # 34 levels
    b"\xcd\x00\x01",                                        # uint16 for 1
    b"\x92\x01",                                            # ends early
    b"\x01\x02",                                            # trailing byte
    b"\xa2\xff\xfe",                                        # not UTF-8
    b"\xc1",                                                # the reserved byte
])
def test_every_refusal_of_the_strict_reader_stands(data: bytes) -> None:
    refused = _outcome(canonical.decode, data)
    assert refused[0] == "refused"
    assert refused == _outcome(_strict, data)


def test_canonical_bytes_take_the_quick_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A canonical value never reaches the strict reader (its Python pre-scan and
    re-encoding cost 15-18x msgpack's own reader)."""
    value = {"files": [b"x" * 300] * 3, "n": [1, -2, 2**64 - 1], "s": {"\u00e9": None, "a": True}}
    data = canonical.encode(value)

    def strict(data: bytes) -> Any:
        raise AssertionError("took the strict way")

    monkeypatch.setattr(canonical, "_decode_strict", strict)
    assert canonical.decode(data) == value
    assert canonical.decode(canonical.encode([[[]]] * 5)) == [[[]]] * 5


def test_one_writer_for_every_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The canonical writer packs through one msgpack Packer kept for the process, not a
    Packer made per value (msgpack.packb: over half of packing a small value, dozens of
    times a state digest; issue 35); a pack that fails leaves it ready for the next."""
    value = {"b": [1, 2, {"c": b"\x00"}], "a": "x"}
    expected = msgpack.packb({"a": "x", "b": [1, 2, {"c": b"\x00"}]}, use_bin_type=True)

    def made(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a Packer made for one value")
    monkeypatch.setattr(msgpack, "packb", made)
    monkeypatch.setattr(msgpack, "Packer", made)
    assert canonical.encode(value) == expected
    assert canonical.pack_normal(canonical.normalize(value)) == expected
    assert canonical.decode(expected) == {"a": "x", "b": [1, 2, {"c": b"\x00"}]}
    with pytest.raises(TypeError):
        canonical.pack_normal([1, object()])
    with pytest.raises(OverflowError):
        canonical.pack_normal({"a": [2**70]})
    assert canonical.pack_normal(canonical.normalize(value)) == expected


def test_another_thread_packs_with_a_writer_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept writer is the loading thread's: a Packer is not safe to share, so a pack in
    any other thread (the board's server answers in threads) makes its own, and gets the
    same bytes."""
    import threading

    value = {"b": [1, 2], "a": True}
    expected = canonical.encode(value)
    made: list[Any] = []
    packb = msgpack.packb

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(args[0])
        return packb(*args, **kwargs)
    monkeypatch.setattr(msgpack, "packb", counting)
    got: list[bytes] = []
    worker = threading.Thread(target=lambda: got.extend(
        [canonical.encode(value), canonical.pack_normal(canonical.normalize(value))]))
    worker.start()
    worker.join()
    assert got == [expected, expected]
    assert len(made) == 2
    assert canonical.encode(value) == expected and len(made) == 2


@given(values)
def test_signed_reader_gives_what_decode_gives(value: Any) -> None:
    # a save's position is read by decode_signed: the same value decode reads
    data = canonical.encode(value)
    assert canonical.decode_signed(data) == value


@pytest.mark.parametrize("data", [b"\xc1", b"\x92\x01", b"\xd5\x05\x00\x00",
                                  b"\x81\x01\x02"])
def test_signed_reader_names_what_it_cannot_read(data: bytes) -> None:
    # damaged bytes, an ext type or an integer key: refused in decode's words, not read
    # into a value
    with pytest.raises(FormatError) as signed:
        canonical.decode_signed(data)
    with pytest.raises(FormatError) as strict:
        canonical.decode(data)
    assert str(signed.value) == str(strict.value)
