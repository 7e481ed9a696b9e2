"""Issue 32, item 8: with sealed dice (docs/protocol.md 6.2) a roll a player's file stops
at comes back in the opponent's next file; when the decision is then back with the
roller, that reply holds only the rolls.  Two homes sharing one folder, each running one
``pbem watch``, finish a sealed game in which those rolls-only replies are sealed and
sent by the watchers: the players only answer their own decisions (``pbem act``)."""

from __future__ import annotations

from pathlib import Path

from syncthing import wait_for
from test_turnloop import cli, folder_seqs, watching
from transport_helpers import Pair

from pbem.envelope import file_name


def test_two_watchers_send_the_rolls_only_replies_of_a_sealed_game(pair: Pair,
                                                                   tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    # no --dice: sealed is the default, because of what bench/bench_sealed_wall.py measured
    cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--folder", str(folder))
    game_id = pair.alice.game("duel").game_id
    assert pair.alice.game("duel").verifier.sealed, "pbem new made an open game"
    cli(pair.bob, "join", str(folder / file_name(game_id, 0, "red")), "--name", "duel",
        "--folder", str(folder), "--yes")
    typed = 0  # files sealed by a player's own 'act'
    round_trips = 0  # a file answered by a reply nobody typed, the decision back with its writer
    with watching(pair.alice, pair.bob, logs=tmp_path) as logs:
        mover = None

        def someone_moves() -> bool:
            nonlocal mover
            mover = pair.mover("duel")
            return mover is not None or pair.alice.game("duel").result is not None

        wait_for(someone_moves, 60, "alice's watch imported the reply")
        acts = 0
        while mover is not None:
            game = mover.game("duel")
            before = len(game.files)
            cli(mover, "act", "duel", pair.chooser.pick(game.state.legal_actions()).notation())
            acts += 1
            assert acts < 200
            if len(mover.game("duel").files) == before:
                continue
            typed += 1
            writer = mover
            wait_for(someone_moves, 60, "a watch imported the last file")
            round_trips += mover is writer
        wait_for(lambda: pair.bob.game("duel").result is not None, 60, "bob saw the end")
    a, b = pair.alice.game("duel"), pair.bob.game("duel")
    assert a.files == b.files and a.result is not None
    assert folder_seqs(folder, game_id) == list(range(len(a.files)))
    by_watch = len(a.files) - 2 - typed  # neither the invite nor the accept
    assert round_trips >= 1 and by_watch >= round_trips, (round_trips, by_watch, typed)
    text = "".join(p.read_text() for p in logs)
    assert "Traceback" not in text, text
