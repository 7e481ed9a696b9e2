"""pbem.naming's count agreement and rule citation found by hand, not by a compiled
pattern (issue 35): the same lines as the regular expressions they replace, on every
short line over the characters that matter, and no pattern compiled to say them."""

from __future__ import annotations

import itertools
import re

import pytest

from pbem.naming import agree, cites


def _agree_by_pattern(text: str) -> str:
    return re.sub(r"\b1 ((?:[a-z]+ )?)hexes\b", r"1 \1hex", text)


def _cites_by_pattern(prompt: str, rule: str) -> bool:
    return bool(rule) and re.search(r"[(,] ?" + re.escape(rule) + r"[),]", prompt) is not None


def test_agree_says_what_the_pattern_said() -> None:
    # word characters (a digit, "_", a letter beyond a-z), spaces and the words themselves
    parts = ["1 ", "hexes", " ", "ab ", "X", "_", "1", "\u00e9", "s", "/", "11 "]
    seen = 0
    for n in range(6):
        for words in itertools.product(parts, repeat=n):
            text = "".join(words)
            assert agree(text) == _agree_by_pattern(text), text
            seen += agree(text) != text
    assert seen  # lines that agree changed
    assert agree("retreat 1 hexes") == "retreat 1 hex"
    assert agree("against 1 assaulted hexes, 11 hexes, 1 hexesx") == \
        "against 1 assaulted hex, 11 hexes, 1 hexesx"


def test_cites_says_what_the_pattern_said() -> None:
    parts = ["(", ")", ",", " ", "13.0", "1", "3.", "x"]
    for rule in ("", "13.0", "1", "3.", "(", ")", " 1"):
        for n in range(6):
            for words in itertools.product(parts, repeat=n):
                prompt = "".join(words)
                assert cites(prompt, rule) == _cites_by_pattern(prompt, rule), (prompt, rule)
    assert cites("sets up 1/33 (ccb area, 13.0)", "13.0")
    assert not cites("sets up 1/33 (ccb area 13.0.1)", "13.0")


def test_naming_compiles_no_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's first click telling a retreat compiled agree's pattern (0.45 M
    instructions) and every new rule its prompt shows compiled one for cites."""
    compiled: list[object] = []
    real = re._compile  # type: ignore[attr-defined]

    def counted(pattern: object, flags: object) -> object:
        compiled.append(pattern)
        return real(pattern, flags)

    with monkeypatch.context() as patched:
        patched.setattr(re, "_compile", counted)
        told = agree("the stack retreats 1 hexes (7.4)")
        cited = cites("attack 0507 (7.2, 7.4)", "7.4"), cites("attack 0507", "7.4")
    assert compiled == []
    assert told == "the stack retreats 1 hex (7.4)"
    assert cited == (True, False)
