"""Canonical msgpack: one byte string for one value, on every machine.

Every signed body, every snapshot and every digest goes through :func:`encode`.  The
reader, :func:`decode`, is strict in the order ARCHITECTURE section 4 gives: it bounds the
size and nesting *before* msgpack builds any object (a pre-scan of the type bytes), refuses
floats and every ext type (the msgpack Timestamp, ext -1, included) at that stage, then
decodes with duplicate map keys refused, and finally re-encodes and requires the very same
bytes.  So two different byte strings can never decode to the same value, which is what
lets a body hash stand for the body.

Allowed values: ``None``, ``bool``, ``int`` (-2**63 .. 2**64-1), ``str``, ``bytes``,
``list``/``tuple`` (encoded as arrays), and ``dict`` with ``str`` keys (sorted by their
UTF-8 bytes).  ``fractions.Fraction`` has no msgpack form: use :func:`frac` / :func:`unfrac`.
"""

from __future__ import annotations

import _thread
import struct
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgpack

from pbem.errors import FormatError
from pbem.sha import sha256

if TYPE_CHECKING:
    from fractions import Fraction

#: the largest body any pbem file may carry (a 1,000-file transcript save is well below)
MAX_SIZE = 64 * 1024 * 1024
MAX_DEPTH = 32
#: largest number of elements any one array or map may declare
MAX_CONTAINER = 1_000_000

Value = Any  # the JSON-like subset above; msgpack's own typing is Any

#: one writer for every pack: msgpack.packb makes a Packer (and its buffer) per value,
#: about 3,300 of the 6,000 instructions of packing a small map, and a state digest packs
#: dozens of small values (issue 35). A pack that fails leaves the writer empty for the
#: next one (msgpack resets its buffer); a Packer is not to be shared between threads, so
#: it is the thread's that loaded this module (a command's one thread), and any other
#: thread (the board's server) makes its own per value, as before
_writer = msgpack.Packer(use_bin_type=True, autoreset=True).pack
_OWNER = _thread.get_ident()
_here = _thread.get_ident


def _normalize(value: Value, depth: int) -> Value:
    # exact types first (the hot path: snapshots are mostly dicts, lists, str and int);
    # subclasses and the rarer types go the long way below
    kind = type(value)
    if kind is str or kind is bool or value is None or kind is bytes:
        return value
    if kind is int:
        if not -(2**63) <= value < 2**64:
            raise FormatError(f"integer {value} does not fit msgpack's 64 bits")
        return value
    if depth >= MAX_DEPTH and (kind is dict or kind is list or kind is tuple):
        # the outermost container is level 1; an empty one counts too, as the reader's
        # pre-scan counts it (docs/protocol.md 1): what is written must read back
        raise FormatError(f"value nested deeper than {MAX_DEPTH} levels")
    if kind is dict:
        for key in value:
            if type(key) is not str:
                _key_bytes(key)  # raises with the key named
        # code-point order of str is the UTF-8 byte order (UTF-8 keeps code-point order)
        inner = depth + 1
        return {key: _normalize(value[key], inner) for key in sorted(value)}
    if kind is list or kind is tuple:
        inner = depth + 1
        return [_normalize(v, inner) for v in value]
    return _normalize_other(value, depth)


def _normalize_other(value: Value, depth: int) -> Value:
    if depth >= MAX_DEPTH and isinstance(value, (Mapping, list, tuple)):
        raise FormatError(f"value nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, (bool, str, bytes)):
        return value
    if isinstance(value, int):
        return _normalize(int(value), depth)
    if isinstance(value, float):
        raise FormatError("floats are not allowed in canonical data (use a Fraction pair)")
    if isinstance(value, Mapping):
        out: dict[str, Value] = {}
        for key in sorted(value, key=_key_bytes):
            out[key] = _normalize(value[key], depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_normalize(v, depth + 1) for v in value]
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise FormatError(f"type {type(value).__name__} has no canonical encoding")


def _key_bytes(key: object) -> bytes:
    if not isinstance(key, str):
        raise FormatError(f"map key {key!r} is not a string")
    return key.encode("utf-8")


def encode(value: Value) -> bytes:
    """The canonical bytes of ``value`` (sorted keys, shortest forms, bin for bytes)."""
    return pack_normal(_normalize(value, 0))


def normalize(value: Value, depth: int = 0) -> Value:
    """``value`` in the form :func:`encode` packs (maps in key order, tuples as lists),
    checked as :func:`encode` checks it; ``depth``: the number of containers around it."""
    return _normalize(value, depth)


def pack_normal(value: Value) -> bytes:
    """The canonical bytes of a value already in normal form (:func:`normalize`, or
    built in it, as :func:`pbem.codec.to_canonical` builds a position): the msgpack pass
    of :func:`encode` without the walk that puts it in that form."""
    packed = (_writer(value) if _here() == _OWNER
              else msgpack.packb(value, use_bin_type=True))
    assert isinstance(packed, bytes)
    return packed


def pack_each(values: Sequence[Value]) -> list[bytes]:
    """``[pack_normal(v) for v in values]``, each value packed by the C packer with no
    Python call around it: a first digest writes every record of a position one by one
    (For the Motherland!'s 171 units and their names, issue 35)."""
    if _here() == _OWNER:
        return list(map(_writer, values))
    return [msgpack.packb(value, use_bin_type=True) for value in values]


def map_header(size: int) -> bytes:
    """The msgpack head of a map of ``size`` entries, in its shortest form."""
    if size < 16:
        return bytes((0x80 | size,))
    if size < 2**16:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def pack_map(entries: Sequence[tuple[str, bytes]]) -> bytes:
    """The canonical bytes of a map given each value's canonical bytes: what
    :func:`encode` writes for it when ``entries`` are in key order (the caller's part), so
    a part kept encoded need not be built again to be written."""
    parts = [map_header(len(entries))]
    for key, packed in entries:
        parts.append(pack_normal(key))
        parts.append(packed)
    return b"".join(parts)


def digest(value: Value) -> bytes:
    """SHA-256 of the canonical encoding: the state digest and body hash of the protocol."""
    return sha256(encode(value)).digest()


# --- the strict reader ---------------------------------------------------------------

# Fixed widths of the msgpack formats that carry a payload length in the next n bytes.
_LEN_STR = {0xD9: 1, 0xDA: 2, 0xDB: 4}
_LEN_BIN = {0xC4: 1, 0xC5: 2, 0xC6: 4}
_FIXED = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
_ARRAY = {0xDC: 2, 0xDD: 4}
_MAP = {0xDE: 2, 0xDF: 4}
_FORBIDDEN = {
    0xC1: "the reserved type byte 0xc1",
    0xCA: "a float",
    0xCB: "a float",
    0xC7: "an ext type",
    0xC8: "an ext type",
    0xC9: "an ext type",
    0xD4: "an ext type",
    0xD5: "an ext type",
    0xD6: "an ext type (the msgpack Timestamp is one)",
    0xD7: "an ext type (the msgpack Timestamp is one)",
    0xD8: "an ext type",
}


def _prescan(data: bytes) -> None:
    """Walk the type bytes without building objects: bound depth and sizes, ban types."""
    pos = 0
    end = len(data)
    # stack of remaining element counts of the open containers
    stack: list[int] = [1]

    def take(n: int) -> int:
        nonlocal pos
        if pos + n > end:
            raise FormatError("msgpack data ends in the middle of a value")
        start = pos
        pos += n
        return start

    while stack:
        if stack[-1] == 0:
            stack.pop()
            continue
        stack[-1] -= 1
        b = data[take(1)]
        if b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3):
            continue
        count = -1
        if 0x80 <= b <= 0x8F:
            count = 2 * (b & 0x0F)
        elif 0x90 <= b <= 0x9F:
            count = b & 0x0F
        elif 0xA0 <= b <= 0xBF:
            take(b & 0x1F)
            continue
        elif b in _FIXED:
            take(_FIXED[b])
            continue
        elif b in _LEN_STR or b in _LEN_BIN:
            width = _LEN_STR.get(b) or _LEN_BIN[b]
            n = int.from_bytes(data[take(width) : pos], "big")
            take(n)
            continue
        elif b in _ARRAY:
            count = int.from_bytes(data[take(_ARRAY[b]) : pos], "big")
            if count > MAX_CONTAINER:
                raise FormatError(f"array of {count} elements at byte {pos} is larger than "
                                  f"the limit of {MAX_CONTAINER}")
        elif b in _MAP:
            count = int.from_bytes(data[take(_MAP[b]) : pos], "big")
            if count > MAX_CONTAINER:
                raise FormatError(f"map of {count} entries at byte {pos} is larger than "
                                  f"the limit of {MAX_CONTAINER}")
            count *= 2
        elif b in _FORBIDDEN:
            raise FormatError(f"{_FORBIDDEN[b]} at byte {pos - 1} is not allowed")
        else:  # pragma: no cover - every byte value is classified above
            raise FormatError(f"unknown msgpack type byte 0x{b:02x} at {pos - 1}")
        if count > end - pos:
            raise FormatError("container declares more elements than there are bytes")
        stack.append(count)
        if len(stack) > MAX_DEPTH + 1:
            raise FormatError(f"value nested deeper than {MAX_DEPTH} levels")
    if pos != end:
        raise FormatError(f"{end - pos} trailing bytes after the value")


def _pairs(pairs: Sequence[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key, val in pairs:
        if not isinstance(key, str):
            raise FormatError(f"map key {key!r} is not a string")
        if key in out:
            raise FormatError(f"duplicate map key {key!r}")
        out[key] = val
    return out


class _Refused(Exception):
    """The quick reader met something the canonical form does not allow."""


def _no_ext(code: int, data: bytes) -> None:
    raise _Refused


_SCALARS = frozenset({type(None), bool, int, str, bytes})
_ALLOWED = _SCALARS | {list, dict}
_STR = frozenset({str})


def _plain(value: Value) -> bool:
    """Whether a value msgpack's C reader built holds only the canonical types, every
    map's keys strings in sorted order, within the depth and size bounds.

    Walked a level at a time: the element types of a whole level are checked as one set,
    and every map's keys once at the end, so Python visits each container once and no
    scalar (issue 19: a per-container check was most of decoding a snapshot).
    """
    if type(value) is not list and type(value) is not dict:
        return type(value) in _SCALARS
    level: list[Value] = [value]
    keys: list[Any] = []
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            return False
        items: list[Value] = []
        for container in level:
            if len(container) > MAX_CONTAINER:
                return False
            if type(container) is dict:
                names = list(container)
                if names != sorted(names):  # mixed key types raise: decode's caller refuses
                    return False
                keys += names
                items += container.values()
            else:
                items += container
        kinds = set(map(type, items))
        if kinds <= _SCALARS:
            break
        if not kinds <= _ALLOWED:
            return False
        level = [item for item in items if type(item) is list or type(item) is dict]
        depth += 1
    return set(map(type, keys)) <= _STR


def decode(data: bytes, *, max_size: int = MAX_SIZE) -> Value:
    """Decode canonical bytes, refusing anything another encoder could have written.

    The quick way first, in one pass of msgpack's C reader and one of its writer: the
    bytes decode with every ext type refused and strict map keys, the value holds only
    canonical types with sorted string keys (:func:`_plain`), and encoding it again
    gives the very same bytes (which also rules out duplicate keys, a key lost in the
    dict, and every non-shortest form).  Anything else takes the strict way below, which
    names what is wrong, so both ways accept and refuse the same bytes.
    """
    if len(data) > max_size:
        raise FormatError(f"{len(data)} bytes is larger than the limit of {max_size}")
    try:
        value = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                                ext_hook=_no_ext, timestamp=0)
        if _plain(value) and pack_normal(value) == data:
            return value
    except Exception:  # every refusal is named by the strict way
        pass
    return _decode_strict(data)


def decode_signed(data: bytes) -> Value:
    """What :func:`decode` gives for bytes this code's own :func:`encode` wrote, under a
    signature the caller has verified (a save's position, signed by the home's own key):
    read by msgpack's C reader alone (map keys strings, ext types refused but msgpack's
    own Timestamp), without the walk over every container and the encoding again that
    prove bytes from elsewhere canonical (5.8 of the 9.1 M instructions of reading For the
    Motherland!'s position back at every turn command, issue 35).  Bytes that do not read
    so go to :func:`decode`, which names what is wrong; the value's types are the
    caller's to check, as a typed reader checks every field it takes (a position's
    restore)."""
    if len(data) > MAX_SIZE:
        return decode(data)
    try:
        return msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                               ext_hook=_no_ext, timestamp=0)
    except Exception:  # every refusal is named by the strict way
        return decode(data)


def _decode_strict(data: bytes) -> Value:
    _prescan(data)
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            object_pairs_hook=_pairs,
        )
    except FormatError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise FormatError(f"not valid msgpack ({exc.__class__.__name__}: {exc})") from None
    try:
        again = encode(value)
    except FormatError as exc:
        raise FormatError(f"not canonical: {exc}") from None
    if again != data:
        raise FormatError("not canonical: re-encoding gives other bytes (key order or width)")
    return value


# --- exact numbers ---------------------------------------------------------------------


def frac(x: Fraction) -> list[int]:
    """A Fraction as the [numerator, denominator] pair snapshots store."""
    return [x.numerator, x.denominator]


def unfrac(pair: Sequence[int]) -> Fraction:
    """Inverse of :func:`frac`, refusing a pair that is not in lowest terms."""
    if len(pair) != 2 or not all(isinstance(p, int) for p in pair):
        raise FormatError(f"fraction must be [num, den], got {pair!r}")
    from fractions import Fraction  # here: most commands decode no fraction (issue 19)

    x = Fraction(pair[0], pair[1])
    if [x.numerator, x.denominator] != list(pair):
        raise FormatError(f"fraction {pair!r} is not in lowest terms")
    return x


def u32(n: int) -> bytes:
    """Four big-endian bytes: the width every counter in the protocol uses."""
    return struct.pack(">I", n)
