"""Issue 32 item 7: nothing hidden leaves by another road.  Every engine with hidden
information plays a turn through real files; every text that goes to the opponent with a
file (the mail's subject and body, a reminder, the watcher's notification) is checked for what the
reader's own replay hides: White Death's unit identities (Rule 4.C) and the Soviet
supply, Mortain's support-fire chits (drawn face down), 48th Panzer Korps' plan (9.1,
sealed by a commitment)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from pbem.envelope import open_envelope
from pbem.render.narrate import frames_from_records
from pbem.selfplay import selfplay
from pbem.session import Home
from pbem.transcript import Verifier
from pbem.transport.route import Route, set_route
from pbem.transport.telling import describe, reminder
from pbem.transport.watcher import Watcher

#: a unit as the counters name it: letters and digits together (2/31R, ski/31R, 182G/46G)
UNIT = re.compile(r"\b(?=[\w/.-]*\d)(?=[\w/.-]*[A-Za-z])[\w/.-]*/[\w/.-]+|\b\d+[A-Z]+\w*\b")


def mail_texts(home: Home, name: str) -> list[tuple[str, list[str], list[str], list[str]]]:
    """For each turn file ``home`` sealed: the mail's text, the events the reader may
    not see, those it may, and the file's raw actions."""
    game = home.game(name)
    reader = game.opponent_side
    verifier = Verifier(game.engine, open_envelope(game.files[0]))
    out = []
    for seq in range(1, len(game.files)):
        env = open_envelope(game.files[seq])
        before = verifier.state.clone()
        verifier.add(env, game.files)
        if env.kind != "turn" or env.key != home.card().key:
            continue
        records = env.decode()["records"]
        events = [e for _, told in frames_from_records(before, records, None, seq=seq)
                  for e in told]
        subject, body = describe(game, seq, game.files[seq])
        # the reminder that carries the file again (pbem nudge, issue 32 item 5) too
        nudged = "\n".join(reminder(game, seq, game.files[seq], 1_800_000_000))
        out.append((f"{subject}\n{body}\n{nudged}",
                    [e.text for e in events if not e.visible(reader)],
                    [e.text for e in events if e.visible(reader)],
                    [r[1] for r in records if r[0] in ("a", "o")]))
    return out


@pytest.mark.parametrize(("engine", "scenario"), [
    ("white-death", "purkayev"), ("mortain", "counterattack"),
    ("48th-panzer-korps", "first-day")])
def test_the_mail_tells_only_what_the_readers_replay_shows(tmp_path: Path, engine: str,
                                                         scenario: str) -> None:
    report = selfplay(engine, scenario, 2, tmp_path, max_turns=1)
    assert report.desyncs == 0
    hidden_seen = 0
    for x in "ab":
        home = Home(tmp_path / f"home-{x}")
        game = home.game("selfplay-2")
        for text, hidden, visible, actions in mail_texts(home, "selfplay-2"):
            hidden_seen += len(hidden)
            shown = " ".join(visible)
            for line in hidden:
                assert line not in text, (line, text)
                for unit in UNIT.findall(line):
                    if unit not in shown:
                        assert unit not in text, (unit, line, text)
            for action in actions:  # the sealed notation is no narration
                if action not in shown and len(action.split()) > 1:
                    assert action not in text, (action, text)
            if engine == "white-death" and game.side == "soviet":
                assert "Soviet" not in text.split("Position:")[-1].split("\n")[0] \
                    or "Position:" not in text, text  # Soviet supply points are his own
            for note in game.private_notes():  # 48th Panzer Korps: the secret plan
                for part in note.split(": ", 1)[1].split(", "):
                    formation, _, turn, _, area = part.split()
                    assert f"{formation} turn {turn} area {area}" not in text
                    assert f"plan {formation}" not in text and f"area {area}" not in text
    if engine != "48th-panzer-korps":  # the plan hides no event: it is a commitment
        assert hidden_seen > 0, "the turn played showed nothing hidden: no test"


def test_the_notification_tells_the_readers_side(tmp_path: Path) -> None:
    """Erich's watch imports Ivan's impulse (1/31R moves 3703 to 3702, Rule 4.C): the
    notification and the terminal lines never name the unit."""
    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    ivan.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = erich.new_game("white-death", "purkayev", "german", name="luki",
                          nonce=hashlib.sha256(b"luki1").digest())
    joined = ivan.join(game.files[0], "invite", name="luki")
    erich.receive(joined.files[1], "reply")
    ivan.receive(erich.game("luki").file(2)[1], "file 2")
    folder = tmp_path / "shared"
    folder.mkdir()
    for home in (erich, ivan):
        set_route(home.path, home.game("luki").game_id, Route("folder", str(folder)))
    soviet = ivan.game("luki")
    for action in ("impulse 4", "move 1/31R 3703 3702", "assault 3801 with 1188/357",
                   "end movement"):
        soviet.act(action)
    assert len(list(folder.glob("*-0003-soviet.pbem"))) == 1  # the seal sent it
    said: list[str] = []
    told: list[tuple[str, str]] = []
    shown: list[str] = []
    watcher = Watcher(erich, say=said.append,
                      show=lambda outcomes: shown.extend(o.note for o in outcomes),
                      notify=lambda title, body: told.append((title, body)))
    watcher.look()
    assert erich.game("luki").verifier.seq == 3
    assert told, "no notification"
    everything = " ".join([*said, *shown, *(t + " " + b for t, b in told)])
    assert "1/31R" not in everything and "1188/357" not in everything, everything
