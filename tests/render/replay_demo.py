"""A replay in a real terminal, for the pty test: slow pace, skip with a key.

Run as ``python replay_demo.py``; prints ``DONE skipped=<bool>`` at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from render_maps import small_view
from rich.console import Console

from pbem.engine import Event
from pbem.render.narrate import replay, terminal_keys
from pbem.render.theme import console_theme


def main() -> None:
    console = Console(theme=console_theme())
    events = [Event(f"step {i} of a long turn", "move", hexes=("0404",)) for i in range(40)]
    with terminal_keys(console) as keys:
        assert keys is not None, "not a terminal"
        result = replay(console, [(small_view("soviet"), events)], pace=3.0, poll_key=keys)
    print(f"DONE skipped={result.skipped}")


if __name__ == "__main__":
    main()
