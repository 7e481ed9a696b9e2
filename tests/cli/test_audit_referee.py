"""``pbem audit`` for a referee who never used pbem (issue 33, "An audit a referee reads"):
every game it is given, what is missing in plain words, tables in plain words (the
protocol's under --verbose), whole lines when redirected, and a last sentence for
``--roll`` saying which player could have chosen the roll."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.selfplay import selfplay

#: a narrow terminal: a redirected audit must not wrap at it
COLUMNS = "80"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two finished games of the test engine, open and sealed dice, files side by side."""
    root = tmp_path_factory.mktemp("referee")
    for seed, dice in ((1, "open"), (2, "sealed")):
        selfplay("skirmish", "short", seed, root / f"g{seed}", dice_mode=dice)
    both = root / "both"
    both.mkdir()
    for seed in (1, 2):
        for path in sorted((root / f"g{seed}" / "files").iterdir()):
            shutil.copy(path, both / f"g{seed}-{path.name}")
    return root


def audit(*args: str, columns: str = COLUMNS) -> Result:
    return CliRunner(env={"COLUMNS": columns}).invoke(main, [*args], catch_exceptions=False)


def game_ids(folder: Path) -> list[str]:
    data = json.loads(audit("audit", str(folder), "--json").output)
    return [g["game_id"][:12] for g in data["games"]]


def test_every_game_given_is_audited(games: Path) -> None:
    both = games / "both"
    r = audit("audit", str(both))
    assert r.exit_code == 0, r.output
    ids = game_ids(both)
    assert len(ids) == 2
    for game_id in ids:
        assert f"game {game_id}: skirmish / short: CLEAN: " in r.output
    assert r.output.rstrip().splitlines()[-1] == "CLEAN: 2 games, 2 clean"
    assert "set aside" not in r.output
    one = audit("audit", str(both), "--game", ids[1])
    assert one.exit_code == 0
    assert f"game {ids[1]}: skirmish / short" in one.output and \
        f"game {ids[0]}: skirmish" not in one.output
    assert f"a file of another game ({ids[0]})" in one.output
    wrong = audit("audit", str(both), "--game", "zz")
    assert wrong.exit_code == 2 and "names no game among the files" in wrong.output


def test_a_missing_invite_is_said_in_plain_words(games: Path, tmp_path: Path) -> None:
    """The invite written elsewhere by ``-o``: the folder holds every file but file 0."""
    folder = tmp_path / "no-invite"
    shutil.copytree(games / "g1" / "files", folder)
    next(folder.glob("00000-*.pbem")).unlink()
    r = audit("audit", str(folder))
    assert r.exit_code == 5
    assert "file 0, the invite, is missing" in r.output
    assert "NOT CLEAN" in r.output
    assert "game   / " not in r.output and "(rolls: )" not in r.output
    roll = audit("audit", str(folder), "--roll", "6.1")
    assert roll.exit_code == 2
    assert "file 0, the invite, is missing" in roll.output and "(rolls: )" not in roll.output


def test_the_tables_speak_to_a_referee_and_verbose_to_a_programmer(games: Path) -> None:
    folder = games / "g1" / "files"
    plain = audit("audit", str(folder)).output
    for words in ("invitation (starts the game)", "acceptance", "follows the file before",
                  "moves checked", "signed by (key fingerprint)", "what for",
                  "after the move"):
        assert words in plain, words
    for protocol in ("chain", "anchor", "reveal", "replay"):
        assert protocol not in plain.lower(), protocol
    assert "so nobody chose the rolls" in plain  # what the columns mean, said once
    verbose = audit("--verbose", "audit", str(folder)).output
    assert "so nobody chose the rolls" not in verbose
    for words in ("seq", "kind", "chain", "anchor", "replay", "after action"):
        assert words in verbose, words


def test_redirected_the_lines_are_whole(games: Path) -> None:
    """CliRunner's output is no terminal: however narrow COLUMNS says the terminal is, a
    row is one line, never wrapped at 80 columns."""
    folder = games / "g1" / "files"
    r = audit("audit", str(folder), "--all", columns="80")
    rows = [line for line in r.output.splitlines() if line.startswith("│")]
    widest = max(len(line) for line in rows)
    assert widest > 80
    files = [line for line in rows if line.split("│")[2].strip() in
             ("invitation (starts the game)", "acceptance", "turn")]
    assert len(files) == len(list(folder.iterdir()))
    assert all("yes" in line or "first file" in line for line in files)


@pytest.mark.parametrize(("seed", "sentence"), [
    (1, "could foresee it before sending file"),
    (2, "asked for it before anyone knew the")])
def test_roll_ends_with_who_could_have_chosen_it(games: Path, seed: int,
                                                 sentence: str) -> None:
    folder = games / f"g{seed}" / "files"
    data = json.loads(audit("audit", str(folder), "--json").output)
    first = data["games"][0]["rolls"][0]["roll"]
    r = audit("audit", str(folder), "--roll", first)
    assert r.exit_code == 0, r.output
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("Neither player could have chosen this roll: ")
    assert sentence in last and last.endswith(".")
    both = audit("audit", str(games / "both"), "--roll", "3.0")
    assert both.exit_code == 2 and "choose one with --game ID" in both.output


def test_a_replay_page_of_two_games_asks_which(games: Path, tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    r = audit("audit", str(games / "both"), "--html", str(page))
    assert r.exit_code == 2 and "choose the one to replay with --game ID" in r.output
    assert not page.exists()
    game_id = game_ids(games / "both")[0]
    r = audit("audit", str(games / "both"), "--game", game_id, "--html", str(page))
    assert r.exit_code == 0, r.output
    assert page.exists() and "replay page written" in r.output


def test_a_missing_middle_file_is_said_to_the_referee(games: Path, tmp_path: Path) -> None:
    """A gap in the files told the referee to "ask the opponent to send it again", the
    receiver's words: a referee has no opponent; the note says what the gap costs and
    how either player makes a copy."""
    folder = tmp_path / "gap"
    shutil.copytree(games / "g1" / "files", folder)
    [third] = folder.glob("00003-*.pbem")
    third.unlink()
    r = audit("audit", str(folder))
    assert r.exit_code == 5, r.output
    words = " ".join(r.output.split())
    assert "file 3 is missing: the files after it cannot be checked without it" in words
    assert "pbem send GAME --seq 3 -o FILE" in words and "opponent" not in words, words


def test_the_rolls_table_counts_in_words_that_agree() -> None:
    """'1 rolls' headed the guide's own audit: a count agrees with its noun."""
    from pbem.commands.archive import rolls_title

    assert rolls_title(1, 1) == "1 roll"
    assert rolls_title(74, 74) == "74 rolls"
    assert rolls_title(74, 20) == "74 rolls, the last 20"
