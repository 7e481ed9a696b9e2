"""``pbem board`` with no game: the lobby of every game (issue 32 item 6, the board as home).

In real headless Chromium at a phone's 390x844 and a desktop's 1440x900: the lobby lists
two games with whose move each is, updates when a file is imported behind its back, opens
a game's board (and back), starts a new game, and joins from an uploaded invite after the
player compared the creator's fingerprint.  Without a browser: the board's guards on
every lobby route, and every refused join or start changing nothing.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cdp import Browser
from test_web_board import Running, request

from pbem.envelope import file_name
from pbem.session import Home
from pbem.web.lobby import MAX_JOIN_BODY, Lobby
from pbem.web.server import MAX_BODY

pytest.importorskip("engines.white_death")

SHOTS = os.environ.get("PBEM_SCREENSHOTS")  # a folder: keep the guide's screenshots there

#: a name on a card is text from a file: it must reach the page as text, never as markup
CY = "Cy <img src=x onerror=alert(1)>"
NAMES = {"a": "Anna Petrova", "b": "Boris Lind", "c": CY}


def homes(root: Path, *labels: str) -> dict[str, Home]:
    out = {}
    for label in labels:
        home = Home(root / f"home-{label}", clock=lambda: 1_800_000_000)
        home.keys.create(NAMES[label], f"{label}@example.invalid", None)
        out[label] = home
    return out


def started(a: Home, b: Home, name: str) -> int | None:
    """A game ``a`` created (the German side) and ``b`` joined; ``a`` imported the
    accept, and sealed file 2 when the rules hand it the first decision."""
    game = a.new_game("white-death", "purkayev", "german", name=name)
    joined = b.join(game.file(0)[1], "invite", name=name)
    return a.receive(joined.file(1)[1], "accept").sealed


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[Home, Home, int]:
    """B's home with two games against A: in g1 it is B's move (file 2 imported), in g2
    B waits for A's file 2 (sealed by A, returned as the third value, not yet sent)."""
    h = homes(tmp_path, "a", "b")
    a, b = h["a"], h["b"]
    first = started(a, b, "g1")
    second = started(a, b, "g2")
    assert first == second == 2
    b.receive(a.game("g1").file(2)[1], "file 2")
    return a, b, second


def body(value: object) -> bytes:
    return json.dumps(value).encode()


def snapshot(home: Home) -> dict[str, bytes]:
    """Every file of the home, to prove a refused request changed none."""
    return {str(p.relative_to(home.path)): p.read_bytes()
            for p in sorted(home.path.rglob("*")) if p.is_file()}


def test_every_lobby_route_is_guarded_like_the_board(two_games: tuple[Home, Home, int]
                                                     ) -> None:
    _, b, _ = two_games
    running = Running(Lobby(b))
    try:
        port, ok = running.port, running.cookie
        json_ok = {**ok, "Content-Type": "application/json"}
        before = snapshot(b)
        paths = [("GET", "/"), ("GET", "/api/lobby"), ("GET", "/api/stamp"),
                 ("GET", "/api/engines"), ("GET", "/game/g1/"), ("GET", "/game/g1/api/state"),
                 ("GET", "/game/g1/file?seq=1"), ("POST", "/api/new"), ("POST", "/api/join"),
                 ("POST", "/game/g1/api/act")]
        for method, path in paths:
            data = body({"text": "impulse 4"}) if method == "POST" else None
            # no cookie, the wrong secret, another site's page, a rebound host name
            for bad in ({}, {"Cookie": f"{running.server.board.cookie_name}=x"},
                        {**json_ok, "Origin": "http://evil.example"},
                        {**json_ok, "Sec-Fetch-Site": "cross-site"},
                        {**json_ok, "Host": f"evil.example:{port}"}):
                status, headers, _ = request(port, method, path, bad, data)
                assert status == 403, (path, bad)
                assert not any(k.lower().startswith("access-control") for k in headers)
        assert snapshot(b) == before
        # with the cookie: the lobby, a game's board under it, and its JSON calls
        status, _, page = request(port, "GET", "/", ok)
        assert status == 200 and b"pbem-data" in page and b"default-src 'none'" in page
        status, _, listed = request(port, "GET", "/api/lobby", ok)
        games = {g["name"]: g for g in json.loads(listed)["games"]}
        assert games["g1"]["your_move"] and not games["g2"]["your_move"]
        assert games["g2"]["whose"].startswith("waiting for file 2")
        status, _, state = request(port, "GET", "/game/g1/api/state", ok)
        assert status == 200 and json.loads(state)["my_turn"] is True
        # a game that is not in the home, a path that is not a call, the opponent's file
        for path in ("/game/nope/", "/game/../games/g1.pbsave", "/game/g1", "/games/g1.pbsave",
                     "/game/g1/board.js"):
            assert request(port, "GET", path, ok)[0] == 404, path
        assert request(port, "GET", "/game/g1/file?seq=2", ok)[0] == 404  # A's file 2
        status, headers, mine = request(port, "GET", "/game/g1/file?seq=1", ok)
        assert status == 200 and mine == b.game("g1").file(1)[1]
        assert headers["Content-Disposition"].startswith("attachment;")
        # bodies over their cap are refused unread: a form's at 64 KiB, an upload's at
        # what 'pbem join' reads from a disk
        assert declared(port, "/api/new", json_ok, MAX_BODY + 1) == 413
        assert declared(port, "/api/join", json_ok, MAX_JOIN_BODY + 1) == 413
        # an upload over a form's cap is read, and refused for what it is
        junk = body({"file_name": "big.pbem",
                     "data": base64.b64encode(b"x" * 2 * MAX_BODY).decode()})
        status, _, out = request(port, "POST", "/api/join", json_ok, junk)
        assert status == 200 and "the uploaded big.pbem" in json.loads(out)["error"]
        assert snapshot(b) == before
    finally:
        running.stop()


def declared(port: int, path: str, headers: dict[str, str], length: int) -> int:
    """The status of a POST that declares ``length`` bytes and sends none of them."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", path, skip_host=True, skip_accept_encoding=True)
        for key, value in {"Host": f"127.0.0.1:{port}", **headers,
                           "Content-Length": str(length)}.items():
            conn.putheader(key, value)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_the_lobby_shows_what_the_status_says_of_a_late_game(
        two_games: tuple[Home, Home, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Who is overdue is the status's to say (the agreed pace, issue 32 item 5): whatever
    ``Home.statuses`` gives under ``overdue`` is shown in its words, and nothing when it
    gives nothing."""
    _, b, _ = two_games
    lobby = Lobby(b)
    assert [g["overdue"] for g in lobby.games()] == [None, None]
    real = Home.statuses

    def late(home: Home, ref: str | None = None) -> list[dict[str, object]]:
        return [{**s, "overdue": {"words": "Anna Petrova is overdue by 2 days", "yours": False}
                 if s["name"] == "g2" else None} for s in real(home, ref)]

    monkeypatch.setattr(Home, "statuses", late)
    assert {g["name"]: g["overdue"] for g in lobby.games()} == {
        "g1": None, "g2": "Anna Petrova is overdue by 2 days"}


def join(port: int, ok: dict[str, str], value: dict[str, object]) -> dict[str, object]:
    status, _, answer = request(port, "POST", "/api/join",
                                {**ok, "Content-Type": "application/json"}, body(value))
    assert status in (200, 400), status
    return json.loads(answer)  # type: ignore[no-any-return]


def test_a_refused_invite_changes_nothing_and_says_why(tmp_path: Path) -> None:
    h = homes(tmp_path, "a", "b", "c")
    a, b, c = h["a"], h["b"], h["c"]
    started(a, b, "g1")
    own = b.new_game("white-death", "purkayev", "german", name="mine").file(0)[1]
    theirs = c.new_game("white-death", "purkayev", "soviet", name="c1").file(0)[1]
    running = Running(Lobby(b))
    try:
        port, ok = running.port, running.cookie
        before = snapshot(b)
        turn = a.game("g1").file(2)[1]
        refusals = [
            ({"file_name": "turn.pbem", "data": base64.b64encode(turn).decode()},
             "the uploaded turn.pbem: this is a turn file, not an invite"),
            ({"file_name": "junk.pbem", "data": base64.b64encode(b"hello").decode()},
             "the uploaded junk.pbem"),
            ({"file_name": "mine.pbem", "data": base64.b64encode(own).decode()},
             "this is your own invite"),
            ({"file_name": "g1.pbem", "data": base64.b64encode(a.game("g1").file(0)[1])
              .decode()}, "you have already joined this game"),
            ({"file_name": "x.pbem", "data": "not base64!"}, "not base64"),
            ({"file_name": "x.pbem", "data": ""}, "choose the invite file"),
            ({"file_name": "c.pbem", "data": base64.b64encode(theirs).decode(),
              "confirmed": True, "route": "folder", "where": str(tmp_path / "nowhere")},
             "the shared folder does not exist"),
        ]
        for value, why in refusals:
            answer = join(port, ok, value)
            assert answer["ok"] is False and why in str(answer["error"]), (why, answer)
        # a name over its cap, and a field of the wrong type: 400, said
        answer = join(port, ok, {"file_name": "x" * 201, "data": "AAAA"})
        assert answer["ok"] is False and "at most 200" in str(answer["error"])
        # a first contact: the fingerprint is shown and nothing is written yet
        answer = join(port, ok, {"file_name": "c.pbem",
                                 "data": base64.b64encode(theirs).decode()})
        confirm = answer["confirm"]
        assert isinstance(confirm, dict)
        assert confirm["fingerprint"] == c.card().fingerprint and confirm["side"] == "german"
        assert snapshot(b) == before, "a refused or unconfirmed join wrote something"
        # a new game with an unknown scenario, or a folder that is not there: nothing made
        for value, why in (({"engine": "white-death", "scenario": "nope", "side": "german"},
                            "nope"),
                           ({"engine": "white-death", "scenario": "purkayev", "side": "german",
                             "route": "folder", "where": str(tmp_path / "nowhere")},
                            "does not exist"),
                           ({"engine": "white-death", "scenario": "purkayev", "side": "x"},
                            "x")):
            status, _, out = request(port, "POST", "/api/new",
                                     {**ok, "Content-Type": "application/json"}, body(value))
            answer = json.loads(out)
            assert answer["ok"] is False and why in answer["error"], answer
        assert snapshot(b) == before
        # confirmed: joined, the reply ready to download (no route)
        answer = join(port, ok, {"file_name": "c.pbem", "confirmed": True,
                                 "data": base64.b64encode(theirs).decode(), "route": "none",
                                 "name": "c1"})
        assert answer["ok"] is True and answer["file"] == "/game/c1/file?seq=1", answer
        assert b.game("c1").side == "german"
    finally:
        running.stop()


def test_board_with_no_game_serves_the_lobby(two_games: tuple[Home, Home, int]) -> None:
    _, b, _ = two_games
    env = {**os.environ, "PBEM_HOME": str(b.path)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "board", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("the lobby of your games is at http://127.0.0.1:"), line
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?code=([\w-]+)", line)
        assert found, line
        port, code = int(found.group(1)), found.group(2)
        assert request(port, "GET", "/api/lobby")[0] == 403
        status, headers, _ = request(port, "GET", f"/?code={code}")
        assert status == 303
        jar = {"Cookie": headers["Set-Cookie"].split(";", 1)[0]}
        games = listed(port, jar)["games"]
        assert [g["name"] for g in games] == ["g1", "g2"]  # type: ignore[index, union-attr]
        assert listed(port, jar)["watching"] is True
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    # --folder is one game's: refused with the way to give every game its route
    done = subprocess.run([sys.executable, "-m", "pbem.cli", "board", "--no-open",
                           "--folder", str(b.path)], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 2 and "pbem route GAME --folder DIR" in done.stderr


def upload(b: Browser, selector: str, path: Path) -> None:
    """Choose ``path`` in a file input, as the file chooser would."""
    root = b.call("DOM.getDocument")["root"]["nodeId"]
    node = b.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
    b.call("DOM.setFileInputFiles", nodeId=node, files=[str(path)])


def choose(b: Browser, selector: str, value: str) -> None:
    b.js(f"(function(){{var s=document.querySelector({json.dumps(selector)});"
         f"s.value={json.dumps(value)}; s.dispatchEvent(new Event('change'));}})()")


def press(b: Browser, touch: bool, selector: str) -> None:
    x, y = b.center_of(selector)
    if touch:
        b.tap(x, y)
    else:
        b.click_at(x, y)


def card(b: Browser, game: str, part: str) -> str:
    return str(b.js(f"(document.querySelector('.game[data-game={json.dumps(game)}] "
                    f".{part}') || {{}}).textContent"))


@pytest.mark.parametrize(("size", "width", "height", "touch"),
                         [("phone", 390, 844, True), ("desktop", 1440, 900, False)])
def test_the_lobby_in_chromium(size: str, width: int, height: int, touch: bool,
                               two_games: tuple[Home, Home, int], tmp_path: Path) -> None:
    a, b, second = two_games
    c = homes(tmp_path, "c")["c"]
    lobby = Lobby(b)
    running = Running(lobby)
    browser = Browser(width, height)
    try:
        browser.emulate(width, height, touch)
        browser.open(running.url)
        browser.wait("document.body && document.body.dataset.games === '2'")
        browser.wait("document.body && document.body.dataset.engines !== undefined")
        # the two games, whose move each is; the game to play first
        assert browser.js("Array.from(document.querySelectorAll('.game')).map("
                          "g => g.dataset.game)") == ["g1", "g2"]
        assert card(browser, "g1", "whose").startswith("your move: the Soviet player must")
        assert card(browser, "g2", "whose") == ("waiting for file 2 from the opponent (the "
                                                "german player's file)")
        assert "sealed but not sent" in card(browser, "g2", "sent")
        assert browser.js("document.querySelector('.game[data-game=\"g2\"] a.download')"
                          ".getAttribute('href')") == "/game/g2/file?seq=1"
        assert "against Anna Petrova" in card(browser, "g1", "what")
        # every button and link a thumb can hit, and nothing wider than the screen
        if touch:
            small = browser.js("Array.from(document.querySelectorAll('button, a.button, select'))"
                               ".filter(n => n.getBoundingClientRect().height < 44).length")
            assert small == 0
        assert browser.js("document.documentElement.scrollWidth") <= width
        if SHOTS:
            browser.js("window.scrollTo(0, 0)")
            browser.screenshot(Path(SHOTS) / f"lobby-{size}.png")
        # a file imported behind the page's back ('pbem watch', a terminal): shown at once
        shown = browser.js("document.body.dataset.version")
        b.receive(a.game("g2").file(second)[1], "file 2")
        browser.wait(f"document.body.dataset.version !== {json.dumps(shown)}", timeout=10)
        browser.wait("(document.querySelector('.game[data-game=\"g2\"] .whose') || {})"
                     ".textContent.indexOf('your move') === 0", timeout=10)
        # open a game: its board, under the same cookie, and back
        press(browser, touch, '.game[data-game="g1"] a.open')
        browser.wait("document.body && document.body.dataset.files === '3'")
        assert browser.js("location.pathname") == "/game/g1/"
        assert browser.js("document.body.dataset.myTurn") == "1"
        press(browser, touch, "#to-lobby")
        browser.wait("document.body && document.body.dataset.games === '2'")
        # start a new game: by a shared folder, against a contact
        folder = tmp_path / f"shared-{size}"
        folder.mkdir()
        browser.wait("document.querySelectorAll('#new-opponent option').length === 2")
        choose(browser, "#new-engine", "white-death")
        choose(browser, "#new-scenario", "purkayev")
        choose(browser, "#new-side", "german")
        choose(browser, "#new-opponent", a.card().fingerprint)
        choose(browser, "#new-route", "folder")
        browser.js(f"document.getElementById('new-where').value = {json.dumps(str(folder))}")
        browser.js("document.getElementById('new-name').value = 'fresh'")
        press(browser, touch, "#new-start")
        browser.wait("document.body && document.body.dataset.games === '3'")
        told = browser.js("document.getElementById('notice').textContent")
        assert "invite sent: file 0 of fresh written to" in told
        assert [p.name for p in folder.glob("*.pbem")] == [
            file_name(b.game("fresh").game_id, 0, "german")]
        assert card(browser, "fresh", "whose").startswith("waiting for")
        # a file that is not an invite: refused, the page says why, nothing is written
        turn = tmp_path / "turn.pbem"
        turn.write_bytes(a.game("g1").file(2)[1])
        before = snapshot(b)
        upload(browser, "#join-file", turn)
        press(browser, touch, "#join-read")
        browser.wait("!!document.body.dataset.refused")
        assert browser.js("document.getElementById('notice').textContent") == (
            "refused: the uploaded turn.pbem: this is a turn file, not an invite")
        assert snapshot(b) == before
        # join from an uploaded invite, signed by someone never met: compare, then join
        invite = tmp_path / "invite-c.pbem"
        invite.write_bytes(c.new_game("white-death", "purkayev", "soviet", name="c1")
                           .file(0)[1])
        upload(browser, "#join-file", invite)
        choose(browser, "#join-route", "none")
        browser.js("document.getElementById('join-name').value = 'c1'")
        press(browser, touch, "#join-read")
        browser.wait("!!document.getElementById('join-yes')")
        asked = browser.js("document.getElementById('join-confirm').textContent")
        # the creator's name is text from the file: shown as written, never as markup
        assert c.card().fingerprint in asked and CY in asked
        assert browser.js("document.querySelectorAll('#join-confirm img').length") == 0
        assert "c1" not in [s["name"] for s in b.statuses()]  # nothing written yet
        press(browser, touch, "#join-yes")
        browser.wait("document.body && document.body.dataset.games === '4'")
        assert b.game("c1").side == "german"
        assert CY in card(browser, "c1", "what")
        assert browser.js("document.querySelectorAll('img').length") == 0
        assert browser.js("!!document.querySelector('#notice a[download]')")
        # an invitation in the folder a game of B's travels by: the lobby's watcher finds
        # it, the page offers it, a tap joins it (A is a contact now: nothing to compare)
        lobby.start_watching(interval=0.3)
        a_game = a.new_game("white-death", "purkayev", "german", name="again")
        (folder / "from-anna.pbem").write_bytes(a_game.file(0)[1])
        key = a_game.game_id.hex()
        browser.wait(f"!!document.querySelector('[data-join=\"{key}\"]')")
        assert "an invitation from Anna Petrova" in browser.js(
            "document.getElementById('firsts').textContent")
        press(browser, touch, f'[data-join="{key}"]')
        browser.wait("document.body && document.body.dataset.games === '5'")
        assert b.game_by_id(a_game.game_id) is not None
        assert "reply sent" in browser.js("document.getElementById('notice').textContent")
        browser.wait(f"!document.querySelector('[data-join=\"{key}\"]')")
        assert browser.js("document.body.dataset.refused") is None
        assert browser.console_errors() == []
    finally:
        lobby.stop()
        browser.close()
        running.stop()


def test_the_new_game_form_defaults_and_labels(two_games: tuple[Home, Home, int],
                                               tmp_path: Path) -> None:
    """B has played only Anna: the form offers her as the opponent (someone new stays a
    choice); with a second contact the player picks.  The shared folder's path box has a
    visible label tied to it (a placeholder goes as soon as the box has text)."""
    a, b, _ = two_games
    lobby = Lobby(b)
    running = Running(lobby)
    browser = Browser(1440, 900)
    try:
        browser.open(running.url)
        browser.wait("document.querySelectorAll('#new-opponent option').length === 2")
        assert browser.js("document.getElementById('new-opponent').value") == \
            a.card().fingerprint
        assert browser.js("document.getElementById('new-opponent').options[0].textContent"
                          ) == "someone new (no contact yet)"
        choose(browser, "#new-route", "folder")
        labels = browser.js("Array.from(document.getElementById('new-where').labels)"
                            ".map(function (l) { return [l.textContent, l.offsetHeight > 0]; })")
        assert labels == [["the shared folder's path", True]]
        choose(browser, "#new-route", "mail")
        assert browser.js("document.getElementById('new-where').labels[0].textContent") == \
            "the opponent's mail address"
        choose(browser, "#new-route", "none")
        assert browser.js("document.getElementById('new-where').labels[0].offsetHeight") == 0
        # two people played before: no guess
        c = homes(tmp_path, "c")["c"]
        b.pin(c.card(), "a test")
        browser.open(running.url)
        browser.wait("document.querySelectorAll('#new-opponent option').length === 3")
        assert browser.js("document.getElementById('new-opponent').value") == ""
        assert browser.console_errors() == []
    finally:
        browser.close()
        running.stop()


def until(fn: object, timeout: float = 30.0) -> None:
    """Wait for ``fn()`` to be true (the lobby's watcher works on its own thread)."""
    import time

    deadline = time.monotonic() + timeout
    while not fn():  # type: ignore[operator]
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def listed(port: int, ok: dict[str, str]) -> dict[str, object]:
    status, _, out = request(port, "GET", "/api/lobby", ok)
    assert status == 200
    return json.loads(out)  # type: ignore[no-any-return]


def test_two_lobbies_start_a_game_through_a_folder_with_no_terminal(tmp_path: Path) -> None:
    """After 'pbem id new', everything in the browser: A starts a game by a shared folder,
    B joins from the invite it uploads, A compares B's fingerprint on the page, and each
    lobby's watcher carries the files (A's file 2 reaches B, whose move it then is)."""
    h = homes(tmp_path, "a", "b")
    folder = tmp_path / "shared"
    folder.mkdir()
    lobbies = [Lobby(h["a"]), Lobby(h["b"])]
    running = [Running(lobby) for lobby in lobbies]
    try:
        (pa, oka), (pb, okb) = [(r.port, r.cookie) for r in running]
        post_a = {**oka, "Content-Type": "application/json"}
        for lobby in lobbies:
            lobby.start_watching(interval=0.2)
        status, _, out = request(pa, "POST", "/api/new", post_a, body(
            {"engine": "white-death", "scenario": "purkayev", "side": "german",
             "name": "war", "route": "folder", "where": str(folder)}))
        assert json.loads(out)["ok"] is True
        invite = next(folder.glob("*-0000-german.pbem"))
        answer = join(pb, okb, {"file_name": invite.name, "confirmed": True,
                                "data": base64.b64encode(invite.read_bytes()).decode(),
                                "route": "folder", "where": str(folder), "name": "war"})
        assert answer["ok"] is True and "reply sent" in str(answer["told"]), answer
        # A has never met B: the accept waits for A to compare the fingerprint
        until(lambda: listed(pa, oka)["firsts"])
        first = listed(pa, oka)["firsts"][0]  # type: ignore[index]
        assert first["fingerprint"] == h["b"].card().fingerprint
        assert h["a"].game("war").verifier.seq == 0  # not imported yet
        status, _, out = request(pa, "POST", "/api/confirm", post_a,
                                 body({"fingerprint": first["fingerprint"]}))
        assert json.loads(out)["ok"] is True
        until(lambda: h["a"].game("war").verifier.seq >= 2)
        # A's file 2 went by the route into the folder; B's watcher imports it
        until(lambda: listed(pb, okb)["games"][0]["your_move"])  # type: ignore[index]
        assert "your move" in listed(pb, okb)["games"][0]["whose"]  # type: ignore[index]
        assert any("imported" in n for n in listed(pb, okb)["notes"])  # type: ignore[union-attr]
        # B plays on the board the lobby opened, by the page's own calls, until its file
        # seals: the route takes it, A's watcher imports it, and A's lobby says so
        post_b = {**okb, "Content-Type": "application/json"}
        sealed = None
        for _ in range(200):
            state = json.loads(request(pb, "GET", "/game/war/api/state", okb)[2])
            if not state["my_turn"]:
                break
            options = state["prompt"]["options"]
            action = state["prompt"]["default"] or (options[0]["text"] if options else
                                                    state["general"][-1])
            out = json.loads(request(pb, "POST", "/game/war/api/act", post_b,
                                     body({"text": action}))[2])
            assert out["ok"] is True, out
            sealed = out.get("sealed") or sealed
        assert sealed is not None and "sent: file 3 of war written to" in sealed["text"]
        until(lambda: h["a"].game("war").verifier.seq >= 3)
        until(lambda: listed(pa, oka)["games"][0]["seq"] >= 3)  # type: ignore[index]
        # A's next invitation, dropped in the folder B's lobby follows: offered to join,
        # once (not a note at every look), and joined by the game's id alone
        status, _, out = request(pa, "POST", "/api/new", post_a, body(
            {"engine": "white-death", "scenario": "purkayev", "side": "soviet",
             "name": "war2", "route": "folder", "where": str(folder)}))
        assert json.loads(out)["ok"] is True
        until(lambda: listed(pb, okb)["invitations"])
        offered = listed(pb, okb)["invitations"][0]  # type: ignore[index]
        assert offered["who"] == "Anna Petrova <a@example.invalid>"
        assert offered["fingerprint"] == h["a"].card().fingerprint
        lobbies[1].look()
        notes = listed(pb, okb)["notes"]
        assert sum("an invitation from" in n for n in notes) == 1, notes  # type: ignore[union-attr]
        answer = join(pb, okb, {"found": offered["game"], "route": "invite", "name": "war2"})
        assert answer["ok"] is True and "reply sent: file 1 of war2 written to" in str(
            answer["told"]), answer
        assert h["b"].game("war2").side == "german"
        assert listed(pb, okb)["invitations"] == []
        # a game id the watcher never offered reads no file
        answer = join(pb, okb, {"found": "00" * 32})
        assert answer["ok"] is False and "no such invitation" in str(answer["error"])
    finally:
        for lobby in lobbies:
            lobby.stop()
        for r in running:
            r.stop()


def play_by_the_page(port: int, ok: dict[str, str], game: str) -> int:
    """Answer every decision of ``game`` the page offers, as a player tapping would: the
    default, else the first answer listed, else an action a button offers, else a unit's
    first move on the map.  Returns the actions played."""
    post = {**ok, "Content-Type": "application/json"}
    for played in range(400):
        state = json.loads(request(port, "GET", f"/game/{game}/api/state", ok)[2])
        if not state["my_turn"] or state["result"]:
            return played
        prompt = state["prompt"]
        action = prompt["default"] or (prompt["options"][0]["text"] if prompt["options"]
                                       else None)
        if action is None and state["general"]:
            action = state["general"][0]
        for unit in state["mine"] if action is None else []:
            where = json.loads(request(port, "GET", f"/game/{game}/api/where?unit="
                                       f"{unit['id']}", ok)[2])
            found = [acts[0] for _, acts in sorted(where["hexes"].items())] + where["other"]
            if found:
                action = found[0]
                break
        assert action is not None, state
        out = json.loads(request(port, "POST", f"/game/{game}/api/act", post,
                                 body({"text": action}))[2])
        assert out["ok"] is True, (action, out)
    raise AssertionError(f"{game}: still deciding after 400 actions")


def test_a_whole_game_between_two_lobbies(tmp_path: Path) -> None:
    """Issue 32 item 6: after 'pbem id new', a whole game with no terminal: started, joined
    and played to its end on the two lobbies' pages, the files carried by their watchers
    through a shared folder; both lobbies end on the same result."""
    h = homes(tmp_path, "a", "b")
    folder = tmp_path / "shared"
    folder.mkdir()
    lobbies = [Lobby(h["a"]), Lobby(h["b"])]
    running = [Running(lobby) for lobby in lobbies]
    try:
        (pa, oka), (pb, okb) = [(r.port, r.cookie) for r in running]
        for lobby in lobbies:
            lobby.start_watching(interval=0.1)
        status, _, out = request(pa, "POST", "/api/new", {**oka, "Content-Type":
                                 "application/json"}, body(
            {"engine": "skirmish", "scenario": "short", "side": "red", "name": "duel",
             "route": "folder", "where": str(folder)}))
        assert json.loads(out)["ok"] is True
        invite = next(folder.glob("*-0000-red.pbem"))
        # the form posted no dice: sealed, as 'pbem new' (the guide, section 6, says why)
        assert h["a"].game("duel").verifier.sealed
        assert join(pb, okb, {"file_name": invite.name, "confirmed": True, "name": "duel",
                              "data": base64.b64encode(invite.read_bytes()).decode(),
                              "route": "folder", "where": str(folder)})["ok"] is True
        until(lambda: listed(pa, oka)["firsts"])
        request(pa, "POST", "/api/confirm", {**oka, "Content-Type": "application/json"},
                body({"fingerprint": h["b"].card().fingerprint}))

        def over() -> bool:
            return all(listed(p, ok)["games"][0]["over"]  # type: ignore[index]
                       for p, ok in ((pa, oka), (pb, okb)))

        import time

        deadline = time.monotonic() + 240
        actions = 0
        while not over():
            assert time.monotonic() < deadline, [listed(p, o)["games"] for p, o in
                                                 ((pa, oka), (pb, okb))]
            actions += play_by_the_page(pa, oka, "duel") + play_by_the_page(pb, okb, "duel")
            time.sleep(0.05)
        ends = [listed(p, o)["games"][0]["whose"] for p, o in ((pa, oka), (pb, okb))]  # type: ignore[index]
        assert ends[0] == ends[1] and ends[0].startswith("game over"), ends
        files = list(h["a"].game("duel").files)
        assert files == list(h["b"].game("duel").files)
        # every file after the invite and the accept came through the folder, by the
        # watchers; each home sealed some of them
        assert actions >= 4 and len(files) >= 4, (actions, len(files))
        assert len(list(folder.glob("*.pbem"))) == len(files)
    finally:
        for lobby in lobbies:
            lobby.stop()
        for r in running:
            r.stop()
