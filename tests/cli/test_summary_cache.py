"""``status``, ``list`` and ``receive`` verify a save's signature once per version of the
save, not once per command (issue 19: fifty games cost fifty Ed25519 checks a command).

The summary read from a verified save is kept in HOME/cache with the exact save bytes and
the home's key, compared whole; any other bytes are verified, and refused, as before."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem.identity as identity_module
from pbem.cli import main
from pbem.selfplay import selfplay


class _Enough(Exception):
    pass


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three games of the same two homes; the last file of game 3 not yet received."""
    root = tmp_path_factory.mktemp("summaries")
    for seed in (1, 2):
        selfplay("skirmish", "long", seed, root / "play", max_actions=6)

    def on_file(count: int) -> None:
        if count == 6:
            shutil.copytree(root / "play", root / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay("skirmish", "long", 3, root / "play", on_file=on_file)
    return root / "before"


def _home(played: Path, tmp_path: Path) -> tuple[Path, Path]:
    incoming = sorted((played / "files").iterdir())[-1]
    name = "home-b" if incoming.name.endswith("-red.pbem") else "home-a"
    shutil.copytree(played / name, tmp_path / name)
    shutil.rmtree(tmp_path / name / "cache", ignore_errors=True)
    return tmp_path / name, incoming


def _run(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_status_verifies_each_save_once(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_signature_checks: Callable[[], list[bytes]]) -> None:
    home, _ = _home(played, tmp_path)
    checks = count_signature_checks()
    first = _run(home, "status")
    assert len(checks) == 3  # one per save, nothing kept yet
    for command in ("status", "list"):
        checks.clear()
        monkeypatch.setattr(identity_module, "_verified", {})
        again = _run(home, command)
        assert checks == []
        if command == "status":
            assert again == first


def test_receive_verifies_only_the_save_it_loads(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_signature_checks: Callable[[], list[bytes]]) -> None:
    home, incoming = _home(played, tmp_path)
    _run(home, "status")
    checks = count_signature_checks()
    _run(home, "receive", str(incoming))
    # the incoming file and the save of its game: not the other two saves, nor the
    # invite beside the save, which the verified save commits to by its SHA-256 (issue 35)
    assert len(checks) == 2
    checks.clear()
    monkeypatch.setattr(identity_module, "_verified", {})
    # the save receive wrote is kept as written: status verifies nothing
    after = _run(home, "status")
    assert checks == []
    monkeypatch.setattr(identity_module, "_verified", {})
    shutil.rmtree(home / "cache")
    assert _run(home, "status") == after


@pytest.mark.parametrize("change", ["altered", "another key"])
def test_a_save_changed_since_is_verified_and_refused(played: Path, tmp_path: Path,
                                                      change: str) -> None:
    home, _ = _home(played, tmp_path)
    _run(home, "status")
    if change == "altered":
        save = sorted((home / "games").glob("*.pbsave"))[1]
        data = bytearray(save.read_bytes())
        data[-1] ^= 1
        save.write_bytes(bytes(data))
        expected = f"{save.name}: its signature"
    else:
        # the home's card names another key: its own saves are no longer its own
        card = home / "identity" / "card.json"
        other = (played / ("home-a" if home.name == "home-b" else "home-b")
                 / "identity" / "card.json")
        card.write_bytes(other.read_bytes())
        expected = "not signed by this home's identity"
    result = CliRunner().invoke(main, ["--home", str(home), "status"])
    assert result.exit_code != 0
    assert expected in result.output


def test_summaries_are_kept_and_found_without_hashing_a_save(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        count_signature_checks: Callable[[], list[bytes]]) -> None:
    """A receive (with no summary kept for the save, as after a board's session), an act
    and a status keep and find each save's summary by its exact bytes, hashing no save
    (issue 35: 47 instructions a byte of the save, twice in a receive, once in an act
    and in a status for each game); the status after them verifies nothing."""
    from pbem import datacache

    home, incoming = _home(played, tmp_path)
    hashed: list[int] = []
    real = datacache.make_key

    def counting(*parts: bytes | str) -> bytes:
        # a save is kilobytes; every other part of a key is a name, a stamp or a key
        hashed.extend(len(p) for p in parts if isinstance(p, bytes) and len(p) > 1000)
        return real(*parts)

    monkeypatch.setattr(datacache, "make_key", counting)
    _run(home, "receive", str(incoming))
    mine = [g["name"] for g in _statuses(home) if g["your_move"]]
    assert mine
    _run(home, "act", mine[0], _an_action(home, mine[0]))
    checks = count_signature_checks()
    monkeypatch.setattr(identity_module, "_verified", {})
    _run(home, "status")
    assert checks == []
    assert hashed == []


def _statuses(home: Path) -> list[dict[str, object]]:
    from pbem.session import Home

    return Home(home).statuses()


def _an_action(home: Path, name: str) -> str:
    import json

    legal = json.loads(_run(home, "legal", name, "--json"))
    return str(legal["default"] or legal["actions"][0])


def test_a_game_loads_its_invite_by_the_save_s_commitment(
        played: Path, tmp_path: Path,
        count_signature_checks: Callable[[], list[bytes]]) -> None:
    """Loading a game checks one signature, its save's: the invite beside it is read
    under the SHA-256 the save signed (issue 35: its own signature, checked when it came
    in, was checked again at every command, an Ed25519 verification each); an invite
    changed beside the save, its signature included, is refused as before."""
    from pbem.errors import FormatError
    from pbem.session import Home

    home, _ = _home(played, tmp_path)
    (save,) = sorted((home / "games").glob("*.pbsave"))[:1]
    checks = count_signature_checks()
    game = Home(home).game(save.stem)
    assert len(checks) == 1 and game.verifier.setup.engine_id
    invite = save.with_name(save.stem + ".files") / "000000.pbem"
    data = bytearray(invite.read_bytes())
    at = data.index(game.verifier.setup.creator.key) + 40  # inside the signature
    data[at] ^= 1
    invite.write_bytes(bytes(data))
    with pytest.raises(FormatError, match="not the one the save signed"):
        Home(home).game(save.stem)


def test_a_receive_without_standing_orders_loads_no_orders_module(
        played: Path, tmp_path: Path) -> None:
    """No side has standing orders in force, so none can answer: a receive loads no
    module for them (issue 35: pbem.orders, 0.47 M instructions of every act and
    receive), and imports the file as before."""
    import json

    from pbem.testing import fresh_run

    home, incoming = _home(played, tmp_path)
    probe = (
        "import sys\n"
        "from pbem.cli import main\n"
        f"sys.argv = ['pbem', '--home', {json.dumps(str(home))}, 'receive', "
        f"{json.dumps(str(incoming))}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print('pbem.orders' in sys.modules)\n")
    out = fresh_run(probe)
    assert out[-1] == "False" and any("from the" in line for line in out), out


def test_a_receive_of_one_turn_file_decodes_its_body_once(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One turn file received: its body is decoded by the import, which finds its game
    by it, and handed to the game and its verifier, not decoded again to screen it (only
    an invite or an accept is screened by its body), to sort one file, or for each check
    (issue 35: each strict decode is about 0.16 M instructions); the file is imported
    as before."""
    from pbem import envelope

    home, incoming = _home(played, tmp_path)
    decoded: list[bytes] = []
    real = envelope.Envelope.decode

    def counting(self: envelope.Envelope, **how: bool) -> dict[str, object]:
        decoded.append(self.body)
        return real(self, **how)

    monkeypatch.setattr(envelope.Envelope, "decode", counting)
    out = _run(home, "receive", str(incoming))
    assert "from the" in out
    theirs = open_file_body(incoming)
    assert decoded.count(theirs) == 1


def open_file_body(path: Path) -> bytes:
    from pbem.envelope import open_envelope

    return open_envelope(path.read_bytes()).body
