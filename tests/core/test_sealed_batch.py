"""Sealed dice batching (issue 21, pbem.steps): rolls the rules let wait travel together.

The test engine's night scenario has flares (Skirmish 5): their rolls may wait while the
phasing side gives its orders.  With sealed dice, ``flare 2`` then ``attack 2`` is one file
that ends at three chance nodes (two flares, the attack), and the opponent's next file
resolves all three with its one link; with open dice nothing changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import canonical, dice
from pbem.audit import audit
from pbem.errors import ChainError, DesyncError, DiceError, FormatError, NotYourTurn
from pbem.registry import get
from pbem.session import Home
from pbem.steps import WAITING, StepState

from .test_protocol import body_of, resign_body


def night(tmp_path: Path, dice_mode: str, sealed_rules: int = 1) -> tuple[Home, Home]:
    """Fixed keys and nonce: the same dice every run (round 1's event is not a storm).
    Sealed rules 1 by default: the batches as every sealed game before rules 2 plays them
    (docs/protocol.md 6.2.1; rules 2 is tested in test_sealed_rules)."""
    alice = Home(tmp_path / "alice", clock=lambda: 1_700_000_000)
    bob = Home(tmp_path / "bob", clock=lambda: 1_700_000_000)
    alice.keys.create("Alice", "alice@example.org", None, secret=bytes(range(32)))
    bob.keys.create("Bob", "bob@example.org", None, secret=bytes(range(32, 64)))
    game = alice.new_game("skirmish", "night", "red", name="n", nonce=b"\x21" * 32,
                          dice_mode=dice_mode,
                          sealed_rules=sealed_rules if dice_mode == "sealed" else None)
    joined = bob.join(game.files[0], "0000.pbem", name="n")
    alice.receive(joined.files[1], "0001.pbem")
    return alice, bob


def flares_then_attack(alice: Home) -> tuple[int | None, bytes]:
    """Red fires two flares and attacks: the file red seals (sealed dice: at once)."""
    game = alice.game("n")
    assert game.act("flare 2", save=False)[2] is None  # the flares wait; red goes on
    assert game.state.current_player() == "red"
    _, rolls, sealed = game.act("attack 2", save=False)
    return sealed, game.file(sealed)[1] if sealed is not None else b""


def blue_replies(bob: Home) -> bytes:
    """Blue plays its defaults (else its first option) until its file is sealed."""
    game = bob.game("n")
    while True:
        decision = game.decision()
        assert decision is not None and decision.side == "blue"
        action = decision.default or game.state.legal_actions()[0]
        sealed = game.act(action.notation(), save=False)[2]
        if sealed is not None:
            return game.file(sealed)[1]


def test_one_file_asks_for_several_rolls_and_one_file_resolves_them(tmp_path: Path) -> None:
    alice, bob = night(tmp_path, "sealed")
    sealed, data = flares_then_attack(alice)
    assert sealed == 2
    body = body_of(data)
    # the event draw of round 1 (nobody acted before it), then red's two orders
    assert [r[0] for r in body["records"]] == ["r", "a", "a"]
    assert body["to_act"] == "blue"  # the opponent finalizes what waits
    state = alice.game("n").state
    assert state.is_chance() and state.chance_request().purpose == "flare over blue"
    with pytest.raises(NotYourTurn):  # red cannot go past the point the rolls wait for
        alice.game("n").act("pass")
    # red is told every roll blue's file will make, not only the first
    assert alice.game("n").awaiting() == (
        "waiting for file 3 from the opponent, whose dice link finalizes 3 rolls: "
        "flare over blue; flare over blue; attack by red with 2 (sealed dice)")
    report = bob.receive(data, "0002.pbem")
    assert report.sealed is None  # blue decides next (the defence, or its own turn)
    reply = blue_replies(bob)
    records = body_of(reply)["records"]
    rolls = records[:3]
    assert [r[:2] for r in rolls] == [["r", 0], ["r", 1], ["r", 2]]
    assert [r[3] for r in rolls] == [{"kind": "dice", "dice": [6]}] * 2 + [
        {"kind": "dice", "dice": [6, 6]}]
    files = [alice.game("n").files[0], alice.game("n").files[1], data, reply]
    audited = audit([(f"{n:04d}", d) for n, d in enumerate(files)])
    assert audited.clean, audited.problems
    resolved = [r for r in audited.rolls if r.seq == 3]
    assert [r.purpose for r in resolved[:3]] == ["flare over blue", "flare over blue",
                                                 "attack by red with 2"]
    # one link, one seed: the asking file's hash and blue's link (protocol-crypto 3.3.1)
    asking = canonical.decode(data)[5]
    from pbem.envelope import body_hash

    seed = dice.sealed_seed(alice.game("n").game_id, 2, body_hash(asking),
                            body_of(reply)["reveal"])
    assert {r.seed for r in resolved} == {seed}
    # red's program replays blue's file to the digest blue signed (a desync would raise)
    alice.receive(reply, "0003.pbem")
    assert alice.game("n").verifier.seq >= 3


def test_open_dice_resolve_each_flare_at_once(tmp_path: Path) -> None:
    alice, _ = night(tmp_path, "open")
    game = alice.game("n")
    _, rolls, sealed = game.act("flare 2", save=False)
    assert sealed is None and [r.purpose for r in rolls] == ["flare over blue"] * 2
    assert not isinstance(game.state, StepState) or not game.state.parked


def _reply(tmp_path: Path) -> tuple[Home, Home, bytes, dict[str, Any]]:
    alice, bob = night(tmp_path, "sealed")
    _, data = flares_then_attack(alice)
    bob.receive(data, "0002.pbem")
    reply = blue_replies(bob)
    return alice, bob, reply, body_of(reply)


def test_a_batch_cannot_be_reordered_forged_or_dropped(tmp_path: Path) -> None:
    alice, bob, reply, body = _reply(tmp_path)
    signer = bob.identity()
    before = alice.game("n").path.read_bytes()

    def refused(records: list[Any], error: type[Exception], match: str) -> None:
        changed = dict(body, records=records)
        with pytest.raises(error, match=match):
            alice.receive(resign_body(signer, dict(changed)), "forged.pbem")
        assert alice.game("n").path.read_bytes() == before

    rolls, rest = body["records"][:3], body["records"][3:]
    # the attack's roll first: the engine asks for the first flare there
    swapped = [["r", 0, *rolls[2][2:]], ["r", 1, *rolls[0][2:]], ["r", 2, *rolls[1][2:]]]
    refused(swapped + rest, DesyncError, "request mismatch")
    # the records in another order keep their indexes: refused as out of order
    refused([rolls[1], rolls[0], rolls[2], *rest], FormatError, "a roll record is")
    # another face for a flare
    forged = [list(r) for r in rolls]
    forged[1][2] = [forged[1][2][0] % 6 + 1]
    refused(forged + rest, DiceError, "roll 3.1")
    # the attack's roll dropped (what follows renumbered): the rules still ask for it
    renumbered = [["r", r[1] - 1, *r[2:]] if r[0] == "r" else r for r in rest]
    refused(rolls[:2] + renumbered, DesyncError, "request mismatch")
    # every roll dropped: the file plays on while the rolls are due
    refused([r for r in body["records"] if r[0] != "r"], ChainError, "<chance>'s turn")
    alice.receive(reply, "0003.pbem")  # the true file still goes in


def test_the_asker_cannot_stop_before_or_play_past_the_rolls_or_roll_them(
        tmp_path: Path) -> None:
    alice, bob = night(tmp_path, "sealed")
    _, data = flares_then_attack(alice)
    body = body_of(data)
    signer = alice.identity()
    before = bob.game("n").path.read_bytes()

    def refused(records: list[Any], error: type[Exception], match: str) -> None:
        with pytest.raises(error, match=match):
            bob.receive(resign_body(signer, dict(body, records=records)), "forged.pbem")
        assert bob.game("n").path.read_bytes() == before

    # past the point the waiting rolls must come before (the attack's roll)
    refused([*body["records"], ["a", "pass"]], ChainError, "<chance>|turn")
    # stopping with the flares waiting, while still to decide: the rolls would be lost
    refused(body["records"][:2], ChainError, "still the red player's decision")
    # rolling them itself
    request = {"kind": "dice", "dice": [6]}
    refused([*body["records"], ["r", 1, [6], request]], DiceError, "finalized by the opponent")
    bob.receive(data, "0002.pbem")


def test_waiting_rolls_are_in_the_snapshot_and_restore() -> None:
    engine = get("skirmish")
    state = engine.new_state("night")
    state.sealed_dice = True
    state.apply_outcome(("calm",))
    events = state.apply("flare 2", side="red")
    assert [e.text for e in events if e.kind == "roll"] == [
        "flare over blue: the roll waits for the blue player's next file (sealed dice)"] * 2
    assert isinstance(state, StepState) and len(state.parked) == 2
    assert [r.purpose for r in state.waiting()] == ["flare over blue"] * 2
    snap = canonical.decode(state.encoded())
    assert snap["body"]["stack"][-1][:2] == [WAITING, "red"]
    again = engine.restore(snap)
    assert again.digest() == state.digest()
    assert isinstance(again, StepState) and again.parked == state.parked
    # a waiting entry that is not a batched roll, or names no side, is refused
    for bad in ([WAITING, "red", [["attack-roll", 0, {}]]], [WAITING, "green",
                                                              [["flare-roll", 0, {}]]]):
        broken = canonical.decode(state.encoded())
        broken["body"]["stack"][-1] = bad
        with pytest.raises(FormatError):
            engine.restore(broken)
    # a clone shares nothing it could change: the original still waits after the clone rolls
    twin = state.clone()
    twin.apply("pass", side="red")
    twin.apply_outcome((6,))
    assert len(state.parked) == 2 and not state.is_chance()


def test_the_waiting_rolls_come_in_order_before_a_decision_of_the_opponent() -> None:
    engine = get("skirmish")
    state = engine.new_state("night")
    state.sealed_dice = True
    state.apply_outcome(("calm",))
    state.apply("flare 1", side="red")
    state.apply("pass", side="red")  # the end of red's orders (2.3) comes after the flare
    assert state.is_chance() and state.chance_request().purpose == "flare over blue"
    state.apply_outcome((5,))
    assert state.chance_request().purpose == "event for round 1"  # then blue's turn
