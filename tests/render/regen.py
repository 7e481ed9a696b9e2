"""Rewrite the pinned terminal output after an intended change: ``python tests/render/regen.py``.

Look at the diff (``git diff tests/render/data``) before committing it: it is the board
a player will see.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from render_maps import small_view  # noqa: E402
from rich.console import Console  # noqa: E402

from pbem.render.board import board_screen  # noqa: E402


def main() -> None:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(board_screen(small_view(), show_zoc="soviet"))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    (HERE / "data" / "small_zoom1.txt").write_text(out, encoding="utf-8")


if __name__ == "__main__":
    main()
