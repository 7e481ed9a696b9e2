"""Issue 17, at the command line (CliRunner): what a new player tripped on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

#: the width a new player's terminal has (the conftest ``run`` fixture reads it)
COLUMNS = "80"


def start(run) -> None:  # type: ignore[no-untyped-def]
    """Alice (red) and Bob (blue) in a skirmish; Alice has received Bob's reply."""
    assert run("a", "id", "new", "Alice").exit_code == 0
    assert run("b", "id", "new", "Bob").exit_code == 0
    assert run("a", "new", "skirmish", "long", "--side", "red", "--name", "g",
               "-o", "inv.pbem").exit_code == 0
    assert run("b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes").exit_code == 0
    assert run("a", "receive", "acc.pbem", "--yes").exit_code == 0


def a_turn_file(run, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """Alice's file 2, under the name pbem gives it."""
    start(run)
    assert run("a", "act", "g", "pass").exit_code == 0
    r = run("a", "send", "g")
    name = r.output.split(" written to ")[1].strip()
    return tmp_path / name


# --- item 7: errors in a player's words ----------------------------------------------------


def test_a_damaged_file_is_told_in_a_players_words(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = a_turn_file(run, tmp_path)
    data = good.read_bytes()
    damaged = {"cut": data[:60], "tail": data + b"xxxxx", "junk": b"uurn not a file at all"}
    for label, payload in damaged.items():
        path = tmp_path / good.name.replace("-0002-", "-0002-" + label + "-")
        path.write_bytes(payload)
        r = run("b", "receive", str(path))
        assert r.exit_code == 3, (label, r.output)
        assert "the file is damaged or not a pbem file" in r.output
        assert "pbem send GAME --seq 2" in r.output  # the number, from the file's name
        for parser_words in ("msgpack", "trailing bytes", "file kind", "[cause:"):
            assert parser_words not in r.output, (label, r.output)
    # the exact cause is there for who asks
    r = run("b", "--verbose", "receive", str(tmp_path / good.name.replace("-0002-",
                                                                         "-0002-tail-")))
    assert "[cause: " in r.output and "trailing" in r.output


# --- item 8: exit codes that say no ---------------------------------------------------------


def test_a_tampered_file_in_the_inbox_fails(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = a_turn_file(run, tmp_path)
    folder = tmp_path / "shared"
    folder.mkdir()
    data = bytearray(good.read_bytes())
    data[-70] ^= 1  # inside the signed body: the signature no longer verifies
    (folder / good.name).write_bytes(bytes(data))
    r = run("b", "inbox", str(folder))
    assert r.exit_code == 4, r.output
    assert "changed after it was signed" in r.output and "not a pbem file" not in r.output
    status = run("b", "status", "g").output
    assert "file 1;" in status and "file 2;" not in status  # nothing imported


def test_inbox_json_keeps_the_exact_cause(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "x.pbem").write_bytes(b"\x92\x01")
    r = run("b", "inbox", str(folder), "--json")
    assert r.exit_code == 3
    [row] = json.loads(r.output)
    assert row["status"] == "refused" and row["exit_code"] == 3 and row["cause"]


def test_audit_of_a_roll_that_does_not_exist_fails(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = a_turn_file(run, tmp_path)
    files = [str(tmp_path / "inv.pbem"), str(tmp_path / "acc.pbem"), str(good)]
    ok = run(None, "audit", *files, "--roll", "2.0")
    assert ok.exit_code == 0 and "roll 2.0" in ok.output
    r = run(None, "audit", *files, "--roll", "5.7")
    assert r.exit_code == 2 and "no roll 5.7" in r.output
    # a roll beyond the files says which file makes it (docs/guide.md shows this line)
    assert "it is made in file 5, and these files end at file 2" in r.output


def test_help_lists_the_exit_codes(run) -> None:  # type: ignore[no-untyped-def]
    r = run(None, "--help")
    assert "Exit status: 0" in r.output
    for code in ("3 a file that is", "4 a signature", "9 an action the rules refuse"):
        assert code in " ".join(r.output.split()), code


# --- item 6: tables that never cut what you type --------------------------------------------


def test_engines_and_list_fit_80_columns_without_cutting_ids(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pbem.registry import engines

    r = run(None, "engines")
    assert r.exit_code == 0 and "…" not in r.output
    for engine in engines().values():
        assert f"{engine.id}: " in r.output
        for scenario in engine.scenarios():
            assert f"  {scenario.id}  " in r.output, scenario.id
    start(run)
    assert run("a", "new", "white-death", "purkayev", "--side", "german", "--name",
               "a-rather-long-game-name", "-o", "inv2.pbem").exit_code == 0
    listing = run("a", "list").output.splitlines()
    assert len(listing) == 2, listing  # one line per game
    assert all(len(line) <= 80 for line in listing), listing
    assert any(line.startswith("g  ") and "skirmish/long" in line for line in listing)
    assert any("a-rather-long-game-name  white-death/purkayev" in line for line in listing)


# --- White Death at the Soviet movement decision ---------------------------------------------


def luki(root: Path, purkayev) -> Path:  # type: ignore[no-untyped-def]
    """Purkayev's Attack, the Soviet player at his first movement decision (4 MPs)."""
    _, ivan = purkayev(root, b"luki1")
    ivan.game("luki").act("impulse 4")
    return root


# --- item 11: act is all or nothing, and suggests ---------------------------------------------


def test_act_with_several_actions_is_all_or_nothing(run, tmp_path: Path, purkayev) -> None:  # type: ignore[no-untyped-def]
    luki(tmp_path, purkayev)
    before = run("ivan", "log", "luki").output
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702", "move 1/31X 3702 3701")
    assert r.exit_code == 9, r.output
    assert "did you mean '1/31R'?" in r.output and "none applied" in r.output
    assert run("ivan", "log", "luki").output == before  # the first move is not kept
    r = run("ivan", "act", "luki", "assault 3801 with 1188/357", "end movement", "impulse 3")
    assert r.exit_code == 10 and "the file seals after 'end movement'" in r.output
    assert run("ivan", "log", "luki").output == before
    r = run("ivan", "act", "luki", "move 1/31R 3703 3702", "assault 3801 with 1188/357")
    assert r.exit_code == 0, r.output
    assert "unsealed: 3 records" in run("ivan", "log", "luki").output  # both, and impulse 4


def test_a_mistyped_action_gets_the_nearest_one(run, tmp_path: Path, purkayev) -> None:  # type: ignore[no-untyped-def]
    luki(tmp_path, purkayev)
    r = run("ivan", "act", "luki", "asault 3801 with 1188/357")
    assert r.exit_code == 9 and "did you mean 'assault'?" in r.output, r.output


# --- item 10: files in any order; a file of another game is named ----------------------------


def test_receive_takes_files_in_sequence_order(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Erich gets Ivan's reply (file 1) and Ivan's first turn (file 3) in one go, and
    names them last first: the reply is imported first (Erich's file 2 seals at once,
    the same bytes Ivan already answered), then file 3, which that made importable."""
    import hashlib
    import shutil

    from pbem.session import Home

    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    ivan.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = erich.new_game("white-death", "purkayev", "german", name="luki",
                          nonce=hashlib.sha256(b"luki1").digest())
    joined = ivan.join(game.files[0], "invite", name="luki")
    (tmp_path / "f1.pbem").write_bytes(joined.files[1])
    shutil.copytree(tmp_path / "erich", tmp_path / "erich-copy")
    copy = Home(tmp_path / "erich-copy")
    copy.receive(joined.files[1], "reply")
    ivan.receive(copy.game("luki").file(2)[1], "file 2")
    for action in ("impulse 4", "assault 3801 with 1188/357", "end movement"):
        ivan.game("luki").act(action)
    (tmp_path / "f3.pbem").write_bytes(ivan.game("luki").file(3)[1])
    shutil.copytree(tmp_path / "erich", tmp_path / "erich-late")
    r = run("erich", "receive", "f3.pbem", "f1.pbem", "--yes")
    assert r.exit_code == 0, r.output
    assert r.output.index("file 1 from") < r.output.index("file 3 from")
    assert "defensive fire" in run("erich", "status", "luki").output
    # a file that stays unimportable is still refused, non-zero
    r = run("erich-late", "receive", "f3.pbem")
    assert r.exit_code == 5 and "missing" in r.output, r.output


def test_play_says_when_a_file_is_of_another_game(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)
    assert run("a", "new", "skirmish", "long", "--side", "red", "--name", "other",
               "-o", "inv2.pbem").exit_code == 0
    assert run("b", "join", "inv2.pbem", "--name", "other", "-o", "acc2.pbem",
               "--yes").exit_code == 0
    r = run("a", "play", "g", "acc2.pbem", "--fast", "--yes", input="quit\n")
    assert r.exit_code == 0, r.output
    assert "is of game other, not g" in r.output


# --- item 9: a name pinned with another key: the conflict first --------------------------------


def test_a_new_key_under_a_pinned_name_is_refused_before_any_question(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)  # Alice has pinned Bob
    assert run("bob2", "id", "new", "Bob").exit_code == 0  # another key, the same name
    assert run("a", "new", "skirmish", "long", "--side", "red", "--name", "h",
               "-o", "inv2.pbem").exit_code == 0
    assert run("bob2", "join", "inv2.pbem", "--name", "h", "-o", "acc2.pbem",
               "--yes").exit_code == 0
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "acc2.pbem").write_bytes((tmp_path / "acc2.pbem").read_bytes())
    # every command refuses it the same way, with the exit status pbem --help gives a key
    # that is not the one pinned (4), and says how to accept a real change of keys
    for args in (("receive", "acc2.pbem"), ("receive", "acc2.pbem", "--yes"),
                 ("play", "h", "acc2.pbem", "--fast"), ("inbox", "shared"),
                 ("inbox", "shared", "--yes")):
        r = run("a", *args, input="y\n")
        assert r.exit_code == 4, (args, r.output)
        assert "pinned with another key" in r.output and "pbem id forget" in r.output
        assert "first contact" not in r.output and "Does it match" not in r.output
    assert run("bob2", "id", "export", "-o", "bob2.card").exit_code == 0
    r = run("a", "id", "import", "bob2.card", input="y\n")
    assert r.exit_code == 4 and "Does this fingerprint match" not in r.output
    # Bob really changed keys: once the old one is forgotten, the folder's file is taken
    # at the next look (it was not set aside for good)
    assert run("a", "id", "forget", "Bob").exit_code == 0
    r = run("a", "inbox", "shared", "--yes")
    assert r.exit_code == 0 and "accepted the invitation" in r.output, r.output


# --- item 13: the board opens where the game is -------------------------------------------------


def _shown_columns(output: str) -> tuple[int, int]:
    import re

    match = re.search(r"showing columns (\d+)-(\d+)", output)
    assert match, output[-500:]
    return int(match.group(1)), int(match.group(2))


def test_show_opens_on_the_front(run, tmp_path: Path, purkayev) -> None:  # type: ignore[no-untyped-def]
    import hashlib

    from pbem.session import Home

    # For the Motherland!, Operation Uranus: the front is at Stalingrad (2424), far from
    # the map's first columns (the Baltic Sea)
    a, b = Home(tmp_path / "a"), Home(tmp_path / "b")
    a.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    b.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = a.new_game("for-the-motherland", "4-uranus", "axis", name="ur",
                      nonce=hashlib.sha256(b"ur").digest())
    a.receive(b.join(game.files[0], "invite", name="ur").files[1], "reply")
    first, last = _shown_columns(run("a", "show", "ur").output)
    assert first <= 24 <= last and first > 1
    # White Death: the Soviet player's own move is where his board opens
    luki(tmp_path, purkayev)
    assert run("ivan", "act", "luki", "move 1/31R 3703 3702").exit_code == 0
    first, last = _shown_columns(run("ivan", "show", "luki").output)
    assert first <= 37 <= last and first > 1
    # an explicit --center still wins
    first, _ = _shown_columns(run("ivan", "show", "luki", "--center", "0101").output)
    assert first == 1


# --- item 15: the smaller things ------------------------------------------------------------------


def test_the_opponents_message_is_repeated_at_the_prompt(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)
    assert run("a", "say", "g", "hold the bridge").exit_code == 0
    assert run("a", "act", "g", "pass").exit_code == 0
    name = run("a", "send", "g").output.split(" written to ")[1].strip()
    r = run("b", "play", "g", name, "--fast", input="quit\n")
    assert r.exit_code == 0, r.output
    # said once where the file is told, and again just before the prompt's decision
    assert r.output.count("hold the bridge") == 2
    last = r.output.rindex("message from your opponent (file 2): hold the bridge")
    assert last > r.output.index("now") and last < r.output.index("blue> ")


def test_send_at_your_move_says_it_sends_the_old_file(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)
    assert run("a", "act", "g", "pass").exit_code == 0
    fresh = run("a", "send", "g", "-o", "f2.pbem")
    assert fresh.exit_code == 0 and "sends again" not in fresh.output
    assert run("b", "receive", "f2.pbem").exit_code == 0
    again = run("b", "send", "g", "-o", "again.pbem")  # Bob's move: his file 1 again
    assert again.exit_code == 0
    assert "it is your move in g" in again.output and "sends again your file 1" in again.output


def test_home_and_verbose_after_the_command(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)
    r = run(None, "status", "g", "--home", str(tmp_path / "a"))
    assert r.exit_code == 0 and "you play red" in r.output
    r = run(None, "list", f"--home={tmp_path / 'b'}")
    assert r.exit_code == 0 and "blue v Alice" in r.output
    (tmp_path / "bad.pbem").write_bytes(b"\x92\x01")
    r = run(None, "receive", "bad.pbem", "--home", str(tmp_path / "a"), "--verbose")
    assert r.exit_code == 3 and "[cause:" in r.output
    # an argument that merely follows '--' is left alone
    r = run("a", "say", "g", "--", "--home")
    assert r.exit_code == 0


def test_shell_completion_of_names_and_actions(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    start(run)

    def complete(words: str) -> list[str]:
        env = {"_PBEM_COMPLETE": "bash_complete", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
        r = CliRunner().invoke(main, [], env=env, prog_name="pbem")
        return [line.split(",", 1)[1] for line in r.output.splitlines()]

    home = str(tmp_path / "a")
    assert complete("pbem new white-d") == ["white-death"]
    assert "4-uranus" in complete("pbem new for-the-motherland ")
    assert "purkayev" not in complete("pbem new for-the-motherland ")
    assert complete(f"pbem --home {home} status ") == ["g"]
    assert complete(f"pbem --home {home} act g pa") == ["pass"]


def test_a_damaged_card_says_how_to_get_it_again(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run("a", "id", "new", "Alice").exit_code == 0
    (tmp_path / "alice.card").write_bytes(b"\x92\x01")
    r = run("a", "id", "import", "alice.card", "--yes")
    assert r.exit_code == 3 and "not a readable pbem card" in r.output
    assert "pbem id export" in r.output and "pbem send" not in r.output


def test_each_command_measures_the_terminal_again(run, tmp_path: Path, purkayev,  # type: ignore[no-untyped-def]
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """One process running several commands (the test runner, a program embedding pbem)
    draws each board at the width of its own command, not the first command's."""
    luki(tmp_path, purkayev)
    monkeypatch.setenv("COLUMNS", "1000")
    wide = run("ivan", "show", "luki").output
    monkeypatch.setenv("COLUMNS", "100")
    first, last = _shown_columns(run("ivan", "show", "luki").output)
    assert max(len(line) for line in wide.splitlines()) > 100
    assert last - first < 30


def test_a_card_without_email_is_named_without_empty_brackets(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """'signed by Bob', not 'signed by Bob <>' (an email is optional at 'id new')."""
    assert run("a", "id", "new", "Alice").exit_code == 0
    assert run("b", "id", "new", "Bob").exit_code == 0
    assert run("a", "new", "skirmish", "long", "--side", "red", "--name", "g",
               "-o", "inv.pbem").exit_code == 0
    r = run("b", "join", "inv.pbem", "--name", "g", "-o", "acc.pbem", "--yes")
    assert "signed by Alice\n" in r.output and "opponent: Alice," in r.output, r.output
    r = run("a", "receive", "acc.pbem", "--yes")
    assert "signed by Bob\n" in r.output and "<>" not in r.output, r.output
    assert "<>" not in run("a", "id", "contacts").output
