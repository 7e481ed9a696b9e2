"""A roll the engine tells itself is told once by ``act`` and ``receive``: in the engine's
words, under the roll's name the audit knows it by (as the replay tells it)."""

from __future__ import annotations

from pathlib import Path

from pbem.session import Home


def to_turn_two(erich: Home, ivan: Home) -> None:
    """Both sides end ten impulses of turn 1 with a one-point impulse each, up to the
    German's last 'end movement' (the next one rolls turn 2's weather and the Velikiye
    Luki garrison's release, White Death 4.0)."""
    homes = {"german": erich, "soviet": ivan}
    for _ in range(39):
        game = ivan.game("luki")
        side = game.state.current_player()
        assert isinstance(side, str)
        mine = homes[side].game("luki")
        names = [str(a) for a in mine.state.legal_actions()]
        _, rolls, sealed = mine.act("end movement" if "end movement" in names else "impulse 1")
        assert not rolls
        if sealed is not None:
            other = homes["german" if side == "soviet" else "soviet"]
            other.receive(mine.file(sealed)[1], f"file {sealed}")
    assert ivan.game("luki").state.current_player() == "german"


def test_act_and_receive_tell_an_engine_told_roll_once(run, tmp_path: Path, purkayev) -> None:  # type: ignore[no-untyped-def]
    erich, ivan = purkayev(tmp_path, b"luki1")
    to_turn_two(erich, ivan)
    r = run("erich", "act", "luki", "end movement")
    assert r.exit_code == 0, r.output
    lines = [line.strip() for line in r.output.splitlines()]
    rolls = [line for line in lines if "rolled" in line or "1d6 ->" in line]
    # the engine's words, named; not a second line for the same roll
    assert rolls == ["roll 22.0: weather for turn 2: rolled 3",
                     "roll 22.1: Velikiye Luki garrison release on turn 2: rolled 6"], lines
    assert "sealed file 22 of luki" in r.output
    assert run("erich", "send", "luki", "-o", "t.pbem").exit_code == 0
    r = run("ivan", "receive", "t.pbem")
    assert r.exit_code == 0, r.output
    lines = [line.strip() for line in r.output.splitlines()]
    assert [line for line in lines if "rolled" in line or "1d6 ->" in line] == rolls, lines


def test_receive_tells_the_rolls_it_makes_after_the_file(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Erich's receive of the accept rolls turn 1's weather at once (White Death 4.0,
    Purkayev's Attack): he sees what the roll gave, the engine's weather line under the
    roll's name, once; before, only the bare '1d6 -> N' line, and not the weather."""
    import hashlib

    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    ivan.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = erich.new_game("white-death", "purkayev", "german", name="luki",
                          nonce=hashlib.sha256(b"luki1").digest())
    joined = ivan.join(game.files[0], "invite", name="luki")
    (tmp_path / "reply.pbem").write_bytes(joined.files[1])
    r = run("erich", "receive", "reply.pbem", "--yes")
    assert r.exit_code == 0, r.output
    lines = [line.strip() for line in r.output.splitlines()]
    rolled = [line for line in lines if "weather for turn 1:" in line.lower()
              or "1d6 ->" in line]
    # the roll once, in the engine's words under its name, then what it gave
    assert rolled == ["roll 2.0: weather for turn 1: rolled 5", "Weather for turn 1: snow"], lines
