"""Text that came out of a file, made safe to show.

A signed file carries text its signer chose (messages, names, places, action texts), and
a hostile file carries anything at all.  Shown raw, an ANSI escape can clear a terminal
or draw a fake prompt, an OSC sequence can retitle the window, and a bidi override can
make ``pbem`` read backwards.  Every place that shows text from a file passes it through
:func:`safe`, which writes each such character as a visible escape (``\\x1b``,
``\\u202e``) instead, and :func:`bound`, which keeps one value from flooding a screen
or a log.
"""

from __future__ import annotations

import unicodedata

#: the bidirectional formatting characters (embeddings, overrides, isolates, marks)
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: the longest value an error message quotes from a file
QUOTE_LIMIT = 80
#: the longest message any error carries (a hostile value cannot make it longer)
MESSAGE_LIMIT = 1000


def _unsafe(ch: str) -> bool:
    if ch in BIDI:
        return True
    # Cc: C0 and C1 controls and DEL; Zl/Zp: line and paragraph separators; Cs: lone
    # surrogates (a terminal cannot print them); Co: private use (font tricks)
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: str, *, newlines: bool = False) -> str:
    """``text`` with every control, separator and bidi character written as an escape.

    ``newlines``: keep ``\\n`` (and tabs) for multi-line text such as a message.
    """
    if text.isprintable() and BIDI.isdisjoint(text):
        return text  # the common case, fast: isprintable() is False for every Cc/Zl/Zp
    keep = "\n\t" if newlines else ""
    if newlines and BIDI.isdisjoint(text) and \
            text.replace("\n", "").replace("\t", "").isprintable():
        # multi-line text at C speed too: a replay page's map is one string of 0.5 M
        # characters, and testing each one was a tenth of the page (issue 35 item 1)
        return text
    return "".join(_escape(ch) if ch not in keep and _unsafe(ch) else ch for ch in text)


def displayable(value: object) -> object:
    """``value`` (JSON-shaped data for a page) with :func:`safe` applied to every string in it.

    A browser page escapes markup, but a bidi override or control character in a unit name
    or message would still reorder or hide what the page shows; newlines and tabs stay.
    """
    if isinstance(value, str):
        return safe(value, newlines=True)
    if isinstance(value, dict):
        return {displayable(k): displayable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [displayable(v) for v in value]
    return value


def bound(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    head = max(limit - 40, limit // 2)
    return f"{text[:head]}... ({len(text) - head} more characters)"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value from a file as an error quotes it: its repr, safe and bounded."""
    try:
        text = repr(value) if not isinstance(value, (bytes, bytearray)) or len(value) <= limit \
            else f"<{len(value)} bytes>"
    except Exception:  # a value whose repr fails (nothing decoded here has one)
        text = f"<{type(value).__name__}>"
    return safe(bound(text, limit))


def block(text: str, indent: str = "    ") -> str:
    """Multi-line text from a file (a message) with every line after the first indented,
    so that no line of it can pass for a line of pbem's own (a fake prompt or verdict)."""
    lines = [safe(line) for line in text.splitlines()] or [""]
    return f"\n{indent}".join(lines)
