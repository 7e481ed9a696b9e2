"""Issue 32 item 2: transports register by name in the ``pbem.transports`` entry-point
group.  A drop box that lives only in this test, installed as a package of its own (a
dist-info folder on sys.path, as pip leaves one), carries a whole game's opening through
``new``, ``join``, a seal, ``send`` and the watcher, with no change to pbem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from transport_helpers import Pair, play_until_sealed

from pbem.cli import main
from pbem.session import Home
from pbem.transport import plugins
from pbem.transport.base import TransportError

DROP_BOX = '''
import base64
import json
from pathlib import Path

from pbem.transport.base import Delivered


class DropBox:
    """Files as base64 lines of one JSON list (a web drop box, in miniature)."""

    name = "drop"

    def __init__(self, home, where):
        self.box = Path(where)

    def _items(self):
        return json.loads(self.box.read_text()) if self.box.exists() else []

    def deliver(self, data, info, game):
        items = self._items()
        items.append(base64.b64encode(data).decode())
        self.box.write_text(json.dumps(items))
        return Delivered("dropped into", str(self.box),
                         f"file {info.seq} of {game.name} dropped into {self.box}")

    def collect(self, router, state):
        return router.route_all((f"{self.box}#{i}", base64.b64decode(item))
                                for i, item in enumerate(self._items()))

    def place(self):
        return f"drop box {self.box}"
'''


@pytest.fixture
def drop_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    info = site / "pbem_test_drop-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pbem-test-drop\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text("[pbem.transports]\n"
                                           "drop = pbem_test_drop:DropBox\n")
    (site / "pbem_test_drop.py").write_text(DROP_BOX)
    monkeypatch.syspath_prepend(str(site))
    return tmp_path / "box.json"


def cli(home: Home, *args: str) -> str:
    res = CliRunner().invoke(main, ["--home", str(home.path), *args],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def test_a_transport_from_another_package_carries_the_game(pair: Pair,
                                                            drop_installed: Path) -> None:
    box = drop_installed
    assert "drop" in plugins.available() and "folder" in plugins.available()
    out = cli(pair.alice, "new", "skirmish", "short", "--side", "red", "--name", "duel",
              "--via", "drop", "--to", str(box))
    assert f"invite sent: file 0 of duel dropped into {box}" in out, out
    invite_path = box.parent / "invite.pbem"
    import base64

    invite_path.write_bytes(base64.b64decode(json.loads(box.read_text())[0]))
    out = cli(pair.bob, "join", str(invite_path), "--name", "duel", "--via", "drop", "--to",
              str(box), "--yes")
    assert f"reply sent: file 1 of duel dropped into {box}" in out, out
    from pbem.transport.watcher import Watcher

    said: list[str] = []
    watcher = Watcher(pair.alice, say=said.append, show=lambda o: None,
                      confirm=lambda info, card: True)
    imported = [o for o in watcher.look() if o.status == "imported"]
    assert [o.info.seq for o in imported if o.info] == [1], imported
    assert said == [f"watching drop box {box}"]
    # a seal goes out by the plugin at once, and status reads it from the one record
    seq, _ = play_until_sealed(pair.alice.game("duel"), pair.chooser)
    assert len(json.loads(box.read_text())) == 3
    assert f"file {seq} sent: dropped into {box}" in cli(pair.alice, "status", "duel")
    # 'pbem send' sends again by the route: the plugin, once more
    assert f"file {seq} of duel dropped into {box}" in cli(pair.alice, "send", "duel")
    assert len(json.loads(box.read_text())) == 4
    bob = Watcher(pair.bob, say=said.append, show=lambda o: None)
    assert [o.info.seq for o in bob.look() if o.status == "imported" and o.info] == [seq]


def test_an_unknown_transport_is_refused_before_anything_is_made(pair: Pair) -> None:
    res = CliRunner().invoke(main, ["--home", str(pair.alice.path), "new", "skirmish",
                                    "short", "--side", "red", "--via", "pigeon"])
    assert res.exit_code != 0
    assert "no transport named 'pigeon' is installed" in res.output, res.output
    assert pair.alice.save_paths() == []
    with pytest.raises(TransportError, match="installed: eml, folder, mail"):
        plugins.factory("pigeon")
