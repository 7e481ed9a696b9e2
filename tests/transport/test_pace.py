"""Issue 32 item 5, the pace: an agreed pace signed in the invite (``pbem new --pace
48h``), ``status`` and ``list`` saying who is overdue and by how long, ``pbem nudge``
carrying the last file again (the opponent's pbem takes it as a duplicate and says so),
and ``pbem watch`` reminding by itself where the invite agreed to it, at most once per
pace period.  The clock is the home's (``PBEM_CLOCK``): it decides only what is shown
and when a reminder goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from transport_helpers import Pair, play_until_sealed

from pbem.cli import main
from pbem.envelope import file_name, open_envelope
from pbem.session import Home
from pbem.transport.base import Outcome
from pbem.transport.watcher import Watcher

T0 = 1_800_000_000
HOUR = 3600


def cli(home: Home, *args: str, code: int = 0) -> str:
    res = CliRunner().invoke(main, ["--home", str(home.path), *args],
                             catch_exceptions=False)
    assert res.exit_code == code, res.output
    return res.output


def watcher(home: Home) -> tuple[Watcher, list[str], list[Outcome]]:
    said: list[str] = []
    seen: list[Outcome] = []
    # confirm: the fingerprints were compared (a first contact is asked about otherwise)
    return Watcher(home, say=said.append, show=seen.extend, interval=0.05,
                   mail_interval=0.0, confirm=lambda info, card: True), said, seen


def at(monkeypatch: pytest.MonkeyPatch, t: int) -> None:
    monkeypatch.setenv("PBEM_CLOCK", str(t))


def started(pair: Pair, folder: Path, monkeypatch: pytest.MonkeyPatch,
            *pace: str) -> tuple[Home, Home]:
    """A game through ``folder`` at T0: one file played; ``(the side that waits, the
    side to act)``."""
    at(monkeypatch, T0)
    cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
        "--folder", str(folder), *pace)
    invite = folder / file_name(pair.alice.game("duel").game_id, 0, "red")
    cli(pair.bob, "join", str(invite), "--name", "duel", "--folder", str(folder), "--yes")
    watcher(pair.alice)[0].look()
    mover = pair.mover("duel")
    assert mover is not None
    play_until_sealed(mover.game("duel"), pair.chooser)
    late = pair.other(mover)
    watcher(late)[0].look()
    assert late.game("duel").my_decision() is not None
    return mover, late


def test_the_pace_is_signed_in_the_invite_and_the_joiner_sees_it(pair: Pair,
                                                                 tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    out = cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              "--folder", str(folder), "--pace", "48h", "--remind")
    assert "agreed pace, signed in the invite: a file within 2 days ('pbem watch' " \
        "reminds a late side by itself" in out, out
    game = pair.alice.game("duel")
    body = open_envelope(game.files[0]).decode()
    assert body["pace"] == 48 * HOUR and body["reminders"] == "watch"
    out = cli(pair.bob, "join", str(folder / file_name(game.game_id, 0, "red")), "--name",
              "duel", "--folder", str(folder), "--yes")
    assert "the invite sets a pace: a file within 2 days ('pbem watch' reminds a late " \
        "side by itself, once per pace period); joining accepts it" in out, out
    assert pair.bob.game("duel").verifier.setup.pace == 48 * HOUR


@pytest.mark.parametrize(("args", "says"), [
    (("--pace", "48"), "give 1 hour to 366 days"),
    (("--pace", "2 fortnights"), "give a number and a unit"),
    (("--pace", "400d"), "give 1 hour to 366 days"),
    (("--remind",), "--remind: give the pace to remind by with --pace"),
])
def test_a_bad_pace_is_refused_and_nothing_is_written(pair: Pair, tmp_path: Path,
                                                      args: tuple[str, ...],
                                                      says: str) -> None:
    out = cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              *args, code=2)
    assert says in out, out
    assert pair.alice.save_paths() == [] and list(tmp_path.glob("*.pbem")) == []


def test_status_and_list_say_who_is_overdue_and_by_how_long(
        pair: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, late = started(pair, folder, monkeypatch, "--pace", "48h")
    late_name = late.card().name
    at(monkeypatch, T0 + 48 * HOUR)  # on the hour: not late yet
    assert json.loads(cli(waits, "status", "duel", "--json"))["overdue"] is None
    assert "overdue" not in cli(waits, "list") + cli(late, "list")
    at(monkeypatch, T0 + 50 * HOUR + 5 * 60)
    out = cli(waits, "status", "duel")
    assert "agreed pace: a file within 2 days" in out, out
    assert f"OVERDUE: {late_name} is overdue by 2 hours 5 minutes" in out, out
    assert "'pbem nudge duel' reminds them" in out, out
    assert "opponent overdue 2 hours 5 minutes" in cli(waits, "list")
    out = cli(late, "status", "duel")
    assert "OVERDUE: you are overdue by 2 hours 5 minutes" in out and "nudge" not in out, out
    assert "YOU overdue 2 hours 5 minutes" in cli(late, "list")
    data = json.loads(cli(late, "status", "duel", "--json"))
    assert data["pace"] == 48 * HOUR and data["overdue"]["yours"] is True
    assert data["overdue"]["by"] == 2 * HOUR + 5 * 60 and data["overdue"]["since"] == T0
    # the late side answers: nobody is overdue any more
    play_until_sealed(late.game("duel"), pair.chooser)
    assert json.loads(cli(late, "status", "duel", "--json"))["overdue"] is None


def test_a_game_without_a_pace_is_never_overdue(pair: Pair, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, late = started(pair, folder, monkeypatch)
    at(monkeypatch, T0 + 400 * 86400)
    for home in (waits, late):
        out = cli(home, "status", "duel") + cli(home, "list")
        assert "overdue" not in out.lower() and "agreed pace" not in out, out


def test_nudge_carries_the_last_file_again_and_the_opponent_says_it_is_a_duplicate(
        pair: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, late = started(pair, folder, monkeypatch, "--pace", "24h")
    game = waits.game("duel")
    seq = game.times["last_sealed"]
    at(monkeypatch, T0 + 30 * HOUR)
    out = cli(waits, "nudge", "duel")
    copy = folder / (file_name(game.game_id, seq, game.side)[:-5] + "-reminder-1.pbem")
    assert f"reminder for duel: file {seq} written again to {copy}" in out, out
    assert "is overdue by 6 hours" in out, out
    assert copy.read_bytes() == game.files[seq]
    before = late.game("duel").files[:]
    out = cli(late, "inbox", str(folder))
    assert f"file {seq} of game {game.game_id.hex()[:12]} again, already imported: your " \
        "opponent sent it again as a reminder (the next file is yours)" in out, out
    assert late.game("duel").files[:] == before  # nothing changed
    # the late side may not nudge: the next file is its own
    out = cli(late, "nudge", "duel", code=2)
    assert "the next file is yours" in out and "nobody to remind" in out, out


def test_nudge_needs_a_route(pair: Pair, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, _ = started(pair, folder, monkeypatch)
    cli(waits, "route", "duel", "--none")
    out = cli(waits, "nudge", "duel", code=2)
    assert "duel has no route to send a reminder by" in out, out


def test_watch_reminds_by_itself_once_per_pace_period_when_the_invite_agreed(
        pair: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    # open dice: a sealed roll's rolls-only reply would be one more reminder stem
    waits, late = started(pair, folder, monkeypatch, "--pace", "48h", "--remind",
                          "--dice", "open")
    game = waits.game("duel")
    stem = file_name(game.game_id, game.times["last_sealed"], game.side)[:-5]
    watch, said, _ = watcher(waits)
    late_watch, _, late_seen = watcher(late)

    def reminders() -> list[Path]:
        return sorted(folder.glob(f"{stem}-reminder-*.pbem"))

    at(monkeypatch, T0 + 47 * HOUR)
    watch.look()
    assert reminders() == [] and not any("reminder" in s for s in said)
    at(monkeypatch, T0 + 49 * HOUR)
    watch.look()
    watch.look()  # a second look in the same period sends nothing more
    assert [p.name for p in reminders()] == [f"{stem}-reminder-1.pbem"]
    assert any("is overdue by 1 hour" in s and "reminder for duel" in s for s in said), said
    late_watch.look()
    assert [o.reminder for o in late_seen] == [True], late_seen
    at(monkeypatch, T0 + 49 * HOUR + 47 * HOUR)  # within the pace period of the last one
    watch.look()
    assert len(reminders()) == 1
    at(monkeypatch, T0 + 49 * HOUR + 48 * HOUR)
    watch.look()
    assert len(reminders()) == 2
    # the late side answers: no more reminders, however late the clock
    play_until_sealed(late.game("duel"), pair.chooser)
    watch.look()
    at(monkeypatch, T0 + 20 * 48 * HOUR)
    count = len(list(folder.glob("*-reminder-*.pbem")))
    watch.look()
    assert len(list(folder.glob("*-reminder-*.pbem"))) == count


def test_watch_does_not_remind_unless_the_invite_agreed(
        pair: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, _ = started(pair, folder, monkeypatch, "--pace", "48h")
    watch, said, _ = watcher(waits)
    at(monkeypatch, T0 + 30 * 86400)
    watch.look()
    assert list(folder.glob("*-reminder-*.pbem")) == [], said


def test_nobody_is_overdue_with_an_answer_to_a_file_not_sent(
        pair: Pair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    waits, late = started(pair, folder, monkeypatch, "--pace", "48h", "--remind")
    late.hold = True  # sealed with --hold: it stays here
    seq, _ = play_until_sealed(late.game("duel"), pair.chooser)
    at(monkeypatch, T0 + 30 * 86400)
    data = json.loads(cli(late, "status", "duel", "--json"))
    assert data["overdue"] is None and "not sent" in data["sent"], data
    assert "opponent overdue" not in cli(late, "list")
    watch, _, _ = watcher(late)
    watch.look()  # a held file is neither sent nor carried by a reminder
    assert list(folder.glob("*-reminder-*.pbem")) == []
    assert not (folder / file_name(late.game("duel").game_id, seq,
                                   late.game("duel").side)).exists()


def test_the_invitation_mail_states_the_pace(pair: Pair) -> None:
    from pbem.transport.telling import describe

    game = pair.alice.new_game("skirmish", "short", "red", name="duel", pace=48 * HOUR,
                               reminders="watch")
    _, summary = describe(game, 0, game.files[0])
    assert "The invite sets a pace: a file within 2 days ('pbem watch' reminds a late " \
        "side by itself, once per pace period);\njoining accepts it." in summary, summary
    plain = pair.alice.new_game("skirmish", "short", "red", name="plain")
    assert "pace" not in describe(plain, 0, plain.files[0])[1]


def test_sent_at_is_the_homes_clock_like_last_out(pair: Pair, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # every time the home shows comes from its clock: under a fixed clock the file's "sent
    # (time)" and the game's "last out" are the same minute
    folder = tmp_path / "shared"
    folder.mkdir()
    mover, _ = started(pair, folder, monkeypatch)
    out = cli(mover, "status", "duel")
    assert "sent: written to" in out and "(2027-01-15 08:00 UTC)" in out, out
    assert "last out 2027-01-15 08:00" in out, out
    assert json.loads(cli(mover, "status", "duel", "--json"))["last_out"] == T0
