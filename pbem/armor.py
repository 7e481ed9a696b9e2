"""ASCII armor: a pbem file as text, for mail paths that strip attachments.

::

    -----BEGIN PBEM FILE-----
    Kind: turn
    Game: 3f2a9c1d0b7e5a44
    Seq: 7

    <standard base64 of the binary file, 64 characters a line>
    -----END PBEM FILE-----

Re-wrapping, indentation, quoting with ``> `` and CRLF line ends are tolerated: only the
base64 characters between the markers count.  Any other change is refused: the base64 must
be canonical (re-encoding the decoded bytes gives the same characters, so even the unused
low bits of the last character are fixed), the bytes must then pass the envelope's own
checks, and the headers, which a person reads, must say what the file says.
"""

from __future__ import annotations

import re
from typing import Any

from pbem import canonical
from pbem.errors import FormatError, quote

BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"
# a pattern's text: re compiles it when first used (and keeps it), so a command that
# never needs it does not compile it at import (issue 35: 0.65 M instructions each)
_BLOCK = re.escape(BEGIN) + r"(.*?)" + re.escape(END)
_HEADER = r"^([A-Za-z-]+):\s*(.*?)\s*$"
_QUOTE = r"^[ \t>]*"


def _claims(data: bytes) -> tuple[str, dict[str, Any]]:
    """The kind and body a file's bytes claim (unverified), or FormatError."""
    envelope = canonical.decode(data)
    if type(envelope) is not list or len(envelope) != 6 or type(envelope[2]) is not str \
            or type(envelope[5]) is not bytes:
        raise FormatError("no pbem envelope")
    body = canonical.decode(envelope[5])
    if type(body) is not dict:
        raise FormatError("the body is not a map")
    return envelope[2], body


def headers_for(data: bytes) -> dict[str, str]:
    """The informational headers for a file's bytes (unverified claims, for people)."""
    try:
        kind, body = _claims(data)
    except FormatError:
        raise FormatError("cannot armor: not a pbem file") from None
    return _headers(kind, body)


def _headers(kind: str, body: dict[str, Any]) -> dict[str, str]:
    out = {"Kind": str(kind)}
    if kind == "invite":
        out["Engine"] = f"{body.get('engine')} / {body.get('scenario')}"
    elif isinstance(body.get("game"), bytes):
        out["Game"] = body["game"].hex()[:16]
        out["Seq"] = str(body.get("seq"))
        out["Side"] = str(body.get("side"))
    return out


def armor(data: bytes) -> str:
    """The armored text of a file (ends with a newline)."""
    lines = [BEGIN]
    lines += [f"{k}: {v}" for k, v in headers_for(data).items()]
    lines.append("")
    import base64  # here: a binary file, what 'receive' mostly reads, needs none (issue 35)

    b64 = base64.b64encode(data).decode("ascii")
    lines += [b64[i : i + 64] for i in range(0, len(b64), 64)]
    lines.append(END)
    return "\n".join(lines) + "\n"


def is_armored(text: str) -> bool:
    return BEGIN in text and END in text


def _decode_block(block: str) -> bytes:
    import base64
    import binascii

    headers: dict[str, str] = {}
    payload: list[str] = []
    in_headers = True
    for raw in block.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = re.sub(_QUOTE, "", raw, count=1).strip()
        if not line:
            if payload:
                continue
            in_headers = False if headers else in_headers
            continue
        match = re.match(_HEADER, line) if in_headers and not payload else None
        if match:
            # a repeated header would leave a reader to pick one of two claims
            # (docs/protocol.md 4): refused, whatever the values
            if match.group(1) in headers:
                raise FormatError(f"armor header {match.group(1)} appears twice")
            headers[match.group(1)] = match.group(2)
            continue
        in_headers = False
        payload.append(line)
    text = "".join(payload)
    if not text:
        raise FormatError("armored block has no payload")
    if re.search(r"[^A-Za-z0-9+/=]", text):
        raise FormatError("armored payload has characters outside base64")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as exc:
        raise FormatError(f"armored payload is not valid base64 ({exc})") from None
    if base64.b64encode(data).decode("ascii") != text:
        raise FormatError("armored payload is not in canonical base64 (a character was changed)")
    try:
        kind, body = _claims(data)
    except FormatError as exc:
        # the base64 was intact but the bytes are no pbem file: damaged on the way (or
        # never one); "cannot armor" would name the wrong operation (issue 20 item 8)
        raise FormatError(f"the armored file is damaged: {exc}") from None
    expected = _headers(kind, body)
    for key, value in headers.items():
        if expected.get(key) != value:
            raise FormatError(f"armor header {key[:40]}: {quote(value)} does not match "
                              f"the file ({quote(expected.get(key))})")
    return data


def dearmor_all(text: str) -> list[bytes]:
    """Every armored file in ``text`` (an email body may quote several)."""
    return [_decode_block(m.group(1)) for m in re.finditer(_BLOCK, text, re.S)]


def dearmor(text: str) -> bytes:
    """The one armored file in ``text``."""
    blocks = dearmor_all(text)
    if not blocks:
        raise FormatError("no armored pbem file found")
    if len(blocks) > 1 and len(set(blocks)) > 1:
        raise FormatError(f"{len(blocks)} different armored files found; give one at a time")
    return blocks[0]


def read_any(data: bytes) -> bytes:
    """Binary or armored: the binary bytes of a pbem file given either form."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # armored text saved as UTF-16 with its byte-order mark: what Windows PowerShell
        # 5's '>' and Notepad's "Unicode" write (a binary file starts with 0x96)
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise FormatError("armored file is not valid UTF-16 text") from None
        if is_armored(text):
            return dearmor(text)
        return data
    if data[:1] != b"\x96" and b"-----BEGIN PBEM FILE-----" in data[:65536]:
        try:
            return dearmor(data.decode("utf-8", errors="strict"))
        except UnicodeDecodeError:
            raise FormatError("armored file is not UTF-8 text") from None
    return data
