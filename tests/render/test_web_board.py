"""``pbem board``: the live page, its guards, and real games played by clicks in Chromium."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cdp import Browser

from pbem.errors import PbemError
from pbem.session import Game, Home
from pbem.web.server import Board, BoardHTTPServer, serve, url_of

pytest.importorskip("engines.white_death")
pytest.importorskip("engines.motherland")

SHOTS = os.environ.get("PBEM_SCREENSHOTS")  # a folder: keep the guide's screenshots there


def new_pair(root: Path, engine: str, scenario: str, creator_side: str,
             folder: Path) -> tuple[Home, Home, str]:
    """Two homes that have started a game (invite, accept) through ``folder``; the
    creator's file 2, if the rules seal it at once, is in the folder too."""
    homes = []
    for label in ("a", "b"):
        home = Home(root / f"home-{label}", clock=lambda: 0)
        home.keys.create(f"Player {label.upper()}", f"{label}@example.invalid", None)
        homes.append(home)
    a, b = homes
    game = a.new_game(engine, scenario, creator_side, name="g")
    invite = folder / "invite.pbem"
    invite.write_bytes(game.file(0)[1])
    joined = b.join(invite.read_bytes(), str(invite), name="g")
    invite.unlink()
    report = a.receive(joined.file(1)[1], "accept")
    if report.sealed is not None:
        from pbem.envelope import peek
        from pbem.transport.folder import deliver_folder

        data = a.game("g").file(report.sealed)[1]
        deliver_folder(data, folder, peek(data))
    return a, b, "g"


class Running:
    """A board server on a thread, for one test."""

    def __init__(self, board: Board) -> None:
        self.server: BoardHTTPServer = serve(board)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = url_of(self.server)
        self.port = self.server.server_address[1]
        #: what the browser holds once it traded the one-time code
        self.cookie = {"Cookie": f"{board.cookie_name}={board.token}"}

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[Home, Home, Path]]:
    folder = tmp_path / "shared"
    folder.mkdir()
    a, b, _ = new_pair(tmp_path, "white-death", "purkayev", "german", folder)
    yield a, b, folder


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        for key, value in sent.items():
            conn.putheader(key, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_guards_cookie_host_origin_and_loopback(started: tuple[Home, Home, Path]) -> None:
    _, soviet, folder = started
    save = soviet.games_dir / "g.pbsave"
    running = Running(Board(soviet, "g", folder=folder))
    try:
        assert running.server.server_address[0] == "127.0.0.1"
        port, board = running.port, running.server.board
        token = board.token
        assert len(token) >= 40 and token not in running.url
        ok = running.cookie
        status, _, body = request(port, "GET", "/")
        assert (status, body) == (403, b"refused\n")
        for wrong in ("x" + token, token[:-1], ""):
            assert request(port, "GET", "/", {"Cookie": f"{board.cookie_name}={wrong}"}
                           )[0] == 403, wrong
        # the right secret under another board's name (another port) is refused too
        assert request(port, "GET", "/", {"Cookie": f"pbem-board-1={token}"})[0] == 403
        assert request(port, "GET", f"/?t={token}")[0] == 403  # no secret in an address
        status, headers, body = request(port, "GET", "/", ok)
        assert status == 200 and b"\\u003csvg" in body and b"default-src 'none'" in body
        status, _, body = request(port, "GET", "/api/state", ok)
        assert status == 200 and json.loads(body)["files"] == 3  # file 2, from the folder
        before = save.read_bytes()
        # another site's page (DNS rebinding, cross-site requests) gets nothing
        for bad in ({"Host": f"evil.example:{port}"}, {"Origin": "http://evil.example"},
                    {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"}):
            assert request(port, "GET", "/api/state", {**ok, **bad})[0] == 403, bad
        status, headers, _ = request(port, "OPTIONS", "/api/act",
                                     {"Origin": "http://evil.example",
                                      "Access-Control-Request-Method": "POST"})
        assert status == 405
        assert not any(k.lower().startswith("access-control") for k in headers)
        # a form post (no JSON) and paths outside the game's few calls are refused
        act = json.dumps({"text": "impulse 4"}).encode()
        assert request(port, "POST", "/api/act", {**ok, "Content-Type": "text/plain"},
                       act)[0] == 415
        for path in ("/etc/passwd", "/../games/g.pbsave", "/api/../../x", "/board.js"):
            assert request(port, "GET", f"{path}", ok)[0] == 404
        assert save.read_bytes() == before, "a refused request changed the save"
        # the cookie's own request acts, through the session, as 'pbem act' would
        status, _, body = request(port, "POST", "/api/act",
                                  {**ok, "Content-Type": "application/json"}, act)
        assert status == 200 and json.loads(body)["ok"]
        assert soviet.game("g").pending[-1] == ["a", "impulse 4"]
        status, _, body = request(port, "POST", "/api/act",
                                  {**ok, "Content-Type": "application/json"},
                                  json.dumps({"text": "impulse 99"}).encode())
        assert not json.loads(body)["ok"] and "Rule 5" in json.loads(body)["error"]
    finally:
        running.stop()


def test_the_one_time_address_is_traded_once_for_the_cookie(
        started: tuple[Home, Home, Path]) -> None:
    _, soviet, folder = started
    running = Running(Board(soviet, "g", folder=folder))
    try:
        port, board = running.port, running.server.board
        code = running.url.split("?code=", 1)[1]
        # a HEAD (a link checker, a preview) does not spend the code
        assert request(port, "HEAD", f"/?code={code}")[0] == 403
        # another site cannot trade it either (rebinding Host, a cross-site navigation)
        assert request(port, "GET", f"/?code={code}", {"Host": f"evil.example:{port}"}
                       )[0] == 403
        assert request(port, "GET", f"/?code={code}", {"Sec-Fetch-Site": "cross-site"}
                       )[0] == 403
        status, headers, _ = request(port, "GET", f"/?code={code}")
        assert status == 303 and headers["Location"] == "/"
        cookie = headers["Set-Cookie"]
        assert cookie.startswith(f"pbem-board-{port}={board.token};")
        assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= {
            part.strip() for part in cookie.split(";")}
        # the second time, the code is refused, and says what to do
        status, _, body = request(port, "GET", f"/?code={code}")
        assert status == 403 and b"used already" in body
        assert request(port, "GET", "/?code=made-up")[0] == 403
        # the cookie it gave opens the page and the game's calls
        jar = {"Cookie": cookie.split(";", 1)[0]}
        assert request(port, "GET", "/", jar)[0] == 200
        # the browser that spent it may open the address again: to the page, no new cookie
        status, headers, _ = request(port, "GET", f"/?code={code}", jar)
        assert status == 303 and headers["Location"] == "/" and "Set-Cookie" not in headers
        assert request(port, "GET", "/api/state", jar)[0] == 200
    finally:
        running.stop()


def test_the_browser_launcher_is_given_no_lasting_secret(
        started: tuple[Home, Home, Path], tmp_path: Path) -> None:
    """``pbem board`` hands the browser launcher (whose argv every local user can read in
    ``ps``) a one-time address; the secret the page then holds is not in it."""
    _, soviet, _ = started
    argv_file = tmp_path / "argv"
    launcher = tmp_path / "browser"
    launcher.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > {argv_file}\n")
    launcher.chmod(0o755)
    env = {**os.environ, "PBEM_HOME": str(soviet.path), "BROWSER": str(launcher),
           "DISPLAY": ""}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "board", "g"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found and "open in your browser" in line, line
        assert "code" not in line
        port = int(found.group(1))
        argv = argv_file.read_text()
        given = re.search(r"http://127\.0\.0\.1:\d+/\?code=([\w-]+)", argv)
        assert given, argv
        status, headers, _ = request(port, "GET", f"/?code={given.group(1)}")
        assert status == 303
        secret = headers["Set-Cookie"].split(";", 1)[0].split("=", 1)[1]
        assert len(secret) >= 40 and secret not in argv and secret not in line
        assert request(port, "GET", f"/?code={given.group(1)}")[0] == 403
        status, _, body = request(port, "GET", "/api/state",
                                  {"Cookie": f"pbem-board-{port}={secret}"})
        assert status == 200 and json.loads(body)["side"] == "soviet"
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_board_command_prints_the_address_and_serves_loopback_only(
        started: tuple[Home, Home, Path]) -> None:
    _, soviet, _ = started
    env = {**os.environ, "PBEM_HOME": str(soviet.path)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "board", "g", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?code=([\w-]+)", line)
        assert found, line
        port, code = int(found.group(1)), found.group(2)
        assert request(port, "GET", "/api/state")[0] == 403
        status, headers, _ = request(port, "GET", f"/?code={code}")
        assert status == 303
        jar = {"Cookie": headers["Set-Cookie"].split(";", 1)[0]}
        status, _, body = request(port, "GET", "/api/state", jar)
        assert status == 200 and json.loads(body)["side"] == "soviet"
        # nothing listens on the machine's other addresses
        others = {ip for *_, (ip, *_) in socket.getaddrinfo(socket.gethostname(), None,
                                                            socket.AF_INET)} - {"127.0.0.1"}
        for ip in sorted(others):
            with pytest.raises(OSError), socket.create_connection((ip, port), timeout=2):
                pass
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def raw(port: int, data: bytes) -> socket.socket:
    """A connection that sent ``data`` (maybe nothing, maybe half a request) and waits."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if data:
        sock.sendall(data)
    return sock


def test_one_idle_or_refused_connection_never_freezes_the_board(
        started: tuple[Home, Home, Path]) -> None:
    """Issue 36.7: one connection that never finishes (another page's stray fetch, a
    local program) must not keep the board from answering its own page."""
    _, soviet, folder = started
    running = Running(Board(soviet, "g", folder=folder))
    port, ok = running.port, running.cookie
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    hostile: list[socket.socket] = []
    try:
        assert request(port, "GET", "/api/state", ok)[0] == 200  # the save is read once
        hostile.append(raw(port, b""))  # connected, says nothing
        hostile.append(raw(port, b"GET /api/state HTTP/1.1\r\n" + host))  # half a request
        # a request refused (no cookie: 403) on a keep-alive connection left open
        refused = raw(port, b"GET /api/state HTTP/1.1\r\n" + host +
                      b"Connection: keep-alive\r\n\r\n")
        hostile.append(refused)
        answer = b""
        while b"refused\n" not in answer:
            chunk = refused.recv(4096)
            assert chunk, answer
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 403") and b"Connection: close" in answer
        assert refused.recv(4096) == b"", "the refused connection was kept open"
        # the board still answers its page at once: within one second, three times
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            try:
                conn.request("GET", "/api/where?unit=x", headers={
                    "Host": f"127.0.0.1:{port}", **ok})
                response = conn.getresponse()
                assert response.status == 200 and json.loads(response.read())["other"] == []
            finally:
                conn.close()
    finally:
        for sock in hostile:
            sock.close()
        running.stop()


def test_every_malformed_request_gets_an_answer(started: tuple[Home, Home, Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36.9: each gets an HTTP error with a sentence, never a traceback, and never
    replaces the message kept for the file."""
    _, soviet, folder = started
    running = Running(Board(soviet, "g", folder=folder))
    port, ok = running.port, running.cookie
    post = {**ok, "Content-Type": "application/json"}
    try:
        status, _, body = request(port, "POST", "/api/say", post,
                                  json.dumps({"text": "kept"}).encode())
        assert status == 200 and json.loads(body)["ok"]
        # an unclosed quote in the say box (shlex.split's ValueError)
        status, _, body = request(port, "POST", "/api/say", post,
                                  json.dumps({"text": "'meet at the bridge"}).encode())
        answer = json.loads(body)
        assert status == 200 and not answer["ok"] and "unclosed quote" in answer["error"]
        # deeply nested JSON (RecursionError in the decoder)
        status, _, body = request(port, "POST", "/api/say", post,
                                  b"[" * 30000 + b"]" * 30000)
        assert status == 400 and "nested too deeply" in json.loads(body)["error"]
        # a JSON body that is not an object, or has no text
        for bad, words in ((b"[1]", "not a JSON list"), (b"{}", 'no "text"'),
                           (b'{"text": 5}', "must be a string"),
                           (b"{\"text\": \"x\"", "not JSON")):
            status, _, body = request(port, "POST", "/api/say", post, bad)
            assert status == 400 and words in json.loads(body)["error"], (bad, body)
        # a chunked body with no Content-Length is not read as an empty one
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("POST", "/api/say", body=iter([b'{"text": ', b'"chunked"}']),
                         headers={"Host": f"127.0.0.1:{port}", **post},
                         encode_chunked=True)
            response = conn.getresponse()
            assert response.status == 411
            assert "Content-Length" in json.loads(response.read())["error"]
        finally:
            conn.close()
        assert soviet.game("g").message == "kept"
        # HEAD: the headers of the GET, no body
        status, headers, body = request(port, "HEAD", "/", ok)
        assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000
        assert request(port, "HEAD", "/api/state", ok)[0] == 200
        assert request(port, "HEAD", "/api/act", ok)[0] == 405
        assert capsys.readouterr().err == ""
        # even a request that hits a bug is answered, with what went wrong
        def broken(unit: str) -> dict[str, object]:
            raise RuntimeError("a bug")
        running.server.board.where = broken  # type: ignore[method-assign]
        status, _, body = request(port, "GET", "/api/where?unit=x", ok)
        assert status == 500 and "RuntimeError: a bug" in json.loads(body)["error"]
        assert request(port, "GET", "/api/state", ok)[0] == 200
    finally:
        running.stop()


def test_the_kept_game_sees_a_terminal_command(started: tuple[Home, Home, Path]) -> None:
    """Issue 35.4: the board keeps the game in memory between clicks (one load, not three
    per act and redraw), but a ``pbem act`` run meanwhile in a terminal is seen, and the
    board's next click goes on from it instead of failing or undoing it."""
    _, soviet, folder = started
    board = Board(soviet, "g", folder=folder)
    assert board.state()["pending"] == 0
    kept = board.game()
    assert board.game() is kept  # nothing changed on disk: no second load
    board.command("act", "impulse 4")
    assert board.game() is kept and kept.pending[-1] == ["a", "impulse 4"]
    terminal = soviet.game("g")
    terminal.undo()  # 'pbem undo' in a terminal
    assert board.state()["pending"] == 0 and board.game() is not kept
    board.command("act", "impulse 3")
    assert soviet.game("g").pending[-1] == ["a", "impulse 3"]
    # a refused action leaves the save, and what the board shows, as they were
    with pytest.raises(PbemError, match="Rule"):
        board.command("act", "impulse 3")
    assert board.state()["pending"] == 1 and soviet.game("g").pending[-1][1] == "impulse 3"


def test_a_roll_the_engine_tells_is_told_once_by_the_board(tmp_path: Path) -> None:
    """The board's act tells a roll the engine tells itself once, in the engine's words
    under the roll's name, as ``pbem act`` does: Erich's last 'end movement' of turn 1 in
    Purkayev's Attack rolls turn 2's weather and the Velikiye Luki garrison's release
    (White Death 4.0); before, each roll got a second line ('1d6 -> 3')."""
    import hashlib

    erich, ivan = Home(tmp_path / "erich"), Home(tmp_path / "ivan")
    erich.keys.create("Erich", "", None, secret=hashlib.sha256(b"erich").digest())
    ivan.keys.create("Ivan", "", None, secret=hashlib.sha256(b"ivan").digest())
    game = erich.new_game("white-death", "purkayev", "german", name="luki",
                          nonce=hashlib.sha256(b"luki1").digest())
    joined = ivan.join(game.files[0], "invite", name="luki")
    erich.receive(joined.files[1], "reply")
    ivan.receive(erich.game("luki").file(2)[1], "file 2")
    homes = {"german": erich, "soviet": ivan}
    # ten impulses a side of one point each, up to the German's last 'end movement'
    for _ in range(39):
        side = ivan.game("luki").state.current_player()
        assert isinstance(side, str)
        mine = homes[side].game("luki")
        names = [str(a) for a in mine.state.legal_actions()]
        _, _, sealed = mine.act("end movement" if "end movement" in names else "impulse 1")
        if sealed is not None:
            other = homes["german" if side == "soviet" else "soviet"]
            other.receive(mine.file(sealed)[1], f"file {sealed}")
    out = Board(erich, "luki").act("end movement")
    rolls = [text for kind, text in out["events"] if "rolled" in text or "1d6 ->" in text]
    assert rolls == ["roll 22.0: weather for turn 2: rolled 3",
                     "roll 22.1: Velikiye Luki garrison release on turn 2: rolled 6"], out


def wait_idle(b: Browser) -> None:
    """The page has its state and no replay is playing."""
    b.wait("document.body.dataset.files !== undefined")
    b.click("#last")
    b.wait("document.body.dataset.playing !== '1'")


def test_click_a_unit_and_a_hex_in_chromium(started: tuple[Home, Home, Path],
                                            tmp_path: Path) -> None:
    german, soviet, folder = started
    board = Board(soviet, "g", folder=folder)
    running = Running(board)
    b = Browser()
    try:
        b.open(running.url)
        # file 2 (the weather roll) arrived through the folder: imported and replayed
        b.wait("document.body.dataset.files === '3'")
        assert b.js("pbem.count()") >= 2  # file 2's frames, then the board now
        assert "file 2 from the german player" in b.js(
            "pbem.data.frames[0].events.map(e => e[1]).join(' ')")
        b.wait("pbem.frame() >= 1", timeout=20)  # the replay plays by itself
        wait_idle(b)
        assert b.console_errors() == []
        # a decision by button: the default is marked
        assert b.js("document.querySelector('#options button.default').textContent") \
            .endswith("(default)")
        b.click('#options button[data-action="impulse 4"]')
        b.wait("!document.querySelector('#options button[data-action=\"impulse 4\"]')")
        assert soviet.game("g").pending[-1] == ["a", "impulse 4"]
        # click a unit alone in its hex, then one of the hexes it may move to
        game = soviet.game("g")
        unit, target, action = movable(board, game)
        here = next(p.location for p in game.state.view("soviet").pieces if p.id == unit)
        b.js(f"pbem.show({json.dumps(here)}, 36 * 14)")
        b.click(f'.counter[data-piece="{unit}"]')
        b.wait("document.body.dataset.targets !== undefined")
        assert int(b.js("document.body.dataset.targets")) >= 1
        lit = b.js("Array.from(document.querySelectorAll('#targets polygon'))"
                   ".map(p => p.getAttribute('data-hex'))")
        assert target in lit
        if SHOTS:
            b.screenshot(Path(SHOTS) / "board-white-death.png")
        b.click_at(*b.center_of(f'#targets polygon[data-hex="{target}"]'))
        b.wait(f"document.querySelector('.counter[data-piece=\"{unit}\"]') && "
               f"document.querySelector('.counter[data-piece=\"{unit}\"]')"
               f".getAttribute('data-hex') === {json.dumps(target)}")
        assert soviet.game("g").pending[-1] == ["a", action]
        # a move the rules forbid is refused, naming the rule, and nothing changes
        before = (soviet.games_dir / "g.pbsave").read_bytes()
        b.click("#act-input")
        b.type_text(f"move {unit} {target} 0101")
        b.click("#act")
        b.wait("document.body.dataset.refused !== undefined")
        assert re.search(r"Rule \d", b.js("document.getElementById('notice').textContent"))
        assert (soviet.games_dir / "g.pbsave").read_bytes() == before
        # undo takes the move back, in the save and on the map
        b.click("#undo")
        b.wait(f"document.querySelector('.counter[data-piece=\"{unit}\"]')"
               f".getAttribute('data-hex') === {json.dumps(here)}")
        assert soviet.game("g").pending[-1] == ["a", "impulse 4"]
        # a message for the opponent, kept with the file
        b.click("#say-input")
        b.type_text("<b>hello</b>")
        b.click("#say")
        b.wait("document.getElementById('orders').textContent.includes('<b>hello</b>')")
        assert soviet.game("g").message == "<b>hello</b>"
        # a refusal is shown on the page, and the kept message stays
        b.js("document.getElementById('say-input').value = ''")
        b.click("#say-input")
        b.type_text("'unclosed")
        b.click("#say")
        b.wait("document.getElementById('notice').textContent.includes('unclosed quote')")
        assert soviet.game("g").message == "<b>hello</b>"
        assert b.console_errors() == []
        # a request that fails on the server (here a bug, answered 500) is told on the page
        def broken(unit: str) -> dict[str, object]:
            raise RuntimeError("the where call broke")
        board.where = broken  # type: ignore[method-assign]
        b.js(f"pbem.show({json.dumps(here)})")
        b.click(f'.counter[data-piece="{unit}"]')
        b.wait("document.getElementById('notice').textContent.includes('the where call broke')")
    finally:
        b.close()
        running.stop()


def movable(board: Board, game: Game) -> tuple[str, str, str]:
    """A unit of the side to act, alone in its hex, with a hex it may move to by one
    action, for the test to click."""
    view = game.state.view(game.side)
    count: dict[str, int] = {}
    for p in view.pieces:
        count[p.location] = count.get(p.location, 0) + 1
    for p in view.pieces:
        if p.side != game.side or count[p.location] != 1:
            continue
        hexes = board.where(p.id)["hexes"]
        for hex_id, actions in hexes.items():
            if len(actions) == 1 and actions[0].startswith("move") and count.get(hex_id, 0) == 0:
                return p.id, hex_id, actions[0]
    raise AssertionError("no unit can move by itself")


def version(b: Browser) -> int:
    return int(b.js("document.body.dataset.version || '0'"))


def click_once(b: Browser, board: Board, moved: set[str]) -> str:
    """One decision taken by clicks as a player would: the marked default when there is
    one, else a unit and a hex it may go to (once per unit), else the button that ends
    the phase.  Returns what was clicked."""
    before = version(b)
    # a question with listed options: the marked default, as most players answer
    default = b.js("(document.querySelector('#options button.default:not(.general)') || {})"
                   ".textContent")
    game = board.game()
    view = game.state.view(game.side)
    unit = target = None
    if len(moved) < 2:
        # moving units by the map first, as the test is about clicks on the map
        for p in view.pieces:
            if p.side == game.side and not p.hidden and p.id not in moved:
                hexes = board.where(p.id)["hexes"]
                if hexes:
                    unit, target = p.id, next(iter(hexes))
                    break
    if default and (unit is None or target is None):
        b.click("#options button.default")
        clicked = default
    elif unit is None or target is None:
        buttons = b.js("Array.from(document.querySelectorAll('#options button'))"
                       ".map(x => x.getAttribute('data-action'))")
        assert buttons, "nothing to click"
        pick = next((t for t in buttons if t.startswith("end")), buttons[0])
        b.click(f"#options button[data-action={json.dumps(pick)}]")
        clicked = pick
    else:
        moved.add(unit)
        here = next(p.location for p in view.pieces if p.id == unit)
        # the counter on top of the unit's stack, brought into view
        top = b.js(f"(document.querySelector('.counter[data-piece={json.dumps(unit)}]') || "
                   f"document.querySelector('.counter[data-hex={json.dumps(here)}]'))"
                   ".getAttribute('data-piece')")
        assert b.js(f"pbem.showPiece({json.dumps(top)}, 36 * 14)")
        b.click(f'.counter[data-piece={json.dumps(top)}]')
        if b.js("!!document.querySelector('#choices button[data-unit]')"):
            b.click(f"#choices button[data-unit={json.dumps(unit)}]")
        try:
            b.wait("document.body.dataset.selected !== undefined && "
                   "document.body.dataset.targets !== undefined && "
                   "document.querySelectorAll('#targets polygon').length > 0")
        except TimeoutError:
            raise AssertionError(f"selecting {unit} in {here}: " + str(b.js(
                "[document.getElementById('notice').textContent,"
                " document.getElementById('choices').textContent,"
                " document.body.dataset.selected,"
                f" !!document.querySelector('.counter[data-hex={json.dumps(here)}]'),"
                f" pbem.data.map.centers[{json.dumps(here)}]]"))) from None
        b.js(f"pbem.show({json.dumps(target)})")
        b.click_at(*b.center_of(f'#targets polygon[data-hex={json.dumps(target)}]'))
        if b.js("!!document.querySelector('#choices button[data-action]')"):
            b.click("#choices button[data-action]")
        clicked = f"map: {unit} to {target}"
    try:
        b.wait(f"Number(document.body.dataset.version) > {before} || "
               "document.body.dataset.refused !== undefined")
    except TimeoutError:
        raise AssertionError(f"after {clicked}: " + str(b.js(
            "[document.getElementById('notice').textContent,"
            " document.getElementById('choices').textContent,"
            " document.body.dataset.selected]"))) from None
    assert b.js("document.body.dataset.refused") is None, b.js("document.body.dataset.refused")
    return clicked


def play_file(b: Browser, board: Board, limit: int = 120) -> list[str]:
    """Click until the file seals (the opponent decides next).  Each click is one request
    (issue 35 item 4): the act's answer carries the redraw, so the page never asks for the
    state while it is its turn; what it holds, merged from what changed, is the whole
    state the board shows."""
    wait_idle(b)
    b.wait("document.body.dataset.myTurn === '1'")
    files = int(b.js("document.body.dataset.files"))
    moved: set[str] = set()
    clicks = []
    asked: list[str] = []
    find = board.find

    def counted(method: str, path: str) -> Any:
        asked.append(f"{method} {path}")
        return find(method, path)

    board.find = counted  # type: ignore[method-assign]
    try:
        for _ in range(limit):
            clicks.append(click_once(b, board, moved))
            if b.js("document.body.dataset.myTurn") != "1":
                break
            assert "GET /api/state" not in asked, (clicks[-1], asked)
            asked.clear()
    finally:
        del board.find
    b.wait(f"Number(document.body.dataset.files) > {files}")
    assert "sealed and signed" in b.js("document.getElementById('notice').textContent")
    with board.lock:
        shown = json.loads(board.state_json())
    held = json.loads(b.js("JSON.stringify(pbemLive.state())"))
    assert {k: v for k, v in held.items() if k != "version"} == shown
    if os.environ.get("PBEM_SHOW_CLICKS"):
        print("clicks:", clicks)
    return clicks


@pytest.mark.parametrize(("engine", "scenario", "creator"), [
    ("white-death", "purkayev", "german"),
    ("for-the-motherland", "4-uranus", "soviet"),
])
def test_an_exchange_played_by_clicks_in_two_browsers(engine: str, scenario: str,
                                                      creator: str, tmp_path: Path) -> None:
    """Two players, two homes, two browsers, one shared folder: a file each way."""
    folder = tmp_path / "shared"
    folder.mkdir()
    first_home, second_home, name = new_pair(tmp_path, engine, scenario, creator, folder)
    first = Board(second_home, name, folder=folder)  # the side that moves first joined
    second = Board(first_home, name, folder=folder)
    servers = [Running(first), Running(second)]
    browsers = [Browser(), Browser()]
    try:
        for b, running in zip(browsers, servers, strict=True):
            b.open(running.url)
            b.wait("document.body.dataset.files !== undefined")
        # the first mover's page imported the creator's file 2 from the folder
        browsers[0].wait("document.body.dataset.files === '3'")
        boards = [first, second]
        files, turn, map_clicks = 3, 0, [0, 0]
        while files < 11 and (files < 7 or not all(map_clicks)):
            b, board = browsers[turn], boards[turn]
            b.wait(f"document.body.dataset.files === '{files}'", timeout=60)
            if files > 3:
                assert b.js("pbem.count()") >= 2  # what arrived is replayed
            clicks = play_file(b, board)
            map_clicks[turn] += sum(1 for c in clicks if c.startswith("map:"))
            assert len(list(folder.glob(f"*-{files:04d}-*.pbem"))) == 1
            if SHOTS and files == 6:
                other = browsers[1 - turn]
                other.wait(f"document.body.dataset.files === '{files + 1}'", timeout=60)
                other.click("#last")
                other.screenshot(Path(SHOTS) / f"board-{engine}.png")
            files += 1
            turn = 1 - turn
        assert all(map_clicks), "each player moved a unit by clicking the map"
        browsers[turn].wait(f"document.body.dataset.files === '{files}'", timeout=60)
        a, c = first_home.game(name), second_home.game(name)
        assert a.verifier.seq == c.verifier.seq == files - 1
        assert a.verifier.state.digest() == c.verifier.state.digest()
        for page in browsers:
            assert page.console_errors() == []
    finally:
        for page in browsers:
            page.close()
        for running in servers:
            running.stop()


def test_a_unit_off_the_map_is_picked_by_its_button_on_a_phone(tmp_path: Path) -> None:
    """Mortain's German turn 1: every German unit enters from the east edge (11.1), so
    none has a counter to tap, and the board offered only 'end movement' under "click one
    of your units". Each unit to enter is now a button; a tap lights its entry hexes (in
    sight) and a tap on one enters it."""
    from tests.cli.test_legal_by_unit import mortain_homes

    mortain_homes(tmp_path, "german player's movement phase, turn 1")
    anna = Home(tmp_path / "anna")
    board = Board(anna, "mort")
    running = Running(board)
    b = Browser(390, 844)
    try:
        b.emulate(390, 844, True)
        b.open(running.url)
        wait_idle(b)
        first = b.wait("(document.querySelector('#options button.waiting') || {})"
                       ".dataset && document.querySelector('#options button.waiting')"
                       ".dataset.unit")
        label = b.js("document.querySelector('#options button.waiting').textContent")
        assert first == "G01" and label.startswith("G01 "), label
        assert "off it below" in b.js("document.getElementById('options').textContent")
        b.tap(*b.center_of('#options button.waiting[data-unit="G01"]'))
        b.wait("document.body.dataset.selected === 'G01' && "
               "document.querySelectorAll('#targets polygon').length > 0")
        hexes = b.js("Array.from(document.querySelectorAll('#targets polygon'))"
                     ".map(p => p.getAttribute('data-hex'))")
        target = hexes[0]
        x, y = b.center_of(f'#targets polygon[data-hex="{target}"]')
        assert 0 <= x <= 390 and 0 <= y <= 844, (x, y)  # brought into sight, not off-screen
        if SHOTS:
            b.screenshot(Path(SHOTS) / "board-mortain-enter-phone.png")
        b.tap(x, y)
        b.wait(f"document.querySelector('.counter[data-piece=\"G01\"]') && "
               f"document.querySelector('.counter[data-piece=\"G01\"]')"
               f".getAttribute('data-hex') === {json.dumps(target)}")
        assert anna.game("mort").pending[-1] == ["a", f"enter G01 {target}"]
        # a unit of a stack picked from its list, the page scrolled down to that list: the
        # map comes back into sight with the hexes lit on it
        b.js("window.scrollTo(0, document.body.scrollHeight)")
        b.js("pbemLive.select('G01')")
        b.wait("document.body.dataset.selected === 'G01' && "
               "document.querySelectorAll('#targets polygon').length > 0")
        lit = b.js("Array.from(document.querySelectorAll('#targets polygon'))"
                   ".map(p => p.getAttribute('data-hex'))")
        top = b.js("document.getElementById('board').getBoundingClientRect().top")
        assert top >= -1, top
        assert any(0 <= b.center_of(f'#targets polygon[data-hex="{h}"]')[1] <= 844
                   for h in lit), lit
        assert b.console_errors() == []
    finally:
        b.close()
        running.stop()
