"""What differs between Windows, macOS and Linux (pbem.portable).

The Windows branches run here, on Linux, with ``sys.platform`` patched and a fake
``msvcrt`` that keeps the real module's contract (lock from the current position,
refuse a range another handle holds, refuse to unlock what is not locked).
"""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import portable
from pbem.atomic import write_atomic
from pbem.envelope import file_name
from pbem.errors import KeyStoreError
from pbem.identity import KeyStore

FakeMsvcrt = Any  # the ``windows`` fixture's fake module (tests/conftest.py)


# --- locks ----------------------------------------------------------------------------------


def _second_holder_waits(path: Path) -> None:
    """While one holder has the lock a second one waits, and gets it once released."""
    entered = threading.Event()
    order: list[str] = []

    def second() -> None:
        with portable.lock_file(path):
            order.append("second")
        entered.set()

    with portable.lock_file(path):
        worker = threading.Thread(target=second)
        worker.start()
        assert not entered.wait(0.3), "the lock let a second holder in"
        order.append("first")
    assert entered.wait(5), "the lock was never handed on"
    worker.join()
    assert order == ["first", "second"]


def test_lock_excludes_a_second_holder_on_posix(tmp_path: Path) -> None:
    _second_holder_waits(tmp_path / "g.pbsave.lock")


def test_lock_excludes_a_second_holder_on_windows(tmp_path: Path,
                                                   windows: FakeMsvcrt) -> None:
    lock = tmp_path / "g.pbsave.lock"
    lock.write_bytes(b"stale bytes")  # append mode starts at the end; the lock must not
    _second_holder_waits(lock)
    assert windows.positions and set(windows.positions) == {0}
    assert windows.held == {}  # released, not left for the next command to wait on


def test_lock_released_when_the_block_fails(tmp_path: Path, windows: FakeMsvcrt) -> None:
    lock = tmp_path / "x.lock"
    with pytest.raises(RuntimeError), portable.lock_file(lock):
        raise RuntimeError("the command failed")
    assert windows.held == {}
    with portable.lock_file(lock):
        assert len(windows.held) == 1


# --- replacing files --------------------------------------------------------------------------


def _flaky_replace(monkeypatch: pytest.MonkeyPatch, failures: int) -> list[int]:
    calls: list[int] = []
    real = os.replace

    def replace(src: object, dst: object) -> None:
        calls.append(1)
        if len(calls) <= failures:
            raise PermissionError(13, "The process cannot access the file")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(portable.time, "sleep", lambda _s: None)
    return calls


def test_windows_replace_waits_out_a_scanner(tmp_path: Path, windows: FakeMsvcrt,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "g.pbsave"
    target.write_bytes(b"old")
    calls = _flaky_replace(monkeypatch, failures=3)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and len(calls) == 4
    assert [p.name for p in tmp_path.iterdir()] == ["g.pbsave"]


def test_windows_replace_gives_up_leaving_the_old_file(
        tmp_path: Path, windows: FakeMsvcrt, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "g.pbsave"
    target.write_bytes(b"old")
    calls = _flaky_replace(monkeypatch, failures=1000)
    with pytest.raises(PermissionError):
        write_atomic(target, b"new")
    assert len(calls) == portable.REPLACE_TRIES
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.pbsave"]  # no temporary left


def test_posix_replace_is_not_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    target = tmp_path / "g.pbsave"
    target.write_bytes(b"old")
    calls = _flaky_replace(monkeypatch, failures=1)
    with pytest.raises(PermissionError):
        write_atomic(target, b"new")
    assert len(calls) == 1 and target.read_bytes() == b"old"


# --- private files ------------------------------------------------------------------------------


def test_windows_key_must_be_in_the_profile_or_encrypted(
        tmp_path: Path, windows: FakeMsvcrt, monkeypatch: pytest.MonkeyPatch) -> None:
    """POSIX modes mean nothing on Windows; the profile folder's access list does."""
    profile = tmp_path / "Users" / "erich"
    monkeypatch.setenv("USERPROFILE", str(profile))
    inside = KeyStore(profile / "AppData" / "Roaming" / "pbem")
    inside.create("Erich", "", None)
    os.chmod(inside.key_path, 0o644)  # what st_mode shows on Windows anyway
    assert inside.load(None).card.name == "Erich"

    outside = KeyStore(tmp_path / "D" / "games" / "pbem")
    outside.create("Erich", "", None)
    with pytest.raises(KeyStoreError, match="outside your profile folder") as info:
        outside.load(None)
    assert str(outside.key_path) in str(info.value) and "passphrase" in str(info.value)

    encrypted = KeyStore(tmp_path / "E" / "pbem")
    encrypted.create("Erich", "", b"sisu")
    assert encrypted.load(b"sisu").card.name == "Erich"


def test_posix_key_modes_still_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    monkeypatch.setattr(sys, "platform", "darwin")
    store = KeyStore(tmp_path)
    store.create("Alice", "", b"pass")
    os.chmod(store.key_path, 0o640)
    # a passphrase does not excuse a readable key on POSIX: the modes are the protection
    with pytest.raises(KeyStoreError, match="0640 let others read it"):
        store.load(b"pass")


def test_windows_mail_password_file_checked_by_place_not_mode(
        tmp_path: Path, windows: FakeMsvcrt, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows shows every file as 0666: the old mode check refused every password file."""
    from pbem.transport import config as mailconfig
    from pbem.transport.base import TransportError

    monkeypatch.delenv(mailconfig.PASSWORD_ENV, raising=False)
    profile = tmp_path / "Users" / "erich"
    monkeypatch.setenv("USERPROFILE", str(profile))
    account = mailconfig.MailAccount(address="a@b.c", smtp_host="h", imap_host="h")
    for home in (profile / "pbem", tmp_path / "D" / "pbem"):
        mailconfig.save_account(home, account, "hunter2")
        os.chmod(mailconfig.secret_path(home), 0o666)
    assert mailconfig.password_for(profile / "pbem", account) == "hunter2"
    with pytest.raises(TransportError, match="outside your profile folder"):
        mailconfig.password_for(tmp_path / "D" / "pbem", account)


# --- file names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["CON", "con", "Nul", "aux.pbsave", "COM1", "lpt9.x",
                                  "luki.", "luki ", "a:b", "a<b", "what?", 'say"', "a|b",
                                  "tab\there", ""])
def test_names_windows_refuses(name: str) -> None:
    assert portable.file_name_problem(name)


@pytest.mark.parametrize("name", ["luki", "console", "con-game", "COM10", "nul2",
                                  "white-death-purkayev-0a1b2c3d", "Kämpfe"])
def test_names_every_platform_takes(name: str) -> None:
    assert portable.file_name_problem(name) is None


# --- text output ------------------------------------------------------------------------------


def _redirected(encoding: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding)


def test_windows_redirected_output_is_utf8(windows: FakeMsvcrt,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``pbem show g > board.txt`` on Windows: cp1252 has no Cyrillic, no box lines."""
    out, err = _redirected("cp1252"), _redirected("cp1252")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    portable.utf8_output()
    out.write("Пуркаев ╱ 0101\n")
    out.flush()
    assert out.buffer.getvalue() == "Пуркаев ╱ 0101\n".encode()  # type: ignore[attr-defined]
    assert err.encoding == "utf-8"


def test_other_platforms_output_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    out = _redirected("latin-1")
    monkeypatch.setattr(sys, "stdout", out)
    portable.utf8_output()
    assert out.encoding == "latin-1"


@given(st.text(max_size=40), st.integers(0, 9999))
def test_turn_file_names_are_valid_on_windows(side: str, seq: int) -> None:
    """The side in a name comes from a received file: whatever it says, the name is one
    Windows can hold and points nowhere outside its folder."""
    name = file_name(bytes(range(32)), seq, side)
    assert portable.file_name_problem(name) is None and "/" not in name and ".." not in name


# --- the shared-folder reader ------------------------------------------------------------------


def test_shared_folder_reads_binary_and_refuses_links_without_o_nofollow(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' os.open is text mode unless told O_BINARY (CR LF would become LF in a
    signed file) and has no O_NOFOLLOW: the reader asks for the one, checks links itself."""
    from pbem.transport import folder

    data = b"\x96binary\r\nbytes"
    (tmp_path / "a.pbem").write_bytes(data)
    (tmp_path / "link.pbem").symlink_to(tmp_path / "a.pbem")
    flags: list[int] = []
    real_open = os.open

    def spy(path: object, how: int, *rest: object) -> int:
        flags.append(how)
        return real_open(path, how & ~0x8000, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "O_BINARY", 0x8000, raising=False)
    monkeypatch.delattr(os, "O_NOFOLLOW", raising=False)
    monkeypatch.setattr(os, "open", spy)
    assert folder._read_capped(tmp_path / "a.pbem") == data
    assert flags and all(f & 0x8000 for f in flags)
    assert "symbolic link" in str(folder._read_capped(tmp_path / "link.pbem"))
