"""Make tests/data/save-format-2: two homes with a Skirmish game saved in format 2.

Run with the code of commit a7adf74 (save format 2), from a checkout of it:
    PBEM_ENGINES=toy_engine:ENGINE PYTHONPATH=tests/toy:tests/core python make.py OUT
"""
import shutil
import sys
from pathlib import Path

from pbem.session import SAVE_FORMAT, Home
from pbem.testing import Chooser, play_file

assert SAVE_FORMAT == 2
out = Path(sys.argv[1])
shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)


def make_home(name: str) -> Home:
    home = Home(out / name.lower(), clock=lambda: 1_700_000_000)
    home.keys.create(name, f"{name.lower()}@example.org", None)
    return home


alice, bob = make_home("Alice"), make_home("Bob")
game = alice.new_game("skirmish", "long", "red", name="duel", nonce=b"\x07" * 32)
joined = bob.join(game.files[0], "0000.pbem", name="duel")
alice.receive(joined.files[1], "0001.pbem")
chooser = Chooser("save-format-2")
for _ in range(4):
    for home, other in ((alice, bob), (bob, alice)):
        g = home.game("duel")
        if g.my_decision() is not None:
            seq, data = g.file(play_file(g, chooser))
            other.receive(data, f"{seq:04d}.pbem")
            break
for home in (alice, bob):
    shutil.rmtree(home.path / "cache", ignore_errors=True)
print(sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()))
