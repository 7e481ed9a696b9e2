"""Driving Debian's headless Chromium through its DevTools protocol, stdlib only.

The browser board's tests click in a real browser.  Selenium would need chromium-driver
and a PyPI client; the DevTools protocol needs only a WebSocket, which is a page of code:
this module starts Chromium on a loopback debugging port with a fresh profile, attaches to
its page, and offers what the tests use (navigate, evaluate, click at a point, read a
screenshot).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from render_browser import Image, chromium, read_png

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1", "--mute-audio",
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")


class WebSocket:
    """A client WebSocket (RFC 6455): text frames, masked, fragmented replies joined."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the DevTools connection")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode("latin-1"))
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def send(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the browser closed the DevTools connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def recv(self) -> str:
        parts: list[bytes] = []
        while True:
            b1, b2 = self._read(2)
            n = b2 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            if b1 & 0x0F == 0x8:
                raise ConnectionError("the browser closed the DevTools connection")
            if b1 & 0x0F in (0x9, 0xA):  # ping, pong: not for us
                continue
            parts.append(payload)
            if b1 & 0x80:
                return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


def _end_group(pgid: int) -> None:
    """Kill what is left of the process group Chromium led (its helper processes)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


class Browser:
    """One headless Chromium with one page, driven by DevTools calls."""

    def __init__(self, width: int = 1280, height: int = 860) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="pbem-cdp-",
                                                   ignore_cleanup_errors=True)
        # its own process group: Chromium's helper processes (zygote, renderers, crashpad)
        # outlive the browser process by a moment and go on writing into the profile
        self.proc = subprocess.Popen(
            [chromium(), *FLAGS, f"--user-data-dir={self.profile.name}",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or len(port_file.read_text(encoding="utf-8").split()) < 2:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.05)
        port = int(port_file.read_text(encoding="utf-8").split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            targets = json.load(r)
        page = next(t for t in targets if t["type"] == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        me = self.next_id
        self.ws.send(json.dumps({"id": me, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == me:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})  # type: ignore[no-any-return]
            self.events.append(msg)

    def open(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete'")

    def js(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout}s for {expression}")
            time.sleep(0.05)

    def center_of(self, selector: str) -> tuple[float, float]:
        box = self.js(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                      "if(!e) return null; if(e.scrollIntoView && !(e instanceof SVGElement))"
                      " e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect();"
                      "return [r.left+r.width/2, r.top+r.height/2];})()")
        if box is None:
            raise LookupError(f"nothing matches {selector}")
        return float(box[0]), float(box[1])

    def click_at(self, x: float, y: float) -> None:
        """A real mouse click (press and release) at a point of the page."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def emulate(self, width: int, height: int, touch: bool) -> None:
        """A phone or tablet (``touch``: a touch screen, the mobile viewport) or a desktop."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=touch)
        self.call("Emulation.setTouchEmulationEnabled", enabled=touch, maxTouchPoints=5)

    def touch(self, kind: str, points: list[tuple[float, float]]) -> None:
        """One touch event (touchStart, touchMove, touchEnd) with fingers at ``points``."""
        self.call("Input.dispatchTouchEvent", type=kind,
                  touchPoints=[{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)])

    def tap(self, x: float, y: float) -> None:
        """A finger's tap: down and up at one point (the browser makes it a click)."""
        self.touch("touchStart", [(x, y)])
        self.touch("touchEnd", [])

    def click(self, selector: str) -> None:
        self.click_at(*self.center_of(selector))

    def type_text(self, text: str) -> None:
        self.call("Input.insertText", text=text)

    def screenshot(self, path: Path) -> Image:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return read_png(path)

    def console_errors(self) -> list[str]:
        return [json.dumps(e["params"]) for e in self.events
                if e.get("method") == "Runtime.exceptionThrown"]

    def close(self) -> None:
        try:
            if hasattr(self, "ws"):
                self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            _end_group(self.proc.pid)
            # a helper still exiting may write one more file while the profile is removed
            # (under load CI saw "Directory not empty: 'Default'"): try again briefly
            for _ in range(50):
                shutil.rmtree(self.profile.name, ignore_errors=True)
                if not os.path.exists(self.profile.name):
                    break
                time.sleep(0.1)
            self.profile.cleanup()
