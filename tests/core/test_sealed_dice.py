"""Sealed dice (ARCHITECTURE 5): a roll is finalized by the opponent's next, unrevealed
link, so the player whose action asks for it can neither foresee nor order it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pbem import canonical, dice
from pbem.audit import audit, explain_roll
from pbem.envelope import body_hash
from pbem.errors import ChainError, DiceError
from pbem.testing import Chooser

from .conftest import Table, make_home
from .test_protocol import body_of, resign_body


@pytest.fixture
def sealed(tmp_path: Path) -> Table:
    # fixed keys: the dice follow the keys too, and with fresh ones a game now and then
    # ended before the 25 files the tests play ("nobody to act")
    alice = make_home(tmp_path, "Alice", hashlib.sha256(b"alice").digest())
    bob = make_home(tmp_path, "Bob", hashlib.sha256(b"bob").digest())
    folder = tmp_path / "shared"
    folder.mkdir()
    game = alice.new_game("skirmish", "long", "red", name="duel", nonce=b"\x09" * 32,
                          dice_mode="sealed")
    joined = bob.join(game.files[0], "0000.pbem", name="duel")
    alice.receive(joined.files[1], "0001.pbem")
    return Table(alice, bob, "duel", folder, Chooser("sealed"))


def exchange_all(table: Table, files: int) -> list[bytes]:
    """Play ``files`` files; imports that seal at once travel too.  All files, in order."""
    for _ in range(files):
        home, seq, data = table.play_file()
        receiver = table.other(home)
        report = receiver.receive(data, f"{seq:04d}.pbem")
        while report.sealed is not None:
            sender, receiver = receiver, table.other(receiver)
            report = receiver.receive(table.game(sender).file(report.sealed)[1], "auto")
    return table.game(table.alice).files


def test_rolls_come_only_before_the_first_action_and_both_copies_agree(sealed: Table) -> None:
    files = exchange_all(sealed, 25)
    assert len(files) > 20
    ended_at_a_roll = 0
    for data in files[2:]:
        kinds = [r[0] for r in body_of(data)["records"]]
        first_action = next((i for i, k in enumerate(kinds) if k in ("a", "o")), len(kinds))
        assert "r" not in kinds[first_action:], kinds
        if kinds and kinds[-1] == "a" and body_of(data)["to_act"]:
            ended_at_a_roll += 1
    assert ended_at_a_roll  # files that ended at the roll their last action asked for
    digests = {sealed.game(h).verifier.state.digest() for h in (sealed.alice, sealed.bob)}
    assert len(digests) == 1
    report = audit([(f"{n:04d}", d) for n, d in enumerate(files)])
    assert report.clean, report.problems


def test_the_seed_is_the_asking_files_hash_and_the_resolvers_link(sealed: Table) -> None:
    files = exchange_all(sealed, 25)
    for n in range(3, len(files)):
        body = body_of(files[n])
        rolls = [r for r in body["records"] if r[0] == "r"]
        if rolls:
            break
    else:
        raise AssertionError("no rolls")
    game_id = sealed.game(sealed.alice).game_id
    asking = canonical.decode(files[n - 1])[5]
    seed = dice.sealed_seed(game_id, n - 1, body_hash(asking), body["reveal"])
    report = audit([(f"{i:04d}", d) for i, d in enumerate(files)])
    roll = next(r for r in report.rolls if r.seq == n)
    assert roll.seed == seed
    told = "\n".join(explain_roll(report, f"{n}.0"))
    assert "'pbem/v1/sealed'" in told and f"asked for by file {n - 1}" in told


def test_the_asker_may_not_roll_for_itself(sealed: Table) -> None:
    """A file that resolves, after its own action, the roll that action asked for."""
    while True:
        home, seq, data = sealed.play_file()
        body = body_of(data)
        if body["records"] and body["records"][-1][0] == "a":
            break
        sealed.other(home).receive(data, "f")
    game = sealed.game(home)
    forged_roll = ["r", sum(1 for r in body["records"] if r[0] == "r"), [1],
                   dice.request_data(game.state.chance_request())]
    body["records"].append(forged_roll)
    receiver = sealed.other(home)
    before = sealed.save_bytes(receiver)
    with pytest.raises(DiceError, match="finalized by the opponent's next file"):
        receiver.receive(resign_body(home.identity(), body), "self-roll.pbem")
    assert sealed.save_bytes(receiver) == before
    assert game.state.is_chance()
    assert "whose dice link finalizes the roll for" in game.status()["awaiting"]


def test_the_resolver_must_resolve_and_cannot_change_the_roll(sealed: Table) -> None:
    while True:
        home, seq, data = sealed.play_file()
        receiver = sealed.other(home)
        report = receiver.receive(data, "f")
        if report.sealed is not None:
            break  # the receiver finalized our roll and handed the pen straight back
        body = body_of(data)
        if body["records"] and body["records"][-1][0] == "a":
            break
    # the receiver's next file starts with the rolls; tamper with the first one
    resolver = receiver
    if report.sealed is not None:
        reply = sealed.game(resolver).file(report.sealed)[1]
    else:
        _, _, reply = sealed.play_file()
    body = body_of(reply)
    assert body["records"][0][0] == "r"
    first = body["records"][0]
    if isinstance(first[2][0], int):
        first[2][0] = first[2][0] % 6 + 1
    else:
        first[2][0] = "storm" if first[2][0] != "storm" else "calm"
    target = sealed.other(resolver)
    before = sealed.save_bytes(target)
    with pytest.raises(DiceError):
        target.receive(resign_body(resolver.identity(), body), "changed.pbem")
    assert sealed.save_bytes(target) == before
    # and a reply that leaves the roll unresolved is incomplete
    body = body_of(reply)
    body["records"] = []
    with pytest.raises(ChainError, match="unresolved die roll"):
        target.receive(resign_body(resolver.identity(), body), "unresolved.pbem")
    assert sealed.save_bytes(target) == before


def test_sealed_game_rebuilds_from_its_files(sealed: Table, tmp_path: Path) -> None:
    """A lost save: the files and the key give the same game back (sealed rolls too)."""
    import shutil

    from pbem.session import Home, rebuild

    files = exchange_all(sealed, 12)
    shutil.copytree(sealed.bob.path, tmp_path / "bob-again")
    again = Home(tmp_path / "bob-again", clock=lambda: 1_700_000_000)
    shutil.rmtree(again.games_dir)
    game = rebuild(again, [(f"{n:04d}", d) for n, d in enumerate(files)], name="duel")
    assert game.verifier.state.digest() == sealed.game(sealed.bob).verifier.state.digest()


def test_a_roll_not_yet_finalized_says_which_file_makes_it_checkable(sealed: Table) -> None:
    # QA: a home shows roll 6.1 as soon as it finalizes it in its own file 6; an audit of
    # the files received so far said only "no roll 6.1 in this transcript"
    files = exchange_all(sealed, 25)
    n = next(n for n in range(3, len(files))
             if any(r[0] == "r" for r in body_of(files[n])["records"]))
    before = audit([(f"{i:04d}", d) for i, d in enumerate(files[:n])])
    assert before.clean, before.problems
    [told] = explain_roll(before, f"{n}.0")
    side = sealed.game(sealed.alice).verifier.setup.sides
    assert (f"no roll {n}.0 in this transcript yet: file {n - 1} ended at a roll, which the "
            in told)
    assert any(f"the {s} player's file {n} finalizes (sealed dice)" in told for s in side)
    assert f"these files end at file {n - 1}, so roll {n}.0 can be checked once file {n} " \
           "is among them" in told
    [later] = explain_roll(before, f"{n + 3}.0")
    assert f"it is made in file {n + 3}, and these files end at file {n - 1}" in later
    whole = audit([(f"{i:04d}", d) for i, d in enumerate(files)])
    assert explain_roll(whole, f"{n}.0")[0].startswith(f"roll {n}.0: ")
    [none] = explain_roll(whole, f"{n}.9")
    assert none.startswith(f"no roll {n}.9 in this transcript: file {n} made roll")
