"""End to end: two homes exchange real files; every attack is refused and changes nothing."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.armor import armor, dearmor
from pbem.audit import audit
from pbem.envelope import open_envelope, seal
from pbem.errors import (
    ChainError,
    ConcurrencyError,
    DesyncError,
    DiceError,
    DuplicateFile,
    FormatError,
    MismatchError,
    NotYourTurn,
    SignatureError,
)
from pbem.identity import Identity
from pbem.session import Home, rebuild


def body_of(data: bytes) -> dict[str, Any]:
    body = canonical.decode(canonical.decode(data)[5])
    assert isinstance(body, dict)
    return body


def resign_body(identity: Identity, body: dict[str, Any]) -> bytes:
    """The same kind of file with a changed body, properly signed by ``identity``."""
    kind = body.pop("kind")
    return seal(identity, kind, body)


def test_whole_game_through_files_both_sides_identical(table: Any) -> None:
    while table.game(table.alice).result is None:
        table.exchange()
    a, b = table.game(table.alice), table.game(table.bob)
    assert a.result == b.result
    assert a.result is not None and a.result.reason == "rules"
    assert a.verifier.state.digest() == b.verifier.state.digest()
    assert a.files == b.files
    report = audit([(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())])
    assert report.clean, report.problems
    assert report.result == a.result.text
    assert len(report.rolls) > 10


def test_first_file_after_accept_is_the_creators(table: Any) -> None:
    # Blum's third message: file 2 is Alice's, revealing her first link
    home, seq, data = table.play_file()
    assert home is table.alice and seq == 2
    body = body_of(data)
    assert body["link_index"] == 1 and body["side"] == "red"


def test_duplicate_and_rollback_change_nothing(table: Any) -> None:
    home, seq, data = table.play_file()
    receiver = table.other(home)
    receiver.receive(data, "f")
    before = table.save_bytes(receiver)
    with pytest.raises(DuplicateFile, match="already imported"):
        receiver.receive(data, "f")
    table.exchange(2)
    before = table.save_bytes(receiver)
    with pytest.raises(DuplicateFile, match="rollback"):
        receiver.receive(data, "f")
    assert table.save_bytes(receiver) == before


def test_reordered_newer_file_first_names_the_missing_one(table: Any, tmp_path: Path) -> None:
    home, seq, f2 = table.play_file()
    receiver = table.other(home)
    snapshot = tmp_path / "snap"
    shutil.copytree(receiver.path, snapshot)
    receiver.receive(f2, "f2")
    _, seq3, f3 = table.play_file()
    table.other(receiver).receive(f3, "f3")
    _, seq4, f4 = table.play_file()
    # Bob or Alice as they were before file 2: receiving 4 first names 2 as missing
    lagging = Home(snapshot, clock=receiver.clock)
    before = lagging.game("duel").path.read_bytes()
    with pytest.raises(ChainError, match="file 2 is missing") as err:
        lagging.receive(f4, "f4.pbem")
    assert err.value.reason == "missing"
    assert "f4.pbem" in str(err.value)
    assert lagging.game("duel").path.read_bytes() == before


def test_every_flipped_byte_of_a_turn_is_refused(table: Any) -> None:
    home, seq, data = table.play_file()
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    step = max(1, len(data) // 300)
    for i in range(0, len(data), step):
        mutated = bytearray(data)
        mutated[i] ^= 0x01
        with pytest.raises((FormatError, SignatureError, ChainError, DiceError)):
            receiver.receive(bytes(mutated), f"mutated-{i}")
    assert table.save_bytes(receiver) == before
    receiver.receive(data, "original")  # the real file still goes in


@pytest.mark.parametrize("which", [0, 1])
def test_every_flipped_byte_of_invite_and_accept_is_refused(table: Any, which: int) -> None:
    data = table.game(table.alice).files[which]
    for i in range(len(data)):
        mutated = bytearray(data)
        mutated[i] ^= 0x40
        with pytest.raises((FormatError, SignatureError)):
            open_envelope(bytes(mutated)).decode()


def test_flipped_byte_of_save_is_detected(table: Any) -> None:
    game = table.game(table.alice)
    data = game.path.read_bytes()
    for i in range(0, len(data), max(1, len(data) // 200)):
        mutated = bytearray(data)
        mutated[i] ^= 0x01
        game.path.write_bytes(bytes(mutated))
        with pytest.raises((FormatError, SignatureError)) as err:
            table.alice.game("duel")
        assert str(game.path) in str(err.value)
    game.path.write_bytes(data)
    assert table.alice.game("duel").name == "duel"


def test_armored_payload_change_refused(table: Any) -> None:
    home, seq, data = table.play_file()
    text = armor(data)
    assert dearmor(text.replace("\n", "\r\n")) == data
    assert dearmor("> " + text.replace("\n", "\n> ")) == data
    lines = text.splitlines()
    payload_rows = [i for i, line in enumerate(lines) if line and ":" not in line
                    and not line.startswith("-----")]
    for row in payload_rows:
        for col in range(len(lines[row])):
            original = lines[row][col]
            replacement = "A" if original != "A" else "B"
            changed = list(lines)
            changed[row] = changed[row][:col] + replacement + changed[row][col + 1:]
            with pytest.raises((FormatError, SignatureError)):
                open_envelope(dearmor("\n".join(changed)))
    table.other(home).receive(text.encode(), "armored.txt")


def test_armor_header_change_refused(table: Any) -> None:
    _, _, data = table.play_file()
    text = armor(data).replace("Seq: 2", "Seq: 9")
    with pytest.raises(FormatError, match="header Seq"):
        dearmor(text)


def test_forged_key_refused(table: Any, tmp_path: Path) -> None:
    home, seq, data = table.play_file()
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    mallory = Identity.generate("Mallory")
    forged = resign_body(mallory, body_of(data))
    with pytest.raises(SignatureError, match="not the one pinned"):
        receiver.receive(forged, "forged.pbem")
    assert table.save_bytes(receiver) == before


def test_file_from_another_game_refused(table: Any, tmp_path: Path) -> None:
    carol = Home(tmp_path / "carol", clock=table.alice.clock)
    carol.keys.create("Carol", "", None)
    game = carol.new_game("skirmish", "short", "red", name="elsewhere")
    joined = table.alice.join(game.files[0], "inv", name="elsewhere")
    carol.receive(joined.files[1], "acc")
    carol_game = carol.game("elsewhere")
    sealed = None
    while sealed is None:
        _, _, sealed = carol_game.act(carol_game.state.legal_actions()[-1].notation())
    _, data = carol_game.file(sealed)
    before = table.save_bytes(table.bob)
    with pytest.raises(ChainError, match="not in") as err:
        table.bob.receive(data, "carols-turn.pbem")
    assert err.value.reason == "other-game"
    assert table.save_bytes(table.bob) == before
    # and a file whose game id was altered is refused by its signature first
    body = body_of(data)
    body["game"] = table.game(table.bob).game_id
    with pytest.raises((ChainError, SignatureError)):
        table.bob.receive(resign_body(carol.identity(), body), "spliced.pbem")
    assert table.save_bytes(table.bob) == before


def test_equivocation_kept_as_evidence_not_in_save(table: Any, tmp_path: Path) -> None:
    alice = table.mover()
    assert alice is table.alice
    # Alice copies her home, then writes file 2 two different ways: two signed files
    # claiming the same place in the chain
    twin = Home(tmp_path / "twin", clock=alice.clock)
    shutil.copytree(alice.path, twin.path)
    _, seq, data_one = table.play_file()
    twin_game = twin.game("duel")
    sealed = None
    for text in ("move c", "pass"):
        _, _, sealed = twin_game.act(text)
    _, data_two = twin_game.file(sealed)
    assert sealed == seq and data_two != data_one
    bob = table.bob
    bob.receive(data_one, "one.pbem")
    before = table.save_bytes(bob)
    with pytest.raises(ChainError, match="equivocation") as err:
        bob.receive(data_two, "two.pbem")
    assert err.value.reason == "fork"
    assert "two.pbem" in str(err.value)
    assert table.save_bytes(bob) == before
    evidence = sorted((bob.path / "evidence" / "duel").iterdir())
    assert {p.read_bytes() for p in evidence} == {data_one, data_two}
    assert data_two not in table.game(bob).files


def test_desync_named_and_save_unchanged(table: Any) -> None:
    home, seq, data = table.play_file()
    body = body_of(data)
    body["digest"] = b"\x00" * 32
    forged = resign_body(home.identity(), body)
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    with pytest.raises(DesyncError, match="desync"):
        receiver.receive(forged, "desync.pbem")
    assert table.save_bytes(receiver) == before


def test_changed_roll_refused(table: Any) -> None:
    while True:
        home, seq, data = table.play_file()
        body = body_of(data)
        rolls = [r for r in body["records"] if r[0] == "r" and isinstance(r[2][0], int)]
        if rolls:
            break
        table.other(home).receive(data, "f")
    roll = rolls[0]
    roll[2][0] = roll[2][0] % 6 + 1
    forged = resign_body(home.identity(), body)
    receiver = table.other(home)
    before = table.save_bytes(receiver)
    with pytest.raises(DiceError, match="seed gives"):
        receiver.receive(forged, "loaded-dice.pbem")
    assert table.save_bytes(receiver) == before


def test_wrong_reveal_refused(table: Any) -> None:
    home, seq, data = table.play_file()
    body = body_of(data)
    body["reveal"] = b"\x42" * 32
    with pytest.raises(DiceError, match="does not hash"):
        table.other(home).receive(resign_body(home.identity(), body), "reveal.pbem")


def test_oversized_and_malformed_files_refused(table: Any) -> None:
    receiver = table.bob
    before = table.save_bytes(receiver)
    with pytest.raises(FormatError, match="larger than the limit"):
        receiver.receive(b"\x96" + b"\x00" * (5 * 1024 * 1024), "huge.pbem")
    for junk in (b"", b"hello", b"\x96\xa4pbem", b"\x96" * 40, b"\xc1"):
        with pytest.raises(FormatError) as err:
            receiver.receive(junk, "junk.pbem")
        assert "junk.pbem" in str(err.value)
    assert table.save_bytes(receiver) == before


def test_own_file_is_left_alone(table: Any) -> None:
    home, seq, data = table.play_file()
    with pytest.raises(DuplicateFile, match=r"your own file .*already in the game"):
        home.receive(data, "mine.pbem")


def test_version_mismatch_named_at_join(tmp_path: Path, monkeypatch: Any) -> None:
    from toy_engine import ENGINE, SkirmishEngine

    alice = Home(tmp_path / "a")
    alice.keys.create("Alice", "", None)
    bob = Home(tmp_path / "b")
    bob.keys.create("Bob", "", None)
    invite = alice.new_game("skirmish", "short", "red").files[0]
    version = SkirmishEngine.rules_version
    monkeypatch.setattr(SkirmishEngine, "rules_version", "99")
    with pytest.raises(MismatchError,
                       match=rf"needs skirmish rules_version {version}, installed is 99"):
        bob.join(invite, "invite.pbem")
    monkeypatch.setattr(SkirmishEngine, "rules_version", version)
    real = ENGINE.scenario_files
    monkeypatch.setattr(type(ENGINE), "scenario_files", lambda self, s: {
        **real(s), "short.toml": b"\x00" * 32})
    with pytest.raises(MismatchError, match=r"scenario file short\.toml differs"):
        bob.join(invite, "invite.pbem")
    assert not bob.save_paths()


def test_rules_version_change_refuses_to_load_save(table: Any, monkeypatch: Any) -> None:
    from toy_engine import SkirmishEngine

    version = SkirmishEngine.rules_version
    monkeypatch.setattr(SkirmishEngine, "rules_version", "99")
    with pytest.raises(MismatchError, match=f"rules_version {version}, installed is 99"):
        table.alice.game("duel")


def test_save_keeps_the_digested_encoding_and_old_saves_still_load(table: Any) -> None:
    """The save holds the position as the very bytes its digest hashes (no second
    encoding per write); a save from before that change (a map) loads to the same game."""
    table.exchange(3)
    game = table.game(table.alice)
    body = canonical.decode(canonical.decode(game.path.read_bytes())[5])
    snapshot = body["cache"]["snapshot"]
    assert isinstance(snapshot, bytes)
    assert hashlib.sha256(snapshot).digest() == game.verifier.state.digest()
    body["cache"]["snapshot"] = canonical.decode(snapshot)
    identity = table.alice.identity()
    game.path.write_bytes(seal(identity, "save", body))
    old = table.alice.game("duel")
    assert old.verifier.state.digest() == game.verifier.state.digest()
    assert old.status()["awaiting"] == game.status()["awaiting"]


def test_undo_never_past_a_roll_or_a_seal(table: Any) -> None:
    game = table.game(table.alice)
    game.act("move b")
    assert game.undo() == "move b"
    with pytest.raises(NotYourTurn, match=r"die roll 2\.0"):
        game.undo()
    sealed = None
    while sealed is None:
        _, _, sealed = game.act(game.state.legal_actions()[-1].notation())
    with pytest.raises(NotYourTurn, match="sealed"):
        table.game(table.alice).undo()


def test_message_travels_and_is_shown(table: Any) -> None:
    table.game(table.alice).say("Good luck, Bob")
    home, seq, data = table.play_file()
    report = table.bob.receive(data, "f.pbem")
    assert report.message == "Good luck, Bob"
    assert table.game(table.alice).message == ""


def test_resign_ends_the_game_for_both(table: Any) -> None:
    table.exchange()
    mover = table.mover()
    seq = table.game(mover).resign()
    _, data = table.game(mover).file(seq)
    report = table.other(mover).receive(data, "resign.pbem")
    assert report.result is not None and report.result.reason == "resign"
    loser = table.game(mover).side
    assert report.result.winner != loser
    assert table.game(table.alice).result == table.game(table.bob).result
    with pytest.raises(NotYourTurn, match="over"):
        table.game(table.other(mover)).act("pass")


def test_draw_offered_then_accepted(table: Any) -> None:
    table.game(table.alice).draw()
    home, seq, data = table.play_file()
    report = table.bob.receive(data, "f")
    assert "offers a draw" in report.text
    what, sealed = table.game(table.bob).draw()
    assert what == "accepted" and sealed is not None
    _, data = table.game(table.bob).file(sealed)
    report = table.alice.receive(data, "draw.pbem")
    assert report.result is not None and report.result.winner is None
    assert table.game(table.alice).result == table.game(table.bob).result


def test_draw_acceptance_without_offer_refused(table: Any) -> None:
    home, seq, data = table.play_file()
    table.bob.receive(data, "f")
    what, sealed = table.game(table.bob).draw()
    assert what == "offered" and sealed is None


def test_rebuild_from_transcript_and_key(table: Any, tmp_path: Path) -> None:
    table.exchange(5)
    game = table.game(table.bob)
    files = [(f"{i}.pbem", d) for i, d in enumerate(game.files)]
    digest = game.verifier.state.digest()
    game.path.unlink()
    rebuilt = rebuild(table.bob, files, name="duel")
    assert rebuilt.verifier.state.digest() == digest
    table.exchange(2)  # and play goes on from the rebuilt save


def test_chain_reanchoring(tmp_path: Path) -> None:
    alice = Home(tmp_path / "a", clock=lambda: 0)
    alice.keys.create("Alice", "", None)
    bob = Home(tmp_path / "b", clock=lambda: 0)
    bob.keys.create("Bob", "", None)
    game = alice.new_game("skirmish", "long", "red", name="g", chain_length=2)
    bob.receive  # noqa: B018
    joined = bob.join(game.files[0], "inv", name="g")
    alice.receive(joined.files[1], "acc")
    from pbem.testing import Chooser

    chooser = Chooser("anchor")
    anchors = 0
    for _ in range(12):
        for home, other in ((alice, bob), (bob, alice)):
            g = home.game("g")
            if g.my_decision() is None:
                continue
            sealed = None
            while sealed is None:
                _, _, sealed = g.act(chooser.pick(g.state.legal_actions()).notation())
            data = g.file(sealed)[1]
            anchors += body_of(data)["next_anchor"] is not None
            other.receive(data, "f")
            break
        if alice.game("g").result:
            break
    assert anchors >= 2
    assert alice.game("g").verifier.state.digest() == bob.game("g").verifier.state.digest()


def test_audit_fails_on_any_mutated_file(table: Any) -> None:
    table.exchange(4)
    files = [(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())]
    assert audit(files).clean
    for index in range(len(files)):
        name, data = files[index]
        mutated = bytearray(data)
        mutated[len(data) // 2] ^= 0x10
        report = audit([*files[:index], (name, bytes(mutated)), *files[index + 1:]])
        assert not report.clean
        assert name in report.problems[0] or "invite" in report.problems[0]


def test_audit_reports_equivocation(table: Any, tmp_path: Path) -> None:
    table.exchange(2)
    files = [(p.name, p.read_bytes()) for p in sorted(table.folder.iterdir())]
    last_name, last = files[-1]
    body = body_of(last)
    body["message"] = "a different file for the same place"
    sender = table.alice if body["side"] == "red" else table.bob
    twin = resign_body(sender.identity(), body)
    report = audit([*files, ("twin.pbem", twin)])
    assert not report.clean
    assert any("equivocation" in p for p in report.problems)


def test_impersonation_of_a_pinned_name_refused(table: Any, tmp_path: Path) -> None:
    # Bob pinned Alice's key when he joined; Mallory now invites him as "Alice"
    mallory = Home(tmp_path / "mallory")
    mallory.keys.create("Alice", "alice@example.org", None)
    invite = mallory.new_game("skirmish", "short", "red").files[0]
    with pytest.raises(SignatureError, match="other than the one pinned"):
        table.bob.join(invite, "fake-invite.pbem")
    assert [c.name for c in table.bob.keys.contacts()] == ["Alice"]
    # and Alice pinned Bob's key when his accept arrived
    assert [c.key for c in table.alice.keys.contacts()] == [table.bob.card().key]


def test_concurrent_write_refused_not_lost(table: Any) -> None:
    # two commands load the same game; the first saves; the second must not undo it
    first = table.game(table.alice)
    second = table.game(table.alice)
    first.say("from the first window")
    with pytest.raises(ConcurrencyError, match="changed by another pbem"):
        second.say("from the second window")
    assert table.game(table.alice).message == "from the first window"


def test_status_comes_from_the_signed_summary_without_the_engine(
        table: Any, monkeypatch: Any) -> None:
    table.exchange(2)
    expected = table.game(table.bob).status()
    import pbem.session as session

    def no_engine(engine_id: str) -> Any:
        raise AssertionError("listing games must not load an engine")

    monkeypatch.setattr(session, "get_engine", no_engine)
    assert table.bob.statuses("duel") == [expected]
    assert table.bob.statuses()[0]["awaiting"] == expected["awaiting"]
    # and an altered save is still refused when only its summary is read
    path = table.bob.games_dir / "duel.pbsave"
    data = bytearray(path.read_bytes())
    data[-40] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises((FormatError, SignatureError)):
        table.bob.statuses()
