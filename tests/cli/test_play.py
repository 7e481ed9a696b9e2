"""pbem play / replay / demo: through CliRunner, and one whole exchange on a real pty."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()

    def invoke(home: str | None, *args: str, input: str | None = None):  # type: ignore[no-untyped-def]
        argv = (["--home", str(tmp_path / home)] if home else []) + list(args)
        return runner.invoke(main, argv, input=input, catch_exceptions=False)

    invoke("a", "id", "new", "Alice")
    invoke("b", "id", "new", "Bob")
    invoke("a", "new", "skirmish", "long", "--side", "red", "--name", "g", "-o", "inv.pbem")
    invoke("b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes")
    return invoke


def test_play_receives_replays_and_prompts_until_sealed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = cli("a", "play", "g", "acc.pbem", "--fast", "--yes",
            input="help\nlegal\nmove b\nundo\npass\n")
    assert r.exit_code == 0, r.output
    assert "file 1 from the blue player" in r.output
    assert "commands:" in r.output and "gives orders for round 1" in r.output
    assert "undone: move b" in r.output
    assert "file 2 is sealed and signed" in r.output
    outbox = list((tmp_path / "a" / "outbox").iterdir())
    assert len(outbox) == 1 and outbox[0].name.endswith("-0002-red.pbem")
    r = cli("b", "play", str(outbox[0]), "--fast", input="status\nbogus move\ndone\n")
    assert r.exit_code == 0, r.output
    # the replay told Bob what Alice did, with the roll named by file and index
    assert "red passes" in r.output and "roll 2.0" in r.output
    assert "refused:" in r.output and "cannot read" in r.output
    assert "your actions are saved" in r.output


def test_standing_orders_at_the_play_prompt(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = cli("a", "play", "g", "acc.pbem", "--fast", "--yes", input="pass\n")
    assert r.exit_code == 0, r.output
    outbox = list((tmp_path / "a" / "outbox").iterdir())
    r = cli("b", "play", str(outbox[0]), "--fast",
            input="orders\norders bogus\norders all\ndone\n")
    assert r.exit_code == 0, r.output
    assert "take-result (Skirmish 3): absorb the attack" in r.output
    assert "refused:" in r.output and "no standing order for 'bogus'" in r.output
    assert "standing orders sent with this file: take-result" in r.output
    status = cli("b", "status", "g")
    assert "orders to send with your next file: take-result=default" in status.output


def test_play_refuses_a_bad_file_and_keeps_the_game(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "bad.pbem").write_bytes(b"\x96garbage")
    r = cli("a", "play", "g", "bad.pbem", "--fast")
    assert r.exit_code == 3 and "bad.pbem" in r.output


def test_replay_whole_game(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("a", "receive", "acc.pbem", "--yes")
    assert cli("a", "act", "g", "pass").exit_code == 0
    cli("a", "send", "g", "-o", "t2.pbem")
    cli("b", "receive", "t2.pbem")
    r = cli("b", "replay", "g", "--fast")
    assert r.exit_code == 0 and "red passes" in r.output and "replayed 1 file" in r.output
    # a file that is not there is a wrong number (issue 17 item 8), not 'replayed 0 files'
    r = cli("b", "replay", "g", "--fast", "--from", "99")
    assert r.exit_code == 2 and "has files 0..2, not 99" in r.output, r.output


def test_demo_runs_and_audits(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["demo", "--engine", "skirmish", "--fast", "--files", "4",
                                  "--dir", str(tmp_path / "demo")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "CLEAN" in r.output and "identical" in r.output
    assert len(list((tmp_path / "demo" / "transcript").iterdir())) >= 6


def test_demo_closes_with_the_route_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's closing hints teach what the guide teaches: each side gives the game its
    route once (new and join with --folder), leaves pbem watch running and types only
    pbem play GAME; not the hand-carried 'pbem play mygame REPLY.pbem' of before."""
    monkeypatch.setenv("PATH", "")  # not on PATH: the hints name the pbem running now
    r = CliRunner().invoke(main, ["demo", "--engine", "skirmish", "--fast", "--files", "4",
                                  "--dir", str(tmp_path / "demo")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    tail = r.output[r.output.index("To play a real game"):]
    pbem = str(Path(sys.executable).with_name("pbem"))
    pbem = os.path.relpath(pbem) if not os.path.relpath(pbem).startswith("..") else pbem
    hints = [line.strip() for line in tail.splitlines()]
    assert f"{pbem} new skirmish" in tail and "--name mygame --folder DIR" in tail, tail
    assert any(line.startswith(f"{pbem} join DIR/") and line.split("  ")[0].endswith(
        "--folder DIR") for line in hints), tail
    assert any(line.startswith(f"{pbem} watch ") for line in hints), tail
    assert any(line.startswith(f"{pbem} play mygame ") for line in hints), tail
    assert "REPLY.pbem" not in tail and "not on your PATH" in tail, tail


def test_demo_of_an_engine_not_installed_is_a_wrong_name(tmp_path: Path) -> None:
    """It used to end in a KeyError's traceback."""
    for args in (["--engine", "nosuch"], ["--engine", "skirmish", "--scenario", "nosuch"]):
        r = CliRunner().invoke(main, ["demo", *args, "--fast", "--dir", str(tmp_path / "d")])
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        assert "skirmish" in r.output  # what there is to choose from


def test_play_on_a_real_terminal(tmp_path: Path) -> None:
    """One whole exchange typed at a pseudo-terminal, as a person would."""
    env = {**os.environ, "PBEM_CLOCK": "1800000000", "COLUMNS": "100", "TERM": "dumb"}
    pbem = str(Path(sys.executable).with_name("pbem"))

    def run(*args: str) -> None:
        child = pexpect.spawn(pbem, list(args), cwd=str(tmp_path), env=env, timeout=60,
                              encoding="utf-8")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before

    run("--home", "a", "id", "new", "Alice")
    run("--home", "b", "id", "new", "Bob")
    run("--home", "a", "new", "skirmish", "long", "--side", "red", "--name", "g", "-o",
        "inv.pbem")
    run("--home", "b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes")
    alice = pexpect.spawn(pbem, ["--home", "a", "play", "g", "acc.pbem", "--pace", "0.01"],
                          cwd=str(tmp_path), env=env, timeout=60, encoding="utf-8")
    alice.expect("Does it match")  # first contact: Bob's fingerprint, confirmed at the prompt
    alice.sendline("y")
    alice.expect("red> ")
    alice.sendline("legal")
    alice.expect("move b")
    alice.expect("red> ")
    alice.send("pa\t")  # Tab completes to "pass"
    alice.sendline("")
    alice.expect("file 2 is sealed and signed: (\\S+)")
    sealed = alice.match.group(1)
    alice.expect(pexpect.EOF)
    alice.close()
    assert alice.exitstatus == 0
    bob = pexpect.spawn(pbem, ["--home", "b", "play", "g", sealed, "--pace", "0.01"],
                        cwd=str(tmp_path), env=env, timeout=60, encoding="utf-8")
    bob.expect("red passes")
    bob.expect("blue> ")
    bob.sendline("pass")
    bob.expect("file 3 is sealed and signed")
    bob.expect(pexpect.EOF)
    bob.close()
    assert bob.exitstatus == 0


def test_where_highlights_a_units_destinations_on_a_real_map(tmp_path: Path) -> None:
    """White Death: the hexes a unit's legal actions lead to, as the old game's "Where"."""
    from pbem.play import where
    from pbem.session import Home

    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None)
    ivan.keys.create("Ivan", "", None)
    game = erich.new_game("white-death", "purkayev", "german", name="luki")
    joined = ivan.join(game.files[0], "invite", name="luki")
    report = erich.receive(joined.files[1], "reply")
    assert report.sealed == 2  # the Soviet player moves first
    ivan.receive(erich.game("luki").file(2)[1], "file 2")
    soviet = ivan.game("luki")
    soviet.act("impulse 4")
    moves = [a.notation().split() for a in soviet.state.legal_actions()
             if a.notation().startswith("move ")]
    unit, origin = moves[0][1], moves[0][2]
    hexes = where(soviet.state, "soviet", unit)
    assert {m[3] for m in moves if m[1] == unit} <= set(hexes)
    assert origin not in hexes
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "ivan"), "show", "luki", "--where",
                                  unit], catch_exceptions=False, env={"COLUMNS": "100"})
    assert r.exit_code == 0 and f"{unit} may go to or act on: " in r.output
    assert f"*{hexes[0]}" in r.output  # highlighted on the board
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "ivan"), "show", "luki", "--where",
                                  "no-such-unit"], catch_exceptions=False)
    assert r.exit_code == 2 and "no legal action takes no-such-unit" in r.output


def test_where_alone_names_its_form_or_takes_the_unit_picked(tmp_path: Path) -> None:
    """A bare 'where' once answered "no legal action takes  anywhere now" (an empty unit);
    after a unit is picked by its number it shows that unit's hexes."""
    from pbem.session import Home

    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None)
    ivan.keys.create("Ivan", "", None)
    game = erich.new_game("white-death", "purkayev", "german", name="luki")
    joined = ivan.join(game.files[0], "invite", name="luki")
    erich.receive(joined.files[1], "reply")
    ivan.receive(erich.game("luki").file(2)[1], "file 2")
    ivan.game("luki").act("impulse 4")
    r = CliRunner().invoke(main, ["--home", str(tmp_path / "ivan"), "play", "luki", "--fast"],
                           input="status\nwhere\n1\nwhere\nquit\n", catch_exceptions=False,
                           env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    assert "anywhere now" not in r.output
    assert "| 1 action in this file" in r.output  # 'impulse 4', not "1 actions"
    assert "where UNIT: the board with the hexes UNIT may go to or act on lit" in r.output
    # '1' picked the first unit of the list; the bare 'where' then lit its hexes
    first = r.output.split("    1. ", 1)[1].split()[0]
    assert f"\n{first}: " in r.output
