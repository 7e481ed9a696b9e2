"""``record_golden.py --check`` with the paths of listed moves set aside.

    python bench/check_paths.py DIR

Replays every text record in DIR (``record_golden.py --dump``, ``dump_whole_games.py``)
through the engines installed now and compares it with the recorded one line for line,
except that a listed ``move UNIT a ... z`` (or a default move) counts as ``move UNIT a ->
z``, and each decision's listed actions are compared as a set.  The proof a search change
needs when it keeps every reachable hex and its cost but may list another path of the
same cost (For the Motherland!'s move onto the kit's ``reachable``, issue 12): every
action, roll, event and result the same, and the same destinations at every decision.
Prints each game's first difference beyond paths; exits 1 if there is one.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.golden import records_of, text_record  # noqa: E402
from pbem.registry import get  # noqa: E402

_LEGAL_MOVE = re.compile(r"(\s*legal )(move \S+ .*)$")
_DEFAULT_MOVE = re.compile(r"default=(move \S+ \S+(?: [0-9]{4})*) legal=")


def _ends(move: str) -> str:
    words = move.split()
    return f"{words[0]} {words[1]} {words[2]} -> {words[-1]}"


def _norm(line: str) -> str:
    m = _LEGAL_MOVE.match(line)
    if m:
        return m.group(1) + _ends(m.group(2))
    m = _DEFAULT_MOVE.search(line)
    if m:
        return line.replace(m.group(1), _ends(m.group(1)))
    return line


def canon(lines: list[str]) -> list[str]:
    """The record with move paths set aside and each run of listed actions sorted."""
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        n = _norm(line)
        if n.startswith("  legal "):
            run.append(n)
            continue
        out += sorted(run)
        run = []
        out.append(n)
    return out[:-1]


def main() -> int:
    parser = argparse.ArgumentParser(prog="check_paths", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    differ = lines = 0
    for path in sorted(args.dir.glob("*.txt")):
        old = path.read_text(encoding="utf-8").splitlines()
        engine_id, scenario, options, records = records_of(old)
        new = text_record(get(engine_id), scenario, options, records)
        lines += sum(1 for a, b in zip(old, new, strict=False) if a != b)
        pairs = zip(canon(old), canon(new), strict=False)
        bad = [(n, a, b) for n, (a, b) in enumerate(pairs, 1) if a != b]
        if len(old) != len(new) or bad:
            differ += 1
            where = f":{bad[0][0]}: was {bad[0][1]!r}, now {bad[0][2]!r}" if bad else \
                f": {len(old)} lines, now {len(new)}"
            print(f"{path.name}{where}")
    print(f"{len(list(args.dir.glob('*.txt')))} games replayed, {differ} differ beyond the "
          f"paths of listed moves ({lines} lines differ in all)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
