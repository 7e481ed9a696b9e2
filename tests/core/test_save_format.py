"""Save format 2 (issue 19): the exchanged files live beside the save, each written once,
and the signed save names each by its SHA-256; a format 1 save (every file inside it)
still loads and is written as format 2 the next time the game changes."""

from __future__ import annotations

from typing import Any

import pytest

from pbem import canonical
from pbem.envelope import open_envelope, seal
from pbem.errors import FormatError, SignatureError
from pbem.session import SAVE_FORMAT, files_dir


def _body(path: Any) -> dict[str, Any]:
    env = open_envelope(path.read_bytes(), max_size=canonical.MAX_SIZE, kinds=("save",))
    return env.decode()


def test_the_save_names_its_files_and_holds_none(table: Any) -> None:
    table.exchange(4)
    game = table.game(table.alice)
    body = _body(game.path)
    assert body["format"] == SAVE_FORMAT and "files" not in body
    assert body["game_id"] == game.game_id
    assert len(body["file_hashes"]) == len(game.files) >= 6
    data = game.path.read_bytes()
    folder = files_dir(game.path)
    for seq in range(len(game.files)):
        kept = (folder / f"{seq:06d}.pbem").read_bytes()
        assert kept == game.files[seq]
        assert kept not in data  # the save carries no exchanged file
    # another command loads the game reading none of the earlier files but the invite
    again = table.game(table.alice)
    assert set(again.files._held) == {0}


def test_an_altered_or_missing_file_beside_the_save_is_refused(table: Any) -> None:
    table.exchange(3)
    game = table.game(table.alice)
    folder = files_dir(game.path)
    turn = folder / "000002.pbem"
    good = turn.read_bytes()
    altered = bytearray(good)
    altered[-1] ^= 1
    turn.write_bytes(bytes(altered))
    with pytest.raises(FormatError, match="not the one the save signed") as err:
        table.game(table.alice).file(2)
    assert str(turn) in str(err.value)
    # a file another valid file replaced: signed, but not the one this save names
    turn.write_bytes((folder / "000003.pbem").read_bytes())
    with pytest.raises(FormatError, match="not the one the save signed"):
        table.game(table.alice).file(2)
    turn.unlink()
    with pytest.raises(FormatError, match="cannot be read"):
        table.game(table.alice).file(2)
    turn.write_bytes(good)
    assert table.game(table.alice).file(2) == (2, good)
    # the invite is read at every load: altered, the game does not load
    invite = folder / "000000.pbem"
    first = invite.read_bytes()
    invite.write_bytes(first[:-1] + bytes([first[-1] ^ 1]))
    with pytest.raises(FormatError, match="not the one the save signed"):
        table.game(table.alice)
    invite.write_bytes(first)
    # and the hashes are signed: a changed hash is a changed save
    data = bytearray(game.path.read_bytes())
    at = bytes(data).index(_body(game.path)["file_hashes"][2])
    data[at] ^= 1
    game.path.write_bytes(bytes(data))
    with pytest.raises((FormatError, SignatureError)):
        table.game(table.alice)


def test_a_format_1_save_loads_and_is_written_as_format_2(table: Any) -> None:
    table.exchange(3)
    game = table.game(table.alice)
    files = list(game.files)
    body = _body(game.path)
    # the save as pbem wrote it before format 2: the files inside, no format or hashes
    old = {k: v for k, v in body.items()
           if k not in ("format", "game_id", "file_hashes", "kind")}
    old["files"] = files
    game.path.write_bytes(seal(table.alice.identity(), "save", old))
    for path in files_dir(game.path).iterdir():
        path.unlink()
    files_dir(game.path).rmdir()
    loaded = table.game(table.alice)
    assert list(loaded.files) == files
    assert loaded.status() == game.status()
    assert not files_dir(game.path).exists()  # reading changes nothing
    table.exchange(2)  # the game goes on; its next write is format 2
    body = _body(game.path)
    assert body["format"] == SAVE_FORMAT and "files" not in body
    assert list(table.game(table.alice).files)[:len(files)] == files
    assert table.game(table.alice).verifier.state.digest() == \
        table.game(table.bob).verifier.state.digest()
