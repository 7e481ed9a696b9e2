"""Two private Syncthing instances on loopback sharing one folder (issue 23).

Each instance has its own config directory (``--home``), a GUI/REST address on
127.0.0.1 with an API key, and listens on 127.0.0.1 only; global discovery, local
discovery, relays, NAT traversal, usage reporting, crash reporting and upgrades are off,
and each device is given the other's loopback address.  ``maxConflicts`` is written
out: an element left out is zero to Syncthing, and zero means "keep no conflict copy".
Processes are started in their own session and stopped by their own id: other sessions
share this machine, so nothing here ever looks for a process by name.

Without Syncthing the fixture fails and says to run ``.ci/install-syncthing.sh``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER_ID = "pbem-games"
INSTALL = ".ci/install-syncthing.sh"


class SyncthingError(RuntimeError):
    pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Instance:
    name: str
    home: Path
    folder: Path
    device_id: str
    gui_port: int
    listen_port: int
    api_key: str
    proc: subprocess.Popen[bytes] | None = None
    log: Path = field(default_factory=Path)

    def rest(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.gui_port}{path}", data=data,
                                     method=method, headers={"X-API-Key": self.api_key,
                                                             "Content-Type":
                                                             "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read()
        return json.loads(text) if text.strip() else None

    def pause(self, paused: bool) -> None:
        self.rest("PATCH", f"/rest/config/folders/{FOLDER_ID}", {"paused": paused})

    def scan(self) -> None:
        """Ask for a rescan now: a watcher event can be lost to a paused or busy folder."""
        self.rest("POST", f"/rest/db/scan?folder={FOLDER_ID}")

    def set_delay(self, seconds: int) -> None:
        self.rest("PATCH", f"/rest/config/folders/{FOLDER_ID}", {"fsWatcherDelayS": seconds})

    def connected(self, other: Instance) -> bool:
        conns = self.rest("GET", "/rest/system/connections")["connections"]
        return bool(conns.get(other.device_id, {}).get("connected"))


def _generate(syncthing: str, home: Path) -> str:
    out = subprocess.run([syncthing, "generate", f"--home={home}", "--no-default-folder"],
                         capture_output=True, text=True, timeout=60, check=True)
    match = re.search(r"Device ID:\s*([A-Z0-9-]{63})", out.stdout + out.stderr)
    if not match:
        raise SyncthingError(f"syncthing generate printed no device id: {out.stderr}")
    return match.group(1)


def _config(me: Instance, other: Instance, delay: int, dials: bool) -> str:
    def device(inst: Instance, address: str) -> str:
        return (f'<device id="{inst.device_id}" name="{inst.name}" compression="metadata">'
                f"<address>{address}</address></device>")

    # Only one side dials: when both dial at once, each may drop the connection the other
    # opened and both then wait out Syncthing's 20 s Hello timeout (seen on a loaded CI
    # machine).  "dynamic" with discovery off means "never dial, accept when dialled".
    other_address = f"tcp://127.0.0.1:{other.listen_port}" if dials else "dynamic"

    return f"""<configuration version="36">
  <folder id="{FOLDER_ID}" label="pbem" path="{me.folder}" type="sendreceive"
          rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="{delay}">
    <device id="{me.device_id}"></device>
    <device id="{other.device_id}"></device>
    <maxConflicts>10</maxConflicts>
  </folder>
  {device(me, f"tcp://127.0.0.1:{me.listen_port}")}
  {device(other, other_address)}
  <gui enabled="true" tls="false">
    <address>127.0.0.1:{me.gui_port}</address>
    <apikey>{me.api_key}</apikey>
  </gui>
  <options>
    <listenAddress>tcp://127.0.0.1:{me.listen_port}</listenAddress>
    <globalAnnounceEnabled>false</globalAnnounceEnabled>
    <localAnnounceEnabled>false</localAnnounceEnabled>
    <relaysEnabled>false</relaysEnabled>
    <natEnabled>false</natEnabled>
    <urAccepted>-1</urAccepted>
    <crashReportingEnabled>false</crashReportingEnabled>
    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
    <startBrowser>false</startBrowser>
  </options>
</configuration>
"""


@dataclass
class Pair:
    a: Instance
    b: Instance

    def stop(self) -> None:
        for inst in (self.a, self.b):
            proc = inst.proc
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGTERM)  # by its own id: never by name
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def start_pair(root: Path, delay: int = 1, timeout: float = 90.0) -> Pair:
    """Two instances sharing ``root/a/folder`` and ``root/b/folder``, connected."""
    syncthing = shutil.which("syncthing")
    if syncthing is None:
        raise SyncthingError(f"syncthing is not installed: run {INSTALL} (as root, or "
                             f"scripts/test.sh, which runs every .ci/install-*.sh)")
    insts = []
    for name in ("a", "b"):
        home = root / name / "config"
        folder = root / name / "folder"
        folder.mkdir(parents=True)
        (folder / ".stfolder").mkdir()  # Syncthing's marker: the folder is really there
        insts.append(Instance(name, home, folder, _generate(syncthing, home), _free_port(),
                              _free_port(), os.urandom(16).hex(), log=root / name / "log"))
    a, b = insts
    pair = Pair(a, b)
    env = dict(os.environ, STNOUPGRADE="1", STNORESTART="1", STNODEFAULTFOLDER="1")
    try:
        for me, other in ((a, b), (b, a)):
            (me.home / "config.xml").write_text(_config(me, other, delay, dials=me is a),
                                                encoding="utf-8")
            with me.log.open("wb") as log:
                me.proc = subprocess.Popen(
                    [syncthing, "serve", f"--home={me.home}", "--no-browser", "--no-restart",
                     "--no-upgrade"],
                    stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        end = time.monotonic() + timeout
        while True:
            try:
                if a.connected(b) and b.connected(a):
                    return pair
            except OSError:
                pass  # the REST API is not up yet
            for inst in (a, b):
                if inst.proc is not None and inst.proc.poll() is not None:
                    raise SyncthingError(f"syncthing {inst.name} exited: "
                                         f"{inst.log.read_text(errors='replace')[-2000:]}")
            if time.monotonic() > end:
                raise SyncthingError("the two syncthing instances did not connect within "
                                     f"{timeout:g} s: {a.log.read_text(errors='replace')[-1500:]}")
            time.sleep(0.2)
    except BaseException:
        pair.stop()
        raise


def wait_for(predicate: Any, timeout: float, what: str, step: float = 0.1) -> float:
    """Seconds until ``predicate()`` held; fails naming ``what`` after ``timeout``."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(step)
    return time.monotonic() - start
