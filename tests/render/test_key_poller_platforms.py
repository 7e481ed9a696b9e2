"""The replay's key reader on a Windows console, and Enter-only where no key reader is.

The Windows branch runs here with ``sys.platform`` patched and a fake ``msvcrt`` that
answers ``kbhit``/``getwch`` as a Windows console does (Enter is a carriage return, an
arrow is ``\\xe0`` then a letter, a function key ``\\x00`` then a code).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from render_maps import large_view
from rich.console import Console

from pbem.render.browse import BrowseState, browse
from pbem.render.narrate import KeyPoller

FakeMsvcrt = Any  # the ``windows`` fixture's fake module (tests/conftest.py)


@pytest.fixture
def console_fd() -> Iterator[int]:
    """A descriptor ``os.isatty`` says yes to, as a Windows console's stdin."""
    master, slave = os.openpty()
    yield slave
    os.close(master)
    os.close(slave)


def test_windows_console_keys_are_read_without_enter(console_fd: int,
                                                      windows: FakeMsvcrt) -> None:
    with KeyPoller(console_fd) as poller:
        assert poller.active and poller.mode == "windows"
        assert poller.poll() is None  # nothing pressed: no wait, no key
        windows.keys += ["s"]
        assert poller.poll() == "s"
        assert poller.poll() is None
        windows.keys += ["\r"]
        assert poller.poll() == "\n"  # Enter skips, as on POSIX
        windows.keys += ["\xe0", "K", "\xe0", "H", "\x00", "P"]
        assert [poller.read(), poller.read(), poller.read()] == ["left", "up", "down"]
        windows.keys += ["\x00", ";", "q"]  # F1 means nothing here: the next key counts
        assert poller.read() == "q"
        windows.keys += ["\x1b", "\x03"]
        assert [poller.read(), poller.read()] == ["escape", "\x03"]
    assert not poller.active


def test_windows_browse_pans_with_console_arrows(console_fd: int, windows: FakeMsvcrt) -> None:
    view = large_view()
    console = Console(file=io.StringIO(), width=80, height=30)
    windows.keys += ["\xe0", "M", "q"]
    with KeyPoller(console_fd) as poller:
        moved = browse(console, view, read_key=poller.read, clear=False)
    still = browse(Console(file=io.StringIO(), width=80, height=30), view,
                   read_key=iter(["q"]).__next__, clear=False)
    assert isinstance(moved, BrowseState)
    assert moved.window.col0 > still.window.col0  # the right arrow panned the map


def test_windows_without_a_console_is_enter_only(windows: FakeMsvcrt) -> None:
    """Git Bash's mintty and a pipe are not a Windows console: kbhit would never fire."""
    read, write = os.pipe()
    lines = iter(["l", "", "quit"])
    try:
        with KeyPoller(read, line_input=lambda _prompt: next(lines)) as poller:
            assert poller.mode == "line" and not poller.active
            assert poller.poll() is None  # a replay runs to its end
            assert [poller.read(), poller.read(), poller.read()] == ["l", "\n", "q"]
    finally:
        os.close(read)
        os.close(write)


def test_no_termios_is_enter_only(console_fd: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A POSIX-like platform without termios (or a terminal it cannot set) reads lines."""
    monkeypatch.setitem(sys.modules, "termios", None)  # import termios: ImportError

    def end_of_input(_prompt: str) -> str:
        raise EOFError

    with KeyPoller(console_fd, line_input=end_of_input) as poller:
        assert poller.mode == "line" and not poller.active
        assert poller.read() == "q"  # the end of the input quits, never hangs
