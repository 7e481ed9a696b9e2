"""The README's first screen walks a newcomer from nothing to a first received file,
identity cards exchanged on the way (issue 33, "First game docs"): every command of that
block, as written, run by the player its prompt names."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

README = Path(__file__).resolve().parent.parent.parent / "README.md"


def first_game() -> list[tuple[str, list[str]]]:
    text = README.read_text(encoding="utf-8")
    start = text.index("Your first game, from nothing to a first file received")
    block = text[text.index("```sh\n", start) + 6:]
    block = block[:block.index("```")]
    steps = []
    for line in block.splitlines():
        match = re.fullmatch(r"(\w+)\$\s+pbem (.*?)(\s+#.*)?", line)
        assert match, f"not a 'who$ pbem ...' line: {line!r}"
        steps.append((match.group(1), shlex.split(match.group(2))))
    return steps


def test_the_first_screen_holds_the_whole_path() -> None:
    text = README.read_text(encoding="utf-8")
    # the first screen of text: the block ends within the first 40 lines
    assert text.index("ivan$  pbem legal luki") < len("\n".join(text.splitlines()[:40]))
    commands = [" ".join(args[:2]) for _, args in first_game()]
    for needed in ("id new", "id export", "id import", "join invite.pbem", "inbox Sync/pbem"):
        assert needed in commands, needed
    # the files travel by the game's route: nothing after 'join' names a file to send
    assert not any(args[0] in ("send", "receive") for _, args in first_game())
    # the README's first two commands are kept as they were
    assert text.splitlines()[3] == ("python3 -m venv .venv && .venv/bin/pip install . && "
                                    ".venv/bin/pbem demo")
    assert text.splitlines()[7].startswith("bash scripts/test.sh ")


def test_every_command_of_the_first_game_works(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Sync" / "pbem").mkdir(parents=True)  # the folder the sync tool shares
    outputs = []
    for who, args in first_game():
        # 'pbem id import' asks the player to confirm the fingerprint: the player says yes
        r = run(who, *args, input="y\n")
        assert r.exit_code == 0, (who, args, r.output)
        outputs.append(r.output)
    assert "pinned Ivan" in outputs[4] and "pinned Erich" in outputs[5]
    assert "reply sent: file 1 of luki" in outputs[7]
    assert "sealed file 2 of luki" in outputs[8] and "sent: file 2 of luki" in outputs[8]
    assert "file 2 from the german player" in outputs[9]
    assert "your decision" in outputs[9]
    assert "movement points" in outputs[10]
