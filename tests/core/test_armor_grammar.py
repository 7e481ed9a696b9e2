"""The armor grammar of docs/protocol.md 4, case by case, on a file of the transcript
vectors: what a reader built from the docs must accept and refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.armor import armor, dearmor, dearmor_all, read_any
from pbem.errors import FormatError

FILE = (Path(__file__).parent.parent / "data" / "transcript" / "0003.pbem").read_bytes()
TEXT = armor(FILE)


def test_the_written_form() -> None:
    lines = TEXT.splitlines()
    assert lines[0] == "-----BEGIN PBEM FILE-----" and lines[-1] == "-----END PBEM FILE-----"
    assert [line.split(": ")[0] for line in lines[1:5]] == ["Kind", "Game", "Seq", "Side"]
    assert lines[5] == "" and all(len(line) <= 64 for line in lines[6:-1])


def test_tolerated_changes() -> None:
    quoted = "".join(f"> {line}\r\n" for line in TEXT.splitlines())
    assert dearmor(quoted) == FILE
    rewrapped = TEXT.replace("\n", "\n  ").replace("  -----END", "-----END")
    assert dearmor(rewrapped) == FILE
    assert dearmor("Hi Bob, my turn:\n\n" + TEXT + "\nthanks\n") == FILE  # text outside
    assert dearmor(TEXT.replace("Seq: 3", "Seq:   3  ")) == FILE  # spaces around a value
    no_headers = "\n".join(line for line in TEXT.splitlines() if ": " not in line)
    assert dearmor(no_headers) == FILE  # every header is optional
    assert dearmor(TEXT + TEXT) == FILE  # the same file twice is one file
    assert dearmor_all(TEXT + TEXT) == [FILE, FILE]


@pytest.mark.parametrize(("change", "cause"), [
    (lambda t: t.replace("Seq: 3", "Seq: 4"), "header Seq"),
    (lambda t: t.replace("Seq: 3", "seq: 3"), "header seq"),  # names are case-sensitive
    (lambda t: t.replace("Seq: 3", "Seq: 3\nComment: hi"), "header Comment"),  # unknown
    (lambda t: t.replace("Seq: 3", "Seq: 3\nSeq: 3"), "appears twice"),
    (lambda t: t.replace("Seq: 3", "Seq: 4\nSeq: 3"), "appears twice"),
], ids=["wrong-value", "lower-case", "unknown", "repeated-same", "repeated-different"])
def test_refused_headers(change: object, cause: str) -> None:
    assert callable(change)
    with pytest.raises(FormatError, match=cause):
        dearmor(change(TEXT))


def test_two_different_files_in_one_text_are_refused() -> None:
    other = armor((Path(__file__).parent.parent / "data" / "transcript" /
                   "0004.pbem").read_bytes())
    with pytest.raises(FormatError, match="2 different armored files"):
        dearmor(TEXT + other)


def test_the_marker_must_start_in_the_first_64_kib() -> None:
    assert read_any((" " * 65000 + TEXT).encode()) == FILE
    late = (" " * 70000 + TEXT).encode()
    assert read_any(late) == late  # taken as binary: the envelope reader refuses it
